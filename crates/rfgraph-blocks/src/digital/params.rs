//! Parameter readers shared by this crate's specs: integer lists given as
//! numbers, float vectors or lists, and `msb`/`lsb` endianness.

use rfgraph::Pmt;
use rfgraph::registry::{BuildError, Params};
use rfgraph_dsp::digital::Endianness;

/// A list of whole numbers: a float vector of whole values, or a list of
/// integers/whole floats.
pub(crate) fn ints(p: &Params, name: &str) -> Result<Vec<i64>, BuildError> {
    let whole = |x: f64| (x.is_finite() && x.fract() == 0.0).then_some(x as i64);
    let bad = || p.invalid(name, "expected a list of whole numbers");
    match p.raw(name)? {
        Pmt::VecF32(v) => v.iter().map(|&x| whole(x as f64).ok_or_else(bad)).collect(),
        Pmt::List(v) => v
            .iter()
            .map(|x| match x {
                Pmt::I64(i) => Ok(*i),
                Pmt::U64(u) => i64::try_from(*u).map_err(|_| bad()),
                other => other.as_f64().and_then(whole).ok_or_else(bad),
            })
            .collect(),
        Pmt::Blob(b) => Ok(b.iter().map(|&x| x as i64).collect()),
        Pmt::I64(i) => Ok(vec![*i]),
        Pmt::U64(u) => Ok(vec![i64::try_from(*u).map_err(|_| bad())?]),
        _ => Err(bad()),
    }
}

/// `endianness`: any text naming `msb` or `lsb` (`msb`, `gr.GR_LSB_FIRST`).
pub(crate) fn endianness(p: &Params, name: &str) -> Result<Endianness, BuildError> {
    let s = p.string(name)?;
    Endianness::parse(&s)
        .ok_or_else(|| p.invalid(name, format!("`{s}` is neither `msb` nor `lsb`")))
}

/// An unsigned parameter as `u32` within `lo..=hi`.
pub(crate) fn u32_in(p: &Params, name: &str, lo: u32, hi: u32) -> Result<u32, BuildError> {
    let v = p.u64(name)?;
    if v < lo as u64 || v > hi as u64 {
        return Err(p.invalid(name, format!("{v} is not in {lo}..={hi}")));
    }
    Ok(v as u32)
}
