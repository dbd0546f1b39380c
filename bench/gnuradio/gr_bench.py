#!/usr/bin/python3
"""GNU Radio 3.10 side of the rfgraph benchmarks (the records `rfgraph bench` writes).

Run it with Debian's interpreter, which sees the ``gnuradio`` package::

    /usr/bin/python3 bench/gnuradio/gr_bench.py stream --pipes P --stages S --items N [--repeat R] [--rt]
    /usr/bin/python3 bench/gnuradio/gr_bench.py msg    --pipes P --stages S --burst K [--repeat R]
    /usr/bin/python3 bench/gnuradio/gr_bench.py chain  --branches B --stages S --items N [--repeat R]
    /usr/bin/python3 bench/gnuradio/gr_bench.py saxpy  --blocks M --cores C --items N [--repeat R]
    /usr/bin/python3 bench/gnuradio/gr_bench.py dsp    --kernel NAME [--taps T] --items N [--repeat R]
    /usr/bin/python3 bench/gnuradio/gr_bench.py io     --mode MODE --file F [--out F2 --items N] [--repeat R]
    /usr/bin/python3 bench/gnuradio/gr_bench.py latency --rate 20e6 --period 1ms --stages N --bursts K [--repeat R]
    /usr/bin/python3 bench/gnuradio/gr_bench.py fm     --file F.cu8 [--format cu8|cf32] [--rate 2.4e6] [--offset HZ] [--mono] [--cores C] [--repeat R]
    /usr/bin/python3 bench/gnuradio/gr_bench.py pacing [--seconds 2] [--rate 32000] [--repeat R]
    /usr/bin/python3 bench/gnuradio/gr_bench.py net    --mode zmq|zmq_tags --items N [--tag-interval 1000] [--repeat R]

Output contract
---------------
Every run builds a fresh ``gr.top_block``, times only ``tb.run()`` with
``time.perf_counter()`` (see "Timed span" below) and prints exactly one JSON
object on one line on stdout.  Nothing else is ever written to stdout: human-readable summaries go
to stderr, and file descriptor 1 is redirected to stderr for the life of the
process so that stray C++ ``std::cout`` output from GNU Radio cannot corrupt
the JSON stream (the JSON goes to a private duplicate of the original stdout).

Common fields: ``experiment``, ``runtime`` ("gnuradio-3.10"), ``scheduler``
("tpb", the thread-per-block scheduler), ``run`` (0-based), ``seconds``, the
experiment's parameters under the option names, ``items_per_s`` (items leaving
the sinks per second, summed over sinks) and ``block_items_per_s`` (items per
second summed over all blocks that process samples; which blocks count is
stated in each record).  Every rate divides by ``seconds``.  Extra fields
(``start_seconds``, ``gr_version``, ``host_cpus``, ...) are informational.

Timed span
----------
``seconds`` is the whole ``tb.run()``: GNU Radio's Python ``top_block.run``
is ``tb.start()`` then ``tb.wait()``, and the script calls those two itself
so that ``start_seconds`` can report the ``tb.start()`` part (flattening,
buffer allocation, scheduler creation, spawning one thread per block; the
threads already run during part of it).  ``tb.wait()`` covers the run, each
block's ``stop()`` on its thread, and the joins.  Building the top block
(blocks, taps, source data, connections, affinities) and, for ``msg``,
queuing the PDUs come before the timer; ``del tb`` (freeing the buffers)
comes after it.

rfgraph's ``rfgraph bench`` times the same span: it builds its graph, then
times from just before its scheduler is created until ``Flowgraph::run``
returned (validation, rings, every block's ``init``, the threads, the run,
every ``deinit``, the joins), and keeps its run phase alone as
``run_seconds``.  Per experiment:

=========== ============================================ =========================================
experiment  built before the timer                       timed
=========== ============================================ =========================================
stream      top block: P x (source, head, S copies,       ``tb.run()``
            sink)
chain       the same with B branches                     ``tb.run()``
saxpy       top block with processor affinities          ``tb.run()``
msg         top block; one 500-byte PDU posted K times   ``tb.run()``: every hop from the first
            into each pipe's first forwarder, then        forwarder's queue on, set-up and
            ``done``                                      teardown
dsp         random pool, taps, kernel, top block         ``tb.run(65536)``
io          top block (``file_source`` opens its file,   ``tb.run()``
            ``file_sink`` creates/truncates its file)
pacing      top block (``file_sink`` creates its file)    ``tb.run()``; ``cpu_seconds`` is
                                                         ``resource.getrusage`` around it
net         top block (``push_sink`` binds when it is     ``tb.start()`` until the sink has seen
            made, ``pull_source`` connects)               N items (polled every 0.5 ms); the
                                                         ``tb.stop()`` + ``tb.wait()`` after
                                                         it is ``stop_seconds``, not timed
=========== ============================================ =========================================

``msg`` is the one place where the two differ: rfgraph's pipes start with a
source block that posts the K messages to the first forwarder inside its
timer, while here they are queued before it.  Posting inside the timer from
Python would time the Python binding (about 0.5 us per post), not GNU
Radio's runtime, so the PDUs stay pre-queued, as in FutureSDR's C++
GNU Radio program, and the asymmetry (one post more per message and one
block more per pipe on rfgraph's side) is documented rather than removed.

Experiments (stock C++ blocks only on the data path)
----------------------------------------------------
stream  P pipes of null_source -> head(N) -> S x copy -> null_sink (float),
        GRCon'19 Fig. 1/3.  Counted blocks per pipe: head, S copies, sink.
        ``--rt`` calls ``gr.enable_realtime_scheduling()`` first.
chain   B branches (default 4) of the same shape, GRCon'19 Fig. 7/8.
saxpy   null_source -> head(N) -> M x (multiply_const_ff(a) -> add_const_ff(b))
        -> null_sink; the M saxpy stages are split into C contiguous groups,
        group g pinned to CPU g (source/head on the first CPU, sink on the
        last).  Only the M saxpy steps are counted.  null_source writes
        zeros, so records say ``fill: true``: they compare with rfgraph's
        ``--fill`` workload, not its default (qsdr's flowgraph, whose source
        writes nothing).
msg     P pipes of S ``pdu.pdu_filter`` forwarders -> ``blocks.message_debug``
        (its "store" port counts the messages).  K preallocated 500-byte PDUs
        and then a system "done" message are queued in each pipe's first
        forwarder before ``tb.run()``; GRCon'19 Fig. 2.
dsp     source -> head(N) -> kernel -> null_sink, one kernel per run.
        ``viterbi``: fec.extended_decoder around fec.cc_decoder (K=7, r=1/2,
        polys [109, 79], 2048-bit terminated frames), float soft symbols in,
        N rounded down to whole frames of 4108 symbols; records add
        ``decoded_bits_per_s``.  ``ofdm-rx``: rfgraph's bench/dsp_ofdm.rs,
        two chains in one top block on ofdm_txrx.py's defaults (64
        carriers, CP 16, QPSK): frames with prefixes -> ofdm_sync_sc_cfb
        -> null sinks, and the same frames without prefixes (frame_len tag
        = 20 data symbols per frame of 2 sync + 20 data symbols) -> fft_vcc
        (shifted, no window) -> ofdm_chanest_vcvc -> ofdm_frame_equalizer_vcvc
        (simpledfe) -> ofdm_serializer_vcc -> null sink.  N counts received
        samples (with prefixes), rounded down to whole frames; records add
        ``frames_per_s``.
io      raw files, as ``rfgraph bench io`` (which makes the files and runs
        this with ``--gnuradio``): ``source-cu8`` is
        file_source(sizeof_char) -> interleaved_char_to_complex(scale 128)
        -> null_sink(gr_complex); ``source-cf32`` file_source(gr_complex)
        -> null_sink; ``sink-cf32`` null_source(gr_complex) -> head(N) ->
        file_sink(gr_complex) (buffered, GNU Radio's default).  Records add
        ``mode``, ``format``, ``file_bytes`` and ``bytes_per_s`` (file bytes
        read or written per second); ``items`` counts complex samples.
latency gr_latency.PacedSource (embedded Python: B = rate x period uint32
        sequence numbers every period, sleeping until each due time) ->
        N x copy(sizeof_int) -> gr_latency.LatencySink (Python: checks the
        sequence, keeps each burst's first/last arrival).  Records add
        ``first_*``, ``last_*`` and ``source_late_*`` p50/p99/max in us
        (arrival or write minus the burst's due time, nearest rank) and
        ``cpu_seconds`` (``resource.getrusage`` around ``tb.run()``).
        Every output holds at least two bursts (``set_min_output_buffer``).
fm      the FM receiver, as ``rfgraph bench fm`` (which makes the cu8
        recording and runs this with ``--gnuradio``): file_source(char) ->
        add_const_bb(128) (cu8 to the signed bytes the next block reads) ->
        interleaved_char_to_complex(scale 128) ->
        freq_xlating_fir_filter_ccf(rate / 240 k, taps, offset) ->
        analog.wfm_rcv_pll(240 k, 5, 50 us) -> two null_sinks (48 kHz
        audio); ``--format cf32``: file_source(gr_complex) straight into
        freq_xlating_fir_filter_ccf; ``--mono``: ... -> quadrature_demod_cf -> fm_deemph(240 k)
        -> rational_resampler_fff(1, 5, taps) -> null_sink.  The channel
        and audio taps are rfgraph's (same Kaiser formulas:
        ``kaiser_lowpass``).  ``--cores C`` pins the process to C CPUs.
        Records add ``mode``, ``cores``, ``channel_taps``, ``real_time``;
        ``items`` counts input samples.
pacing  a throttled simulation, as ``rfgraph bench pacing``:
        analog.sig_source_c(rate, cos, 1 kHz) -> fir_filter_ccf(1,
        firdes.low_pass(1, rate, rate * 5/32, rate / 16, hamming)) ->
        throttle(rate) -> head(seconds * rate) -> file_sink (in /dev/shm).
        The wall time is the throttle's; records add ``cpu_seconds``
        (user + system of the process, ``resource.getrusage(RUSAGE_SELF)``
        just before ``tb.start()`` and just after ``tb.wait()``),
        ``cpu_user_seconds``, ``cpu_system_seconds``, ``cpu_share``,
        ``throttle_work_calls`` (``null``: GNU Radio does not count them)
        and ``reaction_seconds``: halfway through, ``src.set_frequency``
        retunes 1 kHz to 3 kHz; the release time of the first sample at the
        new frequency (index / rate) minus when the retune was made.

net     ZeroMQ over loopback in one top block, as ``rfgraph bench net``
        (which runs this with ``--gnuradio``): null_source(gr_complex) ->
        head(N) -> zeromq.push_sink(tcp://127.0.0.1:PORT, pass_tags) and
        zeromq.pull_source(the same address) -> head(N) -> null_sink;
        ``--mode zmq_tags`` turns pass_tags on, the source is
        tags_strobe(gr_complex, 1, --tag-interval, "strobe") (zeros with a
        tag every 1000 items) and the sink tag_debug (display off), which
        keeps the tags of its last call only: ``tags_last_call`` shows that
        tags flow, ``tags`` (the count that arrived) is ``null``.  The pull_source never
        notices that its head finished, so ``tb.run()`` would never
        return: the script calls ``tb.start()``, polls the sink's
        ``nitems_read(0)`` every 0.5 ms until it holds N items, then
        ``tb.stop()`` and ``tb.wait()``.  ``seconds`` runs from just before
        ``tb.start()`` to the poll that saw the N-th item (so it holds the
        start-up and the run, at most 0.5 ms late, but not the teardown);
        ``stop_seconds`` is the teardown after it.  Records add ``mode``,
        ``items``, ``bytes_per_s``, ``pass_tags``, ``tag_interval``,
        ``tags`` and ``tags_last_call``.

Exit status: 0 on success, 2 for invalid options (argparse), 1 when a run
fails a check (lost messages, wrong sample count), 3 when the watchdog had to
stop a hung flowgraph.

GNU Radio 3.10 notes (verified against the installed 3.10.5.1)
---------------------------------------------------------------
* ``pdu_filter`` lives in ``gnuradio.pdu`` (``gnuradio.blocks.pdu_filter`` is
  a deprecated alias); ports are "pdus" in and out.  It forwards a PDU when
  ``(key present and value matches) != invert``.  With a key that never
  occurs, ``invert=False`` DROPS every PDU, so the forwarder is built with
  ``invert=True``.
* Shutdown of a message-only flowgraph: posting ``("done" . 1)`` to a block's
  "system" port sets ``finished``; its thread then ends and posts the same
  message to every message subscriber (``notify_msg_neighbors``), so the done
  walks down each pipe.  No message is lost because in 3.10 the per-block
  queue map is ordered by ``msg_queue_comparator``, which puts "system" FIRST:
  in the loop iteration that sees "done" the block still drains its whole
  "pdus" queue afterwards, and upstream posted all its PDUs before its done.
  The script checks the received count anyway and fails loudly if it differs.
* ``analog.quadrature_demod_cf`` is measurably faster on all-zero input
  (about 135 vs 113 Msample/s here), so the dsp experiment feeds a repeating
  buffer of random samples (``blocks.vector_source_*``, repeat=True) by
  default; ``--source null`` selects ``blocks.null_source`` instead.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import sys
import threading
import time
from typing import Callable, TextIO

import numpy

try:
    import pmt
    from gnuradio import analog, blocks, fft, filter as gr_filter, gr, pdu, zeromq
    from gnuradio.fft import window
except ImportError as exc:  # pragma: no cover - environment problem
    sys.stderr.write(
        f"gr_bench: cannot import GNU Radio ({exc}); run this script with "
        "/usr/bin/python3 (Debian's python3-gnuradio)\n")
    sys.exit(2)

RUNTIME = "gnuradio-3.10"
SCHEDULER = "tpb"
MSG_BYTES = 500
WATCHDOG_GRACE_S = 20.0
DSP_MAX_NOUTPUT_ITEMS = 65536
DSP_POOL_SAMPLES = 8192
DSP_KERNELS = ("fir-fff", "fir-ccf", "fir-ccc", "fft", "resamp-ccf",
               "quad-demod", "rotator", "symsync-cc", "viterbi", "ofdm-rx")
# dsp --kernel viterbi: rfgraph's bench/dsp_viterbi.rs, the same code.
VITERBI_FRAME_BITS = 2048
VITERBI_FRAME_SYMBOLS = 2 * (VITERBI_FRAME_BITS + 6)
DSP_DEFAULT_TAPS = {"fir-fff": 64, "fir-ccf": 64, "fir-ccc": 64, "fft": 1024,
                    "resamp-ccf": 64}
SAXPY_A = 0.5
SAXPY_B = 1.0

Emit = Callable[[dict], None]


class BenchError(RuntimeError):
    """A run finished but failed a correctness check."""


class WatchdogFired(RuntimeError):
    """The watchdog had to stop a flowgraph that did not finish in time."""


def log(text: str) -> None:
    """Human-readable line on stderr."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


# --------------------------------------------------------------------------
# Running and timing
# --------------------------------------------------------------------------

class Watchdog:
    """Stops ``tb`` if it is still running after ``timeout_s`` seconds.

    If ``tb.stop()`` does not make ``tb.run()`` return within
    ``WATCHDOG_GRACE_S`` more seconds the process exits with status 3.
    """

    def __init__(self, tb: gr.top_block, timeout_s: float, what: str):
        self._tb = tb
        self._timeout_s = timeout_s
        self._what = what
        self._finished = threading.Event()
        self.fired = False
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        if self._finished.wait(self._timeout_s):
            return
        self.fired = True
        log(f"gr_bench: watchdog: {self._what} still running after "
            f"{self._timeout_s:g} s; calling tb.stop()")
        self._tb.stop()
        if not self._finished.wait(WATCHDOG_GRACE_S):
            log(f"gr_bench: watchdog: tb.stop() did not end {self._what} "
                f"within {WATCHDOG_GRACE_S:g} s; exiting")
            os._exit(3)

    def __enter__(self) -> "Watchdog":
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._finished.set()
        self._thread.join()


class Timing:
    """Wall seconds of one ``tb.run()`` and of its ``tb.start()`` part."""

    def __init__(self, seconds: float, start_seconds: float):
        self.seconds = seconds
        self.start_seconds = start_seconds


def timed_run(tb: gr.top_block, timeout_s: float, what: str,
              max_noutput_items: int | None = None, meanwhile=None) -> Timing:
    """Run ``tb`` to completion under a watchdog, timing ``tb.run()``.

    ``top_block.run`` is ``start`` then ``wait`` in GNU Radio 3.10's
    Python; calling them here times exactly that span and also its
    ``start`` part. ``meanwhile(start)``, if given, runs between the two
    (it gets the ``perf_counter`` instant the run started).
    """
    with Watchdog(tb, timeout_s, what) as dog:
        start = time.perf_counter()
        if max_noutput_items is None:
            tb.start()
        else:
            tb.start(max_noutput_items)
        started = time.perf_counter()
        if meanwhile is not None:
            meanwhile(start)
        tb.wait()
        end = time.perf_counter()
    if dog.fired:
        raise WatchdogFired(f"{what} did not finish within {timeout_s:g} s "
                            "and was stopped by the watchdog")
    return Timing(end - start, started - start)


def base_record(experiment: str, run: int, timing: Timing) -> dict:
    """Fields shared by every JSON record."""
    return {
        "experiment": experiment,
        "runtime": RUNTIME,
        "scheduler": SCHEDULER,
        "run": run,
        "seconds": timing.seconds,
        "start_seconds": timing.start_seconds,
        "gr_version": gr.version(),
        "host_cpus": len(os.sched_getaffinity(0)),
    }


def check_sinks(sinks: list, expected: int, what: str) -> None:
    """Every stream sink must have consumed exactly ``expected`` items."""
    got = [int(s.nitems_read(0)) for s in sinks]
    if any(g != expected for g in got):
        raise BenchError(f"{what}: sinks consumed {got}, expected {expected} each")


# --------------------------------------------------------------------------
# stream / chain
# --------------------------------------------------------------------------

def build_copy_pipes(tb: gr.top_block, pipes: int, stages: int,
                     items: int) -> list:
    """P x (null_source -> head(N) -> S x copy -> null_sink); returns sinks."""
    size = gr.sizeof_float
    sinks = []
    for _ in range(pipes):
        chain = [blocks.null_source(size), blocks.head(size, items)]
        chain += [blocks.copy(size) for _ in range(stages)]
        sink = blocks.null_sink(size)
        chain.append(sink)
        tb.connect(*chain)
        sinks.append(sink)
    return sinks


def copy_pipes_experiment(args: argparse.Namespace, emit: Emit,
                          experiment: str, count_name: str, unit: str,
                          count: int, extra: dict) -> None:
    """Shared body of ``stream`` and ``chain`` (``unit``: "pipe"/"branch")."""
    counted = args.stages + 2  # head + S copies + sink
    for run in range(args.repeat):
        tb = gr.top_block(f"{experiment}-{run}")
        sinks = build_copy_pipes(tb, count, args.stages, args.items)
        timing = timed_run(tb, args.timeout, f"{experiment} run {run}")
        check_sinks(sinks, args.items, f"{experiment} run {run}")
        seconds = timing.seconds
        rec = base_record(experiment, run, timing)
        rec.update({
            count_name: count,
            "stages": args.stages,
            "items": args.items,
            "items_per_s": count * args.items / seconds,
            "block_items_per_s": count * args.items * counted / seconds,
            f"blocks_counted_per_{unit}": counted,
        })
        rec.update(extra)
        emit(rec)
        log(f"{experiment} run {run}: {count} x {args.stages} stages, "
            f"{args.items} items: {seconds:.3f} s, "
            f"{rec['items_per_s'] / 1e6:.1f} M items/s at the sinks, "
            f"{rec['block_items_per_s'] / 1e6:.1f} M block-items/s")
        del tb


def run_stream(args: argparse.Namespace, emit: Emit) -> None:
    """GRCon'19 Fig. 1/3: P pipes x S copy stages, optional RT priority."""
    rt_ok = False
    if args.rt:
        status = gr.enable_realtime_scheduling()
        rt_ok = status == gr.RT_OK
        if not rt_ok:
            log(f"stream: gr.enable_realtime_scheduling() returned {status}; "
                "running with normal priority")
    copy_pipes_experiment(args, emit, "stream", "pipes", "pipe", args.pipes,
                          {"rt": rt_ok, "rt_requested": bool(args.rt)})


def run_chain(args: argparse.Namespace, emit: Emit) -> None:
    """GRCon'19 Fig. 7/8 (default configuration): B branches x S copies."""
    copy_pipes_experiment(args, emit, "chain", "branches", "branch",
                          args.branches, {})


# --------------------------------------------------------------------------
# saxpy
# --------------------------------------------------------------------------

def run_saxpy(args: argparse.Namespace, emit: Emit) -> None:
    """source -> M x (a*x, +b) -> sink, stages in C contiguous core groups."""
    cpus = sorted(os.sched_getaffinity(0))[:args.cores]
    size = gr.sizeof_float
    # stage i belongs to group floor(i * C / M): C contiguous, near-equal groups
    groups = [i * args.cores // args.blocks for i in range(args.blocks)]
    for run in range(args.repeat):
        tb = gr.top_block(f"saxpy-{run}")
        src = blocks.null_source(size)
        head = blocks.head(size, args.items)
        for blk in (src, head):
            blk.set_processor_affinity([cpus[0]])
        chain = [src, head]
        for group in groups:
            mul = blocks.multiply_const_ff(SAXPY_A)
            add = blocks.add_const_ff(SAXPY_B)
            for blk in (mul, add):
                blk.set_processor_affinity([cpus[group]])
            chain += [mul, add]
        sink = blocks.null_sink(size)
        sink.set_processor_affinity([cpus[-1]])
        chain.append(sink)
        tb.connect(*chain)
        timing = timed_run(tb, args.timeout, f"saxpy run {run}")
        check_sinks([sink], args.items, f"saxpy run {run}")
        seconds = timing.seconds
        rec = base_record("saxpy", run, timing)
        rec.update({
            "blocks": args.blocks,
            "cores": args.cores,
            "items": args.items,
            "items_per_s": args.items / seconds,
            "block_items_per_s": args.items * args.blocks / seconds,
            "blocks_counted": args.blocks,
            # null_source writes every item (rfgraph's `--fill`).
            "fill": True,
            "gr_blocks_per_saxpy": 2,
            "a": SAXPY_A,
            "b": SAXPY_B,
            "cpu_ids": cpus,
            "stage_groups": groups,
        })
        emit(rec)
        log(f"saxpy run {run}: {args.blocks} stages on {args.cores} cores, "
            f"{args.items} items: {seconds:.3f} s, "
            f"{rec['items_per_s'] / 1e6:.1f} M items/s, "
            f"{rec['block_items_per_s'] / 1e6:.1f} M saxpy-items/s")
        del tb


# --------------------------------------------------------------------------
# msg
# --------------------------------------------------------------------------

def run_msg(args: argparse.Namespace, emit: Emit) -> None:
    """GRCon'19 Fig. 2: P pipes x S message forwarders, burst of K PDUs."""
    port = pmt.intern("pdus")
    system = pmt.intern("system")
    done = pmt.cons(pmt.intern("done"), pmt.from_long(1))
    never = pmt.intern("gr_bench_never_present")
    # one preallocated 500-byte PDU, shared by every post (the paper
    # preallocates its messages; GNU Radio passes them by reference)
    message = pmt.cons(pmt.make_dict(), pmt.init_u8vector(MSG_BYTES, [0] * MSG_BYTES))
    expected = args.pipes * args.burst
    hops = expected * (args.stages + 1)
    for run in range(args.repeat):
        tb = gr.top_block(f"msg-{run}")
        firsts, sinks = [], []
        for _ in range(args.pipes):
            # invert=True: a key that is never present => always forwarded
            fwd = [pdu.pdu_filter(never, pmt.PMT_T, True) for _ in range(args.stages)]
            sink = blocks.message_debug()
            for up, down in zip(fwd, fwd[1:]):
                tb.msg_connect((up, "pdus"), (down, "pdus"))
            tb.msg_connect((fwd[-1], "pdus"), (sink, "store"))
            firsts.append(fwd[0])
            sinks.append(sink)
        for first in firsts:
            # post through the basic_block handle: calling _post on the
            # pdu_filter wrapper itself costs ~100-200 us per call in the 3.10
            # Python bindings, via basic_block it is ~0.5 us
            target = first.to_basic_block()
            for _ in range(args.burst):
                target._post(port, message)
            target._post(system, done)
        # the timer starts after the PDUs are queued (see "Timed span")
        timing = timed_run(tb, args.timeout, f"msg run {run}")
        seconds = timing.seconds
        got = [int(s.num_messages()) for s in sinks]
        if sum(got) != expected:
            raise BenchError(f"msg run {run}: sinks received {sum(got)} messages "
                             f"(per pipe {got}), expected {expected}: messages lost")
        rec = base_record("msg", run, timing)
        rec.update({
            "pipes": args.pipes,
            "stages": args.stages,
            "burst": args.burst,
            "message_bytes": MSG_BYTES,
            "messages_per_s": expected / seconds,
            "hop_ns": seconds * 1e9 / hops,
            "items_per_s": expected / seconds,
            "block_items_per_s": hops / seconds,
            "blocks_counted_per_pipe": args.stages + 1,
        })
        emit(rec)
        log(f"msg run {run}: {args.pipes} x {args.stages} forwarders, burst "
            f"{args.burst}: {seconds:.3f} s, {rec['messages_per_s'] / 1e3:.1f} k msg/s, "
            f"{rec['hop_ns']:.0f} ns/hop")
        del tb


# --------------------------------------------------------------------------
# dsp
# --------------------------------------------------------------------------

def lowpass_taps(ntaps: int) -> list[float]:
    """Exactly ``ntaps`` real taps: Hamming-windowed sinc, cutoff 0.2 fs."""
    cutoff = 0.2
    mid = (ntaps - 1) / 2.0
    taps = []
    for n in range(ntaps):
        x = n - mid
        sinc = 2 * cutoff if x == 0 else math.sin(2 * math.pi * cutoff * x) / (math.pi * x)
        ham = 0.54 - 0.46 * math.cos(2 * math.pi * n / (ntaps - 1)) if ntaps > 1 else 1.0
        taps.append(sinc * ham)
    return taps


def complex_taps(ntaps: int) -> list[complex]:
    """The low-pass taps shifted to +0.1 fs (a genuinely complex band-pass)."""
    return [t * complex(math.cos(2 * math.pi * 0.1 * n), math.sin(2 * math.pi * 0.1 * n))
            for n, t in enumerate(lowpass_taps(ntaps))]


def dsp_kernel(name: str, taps: int | None):
    """Returns (block, input is complex, output item size, vlen)."""
    if name == "fir-fff":
        return gr_filter.fir_filter_fff(1, lowpass_taps(taps)), False, gr.sizeof_float, 1
    if name == "fir-ccf":
        return gr_filter.fir_filter_ccf(1, lowpass_taps(taps)), True, gr.sizeof_gr_complex, 1
    if name == "fir-ccc":
        return gr_filter.fir_filter_ccc(1, complex_taps(taps)), True, gr.sizeof_gr_complex, 1
    if name == "fft":
        return (fft.fft_vcc(taps, True, window.blackmanharris(taps)), True,
                gr.sizeof_gr_complex * taps, taps)
    if name == "resamp-ccf":
        return (gr_filter.rational_resampler_ccf(3, 2, lowpass_taps(taps)), True,
                gr.sizeof_gr_complex, 1)
    if name == "quad-demod":
        return analog.quadrature_demod_cf(1.0), True, gr.sizeof_float, 1
    if name == "rotator":
        return blocks.rotator_cc(0.01), True, gr.sizeof_gr_complex, 1
    if name == "symsync-cc":
        # Gardner detector, MMSE 8-tap resampler, 4 samples per symbol.
        from gnuradio import digital
        return (digital.symbol_sync_cc(digital.TED_GARDNER, 4.0, 0.045, 1.0, 1.0, 1.5, 1,
                                       digital.constellation_bpsk().base(),
                                       digital.IR_MMSE_8TAP, 128, []),
                True, gr.sizeof_gr_complex, 1)
    if name == "viterbi":
        return viterbi_decoder(), False, gr.sizeof_char, 1
    raise ValueError(f"unknown kernel {name}")


def viterbi_decoder():
    """GNU Radio's K=7 Viterbi decoder as a flowgraph runs it: the
    extended decoder (soft float -> uchar mapping, fec.decoder) around a
    terminated cc_decoder of VITERBI_FRAME_BITS-bit frames."""
    from gnuradio import fec
    dec = fec.cc_decoder.make(VITERBI_FRAME_BITS, 7, 2, [109, 79], 0, -1,
                              fec.CC_TERMINATED, False)
    return fec.extended_decoder(dec, None, None, "11")


def dsp_source(kind: str, is_complex: bool, vlen: int, pool):
    """null_source of the right item size, or a repeating random buffer."""
    size = (gr.sizeof_gr_complex if is_complex else gr.sizeof_float) * vlen
    if kind == "null":
        return blocks.null_source(size)
    if is_complex:
        return blocks.vector_source_c(pool, True, vlen)
    return blocks.vector_source_f([z.real for z in pool], True, vlen)


OFDM_FFT_LEN = 64
OFDM_CP_LEN = 16
OFDM_DATA_SYMBOLS = 20
OFDM_POOL_FRAMES = 8
OFDM_FRAME_SAMPLES = (OFDM_DATA_SYMBOLS + 2) * (OFDM_FFT_LEN + OFDM_CP_LEN)


def ofdm_pool():
    """OFDM_POOL_FRAMES random frames (2 sync + data symbols, QPSK data,
    ofdm_txrx.py's pilots) as lists of time-domain symbols."""
    from gnuradio.digital import ofdm_txrx as txrx
    fft_len = OFDM_FFT_LEN
    occ = txrx._def_occupied_carriers
    pil = txrx._def_pilot_carriers
    psym = txrx._def_pilot_symbols
    sync1 = txrx._make_sync_word1(fft_len, occ, pil)
    sync2 = txrx._make_sync_word2(fft_len, occ, pil)
    rng = numpy.random.default_rng(7)
    qpsk = numpy.array([1 + 1j, -1 + 1j, -1 - 1j, 1 - 1j]) / math.sqrt(2)
    frames = []
    for _ in range(OFDM_POOL_FRAMES):
        syms = [numpy.array(sync1, complex), numpy.array(sync2, complex)]
        for d in range(OFDM_DATA_SYMBOLS):
            x = numpy.zeros(fft_len, complex)
            for k in occ[d % len(occ)]:
                x[k + fft_len // 2] = qpsk[rng.integers(4)]
            for k, v in zip(pil[d % len(pil)], psym[d % len(psym)]):
                x[k + fft_len // 2] = v
            syms.append(x)
        frames.append([numpy.fft.ifft(numpy.fft.ifftshift(x)) for x in syms])
    return frames, sync1, sync2, occ, pil, psym


def run_dsp_ofdm(args: argparse.Namespace, emit: Emit) -> None:
    """dsp --kernel ofdm-rx: the receiver's acquisition and demodulation
    chains (see the module docstring), timing tb.run(65536)."""
    from gnuradio import digital
    frames, sync1, sync2, occ, pil, psym = ofdm_pool()
    nframes = max(1, args.items // OFDM_FRAME_SAMPLES)
    symbols = OFDM_DATA_SYMBOLS + 2
    timed = numpy.concatenate([numpy.concatenate([numpy.concatenate([t[-OFDM_CP_LEN:], t]) for t in fr])
                               for fr in frames]).astype(numpy.complex64)
    payload = numpy.concatenate([numpy.concatenate(fr) for fr in frames]).astype(numpy.complex64)
    for run in range(args.repeat):
        tb = gr.top_block(f"dsp-ofdm-{run}")
        tags = [gr.tag_utils.python_to_tag((f * symbols, pmt.intern("frame_len"),
                                            pmt.from_long(OFDM_DATA_SYMBOLS), pmt.intern("src")))
                for f in range(OFDM_POOL_FRAMES)]
        src_t = blocks.vector_source_c(timed.tolist(), True)
        head_t = blocks.head(gr.sizeof_gr_complex, nframes * OFDM_FRAME_SAMPLES)
        sync = digital.ofdm_sync_sc_cfb(OFDM_FFT_LEN, OFDM_CP_LEN)
        tb.connect(src_t, head_t, sync)
        tb.connect((sync, 0), blocks.null_sink(gr.sizeof_float))
        tb.connect((sync, 1), blocks.null_sink(gr.sizeof_char))
        src_f = blocks.vector_source_c(payload.tolist(), True, OFDM_FFT_LEN, tags)
        head_f = blocks.head(gr.sizeof_gr_complex * OFDM_FFT_LEN, nframes * symbols)
        ffts = fft.fft_vcc(OFDM_FFT_LEN, True, (), True)
        chanest = digital.ofdm_chanest_vcvc(sync1, sync2, OFDM_DATA_SYMBOLS)
        eq = digital.ofdm_equalizer_simpledfe(OFDM_FFT_LEN, digital.constellation_qpsk().base(),
                                              occ, pil, psym, 0)
        frame_eq = digital.ofdm_frame_equalizer_vcvc(eq.base(), OFDM_CP_LEN, "frame_len", True, 0)
        ser = digital.ofdm_serializer_vcc(OFDM_FFT_LEN, occ, "frame_len", "", 0, "", True)
        sink = blocks.null_sink(gr.sizeof_gr_complex)
        tb.connect(src_f, head_f, ffts, chanest, frame_eq, ser, sink)
        timing = timed_run(tb, args.timeout, f"dsp ofdm-rx run {run}", DSP_MAX_NOUTPUT_ITEMS)
        seconds = timing.seconds
        processed = nframes * OFDM_FRAME_SAMPLES
        if int(head_t.nitems_written(0)) != processed:
            raise BenchError(f"dsp ofdm-rx run {run}: head wrote {head_t.nitems_written(0)}, "
                             f"expected {processed}")
        rec = base_record("dsp", run, timing)
        rec.update({
            "kernel": "ofdm-rx",
            "taps": None,
            "items": args.items,
            "items_processed": processed,
            "items_out": int(sink.nitems_read(0)),
            "items_per_s": processed / seconds,
            "block_items_per_s": processed / seconds,
            "frames_per_s": nframes / seconds,
            "source": "random",
            "max_noutput_items": DSP_MAX_NOUTPUT_ITEMS,
        })
        emit(rec)
        log(f"dsp ofdm-rx run {run}: {nframes} frames: {seconds:.3f} s, "
            f"{nframes / seconds / 1e3:.1f} k frames/s")
        del tb


def run_dsp(args: argparse.Namespace, emit: Emit) -> None:
    """source -> head(N) -> kernel -> null_sink, timing only tb.run(65536)."""
    if args.kernel == "ofdm-rx":
        run_dsp_ofdm(args, emit)
        return
    taps = args.taps if args.taps is not None else DSP_DEFAULT_TAPS.get(args.kernel)
    rng = random.Random(12345)
    vlen = taps if args.kernel == "fft" else 1
    pool_len = vlen * max(1, math.ceil(DSP_POOL_SAMPLES / vlen))
    pool = [complex(rng.gauss(0, 1), rng.gauss(0, 1)) for _ in range(pool_len)]
    nvec = args.items // vlen  # head counts vectors for fft
    if args.kernel == "viterbi":
        nvec = max(1, args.items // VITERBI_FRAME_SYMBOLS) * VITERBI_FRAME_SYMBOLS
    processed = nvec * vlen
    for run in range(args.repeat):
        tb = gr.top_block(f"dsp-{run}")
        kernel, is_complex, out_size, _ = dsp_kernel(args.kernel, taps)
        src = dsp_source(args.source, is_complex, vlen, pool)
        in_size = (gr.sizeof_gr_complex if is_complex else gr.sizeof_float) * vlen
        head = blocks.head(in_size, nvec)
        sink = blocks.null_sink(out_size)
        tb.connect(src, head, kernel, sink)
        timing = timed_run(tb, args.timeout, f"dsp {args.kernel} run {run}",
                           DSP_MAX_NOUTPUT_ITEMS)
        seconds = timing.seconds
        if int(head.nitems_written(0)) != nvec:
            raise BenchError(f"dsp run {run}: head produced {head.nitems_written(0)} "
                             f"items, expected {nvec}")
        rec = base_record("dsp", run, timing)
        rec.update({
            "kernel": args.kernel,
            "taps": taps,
            "items": args.items,
            "items_processed": processed,
            "items_out": int(sink.nitems_read(0)) * vlen,
            "items_per_s": processed / seconds,
            "block_items_per_s": processed / seconds,
            "source": args.source,
            "max_noutput_items": DSP_MAX_NOUTPUT_ITEMS,
        })
        if args.kernel == "viterbi":
            rec["decoded_bits_per_s"] = (processed // VITERBI_FRAME_SYMBOLS * VITERBI_FRAME_BITS
                                         / seconds)
        emit(rec)
        log(f"dsp {args.kernel} run {run}: taps {taps}, {processed} items: "
            f"{seconds:.3f} s, {rec['items_per_s'] / 1e6:.1f} M items/s")
        del tb


# --------------------------------------------------------------------------
# io
# --------------------------------------------------------------------------

IO_MODES = ("source-cu8", "source-cf32", "sink-cf32")


def run_io(args: argparse.Namespace, emit: Emit) -> None:
    """Raw-file topologies (see the module docstring), timing tb.run()."""
    for i in range(args.repeat):
        run = args.run + i
        tb = gr.top_block(f"io-{run}")
        if args.mode == "sink-cf32":
            if args.out is None or args.items is None:
                raise BenchError("io sink-cf32 needs --out and --items")
            items = args.items
            file_bytes = items * gr.sizeof_gr_complex
            src = blocks.null_source(gr.sizeof_gr_complex)
            head = blocks.head(gr.sizeof_gr_complex, items)
            sink = blocks.file_sink(gr.sizeof_gr_complex, args.out, False)
            tb.connect(src, head, sink)
            fmt = "cf32"
        else:
            file_bytes = os.path.getsize(args.file)
            sink = blocks.null_sink(gr.sizeof_gr_complex)
            if args.mode == "source-cu8":
                items = file_bytes // 2
                src = blocks.file_source(gr.sizeof_char, args.file, False)
                conv = blocks.interleaved_char_to_complex(False, 128.0)
                tb.connect(src, conv, sink)
                fmt = "cu8"
            else:
                items = file_bytes // gr.sizeof_gr_complex
                src = blocks.file_source(gr.sizeof_gr_complex, args.file, False)
                tb.connect(src, sink)
                fmt = "cf32"
        timing = timed_run(tb, args.timeout, f"io {args.mode} run {run}")
        seconds = timing.seconds
        if args.mode == "sink-cf32":
            sink.close()
            got = os.path.getsize(args.out)
            if got != file_bytes:
                raise BenchError(f"io sink-cf32: file_sink wrote {got} bytes, expected {file_bytes}")
        elif int(sink.nitems_read(0)) != items:
            raise BenchError(f"io {args.mode}: null_sink read {sink.nitems_read(0)} items, "
                             f"expected {items}")
        rec = base_record("io", run, timing)
        rec.update({
            "mode": args.mode,
            "format": fmt,
            "file_bytes": file_bytes,
            "items": items,
            "items_per_s": items / seconds,
            "block_items_per_s": items / seconds,
            "bytes_per_s": file_bytes / seconds,
        })
        emit(rec)
        log(f"io {args.mode} run {run}: {file_bytes} bytes: {seconds:.3f} s, "
            f"{file_bytes / seconds / 2**30:.2f} GiB/s")
        del tb


# --------------------------------------------------------------------------
# fm
# --------------------------------------------------------------------------

FM_DEVIATION = 75e3
FM_MPX_RATE = 240e3
FM_AUDIO_DECIMATION = 5
FM_TAU = 50e-6


def kaiser_lowpass(rate: float, cutoff: float, transition: float,
                   atten_db: float) -> list[float]:
    """rfgraph_dsp::design::kaiser_lowpass, the same formulas: N =
    ceil((A - 7.95) / (2.285 * 2 pi * dF)) + 1 made odd, beta = 0.1102 (A -
    8.7), a Kaiser-windowed sinc with unity DC gain."""
    df = transition / rate
    n = int(math.ceil((atten_db - 7.95) / (2.285 * 2 * math.pi * df)) + 1)
    n = max(n, 3) | 1
    beta = 0.1102 * (atten_db - 8.7) if atten_db > 50 else (
        0.5842 * (atten_db - 21) ** 0.4 + 0.07886 * (atten_db - 21)
        if atten_db >= 21 else 0.0)
    win = window.kaiser(n, beta)
    fc = cutoff / rate
    mid = (n - 1) / 2.0
    taps = []
    for k in range(n):
        x = k - mid
        sinc = 2 * fc if x == 0 else math.sin(2 * math.pi * fc * x) / (math.pi * x)
        taps.append(sinc * win[k])
    total = sum(taps)
    return [t / total for t in taps]


def run_fm(args: argparse.Namespace, emit: Emit) -> None:
    """The FM receiver on a cu8 or cf32 file (see the module docstring)."""
    if args.cores is not None:
        usable = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, set(usable[:args.cores]))
    decim = int(args.rate // FM_MPX_RATE)
    quad_rate = args.rate / decim
    if abs(quad_rate - FM_MPX_RATE) > 1e-6:
        raise BenchError(f"fm: the rate must be a multiple of {FM_MPX_RATE:g}")
    stop = min(quad_rate - 100e3, 0.49 * args.rate)
    chan_taps = kaiser_lowpass(args.rate, (100e3 + stop) / 2, stop - 100e3, 60.0)
    audio_taps = kaiser_lowpass(FM_MPX_RATE, 17e3, 4e3, 70.0)
    file_bytes = os.path.getsize(args.file)
    cf32 = args.format == "cf32"
    items = file_bytes // (gr.sizeof_gr_complex if cf32 else 2)
    mode = "mono" if args.mono else "stereo"
    for i in range(args.repeat):
        run = args.run + i
        tb = gr.top_block(f"fm-{run}")
        chan = gr_filter.freq_xlating_fir_filter_ccf(decim, chan_taps, args.offset, args.rate)
        if cf32:
            # The stored samples are gr_complex: no conversion.
            src = blocks.file_source(gr.sizeof_gr_complex, args.file, False)
            tb.connect(src, chan)
        else:
            src = blocks.file_source(gr.sizeof_char, args.file, False)
            # cu8 -> the signed bytes interleaved_char_to_complex reads.
            to_signed = blocks.add_const_bb(128)
            conv = blocks.interleaved_char_to_complex(False, 128.0)
            tb.connect(src, to_signed, conv, chan)
        if args.mono:
            demod = analog.quadrature_demod_cf(quad_rate / (2 * math.pi * FM_DEVIATION))
            deemph = analog.fm_deemph(quad_rate, FM_TAU)
            resamp = gr_filter.rational_resampler_fff(1, FM_AUDIO_DECIMATION, audio_taps)
            sinks = [blocks.null_sink(gr.sizeof_float)]
            tb.connect(chan, demod, deemph, resamp, sinks[0])
        else:
            rcv = analog.wfm_rcv_pll(quad_rate, FM_AUDIO_DECIMATION, FM_TAU)
            sinks = [blocks.null_sink(gr.sizeof_float) for _ in range(2)]
            tb.connect(chan, rcv)
            tb.connect((rcv, 0), sinks[0])
            tb.connect((rcv, 1), sinks[1])
        timing = timed_run(tb, args.timeout, f"fm {mode} run {run}")
        seconds = timing.seconds
        if int(chan.nitems_read(0)) != items:
            raise BenchError(f"fm: the channel filter read {chan.nitems_read(0)} samples, "
                             f"expected {items}")
        audio = int(sinks[0].nitems_read(0))
        rec = base_record("fm", run, timing)
        rec.update({
            "mode": mode,
            "cores": args.cores,
            "items": items,
            "input_rate": args.rate,
            "format": args.format,
            "channel_taps": len(chan_taps),
            "audio_samples": audio,
            "items_per_s": items / seconds,
            "block_items_per_s": items / seconds,
            "real_time": items / seconds / args.rate,
        })
        emit(rec)
        log(f"fm {mode} run {run}: {items} samples: {seconds:.3f} s, "
            f"{items / seconds / 1e6:.1f} MS/s, {rec['real_time']:.1f}x real time")
        del tb


# --------------------------------------------------------------------------
# latency
# --------------------------------------------------------------------------

def run_latency(args: argparse.Namespace, emit: Emit) -> None:
    """Paced source -> N x copy -> latency sink (see gr_latency.py).

    Buffers: every output holds at least two bursts
    (``set_min_output_buffer``), so a burst passes each block in one
    ``work`` call when the chain keeps up, as rfgraph's default rings
    (128 KiB on tpb) hold a 1 ms burst at 20 MS/s.  No output multiple
    (a burst is never held back for alignment) and the default
    ``max_noutput_items``.
    """
    import resource

    import gr_latency

    period = gr_latency.parse_duration(args.period)
    burst = max(1, round(args.rate * period))
    total = burst * args.bursts
    for run in range(args.repeat):
        tb = gr.top_block(f"latency-{run}")
        source = gr_latency.PacedSource(burst, period, args.bursts)
        chain = [source] + [blocks.copy(gr.sizeof_int) for _ in range(args.stages)]
        for block in chain:
            block.set_min_output_buffer(max(2 * burst, 1024))
        sink = gr_latency.LatencySink(burst, args.bursts)
        tb.connect(*chain, sink)
        before = resource.getrusage(resource.RUSAGE_SELF)
        timing = timed_run(tb, args.timeout, f"latency run {run}")
        after = resource.getrusage(resource.RUSAGE_SELF)
        if sink.error:
            raise BenchError(f"latency run {run}: {sink.error}")
        if sink.received != total or len(sink.last) != args.bursts:
            raise BenchError(f"latency run {run}: the sink received "
                             f"{sink.received} items in {len(sink.last)} bursts, "
                             f"expected {total} in {args.bursts}")
        first = [t - source.due(k) for k, t in enumerate(sink.first)]
        last = [t - source.due(k) for k, t in enumerate(sink.last)]
        user = after.ru_utime - before.ru_utime
        system = after.ru_stime - before.ru_stime
        rec = base_record("latency", run, timing)
        rec.update({
            "rate": args.rate,
            "period_us": period * 1e6,
            "burst": burst,
            "bursts": args.bursts,
            "stages": args.stages,
            "items": total,
        })
        rec.update(gr_latency.latency_fields("first", first))
        rec.update(gr_latency.latency_fields("last", last))
        rec.update(gr_latency.latency_fields("source_late", source.lateness))
        rec.update({
            "cpu_seconds": user + system,
            "cpu_user_seconds": user,
            "cpu_system_seconds": system,
            "cpu_per_wall": (user + system) / timing.seconds,
            "min_output_buffer": max(2 * burst, 1024),
        })
        emit(rec)
        log(f"latency run {run}: rate {args.rate:g} N={args.stages}: last p50 "
            f"{rec['last_p50_us']:.0f} p99 {rec['last_p99_us']:.0f} us, source late "
            f"p99 {rec['source_late_p99_us']:.0f} us, cpu {user + system:.3f} s")
        del tb


# --------------------------------------------------------------------------
# pacing
# --------------------------------------------------------------------------

def process_cpu() -> tuple[float, float]:
    """User and system seconds of the whole process so far."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime, ru.ru_stime


RETUNED_HZ = 3000.0
"""The pacing graph's source is retuned from 1 kHz to this halfway through."""


def reaction_seconds(samples, rate: float, changed_at: float):
    """How long a retune took to reach the file: the release time of the
    first sample at the new frequency (its index over the rate, the
    throttle counting from the start) minus when the change was made.
    The filter's first 50 ms (its start-up transient) are skipped.
    ``None`` when no sample shows it."""
    skip = int(rate * 0.05)
    steps = numpy.angle(samples[skip + 1:] * numpy.conj(samples[skip:-1])) * rate / (2 * numpy.pi)
    past = numpy.nonzero(numpy.abs(steps) > (1000.0 + RETUNED_HZ) / 2)[0]
    if len(past) == 0:
        return None
    return float(skip + past[0] + 1) / rate - changed_at


def run_pacing(args: argparse.Namespace, emit: Emit) -> None:
    """The throttled simulation graph (see the module docstring)."""
    items = int(round(args.seconds * args.rate))
    if items < 1:
        raise BenchError("pacing: --seconds * --rate must be at least one item")
    folder = "/dev/shm" if os.path.isdir("/dev/shm") else "/tmp"
    path = os.path.join(folder, f"gr-bench-pacing-{os.getpid()}.cf32")
    size = gr.sizeof_gr_complex
    for run in range(args.repeat):
        tb = gr.top_block(f"pacing-{run}")
        src = analog.sig_source_c(args.rate, analog.GR_COS_WAVE, 1000.0, 1.0, 0)
        taps = gr_filter.firdes.low_pass(1.0, args.rate, args.rate * 5 / 32,
                                         args.rate / 16, window.WIN_HAMMING)
        lpf = gr_filter.fir_filter_ccf(1, taps)
        thr = blocks.throttle(size, args.rate, True)
        head = blocks.head(size, items)
        sink = blocks.file_sink(size, path, False)
        sink.set_unbuffered(False)
        tb.connect(src, lpf, thr, head, sink)
        changed = []

        def retune(start: float) -> None:
            # Halfway through the signal, as rfgraph's side does.
            time.sleep(max(0.0, start + args.seconds / 2 - time.perf_counter()))
            src.set_frequency(RETUNED_HZ)
            changed.append(time.perf_counter() - start)

        user0, sys0 = process_cpu()
        timing = timed_run(tb, args.timeout, f"pacing run {run}", meanwhile=retune)
        user1, sys1 = process_cpu()
        sink.close()
        written = os.path.getsize(path)
        samples = numpy.fromfile(path, dtype=numpy.complex64)
        os.remove(path)
        reaction = reaction_seconds(samples, args.rate, changed[0])
        if written != items * size:
            raise BenchError(f"pacing: file_sink wrote {written} bytes, expected "
                             f"{items * size}")
        seconds = timing.seconds
        user, system = user1 - user0, sys1 - sys0
        cpu = user + system
        rec = base_record("pacing", run, timing)
        rec.update({
            "items": items,
            "rate": args.rate,
            "signal_seconds": args.seconds,
            "chunk": None,
            "cpu_seconds": cpu,
            "cpu_user_seconds": user,
            "cpu_system_seconds": system,
            "cpu_share": cpu / seconds,
            "throttle_work_calls": None,
            "reaction_seconds": reaction,
            "lpf_taps": len(taps),
            "items_per_s": items / seconds,
            "block_items_per_s": 5 * items / seconds,
        })
        emit(rec)
        log(f"pacing run {run}: {items} items at {args.rate:g} /s: {seconds:.3f} s wall, "
            f"{cpu * 1e3:.1f} ms CPU ({100 * cpu / seconds:.1f} % of a core), "
            f"retune reached the file after {reaction} s")
        del tb


# --------------------------------------------------------------------------
# net
# --------------------------------------------------------------------------

NET_MODES = ("zmq", "zmq_tags")
NET_POLL_S = 0.0005


def free_tcp_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_net(args: argparse.Namespace, emit: Emit) -> None:
    """push_sink => pull_source over loopback in one top block (see the
    module docstring): start, poll the sink until N items, stop."""
    size = gr.sizeof_gr_complex
    tags = args.mode == "zmq_tags"
    for i in range(args.repeat):
        run = args.run + i
        address = f"tcp://127.0.0.1:{free_tcp_port()}"
        tb = gr.top_block(f"net-{run}")
        if tags:
            src = blocks.tags_strobe(size, pmt.from_long(1), args.tag_interval,
                                     pmt.intern("strobe"))
            sink = blocks.tag_debug(size, "net", "")
            sink.set_display(False)
        else:
            src = blocks.null_source(size)
            sink = blocks.null_sink(size)
        push = zeromq.push_sink(size, 1, address, 100, tags, -1)
        pull = zeromq.pull_source(size, 1, address, 100, tags, -1)
        tb.connect(src, blocks.head(size, args.items), push)
        tb.connect(pull, blocks.head(size, args.items), sink)
        what = f"net {args.mode} run {run}"
        with Watchdog(tb, args.timeout, what) as dog:
            start = time.perf_counter()
            tb.start()
            started = time.perf_counter()
            while int(sink.nitems_read(0)) < args.items and not dog.fired:
                time.sleep(NET_POLL_S)
            end = time.perf_counter()
            tb.stop()
            tb.wait()
            stopped = time.perf_counter()
        if dog.fired:
            raise WatchdogFired(f"{what}: {sink.nitems_read(0)} of {args.items} items "
                                f"arrived within {args.timeout:g} s")
        got = int(sink.nitems_read(0))
        if got != args.items:
            raise BenchError(f"{what}: the sink read {got} items, expected {args.items}")
        # tag_debug keeps the tags of its last call only (``num_tags``):
        # a sign that tags flow, not their count.
        last_call_tags = sink.num_tags() if tags else None
        timing = Timing(end - start, started - start)
        seconds = timing.seconds
        rec = base_record("net", run, timing)
        rec.update({
            "mode": args.mode,
            "items": args.items,
            "pass_tags": tags,
            "tag_interval": args.tag_interval if tags else None,
            "tags": None,
            "tags_last_call": last_call_tags,
            "stop_seconds": stopped - end,
            "items_per_s": args.items / seconds,
            "block_items_per_s": args.items / seconds,
            "bytes_per_s": args.items * size / seconds,
        })
        emit(rec)
        log(f"net {args.mode} run {run}: {args.items} items: {seconds:.3f} s, "
            f"{args.items / seconds / 1e6:.1f} M items/s"
            + (f", {last_call_tags} tags in the sink's last call" if tags else ""))
        del tb


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def positive_int(text: str) -> int:
    """argparse type: integer >= 1 (accepts 1e6 / 20_000_000 forms)."""
    try:
        value = int(text)
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not number.is_integer():
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        value = int(number)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def nonneg_int(text: str) -> int:
    """argparse type: integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def positive_float(text: str) -> float:
    """argparse type: float > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gr_bench.py",
        description="GNU Radio 3.10 counterparts of the rfgraph benchmarks; "
                    "one JSON object per run on stdout.")
    sub = parser.add_subparsers(dest="experiment", required=True, metavar="EXPERIMENT")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--repeat", type=positive_int, default=1,
                       help="number of runs, each with a fresh top block (default 1)")
        p.add_argument("--timeout", type=positive_float, default=300.0,
                       help="watchdog: stop a run after this many seconds and "
                            "exit with status 3 (default 300)")

    p = sub.add_parser("stream", help="P pipes x S copy stages (GRCon'19 Fig. 1/3)")
    p.add_argument("--pipes", type=positive_int, required=True, help="parallel pipes P")
    p.add_argument("--stages", type=nonneg_int, required=True, help="copy blocks per pipe S")
    p.add_argument("--items", type=positive_int, required=True, help="float items per pipe N")
    p.add_argument("--rt", action="store_true",
                   help="call gr.enable_realtime_scheduling() before running")
    common(p)
    p.set_defaults(func=run_stream)

    p = sub.add_parser("msg", help="P pipes x S message forwarders (GRCon'19 Fig. 2)")
    p.add_argument("--pipes", type=positive_int, required=True, help="parallel pipes P")
    p.add_argument("--stages", type=positive_int, required=True,
                   help="pdu_filter forwarders per pipe S (>= 1)")
    p.add_argument("--burst", type=positive_int, required=True,
                   help="500-byte PDUs queued per pipe before start K")
    common(p)
    p.set_defaults(func=run_msg)

    p = sub.add_parser("chain", help="B branches x S copy stages (GRCon'19 Fig. 7/8)")
    p.add_argument("--branches", type=positive_int, default=4,
                   help="independent branches B (default 4)")
    p.add_argument("--stages", type=nonneg_int, required=True, help="copy blocks per branch S")
    p.add_argument("--items", type=positive_int, required=True, help="float items per branch N")
    common(p)
    p.set_defaults(func=run_chain)

    p = sub.add_parser("saxpy", help="source -> M x (y = a*x + b) -> sink on C cores")
    p.add_argument("--blocks", type=positive_int, required=True, help="saxpy stages M")
    p.add_argument("--cores", type=positive_int, required=True,
                   help="CPU groups C (stage groups pinned to the first C usable CPUs)")
    p.add_argument("--items", type=positive_int, required=True, help="float items N")
    common(p)
    p.set_defaults(func=run_saxpy)

    p = sub.add_parser("dsp", help="source -> head(N) -> one DSP kernel -> sink")
    p.add_argument("--kernel", choices=DSP_KERNELS, required=True, help="kernel to time")
    p.add_argument("--taps", type=positive_int, default=None,
                   help="FIR/resampler taps (default 64) or FFT size for fft "
                        "(default 1024); ignored by quad-demod and rotator")
    p.add_argument("--items", type=positive_int, required=True,
                   help="input samples N (fft: N // T vectors of T samples)")
    p.add_argument("--source", choices=("random", "null"), default="random",
                   help="random: repeating random buffer (default); null: zeros")
    common(p)
    p.set_defaults(func=run_dsp)

    p = sub.add_parser("io", help="raw files: file_source / file_sink throughput")
    p.add_argument("--mode", choices=IO_MODES, required=True, help="topology")
    p.add_argument("--file", default=None,
                   help="input file (source-cu8: bytes; source-cf32: gr_complex)")
    p.add_argument("--out", default=None, help="sink-cf32: the file to write")
    p.add_argument("--items", type=positive_int, default=None,
                   help="sink-cf32: complex items to write N")
    p.add_argument("--run", type=nonneg_int, default=0,
                   help="index of the first run in the records (default 0)")
    common(p)
    p.set_defaults(func=run_io)
    p = sub.add_parser("latency", help="paced bursts -> N x copy -> sink: burst latency")
    p.add_argument("--rate", type=positive_float, default=1e6,
                   help="samples/s; a burst is rate x period items (default 1e6)")
    p.add_argument("--period", default="1ms",
                   help="time between bursts: 1ms, 500us, ... (default 1ms)")
    p.add_argument("--stages", type=nonneg_int, default=1, help="copy blocks N (default 1)")
    p.add_argument("--bursts", type=positive_int, default=1000,
                   help="bursts per run K (default 1000)")
    common(p)
    p.set_defaults(func=run_latency)
    p = sub.add_parser("fm", help="FM receiver on a cu8 or cf32 file (freq_xlating, wfm_rcv_pll)")
    p.add_argument("--file", required=True, help="cu8 or cf32 recording")
    p.add_argument("--format", choices=("cu8", "cf32"), default="cu8",
                   help="the recording's sample format (default cu8)")
    p.add_argument("--rate", type=positive_float, default=2.4e6,
                   help="its sample rate, a multiple of 240 kS/s (default 2.4e6)")
    p.add_argument("--offset", type=float, default=0.0,
                   help="the station's offset from the centre, Hz")
    p.add_argument("--mono", action="store_true",
                   help="quadrature_demod_cf -> fm_deemph -> rational_resampler "
                        "instead of wfm_rcv_pll")
    p.add_argument("--cores", type=positive_int, default=None,
                   help="pin the process to the first C usable CPUs")
    p.add_argument("--run", type=nonneg_int, default=0,
                   help="index of the first run in the records (default 0)")
    common(p)
    p.set_defaults(func=run_fm)

    p = sub.add_parser("pacing", help="sig_source -> low-pass -> throttle -> head -> "
                                      "file_sink: CPU time of a throttled simulation")
    p.add_argument("--seconds", type=positive_float, default=2.0,
                   help="seconds of signal: head passes seconds * rate items (default 2)")
    p.add_argument("--rate", type=positive_float, default=32000.0,
                   help="signal and throttle rate, items per second (default 32000)")
    common(p)
    p.set_defaults(func=run_pacing)

    p = sub.add_parser("net", help="null_source -> head -> zeromq push_sink => pull_source "
                                   "-> head -> null_sink over loopback")
    p.add_argument("--mode", choices=NET_MODES, required=True,
                   help="zmq: plain items; zmq_tags: pass_tags on, a tag every "
                        "--tag-interval items")
    p.add_argument("--items", type=positive_int, required=True, help="complex items N")
    p.add_argument("--tag-interval", type=positive_int, default=1000,
                   help="zmq_tags: items from one tag to the next (default 1000)")
    p.add_argument("--run", type=nonneg_int, default=0,
                   help="index of the first run in the records (default 0)")
    common(p)
    p.set_defaults(func=run_net)
    return parser


def validate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Checks that need more than one option or the host."""
    if args.experiment == "saxpy":
        usable = len(os.sched_getaffinity(0))
        if args.cores > usable:
            parser.error(f"saxpy: --cores {args.cores} exceeds the {usable} usable CPUs")
    if args.experiment == "io" and args.mode != "sink-cf32" and args.file is None:
        parser.error(f"io {args.mode}: --file is required")
    if args.experiment == "latency":
        import gr_latency
        try:
            gr_latency.parse_duration(args.period)
        except ValueError as exc:
            parser.error(f"latency --period: {exc}")
    if args.experiment == "dsp":
        if args.kernel in ("quad-demod", "rotator", "viterbi", "ofdm-rx"):
            if args.taps is not None:
                log(f"dsp: --taps is ignored by {args.kernel}")
            args.taps = None
        elif args.kernel == "fft" and args.items < (args.taps or DSP_DEFAULT_TAPS["fft"]):
            parser.error("dsp fft: --items must be at least the FFT size --taps")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    validate(parser, args)

    # Keep stdout for the JSON records only: the records go to a private
    # duplicate of fd 1, and fd 1 itself now points at stderr.
    sys.stdout.flush()
    json_out: TextIO = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)

    def emit(record: dict) -> None:
        json_out.write(json.dumps(record) + "\n")
        json_out.flush()

    try:
        args.func(args, emit)
    except WatchdogFired as exc:
        log(f"gr_bench: {exc}")
        return 3
    except BenchError as exc:
        log(f"gr_bench: FAILED: {exc}")
        return 1
    finally:
        json_out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
