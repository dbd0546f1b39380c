"""``gnuradio.gr`` as embedded Python blocks use it: the block base
classes on rfgraph's (``sync_block`` is :class:`rfgraph.SyncBlock`, ...),
item sizes, tag objects and GNU Radio's constants."""

import rfgraph

__all__ = [
    "sync_block",
    "decim_block",
    "interp_block",
    "basic_block",
    "tag_t",
    "sizeof_gr_complex",
    "sizeof_float",
    "sizeof_int",
    "sizeof_short",
    "sizeof_char",
    "sizeof_double",
    "WORK_CALLED_PRODUCE",
    "WORK_DONE",
    "TPP_DONT",
    "TPP_ALL_TO_ALL",
    "TPP_ONE_TO_ONE",
    "TPP_CUSTOM",
]

sizeof_gr_complex = 8
sizeof_float = 4
sizeof_int = 4
sizeof_short = 2
sizeof_char = 1
sizeof_double = 8

WORK_CALLED_PRODUCE = rfgraph.WORK_CALLED_PRODUCE
WORK_DONE = rfgraph.WORK_DONE
TPP_DONT = rfgraph.TPP_DONT
TPP_ALL_TO_ALL = rfgraph.TPP_ALL_TO_ALL
TPP_ONE_TO_ONE = rfgraph.TPP_ONE_TO_ONE
#: GNU Radio's custom policy (a block's own code): rfgraph propagates none.
TPP_CUSTOM = 3


class _Name(str):
    """A block's name: ``str`` for rfgraph, callable for GNU Radio code
    (``self.name()``)."""

    def __call__(self):
        return str(self)


def _block(gr_name, base, extra=None):
    """GNU Radio's ``gr.<gr_name>`` on rfgraph's ``base``."""

    def __init__(self, name="", in_sig=None, out_sig=None, *args, **kwargs):
        base.__init__(self, name, in_sig, out_sig, *args, **kwargs)
        self.name = _Name(name)

    return type(
        gr_name,
        (base,),
        {
            "__init__": __init__,
            "__doc__": f"GNU Radio's ``gr.{gr_name}`` on ``{base.__name__}``.",
            **(extra or {}),
        },
    )


class _Ninputs(int):
    """``forecast``'s second argument for GNU Radio code of either
    version: 3.10 passes the number of inputs (an ``int``) and takes a
    list back; older code assigns ``ninput_items_required[i]``. This is
    the number, and item assignment writes the required list."""

    def __new__(cls, required):
        n = int.__new__(cls, len(required))
        n._required = required
        return n

    def __len__(self):
        return int(self)

    def __setitem__(self, i, value):
        self._required[i] = value

    def __getitem__(self, i):
        return self._required[i]


def _wrap_forecast(user):
    def forecast(self, noutput_items, ninput_items_required):
        result = user(self, noutput_items, _Ninputs(ninput_items_required))
        if result is not None:
            ninput_items_required[:] = [int(r) for r in result]

    forecast.__doc__ = user.__doc__
    return forecast


def _init_subclass(cls, **kwargs):
    """A user's ``forecast`` in either GNU Radio version's form."""
    super(basic_block, cls).__init_subclass__(**kwargs)
    user = cls.__dict__.get("forecast")
    if user is not None and not getattr(user, "_gr_wrapped", False):
        wrapped = _wrap_forecast(user)
        wrapped._gr_wrapped = True
        cls.forecast = wrapped


sync_block = _block("sync_block", rfgraph.SyncBlock)
decim_block = _block("decim_block", rfgraph.DecimBlock)
interp_block = _block("interp_block", rfgraph.InterpBlock)
basic_block = _block(
    "basic_block",
    rfgraph.BasicBlock,
    {"__init_subclass__": classmethod(_init_subclass)},
)

#: The shim's block classes (not a user's block).
BASES = (sync_block, decim_block, interp_block, basic_block)


class tag_t:  # noqa: N801 (GNU Radio's name)
    """A stream tag: ``offset`` (absolute item number), ``key``,
    ``value``, ``srcid``."""

    def __init__(self, offset=0, key=None, value=None, srcid=None):
        self.offset = offset
        self.key = key
        self.value = value
        self.srcid = srcid

    def __repr__(self):
        return f"tag_t(offset={self.offset!r}, key={self.key!r}, value={self.value!r})"
