//! What `rfgraph fm` prints while it runs: each decoded RDS message as one
//! JSON line on stdout ([`JsonLines`]), and the pilot's lock changes as
//! lines on stderr ([`StereoReport`]).

use crate::console::{errln, outln};
use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};

/// Prints every message on `in` as one JSON line on stdout.
///
/// # Message Inputs
/// - `in`: any value.
#[derive(Default)]
pub struct JsonLines;

impl JsonLines {
    /// A printer.
    pub fn new() -> Self {
        JsonLines
    }
}

impl Block for JsonLines {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        // Nobody reading stdout any more is no reason to stop the
        // receiver: its audio still goes to its file.
        outln!("{}", rfgraph_radio::rds::json_line(&msg));
        Ok(Pmt::Null)
    }
}

/// Prints the stereo decoder's lock changes on stderr (`stereo` messages:
/// `{stereo, sample, pilot_level, pilot_hz}`).
///
/// # Message Inputs
/// - `in`: the stereo decoder's `stereo` messages.
#[derive(Default)]
pub struct StereoReport;

impl StereoReport {
    /// A reporter.
    pub fn new() -> Self {
        StereoReport
    }
}

impl Block for StereoReport {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        if let Pmt::Map(m) = &msg {
            let stereo = m.get("stereo") == Some(&Pmt::Bool(true));
            let at = m
                .get("sample")
                .and_then(Pmt::as_f64)
                .map_or(String::new(), |s| {
                    format!(" at {:.2} s", s / rfgraph_radio::fm::MPX_RATE)
                });
            let level = m
                .get("pilot_level")
                .and_then(Pmt::as_f64)
                .map_or(String::new(), |l| format!(", pilot {:.1} %", l * 100.0));
            errln!(
                "{}{at}{level}",
                if stereo {
                    "stereo: pilot locked"
                } else {
                    "mono: pilot lost"
                }
            );
        }
        Ok(Pmt::Null)
    }
}
