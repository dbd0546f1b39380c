#!/usr/bin/python3
"""Runs GNU Radio 3.10's polyphase clock sync (`pfb_clock_sync_ccf` and
`_fff` with several output samples per symbol) on a noisy, timing-offset,
RRC-shaped signal and writes each case's input, output and optional
outputs as raw little-endian files (`<case>.in`, `<case>.out`,
`<case>.d1` .. `<case>.d3`) into the directory given as the only
argument. The Rust test `gr_dsp2.rs` compares."""

import os
import sys
import numpy as np
from gnuradio import gr, blocks, digital, filter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gr_common  # noqa: E402

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(2718)
SPS = 4
NSYM = 1200
NF = 32


def shaped(points):
    """Symbols at SPS samples each, RRC shaped, delayed by 0.3 sample and
    slowed by 0.05 % (GNU Radio's MMSE resampler), with noise."""
    return gr_common.shaped(rng, points, NSYM, SPS)


def run_diag(name, block, data, complex_io):
    """A block with three optional float outputs."""
    dt = np.complex64 if complex_io else np.float32
    data = np.asarray(data, dtype=dt)
    tb = gr.top_block()
    src = (blocks.vector_source_c if complex_io else blocks.vector_source_f)(data.tolist())
    sinks = [(blocks.vector_sink_c if complex_io else blocks.vector_sink_f)()]
    sinks += [blocks.vector_sink_f() for _ in range(3)]
    tb.connect(src, block)
    for i, k in enumerate(sinks):
        tb.connect((block, i), k)
    tb.run()
    data.tofile(os.path.join(out_dir, name + ".in"))
    np.asarray(sinks[0].data(), dtype=dt).tofile(os.path.join(out_dir, name + ".out"))
    for i in range(1, 4):
        np.asarray(sinks[i].data(), dtype=np.float32).tofile(
            os.path.join(out_dir, "%s.d%d" % (name, i)))


qpsk = np.array([1 + 1j, -1 + 1j, -1 - 1j, 1 - 1j]) / np.sqrt(2)
bpsk = np.array([-1.0, 1.0])
sig_c = shaped(qpsk)
sig_f = shaped(bpsk).real.astype(np.float32)
mf_taps = filter.firdes.root_raised_cosine(NF, NF * SPS, 1.0, 0.35, 11 * SPS * NF)
np.asarray(mf_taps, dtype=np.float32).tofile(os.path.join(out_dir, "mf_taps.f32"))

# Polyphase clock sync, complex and float, osps 1, 2 and 4 (as
# mpsk_stage6.grc: sps 4, 32 arms, initial phase 16, osps 2).
for osps in (1, 2, 4):
    run_diag("pfb_ccf_osps%d" % osps, digital.pfb_clock_sync_ccf(
        SPS, 2 * np.pi / 100, mf_taps, NF, NF / 2, 1.5, osps), sig_c, True)
    run_diag("pfb_fff_osps%d" % osps, digital.pfb_clock_sync_fff(
        SPS, 2 * np.pi / 100, mf_taps, NF, NF / 2, 1.5, osps), sig_f, False)

# Parks-McClellan designs (`filter.pm_remez`) and GNU Radio's optfir
# designers on top, as float64 taps.
remez_cases = [
    ("remez_lp_odd", 40, [0, 0.2, 0.3, 1], [1, 1, 0, 0], [1, 10], "bandpass"),
    ("remez_lp_even", 41, [0, 0.4, 0.5, 1], [1, 1, 0, 0], [], "bandpass"),
    ("remez_bp", 62, [0, 0.2, 0.3, 0.5, 0.6, 1], [0, 0, 1, 1, 0, 0], [10, 1, 10], "bandpass"),
    ("remez_ramp", 30, [0, 0.5, 0.6, 1], [0.2, 1, 0, 0], [], "bandpass"),
    # (odd-length Hilbert designs overrun GNU Radio's grid: not compared)
    ("remez_hilbert_even", 31, [0.1, 0.9], [1, 1], [], "hilbert"),
    ("remez_diff", 21, [0, 0.8], [0, 0.8], [], "differentiator"),
    ("remez_diff_odd", 20, [0, 0.8], [0, 0.8], [], "differentiator"),
]
with open(os.path.join(out_dir, "remez.txt"), "w") as f:
    for name, order, bands, resp, wt, kind in remez_cases:
        taps = filter.pm_remez(order, bands, resp, wt, kind, 16)
        np.asarray(taps, dtype=np.float64).tofile(os.path.join(out_dir, name + ".f64"))
        f.write("%s %d %s %s %s %s\n" % (name, order, ",".join(map(str, bands)),
                                         ",".join(map(str, resp)),
                                         ",".join(map(str, wt)) or "-", kind))

from gnuradio.filter import optfir, pfb
optfir_cases = [
    # wfm_tx's interpolation filter (fm_tx.grc: audio 50k, quad 400k)
    ("optfir_lp_wfm", optfir.low_pass(8, 400000, 16000, 18000, 0.1, 40)),
    ("optfir_lp_wfm2", optfir.low_pass(4, 192000, 16000, 18000, 0.1, 40)),
    ("optfir_lp_gain", optfir.low_pass(1, 8000, 1000, 1500, 0.5, 50, 3)),
    ("optfir_hp", optfir.high_pass(1, 8000, 1000, 1500, 0.5, 50)),
    ("optfir_bp", optfir.band_pass(2, 8000, 500, 1000, 2000, 2500, 0.2, 60)),
    # the channelizer hier block's default taps (polyphase_channelizer_demo.grc)
    ("optfir_chan3", pfb.channelizer_hier_ccf.create_taps(3, 100, 0.6, 0.2, 0.1)),
    ("optfir_chan4", pfb.channelizer_hier_ccf.create_taps(4, 80, 1.0, 0.2, 0.1)),
]
for name, taps in optfir_cases:
    np.asarray(taps, dtype=np.float64).tofile(os.path.join(out_dir, name + ".f64"))


def run_multi(name, block, data, nout):
    """A complex block with one input and `nout` outputs: writes
    `<name>.in` and `<name>.out0` ..."""
    data = np.asarray(data, dtype=np.complex64)
    tb = gr.top_block()
    src = blocks.vector_source_c(data.tolist())
    sinks = [blocks.vector_sink_c() for _ in range(nout)]
    tb.connect(src, block)
    for i, k in enumerate(sinks):
        tb.connect((block, i), k)
    tb.run()
    data.tofile(os.path.join(out_dir, name + ".in"))
    for i, k in enumerate(sinks):
        np.asarray(k.data(), dtype=np.complex64).tofile(
            os.path.join(out_dir, "%s.out%d" % (name, i)))


# Channelizers: tones in several channels plus noise.
L = 12 * 700
t = np.arange(L)
chan_in = (np.exp(2j * np.pi * 0.26 * t) + 0.5 * np.exp(-2j * np.pi * 0.3 * t)
           + 0.3 * np.exp(2j * np.pi * 0.02 * t)
           + 0.1 * (rng.normal(size=L) + 1j * rng.normal(size=L))).astype(np.complex64)
proto4 = filter.firdes.low_pass_2(1, 4, 0.45, 0.1, 60)
np.asarray(proto4, dtype=np.float32).tofile(os.path.join(out_dir, "proto4.f32"))
run_multi("chan_ccf_osr1", pfb.channelizer_ccf(4, proto4, 1.0), chan_in, 4)
run_multi("chan_ccf_osr2", pfb.channelizer_ccf(4, proto4, 2.0), chan_in, 4)
c = pfb.channelizer_ccf(4, proto4, 1.0)
c.set_channel_map([3, 2, 1, 0])
run_multi("chan_ccf_map", c, chan_in, 4)
run_multi("chan_ccf_osr43", pfb.channelizer_ccf(4, proto4, 4.0 / 3.0), chan_in, 4)
run_multi("chan_ccf_default", pfb.channelizer_ccf(3, None, 1.0, 60), chan_in, 3)
# the hierarchical form, polyphase_channelizer_demo.grc's parameters
run_multi("chan_hier_demo", pfb.channelizer_hier_ccf(3, 4, None, None, 100, 0.6, 0.2, 0.1),
          chan_in, 3)
run_multi("chan_hier_sel", pfb.channelizer_hier_ccf(4, 2, proto4, [2, 0]), chan_in, 2)
