"""Stream tags through Python blocks: VectorSource tags in, VectorSink
tags out, GNU Radio's propagation (all to all scaled by the rate, one to
one, none), reading tags in work and adding them, under random chunking
on every scheduler."""

import numpy as np
import pytest

import rfgraph

SCHEDULERS = ["tpb", "single", "pool", "chain"]

TAGS = [
    (0, "start", "here"),
    (7, "core:frequency", 100e6),
    (1234, "burst", {"len": 3, "iq": np.arange(3, dtype=np.complex64)}),
    (5000, "pair", rfgraph.Pair("meta", b"\x01")),
    (9999, "last", -1),
]


def same_tags(got, expected):
    assert [(o, k) for o, k, _ in got] == [(o, k) for o, k, _ in expected]
    for (_, _, a), (_, _, b) in zip(got, expected):
        if isinstance(b, dict):
            assert a.keys() == b.keys()
            assert a["len"] == b["len"]
            np.testing.assert_array_equal(a["iq"], b["iq"])
        else:
            assert a == b


def chunked(block, x, tags, out_dtype, scheduler):
    fg = rfgraph.Flowgraph()
    src_block = rfgraph.VectorSource(x, tags=tags)
    src = fg.add(src_block)
    before = fg.add("copy_rand", type=src_block.item, max=41, seed=11)
    b = fg.add(block)
    snk = rfgraph.VectorSink(out_dtype)
    fg.connect(src, before)
    fg.connect(before, b)
    fg.connect(b, fg.add(snk))
    fg.run(scheduler=scheduler, timeout=60)
    return snk


class Copy(rfgraph.SyncBlock):
    """Copies, and records every tag it is shown through both getters."""

    def __init__(self):
        super().__init__(name="copy", in_sig=[np.float32], out_sig=[np.float32])
        self.window = []
        self.range = []

    def work(self, input_items, output_items):
        n = len(output_items[0])
        self.window += [(t.offset, t.key, t.value) for t in self.get_tags_in_window(0, 0, n)]
        start = self.nitems_read(0)
        self.range += [(t.offset, t.key, t.value) for t in self.get_tags_in_range(0, start, start + n)]
        output_items[0][:] = input_items[0]
        return n


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_sync_block_sees_and_propagates_tags(scheduler):
    x = np.arange(10_000, dtype=np.float32)
    block = Copy()
    snk = chunked(block, x, TAGS, np.float32, scheduler)
    np.testing.assert_array_equal(snk.data(), x)
    same_tags(snk.tags(), TAGS)
    same_tags(block.window, TAGS)
    same_tags(block.range, TAGS)


class Decim(rfgraph.DecimBlock):
    def __init__(self):
        super().__init__(name="decim", in_sig=[np.float32], out_sig=[np.float32], decim=4)

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0][::4]
        return len(output_items[0])


class Interp(rfgraph.InterpBlock):
    def __init__(self):
        super().__init__(name="interp", in_sig=[np.float32], out_sig=[np.float32], interp=3)

    def work(self, input_items, output_items):
        output_items[0][:] = np.repeat(input_items[0], 3)
        return len(output_items[0])


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_rate_changes_scale_tag_offsets(scheduler):
    x = np.arange(10_000, dtype=np.float32)
    tags = [(o, k, v) for o, k, v in TAGS if not isinstance(v, dict)]
    snk = chunked(Decim(), x, tags, np.float32, scheduler)
    same_tags(snk.tags(), [(o // 4, k, v) for o, k, v in tags])
    snk = chunked(Interp(), x, tags, np.float32, scheduler)
    same_tags(snk.tags(), [(o * 3, k, v) for o, k, v in tags])


class Marker(rfgraph.SyncBlock):
    """Drops the input's tags and marks every 1000th item."""

    def __init__(self):
        super().__init__(name="marker", in_sig=[np.float32], out_sig=[np.float32])
        self.set_tag_propagation_policy(rfgraph.TPP_DONT)

    def work(self, input_items, output_items):
        n = len(output_items[0])
        first = self.nitems_written(0)
        for offset in range(-(-first // 1000) * 1000, first + n, 1000):
            if offset % 2000:
                self.add_item_tag(0, offset, "mark", offset // 1000, srcid="marker")
            else:
                self.add_item_tag(0, rfgraph.Tag(offset, "even", np.float32(0.5)))
        output_items[0][:] = input_items[0]
        return n


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_add_item_tag_and_tpp_dont(scheduler):
    x = np.zeros(10_500, dtype=np.float32)
    snk = chunked(Marker(), x, TAGS, np.float32, scheduler)
    expected = [
        (o, "mark", o // 1000) if o % 2000 else (o, "even", np.float32(0.5))
        for o in range(0, 10_500, 1000)
    ]
    same_tags(snk.tags(), expected)
    assert isinstance(snk.tags()[0][2], np.float32)


class Swap(rfgraph.SyncBlock):
    """Two inputs, two outputs, one to one: tags stay on their port."""

    def __init__(self):
        super().__init__(name="pass2", in_sig=[np.int16] * 2, out_sig=[np.int16] * 2)
        self.set_tag_propagation_policy(rfgraph.TPP_ONE_TO_ONE)

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0]
        output_items[1][:] = input_items[1]
        return len(output_items[0])


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_one_to_one_keeps_tags_on_their_port(scheduler):
    x = np.arange(3000, dtype=np.int16)
    fg = rfgraph.Flowgraph()
    a = fg.add(rfgraph.VectorSource(x, tags=[(10, "a", 1), (2999, "a", 2)]))
    b = fg.add(rfgraph.VectorSource(x, tags=[(20, "b", 3)]))
    chunks = fg.add("copy_rand", type="i16", max=17, seed=5)
    block = fg.add(Swap())
    fg.connect(a, chunks)
    fg.connect(chunks, "out", block, "in0")
    fg.connect(b, "out", block, "in1")
    s0, s1 = rfgraph.VectorSink(np.int16), rfgraph.VectorSink(np.int16)
    fg.connect(block, "out0", fg.add(s0), "in")
    fg.connect(block, "out1", fg.add(s1), "in")
    fg.run(scheduler=scheduler, timeout=60)
    assert s0.tags() == [(10, "a", 1), (2999, "a", 2)]
    assert s1.tags() == [(20, "b", 3)]


class Halve(rfgraph.Block):
    """A general block consuming 2 items per output: the runtime copies
    tags by index (relative rate 1, GNU Radio's default)."""

    def __init__(self):
        super().__init__(name="halve", in_sig=[np.float32], out_sig=[np.float32])
        self.seen = []

    def forecast(self, noutput_items, ninput_items_required):
        ninput_items_required[0] = 2 * noutput_items

    def general_work(self, input_items, output_items):
        n = min(len(output_items[0]), len(input_items[0]) // 2)
        self.seen += [(t.offset, t.key) for t in self.get_tags_in_window(0, 0, 2 * n)]
        output_items[0][:n] = input_items[0][: 2 * n : 2]
        self.consume(0, 2 * n)
        return n


def test_general_block_reads_and_passes_tags():
    x = np.arange(4000, dtype=np.float32)
    tags = [(3, "x", 1), (1500, "y", 2)]
    block = Halve()
    snk = chunked(block, x, tags, np.float32, "tpb")
    assert block.seen == [(3, "x"), (1500, "y")]
    np.testing.assert_array_equal(snk.data(), x[::2])
    # Indices unscaled: a general block's relative rate is 1 (GNU Radio's default).
    assert [(o, k) for o, k, _ in snk.tags()] == [(3, "x"), (1500, "y")]


class Backwards(rfgraph.SyncBlock):
    def __init__(self):
        super().__init__(name="backwards", in_sig=[np.float32], out_sig=[np.float32])

    def work(self, input_items, output_items):
        if self.nitems_written(0) > 0:
            self.add_item_tag(0, 0, "late", 1)
        output_items[0][:] = input_items[0]
        return len(output_items[0])


def test_a_tag_on_an_item_already_written_fails_the_run():
    fg = rfgraph.Flowgraph()
    block = fg.add(Backwards())
    fg.connect(fg.add("null_source", type="f32"), block)
    fg.connect(block, fg.add("null_sink", type="f32"))
    with pytest.raises(RuntimeError, match="offset 0 on output 0 is before its next item"):
        fg.run(scheduler="single", timeout=60)


def test_vector_source_refuses_a_tag_outside_the_array():
    with pytest.raises(ValueError, match="outside the array of 3 items"):
        rfgraph.VectorSource(np.zeros(3, np.float32), tags=[(3, "k", 1)])


def test_a_flowgraph_runs_twice_with_the_same_counts_and_tags():
    x = np.arange(3000, dtype=np.float32)
    fg = rfgraph.Flowgraph()
    block = Copy()
    b = fg.add(block)
    fg.connect(fg.add(rfgraph.VectorSource(x, tags=[(5, "k", 1), (2500, "k", 2)])), b)
    snk = rfgraph.VectorSink(np.float32)
    fg.connect(b, fg.add(snk))
    for _ in range(2):
        block.window = []
        fg.run(scheduler="tpb", timeout=60)
        np.testing.assert_array_equal(snk.data(), x)
        assert snk.tags() == [(5, "k", 1), (2500, "k", 2)]
        assert block.window == [(5, "k", 1), (2500, "k", 2)]
        assert block.nitems_read(0) == len(x)


class HalveRated(Halve):
    def __init__(self, *rate):
        super().__init__()
        self.set_relative_rate(*rate)


@pytest.mark.parametrize("rate", [(0.5,), (1, 2)])
def test_general_block_relative_rate_scales_tag_offsets(rate):
    x = np.arange(4000, dtype=np.float32)
    block = HalveRated(*rate)
    assert block.relative_rate() == 0.5
    snk = chunked(block, x, [(3, "x", 1), (1500, "y", 2)], np.float32, "chain")
    assert snk.tags() == [(1, "x", 1), (750, "y", 2)]


def test_relative_rate_must_be_positive():
    with pytest.raises(ValueError, match="not positive"):
        Halve().set_relative_rate(0, 1)
