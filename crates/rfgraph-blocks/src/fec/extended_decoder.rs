//! The stream decoders: [`FrameDecoder`], as `extended_decoder` (GNU
//! Radio's `fec.extended_decoder` hierarchical block: soft floats in, for
//! the Viterbi decoder turned into bytes as its `multiply_const_ff(48)`,
//! `add_const_ff(128)` and `float_to_uchar` do, depunctured by `puncpat`,
//! decoded frame by frame) and as `generic_decoder` (its `fec.decoder`
//! block alone: the decoder's own soft items, floats or bytes). With
//! their parameters and registry entries.

use super::coder::{Decoder, SoftInput, SoftItem};
use super::params::FecCodeParams;
use super::pending::Pending;
use super::puncture::{HOLE, Puncture};
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// True when `ann` names no annihilator (GRC's default is `None`).
pub(crate) fn no_annihilator(ann: &str) -> bool {
    let a = ann.trim();
    a.is_empty() || a.eq_ignore_ascii_case("none")
}

/// The checks the extended decoders share: the code, the pattern (which
/// only a byte-input decoder can take, as GNU Radio's `depuncture_bb`
/// works on bytes), no annihilator.
pub(crate) fn check_extended(
    block: &str,
    fec: &FecCodeParams,
    puncpat: &str,
    ann: &str,
) -> Result<Option<Puncture>, ParamError> {
    fec.check_decoder(block)?;
    let puncture = Puncture::parse(puncpat, block)?;
    if puncture.is_some() && fec.code != super::params::FecCode::Cc {
        return Err(ParamError::new(
            block,
            "puncpat",
            format!(
                "only `cc` can be depunctured: GNU Radio's `depuncture_bb` takes bytes and the `{}` decoder floats",
                rfgraph::ParamChoice::choice_name(&fec.code)
            ),
        ));
    }
    if !no_annihilator(ann) {
        return Err(ParamError::new(
            block,
            "ann",
            "is not supported: GNU Radio 3.10's extended decoders fail on an annihilator (its `read_big_bitlist` cannot run under Python 3), so only `None` works there",
        ));
    }
    Ok(puncture)
}

/// The parameters of `extended_decoder` (GNU Radio's
/// `fec_extended_decoder`; its `threadtype` does not apply: rfgraph
/// schedules the block itself).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct ExtendedDecoderParams {
    /// the code
    #[param(flatten)]
    pub fec: FecCodeParams,
    /// the encoder's puncturing pattern: each `0` of every group of
    /// `len(puncpat)` coded bits is a hole filled with an erasure before
    /// decoding (`cc` only); `11` punctures nothing
    #[param(default = "11", max_len = 31)]
    pub puncpat: String,
    /// GNU Radio's annihilator (synchronisation by syndromes): `None`
    /// only, as GNU Radio 3.10 fails on any other
    #[param(default = "None", max_len = 64)]
    pub ann: String,
}

impl ExtendedDecoderParams {
    fn check(&self) -> Result<(), ParamError> {
        check_extended("extended_decoder", &self.fec, &self.puncpat, &self.ann).map(|_| ())
    }
}

/// The parameters of `generic_decoder` (GNU Radio's
/// `fec_generic_decoder` with byte output).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct GenericDecoderParams {
    /// the code
    #[param(flatten)]
    pub fec: FecCodeParams,
    /// the input item: the decoder's own, `u8` soft bytes for `cc`
    /// (GNU Radio's uchar input, 255 a sure 1), `f32` for the others
    #[param(kinds(F32, U8))]
    pub itype: ItemKind,
}

impl GenericDecoderParams {
    fn check(&self) -> Result<(), ParamError> {
        self.fec.check_decoder("generic_decoder")?;
        let own = match self.fec.code {
            super::params::FecCode::Cc => ItemKind::U8,
            _ => ItemKind::F32,
        };
        if self.itype != own {
            return Err(ParamError::new(
                "generic_decoder",
                "itype",
                format!(
                    "must be {own}, the `{}` decoder's input, not {}",
                    rfgraph::ParamChoice::choice_name(&self.fec.code),
                    self.itype
                ),
            ));
        }
        Ok(())
    }
}

/// Soft values gathered for the next frame.
enum Staged {
    Float(Vec<f32>),
    Uchar(Vec<u8>),
}

impl Staged {
    fn len(&self) -> usize {
        match self {
            Staged::Float(v) => v.len(),
            Staged::Uchar(v) => v.len(),
        }
    }

    fn drain(&mut self, n: usize) {
        match self {
            Staged::Float(v) => drop(v.drain(..n)),
            Staged::Uchar(v) => drop(v.drain(..n)),
        }
    }
}

/// Decodes a stream of soft values frame by frame: each frame of the
/// decoder's input (plus, for a streaming `cc` code, the first
/// `rate · (k − 1)` values of the next frame) becomes `frame_size` bits.
/// Punctured input is depunctured first (holes are the erasure byte 127,
/// as in GNU Radio). A last partial frame is dropped.
///
/// # Parameters
/// [`ExtendedDecoderParams`] (`extended_decoder`) or
/// [`GenericDecoderParams`] (`generic_decoder`).
///
/// # Stream Inputs
/// - `in`: `T`: `f32` soft values, positive for a 1
///   (`extended_decoder`); the decoder's own items (`generic_decoder`:
///   `u8` soft bytes for `cc`).
///
/// # Stream Outputs
/// - `out`: `u8`, one bit per byte.
///
/// # Usage
/// ```
/// use rfgraph_blocks::fec::{CcMode, ExtendedDecoderParams, FecCodeParams, extended_decoder};
/// let dec = extended_decoder(ExtendedDecoderParams {
///     fec: FecCodeParams::cc(1024, CcMode::Terminated),
///     ..Default::default()
/// })?;
/// # let _ = dec;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct FrameDecoder<P, T: SoftItem> {
    input: StreamInput<T>,
    output: StreamOutput<u8>,
    params: P,
    decoder: Decoder,
    puncture: Option<Puncture>,
    staged: Staged,
    /// Punctured bytes of whole groups, before depuncturing (and a
    /// frame's soft bytes decoded straight from the input).
    kept: Vec<u8>,
    /// A frame's soft floats decoded straight from the input.
    floats: Vec<f32>,
    pending: Pending<u8>,
}

/// The block [`extended_decoder`] builds.
pub type ExtendedDecoder = FrameDecoder<ExtendedDecoderParams, f32>;

/// GNU Radio's `fec.extended_decoder`: soft floats in, bits out. See
/// [`FrameDecoder`].
pub fn extended_decoder(params: ExtendedDecoderParams) -> Result<ExtendedDecoder, ParamError> {
    params.validate()?;
    let puncture = check_extended(
        "extended_decoder",
        &params.fec,
        &params.puncpat,
        &params.ann,
    )?;
    let decoder = Decoder::new(&params.fec, "extended_decoder")?;
    Ok(FrameDecoder::new(params, decoder, puncture))
}

/// GNU Radio's `fec.decoder`: the decoder's own soft items (`T`: `u8`
/// for `cc`, `f32` otherwise) in, bits out. See [`FrameDecoder`].
pub fn generic_decoder<T: SoftItem>(
    params: GenericDecoderParams,
) -> Result<FrameDecoder<GenericDecoderParams, T>, ParamError> {
    params.validate()?;
    let decoder = Decoder::new(&params.fec, "generic_decoder")?;
    if T::KIND != params.itype {
        return Err(ParamError::new(
            "generic_decoder",
            "itype",
            format!("is {}, but the block reads {}", params.itype, T::KIND),
        ));
    }
    Ok(FrameDecoder::new(params, decoder, None))
}

impl<P: ParamSet, T: SoftItem> FrameDecoder<P, T> {
    pub(crate) fn new(params: P, decoder: Decoder, puncture: Option<Puncture>) -> Self {
        let staged = match decoder.soft_input() {
            SoftInput::Float => Staged::Float(Vec::new()),
            SoftInput::Uchar => Staged::Uchar(Vec::new()),
        };
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            decoder,
            puncture,
            staged,
            kept: Vec::new(),
            floats: Vec::new(),
            pending: Pending::new(),
        }
    }

    /// The parameters.
    pub fn params(&self) -> &P {
        &self.params
    }

    /// Decodes whole frames straight from the input into the output
    /// while both have room and nothing is staged or pending (no
    /// puncturing): the values are converted once, into `kept`, and
    /// neither staged nor the bits copied through `pending`.
    fn decode_direct(&mut self, step: usize, need: usize) {
        let bits = self.decoder.output_size();
        if self.puncture.is_some() || self.staged.len() > 0 || step == 0 {
            return;
        }
        loop {
            let avail = self.input.slice();
            if avail.len() < need {
                return;
            }
            let out = self.output.slice();
            if out.len() < bits {
                return;
            }
            let out = &mut out[..bits];
            match &self.staged {
                Staged::Uchar(_) => {
                    self.kept.clear();
                    self.kept.extend(avail[..need].iter().map(|&x| x.uchar()));
                    self.decoder.decode_uchar(&self.kept, out);
                }
                Staged::Float(_) => {
                    self.floats.clear();
                    self.floats.extend(avail[..need].iter().map(|&x| x.float()));
                    self.decoder.decode_float(&self.floats, out);
                }
            }
            self.input.consume(step);
            self.output.produce(bits);
        }
    }

    /// Moves input into the staged values until `need` are staged (in
    /// whole puncturing groups); false when the input ran short.
    fn stage(&mut self, need: usize) -> bool {
        let have = self.staged.len();
        if have >= need {
            return true;
        }
        let avail = self.input.slice();
        let taken = match (&self.puncture, &mut self.staged) {
            (None, Staged::Float(v)) => {
                let n = (need - have).min(avail.len());
                v.extend(avail[..n].iter().map(|&x| x.float()));
                n
            }
            (None, Staged::Uchar(v)) => {
                let n = (need - have).min(avail.len());
                v.extend(avail[..n].iter().map(|&x| x.uchar()));
                n
            }
            (Some(p), Staged::Uchar(v)) => {
                let groups = (need - have).div_ceil(p.size()).min(avail.len() / p.kept());
                let n = groups * p.kept();
                self.kept.clear();
                self.kept.extend(avail[..n].iter().map(|&x| x.uchar()));
                p.depuncture(&self.kept, HOLE, v);
                n
            }
            // `check_extended` keeps puncturing to byte decoders.
            (Some(_), Staged::Float(_)) => 0,
        };
        self.input.consume(taken);
        self.staged.len() >= need
    }
}

impl<P: ParamSet, T: SoftItem> Block for FrameDecoder<P, T> {
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
            interpolation: (self.decoder.output_size() * size).max(1) as u64,
            decimation: (self.decoder.input_size() * kept).max(1) as u64,
        }
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let step = self.decoder.input_size();
        let need = step + self.decoder.history();
        while self.pending.drain(&mut self.output, io) {
            self.decode_direct(step, need);
            if !self.stage(need) {
                break;
            }
            let out = self.pending.refill();
            out.resize(self.decoder.output_size(), 0);
            match &self.staged {
                Staged::Float(v) => self.decoder.decode_float(&v[..need], out),
                Staged::Uchar(v) => self.decoder.decode_uchar(&v[..need], out),
            }
            self.staged.drain(step);
        }
        Ok(())
    }
}

/// `extended_decoder`: GNU Radio's `fec_extended_decoder`.
pub(crate) fn extended_decoder_spec() -> BlockSpec {
    BlockSpec::of::<ExtendedDecoderParams>(
        "extended_decoder",
        "Error Coding",
        "Decodes soft floats frame by frame with a FEC code, depuncturing first.",
        |p| Ok(Box::new(extended_decoder(p)?)),
    )
    .doc("GNU Radio's `fec.extended_decoder`: soft values (positive for a 1, ±1 for sure bits) are decoded frame by frame into `frame_size` bits. `dummy` slices each value at 0; `repetition` decides each bit by the fraction of its `rep` values above 0 against `prob`; `cc` runs GNU Radio's K = 7, rate 1/2 Viterbi decoder (its VOLK kernel's arithmetic) on the bytes `round(48·x + 128)`, depunctured by `puncpat` (holes become the erasure 127) when that is not `11`. A streaming `cc` frame also reads the first 12 values of the next one. A last partial frame is dropped. `ann` must be `None` (GNU Radio 3.10 fails on any other). Tags move by the block's rate.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}

/// `generic_decoder`: GNU Radio's `fec_generic_decoder` (byte output).
pub(crate) fn generic_decoder_spec() -> BlockSpec {
    BlockSpec::of::<GenericDecoderParams>(
        "generic_decoder",
        "Error Coding",
        "Decodes a FEC code frame by frame from the decoder's own soft items.",
        |p| {
            rfgraph::for_item_kinds!(p.itype, { F32 => f32, U8 => u8 } as T
                => generic_decoder::<T>(p)?)
        },
    )
    .doc("GNU Radio's `fec.decoder` with byte output: frames of the decoder's soft items become `frame_size` bits, one per byte. `itype` is the decoder's input: `u8` soft bytes for `cc` (255 a sure 1, 0 a sure 0, 128 nothing known), `f32` soft values for `dummy` and `repetition`. A streaming `cc` frame also reads the first 12 items of the next one; a last partial frame is dropped. Tags move by the block's rate.")
    .input(PortSpec::new("in", PortItem::OfParam("itype")))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)))
}
