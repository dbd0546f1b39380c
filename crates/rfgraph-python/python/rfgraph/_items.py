"""numpy dtypes and rfgraph's stream item types."""

import numpy as np

# numpy dtypes and rfgraph's item types.
_ITEM_OF_DTYPE = {
    np.dtype(np.float32): "f32",
    np.dtype(np.complex64): "c32",
    np.dtype(np.float64): "f64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int16): "i16",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "u8",
}


def item_of(dtype):
    """rfgraph's item type for a numpy dtype (native byte order)."""
    dt = np.dtype(dtype)
    try:
        return _ITEM_OF_DTYPE[dt.newbyteorder("=")]
    except KeyError:
        known = ", ".join(str(d) for d in _ITEM_OF_DTYPE)
        raise TypeError(f"no rfgraph item type for dtype {dt} (known: {known})") from None
