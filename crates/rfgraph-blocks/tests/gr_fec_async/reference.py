#!/usr/bin/python3
"""GNU Radio 3.10's asynchronous FEC coders and its tagged encoder on the
configurations of its `fecapi_*` and `digital/packet/tx_stage2` examples:
writes each case's input and output as raw little-endian files into the
directory given as the only argument, with `cases.json` (per case the
rfgraph block and its parameters, from which this script builds GNU
Radio's coder objects). The Rust test `gr_fec_async.rs` runs the rfgraph
block of that name on the same input and compares.

Files per case: `<case>.in`, `<case>.out` (items) and `<case>.inlen`,
`<case>.outlen` (u64 packet or PDU lengths)."""

import os
import sys

import numpy as np
import pmt
from gnuradio import blocks, fec, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gr_common  # noqa: E402

OUT = gr_common.Output()
out_dir = OUT.dir
rng = np.random.default_rng(20261129)
cases = OUT.cases
MODES = {"streaming": fec.CC_STREAMING, "terminated": fec.CC_TERMINATED,
         "tailbiting": fec.CC_TAILBITING, "truncated": fec.CC_TRUNCATED}
POLYS = [109, 79]
# The examples' source: 15 bytes, repeated.
PATTERN = [0, 0, 1, 0, 3, 0, 7, 0, 15, 0, 31, 0, 63, 0, 127]


def encoder(p):
    if p["code"] == "cc":
        return fec.cc_encoder_make(p["frame_size"], 7, 2, POLYS, 0, MODES[p["mode"]], p.get("padding", False))
    if p["code"] == "ccsds":
        return fec.ccsds_encoder_make(p["frame_size"], 0, MODES[p["mode"]])
    if p["code"] == "repetition":
        return fec.repetition_encoder_make(p["frame_size"], p["rep"])
    return fec.dummy_encoder_make(p["frame_size"])


def decoder(p):
    if p["code"] == "cc":
        return fec.cc_decoder.make(p["frame_size"], 7, 2, POLYS, 0, -1, MODES[p["mode"]], p.get("padding", False))
    if p["code"] == "repetition":
        return fec.repetition_decoder.make(p["frame_size"], p["rep"], 0.5)
    return fec.dummy_decoder.make(p["frame_size"])


save = OUT.save


def rfparams(p):
    """The rfgraph parameters of case parameters `p`."""
    q = dict(p)
    if q["code"] == "cc":
        q["polys"] = POLYS
    return q


def pdu_case(name, block_name, p, gr_block, pdus, itype):
    got = gr_common.post_pdus(name, gr_block, pdus, itype,
                              lambda x: pmt.dict_add(pmt.make_dict(), pmt.intern("n"), pmt.from_long(len(x))))
    outs = [gr_common.pdu_bytes(m) for m in got]
    gr_common.save_pdus(OUT, name, pdus, outs, itype)
    cases.append(dict(name=name, kind="pdu", block=block_name, params=rfparams(p), input=itype))




def tagged_case(name, p, packets):
    key = p["lentagname"]
    data = np.concatenate(packets).astype(np.uint8)
    tb = gr.top_block()
    src = blocks.vector_source_b(list(int(v) for v in data), False, 1, gr_common.length_tags([len(x) for x in packets], key))
    enc = fec.extended_tagged_encoder(encoder(p), p.get("puncpat", "11"), key, p["mtu"])
    snk = blocks.vector_sink_b()
    tb.connect(src, enc, snk)
    tb.run()
    # A packet's own length tag sits on its first item; GNU Radio also
    # leaves, behind them, the length tags its packer moved (compared
    # apart: not these).
    starts, at = [], 0
    tags = sorted(((t.offset, pmt.to_long(t.value)) for t in snk.tags() if pmt.symbol_to_string(t.key) == key))
    out_lens = []
    for off, n in tags:
        if off == at:
            out_lens.append(n)
            at += n
    assert at == len(snk.data()), name
    save(name + ".in", data, np.uint8)
    save(name + ".inlen", [len(x) for x in packets], np.uint64)
    save(name + ".out", snk.data(), np.uint8)
    save(name + ".outlen", out_lens, np.uint64)
    cases.append(dict(name=name, kind="tagged", block="extended_tagged_encoder", params=rfparams(p)))


def example_bits(nbytes, packet_bytes):
    """The examples' bit stream: the pattern's bytes unpacked least
    significant bit first, in packets of `packet_bytes` bytes."""
    b = np.array((PATTERN * (nbytes // 15 + 1))[:nbytes], dtype=np.uint8)
    bits = np.unpackbits(b[:, None], axis=1, bitorder="little").reshape(-1)
    return [bits[i:i + 8 * packet_bytes] for i in range(0, len(bits), 8 * packet_bytes)]


def bits(n):
    return rng.integers(0, 2, n).astype(np.uint8)


# --- fecapi_tagged_encoders / fecapi_tagged_decoders: tagged encoders --------
# GNU Radio packs the bits in front of a `ccsds` encoder (pack_k_bits_bb(8))
# with no regard for packets: a packet of n bits becomes a packet of n
# bytes there, so one in eight packets is coded (frame_size = n bits).
for code in ["ccsds", "cc", "repetition", "dummy"]:
    for mode in (["terminated", "streaming", "truncated", "tailbiting"] if code in ("cc", "ccsds") else [""]):
        if code == "cc" and mode != "terminated":
            continue
        p = dict(code=code, frame_size=8000, mode=mode or "streaming", rep=3, lentagname="packet_len", mtu=1500)
        tagged_case("tagged_%s_%s" % (code, mode), p, example_bits(30 * 24, 30))
# Unequal packets whose starts stay on the packer's moved tags.
p = dict(code="ccsds", frame_size=8000, mode="terminated", lentagname="pkt", mtu=1500)
tagged_case("tagged_ccsds_mixed", p, [bits(n) for n in [64, 64, 64, 64, 64, 64, 64, 64, 16] + [16] * 15 + [8] * 7])
# A frame size cut to the code's.
p = dict(code="ccsds", frame_size=128, mode="terminated", lentagname="pkt", mtu=100)
tagged_case("tagged_ccsds_cut", p, [bits(200) for _ in range(16)])

# --- fecapi_async_encoders / _decoders / _packed_decoders / _to_stream --------
pdus = [np.array(PATTERN * 2, dtype=np.uint8) for _ in range(3)] + [rng.integers(0, 256, 30).astype(np.uint8)]
for code, mode, padding in [("cc", "streaming", False), ("cc", "terminated", True), ("cc", "terminated", False),
                            ("ccsds", "terminated", False), ("repetition", "", False), ("dummy", "", False)]:
    for packed, rev_unpack, rev_pack in [(True, True, True), (True, False, False), (False, True, True)]:
        p = dict(code=code, frame_size=8000, mode=mode or "streaming", padding=padding, rep=3,
                 packed=packed, rev_unpack=rev_unpack, rev_pack=rev_pack, mtu=1500)
        ins = pdus if packed else [np.unpackbits(x) for x in pdus]
        pdu_case("async_enc_%s_%s_%s_%s_%s" % (code, mode, padding, packed, rev_pack), "async_encoder", p,
                 fec.async_encoder(encoder(p), packed, rev_unpack, rev_pack, 1500), ins, "u8")
# fec_extended_async_encoder: the asynchronous encoder with its defaults.
p = dict(code="cc", frame_size=8000, mode="terminated")
pdu_case("extended_async_enc_cc", "async_encoder", p,
         fec.extended_async_encoder(encoder(p), "11").encoder, [np.unpackbits(x) for x in pdus], "u8")
# digital/packet/tx_stage2: a repetition code on packed, unreversed bytes.
p = dict(code="repetition", frame_size=8000, rep=3, mode="streaming", packed=True, rev_unpack=False,
         rev_pack=False, mtu=1500)
pdu_case("tx_stage2_rep", "async_encoder", p, fec.async_encoder(encoder(p), True, False, False, 1500),
         [rng.integers(0, 256, n).astype(np.uint8) for n in [19, 54, 27, 15]], "u8")
# fecapi_async_packed_decoders / fecapi_async_decoders: soft PDUs.
# (GNU Radio refuses a streaming cc decoder here: it reads ahead.)
for code, mode in [("cc", "terminated"), ("cc", "truncated"), ("repetition", ""), ("dummy", "")]:
    for packed, rev_pack in [(True, True), (False, True), (True, False)]:
        p = dict(code=code, frame_size=8000, mode=mode or "streaming", rep=3, packed=packed, rev_pack=rev_pack,
                 mtu=1500)
        rate = 2 if code == "cc" else (3 if code == "repetition" else 1)
        soft = []
        for x in pdus:
            b = np.unpackbits(x)
            if code == "cc":
                tb = gr.top_block()
                src = blocks.vector_source_b(list(int(v) for v in b), False)
                e = fec.extended_encoder(fec.cc_encoder_make(len(b), 7, 2, POLYS, 0, MODES[mode], False), None, "11")
                snk = blocks.vector_sink_b()
                tb.connect(src, e, snk)
                tb.run()
                coded = np.array(snk.data(), dtype=np.uint8)
            else:
                coded = np.repeat(b, rate)
            s = (coded.astype(np.float32) * 2 - 1) + rng.normal(0, 0.5, len(coded)).astype(np.float32)
            soft.append(s.astype(np.float32))
        pdu_case("async_dec_%s_%s_%s_%s" % (code, mode, packed, rev_pack), "async_decoder", p,
                 fec.async_decoder(decoder(p), packed, rev_pack, 1500), soft, "f32")

OUT.write_cases()
