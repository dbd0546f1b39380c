"""A run from Python on the control port: the REST API lists the graph's
blocks, Python blocks among them with their counters, and a settable
parameter changes through it as through ``rfgraph run --control``."""

import json
import time
import urllib.request

import numpy as np

import rfgraph


class Halve(rfgraph.SyncBlock):
    def __init__(self):
        rfgraph.SyncBlock.__init__(self, name="halve", in_sig=[np.float32], out_sig=[np.float32])

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0] * 0.5
        return len(output_items[0])


def _get(url, token=None):
    req = urllib.request.Request(url)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _graph():
    fg = rfgraph.Flowgraph()
    src = fg.add("sig_source", type="f32", frequency=1e3, sample_rate=48e3, name="src")
    thr = fg.add("throttle", type="f32", sample_rate=2e5, name="thr")
    mul = fg.add("multiply_const", type="f32", constant=2.0, name="mul")
    halve = fg.add(Halve())
    snk = fg.add("null_sink", type="f32", name="snk")
    fg.connect(src, thr)
    fg.connect(thr, mul)
    fg.connect(mul, halve)
    fg.connect(halve, snk)
    return fg, halve


def test_control_port_serves_a_python_built_run():
    fg, halve = _graph()
    run = fg.start(scheduler="tpb")
    try:
        ui = run.serve(name="py graph")
        assert ui.startswith("http://127.0.0.1:") and "fg=py_graph" in ui
        assert run.control_url.endswith("/api/flowgraphs/py_graph")
        assert run.control_token is None
        graph = _get(run.control_url)
        blocks = {b["name"]: b for b in graph["blocks"]}
        assert set(blocks) == {"src", "thr", "mul", halve.name, "snk"}
        assert [p["name"] for p in blocks[halve.name]["inputs"]] == ["in0"]
        deadline = time.monotonic() + 30
        while True:
            stats = {b["block"]: b for b in _get(run.control_url + "/stats")["blocks"]}
            if stats[halve.name]["items_produced"] > 0:
                break
            assert time.monotonic() < deadline, "the Python block never produced"
            time.sleep(0.05)
        # A settable parameter through the REST API, seen from Python.
        body = json.dumps(3.0).encode()
        req = urllib.request.Request(
            f"{run.control_url}/blocks/mul/params/constant",
            data=body,
            method="PUT",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 200
        assert run.block("mul").constant == 3.0
    finally:
        run.stop()
        run.wait(timeout=30)


def test_a_token_guards_the_port():
    fg, _ = _graph()
    run = fg.start()
    try:
        run.serve(token="s3cret")
        assert run.control_token == "s3cret"
        try:
            _get(run.control_url)
            raise AssertionError("served without the token")
        except urllib.error.HTTPError as e:
            assert e.code == 401
        assert _get(run.control_url, "s3cret")["name"] == "flowgraph"
    finally:
        run.stop()
        run.wait(timeout=30)


def test_a_bad_address_raises():
    fg, _ = _graph()
    run = fg.start()
    try:
        try:
            run.serve(addr="nowhere")
            raise AssertionError("a bad address was accepted")
        except ValueError as e:
            assert "nowhere" in str(e)
    finally:
        run.stop()
        run.wait(timeout=30)
