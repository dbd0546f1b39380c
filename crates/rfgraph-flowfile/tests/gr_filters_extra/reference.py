#!/usr/bin/python3
"""Runs GNU Radio 3.10's filter blocks as their GRC blocks make them and
writes each case's input and output as raw little-endian files
(`<case>.in`, `<case>.out`) into the directory given as the only argument.
The Rust test `gr_filters_extra.rs` imports the same GRC blocks through
rfgraph's mapping table, runs them on the same input and compares."""

import sys
import os
import numpy as np
from gnuradio import gr, blocks, filter
from gnuradio.filter import firdes

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(4321)


def run(name, block, data, complex_items):
    data = np.asarray(data, dtype=np.complex64 if complex_items else np.float32)
    tb = gr.top_block()
    if complex_items:
        s, k = blocks.vector_source_c(data.tolist()), blocks.vector_sink_c()
    else:
        s, k = blocks.vector_source_f(data.tolist()), blocks.vector_sink_f()
    tb.connect(s, block, k)
    tb.run()
    data.tofile(os.path.join(out_dir, name + ".in"))
    np.asarray(k.data(), dtype=data.dtype).tofile(os.path.join(out_dir, name + ".out"))


n = 3000
real_in = rng.standard_normal(n)
complex_in = rng.standard_normal(n) + 1j * rng.standard_normal(n)

# filter_fft_rrc_filter's template: fft_filter_<type>(decim,
# firdes.root_raised_cosine(gain, samp_rate, sym_rate, alpha, ntaps), nthreads)
# Each case: (name, type, decim, gain, samp_rate, sym_rate, alpha, ntaps).
RRC = [
    ("rrc_fff", "fff", 1, 1.0, 8.0, 1.0, 0.35, 88),
    ("rrc_ccf", "ccf", 2, 2.0, 4.0, 1.0, 0.5, 45),
    ("rrc_ccc", "ccc", 3, 0.5, 32000.0, 4000.0, 0.22, 101),
]
for name, ty, decim, gain, fs, rs, alpha, ntaps in RRC:
    taps = firdes.root_raised_cosine(gain, fs, rs, alpha, ntaps)
    make = getattr(filter, "fft_filter_" + ty)
    run(name, make(decim, taps, 1), complex_in if ty != "fff" else real_in, ty != "fff")

# variable_file_filter_taps: filter.file_taps_loader(file, verbose).get_taps(),
# used as a FIR filter's taps. The example's complex band pass file, and a
# real file in the design tool's format written here.
example = "/usr/share/gnuradio/examples/filter/filter_taps_example_complex_bandpass_taps"
real_file = os.path.join(out_dir, "real_taps.csv")
with open(real_file, "w") as f:
    f.write("restype,fir\nfs,48000.0\ngain,1.0\nfilttype,lpf\n")
    f.write("taps," + ",".join(repr(float(t)) for t in firdes.low_pass(1.0, 48000, 5000, 2000)) + "\n")
for name, path, ty in [("file_taps_complex", example, "ccc"), ("file_taps_real", real_file, "fff")]:
    if not os.path.isfile(path):
        continue
    taps = filter.file_taps_loader(path, False).get_taps()
    make = getattr(filter, "fir_filter_" + ty)
    run(name, make(1, taps), complex_in if ty != "fff" else real_in, ty != "fff")
    with open(os.path.join(out_dir, name + ".path"), "w") as f:
        f.write(path)
