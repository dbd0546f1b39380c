//! What every web display shares: the item types it draws
//! ([`DisplayItem`]), the stream-time pacing of its frames ([`Capture`]),
//! reading its inputs without blocking them ([`common_len`]), and building
//! the `display` and `frame` readings ([`Readings`], clamping of
//! non-finite values, the labels of the inputs).

use num_complex::Complex32;
use rfgraph::{Item, Pmt, StreamInput};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The two readings every display declares, in this order.
pub(crate) const READINGS: &[&str] = &["display", "frame"];

/// The floor of every dB value a display shows (and what a non-finite
/// one becomes).
pub const DB_FLOOR: f32 = -200.0;

/// A stream item a display draws: real (`f32`) or complex (`c32`).
pub trait DisplayItem: Item {
    /// True for complex items.
    const COMPLEX: bool;
    /// The item as a complex number (a real one with no imaginary part).
    fn to_c32(self) -> Complex32;
}

impl DisplayItem for f32 {
    const COMPLEX: bool = false;
    fn to_c32(self) -> Complex32 {
        Complex32::new(self, 0.0)
    }
}

impl DisplayItem for Complex32 {
    const COMPLEX: bool = true;
    fn to_c32(self) -> Complex32 {
        self
    }
}

/// A value a browser can draw: non-finite becomes 0.
pub(crate) fn finite(v: f32) -> f32 {
    if v.is_finite() { v } else { 0.0 }
}

/// A dB value a browser can draw: non-finite or below [`DB_FLOOR`]
/// becomes [`DB_FLOOR`].
pub(crate) fn finite_db(v: f32) -> f32 {
    if v.is_finite() {
        v.max(DB_FLOOR)
    } else {
        DB_FLOOR
    }
}

/// The items per frame slot: `update_time` seconds of stream at `rate`
/// items a second, at least `len` (a frame needs that many) and at most
/// what fits a `u64`.
pub(crate) fn period(update_time: f64, rate: f64, len: usize) -> u64 {
    let items = update_time * rate;
    let items = if items.is_finite() && items > 0.0 {
        items.round().min(u64::MAX as f64 / 2.0) as u64
    } else {
        0
    };
    items.max(len as u64)
}

/// Wall-clock pacing for displays whose stream has no sample rate (a
/// constellation, a number): a frame is due once `update_time` has passed
/// since the last.
#[derive(Clone, Debug)]
pub(crate) struct WallClock {
    every: Duration,
    next: Option<Instant>,
}

impl WallClock {
    /// One frame per `update_time` seconds (a day when out of range).
    pub(crate) fn new(update_time: f64) -> Self {
        let every = Duration::try_from_secs_f64(update_time).unwrap_or(Duration::from_secs(86_400));
        Self { every, next: None }
    }

    /// True when the next frame is due.
    pub(crate) fn due(&self) -> bool {
        self.every.is_zero() || self.next.is_none_or(|t| Instant::now() >= t)
    }

    /// A frame was made now.
    pub(crate) fn made(&mut self) {
        self.next = Instant::now().checked_add(self.every);
    }
}

/// What [`Capture::step`] says to do with the next items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Discard this many items: the next frame is not due yet.
    Skip(usize),
    /// Copy this many items into the frame buffers at `at`; `done`: the
    /// buffers then hold a whole frame.
    Take {
        /// Where in the frame buffer they go.
        at: usize,
        /// How many.
        count: usize,
        /// The frame is complete after them.
        done: bool,
    },
}

/// Stream-time pacing: a frame of `len` consecutive items at the start
/// of every slot of `period` items; the rest of the slot is skipped
/// unread, so a fast stream costs one frame's work per slot.
#[derive(Clone, Debug)]
pub(crate) struct Capture {
    len: usize,
    period: u64,
    skip: u64,
    fill: usize,
    /// Index of the next item of the stream.
    pos: u64,
    /// Index of the first item of the frame being filled.
    start: u64,
}

impl Capture {
    /// Frames of `len` items, one per `period` items (at least `len`).
    pub(crate) fn new(len: usize, period: u64) -> Self {
        Self {
            len,
            period: period.max(len as u64),
            skip: 0,
            fill: 0,
            pos: 0,
            start: 0,
        }
    }

    /// What to do with the next of `avail` (> 0) items.
    pub(crate) fn step(&mut self, avail: usize) -> Step {
        if self.skip > 0 {
            let k = (avail as u64).min(self.skip) as usize;
            self.skip -= k as u64;
            self.pos += k as u64;
            return Step::Skip(k);
        }
        if self.fill == 0 {
            self.start = self.pos;
        }
        let at = self.fill;
        let count = avail.min(self.len - self.fill);
        self.fill += count;
        self.pos += count as u64;
        let done = self.fill == self.len;
        if done {
            self.fill = 0;
            self.skip = self.period - self.len as u64;
        }
        Step::Take { at, count, done }
    }

    /// Frames one per `period` items from the next slot on (a frame being
    /// filled completes; what is left to skip shrinks to fit).
    pub(crate) fn set_period(&mut self, period: u64) {
        self.period = period.max(self.len as u64);
        self.skip = self.skip.min(self.period - self.len as u64);
    }

    /// True while a frame is partly filled.
    pub(crate) fn filling(&self) -> bool {
        self.fill > 0
    }

    /// Counts `k` items dropped outside the capture (wall-clock pacing).
    pub(crate) fn dropped(&mut self, k: usize) {
        self.pos += k as u64;
    }

    /// The stream index of the first item of the last frame completed
    /// (or being filled).
    pub(crate) fn start(&self) -> u64 {
        self.start
    }
}

/// How many items every input can give now without waiting for one that
/// has ended: the fewest any open (or not yet drained) input has, or the
/// most when every input with items has ended. Inputs that ended with no
/// items left read as zeros ([`read_or_zero`]).
pub(crate) fn common_len<T: Item>(inputs: &mut [StreamInput<T>]) -> usize {
    let mut fewest: Option<usize> = None;
    let mut most = 0;
    let mut open = false;
    for input in inputs.iter_mut() {
        let n = input.available();
        most = most.max(n);
        if n == 0 && input.is_finished() {
            continue;
        }
        open |= !input.is_finished();
        fewest = Some(fewest.map_or(n, |f| f.min(n)));
    }
    match fewest {
        Some(_) if !open => most,
        Some(f) => f,
        None => 0,
    }
}

/// Items `from..from + out.len()` of `input` through `f` into `out`;
/// those the input does not have (it ended) as `T::zeroed()`.
pub(crate) fn read_or_zero<T: Item, U>(
    input: &mut StreamInput<T>,
    from: usize,
    out: &mut [U],
    f: impl Fn(T) -> U,
) {
    let have = input.slice();
    for (i, o) in out.iter_mut().enumerate() {
        *o = f(have.get(from + i).copied().unwrap_or_else(T::zeroed));
    }
}

/// Consumes up to `n` items of every input (fewer where one has fewer).
pub(crate) fn consume_all<T: Item>(inputs: &mut [StreamInput<T>], n: usize) {
    for input in inputs {
        let k = input.available().min(n);
        input.consume(k);
    }
}

/// The label of each of `inputs` inputs: `labels`' text where it has a
/// non-empty string there, else `Data {i}` (GNU Radio's default).
pub(crate) fn labels(labels: &Pmt, inputs: usize) -> Pmt {
    let given: Vec<String> = match labels {
        Pmt::List(items) | Pmt::Tuple(items) => items
            .iter()
            .map(|p| match p {
                Pmt::String(s) => s.clone(),
                _ => String::new(),
            })
            .collect(),
        Pmt::String(s) => s.split(',').map(|s| s.trim().to_string()).collect(),
        _ => Vec::new(),
    };
    Pmt::List(
        (0..inputs)
            .map(|i| {
                let text = given.get(i).filter(|s| !s.is_empty()).cloned();
                Pmt::String(text.unwrap_or_else(|| format!("Data {i}")))
            })
            .collect(),
    )
}

/// One f32 vector per row, as a list of `VecF32`.
pub(crate) fn rows(rows: &[Vec<f32>]) -> Pmt {
    Pmt::List(rows.iter().map(|r| Pmt::VecF32(r.clone())).collect())
}

/// A map under construction: the `display` or `frame` reading.
#[derive(Default)]
pub(crate) struct Readings(BTreeMap<String, Pmt>);

impl Readings {
    /// The `display` map's common part: `kind`, `title`, `inputs`,
    /// `labels`, and `gui_hint` when not empty.
    pub(crate) fn display(kind: &str, title: &str, inputs: usize, labels: Pmt, hint: &str) -> Self {
        let r = Self::default()
            .with("kind", kind)
            .with("title", title)
            .with("inputs", Pmt::U64(inputs as u64))
            .with("labels", labels);
        if hint.trim().is_empty() {
            r
        } else {
            r.with("gui_hint", hint.trim())
        }
    }

    /// A `frame` map with its `seq`.
    pub(crate) fn frame(seq: u64) -> Self {
        Self::default().with("seq", Pmt::U64(seq))
    }

    /// Adds `key`.
    pub(crate) fn with(mut self, key: &str, value: impl Into<Pmt>) -> Self {
        self.0.insert(key.to_string(), value.into());
        self
    }

    /// The map.
    pub(crate) fn done(self) -> Pmt {
        Pmt::Map(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_takes_one_frame_per_period_and_skips_the_rest() {
        let mut c = Capture::new(4, 10);
        let mut taken = Vec::new();
        let mut pos = 0usize;
        // 35 items offered in uneven chunks.
        for chunk in [3usize, 7, 1, 20, 4] {
            let mut off = 0;
            while off < chunk {
                match c.step(chunk - off) {
                    Step::Skip(k) => off += k,
                    Step::Take { count, done, .. } => {
                        taken.extend(pos + off..pos + off + count);
                        off += count;
                        if done {
                            assert_eq!(c.start() as usize + 3, pos + off - 1);
                        }
                    }
                }
            }
            pos += chunk;
        }
        assert_eq!(
            taken,
            [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33]
        );
    }

    #[test]
    fn a_new_period_applies_from_the_next_slot() {
        let mut c = Capture::new(2, 100);
        assert_eq!(
            c.step(5),
            Step::Take {
                at: 0,
                count: 2,
                done: true
            }
        );
        c.set_period(4);
        // 98 were left to skip; now 2.
        assert_eq!(c.step(50), Step::Skip(2));
        assert_eq!(
            c.step(50),
            Step::Take {
                at: 0,
                count: 2,
                done: true
            }
        );
        c.set_period(0);
        assert_eq!(
            c.step(50),
            Step::Take {
                at: 0,
                count: 2,
                done: true
            }
        );
    }

    #[test]
    fn periods_are_at_least_a_frame_and_never_overflow() {
        assert_eq!(period(0.1, 48_000.0, 1024), 4800);
        assert_eq!(period(0.0, 48_000.0, 1024), 1024);
        assert_eq!(period(f64::NAN, 1.0, 8), 8);
        assert_eq!(period(1e10, 1e10, 8), u64::MAX / 2 + 1);
    }

    #[test]
    fn labels_fill_in_defaults_and_values_clamp() {
        let l = labels(&Pmt::List(vec![Pmt::from("a"), Pmt::from("")]), 3);
        assert_eq!(
            l,
            Pmt::List(vec![
                Pmt::from("a"),
                Pmt::from("Data 1"),
                Pmt::from("Data 2")
            ])
        );
        assert_eq!(finite_db(f32::NEG_INFINITY), DB_FLOOR);
        assert_eq!(finite_db(f32::NAN), DB_FLOOR);
        assert_eq!(finite_db(-3.0), -3.0);
        assert_eq!(finite(f32::INFINITY), 0.0);
    }
}
