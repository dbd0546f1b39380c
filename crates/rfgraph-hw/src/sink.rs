//! [`SdrSink`]: complex samples to an SDR transmitter.
//!
//! Owns the TX stream's life (created in `init`, activated on the first
//! `work`, deactivated in `finishing`), the writes from the input ring and
//! the underflow count. Device control (tuning, gain, retunes) is
//! `channel`'s.

use crate::channel::{Channel, MESSAGE_INPUTS, apply_command};
use crate::config::{SdrConfig, parse_args};
use crate::counters::StreamCounters;
use crate::error::{Direction, HwError};
use crate::source::STREAM_TIMEOUT;
use crate::xrun_log::XrunLog;
use num_complex::Complex32;
use rfgraph::{Block, BoxError, Pmt, Ports, StreamInput, WorkIo};
use seify::{DynDevice, DynTxStreamer};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long to wait before writing again after a write that took nothing
/// without waiting: keeps such a driver from spinning a core.
const FULL_WRITE_BACKOFF: Duration = Duration::from_millis(1);

/// Transmits complex baseband samples on one channel of an SDR through
/// [`seify`] (see the crate documentation for drivers and features).
///
/// `init` opens the device and applies the [`SdrConfig`]; a refusal fails
/// `init` with the driver's message. The block runs on a thread of its
/// own, writes straight from its input ring (waiting at most
/// [`STREAM_TIMEOUT`] per write, so a stop is seen promptly), and
/// finishes once its input's writer has finished and every item went to
/// the device.
///
/// # Stream Inputs
/// - `in`: `Complex32`, full scale 1.0.
///
/// # Parameters
/// [`SdrConfig`], the settable ones changing the TX channel between two
/// writes, as on [`SdrSource`](crate::SdrSource).
///
/// # Message Inputs
/// - `cmd` (map, GNU Radio Soapy-style): as on
///   [`SdrSource`](crate::SdrSource), applied between two writes.
/// - `status` (anything): replies with a map of the device's `frequency`,
///   `sample_rate`, `gain`, `agc` and `antenna`, and the counters `items`,
///   `underflows` and `timeouts`.
///
/// # Underflows
/// Each underflow the driver reports from a write is counted
/// ([`underflows`](Self::underflows), [`counters`](Self::counters), the
/// `status` reply) and logged on standard error at most once a second,
/// with a last line when the block ends; the samples of that write are
/// written again. (seify reports the underflows a driver returns from its
/// write call; SoapySDR drivers that report them only asynchronously,
/// through `readStreamStatus`, are not seen.)
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, scheduler::Tpb};
/// use rfgraph_blocks::VectorSource;
/// use rfgraph_hw::{SdrConfig, SdrSink};
/// use num_complex::Complex32;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let config = SdrConfig::new("driver=dummy")
///     .frequency(433.92e6)
///     .sample_rate(1.0e6);
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, 0.0); 4096]));
/// let tx = fg.add(SdrSink::new(config)?);
/// fg.chain(&[src, tx])?;
/// # #[cfg(feature = "dummy")] {
/// let done = fg.start(Tpb::new())?.wait_timeout(std::time::Duration::from_secs(60))?;
/// assert_eq!(done.block::<SdrSink>(tx).unwrap().counters().items(), 4096);
/// # }
/// # Ok(()) }
/// ```
pub struct SdrSink {
    input: StreamInput<Complex32>,
    channel: Channel,
    streamer: Option<DynTxStreamer>,
    active: bool,
    counters: Arc<StreamCounters>,
    log: XrunLog,
}

impl SdrSink {
    /// A sink that opens the device `config` names in `init`.
    pub fn new(config: SdrConfig) -> Result<Self, HwError> {
        Self::build(config, None)
    }

    /// A sink on a device the caller opened (shared with an
    /// [`SdrSource`](crate::SdrSource) for full duplex, or kept to read
    /// its state back).
    /// `config`'s arguments then only label log lines (they must still
    /// parse).
    pub fn with_device(device: DynDevice, config: SdrConfig) -> Result<Self, HwError> {
        Self::build(config, Some(device))
    }

    fn build(config: SdrConfig, device: Option<DynDevice>) -> Result<Self, HwError> {
        let channel = Channel::new(Direction::Tx, config, device)?;
        let log = XrunLog::new(channel.label("SdrSink"), "underflow");
        Ok(Self {
            input: StreamInput::new("in"),
            channel,
            streamer: None,
            active: false,
            counters: Arc::default(),
            log,
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

    /// The device while the block holds it (see
    /// [`SdrSource::device`](crate::SdrSource::device)).
    pub fn device(&self) -> Option<&DynDevice> {
        self.channel.device()
    }

    /// Underflows reported so far.
    pub fn underflows(&self) -> u64 {
        self.counters.underflows()
    }

    /// The block's counters, shared: readable from any thread while the
    /// flowgraph runs.
    pub fn counters(&self) -> Arc<StreamCounters> {
        self.counters.clone()
    }

    fn stream_error(&self, action: &'static str, cause: seify::Error) -> HwError {
        HwError::Stream {
            direction: Direction::Tx,
            channel: self.channel.index(),
            action,
            cause,
        }
    }
}

impl Block for SdrSink {
    fn ports(&mut self) -> Ports<'_> {
        MESSAGE_INPUTS
            .into_iter()
            .fold(Ports::new().input(&mut self.input), Ports::message_input)
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
            .tx_streamer_with_args(&[self.channel.index()], args)
            .map_err(|cause| self.stream_error("creating the stream", cause))?;
        self.streamer = Some(streamer);
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let Some(tx) = self.streamer.as_mut() else {
            io.finish();
            return Ok(());
        };
        let input = self.input.slice();
        if input.is_empty() {
            return Ok(());
        }
        if !self.active {
            // Activated with the first samples: an idle TX stream would
            // underflow from the start.
            if let Err(cause) = tx.activate() {
                return Err(self.stream_error("activating the stream", cause).into());
            }
            self.active = true;
        }
        match tx.write(&[input], None, false, STREAM_TIMEOUT.as_micros() as i64) {
            Ok(0) => io.call_again_at(Instant::now() + FULL_WRITE_BACKOFF),
            Ok(n) => {
                self.input.consume(n);
                self.counters.add_items(n);
            }
            Err(seify::Error::Underrun) => {
                let total = self.counters.add_underflow();
                XrunLog::emit(self.log.note(Instant::now(), total));
                io.call_again_at(Instant::now());
            }
            Err(seify::Error::Timeout) => {
                self.counters.add_timeout();
                io.call_again_at(Instant::now());
            }
            Err(cause) => return Err(self.stream_error("write", cause).into()),
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
        if let Some(mut tx) = self.streamer.take()
            && self.active
        {
            self.channel.log_deactivation("SdrSink", tx.deactivate());
        }
        self.active = false;
        XrunLog::emit(self.log.flush(self.counters.underflows()));
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.streamer = None;
        self.channel.close();
        Ok(())
    }

    fn counters(&self) -> Vec<(&'static str, Arc<std::sync::atomic::AtomicU64>)> {
        self.counters.for_stats(false)
    }

    fn paced_rate(&self) -> Option<f64> {
        Some(self.channel.sample_rate())
    }

    fn is_blocking(&self) -> bool {
        true
    }
}

/// The registry entry: `sdr_sink`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    let spec = BlockSpec::of::<SdrConfig>(
        "sdr_sink",
        "Hardware",
        "Transmits complex samples on an SDR device (seify / SoapySDR).",
        |config| Ok(Box::new(SdrSink::new(config)?) as Box<dyn Block>),
    )
    .doc(
        "Opens the device `args` names when the run starts and sends it the samples of \
         `in`; underflows are counted and logged. `freq`, `gain`, `agc`, `sample_rate`, \
         `antenna`, `bandwidth` and `cmd` retune while it runs; `status` replies with \
         the device's state. `driver=dummy` swallows everything and needs no hardware.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)));
    MESSAGE_INPUTS
        .into_iter()
        .fold(spec, BlockSpec::message_input)
}
