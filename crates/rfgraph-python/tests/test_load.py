"""rfgraph.load: flowgraph files through the same builder as `rfgraph run`."""

import pytest

import rfgraph


def test_load_and_run_a_toml_file(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text(
        'format = 1\nconnections = ["src -> head -> snk"]\n'
        '[blocks.src]\nkind = "sig_source"\ntype = "f32"\n'
        '[blocks.head]\nkind = "head"\ntype = "f32"\nitems = 12345\n'
        '[blocks.snk]\nkind = "null_sink"\ntype = "f32"\n'
    )
    stats = rfgraph.load(path).run(scheduler="pool", timeout=30)
    assert {s["block"]: s["items_consumed"] for s in stats}["snk"] == 12345


def test_load_reports_the_files_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('format = 1\n[blocks.src]\nkind = "sig_sourc"\n')
    with pytest.raises(ValueError, match=r"bad.toml:3:8: .*unknown block `sig_sourc`"):
        rfgraph.load(path)


def test_load_checks_an_example(repo):
    # Loading checks without constructing anything (no file written).
    graph = rfgraph.load(repo / "examples" / "flowgraphs" / "tone_lowpass.toml")
    assert graph.path.endswith("tone_lowpass.toml")


def test_load_checks_a_grc_file(repo):
    graph = rfgraph.load(repo / "examples" / "zeromq" / "tone_push.grc")
    assert graph.path.endswith("tone_push.grc")
