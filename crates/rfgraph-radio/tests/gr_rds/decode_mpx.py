#!/usr/bin/python3
"""Decodes RDS with gr-rds, an implementation independent of rfgraph's,
and prints what it found as one JSON object.

Usage: decode_mpx.py MPX_FILE RATE
       decode_mpx.py --sigmf META
  MPX_FILE: raw little-endian float32 samples of the multiplex (the FM
            demodulator's output; any scale);
  RATE:     its sample rate in Hz (at least 128000);
  META:     a SigMF recording (`cu8`) of the station on its centre
            frequency, demodulated here by GNU Radio (bytes to complex,
            then its quadrature demodulator), so that nothing of
            rfgraph's touches the samples.

The receiver is gr-rds's own example chain (examples/rds_rx.grc): the 57
kHz subcarrier moved to 0 Hz and low-passed, resampled to 19 kHz, a
root-raised-cosine matched filter decimating to 9.5 kHz (4 samples per
biphase half-symbol), GNU Radio's BPSK demodulator (AGC, FLL, clock
recovery, Costas loop), one half-symbol in two, differential decoding,
then rds.decoder (block sync, group assembly) and rds.parser.

Output: {"pi": "0xD393" | null, "ps": "WDR 3   " | null,
         "rt": "text before the carriage return, trailing spaces trimmed" | null,
         "groups": number of parser messages,
         "pty": the programme type's name as the parser gives it | null,
         "flags": {"tp", "ta", "ms"} from the parser's last flag
                  string | null,
         "parser_di_by_segment": that string's four DI bits, by the
                  segment address (0-3) that carried them,
         "values": every value pi, ps (complete ones), rt, pty, tp, ta
                   and ms took, in order, each change once,
         "raw": from the decoder's groups (the parser does not report
                them): {"pty": [numbers], "rt_ab": ["A"/"B"], "tp", "ta",
                "ms": [values], "group_types": ["0A", ...],
                "di": {"stereo", "artificial_head", "compressed",
                       "dynamic_pty": [values]} by IEC 62106's segment
                       addresses}}
Exit status 0 once the flowgraph ran, whatever it found.
Needs GNU Radio 3.10 and gr-rds (Debian: gnuradio, gr-rds) for /usr/bin/python3.
"""

import json
import math
import sys
import time

import pmt
import rds
from gnuradio import analog, blocks, digital, filter, gr
from gnuradio.filter import firdes, pfb


def rds_chain(tb, src, rate):
    """gr-rds's receiver from a float multiplex `src` at `rate`: returns
    the parser's and the decoder's message stores."""
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
    groups = blocks.message_debug()
    tb.connect(src, xlate, resample, rrc, psk, keep, diff, decoder)
    tb.msg_connect(decoder, "out", parser, "in")
    tb.msg_connect(parser, "out", store, "store")
    tb.msg_connect(decoder, "out", groups, "store")
    return store, groups


def sigmf_source(tb, meta_path):
    """The recording's cu8 samples, FM-demodulated by GNU Radio: the
    multiplex and its rate."""
    meta = json.load(open(meta_path))
    datatype = meta["global"]["core:datatype"]
    if datatype != "cu8":
        sys.exit(f"{meta_path}: {datatype}, not cu8")
    rate = float(meta["global"]["core:sample_rate"])
    data = meta_path[: -len("-meta")] + "-data"
    src = blocks.file_source(gr.sizeof_char, data, False)
    to_float = blocks.uchar_to_float()
    centre = blocks.add_const_ff(-127.5)
    scale = blocks.multiply_const_ff(1.0 / 127.5)
    iq = blocks.deinterleave(gr.sizeof_float)
    to_complex = blocks.float_to_complex()
    # Output in units of 75 kHz deviation (the scale does not matter).
    demod = analog.quadrature_demod_cf(rate / (2 * math.pi * 75e3))
    tb.connect(src, to_float, centre, scale, iq)
    tb.connect((iq, 0), (to_complex, 0))
    tb.connect((iq, 1), (to_complex, 1))
    tb.connect(to_complex, demod)
    return demod, rate


def distinct(values, v):
    if v is not None and (not values or values[-1] != v):
        values.append(v)


def decode(tb, store, groups):
    tb.run()
    # Messages still in flight after the last samples.
    time.sleep(0.5)
    found = {"pi": None, "ps": None, "rt": None, "groups": store.num_messages(),
             "pty": None, "flags": None}
    values = {k: [] for k in ("pi", "ps", "rt", "pty", "tp", "ta", "ms")}
    for i in range(store.num_messages()):
        kind, text = pmt.to_python(store.get_message(i))
        if kind == 0:
            found["pi"] = "0x" + text.upper()
            distinct(values["pi"], found["pi"])
        elif kind == 1 and "." not in text:
            # A complete PS (gr-rds shows missing characters as dots).
            found["ps"] = text
            distinct(values["ps"], text)
        elif kind == 2:
            found["pty"] = text
            distinct(values["pty"], text)
        elif kind == 3:
            # TP, TA, MuSp, then the four DI bits by segment address
            # 0..3. The parser names them mono/stereo, artificial head,
            # compressed and static PTY in that order, which is IEC
            # 62106's order reversed (segment 0 carries d3, dynamic PTY;
            # segment 3 carries d0, stereo): `raw` gives the DI by the
            # standard, from the decoder's groups.
            found["flags"] = {n: c == "1" for n, c in zip(("tp", "ta", "ms"), text)}
            found["parser_di_by_segment"] = [c == "1" for c in text[3:7]]
            for n in ("tp", "ta", "ms"):
                distinct(values[n], found["flags"][n])
        elif kind == 4:
            found["rt"] = text.split("\r")[0].rstrip(" ")
            distinct(values["rt"], found["rt"])
    found["values"] = values
    found["raw"] = raw_fields(groups)
    return found


def group_words(groups):
    """The decoder's groups as four 16-bit blocks each."""
    out = []
    for i in range(groups.num_messages()):
        blob = pmt.u8vector_elements(pmt.cdr(groups.get_message(i)))
        out.append([blob[2 * k] << 8 | blob[2 * k + 1] for k in range(4)])
    return out


def raw_fields(groups):
    """What the parser does not report, from the decoder's raw groups
    (IEC 62106 block B): PTY as a number, the RadioText A/B flag, and
    TP/TA/MS for comparison with the parser's flag string."""
    raw = {"pty": [], "rt_ab": [], "tp": [], "ta": [], "ms": [], "group_types": [],
           "di": {"stereo": [], "artificial_head": [], "compressed": [], "dynamic_pty": []}}
    # IEC 62106 3.2.1.5: the DI bit of segment address 3 is d0 (stereo),
    # 2 d1 (artificial head), 1 d2 (compressed), 0 d3 (dynamic PTY).
    di_names = ("dynamic_pty", "compressed", "artificial_head", "stereo")
    for g in group_words(groups):
        b = g[1]
        gtype, version = b >> 12, (b >> 11) & 1
        distinct(raw["pty"], (b >> 5) & 0x1F)
        distinct(raw["tp"], bool((b >> 10) & 1))
        name = f"{gtype}{'B' if version else 'A'}"
        if name not in raw["group_types"]:
            raw["group_types"].append(name)
        if gtype == 0:
            distinct(raw["di"][di_names[b & 3]], bool((b >> 2) & 1))
            distinct(raw["ta"], bool((b >> 4) & 1))
            distinct(raw["ms"], bool((b >> 3) & 1))
        if gtype == 2:
            distinct(raw["rt_ab"], "B" if (b >> 4) & 1 else "A")
    return raw


def main():
    tb = gr.top_block()
    if len(sys.argv) == 3 and sys.argv[1] == "--sigmf":
        src, rate = sigmf_source(tb, sys.argv[2])
    elif len(sys.argv) == 3:
        rate = float(sys.argv[2])
        src = blocks.file_source(gr.sizeof_float, sys.argv[1], False)
    else:
        sys.exit(__doc__)
    store, groups = rds_chain(tb, src, rate)
    print(json.dumps(decode(tb, store, groups)))


if __name__ == "__main__":
    main()
