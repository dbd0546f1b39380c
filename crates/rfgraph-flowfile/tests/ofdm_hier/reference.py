#!/usr/bin/python3
"""GNU Radio 3.10's own OFDM loopback for the Rust test ofdm_hier.rs:
digital.ofdm_tx feeding digital.ofdm_rx (as ofdm_loopback.grc, without
its channel: 4000 zero samples after the bursts), on the test's payload
(PACKETS packets of PACKET_LEN bytes, byte i = (37 i + i // 7) % 256).
Prints one line per payload modulation: the modulation, a tab, the
decoded bytes in hex."""

import sys
import time

from gnuradio import blocks, digital, gr

PACKET_LEN, PACKETS = int(sys.argv[1]), int(sys.argv[2])
data = [(i * 37 + i // 7) % 256 for i in range(PACKET_LEN * PACKETS)]
carriers = dict(occupied_carriers=((-4, -3, -2, -1, 1, 2, 3, 4),), pilot_carriers=((-6, -5, 5, 6),),
                pilot_symbols=((-1, 1, -1, 1),))
for name, bps in [("BPSK", 1), ("QPSK", 2)]:
    tb = gr.top_block()
    src = blocks.vector_source_b(data)
    tagger = blocks.stream_to_tagged_stream(gr.sizeof_char, 1, PACKET_LEN, "len")
    tx = digital.ofdm_tx(fft_len=64, cp_len=16, packet_length_tag_key="len", bps_header=1, bps_payload=bps,
                         rolloff=0, **carriers)
    signal = blocks.vector_sink_c()
    tb.connect(src, tagger, tx, signal)
    tb.run()
    tb = gr.top_block()
    src = blocks.vector_source_c(list(signal.data()) + [0] * 4000)
    rx = digital.ofdm_rx(fft_len=64, cp_len=16, frame_length_tag_key="frame_rx_len",
                         packet_length_tag_key="rx_len", bps_header=1, bps_payload=bps, **carriers)
    sink = blocks.vector_sink_b()
    tb.connect(src, rx, sink)
    # The receiver never finishes by itself: stop it once its output rests.
    tb.start()
    last, still = -1, 0
    while still < 10:
        time.sleep(0.1)
        n = len(sink.data())
        still = still + 1 if n == last else 0
        last = n
    tb.stop()
    tb.wait()
    print("%s\t%s" % (name, bytes(sink.data()).hex()))
