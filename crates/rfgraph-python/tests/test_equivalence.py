"""Graphs built from Python give the same outputs as the same graph run by
the `rfgraph` command-line tool from a flowgraph file: byte for byte, for
built graphs (into a VectorSink here, a file_sink there) and for the
repository's finite example flowgraphs (`rfgraph.load` here, `rfgraph run`
there, each in a folder of its own).

The command-line tool is `RFGRAPH_CLI`, else `target/debug/rfgraph` of
this repository (`cargo build -p rfgraph-cli`; `cargo test --workspace`
builds it). Without it the tests skip, and fail under CI.
"""

import json
import os
import pathlib
import re
import subprocess

import numpy as np
import pytest

import rfgraph

REPO = pathlib.Path(__file__).resolve().parents[3]
SCHEDULERS = ["tpb", "single", "pool", "chain"]
TIMEOUT = 120


def cli():
    """The `rfgraph` binary, or skip (fail under CI) when there is none."""
    path = pathlib.Path(os.environ.get("RFGRAPH_CLI") or REPO / "target" / "debug" / "rfgraph")
    if not path.is_file():
        message = f"no rfgraph binary at {path} (cargo build -p rfgraph-cli, or set RFGRAPH_CLI)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def run_cli(args, cwd):
    out = subprocess.run(
        [str(cli()), *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert out.returncode == 0, f"rfgraph {' '.join(args)} failed:\n{out.stderr}"
    return out


def toml_value(value):
    """A parameter value as TOML, written here (not by the package)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    return "[" + ", ".join(toml_value(v) for v in value) + "]"


# Each graph: its blocks (name, kind, params), its connections ("a -> b",
# ports as "a.out"), the block whose output is recorded, and that
# output's dtype. Python records it in a VectorSink, the file graph in a
# file_sink.
GRAPHS = {
    "fir_decimating": (
        [
            ("src", "sig_source", dict(type="f32", sample_rate=48e3, frequency=1e3, amplitude=0.5)),
            ("head", "head", dict(type="f32", items=50_000)),
            ("fir", "fir_filter", dict(type="f32", decimation=2, taps=[0.1, 0.2, 0.4, 0.2, 0.1])),
        ],
        ["src -> head", "head -> fir"],
        "fir",
        np.float32,
    ),
    "noise_resampled": (
        [
            ("noise", "noise_source", dict(type="c32", seed=7, amplitude=0.3)),
            ("head", "head", dict(type="c32", items=30_000)),
            ("resamp", "rational_resampler", dict(type="c32", interpolation=3, decimation=2)),
        ],
        ["noise -> head", "head -> resamp"],
        "resamp",
        np.complex64,
    ),
    "tone_plus_noise_demodulated": (
        [
            ("tone", "sig_source", dict(type="c32", sample_rate=32e3, frequency=-2e3)),
            ("noise", "noise_source", dict(type="c32", seed=3, amplitude=0.05)),
            ("add", "add", dict(type="c32")),
            ("head", "head", dict(type="c32", items=40_000)),
            ("demod", "quadrature_demod", dict(gain=2.0)),
        ],
        ["tone -> add.in0", "noise -> add.in1", "add -> head", "head -> demod"],
        "demod",
        np.float32,
    ),
}

_ITEM = {np.float32: "f32", np.complex64: "c32"}


def graph_file(blocks, connections, last, dtype, path):
    """The graph as a flowgraph file whose file_sink writes `path`."""
    lines = ["format = 1", "connections = ["]
    lines += [f"  {json.dumps(c)}," for c in connections + [f"{last} -> snk"]]
    lines.append("]")
    for name, kind, params in blocks:
        lines += [f"[blocks.{name}]", f"kind = {json.dumps(kind)}"]
        lines += [f"{k} = {toml_value(v)}" for k, v in params.items()]
    lines += ["[blocks.snk]", 'kind = "file_sink"', f'type = "{_ITEM[dtype]}"']
    lines.append(f"path = {json.dumps(str(path))}")
    return "\n".join(lines) + "\n"


def connect(fg, refs, connection):
    a, b = (end.strip() for end in connection.split("->"))
    (an, _, ap), (bn, _, bp) = a.partition("."), b.partition(".")
    if ap or bp:
        fg.connect(refs[an], ap or "out", refs[bn], bp or "in")
    else:
        fg.connect(refs[an], refs[bn])


def run_python(blocks, connections, last, dtype, scheduler, replace=None):
    """Runs the graph built from Python; returns the recorded items.
    `replace` maps a block name to an object added in its place."""
    fg = rfgraph.Flowgraph()
    refs = {}
    for name, kind, params in blocks:
        if replace and name in replace:
            refs[name] = fg.add(replace[name], name=name)
        else:
            refs[name] = fg.add(kind, name=name, **params)
    for c in connections:
        connect(fg, refs, c)
    sink = rfgraph.VectorSink(dtype)
    fg.connect(refs[last], fg.add(sink))
    fg.run(scheduler=scheduler, timeout=TIMEOUT)
    return sink.data()


def run_file(blocks, connections, last, dtype, tmp_path):
    """Runs the same graph as a file through `rfgraph run`; its bytes."""
    out = tmp_path / "cli.raw"
    path = tmp_path / "graph.toml"
    path.write_text(graph_file(blocks, connections, last, dtype, out))
    run_cli(["run", str(path)], tmp_path)
    return out.read_bytes()


@pytest.mark.parametrize("graph", sorted(GRAPHS))
def test_a_graph_built_from_python_matches_the_cli(graph, tmp_path):
    blocks, connections, last, dtype = GRAPHS[graph]
    expected = run_file(blocks, connections, last, dtype, tmp_path)
    got = run_python(blocks, connections, last, dtype, "tpb")
    assert len(expected) > 0
    assert got.dtype == np.dtype(dtype)
    assert got.tobytes() == expected


class Double(rfgraph.SyncBlock):
    """x * 2 in Python: the same f32 values as `multiply_const` 2.0."""

    def __init__(self):
        rfgraph.SyncBlock.__init__(self, name="double", in_sig=[np.float32], out_sig=[np.float32])

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0] * 2.0
        return len(output_items[0])


def test_a_python_block_matches_the_rust_block_on_every_scheduler_twice(tmp_path):
    # Twice per scheduler: a scheduler thread keeps its Python thread
    # state between calls (see src/gil.rs), and each run has new threads.
    blocks = [
        ("src", "sig_source", dict(type="f32", sample_rate=48e3, frequency=700.0)),
        ("head", "head", dict(type="f32", items=200_003)),
        ("gain", "multiply_const", dict(type="f32", constant=2.0)),
    ]
    connections = ["src -> head", "head -> gain"]
    expected = run_file(blocks, connections, "gain", np.float32, tmp_path)
    assert len(expected) == 4 * 200_003
    for scheduler in SCHEDULERS:
        for _ in range(2):
            got = run_python(
                blocks, connections, "gain", np.float32, scheduler, replace={"gain": Double()}
            )
            assert got.tobytes() == expected, scheduler


# The finite example flowgraphs and what each writes (None: nothing; its
# block statistics are compared instead). The others run until stopped
# (throttled or web displays), span two hosts, or share their work
# between blocks as the scheduler runs them (`wlan_receiver.toml`: which
# of its two decoders gets a frame differs from run to run, so per-block
# counts cannot match; rfgraph-cli's `wlan_cli` test checks its frames).
EXAMPLES = {
    "tone_lowpass.toml": "tone_lowpass.f32",
    "fm_receiver.toml": "fm_mono.wav",
    "loopback_modem.toml": "loopback_modem.u8",
    "adsb_receiver.toml": None,
}


def example_folder(path):
    """A folder to run an example in: its relative paths (the recordings
    under `examples/`, its output) resolve as from the repository root,
    and what it writes stays in the folder."""
    path.mkdir()
    (path / "examples").symlink_to(REPO / "examples")
    return path


def cli_stats(stdout):
    """`rfgraph run --stats`' table (stdout) as {block: (items in, items out)}."""
    rows = {}
    for line in stdout.splitlines():
        m = re.match(r"^(\S+)\s+\S+\s+(\d+)\s+(\d+)\s+\d+\s+[\d.]+\s*$", line)
        if m:
            rows[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return rows


def test_every_finite_example_is_listed():
    listed = set(EXAMPLES)
    others = {"tone_control.toml", "web_displays.toml", "web_tone.toml", "wlan_receiver.toml"}
    assert {p.name for p in (REPO / "examples" / "flowgraphs").glob("*.toml")} == listed | others


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_an_example_loaded_from_python_matches_the_cli(example, tmp_path, monkeypatch):
    relative = f"examples/flowgraphs/{example}"
    here = example_folder(tmp_path / "python")
    there = example_folder(tmp_path / "cli")
    out = run_cli(["run", relative, "--stats"], there)
    monkeypatch.chdir(here)
    stats = rfgraph.load(relative).run(timeout=TIMEOUT)
    counts = {s["block"]: (s["items_consumed"], s["items_produced"]) for s in stats}
    expected = cli_stats(out.stdout)
    assert expected, f"no statistics table in:\n{out.stdout}"
    assert counts == expected
    written = EXAMPLES[example]
    if written is not None:
        theirs = (there / written).read_bytes()
        assert len(theirs) > 0
        assert (here / written).read_bytes() == theirs
