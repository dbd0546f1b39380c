//! SDR hardware for rfgraph: [`SdrSource`] and [`SdrSink`] on
//! [`seify`], the Rust SDR hardware abstraction of the FutureSDR project.
//!
//! How the crates fit together, the runtime contract and the project's
//! rules: `docs/architecture.md` in the repository. This crate depends on
//! the runtime only; the runtime knows nothing of devices.
//!
//! # Devices and cargo features
//!
//! A block opens the device its [`SdrConfig`] names with seify's argument
//! string. Which drivers exist is decided at build time:
//!
//! | feature | driver string | needs |
//! |---|---|---|
//! | `dummy` (default) | `driver=dummy`: seify's test device (accepts any setting it can store, delivers zeros, swallows whatever it is sent) | nothing |
//! | `soapy` | `driver=soapy,soapy_driver=rtlsdr` (or `hackrf`, `uhd`, `lime`, `airspy`, `plutosdr`, ... and any SoapySDR argument such as `serial=`) | `libsoapysdr-dev` and `pkg-config` to build, the SoapySDR module of the device at run time |
//! | `rtlsdr`, `hackrf`, `hydrasdr`, `pluto`, `uhd`, `bladerf1` | `driver=rtlsdr`, `driver=hackrf`, ...: seify's native Rust drivers (USB through `nusb`, no C library) | USB access to the device |
//! | `native` | all of the line above | |
//!
//! `dummy` is the only default so that the workspace builds and tests
//! everywhere, with no C library: every block, message and error path runs
//! against it in `cargo test --workspace`. Hardware is switched on with a
//! feature, by a crate that depends on this one (`features = ["soapy"]`)
//! or on the command line (`cargo build --features rfgraph-hw/soapy`). CI,
//! which installs `libsoapysdr-dev`, also runs this crate's tests with
//! `soapy` (`.ci/run`): SoapySDR must link and its errors must reach
//! `init`.
//!
//! # What the blocks promise
//!
//! - `init` opens and configures the device; a device that cannot be opened
//!   or a value it refuses fails `init` with the driver's own message
//!   ([`HwError`]).
//! - The first item from an [`SdrSource`] carries `core:frequency`,
//!   `core:sample_rate` and `core:datetime`, so a SigMF recording is
//!   complete; retunes tag the next item.
//! - The parameters `frequency` (also `freq`), `gain`, `agc`,
//!   `sample_rate`, `antenna` and `bandwidth` ([`SdrConfig`], declared
//!   once) change while the stream runs, as GNU Radio's Soapy blocks'
//!   setters do, each through a message input of its name, and so does
//!   GNU Radio's `cmd` map; `status` replies with the state read back from the device
//!   and the block's counters.
//! - Overflows and underflows are counted ([`StreamCounters`]), tagged (RX)
//!   and logged, never dropped silently.
//!
//! ```
//! use rfgraph::{Flowgraph, FlowgraphHandle, Pmt, scheduler::Tpb};
//! use rfgraph_blocks::{Head, VectorSink};
//! use rfgraph_hw::{SdrConfig, SdrSource};
//! use num_complex::Complex32;
//! use std::time::Duration;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let config = SdrConfig::new("driver=dummy").frequency(98.5e6).sample_rate(1.0e6);
//! let mut fg = Flowgraph::new();
//! let src = fg.add(SdrSource::new(config)?);
//! let head = fg.add(Head::<Complex32>::new(1 << 20));
//! let sink = fg.add(VectorSink::<Complex32>::new());
//! fg.chain(&[src, head, sink])?;
//! # #[cfg(feature = "dummy")] {
//! let running = fg.start(Tpb::new())?;
//! // Retune while it runs (it may have finished already: the dummy is fast).
//! let _ = running.handle().call(src, "freq", 99.1e6, Duration::from_secs(5));
//! let done = running.wait_timeout(Duration::from_secs(60))?;
//! let tags = done.block::<VectorSink<Complex32>>(sink).unwrap().tags();
//! assert_eq!(tags[0].index, 0);
//! # }
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod channel;
mod config;
mod counters;
pub mod datetime;
mod drivers;
mod error;
pub mod registry;
mod sink;
mod source;
mod xrun_log;

pub use config::{Gain, SdrConfig};
pub use counters::StreamCounters;
pub use drivers::drivers;
pub use error::{Direction, HwError};
pub use sink::SdrSink;
pub use source::{STREAM_TIMEOUT, SdrSource};
pub use xrun_log::INTERVAL as LOG_INTERVAL;

/// Re-exported so that callers can open a device themselves
/// ([`SdrSource::with_device`]) or list devices (`seify::enumerate`)
/// without depending on seify separately.
pub use seify;

/// Tag keys this crate adds beside SigMF's (`rfgraph::tag::keys`).
pub mod keys {
    /// Samples were lost before this item: the device overflowed. The value
    /// is the number of overflows so far (u64). A fresh `core:datetime`
    /// comes with it.
    pub const OVERFLOW: &str = "rfgraph:overflow";
}
