#!/usr/bin/python3
"""Runs GNU Radio 3.10's packet_headergenerator_bb and packet_headerparser_b
with digital.packet_header_ofdm objects and writes, into the file given as
the only argument, one line per result (tab-separated):

  gen <case> <hex>       the generator's output bytes for the packet
                         lengths LENS (length tags "packet_len")
  in <case> <hex>        the parser's input (those headers, some bits
                         flipped, with a tag "packet_len" = 9 on header 4)
  msg <case> <message>   each message the parser posted: F, or the dict
                         as key=value pairs sorted by key, comma-separated

The Rust test gr_ofdm_header.rs holds the same case table.
"""

import os
import sys

import pmt
from gnuradio import blocks, digital, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gr_common import tag  # noqa: E402

LENS = [1, 5, 100, 4095, 4096, 3, 2, 17, 0, 64]

IEEE = (list(range(-26, -21)) + list(range(-20, -7)) + list(range(-6, 0)) + list(range(1, 7))
        + list(range(8, 21)) + list(range(22, 27)),)
# (case, occupied_carriers, n_syms, len key, frame key, num key, bits per
# header symbol, bits per payload symbol, scramble)
CASES = [
    ("ieee", IEEE, 1, "packet_len", "frame_len", "packet_num", 1, 1, False),
    ("ieee_qpsk_scrambled", IEEE, 1, "packet_len", "frame_len", "packet_num", 1, 2, True),
    ("two_sets", ((-4, -3, -2, -1, 1, 2, 3, 4), (1, 2, 3)), 2, "packet_len", "frame_length", "num", 2, 3, True),
    ("short", ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10), (5,)), 1, "packet_len", "frame_len", "packet_num", 1, 2, False),
    ("same_keys", ((-4, -3, -2, -1, 1, 2, 3, 4),) * 3, 3, "packet_len", "packet_len", "", 1, 3, True),
]


def enc(m):
    if pmt.is_bool(m):
        return "T" if pmt.to_bool(m) else "F"
    keys = pmt.dict_keys(m)
    items = []
    for i in range(pmt.length(keys)):
        k = pmt.nth(i, keys)
        items.append("%s=%d" % (pmt.symbol_to_string(k), pmt.to_long(pmt.dict_ref(m, k, pmt.PMT_NIL))))
    return ",".join(sorted(items))


os.makedirs(sys.argv[1], exist_ok=True)
out = open(os.path.join(sys.argv[1], "reference.txt"), "w")
for case, occ, nsyms, lkey, fkey, nkey, bph, bpp, scr in CASES:
    data, tags, at = [], [], 0
    for n in LENS:
        tags.append(tag(at, "packet_len", pmt.from_long(n)))
        data += [(at + i) & 0xFF for i in range(n)]
        at += n
    fmt = digital.packet_header_ofdm(occ, nsyms, lkey, fkey, nkey, bph, bpp, scr)
    tb = gr.top_block()
    src = blocks.vector_source_b(data, False, 1, tags)
    sink = blocks.vector_sink_b()
    tb.connect(src, digital.packet_headergenerator_bb(fmt.base(), "packet_len"), sink)
    tb.run()
    hdrs = list(sink.data())
    out.write("gen\t%s\t%s\n" % (case, bytes(hdrs).hex()))
    # A packet of length 0 gets no header.
    hlen = len(hdrs) // len([n for n in LENS if n])
    flipped = list(hdrs)
    for i in [hlen + 1, 2 * hlen + hlen - 1]:
        flipped[i] ^= 1
    ptags = [tag(4 * hlen, "packet_len", pmt.from_long(9))]
    parser = digital.packet_headerparser_b(
        digital.packet_header_ofdm(occ, nsyms, lkey, fkey, nkey, bph, bpp, scr).formatter())
    tb = gr.top_block()
    src = blocks.vector_source_b(flipped, False, 1, ptags)
    dbg = blocks.message_debug()
    tb.connect(src, parser)
    tb.msg_connect(parser, "header_data", dbg, "store")
    tb.run()
    out.write("in\t%s\t%s\n" % (case, bytes(flipped).hex()))
    for i in range(dbg.num_messages()):
        out.write("msg\t%s\t%s\n" % (case, enc(dbg.get_message(i))))
out.close()
