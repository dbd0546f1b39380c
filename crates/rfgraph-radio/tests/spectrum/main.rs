//! The spectrum blocks in flowgraphs: levels and frequencies against
//! theory, and frames that stay whole and labelled on every scheduler.

mod common;
mod frames;
mod levels;
mod reference;
mod waterfall;
