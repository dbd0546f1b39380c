//! What `rfgraph fm --control` adds to the receiver's graph for the
//! control port's web page: the spectrum displays. Owns only where they
//! tap the receiver ([`DisplayTaps`]) and adding them
//! ([`add_displays`]); the display blocks are `rfgraph-blocks`'.

use rfgraph::Flowgraph;
use rfgraph_radio::fm::Endpoint;

/// The points of the FM receiver's graph worth a spectrum display.
// Read once `add_displays` adds the display sink (`web_freq_sink`).
#[allow(dead_code)]
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
    /// The station's channel after the channel filter (`channel`, port
    /// `out`): `Complex32` at `channel_rate`, the station at 0 Hz.
    pub channel: Endpoint,
    /// Samples per second of `channel` (the plan's `quad_rate`).
    pub channel_rate: f64,
    /// The demodulated multiplex: `f32` at `mpx_rate` (240 kS/s), 1.0 =
    /// 75 kHz deviation: mono audio to 15 kHz, the 19 kHz pilot, L−R
    /// around 38 kHz, RDS at 57 kHz.
    pub mpx: Endpoint,
    /// Samples per second of `mpx`.
    pub mpx_rate: f64,
}

/// Adds the spectrum displays the control port's web page shows to `fg`,
/// reading from `taps`. Called by `rfgraph fm` only with `--control`,
/// before the audio sink is connected.
///
/// For now it adds nothing: the display sink (`web_freq_sink`, in
/// `rfgraph-blocks::display`) is not in this tree yet. It belongs on
/// `taps.input` (the band, at `input_rate`, centred on `centre_hz`) and
/// `taps.mpx` (the multiplex, at `mpx_rate`, real: 0 to 120 kHz).
pub fn add_displays(fg: &mut Flowgraph, taps: &DisplayTaps) -> anyhow::Result<()> {
    let _ = (fg, taps);
    Ok(())
}
