//! `Channel`: one channel of a seify device, as both hardware blocks use
//! it: opening the device, applying an [`SdrConfig`], retuning while the
//! stream runs, and reading back what the device really did.
//!
//! Every change goes to the driver first and is read back from it, so
//! tags and status carry the frequency and rate in effect (a driver rounds
//! a rate to what its clock allows), and a refused value leaves the
//! configuration as it was and returns the driver's message. Before the
//! device is open (a message posted before `init`), changes only update
//! the configuration that `open` applies. This module owns device control;
//! it never touches a stream or a port.

use crate::config::{Gain, SdrConfig, finite, parse_args, positive};
use crate::counters::StreamCounters;
use crate::error::{Direction, HwError};
use rfgraph::{FromPmt, Pmt, Setting, Settings};
use seify::{
    AgcControl, AntennaControl, BandwidthControl, DynDevice, FrequencyControl, GainControl,
    SampleRateControl,
};
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;

/// One channel of a device, its configuration and what is in effect.
pub(crate) struct Channel {
    direction: Direction,
    config: SdrConfig,
    /// Open between `open` and `close`; given by the caller from the start
    /// for blocks made with `with_device`.
    device: Option<DynDevice>,
    /// Frequency and rate in effect: read back from the device once open,
    /// the configured values before.
    frequency: f64,
    sample_rate: f64,
    /// Changes since the last item that the next item must carry as tags.
    pub(crate) frequency_changed: bool,
    pub(crate) rate_changed: bool,
}

impl Channel {
    /// A channel for `config` (validated here), on `device` if given,
    /// otherwise on the device `open` opens from the config's arguments.
    pub(crate) fn new(
        direction: Direction,
        config: SdrConfig,
        device: Option<DynDevice>,
    ) -> Result<Self, HwError> {
        config.validate()?;
        let frequency = config.frequency_hz().unwrap_or_default();
        let sample_rate = config.sample_rate_sps().unwrap_or_default();
        Ok(Self {
            direction,
            config,
            device,
            frequency,
            sample_rate,
            frequency_changed: false,
            rate_changed: false,
        })
    }

    /// The configuration, with every change applied so far.
    pub(crate) fn config(&self) -> &SdrConfig {
        &self.config
    }

    /// The device, while open (or as given).
    pub(crate) fn device(&self) -> Option<&DynDevice> {
        self.device.as_ref()
    }

    pub(crate) fn index(&self) -> usize {
        self.config.channel_index()
    }

    /// The centre frequency in effect, in Hz.
    pub(crate) fn frequency(&self) -> f64 {
        self.frequency
    }

    /// The sample rate in effect, in samples per second.
    pub(crate) fn sample_rate(&self) -> f64 {
        self.sample_rate
    }

    /// Who speaks in log lines: `SdrSource(driver=dummy) RX channel 0`.
    pub(crate) fn label(&self, block: &str) -> String {
        format!(
            "{block}({}) {} channel {}",
            self.config.args(),
            self.direction,
            self.index()
        )
    }

    /// Opens the device (unless one was given), checks the channel exists
    /// and applies the whole configuration: antenna, sample rate,
    /// bandwidth, frequency, then gain or AGC (rate before frequency, as
    /// some drivers retune when the rate changes).
    pub(crate) fn open(&mut self) -> Result<(), HwError> {
        let device = match self.device.take() {
            Some(d) => d,
            None => {
                let args = parse_args(self.config.args())?;
                DynDevice::from_args(args.clone()).map_err(|cause| HwError::Open {
                    args: self.config.args().to_string(),
                    hint: crate::drivers::hint(&args, &cause),
                    cause,
                })?
            }
        };
        let available = device.num_channels(self.direction.seify());
        let available = available.map_err(|cause| self.channel_error(cause))?;
        if self.index() >= available {
            return Err(self.channel_error(seify::Error::invalid_channel(
                self.direction.seify(),
                self.index(),
                available,
            )));
        }
        self.device = Some(device);
        let config = self.config.clone();
        if let Some(name) = config.antenna_name() {
            self.set_antenna(name.to_string())?;
        }
        if let Some(rate) = config.sample_rate_sps() {
            self.set_sample_rate(rate)?;
        }
        if let Some(bw) = config.bandwidth_hz() {
            self.set_bandwidth(bw)?;
        }
        if let Some(hz) = config.frequency_hz() {
            self.set_frequency(hz)?;
        }
        if let Some(gain) = config.gain_setting() {
            self.set_gain(gain)?;
        }
        // The first item carries everything anyway.
        self.frequency_changed = false;
        self.rate_changed = false;
        Ok(())
    }

    /// Lets go of the device (a device given by the caller stays open
    /// wherever else it is held).
    pub(crate) fn close(&mut self) {
        self.device = None;
    }

    fn channel_error(&self, cause: seify::Error) -> HwError {
        HwError::Configure {
            direction: self.direction,
            channel: self.index(),
            what: "channel",
            value: self.index().to_string(),
            cause,
        }
    }

    /// Runs `set` on the open device, naming `what` and `value` in its
    /// error; does nothing before the device is open.
    fn on_device(
        &self,
        what: &'static str,
        value: impl FnOnce() -> String,
        set: impl FnOnce(&DynDevice, seify::Direction, usize) -> Result<(), seify::Error>,
    ) -> Result<bool, HwError> {
        let Some(dev) = &self.device else {
            return Ok(false);
        };
        set(dev, self.direction.seify(), self.index()).map_err(|cause| HwError::Configure {
            direction: self.direction,
            channel: self.index(),
            what,
            value: value(),
            cause,
        })?;
        Ok(true)
    }

    /// Tunes to `hz`; the next item is tagged with the frequency in effect.
    pub(crate) fn set_frequency(&mut self, hz: f64) -> Result<(), HwError> {
        finite("frequency", hz, "Hz")?;
        let open = self.on_device(
            "frequency",
            || format!("{hz} Hz"),
            |d, dir, ch| d.set_frequency(dir, ch, hz, seify::Args::new()),
        )?;
        self.config.set_frequency(hz);
        self.frequency = self.read_back(hz, |d, dir, ch| d.frequency(dir, ch));
        self.frequency_changed |= open;
        Ok(())
    }

    /// Sets the sample rate; the next item is tagged with the rate in
    /// effect (items the driver buffered before the change were taken at
    /// the old rate).
    pub(crate) fn set_sample_rate(&mut self, sps: f64) -> Result<(), HwError> {
        positive("sample rate", sps, "S/s")?;
        let open = self.on_device(
            "sample rate",
            || format!("{sps} S/s"),
            |d, dir, ch| d.set_sample_rate(dir, ch, sps),
        )?;
        self.config.set_sample_rate(sps);
        self.sample_rate = self.read_back(sps, |d, dir, ch| d.sample_rate(dir, ch));
        self.rate_changed |= open;
        Ok(())
    }

    /// Sets a fixed gain (turning AGC off where the device has it) or
    /// turns AGC on.
    pub(crate) fn set_gain(&mut self, gain: Gain) -> Result<(), HwError> {
        match gain {
            Gain::Agc => {
                self.on_device(
                    "AGC",
                    || "on".into(),
                    |d, dir, ch| d.set_agc_enabled(dir, ch, true),
                )?;
            }
            Gain::Db(db) => {
                finite("gain", db, "dB")?;
                self.on_device(
                    "gain",
                    || format!("{db} dB"),
                    |d, dir, ch| {
                        // A device without AGC has none to turn off.
                        if d.agc_available(dir, ch).unwrap_or(false)
                            && d.agc_enabled(dir, ch).unwrap_or(false)
                        {
                            d.set_agc_enabled(dir, ch, false)?;
                        }
                        d.set_gain(dir, ch, db)
                    },
                )?;
            }
        }
        self.config.set_gain(gain);
        Ok(())
    }

    /// Turns AGC on, or off (leaving the gain where the device has it;
    /// before the device is open, leaving it to the driver).
    pub(crate) fn set_agc(&mut self, on: bool) -> Result<(), HwError> {
        if on {
            return self.set_gain(Gain::Agc);
        }
        let open = self.on_device(
            "AGC",
            || "off".into(),
            |d, dir, ch| d.set_agc_enabled(dir, ch, false),
        )?;
        if !open {
            if self.config.gain_setting() == Some(Gain::Agc) {
                self.config.clear_gain();
            }
            return Ok(());
        }
        let now = self
            .device
            .as_ref()
            .and_then(|d| d.gain(self.direction.seify(), self.index()).ok().flatten());
        match now {
            Some(db) => self.config.set_gain(Gain::Db(db)),
            None => self.config.clear_gain(),
        }
        Ok(())
    }

    /// Selects the antenna port `name`.
    pub(crate) fn set_antenna(&mut self, name: String) -> Result<(), HwError> {
        if name.is_empty() {
            return Err(HwError::Invalid {
                what: "antenna",
                value: "\"\"".into(),
                reason: "the name is empty",
            });
        }
        self.on_device(
            "antenna",
            || format!("{name:?}"),
            |d, dir, ch| d.set_antenna(dir, ch, &name),
        )?;
        self.config.set_antenna(name);
        Ok(())
    }

    /// Sets the analog filter bandwidth.
    pub(crate) fn set_bandwidth(&mut self, hz: f64) -> Result<(), HwError> {
        positive("bandwidth", hz, "Hz")?;
        self.on_device(
            "bandwidth",
            || format!("{hz} Hz"),
            |d, dir, ch| d.set_bandwidth(dir, ch, hz),
        )?;
        self.config.set_bandwidth(hz);
        Ok(())
    }

    /// What the device reports for a value just set, or `asked` when it
    /// cannot say (or is not open yet).
    fn read_back(
        &self,
        asked: f64,
        get: impl FnOnce(&DynDevice, seify::Direction, usize) -> Result<f64, seify::Error>,
    ) -> f64 {
        self.device
            .as_ref()
            .and_then(|d| get(d, self.direction.seify(), self.index()).ok())
            .filter(|v| v.is_finite())
            .unwrap_or(asked)
    }

    /// A GNU Radio Soapy-style command: a map of `freq` (Hz), `rate` or
    /// `sample_rate` (S/s), `gain` (dB), `agc` (bool), `antenna`,
    /// `bandwidth` (Hz) and `chan` (must name this channel). Every value is
    /// converted before any is applied; they are applied in `open`'s order.
    pub(crate) fn command(&mut self, msg: Pmt) -> Result<(), HwError> {
        let Pmt::Map(map) = msg else {
            return Err(HwError::Command(format!(
                "must be a map of settings, found {msg:?}"
            )));
        };
        let mut cmd = Command::default();
        for (key, value) in map {
            let bad = |e: rfgraph::PmtTypeError| HwError::Command(format!("key `{key}`: {e}"));
            match key.as_str() {
                "freq" => cmd.freq = Some(f64::from_pmt(value).map_err(bad)?),
                "rate" | "sample_rate" => cmd.rate = Some(f64::from_pmt(value).map_err(bad)?),
                "gain" => cmd.gain = Some(f64::from_pmt(value).map_err(bad)?),
                "agc" => cmd.agc = Some(bool::from_pmt(value).map_err(bad)?),
                "antenna" => cmd.antenna = Some(String::from_pmt(value).map_err(bad)?),
                "bandwidth" => cmd.bandwidth = Some(f64::from_pmt(value).map_err(bad)?),
                "chan" => {
                    let chan = usize::from_pmt(value).map_err(bad)?;
                    if chan != self.index() {
                        return Err(HwError::Command(format!(
                            "names channel {chan}, this block streams channel {}",
                            self.index()
                        )));
                    }
                }
                other => {
                    return Err(HwError::Command(format!(
                        "key `{other}` is not one of freq, rate, sample_rate, gain, agc, \
                         antenna, bandwidth, chan"
                    )));
                }
            }
        }
        if let Some(name) = cmd.antenna {
            self.set_antenna(name)?;
        }
        if let Some(rate) = cmd.rate {
            self.set_sample_rate(rate)?;
        }
        if let Some(bw) = cmd.bandwidth {
            self.set_bandwidth(bw)?;
        }
        if let Some(hz) = cmd.freq {
            self.set_frequency(hz)?;
        }
        if let Some(on) = cmd.agc {
            self.set_agc(on)?;
        }
        if let Some(db) = cmd.gain {
            self.set_gain(Gain::Db(db))?;
        }
        Ok(())
    }

    /// The whole `status` reply of a streaming block: the channel's state
    /// ([`status`](Self::status)), `items`, and the stream's xruns
    /// (`overflows` for RX, `underflows` for TX) and `timeouts`.
    pub(crate) fn stream_status(&self, counters: &StreamCounters) -> Pmt {
        let mut m = self.status();
        m.insert("items".into(), Pmt::U64(counters.items()));
        let rx = matches!(self.direction, Direction::Rx);
        for (name, count) in counters.for_stats(rx) {
            m.insert(name.into(), Pmt::U64(count.load(Ordering::Relaxed)));
        }
        Pmt::Map(m)
    }

    /// Logs a failed stream deactivation of `block` (a block that is
    /// finishing has no one to return the error to).
    pub(crate) fn log_deactivation(&self, block: &str, result: Result<(), seify::Error>) {
        if let Err(e) = result {
            eprintln!(
                "rfgraph-hw: {}: deactivating the stream failed: {e}",
                self.label(block)
            );
        }
    }

    /// The channel's state for a `status` reply, read from the device
    /// when it is open: `frequency` (Hz), `sample_rate` (S/s), `gain` (dB,
    /// null under AGC or when unknown), `agc` (bool), `antenna`.
    pub(crate) fn status(&self) -> BTreeMap<String, Pmt> {
        let (dir, ch) = (self.direction.seify(), self.index());
        let mut m = BTreeMap::new();
        let frequency = self.read_back(self.frequency, |d, dir, ch| d.frequency(dir, ch));
        let rate = self.read_back(self.sample_rate, |d, dir, ch| d.sample_rate(dir, ch));
        m.insert("frequency".into(), Pmt::F64(frequency));
        m.insert("sample_rate".into(), Pmt::F64(rate));
        let (gain, agc, antenna) = match &self.device {
            Some(d) => (
                d.gain(dir, ch).ok().flatten(),
                d.agc_enabled(dir, ch).unwrap_or(false),
                d.antenna(dir, ch).ok(),
            ),
            None => match self.config.gain_setting() {
                Some(Gain::Db(db)) => (Some(db), false, None),
                Some(Gain::Agc) => (None, true, None),
                None => (None, false, None),
            },
        };
        let antenna = antenna.or_else(|| self.config.antenna_name().map(str::to_string));
        m.insert("gain".into(), gain.map_or(Pmt::Null, Pmt::F64));
        m.insert("agc".into(), Pmt::Bool(agc));
        m.insert("antenna".into(), antenna.map_or(Pmt::Null, Pmt::String));
        m
    }

    /// The run-time settings, one message input each, for a block `B`
    /// whose channel `project` finds.
    pub(crate) fn settings<B: 'static>(project: fn(&mut B) -> &mut Channel) -> Settings<B> {
        let list = [
            Setting::try_new("freq", |c: &mut Channel, hz: f64| c.set_frequency(hz))
                .unit("Hz")
                .doc("centre frequency; an RX stream tags the next item core:frequency"),
            Setting::try_new("gain", |c: &mut Channel, db: f64| c.set_gain(Gain::Db(db)))
                .unit("dB")
                .doc("overall gain, distributed by the driver; turns AGC off"),
            Setting::try_new("agc", |c: &mut Channel, on: bool| c.set_agc(on))
                .doc("automatic gain control on or off"),
            Setting::try_new("sample_rate", |c: &mut Channel, sps: f64| {
                c.set_sample_rate(sps)
            })
            .unit("S/s")
            .doc("sample rate; an RX stream tags the next item core:sample_rate"),
            Setting::try_new("antenna", |c: &mut Channel, name: String| {
                c.set_antenna(name)
            })
            .doc("antenna port, by the driver's name for it"),
            Setting::try_new("bandwidth", |c: &mut Channel, hz: f64| c.set_bandwidth(hz))
                .unit("Hz")
                .doc("analog filter bandwidth"),
            Setting::try_new("cmd", |c: &mut Channel, msg: Pmt| c.command(msg)).doc(
                "GNU Radio Soapy-style map of freq, rate, gain, agc, antenna, bandwidth, chan",
            ),
        ];
        list.into_iter().fold(Settings::new(), |s, setting| {
            s.with(setting.project(project))
        })
    }
}

/// The converted values of one `cmd` message.
#[derive(Default)]
struct Command {
    freq: Option<f64>,
    rate: Option<f64>,
    gain: Option<f64>,
    agc: Option<bool>,
    antenna: Option<String>,
    bandwidth: Option<f64>,
}
