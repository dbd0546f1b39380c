//! What the program writes on its standard output and standard error, and
//! what happens when nobody reads them any more.
//!
//! Unix tools end quietly when their output goes into a closed pipe
//! (`rfgraph adsb capture.cu8 | head -1`). Rust's `println!` and
//! `eprintln!` panic there instead ("failed printing to stdout: Broken
//! pipe", exit 101), so the command line writes through this module: a
//! write into a closed stream is dropped, and the stream is remembered as
//! closed. A command whose product *is* its standard output (the ADS-B
//! frames, a listing) then stops; one that has another product (the WAV
//! file of `rfgraph fm -o`) carries on to the end without printing, so
//! the file is complete.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

/// True once a write to standard output found it closed.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Writes `bytes` to `stream` unless it was found closed; a broken pipe
/// closes it quietly, any other error is returned.
fn write_to(stream: &mut dyn Write, closed: &AtomicBool, bytes: &[u8]) -> io::Result<()> {
    if closed.load(Ordering::Relaxed) {
        return Ok(());
    }
    match stream.write_all(bytes).and_then(|()| stream.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            closed.store(true, Ordering::Relaxed);
            Ok(())
        }
        other => other,
    }
}

/// Writes to standard output (what `out!`/`outln!` expand to).
pub fn write_out(args: fmt::Arguments) {
    let text = args.to_string();
    // Errors other than a closed pipe (a full disk behind a redirection)
    // are as fatal as Rust's own `print!` makes them.
    if let Err(e) = write_to(&mut io::stdout().lock(), &STDOUT_CLOSED, text.as_bytes()) {
        panic!("failed writing to stdout: {e}");
    }
}

/// Writes to standard error (what `err!`/`errln!` expand to). Nothing
/// written there is worth failing for.
pub fn write_err(args: fmt::Arguments) {
    let text = args.to_string();
    let _ = write_to(&mut io::stderr().lock(), &STDERR_CLOSED, text.as_bytes());
}

/// Standard output as an [`io::Write`] for writers that take one (a
/// block printing lines): writes into a closed pipe are dropped.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        write_to(&mut io::stdout().lock(), &STDOUT_CLOSED, buf).map(|()| buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `print!` that stops quietly at a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => { $crate::console::write_out(format_args!($($arg)*)) };
}

/// `println!` that stops quietly at a closed pipe.
macro_rules! outln {
    () => { $crate::console::write_out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::console::write_out(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprint!` that stops quietly at a closed pipe.
macro_rules! err {
    ($($arg:tt)*) => { $crate::console::write_err(format_args!($($arg)*)) };
}

/// `eprintln!` that stops quietly at a closed pipe.
macro_rules! errln {
    () => { $crate::console::write_err(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::console::write_err(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {err, errln, out, outln};

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader went away.
    struct Closed(usize);

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            self.0 += 1;
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_is_noted_once_and_later_writes_are_dropped() {
        let closed = AtomicBool::new(false);
        let mut w = Closed(0);
        assert!(write_to(&mut w, &closed, b"x").is_ok());
        assert!(closed.load(Ordering::Relaxed));
        assert!(write_to(&mut w, &closed, b"y").is_ok());
        assert_eq!(w.0, 1, "nothing is written after the pipe closed");
    }
}
