#!/usr/bin/python3
"""Runs GNU Radio 3.10's polar code helpers and coders and writes what
they give into the directory given as the only argument: `cases.json`
lists the cases (the configurator's frozen bit positions inline; for
coder cases the rfgraph block and parameters, from which this script
also builds GNU Radio's coder objects), `<case>.in` / `<case>.out` the
raw little-endian items of each coder case. The Rust test `gr_polar.rs`
runs the same through the registry and compares bit for bit."""

import contextlib
import io
import os
import sys

import numpy as np
from gnuradio import blocks, fec, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gr_common  # noqa: E402
from gnuradio.fec import polar

OUT = gr_common.Output()
out_dir = OUT.dir
rng = np.random.default_rng(20261129)
cases = OUT.cases


def frozen(n, k, snr=0.0):
    # The configurator prints a line; keep stdout quiet.
    with contextlib.redirect_stdout(io.StringIO()):
        info = polar.load_frozen_bits_info(False, polar.CHANNEL_TYPE_BEC, n, k, snr, 32)
    return [int(p) for p in info["positions"]], [int(v) for v in info["values"]]


# The configurator, several sizes and design SNRs.
for n, k, snr in [(8, 4, 0.0), (16, 8, 1.0), (32, 16, 0.0), (64, 20, -1.0),
                  (128, 64, 2.5), (256, 128, 0.0), (1024, 512, 0.0),
                  (2048, 1024, 0.0), (2048, 700, 3.0), (4096, 3000, -1.5),
                  (512, 1, 0.0), (64, 63, 0.0), (1024, 400, 6.0), (256, 200, -1.59)]:
    pos, _ = frozen(n, k, snr)
    cases.append(dict(kind="configurator", name=f"conf_{n}_{k}_{snr}", block_size=n,
                      num_info_bits=k, design_snr=snr, positions=pos))


def run(block, data, in_dtype, out_dtype):
    tb = gr.top_block()
    if in_dtype == np.float32:
        src = blocks.vector_source_f(data.tolist())
    else:
        src = blocks.vector_source_b(data.tolist())
    snk = blocks.vector_sink_b()
    tb.connect(src, block, snk)
    tb.run()
    return np.array(snk.data(), dtype=out_dtype)


def save(name, data_in, data_out):
    data_in.tofile(os.path.join(out_dir, name + ".in"))
    data_out.tofile(os.path.join(out_dir, name + ".out"))


def params(code, n, k, pos, vals, **extra):
    p = dict(code=code, block_size=n, num_info_bits=k, frozen_bit_positions=pos,
             frozen_bit_values=vals)
    p.update(extra)
    return p


def encoder(p):
    if p["code"] == "polar_systematic":
        return fec.polar_encoder_systematic.make(p["block_size"], p["num_info_bits"],
                                                 p["frozen_bit_positions"])
    return fec.polar_encoder.make(p["block_size"], p["num_info_bits"],
                                  p["frozen_bit_positions"], p["frozen_bit_values"],
                                  p.get("is_packed", False))


def decoder(p):
    n, k, pos = p["block_size"], p["num_info_bits"], p["frozen_bit_positions"]
    if p["code"] == "polar_systematic":
        return fec.polar_decoder_sc_systematic.make(n, k, pos)
    if p["code"] == "polar_list":
        return fec.polar_decoder_sc_list.make(p["max_list_size"], n, k, pos,
                                             p["frozen_bit_values"])
    return fec.polar_decoder_sc.make(n, k, pos, p["frozen_bit_values"])


def encode_case(name, p, frames):
    k = p["num_info_bits"]
    bits = rng.integers(0, 2, k * frames).astype(np.uint8)
    out = run(fec.extended_encoder(encoder(p), threading=None, puncpat="11"), bits,
              np.uint8, np.uint8)
    save(name, bits, out)
    cases.append(dict(kind="encode", name=name, block="extended_encoder", params=p))
    return bits, out


def decode_case(name, p, frames, sigma):
    n, k = p["block_size"], p["num_info_bits"]
    enc = dict(p)
    enc["code"] = "polar_systematic" if p["code"] == "polar_systematic" else "polar"
    bits = rng.integers(0, 2, k * frames).astype(np.uint8)
    coded = run(fec.extended_encoder(encoder(enc), threading=None, puncpat="11"), bits,
                np.uint8, np.uint8)
    soft = (2.0 * coded.astype(np.float32) - 1.0
            + sigma * rng.standard_normal(coded.size)).astype(np.float32)
    if sigma == 0.0:
        # Exact zeros and ties too.
        soft[::7] = 0.0
    out = run(fec.extended_decoder(decoder(p), threading=None, ann=None, puncpat="11"),
              soft, np.float32, np.uint8)
    save(name, soft, out)
    cases.append(dict(kind="decode", name=name, block="extended_decoder", params=p,
                      errors=int(np.sum(out != bits[:out.size]))))


# Block sizes from 32 on: below that, the VOLK kernels GNU Radio encodes
# with on an AVX2 machine (`volk_8u_x3_encodepolar_8u_x2`,
# `volk_8u_x2_encodeframepolar_8u`) leave the block unencoded (the
# output buffer's old bytes); rfgraph encodes those as the generic kernel.
codes = {}
for n, k, snr in [(32, 16, 0.0), (64, 32, 0.0), (256, 128, 1.0), (1024, 512, 0.0),
                  (2048, 1000, 2.0)]:
    codes[(n, k)] = frozen(n, k, snr)

# Encoders: plain, with odd frozen values, packed, systematic.
for (n, k), (pos, vals) in codes.items():
    encode_case(f"enc_{n}_{k}", params("polar", n, k, pos, vals), 5)
    encode_case(f"encsys_{n}_{k}", params("polar_systematic", n, k, pos, []), 5)
    ones = [int(b) for b in rng.integers(0, 2, len(pos))]
    encode_case(f"encfv_{n}_{k}", params("polar", n, k, pos, ones), 3)
    if k % 8 == 0 and n >= 8:
        encode_case(f"encpk_{n}_{k}", params("polar", n, k, pos, ones, is_packed=True), 3)
# Fewer frozen values than positions: the rest are 0.
pos, _ = codes[(64, 32)]
encode_case("enc_short_values", params("polar", 64, 32, pos, [1, 1, 0, 1]), 3)

# Decoders: SC, list of several sizes (16 and 32 sort more than 16
# paths: libstdc++'s introsort), systematic; clean and noisy.
for (n, k), (pos, vals) in codes.items():
    for sigma in [0.0, 0.6, 0.9, 1.2]:
        tag = f"{n}_{k}_{int(sigma * 10)}"
        frames = 6 if n <= 256 else 3
        decode_case(f"sc_{tag}", params("polar", n, k, pos, vals), frames, sigma)
        decode_case(f"sys_{tag}", params("polar_systematic", n, k, pos, []), frames, sigma)
        for l in [1, 2, 4, 8, 16, 32]:
            if n >= 1024 and l > 8:
                continue
            decode_case(f"scl{l}_{tag}", params("polar_list", n, k, pos, vals, max_list_size=l),
                        frames, sigma)
# Frozen ones decoded.
pos, _ = codes[(256, 128)]
ones = [int(b) for b in rng.integers(0, 2, len(pos))]
decode_case("sc_frozen_ones", params("polar", 256, 128, pos, ones), 4, 0.8)
decode_case("scl4_frozen_ones", params("polar_list", 256, 128, pos, ones, max_list_size=4), 4, 0.8)

OUT.write_cases()
