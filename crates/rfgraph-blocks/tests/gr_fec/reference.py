#!/usr/bin/python3
"""Runs GNU Radio 3.10's FEC blocks on random bits and soft values and
writes each case's input and output as raw little-endian files into the
directory given as the only argument, with `cases.json`: per case the
rfgraph block, its parameters (from which this script builds GNU Radio's
coder objects), and how to compare. The Rust test `gr_fec.rs` runs the
rfgraph block of that name on the same input and compares.

Files per case: `<case>.in`, `<case>.out` (items); tagged cases also
`<case>.inlen`, `<case>.outlen` (u64 packet lengths); PDU cases
`<case>.inlen`, `<case>.outlen` (u64 PDU lengths)."""

import os
import sys

import numpy as np
import pmt
from gnuradio import blocks, fec, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gr_common  # noqa: E402

OUT = gr_common.Output()
out_dir = OUT.dir
rng = np.random.default_rng(20240611)
cases = OUT.cases

MODES = {
    "streaming": fec.CC_STREAMING,
    "terminated": fec.CC_TERMINATED,
    "tailbiting": fec.CC_TAILBITING,
    "truncated": fec.CC_TRUNCATED,
}
DEFAULTS = dict(code="dummy", frame_size=2048, rep=3, prob=0.5, k=7, rate=2,
                polys=[79, 109], state_start=0, state_end=-1, mode="streaming",
                padding=False)


def code(p):
    c = dict(DEFAULTS)
    c.update({k: v for k, v in p.items() if k in DEFAULTS})
    return c


def encoder(p):
    c = code(p)
    if c["code"] == "dummy":
        return fec.dummy_encoder_make(c["frame_size"])
    if c["code"] == "repetition":
        return fec.repetition_encoder_make(c["frame_size"], c["rep"])
    if c["code"] == "cc":
        return fec.cc_encoder_make(c["frame_size"], c["k"], c["rate"], c["polys"],
                                   c["state_start"], MODES[c["mode"]], c["padding"])
    if c["code"] == "ccsds":
        return fec.ccsds_encoder_make(c["frame_size"], c["state_start"], MODES[c["mode"]])
    raise ValueError(c["code"])


def decoder(p):
    c = code(p)
    if c["code"] == "dummy":
        return fec.dummy_decoder.make(c["frame_size"])
    if c["code"] == "repetition":
        return fec.repetition_decoder.make(c["frame_size"], c["rep"], c["prob"])
    if c["code"] == "cc":
        return fec.cc_decoder.make(c["frame_size"], c["k"], c["rate"], c["polys"],
                                   c["state_start"], c["state_end"], MODES[c["mode"]], c["padding"])
    raise ValueError(c["code"])


save = OUT.save


def stream(block, data, itype, otype, tags=()):
    src = {"u8": blocks.vector_source_b, "f32": blocks.vector_source_f}[itype](list(data), False, 1, list(tags))
    snk = {"u8": blocks.vector_sink_b, "f32": blocks.vector_sink_f}[otype]()
    tb = gr.top_block()
    tb.connect(src, block, snk)
    tb.run()
    return snk


DT = {"u8": np.uint8, "f32": np.float32}


def stream_case(name, block_name, params, gr_block, data, itype, otype, **compare):
    snk = stream(gr_block, data, itype, otype)
    save(name + ".in", data, DT[itype])
    save(name + ".out", snk.data(), DT[otype])
    cases.append(dict(name=name, kind="stream", block=block_name, params=params,
                      input=itype, output=otype, **compare))




def tagged_case(name, block_name, params, gr_block, packets, itype):
    key = params["lentagname"]
    data = np.concatenate(packets)
    snk = stream(gr_block, data, itype, "u8", gr_common.length_tags([len(p) for p in packets], key))
    out_lens = [pmt.to_long(t.value) for t in snk.tags() if pmt.symbol_to_string(t.key) == key]
    save(name + ".in", data, DT[itype])
    save(name + ".inlen", [len(p) for p in packets], np.uint64)
    save(name + ".out", snk.data(), np.uint8)
    save(name + ".outlen", out_lens, np.uint64)
    cases.append(dict(name=name, kind="tagged", block=block_name, params=params, input=itype, output="u8"))


def pdu_case(name, block_name, params, gr_block, pdus, itype):
    got = gr_common.post_pdus(name, gr_block, pdus, itype,
                              lambda p: pmt.dict_add(pmt.make_dict(), pmt.intern("n"), pmt.from_long(len(p))))
    outs, iterations = [], []
    for m in got:
        outs.append(gr_common.pdu_bytes(m))
        it = pmt.dict_ref(pmt.car(m), pmt.intern("iterations"), pmt.PMT_NIL)
        iterations.append(None if pmt.is_null(it) else pmt.to_double(it))
    gr_common.save_pdus(OUT, name, pdus, outs, itype)
    cases.append(dict(name=name, kind="pdu", block=block_name, params=params, input=itype,
                      output="u8", iterations=iterations[0]))


def bits(n):
    return rng.integers(0, 2, n).astype(np.uint8)


def encode(p, data):
    """GNU Radio's own encoding of `data` (for decoder inputs)."""
    return np.array(stream(fec.extended_encoder(encoder(p), None, "11"), data, "u8", "u8").data(), dtype=np.uint8)


def soft(coded, ebn0_db=None, rate=0.5, amplitude=1.0):
    s = (coded.astype(np.float32) * 2 - 1) * amplitude
    if ebn0_db is not None:
        esn0 = 10 ** (ebn0_db / 10) * rate
        s = s + rng.normal(0, np.sqrt(1 / (2 * esn0)), len(s)) * amplitude
    return s.astype(np.float32)


# --- extended_encoder: every code, every mode, puncturing --------------------

data = bits(2000)
stream_case("enc_dummy", "extended_encoder", dict(code="dummy", frame_size=100),
            fec.extended_encoder(encoder(dict(code="dummy", frame_size=100)), None, "11"), data, "u8", "u8")
p = dict(code="repetition", frame_size=100, rep=3)
stream_case("enc_rep", "extended_encoder", p, fec.extended_encoder(encoder(p), None, "11"), data, "u8", "u8")
for mode in MODES:
    p = dict(code="cc", frame_size=200, polys=[109, 79], mode=mode)
    stream_case("enc_cc_" + mode, "extended_encoder", p,
                fec.extended_encoder(encoder(p), None, "11"), data, "u8", "u8")
    p = dict(code="cc", frame_size=120, polys=[-109, 79], state_start=45, mode=mode)
    stream_case("enc_cc_start_" + mode, "extended_encoder", p,
                fec.extended_encoder(encoder(p), None, "11"), data, "u8", "u8")
    p = dict(code="ccsds", frame_size=160, state_start=3, mode=mode)
    stream_case("enc_ccsds_" + mode, "extended_encoder", p,
                fec.extended_encoder(encoder(p), None, "11"), data, "u8", "u8")
    p = dict(code="cc", frame_size=96, k=5, rate=3, polys=[19, 27, -29], mode=mode)
    stream_case("enc_cc_k5r3_" + mode, "extended_encoder", p,
                fec.extended_encoder(encoder(p), None, "11"), data, "u8", "u8")
# Padding bits are whatever GNU Radio's buffer held: not compared.
p = dict(code="cc", frame_size=100, polys=[109, 79], mode="terminated", padding=True)
stream_case("enc_cc_padded", "extended_encoder", p, fec.extended_encoder(encoder(p), None, "11"),
            data, "u8", "u8", ignore=dict(period=2 * 106 + 4, start=2 * 106))
for pat in ["110", "1101", "1111"]:
    p = dict(code="cc", frame_size=200, polys=[109, 79], mode="streaming", puncpat=pat)
    stream_case("enc_cc_punc_" + pat, "extended_encoder", p,
                fec.extended_encoder(encoder(p), None, pat), data, "u8", "u8")
p = dict(code="ccsds", frame_size=160, mode="terminated")
coded_bytes = np.packbits(data[:1600])
stream_case("generic_enc_ccsds", "generic_encoder", p, fec.encoder(encoder(p), 1, 1),
            coded_bytes, "u8", "u8")

# --- extended_decoder: noiseless and noisy soft input ------------------------

fs = 200
for mode in MODES:
    p = dict(code="cc", frame_size=fs, polys=[109, 79], mode=mode)
    sent = bits(fs * 40)
    coded = encode(p, sent)
    save("dec_cc_%s.bits" % mode, sent, np.uint8)
    slack = fs if mode == "streaming" else 0
    for label, snr in [("clean", None), ("4db", 4.0), ("2db", 2.0), ("0db", 0.0)]:
        s = soft(coded, snr)
        stream_case("dec_cc_%s_%s" % (mode, label), "extended_decoder", p,
                    fec.extended_decoder(decoder(p), None, None, "11"), s, "f32", "u8",
                    slack=slack, sent="dec_cc_%s.bits" % mode)
# Strong and saturating soft values, start states, fixed end state.
p = dict(code="cc", frame_size=fs, polys=[79, 109], mode="terminated", state_start=9, state_end=9)
s = soft(encode(p, bits(fs * 20)), 3.0, amplitude=2.5)
stream_case("dec_cc_loud", "extended_decoder", p, fec.extended_decoder(decoder(p), None, None, "11"),
            s, "f32", "u8")
p = dict(code="cc", frame_size=101, polys=[109, -79], mode="terminated", padding=True)
s = soft(encode(p, bits(101 * 20)), 3.0)
stream_case("dec_cc_padded", "extended_decoder", p, fec.extended_decoder(decoder(p), None, None, "11"),
            s, "f32", "u8")
p = dict(code="cc", frame_size=199, polys=[109, 79], mode="streaming")
s = soft(encode(p, bits(199 * 30)), 2.5)
stream_case("dec_cc_odd_streaming", "extended_decoder", p,
            fec.extended_decoder(decoder(p), None, None, "11"), s, "f32", "u8", slack=199)
for pat in ["1101", "110"]:
    for mode in ["streaming", "terminated"]:
        p = dict(code="cc", frame_size=fs, polys=[109, 79], mode=mode, puncpat=pat)
        punctured = np.array(stream(fec.extended_encoder(encoder(p), None, pat), bits(fs * 30), "u8", "u8").data(),
                             dtype=np.uint8)
        s = soft(punctured, 5.0)
        stream_case("dec_cc_punc_%s_%s" % (pat, mode), "extended_decoder", p,
                    fec.extended_decoder(decoder(p), None, None, pat), s, "f32", "u8",
                    slack=fs if mode == "streaming" else 0)
p = dict(code="dummy", frame_size=100)
stream_case("dec_dummy", "extended_decoder", p, fec.extended_decoder(decoder(p), None, None, "11"),
            soft(bits(1000), 2.0), "f32", "u8")
for prob in [0.5, 0.3, 0.7]:
    p = dict(code="repetition", frame_size=100, rep=3, prob=prob)
    stream_case("dec_rep_%s" % prob, "extended_decoder", p,
                fec.extended_decoder(decoder(p), None, None, "11"),
                soft(np.repeat(bits(1000), 3), 0.0, rate=1 / 3), "f32", "u8")
# The Viterbi decoder on raw soft bytes, pure noise: every tie and
# renormalisation of the kernel.
for mode in MODES:
    p = dict(code="cc", frame_size=150, polys=[109, 79], mode=mode, itype="u8")
    noise = rng.integers(0, 256, 300 * 25).astype(np.uint8)
    stream_case("generic_dec_noise_" + mode, "generic_decoder", p, fec.decoder(decoder(p), 1, 1),
                noise, "u8", "u8", slack=150 if mode == "streaming" else 0)

# --- tagged streams ----------------------------------------------------------

lengths = [100, 37, 256, 200, 1, 300, 64]
for mode in MODES:
    p = dict(code="cc", frame_size=256, polys=[109, 79], mode=mode, lentagname="pkt", mtu=40)
    # A tail-biting frame shorter than k - 1 bits crashes GNU Radio.
    pkts = [bits(n) for n in lengths if mode != "tailbiting" or n >= 6]
    tagged_case("tagged_enc_cc_" + mode, "extended_tagged_encoder", p,
                fec.extended_tagged_encoder(encoder(p), "11", "pkt", 40), pkts, "u8")
p = dict(code="repetition", frame_size=256, rep=3, lentagname="pkt", mtu=40)
tagged_case("tagged_enc_rep", "extended_tagged_encoder", p,
            fec.extended_tagged_encoder(encoder(p), "11", "pkt", 40), [bits(n) for n in lengths], "u8")
# Packets whose coded length is whole puncturing groups.
p = dict(code="cc", frame_size=256, polys=[109, 79], mode="terminated", lentagname="pkt", mtu=40,
         puncpat="1101")
tagged_case("tagged_enc_cc_punc", "extended_tagged_encoder", p,
            fec.extended_tagged_encoder(encoder(p), "1101", "pkt", 40), [bits(n) for n in [98, 100, 200]], "u8")
for mode in ["terminated", "truncated", "tailbiting"]:
    p = dict(code="cc", frame_size=256, polys=[109, 79], mode=mode)
    pkts = [soft(encode(p | dict(frame_size=n), bits(n)), 3.0) for n in [100, 200, 64, 256]]
    p = p | dict(lentagname="pkt", mtu=40)
    tagged_case("tagged_dec_cc_" + mode, "extended_tagged_decoder", p,
                fec.extended_tagged_decoder(decoder(p), None, "11", 10000, None, None, "pkt", 40), pkts, "f32")
p = dict(code="cc", frame_size=256, polys=[109, 79], mode="terminated", padding=True, lentagname="pkt", mtu=40)
pkts = [soft(encode(p | dict(frame_size=n), bits(n)), 3.0) for n in [100, 200]]
tagged_case("tagged_dec_cc_padded", "extended_tagged_decoder", p,
            fec.extended_tagged_decoder(decoder(p), None, "11", 10000, None, None, "pkt", 40), pkts, "f32")
p = dict(code="repetition", frame_size=256, rep=3, lentagname="pkt", mtu=40)
pkts = [soft(np.repeat(bits(n), 3), 1.0, rate=1 / 3) for n in [100, 37, 256]]
tagged_case("tagged_dec_rep", "extended_tagged_decoder", p,
            fec.extended_tagged_decoder(decoder(p), None, "11", 10000, None, None, "pkt", 40), pkts, "f32")

# --- PDUs --------------------------------------------------------------------

for mode in ["terminated", "truncated", "tailbiting", "streaming"]:
    p = dict(code="cc", frame_size=1024, polys=[109, 79], mode=mode)
    for packed, rev in [(False, True), (True, True), (True, False)]:
        q = p | dict(packed=packed, rev_unpack=rev, rev_pack=rev, mtu=200)
        pdus = [rng.integers(0, 256, n).astype(np.uint8) for n in [10, 64, 3]] if packed else \
            [bits(n) for n in [80, 512, 24, 1024]]
        pdu_case("async_enc_cc_%s_%s_%s" % (mode, packed, rev), "async_encoder", q,
                 fec.async_encoder(encoder(p), packed, rev, rev, 200), pdus, "u8")
for p in [dict(code="ccsds", frame_size=1024, mode="terminated"), dict(code="repetition", frame_size=64, rep=3),
          dict(code="dummy", frame_size=64)]:
    for packed in [False, True]:
        q = p | dict(packed=packed, rev_unpack=False, rev_pack=True, mtu=100)
        pdus = [rng.integers(0, 256, n).astype(np.uint8) for n in [8, 4]] if packed else \
            [bits(n) for n in [64, 16, 192]]
        pdu_case("async_enc_%s_%s" % (p["code"], packed), "async_encoder", q,
                 fec.async_encoder(encoder(p), packed, False, True, 100), pdus, "u8")
for mode in ["terminated", "truncated", "tailbiting"]:
    p = dict(code="cc", frame_size=1024, polys=[109, 79], mode=mode)
    for packed in [False, True]:
        q = p | dict(packed=packed, rev_pack=False, mtu=200)
        pdus = []
        for n in [80, 512, 24, 1024]:
            pdus.append(soft(encode(p | dict(frame_size=n), bits(n)), 2.0))
        pdus.append(soft(bits(100), None, amplitude=3.2))
        pdu_case("async_dec_cc_%s_%s" % (mode, packed), "async_decoder", q,
                 fec.async_decoder(decoder(p), packed, False, 200), pdus, "f32")
for p in [dict(code="repetition", frame_size=64, rep=3), dict(code="dummy", frame_size=64)]:
    for packed in [False, True]:
        q = p | dict(packed=packed, rev_pack=True, mtu=100)
        r = p.get("rep", 1)
        pdus = [soft(bits(n), 1.0) for n in [64 * r, 24 * r, 192 * r]]
        pdu_case("async_dec_%s_%s" % (p["code"], packed), "async_decoder", q,
                 fec.async_decoder(decoder(p), packed, True, 100), pdus, "f32")

# --- BER ---------------------------------------------------------------------

a = rng.integers(0, 256, 5000).astype(np.uint8)
b = a ^ (rng.random(5000) < 0.01).astype(np.uint8) * rng.integers(1, 256, 5000).astype(np.uint8)
for name, x, y, test_mode, minerr, limit in [
    ("ber_stream", a, b, False, 100, -7.0),
    ("ber_test_min", a, a ^ 0xFF, True, 100, -7.0),
    ("ber_test_limit", a, a ^ (np.arange(5000) % 2 == 0).astype(np.uint8), True, 100000, -1.0),
]:
    tb = gr.top_block()
    s0, s1 = blocks.vector_source_b(list(x)), blocks.vector_source_b(list(y))
    ber = fec.ber_bf(test_mode, minerr, limit)
    snk = blocks.vector_sink_f()
    tb.connect(s0, (ber, 0))
    tb.connect(s1, (ber, 1))
    tb.connect(ber, snk)
    tb.run()
    save(name + ".in0", x, np.uint8)
    save(name + ".in1", y, np.uint8)
    save(name + ".out", snk.data(), np.float32)
    cases.append(dict(name=name, kind="ber", block="ber",
                      params=dict(test_mode=test_mode, berminerrors=minerr, ber_limit=limit)))

OUT.write_cases()
