#!/usr/bin/python3
"""Runs GNU Radio 3.10's `blocks.var_to_msg_pair` (GRC's
`blocks_var_to_msg`): its `variable_changed` callback called with an
int, a float, a bool and a str, each message it posts stored by a message
debug block, and written as one line `name<TAB>type<TAB>value` per
message into `messages.txt` in the directory given as the only argument.
The Rust test `gr_var_to_msg.rs` sets the same values on rfgraph's
`var_to_msg` and compares."""

import os
import sys
import time

import pmt
from gnuradio import blocks, gr

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)

tb = gr.top_block()
src = blocks.var_to_msg_pair("freq")
dbg = blocks.message_debug()
tb.msg_connect((src, "msgout"), (dbg, "store"))
tb.start()
for value in [3, 2.5, True, "abc", -7]:
    src.variable_changed(value)
deadline = time.time() + 10
while dbg.num_messages() < 5 and time.time() < deadline:
    time.sleep(0.01)
tb.stop()
tb.wait()


def kind(p):
    if pmt.is_bool(p):
        return "bool", str(pmt.to_bool(p))
    if pmt.is_integer(p):
        return "long", str(pmt.to_long(p))
    if pmt.is_real(p):
        return "double", repr(pmt.to_double(p))
    if pmt.is_symbol(p):
        return "symbol", pmt.symbol_to_string(p)
    return "other", pmt.write_string(p)


with open(os.path.join(out_dir, "messages.txt"), "w") as f:
    for i in range(dbg.num_messages()):
        m = dbg.get_message(i)
        assert pmt.is_pair(m)
        t, v = kind(pmt.cdr(m))
        f.write("%s\t%s\t%s\n" % (pmt.symbol_to_string(pmt.car(m)), t, v))
