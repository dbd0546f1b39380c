#!/usr/bin/python3
"""Runs GNU Radio 3.10's hierarchical modulators on fixed random bytes and
writes each case's input and output as raw little-endian files
(`<case>.in`, `<case>.out`) into the directory given as the only argument.
The Rust test `gr_mods.rs` feeds the same inputs to the rfgraph blocks and
compares."""

import sys
import os
import numpy as np
from gnuradio import gr, blocks, digital

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(4321)


def run(name, block, data, src, sink):
    data = np.asarray(data)
    tb = gr.top_block()
    s = src(data.tolist())
    k = sink()
    tb.connect(s, block, k)
    tb.run()
    data.tofile(os.path.join(out_dir, name + ".in"))
    np.asarray(k.data(), dtype=np.complex64).tofile(os.path.join(out_dir, name + ".out"))


bytes_in = rng.integers(0, 256, 600).astype(np.uint8)
vb, kc = blocks.vector_source_b, blocks.vector_sink_c

for m in (2, 4, 8, 16):
    for code in ("gray", "none"):
        for diff in (True, False):
            for sps in (2, 3, 4):
                name = "psk_%d_%s_%s_%d" % (m, code, "d" if diff else "nd", sps)
                run(name, digital.psk.psk_mod(constellation_points=m, mod_code=code,
                                              differential=diff, samples_per_symbol=sps,
                                              excess_bw=0.35), bytes_in, vb, kc)
run("psk_8_gray_d_5_ebw05", digital.psk.psk_mod(8, "gray", True, samples_per_symbol=5,
                                                excess_bw=0.5), bytes_in, vb, kc)

for sps, bt in ((2, 0.35), (4, 0.3), (5, 0.5)):
    run("gmsk_%d_%g" % (sps, bt), digital.gmsk_mod(samples_per_symbol=sps, bt=bt),
        bytes_in, vb, kc)
run("gmsk_bits_3", digital.gmsk_mod(samples_per_symbol=3, bt=0.35, do_unpack=False),
    bytes_in % 2, vb, kc)

from gnuradio import analog

t = np.arange(20000) / 192000.0
tone = (0.8 * np.sin(2 * np.pi * 1000.0 * t) + 0.1 * np.sin(2 * np.pi * 9000.0 * t)).astype(np.float32)
run("wfm_tx_192k", analog.wfm_tx(192000, 192000), tone, blocks.vector_source_f, kc)
run("wfm_tx_250k_50us", analog.wfm_tx(250000, 250000, tau=50e-6, max_dev=50e3, fh=100e3),
    tone, blocks.vector_source_f, kc)
