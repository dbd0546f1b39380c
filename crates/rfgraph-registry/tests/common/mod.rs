//! Test registry blocks (until the standard registry holds the library's
//! blocks) and a bounded run.

#![allow(dead_code)]

use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, PortItem, PortSpec, Registry};
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

/// A registry with small test blocks: `vector_source` (f32 `data`),
/// `fir_filter` (f32 `taps`, settable `gain`), `vector_sink` (f32),
/// `null_source`/`null_sink` of `type`, `msg_source`/`msg_sink`.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.add(
        BlockSpec::new("vector_source", "Sources", "Writes `data`.", |p| {
            Ok(Box::new(VectorSource::new(p.floats("data")?)))
        })
        .param(ParamSpec::floats("data"))
        .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32))),
    );
    r.add(
        BlockSpec::new("fir_filter", "Filters", "FIR filter.", |p| {
            let taps = p.floats("taps")?;
            let fir = Fir::<Fff>::new(&taps).map_err(|e| p.invalid("taps", e.to_string()))?;
            Ok(Box::new(DspBlock::new(fir)))
        })
        .param(ParamSpec::floats("taps"))
        .param(ParamSpec::float("gain").default(1.0).settable())
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)))
        .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32))),
    );
    r.add(
        BlockSpec::new("vector_sink", "Sinks", "Keeps items.", |_| {
            Ok(Box::new(VectorSink::<f32>::new()))
        })
        .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32))),
    );
    r.add(
        BlockSpec::new("null_sink", "Sinks", "Drops items.", |p| {
            rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => num_complex::Complex32 } as T
                => NullSink::<T>::new())
        })
        .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
        .input(PortSpec::new("in", PortItem::OfType)),
    );
    r.add(
        BlockSpec::new("null_source", "Sources", "Zeros.", |p| {
            rfgraph::for_item_kinds!(p, p.item_type()?, { F32 => f32, C32 => num_complex::Complex32 } as T
                => NullSource::<T>::new())
        })
        .param(ParamSpec::item_type(&[ItemKind::F32, ItemKind::C32]))
        .param(ParamSpec::string("path").default(""))
        .output(PortSpec::new("out", PortItem::OfType)),
    );
    r.add(
        BlockSpec::new(
            "burst",
            "Messages",
            "Posts `count` copies of `message`.",
            |p| {
                Ok(Box::new(rfgraph_blocks::MessageBurst::new(
                    rfgraph::Pmt::String(p.string("message")?),
                    p.usize("count")?,
                )))
            },
        )
        .param(ParamSpec::string("message"))
        .param(ParamSpec::uint("count").default(1u64))
        .message_output("out"),
    );
    r.add(
        BlockSpec::new("msg_sink", "Messages", "Keeps messages.", |_| {
            Ok(Box::new(rfgraph_blocks::MessageSink::new()))
        })
        .message_input("in"),
    );
    r.add(
        BlockSpec::new("refuses", "Sinks", "Its constructor always fails.", |p| {
            Err(p.refused("no device here"))
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
