//! `dc_blocker` (GNU Radio `dc_blocker_xx`): the input minus its mean over
//! cascaded moving averages of `length` samples (the DC blocker of
//! Yates and Lyons, "DC Blocker Algorithms", IEEE SPM 2008).

use num_complex::Complex32;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, FixedRateKernel, Item, ParamError, ParamSet};
use rfgraph_dsp::sample::Sample;
use std::collections::VecDeque;
use std::ops::Div;

/// The longest moving average.
const MAX_LENGTH: usize = 1 << 20;

/// The parameters of `dc_blocker`, GNU Radio's `dc_blocker_xx`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct DcBlockerParams {
    /// samples per moving average, `D`
    #[param(default = 32, min = 1, max = MAX_LENGTH)]
    pub length: usize,
    /// four averages (a sharper notch, delay 2D − 2) instead of two
    /// (delay D − 1)
    #[param(default = true)]
    pub long_form: bool,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    pub item: ItemKind,
}

/// A sample the DC blocker runs on (`f32`, [`Complex32`]).
pub trait DcSample: Sample + Item + Div<f32, Output = Self> {}
impl DcSample for f32 {}
impl DcSample for Complex32 {}

/// A delay line of `len` samples, zeros at first: `push` returns the
/// sample pushed `len` pushes before.
#[derive(Clone, Debug)]
struct DelayLine<T> {
    line: VecDeque<T>,
}

impl<T: DcSample> DelayLine<T> {
    fn new(len: usize) -> Self {
        Self {
            line: std::iter::repeat_n(T::ZERO, len).collect(),
        }
    }

    #[inline]
    fn push(&mut self, x: T) -> T {
        self.line.push_back(x);
        self.line.pop_front().unwrap_or(x)
    }
}

/// GNU Radio's `moving_averager`: a running sum over `D` samples (kept
/// as `x − x[−D] + sum`, in the sample type), divided by `D`.
#[derive(Clone, Debug)]
struct MovingAverager<T> {
    length: f32,
    line: DelayLine<T>,
    /// The sample leaving the line now (`x[−(D−1)]`), and the one before.
    out: T,
    sum: T,
}

impl<T: DcSample> MovingAverager<T> {
    fn new(length: usize) -> Self {
        Self {
            length: length as f32,
            line: DelayLine::new(length - 1),
            out: T::ZERO,
            sum: T::ZERO,
        }
    }

    #[inline]
    fn filter(&mut self, x: T) -> T {
        let leaving = self.out;
        self.out = self.line.push(x);
        self.sum = x - leaving + self.sum;
        self.sum / self.length
    }

    /// The input delayed by `D − 1` samples.
    fn delayed(&self) -> T {
        self.out
    }
}

/// The arithmetic of [`DcBlocker`].
pub struct DcBlockerKernel<T: DcSample> {
    params: DcBlockerParams,
    averages: Vec<MovingAverager<T>>,
    /// The long form's extra delay of `D − 1`.
    delay: Option<DelayLine<T>>,
}

impl<T: DcSample> DcBlockerKernel<T> {
    #[inline]
    fn block(&mut self, x: T) -> T {
        let mean = self.averages.iter_mut().fold(x, |y, ma| ma.filter(y));
        let delayed = self.averages[0].delayed();
        match &mut self.delay {
            Some(line) => line.push(delayed) - mean,
            None => delayed - mean,
        }
    }
}

impl<T: DcSample> FixedRateKernel for DcBlockerKernel<T> {
    type In = T;
    type Out = T;

    fn process(&mut self, input: &[T], output: &mut [T]) {
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.block(x);
        }
    }

    fn supports_in_place(&self) -> bool {
        true
    }

    fn process_in_place(&mut self, data: &mut [T]) {
        for x in data {
            *x = self.block(*x);
        }
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }
}

/// The block [`dc_blocker`] builds.
pub type DcBlocker<T> = FixedRateBlock<DcBlockerKernel<T>>;

/// GNU Radio's `dc_blocker_cc` / `_ff`, value for value: the input
/// delayed by the averages' group delay, minus its mean through two
/// cascaded moving averages of `length` samples (delay `D − 1`), or four
/// with `long_form` (delay `2D − 2`, the input delayed by `D − 1` twice).
/// Each average keeps a running sum in the sample type, as GNU Radio's,
/// so the rounding is GNU Radio's too.
///
/// # Parameters
/// [`DcBlockerParams`]; `T` is the item type.
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`)
///
/// # Stream Outputs
/// - `out`: `T`
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::analog::{DcBlockerParams, dc_blocker};
/// let blocker = dc_blocker::<Complex32>(DcBlockerParams {
///     length: 64,
///     ..Default::default()
/// })?;
/// # let _ = blocker;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub fn dc_blocker<T: DcSample>(params: DcBlockerParams) -> Result<DcBlocker<T>, ParamError> {
    params.validate()?;
    let d = params.length;
    let stages = if params.long_form { 4 } else { 2 };
    FixedRateBlock::new(DcBlockerKernel {
        averages: (0..stages).map(|_| MovingAverager::new(d)).collect(),
        delay: params.long_form.then(|| DelayLine::new(d - 1)),
        params,
    })
}

pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<DcBlockerParams>(
        "dc_blocker",
        "Filters",
        "DC blocker: the input minus cascaded moving averages of `length` samples.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { C32 => Complex32, F32 => f32 } as T
                => dc_blocker::<T>(p)?)
        },
    )
    .doc(
        "GNU Radio's `dc_blocker_cc` / `_ff` (`dc_blocker_xx`), value for value: `out = \
         x[n − (D−1)] − MA(MA(x))` with two moving averages of `length` = D samples, or with \
         `long_form` `x[n − 2(D−1)] − MA(MA(MA(MA(x))))` (a flatter passband); group delay \
         D − 1 or 2D − 2. Each average keeps its running sum in the sample type, as GNU \
         Radio's does.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
