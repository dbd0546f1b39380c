//! [`SdrConfig`]: the parameters of both hardware blocks (which device to
//! open, how to tune its channel), declared once, and [`Gain`].
//!
//! A plain struct: nothing here opens a device. Its declaration
//! (`#[derive(ParamSet)]`) is what the registry lists, what flowgraph
//! files are checked against, and which parameters may change while the
//! stream runs; its check rejects what no device could accept (an
//! unparsable argument string, an empty antenna name) besides each
//! field's own range. Whether a device supports a value is the driver's
//! call, made when the block opens it or changes it.

use crate::error::HwError;
use rfgraph::ParamError;
use rfgraph::params::limits;

/// How the channel's gain is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gain {
    /// The device's automatic gain control.
    Agc,
    /// A fixed overall gain in dB, distributed over the gain stages by the
    /// driver (SoapySDR's `setGain`); turns AGC off where the device has it.
    Db(f64),
}

/// Which device to open and how to set up its channel: the parameters of
/// [`SdrSource`](crate::SdrSource) (`sdr_source`) and
/// [`SdrSink`](crate::SdrSink) (`sdr_sink`).
///
/// `args` is seify's device string: `driver=rtlsdr` (seify's native
/// driver), `driver=soapy,soapy_driver=hackrf` (a SoapySDR module, with any
/// further SoapySDR arguments such as `serial=...`), `driver=dummy` (seify's
/// test device). An empty string opens the first device found.
///
/// The fields are the parameters, with the registry's defaults (100 MHz,
/// 1 MS/s, the device's own gain, antenna and bandwidth); the builder
/// methods fill them. Those marked settable change while the stream runs,
/// each through a message input of its name (`frequency` also as `freq`):
/// the block hands the new value to the driver between two reads or
/// writes, and a value the device refuses leaves everything as it was.
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
/// assert!(SdrConfig::new("driver=rtlsdr").sample_rate(0.0).validate().is_err());
/// assert_eq!(SdrConfig::new("driver=rtlsdr").frequency, 100e6, "the default");
/// ```
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct SdrConfig {
    /// seify device string: driver=rtlsdr, driver=soapy,soapy_driver=hackrf, driver=dummy, ...
    #[param(default = "driver=dummy")]
    pub args: String,
    /// the device's channel
    #[param(default = 0, max = limits::MAX_PORTS - 1)]
    pub channel: usize,
    /// centre frequency; an RX stream tags the next item `core:frequency`
    #[param(
        default = 100e6,
        unit = "Hz",
        alias = "freq",
        alias = "center_freq",
        settable
    )]
    pub frequency: f64,
    /// sample rate; an RX stream tags the next item `core:sample_rate`
    #[param(default = 1e6, unit = "Hz", above = 0.0, alias = "samp_rate", settable)]
    pub sample_rate: f64,
    /// overall gain, distributed by the driver; setting it turns AGC off
    /// (the device's gain when not set)
    #[param(unit = "dB", settable)]
    pub gain: Option<f64>,
    /// the device's automatic gain control instead of `gain`
    #[param(default = false, settable)]
    pub agc: bool,
    /// antenna port, by the driver's name for it (the device's default
    /// when not set)
    #[param(settable)]
    pub antenna: Option<String>,
    /// analogue filter bandwidth (the device's when not set)
    #[param(unit = "Hz", above = 0.0, settable)]
    pub bandwidth: Option<f64>,
    /// driver-specific stream arguments (SoapySDR's, e.g. buffers=16,bufflen=65536)
    #[param(default = "")]
    pub stream_args: String,
}

impl SdrConfig {
    /// The parameters' defaults for the device selected by `args`.
    pub fn new(args: impl Into<String>) -> Self {
        Self {
            args: args.into(),
            ..Self::default()
        }
    }

    /// The channel to use (default 0).
    pub fn channel(mut self, channel: usize) -> Self {
        self.channel = channel;
        self
    }

    /// Centre frequency in Hz (default 100 MHz).
    pub fn frequency(mut self, hz: f64) -> Self {
        self.frequency = hz;
        self
    }

    /// Sample rate in samples per second (default 1 MS/s).
    pub fn sample_rate(mut self, samples_per_second: f64) -> Self {
        self.sample_rate = samples_per_second;
        self
    }

    /// Gain or AGC; unset leaves the device's gain as the driver opened it.
    pub fn gain(mut self, gain: Gain) -> Self {
        match gain {
            Gain::Agc => self.agc = true,
            Gain::Db(db) => (self.gain, self.agc) = (Some(db), false),
        }
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

    /// The gain setting: AGC when `agc` is on, else the fixed gain if any.
    pub fn gain_setting(&self) -> Option<Gain> {
        if self.agc {
            Some(Gain::Agc)
        } else {
            self.gain.map(Gain::Db)
        }
    }

    /// The antenna, if set.
    pub fn antenna_name(&self) -> Option<&str> {
        self.antenna.as_deref()
    }

    /// Checks what can be checked without a device: every parameter
    /// against its declaration (finite numbers, a positive rate and
    /// bandwidth), the argument strings parse, an antenna name is not
    /// empty. The blocks' constructors call it.
    pub fn validate(&self) -> Result<(), HwError> {
        parse_args(&self.args)?;
        parse_args(&self.stream_args)?;
        rfgraph::params::ParamSet::validate(self)?;
        Ok(())
    }

    /// The rules no single declaration states (`#[params(check)]`): the
    /// argument strings parse, an antenna has a name.
    fn check(&self) -> Result<(), ParamError> {
        for (param, text) in [("args", &self.args), ("stream_args", &self.stream_args)] {
            parse_args(text).map_err(|e| ParamError::new("SdrConfig", param, e.to_string()))?;
        }
        if self.antenna.as_deref() == Some("") {
            return Err(ParamError::new("SdrConfig", "antenna", "the name is empty"));
        }
        Ok(())
    }
}

/// Parses a seify argument string, keeping the text for the error.
pub(crate) fn parse_args(text: &str) -> Result<seify::Args, HwError> {
    seify::Args::from(text).map_err(|cause| HwError::Args {
        args: text.to_string(),
        cause,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph::Pmt;
    use rfgraph::params::ParamSet;
    use std::collections::BTreeMap;

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
    fn rust_code_starts_from_the_registry_defaults() {
        let from_file = SdrConfig::resolve("sdr_source", BTreeMap::new()).unwrap();
        assert_eq!(SdrConfig::new("driver=dummy"), from_file);
        assert_eq!((from_file.frequency, from_file.sample_rate), (100e6, 1e6));
        assert_eq!(from_file.gain_setting(), None);
        let given = BTreeMap::from([
            ("freq".to_string(), Pmt::F64(433.92e6)),
            ("samp_rate".to_string(), Pmt::F64(2.4e6)),
            ("gain".to_string(), Pmt::F64(20.0)),
        ]);
        let aliased = SdrConfig::resolve("sdr_source", given).unwrap();
        assert_eq!(
            aliased,
            SdrConfig::new("driver=dummy")
                .frequency(433.92e6)
                .sample_rate(2.4e6)
                .gain(Gain::Db(20.0))
        );
    }

    #[test]
    fn agc_and_a_fixed_gain_exclude_each_other() {
        let c = good().gain(Gain::Db(10.0));
        assert_eq!(c.gain_setting(), Some(Gain::Db(10.0)));
        let c = c.gain(Gain::Agc);
        assert_eq!(c.gain_setting(), Some(Gain::Agc));
        assert_eq!(c.gain(Gain::Db(3.0)).gain_setting(), Some(Gain::Db(3.0)));
    }

    #[test]
    fn what_no_device_accepts_is_rejected_with_its_name() {
        let e = |c: SdrConfig| c.validate().unwrap_err().to_string();
        assert_eq!(
            e(good().sample_rate(0.0)),
            "SdrConfig: `sample_rate` 0 is out of range: must be > 0"
        );
        assert_eq!(
            e(good().frequency(f64::NAN)),
            "SdrConfig: `frequency` must be finite, not NaN"
        );
        assert_eq!(
            e(good().gain(Gain::Db(f64::INFINITY))),
            "SdrConfig: `gain` must be finite, not inf"
        );
        assert_eq!(
            e(good().bandwidth(-5.0)),
            "SdrConfig: `bandwidth` -5 is out of range: must be > 0"
        );
        assert_eq!(
            e(good().antenna("")),
            "SdrConfig: `antenna` the name is empty"
        );
        assert_eq!(
            e(good().channel(5000)),
            "SdrConfig: `channel` 5000 is out of range: must be ≤ 1023"
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
        // A file meets the same rule, naming the parameter.
        let given = BTreeMap::from([("stream_args".to_string(), Pmt::from("buffers"))]);
        let e = SdrConfig::resolve("sdr_sink", given).unwrap_err();
        assert_eq!(e.param(), Some("stream_args"), "{e}");
    }
}
