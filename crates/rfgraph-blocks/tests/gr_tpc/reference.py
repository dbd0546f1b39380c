#!/usr/bin/python3
"""Runs GNU Radio 3.10's turbo product coders (`fec.tpc_encoder_make`,
`fec.tpc_decoder.make`) in `fec.extended_encoder` / `fec.extended_decoder`
and writes what they give into the directory given as the only argument:
`cases.json` lists the cases (the rfgraph block and parameters, from
which this script also builds GNU Radio's coder objects), `<case>.in` /
`<case>.out` the raw little-endian items of each. The Rust test
`gr_tpc.rs` runs the same through the registry and compares bit for bit."""

import os
import sys

import numpy as np
from gnuradio import blocks, fec, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gr_common  # noqa: E402

OUT = gr_common.Output()
out_dir = OUT.dir
rng = np.random.default_rng(20261130)
cases = OUT.cases

# (row_poly, col_poly, krow, kcol, bval, qval): the examples' code first.
CODES = [
    ([3], [43], 26, 6, 9, 3),
    ([7], [5], 10, 8, 0, 0),
    ([13], [11], 16, 12, 5, 7),
    ([2], [3], 8, 4, 2, 1),
    ([37], [7], 20, 9, 20, 4),
]


def run(block, data, floats):
    tb = gr.top_block()
    src = blocks.vector_source_f(data.tolist()) if floats else blocks.vector_source_b(data.tolist())
    snk = blocks.vector_sink_b()
    tb.connect(src, block, snk)
    tb.run()
    return np.array(snk.data(), dtype=np.uint8)


def save(name, data_in, data_out):
    data_in.tofile(os.path.join(out_dir, name + ".in"))
    data_out.tofile(os.path.join(out_dir, name + ".out"))


def params(code, **extra):
    rp, cp, krow, kcol, b, q = code
    p = dict(code="tpc", row_poly=rp, col_poly=cp, krow=krow, kcol=kcol, bval=b, qval=q)
    p.update(extra)
    return p


for ci, code in enumerate(CODES):
    enc = fec.tpc_encoder_make(*code)
    frames = 25
    bits = rng.integers(0, 2, enc.get_input_size() * frames).astype(np.uint8)
    coded = run(fec.extended_encoder(encoder_obj_list=enc, threading=None, puncpat="11"),
                bits, False)
    name = f"enc_{ci}"
    save(name, bits, coded)
    cases.append(dict(kind="encode", name=name, block="extended_encoder",
                      params=params(code)))
    # Noisy soft values of the coded frames, decoded by each max*.
    symbols = 2.0 * coded.astype(np.float32) - 1.0
    for sigma in [0.5, 0.9, 1.3]:
        noisy = (symbols + rng.normal(0.0, sigma, len(symbols))).astype(np.float32)
        for dt in range(5):
            for it in ([6] if ci else [1, 6, 20]):
                dec = fec.tpc_decoder.make(*code, it, dt)
                out = run(fec.extended_decoder(decoder_obj_list=dec, threading=None, ann=None,
                                               puncpat="11", integration_period=10000),
                          noisy, True)
                name = f"dec_{ci}_{sigma}_{dt}_{it}"
                save(name, noisy, out)
                cases.append(dict(kind="decode", name=name, block="extended_decoder",
                                  params=params(code, max_iter=it, decoder_type=dt)))

# GNU Radio's `fec_test` (one point of `bercurve_generator`) on random
# bytes: unpack, encode, ±1, noise_source_f(GR_GAUSSIAN, a, seed), decode,
# pack. Its decoded bytes (output 0) for rfgraph's chain of the same bytes.
CHAINS = [
    ("tpc1", lambda: fec.tpc_encoder_make([3], [43], 26, 6, 9, 3),
     lambda: fec.tpc_decoder.make([3], [43], 26, 6, 9, 3, 6, 1),
     params(CODES[0], max_iter=6, decoder_type=1)),
    ("tpc0", lambda: fec.tpc_encoder_make([3], [43], 26, 6, 9, 3),
     lambda: fec.tpc_decoder.make([3], [43], 26, 6, 9, 3, 6, 0),
     params(CODES[0], max_iter=6, decoder_type=0)),
    ("cc", lambda: fec.cc_encoder_make(2048, 7, 2, [79, 109], 0, fec.CC_STREAMING, False),
     lambda: fec.cc_decoder.make(2048, 7, 2, [79, 109], 0, -1, fec.CC_STREAMING, False),
     dict(code="cc", frame_size=2048, mode="streaming")),
    ("rep", lambda: fec.repetition_encoder_make(4096, 3),
     lambda: fec.repetition_decoder.make(4096, 3, 0.5),
     dict(code="repetition", frame_size=4096, rep=3, prob=0.5)),
    ("dummy", lambda: fec.dummy_encoder_make(4096), lambda: fec.dummy_decoder.make(4096),
     dict(code="dummy", frame_size=4096)),
]
data = rng.integers(0, 256, 3600).astype(np.uint8)
for cname, enc, dec, p in CHAINS:
    for esno, seed in [(0.0, -100), (2.5, 0), (5.0, 42)]:
        tb = gr.top_block()
        src = blocks.vector_source_b(data.tolist())
        t = fec.fec_test(generic_encoder=enc(), generic_decoder=dec(), esno=esno,
                         samp_rate=3200000, threading=None, puncpat="11", seed=seed)
        decoded = blocks.vector_sink_b()
        sent = blocks.vector_sink_b()
        tb.connect(src, t)
        tb.connect((t, 0), decoded)
        tb.connect((t, 1), sent)
        tb.run()
        name = f"chain_{cname}_{esno}_{seed}"
        save(name, data, np.array(decoded.data(), dtype=np.uint8))
        cases.append(dict(kind="chain", name=name, params=p, esno=esno, seed=seed))

OUT.write_cases()
