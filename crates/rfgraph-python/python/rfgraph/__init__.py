"""rfgraph from Python: the block registry, flowgraphs built through it,
flowgraph files (``.toml`` and ``.grc``), and their runs.

A flowgraph built here is written as a flowgraph file's TOML and goes
through the same builder as a file: the same names, types and errors.
"""

import json
import math

import numpy as np

from . import _rfgraph
from ._blocks import (
    TPP_ALL_TO_ALL,
    TPP_DONT,
    TPP_ONE_TO_ONE,
    WORK_CALLED_PRODUCE,
    WORK_DONE,
    BasicBlock,
    Block,
    DecimBlock,
    InterpBlock,
    SyncBlock,
    _PythonBlock,
)
from ._items import item_of as _item
from ._values import Pair, Tag

__all__ = [
    "blocks",
    "Flowgraph",
    "BlockRef",
    "Run",
    "RunningBlock",
    "load",
    "VectorSource",
    "VectorSink",
    "SyncBlock",
    "DecimBlock",
    "InterpBlock",
    "Block",
    "BasicBlock",
    "Tag",
    "Pair",
    "WORK_CALLED_PRODUCE",
    "WORK_DONE",
    "TPP_DONT",
    "TPP_ALL_TO_ALL",
    "TPP_ONE_TO_ONE",
]

class VectorSource:
    """Plays a one-dimensional numpy array once: ``fg.add(VectorSource(a))``,
    with ``tags``, a list of ``(offset, key, value)`` (``offset`` an index
    into the array, ``value`` any value that maps to a ``Pmt``). The array
    is copied when made (later changes to it are not seen)."""

    def __init__(self, array, tags=None):
        a = np.asarray(array)
        if a.ndim != 1:
            raise ValueError(f"expected a one-dimensional array, got shape {a.shape}")
        self.dtype = a.dtype
        self.item = _item(a.dtype)
        tags = [(int(o), str(k), v) for o, k, v in (tags or [])]
        for offset, _, _ in tags:
            if not 0 <= offset < len(a):
                raise ValueError(f"tag offset {offset} is outside the array of {len(a)} items")
        data = np.ascontiguousarray(a, a.dtype.newbyteorder("=")).tobytes()
        self._slot = _rfgraph.stash(data, tags)

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
        self._tags = None

    def _declaration(self):
        return "vector_sink", {"type": self.item}

    def data(self):
        """The items received in the last finished run, as a numpy array."""
        if self._data is None:
            raise RuntimeError("the flowgraph has not finished a run yet")
        return self._data

    def tags(self):
        """The tags received in the last finished run, as a list of
        ``(offset, key, value)`` in offset order (``offset``: the item's
        index in :meth:`data`)."""
        if self._tags is None:
            raise RuntimeError("the flowgraph has not finished a run yet")
        return list(self._tags)


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
        # A string in a list is an expression: written as a string literal.
        return "[" + ", ".join(
            f"{{ expr = {json.dumps(repr(str(v)))} }}" if isinstance(v, str) else _toml_value(v)
            for v in value
        ) + "]"
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _toml_value(value.tolist())
    raise TypeError(f"unsupported parameter value {value!r} ({type(value).__name__})")


def _declare(block):
    """The registry declaration of Python block object ``block``:
    ``(registry_kind, params)``, ``params["slot"]`` the slot the object
    is stashed in. The caller owns the slot: it frees it with
    ``_rfgraph.unstash_object(params["slot"])`` once the flowgraph is
    built or dropped (a built block holds its own reference)."""
    if not isinstance(block, _PythonBlock):
        raise TypeError(
            f"expected a rfgraph.SyncBlock, DecimBlock, InterpBlock or Block, got {block!r}"
        )
    kind, params = block._declaration()
    params["slot"] = _rfgraph.stash_object(block)
    return kind, params


class _Slot:
    """A Python block's slot in the extension (from :func:`_declare`),
    freed with its owner (a flowgraph, a file's flowgraph, their runs)."""

    def __init__(self, slot):
        self.slot = slot

    def __del__(self):
        _rfgraph.unstash_object(self.slot)


_SPECS = None


def _message_ports(kind):
    """The message inputs (settable parameters' included) and outputs of
    registry block ``kind``."""
    global _SPECS
    if _SPECS is None:
        _SPECS = {b["name"]: b for b in blocks()}
    spec = _SPECS.get(kind)
    if spec is None:
        return [], []
    inputs = list(spec["message_inputs"])
    for p in spec["params"]:
        if p["settable"]:
            inputs += [p["name"], *p["aliases"]]
    return inputs, list(spec["message_outputs"])


class BlockRef:
    """A block added to a :class:`Flowgraph`; ``name`` is its instance name."""

    def __init__(self, name, kind, message_inputs=(), message_outputs=()):
        self.name = name
        self.kind = kind
        self._message_inputs = list(message_inputs)
        self._message_outputs = list(message_outputs)

    def __repr__(self):
        return f"BlockRef({self.name!r}, kind={self.kind!r})"


def _name_of(block):
    """A block's instance name, from a :class:`BlockRef` or a ``str``."""
    return block.name if isinstance(block, BlockRef) else str(block)


class RunningBlock:
    """A block of a running flowgraph (from :meth:`Run.block`): its
    settable parameters read and write as attributes (``blk.gain``,
    ``blk.gain = 2.0``) or with :meth:`get` / :meth:`set`; ``post`` and
    ``call`` reach its message inputs. Each read or write waits for the
    block to answer between two ``work`` calls; errors are ``ValueError``
    with the runtime's text."""

    def __init__(self, handle):
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_settable", frozenset(handle.settable()))

    @property
    def name(self):
        """The block's instance name."""
        return self._handle.name

    def params(self):
        """The names of the block's parameters."""
        return self._handle.params()

    def settable(self):
        """The names of the parameters that may change while it runs."""
        return sorted(self._settable)

    def get(self, name, timeout=5.0):
        """The current value of parameter ``name``."""
        return self._handle.get(name, timeout)

    def set(self, name, value, timeout=5.0):
        """Sets settable parameter ``name``; returns once the block took it
        (raises ``ValueError`` if it refused it)."""
        self._handle.set(name, value, timeout)

    def post(self, port, value):
        """Posts ``value`` to message input ``port`` without waiting."""
        self._handle.post(str(port), value)

    def call(self, port, value, timeout=5.0):
        """Posts ``value`` to message input ``port``; the handler's reply."""
        return self._handle.call(str(port), value, timeout)

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._settable:
            raise AttributeError(f"block `{self.name}` has no settable parameter `{name}`")
        return self.get(name)

    def __setattr__(self, name, value):
        if name not in self._settable:
            raise AttributeError(f"block `{self.name}` has no settable parameter `{name}`")
        self.set(name, value)

    def __repr__(self):
        return f"RunningBlock({self.name!r})"


class Run:
    """A started flowgraph."""

    def __init__(self, run, sinks=(), owners=()):
        self._run = run
        self._sinks = list(sinks)
        self._owners = list(owners)  # Python blocks' slots, freed with the run

    def stop(self):
        """Asks every block to finish as soon as possible."""
        self._run.stop()

    def is_finished(self):
        """True once every block is done."""
        return self._run.is_finished()

    def stats(self):
        """Every block's statistics now, as a list of dicts."""
        return json.loads(self._run.stats_json())

    def serve(self, addr="127.0.0.1:0", token=None, name="flowgraph"):
        """Serves this run on rfgraph's control port (REST API, live
        WebSocket, web UI), as ``rfgraph run --control`` does: listens on
        ``addr`` (port 0: any free port; loopback unless said otherwise),
        with ``token`` required when given (one is generated for a
        non-loopback address). Returns the web UI's URL; ``control_url``
        and ``control_token`` give the REST API's base URL and the token.
        Python blocks show there like the others. The port stops with
        the run object or at the next ``serve``."""
        ui, api, token = self._run.serve(addr, token, name)
        self.control_url = api
        self.control_token = token
        return ui

    def block(self, block):
        """The running block ``block`` (a :class:`BlockRef` or name) as a
        :class:`RunningBlock`: its settable parameters as attributes.
        Raises ``ValueError`` for no such block."""
        return RunningBlock(self._run.block(_name_of(block)))

    def post(self, block, port, value):
        """Posts ``value`` (mapped to a ``Pmt``) to message input ``port``
        of ``block`` without waiting. Raises ``ValueError`` with the
        runtime's error (no such port, block finished)."""
        self._run.block(_name_of(block)).post(str(port), value)

    def call(self, block, port, value, timeout=5.0):
        """Posts ``value`` to message input ``port`` of ``block`` and
        returns the handler's reply (waits at most ``timeout`` seconds).
        Raises ``ValueError`` with the runtime's error (the handler's
        failure, no reply in time, ...)."""
        return self._run.block(_name_of(block)).call(str(port), value, timeout)

    def messages(self, block):
        """The messages the ``message_sink`` ``block`` (a :class:`BlockRef`
        or name) kept, as Python values, once :meth:`wait` returned."""
        return self._run.sink_messages(_name_of(block))

    def wait(self, timeout=None):
        """Waits until every block is done and returns the statistics as a
        list of dicts. With ``timeout`` (seconds), a run still going then
        is stopped and ``RuntimeError`` raised. A block's failure raises
        ``RuntimeError`` with its error; Ctrl-C stops the run."""
        stats = json.loads(self._run.wait(timeout))
        for name, sink in self._sinks:
            raw, tags = self._run.sink_contents(name, sink.item)
            sink._data = np.frombuffer(raw, dtype=sink.dtype).copy()
            sink._tags = tags
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
        ``python_*``: blocks of this package, whose data lives here)."""
        return self._text()

    def add(self, kind, name=None, **params):
        """Adds a block of registry name ``kind`` with ``params``, or a
        :class:`VectorSource` or :class:`VectorSink`, or a Python block
        (:class:`SyncBlock`, ...); returns its :class:`BlockRef`. Raises ``ValueError`` for an unknown block or
        parameter or a value of the wrong type, as a flowgraph file would."""
        numpy_block = None
        stashed = None
        block_object = kind
        if isinstance(kind, _PythonBlock):
            kind, params = _declare(kind)
            stashed = _Slot(params["slot"])
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
        ins, outs = _message_ports(kind)
        if stashed is not None:
            ins += block_object.message_ports_in()
            outs += block_object.message_ports_out()
        return BlockRef(name, kind, ins, outs)

    def connect(self, src, a, b=None, c=None):
        """``connect(src, "out", dst, "in")`` or ``connect(src, dst)`` when
        each has a single stream port. A message output or a message input
        named makes it a message connection."""
        if b is None:
            ends = [(src, None), (a, None)]
        else:
            ends = [(src, a), (b, c)]
        text = []
        for block, port in ends:
            if not isinstance(block, BlockRef):
                raise TypeError(f"expected a BlockRef from Flowgraph.add, got {block!r}")
            text.append(block.name if port is None else f"{block.name}.{port}")
        (src_ref, out), (dst_ref, into) = ends
        message = out is not None and (
            out in src_ref._message_outputs or into in dst_ref._message_inputs
        )
        self._connections.append((" => " if message else " -> ").join(text))

    def start(self, scheduler=None, cores=None):
        """Builds the flowgraph and starts it on ``scheduler`` (``tpb``,
        ``single``, ``pool`` or ``chain``; default ``tpb``) and returns its
        :class:`Run`. ``cores`` is a number of worker threads (``pool``,
        ``chain``) or the CPUs to run on, ``[0, 1]``: ``chain`` and
        ``pool`` get a worker per CPU (``chain``'s pinned to it), ``tpb``
        and ``single`` keep their threads on those CPUs."""
        return Run(_rfgraph.start_text(self._text(), "<python>", scheduler, cores), self._sinks)

    def run(self, scheduler=None, cores=None, timeout=None):
        """Builds, runs until every block is done, returns the statistics
        as a list of dicts (see :meth:`Run.wait`)."""
        return self.start(scheduler, cores).wait(timeout)


class FileFlowgraph:
    """A flowgraph file (``.toml`` or ``.grc``), built when started. Its
    Python blocks (``kind = "python"``, GRC ``epy_block``) are made when
    it is loaded."""

    def __init__(self, path, overrides=()):
        from . import _embed

        self.path = str(path)
        self._overrides = [tuple(o) for o in overrides]
        self._doc, self._owners = _embed.prepare(self.path, self._overrides)
        self._doc.check(self._overrides)

    def start(self, scheduler=None, cores=None):
        """Builds the file and starts it; returns its :class:`Run`."""
        run = self._doc.start(scheduler, cores, self._overrides)
        return Run(run, owners=self._owners)

    def run(self, scheduler=None, cores=None, timeout=None):
        """Builds, runs until every block is done, returns the statistics."""
        return self.start(scheduler, cores).wait(timeout)


def load(path):
    """A flowgraph file (``.toml`` or GNU Radio Companion ``.grc``), checked
    now (raises ``ValueError`` with the file's error) and built when run.
    Its Python blocks are made now: TOML ``kind = "python"`` with
    ``module = "mymod:MyBlock"`` (imported from ``sys.path``, the file's
    folder first; every other key a keyword argument), GRC ``epy_block``
    and ``epy_module`` (``gnuradio.gr`` and ``pmt`` are rfgraph's shim,
    :mod:`rfgraph.gnuradio_compat`, while their code runs)."""
    return FileFlowgraph(str(path))
