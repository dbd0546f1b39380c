//! The BER curve generator, GNU Radio's `fec.bercurve_generator`
//! hierarchical block (one `fec_test` chain per Es/N0 point behind one
//! random byte source) as one block, [`BercurveGenerator`]: its
//! parameters, one point's chain ([`BercurveChain`]), the block and its registry
//! entry.

mod block;
mod chain;
mod params;

pub use block::BercurveGenerator;
pub use chain::BercurveChain;
pub use params::{BercurveGeneratorParams, MAX_POINTS};

pub(crate) use block::spec;
