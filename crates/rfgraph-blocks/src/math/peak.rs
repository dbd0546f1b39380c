//! [`PeakDetector2`]: flags the largest item of a window that starts
//! where the input rises above its running average (GNU Radio's
//! `peak_detector2_fb`), with its registry entry.

use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, Ports, StreamInput, StreamOutput, WorkIo};
use std::collections::VecDeque;

/// The parameters of [`PeakDetector2`] (`peak_detector2`). All three may
/// change while it runs, as GNU Radio's setters do: a new `threshold` or
/// `look_ahead` abandons an open window, whose items are searched again
/// from its first; a new `alpha` weighs the next item, and every item of
/// an open window after the one that opened it (GNU Radio takes a
/// window's items at once, so none of them was weighed yet there).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct PeakDetector2Params {
    /// rise factor: an item above `avg · (1 + threshold)` opens a window
    #[param(default = 7.0, alias = "threshold_factor_rise", settable)]
    pub threshold: f32,
    /// window length, from the item that opens it
    #[param(
        default = 1000,
        min = 1,
        max = limits::MAX_ELEMENTS,
        unit = "items",
        settable
    )]
    pub look_ahead: usize,
    /// averaging weight of each new item
    #[param(default = 0.001, above = 0.0, max = 1.0, settable)]
    pub alpha: f32,
}

/// Tracks a one-pole average `avg = alpha·x + (1 − alpha)·avg` of the
/// input; an item above `avg · (1 + threshold)` opens a window of
/// `look_ahead` items (itself the first), and the window's first largest
/// item gets a 1 on `out0` (every other item a 0). The search then starts
/// again after the window. `out1`, optional, carries the average.
///
/// The window's items wait inside the block until it closes (so it needs
/// no ring of `look_ahead` items, and `look_ahead` may grow while it
/// runs); the items of a window the input ends in are not written, as in
/// GNU Radio.
///
/// # Parameters
/// [`PeakDetector2Params`].
///
/// # Stream Inputs
/// - `in`: `f32`.
///
/// # Stream Outputs
/// - `out0`: `u8`, 1 on peaks.
/// - `out1`: `f32`, the running average (optional).
///
/// # Usage
/// ```
/// use rfgraph_blocks::math::{PeakDetector2, PeakDetector2Params};
/// let detector = PeakDetector2::new(PeakDetector2Params {
///     threshold: 7.0,
///     look_ahead: 1000,
///     alpha: 0.001,
/// })?;
/// # let _ = detector;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PeakDetector2 {
    input: StreamInput<f32>,
    flags: StreamOutput<u8>,
    average: StreamOutput<f32>,
    params: PeakDetector2Params,
    avg: f32,
    /// The open (or closed, unwritten) window's items, the first the one
    /// that opened it; empty while searching.
    window: Vec<f32>,
    /// The average after each of `window`'s items.
    window_avg: Vec<f32>,
    /// The first largest item of `window`.
    peak: usize,
    /// The window closed: the index of its next item to write.
    closed: Option<usize>,
    /// Items taken from the input already, to search again before the
    /// input (those of a window a change abandoned).
    replay: VecDeque<f32>,
}

impl PeakDetector2 {
    /// A detector with `params`.
    ///
    /// Errors: a parameter out of its range.
    pub fn new(params: PeakDetector2Params) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            flags: StreamOutput::new("out0"),
            average: StreamOutput::optional("out1"),
            params,
            avg: 0.0,
            window: Vec::new(),
            window_avg: Vec::new(),
            peak: 0,
            closed: None,
            replay: VecDeque::new(),
        })
    }

    /// GNU Radio's `invalidate`: an open window is abandoned, and its
    /// items are searched again from its first, with the average as it
    /// was right after that one (GNU Radio never consumed them).
    fn abandon_window(&mut self) {
        if self.window.is_empty() || self.closed.is_some() {
            return;
        }
        self.avg = self.window_avg[0];
        for &x in self.window.iter().rev() {
            self.replay.push_front(x);
        }
        self.window.clear();
        self.window_avg.clear();
    }
}

impl PeakDetector2 {
    /// A new `alpha` while a window is open: GNU Radio waits for the
    /// whole window and weighs its items at once, after the one that
    /// opened it, so those are weighed again here with the new `alpha`,
    /// from the average right after the first. A closed window was
    /// weighed whole before the change, there as here.
    fn reweigh_window(&mut self) {
        if self.window.len() <= 1 || self.closed.is_some() {
            return;
        }
        self.avg = self.window_avg[0];
        for &x in self.window[1..].iter().rev() {
            self.replay.push_front(x);
        }
        self.window.truncate(1);
        self.window_avg.truncate(1);
        self.peak = 0;
    }
}

impl Block for PeakDetector2 {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.flags)
            .output(&mut self.average)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "alpha" {
            self.reweigh_window();
        } else {
            self.abandon_window();
        }
        Ok(())
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let with_avg = self.average.is_connected();
        let mut room = self.flags.free();
        if with_avg {
            room = room.min(self.average.free());
        }
        let (i, f) = (self.input.slice(), self.flags.slice());
        let a: &mut [f32] = if with_avg {
            self.average.slice()
        } else {
            &mut []
        };
        let PeakDetector2Params {
            threshold,
            look_ahead,
            alpha,
        } = self.params;
        let (mut taken, mut written) = (0, 0);
        loop {
            if let Some(from) = self.closed {
                let n = (self.window.len() - from).min(room - written);
                for j in from..from + n {
                    f[written] = u8::from(j == self.peak);
                    if with_avg {
                        a[written] = self.window_avg[j];
                    }
                    written += 1;
                }
                if from + n < self.window.len() {
                    self.closed = Some(from + n);
                    break;
                }
                self.closed = None;
                self.window.clear();
                self.window_avg.clear();
            }
            let searching = self.window.is_empty();
            if searching && written == room {
                break;
            }
            let x = match self.replay.pop_front() {
                Some(x) => x,
                None if taken < i.len() => {
                    taken += 1;
                    i[taken - 1]
                }
                None => break,
            };
            self.avg = alpha * x + (1.0 - alpha) * self.avg;
            if !searching {
                self.window.push(x);
                self.window_avg.push(self.avg);
                if x > self.window[self.peak] {
                    self.peak = self.window.len() - 1;
                }
            } else if x > self.avg * (1.0 + threshold) {
                // This item opens the window, whose search starts with it.
                self.window.push(x);
                self.window_avg.push(self.avg);
                self.peak = 0;
            } else {
                f[written] = 0;
                if with_avg {
                    a[written] = self.avg;
                }
                written += 1;
            }
            if self.window.len() >= look_ahead {
                self.closed = Some(0);
            }
        }
        self.input.consume(taken);
        self.flags.produce(written);
        if with_avg {
            self.average.produce(written);
        }
        // Items taken and not written yet wait for room, not for input:
        // the input finishing must not end the block before they are out.
        if self.closed.is_some() || !self.replay.is_empty() {
            io.in_flight();
        }
        Ok(())
    }
}

/// `peak_detector2`: GNU Radio's `blocks_peak_detector2_fb`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<PeakDetector2Params>(
        "peak_detector2",
        "Peak Detectors",
        "Flags the largest item of a window opened by a rise above the running average.",
        |p| Ok(Box::new(PeakDetector2::new(p)?)),
    )
    .doc("An item above `avg · (1 + threshold)` opens a window of `look_ahead` items; the first largest of them is flagged 1 on `out0`. `out1` (optional) is the running average. All three parameters may change while it runs (GNU Radio's setters): a new `threshold` or `look_ahead` abandons an open window and searches its items again; a new `alpha` weighs the next item, and the items of an open window after its first.")
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out0", PortItem::Fixed(ItemKind::U8)))
    .output(
        PortSpec::new("out1", PortItem::Fixed(ItemKind::F32))
            .optional()
            .doc("optional"),
    )
}
