"""GNU Radio 3.10's seeded noise sources and channel model, for gr_noise.rs.

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
    cases += channel_models(out)
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f)


def channel_models(out):
    """channels.channel_model on a fixed complex input: noise, offset,
    multipath and timing offset, alone and together."""
    import cmath
    from gnuradio import channels
    # A chirp up to 0.4 rad/sample, where interpolators are accurate.
    signal = [0.8 * cmath.exp(1j * (1e-5 * k * k % (2 * cmath.pi))) for k in range(N)]
    write(os.path.join(out, "channel_input.raw"), "c32", signal)
    cases = []
    settings = [
        ("noise", 0.3, 0.0, 1.0, [1.0], 0),
        ("offset", 0.0, 0.01, 1.0, [1.0], 0),
        ("multipath", 0.1, -0.002, 1.0, [1.0, 0.3j, 0.1 - 0.05j], 42),
        ("timing", 0.0, 0.0, 1.0005, [1.0], 0),
        ("all", 0.2, 0.003, 0.9995, [0.9, 0.2], -7),
    ]
    for name, noise, offset, epsilon, taps, seed in settings:
        tb = gr.top_block()
        src = blocks.vector_source_c(signal)
        model = channels.channel_model(noise, offset, epsilon, taps, seed)
        sink = blocks.vector_sink_c()
        tb.connect(src, model, sink)
        tb.run()
        case = f"channel_model_{name}"
        write(os.path.join(out, case + ".raw"), "c32", sink.data())
        cases.append({
            "name": case, "block": "channel_model", "type": "c32",
            "noise_voltage": noise, "frequency_offset": offset,
            "epsilon": epsilon, "taps": [[complex(t).real, complex(t).imag] for t in taps],
            "seed": seed,
        })
    return cases


if __name__ == "__main__":
    main(sys.argv[1])
