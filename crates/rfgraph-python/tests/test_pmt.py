"""Python values <-> the runtime's Pmt: every variant maps to the Pmt
expected (its tagged JSON) and back to an equal Python value."""

import json

import numpy as np
import pytest

import rfgraph
from rfgraph import _rfgraph


def pmt(value):
    """The Pmt a value maps to, as its tagged JSON."""
    return json.loads(_rfgraph.pmt_json(value))


def back(value):
    return _rfgraph.pmt_round_trip(value)


SCALARS = [
    (None, {"type": "null"}),
    (True, {"type": "bool", "value": True}),
    (False, {"type": "bool", "value": False}),
    (-5, {"type": "i64", "value": -5}),
    (2**63 - 1, {"type": "i64", "value": 2**63 - 1}),
    (2**63, {"type": "u64", "value": 2**63}),
    (2**64 - 1, {"type": "u64", "value": 2**64 - 1}),
    (2.5, {"type": "f64", "value": 2.5}),
    (1.5 - 2j, {"type": "complex", "value": [1.5, -2.0]}),
    ("héllo", {"type": "string", "value": "héllo"}),
    (b"\x00\xffab", {"type": "blob", "value": [0, 255, 97, 98]}),
]


@pytest.mark.parametrize("value,expected", SCALARS)
def test_scalars_map_and_round_trip(value, expected):
    assert pmt(value) == expected
    got = back(value)
    assert got == value and type(got) is type(value)


def test_numpy_scalars():
    assert pmt(np.float32(0.25)) == {"type": "f32", "value": 0.25}
    got = back(np.float32(0.25))
    assert isinstance(got, np.float32) and got == np.float32(0.25)
    assert pmt(np.float64(0.5)) == {"type": "f64", "value": 0.5}
    assert pmt(np.int16(-7)) == {"type": "i64", "value": -7}
    assert pmt(np.uint64(2**64 - 1)) == {"type": "u64", "value": 2**64 - 1}
    assert pmt(np.bool_(True)) == {"type": "bool", "value": True}


def test_bytearray_is_a_blob():
    assert pmt(bytearray(b"ab")) == {"type": "blob", "value": [97, 98]}
    assert back(bytearray(b"ab")) == b"ab"


VECTORS = [
    (np.float32, "vec_f32", None),
    (np.complex64, "vec_complex_f32", None),
    (np.int8, "uniform", "i8"),
    (np.uint16, "uniform", "u16"),
    (np.int16, "uniform", "i16"),
    (np.uint32, "uniform", "u32"),
    (np.int32, "uniform", "i32"),
    (np.uint64, "uniform", "u64"),
    (np.int64, "uniform", "i64"),
    (np.float64, "uniform", "f64"),
    (np.complex128, "uniform", "c64"),
]


@pytest.mark.parametrize("dtype,variant,element", VECTORS)
def test_numpy_vectors_map_and_round_trip(dtype, variant, element):
    a = (np.arange(1, 6) * 3).astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * np.arange(5).astype(dtype)
    p = pmt(a)
    assert p["type"] == variant
    if element is not None:
        assert p["value"]["type"] == element
    got = back(a)
    assert isinstance(got, np.ndarray) and got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, a)
    got[0] = 0  # a copy of its own, writable


def test_uint8_arrays_are_blobs_and_come_back_as_bytes():
    a = np.array([1, 2, 250], dtype=np.uint8)
    assert pmt(a) == {"type": "blob", "value": [1, 2, 250]}
    assert back(a) == b"\x01\x02\xfa"


def test_non_native_byte_order_and_strided_arrays():
    a = np.arange(6, dtype=">i4")
    np.testing.assert_array_equal(back(a), np.arange(6, dtype=np.int32))
    b = np.arange(10, dtype=np.float32)[::3]
    np.testing.assert_array_equal(back(b), np.array([0, 3, 6, 9], np.float32))


def test_containers_map_and_round_trip():
    value = {"a": [1, "x", (2.0, None)], "b": {"c": b"z"}, "iq": np.ones(2, np.complex64)}
    p = pmt(value)
    assert p["type"] == "map"
    assert p["value"]["a"] == {
        "type": "list",
        "value": [
            {"type": "i64", "value": 1},
            {"type": "string", "value": "x"},
            {"type": "tuple", "value": [{"type": "f64", "value": 2.0}, {"type": "null"}]},
        ],
    }
    got = back(value)
    assert got["a"] == [1, "x", (2.0, None)] and type(got["a"][2]) is tuple
    assert got["b"] == {"c": b"z"}
    np.testing.assert_array_equal(got["iq"], np.ones(2, np.complex64))


def test_pair_stays_apart_from_a_tuple():
    pair = rfgraph.Pair("meta", b"data")
    assert (pair.car, pair.cdr) == ("meta", b"data")
    assert pmt(pair) == {
        "type": "pair",
        "value": [{"type": "string", "value": "meta"}, {"type": "blob", "value": [100, 97, 116, 97]}],
    }
    got = back(pair)
    assert isinstance(got, rfgraph.Pair) and got == ("meta", b"data")
    assert pmt(("meta", b"data"))["type"] == "tuple"
    assert not isinstance(back(("a", 1)), rfgraph.Pair)


def test_str_subclasses_are_strings():
    class Symbol(str):
        pass

    assert pmt(Symbol("freq")) == {"type": "string", "value": "freq"}


@pytest.mark.parametrize(
    "value,error,text",
    [
        (object(), TypeError, "no Pmt for a value of type object"),
        ({1: 2}, TypeError, "dict key must be a str"),
        (2**64, OverflowError, "outside"),
        (-(2**63) - 1, OverflowError, "outside"),
        (np.zeros((2, 2), np.float32), ValueError, "one-dimensional"),
        (np.zeros(2, np.float16), TypeError, "float16"),
    ],
)
def test_unmappable_values_raise(value, error, text):
    with pytest.raises(error, match=text):
        pmt(value)


def test_deep_and_self_containing_values_raise_instead_of_overflowing():
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="nested deeper"):
        pmt(loop)
    deep = []
    for _ in range(60):
        deep = [deep]
    assert back(deep) == deep
