"""numpy in and out: exact round trips of every item type."""

import numpy as np
import pytest

import rfgraph

DTYPES = [np.float32, np.complex64, np.float64, np.int32, np.int16, np.int8, np.uint8]


def sample(dtype, n):
    rng = np.random.default_rng(7)
    dt = np.dtype(dtype)
    if dt.kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    if dt.kind == "f":
        return rng.standard_normal(n).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scheduler", ["tpb", "chain"])
def test_round_trip_is_exact(dtype, scheduler):
    x = sample(dtype, 100_003)
    fg = rfgraph.Flowgraph()
    snk = rfgraph.VectorSink(dtype)
    fg.connect(fg.add(rfgraph.VectorSource(x)), fg.add(snk))
    fg.run(scheduler=scheduler, timeout=30)
    out = snk.data()
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(out, x)


def test_empty_array_and_byte_order():
    fg = rfgraph.Flowgraph()
    snk = rfgraph.VectorSink(np.int16)
    fg.connect(fg.add(rfgraph.VectorSource(np.array([], np.int16))), fg.add(snk))
    fg.run(timeout=30)
    assert snk.data().size == 0
    big = np.arange(1000, dtype=">i4")
    fg = rfgraph.Flowgraph()
    snk = rfgraph.VectorSink(np.int32)
    fg.connect(fg.add(rfgraph.VectorSource(big)), fg.add(snk))
    fg.run(timeout=30)
    np.testing.assert_array_equal(snk.data(), np.arange(1000, dtype=np.int32))


def test_unsupported_dtype_and_shape_raise():
    with pytest.raises(TypeError, match="no rfgraph item type"):
        rfgraph.VectorSource(np.zeros(4, np.uint16))
    with pytest.raises(ValueError, match="one-dimensional"):
        rfgraph.VectorSource(np.zeros((2, 2), np.float32))
    with pytest.raises(RuntimeError, match="not finished"):
        rfgraph.VectorSink(np.float32).data()
