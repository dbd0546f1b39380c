"""Python sync blocks: exact outputs on every scheduler, several ports,
partial work, sinks, and failures that end the run with a traceback."""

import numpy as np
import pytest

import rfgraph

SCHEDULERS = ["tpb", "single", "pool", "chain"]


class Double(rfgraph.SyncBlock):
    def __init__(self):
        rfgraph.SyncBlock.__init__(self, name="double", in_sig=[np.float32], out_sig=[np.float32])

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0] * 2
        return len(output_items[0])


class AddToComplex(rfgraph.SyncBlock):
    """Two f32 inputs into one complex output; at most 7 items a call."""

    def __init__(self):
        super().__init__(name="add", in_sig=[np.float32, np.float32], out_sig=[np.complex64])
        self.calls = 0

    def work(self, input_items, output_items):
        self.calls += 1
        n = min(7, len(output_items[0]))
        output_items[0][:n] = input_items[0][:n] + 1j * input_items[1][:n]
        return n


class Split(rfgraph.SyncBlock):
    def __init__(self):
        super().__init__(name="split", in_sig=[np.int16], out_sig=[np.int16, np.int16])

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0]
        output_items[1][:] = -input_items[0]
        return len(input_items[0])


class Collect(rfgraph.SyncBlock):
    def __init__(self):
        super().__init__(name="collect", in_sig=[np.uint8])
        self.parts = []

    def work(self, input_items, output_items):
        assert output_items == []
        self.parts.append(input_items[0].copy())
        return len(input_items[0])


class Failing(rfgraph.SyncBlock):
    def __init__(self):
        super().__init__(name="failing", in_sig=[np.float32], out_sig=[np.float32])

    def work(self, input_items, output_items):
        raise ZeroDivisionError("boom in work")


def run_chain(x, block, dtype, scheduler):
    fg = rfgraph.Flowgraph()
    src = fg.add(rfgraph.VectorSource(x))
    b = fg.add(block)
    snk = rfgraph.VectorSink(dtype)
    fg.connect(src, b)
    fg.connect(b, fg.add(snk))
    stats = fg.run(scheduler=scheduler, timeout=60)
    return snk.data(), {s["block"]: s for s in stats}


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_sync_block_equals_numpy(scheduler):
    x = np.random.default_rng(3).standard_normal(300_001).astype(np.float32)
    out, stats = run_chain(x, Double(), np.float32, scheduler)
    np.testing.assert_array_equal(out, 2 * x)
    assert stats["double"]["items_produced"] == len(x)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_two_inputs_partial_work_and_a_new_dtype(scheduler):
    rng = np.random.default_rng(4)
    a = rng.standard_normal(10_000).astype(np.float32)
    b = rng.standard_normal(10_000).astype(np.float32)
    fg = rfgraph.Flowgraph()
    block = AddToComplex()
    add = fg.add(block)
    fg.connect(fg.add(rfgraph.VectorSource(a)), "out", add, "in0")
    fg.connect(fg.add(rfgraph.VectorSource(b)), "out", add, "in1")
    snk = rfgraph.VectorSink(np.complex64)
    fg.connect(add, fg.add(snk))
    fg.run(scheduler=scheduler, timeout=60)
    np.testing.assert_array_equal(snk.data(), (a + 1j * b).astype(np.complex64))
    assert block.calls >= len(a) // 7


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_two_outputs(scheduler):
    x = np.arange(-5000, 5000, dtype=np.int16)
    fg = rfgraph.Flowgraph()
    split = fg.add(Split())
    fg.connect(fg.add(rfgraph.VectorSource(x)), split)
    s0, s1 = rfgraph.VectorSink(np.int16), rfgraph.VectorSink(np.int16)
    fg.connect(split, "out0", fg.add(s0), "in")
    fg.connect(split, "out1", fg.add(s1), "in")
    fg.run(scheduler=scheduler, timeout=60)
    np.testing.assert_array_equal(s0.data(), x)
    np.testing.assert_array_equal(s1.data(), -x)


def test_python_sink_sees_every_item_in_order():
    x = (np.arange(70_000) % 251).astype(np.uint8)
    fg = rfgraph.Flowgraph()
    block = Collect()
    fg.connect(fg.add(rfgraph.VectorSource(x)), fg.add(block))
    fg.run(scheduler="chain", timeout=60)
    np.testing.assert_array_equal(np.concatenate(block.parts), x)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_exception_stops_the_run_with_its_traceback(scheduler):
    fg = rfgraph.Flowgraph()
    src = fg.add("null_source", type="f32")  # endless: only the failure ends it
    bad = fg.add(Failing())
    fg.connect(src, bad)
    fg.connect(bad, fg.add("null_sink", type="f32"))
    with pytest.raises(RuntimeError) as info:
        fg.run(scheduler=scheduler, timeout=60)
    text = str(info.value)
    assert "failing" in text
    assert "Traceback" in text and "ZeroDivisionError: boom in work" in text
    assert "raise ZeroDivisionError" in text or "in work" in text


def test_mixed_dtypes_on_one_side_are_refused():
    with pytest.raises(TypeError, match="same dtype"):
        rfgraph.SyncBlock(name="x", in_sig=[np.float32, np.int16], out_sig=[np.float32])


class Keeper(rfgraph.SyncBlock):
    """Keeps a view of its input past `work`: refused, never read later."""

    def __init__(self):
        super().__init__(name="keeper", in_sig=[np.float32], out_sig=[np.float32])
        self.kept = None

    def work(self, input_items, output_items):
        self.kept = input_items[0]
        output_items[0][:] = input_items[0]
        return len(input_items[0])


def test_a_view_kept_past_work_fails_the_run():
    fg = rfgraph.Flowgraph()
    keeper = fg.add(Keeper())
    fg.connect(fg.add("null_source", type="f32"), keeper)
    fg.connect(keeper, fg.add("null_sink", type="f32"))
    with pytest.raises(RuntimeError, match=r"kept a numpy view .*\(np\.copy\)"):
        fg.run(scheduler="chain", timeout=60)
