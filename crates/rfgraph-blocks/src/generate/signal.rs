//! `SignalSource`: GNU Radio's `sig_source` (sine, cosine, square,
//! triangle, sawtooth, constant) for `f32` and `Complex32`, retunable while
//! it runs. Owns the block, its parameters and their settings; the
//! per-sample formulas live in `waveform`, the phase in `rfgraph-dsp`'s
//! [`Nco`].

use super::waveform::{SignalItem, Waveform};
use crate::limit::Limit;
use rfgraph::{
    Block, BoxError, ParamError, ParamInfo, Pmt, Ports, Setting, Settings, StreamOutput, WorkIo,
};
use rfgraph_dsp::Nco;

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
/// # Stream Outputs
/// - `out`: `T` (`f32` or `Complex32`)
///
/// # Message Inputs
/// - `freq`, `frequency`: frequency in Hz (float); phase-continuous.
/// - `amplitude`: amplitude (float).
/// - `offset`: offset added to every sample (`f32`: float; complex: a
///   number, a one-element complex vector, or two numbers `[re, im]`).
/// - `phase`: phase of the next sample, in radians (float); a jump by
///   definition.
/// - `waveform`: the waveform's name (string, see [`Waveform::name`]).
/// - `sample_rate`: sample rate in Hz (float); keeps the frequency in Hz.
/// - `cmd`: GNU Radio's command port: a number sets the frequency; a map
///   with `freq` and/or `ampl` sets those.
///
/// # Parameters
/// - `sample_rate`: samples per second (> 0).
/// - `waveform`: see [`Waveform`].
/// - `frequency`: Hz, any finite value (negative and above Nyquist alias
///   as they would when sampled).
/// - `amplitude`: peak value (finite; negative flips the waveform).
/// - `offset` ([`with_offset`](Self::with_offset)): added to every sample;
///   0 by default.
/// - `phase` ([`with_phase`](Self::with_phase)): initial phase in radians;
///   0 by default.
/// - `limit` ([`limit`](Self::limit)): stop after this many items; endless
///   by default.
///
/// # Usage
/// ```
/// use rfgraph::scheduler::Tpb;
/// use rfgraph::Flowgraph;
/// use rfgraph_blocks::{SignalSource, VectorSink, Waveform};
///
/// let tone = SignalSource::<f32>::new(48_000.0, Waveform::Cosine, 1_000.0, 0.5)?
///     .with_offset(0.25)?
///     .limit(480);
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
    nco: Nco,
    sample_rate: f64,
    frequency: f64,
    waveform: Waveform,
    amplitude: f64,
    offset: T,
    limit: Limit,
    settings: Settings<Self>,
}

/// `ParamError` for `SignalSource`.
fn invalid(param: &str, reason: String) -> ParamError {
    ParamError::new("SignalSource", param, reason)
}

/// `value` if finite, else an error naming `param`.
fn finite(param: &str, value: f64) -> Result<f64, ParamError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(invalid(param, format!("must be finite, not {value}")))
    }
}

impl<T: SignalItem> SignalSource<T> {
    /// An endless `waveform` at `frequency` Hz and peak `amplitude`,
    /// sampled at `sample_rate` Hz, starting at phase 0 with no offset.
    ///
    /// Errors: a sample rate that is not a positive finite number, a
    /// non-finite frequency or amplitude.
    pub fn new(
        sample_rate: f64,
        waveform: Waveform,
        frequency: f64,
        amplitude: f64,
    ) -> Result<Self, ParamError> {
        if !(sample_rate.is_finite() && sample_rate > 0.0) {
            return Err(invalid(
                "sample_rate",
                format!("must be a positive number of samples per second, not {sample_rate}"),
            ));
        }
        let frequency = finite("frequency", frequency)?;
        let nco = Nco::new(frequency / sample_rate, 0.0)
            .map_err(|e| invalid("frequency", e.to_string()))?;
        Ok(Self {
            output: StreamOutput::new("out"),
            nco,
            sample_rate,
            frequency,
            waveform,
            amplitude: finite("amplitude", amplitude)?,
            offset: T::zeroed(),
            limit: Limit::unlimited(),
            settings: Self::setting_table(),
        })
    }

    /// Adds `offset` to every sample. Errors: a non-finite offset.
    pub fn with_offset(mut self, offset: T) -> Result<Self, ParamError> {
        self.set_offset(offset)?;
        Ok(self)
    }

    /// Starts at `phase` radians. Errors: a non-finite phase.
    pub fn with_phase(mut self, phase: f64) -> Result<Self, ParamError> {
        self.set_phase(phase)?;
        Ok(self)
    }

    /// Stops after `items` items.
    pub fn limit(mut self, items: u64) -> Self {
        self.limit = Limit::of(items);
        self
    }

    /// Changes the frequency (Hz), keeping the phase continuous: the next
    /// sample continues from where the last one left off.
    pub fn set_frequency(&mut self, frequency: f64) -> Result<(), ParamError> {
        let frequency = finite("frequency", frequency)?;
        self.nco
            .set_frequency(frequency / self.sample_rate)
            .map_err(|e| invalid("frequency", e.to_string()))?;
        self.frequency = frequency;
        Ok(())
    }

    /// Changes the sample rate (Hz), keeping the frequency in Hz.
    pub fn set_sample_rate(&mut self, sample_rate: f64) -> Result<(), ParamError> {
        if !(sample_rate.is_finite() && sample_rate > 0.0) {
            return Err(invalid(
                "sample_rate",
                format!("must be a positive number of samples per second, not {sample_rate}"),
            ));
        }
        self.nco
            .set_frequency(self.frequency / sample_rate)
            .map_err(|e| invalid("sample_rate", e.to_string()))?;
        self.sample_rate = sample_rate;
        Ok(())
    }

    /// Changes the amplitude from the next sample on.
    pub fn set_amplitude(&mut self, amplitude: f64) -> Result<(), ParamError> {
        self.amplitude = finite("amplitude", amplitude)?;
        Ok(())
    }

    /// Changes the offset from the next sample on.
    pub fn set_offset(&mut self, offset: T) -> Result<(), ParamError> {
        if !offset.is_finite() {
            return Err(invalid("offset", "must be finite".to_string()));
        }
        self.offset = offset;
        Ok(())
    }

    /// Sets the phase of the next sample, in radians.
    pub fn set_phase(&mut self, phase: f64) -> Result<(), ParamError> {
        let phase = finite("phase", phase)?;
        self.nco
            .set_phase(phase)
            .map_err(|e| invalid("phase", e.to_string()))
    }

    /// Changes the waveform from the next sample on (the phase runs on).
    pub fn set_waveform(&mut self, waveform: Waveform) {
        self.waveform = waveform;
    }

    /// The frequency in Hz.
    pub fn frequency(&self) -> f64 {
        self.frequency
    }

    /// The sample rate in Hz.
    pub fn sample_rate(&self) -> f64 {
        self.sample_rate
    }

    /// The amplitude.
    pub fn amplitude(&self) -> f64 {
        self.amplitude
    }

    /// The offset.
    pub fn offset(&self) -> T {
        self.offset
    }

    /// The waveform.
    pub fn waveform(&self) -> Waveform {
        self.waveform
    }

    /// The phase of the next sample, in radians in `[0, 2π)`.
    pub fn phase(&self) -> f64 {
        self.nco.phase()
    }

    fn setting_table() -> Settings<Self> {
        Settings::new()
            .with(
                Setting::try_new("freq", |s: &mut Self, f: f64| s.set_frequency(f))
                    .unit("Hz")
                    .doc("frequency; phase-continuous"),
            )
            .with(
                Setting::try_new("amplitude", |s: &mut Self, a: f64| s.set_amplitude(a))
                    .doc("peak amplitude"),
            )
            .with(T::offset_setting())
            .with(
                Setting::try_new("phase", |s: &mut Self, p: f64| s.set_phase(p))
                    .unit("rad")
                    .doc("phase of the next sample"),
            )
            .with(
                Setting::try_new("waveform", |s: &mut Self, w: String| {
                    w.parse().map(|w| s.set_waveform(w))
                })
                .doc("constant, sine, cosine, square, triangle or sawtooth"),
            )
            .with(
                Setting::try_new("sample_rate", |s: &mut Self, r: f64| s.set_sample_rate(r))
                    .unit("Hz")
                    .doc("sample rate; the frequency in Hz stays"),
            )
            .with(
                Setting::try_new("cmd", |s: &mut Self, msg: Pmt| s.command(msg))
                    .doc("GNU Radio's command port: a number (freq) or a map of freq/ampl"),
            )
            .with(
                Setting::try_new("frequency", |s: &mut Self, f: f64| s.set_frequency(f))
                    .unit("Hz")
                    .doc("frequency; phase-continuous (the same as `freq`)"),
            )
    }

    /// GNU Radio's `cmd` message: a number is a frequency; a map may hold
    /// `freq` and `ampl` (both checked before either is applied).
    fn command(&mut self, msg: Pmt) -> Result<(), BoxError> {
        if let Some(f) = msg.as_f64() {
            return Ok(self.set_frequency(f)?);
        }
        let Pmt::Map(map) = &msg else {
            return Err(
                format!("expected a number or a map with `freq`/`ampl`, found {msg:?}").into(),
            );
        };
        let number = |key: &str| -> Result<Option<f64>, BoxError> {
            match map.get(key) {
                None => Ok(None),
                Some(v) => v
                    .as_f64()
                    .filter(|v| v.is_finite())
                    .map(Some)
                    .ok_or_else(|| format!("`{key}` must be a finite number, not {v:?}").into()),
            }
        };
        if let Some(key) = map.keys().find(|k| *k != "freq" && *k != "ampl") {
            return Err(format!("unknown key `{key}` (expected `freq` or `ampl`)").into());
        }
        let (freq, ampl) = (number("freq")?, number("ampl")?);
        if let Some(f) = freq {
            self.set_frequency(f)?;
        }
        if let Some(a) = ampl {
            self.set_amplitude(a)?;
        }
        Ok(())
    }
}

impl<T: SignalItem> Block for SignalSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        self.settings
            .message_inputs(Ports::new().output(&mut self.output))
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        Settings::dispatch(self, |s| &mut s.settings, port, msg)
    }

    fn settings(&self) -> Vec<ParamInfo> {
        self.settings.infos()
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let out = self.output.slice();
        let n = self.limit.allow(out.len());
        T::render(
            self.waveform,
            self.amplitude,
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
    use crate::spec_util::items_param;
    use num_complex::Complex32;
    use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec};

    BlockSpec::new(
        "sig_source",
        "Waveform Generators",
        "A sine, cosine, square, triangle, sawtooth or constant signal.",
        |p| {
            let waveform: Waveform = p
                .string("waveform")?
                .parse()
                .map_err(|e: super::UnknownWaveform| p.invalid("waveform", e.to_string()))?;
            let (rate, freq, ampl) = (p.f64("sample_rate")?, p.f64("frequency")?, p.f64("amplitude")?);
            let (phase, offset) = (p.f64("phase")?, p.raw("offset")?.clone());
            let items: Option<u64> = p.opt("items")?;
            rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => Complex32 } as T => {
                let mut block = SignalSource::<T>::new(rate, waveform, freq, ampl)
                    .map_err(|e| p.refused(e))?
                    .with_phase(phase)
                    .map_err(|e| p.invalid("phase", e.to_string()))?;
                Settings::dispatch(&mut block, |s| &mut s.settings, "offset", offset)
                    .map_err(|e| p.invalid("offset", e.to_string()))?;
                match items {
                    Some(n) => block.limit(n),
                    None => block,
                }
            })
        },
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
change is phase-continuous. Every parameter but `items` and `type` is settable while \
it runs through the message input of the same name; `freq` (Hz) and GNU Radio's \
`cmd` (a number, or a map with `freq`/`ampl`) are there too. Endless unless \
`items` is set.")
    .param(ParamSpec::float("sample_rate").default(32_000.0).unit("Hz").doc("samples per second").settable())
    .param(
        ParamSpec::string("waveform")
            .default("cosine")
            .choices(&["constant", "sine", "cosine", "square", "triangle", "sawtooth"])
            .doc("the wave's shape")
            .settable(),
    )
    .param(ParamSpec::float("frequency").default(1_000.0).unit("Hz").doc("the wave's frequency; may be negative").settable())
    .param(ParamSpec::float("amplitude").default(1.0).doc("peak amplitude").settable())
    .param(ParamSpec::any("offset").default(0.0).doc("added to every sample (complex: a number or `[re, im]`)").settable())
    .param(ParamSpec::float("phase").default(0.0).unit("rad").doc("phase of the first sample").settable())
    .param(items_param())
    .param(ParamSpec::item_type(&[ItemKind::C32, ItemKind::F32]))
    .output(PortSpec::new("out", PortItem::OfType))
    .message_input("freq")
    .message_input("cmd")
}
