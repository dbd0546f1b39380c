"""The `pyblock` experiment, both runtimes: a Python 1:1 block in
null_source -> head(N) -> block -> null_sink, f32.

    python pyblock.py rfgraph   --mode double --items 20000000 [--repeat R]
    /usr/bin/python3 pyblock.py gnuradio --mode empty --items 2000000 --chunk 64

The first argument picks the runtime: `rfgraph` needs the `rfgraph`
package (run it with the Python whose venv has it, built in release),
`gnuradio` needs Debian's GNU Radio 3.10 (`/usr/bin/python3`). The block
is the same class body on both sides (rfgraph.SyncBlock or
gr.sync_block):

* `--mode double`: `out[:] = in0 * 2.0`, returning every item it was
  given: throughput, `items_per_s`.
* `--mode empty`: touches nothing and returns min(given, CHUNK), so
  every call passes at most `--chunk` items whatever the buffers are and
  the run makes at least N / CHUNK calls: `us_per_call` is the run's
  seconds divided by the calls the block counted. With the block the
  bottleneck (the source and sink move N items in big calls), this is
  the cost of one Python `work` call, the runtime's side of it included.

Each run builds a fresh graph and times `tb.start()` + `tb.wait()`
(GNU Radio) or `fg.run()` (rfgraph: building from the flowgraph text,
start, run, wait), printing one JSON object per run on stdout and a
summary on stderr. Exit status 1 when the block saw a wrong item count,
3 when a run outlived the watchdog (`--timeout`).
"""

import argparse
import json
import os
import sys
import threading
import time

import numpy as np


def block_class(base, init):
    """The benchmark's block on `base` (initialised by `init`)."""

    class Bench(base):
        def __init__(self, mode, chunk):
            init(self)
            self.calls = 0
            self.items = 0
            self.chunk = chunk
            self.work = self.double if mode == "double" else self.empty

        def double(self, input_items, output_items):
            self.calls += 1
            output_items[0][:] = input_items[0] * 2.0
            n = len(output_items[0])
            self.items += n
            return n

        def empty(self, input_items, output_items):
            self.calls += 1
            n = min(len(output_items[0]), self.chunk)
            self.items += n
            return n

    return Bench


def run_rfgraph(args):
    import rfgraph

    def init(self):
        rfgraph.SyncBlock.__init__(
            self, name="bench", in_sig=[np.float32], out_sig=[np.float32]
        )

    Bench = block_class(rfgraph.SyncBlock, init)
    block = Bench(args.mode, args.chunk)
    fg = rfgraph.Flowgraph()
    src = fg.add("null_source", type="f32")
    head = fg.add("head", type="f32", items=args.items)
    blk = fg.add(block)
    snk = fg.add("null_sink", type="f32")
    fg.connect(src, head)
    fg.connect(head, blk)
    fg.connect(blk, snk)
    start = time.perf_counter()
    fg.run(scheduler=args.scheduler, timeout=args.timeout)
    seconds = time.perf_counter() - start
    return block, seconds, None


def run_gnuradio(args):
    from gnuradio import blocks, gr

    def init(self):
        gr.sync_block.__init__(
            self, name="bench", in_sig=[np.float32], out_sig=[np.float32]
        )

    Bench = block_class(gr.sync_block, init)
    block = Bench(args.mode, args.chunk)
    tb = gr.top_block()
    src = blocks.null_source(gr.sizeof_float)
    head = blocks.head(gr.sizeof_float, args.items)
    snk = blocks.null_sink(gr.sizeof_float)
    tb.connect(src, head, block, snk)
    start = time.perf_counter()
    tb.start()
    started = time.perf_counter() - start
    tb.wait()
    seconds = time.perf_counter() - start
    del tb
    return block, seconds, started


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("runtime", choices=["rfgraph", "gnuradio"])
    p.add_argument("--mode", choices=["double", "empty"], default="double")
    p.add_argument("--items", type=int, default=20_000_000)
    p.add_argument("--chunk", type=int, default=64, help="most items per call (empty)")
    p.add_argument("--scheduler", default="tpb", help="rfgraph's scheduler")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--timeout", type=float, default=300.0, help="watchdog, seconds per run")
    args = p.parse_args()
    if args.items <= 0 or args.chunk <= 0 or args.repeat <= 0:
        p.error("--items, --chunk and --repeat must be positive")
    measure = run_rfgraph if args.runtime == "rfgraph" else run_gnuradio
    for run in range(args.repeat):
        # A run that hangs ends the process (exit status 3).
        watchdog = threading.Timer(args.timeout, lambda: os._exit(3))
        watchdog.daemon = True
        watchdog.start()
        block, seconds, started = measure(args)
        watchdog.cancel()
        if block.items != args.items:
            print(f"pyblock: the block passed {block.items} items, not {args.items}", file=sys.stderr)
            sys.exit(1)
        record = {
            "experiment": "pyblock",
            "runtime": "rfgraph" if args.runtime == "rfgraph" else "gnuradio-3.10",
            "scheduler": args.scheduler if args.runtime == "rfgraph" else "tpb",
            "run": run,
            "seconds": seconds,
            "mode": args.mode,
            "items": args.items,
            "calls": block.calls,
            "items_per_call": args.items / block.calls,
            "items_per_s": args.items / seconds,
            "block_items_per_s": args.items / seconds,
            "us_per_call": seconds * 1e6 / block.calls,
            "python": sys.version.split()[0],
            "numpy": np.__version__,
        }
        if args.mode == "empty":
            record["chunk"] = args.chunk
        if started is not None:
            record["start_seconds"] = started
        print(json.dumps(record), flush=True)
        print(
            f"pyblock [{record['runtime']} {record['scheduler']}] mode={args.mode} "
            f"items={args.items} run {run}: {seconds:.4f} s, {record['items_per_s']:.4e} items/s, "
            f"{block.calls} calls, {record['us_per_call']:.2f} us/call",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
