"""A running flowgraph driven from Python: posts and calls to message
handlers (Python and Rust blocks), values mapped to and from Pmt, and
settable parameters read and written as attributes or get/set."""

import numpy as np
import pytest

import rfgraph


class Echo(rfgraph.SyncBlock):
    """Replies to a call with what it got, doubled; keeps posts."""

    def __init__(self):
        super().__init__(name="echo")
        self.message_port_register_in("double")
        self.message_port_register_in("keep")
        self.message_port_register_in("fail")
        self.kept = []
        self.set_msg_handler("double", lambda msg: msg * 2)
        self.set_msg_handler("keep", self.kept.append)
        self.set_msg_handler("fail", self._fail)

    def _fail(self, msg):
        raise RuntimeError(f"refused {msg!r}")


def endless():
    """null_source -> multiply_const -> null_sink, and an Echo block."""
    fg = rfgraph.Flowgraph()
    src = fg.add("null_source", type="f32")
    mul = fg.add("multiply_const", type="f32", constant=2.0)
    fg.connect(src, mul)
    fg.connect(mul, fg.add("null_sink", type="f32"))
    echo = Echo()
    ref = fg.add(echo)
    return fg, mul, ref, echo


@pytest.mark.parametrize("scheduler", ["tpb", "single", "pool", "chain"])
def test_call_and_post_to_a_python_handler(scheduler):
    fg, _, ref, echo = endless()
    run = fg.start(scheduler=scheduler)
    try:
        assert run.call(ref, "double", 21) == 42
        assert run.call("echo", "double", [1, "a"]) == [1, "a", 1, "a"]
        np.testing.assert_array_equal(
            run.call(ref, "double", np.arange(3, dtype=np.float32)),
            np.array([0, 2, 4], np.float32),
        )
        run.post(ref, "keep", {"k": (1, b"x")})
        run.post(ref, "keep", rfgraph.Pair(1, 2))
        # A call after the posts is answered after them: they were handled.
        assert run.call(ref, "double", 0.5) == 1.0
        assert echo.kept == [{"k": (1, b"x")}, rfgraph.Pair(1, 2)]
    finally:
        run.stop()
        run.wait(timeout=60)


def test_errors_are_value_errors_with_the_runtimes_text():
    fg, mul, ref, _ = endless()
    run = fg.start(scheduler="tpb")
    try:
        with pytest.raises(ValueError, match=r"block `echo` has no message input `nope` \(it has: double, keep, fail"):
            run.post(ref, "nope", 1)
        with pytest.raises(ValueError, match=r"(?s)handler of `echo` failed: .*RuntimeError: refused 7"):
            run.call(ref, "fail", 7)
        with pytest.raises(ValueError, match="no block named `zzz`"):
            run.block("zzz")
        with pytest.raises(TypeError, match="no Pmt for a value of type object"):
            run.post(ref, "keep", object())
    finally:
        run.stop()
        run.wait(timeout=60)


@pytest.mark.parametrize("scheduler", ["tpb", "chain"])
def test_settable_parameters_as_attributes(scheduler):
    fg, mul, _, _ = endless()
    run = fg.start(scheduler=scheduler)
    try:
        blk = run.block(mul)
        assert "constant" in blk.settable()
        assert "type" in blk.params() and "type" not in blk.settable()
        assert blk.constant == 2.0
        blk.constant = 3.5
        assert blk.constant == 3.5
        blk.set("constant", -1.0)
        assert blk.get("constant") == -1.0
        with pytest.raises(AttributeError, match="no settable parameter `type`"):
            blk.type = "c32"
        with pytest.raises(ValueError, match="no settable parameter `type`"):
            blk.set("type", "c32")
        with pytest.raises(ValueError):
            blk.constant = "not a number"
        assert blk.constant == -1.0
    finally:
        run.stop()
        run.wait(timeout=60)
