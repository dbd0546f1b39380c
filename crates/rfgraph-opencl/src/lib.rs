//! OpenCL for rfgraph: device-resident stream edges, automatic host↔device
//! transfers, and kernel blocks.
//!
//! How the crates fit together, the runtime contract and the project's
//! rules: `docs/architecture.md` in the repository.
//!
//! - [`OclContext`]: a device (picked by [`DeviceSelector`]), its context
//!   and its in-order queue. Ports built on one context report one
//!   [`MemoryDomain`](rfgraph::MemoryDomain), so the flowgraph connects
//!   them through a [`DeviceRing`](ring::DeviceRing) that stays on the
//!   device: only a position passes between blocks (the SCA/OpenCL paper's
//!   locality detection).
//! - Where a device port meets host memory (or another context) the
//!   flowgraph inserts a [`ToDevice`] or [`ToHost`] transfer by itself;
//!   each keeps several non-blocking copies in flight.
//! - Kernel blocks: [`Elementwise`] (gain, saxpy, add, multiply, complex
//!   multiply, or any user OpenCL C 1.2 kernel) and [`Fir`].
//!
//! The crate loads `libOpenCL.so.1` at run time: without an OpenCL platform
//! every constructor returns [`OclError::NoPlatform`] instead of failing to
//! link or panicking.

#![warn(missing_docs)]

mod completion;
pub mod context;
pub mod device;
pub mod error;
pub mod item;
pub mod kernels;
pub mod port;
pub mod ring;
pub mod transfer;

pub use context::OclContext;
pub use device::{DeviceInfo, DeviceSelector, devices};
pub use error::OclError;
pub use item::DeviceItem;
pub use kernels::elementwise::{Elementwise, KernelArg};
pub use kernels::fir::Fir;
pub use port::{DeviceInput, DeviceOutput};
pub use transfer::{ToDevice, ToHost};
