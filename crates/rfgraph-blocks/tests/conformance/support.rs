//! Helpers for the conformance suite: a watchdog around runs, and small
//! test-only blocks (failing, panicking, controllable).

use rfgraph::{
    Block, BoxError, Finished, FixedRateKernel, Flowgraph, Pmt, Ports, RunError, Running,
    Scheduler, StreamInput, StreamOutput, WorkIo,
};
use std::time::Duration;

/// Generous bound for any conformance run (debug builds, loaded CI machine).
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Waits for `running` with a watchdog: on timeout the run is stopped and
/// the test fails instead of hanging the suite.
pub fn wait_within(running: Running, timeout: Duration) -> Result<Finished, RunError> {
    match running.wait_timeout(timeout) {
        Err(e @ RunError::Timeout { .. }) => panic!("{e}"),
        other => other,
    }
}

/// Runs `fg` on `scheduler` with the watchdog.
pub fn run(fg: Flowgraph, scheduler: impl Scheduler) -> Result<Finished, RunError> {
    wait_within(fg.start(scheduler)?, TIMEOUT)
}

/// Passes items through and fails (error or panic) once `after` items passed.
pub struct FailAfter {
    input: StreamInput<u32>,
    output: StreamOutput<u32>,
    after: usize,
    passed: usize,
    panic: bool,
}

impl FailAfter {
    /// Returns an error after `after` items.
    pub fn error(after: usize) -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            after,
            passed: 0,
            panic: false,
        }
    }

    /// Panics after `after` items.
    pub fn panic(after: usize) -> Self {
        Self {
            panic: true,
            ..Self::error(after)
        }
    }
}

impl Block for FailAfter {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if self.passed >= self.after {
            if self.panic {
                panic!("deliberate test panic after {} items", self.passed);
            }
            return Err(format!("deliberate test error after {} items", self.passed).into());
        }
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len()).min(self.after - self.passed);
        o[..n].copy_from_slice(&i[..n]);
        self.input.consume(n);
        self.output.produce(n);
        self.passed += n;
        Ok(())
    }
}

/// A stream gain with a `gain` message input that replies with the old gain.
pub struct ControlledGain {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    gain: f32,
}

impl ControlledGain {
    /// Gain 1.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            gain: 1.0,
        }
    }
}

impl Block for ControlledGain {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.input)
            .output(&mut self.output)
            .message_input("gain")
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let n = i.len().min(o.len());
        for (o, i) in o[..n].iter_mut().zip(i) {
            *o = i * self.gain;
        }
        self.input.consume(n);
        self.output.produce(n);
        Ok(())
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let new = msg.as_f64().ok_or("gain must be a number")? as f32;
        let old = std::mem::replace(&mut self.gain, new);
        Ok(Pmt::F32(old))
    }
}

/// A handler that fails on a message nobody awaits.
pub struct FailingHandler;

impl Block for FailingHandler {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(
        &mut self,
        _port: &str,
        _msg: Pmt,
        _io: &mut WorkIo,
    ) -> Result<Pmt, BoxError> {
        Err("handler refuses everything".into())
    }
}

/// A source marked blocking that sleeps in `work`, as file or socket I/O would.
pub struct SlowBlockingSource {
    output: StreamOutput<u32>,
    next: u32,
    total: u32,
    pub thread_name: Option<String>,
}

impl SlowBlockingSource {
    /// Writes `total` sequence numbers, sleeping 1 ms per chunk of 100.
    pub fn new(total: u32) -> Self {
        Self {
            output: StreamOutput::new("out"),
            next: 0,
            total,
            thread_name: None,
        }
    }
}

impl Block for SlowBlockingSource {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        self.thread_name = std::thread::current().name().map(str::to_string);
        std::thread::sleep(Duration::from_millis(1));
        let o = self.output.slice();
        let n = o.len().min(100).min((self.total - self.next) as usize);
        for x in &mut o[..n] {
            *x = self.next;
            self.next += 1;
        }
        self.output.produce(n);
        if self.next == self.total {
            io.finish();
        }
        Ok(())
    }
}

/// Adds two `u32` streams item by item (a fan-in for tests).
pub struct AddU32 {
    a: StreamInput<u32>,
    b: StreamInput<u32>,
    output: StreamOutput<u32>,
}

impl AddU32 {
    /// Inputs `a` and `b`, output `out`.
    pub fn new() -> Self {
        Self {
            a: StreamInput::new("a"),
            b: StreamInput::new("b"),
            output: StreamOutput::new("out"),
        }
    }
}

impl Block for AddU32 {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.a)
            .input(&mut self.b)
            .output(&mut self.output)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let a = self.a.slice();
        let b = self.b.slice();
        let o = self.output.slice();
        let n = a.len().min(b.len()).min(o.len());
        for i in 0..n {
            o[i] = a[i] + b[i];
        }
        self.a.consume(n);
        self.b.consume(n);
        self.output.produce(n);
        Ok(())
    }
}

/// A message-driven block with a stream output: a `U64(k)` message makes
/// it write `0..k` and finish (items produced by a handler must not be lost).
pub struct CountOnMessage {
    output: StreamOutput<u32>,
}

impl CountOnMessage {
    /// Output `out`, message input `in`.
    pub fn new() -> Self {
        Self {
            output: StreamOutput::new("out"),
        }
    }
}

impl Block for CountOnMessage {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output).message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let k = msg.as_u64().ok_or("expected a count")? as usize;
        let out = self.output.slice();
        let n = k.min(out.len());
        for (i, x) in out[..n].iter_mut().enumerate() {
            *x = i as u32;
        }
        self.output.produce(n);
        io.finish();
        Ok(Pmt::Null)
    }
}

/// Keeps the first of every `n` items (decimation `n`).
pub struct Decimate(pub usize);

impl FixedRateKernel for Decimate {
    type In = u32;
    type Out = u32;
    fn decimation(&self) -> usize {
        self.0
    }
    fn process(&mut self, input: &[u32], output: &mut [u32]) {
        for (o, chunk) in output.iter_mut().zip(input.chunks_exact(self.0)) {
            *o = chunk[0];
        }
    }
}

/// Writes every item `n` times (interpolation `n`).
pub struct Repeat(pub usize);

impl FixedRateKernel for Repeat {
    type In = u32;
    type Out = u32;
    fn interpolation(&self) -> usize {
        self.0
    }
    fn process(&mut self, input: &[u32], output: &mut [u32]) {
        for (chunk, &i) in output.chunks_exact_mut(self.0).zip(input) {
            chunk.fill(i);
        }
    }
}
