//! A registry of small test blocks, declared here so the builder's tests
//! do not change with the library's blocks, and a bounded run.

#![allow(dead_code)]

pub mod grc_text;

use rfgraph::ParamSet;
use rfgraph::params::NoParams;
use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec, Registry};
use rfgraph::scheduler::Scheduler;
use rfgraph::{Finished, Flowgraph};
use rfgraph_blocks::{DspBlock, NullSink, NullSource, VectorSink, VectorSource};
use rfgraph_dsp::{Fff, Fir};
use std::path::PathBuf;
use std::time::Duration;

/// The most any test flowgraph may take: a hang fails the test instead of
/// eating the suite's time.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs `fg` on `scheduler`, failing after [`TIMEOUT`].
pub fn run_bounded(fg: Flowgraph, scheduler: impl Scheduler) -> Finished {
    RunBounded::run_bounded(fg, scheduler).expect("finishes in time")
}

/// The parameters of the test `vector_source`.
#[derive(ParamSet, Clone, Debug)]
struct Data {
    /// the items written
    data: Vec<f32>,
}

/// The parameters of the test `fir_filter`.
#[derive(ParamSet, Clone, Debug)]
struct Taps {
    /// the filter's taps
    taps: Vec<f32>,
    /// a gain messages may change (the filter ignores it)
    #[param(default = 1.0, settable)]
    gain: f64,
}

/// The parameters of the test null blocks.
#[derive(ParamSet, Clone, Debug)]
struct Typed {
    /// stream item type
    #[param(name = "type", kinds(F32, C32))]
    item: ItemKind,
    /// a string the block ignores
    #[param(default = "")]
    path: String,
}

/// The parameters of the test `burst`.
#[derive(ParamSet, Clone, Debug)]
struct Burst {
    /// the message posted
    message: String,
    /// how many times
    #[param(default = 1, max = 1_000_000)]
    count: usize,
}

/// A registry with small test blocks, independent of the library's
/// declarations: `vector_source` (f32 `data`), `fir_filter` (f32 `taps`,
/// settable `gain`), `vector_sink` (f32), `null_source`/`null_sink` of
/// `type`, `burst`/`msg_sink`, and `refuses`, whose constructor fails.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.add(
        BlockSpec::of::<Data>("vector_source", "Sources", "Writes `data`.", |p| {
            Ok(Box::new(VectorSource::new(p.data)))
        })
        .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32))),
    );
    r.add(
        BlockSpec::of::<Taps>("fir_filter", "Filters", "FIR filter.", |p| {
            let fir = Fir::<Fff>::new(&p.taps)?;
            Ok(Box::new(DspBlock::tuned(fir, p, |_, _, _| Ok(()))))
        })
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
        .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32))),
    );
    r.add(
        BlockSpec::of::<NoParams>("vector_sink", "Sinks", "Keeps items.", |_| {
            Ok(Box::new(VectorSink::<f32>::new()))
        })
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32))),
    );
    r.add(
        BlockSpec::of::<Typed>("null_sink", "Sinks", "Drops items.", |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => num_complex::Complex32 } as T
                => NullSink::<T>::new())
        })
        .input(PortSpec::new("in", PortItem::OfType)),
    );
    r.add(
        BlockSpec::of::<Typed>("null_source", "Sources", "Zeros.", |p| {
            rfgraph::for_item_kinds!(p.item, { F32 => f32, C32 => num_complex::Complex32 } as T
                => NullSource::<T>::new())
        })
        .output(PortSpec::new("out", PortItem::OfType)),
    );
    r.add(
        BlockSpec::of::<Burst>(
            "burst",
            "Messages",
            "Posts `count` copies of `message`.",
            |p| {
                Ok(Box::new(rfgraph_blocks::MessageBurst::new(
                    rfgraph::Pmt::String(p.message),
                    p.count,
                )))
            },
        )
        .message_output("out"),
    );
    r.add(
        BlockSpec::of::<NoParams>("msg_sink", "Messages", "Keeps messages.", |_| {
            Ok(Box::new(rfgraph_blocks::MessageSink::new()))
        })
        .message_input("in"),
    );
    r.add(
        BlockSpec::of::<NoParams>("refuses", "Sinks", "Its constructor always fails.", |_| {
            Err("no device here".into())
        })
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32))),
    );
    r
}

/// A fresh directory under the target directory for one test's files.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &std::path::Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

/// One fresh instance of every scheduler, with default settings.
pub fn every_scheduler() -> Vec<Box<dyn rfgraph::Scheduler>> {
    vec![
        Box::new(rfgraph::scheduler::Tpb::new()),
        Box::new(rfgraph::scheduler::Single::new()),
        Box::new(rfgraph::scheduler::Pool::new()),
        Box::new(rfgraph::scheduler::Chain::new()),
    ]
}

/// [`Flowgraph::run`](rfgraph::Flowgraph::run) with a watchdog.
pub trait RunBounded {
    /// Runs to completion on `scheduler`, or fails with
    /// `RunError::Timeout` after [`TIMEOUT`].
    fn run_bounded(
        self,
        scheduler: impl rfgraph::Scheduler,
    ) -> Result<rfgraph::Finished, rfgraph::RunError>;
}

impl RunBounded for rfgraph::Flowgraph {
    fn run_bounded(
        self,
        scheduler: impl rfgraph::Scheduler,
    ) -> Result<rfgraph::Finished, rfgraph::RunError> {
        self.start(scheduler)?.wait_timeout(TIMEOUT)
    }
}
