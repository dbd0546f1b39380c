"""Python values that map to rfgraph ``Pmt`` variants of their own: a
stream :class:`Tag` and a :class:`Pair` (GNU Radio's ``pmt.cons``)."""


class Pair(tuple):
    """Two values, GNU Radio's ``pmt.cons(car, cdr)``: a 2-tuple that maps
    to ``Pmt::Pair`` (a plain tuple maps to ``Pmt::Tuple``)."""

    __slots__ = ()

    def __new__(cls, car, cdr):
        return super().__new__(cls, (car, cdr))

    @property
    def car(self):
        """The first value."""
        return self[0]

    @property
    def cdr(self):
        """The second value."""
        return self[1]

    def __repr__(self):
        return f"Pair({self[0]!r}, {self[1]!r})"


class Tag:
    """A stream tag, as GNU Radio's ``gr.tag_t``: ``offset`` (the absolute
    item index), ``key``, ``value`` and ``srcid`` (kept within the block
    that made the tag; the runtime's tags carry no source id)."""

    __slots__ = ("offset", "key", "value", "srcid")

    def __init__(self, offset=0, key="", value=None, srcid=None):
        self.offset = int(offset)
        self.key = key
        self.value = value
        self.srcid = srcid

    def __repr__(self):
        return f"Tag(offset={self.offset}, key={self.key!r}, value={self.value!r})"

    def __eq__(self, other):
        if not isinstance(other, Tag):
            return NotImplemented
        return (self.offset, str(self.key), self.value, self.srcid) == (
            other.offset,
            str(other.key),
            other.value,
            other.srcid,
        )

    __hash__ = None
