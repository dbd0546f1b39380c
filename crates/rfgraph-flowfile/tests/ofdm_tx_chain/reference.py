#!/usr/bin/python3
"""GNU Radio 3.10's explicit OFDM transmitter chain of `tx_ofdm.grc`
(crc32, tagged repack_bits 8 -> 2, packet_header_ofdm header generator,
chunks_to_symbols, tagged_stream_mux, carrier allocator with the
file's sync words and single pilot set, FFT, cyclic prefixer, x0.05,
tag_gate) on a fixed payload, and GNU Radio's `digital.ofdm_rx` (after
a channel_model with tap 1+1j and block_tags) on its samples. Writes into
the directory given as the first argument `tx.c64` (the samples, 4000
zeros appended) and `rx.u8` (what GNU Radio's receiver decodes). The
second and third arguments: packet length and number of packets. The
payload byte i is (i * 37 + i // 7) % 256. Read by `ofdm_tx_chain.rs`.
"""

import os
import sys

import numpy as np
from gnuradio import blocks, channels, digital, fft, gr

out_dir = sys.argv[1]
packet_len, packets = int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out_dir, exist_ok=True)
fft_len = 64
occupied_carriers = (list(range(-26, -21)) + list(range(-20, -7)) + list(range(-6, 0))
                     + list(range(1, 7)) + list(range(8, 21)) + list(range(22, 27)),)
pilot_carriers = ((-21, -7, 7, 21,),)
pilot_symbols = ((1, 1, 1, -1,),)
sync_word1 = [0., 0., 0., 0., 0., 0., 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., -1.41421356, 0., -1.41421356, 0., -1.41421356, 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., -1.41421356, 0., -1.41421356, 0., -1.41421356, 0., -1.41421356, 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., 1.41421356, 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., 1.41421356, 0., 1.41421356, 0., -1.41421356, 0., 1.41421356, 0., 1.41421356, 0., 1.41421356, 0., 0., 0., 0., 0., 0.]
sync_word2 = [0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 1, 1, -1, -1, -1, 1, -1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, 1, -1, -1, 1, -1, 0, 1, -1, 1, 1, 1, -1, 1, 1, 1, -1, 1, 1, 1, 1, -1, 1, -1, -1, -1, 1, -1, 1, -1, -1, -1, -1, 0, 0, 0, 0, 0]
K = "packet_len"
payload_mod = digital.constellation_qpsk()
header_mod = digital.constellation_bpsk()
hf = digital.packet_header_ofdm(occupied_carriers, n_syms=1, len_tag_key=K, frame_len_tag_key=K,
                                bits_per_header_sym=1, bits_per_payload_sym=2, scramble_header=False)
data = [(i * 37 + i // 7) % 256 for i in range(packet_len * packets)]

tb = gr.top_block()
src = blocks.vector_source_b(data, False)
tagger = blocks.stream_to_tagged_stream(gr.sizeof_char, 1, packet_len, K)
crc = digital.crc32_bb(False, K, True)
repack = blocks.repack_bits_bb(8, 2, K, False, gr.GR_LSB_FIRST)
header = digital.packet_headergenerator_bb(hf.base(), K)
header_sym = digital.chunks_to_symbols_bc(header_mod.points(), 1)
payload_sym = digital.chunks_to_symbols_bc(payload_mod.points(), 1)
mux = blocks.tagged_stream_mux(gr.sizeof_gr_complex, K, 0)
alloc = digital.ofdm_carrier_allocator_cvc(fft_len, occupied_carriers, pilot_carriers, pilot_symbols,
                                           (sync_word1, sync_word2), K, True)
ifft = fft.fft_vcc(fft_len, False, (), True, 1)
prefixer = digital.ofdm_cyclic_prefixer(fft_len, fft_len + fft_len // 4, 0, K)
scale = blocks.multiply_const_cc(0.05)
gate = blocks.tag_gate(gr.sizeof_gr_complex, False)
sink = blocks.vector_sink_c()
tb.connect(src, tagger, crc, repack, payload_sym, (mux, 1))
tb.connect(crc, header, header_sym, (mux, 0))
tb.connect(mux, alloc, ifft, prefixer, scale, gate, sink)
tb.run()
tx = np.concatenate([np.array(sink.data(), dtype=np.complex64), np.zeros(4000, dtype=np.complex64)])
tx.tofile(os.path.join(out_dir, "tx.c64"))

tb = gr.top_block()
src = blocks.vector_source_c(tx.tolist(), False)
channel = channels.channel_model(0.0, 0.0, 1.0, [1.0 + 1.0j], 0, True)
rx = digital.ofdm_rx(fft_len=fft_len, cp_len=fft_len // 4, frame_length_tag_key="frame_length",
                     packet_length_tag_key="length", occupied_carriers=occupied_carriers,
                     pilot_carriers=pilot_carriers, pilot_symbols=pilot_symbols,
                     sync_word1=sync_word1, sync_word2=sync_word2, bps_header=1, bps_payload=2,
                     debug_log=False, scramble_bits=False)
out = blocks.vector_sink_b()
tb.connect(src, channel, rx, out)
tb.run()
np.asarray(out.data(), dtype=np.uint8).tofile(os.path.join(out_dir, "rx.u8"))
