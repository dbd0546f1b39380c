"""GNU Radio 3.10's seeded noise sources, for gr_noise.rs.

Writes, for each case, the first items of `analog.noise_source_X` and
`analog.fastnoise_source_X` (every kind, several amplitudes, seeds and
pool sizes, including GNU Radio's default seed 0, a negative seed for
`noise_source` and a pool size that is not a power of two) as raw files named
after the case, and the list of cases as cases.json.
"""
import json
import os
import sys

from gnuradio import analog, blocks, gr

N = 20000
KINDS = {
    "uniform": analog.GR_UNIFORM,
    "gaussian": analog.GR_GAUSSIAN,
    "laplacian": analog.GR_LAPLACIAN,
    "impulse": analog.GR_IMPULSE,
}
TYPES = {
    "f32": ("f", blocks.vector_sink_f),
    "c32": ("c", blocks.vector_sink_c),
    "i16": ("s", blocks.vector_sink_s),
    "i32": ("i", blocks.vector_sink_i),
}


def run(src, sink, n):
    tb = gr.top_block()
    head = blocks.head(src.output_signature().sizeof_stream_item(0), n)
    tb.connect(src, head, sink)
    tb.run()
    return sink.data()


def write(path, ty, data):
    import array
    code = {"f32": "f", "i16": "h", "i32": "i"}
    if ty == "c32":
        flat = array.array("f")
        for z in data:
            flat.append(z.real)
            flat.append(z.imag)
    else:
        flat = array.array(code[ty], data)
    with open(path, "wb") as f:
        f.write(flat.tobytes())


def main(out):
    os.makedirs(out, exist_ok=True)
    cases = []
    settings = ((1.0, 42, 4096), (0.3, 0, 1000), (2.5, -42, 8192))
    for block in ("noise_source", "fastnoise_source"):
        for ty, (suffix, sink) in TYPES.items():
            if block == "noise_source" and ty in ("i16", "i32"):
                continue  # rfgraph's noise_source has f32 and c32 items
            for kind in KINDS:
                if ty == "c32" and kind in ("laplacian", "impulse"):
                    continue  # GNU Radio refuses them for complex items
                for amplitude, seed, samples in settings:
                    if ty in ("i16", "i32"):
                        amplitude *= 1000
                    if block == "fastnoise_source" and seed < 0:
                        seed = 7  # its seed is unsigned
                    make = getattr(analog, f"{block}_{suffix}")
                    if block == "noise_source":
                        src = make(KINDS[kind], amplitude, seed)
                    else:
                        src = make(KINDS[kind], amplitude, seed, samples)
                    data = run(src, sink(), N)
                    name = f"{block}_{ty}_{kind}_{seed}"
                    write(os.path.join(out, name + ".raw"), ty, data)
                    cases.append({
                        "name": name, "block": block, "type": ty, "kind": kind,
                        "amplitude": amplitude, "seed": seed, "samples": samples,
                    })
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f)


if __name__ == "__main__":
    main(sys.argv[1])
