#!/usr/bin/python3
"""Runs GNU Radio 3.10 blocks on fixed inputs and writes each case's input
and output as raw little-endian files (`<case>.in`, `<case>.out`) into the
directory given as the only argument. The Rust test `gr_comm.rs` feeds the
same inputs to the rfgraph blocks of the same name and compares."""

import sys
import os
import math
import numpy as np
from gnuradio import gr, blocks, digital, analog, filter, channels

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(1234)


def run(name, block, data, src, sink_type):
    data = np.asarray(data)
    tb = gr.top_block()
    s = src(data.tolist())
    k = sink_type()
    tb.connect(s, block, k)
    tb.run()
    data.tofile(os.path.join(out_dir, name + ".in"))
    dtype = {blocks.vector_sink_b: np.uint8, blocks.vector_sink_s: np.int16,
             blocks.vector_sink_i: np.int32, blocks.vector_sink_f: np.float32,
             blocks.vector_sink_c: np.complex64}[sink_type]
    np.asarray(k.data(), dtype=dtype).tofile(os.path.join(out_dir, name + ".out"))


bytes_in = rng.integers(0, 256, 999).astype(np.uint8)
vb, vs, vi, vf, vc = (blocks.vector_source_b, blocks.vector_source_s, blocks.vector_source_i,
                      blocks.vector_source_f, blocks.vector_source_c)
kb, ks, ki, kf, kc = (blocks.vector_sink_b, blocks.vector_sink_s, blocks.vector_sink_i,
                      blocks.vector_sink_f, blocks.vector_sink_c)

run("repack_8_3_msb", blocks.repack_bits_bb(8, 3, "", False, gr.GR_MSB_FIRST), bytes_in, vb, kb)
run("repack_8_3_lsb", blocks.repack_bits_bb(8, 3, "", False, gr.GR_LSB_FIRST), bytes_in, vb, kb)
run("repack_3_5_lsb", blocks.repack_bits_bb(3, 5, "", False, gr.GR_LSB_FIRST), bytes_in % 8, vb, kb)
run("unpack_k_bits_8", blocks.unpack_k_bits_bb(8), bytes_in, vb, kb)
run("pack_k_bits_8", blocks.pack_k_bits_bb(8), bytes_in % 2, vb, kb)
run("packed_to_unpacked_b_2_msb", blocks.packed_to_unpacked_bb(2, gr.GR_MSB_FIRST), bytes_in, vb, kb)
run("packed_to_unpacked_b_3_lsb", blocks.packed_to_unpacked_bb(3, gr.GR_LSB_FIRST), bytes_in, vb, kb)
shorts = rng.integers(-32768, 32768, 500).astype(np.int16)
run("packed_to_unpacked_s_4_lsb", blocks.packed_to_unpacked_ss(4, gr.GR_LSB_FIRST), shorts, vs, ks)
run("unpacked_to_packed_b_1_msb", blocks.unpacked_to_packed_bb(1, gr.GR_MSB_FIRST), bytes_in % 2, vb, kb)
run("unpacked_to_packed_b_3_lsb", blocks.unpacked_to_packed_bb(3, gr.GR_LSB_FIRST), bytes_in % 8, vb, kb)
ints = rng.integers(0, 1 << 20, 300).astype(np.int32)
run("unpacked_to_packed_i_5_msb", blocks.unpacked_to_packed_ii(5, gr.GR_MSB_FIRST), ints, vi, ki)

qpsk = digital.constellation_qpsk().points()
run("chunks_bc_qpsk", digital.chunks_to_symbols_bc(qpsk, 1), bytes_in % 4, vb, kc)
run("chunks_sf_dim2", digital.chunks_to_symbols_sf([0.5, -1.0, 2.0, 3.5, -4.0, 0.0], 2),
    (bytes_in % 3).astype(np.int16), vs, kf)
run("chunks_if", digital.chunks_to_symbols_if([-3.0, -1.0, 1.0, 3.0], 1),
    (bytes_in % 4).astype(np.int32), vi, kf)
run("map_bb", digital.map_bb([3, 2, 1, 0, 7]), bytes_in % 10, vb, kb)
run("map_bb_cast", digital.map_bb([-1, 1, 300]), bytes_in % 4, vb, kb)
floats = rng.normal(0, 1, 1000).astype(np.float32)
floats[:4] = [0.0, -0.0, 1e-30, -1e-30]
run("binary_slicer", digital.binary_slicer_fb(), floats, vf, kb)
run("diff_encoder_4", digital.diff_encoder_bb(4), bytes_in % 4, vb, kb)
run("diff_decoder_4", digital.diff_decoder_bb(4), bytes_in % 4, vb, kb)
run("diff_encoder_2", digital.diff_encoder_bb(2), bytes_in % 2, vb, kb)

for name in ["bpsk", "qpsk", "8psk", "16qam"]:
    c = getattr(digital, "constellation_" + name)()
    pts = np.array(c.points(), dtype=np.complex64)
    idx = rng.integers(0, len(pts), 2000)
    noisy = (pts[idx] + (rng.normal(0, 0.1, 2000) + 1j * rng.normal(0, 0.1, 2000))).astype(np.complex64)
    run("decoder_" + name, digital.constellation_decoder_cb(c.base()), noisy, vc, kb)

msg = np.sin(np.arange(3000) * 0.01).astype(np.float32) + floats[np.arange(3000) % 1000] * 0.1
run("frequency_modulator", analog.frequency_modulator_fc(0.7), msg, vf, kc)
run("single_pole_ff", filter.single_pole_iir_filter_ff(0.1), msg, vf, kf)
run("single_pole_cc", filter.single_pole_iir_filter_cc(0.05), (msg + 1j * msg[::-1]).astype(np.complex64), vc, kc)

ctrl = (np.sin(np.arange(2000) * 0.013) * 3.0).astype(np.float32)
run("vco_f", blocks.vco_f(1000.0, 300.0, 2.0), ctrl, vf, kf)
run("vco_c", blocks.vco_c(1000.0, 300.0, 0.5), ctrl, vf, kc)
burst = (np.where((np.arange(3000) // 500) % 2 == 0, 0.1, 3.0) * np.exp(1j * np.arange(3000) * 0.1)).astype(np.complex64)
run("agc2_cc", analog.agc2_cc(0.1, 0.01, 1.0, 1.0), burst, vc, kc)
run("agc2_ff", analog.agc2_ff(0.05, 0.005, 0.7, 2.0), burst.real.copy(), vf, kf)

run("fm_preemph", analog.fm_preemph(48000.0, 75e-6), msg, vf, kf)
run("fm_preemph_fh", analog.fm_preemph(44100.0, 50e-6, 15000.0), msg, vf, kf)
run("iir_ffd_old", filter.iir_filter_ffd([0.2, 0.1], [1.0, 0.6, -0.1], True), msg, vf, kf)
run("iir_ccd_new", filter.iir_filter_ccd([0.2, 0.1, 0.05], [1.0, -0.6, 0.1], False),
    (msg + 1j * msg[::-1]).astype(np.complex64), vc, kc)

# PSK symbols with a carrier offset and phase, a little noise.
n = 6000
for order, name in [(2, "bpsk"), (4, "qpsk"), (8, "8psk")]:
    c = getattr(digital, "constellation_" + name)()
    pts = np.array(c.points(), dtype=np.complex64)
    pts = pts / np.abs(pts)
    sym = pts[rng.integers(0, len(pts), n)]
    k = np.arange(n)
    x = sym * np.exp(1j * (0.002 * k + 0.4)) + 0.05 * (rng.normal(size=n) + 1j * rng.normal(size=n))
    run("costas_%d" % order, digital.costas_loop_cc(2 * math.pi / 100, order), x.astype(np.complex64), vc, kc)

# Binary symbols at 4 samples per symbol through a smooth (raised-cosine-like) pulse.
sps = 4
bits = rng.integers(0, 2, 800) * 2 - 1
up = np.zeros(len(bits) * sps)
up[::sps] = bits
pulse = np.hanning(2 * sps + 1)
shaped = np.convolve(up, pulse)[: len(up)].astype(np.float32)
run("mm_ff", digital.clock_recovery_mm_ff(4.03, 0.25 * 0.175 * 0.175, 0.5, 0.175, 0.005), shaped, vf, kf)
shaped_c = (shaped + 1j * np.roll(shaped, 3)).astype(np.complex64)
run("mm_cc", digital.clock_recovery_mm_cc(4.03, 0.25 * 0.175 * 0.175, 0.5, 0.175, 0.005), shaped_c, vc, kc)

# RRC-shaped QPSK at 4 samples per symbol, a little off the nominal rate,
# into the polyphase clock sync.
nf = 32
rrc = filter.firdes.root_raised_cosine(nf, nf * sps, 1.0, 0.35, 11 * sps * nf)
sym = (rng.integers(0, 2, 1500) * 2 - 1) + 1j * (rng.integers(0, 2, 1500) * 2 - 1)
tx = filter.firdes.root_raised_cosine(sps, sps, 1.0, 0.35, 11 * sps)
up = np.zeros(len(sym) * sps, dtype=np.complex64)
up[::sps] = sym
shaped = np.convolve(up, tx)[: len(up)]
shaped = np.interp(np.arange(0, len(shaped) - 2, 1.0005), np.arange(len(shaped)), shaped.real) + 1j * np.interp(
    np.arange(0, len(shaped) - 2, 1.0005), np.arange(len(shaped)), shaped.imag)
with open(os.path.join(out_dir, "pfb_taps.f32"), "wb") as fh:
    np.asarray(rrc, dtype=np.float32).tofile(fh)
run("pfb_clock_sync", digital.pfb_clock_sync_ccf(sps, 2 * math.pi / 100, rrc, nf, nf // 2, 1.5, 1),
    shaped.astype(np.complex64), vc, kc)

sig = (np.exp(1j * np.arange(4000) * 0.05) * (1 + 0.3 * np.sin(np.arange(4000) * 0.003))).astype(np.complex64)
run("channel_plain", channels.channel_model(0.0, 0.0, 1.0, [1.0 + 0j], 0), sig, vc, kc)
run("channel_offset_taps", channels.channel_model(0.0, 0.01, 1.0, [1.0, 0.3 - 0.2j, 0.1j], 0), sig, vc, kc)
run("channel_epsilon", channels.channel_model(0.0, 0.0, 1.001, [1.0 + 0j], 0), sig, vc, kc)

tb = gr.top_block()
src = analog.fastnoise_source_c(analog.GR_GAUSSIAN, 0.5, 7, 8192)
head = blocks.head(gr.sizeof_gr_complex, 100000)
k = kc()
tb.connect(src, head, k)
tb.run()
np.asarray(k.data(), dtype=np.complex64).tofile(os.path.join(out_dir, "fastnoise_c.out"))

run("diff_encoder_nrzi", digital.diff_encoder_bb(2, digital.DIFF_NRZI), bytes_in % 2, vb, kb)
run("diff_decoder_nrzi", digital.diff_decoder_bb(2, digital.DIFF_NRZI), bytes_in % 2, vb, kb)

for name in ["qpsk", "16qam"]:
    c = getattr(digital, "constellation_" + name)()
    pts = np.array(c.points(), dtype=np.complex64)
    noisy = (pts[rng.integers(0, len(pts), 500)] + 0.2 * (rng.normal(size=500) + 1j * rng.normal(size=500))).astype(np.complex64)
    run("evm_pct_" + name, digital.meas_evm_cc(c.base(), digital.evm_measurement_t.EVM_PERCENT), noisy, vc, kf)
    run("evm_db_" + name, digital.meas_evm_cc(c.base(), digital.evm_measurement_t.EVM_DB), noisy, vc, kf)

# RRC-shaped QPSK at 4 samples per symbol with a carrier offset, into the FLL.
sym = (rng.integers(0, 2, 1500) * 2 - 1) + 1j * (rng.integers(0, 2, 1500) * 2 - 1)
up = np.zeros(len(sym) * 4, dtype=np.complex64)
up[::4] = sym
tx = filter.firdes.root_raised_cosine(4, 4, 1.0, 0.35, 45)
shaped = np.convolve(up, tx)[: len(up)] * np.exp(1j * 0.05 * np.arange(len(up)))
run("fll_band_edge", digital.fll_band_edge_cc(4, 0.35, 44, 2 * math.pi / 100), shaped.astype(np.complex64), vc, kc)
