//! `burst_shaper`: ramps, phasing symbols and zero padding around each
//! tagged burst (GNU Radio `digital_burst_shaper_cc` / `_ff`).

use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, Tag,
    TagPolicy, WorkIo,
};
use std::collections::VecDeque;

/// The parameters of [`BurstShaper`] (`burst_shaper`, GNU Radio's
/// `digital_burst_shaper_xx`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct BurstShaperParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    pub item: ItemKind,
    /// the window: its first half (rounded up) ramps a burst up, its
    /// last half (rounded up) ramps it down; real numbers, or `[re, im]`
    /// pairs for complex items
    #[param(default = Vec::new(), max_len = limits::MAX_TAPS, alias = "taps")]
    pub window: Vec<Complex32>,
    /// zeros before each burst
    #[param(default = 0, max = u32::MAX as u64, unit = "items")]
    pub pre_padding: u64,
    /// zeros after each burst
    #[param(default = 0, max = u32::MAX as u64, unit = "items")]
    pub post_padding: u64,
    /// ramp ±1 symbols (alternating, shaped by the window) up before and
    /// down after the burst instead of ramping its own first and last
    /// items
    #[param(default = false)]
    pub insert_phasing: bool,
    /// the key of the length tags that mark the bursts
    #[param(default = "packet_len", max_len = 4096)]
    pub length_tag_name: String,
}

impl BurstShaperParams {
    fn check(&self) -> Result<(), ParamError> {
        if self.item == ItemKind::F32 && self.window.iter().any(|t| t.im != 0.0) {
            return Err(ParamError::new(
                "burst_shaper",
                "window",
                "complex taps need complex items (`type = \"c32\"`)",
            ));
        }
        Ok(())
    }
}

/// An item type the shaper works on: `f32` or `Complex32`.
pub trait ShaperItem: Item + std::ops::Mul<Output = Self> {
    /// A window tap as an item (a real item takes the real part).
    fn from_tap(tap: Complex32) -> Self;
    /// Zero.
    fn zero() -> Self;
}

impl ShaperItem for f32 {
    fn from_tap(tap: Complex32) -> Self {
        tap.re
    }
    fn zero() -> Self {
        0.0
    }
}

impl ShaperItem for Complex32 {
    fn from_tap(tap: Complex32) -> Self {
        tap
    }
    fn zero() -> Self {
        Complex32::new(0.0, 0.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Wait,
    Prepad,
    RampUp,
    Copy,
    RampDown,
    Postpad,
}

/// Shapes each burst of its input for transmission, as GNU Radio's
/// `burst_shaper`: a burst starts at a length tag (`length_tag_name`,
/// its value the burst's length); items between bursts are dropped.
/// Each burst goes out as `pre_padding` zeros, the burst with its first
/// and last items multiplied by the window's halves (or, with
/// `insert_phasing`, the burst unchanged between ±1 symbols shaped by
/// the halves), then `post_padding` zeros, with a length tag of the
/// whole on its first item. Other tags go with their items; those on
/// the burst's first item move to its padded start.
///
/// A burst shorter than the window ramps only `len / 2` items at each
/// end, with the first taps of each half, as GNU Radio does. A length
/// tag whose value is not a non-negative integer fails the run.
///
/// # Parameters
/// [`BurstShaperParams`].
///
/// # Stream Inputs
/// - `in`: `T` (`f32` or `Complex32`), bursts behind length tags.
///
/// # Stream Outputs
/// - `out`: `T`, the shaped bursts behind new length tags.
///
/// # Usage
/// ```
/// use num_complex::Complex32;
/// use rfgraph_blocks::digital::{BurstShaper, BurstShaperParams};
/// let shaper = BurstShaper::<Complex32>::new(BurstShaperParams {
///     window: vec![Complex32::new(0.5, 0.0); 4],
///     pre_padding: 10,
///     post_padding: 10,
///     ..Default::default()
/// })?;
/// # let _ = shaper;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct BurstShaper<T: ShaperItem> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: BurstShaperParams,
    up: Vec<T>,
    down: Vec<T>,
    up_phasing: Vec<T>,
    down_phasing: Vec<T>,
    state: State,
    /// The burst's length (`d_ncopy`).
    ncopy: u64,
    limit: u64,
    index: u64,
    /// The item of the burst's length tag.
    tag_at: u64,
}

impl<T: ShaperItem> BurstShaper<T> {
    /// A shaper with `params` (the item type is `T`'s).
    ///
    /// Errors: complex taps for real items, a window or padding too long.
    pub fn new(mut params: BurstShaperParams) -> Result<Self, ParamError> {
        params.item = if std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>() {
            ItemKind::F32
        } else {
            ItemKind::C32
        };
        params.validate()?;
        let taps: Vec<T> = params.window.iter().map(|&t| T::from_tap(t)).collect();
        let n = taps.len();
        let up = taps[..n / 2 + n % 2].to_vec();
        let down = taps[n / 2..].to_vec();
        let sign = |i: usize| {
            T::from_tap(Complex32::new(
                if i.is_multiple_of(2) { 1.0 } else { -1.0 },
                0.0,
            ))
        };
        let up_phasing = up.iter().enumerate().map(|(i, &t)| sign(i) * t).collect();
        let down_phasing = down.iter().enumerate().map(|(i, &t)| sign(i) * t).collect();
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            up,
            down,
            up_phasing,
            down_phasing,
            state: State::Wait,
            ncopy: 0,
            limit: 0,
            index: 0,
            tag_at: 0,
        })
    }

    fn phasing(&self) -> bool {
        self.params.insert_phasing
    }

    /// Items before the burst's own (GNU Radio's `prefix_length`).
    fn prefix(&self) -> u64 {
        self.params.pre_padding
            + if self.phasing() {
                self.up.len() as u64
            } else {
                0
            }
    }

    /// Items after the burst's own (`suffix_length`).
    fn suffix(&self) -> u64 {
        self.params.post_padding
            + if self.phasing() {
                self.down.len() as u64
            } else {
                0
            }
    }

    fn enter(&mut self, state: State) {
        let (up, down) = (self.up.len() as u64, self.down.len() as u64);
        let half = self.ncopy / 2;
        self.limit = match state {
            State::Wait => 0,
            State::Prepad => self.params.pre_padding,
            State::RampUp if self.phasing() => up,
            State::RampUp => half.min(up),
            State::Copy if self.phasing() => self.ncopy,
            State::Copy => self.ncopy - (half * 2).min(up + down),
            State::RampDown if self.phasing() => down,
            State::RampDown => half.min(down),
            State::Postpad => self.params.post_padding,
        };
        self.index = 0;
        self.state = state;
    }

    /// Whether the state reads input items.
    fn reads_input(&self) -> bool {
        !matches!(self.state, State::RampDown | State::Postpad)
            || (self.state == State::RampDown && !self.phasing())
    }

    /// GNU Radio's `general_work` on what the ports show: at most one
    /// burst ends per call. Returns whether anything moved.
    fn step(&mut self) -> Result<bool, BoxError> {
        let start = self.input.position();
        let nin = self.input.slice().len() as u64;
        let nout = self.output.slice().len() as u64;
        let tags = self.input.tags();
        let key = self.params.length_tag_name.clone();
        let mut lengths: VecDeque<Tag> = tags
            .iter()
            .filter(|t| t.key == key && t.index >= start && t.index < start + nin)
            .cloned()
            .collect();
        let others: Vec<&Tag> = tags.iter().filter(|t| t.key != key).collect();
        let (mut nread, mut nwritten) = (0u64, 0u64);
        let mut finished = false;
        // Tags of input items [from, from + count) to output offset `to`.
        let propagate = |output: &StreamOutput<T>, from: u64, to: u64, count: u64, skip: u64| {
            for t in &others {
                let i = t.index;
                if i >= start + from && i < start + from + count && i != skip {
                    output.add_tag((to + i - start - from) as usize, &t.key, t.value.clone());
                }
            }
        };
        while nwritten < nout {
            if self.reads_input() && nread >= nin {
                break;
            }
            if finished {
                break;
            }
            let space = nout - nwritten;
            match self.state {
                State::Wait => {
                    let skip_to = match lengths.pop_front() {
                        Some(tag) => {
                            self.ncopy = match tag.value {
                                Pmt::I64(v) if v >= 0 => v as u64,
                                Pmt::U64(v) if v <= i64::MAX as u64 => v,
                                ref v => {
                                    return Err(format!(
                                        "burst_shaper: a `{key}` tag of {v:?} is no length"
                                    )
                                    .into());
                                }
                            };
                            self.tag_at = tag.index;
                            let at = tag.index - start;
                            let total = self.ncopy + self.prefix() + self.suffix();
                            self.output.add_tag(
                                nwritten as usize,
                                &key,
                                Pmt::I64(i64::try_from(total).unwrap_or(i64::MAX)),
                            );
                            propagate(&self.output, at, nwritten, 1, u64::MAX);
                            self.enter(State::Prepad);
                            at
                        }
                        None => nin,
                    };
                    // Items before the burst are dropped.
                    nread = nread.max(skip_to);
                }
                State::Prepad | State::Postpad => {
                    let k = (self.limit - self.index).min(space);
                    let o = self.output.slice();
                    o[nwritten as usize..(nwritten + k) as usize].fill(T::zero());
                    nwritten += k;
                    self.index += k;
                    if self.index == self.limit {
                        if self.state == State::Prepad {
                            self.enter(State::RampUp);
                        } else {
                            self.enter(State::Wait);
                            finished = true;
                        }
                    }
                }
                State::RampUp | State::RampDown => {
                    let up = self.state == State::RampUp;
                    let mut k = (self.limit - self.index).min(space);
                    let (from, to) = (self.index as usize, nwritten as usize);
                    if self.phasing() {
                        let taps = if up {
                            &self.up_phasing
                        } else {
                            &self.down_phasing
                        };
                        let o = self.output.slice();
                        o[to..to + k as usize].copy_from_slice(&taps[from..from + k as usize]);
                    } else {
                        k = k.min(nin - nread);
                        propagate(&self.output, nread, nwritten, k, self.tag_at);
                        let taps = if up { &self.up } else { &self.down };
                        let i = &self.input.slice()[nread as usize..(nread + k) as usize];
                        let o = self.output.slice();
                        for ((o, &x), &t) in o[to..to + k as usize]
                            .iter_mut()
                            .zip(i)
                            .zip(&taps[from..from + k as usize])
                        {
                            *o = x * t;
                        }
                        nread += k;
                    }
                    nwritten += k;
                    self.index += k;
                    if self.index == self.limit {
                        self.enter(if up { State::Copy } else { State::Postpad });
                    }
                }
                State::Copy => {
                    let k = (self.limit - self.index).min(space).min(nin - nread);
                    propagate(&self.output, nread, nwritten, k, self.tag_at);
                    let i = &self.input.slice()[nread as usize..(nread + k) as usize];
                    let o = self.output.slice();
                    o[nwritten as usize..(nwritten + k) as usize].copy_from_slice(i);
                    nread += k;
                    nwritten += k;
                    self.index += k;
                    if self.index == self.limit {
                        self.enter(State::RampDown);
                    }
                }
            }
        }
        self.input.consume(nread as usize);
        self.output.produce(nwritten as usize);
        Ok(nread > 0 || nwritten > 0)
    }
}

impl<T: ShaperItem> Block for BurstShaper<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        while self.step()? {}
        // Padding and phasing symbols need no input: the input ending must
        // not end the block before they are out.
        if self.state != State::Wait && !self.reads_input() {
            io.in_flight();
        }
        Ok(())
    }
}

/// `burst_shaper`: GNU Radio's `digital_burst_shaper_xx`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<BurstShaperParams>(
        "burst_shaper",
        "Digital",
        "Ramps, phasing symbols and zero padding around tagged bursts.",
        |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => Complex32 } as T => {
                BurstShaper::<T>::new(p)?
            })
        },
    )
    .doc(
        "GNU Radio's `digital_burst_shaper_cc`/`_ff`: each burst (a length tag `length_tag_name` \
         and the items it counts; items between bursts are dropped) goes out as \
         `pre_padding` zeros, the burst with its first and last items multiplied by the \
         window's first and last halves (rounded up; or, with `insert_phasing`, the \
         burst unchanged between alternating ±1 symbols shaped by the halves), and \
         `post_padding` zeros, behind a length tag of the total. Other tags go with their \
         items; those on the burst's first item move to its padded start.",
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
