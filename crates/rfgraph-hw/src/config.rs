//! [`SdrConfig`]: what a hardware block opens and how it tunes the channel,
//! and [`Gain`].
//!
//! A plain builder: nothing here opens a device. [`SdrConfig::validate`]
//! (called by the blocks' constructors) rejects what no device could
//! accept (an unparsable argument string, a missing or non-finite
//! frequency, a sample rate that is not positive); whether a device
//! supports a value is the driver's call, made when the block opens it.

use crate::error::HwError;

/// How the channel's gain is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gain {
    /// The device's automatic gain control.
    Agc,
    /// A fixed overall gain in dB, distributed over the gain stages by the
    /// driver (SoapySDR's `setGain`); turns AGC off where the device has it.
    Db(f64),
}

/// Which device to open and how to set up its channel.
///
/// `args` is seify's device string: `driver=rtlsdr` (seify's native
/// driver), `driver=soapy,soapy_driver=hackrf` (a SoapySDR module, with any
/// further SoapySDR arguments such as `serial=...`), `driver=dummy` (seify's
/// test device). An empty string opens the first device found.
///
/// ```
/// use rfgraph_hw::{Gain, SdrConfig};
///
/// let config = SdrConfig::new("driver=soapy,soapy_driver=rtlsdr")
///     .frequency(100.0e6)
///     .sample_rate(2.4e6)
///     .gain(Gain::Db(30.0))
///     .antenna("RX");
/// assert!(config.validate().is_ok());
/// assert!(SdrConfig::new("driver=rtlsdr").sample_rate(2.4e6).validate().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SdrConfig {
    args: String,
    channel: usize,
    frequency: Option<f64>,
    sample_rate: Option<f64>,
    gain: Option<Gain>,
    antenna: Option<String>,
    bandwidth: Option<f64>,
    stream_args: String,
}

impl SdrConfig {
    /// A configuration for the device selected by `args`; frequency and
    /// sample rate must still be set.
    pub fn new(args: impl Into<String>) -> Self {
        Self {
            args: args.into(),
            channel: 0,
            frequency: None,
            sample_rate: None,
            gain: None,
            antenna: None,
            bandwidth: None,
            stream_args: String::new(),
        }
    }

    /// The channel to use (default 0).
    pub fn channel(mut self, channel: usize) -> Self {
        self.channel = channel;
        self
    }

    /// Centre frequency in Hz (required).
    pub fn frequency(mut self, hz: f64) -> Self {
        self.frequency = Some(hz);
        self
    }

    /// Sample rate in samples per second (required).
    pub fn sample_rate(mut self, samples_per_second: f64) -> Self {
        self.sample_rate = Some(samples_per_second);
        self
    }

    /// Gain or AGC; unset leaves the device's gain as the driver opened it.
    pub fn gain(mut self, gain: Gain) -> Self {
        self.gain = Some(gain);
        self
    }

    /// Antenna port by the driver's name for it (`"RX2"`, `"TX/RX"`);
    /// unset leaves the driver's default.
    pub fn antenna(mut self, name: impl Into<String>) -> Self {
        self.antenna = Some(name.into());
        self
    }

    /// Analog filter bandwidth in Hz; unset leaves the driver's choice.
    pub fn bandwidth(mut self, hz: f64) -> Self {
        self.bandwidth = Some(hz);
        self
    }

    /// Stream arguments passed to the driver when the stream is created
    /// (SoapySDR's, e.g. `buffers=16,bufflen=65536`); empty by default.
    pub fn stream_args(mut self, args: impl Into<String>) -> Self {
        self.stream_args = args.into();
        self
    }

    /// The device argument string.
    pub fn args(&self) -> &str {
        &self.args
    }

    /// The channel index.
    pub fn channel_index(&self) -> usize {
        self.channel
    }

    /// The centre frequency in Hz, if set.
    pub fn frequency_hz(&self) -> Option<f64> {
        self.frequency
    }

    /// The sample rate in samples per second, if set.
    pub fn sample_rate_sps(&self) -> Option<f64> {
        self.sample_rate
    }

    /// The gain setting, if any.
    pub fn gain_setting(&self) -> Option<Gain> {
        self.gain
    }

    /// The antenna, if set.
    pub fn antenna_name(&self) -> Option<&str> {
        self.antenna.as_deref()
    }

    /// The analog bandwidth in Hz, if set.
    pub fn bandwidth_hz(&self) -> Option<f64> {
        self.bandwidth
    }

    /// The stream arguments.
    pub fn stream_args_text(&self) -> &str {
        &self.stream_args
    }

    /// Checks what can be checked without a device: the argument strings
    /// parse, frequency and sample rate are set and finite, the rate, the
    /// bandwidth and a fixed gain are finite (rate and bandwidth positive),
    /// an antenna name is not empty.
    pub fn validate(&self) -> Result<(), HwError> {
        parse_args(&self.args)?;
        parse_args(&self.stream_args)?;
        let frequency = self
            .frequency
            .ok_or(HwError::Missing { what: "frequency" })?;
        finite("frequency", frequency, "Hz")?;
        let rate = self.sample_rate.ok_or(HwError::Missing {
            what: "sample rate",
        })?;
        positive("sample rate", rate, "S/s")?;
        if let Some(bw) = self.bandwidth {
            positive("bandwidth", bw, "Hz")?;
        }
        if let Some(Gain::Db(db)) = self.gain {
            finite("gain", db, "dB")?;
        }
        if self.antenna.as_deref() == Some("") {
            return Err(HwError::Invalid {
                what: "antenna",
                value: "\"\"".into(),
                reason: "the name is empty",
            });
        }
        Ok(())
    }

    pub(crate) fn set_frequency(&mut self, hz: f64) {
        self.frequency = Some(hz);
    }

    pub(crate) fn set_sample_rate(&mut self, sps: f64) {
        self.sample_rate = Some(sps);
    }

    pub(crate) fn set_gain(&mut self, gain: Gain) {
        self.gain = Some(gain);
    }

    pub(crate) fn set_antenna(&mut self, name: String) {
        self.antenna = Some(name);
    }

    pub(crate) fn clear_gain(&mut self) {
        self.gain = None;
    }

    pub(crate) fn set_bandwidth(&mut self, hz: f64) {
        self.bandwidth = Some(hz);
    }
}

/// Parses a seify argument string, keeping the text for the error.
pub(crate) fn parse_args(text: &str) -> Result<seify::Args, HwError> {
    seify::Args::from(text).map_err(|cause| HwError::Args {
        args: text.to_string(),
        cause,
    })
}

/// Rejects NaN and infinities.
pub(crate) fn finite(what: &'static str, value: f64, unit: &str) -> Result<(), HwError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(HwError::Invalid {
            what,
            value: format!("{value} {unit}"),
            reason: "it is not finite",
        })
    }
}

/// Rejects anything but a finite value above zero.
pub(crate) fn positive(what: &'static str, value: f64, unit: &str) -> Result<(), HwError> {
    finite(what, value, unit)?;
    if value > 0.0 {
        Ok(())
    } else {
        Err(HwError::Invalid {
            what,
            value: format!("{value} {unit}"),
            reason: "it must be above zero",
        })
    }
}

/// The device parameters the registry entries of [`SdrSource`](crate::SdrSource)
/// and [`SdrSink`](crate::SdrSink) share.
pub(crate) fn registry_params(spec: rfgraph::registry::BlockSpec) -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::ParamSpec;
    spec.param(ParamSpec::string("args").default("driver=dummy").doc(
        "seify device string: driver=rtlsdr, driver=soapy,soapy_driver=hackrf, driver=dummy, ...",
    ))
    .param(
        ParamSpec::uint("channel")
            .default(0u64)
            .doc("the device's channel"),
    )
    .param(
        ParamSpec::float("frequency")
            .default(100e6)
            .unit("Hz")
            .doc("centre frequency; retune with `freq`"),
    )
    .param(
        ParamSpec::float("sample_rate")
            .default(1e6)
            .unit("Hz")
            .doc("sample rate")
            .settable(),
    )
    .param(
        ParamSpec::float("gain")
            .optional()
            .unit("dB")
            .doc("overall gain (the device's when not set)")
            .settable(),
    )
    .param(
        ParamSpec::bool("agc")
            .default(false)
            .doc("the device's automatic gain control instead of `gain`")
            .settable(),
    )
    .param(
        ParamSpec::string("antenna")
            .optional()
            .doc("antenna port (the device's default when not set)")
            .settable(),
    )
    .param(
        ParamSpec::float("bandwidth")
            .optional()
            .unit("Hz")
            .doc("analogue bandwidth (the device's when not set)")
            .settable(),
    )
    .param(
        ParamSpec::string("stream_args")
            .default("")
            .doc("driver-specific stream arguments"),
    )
    .message_input("freq")
    .message_input("cmd")
    .message_input("status")
}

/// The [`SdrConfig`] of a registry entry's parameters.
pub(crate) fn config_from(
    p: &rfgraph::registry::Params,
) -> Result<SdrConfig, rfgraph::registry::BuildError> {
    let mut config = SdrConfig::new(p.string("args")?)
        .channel(p.usize("channel")?)
        .stream_args(p.string("stream_args")?)
        .frequency(p.f64("frequency")?)
        .sample_rate(p.f64("sample_rate")?);
    if p.bool("agc")? {
        config = config.gain(Gain::Agc);
    } else if let Some(db) = p.opt::<f64>("gain")? {
        config = config.gain(Gain::Db(db));
    }
    if let Some(name) = p.opt::<String>("antenna")? {
        config = config.antenna(name);
    }
    if let Some(hz) = p.opt::<f64>("bandwidth")? {
        config = config.bandwidth(hz);
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> SdrConfig {
        SdrConfig::new("driver=dummy")
            .frequency(100e6)
            .sample_rate(1e6)
    }

    #[test]
    fn a_complete_config_validates() {
        good().validate().unwrap();
        good()
            .gain(Gain::Agc)
            .antenna("A")
            .bandwidth(1e6)
            .stream_args("buffers=4")
            .validate()
            .unwrap();
        // Negative frequencies are the driver's to refuse, not ours.
        good().frequency(-1.0).validate().unwrap();
    }

    #[test]
    fn what_no_device_accepts_is_rejected_with_its_name() {
        let e = |c: SdrConfig| c.validate().unwrap_err().to_string();
        assert_eq!(
            e(SdrConfig::new("driver=dummy").sample_rate(1e6)),
            "frequency is not set"
        );
        assert_eq!(
            e(SdrConfig::new("driver=dummy").frequency(1e6)),
            "sample rate is not set"
        );
        assert_eq!(
            e(good().sample_rate(0.0)),
            "sample rate 0 S/s is not valid: it must be above zero"
        );
        assert_eq!(
            e(good().frequency(f64::NAN)),
            "frequency NaN Hz is not valid: it is not finite"
        );
        assert_eq!(
            e(good().gain(Gain::Db(f64::INFINITY))),
            "gain inf dB is not valid: it is not finite"
        );
        assert_eq!(
            e(good().bandwidth(-5.0)),
            "bandwidth -5 Hz is not valid: it must be above zero"
        );
        assert_eq!(
            e(good().antenna("")),
            "antenna \"\" is not valid: the name is empty"
        );
    }

    #[test]
    fn argument_strings_that_do_not_parse_are_rejected() {
        let e = SdrConfig::new("driver=dummy,broken")
            .frequency(1e6)
            .sample_rate(1e6)
            .validate()
            .unwrap_err();
        assert!(matches!(e, HwError::Args { .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with("device arguments `driver=dummy,broken` do not parse")
        );
    }
}
