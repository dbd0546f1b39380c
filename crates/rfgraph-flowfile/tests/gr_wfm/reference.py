#!/usr/bin/python3
"""Runs GNU Radio 3.10's wide-band FM hier blocks (analog.wfm_tx,
analog.wfm_rcv_pll) and writes inputs and outputs as raw little-endian
files into the directory given as the only argument:

- `tx_<audio>_<quad>.in` (float audio) and `.out` (complex) for wfm_tx;
- `stereo_<side>.in` (complex FM of a stereo multiplex whose only tone,
  1 kHz, is on the left or the right channel) and `.left` / `.right`
  (GNU Radio's wfm_rcv_pll outputs at 48 kHz).

The Rust test `gr_wfm.rs` compares."""

import os
import sys
import numpy as np
from gnuradio import gr, blocks, analog

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)

# wfm_tx: two tones of audio.
for audio_rate, quad_rate in [(50000, 400000), (48000, 192000), (48000, 48000)]:
    t = np.arange(int(0.1 * audio_rate)) / audio_rate
    audio = (0.5 * np.sin(2 * np.pi * 1000 * t) + 0.3 * np.sin(2 * np.pi * 5000 * t)).astype(np.float32)
    tb = gr.top_block()
    src = blocks.vector_source_f(audio.tolist())
    tx = analog.wfm_tx(audio_rate, quad_rate, 75e-6, 75e3, -1.0)
    snk = blocks.vector_sink_c()
    tb.connect(src, tx, snk)
    tb.run()
    name = "tx_%d_%d" % (audio_rate, quad_rate)
    audio.tofile(os.path.join(out_dir, name + ".in"))
    np.asarray(snk.data(), dtype=np.complex64).tofile(os.path.join(out_dir, name + ".out"))

# wfm_rcv_pll: a stereo multiplex at 384 kHz (USRP_FM_stereo.grc's
# demod rate), 1 kHz on one side only, pilot at 10 %.
RATE = 384000
t = np.arange(int(0.6 * RATE)) / RATE
tone = np.sin(2 * np.pi * 1000 * t)
pilot = np.sin(2 * np.pi * 19000 * t)
sub = np.sin(2 * np.pi * 38000 * t)
for side, (l, r) in {"left": (tone, 0 * tone), "right": (0 * tone, tone)}.items():
    mpx = 0.45 * (l + r) + 0.45 * (l - r) * sub + 0.1 * pilot
    phase = np.cumsum(2 * np.pi * 75e3 / RATE * mpx)
    x = np.exp(1j * phase).astype(np.complex64)
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist())
    rx = analog.wfm_rcv_pll(demod_rate=RATE, audio_decimation=8, deemph_tau=75e-6)
    sl, sr = blocks.vector_sink_f(), blocks.vector_sink_f()
    tb.connect(src, rx)
    tb.connect((rx, 0), sl)
    tb.connect((rx, 1), sr)
    tb.run()
    x.tofile(os.path.join(out_dir, "stereo_%s.in" % side))
    np.asarray(sl.data(), dtype=np.float32).tofile(os.path.join(out_dir, "stereo_%s.left" % side))
    np.asarray(sr.data(), dtype=np.float32).tofile(os.path.join(out_dir, "stereo_%s.right" % side))
