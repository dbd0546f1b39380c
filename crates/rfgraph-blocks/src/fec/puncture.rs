//! Puncturing as the extended FEC blocks do it (GNU Radio's
//! `puncture_bb` and `depuncture_bb` with delay 0): a pattern of `0`s and
//! `1`s (`puncpat`, read as GNU Radio's `read_bitlist` reads it: each
//! character a digit, `1` keeps the symbol in its place) applied to
//! successive groups of as many symbols. `11` means no puncturing. The
//! depuncturer fills each hole with the soft byte 127.

use rfgraph::ParamError;

/// The soft byte GNU Radio's depuncturer writes into each hole.
pub(crate) const HOLE: u8 = 127;

/// Longest pattern: GNU Radio holds it in a 32-bit `int`.
const MAX_PATTERN: usize = 31;

/// A puncturing pattern.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Puncture {
    keep: Vec<bool>,
    kept: usize,
}

impl Puncture {
    /// The pattern of `puncpat`; `None` for `11` (GNU Radio then inserts
    /// no puncturer). `block` names the block in an error.
    pub(crate) fn parse(puncpat: &str, block: &str) -> Result<Option<Self>, ParamError> {
        let err = |reason: String| Err(ParamError::new(block, "puncpat", reason));
        let text = puncpat.trim();
        if text == "11" {
            return Ok(None);
        }
        if text.is_empty() || text.len() > MAX_PATTERN {
            return err(format!(
                "must have 1 to {MAX_PATTERN} digits, not {:?}",
                puncpat
            ));
        }
        if !text.bytes().all(|c| c.is_ascii_digit()) {
            return err(format!(
                "must be digits (`1` keeps a symbol), not {puncpat:?}"
            ));
        }
        let keep: Vec<bool> = text.bytes().map(|c| c == b'1').collect();
        let kept = keep.iter().filter(|&&k| k).count();
        if kept == 0 {
            return err(format!("{puncpat:?} keeps no symbol"));
        }
        Ok(Some(Self { keep, kept }))
    }

    /// Symbols per group before puncturing.
    pub(crate) fn size(&self) -> usize {
        self.keep.len()
    }

    /// Symbols per group after puncturing.
    pub(crate) fn kept(&self) -> usize {
        self.kept
    }

    /// Appends the kept symbols of `symbols` (the pattern applied from
    /// its first symbol on, repeated; a last partial group keeps its
    /// first positions' pattern).
    pub(crate) fn puncture<T: Copy>(&self, symbols: &[T], out: &mut Vec<T>) {
        let pattern = self.keep.iter().cycle();
        out.extend(
            symbols
                .iter()
                .zip(pattern)
                .filter(|(_, k)| **k)
                .map(|(s, _)| *s),
        );
    }

    /// Appends `groups` groups of depunctured symbols, taking the kept
    /// ones from `symbols` (which holds `groups · kept()` of them) and
    /// `fill` for the holes.
    pub(crate) fn depuncture<T: Copy>(&self, symbols: &[T], fill: T, out: &mut Vec<T>) {
        let mut next = symbols.iter();
        for group in symbols.chunks(self.kept) {
            if group.len() < self.kept {
                break;
            }
            for &k in &self.keep {
                out.push(if k {
                    *next.next().unwrap_or(&fill)
                } else {
                    fill
                });
            }
        }
    }

    /// How many depunctured symbols `n` punctured ones stand for: whole
    /// groups, then the positions of a last partial group up to its last
    /// kept symbol and the holes after it.
    pub(crate) fn depunctured_len(&self, n: usize) -> usize {
        let (groups, rest) = (n / self.kept, n % self.kept);
        let mut len = groups.saturating_mul(self.size());
        if rest > 0 {
            let mut seen = 0;
            for (i, &k) in self.keep.iter().enumerate() {
                seen += k as usize;
                if seen == rest {
                    // Through the holes that follow.
                    let holes = self.keep[i + 1..].iter().take_while(|&&k| !k).count();
                    len = len.saturating_add(i + 1 + holes);
                    break;
                }
            }
        }
        len
    }

    /// Depunctures one packet of `symbols`, the pattern starting at its
    /// first symbol: [`depunctured_len`](Self::depunctured_len) symbols.
    pub(crate) fn depuncture_packet<T: Copy>(&self, symbols: &[T], fill: T, out: &mut Vec<T>) {
        let len = self.depunctured_len(symbols.len());
        let mut next = symbols.iter();
        for &k in self.keep.iter().cycle().take(len) {
            out.push(if k {
                *next.next().unwrap_or(&fill)
            } else {
                fill
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_parse_as_gnu_radio_reads_them() {
        assert_eq!(Puncture::parse("11", "b").unwrap(), None);
        let p = Puncture::parse("110", "b").unwrap().unwrap();
        assert_eq!((p.size(), p.kept()), (3, 2));
        assert!(Puncture::parse("000", "b").is_err());
        assert!(Puncture::parse("1x1", "b").is_err());
        assert!(Puncture::parse("", "b").is_err());
        // `int(c) == 1`: any other digit is a hole.
        assert_eq!(Puncture::parse("121", "b").unwrap().unwrap().kept(), 2);
    }

    #[test]
    fn puncturing_round_trips() {
        let p = Puncture::parse("1101", "b").unwrap().unwrap();
        let symbols: Vec<u8> = (1..=8).collect();
        let mut punctured = Vec::new();
        p.puncture(&symbols, &mut punctured);
        assert_eq!(punctured, [1, 2, 4, 5, 6, 8]);
        let mut back = Vec::new();
        p.depuncture(&punctured, 0, &mut back);
        assert_eq!(back, [1, 2, 0, 4, 5, 6, 0, 8]);
        let mut packet = Vec::new();
        p.depuncture_packet(&punctured[..4], 0, &mut packet);
        assert_eq!(packet, [1, 2, 0, 4, 5]);
        assert_eq!(p.depunctured_len(5), 7);
        assert_eq!(p.depunctured_len(3), 4);
    }
}
