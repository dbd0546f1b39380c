//! ADS-B receiver tests on generated signals (frames, positions, CPR
//! against the aircraft's true track, overlaps) and on flowgraphs
//! (schedulers, chunking, network outputs).

mod common;
mod flowgraph;
mod generated;
mod props;
mod pymodes;
mod recording;
