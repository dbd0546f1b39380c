//! [`FrameOutput`]: where `rfgraph wlan`'s frames go: a line each on
//! standard output (`--json`: one JSON object), the pcap file
//! (`--pcap`), and the good frames' counts by rate for the summary.

use crate::console::Stdout;
use rfgraph::{Block, BoxError, Pmt, Ports, WorkIo};
use rfgraph_wlan::block::frame_pdu;
use rfgraph_wlan::burst::Decoded;
use rfgraph_wlan::mac::{self, FmtAddr};
use rfgraph_wlan::pcap::PcapWriter;
use rfgraph_wlan::rate::Rate;
use std::fs::File;
use std::io::{BufWriter, Write};

/// How frames are printed on standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    /// One readable line each.
    Text,
    /// One JSON object each (`frame_pdu::json_line`).
    Json,
    /// Nothing (`--quiet` with `--pcap`, benchmarks).
    None,
}

/// Frames in (PDUs of `wlan_frames`), lines and pcap records out.
pub struct FrameOutput {
    lines: Lines,
    stdout: BufWriter<Stdout>,
    pcap: Option<PcapWriter<BufWriter<File>>>,
    /// Frames by rate (`Rate::encoding` order), FCS good.
    pub by_rate: [u64; 8],
    closed: bool,
}

impl FrameOutput {
    pub fn new(lines: Lines, pcap: Option<PcapWriter<BufWriter<File>>>) -> Self {
        Self {
            lines,
            stdout: BufWriter::new(Stdout),
            pcap,
            by_rate: [0; 8],
            closed: false,
        }
    }

    /// The counts by rate as `6 Mb/s: 3, 54 Mb/s: 1` (rates heard only).
    pub fn rates(&self) -> String {
        Rate::ALL
            .iter()
            .zip(self.by_rate)
            .filter(|(_, n)| *n > 0)
            .map(|(r, n)| format!("{} Mb/s: {n}", r.mbps()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn write(&mut self, d: &Decoded) -> std::io::Result<()> {
        if let Some(p) = &mut self.pcap {
            // The sample index as the capture time, in µs at 20 MS/s.
            p.write_frame(d.start / 20, d.rate, &d.mpdu, d.fcs_ok)?;
        }
        match self.lines {
            Lines::Json => writeln!(self.stdout, "{}", frame_pdu::json_line(d)),
            Lines::Text => writeln!(self.stdout, "{}", text_line(d)),
            Lines::None => Ok(()),
        }
    }
}

/// A frame as one readable line: where, rate, length, SNR, CFO, and the
/// MAC header's type, addresses and sequence number.
pub fn text_line(d: &Decoded) -> String {
    let mac = match mac::parse(&d.mpdu) {
        Some(h) => {
            let from = h
                .addr2
                .map_or(String::new(), |a| format!("{} → ", FmtAddr(&a)));
            let seq = h.seq.map_or(String::new(), |n| format!(" seq {n}"));
            format!("{:?} {from}{}{seq}", h.frame_type, FmtAddr(&h.addr1))
        }
        None => format!("{} bytes", d.mpdu.len()),
    };
    format!(
        "{:>10} {:>4} Mb/s {:>5} B  SNR {:5.1} dB  CFO {:>+8.0} Hz  {}{}",
        d.start,
        d.rate.mbps(),
        d.length,
        d.snr_db,
        d.cfo_hz,
        mac,
        if d.fcs_ok { "" } else { "  (FCS failed)" }
    )
}

impl Block for FrameOutput {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("in")
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let d = frame_pdu::from_pdu(&msg).ok_or("not a wlan frame")?;
        if d.fcs_ok {
            self.by_rate[d.rate.encoding()] += 1;
        }
        if !self.closed
            && let Err(e) = self.write(&d)
        {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                return Err(e.into());
            }
            // The reader went away (`| head`): the run stops quietly.
            self.closed = true;
        }
        Ok(Pmt::Null)
    }

    fn deinit(&mut self) -> Result<(), BoxError> {
        if let Some(p) = &mut self.pcap {
            p.flush()?;
        }
        if !self.closed {
            let _ = self.stdout.flush();
        }
        Ok(())
    }
}
