//! The multicore paper's synthetic workloads and the processor block that
//! applies them to every chunk ("packet") of samples, either alone
//! (`inter` mode: T such blocks in a chain) or split over T threads of its
//! own (`intra` mode).

use clap::ValueEnum;
use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, WorkIo};
use std::hint::black_box;
use std::sync::mpsc::{Receiver, Sender, channel};

/// Samples per packet.
pub const CHUNK: usize = 1024;

/// What one unit of work is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Workload {
    /// One floating-point division.
    Fpdiv,
    /// One integer addition and one subtraction.
    Intadd,
    /// Reversing a 1024-element array.
    Reverse,
    /// Allocating, touching and freeing 64 KiB.
    Alloc,
}

impl Workload {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Fpdiv => "fpdiv",
            Workload::Intadd => "intadd",
            Workload::Reverse => "reverse",
            Workload::Alloc => "alloc",
        }
    }

    /// Performs `units` units of work; returns a value that depends on all
    /// of it so nothing is optimised away.
    pub fn perform(self, units: u64, scratch: &mut [f32]) -> f64 {
        match self {
            Workload::Fpdiv => {
                let mut x = black_box(1.0e30f64);
                let d = black_box(1.000_001f64);
                for _ in 0..units {
                    x /= d;
                }
                x
            }
            Workload::Intadd => {
                let mut acc = black_box(0u64);
                for i in 0..units {
                    acc = acc.wrapping_add(i ^ 0x5555);
                    acc = acc.wrapping_sub(i >> 1);
                }
                acc as f64
            }
            Workload::Reverse => {
                for _ in 0..units {
                    scratch.reverse();
                    black_box(&mut *scratch);
                }
                scratch.first().copied().unwrap_or(0.0) as f64
            }
            Workload::Alloc => {
                let mut sum = 0u64;
                for _ in 0..units {
                    let mut v = vec![0u8; 64 * 1024];
                    for page in v.chunks_mut(4096) {
                        page[0] = 1;
                    }
                    sum += black_box(&v)
                        .iter()
                        .step_by(4096)
                        .map(|&b| b as u64)
                        .sum::<u64>();
                }
                sum as f64
            }
        }
    }
}

/// A pool of helper threads that each perform a share of a packet's work.
struct Helpers {
    jobs: Vec<Sender<u64>>,
    done: Receiver<()>,
}

impl Helpers {
    fn new(count: usize, workload: Workload) -> Self {
        let (done_tx, done) = channel();
        let jobs = (0..count)
            .map(|_| {
                let (tx, rx) = channel::<u64>();
                let done_tx = done_tx.clone();
                std::thread::spawn(move || {
                    let mut scratch = vec![1f32; CHUNK];
                    while let Ok(units) = rx.recv() {
                        black_box(workload.perform(units, &mut scratch));
                        if done_tx.send(()).is_err() {
                            break;
                        }
                    }
                });
                tx
            })
            .collect();
        Self { jobs, done }
    }
}

/// Copies packets through, performing `units` of work per packet, split
/// over `threads` threads (the block's own thread included).
pub struct Processor {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    workload: Workload,
    units: u64,
    threads: usize,
    helpers: Option<Helpers>,
    scratch: Vec<f32>,
}

impl Processor {
    /// A processor doing `units` per packet on `threads` threads.
    pub fn new(workload: Workload, units: u64, threads: usize) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            workload,
            units,
            threads: threads.max(1),
            helpers: None,
            scratch: vec![1f32; CHUNK],
        }
    }

    fn process_packet(&mut self) {
        let share = self.units / self.threads as u64;
        if let Some(h) = &self.helpers {
            for tx in &h.jobs {
                let _ = tx.send(share);
            }
        }
        let own = self.units - share * (self.threads as u64 - 1);
        black_box(self.workload.perform(own, &mut self.scratch));
        if let Some(h) = &self.helpers {
            for _ in &h.jobs {
                let _ = h.done.recv();
            }
        }
    }
}

impl Block for Processor {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn init(&mut self) -> Result<(), BoxError> {
        if self.threads > 1 {
            self.helpers = Some(Helpers::new(self.threads - 1, self.workload));
        }
        Ok(())
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let available = self.input.slice().len().min(self.output.slice().len());
        let packets = available / CHUNK;
        for _ in 0..packets {
            self.process_packet();
        }
        let n = packets * CHUNK;
        if n > 0 {
            let i = self.input.slice();
            let o = self.output.slice();
            rfgraph::copy_items(o, &i[..n]);
            self.input.consume(n);
            self.output.produce(n);
        }
        Ok(())
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.helpers = None; // closes the job channels; helpers exit
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads_scale_and_terminate() {
        let mut scratch: Vec<f32> = (0..CHUNK).map(|i| i as f32).collect();
        assert!(Workload::Fpdiv.perform(10, &mut scratch) < 1.0e30);
        assert!(Workload::Intadd.perform(10, &mut scratch) > 0.0);
        // An even number of reversals restores the array.
        Workload::Reverse.perform(2, &mut scratch);
        assert_eq!(scratch[5], 5.0);
        assert_eq!(Workload::Alloc.perform(3, &mut scratch), 3.0 * 16.0);
    }
}
