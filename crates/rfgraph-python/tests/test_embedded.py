"""Python blocks in flowgraph files: GRC's `epy_block` / `epy_module`
(GNU Radio's own examples; a file of ours per block kind, run by rfgraph
and by GNU Radio 3.10 from `grcc`'s Python, compared item for item) and
TOML's `kind = "python"`; the GNU Radio shim (`gnuradio.gr`, `pmt`)."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import rfgraph
from rfgraph import gnuradio_compat

DATA = pathlib.Path(__file__).resolve().parent / "data"
GR_EXAMPLES = pathlib.Path("/usr/share/gnuradio/examples")
GRCC = "/usr/bin/grcc"
GR_PYTHON = "/usr/bin/python3"


def _need(path, what):
    """Skips (with a line) when `path` is missing, unless env `CI` is
    set: then the test fails."""
    if os.path.exists(path):
        return
    if os.environ.get("CI"):
        pytest.fail(f"{path} is missing ({what})")
    pytest.skip(f"{path} is missing ({what})")


@pytest.mark.parametrize(
    "example",
    ["tags/tagged_file_sink.grc", "digital/demod/symbol_sync_test_complex.grc"],
)
def test_gnu_radios_examples_with_epy_block_load(example):
    path = GR_EXAMPLES / example
    _need(path, "GNU Radio 3.10's examples")
    graph = rfgraph.load(path)
    assert graph.path.endswith(example.split("/")[-1])


def _run_both(name, tmp_path, monkeypatch, dtype, outputs=("out.bin",)):
    """Runs data/NAME.grc with rfgraph, then GNU Radio's `grcc` Python of
    it, each in a folder of its own; the files they wrote, as arrays."""
    grc = DATA / f"{name}.grc"
    ours = tmp_path / "rfgraph"
    theirs = tmp_path / "gnuradio"
    ours.mkdir()
    theirs.mkdir()
    monkeypatch.chdir(ours)
    rfgraph.load(grc).run(timeout=60)
    got = [np.fromfile(ours / o, dtype) for o in outputs]
    _need(GRCC, "GNU Radio 3.10's grcc")
    gen = subprocess.run(
        [GRCC, "-o", str(theirs), str(grc)], capture_output=True, text=True, timeout=120
    )
    assert gen.returncode == 0, gen.stdout + gen.stderr
    ran = subprocess.run(
        [GR_PYTHON, str(theirs / f"{name}.py")],
        cwd=theirs,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    want = [np.fromfile(theirs / o, dtype) for o in outputs]
    return got, want


def test_epy_sync_block_matches_gnu_radio(tmp_path, monkeypatch):
    (got,), (want,) = _run_both("epy_sync", tmp_path, monkeypatch, np.float32, ("out.f32",))
    assert len(got) == 5000
    # gain = variable k = 2.5, offset = -1.0
    expected = np.array([float(i % 97) for i in range(5000)], np.float32) * np.float32(2.5) - 1
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(not hasattr(rfgraph, "DecimBlock"), reason="rfgraph.DecimBlock not merged yet")
def test_epy_decim_block_matches_gnu_radio(tmp_path, monkeypatch):
    (got,), (want,) = _run_both("epy_decim", tmp_path, monkeypatch, np.float32, ("out.f32",))
    assert len(got) == 1000
    np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(
    not hasattr(rfgraph, "InterpBlock"), reason="rfgraph.InterpBlock not merged yet"
)
def test_epy_interp_block_matches_gnu_radio(tmp_path, monkeypatch):
    (got,), (want,) = _run_both("epy_interp", tmp_path, monkeypatch, np.complex64, ("out.c32",))
    assert len(got) == 3 * 2000
    np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(
    not hasattr(rfgraph, "BasicBlock"), reason="rfgraph.BasicBlock (general blocks) not merged yet"
)
def test_epy_basic_block_with_tags_and_messages_matches_gnu_radio(tmp_path, monkeypatch):
    got, want = _run_both(
        "epy_basic", tmp_path, monkeypatch, np.float32, ("out.f32", "tagged.f32")
    )
    for g, w in zip(got, want):
        assert len(g) > 0
        np.testing.assert_array_equal(g, w)


def test_epy_module_is_importable_by_its_id(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (DATA / "epy_sync.grc").read_text()
    module = (
        "- name: helpers\n  id: epy_module\n  parameters:\n    alias: ''\n    comment: ''\n"
        '    source_code: "OFFSET = 7.0\\n"\n  states:\n    coordinate: [8, 200]\n'
        "    rotation: 0\n    state: enabled\n"
    )
    code = "        self.offset = offset\n"
    assert code.replace("\n", "") in text.replace("\\n", "\n")
    text = text.replace("blocks:\n", "blocks:\n" + module, 1)
    text = text.replace(
        "from gnuradio import gr\\n", "from gnuradio import gr\\nimport helpers\\n", 1
    ).replace("self.offset = offset", "self.offset = offset + helpers.OFFSET", 1)
    # A parameter that reads the module: Python evaluates it.
    text = text.replace("offset: '-1.0'", "offset: helpers.OFFSET - 8", 1)
    path = tmp_path / "with_module.grc"
    path.write_text(text)
    rfgraph.load(path).run(timeout=60)
    got = np.fromfile(tmp_path / "out.f32", np.float32)
    expected = np.array([float(i % 97) for i in range(5000)], np.float32) * np.float32(2.5) + 6
    np.testing.assert_array_equal(got, expected)


def test_an_epy_block_that_fails_names_it(tmp_path):
    text = (DATA / "epy_sync.grc").read_text()
    text = text.replace("self.gain = gain", "self.gain = gain / 0", 1)
    path = tmp_path / "bad.grc"
    path.write_text(text)
    with pytest.raises(ValueError, match=r"Python block `epy_block_0`: ZeroDivisionError"):
        rfgraph.load(path)


def test_shim_leaves_sys_modules_as_it_was():
    before = {k: sys.modules.get(k) for k in ("gnuradio", "gnuradio.gr", "pmt")}
    with gnuradio_compat.installed():
        from gnuradio import gr
        import pmt

        assert gr.sync_block.__mro__[1] is rfgraph.SyncBlock
        assert pmt.intern("burst") == "burst"
    assert {k: sys.modules.get(k) for k in before} == before


def test_pmt_shim_basics():
    pmt = gnuradio_compat.pmt
    key = pmt.intern("burst")
    assert isinstance(key, str) and pmt.symbol_to_string(key) == "burst"
    assert pmt.to_python(pmt.from_double(2.5)) == 2.5
    assert pmt.to_long(pmt.from_long(7)) == 7
    assert pmt.from_bool(True) is pmt.PMT_T and pmt.PMT_NIL is None
    pair = pmt.cons(pmt.make_dict(), pmt.init_u8vector(3, [1, 2, 3]))
    assert pmt.is_pair(pair) and pmt.is_pdu(pair)
    assert pmt.u8vector_elements(pmt.cdr(pair)) == [1, 2, 3]
    d = pmt.dict_add(pmt.make_dict(), key, pmt.from_long(1))
    assert pmt.dict_ref(d, "burst", None) == 1 and pmt.dict_has_key(d, key)
    assert pmt.init_c32vector(2, [1j, 2]).dtype == np.complex64
    assert pmt.init_f32vector(2, [1, 2]).dtype == np.float32


TOML_BLOCK = '''
import numpy as np
import rfgraph


class Scale(rfgraph.SyncBlock):
    def __init__(self, factor=1.0, label=""):
        rfgraph.SyncBlock.__init__(self, name="scale", in_sig=[np.float32], out_sig=[np.float32])
        self.factor = factor
        self.label = label

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0] * self.factor
        return len(output_items[0])
'''


def test_toml_kind_python_with_a_module_on_sys_path(tmp_path, monkeypatch):
    # The module sits next to the file: its folder comes first on sys.path.
    (tmp_path / "scalemod.py").write_text(TOML_BLOCK)
    path = tmp_path / "g.toml"
    path.write_text(
        'format = 1\nconnections = ["src -> head -> scale -> snk"]\n'
        "[variables]\nk = 3.0\n"
        '[blocks.src]\nkind = "sig_source"\ntype = "f32"\nwaveform = "constant"\namplitude = 2.0\n'
        '[blocks.head]\nkind = "head"\ntype = "f32"\nitems = 1000\n'
        '[blocks.scale]\nkind = "python"\nmodule = "scalemod:Scale"\n'
        'factor = "k * 2"\nlabel = "some text"\n'
        '[blocks.snk]\nkind = "file_sink"\ntype = "f32"\npath = "out.f32"\n'
    )
    monkeypatch.chdir(tmp_path)
    rfgraph.load(path).run(timeout=60)
    got = np.fromfile(tmp_path / "out.f32", np.float32)
    np.testing.assert_array_equal(got, np.full(1000, 12.0, np.float32))
    monkeypatch.delitem(sys.modules, "scalemod", raising=False)


def test_toml_python_block_without_module_is_an_error(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text('format = 1\n[blocks.b]\nkind = "python"\n')
    with pytest.raises(ValueError, match="needs `module"):
        rfgraph.load(path)


def test_python_dash_m_rfgraph_runs_a_file(tmp_path):
    (tmp_path / "scalemod.py").write_text(TOML_BLOCK)
    path = tmp_path / "g.toml"
    path.write_text(
        'format = 1\nconnections = ["src -> head -> scale -> snk"]\n'
        '[blocks.src]\nkind = "sig_source"\ntype = "f32"\nwaveform = "constant"\namplitude = 1.0\n'
        '[blocks.head]\nkind = "head"\ntype = "f32"\nitems = 100\n'
        '[blocks.scale]\nkind = "python"\nmodule = "scalemod:Scale"\nfactor = "f"\n'
        '[blocks.snk]\nkind = "file_sink"\ntype = "f32"\npath = "out.f32"\n'
        "[variables]\nf = 1.0\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "rfgraph", "run", str(path), "--set", "f=5", "--stats"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert '"block": "scale"' in done.stdout
    got = np.fromfile(tmp_path / "out.f32", np.float32)
    np.testing.assert_array_equal(got, np.full(100, 5.0, np.float32))
    refused = subprocess.run(
        [sys.executable, "-m", "rfgraph", "run", str(path), "--control"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode != 0 and "--control" in refused.stderr


def test_shim_forecast_takes_either_gnu_radio_form():
    gr = gnuradio_compat.gr

    class New(gr.basic_block):  # GNU Radio 3.10: ninputs in, a list out
        def forecast(self, noutput_items, ninputs):
            return [noutput_items * 2] * ninputs

    class Old(gr.basic_block):  # older code: assigns into the list
        def forecast(self, noutput_items, ninput_items_required):
            for i in range(len(ninput_items_required)):
                ninput_items_required[i] = noutput_items + 1

    for cls, want in ((New, [20, 20]), (Old, [11, 11])):
        required = [0, 0]
        cls.forecast(None, 10, required)
        assert required == want
