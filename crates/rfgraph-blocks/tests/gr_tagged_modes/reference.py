#!/usr/bin/python3
"""Runs GNU Radio 3.10's `blocks.repack_bits_bb` in tagged-stream mode
(a length tag key given) on random packets, and `channels.channel_model`
with and without `block_tags` on a tagged stream, and writes, per case,
the inputs and GNU Radio's outputs into the directory given as the only
argument. The Rust test `gr_tagged_modes.rs` feeds the same inputs to
rfgraph's blocks of the same name and compares.

Files per case:
  <case>.in         raw input bytes
  <case>.in_tags    its tags, one per line: offset, key, integer value
  <case>.out        raw output bytes
  <case>.out_tags   its tags, as <case>.in_tags
(the channel cases write tags only: their samples are random).
"""

import os
import sys

import numpy as np
import pmt
from gnuradio import blocks, channels, gr

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(2718)
LEN = "packet_len"

# case: k, l, endianness, align_output, packet lengths, extra tag offsets
CASES = {
    "k8_l2_lsb": (8, 2, gr.GR_LSB_FIRST, False, [100, 1, 7, 100, 33], [3, 150]),
    "k2_l8_lsb_aligned": (2, 8, gr.GR_LSB_FIRST, True, [400, 4, 9, 3, 400, 17], []),
    "k2_l8_lsb": (2, 8, gr.GR_LSB_FIRST, False, [400, 4, 9, 3, 17], []),
    "k8_l3_msb": (8, 3, gr.GR_MSB_FIRST, False, [5, 1, 12, 64], []),
    "k3_l8_msb_aligned": (3, 8, gr.GR_MSB_FIRST, True, [3, 5, 11, 8, 21, 6], []),
    "k3_l8_lsb": (3, 8, gr.GR_LSB_FIRST, False, [3, 5, 11, 8, 21], []),
    "k1_l8_msb": (1, 8, gr.GR_MSB_FIRST, False, [8, 13, 1, 64], []),
    "k8_l1_lsb": (8, 1, gr.GR_LSB_FIRST, False, [2, 1, 9], []),
}


def tag(offset, key, value):
    t = gr.tag_t()
    t.offset = offset
    t.key = pmt.intern(key)
    t.value = pmt.from_long(value)
    return t


def write_tags(path, tags):
    with open(path, "w") as f:
        for t in tags:
            f.write("%d\t%s\t%d\n" % (t.offset, pmt.symbol_to_string(t.key), pmt.to_long(t.value)))


for case, (k, l, order, align, lens, extra) in CASES.items():
    data, tags, at = [], [], 0
    for n in lens:
        tags.append(tag(at, LEN, n))
        data += [int(x) for x in rng.integers(0, 1 << k, n)]
        at += n
    tags += [tag(o, "mark", i) for i, o in enumerate(extra)]
    tb = gr.top_block()
    src = blocks.vector_source_b(data, False, 1, tags)
    dut = blocks.repack_bits_bb(k, l, LEN, align, order)
    sink = blocks.vector_sink_b()
    tb.connect(src, dut, sink)
    tb.run()
    np.asarray(data, dtype=np.uint8).tofile(os.path.join(out_dir, case + ".in"))
    write_tags(os.path.join(out_dir, case + ".in_tags"), tags)
    np.asarray(sink.data(), dtype=np.uint8).tofile(os.path.join(out_dir, case + ".out"))
    write_tags(os.path.join(out_dir, case + ".out_tags"), sink.tags())

# channel_model: tags pass (block_tags=False) or are dropped (True).
for case, block in (("channel_tags", False), ("channel_block_tags", True)):
    data = [complex(x) for x in rng.standard_normal(64)]
    tags = [tag(0, LEN, 64), tag(10, "mark", 1)]
    tb = gr.top_block()
    src = blocks.vector_source_c(data, False, 1, tags)
    dut = channels.channel_model(0.0, 0.0, 1.0, [1.0 + 1.0j], 0, block)
    sink = blocks.vector_sink_c()
    tb.connect(src, dut, sink)
    tb.run()
    write_tags(os.path.join(out_dir, case + ".in_tags"), tags)
    write_tags(os.path.join(out_dir, case + ".out_tags"), sink.tags())
