//! The errors of the OpenCL crate. Every OpenCL failure a user can cause
//! (no platform, no matching device, a kernel that does not compile, an
//! allocation the device refuses) becomes one of these, never a panic.

/// An OpenCL failure.
#[derive(Debug, thiserror::Error)]
pub enum OclError {
    /// No OpenCL platform is installed (or the ICD loader is missing).
    #[error(
        "no OpenCL platform: {cause} (install an OpenCL driver, e.g. `apt-get install pocl-opencl-icd ocl-icd-libopencl1`)"
    )]
    NoPlatform {
        /// What the loader said.
        cause: String,
    },
    /// No device matched the selection.
    #[error("no OpenCL device matches {wanted}; available: {available}")]
    NoDevice {
        /// The selection that found nothing.
        wanted: String,
        /// The devices that exist, as `platform / device`.
        available: String,
    },
    /// A kernel program failed to compile.
    #[error("OpenCL kernel program failed to build ({code}); build log:\n{log}")]
    Build {
        /// The error code name.
        code: String,
        /// The compiler's log.
        log: String,
    },
    /// A kernel name not found in its program.
    #[error("OpenCL kernel `{name}` not found in its program ({code})")]
    NoKernel {
        /// The kernel name asked for.
        name: String,
        /// The error code name.
        code: String,
    },
    /// The device refused an allocation.
    #[error("OpenCL could not allocate {bytes} bytes on {device}: {code}")]
    Alloc {
        /// Bytes asked for.
        bytes: usize,
        /// The device.
        device: String,
        /// The error code name.
        code: String,
    },
    /// A block parameter that cannot work (no FIR taps).
    #[error("{block}: {reason}")]
    InvalidParameter {
        /// The block type.
        block: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// Any other OpenCL call failed.
    #[error("OpenCL {call} failed: {code}")]
    Api {
        /// The call that failed.
        call: &'static str,
        /// The error code name.
        code: String,
    },
}

impl OclError {
    /// Wraps an OpenCL error code from `call`.
    pub(crate) fn api(call: &'static str) -> impl FnOnce(opencl3::error_codes::ClError) -> Self {
        move |e| OclError::Api {
            call,
            code: e.to_string(),
        }
    }
}
