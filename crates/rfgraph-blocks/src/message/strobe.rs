//! [`MessageStrobe`]: posts a message periodically (GNU Radio's
//! `message_strobe`), and [`MessageStrobeRandom`], after random intervals
//! (`message_strobe_random`); both are a [`Strobe`] of their parameters,
//! with their registry entries.

use crate::generate::rng::Xoshiro256PlusPlus;
use rfgraph::registry::BlockSpec;
use rfgraph::{
    Block, BoxError, MessageOutput, ParamChoice, ParamError, ParamSet, Pmt, Ports, WorkIo,
};
use std::time::{Duration, Instant};

/// How the intervals between two messages are drawn (milliseconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Interval {
    /// Always `period`.
    Fixed(f64),
    /// Uniform between `mean − spread` and `mean + spread`.
    Uniform {
        /// ms
        mean: f64,
        /// ms
        spread: f64,
    },
    /// Gaussian with `mean` and standard deviation `std`.
    Gaussian {
        /// ms
        mean: f64,
        /// ms
        std: f64,
    },
    /// Exponential with `mean` (a Poisson process).
    Exponential {
        /// ms
        mean: f64,
    },
}

/// How [`MessageStrobeRandom`] draws its intervals; GNU Radio's
/// `blocks.STROBE_*` in lower case.
#[derive(ParamChoice, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// Exponential intervals of mean `mean`: messages as a Poisson process.
    Poisson,
    /// The same as `poisson`.
    Exponential,
    /// Gaussian intervals of mean `mean` and standard deviation `std`.
    Gaussian,
    /// Uniform intervals between `mean − std` and `mean + std`.
    Uniform,
}

/// The parameters of [`MessageStrobe`] (`message_strobe`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct MessageStrobeParams {
    /// the message posted (any value; GNU Radio's symbols are strings)
    #[param(default = "TEST", alias = "msg", settable)]
    pub message: Pmt,
    /// finish after this many messages (never when not set)
    pub count: Option<u64>,
    /// the interval between two messages; a change applies to the
    /// interval under way, counted from its start
    #[param(default = 1000.0, unit = "ms", min = 0.0, settable)]
    pub period: f64,
}

/// The parameters of [`MessageStrobeRandom`] (`message_strobe_random`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct MessageStrobeRandomParams {
    /// the message posted (any value; GNU Radio's symbols are strings)
    #[param(default = "TEST", alias = "msg", settable)]
    pub message: Pmt,
    /// finish after this many messages (never when not set)
    pub count: Option<u64>,
    /// how intervals are drawn
    #[param(default = Distribution::Poisson, alias = "dist", settable)]
    pub distribution: Distribution,
    /// mean interval
    #[param(default = 1000.0, unit = "ms", min = 0.0, settable)]
    pub mean: f64,
    /// spread of the intervals: the standard deviation of `gaussian`,
    /// the largest deviation of `uniform`
    #[param(default = 100.0, unit = "ms", min = 0.0, settable)]
    pub std: f64,
    /// a fixed interval instead of drawn ones (drawn when not set)
    #[param(unit = "ms", min = 0.0, settable)]
    pub period: Option<f64>,
}

/// What a [`Strobe`] reads from its parameters:
/// [`MessageStrobeParams`] or [`MessageStrobeRandomParams`].
pub trait StrobeParams: ParamSet + Clone {
    /// The message posted.
    fn message(&self) -> &Pmt;
    /// How many messages before the strobe finishes (`None`: never).
    fn count(&self) -> Option<u64>;
    /// How the intervals are drawn.
    fn interval(&self) -> Interval;
}

impl StrobeParams for MessageStrobeParams {
    fn message(&self) -> &Pmt {
        &self.message
    }
    fn count(&self) -> Option<u64> {
        self.count
    }
    fn interval(&self) -> Interval {
        Interval::Fixed(self.period)
    }
}

impl StrobeParams for MessageStrobeRandomParams {
    fn message(&self) -> &Pmt {
        &self.message
    }
    fn count(&self) -> Option<u64> {
        self.count
    }
    fn interval(&self) -> Interval {
        let (mean, std) = (self.mean, self.std);
        match (self.period, self.distribution) {
            (Some(period), _) => Interval::Fixed(period),
            (None, Distribution::Uniform) => Interval::Uniform { mean, spread: std },
            (None, Distribution::Gaussian) => Interval::Gaussian { mean, std },
            (None, Distribution::Poisson | Distribution::Exponential) => {
                Interval::Exponential { mean }
            }
        }
    }
}

/// The longest wait: an interval beyond it (1e300 ms) is waited in
/// steps of it.
const LONGEST: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// `start + wait`, or as far as the clock goes.
fn later(start: Instant, wait: Duration) -> Instant {
    start
        .checked_add(wait)
        .or_else(|| start.checked_add(Duration::from_secs(24 * 3600)))
        .unwrap_or(start)
}

/// Posts its message on `strobe` once per interval, the first one
/// interval after the start, until `count` messages went out (then it
/// finishes). A negative drawn interval counts as 0. A change of the
/// interval's parameters while it runs applies at once to the interval
/// under way: it is drawn again, counted from its start (so a shorter
/// period may post at once).
///
/// # Parameters
/// [`MessageStrobeParams`] or [`MessageStrobeRandomParams`]; each settable
/// one has a message input of its name (and of its aliases).
///
/// # Message Inputs
/// - `set_msg` (GNU Radio's port): the message posted from now on, as
///   `message` sets it.
///
/// # Message Outputs
/// - `strobe`: the messages.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt};
/// use rfgraph_blocks::{MessageSink, message::{MessageStrobe, MessageStrobeParams}};
///
/// let mut fg = Flowgraph::new();
/// let strobe = fg.add(MessageStrobe::new(MessageStrobeParams {
///     message: Pmt::from("TEST"),
///     period: 1.0,
///     count: Some(3),
/// })?);
/// let sink = fg.add(MessageSink::new());
/// fg.connect_message(strobe, "strobe", sink, "in")?;
/// // A graph of message blocks only runs until stopped (`FlowgraphHandle::stop`).
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Strobe<P: StrobeParams> {
    output: MessageOutput,
    params: P,
    left: u64,
    /// When the interval under way started (the start, or the last post).
    last: Option<Instant>,
    /// When it ends.
    next: Option<Instant>,
    rng: Xoshiro256PlusPlus,
}

/// Posts a message every `period` ms: GNU Radio's `message_strobe`.
pub type MessageStrobe = Strobe<MessageStrobeParams>;

/// Posts a message after random intervals: GNU Radio's
/// `message_strobe_random`.
pub type MessageStrobeRandom = Strobe<MessageStrobeRandomParams>;

impl<P: StrobeParams> Strobe<P> {
    /// A strobe with `params`.
    ///
    /// Errors: a parameter out of its range (a negative or non-finite
    /// interval).
    pub fn new(params: P) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: MessageOutput::new("strobe"),
            left: params.count().unwrap_or(u64::MAX),
            params,
            last: None,
            next: None,
            rng: Xoshiro256PlusPlus::from_seed(0x5eed_57b0),
        })
    }

    /// Seeds the random intervals.
    pub fn seed(mut self, seed: u64) -> Self {
        self.rng = Xoshiro256PlusPlus::from_seed(seed);
        self
    }

    /// A uniform number in [0, 1).
    fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The next interval.
    fn draw(&mut self) -> Duration {
        let ms = match self.params.interval() {
            Interval::Fixed(p) => p,
            Interval::Uniform { mean, spread } => mean + spread * (2.0 * self.uniform() - 1.0),
            Interval::Gaussian { mean, std } => {
                // Box–Muller.
                let (u, v) = (1.0 - self.uniform(), self.uniform());
                mean + std * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
            }
            Interval::Exponential { mean } => -mean * (1.0 - self.uniform()).ln(),
        };
        Duration::try_from_secs_f64(ms.max(0.0) / 1000.0)
            .unwrap_or(LONGEST)
            .min(LONGEST)
    }
}

impl<P: StrobeParams> Block for Strobe<P> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("set_msg")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        // The interval under way is drawn again from its start; `work`,
        // which runs after every message, posts at once when it is over.
        if name != "message"
            && let (Some(last), Some(_)) = (self.last, self.next)
        {
            let wait = self.draw();
            self.next = Some(later(last, wait));
        }
        Ok(())
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        // `set_msg`: GNU Radio's port for what `message` sets.
        rfgraph::params::apply(self, "message", msg)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let now = Instant::now();
        let mut next = match self.next {
            Some(t) => t,
            None => {
                self.last = Some(now);
                let wait = self.draw();
                later(now, wait)
            }
        };
        // A late call posts once, then schedules from now: no bursts.
        if self.left > 0 && now >= next {
            self.output.post(self.params.message().clone());
            self.left -= 1;
            self.last = Some(now);
            let wait = self.draw();
            next = later(now, wait);
        }
        if self.left == 0 {
            io.finish();
            return Ok(());
        }
        self.next = Some(next);
        io.call_again_at(next);
        Ok(())
    }
}

/// `message_strobe`: GNU Radio's `blocks_message_strobe`.
pub(crate) fn strobe_spec() -> BlockSpec {
    BlockSpec::of::<MessageStrobeParams>(
        "message_strobe",
        "Message Tools",
        "Posts a message every `period` ms.",
        |p| Ok(Box::new(MessageStrobe::new(p)?)),
    )
    .doc("Posts `message` on `strobe` every `period` ms, the first one `period` after the start. `set_msg` (GNU Radio's port) and `message` replace the message. A new `period` applies to the interval under way, counted from its start (a shorter one may post at once); GNU Radio's applies after it.")
    .message_input("set_msg")
    .message_output("strobe")
}

/// `message_strobe_random`: GNU Radio's `blocks_message_strobe_random`.
pub(crate) fn strobe_random_spec() -> BlockSpec {
    BlockSpec::of::<MessageStrobeRandomParams>(
        "message_strobe_random",
        "Message Tools",
        "Posts a message after random intervals.",
        |p| Ok(Box::new(MessageStrobeRandom::new(p)?)),
    )
    .doc("Intervals: `uniform` between `mean − std` and `mean + std`, `gaussian`, or `poisson`/`exponential` (exponential intervals of mean `mean`, GNU Radio's Poisson process). Negative draws count as 0. `period`, when set, replaces them with a fixed interval. `message`, `distribution`, `mean`, `std` and `period` may change while running (GNU Radio's `set_msg`, `set_dist`, `set_mean`, `set_std`): the interval under way is drawn again, counted from its start.")
    .message_input("set_msg")
    .message_output("strobe")
}
