#!/usr/bin/python3
"""Runs GNU Radio 3.10's channel blocks (and `dc_blocker_xx`,
`simple_squelch_cc`) on fixed inputs and writes each case's input and
output as raw little-endian files (`<case>.in`, `<case>.out`) into the
directory given as the only argument. The Rust test `gr_channels.rs` feeds
the same inputs to the rfgraph blocks of the same name and compares."""

import sys
import os
import numpy as np
from gnuradio import gr, blocks, analog, filter, channels

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(20240611)


def run(name, block, data):
    data = np.asarray(data)
    real = data.dtype == np.float32
    tb = gr.top_block()
    src = (blocks.vector_source_f if real else blocks.vector_source_c)(data.tolist())
    sink = blocks.vector_sink_f() if real else blocks.vector_sink_c()
    tb.connect(src, block, sink)
    tb.run()
    data.tofile(os.path.join(out_dir, name + ".in"))
    np.asarray(sink.data(), dtype=data.dtype).tofile(os.path.join(out_dir, name + ".out"))


def cnoise(n, scale=1.0):
    return (scale * (rng.normal(size=n) + 1j * rng.normal(size=n)) / np.sqrt(2)).astype(np.complex64)


n = 20000
k = np.arange(n)

# Quantizer: a Gaussian signal past full scale, and exact halves of steps.
floats = (0.6 * rng.normal(size=n)).astype(np.float32)
floats[:8] = [0.0, -0.0, 0.5 / 32768, 1.5 / 32768, -2.5 / 32768, 1.0, -1.0, 3.0]
for bits in [16, 8, 3, 1, 20]:
    run("quantizer_%d" % bits, channels.quantizer(bits), floats)

# Amplitude balance: Q at half I's level and a little off in phase.
tone = np.exp(1j * 0.031 * k)
unbalanced = (tone.real + 0.5j * np.sin(0.031 * k + 0.1) + cnoise(n, 0.05)).astype(np.complex64)
run("amp_bal_1e-3", channels.amp_bal(1e-3), unbalanced)
run("amp_bal_0.05", channels.amp_bal(0.05), unbalanced)

# Impairments: GNU Radio's defaults (1 rad of phase noise before its
# low-pass), no phase noise (-1000 dB) with everything else, and all on.
qpsk = ((rng.integers(0, 2, n) * 2 - 1) + 1j * (rng.integers(0, 2, n) * 2 - 1)) * 0.6
sig = (qpsk + cnoise(n, 0.02)).astype(np.complex64)
run("impairments_defaults", channels.impairments(0, 0, 0, 0, 0, 0, 0, 0), sig)
run("impairments_no_noise",
    channels.impairments(-1000, 0.8, 5.0, 0.02, -0.03, 0.013, 0.05, 0.1), sig)
run("impairments_all",
    channels.impairments(-25, -0.6, -3.0, -0.01, 0.04, -0.0071, -0.08, -0.2), sig)

# Fading: Rayleigh and Rician, and a fast one whose random walk reflects.
ones_ish = (np.exp(1j * 0.02 * k) * (1 + 0.2 * np.sin(0.001 * k))).astype(np.complex64)
run("fading_rayleigh", channels.fading_model(8, 0.01, False, 4.0, 0), ones_ish)
run("fading_rician", channels.fading_model(16, 0.003, True, 2.5, 77), ones_ish)
long = np.ones(100000, dtype=np.complex64)
run("fading_fast", channels.fading_model(5, 0.45, True, 1.0, 4242), long)

# Selective fading: GRC's defaults, and a Rician profile with a negative seed.
run("selective_defaults",
    channels.selective_fading_model(8, 0.01, False, 4.0, 0, (0.0, 0.1, 1.3), (1, 0.99, 0.97), 8), sig)
run("selective_los",
    channels.selective_fading_model(6, 0.02, True, 3.0, -3, (0.0, 2.5, 3.7, 0.25),
                                    (1.0, 0.5, 0.25, 0.7), 12), sig)

# DC blockers: a tone on a DC offset, with noise.
dc_f = (0.7 + np.sin(0.05 * k) + 0.1 * rng.normal(size=n)).astype(np.float32)
dc_c = (0.3 - 0.4j + np.exp(1j * 0.05 * k) + cnoise(n, 0.1)).astype(np.complex64)
run("dc_ff_long_32", filter.dc_blocker_ff(32, True), dc_f)
run("dc_ff_short_16", filter.dc_blocker_ff(16, False), dc_f)
run("dc_ff_long_1", filter.dc_blocker_ff(1, True), dc_f)
run("dc_cc_long_32", filter.dc_blocker_cc(32, True), dc_c)
run("dc_cc_short_5", filter.dc_blocker_cc(5, False), dc_c)

# Simple squelch: bursts 20 dB above a quiet floor.
level = np.where((k // 2500) % 2 == 0, 0.03, 1.0)
bursts = (level * np.exp(1j * 0.2 * k) + cnoise(n, 0.01)).astype(np.complex64)
run("squelch_-20_0.01", analog.simple_squelch_cc(-20, 0.01), bursts)
run("squelch_-35_0.001", analog.simple_squelch_cc(-35, 0.001), bursts)
