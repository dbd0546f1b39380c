//! A decoded frame as a PDU (GNU Radio's pair of metadata map and
//! bytes): how the decoders post frames and how sinks read them, and its
//! `--json` line.

use crate::burst::Decoded;
use crate::rate::Rate;
use rfgraph::Pmt;
use std::collections::BTreeMap;

/// The PDU of `d`: metadata `seq`, `sample`, `encoding` (0…7),
/// `rate_mbps`, `length`, `snr_db`, `cfo_hz`, `fcs_ok`; data the MPDU
/// without its FCS.
pub fn to_pdu(d: &Decoded) -> Pmt {
    let meta = BTreeMap::from([
        ("seq".to_string(), Pmt::U64(d.seq)),
        ("sample".to_string(), Pmt::U64(d.start)),
        ("encoding".to_string(), Pmt::U64(d.rate.encoding() as u64)),
        ("rate_mbps".to_string(), Pmt::F32(d.rate.mbps())),
        ("length".to_string(), Pmt::U64(d.length as u64)),
        ("snr_db".to_string(), Pmt::F32(d.snr_db)),
        ("cfo_hz".to_string(), Pmt::F32(d.cfo_hz)),
        ("fcs_ok".to_string(), Pmt::Bool(d.fcs_ok)),
    ]);
    Pmt::Pair(Box::new((Pmt::Map(meta), Pmt::Blob(d.mpdu.clone()))))
}

/// The frame a PDU from [`to_pdu`] holds; `None` for anything else.
pub fn from_pdu(p: &Pmt) -> Option<Decoded> {
    let Pmt::Pair(pair) = p else { return None };
    let (Pmt::Map(m), Pmt::Blob(mpdu)) = &**pair else {
        return None;
    };
    let u = |k: &str| match m.get(k)? {
        Pmt::U64(v) => Some(*v),
        _ => None,
    };
    let f = |k: &str| match m.get(k)? {
        Pmt::F32(v) => Some(*v),
        _ => None,
    };
    Some(Decoded {
        seq: u("seq")?,
        start: u("sample")?,
        rate: Rate::from_encoding(usize::try_from(u("encoding")?).ok()?)?,
        length: usize::try_from(u("length")?).ok()?,
        mpdu: mpdu.clone(),
        fcs_ok: matches!(m.get("fcs_ok")?, Pmt::Bool(true)),
        snr_db: f("snr_db")?,
        cfo_hz: f("cfo_hz")?,
    })
}

/// The frame's `--json` line: `mpdu` (hex, FCS stripped), `rate_mbps`,
/// `encoding`, `length`, `snr_db`, `cfo_hz`, `sample`, `fcs_ok`.
pub fn json_line(d: &Decoded) -> String {
    let hex: String = d.mpdu.iter().map(|b| format!("{b:02x}")).collect();
    serde_json::json!({
        "mpdu": hex,
        "rate_mbps": d.rate.mbps(),
        "encoding": d.rate.name(),
        "length": d.length,
        "snr_db": (d.snr_db * 10.0).round() / 10.0,
        "cfo_hz": d.cfo_hz.round(),
        "sample": d.start,
        "fcs_ok": d.fcs_ok,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Decoded {
        Decoded {
            seq: 3,
            start: 2000,
            rate: Rate::Qpsk34,
            length: 28,
            mpdu: vec![0x08, 0x00, 0xab],
            fcs_ok: true,
            snr_db: 24.96,
            cfo_hz: -1234.4,
        }
    }

    #[test]
    fn a_pdu_gives_back_its_frame() {
        assert_eq!(from_pdu(&to_pdu(&frame())), Some(frame()));
        assert_eq!(from_pdu(&Pmt::Null), None);
    }

    #[test]
    fn the_json_line_has_every_field() {
        let v: serde_json::Value = serde_json::from_str(&json_line(&frame())).expect("JSON");
        assert_eq!(v["mpdu"], "0800ab");
        assert_eq!(v["rate_mbps"], 18.0);
        assert_eq!(v["encoding"], "QPSK 3/4");
        assert_eq!(v["length"], 28);
        assert_eq!(v["snr_db"], 25.0);
        assert_eq!(v["cfo_hz"], -1234.0);
        assert_eq!(v["sample"], 2000);
        assert_eq!(v["fcs_ok"], true);
    }
}
