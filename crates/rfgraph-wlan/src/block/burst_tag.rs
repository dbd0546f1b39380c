//! A burst's description as the stream tag on its first sample: how
//! [`WlanSync`](super::WlanSync) tells [`WlanDecoder`](super::WlanDecoder)
//! where a frame starts and what its header said.

use crate::burst::{FFT, Header, Signal};
use crate::rate::Rate;
use num_complex::Complex32;
use rfgraph::Pmt;
use std::collections::BTreeMap;

/// The tag's key.
pub const BURST_TAG: &str = "wlan_burst";

/// What a burst's tag carries: everything of a [`Burst`](crate::burst::Burst)
/// but its samples.
#[derive(Clone, Debug)]
pub struct BurstMeta {
    pub seq: u64,
    pub start: u64,
    pub cfo: f32,
    pub header: Header,
}

impl BurstMeta {
    /// The tag value.
    pub fn to_pmt(&self) -> Pmt {
        let h = &self.header;
        let channel = h.channel.iter().map(|c| [c.re, c.im]).collect();
        Pmt::Map(BTreeMap::from([
            ("seq".to_string(), Pmt::U64(self.seq)),
            ("start".to_string(), Pmt::U64(self.start)),
            ("cfo".to_string(), Pmt::F32(self.cfo)),
            (
                "encoding".to_string(),
                Pmt::U64(h.signal.rate.encoding() as u64),
            ),
            ("length".to_string(), Pmt::U64(h.signal.length as u64)),
            ("snr_db".to_string(), Pmt::F32(h.snr_db)),
            ("channel".to_string(), Pmt::VecComplexF32(channel)),
        ]))
    }

    /// The description a tag value holds; `None` for anything else.
    pub fn from_pmt(p: &Pmt) -> Option<Self> {
        let Pmt::Map(m) = p else { return None };
        let u = |k: &str| match m.get(k)? {
            Pmt::U64(v) => Some(*v),
            _ => None,
        };
        let f = |k: &str| match m.get(k)? {
            Pmt::F32(v) => Some(*v),
            _ => None,
        };
        let Pmt::VecComplexF32(c) = m.get("channel")? else {
            return None;
        };
        if c.len() != FFT {
            return None;
        }
        let mut channel = [Complex32::default(); FFT];
        for (h, [re, im]) in channel.iter_mut().zip(c) {
            *h = Complex32::new(*re, *im);
        }
        Some(Self {
            seq: u("seq")?,
            start: u("start")?,
            cfo: f("cfo")?,
            header: Header {
                signal: Signal {
                    rate: Rate::from_encoding(usize::try_from(u("encoding")?).ok()?)?,
                    // A SIGNAL field's range: a tag from elsewhere must
                    // not size a burst.
                    length: usize::try_from(u("length")?)
                        .ok()
                        .filter(|l| (1..=crate::signal::MAX_LENGTH).contains(l))?,
                },
                channel,
                snr_db: f("snr_db")?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_gives_back_what_it_was_made_from() {
        let mut channel = [Complex32::default(); FFT];
        for (i, c) in channel.iter_mut().enumerate() {
            *c = Complex32::new(i as f32, -(i as f32) / 2.0);
        }
        let meta = BurstMeta {
            seq: 7,
            start: 123_456,
            cfo: -0.01,
            header: Header {
                signal: Signal {
                    rate: Rate::Qam64_23,
                    length: 1504,
                },
                channel,
                snr_db: 21.5,
            },
        };
        let back = BurstMeta::from_pmt(&meta.to_pmt()).expect("a burst tag");
        assert_eq!((back.seq, back.start, back.cfo), (7, 123_456, -0.01));
        assert_eq!(back.header.signal, meta.header.signal);
        assert_eq!(back.header.channel, channel);
        assert_eq!(back.header.snr_db, 21.5);
        assert!(BurstMeta::from_pmt(&Pmt::U64(1)).is_none());
        // A length no SIGNAL field can give is refused.
        for length in [0, 4096, 1 << 40] {
            let mut bad = meta.clone();
            bad.header.signal.length = length;
            assert!(BurstMeta::from_pmt(&bad.to_pmt()).is_none(), "{length}");
        }
    }
}
