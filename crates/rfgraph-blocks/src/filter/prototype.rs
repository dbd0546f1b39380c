//! The default prototype low pass of the channelizers: GNU Radio's
//! `optfir.low_pass(1, nchans, pass, stop, ripple, atten)`, designed by
//! Parks–McClellan when a flowgraph gives no taps. Owns the bound on its
//! length: Parks–McClellan's work grows with the square of the taps, and
//! a many-channel, high-attenuation default would take minutes to
//! design, so past [`MAX_DEFAULT_TAPS`] the block asks for taps instead.

use rfgraph::ParamError;
use rfgraph_dsp::design::optfir;

/// The longest default prototype designed (about 90 channels at 100 dB).
pub(crate) const MAX_DEFAULT_TAPS: usize = 4096;

/// The taps `optfir.low_pass` estimates for the design, two extra
/// included, as GNU Radio's channelizers ask.
fn estimated_taps(fs: f64, pass: f64, stop: f64, ripple: f64, atten: f64) -> Option<usize> {
    let spec = optfir::remezord(
        &[pass, stop],
        &[1.0, 0.0],
        &[
            optfir::passband_ripple_to_dev(ripple),
            optfir::stopband_atten_to_dev(atten),
        ],
        fs,
    )
    .ok()?;
    usize::try_from(spec.order + 3).ok()
}

/// The default prototype of `block` for `nchans` channels: pass band to
/// `pass`, stop band from `stop` (at sample rate `nchans`). With
/// `retry`, a design that does not converge is tried again with 0.01 dB
/// more ripple up to 1 dB, as GNU Radio's `pfb.channelizer_ccf` does.
pub(crate) fn default_prototype(
    block: &'static str,
    nchans: usize,
    (pass, stop): (f64, f64),
    ripple: f64,
    atten: f64,
    retry: bool,
) -> Result<Vec<f32>, ParamError> {
    let fs = nchans as f64;
    let error = |what: String| ParamError::new(block, "taps", what);
    match estimated_taps(fs, pass, stop, ripple, atten) {
        Some(n) if n > MAX_DEFAULT_TAPS => {
            return Err(error(format!(
                "the default prototype for {nchans} channels at {atten} dB needs about {n} \
                 taps, more than the {MAX_DEFAULT_TAPS} designed by default: give `taps`"
            )));
        }
        _ => {}
    }
    let mut ripple = ripple;
    loop {
        match optfir::low_pass(1.0, fs, pass, stop, ripple, atten, 2) {
            Ok(t) => return Ok(t.into_iter().map(|v| v as f32).collect()),
            Err(e) if !retry || ripple + 0.01 >= 1.0 => {
                return Err(error(format!(
                    "optfir could not generate an appropriate filter: {e}"
                )));
            }
            Err(_) => ripple += 0.01,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_defaults_are_refused_before_any_design() {
        let e = default_prototype("pfb_channelizer", 300, (0.4, 0.6), 0.1, 100.0, true)
            .unwrap_err()
            .to_string();
        // Refused by the estimate (about 8,900 taps), before a design.
        assert!(
            e.contains("give `taps`") && e.contains("300 channels"),
            "{e}"
        );
        let taps = default_prototype("pfb_channelizer", 4, (0.4, 0.6), 0.1, 100.0, true).unwrap();
        assert!(taps.len() > 16 && taps.len() <= MAX_DEFAULT_TAPS);
    }
}
