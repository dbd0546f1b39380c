#!/usr/bin/python3
"""Runs GNU Radio 3.10's packet blocks (gr-digital's CRC, header format,
protocol formatter and parser blocks) on random packets and writes, per
case, the inputs and GNU Radio's outputs into the directory given as the
only argument. The Rust test `gr_packets.rs` feeds the same inputs to the
rfgraph blocks of the same name and compares.

Files per case:
  <case>.in         raw input bytes of a stream block
  <case>.in_tags    its tags, one per line: offset, key, value (tab-separated)
  <case>.out        raw output bytes of a stream block
  <case>.out_tags   its tags, as <case>.in_tags
  <case>.msgs       input messages of a message block, one per line
  <case>.<port>     the messages a block posted on <port>, one per line

Messages and tag values are written in a small text encoding both sides
read: `F`/`T` booleans, `I<n>;` integers, `D<x>;` doubles (Python's
`repr`), `S<hex>;` symbols (UTF-8 in
hex), `B<hex>;` byte vectors, `{key value ...}` dicts (keys sorted, the
empty dict and nil `{}`), `(meta data)` PDUs.
"""

import os
import zlib
import sys

import numpy as np
import pmt
from gnuradio import blocks, digital, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gr_common import MARKER, enc, run_messages, tag, write_msgs, write_tags  # noqa: E402

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(4321)
LEN = "packet_len"


def tagged(packets, extra=()):
    """The items of `packets` with a length tag on each packet's first
    item, and `extra` tags (offset, key, value) added."""
    data, tags, at = [], [], 0
    for p in packets:
        tags.append(tag(at, LEN, pmt.from_long(len(p))))
        data += list(p)
        at += len(p)
    tags += [tag(o, k, v) for o, k, v in extra]
    return data, tags


def run_stream(case, block, data, tags):
    """Runs `block` (byte in, byte out) on `data` with `tags`."""
    tb = gr.top_block()
    src = blocks.vector_source_b(data, False, 1, tags)
    sink = blocks.vector_sink_b()
    tb.connect(src, block, sink)
    tb.run()
    np.asarray(data, dtype=np.uint8).tofile(os.path.join(out_dir, case + ".in"))
    write_tags(os.path.join(out_dir, case + ".in_tags"), tags)
    out = list(sink.data())
    np.asarray(out, dtype=np.uint8).tofile(os.path.join(out_dir, case + ".out"))
    write_tags(os.path.join(out_dir, case + ".out_tags"), sink.tags())
    return out, sink.tags()


def payload(n, bits=False):
    return list(rng.integers(0, 2 if bits else 256, n).astype(np.uint8))


def meta(i):
    d = pmt.make_dict()
    d = pmt.dict_add(d, pmt.intern("n"), pmt.from_long(i))
    return d


def pdu(i, data):
    return pmt.cons(meta(i), pmt.init_u8vector(len(data), [int(x) for x in data]))


def with_crc32(data):
    return list(data) + list(zlib.crc32(bytes(data)).to_bytes(4, "little"))


def unpack(data):
    return [(b >> (7 - k)) & 1 for b in data for k in range(8)]


# ---- crc32_bb: generate, packed and unpacked ----
lens = [1, 2, 3, 4, 5, 17, 100, 1]
packets = [payload(n) for n in lens]
extra = [(0, "first", pmt.from_long(1)), (3, "mid", pmt.from_long(2)), (8, "last_of_5", pmt.from_long(3))]
gen, gen_tags = run_stream("crc32_gen_packed", digital.crc32_bb(False, LEN, True), *tagged(packets, extra))

bit_lens = [1, 7, 8, 9, 33, 64, 100]
bit_packets = [payload(n, bits=True) for n in bit_lens]
gen_bits, _ = run_stream("crc32_gen_unpacked", digital.crc32_bb(False, LEN, False), *tagged(bit_packets))
# Unpacked items beyond 0/1: GNU Radio shifts each into place and cuts it to 8 bits.
wide = [payload(n) for n in [3, 9, 16]]
run_stream("crc32_gen_unpacked_wide", digital.crc32_bb(False, LEN, False), *tagged(wide))

# ---- crc32_bb: check, packed ----
def split(items, lengths):
    out, at = [], 0
    for n in lengths:
        out.append(list(items[at:at + n]))
        at += n
    return out


checked = split(gen, [n + 4 for n in lens])
checked[1][0] ^= 0x01          # payload error
checked[3][-1] ^= 0x80         # CRC error
checked.append([0, 0, 0, 0])   # only a CRC (of nothing): dropped, not longer than the CRC
checked.append([1, 2])         # shorter than a CRC
checked.append(list(gen[:5]))  # a 1-byte packet and its CRC, again
# Tags: on a payload, on the CRC's first item (moves to the next packet),
# on its last items (move to the packet's last item), on a dropped packet.
starts = np.cumsum([0] + [len(p) for p in checked])
extra = [
    (int(starts[0]) + 0, "a", pmt.from_long(1)),
    (int(starts[0]) + 1, "on_crc0", pmt.from_long(2)),
    (int(starts[0]) + 4, "on_crc3", pmt.from_long(3)),
    (int(starts[1]) + 2, "dropped", pmt.from_long(4)),
    (int(starts[5]) + 17, "on_crc0_mid", pmt.from_long(5)),
    (int(starts[5]) + 19, "on_crc2", pmt.from_long(6)),
    (int(starts[6]) + 50, "b", pmt.from_long(7)),
]
run_stream("crc32_check_packed", digital.crc32_bb(True, LEN, True), *tagged(checked, extra))

# ---- crc32_bb: check, unpacked ----
checked_bits = split(gen_bits, [n + 32 for n in bit_lens])
checked_bits[2][3] ^= 1        # payload error
checked_bits[4][-5] ^= 1       # CRC error
checked_bits.append([0] * 32)  # not longer than the CRC
checked_bits.append(list(gen_bits[:33]))
run_stream("crc32_check_unpacked", digital.crc32_bb(True, LEN, False), *tagged(checked_bits))

# ---- crc32_async_bb ----
async_lens = [0, 1, 2, 3, 4, 5, 31, 200]
msgs = [pdu(i, payload(n)) for i, n in enumerate(async_lens)]
out = run_messages(out_dir, "crc32_async_gen", digital.crc32_async_bb(False), msgs, ["out"],
                   pdu(MARKER, with_crc32([1, 2, 3])), ["out"])["out"]
with_crc = [list(pmt.u8vector_elements(pmt.cdr(m))) for m in out]
bad = [list(d) for d in with_crc]
bad[2][0] ^= 0x10   # payload error
bad[5][-1] ^= 0x01  # CRC error
check_msgs = [pdu(100 + i, d) for i, d in enumerate(bad)]
check_msgs.append(pdu(200, [0, 0, 0, 0]))  # CRC 0 of nothing: passes, empty
check_msgs.append(pdu(201, [0, 0, 0, 1]))  # a wrong CRC of nothing
run_messages(out_dir, "crc32_async_check", digital.crc32_async_bb(True), check_msgs, ["out"],
             pdu(MARKER, with_crc[4]), ["out"])

# ---- header formats ----
def formats():
    """(case name, a factory of the GNU Radio format object)."""
    return [
        ("default", lambda: digital.header_format_default(digital.packet_utils.default_access_code, 0, 1)),
        ("default_bps2", lambda: digital.header_format_default(digital.packet_utils.default_access_code, 2, 2)),
        ("default_short_code", lambda: digital.header_format_default("1110001011", 1, 3)),
        ("counter", lambda: digital.header_format_counter(digital.packet_utils.default_access_code, 0, 2)),
        ("counter_thr", lambda: digital.header_format_counter("111110011010101100111000", 3, 4)),
        ("crc", lambda: digital.header_format_crc(LEN, "packet_num")),
        ("crc_keys", lambda: digital.header_format_crc("len", "num")),
    ]


def formatter_only():
    """Access codes of lengths no multiple of 8 (GNU Radio writes their
    low bytes only, so its parser would not find them)."""
    return [
        ("default_62bit", lambda: digital.header_format_default(
            "10101100110111011010010011100010111100101000110000100000111111", 0, 1)),
        ("counter_4bit", lambda: digital.header_format_counter("1011", 0, 5)),
    ]


fmt_lens = [0, 1, 2, 5, 100, 300, 4095, 4096, 70000, 3]

for name, make in formats() + formatter_only():
    # protocol_formatter_async: a header PDU and the payload PDU.
    msgs = [pdu(i, payload(n)) for i, n in enumerate(fmt_lens)]
    out = run_messages(out_dir, "formatter_async_" + name, digital.protocol_formatter_async(make()), msgs,
                       ["header", "payload"], pdu(MARKER, [9]), ["header", "payload"])
    # protocol_formatter_bb: the headers of a tagged stream's packets.
    stream_lens = [n for n in fmt_lens if 0 < n <= 5000]
    extra = [(0, "dropped", pmt.from_long(1)), (3, "dropped_too", pmt.from_long(2))]
    run_stream("formatter_" + name, digital.protocol_formatter_bb(make(), LEN),
               *tagged([payload(n) for n in stream_lens], extra))

# ---- protocol_parser_b: headers in noise, with bit errors ----
def headers(make, lens):
    got = run_messages(out_dir, "unused", digital.protocol_formatter_async(make()),
                       [pdu(i, [0] * n) for i, n in enumerate(lens)], ["header"], pdu(MARKER, [9]), ["header"])
    return [list(pmt.u8vector_elements(pmt.cdr(m))) for m in got["header"]]


def parser_case(case, make, code_len, errors):
    """Packets of `errors` (bit flips: "code" k access-code bits, "len" a
    bit of the first length copy, "none") in noise, then zeros."""
    lens = [int(x) for x in rng.integers(0, 40, len(errors))]
    hdrs = headers(make, lens)
    bits = []
    for (kind, k), n, h in zip(errors, lens, hdrs):
        bits += payload(int(rng.integers(0, 60)), bits=True)
        hb = unpack(h)
        if kind == "code":
            for i in rng.choice(code_len, k, replace=False):
                hb[i] ^= 1
        elif kind == "len":
            hb[code_len + int(rng.integers(0, 16))] ^= 1
        bits += hb + payload(8 * n, bits=True)
    bits += [0] * 200
    p = digital.protocol_parser_b(make())
    tb = gr.top_block()
    src = blocks.vector_source_b(bits)
    sink = blocks.message_debug()
    tb.connect(src, p)
    tb.msg_connect(p, "info", sink, "store")
    tb.run()
    msgs = [sink.get_message(i) for i in range(sink.num_messages())]
    # GNU Radio posts #f at the end of each work call that found no
    # header: with the whole stream in one call, that is the last one.
    assert msgs and pmt.equal(msgs[-1], pmt.PMT_F), case
    np.asarray(bits, dtype=np.uint8).tofile(os.path.join(out_dir, case + ".in"))
    write_msgs(os.path.join(out_dir, case + ".info"), msgs[:-1])


none, code, length = ("none", 0), lambda k: ("code", k), ("len", 0)
default_code = len(digital.packet_utils.default_access_code)
for name, make in formats():
    if name.startswith("crc"):
        continue
    code_len = {"default_short_code": 10, "counter_thr": 24}.get(name, default_code)
    thr = {"default_bps2": 2, "default_short_code": 1, "counter_thr": 3}.get(name, 0)
    errors = [none, code(thr), code(thr + 1), length, none, code(max(thr - 1, 0)), code(thr + 3), none]
    parser_case("parser_" + name, make, code_len, errors)

# crc: every 32 bits are a header; some corrupted.
for name, make in formats():
    if not name.startswith("crc"):
        continue
    hdrs = headers(make, [0, 1, 5, 300, 4095, 17, 2, 9])
    bits = [b for h in hdrs for b in unpack(h)]
    for i in [3, 40, 70, 71, 100, 127, 128 + 24]:
        bits[i] ^= 1
    bits += payload(64, bits=True)
    p = digital.protocol_parser_b(make())
    tb = gr.top_block()
    src = blocks.vector_source_b(bits)
    sink = blocks.message_debug()
    tb.connect(src, p)
    tb.msg_connect(p, "info", sink, "store")
    tb.run()
    np.asarray(bits, dtype=np.uint8).tofile(os.path.join(out_dir, "parser_" + name + ".in"))
    write_msgs(os.path.join(out_dir, "parser_" + name + ".info"),
               [sink.get_message(i) for i in range(sink.num_messages())])

# ---- packet_header_default: packet_headergenerator_bb, packet_headerparser_b ----
def packet_headers():
    """(case name, header_len, len_tag_key, num_tag_key, bits_per_byte)."""
    return [
        ("hdr_default", 32, LEN, "packet_num", 1),
        ("hdr_bpb2", 16, LEN, "packet_num", 2),
        ("hdr_bpb6", 8, LEN, "num", 6),
        ("hdr_bpb8", 4, LEN, "packet_num", 8),
        ("hdr_short", 5, LEN, "packet_num", 1),
        ("hdr_cut_crc", 28, LEN, "packet_num", 1),
        ("hdr_no_num", 40, "len", "", 1),
        ("hdr_padded", 48, LEN, "packet_num", 3),
    ]


for name, hlen, lkey, nkey, bpb in packet_headers():
    lens = [1, 5, 100, 4095, 4096, 5000, 3, 2]
    data, tags = tagged([payload(n) for n in lens], [(1, "dropped", pmt.from_long(1))])
    # The generator's input length tags are its formatter's key.
    tags = [tag(t.offset, lkey if pmt.symbol_to_string(t.key) == LEN else pmt.symbol_to_string(t.key), t.value)
            for t in tags]
    fmt = digital.packet_header_default(hlen, lkey, nkey, bpb)
    out, _ = run_stream("headergenerator_" + name, digital.packet_headergenerator_bb(fmt.base(), lkey),
                        data, tags)
    # The parser: the headers, some corrupted, tags on some, and a last
    # incomplete one.
    hdrs = list(out)
    for i in [hlen * 1 + hlen - 1, hlen * 3, hlen * 6 + hlen // 2]:
        hdrs[i] ^= 1
    hdrs += [0] * (hlen - 1)
    ptags = [tag(hlen * 2, "snr", pmt.from_double(3.5)), tag(hlen * 2 + hlen - 1, "x", pmt.from_long(7)),
             tag(hlen * 4, lkey, pmt.from_long(12345)), tag(hlen * 5 - 1, "not_mine", pmt.from_long(1))]
    parser = digital.packet_headerparser_b(digital.packet_header_default(hlen, lkey, nkey, bpb).base())
    tb = gr.top_block()
    src = blocks.vector_source_b(hdrs, False, 1, ptags)
    sink = blocks.message_debug()
    tb.connect(src, parser)
    tb.msg_connect(parser, "header_data", sink, "store")
    tb.run()
    case = "headerparser_" + name
    np.asarray(hdrs, dtype=np.uint8).tofile(os.path.join(out_dir, case + ".in"))
    write_tags(os.path.join(out_dir, case + ".in_tags"), ptags)
    write_msgs(os.path.join(out_dir, case + ".header_data"),
               [sink.get_message(i) for i in range(sink.num_messages())])
