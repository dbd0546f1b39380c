//! [`LineWriter`]: writes text messages as lines to any writer (standard
//! output for `rfgraph adsb`).

use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};
use std::io::Write;

/// Writes every `Pmt::String` message it receives as one line (other
/// messages are ignored) to a writer, buffered, flushing when the run
/// ends; [`with_transform`](Self::with_transform) rewrites each text
/// first (a message's JSON into dump1090's raw line, say). When the
/// reader goes away (a closed pipe: `rfgraph adsb ... | head`) it stops
/// writing and finishes, as a Unix tool would, instead of failing the
/// run. A blocking block: a slow reader of a pipe never stalls the
/// others' threads.
///
/// # Message Inputs
/// - `in`: `Pmt::String`, one line each (without its newline)
///
/// # Usage
/// ```
/// use rfgraph_radio::modes::LineWriter;
/// let out = LineWriter::new(Box::new(std::io::stdout()));
/// # let _ = out;
/// ```
pub struct LineWriter {
    out: std::io::BufWriter<Box<dyn Write + Send>>,
    transform: Option<fn(&str) -> Option<String>>,
    lines: u64,
    /// The reader went away.
    closed: bool,
}

impl LineWriter {
    /// Writes to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        Self {
            out: std::io::BufWriter::new(out),
            transform: None,
            lines: 0,
            closed: false,
        }
    }

    /// Writes `f(text)` instead of each text, skipping those it maps to
    /// `None`.
    pub fn with_transform(mut self, f: fn(&str) -> Option<String>) -> Self {
        self.transform = Some(f);
        self
    }

    /// Lines written.
    pub fn lines(&self) -> u64 {
        self.lines
    }
}

impl Block for LineWriter {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if self.closed {
            return Ok(Pmt::Null);
        }
        if let Pmt::String(s) = msg {
            let line = match self.transform {
                Some(f) => f(&s),
                None => Some(s),
            };
            if let Some(line) = line {
                let written = self
                    .out
                    .write_all(line.as_bytes())
                    .and_then(|()| self.out.write_all(b"\n"));
                match written {
                    Ok(()) => self.lines += 1,
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                        self.closed = true;
                        io.finish();
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        }
        Ok(Pmt::Null)
    }

    fn finishing(&mut self) {
        if !self.closed {
            let _ = self.out.flush();
        }
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        if self.closed {
            return Ok(());
        }
        match self.out.flush() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
            _ => Ok(()),
        }
    }

    fn is_blocking(&self) -> bool {
        true
    }
}
