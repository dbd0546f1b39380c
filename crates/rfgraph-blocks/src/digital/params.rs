//! What the digital, analog and channel blocks' parameter declarations
//! share: the bit order of the bit blocks as a parameter choice, and the
//! translation of an `rfgraph-dsp` error into one naming the parameter.

use rfgraph::ParamError;
use rfgraph_dsp::DspError;
use rfgraph_dsp::digital::Endianness;

/// Which end of a word is read or written first: the `endianness`
/// parameter of the bit blocks. GNU Radio's `gr.GR_MSB_FIRST` and
/// `gr.GR_LSB_FIRST` parse too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, rfgraph::ParamChoice)]
pub enum BitOrder {
    /// Most significant bit first.
    #[choice(alias = "msb_first", alias = "gr_msb_first", alias = "gr.gr_msb_first")]
    Msb,
    /// Least significant bit first.
    #[choice(alias = "lsb_first", alias = "gr_lsb_first", alias = "gr.gr_lsb_first")]
    Lsb,
}

impl From<BitOrder> for Endianness {
    fn from(order: BitOrder) -> Self {
        match order {
            BitOrder::Msb => Endianness::MsbFirst,
            BitOrder::Lsb => Endianness::LsbFirst,
        }
    }
}

/// A kernel's refusal as an error of `block`'s parameter: the one the
/// error names when `rename` knows it (kernels name some parameters
/// differently), else `fallback`.
pub(crate) fn dsp_error(
    block: &'static str,
    fallback: &'static str,
    rename: &[(&str, &'static str)],
) -> impl Fn(DspError) -> ParamError {
    let rename: Vec<(String, &'static str)> =
        rename.iter().map(|&(k, v)| (k.to_string(), v)).collect();
    move |e: DspError| {
        let param = e
            .param()
            .and_then(|p| rename.iter().find(|(k, _)| k == p).map(|&(_, v)| v))
            .unwrap_or(fallback);
        ParamError::new(block, param, e.to_string())
    }
}

/// What a [`ParamMap`] does to each item, with the state it keeps (a
/// decision table, a differential coder's last symbol).
pub trait ItemStep: Send + 'static {
    /// The input item.
    type In: rfgraph::Item;
    /// The output item.
    type Out: rfgraph::Item;
    /// True when input and output are one type and
    /// [`step_in_place`](Self::step_in_place) works.
    const IN_PLACE: bool = false;
    /// The output for `x`.
    fn step(&mut self, x: Self::In) -> Self::Out;
    /// Replaces every item of `data` by its output (only called when
    /// [`IN_PLACE`](Self::IN_PLACE)).
    fn step_in_place(&mut self, _data: &mut [Self::In]) {}
}

/// A 1:1 kernel: an [`ItemStep`] `S` made from the block's declared
/// parameters `P`, which it carries (so the registry, the handle and the
/// control port read them from the block).
pub struct ParamMap<P, S> {
    params: P,
    state: S,
}

impl<P: rfgraph::ParamSet, S: ItemStep> ParamMap<P, S> {
    /// The block stepping `state`, made from `params`.
    pub(crate) fn block(params: P, state: S) -> Result<rfgraph::FixedRateBlock<Self>, ParamError> {
        rfgraph::FixedRateBlock::new(Self { params, state })
    }

    /// The parameters.
    pub fn params(&self) -> &P {
        &self.params
    }
}

impl<P: rfgraph::ParamSet, S: ItemStep> rfgraph::FixedRateKernel for ParamMap<P, S> {
    type In = S::In;
    type Out = S::Out;

    fn process(&mut self, input: &[S::In], output: &mut [S::Out]) {
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.state.step(x);
        }
    }

    fn supports_in_place(&self) -> bool {
        S::IN_PLACE
    }

    fn process_in_place(&mut self, data: &mut [S::In]) {
        self.state.step_in_place(data);
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::ParamSet> {
        Some(&mut self.params)
    }
}
