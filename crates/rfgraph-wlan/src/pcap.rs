//! A pcap writer for decoded frames (libpcap format, link type 127:
//! IEEE 802.11 with a radiotap header). Each record is a radiotap header
//! with the Flags field (FCS at end, or bad FCS) and the Rate field
//! (500 kb/s units), then the MPDU and its FCS.

use crate::fcs;
use crate::rate::Rate;
use std::io::{self, Write};

/// LINKTYPE_IEEE802_11_RADIOTAP.
pub const LINKTYPE_RADIOTAP: u32 = 127;
/// Radiotap Flags: the frame includes its FCS.
pub const FLAG_FCS_AT_END: u8 = 0x10;
/// Radiotap Flags: the frame failed its FCS check.
pub const FLAG_BAD_FCS: u8 = 0x40;
/// Radiotap header length: version, pad, length, present, flags, rate.
pub const RADIOTAP_LEN: usize = 10;

/// Writes a pcap stream.
pub struct PcapWriter<W: Write> {
    out: W,
    buf: Vec<u8>,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the global header (microsecond timestamps, snap length
    /// 65535, link type 127) to `out`.
    pub fn new(mut out: W) -> io::Result<Self> {
        let mut h = Vec::with_capacity(24);
        h.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
        h.extend_from_slice(&2u16.to_le_bytes());
        h.extend_from_slice(&4u16.to_le_bytes());
        h.extend_from_slice(&0i32.to_le_bytes()); // thiszone
        h.extend_from_slice(&0u32.to_le_bytes()); // sigfigs
        h.extend_from_slice(&65535u32.to_le_bytes());
        h.extend_from_slice(&LINKTYPE_RADIOTAP.to_le_bytes());
        out.write_all(&h)?;
        Ok(Self {
            out,
            buf: Vec::new(),
        })
    }

    /// Writes one frame received at `time_us` (microseconds) at `rate`.
    /// With `fcs_ok` the MPDU is written with its FCS (recomputed) and
    /// the FCS-at-end flag; otherwise without FCS and with the bad-FCS
    /// flag.
    pub fn write_frame(
        &mut self,
        time_us: u64,
        rate: Rate,
        mpdu: &[u8],
        fcs_ok: bool,
    ) -> io::Result<()> {
        let flags = if fcs_ok {
            FLAG_FCS_AT_END
        } else {
            FLAG_BAD_FCS
        };
        let b = &mut self.buf;
        b.clear();
        b.extend_from_slice(&[0, 0]); // version, pad
        b.extend_from_slice(&(RADIOTAP_LEN as u16).to_le_bytes());
        b.extend_from_slice(&0b110u32.to_le_bytes()); // Flags, Rate present
        b.push(flags);
        b.push((rate.mbps() * 2.0) as u8);
        b.extend_from_slice(mpdu);
        if fcs_ok {
            b.extend_from_slice(&fcs::fcs(mpdu).to_le_bytes());
        }
        let mut rec = [0u8; 16];
        rec[..4].copy_from_slice(&((time_us / 1_000_000) as u32).to_le_bytes());
        rec[4..8].copy_from_slice(&((time_us % 1_000_000) as u32).to_le_bytes());
        rec[8..12].copy_from_slice(&(b.len() as u32).to_le_bytes());
        rec[12..].copy_from_slice(&(b.len() as u32).to_le_bytes());
        self.out.write_all(&rec)?;
        self.out.write_all(b)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32le(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn header_and_record_field_by_field() {
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        let mpdu = crate::mac::data_frame(3, [0x42; 6], [0x23; 6], [0xff; 6], b"hi");
        w.write_frame(2_500_001, Rate::Qam16_34, &mpdu, true)
            .unwrap();
        w.write_frame(7, Rate::Bpsk12, &mpdu, false).unwrap();
        let b = w.into_inner();
        // Global header.
        assert_eq!(&b[..4], &[0xd4, 0xc3, 0xb2, 0xa1]);
        assert_eq!((b[4], b[5], b[6], b[7]), (2, 0, 4, 0));
        assert_eq!(u32le(&b, 8), 0);
        assert_eq!(u32le(&b, 12), 0);
        assert_eq!(u32le(&b, 16), 65535);
        assert_eq!(u32le(&b, 20), 127);
        // Record 1: time 2.500001 s, 10 + 26 + 4 bytes.
        let r = &b[24..];
        assert_eq!((u32le(r, 0), u32le(r, 4)), (2, 500_001));
        assert_eq!((u32le(r, 8), u32le(r, 12)), (40, 40));
        let p = &r[16..56];
        assert_eq!(&p[..4], &[0, 0, 10, 0]);
        assert_eq!(u32le(p, 4), 0b110);
        assert_eq!(p[8], 0x10);
        assert_eq!(p[9], 72); // 36 Mb/s in 500 kb/s
        assert_eq!(&p[10..36], &mpdu[..]);
        assert!(crate::fcs::check(&p[10..]));
        // Record 2: bad FCS, no FCS bytes, 6 Mb/s.
        let r = &b[24 + 56..];
        assert_eq!((u32le(r, 0), u32le(r, 4), u32le(r, 8)), (0, 7, 36));
        assert_eq!((r[16 + 8], r[16 + 9]), (0x40, 12));
        assert_eq!(r.len(), 16 + 36);
    }
}
