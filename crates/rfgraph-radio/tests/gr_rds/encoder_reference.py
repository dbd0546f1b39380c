#!/usr/bin/python3
"""Writes gr-rds's RDS group stream as reference data for rfgraph's
decoder, and what gr-rds's own decoder and parser make of it.

Usage: encoder_reference.py BITS_FILE EXPECTED_JSON [NBITS]

The encoder (rds.encoder, gr-rds's independent implementation) sends PI
0xD393 (country 13, area 3, reference 147), PS "WDR 3", RadioText "GNU
Radio <3", PTY 14, TP on, TA off, music, one AF (89.8 MHz): its groups
0A, 2A, 4A (clock time: the moment the script runs), 8A (TMC) and others.

BITS_FILE gets the first NBITS (default 12480: 120 groups, 10.5 s) data
bits, before differential encoding, as '0'/'1' text, 104 to a line (one
group's worth; the stream starts at a group boundary). EXPECTED_JSON gets
{"pi", "ps", "rt", "pty", "tp", "ta", "ms"} as gr-rds's parser decoded
them from those bits (rds.decoder then rds.parser). Needs GNU Radio 3.10
and gr-rds for /usr/bin/python3.
"""

import json
import sys
import time

import pmt
import rds
from gnuradio import blocks, gr


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    nbits = int(sys.argv[3]) if len(sys.argv) == 4 else 12480
    enc = rds.encoder(0, 14, True, "WDR 3", 89.8e6, True, False, 13, 3, 147, "GNU Radio <3")
    head = blocks.head(gr.sizeof_char, nbits)
    sink = blocks.vector_sink_b()
    tb = gr.top_block()
    tb.connect(enc, head, sink)
    tb.run()
    bits = list(sink.data())

    # What gr-rds's own decoder makes of them.
    src = blocks.vector_source_b(bits, False)
    dec = rds.decoder(False, False)
    par = rds.parser(False, False, 0)
    store = blocks.message_debug()
    tb = gr.top_block()
    tb.connect(src, dec)
    tb.msg_connect(dec, "out", par, "in")
    tb.msg_connect(par, "out", store, "store")
    tb.run()
    time.sleep(0.5)
    found = {}
    for i in range(store.num_messages()):
        kind, text = pmt.to_python(store.get_message(i))
        if kind == 0:
            found["pi"] = "0x" + text.upper()
        elif kind == 1 and "." not in text:
            found["ps"] = text
        elif kind == 2:
            found["pty_name"] = text
        elif kind == 3:
            # TP, TA, MuSp, then DI bits in gr-rds's own order.
            found["tp"] = text[0] == "1"
            found["ta"] = text[1] == "1"
            found["ms"] = text[2] == "1"
        elif kind == 4:
            found["rt"] = text.split("\r")[0].rstrip(" ")
    found["pty"] = 14

    with open(sys.argv[1], "w") as f:
        for i in range(0, len(bits), 104):
            f.write("".join(str(b) for b in bits[i : i + 104]) + "\n")
    with open(sys.argv[2], "w") as f:
        json.dump(found, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
