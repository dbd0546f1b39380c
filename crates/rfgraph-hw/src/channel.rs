//! `Channel`: one channel of a seify device, as both hardware blocks use
//! it: opening the device, applying an [`SdrConfig`], following a changed
//! parameter while the stream runs, and reading back what the device
//! really did.
//!
//! The channel holds the blocks' parameters (the [`SdrConfig`] the
//! runtime changes); a changed one goes to the driver and what is in
//! effect is read back from it, so tags and status carry the frequency
//! and rate in effect (a driver rounds a rate to what its clock allows).
//! A value the driver refuses is an error, after which the runtime gives
//! the parameter its old value back: the device and the channel are as
//! they were. Before the device is open (a change posted before `init`),
//! only the configuration that `open` applies changes. This module owns
//! device control; it never touches a stream or a port.

use crate::config::{Gain, SdrConfig, parse_args};
use crate::counters::StreamCounters;
use crate::error::{Direction, HwError};
use rfgraph::params::{ParamSet, SetError};
use rfgraph::{Block, BoxError, ParamValue, Pmt};
use seify::{
    AgcControl, AntennaControl, BandwidthControl, DynDevice, FrequencyControl, GainControl,
    SampleRateControl,
};
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;

/// One channel of a device, its configuration and what is in effect.
pub(crate) struct Channel {
    direction: Direction,
    /// The blocks' parameters, with every change applied so far.
    pub(crate) config: SdrConfig,
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
        let (frequency, sample_rate) = (config.frequency, config.sample_rate);
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

    /// The device, while open (or as given).
    pub(crate) fn device(&self) -> Option<&DynDevice> {
        self.device.as_ref()
    }

    pub(crate) fn index(&self) -> usize {
        self.config.channel
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
            self.config.args,
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
                let args = parse_args(&self.config.args)?;
                DynDevice::from_args(args.clone()).map_err(|cause| HwError::Open {
                    args: self.config.args.clone(),
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
        if let Some(name) = &config.antenna {
            self.set_antenna(name)?;
        }
        self.set_sample_rate(config.sample_rate)?;
        if let Some(bw) = config.bandwidth {
            self.set_bandwidth(bw)?;
        }
        self.set_frequency(config.frequency)?;
        match config.gain_setting() {
            Some(Gain::Agc) => {
                self.set_agc(true)?;
            }
            Some(Gain::Db(db)) => self.set_gain(db)?,
            None => {}
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

    /// Follows a change of parameter `name`, already in the
    /// configuration: hands it to the driver once the device is open.
    /// An error leaves the device as it was (the caller restores the
    /// parameter).
    pub(crate) fn changed(&mut self, name: &str) -> Result<(), HwError> {
        let c = self.config.clone();
        match name {
            "frequency" => self.set_frequency(c.frequency),
            "sample_rate" => self.set_sample_rate(c.sample_rate),
            "gain" => match c.gain {
                Some(db) => {
                    self.set_gain(db)?;
                    self.config.agc = false;
                    Ok(())
                }
                // No fixed gain: the device keeps the one it has.
                None => Ok(()),
            },
            "agc" => {
                let open = self.set_agc(c.agc)?;
                if open && !c.agc {
                    // AGC off: the gain is where the device left it.
                    self.config.gain = self
                        .device
                        .as_ref()
                        .and_then(|d| d.gain(self.direction.seify(), self.index()).ok())
                        .flatten()
                        .filter(|db| db.is_finite());
                }
                Ok(())
            }
            "antenna" => c.antenna.map_or(Ok(()), |name| self.set_antenna(&name)),
            "bandwidth" => c.bandwidth.map_or(Ok(()), |hz| self.set_bandwidth(hz)),
            _ => Ok(()),
        }
    }

    /// Tunes to `hz`; the next item is tagged with the frequency in effect.
    fn set_frequency(&mut self, hz: f64) -> Result<(), HwError> {
        let open = self.on_device(
            "frequency",
            || format!("{hz} Hz"),
            |d, dir, ch| d.set_frequency(dir, ch, hz, seify::Args::new()),
        )?;
        self.frequency = self.read_back(hz, |d, dir, ch| d.frequency(dir, ch));
        self.frequency_changed |= open;
        Ok(())
    }

    /// Sets the sample rate; the next item is tagged with the rate in
    /// effect (items the driver buffered before the change were taken at
    /// the old rate).
    fn set_sample_rate(&mut self, sps: f64) -> Result<(), HwError> {
        let open = self.on_device(
            "sample rate",
            || format!("{sps} S/s"),
            |d, dir, ch| d.set_sample_rate(dir, ch, sps),
        )?;
        self.sample_rate = self.read_back(sps, |d, dir, ch| d.sample_rate(dir, ch));
        self.rate_changed |= open;
        Ok(())
    }

    /// Sets a fixed gain, turning AGC off where the device has it.
    fn set_gain(&mut self, db: f64) -> Result<(), HwError> {
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
        Ok(())
    }

    /// Turns AGC on or off; true when the device is open.
    fn set_agc(&mut self, on: bool) -> Result<bool, HwError> {
        self.on_device(
            "AGC",
            || if on { "on" } else { "off" }.into(),
            |d, dir, ch| d.set_agc_enabled(dir, ch, on),
        )
    }

    /// Selects the antenna port `name`.
    fn set_antenna(&mut self, name: &str) -> Result<(), HwError> {
        self.on_device(
            "antenna",
            || format!("{name:?}"),
            |d, dir, ch| d.set_antenna(dir, ch, name),
        )?;
        Ok(())
    }

    /// Sets the analog filter bandwidth.
    fn set_bandwidth(&mut self, hz: f64) -> Result<(), HwError> {
        self.on_device(
            "bandwidth",
            || format!("{hz} Hz"),
            |d, dir, ch| d.set_bandwidth(dir, ch, hz),
        )?;
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
    /// `bandwidth` (Hz) and `chan` (must name this channel), as the
    /// parameter changes it asks for, in `open`'s order. Every value is
    /// checked against its parameter (together, on a copy) before any is
    /// returned.
    pub(crate) fn command(&self, msg: Pmt) -> Result<Vec<(&'static str, Pmt)>, HwError> {
        let Pmt::Map(map) = msg else {
            return Err(HwError::Command(format!(
                "must be a map of settings, found {msg:?}"
            )));
        };
        /// Command keys → parameters, in the order `open` applies them.
        const ORDER: [(&str, &str); 7] = [
            ("antenna", "antenna"),
            ("rate", "sample_rate"),
            ("sample_rate", "sample_rate"),
            ("bandwidth", "bandwidth"),
            ("freq", "frequency"),
            ("agc", "agc"),
            ("gain", "gain"),
        ];
        let mut trial = self.config.clone();
        let mut changes = Vec::new();
        for (key, value) in &map {
            if key == "chan" {
                let bad = |e: rfgraph::PmtTypeError| HwError::Command(format!("key `chan`: {e}"));
                let chan = usize::from_pmt(value.clone()).map_err(bad)?;
                if chan != self.index() {
                    return Err(HwError::Command(format!(
                        "names channel {chan}, this block streams channel {}",
                        self.index()
                    )));
                }
                continue;
            }
            let Some(rank) = ORDER.iter().position(|(k, _)| k == key) else {
                return Err(HwError::Command(format!(
                    "key `{key}` is not one of freq, rate, sample_rate, gain, agc, \
                     antenna, bandwidth, chan"
                )));
            };
            let param = ORDER[rank].1;
            trial.set(param, value.clone()).map_err(|e| {
                HwError::Command(match e {
                    SetError::Type {
                        expected, found, ..
                    } => format!("key `{key}`: expected {expected}, found {found}"),
                    SetError::Invalid { reason, .. } => format!("key `{key}`: {reason}"),
                    SetError::NotSettable(_) => format!("key `{key}` cannot change"),
                })
            })?;
            changes.push((rank, param, value.clone()));
        }
        changes.sort_by_key(|(rank, ..)| *rank);
        Ok(changes.into_iter().map(|(_, p, v)| (p, v)).collect())
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
        let antenna = antenna.or_else(|| self.config.antenna.clone());
        m.insert("gain".into(), gain.map_or(Pmt::Null, Pmt::F64));
        m.insert("agc".into(), Pmt::Bool(agc));
        m.insert("antenna".into(), antenna.map_or(Pmt::Null, Pmt::String));
        m
    }
}

/// The message inputs both hardware blocks declare beside their settable
/// parameters: `cmd` (a GNU Radio Soapy-style map, see
/// [`Channel::command`]) and `status` (the block's state and counters).
pub(crate) const MESSAGE_INPUTS: [&str; 2] = ["cmd", "status"];

/// Applies the changes of a `cmd` message ([`Channel::command`]) to
/// `block` one by one, each as if it had come on its parameter's input.
pub(crate) fn apply_command(
    block: &mut dyn Block,
    changes: Vec<(&'static str, Pmt)>,
) -> Result<Pmt, BoxError> {
    for (param, value) in changes {
        rfgraph::params::apply(block, param, value)?;
    }
    Ok(Pmt::Null)
}
