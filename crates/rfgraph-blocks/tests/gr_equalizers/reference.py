#!/usr/bin/python3
"""Runs GNU Radio 3.10's correlation estimator, adaptive equalizers,
soft decoder and modulate_vector on fixed inputs and writes inputs and
outputs as raw little-endian files into the directory given as the only
argument (`<case>.in`, `<case>.out`, and for the equalizers `.taps` and
`.state`; for corr_est `.corr` and `.tags`, one `offset key value` line
per tag). The Rust test `gr_equalizers.rs` feeds the same inputs to the
rfgraph blocks and compares."""

import sys
import os
import numpy as np
import pmt
from gnuradio import gr, blocks, digital

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(77)


def path(name, ext):
    return os.path.join(out_dir, name + "." + ext)


# --- soft decoder -----------------------------------------------------------
samples = (rng.uniform(-1.6, 1.6, 3000) + 1j * rng.uniform(-1.6, 1.6, 3000)).astype(np.complex64)
samples[:4] = [0, 1 + 1j, -1 - 1j, 0.99 - 0.99j]


def soft(name, const):
    tb = gr.top_block()
    src = blocks.vector_source_c(samples.tolist())
    dec = digital.constellation_soft_decoder_cf(const)
    k = blocks.vector_sink_f()
    tb.connect(src, dec, k)
    tb.run()
    samples.tofile(path(name, "in"))
    np.asarray(k.data(), dtype=np.float32).tofile(path(name, "out"))


for n in ("bpsk", "qpsk", "16qam"):
    soft("soft_" + n, getattr(digital, "constellation_" + n)().base())
    c = getattr(digital, "constellation_" + n)().base()
    c.gen_soft_dec_lut(8)
    soft("soft_" + n + "_auto", c)
custom = digital.constellation_calcdist(digital.psk_4()[0], digital.psk_4()[1], 4, 1).base()
soft("soft_custom", custom)
custom = digital.constellation_calcdist([1, 1j, -1.5, -0.5j], [0, 2, 3, 1], 4, 1).base()
soft("soft_custom_map", custom)
custom.gen_soft_dec_lut(6)
soft("soft_custom_map_auto6", custom)
qam = digital.constellation_calcdist(digital.qam_16()[0], digital.qam_16()[1], 4, 1).base()
qam.set_soft_dec_lut(digital.soft_dec_table_generator(digital.sd_qam_16, 8, 1), 8)
soft("soft_qam16_table", qam)
psk4 = digital.constellation_calcdist(digital.psk_4()[0], digital.psk_4()[1], 4, 1).base()
psk4.set_soft_dec_lut(digital.soft_dec_table_generator(digital.sd_psk_4, 8, 1), 8)
soft("soft_psk4_table", psk4)
bpsk = digital.constellation_calcdist(digital.psk_2()[0], digital.psk_2()[1], 2, 1).base()
bpsk.set_soft_dec_lut(digital.soft_dec_table_generator(digital.sd_psk_2, 6, 2.0), 6)
soft("soft_psk2_table", bpsk)

# --- equalizers --------------------------------------------------------------
qpsk = digital.constellation_qpsk().base()
pts = np.asarray(qpsk.points(), dtype=np.complex64)
nsym = 1500
syms = pts[rng.integers(0, 4, nsym)]
sps = 2
up = np.zeros(nsym * sps, dtype=np.complex64)
up[::sps] = syms
chan = np.array([1.0, 0.25 - 0.25j, 0.5 + 0.1j, -0.3 + 0.2j], dtype=np.complex64)
rx = np.convolve(up, chan)[: nsym * sps].astype(np.complex64)
rx += (0.01 * (rng.normal(size=rx.size) + 1j * rng.normal(size=rx.size))).astype(np.complex64)
training = syms[100:164]
tag_at = 200


def equalize(name, eq, with_tag=True):
    tb = gr.top_block()
    tags = []
    if with_tag:
        tags = [gr.tag_utils.python_to_tag((tag_at, pmt.intern("corr_est"), pmt.from_double(1.0),
                                            pmt.intern("src")))]
    src = blocks.vector_source_c(rx.tolist(), False, 1, tags)
    k = blocks.vector_sink_c()
    ks = blocks.vector_sink_s()
    tb.connect(src, eq)
    tb.connect((eq, 0), k)
    ntaps = eq_taps[name]
    kt = blocks.vector_sink_c(ntaps)
    tb.connect((eq, 1), kt)
    tb.connect((eq, 2), ks)
    tb.run()
    rx.tofile(path(name, "in"))
    np.asarray(k.data(), dtype=np.complex64).tofile(path(name, "out"))
    np.asarray(kt.data(), dtype=np.complex64).tofile(path(name, "taps"))
    np.asarray(ks.data(), dtype=np.int16).tofile(path(name, "state"))


eq_taps = {}
lms = digital.adaptive_algorithm_lms(qpsk, 0.01).base()
nlms = digital.adaptive_algorithm_nlms(qpsk, 0.05).base()
cma = digital.adaptive_algorithm_cma(qpsk, 0.001, 4).base()
training_list = training.tolist()
for aname, alg in (("lms", lms), ("nlms", nlms), ("cma", cma)):
    name = "le_" + aname
    eq_taps[name] = 8
    equalize(name, digital.linear_equalizer(8, sps, alg, True, training_list, "corr_est"))
eq_taps["le_lms_idle"] = 8
equalize("le_lms_idle", digital.linear_equalizer(8, sps, lms, False, training_list, "corr_est"))
eq_taps["le_lms_dd"] = 8
equalize("le_lms_dd", digital.linear_equalizer(8, sps, lms, True, [], ""), with_tag=False)
for aname, alg in (("lms", lms), ("cma", cma)):
    name = "dfe_" + aname
    eq_taps[name] = 7 + 3
    equalize(name, digital.decision_feedback_equalizer(7, 3, sps, alg, True, training_list,
                                                       "corr_est"))
training.tofile(path("training", "in"))

# --- corr_est ------------------------------------------------------------------
word = np.asarray([1, -1, 1, 1, -1, -1, 1, -1, 1, 1, 1, -1, -1, 1, -1, -1,
                   1, 1, -1, 1, -1, 1, 1, 1, -1, -1, -1, 1, 1, -1, 1, -1], dtype=np.complex64)
stream = []
for rep in range(12):
    stream += list(rng.choice([-1.0, 1.0], 150 + 17 * rep)) + list(word)
stream += list(rng.choice([-1.0, 1.0], 700))
stream = (np.asarray(stream, dtype=np.complex64) * np.exp(0.7j)).astype(np.complex64)


def corr_est(name, blk):
    tb = gr.top_block()
    src = blocks.vector_source_c(stream.tolist())
    k = blocks.vector_sink_c()
    kc = blocks.vector_sink_c()
    tb.connect(src, blk)
    tb.connect((blk, 0), k)
    tb.connect((blk, 1), kc)
    tb.run()
    stream.tofile(path(name, "in"))
    np.asarray(k.data(), dtype=np.complex64).tofile(path(name, "out"))
    np.asarray(kc.data(), dtype=np.complex64).tofile(path(name, "corr"))
    with open(path(name, "tags"), "w") as f:
        for t in k.tags():
            f.write("%d %s %.17g\n" % (t.offset, pmt.symbol_to_string(t.key),
                                      pmt.to_double(t.value)))


word.tofile(path("corr_word", "in"))
corr_est("corr_abs", digital.corr_est_cc(word.tolist(), 1, 3, 0.8, digital.THRESHOLD_ABSOLUTE))
corr_est("corr_dyn", digital.corr_est_cc(word.tolist(), 2, 40, 0.999, digital.THRESHOLD_DYNAMIC))

# --- modulate_vector -------------------------------------------------------------
data = [0xac, 0xdd, 0xa4, 0xe2, 0xf2, 0x8c, 0x20, 0xfc, 0x01, 0x7f]


def modvec(name, mod, taps):
    v = digital.modulate_vector_bc(mod.to_basic_block(), data, taps)
    np.asarray(v, dtype=np.complex64).tofile(path(name, "out"))


b = digital.constellation_calcdist([1, -1], [0, 1], 2, 1).base()
modvec("modvec_bpsk", digital.generic_mod(b, False, 4, True, 0.35, False, False), [1])
modvec("modvec_qpsk", digital.generic_mod(digital.constellation_qpsk().base(), False, 4, True,
                                          0.22, False, False), [1, 0.5, -0.25])
modvec("modvec_dqpsk", digital.generic_mod(digital.constellation_dqpsk().base(), True, 3, True,
                                           0.35, False, False), [1])
