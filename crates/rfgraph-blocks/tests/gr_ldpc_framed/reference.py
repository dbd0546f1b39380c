#!/usr/bin/python3
"""GNU Radio 3.10's LDPC coders in its framed FEC blocks, as the examples
fecapi_async_ldpc_encoders, fecapi_tagged_ldpc_encoders and
fecapi_tagged_ldpc_decoders use them: the asynchronous encoder (packed
and unpacked PDUs), the tagged encoder and decoder, and the asynchronous
decoder, with the three LDPC encoders (`ldpc_encoder_make`, the `cldpc`
code that keeps one codeword a frame; `ldpc_par_mtrx_encoder` of an
`ldpc_H_matrix`; `ldpc_gen_mtrx_encoder` of an `ldpc_G_matrix`) and
their decoders (belief propagation, bit flipping). Writes each case's
input and output as raw little-endian files into the directory given as
the only argument, with `cases.json` (per case the rfgraph block and its
parameters, the alist file an absolute path into the repository's
`testdata/ldpc`). The Rust test `gr_ldpc_framed.rs` runs the rfgraph
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
data_dir = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../../../testdata/ldpc"))
rng = np.random.default_rng(20261130)
cases = OUT.cases

# The codes, as rfgraph names them: (parameters, information bits k).
H42 = dict(code="ldpc_h", file="n_0100_k_0042_gap_02.alist", gap=2, max_iter=100)
G58 = dict(code="ldpc_g", file="n_0100_k_0058_gen_matrix.alist", max_iter=100)
BP42 = dict(code="ldpc", file="n_0100_k_0042_gap_02.alist", sigma=0.5, max_iter=50)
H152 = dict(code="ldpc_h", file="n_0300_k_0152_gap_03.alist", gap=3, max_iter=100)


def path(p):
    return os.path.join(data_dir, p["file"])


def matrix(p):
    if p["code"] == "ldpc_h":
        return fec.ldpc_H_matrix(path(p), p["gap"])
    return fec.ldpc_G_matrix(path(p))


def encoder(p):
    if p["code"] == "ldpc":
        return fec.ldpc_encoder_make(path(p))
    if p["code"] == "ldpc_h":
        return fec.ldpc_par_mtrx_encoder_make_H(matrix(p))
    return fec.ldpc_gen_mtrx_encoder_make(matrix(p))


def decoder(p):
    if p["code"] == "ldpc":
        return fec.ldpc_decoder.make(path(p), p["sigma"], p["max_iter"])
    return fec.ldpc_bit_flip_decoder.make(matrix(p).get_base_sptr(), p["max_iter"])


save = OUT.save


def rfparams(p, **more):
    q = dict(p)
    q["file"] = path(p)
    q.update(more)
    return q


def pdu_case(name, block_name, params, gr_block, pdus, itype):
    outs = [gr_common.pdu_bytes(m) for m in gr_common.post_pdus(name, gr_block, pdus, itype)]
    gr_common.save_pdus(OUT, name, pdus, outs, itype)
    cases.append(dict(name=name, kind="pdu", block=block_name, params=params, input=itype))




def tagged_run(block, packets, key, itype):
    data = np.concatenate(packets)
    tb = gr.top_block()
    make = blocks.vector_source_b if itype == "u8" else blocks.vector_source_f
    src = make([int(v) if itype == "u8" else float(v) for v in data], False, 1,
               gr_common.length_tags([len(x) for x in packets], key))
    snk = blocks.vector_sink_b()
    tb.connect(src, block, snk)
    tb.run()
    out = np.array(snk.data(), dtype=np.uint8)
    lens, at = [], 0
    for off, n in sorted((t.offset, pmt.to_long(t.value)) for t in snk.tags()
                         if pmt.symbol_to_string(t.key) == key):
        if off == at:
            lens.append(n)
            at += n
    assert at == len(out)
    return out, lens


def tagged_case(name, block_name, params, block, packets, itype):
    out, lens = tagged_run(block, packets, params["lentagname"], itype)
    save(name + ".in", np.concatenate(packets), np.uint8 if itype == "u8" else np.float32)
    save(name + ".inlen", [len(x) for x in packets], np.uint64)
    save(name + ".out", out, np.uint8)
    save(name + ".outlen", lens, np.uint64)
    cases.append(dict(name=name, kind="tagged", block=block_name, params=params, input=itype))


def bits(n):
    return rng.integers(0, 2, n).astype(np.uint8)


def soft(coded, noise):
    s = 2.0 * np.asarray(coded, dtype=np.float32) - 1.0
    return (s + noise * rng.standard_normal(len(s))).astype(np.float32)


# --- async_encoder: packed PDUs (fecapi_async_ldpc_encoders) and bits -------
# Packed: `ldpc` codes the first k bits of any PDU into n = 100 bits, 12
# whole bytes; a PDU shorter than k bits reads on into what the previous
# one left in GNU Radio's buffer (so the longest PDU comes first).
for p, sizes in [(BP42, [42, 2, 42, 21, 5, 100]), (H42, [42, 21, 63, 42]), (G58, [58, 29, 87])]:
    for rev_unpack, rev_pack in [(True, True), (False, False), (True, False)]:
        name = "async_enc_packed_%s_%d%d" % (p["code"], rev_unpack, rev_pack)
        pdus = [rng.integers(0, 256, n).astype(np.uint8) for n in sizes]
        params = rfparams(p, packed=True, rev_unpack=rev_unpack, rev_pack=rev_pack, mtu=1512)
        pdu_case(name, "async_encoder", params,
                 fec.async_encoder(encoder(p), True, rev_unpack, rev_pack, 1512), pdus, "u8")
# The example itself: 42-byte PDUs of its 15-byte pattern.
PATTERN = [0, 0, 1, 0, 3, 0, 7, 0, 15, 0, 31, 0, 63, 0, 127]
example = [np.array((PATTERN * 3)[:42][i % 2:] + (PATTERN * 3)[:i % 2], dtype=np.uint8) for i in range(4)]
for p in (BP42, H42):
    params = rfparams(p, packed=True, rev_unpack=True, rev_pack=True, mtu=1512)
    pdu_case("async_enc_example_%s" % p["code"], "async_encoder", params,
             fec.async_encoder(encoder(p), True, True, True, 1512), example, "u8")
# Unpacked: whole words, one or several.
for p, k in [(BP42, 42), (H42, 42), (G58, 58), (H152, 152)]:
    name = "async_enc_bits_%s_%d" % (p["code"], k)
    pdus = [bits(k * w) for w in (1, 8, 3, 0, 2)]
    params = rfparams(p, packed=False, mtu=1512)
    pdu_case(name, "async_encoder", params,
             fec.async_encoder(encoder(p), False, True, True, 1512), pdus, "u8")

# --- extended_tagged_encoder (fecapi_tagged_ldpc_encoders) -----------------
# `ldpc` codes the first k bits of any packet; the matrix encoders whole
# words. The MTU makes 8 * mtu bits whole words, as the example's do.
for p, k, mtu, lens in [(BP42, 42, 1512, [336, 42, 100, 336, 50]), (H42, 42, 1512, [336, 42, 84, 336]),
                        (G58, 58, 1508, [464, 58, 116, 464]), (H152, 152, 1520, [152, 456])]:
    params = rfparams(p, lentagname="packet_len", mtu=mtu, puncpat="11")
    tagged_case("tagged_enc_%s_%d" % (p["code"], k), "extended_tagged_encoder", params,
                fec.extended_tagged_encoder(encoder(p), "11", "packet_len", mtu),
                [bits(n) for n in lens], "u8")

# --- extended_tagged_decoder (fecapi_tagged_ldpc_decoders) -----------------
# Codewords of the matrix encoder of the same file (GNU Radio's own), +-1
# with noise: a packet of m values decodes into round(m * k / n) bits,
# whole words.
def codewords(p, b, mtu):
    enc = encoder(dict(p, code="ldpc_h", gap=2) if p["code"] == "ldpc" else p)
    return tagged_run(fec.extended_tagged_encoder(enc, "11", "l", mtu), [b], "l", "u8")[0]


for p, k, mtu, lens in [(BP42, 42, 1512, [336, 42, 84]), (H42, 42, 1512, [336, 42, 84]),
                        (G58, 58, 1508, [464, 58, 116])]:
    for noise in (0.0, 0.6):
        packets = [soft(codewords(p, bits(n), mtu), noise) for n in lens]
        params = rfparams(p, lentagname="packet_len", mtu=mtu, puncpat="11")
        tagged_case("tagged_dec_%s_%d_%d" % (p["code"], k, int(noise * 10)), "extended_tagged_decoder", params,
                    fec.extended_tagged_decoder(decoder(p), None, "11", lentagname="packet_len", mtu=mtu),
                    packets, "f32")

# --- async_decoder: PDUs of one and of several codewords --------------------
# (Not the G matrix's: GNU Radio sizes the frame as trunc(100 * 0.58) = 57
# bits and its decoder throws.)
for p, k, mtu in [(BP42, 42, 1512), (H42, 42, 1512)]:
    for packed in (False, True):
        pdus = [soft(codewords(p, bits(k * w), mtu), 0.6) for w in (1, 8, 2)]
        params = rfparams(p, packed=packed, rev_pack=True, mtu=mtu)
        pdu_case("async_dec_%s_%d_%s" % (p["code"], k, packed), "async_decoder", params,
                 fec.async_decoder(decoder(p), packed, True, mtu), pdus, "f32")

OUT.write_cases()
