#!/usr/bin/python3
"""Runs GNU Radio 3.10's OFDM blocks on fixed inputs and writes each case
into the directory given as the only argument: `<case>.in` (raw
little-endian items), `<case>.out` (or `<case>.out0`, `<case>.out1`) and
`<case>.json` (the rfgraph block's parameters, the input tags and GNU
Radio's output tags, offsets in items of the flat stream). The Rust test
`gr_ofdm.rs` runs the rfgraph block of the same name on the same input
and compares."""

import json
import os
import sys

import numpy as np
import pmt
from gnuradio import blocks, digital, gr
from gnuradio.digital import ofdm_txrx as txrx

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(2024)

FFT, CP = txrx._def_fft_len, txrx._def_cp_len
OCC = [list(s) for s in txrx._def_occupied_carriers]
PILOTS = [list(s) for s in txrx._def_pilot_carriers]
PILOT_SYMS = [list(s) for s in txrx._def_pilot_symbols]
SW1 = [complex(x) for x in txrx._make_sync_word1(FFT, txrx._def_occupied_carriers, txrx._def_pilot_carriers)]
SW2 = [complex(x) for x in txrx._make_sync_word2(FFT, txrx._def_occupied_carriers, txrx._def_pilot_carriers)]


def cjson(values):
    """Complex numbers as [re, im] pairs."""
    return [[float(np.float32(v.real)), float(np.float32(v.imag))] for v in values]


def value_json(v):
    if pmt.is_c32vector(v):
        return {"c32": cjson(pmt.c32vector_elements(v))}
    if pmt.is_integer(v):
        return pmt.to_long(v)
    if pmt.is_real(v):
        return pmt.to_double(v)
    if pmt.is_symbol(v):
        return {"str": pmt.symbol_to_string(v)}
    raise ValueError(v)


def pmt_of(v):
    if isinstance(v, (list, tuple)):
        return pmt.init_c32vector(len(v), [complex(x) for x in v])
    if isinstance(v, int):
        return pmt.from_long(v)
    return pmt.intern(v)


def src_tags(tags, vlen):
    """(vector offset, key, value) → GNU Radio tags; and their JSON."""
    gr_tags = [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt_of(v), pmt.intern("src")))
               for o, k, v in tags]
    return gr_tags, [[o * vlen, k, value_json(pmt_of(v))] for o, k, v in tags]


def sink_tags(sink, vlen):
    out = [[t.offset * vlen, pmt.symbol_to_string(t.key), value_json(t.value)] for t in sink.tags()]
    return sorted(out, key=lambda t: (t[0], t[1]))


def write(case, data, params, in_tags, outputs, extra=None):
    np.asarray(data).tofile(os.path.join(out_dir, case + ".in"))
    meta = {"params": params, "in_tags": in_tags}
    for name, (values, tags) in outputs.items():
        np.asarray(values).tofile(os.path.join(out_dir, case + "." + name))
        meta[name + "_tags"] = tags
    meta.update(extra or {})
    with open(os.path.join(out_dir, case + ".json"), "w") as f:
        json.dump(meta, f)


def run_c(case, block, data, in_vlen, out_vlen, tags, params):
    """One complex input, one complex output."""
    data = np.asarray(data, dtype=np.complex64)
    gr_tags, tags_json = src_tags(tags, in_vlen)
    tb = gr.top_block()
    src = blocks.vector_source_c(data.tolist(), False, in_vlen, gr_tags)
    snk = blocks.vector_sink_c(out_vlen)
    tb.connect(src, block, snk)
    tb.run()
    out = np.asarray(snk.data(), dtype=np.complex64)
    write(case, data, params, tags_json, {"out": (out, sink_tags(snk, out_vlen))})


def noise(n):
    return (rng.normal(size=n) + 1j * rng.normal(size=n)).astype(np.complex64)


def frames(lengths, vlen, key, extra):
    """Random items in frames of `lengths` vectors with length tags `key`
    (none for an empty key) and the extra tags (frame, vector, key, value)."""
    tags, at = [], 0
    starts = []
    for n in lengths:
        starts.append(at)
        if key:
            tags.append((at, key, n))
        at += n
    for f, v, k, val in extra:
        tags.append((starts[f] + v, k, val))
    return noise(at * vlen), tags


# --- cyclic prefixer -------------------------------------------------------
extra = [(0, 0, "first", 1), (1, 1, "foo", 7), (2, 1, "bar", -3), (3, 4, "last", 5)]
data, tags = frames([1, 3, 2, 5, 1], FFT, "packet_length", extra)
for case, cp, rolloff in [("cp_txrx", CP, 0), ("cp_rolloff", CP, 4), ("cp_list", [16, 12, 20], 6)]:
    size = cp if isinstance(cp, list) else FFT + cp
    run_c(case, digital.ofdm_cyclic_prefixer(FFT, size, rolloff, "packet_length"), data, FFT, 1, tags,
          {"fft_len": FFT, "cp_len": cp, "rolloff": rolloff, "len_tag_key": "packet_length"})
data, _ = frames([40], FFT, "", [])
for case, cp, rolloff in [("cp_stream", CP, 4), ("cp_stream_list", [16, 12], 0)]:
    size = cp if isinstance(cp, list) else FFT + cp
    run_c(case, digital.ofdm_cyclic_prefixer(FFT, size, rolloff, ""), data, FFT, 1, [],
          {"fft_len": FFT, "cp_len": cp, "rolloff": rolloff, "len_tag_key": ""})

# --- carrier allocator -----------------------------------------------------
qpsk = np.array([1 + 1j, -1 + 1j, 1 - 1j, -1 - 1j], dtype=np.complex64) / np.sqrt(2)
lengths = [48, 96, 100, 1, 47, 200]
extra = [(0, 0, "first", 1), (1, 50, "mid", 2), (2, 99, "end", 3), (5, 130, "late", 4)]
_, tags = frames(lengths, 1, "packet_length", extra)
data = qpsk[rng.integers(0, 4, sum(lengths))]
txrx_alloc = {"fft_len": FFT, "occupied_carriers": OCC, "pilot_carriers": PILOTS,
              "pilot_symbols": [cjson(s) for s in PILOT_SYMS], "sync_words": [cjson(SW1), cjson(SW2)],
              "len_tag_key": "packet_length", "output_is_shifted": True}
run_c("alloc_txrx", digital.ofdm_carrier_allocator_cvc(
    FFT, OCC, PILOTS, PILOT_SYMS, [SW1, SW2], "packet_length", True), data, 1, FFT, tags, txrx_alloc)
# The registry's defaults are ofdm_txrx.py's: only the key is given.
run_c("alloc_defaults", digital.ofdm_carrier_allocator_cvc(
    FFT, OCC, PILOTS, PILOT_SYMS, [SW1, SW2], "packet_length", True), data, 1, FFT, tags,
    {"len_tag_key": "packet_length"})
occ16 = [[1, 2, 3, -1, -2], [4, 5, -4, -5, 16 - 8]]
pil16 = [[0], [6, -6]]
psym16 = [[1j], [1, -1], [2 - 1j], [3, -3j]]
lengths = [10, 3, 17]
_, tags = frames(lengths, 1, "len", [(2, 16, "x", 9)])
data = noise(sum(lengths))
run_c("alloc_unshifted", digital.ofdm_carrier_allocator_cvc(16, occ16, pil16, psym16, [], "len", False),
      data, 1, 16, tags,
      {"fft_len": 16, "occupied_carriers": occ16, "pilot_carriers": pil16,
       "pilot_symbols": [cjson(s) for s in psym16], "sync_words": [], "len_tag_key": "len",
       "output_is_shifted": False})
sync16 = [list(noise(16)), list(noise(16))]
run_c("alloc_shifted16", digital.ofdm_carrier_allocator_cvc(16, occ16, pil16, psym16, sync16, "len", True),
      data, 1, 16, tags,
      {"fft_len": 16, "occupied_carriers": occ16, "pilot_carriers": pil16,
       "pilot_symbols": [cjson(s) for s in psym16], "sync_words": [cjson(s) for s in sync16],
       "len_tag_key": "len"})

# --- serializer ------------------------------------------------------------
extra = [(0, 0, "first", 1), (1, 1, "foo", 7), (2, 2, "bar", -3)]
data, tags = frames([1, 3, 2, 1], FFT, "frame_length", extra)
run_c("ser_header", digital.ofdm_serializer_vcc(FFT, OCC, "frame_length"), data, FFT, 1, tags,
      {"fft_len": FFT, "occupied_carriers": OCC, "len_tag_key": "frame_length"})
extra = [(0, 0, "packet_length", 150), (1, 0, "packet_length", 96), (2, 0, "packet_length", 500),
         (0, 2, "foo", 4)]
data, tags = frames([4, 2, 3, 2], FFT, "frame_length", extra)
run_c("ser_payload", digital.ofdm_serializer_vcc(FFT, OCC, "frame_length", "packet_length", 1), data, FFT, 1,
      tags, {"fft_len": FFT, "occupied_carriers": OCC, "len_tag_key": "frame_length",
             "packet_len_tag_key": "packet_length", "symbols_skipped": 1})
occ16s = [[1, 2, 3, -1, -2], [4, 5, -4, -5], [7]]
# Carrier offsets that keep every read inside its frame (GNU Radio reads
# the neighbouring frame's items past them, rfgraph zeros).
extra = [(0, 0, "coff", -2), (1, 0, "coff", -3), (2, 0, "coff", 2), (2, 1, "coff", 6), (3, 0, "plen", 7)]
data, tags = frames([3, 2, 4, 3], 16, "len", extra)
for shifted in [True, False]:
    run_c("ser_offset_" + ("shifted" if shifted else "unshifted"),
          digital.ofdm_serializer_vcc(16, occ16s, "len", "plen", 4, "coff", shifted), data, 16, 1, tags,
          {"fft_len": 16, "occupied_carriers": occ16s, "len_tag_key": "len", "packet_len_tag_key": "plen",
           "symbols_skipped": 4, "carr_offset_key": "coff", "input_is_shifted": shifted})
# GNU Radio's serializer without a length key never finishes (its frame
# length comes from the output room, not the input), so the stream form
# is tested against the frame form in gr_ofdm.rs.

# --- Schmidl & Cox synchronisation -----------------------------------------
def ofdm_bursts(payloads, gap, freq, noise_amp):
    """ofdm_txrx.py's transmitter on `payloads` (lists of bytes), the
    bursts apart by `gap` items of noise, a carrier offset `freq`
    (cycles per item) and noise; the burst starts."""
    tags, data = [], []
    for p in payloads:
        tags.append(gr.tag_utils.python_to_tag((len(data), pmt.intern("packet_len"),
                                                pmt.from_long(len(p)), pmt.intern("src"))))
        data += p
    tb = gr.top_block()
    src = blocks.vector_source_b(data, False, 1, tags)
    tx = digital.ofdm_tx(packet_length_tag_key="packet_len")
    snk = blocks.vector_sink_c()
    tb.connect(src, tx, snk)
    tb.run()
    sig = np.asarray(snk.data(), dtype=np.complex64)
    bounds = sorted(t.offset for t in snk.tags() if pmt.symbol_to_string(t.key) == "packet_len")
    bounds.append(len(sig))
    parts, starts = [noise(gap) * noise_amp], []
    for a, b in zip(bounds[:-1], bounds[1:]):
        starts.append(sum(len(x) for x in parts))
        parts += [sig[a:b], noise(gap) * noise_amp]
    out = np.concatenate(parts)
    out = out * np.exp(2j * np.pi * freq * np.arange(len(out)))
    return (out + noise(len(out)) * noise_amp).astype(np.complex64), starts


payloads = [list(rng.integers(0, 256, n)) for n in (20, 96, 7)]
bursts, starts = ofdm_bursts(payloads, 300, 0.3 / FFT, 0.02)


def run_sync(case, data, fft, cp, even, threshold):
    tb = gr.top_block()
    src = blocks.vector_source_c(data.tolist(), False)
    sync = digital.ofdm_sync_sc_cfb(fft, cp, even, threshold)
    freq, detect = blocks.vector_sink_f(), blocks.vector_sink_b()
    tb.connect(src, sync)
    tb.connect((sync, 0), freq)
    tb.connect((sync, 1), detect)
    tb.run()
    write(case, data, {"fft_len": fft, "cp_len": cp, "use_even_carriers": even, "threshold": threshold},
          [], {"out0": (np.asarray(freq.data(), dtype=np.float32), []),
               "out1": (np.asarray(detect.data(), dtype=np.uint8), [])},
          {"starts": starts})


run_sync("sync_txrx", bursts, FFT, CP, False, 0.9)
run_sync("sync_low_threshold", bursts, FFT, CP, False, 0.5)
run_sync("sync_even", bursts, FFT, CP, True, 0.9)


# --- channel estimation ----------------------------------------------------
def channel(n, seed):
    k = np.arange(n)
    return ((1 + 0.3 * np.cos(k * 0.2 + seed)) * np.exp(1j * (0.05 * k + seed))).astype(np.complex64)


def chanest_frames(words, offsets, n_data, noise_amp):
    """Frames: the sync `words` rolled by each carrier offset, through a
    channel, then `n_data` random symbols; tags on each frame's first
    two symbols and first data symbol."""
    data, tags, at = [], [], 0
    for f, off in enumerate(offsets):
        h = channel(FFT, f)
        for w in words:
            data.append(np.roll(np.asarray(w, dtype=np.complex64), off) * h)
        for _ in range(n_data):
            data.append(noise(FFT))
        tags += [(at, "frame", f), (at + len(words) - 1, "sync_end", f), (at + len(words), "data", f)]
        at += len(words) + n_data
    x = np.concatenate(data)
    return (x + noise(len(x)) * noise_amp).astype(np.complex64), tags


def run_chanest(case, data, tags, params, taps_output=False):
    p = dict(params)
    block = digital.ofdm_chanest_vcvc(p["sync_symbol1"], p.get("sync_symbol2", []), p["n_data_symbols"], 0,
                                      p.get("max_carr_offset", -1), p.get("force_one_symbol", False))
    gr_tags, tags_json = src_tags(tags, FFT)
    tb = gr.top_block()
    src = blocks.vector_source_c(data.tolist(), False, FFT, gr_tags)
    snk = blocks.vector_sink_c(FFT)
    tb.connect(src, block, snk)
    outputs = {}
    if taps_output:
        taps = blocks.vector_sink_c(FFT)
        tb.connect((block, 1), taps)
    tb.run()
    outputs["out"] = (np.asarray(snk.data(), dtype=np.complex64), sink_tags(snk, FFT))
    if taps_output:
        outputs["taps"] = (np.asarray(taps.data(), dtype=np.complex64), [])
    p["sync_symbol1"] = cjson(p["sync_symbol1"])
    p["sync_symbol2"] = cjson(p.get("sync_symbol2", []))
    write(case, data, p, tags_json, outputs)


offsets = [0, 2, -4, 6, -2]
data, tags = chanest_frames([SW1, SW2], offsets, 1, 0.01)
run_chanest("chanest_txrx", data, tags, {"sync_symbol1": SW1, "sync_symbol2": SW2, "n_data_symbols": 1},
            taps_output=True)
run_chanest("chanest_max_offset", data, tags,
            {"sync_symbol1": SW1, "sync_symbol2": SW2, "n_data_symbols": 1, "max_carr_offset": 3})
data, tags = chanest_frames([SW1], offsets, 3, 0.01)
run_chanest("chanest_one_symbol", data, tags, {"sync_symbol1": SW1, "n_data_symbols": 3})
data, tags = chanest_frames([SW2], offsets, 2, 0.01)
run_chanest("chanest_one_full_symbol", data, tags, {"sync_symbol1": SW2, "n_data_symbols": 2})
data, tags = chanest_frames([SW1], offsets, 1, 0.01)
run_chanest("chanest_forced", data, tags,
            {"sync_symbol1": SW1, "sync_symbol2": SW2, "n_data_symbols": 1, "force_one_symbol": True})


# --- frame equalizer -------------------------------------------------------
def eq_frames(lengths, offsets, with_taps, points, extra_tags=True):
    """Frames of the allocator's symbols (ofdm_txrx.py's carriers, one set
    of pilots) through a channel, moved by a carrier offset and turned by
    the phase it adds over each prefix; tags: the length, the offset, the
    channel taps (when `with_taps`) and one more."""
    data, tags, at = [], [], 0
    alloc = None
    for f, (n, off) in enumerate(zip(lengths, offsets)):
        syms = points[rng.integers(0, len(points), n * len(OCC[0]))]
        tb = gr.top_block()
        src = blocks.vector_source_c(syms.tolist(), False, 1, [
            gr.tag_utils.python_to_tag((0, pmt.intern("packet_len"), pmt.from_long(len(syms)), pmt.intern("s")))])
        alloc = digital.ofdm_carrier_allocator_cvc(FFT, OCC, PILOTS, [PILOT_SYMS[0]], [], "packet_len", True)
        snk = blocks.vector_sink_c(FFT)
        tb.connect(src, alloc, snk)
        tb.run()
        frame = np.asarray(snk.data(), dtype=np.complex64).reshape(-1, FFT)
        h = channel(FFT, f)
        for i in range(len(frame)):
            turn = np.exp(2j * np.pi * off * CP / FFT * (i + 1))
            data.append(np.roll(frame[i] * h, off) * turn)
        tags.append((at, "frame_len", len(frame)))
        if off:
            tags.append((at, "ofdm_sync_carr_offset", off))
        if with_taps:
            tags.append((at, "ofdm_sync_chan_taps", list(h * (1 + 0.01 * noise(FFT)))))
        if extra_tags:
            tags.append((at + len(frame) - 1, "last", f))
        at += len(frame)
    x = np.concatenate(data)
    return (x + noise(len(x)) * 0.02).astype(np.complex64), tags


def run_eq(case, data, tags, eq, block_args, params):
    run_c(case, digital.ofdm_frame_equalizer_vcvc(eq.base(), *block_args), data, FFT, FFT, tags, params)


bpsk_pts = np.array([-1, 1], dtype=np.complex64)
qpsk_pts = np.array(digital.constellation_qpsk().points(), dtype=np.complex64)
txrx_eq = {"fft_len": FFT, "constellation": "bpsk", "occupied_carriers": OCC,
           "pilot_carriers": PILOTS, "pilot_symbols": [cjson(s) for s in PILOT_SYMS]}
data, tags = eq_frames([3, 5, 1, 4], [0, 2, -2, 4], True, bpsk_pts)
run_eq("eq_simpledfe", data, tags,
       digital.ofdm_equalizer_simpledfe(FFT, digital.constellation_bpsk().base(), OCC, PILOTS, PILOT_SYMS),
       (CP, "frame_len", True),
       dict(txrx_eq, equalizer="simpledfe", constellation="bpsk", cp_len=CP, len_tag_key="frame_len",
            propagate_channel_state=True))
data, tags = eq_frames([4, 2, 3], [-2, 0, 6], True, qpsk_pts)
run_eq("eq_simpledfe_qpsk", data, tags,
       digital.ofdm_equalizer_simpledfe(FFT, digital.constellation_qpsk().base(), OCC, PILOTS, PILOT_SYMS, 1,
                                        0.3, True, False),
       (CP, "frame_len"),
       dict(txrx_eq, equalizer="simpledfe", constellation="qpsk", symbols_skipped=1, alpha=0.3, cp_len=CP,
            len_tag_key="frame_len"))
run_eq("eq_simpledfe_soft", data, tags,
       digital.ofdm_equalizer_simpledfe(FFT, digital.constellation_qpsk().base(), OCC, PILOTS, PILOT_SYMS, 0,
                                        0.1, True, True),
       (CP, "frame_len", True),
       dict(txrx_eq, equalizer="simpledfe", constellation="qpsk", enable_soft_output=True, cp_len=CP,
            len_tag_key="frame_len", propagate_channel_state=True))
# The static equalizer keeps the channel state from frame to frame when
# no taps come.
data, tags = eq_frames([3, 4, 2], [0, -4, 2], False, qpsk_pts)
run_eq("eq_static", data, tags, digital.ofdm_equalizer_static(FFT, OCC, PILOTS, PILOT_SYMS),
       (CP, "frame_len", True),
       dict(txrx_eq, equalizer="static", cp_len=CP, len_tag_key="frame_len", propagate_channel_state=True))
data, tags = eq_frames([2, 2, 2, 2], [0, 0, 0, 0], True, bpsk_pts)
run_eq("eq_fixed", data, [t for t in tags if t[1] != "frame_len"],
       digital.ofdm_equalizer_static(FFT, OCC, PILOTS, PILOT_SYMS, 1, True),
       (CP, "", False, 2),
       dict(txrx_eq, equalizer="static", symbols_skipped=1, cp_len=CP, len_tag_key="", fixed_frame_len=2))
run_eq("eq_fixed_tsb", data, tags,
       digital.ofdm_equalizer_simpledfe(FFT, digital.constellation_bpsk().base(), OCC, PILOTS, PILOT_SYMS),
       (CP, "frame_len", False, 2),
       dict(txrx_eq, equalizer="simpledfe", cp_len=CP, len_tag_key="frame_len", fixed_frame_len=2))


# --- header/payload demux --------------------------------------------------
class Responder(gr.sync_block):
    """Answers every header that arrives (`per_header` items) with the next
    message, as the header parser of ofdm_txrx.py's receiver does."""

    def __init__(self, vlen, per_header, messages):
        gr.sync_block.__init__(self, "responder", in_sig=[(np.complex64, vlen)] if vlen > 1 else [np.complex64],
                               out_sig=None)
        self.message_port_register_out(pmt.intern("out"))
        self.per_header, self.messages, self.seen, self.sent = per_header, messages, 0, 0

    def work(self, input_items, output_items):
        self.seen += len(input_items[0])
        while self.sent < len(self.messages) and self.seen >= (self.sent + 1) * self.per_header:
            self.message_port_pub(pmt.intern("out"), self.messages[self.sent])
            self.sent += 1
        return len(input_items[0])


def message(m):
    """A message from its JSON form."""
    if m is False:
        return pmt.PMT_F
    if isinstance(m, int):
        return pmt.from_long(m)
    d = pmt.make_dict()
    for k, v in m.items():
        d = pmt.dict_add(d, pmt.intern(k), pmt.from_long(v))
    return d


def run_hpd(case, n, bursts, triggers_in, tags, messages, params):
    """`bursts`: item offsets of the triggers (as trigger items, or tags)."""
    p = params
    ips, gi, pad = p["items_per_symbol"], p["guard_interval"], p["header_padding"]
    hpd = digital.header_payload_demux(p["header_len"], ips, gi, p["length_tag_key"], p["trigger_tag_key"],
                                       p["output_symbols"], gr.sizeof_gr_complex, p["timing_tag_key"],
                                       p["samp_rate"], p["special_tags"], pad)
    vlen = ips if p["output_symbols"] else 1
    header_items = (p["header_len"] + 2 * (pad // ips)) * ips + 2 * (pad % ips)
    responder = Responder(vlen, header_items // vlen, [message(m) for m in messages])
    data = noise(n)
    gr_tags = []
    for o, k, v in tags:
        value = pmt.make_tuple(pmt.from_uint64(v[0]), pmt.from_double(v[1])) if isinstance(v, tuple) else pmt_of(v)
        gr_tags.append(gr.tag_utils.python_to_tag((o, pmt.intern(k), value, pmt.intern("src"))))
    tb = gr.top_block()
    src = blocks.vector_source_c(data.tolist(), False, 1, gr_tags)
    hdr, pay = blocks.vector_sink_c(vlen), blocks.vector_sink_c(vlen)
    tb.connect(src, (hpd, 0))
    trig = np.zeros(n, dtype=np.uint8)
    if triggers_in:
        trig[bursts] = 1
        tb.connect(blocks.vector_source_b(trig.tolist(), False), (hpd, 1))
    tb.connect((hpd, 0), hdr)
    tb.connect((hpd, 0), responder)
    tb.connect((hpd, 1), pay)
    tb.msg_connect(responder, "out", hpd, "header_data")
    tb.run()

    def tag_json(t):
        v = t.value
        if pmt.is_tuple(v):
            return [t.offset * vlen, pmt.symbol_to_string(t.key),
                    {"time": [pmt.to_uint64(pmt.tuple_ref(v, 0)), pmt.to_double(pmt.tuple_ref(v, 1))]}]
        return [t.offset * vlen, pmt.symbol_to_string(t.key), value_json(v)]

    in_tags = [[o, k, {"time": list(v)} if isinstance(v, tuple) else value_json(pmt_of(v))] for o, k, v in tags]
    write(case, data, dict(p, type="c32"), in_tags,
          {"out_hdr": (np.asarray(hdr.data(), dtype=np.complex64),
                       sorted((tag_json(t) for t in hdr.tags()), key=lambda t: (t[0], t[1]))),
           "out_payload": (np.asarray(pay.data(), dtype=np.complex64),
                           sorted((tag_json(t) for t in pay.tags()), key=lambda t: (t[0], t[1])))},
          {"messages": messages, "trigger": trig.tolist() if triggers_in else None})


hpd_ofdm = {"header_len": 3, "items_per_symbol": FFT, "guard_interval": CP, "length_tag_key": "frame_length",
            "trigger_tag_key": "", "output_symbols": True, "timing_tag_key": "rx_time", "samp_rate": 1000.0,
            "special_tags": ["foo"], "header_padding": 0}
bursts = [100, 1200, 2000, 3000]
run_hpd("hpd_ofdm", 4200, bursts, True,
        [(0, "rx_time", (100, 0.5)), (50, "foo", 1), (1100, "foo", 2), (1210, "inside", 3), (1500, "pay", 4),
         (2990, "rx_time", (200, 0.25))],
        [4, False, 2, {"frame_length": 3, "extra": 9}], hpd_ofdm)
hpd_items = {"header_len": 2, "items_per_symbol": 4, "guard_interval": 0, "length_tag_key": "len",
             "trigger_tag_key": "trig", "output_symbols": False, "timing_tag_key": "", "samp_rate": 1.0,
             "special_tags": [], "header_padding": 2}
bursts = [20, 60, 100]
run_hpd("hpd_items", 160, bursts, False,
        [(20, "trig", 1), (24, "x", 5), (60, "trig", 1), (70, "y", 6), (100, "trig", 1), (110, "z", 7)],
        [{"len": 6, "payload_offset": -1}, 3, {"len": 5, "payload_offset": 2}], hpd_items)
hpd_gi = {"header_len": 2, "items_per_symbol": 8, "guard_interval": 2, "length_tag_key": "len",
          "trigger_tag_key": "", "output_symbols": False, "timing_tag_key": "", "samp_rate": 1.0,
          "special_tags": [], "header_padding": 0}
bursts = [10, 100]
run_hpd("hpd_gi_items", 200, bursts, True, [(13, "a", 1), (35, "b", 2), (41, "c", 3), (125, "d", 4)],
        [3, 2], hpd_gi)
