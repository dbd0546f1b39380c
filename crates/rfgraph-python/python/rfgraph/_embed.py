"""Flowgraph files with Python blocks: TOML ``kind = "python"``
(``module = "mymod:MyBlock"``, other keys keyword arguments) and GRC's
``epy_block`` / ``epy_module``.

:func:`prepare` reads a file into its document, runs its embedded
modules (importable by their ids from then on), makes each Python block
(``Class(**kwargs)``, with the GNU Radio shim standing for ``gnuradio``
and ``pmt`` meanwhile) and puts in its place the registry block
``rfgraph._declare`` makes of it. The slots of the blocks' objects live
as long as the returned owners.
"""

import contextlib
import importlib
import inspect
import math
import os
import sys
import types

import numpy as np

from . import _rfgraph
from . import gnuradio_compat


@contextlib.contextmanager
def _on_path(folder):
    """``folder`` first on ``sys.path`` inside the ``with`` block."""
    sys.path.insert(0, folder)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(folder)


def _block_bases():
    import rfgraph

    names = ("SyncBlock", "DecimBlock", "InterpBlock", "BasicBlock")
    return tuple(getattr(rfgraph, n) for n in names if hasattr(rfgraph, n))


def _block_class(source, name):
    """The first block class GRC code ``source`` defines (as GRC takes
    it), the code run as module ``name``."""
    module = types.ModuleType(name)
    module.__file__ = f"<epy_block {name}>"
    exec(compile(source, module.__file__, "exec"), module.__dict__)  # noqa: S102 (the file's own code)
    bases = _block_bases()
    shim = gnuradio_compat.gr.BASES
    for value in list(module.__dict__.values()):
        if (
            inspect.isclass(value)
            and issubclass(value, bases)
            and value not in shim
            and value not in bases
        ):
            return value
    raise ValueError("no Python block class found in its code (a gr.sync_block subclass, ...)")


def _module_class(spec):
    """The class ``module:Class`` names."""
    module_name, sep, class_name = spec.partition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(f"module = {spec!r}: expected \"mymod:MyBlock\"")
    obj = importlib.import_module(module_name)
    for part in class_name.split("."):
        obj = getattr(obj, part)
    return obj


def _scope(variables, modules):
    """What a GRC expression left to Python sees."""
    scope = {"np": np, "numpy": np, "math": math, "pmt": gnuradio_compat.pmt}
    scope.update(modules)
    scope.update(variables)
    return scope


def prepare(path, overrides=()):
    """Reads flowgraph file ``path`` and makes its Python blocks; returns
    ``(document, owners)``: keep ``owners`` as long as the document or a
    run of it lives (they free the blocks' slots)."""
    import rfgraph

    path = str(path)
    doc = _rfgraph.read_file(path)
    overrides = [tuple(o) for o in overrides]
    modules, blocks, variables = doc.declarations(overrides)
    owners = []
    if not modules and not blocks:
        return doc, owners
    folder = os.path.dirname(os.path.abspath(path))
    made = {}
    with gnuradio_compat.installed(), _on_path(folder):
        for name, source in modules:
            module = types.ModuleType(name)
            module.__file__ = f"<epy_module {name}>"
            exec(compile(source, module.__file__, "exec"), module.__dict__)  # noqa: S102
            sys.modules[name] = module
            made[name] = module
        for name, module_spec, source, kwargs, at in blocks:
            try:
                cls = _module_class(module_spec) if module_spec else _block_class(source, name)
                args = {}
                for key, value, text in kwargs:
                    if text is not None:
                        value = eval(text, _scope(variables, made))  # noqa: S307 (the file's own expression)
                    args[key] = value
                obj = cls(**args)
                kind, params = rfgraph._declare(obj)
                owners.append(rfgraph._Slot(params["slot"]))
            except Exception as e:
                raise ValueError(f"{at}: Python block `{name}`: {type(e).__name__}: {e}") from e
            doc.resolve(name, kind, params)
    doc.drop_modules()
    return doc, owners
