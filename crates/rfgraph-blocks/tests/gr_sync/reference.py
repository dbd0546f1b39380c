#!/usr/bin/python3
"""Runs GNU Radio 3.10's symbol synchronizer (every timing error detector
with every interpolating resampler, complex and float), its fractional
(MMSE) resampler and its M&M clock recovery on noisy, timing-offset,
RRC-shaped signals; writes each case's input and output as raw
little-endian files (`<case>.in`, `<case>.out`) into the directory given
as the only argument, and `cases.txt` (one line per symbol sync case:
`case type ted resampler`). The Rust test `gr_sync.rs` compares."""

import os
import sys
import numpy as np
from gnuradio import gr, blocks, digital, filter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gr_common  # noqa: E402

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(4321)
SPS = 4
NSYM = 1500


def run(name, block, data, complex_io):
    data = np.asarray(data, dtype=np.complex64 if complex_io else np.float32)
    tb = gr.top_block()
    src = (blocks.vector_source_c if complex_io else blocks.vector_source_f)(data.tolist())
    snk = (blocks.vector_sink_c if complex_io else blocks.vector_sink_f)()
    tb.connect(src, block, snk)
    tb.run()
    data.tofile(os.path.join(out_dir, name + ".in"))
    np.asarray(snk.data(), dtype=data.dtype).tofile(os.path.join(out_dir, name + ".out"))


def shaped(points):
    """Symbols at SPS samples each, RRC shaped, delayed by 0.3 sample and
    slowed by 0.05 % (GNU Radio's MMSE resampler), with noise."""
    return gr_common.shaped(rng, points, NSYM, SPS)


def gmsk():
    """A GMSK signal at SPS samples per bit (GNU Radio's modulator), with
    the same timing offset and noise."""
    bits = rng.integers(0, 256, NSYM // 8).astype(np.uint8)
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist())
    mod = digital.gmsk_mod(samples_per_symbol=SPS, bt=0.35)
    res = filter.mmse_resampler_cc(0.3, 1.0005)
    snk = blocks.vector_sink_c()
    tb.connect(src, mod, res, snk)
    tb.run()
    y = np.asarray(snk.data(), dtype=np.complex64)
    noise = (rng.normal(0, 0.05, len(y)) + 1j * rng.normal(0, 0.05, len(y)))
    return (y + noise).astype(np.complex64)


qpsk = np.array([1 + 1j, -1 + 1j, -1 - 1j, 1 - 1j]) / np.sqrt(2)
bpsk = np.array([-1.0, 1.0])
sig_c = shaped(qpsk)
sig_f = shaped(bpsk).real.astype(np.float32)
msk_c = gmsk()
msk_f = msk_c.real.astype(np.float32)

teds = ["TED_MUELLER_AND_MULLER", "TED_MOD_MUELLER_AND_MULLER", "TED_ZERO_CROSSING",
        "TED_GARDNER", "TED_EARLY_LATE", "TED_DANDREA_AND_MENGALI_GEN_MSK",
        "TED_MENGALI_AND_DANDREA_GMSK", "TED_SIGNAL_TIMES_SLOPE_ML",
        "TED_SIGNUM_TIMES_SLOPE_ML"]
NF = 32
mf_taps = filter.firdes.root_raised_cosine(NF, NF * SPS, 1.0, 0.35, 11 * SPS * NF)
np.asarray(mf_taps, dtype=np.float32).tofile(os.path.join(out_dir, "mf_taps.f32"))
resamplers = ["IR_MMSE_8TAP", "IR_PFB_NO_MF", "IR_PFB_MF"]

lines = []
for t in ["cc", "ff"]:
    for ted in teds:
        for ir in resamplers:
            osps = 2 if ted == "TED_GARDNER" and ir == "IR_MMSE_8TAP" else 1
            slicer = (digital.constellation_qpsk() if t == "cc" else digital.constellation_bpsk()).base()
            make = digital.symbol_sync_cc if t == "cc" else digital.symbol_sync_ff
            blk = make(getattr(digital, ted), SPS, 0.045, 1.0, 1.0, 1.5, osps, slicer,
                       getattr(digital, ir), NF, mf_taps if ir == "IR_PFB_MF" else [])
            case = "ss_%s_%s_%s" % (t, ted.lower(), ir.lower())
            msk = "MSK" in ted
            data = (msk_c if msk else sig_c) if t == "cc" else (msk_f if msk else sig_f)
            run(case, blk, data, t == "cc")
            lines.append("%s %s %s %s %d" % (case, t, ted, ir, osps))
with open(os.path.join(out_dir, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")

# The fractional resampler at fixed ratios.
run("mmse_cc", filter.mmse_resampler_cc(0.25, 1.37), sig_c, True)
run("mmse_ff", filter.mmse_resampler_ff(0.0, 0.71), sig_f, False)
# M&M clock recovery, float.
run("mm_ff", digital.clock_recovery_mm_ff(4.0, 0.25 * 0.175 * 0.175, 0.5, 0.175, 0.005), sig_f, False)


def run_diag(name, block, data):
    """A complex block with three optional float outputs: writes
    `<name>.in`, `<name>.out` and `<name>.d1` .. `<name>.d3`."""
    data = np.asarray(data, dtype=np.complex64)
    tb = gr.top_block()
    src = blocks.vector_source_c(data.tolist())
    sinks = [blocks.vector_sink_c()] + [blocks.vector_sink_f() for _ in range(3)]
    tb.connect(src, block)
    for i, k in enumerate(sinks):
        tb.connect((block, i), k)
    tb.run()
    data.tofile(os.path.join(out_dir, name + ".in"))
    np.asarray(sinks[0].data(), dtype=np.complex64).tofile(os.path.join(out_dir, name + ".out"))
    for i in range(1, 4):
        np.asarray(sinks[i].data(), dtype=np.float32).tofile(
            os.path.join(out_dir, "%s.d%d" % (name, i)))


# The optional outputs: symbol sync's error / T_inst / T_avg, the
# polyphase clock sync's err / rate / phase.
run_diag("diag_symbol_sync", digital.symbol_sync_cc(
    digital.TED_GARDNER, SPS, 0.045, 1.0, 1.0, 1.5, 1, digital.constellation_qpsk().base(),
    digital.IR_MMSE_8TAP, NF, []), sig_c)
run_diag("diag_pfb_clock_sync", digital.pfb_clock_sync_ccf(
    SPS, 2 * np.pi / 100, mf_taps, NF, 16, 1.5, 1), sig_c)
