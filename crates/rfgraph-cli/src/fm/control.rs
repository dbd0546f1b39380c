//! What `rfgraph fm --control` adds to the receiver's graph for the
//! control port's web page: the spectrum and waterfall displays. Owns only where they
//! tap the receiver ([`DisplayTaps`]) and adding them
//! ([`add_displays`]); the display blocks are `rfgraph-blocks`'.

use num_complex::Complex32;
use rfgraph::Flowgraph;
use rfgraph_blocks::display::{SpectrumKind, SpectrumSinkParams, WebFreqSink};
use rfgraph_radio::fm::Endpoint;

/// The points of the FM receiver's graph worth a spectrum display.
#[derive(Clone, Copy, Debug)]
pub struct DisplayTaps {
    /// The receiver's input: `Complex32` at `input_rate`, centred on
    /// `centre_hz` (when known), the whole band the input holds (the
    /// station at the receiver's offset, its neighbours around it). With
    /// `--control` the source always delivers `Complex32` (a `cu8` file
    /// too), so that this port exists.
    pub input: Endpoint,
    /// Samples per second of `input`.
    pub input_rate: f64,
    /// The input's centre frequency, Hz, when known (SigMF metadata,
    /// `--freq`, a device's tuning).
    pub centre_hz: Option<f64>,
    /// The demodulated multiplex: `f32` at `mpx_rate` (240 kS/s), 1.0 =
    /// 75 kHz deviation: mono audio to 15 kHz, the 19 kHz pilot, L−R
    /// around 38 kHz, RDS at 57 kHz.
    pub mpx: Endpoint,
    /// Samples per second of `mpx`.
    pub mpx_rate: f64,
}

/// Adds the displays the control port's web page shows to `fg`, reading
/// from `taps`: the band around the station as a spectrum and a
/// waterfall (at the input's rate and centre), and the demodulated
/// multiplex's spectrum (mono audio, the 19 kHz pilot, stereo at 38 kHz,
/// RDS at 57 kHz). Called by `rfgraph fm` only with `--control`. Each
/// display takes one FFT per tenth of a second of signal and skips the
/// rest, so watching costs the receiver little.
pub fn add_displays(fg: &mut Flowgraph, taps: &DisplayTaps) -> anyhow::Result<()> {
    let band = |title: &str, fft_size: usize, row: usize| SpectrumSinkParams {
        fft_size,
        center_freq: taps.centre_hz.unwrap_or(0.0),
        bandwidth: taps.input_rate,
        title: title.to_string(),
        y_min: -120.0,
        y_max: 0.0,
        average: 0.3,
        gui_hint: format!("{row},0"),
        ..Default::default()
    };
    let spectrum = fg.add_named(
        "band_spectrum",
        WebFreqSink::<Complex32>::new(SpectrumKind::Freq, band("Band", 2048, 0))?,
    );
    fg.connect(taps.input.block, taps.input.port, spectrum, "in0")?;
    let waterfall = fg.add_named(
        "band_waterfall",
        WebFreqSink::<Complex32>::new(SpectrumKind::Waterfall, band("Band over time", 1024, 1))?,
    );
    fg.connect(taps.input.block, taps.input.port, waterfall, "in0")?;
    let mpx = SpectrumSinkParams {
        fft_size: 2048,
        bandwidth: taps.mpx_rate,
        title: "Multiplex (pilot 19 kHz, stereo 38 kHz, RDS 57 kHz)".to_string(),
        y_min: -120.0,
        y_max: 0.0,
        average: 0.3,
        gui_hint: "0,1".to_string(),
        ..Default::default()
    };
    let mpx = fg.add_named(
        "mpx_spectrum",
        WebFreqSink::<f32>::new(SpectrumKind::Freq, mpx)?,
    );
    fg.connect(taps.mpx.block, taps.mpx.port, mpx, "in0")?;
    Ok(())
}
