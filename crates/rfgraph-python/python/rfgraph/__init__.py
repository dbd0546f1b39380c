"""rfgraph from Python: the block registry, flowgraphs built through it,
flowgraph files (``.toml`` and ``.grc``), and their runs.

A flowgraph built here is written as a flowgraph file's TOML and goes
through the same builder as a file: the same names, types and errors.
"""

import json
import math
import sys

import numpy as np

from . import _rfgraph

__all__ = [
    "blocks",
    "Flowgraph",
    "Block",
    "Run",
    "load",
    "VectorSource",
    "VectorSink",
    "SyncBlock",
]

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


def _item(dtype):
    """rfgraph's item type for a numpy dtype (native byte order)."""
    dt = np.dtype(dtype)
    try:
        return _ITEM_OF_DTYPE[dt.newbyteorder("=")]
    except KeyError:
        known = ", ".join(str(d) for d in _ITEM_OF_DTYPE)
        raise TypeError(f"no rfgraph item type for dtype {dt} (known: {known})") from None


class VectorSource:
    """Plays a one-dimensional numpy array once: ``fg.add(VectorSource(a))``.
    The array is copied when made (later changes to it are not seen)."""

    def __init__(self, array):
        a = np.asarray(array)
        if a.ndim != 1:
            raise ValueError(f"expected a one-dimensional array, got shape {a.shape}")
        self.dtype = a.dtype
        self.item = _item(a.dtype)
        self._slot = _rfgraph.stash(np.ascontiguousarray(a, a.dtype.newbyteorder("=")).tobytes())

    def __del__(self):
        slot = getattr(self, "_slot", None)
        if slot is not None:
            _rfgraph.unstash(slot)

    def _declaration(self):
        return "numpy_source", {"slot": self._slot, "type": self.item}


class VectorSink:
    """Keeps every item it receives: ``snk = VectorSink(np.float32)``,
    ``fg.add(snk)``; after the run ``snk.data()`` is a numpy array."""

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)
        self.item = _item(self.dtype)
        self._data = None

    def _declaration(self):
        return "vector_sink", {"type": self.item}

    def data(self):
        """The items received in the last finished run, as a numpy array."""
        if self._data is None:
            raise RuntimeError("the flowgraph has not finished a run yet")
        return self._data


def blocks():
    """Every block of the registry as a dict: name, category, summary, doc,
    params, inputs, outputs, message_inputs, message_outputs (the JSON of
    ``rfgraph blocks --json``)."""
    return json.loads(_rfgraph.blocks_json())


def _toml_value(value):
    """A Python value as a TOML value of a flowgraph file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"{value!r} is not a finite number")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, complex):
        return json.dumps(repr(value))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _toml_value(value.tolist())
    raise TypeError(f"unsupported parameter value {value!r} ({type(value).__name__})")


class SyncBlock:
    """A 1:1 block written in Python, as GNU Radio's ``gr.sync_block``::

        class Double(rfgraph.SyncBlock):
            def __init__(self):
                rfgraph.SyncBlock.__init__(
                    self, name="double", in_sig=[np.float32], out_sig=[np.float32])

            def work(self, input_items, output_items):
                output_items[0][:] = input_items[0] * 2
                return len(output_items[0])

    ``work`` gets each input and output as a numpy array viewing the ring
    buffer itself (no copy), valid only during the call: keep a copy
    (``np.copy``), not the array. It returns how many items it produced
    (and consumed from each input). All inputs share one dtype, all
    outputs another. Ports are ``in0``, ``in1``, ... and ``out0``, ...
    An exception stops the flowgraph with its traceback in the error.
    """

    def __init__(self, name="", in_sig=None, out_sig=None):
        self.name = name
        self.in_sig = [np.dtype(d) for d in (in_sig or [])]
        self.out_sig = [np.dtype(d) for d in (out_sig or [])]
        for side, sig in (("in_sig", self.in_sig), ("out_sig", self.out_sig)):
            if len({d.newbyteorder("=") for d in sig}) > 1:
                raise TypeError(f"{side}: every port of a side must have the same dtype")
            for d in sig:
                _item(d)
        if not self.in_sig and not self.out_sig:
            raise ValueError("a block needs at least one input or output")

    def work(self, input_items, output_items):
        """Computes ``output_items`` from ``input_items``; returns the
        number of items produced."""
        raise NotImplementedError("a SyncBlock defines work(self, input_items, output_items)")

    def _rfgraph_work(self, ins, outs):
        din = self.in_sig[0] if self.in_sig else None
        dout = self.out_sig[0] if self.out_sig else None
        inputs = [np.frombuffer(v, din) for v in ins]
        outputs = [np.frombuffer(v, dout) for v in outs]
        # Each array's buffer object: numpy's own memoryview, which every
        # array made from it (slices too) references while it lives.
        bases = [a.base for a in inputs + outputs]
        produced = int(self.work(inputs, outputs))
        del inputs, outputs
        for i in range(len(bases)):
            # References: `bases` and getrefcount's argument (no loop
            # variable: it would be one more). More means an array of the
            # ring buffer outlives this call.
            if sys.getrefcount(bases[i]) > 2:
                raise BufferError(
                    "work kept a numpy view of its input or output past the call; "
                    "keep a copy (np.copy) instead"
                )
        return produced

    def _declaration(self):
        sig_in = self.in_sig or self.out_sig
        sig_out = self.out_sig or self.in_sig
        return "python_sync", {
            "type": _item(sig_in[0]),
            "output_type": _item(sig_out[0]),
            "ninputs": len(self.in_sig),
            "noutputs": len(self.out_sig),
        }


class _Stashed:
    """A Python block's slot in the extension, freed with the flowgraph."""

    def __init__(self, block):
        self.slot = _rfgraph.stash_object(block)

    def __del__(self):
        _rfgraph.unstash_object(self.slot)


class Block:
    """A block added to a :class:`Flowgraph`; ``name`` is its instance name."""

    def __init__(self, name, kind):
        self.name = name
        self.kind = kind

    def __repr__(self):
        return f"Block({self.name!r}, kind={self.kind!r})"


class Run:
    """A started flowgraph."""

    def __init__(self, run, sinks=()):
        self._run = run
        self._sinks = list(sinks)

    def stop(self):
        """Asks every block to finish as soon as possible."""
        self._run.stop()

    def is_finished(self):
        """True once every block is done."""
        return self._run.is_finished()

    def stats(self):
        """Every block's statistics now, as a list of dicts."""
        return json.loads(self._run.stats_json())

    def wait(self, timeout=None):
        """Waits until every block is done and returns the statistics as a
        list of dicts. With ``timeout`` (seconds), a run still going then
        is stopped and ``RuntimeError`` raised. A block's failure raises
        ``RuntimeError`` with its error; Ctrl-C stops the run."""
        stats = json.loads(self._run.wait(timeout))
        for name, sink in self._sinks:
            raw = self._run.sink_bytes(name, sink.item)
            sink._data = np.frombuffer(raw, dtype=sink.dtype).copy()
        return stats


class Flowgraph:
    """A flowgraph built from Python::

        fg = rfgraph.Flowgraph()
        src = fg.add("sig_source", type="f32", frequency=1e3, sample_rate=48e3)
        head = fg.add("head", type="f32", items=1000)
        fg.connect(src, head)
        ...
        stats = fg.run(scheduler="chain")
    """

    def __init__(self):
        self._blocks = []
        self._connections = []
        self._sinks = []
        self._sources = []

    def _text(self, blocks=None, connections=None):
        blocks = self._blocks if blocks is None else blocks
        connections = self._connections if connections is None else connections
        lines = ["format = 1", "connections = ["]
        lines += [f"  {json.dumps(c)}," for c in connections]
        lines.append("]")
        for name, kind, params in blocks:
            lines.append(f"[blocks.{json.dumps(name)}]")
            lines.append(f"kind = {json.dumps(kind)}")
            lines += [f"{json.dumps(k)} = {v}" for k, v in params]
        return "\n".join(lines) + "\n"

    def to_toml(self):
        """The flowgraph as a flowgraph file's TOML. ``rfgraph run`` runs it
        unless it holds numpy or Python blocks (``numpy_source``,
        ``python_sync``: blocks of this package, whose data lives here)."""
        return self._text()

    def add(self, kind, name=None, **params):
        """Adds a block of registry name ``kind`` with ``params``, or a
        :class:`VectorSource` or :class:`VectorSink`; returns its
        :class:`Block`. Raises ``ValueError`` for an unknown block or
        parameter or a value of the wrong type, as a flowgraph file would."""
        numpy_block = None
        stashed = None
        block_object = kind
        if isinstance(kind, SyncBlock):
            stashed = _Stashed(kind)
            kind, params = kind._declaration()
            params["slot"] = stashed.slot
        elif isinstance(kind, (VectorSource, VectorSink)):
            numpy_block = kind
            kind, params = kind._declaration()
        taken = {b[0] for b in self._blocks}
        if name is None and stashed is not None and getattr(block_object, "name", ""):
            name = block_object.name if block_object.name not in taken else None
        if name is None:
            n = 0
            while f"{kind}{n}" in taken:
                n += 1
            name = f"{kind}{n}"
        elif name in taken:
            raise ValueError(f"a block named `{name}` already exists")
        entry = (name, kind, [(k, _toml_value(v)) for k, v in params.items()])
        _rfgraph.check_text(self._text([entry], []), "<python>", True)
        self._blocks.append(entry)
        if stashed is not None:
            self._sources.append(stashed)
        if isinstance(numpy_block, VectorSource):
            self._sources.append(numpy_block)  # keeps its slot alive
        elif numpy_block is not None:
            self._sinks.append((name, numpy_block))
        return Block(name, kind)

    def connect(self, src, a, b=None, c=None):
        """``connect(src, "out", dst, "in")`` or ``connect(src, dst)`` when
        each has a single stream port."""
        if b is None:
            ends = [(src, None), (a, None)]
        else:
            ends = [(src, a), (b, c)]
        text = []
        for block, port in ends:
            if not isinstance(block, Block):
                raise TypeError(f"expected a Block from Flowgraph.add, got {block!r}")
            text.append(block.name if port is None else f"{block.name}.{port}")
        self._connections.append(" -> ".join(text))

    def start(self, scheduler=None, cores=None):
        """Builds the flowgraph and starts it on ``scheduler`` (``tpb``,
        ``single``, ``pool`` or ``chain``; default ``tpb``) with ``cores``
        worker threads; returns its :class:`Run`."""
        return Run(_rfgraph.start_text(self._text(), "<python>", scheduler, cores), self._sinks)

    def run(self, scheduler=None, cores=None, timeout=None):
        """Builds, runs until every block is done, returns the statistics
        as a list of dicts (see :meth:`Run.wait`)."""
        return self.start(scheduler, cores).wait(timeout)


class FileFlowgraph:
    """A flowgraph file (``.toml`` or ``.grc``), built when started."""

    def __init__(self, path):
        self.path = str(path)

    def start(self, scheduler=None, cores=None):
        """Builds the file and starts it; returns its :class:`Run`."""
        return Run(_rfgraph.start_file(self.path, scheduler, cores))

    def run(self, scheduler=None, cores=None, timeout=None):
        """Builds, runs until every block is done, returns the statistics."""
        return self.start(scheduler, cores).wait(timeout)


def load(path):
    """A flowgraph file (``.toml`` or GNU Radio Companion ``.grc``), checked
    now (raises ``ValueError`` with the file's error) and built when run."""
    path = str(path)
    _rfgraph.check_file(path)
    return FileFlowgraph(path)
