//! Kernel blocks: blocks whose ports live on a device and whose `work`
//! enqueues OpenCL kernels. They never wait for the device: items move at
//! enqueue, and the context's in-order queue runs each consumer's kernel
//! after its producer's.

pub mod elementwise;
pub mod fir;
pub mod launch;
