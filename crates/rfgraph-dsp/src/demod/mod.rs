//! Demodulators: FM (quadrature discriminator and de-emphasis) and AM
//! (envelope). Owns only the demodulation arithmetic; filtering before or after
//! is the caller's business.

mod am;
mod deemphasis;
mod quadrature;

pub use am::AmDemod;
pub use deemphasis::Deemphasis;
pub use quadrature::QuadratureDemod;
