"""Message ports of Python blocks (GNU Radio's message_port_register_in/
out, set_msg_handler, message_port_pub): from a Rust source, to a Rust
sink, Python to Python, and handlers that publish."""

import numpy as np
import pytest

import rfgraph

SCHEDULERS = ["tpb", "single", "pool", "chain"]


class Recorder(rfgraph.SyncBlock):
    """A message-only block that keeps every message it receives."""

    def __init__(self):
        super().__init__(name="recorder")
        self.message_port_register_in("in")
        self.set_msg_handler("in", self.handle)
        self.got = []

    def handle(self, msg):
        self.got.append(msg)


class Doubler(rfgraph.SyncBlock):
    """Message in, message out: publishes twice each number it gets."""

    def __init__(self):
        super().__init__(name="doubler")
        self.message_port_register_in("nums")
        self.message_port_register_out("twice")
        self.set_msg_handler("nums", lambda msg: self.message_port_pub("twice", 2 * msg))


class Announcer(rfgraph.SyncBlock):
    """A stream block that publishes each 1000th item's index and value."""

    def __init__(self):
        super().__init__(name="announcer", in_sig=[np.float32], out_sig=[np.float32])
        self.message_port_register_out("marks")

    def work(self, input_items, output_items):
        n = len(output_items[0])
        first = self.nitems_read(0)
        for i in range(-(-first // 1000) * 1000, first + n, 1000):
            self.message_port_pub("marks", {"index": i, "value": float(input_items[0][i - first])})
        output_items[0][:] = input_items[0]
        return n


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_rust_source_to_python_handler(scheduler):
    fg = rfgraph.Flowgraph()
    burst = fg.add("message_burst", message=7, count=5, done=-1)
    rec = Recorder()
    r = fg.add(rec)
    fg.connect(burst, "out", r, "in")
    fg.run(scheduler=scheduler, timeout=60)
    assert rec.got == [7] * 5 + [-1]


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_python_to_rust_sink_and_python(scheduler):
    x = np.arange(5500, dtype=np.float32) * 0.5
    fg = rfgraph.Flowgraph()
    src = fg.add(rfgraph.VectorSource(x))
    chunks = fg.add("copy_rand", type="f32", max=97, seed=4)
    ann = fg.add(Announcer())
    sink = fg.add("message_sink")
    rec = Recorder()
    fg.connect(src, chunks)
    fg.connect(chunks, ann)
    fg.connect(ann, fg.add("null_sink", type="f32"))
    fg.connect(ann, "marks", sink, "in")
    fg.connect(ann, "marks", fg.add(rec), "in")
    run = fg.start(scheduler=scheduler)
    run.wait(timeout=60)
    expected = [{"index": i, "value": i * 0.5} for i in range(0, 5500, 1000)]
    assert run.messages(sink) == expected
    assert rec.got == expected


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_handler_publishes_through_rust_forward(scheduler):
    fg = rfgraph.Flowgraph()
    burst = fg.add("message_burst", message=21, count=3)
    d = fg.add(Doubler())
    fwd = fg.add("message_forward")
    rec = Recorder()
    fg.connect(burst, "out", d, "nums")
    fg.connect(d, "twice", fwd, "in")
    fg.connect(fwd, "out", fg.add(rec), "in")
    fg.run(scheduler=scheduler, timeout=60)
    assert rec.got == [42, 42, 42]


def test_message_ports_are_checked_by_the_builder():
    fg = rfgraph.Flowgraph()
    burst = fg.add("message_burst", message=1, count=1)
    r = fg.add(Recorder())
    fg.connect(burst, "out", r, "nope")
    with pytest.raises(ValueError, match="nope"):
        fg.run(timeout=10)


def test_declaration_lists_message_ports():
    kind, params = rfgraph._declare(Doubler())
    rfgraph._rfgraph.unstash_object(params.pop("slot"))
    assert kind == "python_sync"
    assert params["message_inputs"] == ["nums"]
    assert params["message_outputs"] == ["twice"]
    assert (params["ninputs"], params["noutputs"]) == (0, 0)


def test_publishing_on_an_unregistered_port_raises():
    d = Doubler()
    with pytest.raises(ValueError, match="no message output `other`"):
        d.message_port_pub("other", 1)
    with pytest.raises(ValueError, match="no message input `x`"):
        d.set_msg_handler("x", print)


class Raising(rfgraph.SyncBlock):
    def __init__(self):
        super().__init__(name="raising")
        self.message_port_register_in("in")
        self.set_msg_handler("in", self.handle)

    def handle(self, msg):
        raise KeyError("bad message")


def test_handler_exception_fails_the_run_with_its_traceback():
    fg = rfgraph.Flowgraph()
    burst = fg.add("message_burst", message=1, count=1)
    r = fg.add(Raising())
    fg.connect(burst, "out", r, "in")
    with pytest.raises(RuntimeError, match="KeyError: 'bad message'"):
        fg.run(scheduler="tpb", timeout=60)


class Ticker(rfgraph.SyncBlock):
    """Publishes 0..n-1 from a thread it starts in start() (as GNU Radio
    Python message sources do), and notes stop()."""

    def __init__(self, n):
        super().__init__(name="ticker")
        self.message_port_register_out("tick")
        self.n = n
        self.stopped = False
        self.thread = None

    def start(self):
        import threading

        def tick():
            for i in range(self.n):
                self.message_port_pub("tick", i)

        self.thread = threading.Thread(target=tick)
        self.thread.start()
        return True

    def stop(self):
        self.thread.join()
        self.stopped = True
        return True


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_messages_from_a_thread_of_the_block_go_out(scheduler):
    import time

    fg = rfgraph.Flowgraph()
    ticker = Ticker(200)
    rec = Recorder()
    fg.connect(fg.add(ticker), "tick", fg.add(rec), "in")
    run = fg.start(scheduler=scheduler)
    deadline = time.monotonic() + 30
    while len(rec.got) < 200 and time.monotonic() < deadline:
        time.sleep(0.01)
    run.stop()
    run.wait(timeout=60)
    assert rec.got == list(range(200))
    assert ticker.stopped


class Refuses(rfgraph.SyncBlock):
    def __init__(self):
        super().__init__(name="refuses", in_sig=[np.float32])

    def start(self):
        return False

    def work(self, input_items, output_items):
        return len(input_items[0])


def test_start_returning_false_fails_the_start():
    fg = rfgraph.Flowgraph()
    fg.connect(fg.add("null_source", type="f32"), fg.add(Refuses()))
    with pytest.raises(RuntimeError, match=r"start\(\) of block `refuses` returned False"):
        fg.run(scheduler="tpb", timeout=30)
