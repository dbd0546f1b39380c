"""Checks recordings written by rfgraph with the `sigmf` package (the
SigMF project's reference implementation): its validator accepts each,
and it reads the same samples, captures and annotations rfgraph says it
wrote.

Usage: python check_recordings.py MANIFEST.json

The manifest lists, per recording: `meta` (the .sigmf-meta path),
`datatype`, `samples`, `sample_rate`, `raw` (stored values: integers, or
IEEE bit patterns for float types), `scaled_bits` (rfgraph's float32
items as bit patterns, null for unsigned types), `captures` and
`annotations` (the exact JSON objects expected). Exits 1 naming every
difference.
"""

import json
import subprocess
import sys
import warnings

import numpy as np
import sigmf

SCALARS = {"f32": "f4", "f64": "f8", "i32": "i4", "i16": "i2", "u32": "u4", "u16": "u2", "i8": "i1", "u8": "u1"}


def expected_raw(entry):
    body = entry["datatype"].partition("_")[0]
    dtype = np.dtype(SCALARS[body[1:]])
    if dtype.kind == "f":
        bits = np.array(entry["raw"], dtype=np.uint64 if dtype.itemsize == 8 else np.uint32)
        return bits.view(dtype)
    return np.array(entry["raw"], dtype=np.int64)


def check(entry):
    problems = []
    name = entry["meta"]
    rec = sigmf.fromfile(name)
    rec.validate()
    complex_ = entry["datatype"].startswith("c")
    if rec.sample_count != entry["samples"]:
        problems.append(f"{name}: {rec.sample_count} samples, expected {entry['samples']}")
        return problems
    if rec.get_global_field(sigmf.SAMPLE_RATE_KEY) != entry["sample_rate"]:
        problems.append(f"{name}: sample rate {rec.get_global_field(sigmf.SAMPLE_RATE_KEY)}")
    if rec.get_global_field(sigmf.DATATYPE_KEY) != entry["datatype"]:
        problems.append(f"{name}: datatype {rec.get_global_field(sigmf.DATATYPE_KEY)}")

    # Stored values, as the package reads them without scaling (float32).
    unscaled = sigmf.fromfile(name, autoscale=False).read_samples()
    got = unscaled.view(np.float32) if complex_ else unscaled.astype(np.float32)
    want = expected_raw(entry).astype(np.float32)
    if got.shape != want.shape or not np.array_equal(got.view(np.uint32), want.view(np.uint32)):
        bad = np.flatnonzero(got != want)[:5] if got.shape == want.shape else "shape"
        problems.append(f"{name}: stored values differ at {bad}")

    # The package's own scaling agrees with rfgraph's for signed and float types.
    if entry["scaled_bits"] is not None:
        scaled = rec.read_samples()
        got = (scaled.view(np.float32) if complex_ else scaled.astype(np.float32)).view(np.uint32)
        want = np.array(entry["scaled_bits"], dtype=np.uint32)
        if not np.array_equal(got, want):
            bad = np.flatnonzero(got != want)[:5]
            problems.append(f"{name}: scaled samples differ at {bad}: {got[bad]} vs {want[bad]}")

    for section, got in [("captures", rec.get_captures()), ("annotations", rec.get_annotations())]:
        if got != entry[section]:
            problems.append(f"{name}: {section} differ:\n  read     {got}\n  expected {entry[section]}")
    return problems


def main(manifest_path):
    with open(manifest_path) as f:
        manifest = json.load(f)
    problems = []
    for entry in manifest:
        try:
            problems += check(entry)
        except Exception as e:  # noqa: BLE001 - every failure is reported
            problems.append(f"{entry['meta']}: {type(e).__name__}: {e}")
    # The package's command-line validator, as a user would run it.
    metas = [entry["meta"] for entry in manifest]
    cli = subprocess.run([sys.executable, "-m", "sigmf.validate", *metas], capture_output=True, text=True)
    if cli.returncode != 0:
        problems.append(f"sigmf.validate exited {cli.returncode}: {cli.stdout}{cli.stderr}")
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"sigmf {sigmf.__version__} validated and read {len(manifest)} rfgraph recordings")


if __name__ == "__main__":
    warnings.simplefilter("error")
    main(sys.argv[1])
