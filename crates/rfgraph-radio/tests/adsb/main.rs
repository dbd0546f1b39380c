//! ADS-B receiver tests: the real recording (every frame dump1090
//! decodes, nothing whose parity fails, any chunking); generated signals
//! (every frame that must decode does, exactly; positions against the
//! true track; overlaps); the flowgraph (schedulers, random chunk sizes,
//! dump1090's network outputs over loopback); the vectorised stages'
//! AVX2 and scalar builds agreeing on every scheduler; pyModeS agreeing on every
//! decoded field, on every frame the generator makes, and on every fact
//! of the shipped example's expected output; and property tests on
//! untrusted input.

mod common;
mod example;
mod flowgraph;
mod generated;
mod generator;
mod props;
mod pymodes;
mod recording;
mod simd;
#[path = "../common/watchdog.rs"]
mod watchdog;
