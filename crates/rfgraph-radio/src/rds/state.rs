//! [`RdsState`]: what the RDS decoder knows about the station now, the
//! sum of its change messages, as the `rds_decoder` block's reading
//! `rds`. Owns only the merging (a new PI forgets the old station) and
//! the reading's shape; decoding and confirming the fields stay in
//! [`groups`](super::groups).

use super::pty::pty_name;
use super::sync::SyncCounts;
use rfgraph::Pmt;
use std::collections::BTreeMap;

/// The station's fields as the decoder reported them so far: each
/// message of [`RdsDecoder`](super::RdsDecoder) adds or replaces the
/// fields it carries, and a message naming another PI starts a new
/// station (its fields forgotten, as the decoder forgets them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RdsState {
    fields: BTreeMap<String, Pmt>,
}

impl RdsState {
    /// Nothing known yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one decoder message (a `Pmt::Map`; anything else is
    /// ignored).
    pub fn absorb(&mut self, message: &Pmt) {
        let Pmt::Map(m) = message else { return };
        if let Some(pi) = m.get("pi")
            && self.fields.get("pi") != Some(pi)
        {
            self.fields.clear();
        }
        for (k, v) in m {
            self.fields.insert(k.clone(), v.clone());
        }
    }

    /// The fields known: `pi`, `ps`, `rt`, `rt_ab`, `pty`, `tp`, `ta`,
    /// `ms`, `di`, as in the decoder's messages.
    pub fn fields(&self) -> &BTreeMap<String, Pmt> {
        &self.fields
    }

    /// The reading `rds`: a `Pmt::Map` of the [`fields`](Self::fields)
    /// known (absent until decoded), `pty_name` (`String`, the RDS name
    /// of `pty`) with `pty`, and always the reception's quality from
    /// `counts` and `groups`: `groups` (`U64`, complete groups),
    /// `errors` (`U64`, blocks rejected while synchronised), `bler`
    /// (`F64`, `errors` over the blocks received in sync, once there
    /// were any) and `synced` (`Bool`).
    pub fn reading(&self, counts: &SyncCounts, groups: u64, synced: bool) -> Pmt {
        let mut map = self.fields.clone();
        if let Some(name) = map.get("pty").and_then(Pmt::as_u64).and_then(pty_name) {
            map.insert("pty_name".into(), Pmt::String(name.into()));
        }
        map.insert("groups".into(), Pmt::U64(groups));
        map.insert("errors".into(), Pmt::U64(counts.blocks_failed));
        let blocks = counts.blocks_ok + counts.blocks_corrected + counts.blocks_failed;
        if blocks > 0 {
            map.insert(
                "bler".into(),
                Pmt::F64(counts.blocks_failed as f64 / blocks as f64),
            );
        }
        map.insert("synced".into(), Pmt::Bool(synced));
        Pmt::Map(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(fields: &[(&str, Pmt)]) -> Pmt {
        Pmt::Map(
            fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    fn s(v: &str) -> Pmt {
        Pmt::String(v.into())
    }

    #[test]
    fn merges_changes_and_a_new_pi_starts_over() {
        let mut st = RdsState::new();
        st.absorb(&msg(&[("pi", s("0x1234"))]));
        st.absorb(&msg(&[("pi", s("0x1234")), ("ps", s("ONE     "))]));
        st.absorb(&msg(&[
            ("pi", s("0x1234")),
            ("pty", Pmt::U64(10)),
            ("tp", Pmt::Bool(true)),
        ]));
        st.absorb(&msg(&[("pi", s("0x1234")), ("ps", s("TWO     "))]));
        st.absorb(&Pmt::Null);
        let counts = SyncCounts {
            blocks_ok: 70,
            blocks_corrected: 20,
            blocks_failed: 10,
            ..SyncCounts::default()
        };
        let Pmt::Map(r) = st.reading(&counts, 21, true) else {
            panic!()
        };
        assert_eq!(r["pi"], s("0x1234"));
        assert_eq!(r["ps"], s("TWO     "));
        assert_eq!(r["pty"], Pmt::U64(10));
        assert_eq!(r["pty_name"], s("Pop Music"));
        assert_eq!(r["groups"], Pmt::U64(21));
        assert_eq!(r["errors"], Pmt::U64(10));
        assert_eq!(r["bler"], Pmt::F64(0.1));
        assert_eq!(r["synced"], Pmt::Bool(true));
        st.absorb(&msg(&[("pi", s("0x4321"))]));
        assert_eq!(st.fields().len(), 1);
        assert_eq!(st.fields()["pi"], s("0x4321"));
    }

    #[test]
    fn before_anything_only_the_quality_is_there() {
        let Pmt::Map(r) = RdsState::new().reading(&SyncCounts::default(), 0, false) else {
            panic!()
        };
        let keys: Vec<&str> = r.keys().map(String::as_str).collect();
        assert_eq!(keys, ["errors", "groups", "synced"]);
    }
}
