//! [`MessageStrobe`]: posts a message periodically (GNU Radio's
//! `message_strobe`) or after random intervals (`message_strobe_random`),
//! with both registry entries.

use crate::generate::rng::Xoshiro256PlusPlus;
use rfgraph::registry::{BlockSpec, ParamSpec, Params};
use rfgraph::{Block, BoxError, MessageOutput, ParamInfo, Pmt, Ports, Setting, Settings, WorkIo};
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

/// Posts `message` on `strobe` once per interval, the first one interval
/// after the start, until `count` messages went out (then it finishes).
/// A negative drawn interval counts as 0.
///
/// # Message Inputs
/// - `message` (also GNU Radio's `set_msg`): the message posted from now on.
/// - `period`: ms, a new fixed interval.
///
/// # Message Outputs
/// - `strobe`: the messages.
///
/// # Usage
/// ```
/// use rfgraph::{Flowgraph, Pmt};
/// use rfgraph_blocks::{MessageSink, message::{Interval, MessageStrobe}};
///
/// let mut fg = Flowgraph::new();
/// let strobe = fg.add(MessageStrobe::new(Pmt::from("TEST"), Interval::Fixed(1.0)).count(3));
/// let sink = fg.add(MessageSink::new());
/// fg.connect_message(strobe, "strobe", sink, "in")?;
/// // A graph of message blocks only runs until stopped (`FlowgraphHandle::stop`).
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MessageStrobe {
    output: MessageOutput,
    message: Pmt,
    interval: Interval,
    left: u64,
    next: Option<Instant>,
    rng: Xoshiro256PlusPlus,
    settings: Settings<Self>,
}

impl MessageStrobe {
    /// Posts `message` at `interval`s, without end.
    pub fn new(message: Pmt, interval: Interval) -> Self {
        Self {
            output: MessageOutput::new("strobe"),
            message,
            interval,
            left: u64::MAX,
            next: None,
            rng: Xoshiro256PlusPlus::from_seed(0x5eed_57b0),
            settings: Settings::new()
                .with(
                    Setting::new("message", |s: &mut Self, m: Pmt| s.message = m)
                        .doc("the message posted"),
                )
                .with(
                    Setting::try_new("period", |s: &mut Self, ms: f64| {
                        if !(ms.is_finite() && ms >= 0.0) {
                            return Err(format!("{ms} ms is not a period"));
                        }
                        s.interval = Interval::Fixed(ms);
                        Ok(())
                    })
                    .unit("ms")
                    .doc("the interval between two messages"),
                ),
        }
    }

    /// Finishes after `n` messages.
    pub fn count(mut self, n: u64) -> Self {
        self.left = n;
        self
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
        let ms = match self.interval {
            Interval::Fixed(p) => p,
            Interval::Uniform { mean, spread } => mean + spread * (2.0 * self.uniform() - 1.0),
            Interval::Gaussian { mean, std } => {
                // Box–Muller.
                let (u, v) = (1.0 - self.uniform(), self.uniform());
                mean + std * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
            }
            Interval::Exponential { mean } => -mean * (1.0 - self.uniform()).ln(),
        };
        Duration::from_secs_f64(ms.max(0.0) / 1000.0)
    }
}

impl Block for MessageStrobe {
    fn ports(&mut self) -> Ports<'_> {
        self.settings.message_inputs(
            Ports::new()
                .message_input("set_msg")
                .message_output(&mut self.output),
        )
    }

    fn handle_message(&mut self, port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if port == "set_msg" {
            self.message = msg;
            return Ok(Pmt::Null);
        }
        Settings::dispatch(self, |b| &mut b.settings, port, msg)
    }

    fn settings(&self) -> Vec<ParamInfo> {
        self.settings.infos()
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let now = Instant::now();
        let mut next = match self.next {
            Some(t) => t,
            None => now + self.draw(),
        };
        // A late call posts once, then schedules from now: no bursts.
        if self.left > 0 && now >= next {
            self.output.post(self.message.clone());
            self.left -= 1;
            next = now + self.draw();
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

fn common(spec: BlockSpec) -> BlockSpec {
    spec.param(
        ParamSpec::any("message")
            .default("TEST")
            .settable()
            .doc("the message posted (any value; GNU Radio's symbols are strings)"),
    )
    .param(
        ParamSpec::uint("count")
            .optional()
            .doc("finish after this many messages (never when not set)"),
    )
    .message_input("set_msg")
    .message_output("strobe")
}

fn build(p: &Params, interval: Interval) -> Result<Box<dyn Block>, rfgraph::registry::BuildError> {
    let strobe = MessageStrobe::new(p.raw("message")?.clone(), interval);
    Ok(Box::new(match p.opt("count")? {
        Some(n) => strobe.count(n),
        None => strobe,
    }))
}

fn milliseconds(p: &Params, name: &str) -> Result<f64, rfgraph::registry::BuildError> {
    let ms = p.f64(name)?;
    if !(ms.is_finite() && ms >= 0.0) {
        return Err(p.invalid(name, "must be a finite number of ms, at least 0"));
    }
    Ok(ms)
}

/// `message_strobe`: GNU Radio's `blocks_message_strobe`.
pub(crate) fn strobe_spec() -> BlockSpec {
    common(BlockSpec::new(
        "message_strobe",
        "Message Tools",
        "Posts a message every `period` ms.",
        |p: &Params| build(p, Interval::Fixed(milliseconds(p, "period")?)),
    ))
    .doc("Posts `message` on `strobe` every `period` ms, the first one `period` after the start. `set_msg` (GNU Radio's port) and `message` replace the message.")
    .param(
        ParamSpec::float("period")
            .default(1000.0)
            .unit("ms")
            .settable()
            .doc("the interval between two messages"),
    )
}

/// `message_strobe_random`: GNU Radio's `blocks_message_strobe_random`.
pub(crate) fn strobe_random_spec() -> BlockSpec {
    common(BlockSpec::new(
        "message_strobe_random",
        "Message Tools",
        "Posts a message after random intervals.",
        |p: &Params| {
            let (mean, std) = (milliseconds(p, "mean")?, milliseconds(p, "std")?);
            let interval = match p.string("distribution")?.to_ascii_lowercase().as_str() {
                "uniform" => Interval::Uniform { mean, spread: std },
                "gaussian" => Interval::Gaussian { mean, std },
                _ => Interval::Exponential { mean },
            };
            build(p, interval)
        },
    ))
    .doc("Intervals: `uniform` between `mean − std` and `mean + std`, `gaussian`, or `poisson`/`exponential` (exponential intervals of mean `mean`, GNU Radio's Poisson process). Negative draws count as 0. `period` replaces them with a fixed interval.")
    .param(
        ParamSpec::string("distribution")
            .choices(&["poisson", "exponential", "gaussian", "uniform"])
            .default("poisson")
            .doc("how intervals are drawn"),
    )
    .param(ParamSpec::float("mean").default(1000.0).unit("ms").doc("mean interval"))
    .param(ParamSpec::float("std").default(100.0).unit("ms").doc("spread of the intervals"))
    .param(
        ParamSpec::float("period")
            .default(1000.0)
            .unit("ms")
            .settable()
            .doc("a fixed interval set while running"),
    )
}
