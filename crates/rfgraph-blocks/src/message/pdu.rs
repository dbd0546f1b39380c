//! PDUs as messages: GNU Radio's PDU is a pair of a metadata dictionary
//! and a uniform vector, and so is rfgraph's: `Pmt::Pair((Map(meta),
//! data))` with data a `Blob` (bytes), `VecF32`, `VecComplexF32` or
//! another uniform vector, so that a PDU crosses to GNU Radio (through
//! the network blocks) unchanged. The two-item list `[meta, data]` that
//! flowgraph files can write is read as a PDU too.
//! [`PduItem`] converts a PDU's data to and from stream items; [`pdu`]
//! and [`parse`] build and take apart the message.

use num_complex::Complex32;
use rfgraph::{Item, Pmt};
use std::collections::BTreeMap;

/// A stream item type a PDU's data can hold.
pub trait PduItem: Item {
    /// The PDU data holding `items`.
    fn to_data(items: Vec<Self>) -> Pmt;
    /// The items of PDU data of this type; `None` for another type.
    fn from_data(data: &Pmt) -> Option<Vec<Self>>;
}

impl PduItem for u8 {
    fn to_data(items: Vec<Self>) -> Pmt {
        Pmt::Blob(items)
    }
    fn from_data(data: &Pmt) -> Option<Vec<Self>> {
        match data {
            Pmt::Blob(b) => Some(b.clone()),
            _ => None,
        }
    }
}

impl PduItem for f32 {
    fn to_data(items: Vec<Self>) -> Pmt {
        Pmt::VecF32(items)
    }
    fn from_data(data: &Pmt) -> Option<Vec<Self>> {
        match data {
            Pmt::VecF32(v) => Some(v.clone()),
            _ => None,
        }
    }
}

impl PduItem for Complex32 {
    fn to_data(items: Vec<Self>) -> Pmt {
        Pmt::VecComplexF32(items.iter().map(|c| [c.re, c.im]).collect())
    }
    fn from_data(data: &Pmt) -> Option<Vec<Self>> {
        match data {
            Pmt::VecComplexF32(v) => {
                Some(v.iter().map(|&[re, im]| Complex32::new(re, im)).collect())
            }
            _ => None,
        }
    }
}

/// The PDU message of `meta` and `data`.
pub fn pdu(meta: BTreeMap<String, Pmt>, data: Pmt) -> Pmt {
    Pmt::pair(Pmt::Map(meta), data)
}

/// The metadata and data of a PDU message; `None` when `msg` is not one.
/// GNU Radio's empty metadata (`()`, here `Null`) is accepted.
pub fn parse(msg: &Pmt) -> Option<(BTreeMap<String, Pmt>, &Pmt)> {
    let (meta, data) = match msg {
        Pmt::Pair(pair) => (&pair.0, &pair.1),
        Pmt::List(items) if items.len() == 2 => (&items[0], &items[1]),
        _ => return None,
    };
    let meta = match meta {
        Pmt::Map(m) => m.clone(),
        Pmt::Null => BTreeMap::new(),
        _ => return None,
    };
    matches!(
        data,
        Pmt::Blob(_) | Pmt::VecF32(_) | Pmt::VecComplexF32(_) | Pmt::Uniform(_)
    )
    .then_some((meta, data))
}

/// The metadata and data of a PDU, the data any value: GNU Radio's
/// block only needs a pair whose first item is a dictionary (a PDU
/// lambda may make the data a pair, as in GNU Radio's
/// `pdu_lambda_example`; `pdu_set` and `pdu_lambda` take such pairs).
pub(crate) fn meta_pair(msg: &Pmt) -> Option<(std::collections::BTreeMap<String, Pmt>, &Pmt)> {
    if let Some(parsed) = parse(msg) {
        return Some(parsed);
    }
    let Pmt::Pair(pair) = msg else { return None };
    match &pair.0 {
        Pmt::Map(m) => Some((m.clone(), &pair.1)),
        Pmt::Null => Some((Default::default(), &pair.1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdus_round_trip_and_other_messages_are_not_pdus() {
        let meta: BTreeMap<String, Pmt> = [("a".to_string(), Pmt::U64(1))].into_iter().collect();
        let msg = pdu(meta.clone(), u8::to_data(vec![1, 2]));
        let (m, data) = parse(&msg).unwrap();
        assert_eq!(m, meta);
        assert_eq!(u8::from_data(data), Some(vec![1, 2]));
        assert_eq!(f32::from_data(data), None);
        let c = Complex32::to_data(vec![Complex32::new(1.0, 2.0)]);
        assert_eq!(
            Complex32::from_data(&c),
            Some(vec![Complex32::new(1.0, 2.0)])
        );
        assert!(parse(&Pmt::from("TEST")).is_none());
        assert!(parse(&Pmt::List(vec![Pmt::Null, Pmt::U64(3)])).is_none());
        assert!(parse(&Pmt::List(vec![Pmt::Null, Pmt::Blob(vec![])])).is_some());
        assert!(matches!(msg, Pmt::Pair(_)), "GNU Radio's form");
        assert!(parse(&Pmt::pair(Pmt::Null, Pmt::U64(3))).is_none());
    }
}
