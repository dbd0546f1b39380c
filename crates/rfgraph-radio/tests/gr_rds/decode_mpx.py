#!/usr/bin/python3
"""Decodes RDS from an FM multiplex with gr-rds, an implementation
independent of rfgraph's, and prints what it found as one JSON object.

Usage: decode_mpx.py MPX_FILE RATE
  MPX_FILE: raw little-endian float32 samples of the multiplex (the FM
            demodulator's output; any scale);
  RATE:     its sample rate in Hz (at least 128000).

The receiver is gr-rds's own example chain (examples/rds_rx.grc): the 57
kHz subcarrier moved to 0 Hz and low-passed, resampled to 19 kHz, a
root-raised-cosine matched filter decimating to 9.5 kHz (4 samples per
biphase half-symbol), GNU Radio's BPSK demodulator (AGC, FLL, clock
recovery, Costas loop), one half-symbol in two, differential decoding,
then rds.decoder (block sync, group assembly) and rds.parser.

Output: {"pi": "0xD393" | null, "ps": "WDR 3   " | null,
         "rt": "text before the carriage return, trailing spaces trimmed" | null,
         "groups": number of parser messages}
Exit status 0 once the flowgraph ran, whatever it found.
Needs GNU Radio 3.10 and gr-rds (Debian: gnuradio, gr-rds) for /usr/bin/python3.
"""

import json
import sys
import time

import pmt
import rds
from gnuradio import blocks, digital, filter, gr
from gnuradio.filter import firdes, pfb


def decode(path, rate):
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_float, path, False)
    xlate = filter.freq_xlating_fir_filter_fcc(
        1, firdes.low_pass(2500.0, rate, 2.6e3, 2e3), 57e3, rate
    )
    resample = pfb.arb_resampler_ccf(19000.0 / rate, taps=None, flt_size=32)
    rrc = filter.fir_filter_ccf(2, firdes.root_raised_cosine(1, 19000, 2375, 1, 100))
    psk = digital.psk.psk_demod(
        constellation_points=2,
        differential=False,
        samples_per_symbol=4,
        excess_bw=0.35,
        phase_bw=6.28 / 100.0,
        timing_bw=6.28 / 100.0,
        mod_code="gray",
        verbose=False,
        log=False,
    )
    keep = blocks.keep_one_in_n(gr.sizeof_char, 2)
    diff = digital.diff_decoder_bb(2, digital.DIFF_DIFFERENTIAL)
    decoder = rds.decoder(False, False)
    parser = rds.parser(False, False, 0)
    store = blocks.message_debug()
    tb.connect(src, xlate, resample, rrc, psk, keep, diff, decoder)
    tb.msg_connect(decoder, "out", parser, "in")
    tb.msg_connect(parser, "out", store, "store")
    tb.run()
    # Messages still in flight after the last samples.
    time.sleep(0.5)
    found = {"pi": None, "ps": None, "rt": None, "groups": store.num_messages()}
    for i in range(store.num_messages()):
        kind, text = pmt.to_python(store.get_message(i))
        if kind == 0:
            found["pi"] = "0x" + text.upper()
        elif kind == 1 and "." not in text:
            # A complete PS (gr-rds shows missing characters as dots).
            found["ps"] = text
        elif kind == 4:
            found["rt"] = text.split("\r")[0].rstrip(" ")
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    print(json.dumps(decode(sys.argv[1], float(sys.argv[2]))))


if __name__ == "__main__":
    main()
