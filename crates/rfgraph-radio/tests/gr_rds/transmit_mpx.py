#!/usr/bin/python3
"""Writes an RDS multiplex made entirely by GNU Radio and gr-rds: an
independent transmitter for rfgraph's RDS receiver to decode.

Usage: transmit_mpx.py OUT_FILE SECONDS

The chain is gr-rds's example transmitter (examples/rds_tx.grc) without
the audio: rds.encoder (PI 0xD393, PS "WDR 3", RadioText "GNU Radio <3",
PTY 14, TP, music), differential encoding, biphase symbols (map, unpack,
chunks to ±1), a root-raised-cosine interpolator (2375 half-symbols/s,
roll-off 1) and the 57 kHz carrier made as the third power of a 19 kHz
complex oscillator (the pilot, also added at 10 %). The RDS level is gr-rds's
2 kHz of 75. OUT_FILE gets raw little-endian float32 at 228 kHz (12 × 19
kHz: 96 samples per half-symbol), ±1 = 75 kHz deviation.
"""

import sys

import rds
from gnuradio import analog, blocks, digital, filter, gr
from gnuradio.filter import firdes

RATE = 228000


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    seconds = float(sys.argv[2])
    tb = gr.top_block()
    enc = rds.encoder(0, 14, True, "WDR 3", 89.8e6, True, False, 13, 3, 147, "GNU Radio <3")
    diff = digital.diff_encoder_bb(2, digital.DIFF_DIFFERENTIAL)
    biphase = digital.map_bb([1, 2])
    unpack = blocks.unpack_k_bits_bb(2)
    symbols = digital.chunks_to_symbols_bf([-1, 1], 1)
    sps = RATE // 2375
    rrc = filter.interp_fir_filter_fff(
        sps, firdes.root_raised_cosine(sps, RATE, 2375, 1, sps * 11)
    )
    pilot = analog.sig_source_c(RATE, analog.GR_COS_WAVE, 19000, 1, 0)
    cube = blocks.multiply_cc()
    carrier = blocks.complex_to_imag()
    pilot_imag = blocks.complex_to_imag()
    rds_mix = blocks.multiply_ff()
    rds_gain = blocks.multiply_const_ff(2000 / 75e3)
    pilot_gain = blocks.multiply_const_ff(0.1)
    add = blocks.add_ff()
    head = blocks.head(gr.sizeof_float, int(seconds * RATE))
    sink = blocks.file_sink(gr.sizeof_float, sys.argv[1], False)
    sink.set_unbuffered(False)
    tb.connect(enc, diff, biphase, unpack, symbols, rrc, (rds_mix, 0))
    tb.connect(pilot, (cube, 0))
    tb.connect(pilot, (cube, 1))
    tb.connect(pilot, (cube, 2))
    tb.connect(cube, carrier, (rds_mix, 1))
    tb.connect(rds_mix, rds_gain, (add, 0))
    tb.connect(pilot, pilot_imag, pilot_gain, (add, 1))
    tb.connect(add, head, sink)
    tb.run()


if __name__ == "__main__":
    main()
