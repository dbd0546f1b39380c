#!/usr/bin/python3
"""GNU Radio 3.10's pdu.pdu_lambda on fixed PDUs, for gr_pdu_lambda.rs.

Writes <dir>/cases.json: for each case its lambda text (reading the
variable `k`), k's value, the mode, the key, the input message and GNU
Radio's output message, as tagged JSON ({"t": "f32", "v": [...]}).
"""
import json
import os
import sys
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, pdu

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)


def enc(p):
    """A message as tagged JSON."""
    kinds = [
        (pmt.is_u8vector, "u8", lambda p: list(pmt.u8vector_elements(p))),
        (pmt.is_s8vector, "i8", lambda p: list(pmt.s8vector_elements(p))),
        (pmt.is_u16vector, "u16", lambda p: list(pmt.u16vector_elements(p))),
        (pmt.is_s16vector, "i16", lambda p: list(pmt.s16vector_elements(p))),
        (pmt.is_s32vector, "i32", lambda p: list(pmt.s32vector_elements(p))),
        (pmt.is_f32vector, "f32", lambda p: [float(x) for x in pmt.f32vector_elements(p)]),
        (pmt.is_f64vector, "f64", lambda p: [float(x) for x in pmt.f64vector_elements(p)]),
        (pmt.is_c32vector, "c32", lambda p: [[x.real, x.imag] for x in pmt.c32vector_elements(p)]),
        (pmt.is_c64vector, "c64", lambda p: [[x.real, x.imag] for x in pmt.c64vector_elements(p)]),
    ]
    for test, tag, elems in kinds:
        if test(p):
            return {"t": tag, "v": elems(p)}
    if pmt.is_null(p):
        return {"t": "null"}
    if pmt.is_bool(p):
        return {"t": "bool", "v": pmt.to_bool(p)}
    if pmt.is_integer(p):
        return {"t": "long", "v": pmt.to_long(p)}
    if pmt.is_real(p):
        return {"t": "double", "v": pmt.to_double(p)}
    if pmt.is_complex(p):
        c = pmt.to_complex(p)
        return {"t": "complex", "v": [c.real, c.imag]}
    if pmt.is_dict(p):
        items = pmt.dict_items(p)
        out = {}
        while not pmt.is_null(items):
            kv = pmt.car(items)
            out[pmt.symbol_to_string(pmt.car(kv))] = enc(pmt.cdr(kv))
            items = pmt.cdr(items)
        return {"t": "dict", "v": out}
    if pmt.is_pair(p):
        return {"t": "pair", "v": [enc(pmt.car(p)), enc(pmt.cdr(p))]}
    if pmt.is_symbol(p):
        return {"t": "symbol", "v": pmt.symbol_to_string(p)}
    raise ValueError("cannot encode %s" % p)


def meta(**kv):
    d = pmt.make_dict()
    for k, v in kv.items():
        d = pmt.dict_add(d, pmt.intern(k), pmt.to_pmt(v))
    return d


u8 = np.array([0, 1, 7, 100, 200, 255], np.uint8)
f32 = np.linspace(-3.0, 5.0, 17).astype(np.float32)
c32 = (np.exp(1j * np.linspace(0, 20, 33)) * np.linspace(0.5, 2, 33)).astype(np.complex64)
ramp = np.arange(64, dtype=np.float32)


def vec(a):
    return pmt.cons(meta(src=1), pmt.to_pmt(a))


# (name, fn text, k, mode, key, input)
CASES = [
    ("u8_times_2", "lambda x: x*2", 1, "UVEC", "key", vec(u8)),
    ("u8_plus_1", "lambda x: x+1", 1, "UVEC", "key", vec(u8)),
    ("u8_times_k", "lambda x: k*x", 3, "UVEC", "key", vec(u8)),
    ("u8_times_300", "lambda x: x*300", 1, "UVEC", "key", vec(u8)),
    ("u8_times_float", "lambda x: x*k", 0.5, "UVEC", "key", vec(u8)),
    ("u8_negate", "lambda x: -x", 1, "UVEC", "key", vec(u8)),
    ("u8_slice", "lambda x: x[1:-1:2]", 1, "UVEC", "key", vec(u8)),
    ("f32_times_k", "lambda x: x*k", 0.25, "UVEC", "key", vec(f32)),
    ("f32_plus_complex", "lambda x: x + 1j*k", 2, "UVEC", "key", vec(f32)),
    ("f32_exp", "lambda x: np.exp(x)", 1, "UVEC", "key", vec(f32)),
    ("f32_len", "lambda x: x / len(x)", 1, "UVEC", "key", vec(f32)),
    ("c32_angle", "lambda x: np.angle(x)", 1, "UVEC", "key", vec(c32)),
    ("c32_abs", "lambda x: np.abs(x) * k", 2, "UVEC", "key", vec(c32)),
    ("c32_times_k", "lambda x: x * k", 0.5, "UVEC", "key", vec(c32)),
    (
        "chirp",
        "lambda x: k * np.complex64(np.exp(2*np.pi * 1j  * x * x * (0.05 * (7-19.5) / len(x)) ))",
        0.5,
        "UVEC",
        "key",
        vec(ramp),
    ),
    (
        "demod",
        "lambda x: np.float32(np.unwrap(np.angle(x[1:]) - np.angle(x[:-1])))",
        1,
        "UVEC",
        "key",
        vec(c32),
    ),
    ("meta_scale", "lambda x: x*k", 3, "META", "distance", pmt.cons(meta(distance=123), pmt.to_pmt(u8))),
    ("meta_float", "lambda x: x*k", 0.5, "META", "distance", pmt.cons(meta(distance=3), pmt.to_pmt(u8))),
    ("meta_missing", "lambda x: x*k", 3, "META", "distance", pmt.cons(meta(other=1), pmt.to_pmt(u8))),
    ("meta_zero", "lambda x: x*k", 3, "META", "distance", pmt.cons(meta(distance=0), pmt.to_pmt(u8))),
    ("raw_wrap", "lambda x: pmt.cons(pmt.make_dict(), x)", 1, "RAW", "key", pmt.cons(pmt.make_dict(), pmt.PMT_NIL)),
    ("failing", "lambda x: x.nothing", 1, "UVEC", "key", vec(f32)),
    ("not_a_vector", "lambda x: x*k", 2, "UVEC", "key", pmt.cons(meta(), pmt.PMT_NIL)),
]

out = []
for name, text, k, mode, key, msg in CASES:
    fn = eval(text, {"np": np, "pmt": pmt, "k": k})
    tb = gr.top_block()
    block = pdu.pdu_lambda(fn, mode, pmt.intern(key))
    dbg = blocks.message_debug()
    tb.msg_connect(block, "pdu", dbg, "store")
    tb.start()
    block.to_basic_block()._post(pmt.intern("pdu"), msg)
    deadline = time.time() + 10
    while dbg.num_messages() < 1 and time.time() < deadline:
        time.sleep(0.005)
    tb.stop()
    tb.wait()
    assert dbg.num_messages() == 1, name
    out.append(
        {
            "name": name,
            "fn": text,
            "k": k,
            "mode": mode,
            "key": key,
            "input": enc(msg),
            "output": enc(dbg.get_message(0)),
        }
    )

with open(OUT + "/cases.json", "w") as f:
    json.dump(out, f)
