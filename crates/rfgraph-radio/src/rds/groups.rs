//! Group decoding: checked blocks → groups → the station's fields (PI,
//! PS, RadioText, PTY, TP, TA, MS, DI), each reported once it is
//! confirmed and whenever it changes.
//!
//! Blocks are assembled by their place in the group (A, B, C/C', D); a
//! group's type and version come from block B, and a version that
//! disagrees with block 3's offset (C for A, C' for B) drops the group.
//! Groups 0A/0B carry the PS two characters at a time (segment address
//! 0–3), TA, MS and one DI bit; 2A carries four RadioText characters per
//! segment (16 segments), 2B two; every group carries TP and PTY.
//!
//! **Confirmation.** A block may pass its check and still be wrong (a
//! miscorrection: see `sync`), so nothing is reported from one reception:
//! the PI, each PS segment, each RadioText segment, each DI bit, and the
//! TP/PTY and TA/MS pairs become valid when two receptions in a row
//! agree. The PS is reported when all four segments are valid; the
//! RadioText when every segment up to the one holding the carriage
//! return (or all of them) is, up to that return, trailing spaces
//! trimmed; a flipped A/B flag (seen twice) clears it. A new confirmed PI
//! is a new station: everything else is forgotten.

use super::charset::{CARRIAGE_RETURN, decode_char};
use super::code::Offset;
use super::content::{DecoderId, Version};
use super::sync::BlockEvent;
use rfgraph::Pmt;
use std::collections::BTreeMap;

/// A value that becomes valid once two receptions in a row agree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Confirmed<T> {
    candidate: Option<T>,
    valid: Option<T>,
}

impl<T: Copy + PartialEq> Confirmed<T> {
    /// Takes one reception; true when the valid value changed.
    fn receive(&mut self, v: T) -> bool {
        if self.candidate == Some(v) {
            let changed = self.valid != Some(v);
            self.valid = Some(v);
            changed
        } else {
            self.candidate = Some(v);
            false
        }
    }
}

/// A fully received group (blocks that failed are `None`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Group {
    /// Blocks 1–4.
    pub blocks: [Option<u16>; 4],
    /// Block 3 came with offset C' (a version B group).
    pub c_prime: bool,
}

/// The fields decoded so far (valid values only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Station {
    pi: Confirmed<u16>,
    ps: [Confirmed<u16>; 4],
    rt: [Confirmed<u32>; 16],
    rt_ab: Confirmed<bool>,
    rt_version: Option<Version>,
    tp_pty: Confirmed<(bool, u8)>,
    ta_ms: Confirmed<(bool, bool)>,
    di: [Confirmed<bool>; 4],
    /// The values last reported, so each change is reported once.
    shown_pi: Option<u16>,
    shown_tp_pty: Option<(bool, u8)>,
    shown_ta_ms: Option<(bool, bool)>,
    shown_di: Option<DecoderId>,
    shown_ps: Option<String>,
    shown_rt: Option<(String, bool)>,
}

impl Station {
    /// The PS once all four segments are valid.
    fn ps(&self) -> Option<String> {
        let segments: Option<Vec<u16>> = self.ps.iter().map(|s| s.valid).collect();
        segments.map(|s| text(s.iter().flat_map(|s| s.to_be_bytes())))
    }

    /// The DI once all four bits are valid.
    fn di(&self) -> Option<DecoderId> {
        let mut di = DecoderId::default();
        for (s, bit) in self.di.iter().enumerate() {
            di.set_bit(s, bit.valid?);
        }
        Some(di)
    }

    /// The RadioText once every segment up to its end is valid, and its
    /// A/B flag.
    fn rt(&self) -> Option<(String, bool)> {
        let per = match self.rt_version? {
            Version::A => 4,
            Version::B => 2,
        };
        let mut codes = Vec::new();
        let mut complete = false;
        for s in &self.rt {
            let Some(v) = s.valid else { break };
            let bytes = v.to_be_bytes();
            if let Some(end) = bytes[..per].iter().position(|&c| c == CARRIAGE_RETURN) {
                codes.extend_from_slice(&bytes[..end]);
                complete = true;
                break;
            }
            codes.extend_from_slice(&bytes[..per]);
        }
        complete |= codes.len() == 16 * per;
        complete.then(|| {
            (
                text(codes).trim_end_matches(' ').to_string(),
                self.rt_ab.valid.unwrap_or(false),
            )
        })
    }
}

/// Assembles groups from block events and reports field changes as
/// `Pmt` maps (see the `rds` module docs for their keys).
#[derive(Clone, Debug, Default)]
pub struct GroupDecoder {
    current: Group,
    /// The last place filled in `current` (None: empty).
    last: Option<usize>,
    station: Station,
    groups: u64,
}

fn hex_pi(pi: u16) -> Pmt {
    Pmt::String(format!("0x{pi:04X}"))
}

fn text(codes: impl IntoIterator<Item = u8>) -> String {
    codes.into_iter().map(decode_char).collect()
}

impl GroupDecoder {
    /// A decoder that knows nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Complete groups (all four blocks checked) decoded so far.
    pub fn groups(&self) -> u64 {
        self.groups
    }

    /// Takes one synchroniser event; appends field changes to `out`.
    pub fn push(&mut self, event: BlockEvent, out: &mut Vec<Pmt>) {
        let (index, value) = match event {
            BlockEvent::Block { offset, info, .. } => {
                if offset == Offset::CPrime {
                    self.current_at(2, out);
                    self.current.c_prime = true;
                }
                (offset.index(), Some(info))
            }
            BlockEvent::Erasure { index } => (index, None),
            BlockEvent::Synced | BlockEvent::Lost => {
                self.flush(out);
                return;
            }
        };
        self.current_at(index, out);
        self.current.blocks[index] = value;
        self.last = Some(index);
        if index == 3 {
            self.flush(out);
        }
    }

    /// Starts a new group first if place `index` was already passed.
    fn current_at(&mut self, index: usize, out: &mut Vec<Pmt>) {
        if self.last.is_some_and(|l| l >= index) {
            self.flush(out);
        }
    }

    /// Decodes the group in hand and clears it.
    fn flush(&mut self, out: &mut Vec<Pmt>) {
        let group = std::mem::take(&mut self.current);
        if self.last.take().is_some() {
            self.decode(group, out);
        }
    }

    fn event(pi: u16, fields: impl IntoIterator<Item = (&'static str, Pmt)>) -> Pmt {
        let mut map = BTreeMap::new();
        map.insert("pi".to_string(), hex_pi(pi));
        for (k, v) in fields {
            map.insert(k.to_string(), v);
        }
        Pmt::Map(map)
    }

    /// Reports every valid field that differs from what was last
    /// reported, once the PI is valid.
    fn report(&mut self, out: &mut Vec<Pmt>) {
        let st = &mut self.station;
        let Some(pi) = st.pi.valid else { return };
        if st.shown_pi != Some(pi) {
            st.shown_pi = Some(pi);
            out.push(Self::event(pi, []));
        }
        if let Some(v @ (tp, pty)) = st.tp_pty.valid
            && st.shown_tp_pty != Some(v)
        {
            st.shown_tp_pty = Some(v);
            out.push(Self::event(
                pi,
                [("tp", Pmt::Bool(tp)), ("pty", Pmt::U64(pty as u64))],
            ));
        }
        if let Some(v @ (ta, ms)) = st.ta_ms.valid
            && st.shown_ta_ms != Some(v)
        {
            st.shown_ta_ms = Some(v);
            out.push(Self::event(
                pi,
                [("ta", Pmt::Bool(ta)), ("ms", Pmt::Bool(ms))],
            ));
        }
        if let Some(di) = st.di()
            && st.shown_di != Some(di)
        {
            st.shown_di = Some(di);
            let map = BTreeMap::from([
                ("stereo".to_string(), Pmt::Bool(di.stereo)),
                ("artificial_head".to_string(), Pmt::Bool(di.artificial_head)),
                ("compressed".to_string(), Pmt::Bool(di.compressed)),
                ("dynamic_pty".to_string(), Pmt::Bool(di.dynamic_pty)),
            ]);
            out.push(Self::event(pi, [("di", Pmt::Map(map))]));
        }
        if let Some(ps) = st.ps()
            && st.shown_ps.as_ref() != Some(&ps)
        {
            st.shown_ps = Some(ps.clone());
            out.push(Self::event(pi, [("ps", Pmt::String(ps))]));
        }
        if let Some(rt) = st.rt()
            && st.shown_rt.as_ref() != Some(&rt)
        {
            st.shown_rt = Some(rt.clone());
            let ab = if rt.1 { "B" } else { "A" };
            out.push(Self::event(
                pi,
                [("rt", Pmt::String(rt.0)), ("rt_ab", Pmt::String(ab.into()))],
            ));
        }
    }

    /// Decodes one group into the station's fields; appends what changed.
    pub fn decode(&mut self, group: Group, out: &mut Vec<Pmt>) {
        self.update(group);
        self.report(out);
    }

    fn update(&mut self, group: Group) {
        let [a, b, c, d] = group.blocks;
        if a.is_some() && b.is_some() && c.is_some() && d.is_some() {
            self.groups += 1;
        }
        // PI: block 1, or block 3 of a version B group.
        for pi in [a, if group.c_prime { c } else { None }]
            .into_iter()
            .flatten()
        {
            let before = self.station.pi.valid;
            if self.station.pi.receive(pi) && before.is_some() {
                // Another station: forget the old one's fields.
                let pi_state = self.station.pi;
                self.station = Station {
                    pi: pi_state,
                    ..Station::default()
                };
            }
        }
        let Some(b) = b else { return };
        let group_type = b >> 12;
        let version = if b >> 11 & 1 == 1 {
            Version::B
        } else {
            Version::A
        };
        // Block 3's offset must agree with the version.
        let c = match (version, group.c_prime) {
            (Version::A, false) => c,
            (Version::B, true) => None, // a PI, already used
            _ => return,
        };
        let tp = b >> 10 & 1 == 1;
        let pty = (b >> 5 & 31) as u8;
        self.station.tp_pty.receive((tp, pty));
        match group_type {
            0 => self.type0(b, d),
            2 => self.type2(b, version, c, d),
            _ => {}
        }
    }

    fn type0(&mut self, b: u16, d: Option<u16>) {
        let st = &mut self.station;
        st.ta_ms.receive((b >> 4 & 1 == 1, b >> 3 & 1 == 1));
        let segment = (b & 3) as usize;
        st.di[segment].receive(b >> 2 & 1 == 1);
        if let Some(d) = d {
            st.ps[segment].receive(d);
        }
    }

    fn type2(&mut self, b: u16, version: Version, c: Option<u16>, d: Option<u16>) {
        let st = &mut self.station;
        let before = st.rt_ab.valid;
        if st.rt_ab.receive(b >> 4 & 1 == 1) && before.is_some() {
            st.rt = Default::default();
        }
        if st.rt_version != Some(version) {
            st.rt_version = Some(version);
            st.rt = Default::default();
        }
        let segment = (b & 15) as usize;
        // A segment as four codes (2B: two, then two zeros).
        let value = match (version, c, d) {
            (Version::A, Some(c), Some(d)) => (c as u32) << 16 | d as u32,
            (Version::B, _, Some(d)) => (d as u32) << 16,
            _ => return,
        };
        st.rt[segment].receive(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rds::code::Offset;
    use crate::rds::{EncodedGroup, RdsContent, RdsEncoder};

    fn feed(dec: &mut GroupDecoder, g: &EncodedGroup, out: &mut Vec<Pmt>) {
        for (i, &info) in g.info.iter().enumerate() {
            let offset = match i {
                0 => Offset::A,
                1 => Offset::B,
                2 => g.c_offset,
                _ => Offset::D,
            };
            dec.push(
                BlockEvent::Block {
                    offset,
                    info,
                    corrected: 0,
                },
                out,
            );
        }
    }

    fn field<'a>(events: &'a [Pmt], key: &str) -> Vec<&'a Pmt> {
        events
            .iter()
            .filter_map(|e| match e {
                Pmt::Map(m) => m.get(key),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn decodes_every_field_of_a_and_b_groups() {
        for (ps_version, rt_version) in [
            (Version::A, Version::A),
            (Version::B, Version::B),
            (Version::A, Version::B),
        ] {
            let content = RdsContent {
                pi: 0xD393,
                ps: "WDR 3".into(),
                radiotext: "Hello, world".into(),
                pty: 14,
                tp: true,
                ta: false,
                music: true,
                di: DecoderId {
                    stereo: true,
                    dynamic_pty: true,
                    ..DecoderId::default()
                },
                ps_version,
                rt_version,
                ..RdsContent::default()
            };
            let mut enc = RdsEncoder::new(&content).unwrap();
            let mut dec = GroupDecoder::new();
            let mut out = Vec::new();
            for _ in 0..40 {
                feed(&mut dec, &enc.next_group(), &mut out);
            }
            assert_eq!(field(&out, "ps"), vec![&Pmt::String("WDR 3   ".into())]);
            assert_eq!(field(&out, "rt"), vec![&Pmt::String("Hello, world".into())]);
            assert_eq!(field(&out, "rt_ab"), vec![&Pmt::String("A".into())]);
            assert_eq!(field(&out, "tp"), vec![&Pmt::Bool(true)]);
            assert_eq!(field(&out, "pty"), vec![&Pmt::U64(14)]);
            assert_eq!(field(&out, "ms"), vec![&Pmt::Bool(true)]);
            assert_eq!(field(&out, "ta"), vec![&Pmt::Bool(false)]);
            let di = field(&out, "di");
            assert_eq!(di.len(), 1);
            let Pmt::Map(di) = di[0] else { panic!() };
            assert_eq!(di["stereo"], Pmt::Bool(true));
            assert_eq!(di["dynamic_pty"], Pmt::Bool(true));
            assert_eq!(di["compressed"], Pmt::Bool(false));
            // Every event names the PI.
            assert!(
                out.iter()
                    .all(|e| matches!(e, Pmt::Map(m) if m["pi"] == Pmt::String("0xD393".into())))
            );
        }
    }

    #[test]
    fn one_reception_is_not_enough_and_a_new_pi_starts_over() {
        let mut enc = RdsEncoder::new(&RdsContent::default()).unwrap();
        let mut dec = GroupDecoder::new();
        let mut out = Vec::new();
        // One pass over the PS (8 groups): every segment seen once.
        for _ in 0..8 {
            feed(&mut dec, &enc.next_group(), &mut out);
        }
        assert!(field(&out, "ps").is_empty());
        for _ in 0..8 {
            feed(&mut dec, &enc.next_group(), &mut out);
        }
        assert_eq!(field(&out, "ps").len(), 1);
        // Another station.
        let mut other = RdsEncoder::new(&RdsContent {
            pi: 0x4321,
            ps: "OTHER".into(),
            ..RdsContent::default()
        })
        .unwrap();
        out.clear();
        // The new PI is confirmed by the second group; the PS segments
        // seen before it belong to the old station's state and are gone.
        for _ in 0..24 {
            feed(&mut dec, &other.next_group(), &mut out);
        }
        assert_eq!(field(&out, "pi")[0], &Pmt::String("0x4321".into()));
        assert_eq!(field(&out, "ps"), vec![&Pmt::String("OTHER   ".into())]);
    }

    #[test]
    fn the_ab_flag_clears_the_radiotext() {
        let content = RdsContent {
            radiotext: "First text".into(),
            ..RdsContent::default()
        };
        let mut dec = GroupDecoder::new();
        let mut out = Vec::new();
        let mut enc = RdsEncoder::new(&content).unwrap();
        for _ in 0..20 {
            feed(&mut dec, &enc.next_group(), &mut out);
        }
        let mut enc = RdsEncoder::new(&RdsContent {
            radiotext: "Second".into(),
            rt_ab: true,
            ..content
        })
        .unwrap();
        for _ in 0..20 {
            feed(&mut dec, &enc.next_group(), &mut out);
        }
        assert_eq!(
            field(&out, "rt"),
            vec![
                &Pmt::String("First text".into()),
                &Pmt::String("Second".into())
            ]
        );
        assert_eq!(field(&out, "rt_ab")[1], &Pmt::String("B".into()));
    }
}
