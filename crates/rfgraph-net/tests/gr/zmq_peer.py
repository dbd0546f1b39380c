#!/usr/bin/python3
"""GNU Radio 3.10's side of rfgraph's ZeroMQ interop tests.

Run by crates/rfgraph-net/tests/zmq_gnuradio.rs with Debian's /usr/bin/python3.

  zmq_peer.py sink PATTERN ADDRESS N PASS_TAGS [KEY]
      a GNU Radio PATTERN sink (push, pub, rep) binds ADDRESS and sends the
      reference sequence of N complex items (with the reference tags when
      PASS_TAGS is 1), then keeps the socket open for a while.
  zmq_peer.py source PATTERN ADDRESS N PASS_TAGS [KEY [cyclic]]
      a GNU Radio PATTERN source (pull, sub, req) connects to ADDRESS, takes N
      items and prints one JSON line: whether the items and the tags are the
      reference ones, and what differs. With `cyclic` the items may start
      anywhere in a repeating reference sequence of N items.
  zmq_peer.py msg_sink PATTERN ADDRESS
      sends the reference PDUs and messages through a GNU Radio message sink.
  zmq_peer.py msg_source PATTERN ADDRESS COUNT
      receives COUNT messages and prints whether they are the reference ones.

The reference sequence and tags are defined here and, independently, in the
Rust test; neither side decodes the other's values with rfgraph's code.
"""
import json
import sys
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, zeromq


def reference_items(n):
    i = np.arange(n, dtype=np.float32)
    items = np.empty(n, dtype=np.complex64)
    items.real = i
    items.imag = np.float32(-0.5) * i
    return items


def reference_tags():
    d = pmt.make_dict()
    d = pmt.dict_add(d, pmt.intern("b"), pmt.intern("x"))
    d = pmt.dict_add(d, pmt.intern("a"), pmt.from_long(1))
    return [
        (10, "int", pmt.from_long(42)),
        (20, "double", pmt.from_double(2.5)),
        (30, "string", pmt.intern("hello")),
        (40, "complex", pmt.from_complex(1 - 2j)),
        (50, "tuple", pmt.to_pmt((1, "x", 2.5))),
        (60, "dict", d),
        (70, "f32vector", pmt.init_f32vector(3, [1.0, 2.0, 3.0])),
        (80, "s16vector", pmt.init_s16vector(3, [-1, 2, 3])),
        (90, "u64", pmt.from_uint64(1 << 40)),
    ]


def reference_messages():
    meta = pmt.dict_add(pmt.make_dict(), pmt.intern("packet_num"), pmt.from_long(7))
    return [
        pmt.cons(meta, pmt.init_u8vector(4, [1, 2, 3, 250])),
        pmt.cons(pmt.PMT_NIL, pmt.init_c32vector(2, [complex(1, 2), complex(0, -3)])),
        pmt.intern("TEST"),
        pmt.to_pmt((1, 2.5, "x")),
    ]


def make_tag(offset, key, value):
    tag = gr.tag_t()
    tag.offset = offset
    tag.key = pmt.intern(key)
    tag.value = value
    return tag


def run_sink(pattern, address, n, pass_tags, key):
    tb = gr.top_block()
    tags = [make_tag(o, k, v) for o, k, v in reference_tags()] if pass_tags else []
    src = blocks.vector_source_c(reference_items(n).tolist(), False, 1, tags)
    if pattern == "push":
        sink = zeromq.push_sink(gr.sizeof_gr_complex, 1, address, 100, pass_tags, -1)
    elif pattern == "pub":
        sink = zeromq.pub_sink(gr.sizeof_gr_complex, 1, address, 100, pass_tags, -1, key)
        # A subscriber must be connected before anything is published.
        time.sleep(1.5)
    else:
        sink = zeromq.rep_sink(gr.sizeof_gr_complex, 1, address, 100, pass_tags, -1)
    tb.connect(src, sink)
    tb.run()
    # Keep the socket (and its queued frames) alive for the peer.
    time.sleep(3)
    print(json.dumps({"sent": n}), flush=True)


def compare_tags(got):
    want = {o: (k, v) for o, k, v in reference_tags()}
    problems = []
    seen = set()
    for tag in got:
        k = pmt.symbol_to_string(tag.key)
        if tag.offset not in want:
            problems.append(f"unexpected tag {k} at {tag.offset}")
            continue
        wk, wv = want[tag.offset]
        if k != wk or not pmt.equal(tag.value, wv):
            problems.append(f"at {tag.offset}: got {k}={tag.value}, want {wk}={wv}")
        seen.add(tag.offset)
    for o in want:
        if o not in seen:
            problems.append(f"missing tag at {o}")
    return problems


def run_source(pattern, address, n, pass_tags, key, cyclic):
    tb = gr.top_block()
    if pattern == "pull":
        src = zeromq.pull_source(gr.sizeof_gr_complex, 1, address, 100, pass_tags, -1)
    elif pattern == "sub":
        src = zeromq.sub_source(gr.sizeof_gr_complex, 1, address, 100, pass_tags, -1, key)
    else:
        src = zeromq.req_source(gr.sizeof_gr_complex, 1, address, 100, pass_tags, -1)
    head = blocks.head(gr.sizeof_gr_complex, n)
    sink = blocks.vector_sink_c()
    tb.connect(src, head, sink)
    # GNU Radio's ZeroMQ sources do not notice that the head is done:
    # stop the flowgraph once it has everything.
    tb.start()
    deadline = time.time() + 30
    while len(sink.data()) < n and time.time() < deadline:
        time.sleep(0.02)
    tb.stop()
    tb.wait()
    got = np.array(sink.data(), dtype=np.complex64)
    want = reference_items(n)
    if cyclic and len(got):
        # A subscriber joins a repeating sequence somewhere in it.
        phase = int(round(float(got[0].real)))
        want = want[(np.arange(n) + phase) % n]
    items_ok = got.shape == want.shape and bool(np.all(got.view(np.uint32) == want.view(np.uint32)))
    problems = compare_tags(sink.tags()) if pass_tags else []
    print(json.dumps({"items": len(got), "items_ok": items_ok, "tag_problems": problems}), flush=True)


def run_msg_sink(pattern, address):
    tb = gr.top_block()
    if pattern == "push":
        sink = zeromq.push_msg_sink(address, 100, True)
    elif pattern == "pub":
        sink = zeromq.pub_msg_sink(address, 100, True)
    else:
        sink = zeromq.rep_msg_sink(address, 100, True)
    emitter = Emitter()
    tb.msg_connect(emitter, "out", sink, "in")
    tb.start()
    # GNU Radio's message sinks drop what arrives before a peer is there.
    time.sleep(1.5)
    for msg in reference_messages():
        emitter.message_port_pub(pmt.intern("out"), msg)
    time.sleep(3)
    tb.stop()
    tb.wait()
    print(json.dumps({"sent": len(reference_messages())}), flush=True)


class Emitter(gr.basic_block):
    """Posts what the script gives it (an unconnected block gets no messages)."""

    def __init__(self):
        gr.basic_block.__init__(self, "emitter", None, None)
        self.message_port_register_out(pmt.intern("out"))


class Collector(gr.basic_block):
    def __init__(self):
        gr.basic_block.__init__(self, "collector", None, None)
        self.messages = []
        self.message_port_register_in(pmt.intern("in"))
        self.set_msg_handler(pmt.intern("in"), self.handle)

    def handle(self, msg):
        self.messages.append(msg)


def run_msg_source(pattern, address, count):
    tb = gr.top_block()
    if pattern == "pull":
        src = zeromq.pull_msg_source(address, 100, False)
    elif pattern == "sub":
        src = zeromq.sub_msg_source(address, 100, False)
    else:
        src = zeromq.req_msg_source(address, 100, False)
    sink = Collector()
    tb.msg_connect(src, "out", sink, "in")
    tb.start()
    deadline = time.time() + 20
    while len(sink.messages) < count and time.time() < deadline:
        time.sleep(0.05)
    tb.stop()
    tb.wait()
    want = reference_messages()
    problems = []
    for i, w in enumerate(want[:count]):
        if i >= len(sink.messages):
            problems.append(f"message {i} missing")
        elif not pmt.equal(sink.messages[i], w):
            problems.append(f"message {i}: got {sink.messages[i]}, want {w}")
    print(json.dumps({"received": len(sink.messages), "problems": problems}), flush=True)


def main():
    role, pattern, address = sys.argv[1:4]
    if role == "sink":
        run_sink(pattern, address, int(sys.argv[4]), sys.argv[5] == "1", (sys.argv[6:] or [""])[0])
    elif role == "source":
        key = (sys.argv[6:] or [""])[0]
        run_source(pattern, address, int(sys.argv[4]), sys.argv[5] == "1", key, "cyclic" in sys.argv[7:])
    elif role == "msg_sink":
        run_msg_sink(pattern, address)
    else:
        run_msg_source(pattern, address, int(sys.argv[4]))


if __name__ == "__main__":
    main()
