#!/usr/bin/python3
"""GNU Radio 3.10's metadata file blocks, tagged file sink, burst shaper
and variable-rate tag test block on fixed inputs, for `gr_meta.rs`.

`reference.py DIR` writes into DIR, for each case, its input
(`<case>.in`, raw little-endian items), the case's description in
`cases.json` (stream tags and PMT values as GNU Radio's serialized bytes
in hex, which the Rust side decodes with `gr_pmt`), and GNU Radio's
outputs:

- metadata files: the file GNU Radio's `file_meta_sink` wrote
  (`<case>.gr.dat`, with `.hdr` when detached), and what GNU Radio's
  `file_meta_source` and `parse_file_metadata` read back from it
  (`<case>.gr.read.bin`, `<case>.gr.read.json`);
- the tagged file sink: the files it wrote, in `<case>/`;
- stream blocks: `<case>.out` and `<case>.out.json` (the output tags);
- tags_to_pdu: `<case>.pdus.json` (the PDUs and detections, serialized).

`reference.py DIR read CASE PATH DETACHED TYPE VLEN` reads a metadata
file rfgraph wrote with GNU Radio's `file_meta_source` and
`parse_file_metadata`, into `<CASE>.check.bin` / `<CASE>.check.json`.
"""

import json
import os
import sys
import threading

import numpy as np
import pmt
from gnuradio import blocks, digital, gr, pdu
from gnuradio.blocks import parse_file_metadata as parse

DTYPE = {"complex": np.complex64, "float": np.float32, "int": np.int32,
         "short": np.int16, "byte": np.uint8}
KIND = {"complex": "c32", "float": "f32", "int": "i32", "short": "i16", "byte": "u8"}
GR_TYPE = {"complex": blocks.GR_FILE_FLOAT, "float": blocks.GR_FILE_FLOAT,
           "int": blocks.GR_FILE_INT, "short": blocks.GR_FILE_SHORT,
           "byte": blocks.GR_FILE_BYTE}
SOURCE = {"complex": blocks.vector_source_c, "float": blocks.vector_source_f,
          "int": blocks.vector_source_i, "short": blocks.vector_source_s,
          "byte": blocks.vector_source_b}
SINK = {"complex": blocks.vector_sink_c, "float": blocks.vector_sink_f,
        "int": blocks.vector_sink_i, "short": blocks.vector_sink_s,
        "byte": blocks.vector_sink_b}


def hexpmt(v):
    return pmt.serialize_str(v).hex()


def tag(offset, key, value):
    return gr.tag_utils.python_to_tag((offset, pmt.intern(key), value, pmt.PMT_F))


def tags_json(tags):
    return [[t.offset, pmt.symbol_to_string(t.key), hexpmt(t.value)] for t in tags]


def time(secs, frac):
    return pmt.make_tuple(pmt.from_uint64(secs), pmt.from_double(frac))


def data_of(kind, n, seed):
    rng = np.random.default_rng(seed)
    if kind == "complex":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
    if kind == "float":
        return rng.standard_normal(n).astype(np.float32)
    info = np.iinfo(DTYPE[kind])
    return rng.integers(info.min, info.max, n, endpoint=True).astype(DTYPE[kind])


def item_size(kind, vlen):
    return np.dtype(DTYPE[kind]).itemsize * vlen


def read_meta(path, detached, kind, vlen):
    """What GNU Radio reads from a metadata file: its items and tags
    (through `file_meta_source`) and its headers (`parse_file_metadata`)."""
    tb = gr.top_block()
    src = blocks.file_meta_source(path, False, detached, "")
    snk = SINK[kind](vlen)
    tb.connect(src, snk)
    tb.run()
    items = np.asarray(snk.data(), dtype=DTYPE[kind])
    headers = []
    with open(path + ".hdr" if detached else path, "rb") as f:
        while True:
            raw = f.read(blocks.METADATA_HEADER_SIZE)
            if len(raw) < blocks.METADATA_HEADER_SIZE:
                break
            info = parse.parse_header(pmt.deserialize_str(raw), False)
            extras = {}
            if info["extra_len"] > 0:
                extra = pmt.deserialize_str(f.read(info["extra_len"]))
                base = set(info)
                info = parse.parse_extra_dict(extra, info, False)
                extras = {k: hexpmt(info[k]) for k in info if k not in base}
            headers.append({
                "rx_rate": info["rx_rate"], "secs": info["rx_time_secs"],
                "fracs": info["rx_time_fracs"], "size": info["size"],
                "type": info["type"], "cplx": info["cplx"],
                "hdr_len": info["hdr_len"], "nbytes": info["nbytes"],
                "extras": extras,
            })
            if not detached:
                f.seek(info["nbytes"], 1)
    return items, {"tags": tags_json(snk.tags()), "headers": headers}


META = [
    dict(name="meta_c_inline", kind="complex", vlen=1, n=40, samp_rate=1000.0, rel_rate=1.0,
         max_seg=8, detached=False,
         extras=[("e1", pmt.from_double(1.5)), ("name", pmt.intern("x"))],
         tags=[(3, "rx_rate", pmt.from_double(2000.0)), (5, "foo", pmt.from_long(7)),
               (12, "rx_time", time(5, 0.25)), (21, "bar", pmt.intern("s")),
               (21, "foo", pmt.from_long(9))]),
    dict(name="meta_f_detached", kind="float", vlen=2, n=30, samp_rate=250.0, rel_rate=0.5,
         max_seg=7, detached=True, extras=[],
         tags=[(4, "rx_rate", pmt.from_double(500.0)), (10, "k", pmt.from_long(1))]),
    dict(name="meta_s_inline", kind="short", vlen=1, n=25, samp_rate=8000.0, rel_rate=1.0,
         max_seg=1000000, detached=False, extras=[("a", pmt.from_long(1))], tags=[]),
    dict(name="meta_b_split", kind="byte", vlen=1, n=20, samp_rate=1.0, rel_rate=1.0,
         max_seg=5, detached=False, extras=[], tags=[]),
    dict(name="meta_i_detached", kind="int", vlen=1, n=10, samp_rate=10.0, rel_rate=1.0,
         max_seg=4, detached=True,
         extras=[("a", pmt.from_double(2.0)), ("z", pmt.intern("end"))],
         tags=[(0, "rx_time", time(100, 0.5)), (0, "note", pmt.intern("first")),
               (6, "rx_rate", pmt.from_double(20.0))]),
]


def gen_meta(out, case):
    name, kind, vlen = case["name"], case["kind"], case["vlen"]
    data = data_of(kind, case["n"] * vlen, len(name))
    data.tofile(os.path.join(out, name + ".in"))
    # `dict_keys` lists a dict newest first: adding in descending order
    # hands the sink the keys in ascending order, as rfgraph's map does.
    extras = pmt.make_dict()
    for k, v in sorted(case["extras"], key=lambda e: e[0], reverse=True):
        extras = pmt.dict_add(extras, pmt.intern(k), v)
    path = os.path.join(out, name + ".gr.dat")
    tb = gr.top_block()
    src = SOURCE[kind](data.tolist(), False, vlen,
                       [tag(o, k, v) for (o, k, v) in case["tags"]])
    snk = blocks.file_meta_sink(item_size(kind, vlen), path, case["samp_rate"],
                                case["rel_rate"], GR_TYPE[kind], kind == "complex",
                                case["max_seg"], extras, case["detached"])
    tb.connect(src, snk)
    tb.run()
    snk.close()
    items, read = read_meta(path, case["detached"], kind, vlen)
    items.tofile(os.path.join(out, name + ".gr.read.bin"))
    with open(os.path.join(out, name + ".gr.read.json"), "w") as f:
        json.dump(read, f)
    return {
        "name": name, "type": KIND[kind], "vlen": vlen, "samp_rate": case["samp_rate"],
        "rel_rate": case["rel_rate"], "max_seg": case["max_seg"],
        "detached": case["detached"],
        "extras": [[k, hexpmt(v)] for (k, v) in case["extras"]],
        "tags": [[o, k, hexpmt(v)] for (o, k, v) in case["tags"]],
    }


def gen_tagged(out):
    name = "tagged_f"
    data = data_of("float", 100, 7)
    data.tofile(os.path.join(out, name + ".in"))
    tags = [(2, "rx_time", time(10, 0.25)), (5, "burst", pmt.PMT_T),
            (20, "burst", pmt.PMT_F), (30, "burst", pmt.PMT_T),
            (35, "rx_time", time(20, 0.0)), (40, "burst", pmt.PMT_F),
            (50, "burst", pmt.from_long(1)), (60, "burst", pmt.PMT_F),
            (62, "other", pmt.from_long(3)), (70, "burst", pmt.PMT_T)]
    where = os.path.join(out, name)
    os.makedirs(where, exist_ok=True)
    for f in os.listdir(where):
        os.remove(os.path.join(where, f))
    here = os.getcwd()
    os.chdir(where)
    tb = gr.top_block()
    src = blocks.vector_source_f(data.tolist(), False, 1, [tag(*t) for t in tags])
    snk = blocks.tagged_file_sink(4, 1000)
    tb.connect(src, snk)
    tb.run()
    os.chdir(here)
    # The open burst's file is flushed when this process exits.
    return {"name": name, "unique_id": snk.unique_id(), "samp_rate": 1000.0,
            "tags": [[o, k, hexpmt(v)] for (o, k, v) in tags]}


def run_stream(out, name, block, kind, data, tags, params):
    data.tofile(os.path.join(out, name + ".in"))
    tb = gr.top_block()
    src = SOURCE[kind](data.tolist(), False, 1, [tag(*t) for t in tags])
    snk = SINK[kind]()
    tb.connect(src, block, snk)
    tb.run()
    np.asarray(snk.data(), dtype=DTYPE[kind]).tofile(os.path.join(out, name + ".out"))
    with open(os.path.join(out, name + ".out.json"), "w") as f:
        json.dump({"tags": tags_json(snk.tags())}, f)
    return {"name": name, "type": KIND[kind], "params": params,
            "tags": [[o, k, hexpmt(v)] for (o, k, v) in tags]}


def gen_streams(out):
    cases = []
    window = [0.1, 0.3, 0.6, 1.0, 0.6, 0.3, 0.1]
    tags = [(10, "packet_len", pmt.from_long(20)), (10, "y", pmt.from_long(1)),
            (12, "x", pmt.intern("in")), (30, "z", pmt.from_long(2)),
            (40, "packet_len", pmt.from_long(5)), (60, "packet_len", pmt.from_long(1)),
            (61, "after", pmt.from_long(4))]
    cases.append(run_stream(out, "burst_shaper_f",
                            digital.burst_shaper_ff(window, 3, 2, False, "packet_len"),
                            "float", data_of("float", 100, 1), tags,
                            {"window": window, "pre_padding": 3, "post_padding": 2,
                             "insert_phasing": False}))
    cwin = [0.2 + 0.1j, 0.5, 0.8 - 0.2j, 1.0]
    tags = [(0, "packet_len", pmt.from_long(10)), (3, "x", pmt.from_long(1)),
            (15, "packet_len", pmt.from_long(3))]
    cases.append(run_stream(out, "burst_shaper_c_phasing",
                            digital.burst_shaper_cc(cwin, 0, 5, True, "packet_len"),
                            "complex", data_of("complex", 40, 2), tags,
                            {"window": [[c.real, c.imag] for c in cwin], "pre_padding": 0,
                             "post_padding": 5, "insert_phasing": True}))
    cwin = [0.1j, 0.4, 0.9 + 0.1j, 0.9 - 0.1j, 0.4, -0.1j]
    tags = [(5, "len", pmt.from_long(30)), (34, "last", pmt.from_long(0))]
    cases.append(run_stream(out, "burst_shaper_c",
                            digital.burst_shaper_cc(cwin, 4, 0, False, "len"),
                            "complex", data_of("complex", 50, 3), tags,
                            {"window": [[c.real, c.imag] for c in cwin], "pre_padding": 4,
                             "post_padding": 0, "insert_phasing": False,
                             "length_tag_name": "len"}))
    tags = [(i, "t", pmt.from_long(i)) for i in (0, 7, 100, 101, 333, 599)]
    for name, step in (("variable_rate_small", 0.001), ("variable_rate_large", 0.05)):
        cases.append(run_stream(out, name, blocks.test_tag_variable_rate_ff(False, step),
                                "float", data_of("float", 600, 4), tags,
                                {"update_once": False, "update_step": step}))
    return cases


def run_bounded(tb, seconds=60):
    """`tb.run()` with a watchdog: GNU Radio's tags_to_pdu never ends a
    stream that ends inside a burst."""
    tb.start()
    waiter = threading.Thread(target=tb.wait, daemon=True)
    waiter.start()
    waiter.join(seconds)
    if waiter.is_alive():
        tb.stop()
        sys.exit("GNU Radio's flowgraph did not end")


def gen_tags_to_pdu(out):
    cases = []
    t = lambda o, k: (o, k, pmt.PMT_T)
    specs = [
        ("tags_to_pdu_f", "float", pdu.tags_to_pdu_f, [9.0, 8.0], 12, 3, 4, 1, 5.5, True,
         [t(3, "SOB"), t(10, "EOB"), (12, "rx_time", time(100, 0.25)), t(15, "SOB"),
          t(20, "SOB"), t(25, "EOB"), t(30, "SOB"), t(39, "EOB"), t(50, "SOB"),
          t(80, "EOB"), t(85, "EOB"), t(90, "SOB"), t(91, "EOB")]),
        ("tags_to_pdu_c", "complex", pdu.tags_to_pdu_c, [], 1024, 0, 1, 0, 0.0, False,
         [t(0, "SOB"), t(7, "EOB"), (8, "rx_time", time(7, 0.9)), t(8, "SOB"),
          t(30, "EOB")]),
        ("tags_to_pdu_b", "byte", pdu.tags_to_pdu_b, [1, 2, 3], 6, 0, 3, 2, 1.25, False,
         [t(2, "SOB"), t(4, "EOB"), t(10, "SOB"), t(30, "EOB")]),
    ]
    for (name, kind, make, prepend, max_size, tail, align, offset, start, det, tags) in specs:
        data = data_of(kind, 100, len(name))
        data.tofile(os.path.join(out, name + ".in"))
        tb = gr.top_block()
        src = SOURCE[kind](data.tolist(), False, 1, [tag(*x) for x in tags])
        blk = make(pmt.intern("SOB"), pmt.intern("EOB"), max_size, 1000.0, prepend, det,
                   tail, start)
        blk.set_eob_parameters(align, offset)
        pdus, dets = blocks.message_debug(), blocks.message_debug()
        tb.connect(src, blk)
        tb.msg_connect((blk, "pdus"), (pdus, "store"))
        tb.msg_connect((blk, "detects"), (dets, "store"))
        run_bounded(tb)
        with open(os.path.join(out, name + ".pdus.json"), "w") as f:
            json.dump({
                "pdus": [hexpmt(pdus.get_message(i)) for i in range(pdus.num_messages())],
                "detects": [hexpmt(dets.get_message(i)) for i in range(dets.num_messages())],
            }, f)
        cases.append({"name": name, "type": KIND[kind],
                      "tags": [[o, k, hexpmt(v)] for (o, k, v) in tags],
                      "params": {"prepend": [float(x) for x in prepend],
                                 "max_pdu_size": max_size, "samp_rate": 1000.0,
                                 "tail_size": tail, "eob_alignment": align,
                                 "eob_offset": offset, "start_time": start,
                                 "pub_start_msg": det}})
    return cases


def main():
    out = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "gen"
    os.makedirs(out, exist_ok=True)
    if mode == "gen":
        meta = [gen_meta(out, c) for c in META]
        tagged = gen_tagged(out)
        streams = gen_streams(out)
        to_pdu = gen_tags_to_pdu(out)
        with open(os.path.join(out, "cases.json"), "w") as f:
            json.dump({"meta": meta, "tagged": tagged, "streams": streams,
                       "tags_to_pdu": to_pdu}, f)
    elif mode == "read":
        name, path, detached, kind, vlen = sys.argv[3:8]
        kind = {v: k for k, v in KIND.items()}[kind]
        items, read = read_meta(path, detached == "true", kind, int(vlen))
        items.tofile(os.path.join(out, name + ".check.bin"))
        with open(os.path.join(out, name + ".check.json"), "w") as f:
            json.dump(read, f)
    else:
        sys.exit("mode: gen or read")


main()
