#!/usr/bin/python3
"""Writes GNU Radio 3.10's sig_source_f / sig_source_c output for every
waveform, the reference for `tests/signal_source.rs`.

Run with Debian's interpreter, which sees GNU Radio:

    /usr/bin/python3 crates/rfgraph-blocks/tests/data/sig_source/generate.py

Each case becomes `<name>.f32` (little-endian float32) or `<name>.c64`
(interleaved little-endian float32 re, im), and one line of `cases.txt`:

    name type waveform sample_rate freq ampl offset_re offset_im phase items
"""

import math
import os

import numpy as np
from gnuradio import analog, blocks, gr

HERE = os.path.dirname(os.path.abspath(__file__))
ITEMS = 400

WAVES = {
    "constant": analog.GR_CONST_WAVE,
    "sine": analog.GR_SIN_WAVE,
    "cosine": analog.GR_COS_WAVE,
    "square": analog.GR_SQR_WAVE,
    "triangle": analog.GR_TRI_WAVE,
    "sawtooth": analog.GR_SAW_WAVE,
}

# (label, sample_rate, freq, ampl, offset, phase). The first set uses a
# frequency whose phase step is exact in both GNU Radio's and rfgraph's
# fixed-point accumulators; the others are arbitrary, negative and aliased.
SETS = [
    ("exact", 32000.0, 1000.0, 0.75, complex(0.125, -0.25), math.pi / 4),
    ("general", 48000.0, 1234.5, 2.0, complex(-0.5, 0.25), -1.0),
    ("negative", 1e6, -123456.7, 1.0, complex(0.0, 0.0), 2.5),
    ("aliased", 32000.0, 30000.0, 0.5, complex(0.0, 0.1), 0.3),
]


def run(kind, wave, rate, freq, ampl, offset, phase):
    tb = gr.top_block()
    if kind == "f32":
        src = analog.sig_source_f(rate, wave, freq, ampl, offset.real, phase)
        head = blocks.head(gr.sizeof_float, ITEMS)
        sink = blocks.vector_sink_f()
    else:
        src = analog.sig_source_c(rate, wave, freq, ampl, offset, phase)
        head = blocks.head(gr.sizeof_gr_complex, ITEMS)
        sink = blocks.vector_sink_c()
    tb.connect(src, head, sink)
    tb.run()
    dtype = "<f4" if kind == "f32" else "<c8"
    return np.array(sink.data(), dtype=dtype)


def main():
    lines = [
        "# name type waveform sample_rate freq ampl offset_re offset_im phase items",
        "# written by generate.py with GNU Radio " + gr.version(),
    ]
    for label, rate, freq, ampl, offset, phase in SETS:
        for kind in ("f32", "c32"):
            for wave_name, wave in WAVES.items():
                name = f"{label}_{kind}_{wave_name}"
                data = run(kind, wave, rate, freq, ampl, offset, phase)
                assert len(data) == ITEMS
                ext = "f32" if kind == "f32" else "c64"
                data.tofile(os.path.join(HERE, f"{name}.{ext}"))
                off_im = offset.imag if kind == "c32" else 0.0
                lines.append(
                    f"{name} {kind} {wave_name} {rate!r} {freq!r} {ampl!r} "
                    f"{offset.real!r} {off_im!r} {phase!r} {ITEMS}"
                )
    with open(os.path.join(HERE, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
