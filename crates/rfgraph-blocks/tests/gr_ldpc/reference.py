#!/usr/bin/python3
"""Runs GNU Radio 3.10's LDPC coders on random bits and noisy soft values
and writes each case's input and output as raw little-endian files into
the directory given as the first argument, with `cases.json`: per case the
rfgraph block, its parameters (the alist file relative to the testdata
directory given as the second argument) and how to compare. The Rust test
`gr_ldpc.rs` runs the rfgraph block on the same input and compares bit for
bit.

Codes: `ldpc` (fec.ldpc_encoder_make / fec.ldpc_decoder.make), `ldpc_h`
(fec.ldpc_H_matrix + fec.ldpc_par_mtrx_encoder_make_H /
fec.ldpc_bit_flip_decoder), `ldpc_g` (fec.ldpc_G_matrix +
fec.ldpc_gen_mtrx_encoder_make / fec.ldpc_bit_flip_decoder)."""

import os
import sys

import numpy as np
from gnuradio import blocks, fec, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gr_common  # noqa: E402

OUT = gr_common.Output()
out_dir = OUT.dir
data_dir = sys.argv[2]
rng = np.random.default_rng(20261129)
cases = OUT.cases


def path(f):
    return os.path.join(data_dir, f)


def matrix(p):
    if p["code"] == "ldpc_h":
        return fec.ldpc_H_matrix(path(p["file"]), p["gap"])
    return fec.ldpc_G_matrix(path(p["file"]))


def encoder(p):
    if p["code"] == "ldpc":
        return fec.ldpc_encoder_make(path(p["file"]))
    if p["code"] == "ldpc_h":
        return fec.ldpc_par_mtrx_encoder_make_H(matrix(p))
    return fec.ldpc_gen_mtrx_encoder_make(matrix(p))


def decoder(p):
    if p["code"] == "ldpc":
        return fec.ldpc_decoder.make(path(p["file"]), p["sigma"], p["max_iter"])
    return fec.ldpc_bit_flip_decoder.make(matrix(p).get_base_sptr(), p["max_iter"])


save = OUT.save


def stream(block, data, itype):
    src = {"u8": blocks.vector_source_b, "f32": blocks.vector_source_f}[itype](list(data), False)
    snk = blocks.vector_sink_b()
    tb = gr.top_block()
    tb.connect(src, block, snk)
    tb.run()
    return np.asarray(snk.data(), dtype=np.uint8)


def encode(p, bits):
    enc = encoder(p)
    return stream(fec.extended_encoder(enc, threading=None, puncpat="11"), bits, "u8"), enc


ENCODERS = [
    ("ldpc_100_42", dict(code="ldpc", file="n_0100_k_0042_gap_02.alist")),
    ("ldpc_300_152", dict(code="ldpc", file="n_0300_k_0152_gap_03.alist")),
    ("ldpc_100_27", dict(code="ldpc", file="n_0100_k_0027_gap_04.alist")),
    ("ldpc_h_100_42", dict(code="ldpc_h", file="n_0100_k_0042_gap_02.alist", gap=2)),
    ("ldpc_h_100_27", dict(code="ldpc_h", file="n_0100_k_0027_gap_04.alist", gap=4)),
    ("ldpc_h_300_152", dict(code="ldpc_h", file="n_0300_k_0152_gap_03.alist", gap=3)),
    ("ldpc_g_100_58", dict(code="ldpc_g", file="n_0100_k_0058_gen_matrix.alist")),
    ("ldpc_g_simple", dict(code="ldpc_g", file="simple_g_matrix.alist")),
]

for name, p in ENCODERS:
    enc = encoder(p)
    k = enc.get_input_size()
    bits = rng.integers(0, 2, 20 * k).astype(np.uint8)
    coded, _ = encode(p, bits)
    save(name + ".enc.in", bits, np.uint8)
    save(name + ".enc.out", coded, np.uint8)
    cases.append(dict(kind="encoder", name=name + ".enc", block="extended_encoder",
                      params=p, input="u8"))

# Decoders: GNU Radio's own codewords, +-1 with Gaussian noise, through
# GNU Radio's extended decoder. The bits sent are kept for the BER.
DECODERS = [
    ("ldpc_100_42", dict(code="ldpc", file="n_0100_k_0042_gap_02.alist", sigma=0.5, max_iter=50)),
    ("ldpc_300_152", dict(code="ldpc", file="n_0300_k_0152_gap_03.alist", sigma=0.7, max_iter=30)),
    ("ldpc_h_100_42", dict(code="ldpc_h", file="n_0100_k_0042_gap_02.alist", gap=2, max_iter=100)),
    ("ldpc_h_300_152", dict(code="ldpc_h", file="n_0300_k_0152_gap_03.alist", gap=3, max_iter=100)),
    ("ldpc_g_100_58", dict(code="ldpc_g", file="n_0100_k_0058_gen_matrix.alist", max_iter=100)),
]

for name, p in DECODERS:
    for noise in (0.0, 0.5, 0.8):
        enc = encoder(p)
        k = enc.get_input_size()
        bits = rng.integers(0, 2, 30 * k).astype(np.uint8)
        coded, _ = encode(p, bits)
        soft = (2.0 * coded.astype(np.float32) - 1.0)
        soft += noise * rng.standard_normal(len(soft)).astype(np.float32)
        soft = soft.astype(np.float32)
        dec = decoder(p)
        out = stream(fec.extended_decoder(dec, threading=None, ann=None, puncpat="11"),
                     soft, "f32")
        case = f"{name}.dec{int(noise * 10)}"
        save(case + ".in", soft, np.float32)
        save(case + ".out", out, np.uint8)
        save(case + ".sent", bits, np.uint8)
        cases.append(dict(kind="decoder", name=case, block="extended_decoder",
                          params=p, input="f32", sent=case + ".sent"))

OUT.write_cases()
