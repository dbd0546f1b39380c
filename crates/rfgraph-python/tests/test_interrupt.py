"""Ctrl-C while waiting stops the flowgraph and raises KeyboardInterrupt."""

import signal
import subprocess
import sys
import time

CHILD = r"""
import rfgraph
fg = rfgraph.Flowgraph()
src = fg.add("null_source", type="f32")
fg.connect(src, fg.add("null_sink", type="f32"))
run = fg.start()
print("waiting", flush=True)
try:
    run.wait()
    print("not interrupted", flush=True)
except KeyboardInterrupt:
    print("interrupted, finished:", run.is_finished(), flush=True)
"""


def default_sigint():
    """Ctrl-C's default action in the child, as in a terminal: a shell
    that starts a job in the background (CI does) makes its children
    ignore SIGINT, and Python then installs no KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_waiting_run():
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    try:
        assert child.stdout.readline().strip() == "waiting"
        time.sleep(0.3)  # into wait(); not an assertion on time
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert out.strip() == "interrupted, finished: True", err
    assert child.returncode == 0, err
