//! Filtering kernels: streaming FIR (plain, decimating, interpolating) for the
//! `fff` / `ccf` / `ccc` type combinations, and IIR biquad cascades (`f64`
//! coefficients and state). Owns the streaming history handling and the tap
//! layouts; FIR *design* lives in [`crate::design`] and [`crate::firdes`].

mod biquad;
mod decimating;
mod direct_iir;
mod fir;
mod history;
mod iir;
mod interpolating;
mod kind;

pub use biquad::Biquad;
pub use decimating::DecimatingFir;
pub use direct_iir::{DirectIir, IirSample, fm_preemph_taps};
pub use fir::Fir;
pub(crate) use history::{History, window as history_window};
pub use iir::BiquadCascade;
pub use interpolating::InterpolatingFir;
pub(crate) use interpolating::polyphase_prepare;
pub(crate) use kind::check_taps;
pub use kind::{Ccc, Ccf, Fff, FirKind};

/// A filter kernel whose taps may change while it streams, keeping its
/// input history: what a block needs to redesign a filter between two
/// calls. Implemented by every FIR kernel and by
/// [`FreqXlatingFir`](crate::FreqXlatingFir).
pub trait SetTaps: crate::Kernel {
    /// The tap type (`f32` or `Complex32`).
    type Tap;
    /// Filters with `taps` from the next sample on.
    ///
    /// Errors: empty or non-finite taps (nothing changes).
    fn set_taps(&mut self, taps: &[Self::Tap]) -> Result<(), crate::DspError>;
}

macro_rules! set_taps {
    ($($kernel:ident),*) => {$(
        impl<K: FirKind> SetTaps for $kernel<K> {
            type Tap = K::Tap;
            fn set_taps(&mut self, taps: &[K::Tap]) -> Result<(), crate::DspError> {
                $kernel::set_taps(self, taps)
            }
        }
    )*};
}

set_taps!(Fir, DecimatingFir, InterpolatingFir);

/// Real FIR: `f32` input, `f32` taps.
pub type FirFff = Fir<Fff>;
/// Complex input, real taps.
pub type FirCcf = Fir<Ccf>;
/// Complex input, complex taps.
pub type FirCcc = Fir<Ccc>;
/// Decimating real FIR.
pub type DecimatingFirFff = DecimatingFir<Fff>;
/// Decimating FIR, complex input, real taps.
pub type DecimatingFirCcf = DecimatingFir<Ccf>;
/// Decimating FIR, complex input, complex taps.
pub type DecimatingFirCcc = DecimatingFir<Ccc>;
/// Interpolating real FIR.
pub type InterpolatingFirFff = InterpolatingFir<Fff>;
/// Interpolating FIR, complex input, real taps.
pub type InterpolatingFirCcf = InterpolatingFir<Ccf>;
/// Interpolating FIR, complex input, complex taps.
pub type InterpolatingFirCcc = InterpolatingFir<Ccc>;
