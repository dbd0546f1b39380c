//! FM broadcast reception: the blocks of a stereo receiver and the
//! assembled [`Receiver`].
//!
//! | item | what it does |
//! |---|---|
//! | [`plan`] | rates and filters from the configuration: channel filter and decimation, the 240 kS/s MPX, the 15 kHz audio filter |
//! | [`ChannelFilter`] | the front end as one kernel: `cu8` decoding (for byte input), the frequency-translating first stage and the second decimator |
//! | [`MpxDemod`] | quadrature demodulation scaled to 75 kHz deviation, with the equaliser that undoes the discriminator's droop |
//! | [`StereoDemod`] | 19 kHz pilot PLL, 38 kHz by doubling its phase, L−R out; zero (mono) while unlocked; lock state as [`STEREO_TAG`] tags and `stereo` messages |
//! | [`PilotLock`] | the lock decision's hysteresis |
//! | [`StereoMatrix`] | left and right from sum and difference |
//! | [`Receiver`] | adds the whole chain to a flowgraph behind a source |
//! | [`WfmRcv`] | GNU Radio's mono `wfm_rcv` as one kernel (registry `wfm_rcv`) |
//!
//! Channel filtering, resampling and de-emphasis are `rfgraph-dsp`
//! kernels (`FreqXlatingFir` and `DecimatingFir` inside `ChannelFilter`, `RationalResampler`,
//! `Deemphasis`, the pilot's `Pll`) run in `DspBlock`s. Every block is
//! deterministic: the same input gives the same audio, bit for bit, on
//! every scheduler.

mod channel;
mod error;
mod lock;
mod matrix;
mod mpx;
pub mod plan;
mod receiver;
mod stereo;
mod wfm_rcv;

pub use channel::{ChannelFilter, ChannelInput};
pub use error::FmError;
pub use lock::{LOCK_HOLD_S, LOCK_LEVEL, PilotLock, UNLOCK_HOLD_S, UNLOCK_LEVEL};
pub use matrix::StereoMatrix;
pub use mpx::{EQUALISER_TAPS, MpxDemod};
pub use plan::{DEVIATION_HZ, MPX_RATE};
pub use receiver::{ChannelParams, Emphasis, Endpoint, FmConfig, Receiver, ReceiverPorts, names};
pub use stereo::{MIN_MPX_RATE, PILOT_HZ, STEREO_TAG, StereoDemod, StereoDemodParams};
pub(crate) use wfm_rcv::spec as wfm_rcv_spec;
pub use wfm_rcv::{WfmRcv, WfmRcvParams};
pub(crate) use {matrix::spec as stereo_matrix_spec, stereo::spec as stereo_demod_spec};
