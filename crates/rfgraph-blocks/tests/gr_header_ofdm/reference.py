#!/usr/bin/python3
"""Runs GNU Radio 3.10's protocol formatters (`protocol_formatter_async`,
`protocol_formatter_bb`) and protocol parser (`protocol_parser_b`) with
`digital.header_format_ofdm` objects and writes, per case, the inputs and
GNU Radio's outputs into the directory given as the only argument. The
Rust test `gr_header_ofdm.rs` feeds the same inputs to rfgraph's blocks
and compares.

Files per case:
  <case>.in         raw input bytes of a stream block
  <case>.in_tags    its tags, one per line: offset, key, value (tab-separated)
  <case>.out        raw output bytes of a stream block
  <case>.out_tags   its tags, as <case>.in_tags
  <case>.msgs       input messages of a message block, one per line
  <case>.<port>     the messages a block posted on <port>, one per line

Messages and tag values use the text encoding of `gr_packets/reference.py`:
`F`/`T`, `I<n>;`, `S<hex>;` symbols, `B<hex>;` byte vectors,
`{key value ...}` dicts (keys sorted), `(meta data)` PDUs.
"""

import os
import sys
import time

import numpy as np
import pmt
from gnuradio import blocks, digital, gr

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(8642)
LEN = "packet_len"


def enc(p):
    if pmt.is_null(p):
        return "{}"
    if pmt.is_bool(p):
        return "T" if pmt.to_bool(p) else "F"
    if pmt.is_integer(p):
        return "I%d;" % pmt.to_long(p)
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


def pdu(i, data):
    meta = pmt.dict_add(pmt.make_dict(), pmt.intern("n"), pmt.from_long(i))
    return pmt.cons(meta, pmt.init_u8vector(len(data), [int(x) for x in data]))


MARKER = 999


def is_marker(m):
    if not pmt.is_pair(m) or pmt.is_dict(m):
        return False
    n = pmt.dict_ref(pmt.car(m), pmt.intern("n"), pmt.PMT_NIL)
    return pmt.is_integer(n) and pmt.to_long(n) == MARKER


def run_messages(case, block, msgs, ports):
    """Posts `msgs`, then a marker PDU, to `block`'s `in` and stores what
    it posts on `ports` until the marker came out of each."""
    tb = gr.top_block()
    sinks = {p: blocks.message_debug() for p in ports}
    for p, s in sinks.items():
        tb.msg_connect(block, p, s, "store")
    tb.start()
    for m in msgs + [pdu(MARKER, [9])]:
        block.to_basic_block()._post(pmt.intern("in"), m)
    deadline = time.time() + 30

    def marked(sink):
        n = sink.num_messages()
        return n and is_marker(sink.get_message(n - 1))

    while not all(marked(s) for s in sinks.values()):
        if time.time() > deadline:
            raise RuntimeError(case + ": the marker never came")
        time.sleep(0.01)
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


def payload(n):
    return [int(x) for x in rng.integers(0, 256, n)]


def unpack(data):
    return [(b >> (7 - k)) & 1 for b in data for k in range(8)]


EXAMPLE = (list(range(-26, -21)) + list(range(-20, -7)) + list(range(-6, 0)) + list(range(1, 7))
           + list(range(8, 21)) + list(range(22, 27)),)
TWO = (list(range(0, 20)), list(range(20, 50)), list(range(5)))


def formats():
    """(case name, GNU Radio format factory, header bits)."""
    return [
        # formatter_ofdm.grc's: BPSK header, QPSK payload.
        ("example", lambda: digital.header_format_ofdm(EXAMPLE, 1, LEN, "frame_len", "packet_num", 1, 2, False), 48),
        # Two OFDM symbols of 20 and 30 carriers: 50 bits (6 bytes written).
        ("two_syms", lambda: digital.header_format_ofdm(TWO, 2, "len", "frames", "num", 1, 3, False), 50),
        # Scrambled: GNU Radio 3.10 descrambles in the parser only.
        ("scrambled", lambda: digital.header_format_ofdm(EXAMPLE, 1, LEN, "frame_len", "packet_num", 2, 1, True), 48),
        # Keys that collide: the later value wins.
        ("same_keys", lambda: digital.header_format_ofdm(TWO, 2, "k", "k", "num", 1, 5, False), 50),
    ]


fmt_lens = [0, 1, 2, 5, 47, 100, 300, 4095, 4096, 70000, 3]

for name, make, nbits in formats():
    msgs = [pdu(i, payload(n)) for i, n in enumerate(fmt_lens)]
    run_messages("formatter_async_" + name, digital.protocol_formatter_async(make()), msgs,
                 ["header", "payload"])
    # protocol_formatter_bb on a tagged stream.
    stream_lens = [n for n in fmt_lens if 0 < n <= 5000]
    data, tags, at = [], [], 0
    for n in stream_lens:
        tags.append(tag(at, LEN, pmt.from_long(n)))
        data += payload(n)
        at += n
    tags.append(tag(1, "dropped", pmt.from_long(1)))
    tb = gr.top_block()
    src = blocks.vector_source_b(data, False, 1, tags)
    sink = blocks.vector_sink_b()
    tb.connect(src, digital.protocol_formatter_bb(make(), LEN), sink)
    tb.run()
    case = "formatter_" + name
    np.asarray(data, dtype=np.uint8).tofile(os.path.join(out_dir, case + ".in"))
    write_tags(os.path.join(out_dir, case + ".in_tags"), tags)
    np.asarray(list(sink.data()), dtype=np.uint8).tofile(os.path.join(out_dir, case + ".out"))
    write_tags(os.path.join(out_dir, case + ".out_tags"), sink.tags())

    # protocol_parser_b: every `nbits` bits are a header. The formatter's
    # headers, padded (or cut) to `nbits`, some with a bit flipped; for the
    # scrambled format, some scrambled as its parser expects.
    lens = [0, 1, 5, 300, 4095, 17, 2, 9, 1000, 48, 49, 100]
    got = run_messages("", digital.protocol_formatter_async(make()),
                       [pdu(i, [0] * n) for i, n in enumerate(lens)], ["header"])["header"]
    hdrs = [unpack(pmt.u8vector_elements(pmt.cdr(m))) for m in got]
    mask = [0] * nbits
    if name == "scrambled":
        l = digital.lfsr(0x8a, 0x6f, 7)
        for i in range(nbits // 8):
            for k in range(2):
                mask[i] ^= l.next_bit() << k
    bits = []
    for i, h in enumerate(hdrs):
        h = (h + [0] * nbits)[:nbits]
        if i in (2, 7):
            h[int(rng.integers(0, 32))] ^= 1
        if i == 10:
            h[40] ^= 1  # past the CRC header: not checked
        if name == "scrambled" and i % 2 == 0:
            h = [b ^ (m & 1) for b, m in zip(h, mask)]
        # Bytes other than 0 and 1 are ones.
        if i == 3:
            h = [b * 5 for b in h]
        bits += h
    bits += [int(x) for x in rng.integers(0, 2, 2 * nbits)]
    p = digital.protocol_parser_b(make())
    tb = gr.top_block()
    src = blocks.vector_source_b(bits)
    sink = blocks.message_debug()
    tb.connect(src, p)
    tb.msg_connect(p, "info", sink, "store")
    tb.run()
    case = "parser_" + name
    np.asarray(bits, dtype=np.uint8).tofile(os.path.join(out_dir, case + ".in"))
    write_msgs(os.path.join(out_dir, case + ".info"), [sink.get_message(i) for i in range(sink.num_messages())])
