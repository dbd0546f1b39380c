"""The latency experiment's blocks for GNU Radio 3.10 (used by ``gr_bench.py latency``).

``PacedSource`` releases burst k of B numbered ``uint32`` items (item i
holds i mod 2**32) at start + k*T, start being its first ``work`` call; it
sleeps in ``work`` until the next due time (its own thread under GNU
Radio's thread-per-block scheduler, so nothing else waits) and records its
lateness per burst: the ``time.monotonic()`` of the call that wrote the
burst's first item minus the due time.  When the output buffer lacks room
it writes what fits and goes on in the next call: nothing is dropped.

``LatencySink`` checks that every item arrives in order and records, per
burst, the ``time.monotonic()`` of the call that received its first and
its last item.  Both clocks are CLOCK_MONOTONIC, as rfgraph's ``Instant``.

Python's per-call cost is kept small: numpy fills and checks whole
buffers, and each block keeps its per-burst work to a few list appends, so
a burst that fits the buffers costs one ``work`` call per block.
"""

from __future__ import annotations

import math
import time

import numpy as np
from gnuradio import gr


class PacedSource(gr.sync_block):
    """B items every T seconds, ``bursts`` times, then done."""

    def __init__(self, burst: int, period: float, bursts: int):
        gr.sync_block.__init__(self, name="paced_source", in_sig=None,
                               out_sig=[np.uint32])
        self.burst = burst
        self.period = period
        self.bursts = bursts
        self.total = burst * bursts
        self.start_time: float | None = None
        self.written = 0
        self.lateness: list[float] = []

    def due(self, k: int) -> float:
        """Due time of burst ``k`` (after the first call)."""
        return self.start_time + k * self.period

    def work(self, input_items, output_items):
        if self.written >= self.total:
            return -1  # WORK_DONE
        now = time.monotonic()
        if self.start_time is None:
            self.start_time = now
        following = self.written // self.burst
        due = self.due(following)
        if now < due:
            time.sleep(due - now)
            now = time.monotonic()
        # Every burst whose due time has passed, at least the one slept for
        # (floating point must not make the call write nothing).
        due_bursts = max(int((now - self.start_time) / self.period) + 1,
                         following + 1)
        due_items = min(self.total, due_bursts * self.burst)
        out = output_items[0]
        n = min(len(out), due_items - self.written)
        out[:n] = np.arange(self.written, self.written + n,
                            dtype=np.uint64).astype(np.uint32)
        first = -(-self.written // self.burst)
        end = -(-(self.written + n) // self.burst)
        for k in range(first, end):
            self.lateness.append(max(0.0, now - self.due(k)))
        self.written += n
        return n


class LatencySink(gr.sync_block):
    """Checks the sequence; keeps first/last arrival per burst."""

    def __init__(self, burst: int, bursts: int):
        gr.sync_block.__init__(self, name="latency_sink",
                               in_sig=[np.uint32], out_sig=None)
        self.burst = burst
        self.received = 0
        self.first: list[float] = []
        self.last: list[float] = []
        self.error: str | None = None
        self._ramp = np.arange(2 * burst, dtype=np.uint32)

    def work(self, input_items, output_items):
        now = time.monotonic()
        inp = input_items[0]
        n = len(inp)
        if n > len(self._ramp):
            self._ramp = np.arange(n, dtype=np.uint32)
        base = self.received
        # uint32 subtraction wraps, as the sequence does.
        wrong = np.flatnonzero((inp - np.uint32(base & 0xFFFFFFFF)) != self._ramp[:n])
        if wrong.size:
            j = int(wrong[0])
            self.error = (f"item {base + j} holds {int(inp[j])}, expected "
                          f"{(base + j) & 0xFFFFFFFF}: an item was lost, "
                          "repeated or reordered")
            return -1
        b = self.burst
        self.first.extend([now] * (-(-(base + n) // b) - -(-base // b)))
        self.last.extend([now] * (-(-(base + n + 1) // b) - -(-(base + 1) // b)))
        self.received = base + n
        return n


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p99, max in microseconds, by nearest rank (as rfgraph's)."""
    if not samples:
        return (math.nan, math.nan, math.nan)
    us = sorted(s * 1e6 for s in samples)
    n = len(us)

    def rank(p: float) -> float:
        return us[min(max(math.ceil(p * n), 1), n) - 1]

    return (rank(0.5), rank(0.99), rank(1.0))


def latency_fields(prefix: str, samples: list[float]) -> dict:
    """``{prefix}_p50_us``, ``{prefix}_p99_us``, ``{prefix}_max_us``."""
    p50, p99, top = percentiles(samples)
    return {f"{prefix}_p50_us": p50, f"{prefix}_p99_us": p99,
            f"{prefix}_max_us": top}


def parse_duration(text: str) -> float:
    """Seconds from ``1ms``, ``500us``, ``500µs``, ``250000ns``, ``2s`` or ``0.5``."""
    t = text.strip()
    for unit, scale in (("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6),
                        ("ms", 1e-3), ("s", 1.0)):
        if t.endswith(unit):
            value = float(t[: -len(unit)]) * scale
            break
    else:
        value = float(t)
    if not value > 0:
        raise ValueError(f"{text!r} is not a positive duration")
    return value
