#!/usr/bin/python3
"""Writes WAV files with GNU Radio 3.10's blocks.wavfile_sink, for
`tests/wav.rs` to read back with rfgraph's WavSource.

Run with Debian's interpreter, which sees GNU Radio:

    /usr/bin/python3 crates/rfgraph-blocks/tests/data/wav/generate.py

Writes, next to this script:
- `signal.f32`: the two channels fed to GNU Radio, little-endian float32,
  channel 0's 1000 samples then channel 1's;
- `gr_pcm16_stereo.wav`: both channels, 16-bit PCM at 22050 Hz;
- `gr_float_mono.wav`: channel 0, 32-bit float at 8000 Hz.
"""

import os

import numpy as np
from gnuradio import blocks, gr

HERE = os.path.dirname(os.path.abspath(__file__))
ITEMS = 1000


def signal():
    i = np.arange(ITEMS)
    # Every value from -1 to 1 in steps of 1/100, in a scrambled order,
    # and a quieter, inverted copy; full scale included on purpose.
    left = (((i * 37) % 201) - 100) / 100.0
    right = -0.5 * left + 0.001 * np.sin(0.1 * i)
    return left.astype(np.float32), right.astype(np.float32)


def write(path, channels, rate, subformat):
    tb = gr.top_block()
    sink = blocks.wavfile_sink(path, len(channels), rate, blocks.FORMAT_WAV, subformat, False)
    for n, data in enumerate(channels):
        tb.connect(blocks.vector_source_f(data.tolist(), False), (sink, n))
    tb.run()


def main():
    left, right = signal()
    np.concatenate([left, right]).astype("<f4").tofile(os.path.join(HERE, "signal.f32"))
    write(os.path.join(HERE, "gr_pcm16_stereo.wav"), [left, right], 22050, blocks.FORMAT_PCM_16)
    write(os.path.join(HERE, "gr_float_mono.wav"), [left], 8000, blocks.FORMAT_FLOAT)


if __name__ == "__main__":
    main()
