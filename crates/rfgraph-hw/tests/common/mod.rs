//! Helpers shared by this crate's integration tests: the schedulers, a
//! watchdog, a sink that counts items and keeps tags, and `Scripted`, a
//! seify device whose streams follow a script (overflows, underflows,
//! timeouts), which seify's `dummy` device cannot produce.

#![allow(dead_code)]

use num_complex::Complex32;
use rfgraph::scheduler::{Chain, Pool, Single, Tpb};
use rfgraph::{
    Block, BoxError, Finished, Flowgraph, Ports, RunError, Running, Scheduler, StreamInput, Tag,
    WorkIo,
};
use seify::{
    Args, DeviceInfo, Direction, Driver, Error, FrequencyControl, Range, RangeItem, RxDevice,
    SampleRateControl, TxDevice,
};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most any test flowgraph may take: a hang fails the test instead of
/// eating the suite's time.
pub const WATCHDOG: Duration = Duration::from_secs(60);

/// How long a test waits for a reply or a condition before failing.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// One fresh instance of every scheduler, with its name.
pub fn every_scheduler() -> Vec<(&'static str, Box<dyn Scheduler>)> {
    vec![
        ("tpb", Box::new(Tpb::new())),
        ("single", Box::new(Single::new())),
        ("pool", Box::new(Pool::new())),
        ("chain", Box::new(Chain::new())),
    ]
}

/// Starts `fg` on `scheduler`.
pub fn start(fg: Flowgraph, scheduler: Box<dyn Scheduler>) -> Result<Running, RunError> {
    fg.start(scheduler)
}

/// Waits for `running` with the watchdog; a timeout fails the test.
pub fn finish(running: Running) -> Result<Finished, RunError> {
    match running.wait_timeout(WATCHDOG) {
        Err(e @ RunError::Timeout { .. }) => panic!("{e}"),
        other => other,
    }
}

/// Runs `fg` to its end on `scheduler`, under the watchdog.
pub fn run(fg: Flowgraph, scheduler: Box<dyn Scheduler>) -> Result<Finished, RunError> {
    finish(start(fg, scheduler)?)
}

/// Polls `cond` until it holds; fails the test after [`PATIENCE`].
pub fn wait_until(what: &str, cond: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !cond() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// What a [`Probe`] saw, shared with the test while the flowgraph runs.
#[derive(Default)]
pub struct Seen {
    pub items: AtomicU64,
    pub tags: Mutex<Vec<Tag>>,
}

impl Seen {
    pub fn tags(&self) -> Vec<Tag> {
        self.tags.lock().unwrap().clone()
    }
}

/// Which tag ends a [`Probe`].
type StopAt = dyn Fn(&Tag) -> bool + Send;

/// Counts complex items and keeps their tags (not the items: the dummy
/// device streams as fast as memory allows); finishes once it has seen a
/// tag `stop_at` names, if any.
pub struct Probe {
    input: StreamInput<Complex32>,
    pub seen: Arc<Seen>,
    stop_at: Option<Box<StopAt>>,
}

impl Probe {
    /// A probe that runs until the flowgraph stops.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            seen: Arc::default(),
            stop_at: None,
        }
    }

    /// A probe that finishes after the items carrying a tag `stop` accepts.
    pub fn until(stop: impl Fn(&Tag) -> bool + Send + 'static) -> Self {
        Self {
            stop_at: Some(Box::new(stop)),
            ..Self::new()
        }
    }
}

impl Block for Probe {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.slice().len();
        if n == 0 {
            return Ok(());
        }
        // The tags of exactly the items of that slice.
        let tags = self.input.tags();
        self.input.consume(n);
        self.seen.items.fetch_add(n as u64, Ordering::Relaxed);
        if let Some(stop) = &self.stop_at
            && tags.iter().any(stop)
        {
            io.finish();
        }
        self.seen.tags.lock().unwrap().extend(tags);
        Ok(())
    }
}

/// What a scripted stream does on its next call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// RX: deliver up to this many ramp samples over as many reads as it
    /// takes; TX: accept up to this many.
    Move(usize),
    /// RX: report an overflow, and skip this many ramp samples (lost).
    Overflow(usize),
    /// TX: report an underflow, taking nothing.
    Underflow,
    /// Report a timeout, moving nothing.
    Timeout,
}

/// The state behind a [`Scripted`] device and its streams.
#[derive(Default)]
pub struct ScriptState {
    pub rx_frequency: f64,
    pub rx_rate: f64,
    pub tx_frequency: f64,
    pub tx_rate: f64,
    /// Steps still to come; once empty, every call moves all it can.
    pub rx_script: VecDeque<Step>,
    pub tx_script: VecDeque<Step>,
    /// The next RX ramp value (sample k is `k + 0i`).
    pub next_rx: u64,
    /// Everything TX accepted, in order.
    pub written: Vec<Complex32>,
    pub rx_active: bool,
    pub tx_active: bool,
}

/// A seify device with one RX and one TX channel whose streams follow a
/// script. It tunes in steps of 100 Hz and sets rates in steps of 1000
/// S/s, so what it reports differs from what was asked.
#[derive(Clone, Default)]
pub struct Scripted {
    pub state: Arc<Mutex<ScriptState>>,
}

impl Scripted {
    pub fn new(rx: &[Step], tx: &[Step]) -> Self {
        let dev = Self::default();
        {
            let mut s = dev.state.lock().unwrap();
            s.rx_script = rx.iter().copied().collect();
            s.tx_script = tx.iter().copied().collect();
        }
        dev
    }

    pub fn to_dyn(&self) -> seify::DynDevice {
        seify::DynDevice::from_impl(self.clone())
    }
}

fn only_channel_zero(channel: usize) -> Result<(), Error> {
    if channel == 0 {
        Ok(())
    } else {
        Err(Error::invalid_argument("channel", "scripted has one"))
    }
}

impl DeviceInfo for Scripted {
    fn driver(&self) -> Driver {
        Driver::Dummy
    }
    fn id(&self) -> Result<String, Error> {
        Ok("scripted".into())
    }
    fn info(&self) -> Result<Args, Error> {
        Ok(Args::new())
    }
    fn num_channels(&self, _direction: Direction) -> Result<usize, Error> {
        Ok(1)
    }
    fn full_duplex(&self) -> Result<bool, Error> {
        Ok(true)
    }
}

seify::impl_dyn_device_backend!(Scripted => [rx, tx, frequency, sample_rate]);

impl FrequencyControl for Scripted {
    fn frequency_range(&self, _d: Direction, channel: usize) -> Result<Range, Error> {
        only_channel_zero(channel)?;
        Range::new(vec![RangeItem::Interval(0.0, 6e9)])
    }
    fn frequency(&self, d: Direction, channel: usize) -> Result<f64, Error> {
        only_channel_zero(channel)?;
        let s = self.state.lock().unwrap();
        Ok(match d {
            Direction::Rx => s.rx_frequency,
            Direction::Tx => s.tx_frequency,
        })
    }
    fn set_frequency(&self, d: Direction, channel: usize, hz: f64, _a: Args) -> Result<(), Error> {
        only_channel_zero(channel)?;
        if !(0.0..=6e9).contains(&hz) {
            return Err(Error::out_of_range(
                "frequency",
                self.frequency_range(d, channel)?,
                hz,
            ));
        }
        let tuned = (hz / 100.0).round() * 100.0;
        let mut s = self.state.lock().unwrap();
        match d {
            Direction::Rx => s.rx_frequency = tuned,
            Direction::Tx => s.tx_frequency = tuned,
        }
        Ok(())
    }
    fn frequency_components(&self, _d: Direction, _c: usize) -> Result<Vec<String>, Error> {
        Ok(vec![])
    }
    fn component_frequency_range(
        &self,
        _d: Direction,
        _c: usize,
        _n: &str,
    ) -> Result<Range, Error> {
        Err(Error::invalid_argument("component", "none"))
    }
    fn component_frequency(&self, _d: Direction, _c: usize, _n: &str) -> Result<f64, Error> {
        Err(Error::invalid_argument("component", "none"))
    }
    fn set_component_frequency(
        &self,
        _d: Direction,
        _c: usize,
        _n: &str,
        _f: f64,
    ) -> Result<(), Error> {
        Err(Error::invalid_argument("component", "none"))
    }
}

impl SampleRateControl for Scripted {
    fn sample_rate(&self, d: Direction, channel: usize) -> Result<f64, Error> {
        only_channel_zero(channel)?;
        let s = self.state.lock().unwrap();
        Ok(match d {
            Direction::Rx => s.rx_rate,
            Direction::Tx => s.tx_rate,
        })
    }
    fn set_sample_rate(&self, d: Direction, channel: usize, rate: f64) -> Result<(), Error> {
        only_channel_zero(channel)?;
        if rate > 61.44e6 {
            return Err(Error::out_of_range(
                "sample rate",
                self.get_sample_rate_range(d, channel)?,
                rate,
            ));
        }
        let set = (rate / 1000.0).round() * 1000.0;
        let mut s = self.state.lock().unwrap();
        match d {
            Direction::Rx => s.rx_rate = set,
            Direction::Tx => s.tx_rate = set,
        }
        Ok(())
    }
    fn get_sample_rate_range(&self, _d: Direction, _c: usize) -> Result<Range, Error> {
        Range::new(vec![RangeItem::Interval(1000.0, 61.44e6)])
    }
}

/// The RX stream of a [`Scripted`] device.
pub struct ScriptedRx(Arc<Mutex<ScriptState>>);

/// The TX stream of a [`Scripted`] device.
pub struct ScriptedTx(Arc<Mutex<ScriptState>>);

impl RxDevice for Scripted {
    type RxStreamer = ScriptedRx;
    fn rx_streamer(&self, channels: &[usize], _args: Args) -> Result<ScriptedRx, Error> {
        match channels {
            [0] => Ok(ScriptedRx(self.state.clone())),
            _ => Err(Error::invalid_argument("channels", "scripted has one")),
        }
    }
}

impl TxDevice for Scripted {
    type TxStreamer = ScriptedTx;
    fn tx_streamer(&self, channels: &[usize], _args: Args) -> Result<ScriptedTx, Error> {
        match channels {
            [0] => Ok(ScriptedTx(self.state.clone())),
            _ => Err(Error::invalid_argument("channels", "scripted has one")),
        }
    }
}

impl seify::RxStreamer for ScriptedRx {
    fn mtu(&self) -> Result<usize, Error> {
        Ok(1024)
    }
    fn activate_at(&mut self, _t: Option<i64>) -> Result<(), Error> {
        self.0.lock().unwrap().rx_active = true;
        Ok(())
    }
    fn deactivate_at(&mut self, _t: Option<i64>) -> Result<(), Error> {
        self.0.lock().unwrap().rx_active = false;
        Ok(())
    }
    fn read(&mut self, buffers: &mut [&mut [Complex32]], _timeout_us: i64) -> Result<usize, Error> {
        let mut s = self.0.lock().unwrap();
        if !s.rx_active {
            return Err(Error::StreamInactive);
        }
        let buf = &mut buffers[0];
        let n = match s.rx_script.front().copied() {
            None => buf.len(),
            Some(Step::Move(left)) => {
                let n = left.min(buf.len());
                if n == left {
                    s.rx_script.pop_front();
                } else {
                    s.rx_script[0] = Step::Move(left - n);
                }
                n
            }
            Some(Step::Overflow(lost)) => {
                s.rx_script.pop_front();
                s.next_rx += lost as u64;
                return Err(Error::Overrun);
            }
            Some(Step::Timeout) => {
                s.rx_script.pop_front();
                return Err(Error::Timeout);
            }
            Some(Step::Underflow) => panic!("no underflows on RX"),
        };
        for x in &mut buf[..n] {
            *x = Complex32::new(s.next_rx as f32, 0.0);
            s.next_rx += 1;
        }
        Ok(n)
    }
}

impl seify::TxStreamer for ScriptedTx {
    fn mtu(&self) -> Result<usize, Error> {
        Ok(1024)
    }
    fn activate_at(&mut self, _t: Option<i64>) -> Result<(), Error> {
        self.0.lock().unwrap().tx_active = true;
        Ok(())
    }
    fn deactivate_at(&mut self, _t: Option<i64>) -> Result<(), Error> {
        self.0.lock().unwrap().tx_active = false;
        Ok(())
    }
    fn write(
        &mut self,
        buffers: &[&[Complex32]],
        _at_ns: Option<i64>,
        _end_burst: bool,
        _timeout_us: i64,
    ) -> Result<usize, Error> {
        let mut s = self.0.lock().unwrap();
        if !s.tx_active {
            return Err(Error::StreamInactive);
        }
        let buf = buffers[0];
        let n = match s.tx_script.front().copied() {
            None => buf.len(),
            Some(Step::Move(left)) => {
                let n = left.min(buf.len());
                if n == left {
                    s.tx_script.pop_front();
                } else {
                    s.tx_script[0] = Step::Move(left - n);
                }
                n
            }
            Some(Step::Underflow) => {
                s.tx_script.pop_front();
                return Err(Error::Underrun);
            }
            Some(Step::Timeout) => {
                s.tx_script.pop_front();
                return Err(Error::Timeout);
            }
            Some(Step::Overflow(_)) => panic!("no overflows on TX"),
        };
        s.written.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn write_all(
        &mut self,
        buffers: &[&[Complex32]],
        at_ns: Option<i64>,
        end_burst: bool,
        timeout_us: i64,
    ) -> Result<(), Error> {
        let mut done = 0;
        while done < buffers[0].len() {
            done += self.write(&[&buffers[0][done..]], at_ns, end_burst, timeout_us)?;
        }
        Ok(())
    }
}
