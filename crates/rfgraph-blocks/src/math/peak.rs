//! [`PeakDetector2`]: flags the largest item of a window that starts
//! where the input rises above its running average (GNU Radio's
//! `peak_detector2_fb`), with its registry entry.

use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, WorkIo};

/// Tracks a one-pole average `avg = alpha·x + (1 − alpha)·avg` of the
/// input; an item above `avg · (1 + threshold)` opens a window of
/// `look_ahead` items (itself the first), and the window's first largest
/// item gets a 1 on `out0` (every other item a 0). The search then starts
/// again after the window. `out1`, optional, carries the average.
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
/// use rfgraph_blocks::math::PeakDetector2;
/// let detector = PeakDetector2::new(7.0, 1000, 0.001)?;
/// # let _ = detector;
/// # Ok::<(), String>(())
/// ```
pub struct PeakDetector2 {
    input: StreamInput<f32>,
    flags: StreamOutput<u8>,
    average: StreamOutput<f32>,
    threshold: f32,
    look_ahead: usize,
    alpha: f32,
    avg: f32,
    /// In a window: its first item's average is computed already.
    found: bool,
}

impl PeakDetector2 {
    /// A detector rising at `threshold`, looking `look_ahead` items ahead,
    /// averaging with `alpha`.
    ///
    /// Errors: a `look_ahead` of 0.
    pub fn new(threshold: f32, look_ahead: usize, alpha: f32) -> Result<Self, String> {
        if look_ahead == 0 {
            return Err("look_ahead must be at least 1".into());
        }
        Ok(Self {
            input: StreamInput::new("in").with_min_items(look_ahead),
            flags: StreamOutput::new("out0").with_min_items(look_ahead),
            average: StreamOutput::optional("out1").with_min_items(look_ahead),
            threshold,
            look_ahead,
            alpha,
            avg: 0.0,
            found: false,
        })
    }
}

impl Block for PeakDetector2 {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.flags)
            .output(&mut self.average)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let with_avg = self.average.is_connected();
        let mut room = self.input.available().min(self.flags.free());
        if with_avg {
            room = room.min(self.average.free());
        }
        let (i, f) = (self.input.slice(), self.flags.slice());
        let a: &mut [f32] = if with_avg {
            self.average.slice()
        } else {
            &mut []
        };
        let mut k = 0;
        while k < room {
            if !self.found {
                let x = i[k];
                self.avg = self.alpha * x + (1.0 - self.alpha) * self.avg;
                f[k] = 0;
                if with_avg {
                    a[k] = self.avg;
                }
                if x > self.avg * (1.0 + self.threshold) {
                    // This item opens the window, whose search starts
                    // with it (its average is taken already).
                    self.found = true;
                    continue;
                }
                k += 1;
            } else {
                if room - k < self.look_ahead {
                    break;
                }
                let window = &i[k..k + self.look_ahead];
                let mut peak = 0;
                for (j, &x) in window.iter().enumerate().skip(1) {
                    self.avg = self.alpha * x + (1.0 - self.alpha) * self.avg;
                    if with_avg {
                        a[k + j] = self.avg;
                    }
                    if x > window[peak] {
                        peak = j;
                    }
                }
                f[k..k + self.look_ahead].fill(0);
                f[k + peak] = 1;
                k += self.look_ahead;
                self.found = false;
            }
        }
        self.input.consume(k);
        self.flags.produce(k);
        if with_avg {
            self.average.produce(k);
        }
        Ok(())
    }
}

/// `peak_detector2`: GNU Radio's `blocks_peak_detector2_fb`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::new(
        "peak_detector2",
        "Peak Detectors",
        "Flags the largest item of a window opened by a rise above the running average.",
        |p: &Params| {
            let d = PeakDetector2::new(p.f32("threshold")?, p.usize("look_ahead")?, p.f32("alpha")?)
                .map_err(|e| p.refused(e))?;
            Ok(Box::new(d))
        },
    )
    .doc("An item above `avg · (1 + threshold)` opens a window of `look_ahead` items; the first largest of them is flagged 1 on `out0`. `out1` (optional) is the running average.")
    .param(ParamSpec::float("threshold").default(7.0).doc("rise factor over the average"))
    .param(ParamSpec::uint("look_ahead").default(1000u64).unit("items").doc("window length"))
    .param(ParamSpec::float("alpha").default(0.001).doc("averaging weight"))
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out0", PortItem::Fixed(ItemKind::U8)))
    .output(
        PortSpec::new("out1", PortItem::Fixed(ItemKind::F32))
            .optional()
            .doc("optional"),
    )
}
