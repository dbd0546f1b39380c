//! Message and packet blocks: [`MessageStrobe`] (periodic or random),
//! [`MessageDebug`] and [`TagDebug`] (print like GNU Radio), PDUs
//! ([`pdu`], [`PduItem`]) and tagged streams ([`StreamToTaggedStream`],
//! [`TaggedStreamToPdu`], [`PduToTaggedStream`]), and [`RandomPdu`].
//! [`gr_string`] writes a value as GNU Radio writes a PMT.

mod debug;
mod display;
mod pdu;
mod pdu_set;
mod pdu_tools;
mod random_pdu;
mod strobe;
mod tagged;
mod tagged_mux;
mod take_skip;

pub use debug::{MessageDebug, TagDebug, format_message, format_tags};
pub use display::gr_string;
pub use pdu::{PduItem, parse, pdu};
pub use pdu_set::PduSet;
pub use pdu_tools::{PduMap, PduSplit};
pub use random_pdu::RandomPdu;
pub use strobe::{Interval, MessageStrobe};
pub use tagged::{PduToTaggedStream, StreamToTaggedStream, TaggedStreamToPdu};
pub use tagged_mux::TaggedStreamMux;
pub use take_skip::TakeSkipToPdu;

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
pub(crate) use take_skip::spec as take_skip_to_pdu_spec;
