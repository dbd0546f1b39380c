//! Building and running: a flowgraph document (TOML text from the Python
//! side, or a file) goes through `rfgraph_flowfile::build`, the builder
//! flowgraph files use, so names, types and connections are checked with
//! the same errors. [`Run`] is a started flowgraph: `stop`, `wait`.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use rfgraph::registry::Registry;
use rfgraph::{BlockId, Finished, FlowgraphHandle, Running};
use rfgraph_control::ControlPort;
use rfgraph_flowfile::build::{BuildOptions, Built, Controller, build, build_file};
use rfgraph_flowfile::model::FileError;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a run asked to stop (Ctrl-C, timeout) or finished may take
/// to end before `wait` gives up on it.
const STOP_GRACE: Duration = Duration::from_secs(30);

/// How often a waiting `Run` looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// The standard registry and this package's `numpy_source`.
pub(crate) fn registry() -> Registry {
    let mut registry = rfgraph_flowfile::standard::registry();
    registry.add(crate::numpy::source_spec());
    for spec in crate::pyblock::specs() {
        registry.add(spec);
    }
    registry
}

/// A build error as Python's `ValueError`, with file, place and message.
pub(crate) fn file_error(e: FileError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Options from the Python call.
pub(crate) fn options(
    scheduler: Option<String>,
    cores: Option<usize>,
    dry_run: bool,
) -> BuildOptions {
    BuildOptions {
        scheduler,
        cores,
        dry_run,
        ..BuildOptions::default()
    }
}

/// Parses TOML flowgraph `text` (named `origin` in errors).
fn parse(text: &str, origin: &str) -> PyResult<rfgraph_flowfile::model::Document> {
    rfgraph_flowfile::toml::parse(text, Arc::new(PathBuf::from(origin))).map_err(file_error)
}

/// Checks flowgraph `text` against the registry without constructing a
/// block: unknown blocks, parameters, wrong types, bad connections. With
/// `partial`, a stream port left unconnected is no error: a graph being
/// built from Python is checked block by block, before its connections.
///
/// Raises `ValueError` with the builder's message.
#[pyfunction]
pub fn check_text(text: &str, origin: &str, partial: bool) -> PyResult<()> {
    let registry = registry();
    let doc = parse(text, origin)?;
    match build(&doc, &registry, &options(None, None, true)) {
        Err(e) if partial && e.message.ends_with("is not connected") => Ok(()),
        Err(e) => Err(file_error(e)),
        Ok(_) => Ok(()),
    }
}

/// Checks the flowgraph file at `path` (`.toml` or `.grc`) without
/// constructing a block.
///
/// Raises `ValueError` with the builder's message.
#[pyfunction]
pub fn check_file(path: &str) -> PyResult<()> {
    let registry = registry();
    build_file(Path::new(path), &registry, &options(None, None, true)).map_err(file_error)?;
    Ok(())
}

/// Builds flowgraph `text` and starts it.
///
/// Raises `ValueError` for a build error, `RuntimeError` for a start error.
#[pyfunction]
#[pyo3(signature = (text, origin, scheduler=None, cores=None))]
pub fn start_text(
    text: &str,
    origin: &str,
    scheduler: Option<String>,
    cores: Option<Cores>,
) -> PyResult<Run> {
    let registry = registry();
    let doc = parse(text, origin)?;
    let count = Cores::count(&cores);
    let built = build(&doc, &registry, &options(scheduler, count, false)).map_err(file_error)?;
    start(built, cores)
}

/// Builds the flowgraph file at `path` (`.toml` or `.grc`) and starts it.
///
/// Raises `ValueError` for a build error, `RuntimeError` for a start error.
#[pyfunction]
#[pyo3(signature = (path, scheduler=None, cores=None))]
pub fn start_file(path: &str, scheduler: Option<String>, cores: Option<Cores>) -> PyResult<Run> {
    let registry = registry();
    let count = Cores::count(&cores);
    let built = build_file(
        Path::new(path),
        &registry,
        &options(scheduler, count, false),
    )
    .map_err(file_error)?;
    start(built, cores)
}

/// `cores=` from Python: a number of worker threads, or the CPUs to run
/// on (`[0, 1]`).
#[derive(FromPyObject)]
pub enum Cores {
    /// Worker threads (`pool`, `chain`).
    Count(usize),
    /// The CPUs, one worker each (see `SchedulerPlan::cpus`).
    Cpus(Vec<usize>),
}

impl Cores {
    /// The worker count the builder gets.
    pub(crate) fn count(cores: &Option<Cores>) -> Option<usize> {
        match cores {
            Some(Cores::Count(n)) => Some(*n),
            Some(Cores::Cpus(cpus)) => Some(cpus.len()),
            None => None,
        }
    }
}

/// Starts a built flowgraph on the scheduler it names, on the CPUs
/// `cores` lists if it lists them.
///
/// Raises `ValueError` for an empty list or a CPU this machine lacks.
pub(crate) fn start(mut built: Built, cores: Option<Cores>) -> PyResult<Run> {
    if let Some(Cores::Cpus(cpus)) = cores {
        let online = std::thread::available_parallelism().map_or(1, usize::from);
        if cpus.is_empty() {
            return Err(PyValueError::new_err("cores: an empty list of CPUs"));
        }
        if let Some(bad) = cpus.iter().find(|&&c| c >= online) {
            return Err(PyValueError::new_err(format!(
                "cores: CPU {bad} does not exist (CPUs 0 to {})",
                online - 1
            )));
        }
        built.scheduler.cpus = Some(cpus);
    }
    let scheduler = built.scheduler.scheduler().map_err(PyValueError::new_err)?;
    let running = built
        .flowgraph
        .start(scheduler)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let handle = running.handle();
    Ok(Run {
        running: Mutex::new(Some(running)),
        finished: Mutex::new(None),
        blocks: built.blocks.into_iter().map(|b| (b.name, b.id)).collect(),
        handle,
        variables: Arc::new(Mutex::new(built.control)),
        control_port: Mutex::new(None),
    })
}

/// A started flowgraph.
#[pyclass(module = "rfgraph._rfgraph")]
pub struct Run {
    running: Mutex<Option<Running>>,
    finished: Mutex<Option<Finished>>,
    /// Every block's instance name and id.
    blocks: Vec<(String, BlockId)>,
    handle: FlowgraphHandle,
    /// The file's settable variables (none for a graph built in Python).
    variables: Arc<Mutex<Controller>>,
    /// The control port serving this run, once `serve` started it.
    control_port: Mutex<Option<ControlPort>>,
}

#[pymethods]
impl Run {
    /// Serves this run on a control port at `addr` (port 0: any free
    /// port) as `name`, with `token` required when given (generated for
    /// a non-loopback address); returns `(web UI URL, REST base URL,
    /// token)`. The port stops when the run is dropped or `serve` is
    /// called again.
    ///
    /// Raises `ValueError` for a bad address, `RuntimeError` when it
    /// cannot be bound.
    #[pyo3(signature = (addr="127.0.0.1:0", token=None, name="flowgraph"))]
    fn serve(
        &self,
        addr: &str,
        token: Option<String>,
        name: &str,
    ) -> PyResult<(String, String, Option<String>)> {
        let mut slot = self
            .control_port
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(old) = slot.take() {
            old.shutdown();
        }
        let port = crate::serve::start(
            addr,
            token,
            name,
            &self.handle,
            Some(self.variables.clone()),
        )?;
        let name = crate::serve::url_name(name);
        let urls = (
            port.ui_url(&name),
            format!("http://{}/api/flowgraphs/{name}", port.local_addr()),
            port.token().map(str::to_string),
        );
        *slot = Some(port);
        Ok(urls)
    }

    /// Asks every block to finish as soon as possible.
    fn stop(&self) {
        self.handle.stop();
    }

    /// True once every block is done (or after `wait`).
    fn is_finished(&self) -> bool {
        self.lock().as_ref().is_none_or(Running::is_finished)
    }

    /// The block named `name`, to post to, call, and read or set the
    /// parameters of while it runs.
    ///
    /// Raises `ValueError` for no such block.
    fn block(&self, name: &str) -> PyResult<crate::control::BlockHandle> {
        let id = self.id(name)?;
        Ok(crate::control::BlockHandle::new(
            self.handle.clone(),
            id,
            name.to_string(),
        ))
    }

    /// Every block's statistics now, as a JSON array.
    fn stats_json(&self) -> String {
        let stats: Vec<serde_json::Value> =
            self.handle.stats().iter().map(|s| s.to_json()).collect();
        serde_json::Value::Array(stats).to_string()
    }

    /// Waits until the flowgraph is done (at most `timeout` seconds, then
    /// stops it and raises) and returns the statistics as a JSON array.
    /// The GIL is released while waiting; Ctrl-C stops the flowgraph and
    /// raises `KeyboardInterrupt` once it has stopped.
    ///
    /// Raises `RuntimeError` with the failing block's error, or when the
    /// run was already waited for.
    #[pyo3(signature = (timeout=None))]
    fn wait(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<String> {
        let running = self
            .lock()
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("this run was already waited for"))?;
        let started = Instant::now();
        let limit = timeout.map(|t| Duration::from_secs_f64(t.max(0.0)));
        let mut interrupted = None;
        let mut timed_out = false;
        while !running.is_finished() {
            if limit.is_some_and(|l| started.elapsed() >= l) {
                timed_out = true;
                break;
            }
            // Returns as soon as the run is done, so that a short run
            // is not rounded up to the poll.
            if py.detach(|| running.wait_finished(SIGNAL_POLL)) {
                break;
            }
            if let Err(e) = py.check_signals() {
                interrupted = Some(e);
                break;
            }
        }
        if interrupted.is_some() || timed_out {
            self.handle.stop();
        }
        let finished = py.detach(move || running.wait_timeout(STOP_GRACE));
        if let Some(e) = interrupted {
            return Err(e);
        }
        if timed_out {
            let how = match &finished {
                Ok(_) => "it was stopped".to_string(),
                Err(e) => e.to_string(),
            };
            return Err(PyRuntimeError::new_err(format!(
                "the flowgraph did not finish within the timeout of {} s ({how})",
                timeout.unwrap_or_default()
            )));
        }
        let finished = finished.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let stats = finished.stats_json().to_string();
        *self.finished.lock().unwrap_or_else(PoisonError::into_inner) = Some(finished);
        Ok(stats)
    }

    /// The items (as bytes) and tags (`(offset, key, value)` tuples) the
    /// `vector_sink` named `name` (item type `kind`) received, once the
    /// run is finished.
    ///
    /// Raises `RuntimeError` before `wait` returned, `ValueError` for
    /// no such sink.
    fn sink_contents<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        kind: &str,
    ) -> PyResult<(Bound<'py, PyBytes>, Vec<Bound<'py, PyTuple>>)> {
        let finished = self.finished.lock().unwrap_or_else(PoisonError::into_inner);
        let finished = finished
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("the run has not finished (call wait)"))?;
        let id = self.id(name)?;
        let (bytes, tags) = crate::numpy::sink_contents(finished, id, kind)?.ok_or_else(|| {
            PyValueError::new_err(format!("block `{name}` is no `vector_sink` of `{kind}`"))
        })?;
        Ok((
            PyBytes::new(py, &bytes),
            crate::numpy::tag_tuples(py, &tags)?,
        ))
    }

    /// The messages the `message_sink` named `name` kept, as Python
    /// values, once the run is finished.
    ///
    /// Raises `RuntimeError` before `wait` returned, `ValueError` for no
    /// such sink.
    fn sink_messages<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let finished = self.finished.lock().unwrap_or_else(PoisonError::into_inner);
        let finished = finished
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("the run has not finished (call wait)"))?;
        let id = self.id(name)?;
        let sink = finished
            .block::<rfgraph_blocks::MessageSink>(id)
            .ok_or_else(|| PyValueError::new_err(format!("block `{name}` is no `message_sink`")))?;
        sink.messages()
            .iter()
            .map(|m| crate::pmt::from_pmt(py, m))
            .collect()
    }
}

impl Run {
    /// The id of the block named `name`.
    fn id(&self, name: &str) -> PyResult<BlockId> {
        self.blocks
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
            .ok_or_else(|| PyValueError::new_err(format!("no block named `{name}`")))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Running>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
