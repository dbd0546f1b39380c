#!/usr/bin/python3
"""Runs GNU Radio 3.10's constellation blocks with custom constellations
(`constellation_calcdist`, `constellation_rect`) and the standard ones on
fixed noisy symbols, and writes each case's input and output as raw
little-endian files (`<case>.in`, `<case>.out`) into the directory given
as the only argument, plus the normalised points (`<case>.points`). The
Rust test `gr_constellations.rs` runs the rfgraph blocks on the same
inputs and compares."""

import sys
import os
import math
import numpy as np
from gnuradio import gr, blocks, digital

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(4321)

R3 = 1 + math.sqrt(3)
# An 8-point star QAM (inner square, outer diamond) in a shuffled order.
STAR8 = [1 + 1j, R3 + 0j, -1 + 1j, R3 * 1j, -1 - 1j, -R3 + 0j, 1 - 1j, -R3 * 1j]
STAR8_MAP = [0, 1, 3, 2, 7, 6, 4, 5]
GRID16 = [complex(re, im) for re in (-3, -1, 1, 3) for im in (-3, -1, 1, 3)]
NORMS = {
    "none": digital.constellation.NO_NORMALIZATION,
    "amplitude": digital.constellation.AMPLITUDE_NORMALIZATION,
    "power": digital.constellation.POWER_NORMALIZATION,
}


def write(name, ext, data, dtype):
    np.asarray(data, dtype=dtype).tofile(os.path.join(out_dir, name + "." + ext))


def noisy(points, n, sigma):
    pts = np.asarray(points, dtype=np.complex64)
    idx = rng.integers(0, len(pts), n)
    noise = rng.normal(0, sigma, n) + 1j * rng.normal(0, sigma, n)
    return (pts[idx] + noise).astype(np.complex64)


def run(name, block, data, src, sink):
    tb = gr.top_block()
    s = src(np.asarray(data).tolist())
    k = sink()
    tb.connect(s, block, k)
    tb.run()
    return k.data()


def decoder(name, c, sigma):
    pts = c.points()
    write(name, "points", pts, np.complex64)
    x = noisy(pts, 4000, sigma)
    # A few exact boundaries, far points and the origin.
    x[:6] = [0, 0.5 * (pts[0] + pts[1]), 100 + 100j, -100 - 3j, 1e-30, pts[-1]]
    y = run(name, digital.constellation_decoder_cb(c), x,
            blocks.vector_source_c, blocks.vector_sink_b)
    write(name, "in", x, np.complex64)
    write(name, "out", y, np.uint8)


for norm, n in NORMS.items():
    decoder("calcdist_star8_" + norm,
            digital.constellation_calcdist(STAR8, STAR8_MAP, 4, 1, n), 0.4)
decoder("calcdist_default", digital.constellation_calcdist(STAR8, [], 4, 1), 0.4)
decoder("rect_grid16", digital.constellation_rect(GRID16, list(range(16)), 4, 4, 4, 2, 2), 0.3)
decoder("rect_grid16_wide", digital.constellation_rect(GRID16, [], 4, 2, 2, 4, 4), 0.3)
for std in ["bpsk", "qpsk", "dqpsk", "8psk", "16qam"]:
    decoder("std_" + std, getattr(digital, "constellation_" + std)(), 0.3)

# meas_evm with a custom constellation.
c = digital.constellation_calcdist(STAR8, STAR8_MAP, 4, 1)
x = noisy(c.points(), 2000, 0.1)
y = run("evm", digital.meas_evm_cc(c, digital.evm_measurement_t.EVM_PERCENT), x,
        blocks.vector_source_c, blocks.vector_sink_f)
write("evm_star8", "in", x, np.complex64)
write("evm_star8", "out", y, np.float32)

# The modulator with a custom constellation (with and without its map).
bytes_in = rng.integers(0, 256, 600).astype(np.uint8)
for diff, name in [(False, "mod_star8"), (True, "mod_star8_diff")]:
    c = digital.constellation_calcdist(STAR8, STAR8_MAP, 4, 1)
    m = digital.generic_mod(constellation=c, differential=diff, samples_per_symbol=4,
                            pre_diff_code=True, excess_bw=0.35)
    y = run(name, m, bytes_in, blocks.vector_source_b, blocks.vector_sink_c)
    write(name, "in", bytes_in, np.uint8)
    write(name, "out", y, np.complex64)
