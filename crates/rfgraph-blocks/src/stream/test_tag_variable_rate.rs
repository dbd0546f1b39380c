//! `test_tag_variable_rate`: GNU Radio's test block for tags through a
//! block of varying rate (`blocks_test_tag_variable_rate_ff`): it keeps
//! items at a rate that walks randomly, from GNU Radio's own generator
//! and seed, so its output matches GNU Radio's item for item.

use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, Tag, TagPolicy, WorkIo,
};

/// The parameters of [`TestTagVariableRate`] (`test_tag_variable_rate`,
/// GNU Radio's `blocks_test_tag_variable_rate_ff`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct TestTagVariableRateParams {
    /// step the rate once per call instead of once per item (then the
    /// output depends on how the scheduler splits the stream, in GNU
    /// Radio as here)
    #[param(default = false, alias = "once")]
    pub update_once: bool,
    /// how far the rate moves up or down at each step
    #[param(default = 0.001, alias = "step", min = 0.0)]
    pub update_step: f64,
}

/// GNU Radio's `xoroshiro128+` (`gnuradio/xoroshiro128p.h`), seeded as
/// it seeds it: the second word is SplitMix64's output from the first,
/// whose state step lands in the first word, then the jump.
#[derive(Clone, Debug)]
pub(crate) struct Xoroshiro128p([u64; 2]);

impl Xoroshiro128p {
    pub(crate) fn new(seed: u64) -> Self {
        let mut first = seed;
        let second = crate::generate::rng::splitmix64(&mut first);
        let mut rng = Self([first, second]);
        rng.jump();
        rng
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        let [s0, mut s1] = self.0;
        let result = s0.wrapping_add(s1);
        s1 ^= s0;
        self.0 = [s0.rotate_left(55) ^ s1 ^ (s1 << 14), s1.rotate_left(36)];
        result
    }

    fn jump(&mut self) {
        const JUMP: [u64; 2] = [0xbeac_0467_eba5_facb, 0xd86b_048b_86aa_9922];
        let (mut s0, mut s1) = (0, 0);
        for word in JUMP {
            for b in 0..64 {
                if word & (1 << b) != 0 {
                    s0 ^= self.0[0];
                    s1 ^= self.0[1];
                }
                self.next_u64();
            }
        }
        self.0 = [s0, s1];
    }
}

/// Keeps input items at a rate that starts at 1/2 and walks by
/// `update_step` up or down (never below one step) on each draw of GNU
/// Radio's generator (seed 4, as GNU Radio's): an item is kept whenever
/// the accumulated rate reaches 1. Tags move as GNU Radio moves them: the
/// tags from one kept item's input up to the next kept item's go to the
/// first of the two kept items.
///
/// GNU Radio puts those tags on an item it wrote in an earlier call when
/// that item was the last of the call (where a downstream block may
/// already have read past it); this block holds its last kept item back
/// until the next is known, so every tag arrives. With `update_once`
/// the rate steps once per call, as GNU Radio's does per `general_work`:
/// the output then depends on how the stream is split into calls.
///
/// # Parameters
/// [`TestTagVariableRateParams`].
///
/// # Stream Inputs
/// - `in`: `f32`.
///
/// # Stream Outputs
/// - `out`: `f32`, the kept items.
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::{TestTagVariableRate, TestTagVariableRateParams};
/// let block = TestTagVariableRate::new(TestTagVariableRateParams::default())?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct TestTagVariableRate {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    params: TestTagVariableRateParams,
    rng: Xoroshiro128p,
    rate: f64,
    accum: f64,
    /// Input index of the last kept item (`d_old_in`).
    old_in: u64,
    /// Input tags at or after `old_in`, not yet placed.
    held: Vec<Tag>,
    /// The last kept item and its tags, not yet written.
    pending: Option<(f32, Vec<Tag>)>,
}

impl TestTagVariableRate {
    /// The block `params` describe.
    ///
    /// Errors: a negative step.
    pub fn new(params: TestTagVariableRateParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            rng: Xoroshiro128p::new(4),
            rate: 0.5,
            accum: 0.0,
            old_in: 0,
            held: Vec::new(),
            pending: None,
        })
    }

    /// One draw: the rate up or down a step.
    fn step_rate(&mut self) {
        let step = self.params.update_step;
        if self.rng.next_u64() > u64::MAX / 2 {
            self.rate += step;
        } else {
            self.rate -= step;
            if self.rate < step {
                self.rate = step;
            }
        }
    }

    /// Writes `item` with `tags` at `out[at]`.
    fn emit(output: &mut StreamOutput<f32>, at: usize, item: f32, tags: Vec<Tag>) {
        output.slice()[at] = item;
        for t in tags {
            output.add_tag(at, &t.key, t.value);
        }
    }
}

impl Block for TestTagVariableRate {
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
        let start = self.input.position();
        // Each input item keeps at most one: room for as many as taken.
        let n = self.input.slice().len().min(self.output.slice().len());
        let mut written = 0;
        if n > 0 {
            if self.params.update_once {
                self.step_rate();
            }
            let end = start + n as u64;
            self.held.extend(
                self.input
                    .tags()
                    .into_iter()
                    .filter(|t| t.index >= start && t.index < end),
            );
            for i in 0..n {
                if !self.params.update_once {
                    self.step_rate();
                }
                self.accum += self.rate;
                if self.accum >= 1.0 {
                    let new_in = start + i as u64;
                    let (old_in, item) = (self.old_in, self.input.slice()[i]);
                    let (moved, kept): (Vec<Tag>, Vec<Tag>) = std::mem::take(&mut self.held)
                        .into_iter()
                        .partition(|t| t.index >= old_in && t.index < new_in);
                    self.held = kept;
                    match self.pending.take() {
                        // The first kept item takes the tags before it.
                        None => self.pending = Some((item, moved)),
                        Some((last, mut tags)) => {
                            tags.extend(moved);
                            Self::emit(&mut self.output, written, last, tags);
                            written += 1;
                            self.pending = Some((item, Vec::new()));
                        }
                    }
                    self.old_in = new_in;
                    self.accum -= 1.0;
                }
            }
            self.input.consume(n);
        }
        if self.input.is_finished()
            && let Some((last, tags)) = self.pending.take()
        {
            if written < self.output.slice().len() {
                Self::emit(&mut self.output, written, last, tags);
                written += 1;
            } else {
                self.pending = Some((last, tags));
                io.in_flight();
            }
        }
        self.output.produce(written);
        Ok(())
    }
}

/// `test_tag_variable_rate`: GNU Radio's `blocks_test_tag_variable_rate_ff`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<TestTagVariableRateParams>(
        "test_tag_variable_rate",
        "Stream Tag Tools",
        "Keeps items at a randomly walking rate, moving their tags (a test block).",
        |p| Ok(Box::new(TestTagVariableRate::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `blocks_test_tag_variable_rate_ff`: keeps an input item whenever the \
         accumulated rate reaches 1, the rate starting at 1/2 and moving `update_step` up \
         or down on each draw of GNU Radio's own generator and seed (per item, or with \
         `update_once` per call, which makes the output depend on how the stream is split). \
         The tags between two kept items' inputs go to the first of them.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_matches_the_reference_xoroshiro128plus() {
        // Vigna's xoroshiro128+ from state {1, 2}: 1 + 2, then the next.
        let mut rng = Xoroshiro128p([1, 2]);
        assert_eq!(rng.next_u64(), 3);
        let s1 = 2u64 ^ 1;
        let state = [1u64.rotate_left(55) ^ s1 ^ (s1 << 14), s1.rotate_left(36)];
        assert_eq!(rng.next_u64(), state[0].wrapping_add(state[1]));
    }
}
