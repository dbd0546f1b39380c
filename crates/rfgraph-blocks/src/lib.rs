//! The rfgraph block library: sources, sinks, stream utilities, message
//! blocks, and blocks around the `rfgraph-dsp` kernels, built on the
//! `rfgraph` runtime. One block per file.
//!
//! | category | blocks |
//! |---|---|
//! | recordings | [`FileSource`], [`FileSink`] (raw `cu8`, `cs8`, `cs16`, `cf32`, `f32`, `i16`, `u8` and every SigMF datatype, see [`sample_format`]); [`FileMetaSource`], [`FileMetaSink`] (GNU Radio's metadata files, headers as tags, see [`file_meta`]); [`TaggedFileSink`] (a file per burst); [`SigmfSource`], [`SigmfSink`] (SigMF 1.x, captures and annotations as tags); [`WavSource`], [`WavSink`] |
//! | generators | [`SignalSource`] (sine, cosine, square, triangle, sawtooth, constant), [`NoiseSource`] (uniform, Gaussian), [`RandomBytes`], [`NcoSource`], [`VectorSource`], [`NullSource`] |
//! | sinks | [`VectorSink`], [`NullSink`], [`MessageSink`] |
//! | stream utilities | [`Head`], [`Throttle`], [`Copy`](struct@Copy), [`CopyRand`], [`Map`] |
//! | signal processing | [`DspBlock`] around any `rfgraph-dsp` kernel (FIR, resamplers, FFT, demodulators, ...) |
//! | analog | [`analog::RandomSource`], [`analog::FastNoiseSource`], [`analog::frequency_modulator`], [`analog::single_pole_iir_filter`], [`analog::dc_blocker`], [`analog::simple_squelch`] |
//! | digital | bit packing ([`digital::repack_bits`], ...), [`digital::chunks_to_symbols`], [`digital::map_bb`], [`digital::binary_slicer`], differential coding, [`digital::constellation_decoder`], [`digital::ConstellationModulator`], [`digital::costas_loop`], [`digital::clock_recovery_mm`] |
//! | channels | [`channels::ChannelModel`], [`channels::quantizer`], [`channels::amp_bal`], [`channels::impairments`], [`channels::fading_model`], [`channels::selective_fading_model`] |
//! | packets | in [`packet`]: CRC-32 on tagged streams and PDUs ([`packet::Crc32`], [`packet::Crc32Async`]), GNU Radio's header formats (`default`, `counter`, `crc`) with the protocol formatters and parser, `packet_header_default` and `packet_header_ofdm` header generator and parser |
//! | OFDM | in [`ofdm`]: GNU Radio's OFDM blocks: [`ofdm::CarrierAllocator`], [`ofdm::CyclicPrefixer`], [`ofdm::SyncSc`] (Schmidl & Cox), [`ofdm::Chanest`], [`ofdm::FrameEqualizer`] (simple DFE and static equalizers), [`ofdm::Serializer`], [`ofdm::HeaderPayloadDemux`] |
//! | error coding | in [`fec`]: GNU Radio's FEC codes (dummy, repetition, convolutional with its K = 7 Viterbi decoder, CCSDS) on streams, tagged streams and PDUs, with puncturing, and the bit error rate |
//! | messages | [`MessageBurst`], [`MessageForward`], [`MessageSink`]; in [`message`]: strobes, debug printers in GNU Radio's format, PDUs (`[Map(meta), data]`) and tagged streams |
//! | math | in [`math`]: N-input add/subtract/multiply/divide, settable constants, complex parts and magnitudes, `nlog10`, matrices, reductions, level blocks |
//! | type conversions | in [`convert`]: GNU Radio's scale, rounding and saturation between bytes, shorts, ints, floats and complex pairs |
//! | measurement | in [`timing`]: [`timing::PacedSource`] (bursts on a schedule), [`timing::LatencySink`] (arrival times, sequence check) |
//! | web displays | in [`display`]: spectrum, waterfall, time, constellation and number displays a browser draws (GNU Radio's Qt GUI sinks), read through their readings `display` and `frame` |
//! | stream operators | in [`stream`]: [`ConstSource`], [`Delay`], [`SkipHead`], [`Selector`], mux/demux/interleave, keep/repeat, tag tools |
//!
//! The blocks are registry entries too ([`registry::specs`]), under GNU
//! Radio's names without module and type suffix (`multiply_const`,
//! `char_to_float`, `message_debug`); GNU Radio's vectors are flat
//! streams here, with a `vlen` where a block works on whole vectors.
//!
//! SDR hardware (seify / SoapySDR) lives in the `rfgraph-hw` crate.
//!
//! How the crates fit together, the runtime contract and the project's
//! rules: `docs/architecture.md` in the repository.

#![warn(missing_docs)]

pub mod analog;
pub mod channels;
pub mod convert;
mod copy;
mod copy_rand;
pub mod digital;
pub mod display;
mod dsp;
mod dsp_specs;
pub mod fec;
/// The parameters of the blocks made of `rfgraph-dsp` kernels (each a
/// [`ParamSet`](rfgraph::ParamSet) that the registry entry builds from).
pub mod dsp_params {
    pub use crate::dsp_specs::{
        AgcParams, AmDemodParams, BandEdges, BandPassParams, BandRejectParams, Design,
        DesignParams, FftParams, FftWindow, FirFilterParams, FmDeemphParams, FreqXlatingParams,
        HighPassParams, IirDcBlockerParams, InterpFirFilterParams, LowPassParams,
        MovingAverageParams, PfbArbResamplerParams, QuadratureDemodParams, RationalResamplerParams,
        RotatorParams,
    };
}
mod file;
pub mod filter;
/// GNU Radio's metadata header, as [`FileMetaSink`] writes it and
/// [`FileMetaSource`] reads it: [`MetaHeader`](file_meta::MetaHeader)
/// reads one from untrusted bytes.
pub mod file_meta {
    pub use crate::file::{HEADER_SIZE, MetaError, MetaHeader, VERSION, decode_extras, file_type};
}
mod generate;
pub mod gr_pmt;
mod head;
mod limit;
pub mod math;
pub mod message;
mod message_burst;
mod message_forward;
mod message_sink;
mod null;
pub mod ofdm;
mod pace;
pub mod packet;
pub mod registry;
pub mod sample_format;
pub mod sigmf;
mod spec_util;
pub mod stream;
mod throttle;
pub mod timing;
mod vector_sink;
mod vector_source;
mod wav;

pub use copy::{Copy, CopyParams};
pub use copy_rand::{CopyRand, CopyRandParams};
pub use dsp::{DspBlock, NcoSource, Retune};
pub use file::{
    FileError, FileMetaSink, FileMetaSinkParams, FileMetaSource, FileMetaSourceParams, FileSink,
    FileSinkParams, FileSource, FileSourceParams, SinkMode, TaggedFileSink, TaggedFileSinkParams,
};
pub use generate::{
    Mt19937, NoiseGenerator, NoiseItem, NoiseKind, NoiseSource, NoiseSourceParams, RandomBytes,
    RandomBytesParams, RandomInteger, RandomIntegers, SignalItem, SignalSource, SignalSourceParams,
    UnknownWaveform, Waveform,
};
pub use head::{Head, HeadParams};
pub use math::{Combination, Combine, CombineParams, ConstOp, Unzip2, Zip2};
pub use message_burst::{MessageBurst, MessageBurstParams};
pub use message_forward::{MessageForward, MessageForwardParams};
pub use message_sink::{MessageSink, MessageSinkParams};
pub use null::{NullSink, NullSinkParams, NullSource, NullSourceParams};
pub use rfgraph::Map;
pub use sample_format::{SampleCodec, SampleFormat, SampleFormatError, SampleItem};
pub use sigmf::{SigmfSink, SigmfSinkParams, SigmfSource, SigmfSourceParams};
pub use stream::{ConstSource, Delay, Selector, SkipHead};
pub use throttle::{Throttle, ThrottleParams};
pub use vector_sink::{VectorSink, VectorSinkParams};
pub use vector_source::{SourceTags, VectorItem, VectorSource, VectorSourceParams};
pub use wav::{WavError, WavFormat, WavSink, WavSinkParams, WavSource, WavSourceParams};
