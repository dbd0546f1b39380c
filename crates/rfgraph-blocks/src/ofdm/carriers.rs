//! The nested-list parameters of the OFDM blocks and their defaults:
//! [`CarrierSets`] (GNU Radio's `std::vector<std::vector<int>>`,
//! occupied and pilot carriers) and [`SymbolSets`]
//! (`std::vector<std::vector<gr_complex>>`, pilot symbols and sync
//! words), both parameters of type `any` that take a list of lists
//! (GRC's tuples of tuples); and the values of GNU Radio's
//! `digital/ofdm_txrx.py` (IEEE 802.11a-like carriers, its scrambled
//! pilot symbols and its two Schmidl & Cox sync words).

use num_complex::Complex32;
use rfgraph::Pmt;
use rfgraph::params::{ParamType, ParamValue, PmtTypeError, describe, limits};

/// Lists of carrier indices, one list per OFDM symbol, used in turn
/// (symbol `i` uses list `i mod len`). Negative indices count from the
/// end (`-1` is carrier `fft_len − 1`, the one left of DC). Written as a
/// list of lists: `[[-26, ..., 26]]`, GRC's `((-26, ..., 26),)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CarrierSets(pub Vec<Vec<i64>>);

/// Lists of complex symbols, one list per OFDM symbol (pilot symbols) or
/// per sync word. Written as a list of lists of numbers (complex ones as
/// `[re, im]` pairs or complex literals).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SymbolSets(pub Vec<Vec<Complex32>>);

/// The lists of a list-of-lists value, or why it is none.
fn outer(pmt: &Pmt, what: &str) -> Result<Vec<Pmt>, PmtTypeError> {
    let bad = |found: String| PmtTypeError {
        param: None,
        expected: ParamType::Any,
        found: format!("{found} (expected a list of lists of {what})"),
    };
    let lists = match pmt {
        Pmt::List(v) | Pmt::Tuple(v) => v.clone(),
        other => return Err(bad(describe(other))),
    };
    if lists.len() > limits::MAX_ELEMENTS {
        return Err(bad(format!("{} lists", lists.len())));
    }
    Ok(lists)
}

/// A tuple as a list (the element conversions read lists).
fn as_list(p: Pmt) -> Pmt {
    match p {
        Pmt::Tuple(v) => Pmt::List(v),
        other => other,
    }
}

/// Converts every inner list of `pmt` with `inner`, bounding the total.
fn nested<T>(
    pmt: &Pmt,
    what: &str,
    inner: impl Fn(Pmt) -> Result<Vec<T>, PmtTypeError>,
) -> Result<Vec<Vec<T>>, PmtTypeError> {
    let mut total = 0usize;
    let mut sets = Vec::new();
    for (i, p) in outer(pmt, what)?.into_iter().enumerate() {
        let found = describe(&p);
        let set = inner(as_list(p)).map_err(|_| PmtTypeError {
            param: None,
            expected: ParamType::Any,
            found: format!("list {i}: {found} (expected a list of {what})"),
        })?;
        total = total.saturating_add(set.len());
        if total > limits::MAX_ELEMENTS {
            return Err(PmtTypeError {
                param: None,
                expected: ParamType::Any,
                found: format!("more than {} {what} in all", limits::MAX_ELEMENTS),
            });
        }
        sets.push(set);
    }
    Ok(sets)
}

impl ParamValue for CarrierSets {
    const TYPE: ParamType = ParamType::Any;

    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        nested(&pmt, "carrier indices", Vec::<i64>::from_pmt).map(Self)
    }

    fn to_pmt(&self) -> Pmt {
        Pmt::List(
            self.0
                .iter()
                .map(|s| Pmt::List(s.iter().map(|&c| Pmt::I64(c)).collect()))
                .collect(),
        )
    }
}

impl ParamValue for SymbolSets {
    const TYPE: ParamType = ParamType::Any;

    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        nested(&pmt, "complex numbers", Vec::<Complex32>::from_pmt).map(Self)
    }

    fn to_pmt(&self) -> Pmt {
        Pmt::List(self.0.iter().map(|s| s.to_pmt()).collect())
    }
}

impl CarrierSets {
    /// The carriers `ofdm_txrx.py` occupies with data: −26 to 26 without
    /// DC and the pilots ±7 and ±21, one list for every symbol.
    pub fn txrx_occupied() -> Self {
        let data = (-26..-21)
            .chain(-20..-7)
            .chain(-6..0)
            .chain(1..7)
            .chain(8..21)
            .chain(22..27)
            .collect();
        Self(vec![data])
    }

    /// The pilot carriers of `ofdm_txrx.py`: −21, −7, 7 and 21.
    pub fn txrx_pilots() -> Self {
        Self(vec![vec![-21, -7, 7, 21]])
    }
}

/// The scrambling sequence `ofdm_txrx.py` multiplies its pilots with.
const TXRX_PILOT_SCRAMBLE: [i8; 127] = [
    1, 1, 1, 1, -1, -1, -1, 1, -1, -1, -1, -1, 1, 1, -1, 1, -1, -1, 1, 1, -1, 1, 1, -1, 1, 1, 1, 1,
    1, 1, -1, 1, 1, 1, -1, 1, 1, -1, -1, 1, 1, 1, -1, 1, -1, -1, -1, 1, -1, 1, -1, -1, 1, -1, -1,
    1, 1, 1, 1, 1, -1, -1, 1, 1, -1, -1, 1, -1, 1, -1, 1, 1, -1, -1, -1, 1, 1, -1, -1, -1, -1, 1,
    -1, -1, 1, -1, 1, 1, 1, 1, -1, 1, -1, 1, -1, 1, -1, -1, -1, -1, -1, 1, -1, 1, 1, -1, 1, -1, 1,
    1, 1, -1, -1, 1, -1, -1, -1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
];

/// The signs of `ofdm_txrx.py`'s first sync word for `fft_len = 64`
/// (shifted: DC in the middle); its values are `±√2`.
const TXRX_SYNC_WORD1: [i8; 64] = [
    0, 0, 0, 0, 0, 0, 0, 1, 0, -1, 0, 1, 0, -1, 0, -1, 0, -1, 0, 1, 0, -1, 0, 1, 0, -1, 0, -1, 0,
    -1, 0, -1, 0, 1, 0, -1, 0, 1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 1, 0, 1, 0, -1, 0, 1, 0, 1, 0, 1, 0,
    0, 0, 0, 0, 0,
];

/// `ofdm_txrx.py`'s second sync word for `fft_len = 64` (shifted).
const TXRX_SYNC_WORD2: [i8; 64] = [
    0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 1, 1, -1, -1, -1, 1, -1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1,
    1, -1, -1, 1, -1, 0, 1, -1, 1, 1, 1, -1, 1, 1, 1, -1, 1, 1, 1, 1, -1, 1, -1, -1, -1, 1, -1, 1,
    -1, -1, -1, -1, 0, 0, 0, 0, 0,
];

impl SymbolSets {
    /// The pilot symbols of `ofdm_txrx.py`: 127 lists `(x, x, x, −x)`,
    /// `x` its scrambling sequence.
    pub fn txrx_pilot_symbols() -> Self {
        Self(
            TXRX_PILOT_SCRAMBLE
                .iter()
                .map(|&x| {
                    let x = f32::from(x);
                    [x, x, x, -x].map(|v| Complex32::new(v, 0.0)).to_vec()
                })
                .collect(),
        )
    }

    /// `ofdm_txrx.py`'s two sync words for `fft_len = 64` and its default
    /// carriers (its `_make_sync_word1` and `_make_sync_word2`).
    pub fn txrx_sync_words() -> Self {
        Self(vec![txrx_sync_word1(), txrx_sync_word2()])
    }
}

/// `ofdm_txrx.py`'s first sync word (`fft_len = 64`): `±√2` on every
/// second active carrier.
pub fn txrx_sync_word1() -> Vec<Complex32> {
    let root2 = std::f64::consts::SQRT_2 as f32;
    TXRX_SYNC_WORD1
        .iter()
        .map(|&s| Complex32::new(f32::from(s) * root2, 0.0))
        .collect()
}

/// `ofdm_txrx.py`'s second sync word (`fft_len = 64`): `±1` on every
/// active carrier.
pub fn txrx_sync_word2() -> Vec<Complex32> {
    TXRX_SYNC_WORD2
        .iter()
        .map(|&s| Complex32::new(f32::from(s), 0.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_of_lists_read_back() {
        let c = CarrierSets(vec![vec![1, -2], vec![]]);
        assert_eq!(CarrierSets::from_pmt(c.to_pmt()).unwrap(), c);
        let s = SymbolSets(vec![vec![Complex32::new(1.0, -1.0)], vec![]]);
        assert_eq!(SymbolSets::from_pmt(s.to_pmt()).unwrap(), s);
        let tuple = Pmt::Tuple(vec![Pmt::Tuple(vec![Pmt::I64(3)])]);
        assert_eq!(
            CarrierSets::from_pmt(tuple).unwrap(),
            CarrierSets(vec![vec![3]])
        );
        assert!(CarrierSets::from_pmt(Pmt::I64(3)).is_err());
        assert!(CarrierSets::from_pmt(Pmt::List(vec![Pmt::F64(0.5)])).is_err());
        assert!(SymbolSets::from_pmt(Pmt::from("x")).is_err());
    }

    #[test]
    fn txrx_values_have_their_shapes() {
        assert_eq!(CarrierSets::txrx_occupied().0[0].len(), 48);
        assert_eq!(SymbolSets::txrx_pilot_symbols().0.len(), 127);
        assert_eq!(txrx_sync_word1().len(), 64);
        assert_eq!(txrx_sync_word2().len(), 64);
    }
}
