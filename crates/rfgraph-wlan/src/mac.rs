//! MAC framing (IEEE 802.11-2016 9.2–9.3): building the data frames the
//! test captures carry, and reading any frame's header: frame control,
//! duration, the addresses the type has, sequence control.
//!
//! An MPDU here never includes its FCS (see [`crate::fcs`]).

use std::fmt;

/// A MAC address.
pub type Addr = [u8; 6];

/// Frame type (frame control bits 2–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameType {
    Management,
    Control,
    Data,
    Extension,
}

/// A parsed MAC header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacHeader {
    /// The raw 16-bit frame control field.
    pub frame_control: u16,
    pub frame_type: FrameType,
    /// Subtype (frame control bits 4–7).
    pub subtype: u8,
    pub to_ds: bool,
    pub from_ds: bool,
    pub more_fragments: bool,
    pub retry: bool,
    pub power_management: bool,
    pub more_data: bool,
    pub protected: bool,
    pub order: bool,
    pub duration: u16,
    pub addr1: Addr,
    pub addr2: Option<Addr>,
    pub addr3: Option<Addr>,
    pub addr4: Option<Addr>,
    /// Sequence number (12 bits), for frames with sequence control.
    pub seq: Option<u16>,
    /// Fragment number (4 bits).
    pub fragment: Option<u8>,
    /// Header bytes; the frame body starts here.
    pub header_len: usize,
}

/// Frame control of a plain data frame (type 2, subtype 0, no flags):
/// bytes 08 00.
pub const DATA_FRAME_CONTROL: u16 = 0x0008;

/// Header bytes of a data frame with three addresses.
pub const DATA_HEADER_LEN: usize = 24;

/// A data frame MPDU (without FCS): frame control 0x0008, duration 0,
/// the three addresses, sequence control `seq << 4`, then `payload`.
pub fn data_frame(seq: u16, addr1: Addr, addr2: Addr, addr3: Addr, payload: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(DATA_HEADER_LEN + payload.len());
    m.extend_from_slice(&DATA_FRAME_CONTROL.to_le_bytes());
    m.extend_from_slice(&0u16.to_le_bytes());
    m.extend_from_slice(&addr1);
    m.extend_from_slice(&addr2);
    m.extend_from_slice(&addr3);
    m.extend_from_slice(&((seq & 0x0fff) << 4).to_le_bytes());
    m.extend_from_slice(payload);
    m
}

fn addr(m: &[u8], at: usize) -> Option<Addr> {
    m.get(at..at + 6).map(|s| s.try_into().expect("6 bytes"))
}

/// Reads the header of `mpdu`; `None` if it is shorter than its type's
/// header.
pub fn parse(mpdu: &[u8]) -> Option<MacHeader> {
    if mpdu.len() < 10 {
        return None;
    }
    let fc = u16::from_le_bytes([mpdu[0], mpdu[1]]);
    let frame_type = match (fc >> 2) & 3 {
        0 => FrameType::Management,
        1 => FrameType::Control,
        2 => FrameType::Data,
        _ => FrameType::Extension,
    };
    let subtype = ((fc >> 4) & 0xf) as u8;
    let flag = |bit: u16| fc & (1 << bit) != 0;
    let (to_ds, from_ds) = (flag(8), flag(9));
    let mut h = MacHeader {
        frame_control: fc,
        frame_type,
        subtype,
        to_ds,
        from_ds,
        more_fragments: flag(10),
        retry: flag(11),
        power_management: flag(12),
        more_data: flag(13),
        protected: flag(14),
        order: flag(15),
        duration: u16::from_le_bytes([mpdu[2], mpdu[3]]),
        addr1: addr(mpdu, 4)?,
        addr2: None,
        addr3: None,
        addr4: None,
        seq: None,
        fragment: None,
        header_len: 10,
    };
    match frame_type {
        FrameType::Control => {
            // CTS (12) and ACK (13) carry one address; the others two.
            if !matches!(subtype, 12 | 13) {
                h.addr2 = Some(addr(mpdu, 10)?);
                h.header_len = 16;
            }
        }
        FrameType::Management | FrameType::Data => {
            h.addr2 = Some(addr(mpdu, 10)?);
            h.addr3 = Some(addr(mpdu, 16)?);
            let sc = u16::from_le_bytes([*mpdu.get(22)?, *mpdu.get(23)?]);
            h.seq = Some(sc >> 4);
            h.fragment = Some((sc & 0xf) as u8);
            h.header_len = 24;
            if frame_type == FrameType::Data && to_ds && from_ds {
                h.addr4 = Some(addr(mpdu, 24)?);
                h.header_len = 30;
            }
            // QoS data subtypes (bit 3 of the subtype) add QoS control.
            if frame_type == FrameType::Data && subtype & 0x8 != 0 {
                mpdu.get(h.header_len..h.header_len + 2)?;
                h.header_len += 2;
            }
        }
        FrameType::Extension => {}
    }
    Some(h)
}

/// Writes an address as `aa:bb:cc:dd:ee:ff`.
pub struct FmtAddr<'a>(pub &'a Addr);

impl fmt::Display for FmtAddr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0;
        write!(
            f,
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            a[0], a[1], a[2], a[3], a[4], a[5]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn builds_the_capture_frames_exactly() {
        // wlan-25db.gr-decoded.txt, line 2 (seq 1), header and payload start.
        let line = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/wlan/wlan-25db.gr-decoded.txt"
        ))
        .unwrap();
        let want = hex(line.lines().nth(1).unwrap().trim());
        let payload = &want[24..];
        let m = data_frame(1, [0x42; 6], [0x23; 6], [0xff; 6], payload);
        assert_eq!(m, want);
        let h = parse(&m).unwrap();
        assert_eq!(h.frame_type, FrameType::Data);
        assert_eq!(
            (h.subtype, h.seq, h.fragment, h.header_len),
            (0, Some(1), Some(0), 24)
        );
        assert_eq!(
            (h.addr1, h.addr2, h.addr3, h.addr4),
            ([0x42; 6], Some([0x23; 6]), Some([0xff; 6]), None)
        );
        assert!(!h.to_ds && !h.from_ds && !h.retry && !h.protected);
        assert_eq!(FmtAddr(&h.addr1).to_string(), "42:42:42:42:42:42");
    }

    #[test]
    fn round_trip_and_other_types() {
        for seq in [0u16, 1, 77, 4095] {
            let m = data_frame(seq, [1, 2, 3, 4, 5, 6], [7; 6], [9; 6], b"xyz");
            let h = parse(&m).unwrap();
            assert_eq!(h.seq, Some(seq));
            assert_eq!(&m[h.header_len..], b"xyz");
        }
        // ACK: frame control d4 00, one address; retry flag set.
        let ack = [0xd4, 0x08, 0x00, 0x00, 1, 2, 3, 4, 5, 6];
        let h = parse(&ack).unwrap();
        assert_eq!(
            (h.frame_type, h.subtype, h.retry),
            (FrameType::Control, 13, true)
        );
        assert_eq!((h.addr2, h.seq, h.header_len), (None, None, 10));
        // Beacon (management 8) with to-DS/from-DS clear.
        let mut beacon = vec![0x80, 0x00, 0, 0];
        beacon.extend([0xff; 6]);
        beacon.extend([0xaa; 6]);
        beacon.extend([0xaa; 6]);
        beacon.extend([0x30, 0x01]);
        let h = parse(&beacon).unwrap();
        assert_eq!(
            (h.frame_type, h.subtype, h.seq, h.fragment),
            (FrameType::Management, 8, Some(0x13), Some(0))
        );
        // Four-address QoS data: 30 + 2 header bytes.
        let mut wds = vec![0x88, 0x03, 0, 0];
        wds.extend([0u8; 20]);
        wds.extend([5u8; 6]);
        wds.extend([0, 0]);
        let h = parse(&wds).unwrap();
        assert_eq!((h.addr4, h.header_len), (Some([5; 6]), 32));
        // Too short.
        assert_eq!(parse(&beacon[..20]), None);
        assert_eq!(parse(&[0x08, 0x00, 0, 0]), None);
    }
}
