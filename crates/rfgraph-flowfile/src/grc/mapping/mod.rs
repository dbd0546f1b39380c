//! The table from GNU Radio block ids to registry blocks: which registry
//! block stands for each GNU Radio block, and the parameters that need
//! more than a name to translate (item type names, enumeration values,
//! vector lengths, message values). A parameter's GNU Radio name is part
//! of the block's own declaration (`#[param(alias = "samp_rate")]`), so a
//! parameter that only changes its name has no entry here.
//!
//! One file per GNU Radio module holds that module's entries; this file
//! owns the entry types and the lookup. An entry only says what the
//! block would be: the importer looks each registry block up at load
//! time, so an entry whose block is not registered (or lacks a
//! parameter the entry sets) counts as unsupported, never half-loaded.

use rfgraph::registry::BlockSpec;

mod analog;
mod blocks;
mod channels;
mod digital;
mod fec;
mod fft;
mod filter;
mod network;
mod pdu;
mod qtgui;
mod zeromq;

pub use qtgui::is_web_display;

/// How one GNU Radio parameter becomes a registry parameter.
#[derive(Clone, Copy, Debug)]
pub enum P {
    /// `gr` → `rf`, as an expression.
    Expr(&'static str, &'static str),
    /// `gr` → `rf`, as literal text (file paths, strings).
    Text(&'static str, &'static str),
    /// GNU Radio's item type enumeration `gr` (`complex`, `float`, ...)
    /// → the registry's `type` (`c32`, `f32`, ...).
    Type(&'static str),
    /// The registry parameter `rf` is always this text (the item type
    /// of a block whose GNU Radio id carries it in a suffix).
    Fixed(&'static str, &'static str),
    /// An enumeration: the raw GNU Radio value → the registry's text; a
    /// value not listed makes the block unsupported.
    Enum(
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str)],
    ),
    /// `gr` → `rf` as an expression, only when the GNU Radio parameter
    /// `when` starts with `prefix` (a filter's `decim` applies to its
    /// decimating types only).
    Only {
        /// The GNU Radio parameter tested.
        when: &'static str,
        /// The prefix its value must have.
        prefix: &'static str,
        /// The GNU Radio parameter.
        gr: &'static str,
        /// The registry parameter.
        rf: &'static str,
    },
    /// `gr` → `rf` as an expression, unless it is `0`: GNU Radio's "no
    /// limit" for a count that rfgraph leaves unset instead.
    NonZero(&'static str, &'static str),
    /// `gr` → `rf` as `abs(gr)`: GNU Radio's signed seeds (often
    /// `-42`) for rfgraph's unsigned ones.
    Abs(&'static str, &'static str),
    /// GNU Radio's `vlen`: passed as `vlen` when the registry block has
    /// one (it works on whole vectors of a flat stream); otherwise it
    /// must be 1.
    Vlen,
    /// GNU Radio's `vlen` of an item-by-item block: a flat stream of
    /// scalars needs nothing, but it is passed as `vlen` when the registry
    /// block takes one.
    FlatVlen,
    /// A string parameter `gr` → `rf`: GNU Radio's quoted string
    /// (`"packet_len"`) or `pmt.intern("key")` gives its text, anything
    /// else is taken literally (GRC's string parameters).
    Str(&'static str, &'static str),
    /// A message value `gr` → `rf`, as an expression (which knows GNU
    /// Radio's `pmt.*` constructors: `pmt.intern("x")`,
    /// `pmt.to_pmt({...})`, `pmt.cons(...)`, ...); a quoted string gives
    /// the string, and `pmt.PMT_NIL` leaves an optional parameter unset.
    Pmt(&'static str, &'static str),
    /// The GNU Radio parameter `gr` must be one of these values (or
    /// unset); any other makes the block unsupported. Nothing is passed.
    Require(&'static str, &'static [&'static str]),
    /// A count of vectors (`num_items` of `blocks_head`) → a count of
    /// scalars: `(gr) * (vlen)`.
    PerVector(&'static str, &'static str),
    /// An OFDM equalizer object `gr` (`digital.ofdm_equalizer_simpledfe(...)`
    /// or `digital.ofdm_equalizer_static(...)`, optionally `.base()`, or
    /// a variable holding one) → the registry's `equalizer` choice and
    /// one parameter per constructor argument.
    OfdmEqualizer(&'static str),
    /// A list of stream tags `gr` → `rf` as `[[offset, key, value], ...]`:
    /// GNU Radio's `[gr.tag_utils.python_to_tag((offset, pmt.intern("key"),
    /// value, srcid)), ...]` (values as [`P::Pmt`] reads them, `pmt.PMT_NIL`
    /// as none); any other form makes the block unsupported.
    Tags(&'static str, &'static str),
    /// `gr` → `rf` as an expression, except Python's `True`/`False`,
    /// which give the text `instead` (GRC 3.10 writes the freq sink's
    /// `average` as `False` until it is changed).
    NumberOr(&'static str, &'static str, &'static str),
    /// Several GRC string parameters `gr` (GNU Radio's `label1` …
    /// `label10`) → `rf` as a list of strings, up to the last one set
    /// (quoted or not; quotes and backslashes inside dropped).
    TextList(&'static [&'static str], &'static str),
    /// The registry parameter `rf` is the expression `func(a, b, ...)`
    /// over GNU Radio parameters (`firdes.root_raised_cosine(gain,
    /// samp_rate, ...)` for taps a GNU Radio block designs in its
    /// template): each argument is a GNU Radio parameter and the text it
    /// takes when the flowgraph leaves it empty (GRC's default).
    Call {
        /// The registry parameter.
        rf: &'static str,
        /// The function the expression calls.
        func: &'static str,
        /// Its arguments: (GNU Radio parameter, default text).
        args: &'static [(&'static str, &'static str)],
    },
}

impl P {
    /// The GNU Radio parameters this entry reads (none for `Fixed`); a
    /// parameter no entry reads passes by its declared name or alias, if
    /// the registry block declares one.
    pub fn reads(&self) -> Vec<&'static str> {
        match *self {
            P::Require(gr, _) => vec![gr],
            P::Only { when, gr, .. } => vec![when, gr],
            P::PerVector(gr, _) => vec![gr, "vlen"],
            P::Call { args, .. } => args.iter().map(|(gr, _)| *gr).collect(),
            P::TextList(grs, _) => grs.to_vec(),
            _ => self.translates().map(|(gr, _)| gr).into_iter().collect(),
        }
    }

    /// The GNU Radio parameter this entry reads and the registry
    /// parameter its value sets, when it sets one (`Fixed` and `Require`
    /// set nothing from a GNU Radio value).
    pub fn translates(&self) -> Option<(&'static str, &'static str)> {
        match *self {
            P::Expr(gr, rf)
            | P::Text(gr, rf)
            | P::Enum(gr, rf, _)
            | P::Only { gr, rf, .. }
            | P::Abs(gr, rf)
            | P::NonZero(gr, rf)
            | P::Str(gr, rf)
            | P::Pmt(gr, rf)
            | P::PerVector(gr, rf)
            | P::Tags(gr, rf)
            | P::NumberOr(gr, rf, _) => Some((gr, rf)),
            P::Type(gr) => Some((gr, "type")),
            P::OfdmEqualizer(gr) => Some((gr, "equalizer")),
            P::Vlen | P::FlatVlen => Some(("vlen", "vlen")),
            P::Fixed(..) | P::Require(..) | P::Call { .. } | P::TextList(..) => None,
        }
    }
}

/// One GNU Radio block id and the registry block that stands for it.
#[derive(Clone, Copy, Debug)]
pub struct Map {
    /// The GNU Radio block id (`blocks_multiply_const_vxx`).
    pub gr: &'static str,
    /// The registry block (`multiply_const`).
    pub rf: &'static str,
    /// The parameters that need more than their name: a GNU Radio
    /// parameter that the registry block declares by the same name or
    /// as an alias (`#[param(alias = "samp_rate")]`) passes as an
    /// expression without an entry here. An item type (`type`) and a
    /// vector length (`vlen`) always need one. Other GNU Radio
    /// parameters (`affinity`, `alias`, `minoutbuf`, ...) do not change
    /// what the block computes and are dropped.
    pub params: &'static [P],
}

/// GNU Radio parameters that pass by name only through an entry: their
/// values are GNU Radio's own names (`complex`) or count vectors.
const NEVER_BY_NAME: &[&str] = &["type", "vlen"];

impl Map {
    /// True when an entry of the table reads GNU Radio's parameter `gr`.
    pub fn reads(&self, gr: &str) -> bool {
        self.params.iter().any(|p| p.reads().contains(&gr))
    }

    /// The registry parameter that GNU Radio's parameter `gr` sets: the
    /// one an entry names, else the one the registry block `spec`
    /// declares as `gr` or with the alias `gr`.
    pub fn registry_param(&self, spec: &BlockSpec, gr: &str) -> Option<&'static str> {
        if let Some((_, rf)) = self
            .params
            .iter()
            .find_map(|p| p.translates().filter(|(g, _)| *g == gr))
        {
            return Some(rf);
        }
        // An argument of a call the mapping builds sets that call's
        // registry parameter (the RRC filter's `alpha` sets its taps).
        if let Some(rf) = self.params.iter().find_map(|p| match *p {
            P::Call { rf, args, .. } if args.iter().any(|(g, _)| *g == gr) => Some(rf),
            _ => None,
        }) {
            return Some(rf);
        }
        if NEVER_BY_NAME.contains(&gr) || self.reads(gr) {
            return None;
        }
        spec.params
            .iter()
            .find(|p| p.name == gr || p.aliases.contains(&gr))
            .map(|p| p.name)
    }
}

/// GNU Radio's item type names → the registry's (`ItemKind` names).
pub const ITEM_TYPES: &[(&str, &str)] = &[
    ("complex", "c32"),
    ("float", "f32"),
    ("int", "i32"),
    ("short", "i16"),
    ("byte", "u8"),
    ("fc32", "c32"),
    ("f32", "f32"),
    ("c32", "c32"),
];

/// The registry item type for GNU Radio's item type name.
pub fn item_type(gr: &str) -> Option<&'static str> {
    ITEM_TYPES
        .iter()
        .find(|(g, _)| *g == gr.trim())
        .map(|(_, r)| *r)
}

/// Message ports whose registry name differs from GNU Radio's:
/// (GNU Radio block id, GNU Radio port, registry port). Ports not listed
/// keep their name.
pub const MESSAGE_PORTS: &[(&str, &str, &str)] = &[
    ("freq_xlating_fir_filter_xxx", "freq", "center"),
    // Hardware sources become `sdr_source`.
    ("uhd_usrp_source", "command", "cmd"),
    ("osmosdr_source", "command", "cmd"),
];

/// The registry name of GNU Radio block `gr`'s message port `port`.
pub fn message_port<'a>(gr: &str, port: &'a str) -> &'a str {
    MESSAGE_PORTS
        .iter()
        .find(|(g, p, _)| *g == gr && *p == port)
        .map_or(port, |(_, _, r)| r)
}

/// Every entry of the table.
pub fn all() -> impl Iterator<Item = &'static Map> {
    [
        analog::MAPS,
        blocks::MAPS,
        channels::MAPS,
        digital::MAPS,
        fec::MAPS,
        fft::MAPS,
        filter::MAPS,
        network::MAPS,
        pdu::MAPS,
        qtgui::MAPS,
        zeromq::MAPS,
    ]
    .into_iter()
    .flatten()
}

/// The entry for the GNU Radio block id `gr`.
pub fn find(gr: &str) -> Option<&'static Map> {
    all().find(|m| m.gr == gr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_gnu_radio_id_is_mapped_once() {
        let mut seen = BTreeSet::new();
        for m in all() {
            assert!(seen.insert(m.gr), "{} mapped twice", m.gr);
        }
        assert!(seen.len() > 60, "{}", seen.len());
        assert_eq!(find("blocks_throttle").map(|m| m.rf), Some("throttle"));
        assert_eq!(item_type("complex"), Some("c32"));
    }
}
