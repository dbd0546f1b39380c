//! ADS-B receiver tests: the real recording (every frame dump1090
//! decodes, nothing whose parity fails, any chunking); generated signals
//! (every frame that must decode does, exactly; positions against the
//! true track; overlaps); the flowgraph (schedulers, random chunk sizes,
//! dump1090's network outputs over loopback); pyModeS agreeing on every
//! decoded field; and property tests on untrusted input.

mod common;
mod flowgraph;
mod generated;
mod props;
mod pymodes;
mod recording;
