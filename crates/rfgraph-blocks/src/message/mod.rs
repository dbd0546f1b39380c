//! Message and packet blocks: [`MessageStrobe`] and
//! [`MessageStrobeRandom`], [`MessageDebug`] and [`TagDebug`] (print like
//! GNU Radio), PDUs ([`pdu`], [`PduItem`]) and their operators, tagged
//! streams ([`StreamToTaggedStream`], [`TaggedStreamToPdu`],
//! [`PduToTaggedStream`], [`PduToStream`]), bursts between tags
//! ([`TagsToPdu`]), [`RandomPdu`], [`PduLambda`] (a function the
//! builder compiles, on each PDU), [`VarToMsg`] (a variable's
//! changes as message pairs) and [`MsgPairToVar`] (message pairs setting
//! a variable, through a setter the builder gives). Each
//! registry block holds one parameter struct (`...Params`) whose fields
//! document its parameters.
//! [`gr_string`] writes a value as GNU Radio writes a PMT.

mod debug;
mod display;
mod msgpair_to_var;
mod pdu;
mod pdu_lambda;
mod pdu_set;
mod pdu_tools;
mod random_pdu;
mod strobe;
mod tagged;
mod tagged_mux;
mod tagged_packets;
mod tags_to_pdu;
mod take_skip;
mod var_to_msg;

pub use debug::{
    MessageDebug, MessageDebugParams, TagDebug, TagDebugParams, format_message, format_tags,
};
pub use display::gr_string;
pub use msgpair_to_var::{
    MsgPairToVar, MsgPairToVarParams, VariableSetter, spec_with as msgpair_to_var_spec,
};
pub use pdu::{PduItem, parse, pdu};
pub use pdu_lambda::{
    PduLambda, PduLambdaMode, PduLambdaParams, PmtFunction, PmtFunctionCompiler,
    spec_with as pdu_lambda_spec,
};
pub use pdu_set::{PduSet, PduSetParams};
pub use pdu_tools::{
    AddSystemTime, AddSystemTimeParams, PduFilter, PduFilterParams, PduMap, PduOperator, PduRemove,
    PduRemoveParams, PduRule, PduSplit, PduSplitParams, TimeDelta, TimeDeltaParams,
};
pub use random_pdu::{RandomPdu, RandomPduParams};
pub use strobe::{
    Distribution, Interval, MessageStrobe, MessageStrobeParams, MessageStrobeRandom,
    MessageStrobeRandomParams, Strobe, StrobeParams,
};
pub use tagged::{
    EarlyBehavior, PduToStream, PduToStreamParams, PduToTaggedStream, PduToTaggedStreamParams,
    StreamToTaggedStream, StreamToTaggedStreamParams, TaggedStreamToPdu, TaggedStreamToPduParams,
};
pub use tagged_mux::{
    MultiplyLength, MultiplyLengthParams, TaggedStreamMux, TaggedStreamMuxParams,
};
pub use tags_to_pdu::{TagsPduItem, TagsToPdu, TagsToPduParams};
pub use take_skip::{TakeSkipToPdu, TakeSkipToPduParams};
pub use var_to_msg::{VarToMsg, VarToMsgParams};

pub(crate) use debug::{message_debug_spec, tag_debug_spec};
pub(crate) use pdu_set::spec as pdu_set_spec;
pub(crate) use pdu_tools::{
    add_system_time_spec, filter_spec, remove_spec, split_spec, time_delta_spec,
};
pub(crate) use random_pdu::spec as random_pdu_spec;
pub(crate) use strobe::{strobe_random_spec, strobe_spec};
pub(crate) use tagged::{
    pdu_to_stream_spec, pdu_to_tagged_stream_spec, stream_to_tagged_stream_spec,
    tagged_stream_to_pdu_spec,
};
pub(crate) use tagged_mux::{multiply_length_spec, tagged_stream_mux_spec};
pub(crate) use tagged_packets::PacketIo;
pub(crate) use tags_to_pdu::spec as tags_to_pdu_spec;
pub(crate) use take_skip::spec as take_skip_to_pdu_spec;
pub(crate) use var_to_msg::spec as var_to_msg_spec;
