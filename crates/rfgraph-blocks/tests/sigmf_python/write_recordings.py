"""Writes SigMF recordings with the `sigmf` package (the SigMF project's
reference implementation), one per datatype, for rfgraph to read.

Usage: python write_recordings.py OUTDIR

Each recording has two captures and three annotations. OUTDIR/manifest.json
lists, per recording, what the package itself sees: the stored values
(`raw`: integers, or IEEE bit patterns for float types), its autoscaled
float32 samples as bit patterns (`scaled_bits`; null for unsigned types,
whose scaling differs from rfgraph's), the sample rate, and the captures
and annotations it reads back.
"""

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import sigmf
from sigmf import SigMFFile

SCALARS = {"f32": "f4", "f64": "f8", "i32": "i4", "i16": "i2", "u32": "u4", "u16": "u2", "i8": "i1", "u8": "u1"}


def datatypes():
    for kind in "cr":
        for scalar in SCALARS:
            if scalar.endswith("8"):
                yield f"{kind}{scalar}"
            else:
                yield f"{kind}{scalar}_le"
                yield f"{kind}{scalar}_be"


def numpy_type(datatype):
    body, _, endian = datatype.partition("_")
    order = ">" if endian == "be" else "<"
    return np.dtype(order + SCALARS[body[1:]])


def raw_values(dtype, count, rng):
    if dtype.kind == "f":
        return rng.normal(0.0, 0.4, count).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, count, endpoint=True, dtype=np.int64).astype(dtype)


def as_json_values(values):
    """Integers as they are; floats as their IEEE bit patterns."""
    if values.dtype.kind == "f":
        native = values.astype(values.dtype.newbyteorder("="))
        bits = native.view(np.uint64 if native.dtype.itemsize == 8 else np.uint32)
        return [int(b) for b in bits]
    return [int(v) for v in values]


def main(outdir):
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20240501)
    manifest = []
    samples = 1000
    for datatype in datatypes():
        complex_ = datatype.startswith("c")
        dtype = numpy_type(datatype)
        raw = raw_values(dtype, samples * (2 if complex_ else 1), rng)
        base = outdir / datatype
        data_path = base.with_suffix(".sigmf-data")
        raw.tofile(data_path)
        meta = SigMFFile(
            data_file=data_path,
            global_info={
                sigmf.DATATYPE_KEY: datatype,
                sigmf.SAMPLE_RATE_KEY: 1.024e6,
                sigmf.DESCRIPTION_KEY: f"written by sigmf {sigmf.__version__}",
                sigmf.AUTHOR_KEY: "rfgraph interop test",
                sigmf.HW_KEY: "numpy",
            },
        )
        meta.add_capture(0, metadata={sigmf.FREQUENCY_KEY: 915e6, sigmf.DATETIME_KEY: "2024-05-01T12:00:00.250000Z"})
        meta.add_capture(600, metadata={sigmf.FREQUENCY_KEY: 916.5e6, sigmf.GLOBAL_INDEX_KEY: 123456})
        meta.add_annotation(
            100,
            50,
            metadata={
                sigmf.LABEL_KEY: "burst",
                sigmf.COMMENT_KEY: "from python",
                sigmf.FREQ_LOWER_EDGE_KEY: 914.9e6,
                sigmf.FREQ_UPPER_EDGE_KEY: 915.1e6,
            },
        )
        meta.add_annotation(100, 10, metadata={sigmf.LABEL_KEY: "same start"})
        meta.add_annotation(900, metadata={sigmf.GENERATOR_KEY: "sigmf-python"})
        meta.tofile(base, overwrite=True)

        back = sigmf.fromfile(base.with_suffix(".sigmf-meta"))
        back.validate()
        assert back.sample_count == samples, back.sample_count
        scaled = None
        if dtype.kind != "u":
            values = back.read_samples()
            flat = values.view(np.float32) if complex_ else values.astype(np.float32)
            scaled = [int(b) for b in flat.view(np.uint32)]
        manifest.append(
            {
                "name": datatype,
                "meta": str(base.with_suffix(".sigmf-meta")),
                "datatype": datatype,
                "samples": samples,
                "sample_rate": back.get_global_field(sigmf.SAMPLE_RATE_KEY),
                "raw": as_json_values(raw),
                "scaled_bits": scaled,
                "captures": back.get_captures(),
                "annotations": back.get_annotations(),
            }
        )
    (outdir / "manifest.json").write_text(json.dumps(manifest))
    print(f"wrote {len(manifest)} recordings with sigmf {sigmf.__version__}")


if __name__ == "__main__":
    warnings.simplefilter("error")
    main(sys.argv[1])
