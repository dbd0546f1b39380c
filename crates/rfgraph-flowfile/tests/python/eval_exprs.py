"""Evaluates each line of stdin as a Python expression with the test's
variables and prints one JSON object per line: {"ok": value} or
{"err": "ExceptionName"}. Complex numbers become {"re": .., "im": ..},
tuples lists. Used by tests/expr_python.rs."""
import json
import math
import sys

import numpy
np = numpy

env = {
    "math": math, "numpy": numpy, "np": np,
    "samp_rate": 2.4e6, "decim": 10, "taps": [0.5, 0.25], "name": "fm",
}
try:
    from gnuradio.filter import firdes
    from gnuradio.fft import window
    env["firdes"] = firdes
    env["window"] = window
except ImportError:
    pass


def plain(v):
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        if math.isinf(v) or math.isnan(v):
            return {"float": repr(v)}
        return v
    if isinstance(v, complex):
        return {"re": v.real, "im": v.imag}
    if isinstance(v, (list, tuple, range)):
        return [plain(x) for x in v]
    if isinstance(v, numpy.generic):
        return plain(v.item())
    if isinstance(v, numpy.ndarray):
        return [plain(x) for x in v.tolist()]
    raise TypeError("cannot show %r" % (v,))


for line in sys.stdin:
    text = line.rstrip("\n")
    try:
        out = {"ok": plain(eval(text, dict(env, __builtins__=__builtins__)))}
    except Exception as e:  # noqa: BLE001 - the name is the answer
        out = {"err": type(e).__name__}
    print(json.dumps(out))
