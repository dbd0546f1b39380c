//! The stream encoders: [`FrameEncoder`], as `extended_encoder` (GNU
//! Radio's `fec.extended_encoder` hierarchical block: bits in, a `ccsds`
//! code's bits packed first, frames coded, then punctured by `puncpat`)
//! and as `generic_encoder` (its `fec.encoder` block alone: a frame's
//! items go to the code as they are, packed bytes for `ccsds`). With
//! their parameters and registry entries.

use super::coder::Encoder;
use super::params::FecCodeParams;
use super::pending::Pending;
use super::puncture::Puncture;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The parameters of `extended_encoder` (GNU Radio's
/// `fec_extended_encoder`; its `threadtype` does not apply: rfgraph
/// schedules the block itself).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ExtendedEncoderParams {
    /// the code
    #[param(flatten)]
    pub fec: FecCodeParams,
    /// puncturing pattern applied to successive groups of coded bits:
    /// `1` keeps a bit, `0` drops it; `11` punctures nothing
    #[param(default = "11", max_len = 31)]
    pub puncpat: String,
}

impl ExtendedEncoderParams {
    fn check(&self) -> Result<(), ParamError> {
        self.fec.check_encoder("extended_encoder")?;
        Puncture::parse(&self.puncpat, "extended_encoder").map(|_| ())
    }
}

/// The parameters of `generic_encoder` (GNU Radio's `fec_generic_encoder`
/// with byte input and output).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct GenericEncoderParams {
    /// the code
    #[param(flatten)]
    pub fec: FecCodeParams,
}

impl GenericEncoderParams {
    fn check(&self) -> Result<(), ParamError> {
        self.fec.check_encoder("generic_encoder")
    }
}

/// Encodes a stream frame by frame: each frame of the code's
/// `frame_size` bits (one per byte) becomes its coded bits, optionally
/// punctured. The code's state carries from frame to frame as in GNU
/// Radio (a streaming `cc` code's register, a terminated one's start
/// state); a last partial frame at the end of the stream is dropped, as
/// is a last partial puncturing group.
///
/// # Parameters
/// [`ExtendedEncoderParams`] (`extended_encoder`) or
/// [`GenericEncoderParams`] (`generic_encoder`).
///
/// # Stream Inputs
/// - `in`: `u8`, one bit per byte (`extended_encoder`); the code's items
///   as they are (`generic_encoder`: packed bytes for `ccsds`).
///
/// # Stream Outputs
/// - `out`: `u8`, one coded bit per byte (the `dummy` and `repetition`
///   codes pass whole bytes).
///
/// # Usage
/// ```
/// use rfgraph_blocks::fec::{CcMode, ExtendedEncoderParams, FecCodeParams, extended_encoder};
/// let enc = extended_encoder(ExtendedEncoderParams {
///     fec: FecCodeParams::cc(1024, CcMode::Terminated),
///     puncpat: "1101".into(),
/// })?;
/// # let _ = enc;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct FrameEncoder<P> {
    input: StreamInput<u8>,
    output: StreamOutput<u8>,
    params: P,
    encoder: Encoder,
    puncture: Option<Puncture>,
    /// Packs 8 bits into a byte before the code (`extended_encoder` with
    /// `ccsds`).
    pack: bool,
    packed: Vec<u8>,
    /// One frame of input, copied out of the ring.
    frame: Vec<u8>,
    /// One coded frame.
    coded: Vec<u8>,
    /// Coded bits short of a whole puncturing group.
    rest: Vec<u8>,
    pending: Pending<u8>,
}

/// The block [`extended_encoder`] builds.
pub type ExtendedEncoder = FrameEncoder<ExtendedEncoderParams>;

/// The block [`generic_encoder`] builds.
pub type GenericEncoder = FrameEncoder<GenericEncoderParams>;

/// GNU Radio's `fec.extended_encoder`: bits in, coded (and punctured)
/// bits out. See [`FrameEncoder`].
pub fn extended_encoder(params: ExtendedEncoderParams) -> Result<ExtendedEncoder, ParamError> {
    params.validate()?;
    let encoder = Encoder::new(&params.fec, "extended_encoder")?;
    let puncture = Puncture::parse(&params.puncpat, "extended_encoder")?;
    let pack = encoder.packed_input();
    Ok(FrameEncoder::new(params, encoder, puncture, pack))
}

/// GNU Radio's `fec.encoder` with byte items: the code's frames as they
/// are. See [`FrameEncoder`].
pub fn generic_encoder(params: GenericEncoderParams) -> Result<GenericEncoder, ParamError> {
    params.validate()?;
    let encoder = Encoder::new(&params.fec, "generic_encoder")?;
    Ok(FrameEncoder::new(params, encoder, None, false))
}

impl<P: ParamSet> FrameEncoder<P> {
    pub(crate) fn new(params: P, encoder: Encoder, puncture: Option<Puncture>, pack: bool) -> Self {
        let mut this = Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            encoder,
            puncture,
            pack,
            packed: Vec::new(),
            frame: Vec::new(),
            coded: Vec::new(),
            rest: Vec::new(),
            pending: Pending::new(),
        };
        this.input = StreamInput::new("in").with_min_items(this.frame_in());
        this
    }

    /// Input items per frame.
    fn frame_in(&self) -> usize {
        let n = self.encoder.input_size();
        if self.pack { n * 8 } else { n }
    }

    /// The parameters.
    pub fn params(&self) -> &P {
        &self.params
    }

    /// Codes one frame of `bits` into the pending output.
    fn code(&mut self, bits: &[u8]) {
        let frame = if self.pack {
            self.packed.clear();
            self.packed.extend(
                bits.chunks_exact(8)
                    .map(|c| c.iter().fold(0u8, |acc, &b| (acc << 1) | (b & 1))),
            );
            &self.packed[..]
        } else {
            bits
        };
        self.coded.clear();
        self.coded.resize(self.encoder.output_size(), 0);
        self.encoder.encode(frame, &mut self.coded);
        let out = self.pending.refill();
        match &self.puncture {
            None => out.extend_from_slice(&self.coded),
            Some(p) => {
                self.rest.extend_from_slice(&self.coded);
                let whole = self.rest.len() / p.size() * p.size();
                p.puncture(&self.rest[..whole], out);
                self.rest.drain(..whole);
            }
        }
    }
}

impl<P: ParamSet> Block for FrameEncoder<P> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        let (kept, size) = self
            .puncture
            .as_ref()
            .map_or((1, 1), |p| (p.kept(), p.size()));
        TagPolicy::Propagate {
            interpolation: (self.encoder.output_size() * kept).max(1) as u64,
            decimation: (self.frame_in() * size).max(1) as u64,
        }
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let need = self.frame_in();
        while self.pending.drain(&mut self.output, io) {
            let bits = self.input.slice();
            if need == 0 || bits.len() < need {
                break;
            }
            let mut frame = std::mem::take(&mut self.frame);
            frame.clear();
            frame.extend_from_slice(&bits[..need]);
            self.input.consume(need);
            self.code(&frame);
            self.frame = frame;
        }
        Ok(())
    }
}

fn build_spec<P: ParamSet>(
    name: &'static str,
    summary: &'static str,
    doc: &'static str,
    build: impl Fn(P) -> Result<Box<dyn Block>, BoxError> + Send + Sync + 'static,
) -> BlockSpec {
    BlockSpec::of::<P>(name, "Error Coding", summary, build)
        .doc(doc)
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::U8)))
        .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

/// `extended_encoder`: GNU Radio's `fec_extended_encoder`.
pub(crate) fn extended_encoder_spec() -> BlockSpec {
    build_spec::<ExtendedEncoderParams>(
        "extended_encoder",
        "Encodes a bit stream frame by frame with a FEC code, then punctures it.",
        "GNU Radio's `fec.extended_encoder`: frames of `frame_size` bits (one per byte) become the code's coded bits (`dummy`: unchanged; `repetition`: each `rep` times; `cc`: the convolutional code of `k`, `polys` in `mode`; `ccsds`: the CCSDS code over the frame's bits packed into bytes), then every group of `len(puncpat)` coded bits keeps those where `puncpat` has a `1` (`11`: no puncturing). The code's state carries between frames as in GNU Radio; a last partial frame or puncturing group is dropped. Tags move by the block's rate.",
        |p| Ok(Box::new(extended_encoder(p)?)),
    )
}

/// `generic_encoder`: GNU Radio's `fec_generic_encoder` (byte items).
pub(crate) fn generic_encoder_spec() -> BlockSpec {
    build_spec::<GenericEncoderParams>(
        "generic_encoder",
        "Encodes a stream frame by frame with a FEC code, items as they are.",
        "GNU Radio's `fec.encoder` with byte input and output: each frame of the code's input items (bits, one per byte; for `ccsds` `frame_size / 8` packed bytes, most significant bit first) becomes its coded bits, one per byte. A last partial frame is dropped. Tags move by the block's rate.",
        |p| Ok(Box::new(generic_encoder(p)?)),
    )
}
