"""Flowgraphs built from Python: the file builder's checks and errors, runs
on every scheduler, statistics, start/stop/wait."""

import os

import numpy as np
import pytest

import rfgraph

SCHEDULERS = ["tpb", "single", "pool", "chain"]


def test_unknown_parameter_raises_the_builders_message():
    fg = rfgraph.Flowgraph()
    with pytest.raises(ValueError, match=r"block `sig_source` has no parameter `frequncy` \(did you mean `frequency`\?\)"):
        fg.add("sig_source", type="f32", frequncy=1e3)


def test_unknown_block_and_bad_value_raise():
    fg = rfgraph.Flowgraph()
    with pytest.raises(ValueError, match=r"unknown block `sig_sourc` \(did you mean `sig_source`\?\)"):
        fg.add("sig_sourc")
    with pytest.raises(ValueError, match=r"`blocks.head0.items`: expected uint, found int -3"):
        fg.add("head", type="f32", items=-3)
    # Nothing was added by the failures.
    assert "head0" not in fg.to_toml()


def test_bad_connection_raises_at_run():
    fg = rfgraph.Flowgraph()
    a = fg.add("null_source", type="f32")
    b = fg.add("null_sink", type="c32")
    fg.connect(a, b)
    with pytest.raises(ValueError, match="f32.*c32|c32.*f32"):
        fg.run(timeout=10)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_graph_equals_numpy(scheduler):
    x = np.random.default_rng(1).standard_normal(50_000).astype(np.float32)
    fg = rfgraph.Flowgraph()
    src = fg.add(rfgraph.VectorSource(x))
    mul = fg.add("multiply_const", type="f32", constant=2.5)
    add = fg.add("add_const", type="f32", constant=-1.0)
    snk = rfgraph.VectorSink(np.float32)
    out = fg.add(snk)
    fg.connect(src, "out", mul, "in")
    fg.connect(mul, add)
    fg.connect(add, out)
    stats = fg.run(scheduler=scheduler, timeout=30)
    np.testing.assert_array_equal(snk.data(), x * np.float32(2.5) - np.float32(1.0))
    by_name = {s["block"]: s for s in stats}
    assert by_name[out.name]["items_consumed"] == len(x)
    assert by_name[src.name]["items_produced"] == len(x)


def test_sig_source_matches_numpy_cosine():
    fg = rfgraph.Flowgraph()
    src = fg.add("sig_source", type="f32", frequency=1e3, sample_rate=48e3, amplitude=0.5)
    head = fg.add("head", type="f32", items=4800)
    snk = rfgraph.VectorSink(np.float32)
    fg.connect(src, head)
    fg.connect(head, fg.add(snk))
    fg.run(scheduler="chain", cores=2, timeout=30)
    n = np.arange(4800)
    np.testing.assert_allclose(snk.data(), 0.5 * np.cos(2 * np.pi * 1e3 / 48e3 * n), atol=1e-4)


def test_start_stop_wait_ends_an_endless_graph():
    fg = rfgraph.Flowgraph()
    src = fg.add("null_source", type="f32")
    fg.connect(src, fg.add("null_sink", type="f32"))
    run = fg.start(scheduler="tpb")
    assert not run.is_finished()
    run.stop()
    stats = run.wait(timeout=30)
    assert run.is_finished()
    assert {s["block"] for s in stats} == {"null_source0", "null_sink0"}
    with pytest.raises(RuntimeError, match="already waited"):
        run.wait()


def test_wait_timeout_stops_and_raises():
    fg = rfgraph.Flowgraph()
    src = fg.add("null_source", type="f32")
    fg.connect(src, fg.add("null_sink", type="f32"))
    with pytest.raises(RuntimeError):
        fg.run(timeout=0.2)


def test_unknown_scheduler_raises():
    fg = rfgraph.Flowgraph()
    src = fg.add("null_source", type="f32")
    fg.connect(src, fg.add("null_sink", type="f32"))
    with pytest.raises(ValueError):
        fg.run(scheduler="nope", timeout=10)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
@pytest.mark.parametrize("cores", [1, [0], [0, 1]])
def test_cores_as_a_count_or_a_list_of_cpus(scheduler, cores):
    if isinstance(cores, list) and max(cores) >= (os.cpu_count() or 1):
        pytest.skip(f"this machine has no CPU {max(cores)}")
    x = np.arange(30_000, dtype=np.float32)
    fg = rfgraph.Flowgraph()
    src = fg.add(rfgraph.VectorSource(x))
    mul = fg.add("multiply_const", type="f32", constant=3.0)
    snk = rfgraph.VectorSink(np.float32)
    fg.connect(src, mul)
    fg.connect(mul, fg.add(snk))
    fg.run(scheduler=scheduler, cores=cores, timeout=30)
    np.testing.assert_array_equal(snk.data(), x * np.float32(3.0))


@pytest.mark.parametrize("cores", [[], [4096]])
def test_a_bad_list_of_cpus_raises(cores):
    fg = rfgraph.Flowgraph()
    fg.connect(fg.add("null_source", type="f32"), fg.add("null_sink", type="f32"))
    with pytest.raises(ValueError, match="cores"):
        fg.start(scheduler="chain", cores=cores)
