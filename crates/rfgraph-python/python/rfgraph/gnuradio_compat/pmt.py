"""GNU Radio's ``pmt`` as embedded Python blocks use it, on plain Python
values: rfgraph hands Python blocks and message handlers ``None``,
``bool``, ``int``, ``float``, ``complex``, ``str``, ``bytes``, lists,
tuples, dicts and numpy arrays (uniform vectors), and takes them back.
So ``from_*``/``to_*`` convert, ``intern`` makes a symbol (a ``str``),
a pair is a 2-tuple and a dict a ``dict``."""

import numpy as np

PMT_NIL = None
PMT_T = True
PMT_F = False
PMT_EOF = None


class _Symbol(str):
    """A symbol: a ``str`` (what rfgraph takes as a key or port name)."""

    def __repr__(self):
        return str(self)


class _Pair(tuple):
    """A pair (``cons``): a 2-tuple."""


# Symbols, strings.
def intern(s):
    """A symbol for ``s``."""
    return _Symbol(s)


string_to_symbol = intern
mp = intern


def symbol_to_string(p):
    """A symbol's text."""
    return str(p)


def is_symbol(p):
    """True for a symbol (any ``str``)."""
    return isinstance(p, str)


# Conversions.
def to_python(p):
    """The Python value of ``p`` (a plain value already)."""
    if isinstance(p, _Symbol):
        return str(p)
    if isinstance(p, _Pair):
        return (to_python(p[0]), to_python(p[1]))
    return p


def to_pmt(x):
    """``x`` as a message value (plain values are)."""
    return x


def from_bool(b):
    return bool(b)


def to_bool(p):
    return bool(p)


def from_long(i):
    return int(i)


from_uint64 = from_long
from_int = from_long


def to_long(p):
    return int(p)


to_uint64 = to_long


def from_double(x):
    return float(x)


from_float = from_double


def to_double(p):
    return float(p)


to_float = to_double


def from_complex(z, im=None):
    return complex(z) if im is None else complex(z, im)


def to_complex(p):
    return complex(p)


def is_null(p):
    return p is None


def is_bool(p):
    return isinstance(p, (bool, np.bool_))


def is_true(p):
    return p is not False


def is_false(p):
    return p is False


def is_integer(p):
    return isinstance(p, (int, np.integer)) and not is_bool(p)


is_uint64 = is_integer


def is_real(p):
    return isinstance(p, (float, np.floating))


def is_complex(p):
    return isinstance(p, (complex, np.complexfloating))


def is_number(p):
    return is_integer(p) or is_real(p) or is_complex(p)


def eq(a, b):
    """Equality (element-wise equal arrays are equal)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return a == b


equal = eq
eqv = eq


# Pairs, tuples, lists.
def cons(a, b):
    """A pair of ``a`` and ``b``."""
    return _Pair((a, b))


def car(p):
    return p[0]


def cdr(p):
    return p[1]


def is_pair(p):
    return isinstance(p, tuple) and len(p) == 2


def is_pdu(p):
    return is_pair(p) and is_dict(p[0]) and is_uniform_vector(p[1])


def make_tuple(*items):
    return tuple(items)


def to_tuple(x):
    return tuple(x)


def tuple_ref(t, i):
    return t[i]


def is_tuple(p):
    return isinstance(p, tuple)


def list1(a):
    return [a]


def list2(a, b):
    return [a, b]


def list3(a, b, c):
    return [a, b, c]


def is_vector(p):
    return isinstance(p, list)


def make_vector(n, fill):
    return [fill] * n


def vector_ref(v, i):
    return v[i]


def length(p):
    return len(p)


# Dictionaries (``dict_add`` returns a new dict, as GNU Radio's does).
def make_dict():
    return {}


dict = make_dict  # noqa: A001 (GNU Radio's name)


def is_dict(p):
    return isinstance(p, type({}))


def dict_add(d, k, v):
    out = type({})(d or {})
    out[k] = v
    return out


def dict_delete(d, k):
    out = type({})(d or {})
    out.pop(k, None)
    return out


def dict_has_key(d, k):
    return k in d


def dict_ref(d, k, default):
    return d.get(k, default)


def dict_keys(d):
    return list(d.keys())


def dict_values(d):
    return list(d.values())


def dict_items(d):
    return list(d.items())


# Uniform vectors: numpy arrays.
_VECTORS = {
    "u8": np.uint8,
    "s8": np.int8,
    "u16": np.uint16,
    "s16": np.int16,
    "u32": np.uint32,
    "s32": np.int32,
    "u64": np.uint64,
    "s64": np.int64,
    "f32": np.float32,
    "f64": np.float64,
    "c32": np.complex64,
    "c64": np.complex128,
}


def is_uniform_vector(p):
    return isinstance(p, np.ndarray) and p.ndim == 1


def uniform_vector_elements(v):
    return list(np.asarray(v).tolist())


def _vector_functions(tag, dtype):
    def init(n, items=None):
        # GNU Radio: init_f32vector(n, items); items alone is accepted too.
        if items is None:
            items = n
        return np.array(list(items), dtype=dtype)

    def make(n, fill):
        return np.full(int(n), fill, dtype=dtype)

    def elements(v):
        return np.asarray(v, dtype=dtype).tolist()

    def is_(p):
        return isinstance(p, np.ndarray) and p.dtype == np.dtype(dtype)

    def ref(v, i):
        return np.asarray(v, dtype=dtype)[i]

    g = globals()
    g[f"init_{tag}vector"] = init
    g[f"make_{tag}vector"] = make
    g[f"{tag}vector_elements"] = elements
    g[f"is_{tag}vector"] = is_
    g[f"{tag}vector_ref"] = ref
    g[f"{tag}vector"] = init


for _tag, _dtype in _VECTORS.items():
    _vector_functions(_tag, _dtype)
del _tag, _dtype


def is_blob(p):
    return isinstance(p, (bytes, bytearray))


def make_blob(b, n=None):
    return bytes(b if n is None else b[:n])


def blob_data(p):
    return bytes(p)


def blob_length(p):
    return len(p)


def write_string(p):
    return str(p)
