#!/usr/bin/python3
"""Runs a GNU Radio Companion flowgraph in GNU Radio 3.10 and records the
first items of chosen outputs, for the GRC import test to compare with
rfgraph running the same file.

usage: gr_tap.py FLOWGRAPH.py CLASS OUTDIR ITEMS BLOCK:PORT:ITEMSIZE...

FLOWGRAPH.py is what `grcc` generated. Each BLOCK:PORT output gets a head
of ITEMS items into OUTDIR/BLOCK.PORT.bin. GUI flowgraphs run with Qt's
offscreen platform. The flowgraph is stopped once every tap is full, or
after 20 s.
"""
import importlib.util
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main():
    path, cls_name, outdir, items = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    taps = [t.split(":") for t in sys.argv[5:]]
    from gnuradio import blocks

    try:
        from PyQt5 import Qt

        app = Qt.QApplication.instance() or Qt.QApplication([])
    except Exception:  # no Qt: non-GUI flowgraphs still run
        app = None
    spec = importlib.util.spec_from_file_location("flowgraph", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    tb = getattr(mod, cls_name)()
    files = []
    for name, port, size in taps:
        out = os.path.join(outdir, f"{name}.{port}.bin")
        head = blocks.head(int(size), items)
        sink = blocks.file_sink(int(size), out, False)
        sink.set_unbuffered(True)
        tb.connect((getattr(tb, name), int(port)), head, sink)
        files.append((out, items * int(size)))
    tb.start()
    deadline = time.time() + 20
    while time.time() < deadline:
        if app is not None:
            app.processEvents()
        if all(os.path.exists(f) and os.path.getsize(f) >= n for f, n in files):
            break
        time.sleep(0.02)
    tb.stop()
    tb.wait()
    for f, n in files:
        got = os.path.getsize(f) if os.path.exists(f) else 0
        print(f"{f} {got // max(1, n // items)}")


if __name__ == "__main__":
    main()
