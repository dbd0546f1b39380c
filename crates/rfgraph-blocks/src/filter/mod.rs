//! Filter-bank blocks: GNU Radio's polyphase channelizers
//! (`pfb_channelizer_ccf` and the Python `pfb_channelizer_hier_ccf`),
//! one complex stream in, a stream per channel out. Owns their
//! parameters, default prototype filters and registry specs; the
//! arithmetic is `rfgraph_dsp::channelizer`'s.

mod block;
mod channelizer_hier;
mod pfb_channelizer;
mod prototype;

pub use block::{Channelize, ChannelizerBlock};
pub use channelizer_hier::{PfbChannelizerHierParams, pfb_channelizer_hier};
pub use pfb_channelizer::{PfbChannelizerParams, pfb_channelizer};

pub(crate) use channelizer_hier::spec as pfb_channelizer_hier_spec;
pub(crate) use pfb_channelizer::spec as pfb_channelizer_spec;
