//! [`SdrSource`]: complex samples from an SDR receiver.
//!
//! Owns the RX stream's life (created in `init`, activated on the first
//! `work`, deactivated in `finishing`), the reads into the output ring,
//! the tags that make a recording self-describing, and the overflow
//! count. Device control (tuning, gain, retunes) is `channel`'s.

use crate::channel::{Channel, MESSAGE_INPUTS, apply_command};
use crate::config::{SdrConfig, parse_args};
use crate::counters::StreamCounters;
use crate::error::{Direction, HwError};
use crate::keys;
use crate::xrun_log::XrunLog;
use num_complex::Complex32;
use rfgraph::tag::keys as sigmf;
use rfgraph::{Block, BoxError, Pmt, Ports, StreamOutput, TagPolicy, WorkIo};
use seify::{DynDevice, DynRxStreamer};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// The longest a read waits for samples, so that a stop or a message is
/// seen within about this long even when the device delivers nothing.
pub const STREAM_TIMEOUT: Duration = Duration::from_millis(100);

/// How long to wait before reading again after a read that returned no
/// samples without waiting (a driver with nothing yet): keeps such a
/// driver from spinning a core.
const EMPTY_READ_BACKOFF: Duration = Duration::from_millis(1);

/// Receives complex baseband samples from one channel of an SDR through
/// [`seify`]: SoapySDR devices, seify's native drivers, or its `dummy`
/// test device (see the crate documentation for the cargo features).
///
/// `init` opens the device and applies the [`SdrConfig`]; any refusal
/// (no such device, a driver not compiled in, a frequency, rate, gain or
/// antenna the device does not support) fails `init` with the driver's
/// own message. The block runs on a thread of its own (it blocks in the
/// driver's read, at most [`STREAM_TIMEOUT`] at a time) and reads
/// straight into its output ring.
///
/// # Stream Outputs
/// - `out`: `Complex32`, the samples as the driver scales them (full scale
///   about 1.0).
///
/// # Parameters
/// [`SdrConfig`]. The settable ones (`frequency`, also as `freq` and
/// `center_freq`; `sample_rate`, also as `samp_rate`; `gain`, which turns
/// AGC off; `agc`; `antenna`; `bandwidth`) each have a message input of
/// their name: a new `frequency` tags the next item `core:frequency`, a
/// new `sample_rate` `core:sample_rate`.
///
/// # Message Inputs
/// - `cmd` (map): GNU Radio Soapy-style command with any of `freq`,
///   `rate`, `gain`, `agc`, `antenna`, `bandwidth`, `chan`, all checked
///   before any is applied.
/// - `status` (anything): replies with a map of the device's `frequency`,
///   `sample_rate`, `gain`, `agc` and `antenna` as read back from it, and
///   the counters `items`, `overflows` and `timeouts`.
///
/// Changes are applied between two reads. The device's value in effect
/// (read back after the change) goes into the tags. A value the device
/// refuses changes nothing and returns the driver's message to a caller
/// awaiting the reply ([`FlowgraphHandle::call`](rfgraph::FlowgraphHandle::call));
/// posted without a reply, it stops the flowgraph, as any failed message does.
///
/// # Tags
/// - item 0: `core:frequency` (Hz, f64), `core:sample_rate` (S/s, f64) and
///   `core:datetime` (ISO 8601 UTC, the host's estimate of the first
///   sample's time), so a `SigmfSink` downstream writes a complete record;
/// - after a retune: `core:frequency` / `core:sample_rate` on the first item
///   read after it;
/// - after an overflow: [`keys::OVERFLOW`] (u64, overflows so far) and a
///   fresh `core:datetime` on the first item after the samples lost.
///
/// # Overflows
/// Each overflow the driver reports is counted ([`overflows`](Self::overflows),
/// [`counters`](Self::counters), the `status` reply), tagged, and logged on
/// standard error: the first at once, then at most one line a second
/// summing the others, and a last line for any not yet logged when the
/// block ends.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::{Head, VectorSink};
/// use rfgraph_hw::{Gain, SdrConfig, SdrSource};
/// use num_complex::Complex32;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // `driver=rtlsdr`, `driver=soapy,soapy_driver=hackrf`, ... with a radio.
/// let config = SdrConfig::new("driver=dummy")
///     .frequency(100.0e6)
///     .sample_rate(2.4e6)
///     .gain(Gain::Db(20.0));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(SdrSource::new(config)?);
/// let head = fg.add(Head::<Complex32>::new(10_000));
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.chain(&[src, head, sink])?;
/// # #[cfg(feature = "dummy")] {
/// let done = fg.start(Tpb::new())?.wait_timeout(std::time::Duration::from_secs(60))?;
/// assert_eq!(done.block::<VectorSink<Complex32>>(sink).unwrap().items().len(), 10_000);
/// # }
/// # Ok(()) }
/// ```
pub struct SdrSource {
    output: StreamOutput<Complex32>,
    channel: Channel,
    streamer: Option<DynRxStreamer>,
    active: bool,
    counters: Arc<StreamCounters>,
    log: XrunLog,
    /// The next item is the stream's first.
    first: bool,
    /// Samples were lost before the next item.
    overflowed: bool,
}

impl SdrSource {
    /// A source that opens the device `config` names in `init`.
    pub fn new(config: SdrConfig) -> Result<Self, HwError> {
        Self::build(config, None)
    }

    /// A source on a device the caller opened (to share it with an
    /// [`SdrSink`](crate::SdrSink), or to keep a handle that reads the
    /// device's state back).
    /// `config`'s arguments then only label log lines (they must still
    /// parse).
    pub fn with_device(device: DynDevice, config: SdrConfig) -> Result<Self, HwError> {
        Self::build(config, Some(device))
    }

    fn build(config: SdrConfig, device: Option<DynDevice>) -> Result<Self, HwError> {
        let channel = Channel::new(Direction::Rx, config, device)?;
        let log = XrunLog::new(channel.label("SdrSource"), "overflow");
        Ok(Self {
            output: StreamOutput::new("out"),
            channel,
            streamer: None,
            active: false,
            counters: Arc::default(),
            log,
            first: true,
            overflowed: false,
        })
    }

    /// The configuration with every change applied so far.
    pub fn config(&self) -> &SdrConfig {
        &self.channel.config
    }

    /// The centre frequency in effect (as the device reported it), in Hz.
    pub fn frequency(&self) -> f64 {
        self.channel.frequency()
    }

    /// The sample rate in effect (as the device reported it), in S/s.
    pub fn sample_rate(&self) -> f64 {
        self.channel.sample_rate()
    }

    /// The device while the block holds it: from `init` to `deinit`, or
    /// from the start for a block made [`with_device`](Self::with_device).
    pub fn device(&self) -> Option<&DynDevice> {
        self.channel.device()
    }

    /// Overflows reported so far.
    pub fn overflows(&self) -> u64 {
        self.counters.overflows()
    }

    /// The block's counters, shared: readable from any thread while the
    /// flowgraph runs.
    pub fn counters(&self) -> Arc<StreamCounters> {
        self.counters.clone()
    }

    fn stream_error(&self, action: &'static str, cause: seify::Error) -> HwError {
        HwError::Stream {
            direction: Direction::Rx,
            channel: self.channel.index(),
            action,
            cause,
        }
    }

    /// Tags the first of `n` items just read (at `read_at`) with whatever
    /// changed before them.
    fn tag(&mut self, n: usize, read_at: SystemTime) {
        let first = std::mem::take(&mut self.first);
        let overflowed = std::mem::take(&mut self.overflowed);
        let retuned = std::mem::take(&mut self.channel.frequency_changed);
        let rate_changed = std::mem::take(&mut self.channel.rate_changed);
        if first || rate_changed {
            self.output
                .add_tag(0, sigmf::SAMPLE_RATE, self.channel.sample_rate());
        }
        if first || retuned {
            self.output
                .add_tag(0, sigmf::FREQUENCY, self.channel.frequency());
        }
        if overflowed {
            self.output
                .add_tag(0, keys::OVERFLOW, self.counters.overflows());
        }
        if first || overflowed {
            // The last of the n items arrived about when the read returned.
            let span = Duration::try_from_secs_f64(n as f64 / self.channel.sample_rate())
                .unwrap_or(Duration::ZERO);
            let start = read_at.checked_sub(span).unwrap_or(read_at);
            self.output
                .add_tag(0, sigmf::DATETIME, crate::datetime::iso8601(start));
        }
    }
}

impl Block for SdrSource {
    fn ports(&mut self) -> Ports<'_> {
        MESSAGE_INPUTS
            .into_iter()
            .fold(Ports::new().output(&mut self.output), Ports::message_input)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.channel.config)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        Ok(self.channel.changed(name)?)
    }

    fn init(&mut self) -> Result<(), BoxError> {
        self.channel.open()?;
        let args = parse_args(&self.channel.config.stream_args)?;
        let device = self.channel.device().ok_or("the device did not open")?;
        let streamer = device
            .rx_streamer_with_args(&[self.channel.index()], args)
            .map_err(|cause| self.stream_error("creating the stream", cause))?;
        self.streamer = Some(streamer);
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let Some(rx) = self.streamer.as_mut() else {
            io.finish();
            return Ok(());
        };
        if !self.active {
            // Activated only now, not in `init`, so that the driver's
            // buffers do not overflow while other blocks initialise.
            if let Err(cause) = rx.activate() {
                return Err(self.stream_error("activating the stream", cause).into());
            }
            self.active = true;
        }
        let out = self.output.slice();
        if out.is_empty() {
            return Ok(());
        }
        let result = rx.read(&mut [out], STREAM_TIMEOUT.as_micros() as i64);
        let read_at = SystemTime::now();
        match result {
            Ok(0) => io.call_again_at(Instant::now() + EMPTY_READ_BACKOFF),
            Ok(n) => {
                self.tag(n, read_at);
                self.output.produce(n);
                self.counters.add_items(n);
            }
            Err(seify::Error::Overrun) => {
                let total = self.counters.add_overflow();
                self.overflowed = true;
                XrunLog::emit(self.log.note(Instant::now(), total));
                io.call_again_at(Instant::now());
            }
            Err(seify::Error::Timeout) => {
                self.counters.add_timeout();
                io.call_again_at(Instant::now());
            }
            Err(cause) => return Err(self.stream_error("read", cause).into()),
        }
        Ok(())
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        match port {
            "status" => Ok(self.channel.stream_status(&self.counters)),
            "cmd" => {
                let changes = self.channel.command(msg)?;
                apply_command(self, changes)
            }
            other => Err(format!("no message input `{other}`").into()),
        }
    }

    fn finishing(&mut self) {
        if let Some(mut rx) = self.streamer.take()
            && self.active
        {
            self.channel.log_deactivation("SdrSource", rx.deactivate());
        }
        self.active = false;
        XrunLog::emit(self.log.flush(self.counters.overflows()));
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.streamer = None;
        self.channel.close();
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<std::sync::atomic::AtomicU64>)> {
        self.counters.for_stats(true)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn paced_rate(&self) -> Option<f64> {
        Some(self.channel.sample_rate())
    }

    fn is_blocking(&self) -> bool {
        true
    }
}

/// The registry entry: `sdr_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    let spec = BlockSpec::of::<SdrConfig>(
        "sdr_source",
        "Hardware",
        "Receives complex samples from an SDR device (seify / SoapySDR).",
        |config| Ok(Box::new(SdrSource::new(config)?) as Box<dyn Block>),
    )
    .doc(
        "Opens the device `args` names when the run starts (a device that cannot be \
         opened fails the run before anything runs) and streams its samples. The first \
         item carries `core:frequency`, `core:sample_rate` and `core:datetime`; retunes \
         tag the next item; overflows are counted, tagged and logged. `frequency` (`freq`), \
         `gain`, `agc`, `sample_rate`, `antenna`, `bandwidth` and GNU Radio's `cmd` retune \
         while it runs; `status` replies with the device's state. `driver=dummy` delivers \
         zeros and needs no hardware. Imported GNU Radio hardware sources (`uhd_*`, \
         `soapy_*`, `osmosdr_*`) become this block.",
    )
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)));
    MESSAGE_INPUTS
        .into_iter()
        .fold(spec, BlockSpec::message_input)
}
