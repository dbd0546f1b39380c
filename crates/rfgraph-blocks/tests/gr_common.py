"""What the GNU Radio reference scripts under `tests/` share: the output
folder (the script's first argument) with the arrays and `cases.json`
written into it, length tags, PDUs posted to a GNU Radio block, shaped
and resampled symbols, and the packet scripts' message runs and text
encoding of messages and tag values.

A script `tests/<name>/reference.py` imports it with

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import gr_common
"""

import json
import os
import sys
import time

import numpy as np
import pmt
from gnuradio import blocks, filter, gr


class Output:
    """The folder given as the script's first argument (made when
    missing), and the cases written to its `cases.json`."""

    def __init__(self):
        self.dir = sys.argv[1]
        os.makedirs(self.dir, exist_ok=True)
        self.cases = []

    def path(self, name):
        return os.path.join(self.dir, name)

    def save(self, name, array, dtype):
        """`array` as raw little-endian items of `dtype`, in file `name`."""
        np.asarray(array, dtype=dtype).tofile(self.path(name))

    def write_cases(self):
        with open(self.path("cases.json"), "w") as f:
            json.dump(self.cases, f, indent=1)


def length_tags(lengths, key):
    """Length tags `key` for packets of `lengths`, back to back."""
    tags, at = [], 0
    for n in lengths:
        tags.append(gr.tag_utils.python_to_tag((at, pmt.intern(key), pmt.from_long(n), pmt.intern("src"))))
        at += n
    return tags


def post_pdus(name, block, pdus, itype, meta=lambda x: pmt.make_dict()):
    """Posts `pdus` (arrays of `itype`, "u8" or "f32"), with metadata
    `meta(pdu)`, to `block`'s `in`; gives the messages it sends on `out`,
    one for each."""
    tb = gr.top_block()
    dbg = blocks.message_debug()
    tb.msg_connect(block, "out", dbg, "store")
    tb.start()
    for x in pdus:
        vec = pmt.init_u8vector(len(x), [int(v) for v in x]) if itype == "u8" else \
            pmt.init_f32vector(len(x), [float(v) for v in x])
        block.to_basic_block()._post(pmt.intern("in"), pmt.cons(meta(x), vec))
    deadline = time.time() + 30
    while dbg.num_messages() < len(pdus) and time.time() < deadline:
        time.sleep(0.01)
    tb.stop()
    tb.wait()
    assert dbg.num_messages() == len(pdus), name
    return [dbg.get_message(i) for i in range(len(pdus))]


def save_pdus(out, name, pdus, outs, itype):
    """The PDUs in (`<name>.in`, `<name>.inlen`) and out (byte arrays:
    `<name>.out`, `<name>.outlen`) of a case."""
    out.save(name + ".in", np.concatenate(pdus), np.uint8 if itype == "u8" else np.float32)
    out.save(name + ".inlen", [len(x) for x in pdus], np.uint64)
    out.save(name + ".out", np.concatenate(outs), np.uint8)
    out.save(name + ".outlen", [len(o) for o in outs], np.uint64)


def pdu_bytes(m):
    """The bytes of PDU `m`."""
    return np.array(pmt.u8vector_elements(pmt.cdr(m)), dtype=np.uint8)


def shaped(rng, points, nsym, sps):
    """`nsym` random symbols of `points` (drawn from `rng`) at `sps`
    samples each, RRC shaped, delayed by 0.3 sample and slowed by 0.05 %
    (GNU Radio's MMSE resampler), with noise from `rng`."""
    syms = points[rng.integers(0, len(points), nsym)]
    up = np.zeros(nsym * sps, dtype=np.complex64)
    up[::sps] = syms
    rrc = np.array(filter.firdes.root_raised_cosine(sps, sps, 1.0, 0.35, 11 * sps))
    x = np.convolve(up, rrc).astype(np.complex64)
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist())
    res = filter.mmse_resampler_cc(0.3, 1.0005)
    snk = blocks.vector_sink_c()
    tb.connect(src, res, snk)
    tb.run()
    y = np.asarray(snk.data(), dtype=np.complex64)
    noise = (rng.normal(0, 0.05, len(y)) + 1j * rng.normal(0, 0.05, len(y)))
    return (y + noise).astype(np.complex64)


# ---- messages in and out of the packet blocks ----


MARKER = 999


def is_marker(m):
    """A PDU whose metadata `n` is MARKER."""
    if not pmt.is_pair(m) or pmt.is_dict(m):
        return False
    n = pmt.dict_ref(pmt.car(m), pmt.intern("n"), pmt.PMT_NIL)
    return pmt.is_integer(n) and pmt.to_long(n) == MARKER


def run_messages(out_dir, case, block, msgs, ports, marker, marker_ports):
    """Posts `msgs` and then `marker` to `block`'s input `in`, and stores
    what it posts on `ports` until the marker (metadata `n` = MARKER)
    came out of each of `marker_ports` (the handler takes messages in
    order, each port's sink too: all came before). Gives, and unless
    `case` is empty writes into `out_dir`, the inputs and every port's
    messages but the marker's."""
    tb = gr.top_block()
    sinks = {p: blocks.message_debug() for p in ports}
    for p, s in sinks.items():
        tb.msg_connect(block, p, s, "store")
    tb.start()
    for m in msgs + [marker]:
        block.to_basic_block()._post(pmt.intern("in"), m)
    deadline = time.time() + 30

    def marked(sink):
        n = sink.num_messages()
        return n and is_marker(sink.get_message(n - 1))

    while time.time() < deadline:
        if all(marked(sinks[p]) for p in marker_ports):
            break
        time.sleep(0.01)
    else:
        raise RuntimeError(case + ": the marker never came")
    tb.stop()
    tb.wait()
    if case:
        write_msgs(os.path.join(out_dir, case + ".msgs"), msgs)
    out = {}
    for p, s in sinks.items():
        got = [s.get_message(i) for i in range(s.num_messages())]
        got = [m for m in got if not is_marker(m)]
        if case:
            write_msgs(os.path.join(out_dir, case + "." + p), got)
        out[p] = got
    return out


# ---- the packet scripts' text encoding of messages and tag values ----


def enc(p):
    """`p` in the text encoding (see `gr_packets/reference.py`)."""
    if pmt.is_null(p):
        return "{}"
    if pmt.is_bool(p):
        return "T" if pmt.to_bool(p) else "F"
    if pmt.is_integer(p):
        return "I%d;" % pmt.to_long(p)
    if pmt.is_uint64(p):
        return "I%d;" % pmt.to_uint64(p)
    if pmt.is_real(p):
        return "D%r;" % pmt.to_double(p)
    if pmt.is_symbol(p):
        return "S%s;" % pmt.symbol_to_string(p).encode().hex()
    if pmt.is_u8vector(p):
        return "B%s;" % bytes(pmt.u8vector_elements(p)).hex()
    if pmt.is_dict(p):
        keys = pmt.dict_keys(p)
        items = [(pmt.symbol_to_string(pmt.nth(i, keys)), pmt.dict_ref(p, pmt.nth(i, keys), pmt.PMT_NIL))
                 for i in range(pmt.length(keys))]
        return "{" + "".join(enc(pmt.intern(k)) + enc(v) for k, v in sorted(items)) + "}"
    if pmt.is_pair(p):
        return "(" + enc(pmt.car(p)) + enc(pmt.cdr(p)) + ")"
    raise ValueError("no encoding for %s" % p)


def write_msgs(path, msgs):
    with open(path, "w") as f:
        for m in msgs:
            f.write(enc(m) + "\n")


def write_tags(path, tags):
    with open(path, "w") as f:
        for t in tags:
            f.write("%d\t%s\t%s\n" % (t.offset, pmt.symbol_to_string(t.key), enc(t.value)))


def tag(offset, key, value):
    t = gr.tag_t()
    t.offset = offset
    t.key = pmt.intern(key)
    t.value = value
    return t
