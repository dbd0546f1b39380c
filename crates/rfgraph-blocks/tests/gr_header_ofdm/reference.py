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

import numpy as np
import pmt
from gnuradio import blocks, digital, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gr_common import MARKER, run_messages, tag, write_msgs, write_tags  # noqa: E402

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(8642)
LEN = "packet_len"


def pdu(i, data):
    meta = pmt.dict_add(pmt.make_dict(), pmt.intern("n"), pmt.from_long(i))
    return pmt.cons(meta, pmt.init_u8vector(len(data), [int(x) for x in data]))


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
    run_messages(out_dir, "formatter_async_" + name, digital.protocol_formatter_async(make()), msgs,
                 ["header", "payload"], pdu(MARKER, [9]), ["header", "payload"])
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
    got = run_messages(out_dir, "", digital.protocol_formatter_async(make()),
                       [pdu(i, [0] * n) for i, n in enumerate(lens)], ["header"], pdu(MARKER, [9]),
                       ["header"])["header"]
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
