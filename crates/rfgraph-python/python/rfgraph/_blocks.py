"""Blocks written in Python, as GNU Radio's Python gateway names them:
:class:`SyncBlock` (``gr.sync_block``), :class:`DecimBlock`
(``gr.decim_block``), :class:`InterpBlock` (``gr.interp_block``) and the
general :class:`Block` (``gr.basic_block``, alias :class:`BasicBlock`).

The runtime calls ``_rfgraph_work(inputs, outputs, tags)`` with
``memoryview`` s straight onto its ring buffers, sized by the kind's rules
(see ``src/pyblock`` in the extension); this module turns them into numpy
arrays, calls ``work`` or ``general_work``, refuses a call that kept an
array of a view past its end, and reports the counts and added tags.
"""

import sys
import threading
from fractions import Fraction

import numpy as np

from ._items import item_of
from ._values import Tag

#: ``general_work`` returns this after calling :meth:`Block.produce`.
WORK_CALLED_PRODUCE = -2
#: ``work`` returns this when the block is done (no more output).
WORK_DONE = -1

#: Tag propagation policies (GNU Radio's numbers): none, every input's
#: tags to every output (the default), input ``i``'s to output ``i``.
TPP_DONT = 0
TPP_ALL_TO_ALL = 1
TPP_ONE_TO_ONE = 2
_POLICIES = (TPP_DONT, TPP_ALL_TO_ALL, TPP_ONE_TO_ONE)


def _check_released(bases):
    """Refuses a call that kept an array of a ring-buffer view: each
    ``bases`` entry is numpy's own memoryview of one view, referenced by
    every array made from it while that lives."""
    for i in range(len(bases)):
        # References: `bases` and getrefcount's argument (no loop
        # variable: it would be one more). More means an array of the
        # ring buffer outlives this call.
        if sys.getrefcount(bases[i]) > 2:
            raise BufferError(
                "work kept a numpy view of its input or output past the call; "
                "keep a copy (np.copy) instead"
            )


class _PythonBlock:
    """What every Python block shares: signatures, item counters, tags,
    output multiple, the declaration the registry builds it from."""

    _registry_kind = None

    def __init__(self, name="", in_sig=None, out_sig=None):
        self.name = name
        self.in_sig = [np.dtype(d) for d in (in_sig or [])]
        self.out_sig = [np.dtype(d) for d in (out_sig or [])]
        for side, sig in (("in_sig", self.in_sig), ("out_sig", self.out_sig)):
            if len({d.newbyteorder("=") for d in sig}) > 1:
                raise TypeError(f"{side}: every port of a side must have the same dtype")
            for d in sig:
                item_of(d)
        self._din = self.in_sig[0] if self.in_sig else None
        self._dout = self.out_sig[0] if self.out_sig else None
        self._nread = [0] * len(self.in_sig)
        self._nwritten = [0] * len(self.out_sig)
        self._output_multiple = 1
        self._tpp = TPP_ALL_TO_ALL
        self._tags_in = None
        self._added = None
        self._message_inputs = []
        self._message_outputs = []
        self._handlers = {}
        self._published = None
        self._publish_lock = threading.Lock()
        # The thread of the runtime's current call into this block.
        self._call_thread = None

    # -- GNU Radio's block API --------------------------------------------

    def nitems_read(self, which_input):
        """Items consumed from input ``which_input`` before this call."""
        return self._nread[which_input]

    def nitems_written(self, which_output):
        """Items produced on output ``which_output`` before this call."""
        return self._nwritten[which_output]

    def set_output_multiple(self, multiple):
        """Output counts of every call are a multiple of ``multiple``; call
        it in ``__init__`` (the runtime reads it when the flowgraph starts)."""
        multiple = int(multiple)
        if multiple < 1:
            raise ValueError(f"output multiple {multiple} is below 1")
        self._output_multiple = multiple

    def output_multiple(self):
        """The output multiple (1 unless set)."""
        return self._output_multiple

    def set_tag_propagation_policy(self, policy):
        """``TPP_DONT``, ``TPP_ALL_TO_ALL`` (default) or ``TPP_ONE_TO_ONE``
        (GNU Radio's ``TPP_CUSTOM``, 3, the block propagating tags itself
        with ``add_item_tag``, is ``TPP_DONT`` here); call it in
        ``__init__`` (read when the flowgraph starts)."""
        policy = int(policy)
        if policy == 3:
            policy = TPP_DONT
        if policy not in _POLICIES:
            raise ValueError(f"unknown tag propagation policy {policy}")
        self._tpp = policy

    def tag_propagation_policy(self):
        """The tag propagation policy."""
        return self._tpp

    def get_tags_in_range(self, which_input, abs_start, abs_end, key=None):
        """Tags on input ``which_input`` with ``abs_start <= offset <
        abs_end`` among the items of this call, as :class:`Tag` objects in
        offset order (only those of ``key`` when given)."""
        if self._tags_in is None:
            return []
        return [
            Tag(offset, k, value)
            for offset, k, value in self._tags_in[which_input]
            if abs_start <= offset < abs_end and (key is None or k == key)
        ]

    def get_tags_in_window(self, which_input, rel_start, rel_end, key=None):
        """As :meth:`get_tags_in_range`, relative to this call's first item."""
        base = self._nread[which_input]
        return self.get_tags_in_range(which_input, base + rel_start, base + rel_end, key)

    def add_item_tag(self, which_output, offset, key=None, value=None, srcid=None):
        """Attaches a tag to the item with absolute index ``offset`` on
        output ``which_output`` (at or after ``nitems_written``); or
        ``add_item_tag(which_output, tag)`` with a :class:`Tag`. ``key`` is
        a ``str`` (a ``pmt`` symbol is one); ``value`` any value that maps
        to a ``Pmt``."""
        if isinstance(offset, Tag):
            offset, key, value = offset.offset, offset.key, offset.value
        if key is None:
            raise TypeError("add_item_tag needs a key")
        if self._added is None:
            self._added = []
        self._added.append((int(which_output), int(offset), str(key), value))

    def message_port_register_in(self, name):
        """Declares message input ``name`` (a ``str``; a ``pmt`` symbol is
        one); call it in ``__init__``, before the block is added."""
        name = str(name)
        if name not in self._message_inputs:
            self._message_inputs.append(name)

    def message_port_register_out(self, name):
        """Declares message output ``name``; call it in ``__init__``."""
        name = str(name)
        if name not in self._message_outputs:
            self._message_outputs.append(name)

    def set_msg_handler(self, name, handler):
        """Calls ``handler(msg)`` for each message on input ``name``; what
        it returns is the reply to ``Run.call``."""
        name = str(name)
        if name not in self._message_inputs:
            raise ValueError(f"no message input `{name}` registered")
        self._handlers[name] = handler

    def message_port_pub(self, name, msg):
        """Posts ``msg`` (any value that maps to a ``Pmt``) on message
        output ``name``: from ``work`` or a handler, when that call
        returns; from another thread (a timer the block started in
        :meth:`start`), at once."""
        name = str(name)
        if name not in self._message_outputs:
            raise ValueError(f"no message output `{name}` registered")
        with self._publish_lock:
            if self._published is None:
                self._published = []
            self._published.append((name, msg))
        if threading.get_ident() != self._call_thread:
            wake = getattr(self, "_rfgraph_wake", None)
            if wake is not None:
                wake()

    def start(self):
        """Called when the flowgraph starts (GNU Radio's ``start``); False
        fails the start."""
        return True

    def stop(self):
        """Called once the flowgraph has finished (GNU Radio's ``stop``)."""
        return True

    def message_ports_in(self):
        """The message inputs' names."""
        return list(self._message_inputs)

    def message_ports_out(self):
        """The message outputs' names."""
        return list(self._message_outputs)

    # -- the runtime's side -------------------------------------------------

    def _rfgraph_take_published(self):
        """The messages published since the last call, or None."""
        with self._publish_lock:
            published, self._published = self._published, None
        return published

    def _rfgraph_start(self):
        # A new run counts items from 0, as its ports do.
        self._nread = [0] * len(self.in_sig)
        self._nwritten = [0] * len(self.out_sig)
        self._added = None
        if self.start() is False:
            raise RuntimeError(f"start() of block `{self.name}` returned False")

    def _rfgraph_stop(self):
        self.stop()

    def _rfgraph_message(self, port, msg):
        """A message on input ``port``: ``(reply, published messages)``."""
        handler = self._handlers.get(port)
        if handler is None:
            raise ValueError(f"no handler set for message input `{port}` (set_msg_handler)")
        self._call_thread = threading.get_ident()
        try:
            reply = handler(msg)
        finally:
            self._call_thread = None
        return reply, self._rfgraph_take_published()

    def _rfgraph_setup(self):
        """(output multiple, tag policy, fewest items a call needs on each
        input or None for the kind's own rule, relative rate as
        (interpolation, decimation) or None for the kind's own)."""
        return self._output_multiple, self._tpp, None, None

    def _arrays(self, ins, outs):
        return (
            [np.frombuffer(v, self._din) for v in ins],
            [np.frombuffer(v, self._dout) for v in outs],
        )

    def _rfgraph_params(self):
        # A block with messages only has no item type: any will do.
        sig_in = self.in_sig or self.out_sig or [np.dtype(np.uint8)]
        sig_out = self.out_sig or self.in_sig or [np.dtype(np.uint8)]
        params = {
            "type": item_of(sig_in[0]),
            "output_type": item_of(sig_out[0]),
            "ninputs": len(self.in_sig),
            "noutputs": len(self.out_sig),
        }
        if self._message_inputs:
            params["message_inputs"] = list(self._message_inputs)
        if self._message_outputs:
            params["message_outputs"] = list(self._message_outputs)
        return params

    def _declaration(self):
        if not (self.in_sig or self.out_sig or self._message_inputs or self._message_outputs):
            raise ValueError("a block needs at least one stream or message port")
        return self._registry_kind, self._rfgraph_params()


class _FixedRateBlock(_PythonBlock):
    """Sync, decimating and interpolating blocks: ``work`` and a fixed
    ratio of input to output items."""

    def _consumed_for(self, produced):
        return produced

    def work(self, input_items, output_items):
        """Computes ``output_items`` from ``input_items``; returns the
        number of output items produced."""
        raise NotImplementedError(
            f"a {type(self).__name__} defines work(self, input_items, output_items)"
        )

    def _rfgraph_work(self, ins, outs, tags):
        self._tags_in = tags
        inputs, outputs = self._arrays(ins, outs)
        bases = [a.base for a in inputs + outputs]
        self._call_thread = threading.get_ident()
        try:
            produced = int(self.work(inputs, outputs))
        finally:
            self._call_thread = None
        del inputs, outputs
        _check_released(bases)
        self._tags_in = None
        if produced == WORK_DONE:
            return produced
        if produced < 0:
            raise ValueError(f"work returned {produced}")
        consumed = self._consumed_for(produced)
        for i in range(len(self._nread)):
            self._nread[i] += consumed
        for o in range(len(self._nwritten)):
            self._nwritten[o] += produced
        added, self._added = self._added, None
        published = self._rfgraph_take_published() if self._published is not None else None
        if added is None and published is None:
            return produced
        consumed = [consumed] * len(self._nread)
        return consumed, [produced] * len(self._nwritten), added, published


class SyncBlock(_FixedRateBlock):
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
    (and consumed from each input), or ``WORK_DONE`` (-1) to finish. All
    inputs share one dtype, all outputs another. Ports are ``in0``,
    ``in1``, ... and ``out0``, ... An exception stops the flowgraph with
    its traceback in the error.
    """

    _registry_kind = "python_sync"


class DecimBlock(_FixedRateBlock):
    """A decimating block, as GNU Radio's ``gr.decim_block``: ``work`` gets
    ``len(output_items[0]) * decim`` items on each input and consumes
    ``decim`` per output item it reports."""

    _registry_kind = "python_decim"

    def __init__(self, name="", in_sig=None, out_sig=None, decim=1):
        super().__init__(name, in_sig, out_sig)
        decim = int(decim)
        if decim < 1:
            raise ValueError(f"decim {decim} is below 1")
        self._decim = decim

    def decimation(self):
        """Input items per output item."""
        return self._decim

    def _consumed_for(self, produced):
        return produced * self._decim

    def _rfgraph_params(self):
        return {**super()._rfgraph_params(), "decim": self._decim}


class InterpBlock(_FixedRateBlock):
    """An interpolating block, as GNU Radio's ``gr.interp_block``: ``work``
    gets ``len(output_items[0]) / interp`` items on each input (output
    counts are multiples of ``interp``) and returns a multiple of ``interp``."""

    _registry_kind = "python_interp"

    def __init__(self, name="", in_sig=None, out_sig=None, interp=1):
        super().__init__(name, in_sig, out_sig)
        interp = int(interp)
        if interp < 1:
            raise ValueError(f"interp {interp} is below 1")
        self._interp = interp

    def interpolation(self):
        """Output items per input item."""
        return self._interp

    def _consumed_for(self, produced):
        if produced % self._interp:
            raise ValueError(
                f"work returned {produced}, not a multiple of the interpolation {self._interp}"
            )
        return produced // self._interp

    def _rfgraph_params(self):
        return {**super()._rfgraph_params(), "interp": self._interp}


class Block(_PythonBlock):
    """A general block, as GNU Radio's ``gr.basic_block``: ``general_work``
    gets every item each input holds and room for ``noutput_items`` on
    each output, says what it used with :meth:`consume` /
    :meth:`consume_each`, and returns the items produced on every output
    (or ``WORK_CALLED_PRODUCE`` after :meth:`produce`). :meth:`forecast`
    tells how many input items ``noutput_items`` outputs need (default:
    as many, on each input); the runtime halves ``noutput_items`` until
    the inputs hold that many, and waits for more input below the output
    multiple."""

    _registry_kind = "python_general"

    def __init__(self, name="", in_sig=None, out_sig=None):
        super().__init__(name, in_sig, out_sig)
        self._consumed = [0] * len(self.in_sig)
        self._produced = [0] * len(self.out_sig)
        self._relative_rate = (1, 1)

    def set_relative_rate(self, rate, decimation=None):
        """Output items per input item, for tag offsets (GNU Radio's
        ``set_relative_rate``): ``set_relative_rate(0.5)`` or
        ``set_relative_rate(interpolation, decimation)``; call it in
        ``__init__``."""
        if decimation is None:
            frac = Fraction(rate).limit_denominator(1 << 20)
            interpolation, decimation = frac.numerator, frac.denominator
        else:
            interpolation = rate
        interpolation, decimation = int(interpolation), int(decimation)
        if interpolation < 1 or decimation < 1:
            raise ValueError(f"relative rate {interpolation}/{decimation} is not positive")
        self._relative_rate = (interpolation, decimation)

    def relative_rate(self):
        """Output items per input item (1.0 unless set)."""
        return self._relative_rate[0] / self._relative_rate[1]

    def forecast(self, noutput_items, ninput_items_required):
        """Fills ``ninput_items_required[i]`` with the items input ``i``
        needs for ``noutput_items`` outputs."""
        for i in range(len(ninput_items_required)):
            ninput_items_required[i] = noutput_items

    def general_work(self, input_items, output_items):
        """Processes what it can; calls :meth:`consume` and returns the
        number of items produced on every output."""
        raise NotImplementedError(
            f"a {type(self).__name__} defines general_work(self, input_items, output_items)"
        )

    def consume(self, which_input, how_many_items):
        """Marks ``how_many_items`` more items of input ``which_input`` used."""
        self._consumed[which_input] += int(how_many_items)

    def consume_each(self, how_many_items):
        """:meth:`consume` on every input."""
        for i in range(len(self._consumed)):
            self._consumed[i] += int(how_many_items)

    def produce(self, which_output, how_many_items):
        """Marks ``how_many_items`` more items of output ``which_output``
        written; ``general_work`` then returns ``WORK_CALLED_PRODUCE``."""
        self._produced[which_output] += int(how_many_items)

    def _rfgraph_setup(self):
        # What `forecast` asks for one output multiple: the runtime sizes
        # the rings for it, and finishes the block once an input's writer
        # is done with fewer items left (a remainder no call can use).
        required = [0] * len(self.in_sig)
        self.forecast(self._output_multiple, required)
        needs = [max(1, int(r)) for r in required]
        return self._output_multiple, self._tpp, needs, self._relative_rate

    def _outputs_for(self, available, noutput):
        """The largest output count, ``noutput`` halved (in multiples of
        the output multiple), whose forecast the inputs hold; 0 if none."""
        multiple = self._output_multiple
        while noutput >= multiple:
            required = [0] * len(available)
            self.forecast(noutput, required)
            if all(int(r) <= a for r, a in zip(required, available)):
                return noutput
            noutput = noutput // 2 // multiple * multiple
        return 0

    def _rfgraph_work(self, ins, outs, tags):
        nin, nout = len(ins), len(outs)
        self._tags_in = tags
        inputs, outputs = self._arrays(ins, outs)
        bases = [a.base for a in inputs + outputs]
        if outputs:
            n = self._outputs_for([len(a) for a in inputs], len(outputs[0]))
            outputs = [o[:n] for o in outputs]
        self._consumed = [0] * nin
        self._produced = [0] * nout
        if outputs and n == 0:
            result = 0
        else:
            self._call_thread = threading.get_ident()
            try:
                result = int(self.general_work(inputs, outputs))
            finally:
                self._call_thread = None
        del inputs, outputs
        _check_released(bases)
        self._tags_in = None
        if result == WORK_DONE:
            return result
        if result == WORK_CALLED_PRODUCE:
            produced = self._produced
        elif result < 0:
            raise ValueError(f"general_work returned {result}")
        else:
            produced = [result] * nout
        consumed = self._consumed
        for i in range(nin):
            self._nread[i] += consumed[i]
        for o in range(nout):
            self._nwritten[o] += produced[o]
        added, self._added = self._added, None
        return consumed, produced, added, self._rfgraph_take_published()


#: GNU Radio's name for the general block.
BasicBlock = Block
