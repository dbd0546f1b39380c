"""A compatibility shim for code written for GNU Radio's Python API:
``from gnuradio import gr`` and ``import pmt`` as GRC's embedded Python
blocks use them, mapped onto rfgraph's Python blocks.

:func:`installed` puts the shim in ``sys.modules`` as ``gnuradio``,
``gnuradio.gr`` and ``pmt`` for a ``with`` block only, then restores
what was there, so a real GNU Radio in the same interpreter is not
shadowed outside it. rfgraph hands Python blocks plain Python values
(numbers, ``str``, ``bytes``, lists, tuples, dicts, numpy arrays), so
most of :mod:`.pmt` converts or passes values through.
"""

import contextlib
import sys

from . import gr, pmt

__all__ = ["gr", "pmt", "installed"]

# The names the shim stands for, and the module each is.
_MODULES = {"gnuradio": sys.modules[__name__], "gnuradio.gr": gr, "pmt": pmt}


@contextlib.contextmanager
def installed():
    """``gnuradio``, ``gnuradio.gr`` and ``pmt`` import the shim inside
    the ``with`` block; what ``sys.modules`` held before is restored."""
    saved = {name: sys.modules.get(name) for name in _MODULES}
    sys.modules.update(_MODULES)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
