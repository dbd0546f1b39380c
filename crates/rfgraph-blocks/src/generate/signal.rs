//! `SignalSource`: GNU Radio's `sig_source` (sine, cosine, square,
//! triangle, sawtooth, constant) for `f32` and `Complex32`, retunable while
//! it runs. Owns the block and its parameters; the per-sample formulas
//! live in `waveform`, the phase in `rfgraph-dsp`'s [`Nco`].

use super::waveform::{SignalItem, Waveform};
use crate::limit::Limit;
use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamOutput, WorkIo};
use rfgraph_dsp::Nco;

/// The parameters of [`SignalSource`] (`sig_source`). Every one but
/// `items` and `type` may change while the source runs.
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct SignalSourceParams {
    /// samples per second; the frequency in Hz stays when it changes
    #[param(
        default = 32_000.0,
        unit = "Hz",
        above = 0.0,
        alias = "samp_rate",
        settable
    )]
    pub sample_rate: f64,
    /// the wave's shape
    #[param(default = Waveform::Cosine, settable)]
    pub waveform: Waveform,
    /// the wave's frequency, phase-continuous when it changes; negative
    /// and above-Nyquist values alias as they would when sampled
    #[param(default = 1_000.0, unit = "Hz", alias = "freq", settable)]
    pub frequency: f64,
    /// peak amplitude; a negative one flips the waveform
    #[param(default = 1.0, alias = "amp", settable)]
    pub amplitude: f64,
    /// added to every sample (a real source takes only real offsets)
    #[param(default = Complex32::new(0.0, 0.0), settable)]
    pub offset: Complex32,
    /// phase of the next sample: of the first at the start, a jump when it
    /// changes
    #[param(default = 0.0, unit = "rad", settable)]
    pub phase: f64,
    /// stop after this many items (endless when not set)
    #[param(unit = "items")]
    pub items: Option<u64>,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

/// A periodic (or constant) test signal, GNU Radio's `analog.sig_source_f`
/// and `sig_source_c`.
///
/// The phase lives in the NCO's 32-bit fixed-point accumulator (one turn
/// = 2^32): it never drifts, each sample depends only on its phase word
/// (so the output is identical however the stream is split), and a change
/// of frequency is phase-continuous. The frequency is quantised to
/// `sample_rate / 2^32`, from the exact `frequency / sample_rate` (GNU
/// Radio rounds through `f32` first, so its frequency may differ by a few
/// parts in 10⁸). The waveforms are GNU Radio's, complex ones included:
/// see [`Waveform`] and the `waveform` module's table. Sine and cosine use
/// the NCO's polynomial (error < 1e-7), where GNU Radio interpolates a
/// 1024-entry table (error ≈ 5e-6).
///
/// # Parameters
/// [`SignalSourceParams`]; each settable one has a message input of its
/// name (and of its aliases).
///
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`)
///
/// # Message Inputs
/// - `cmd`: GNU Radio's command port: a number sets the frequency; a map
///   with `freq` and/or `ampl` sets those (both checked before either is
///   applied).
///
/// # Usage
/// ```
/// use rfgraph::scheduler::Tpb;
/// use rfgraph::Flowgraph;
/// use rfgraph_blocks::{SignalSource, SignalSourceParams, VectorSink, Waveform};
///
/// let tone = SignalSource::<f32>::new(SignalSourceParams {
///     sample_rate: 48_000.0,
///     frequency: 1_000.0,
///     amplitude: 0.5,
///     offset: 0.25.into(),
///     items: Some(480),
///     ..Default::default()
/// })?;
/// let mut fg = Flowgraph::new();
/// let src = fg.add(tone);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, "out", sink, "in")?;
/// let done = fg.run(Tpb::new())?;
/// let items = done.block::<VectorSink<f32>>(sink).unwrap().items();
/// assert_eq!(items.len(), 480);
/// assert!((items[0] - 0.75).abs() < 1e-6); // 0.5·cos 0 + 0.25
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SignalSource<T: SignalItem> {
    output: StreamOutput<T>,
    params: SignalSourceParams,
    nco: Nco,
    /// `params.offset` as an item.
    offset: T,
    limit: Limit,
}

impl<T: SignalItem> SignalSource<T> {
    /// A source with `params` (the item type is `T`'s; `params.item` is
    /// what the registry builds from).
    ///
    /// Errors: a parameter out of its range (a sample rate that is not
    /// positive, a non-finite value), a complex offset for a real source.
    pub fn new(params: SignalSourceParams) -> Result<Self, ParamError> {
        params.validate()?;
        let invalid =
            |e: rfgraph_dsp::DspError| ParamError::new("SignalSource", "frequency", e.to_string());
        let mut nco = Nco::new(params.frequency / params.sample_rate, 0.0).map_err(invalid)?;
        nco.set_phase(params.phase).map_err(invalid)?;
        Ok(Self {
            output: StreamOutput::new("out"),
            offset: T::from_offset(params.offset)?,
            limit: Limit::new(params.items),
            nco,
            params,
        })
    }

    /// The phase of the next sample, in radians in `[0, 2π)`.
    pub fn phase(&self) -> f64 {
        self.nco.phase()
    }

    /// GNU Radio's `cmd` message: a number is a frequency; a map may hold
    /// `freq` and `ampl`, both checked before either is applied.
    fn command(&mut self, msg: Pmt) -> Result<(), BoxError> {
        let changes = match &msg {
            Pmt::Map(map) => {
                if let Some(key) = map.keys().find(|k| *k != "freq" && *k != "ampl") {
                    return Err(format!("unknown key `{key}` (expected `freq` or `ampl`)").into());
                }
                map.iter()
                    .map(|(k, v)| {
                        (
                            if k == "freq" {
                                "frequency"
                            } else {
                                "amplitude"
                            },
                            v.clone(),
                        )
                    })
                    .collect()
            }
            number if number.as_f64().is_some() => vec![("frequency", msg.clone())],
            _ => {
                return Err(format!(
                    "expected a number or a map with `freq`/`ampl`, found {msg:?}"
                )
                .into());
            }
        };
        let mut trial = self.params.clone();
        for (name, value) in &changes {
            trial.set(name, value.clone())?;
        }
        for (name, value) in changes {
            rfgraph::params::apply(self, name, value)?;
        }
        Ok(())
    }
}

impl<T: SignalItem> Block for SignalSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output).message_input("cmd")
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        let p = &self.params;
        match name {
            "frequency" | "sample_rate" => self.nco.set_frequency(p.frequency / p.sample_rate)?,
            "phase" => self.nco.set_phase(p.phase)?,
            "offset" => self.offset = T::from_offset(p.offset)?,
            _ => {}
        }
        Ok(())
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        self.command(msg).map(|()| Pmt::Null)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        let p = &self.params;
        T::render(
            p.waveform,
            p.amplitude,
            self.offset,
            &mut self.nco,
            &mut out[..n],
        );
        self.output.produce(n);
        self.limit.spend(n, io);
        Ok(())
    }
}

/// The registry entry: `sig_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<SignalSourceParams>(
        "sig_source",
        "Waveform Generators",
        "A sine, cosine, square, triangle, sawtooth or constant signal.",
        |p| rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T => SignalSource::<T>::new(p)?),
    )
    .doc("GNU Radio's `analog_sig_source_x`, with its waveforms value for value \
(see the `rfgraph_blocks::Waveform` documentation):\n\n\
| waveform | real output | complex output |\n\
|---|---|---|\n\
| constant | `A + offset` | `A + offset` |\n\
| sine / cosine | `A sin φ` / `A cos φ` (+ offset) | `A e^{jφ} + offset` |\n\
| square | `A + offset` for the first half period, `offset` after | real part as real, imaginary part a quarter period earlier |\n\
| triangle | rises from `offset` to `A + offset` and back | likewise |\n\
| sawtooth | rises from `offset` to `A + offset` | likewise |\n\n\
The phase is a 32-bit fixed-point accumulator: it never drifts and a frequency \
change is phase-continuous. GNU Radio's `cmd` message input takes a number (the \
frequency) or a map with `freq`/`ampl`. Endless unless `items` is set.")
    .output(PortSpec::new("out", PortItem::OfType))
    .message_input("cmd")
}
