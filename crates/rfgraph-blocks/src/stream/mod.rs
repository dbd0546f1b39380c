//! Stream operators and simple sources: [`ConstSource`], [`Delay`],
//! [`SkipHead`], [`KeepMInN`], [`KeepOneInN`], [`MatrixInterleaver`],
//! [`Repeat`], [`StreamMux`]/[`StreamDemux`] (also `interleave`,
//! `deinterleave`), [`Selector`], and the identities `stream_to_vector`
//! and `vector_to_stream`; [`TagGate`], [`TagsStrobe`], [`BurstTagger`]
//! add or remove tags; [`TestTagVariableRate`] (GNU Radio's test block)
//! moves them through a varying rate; [`ProbeSignal`] keeps the last item. Blocks whose items move irregularly move their
//! tags by hand (`tags`).

mod const_source;
mod delay;
mod identity;
mod mux;
mod probe;
mod rate;
mod regroup;
mod selector;
mod skiphead;
mod tagging;
mod tags;
mod test_tag_variable_rate;

pub use const_source::{ConstSource, ConstSourceParams};
pub use delay::{Delay, DelayParams};
pub use identity::VectorIdentityParams;
pub use mux::{
    InterleaveParams, JoinParams, PatternParams, StreamDemux, StreamMux, StreamMuxParams,
};
pub use probe::{ProbeSignal, ProbeSignalParams};
pub use rate::{
    KeepMInN, KeepMInNParams, KeepOneInN, KeepOneInNParams, MatrixInterleaver,
    MatrixInterleaverParams, Repeat, RepeatParams,
};
pub use regroup::{Groups, Regrouped};
pub use selector::{Selector, SelectorParams};
pub use skiphead::{SkipHead, SkipHeadParams};
pub use tagging::{
    BurstTagger, BurstTaggerParams, TagGate, TagGateParams, TagsStrobe, TagsStrobeParams,
};
pub use test_tag_variable_rate::{TestTagVariableRate, TestTagVariableRateParams};

pub(crate) use const_source::spec as const_source_spec;
pub(crate) use delay::spec as delay_spec;
pub(crate) use identity::{stream_to_vector_spec, vector_to_stream_spec};
pub(crate) use mux::{
    deinterleave_spec, interleave_spec, patterned_interleaver_spec, stream_demux_spec,
    stream_mux_spec, stream_to_streams_spec, streams_to_stream_spec, streams_to_vector_spec,
    vector_to_streams_spec,
};
pub(crate) use probe::spec as probe_signal_spec;
pub(crate) use rate::{keep_m_in_n_spec, keep_one_in_n_spec, matrix_interleaver_spec, repeat_spec};
pub(crate) use selector::spec as selector_spec;
pub(crate) use skiphead::spec as skiphead_spec;
pub(crate) use tagging::{burst_tagger_spec, tag_gate_spec, tags_strobe_spec};
pub(crate) use tags::pass_through;
pub(crate) use test_tag_variable_rate::spec as test_tag_variable_rate_spec;
