//! [`LineWriter`]: writes text messages as lines to any writer (standard
//! output for `rfgraph adsb`).

use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};
use std::io::Write;

/// Writes every `Pmt::String` message it receives as one line (other
/// messages are ignored) to a writer, buffered, flushing when the run
/// ends. A blocking block: a slow reader of a pipe never stalls the
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
    lines: u64,
}

impl LineWriter {
    /// Writes to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        Self {
            out: std::io::BufWriter::new(out),
            lines: 0,
        }
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

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if let Pmt::String(s) = msg {
            self.out.write_all(s.as_bytes())?;
            self.out.write_all(b"\n")?;
            self.lines += 1;
        }
        Ok(Pmt::Null)
    }

    fn finishing(&mut self) {
        let _ = self.out.flush();
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        self.out.flush()?;
        Ok(())
    }

    fn is_blocking(&self) -> bool {
        true
    }
}
