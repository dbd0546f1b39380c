"""Python decimating, interpolating and general blocks: exact outputs
under random chunking (``copy_rand`` before and after each block) on every
scheduler, GNU Radio's item counts, forecast, consume/produce, output
multiples, item counters and ``WORK_DONE``."""

import numpy as np
import pytest

import rfgraph

SCHEDULERS = ["tpb", "single", "pool", "chain"]


def run_chunked(x, block, dtype, scheduler, seed=1):
    """``x`` → copy_rand → ``block`` → copy_rand → sink; the sink's data."""
    fg = rfgraph.Flowgraph()
    item = rfgraph.VectorSource(x).item
    src = fg.add(rfgraph.VectorSource(x))
    before = fg.add("copy_rand", type=item, max=37, seed=seed)
    b = fg.add(block)
    snk = rfgraph.VectorSink(dtype)
    after = fg.add("copy_rand", type=snk.item, max=53, seed=seed + 1)
    fg.connect(src, before)
    fg.connect(before, b)
    fg.connect(b, after)
    fg.connect(after, fg.add(snk))
    stats = fg.run(scheduler=scheduler, timeout=60)
    return snk.data(), {s["block"]: s for s in stats}


class SumDecim(rfgraph.DecimBlock):
    """Sums each group of ``decim`` items; checks GNU Radio's counts."""

    def __init__(self, decim):
        rfgraph.DecimBlock.__init__(
            self, name="sum_decim", in_sig=[np.int32], out_sig=[np.int32], decim=decim
        )
        self.bad_calls = 0

    def work(self, input_items, output_items):
        n = len(output_items[0])
        if len(input_items[0]) != n * self.decimation():
            self.bad_calls += 1
        output_items[0][:] = input_items[0].reshape(n, self.decimation()).sum(axis=1)
        return n


class Repeat(rfgraph.InterpBlock):
    """Repeats each item ``interp`` times."""

    def __init__(self, interp):
        super().__init__(name="repeat", in_sig=[np.float32], out_sig=[np.float32], interp=interp)
        self.bad_calls = 0

    def work(self, input_items, output_items):
        n = len(output_items[0])
        if n % self.interpolation() or len(input_items[0]) * self.interpolation() != n:
            self.bad_calls += 1
        output_items[0][:] = np.repeat(input_items[0], self.interpolation())
        return n


class KeepNonNegative(rfgraph.Block):
    """A variable-rate general block: passes the items >= 0, records
    the item counters it saw."""

    def __init__(self):
        rfgraph.Block.__init__(self, name="keep", in_sig=[np.float32], out_sig=[np.float32])
        self.read = 0
        self.written = 0
        self.counter_errors = 0

    def general_work(self, input_items, output_items):
        if self.nitems_read(0) != self.read or self.nitems_written(0) != self.written:
            self.counter_errors += 1
        n = min(len(input_items[0]), len(output_items[0]))
        chunk = input_items[0][:n]
        keep = chunk[chunk >= 0]
        output_items[0][: len(keep)] = keep
        self.consume(0, n)
        self.read += n
        self.written += len(keep)
        return len(keep)


class PairSum(rfgraph.BasicBlock):
    """A general block with a 2:1 forecast: out[i] = in[2i] + in[2i+1]."""

    def __init__(self):
        super().__init__(name="pair_sum", in_sig=[np.int16], out_sig=[np.int16])
        self.short = 0

    def forecast(self, noutput_items, ninput_items_required):
        ninput_items_required[0] = 2 * noutput_items

    def general_work(self, input_items, output_items):
        n = len(output_items[0])
        if len(input_items[0]) < 2 * n:
            self.short += 1
        pairs = input_items[0][: 2 * n].reshape(n, 2)
        output_items[0][:] = pairs[:, 0] + pairs[:, 1]
        self.consume_each(2 * n)
        return n


class EvenOdd(rfgraph.Block):
    """Even items to out0, odd ones to out1: ``produce`` per output."""

    def __init__(self):
        super().__init__(name="even_odd", in_sig=[np.int32], out_sig=[np.int32, np.int32])

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]), len(output_items[0]))
        chunk = input_items[0][:n]
        even, odd = chunk[chunk % 2 == 0], chunk[chunk % 2 == 1]
        output_items[0][: len(even)] = even
        output_items[1][: len(odd)] = odd
        self.consume(0, n)
        self.produce(0, len(even))
        self.produce(1, len(odd))
        return rfgraph.WORK_CALLED_PRODUCE


class Multiple64(rfgraph.SyncBlock):
    """Copies; output counts must be multiples of 64."""

    def __init__(self):
        super().__init__(name="m64", in_sig=[np.float32], out_sig=[np.float32])
        self.set_output_multiple(64)
        self.bad_calls = 0

    def work(self, input_items, output_items):
        if len(output_items[0]) % 64:
            self.bad_calls += 1
        output_items[0][:] = input_items[0]
        return len(output_items[0])


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_decim_block_equals_numpy(scheduler):
    x = np.random.default_rng(5).integers(-1000, 1000, 100_003).astype(np.int32)
    block = SumDecim(7)
    out, stats = run_chunked(x, block, np.int32, scheduler)
    whole = len(x) // 7 * 7
    np.testing.assert_array_equal(out, x[:whole].reshape(-1, 7).sum(axis=1))
    assert block.bad_calls == 0
    assert stats["sum_decim"]["items_produced"] == len(x) // 7


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_interp_block_equals_numpy(scheduler):
    x = np.random.default_rng(6).standard_normal(40_001).astype(np.float32)
    block = Repeat(3)
    out, stats = run_chunked(x, block, np.float32, scheduler)
    np.testing.assert_array_equal(out, np.repeat(x, 3))
    assert block.bad_calls == 0
    assert stats["repeat"]["items_produced"] == 3 * len(x)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_general_block_variable_rate_equals_numpy(scheduler):
    x = np.random.default_rng(7).standard_normal(100_000).astype(np.float32)
    block = KeepNonNegative()
    out, _ = run_chunked(x, block, np.float32, scheduler)
    np.testing.assert_array_equal(out, x[x >= 0])
    assert block.counter_errors == 0
    assert block.read == len(x)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_general_block_forecast(scheduler):
    x = np.arange(-30_001, 30_000, dtype=np.int16)  # odd length: one item left over
    block = PairSum()
    out, _ = run_chunked(x, block, np.int16, scheduler)
    whole = len(x) // 2 * 2
    np.testing.assert_array_equal(out, x[:whole].reshape(-1, 2).sum(axis=1).astype(np.int16))
    assert block.short == 0


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_general_block_produce_per_output(scheduler):
    x = np.random.default_rng(8).integers(0, 1 << 20, 50_000).astype(np.int32)
    fg = rfgraph.Flowgraph()
    src = fg.add(rfgraph.VectorSource(x))
    chunks = fg.add("copy_rand", type="i32", max=29, seed=3)
    split = fg.add(EvenOdd())
    even, odd = rfgraph.VectorSink(np.int32), rfgraph.VectorSink(np.int32)
    fg.connect(src, chunks)
    fg.connect(chunks, split)
    fg.connect(split, "out0", fg.add(even), "in")
    fg.connect(split, "out1", fg.add(odd), "in")
    fg.run(scheduler=scheduler, timeout=60)
    np.testing.assert_array_equal(even.data(), x[x % 2 == 0])
    np.testing.assert_array_equal(odd.data(), x[x % 2 == 1])


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_output_multiple(scheduler):
    x = np.random.default_rng(9).standard_normal(10_000).astype(np.float32)
    block = Multiple64()
    out, _ = run_chunked(x, block, np.float32, scheduler)
    # GNU Radio's rule: the last items short of a multiple stay unprocessed.
    np.testing.assert_array_equal(out, x[: len(x) // 64 * 64])
    assert block.bad_calls == 0


class StopAfter(rfgraph.SyncBlock):
    def __init__(self, limit):
        super().__init__(name="stop_after", in_sig=[np.float32], out_sig=[np.float32])
        self.left = limit

    def work(self, input_items, output_items):
        if self.left == 0:
            return rfgraph.WORK_DONE
        n = min(self.left, len(output_items[0]))
        output_items[0][:n] = input_items[0][:n]
        self.left -= n
        return n


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_work_done_ends_an_endless_graph(scheduler):
    fg = rfgraph.Flowgraph()
    src = fg.add("null_source", type="f32")
    stop = fg.add(StopAfter(12_345))
    snk = rfgraph.VectorSink(np.float32)
    fg.connect(src, stop)
    fg.connect(stop, fg.add(snk))
    fg.run(scheduler=scheduler, timeout=60)
    np.testing.assert_array_equal(snk.data(), np.zeros(12_345, np.float32))


class BadInterp(rfgraph.InterpBlock):
    def __init__(self):
        super().__init__(name="bad_interp", in_sig=[np.float32], out_sig=[np.float32], interp=4)

    def work(self, input_items, output_items):
        return 3


def test_interp_work_returning_a_partial_group_fails_the_run():
    fg = rfgraph.Flowgraph()
    bad = fg.add(BadInterp())
    fg.connect(fg.add("null_source", type="f32"), bad)
    fg.connect(bad, fg.add("null_sink", type="f32"))
    with pytest.raises(RuntimeError, match="not a multiple of the interpolation 4"):
        fg.run(scheduler="tpb", timeout=60)


class Overconsume(rfgraph.Block):
    def __init__(self):
        super().__init__(name="overconsume", in_sig=[np.float32], out_sig=[np.float32])

    def general_work(self, input_items, output_items):
        self.consume(0, len(input_items[0]) + 1)
        return 0


def test_consuming_more_than_available_fails_the_run():
    fg = rfgraph.Flowgraph()
    bad = fg.add(Overconsume())
    fg.connect(fg.add("null_source", type="f32"), bad)
    fg.connect(bad, fg.add("null_sink", type="f32"))
    with pytest.raises(RuntimeError, match=r"consumed \d+ items of input 0, more than the \d+ it holds"):
        fg.run(scheduler="single", timeout=60)


def test_declare_gives_the_registry_kind_and_a_slot():
    for block, kind, extra in [
        (SumDecim(4), "python_decim", {"decim": 4}),
        (Repeat(2), "python_interp", {"interp": 2}),
        (PairSum(), "python_general", {}),
        (Multiple64(), "python_sync", {}),
    ]:
        got_kind, params = rfgraph._declare(block)
        rfgraph._rfgraph.unstash_object(params["slot"])
        assert got_kind == kind
        assert isinstance(params.pop("slot"), int)
        assert params == {
            "type": rfgraph.VectorSource(np.zeros(1, block.in_sig[0])).item,
            "output_type": rfgraph.VectorSource(np.zeros(1, block.out_sig[0])).item,
            "ninputs": 1,
            "noutputs": 1,
            **extra,
        }


def test_block_ref_names_the_added_block():
    fg = rfgraph.Flowgraph()
    ref = fg.add(Repeat(2))
    assert isinstance(ref, rfgraph.BlockRef)
    assert (ref.name, ref.kind) == ("repeat", "python_interp")
    assert rfgraph.BasicBlock is rfgraph.Block
