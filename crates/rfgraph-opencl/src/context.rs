//! The shared device context: one OpenCL context and one in-order command
//! queue per device, the memory domain its ports report, and a cache of
//! compiled programs.
//!
//! Every command of one context goes to its single in-order queue. That is
//! what lets device blocks pass ring positions instead of events: a
//! consumer's kernel is enqueued after the producer's (it only sees items
//! the producer published after enqueueing), so it also runs after it.

use crate::device::{DeviceInfo, DeviceSelector, devices};
use crate::error::OclError;
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::program::Program;
use rfgraph::MemoryDomain;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Contexts created so far, to give each a unique domain identifier.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Transfers in flight per transfer block unless set otherwise.
pub const DEFAULT_IN_FLIGHT: usize = 4;

struct Inner {
    id: u64,
    info: DeviceInfo,
    // Field order: the queue is released before the context.
    queue: CommandQueue,
    context: Context,
    programs: Mutex<HashMap<String, Arc<Program>>>,
    in_flight: AtomicUsize,
}

/// A device, its context and its in-order queue; cheap to clone. Blocks
/// built on one `OclContext` share device buffers directly.
#[derive(Clone)]
pub struct OclContext(Arc<Inner>);

impl std::fmt::Debug for OclContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OclContext({} #{})", self.0.info, self.0.id)
    }
}

impl OclContext {
    /// A context on the device `selector` picks.
    pub fn new(selector: &DeviceSelector) -> Result<Self, OclError> {
        let all = devices()?;
        let info = selector.pick(&all)?.clone();
        Self::on(info)
    }

    /// A context on the default device: the first GPU, else the first CPU.
    pub fn any() -> Result<Self, OclError> {
        Self::new(&DeviceSelector::any())
    }

    /// The process-wide shared context of the device `selector` picks:
    /// every call for the same device returns the same context, so blocks
    /// built independently still share device buffers.
    pub fn shared(selector: &DeviceSelector) -> Result<Self, OclError> {
        static SHARED: Mutex<Vec<OclContext>> = Mutex::new(Vec::new());
        let all = devices()?;
        let info = selector.pick(&all)?;
        let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = shared.iter().find(|c| c.0.info.id == info.id) {
            return Ok(c.clone());
        }
        let context = Self::on(info.clone())?;
        shared.push(context.clone());
        Ok(context)
    }

    /// A context on `info`.
    pub fn on(info: DeviceInfo) -> Result<Self, OclError> {
        let device = opencl3::device::Device::new(info.id);
        let context = Context::from_device(&device).map_err(OclError::api("clCreateContext"))?;
        #[allow(deprecated)] // clCreateCommandQueue: also works on OpenCL 1.2 drivers.
        let queue = CommandQueue::create_default(&context, 0)
            .map_err(OclError::api("clCreateCommandQueue"))?;
        Ok(Self(Arc::new(Inner {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            info,
            queue,
            context,
            programs: Mutex::new(HashMap::new()),
            in_flight: AtomicUsize::new(DEFAULT_IN_FLIGHT),
        })))
    }

    /// True when both handles are the same context (and so share buffers).
    pub fn same_context(&self, other: &OclContext) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The device.
    pub fn device(&self) -> &DeviceInfo {
        &self.0.info
    }

    /// The memory domain of every port built on this context.
    pub fn domain(&self) -> MemoryDomain {
        MemoryDomain::Device {
            api: "opencl",
            context: self.0.id,
        }
    }

    /// How many transfers each host↔device transfer block keeps in flight.
    pub fn in_flight(&self) -> usize {
        self.0.in_flight.load(Ordering::Relaxed)
    }

    /// Sets [`in_flight`](Self::in_flight) (at least 1) for transfer blocks
    /// created from now on.
    pub fn set_in_flight(&self, n: usize) {
        self.0.in_flight.store(n.max(1), Ordering::Relaxed);
    }

    /// The in-order queue every command of this context goes to.
    pub fn queue(&self) -> &CommandQueue {
        &self.0.queue
    }

    /// Submits every command queued so far to the device (`clFlush`)
    /// without waiting for any of them.
    pub fn flush(&self) -> Result<(), OclError> {
        self.0.queue.flush().map_err(OclError::api("clFlush"))
    }

    /// The raw OpenCL context.
    pub fn context(&self) -> &Context {
        &self.0.context
    }

    /// Compiles `source` (OpenCL C 1.2) once per context; later calls with
    /// the same source return the cached program. A compile error carries
    /// the build log.
    pub fn program(&self, source: &str) -> Result<Arc<Program>, OclError> {
        let mut cache = self.0.programs.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(p) = cache.get(source) {
            return Ok(p.clone());
        }
        let mut program = Program::create_from_source(&self.0.context, source)
            .map_err(OclError::api("clCreateProgramWithSource"))?;
        if let Err(e) = program.build(self.0.context.devices(), "-cl-std=CL1.2") {
            let log = program
                .get_build_log(self.0.info.id)
                .unwrap_or_else(|l| format!("(no build log: {l})"));
            return Err(OclError::Build {
                code: e.to_string(),
                log,
            });
        }
        let program = Arc::new(program);
        cache.insert(source.to_string(), program.clone());
        Ok(program)
    }

    /// Kernel `name` of `source`, compiled through [`program`](Self::program).
    pub fn kernel(&self, source: &str, name: &str) -> Result<Kernel, OclError> {
        let program = self.program(source)?;
        Kernel::create(&program, name).map_err(|e| OclError::NoKernel {
            name: name.to_string(),
            code: e.to_string(),
        })
    }

    /// A device buffer of `count` items of `T`.
    pub fn alloc<T>(&self, count: usize) -> Result<Buffer<T>, OclError> {
        let bytes = count.max(1) * std::mem::size_of::<T>();
        // SAFETY: no host pointer is passed, so OpenCL only allocates.
        unsafe {
            Buffer::<T>::create(
                &self.0.context,
                CL_MEM_READ_WRITE,
                count.max(1),
                std::ptr::null_mut(),
            )
        }
        .map_err(|e| OclError::Alloc {
            bytes,
            device: self.0.info.to_string(),
            code: e.to_string(),
        })
    }
}
