//! The types a parameter's value can have ([`ParamType`]) and the stream
//! item types generic blocks are built for ([`ItemKind`]).

use std::fmt;

/// The type of a parameter's value, as flowgraph files, the control port
/// and the bindings see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// `true` or `false`.
    Bool,
    /// A signed integer.
    Int,
    /// A non-negative integer.
    UInt,
    /// A real number.
    Float,
    /// A complex number: a real number, or `[re, im]`.
    Complex,
    /// Text.
    String,
    /// A vector of real numbers (filter taps).
    FloatVec,
    /// A vector of complex numbers.
    ComplexVec,
    /// A vector of integers (lengths, bytes).
    IntVec,
    /// Any value, handed over unconverted.
    Any,
}

impl ParamType {
    /// The name used in error messages and documentation.
    pub fn name(self) -> &'static str {
        match self {
            ParamType::Bool => "bool",
            ParamType::Int => "int",
            ParamType::UInt => "uint",
            ParamType::Float => "float",
            ParamType::Complex => "complex",
            ParamType::String => "string",
            ParamType::FloatVec => "float vector",
            ParamType::ComplexVec => "complex vector",
            ParamType::IntVec => "int vector",
            ParamType::Any => "any",
        }
    }

    /// True for the numeric scalar types a range applies to.
    pub fn is_number(self) -> bool {
        matches!(self, ParamType::Int | ParamType::UInt | ParamType::Float)
    }

    /// True for the vector types a length bound applies to.
    pub fn is_vector(self) -> bool {
        matches!(
            self,
            ParamType::FloatVec | ParamType::ComplexVec | ParamType::IntVec
        )
    }
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The stream item types a generic block may be built for, by the names
/// flowgraph files use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// `f32`, GNU Radio's `float` (`_ff`, `_f`).
    F32,
    /// `Complex32`, GNU Radio's `gr_complex` (`_cc`, `_c`).
    C32,
    /// `f64`.
    F64,
    /// `i32`, GNU Radio's `int` (`_ii`, `_i`).
    I32,
    /// `i16`, GNU Radio's `short` (`_ss`, `_s`).
    I16,
    /// `i8`.
    I8,
    /// `u8`, GNU Radio's `byte`/`char` (`_bb`, `_b`).
    U8,
}

impl ItemKind {
    /// Every kind, in the order names are tried.
    pub const ALL: [ItemKind; 7] = [
        ItemKind::F32,
        ItemKind::C32,
        ItemKind::F64,
        ItemKind::I32,
        ItemKind::I16,
        ItemKind::I8,
        ItemKind::U8,
    ];

    /// The name flowgraph files use (`"f32"`, `"c32"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ItemKind::F32 => "f32",
            ItemKind::C32 => "c32",
            ItemKind::F64 => "f64",
            ItemKind::I32 => "i32",
            ItemKind::I16 => "i16",
            ItemKind::I8 => "i8",
            ItemKind::U8 => "u8",
        }
    }

    /// Every name of every kind: rfgraph's, then GNU Radio's (`float`,
    /// `complex`, `int`, `short`, `byte`, ...) and its suffix letters.
    const SPELLINGS: [(&'static str, ItemKind); 22] = [
        ("f32", ItemKind::F32),
        ("float", ItemKind::F32),
        ("f", ItemKind::F32),
        ("c32", ItemKind::C32),
        ("complex", ItemKind::C32),
        ("c", ItemKind::C32),
        ("complex64", ItemKind::C32),
        ("f64", ItemKind::F64),
        ("double", ItemKind::F64),
        ("i32", ItemKind::I32),
        ("int", ItemKind::I32),
        ("i", ItemKind::I32),
        ("i16", ItemKind::I16),
        ("short", ItemKind::I16),
        ("s", ItemKind::I16),
        ("i8", ItemKind::I8),
        ("u8", ItemKind::U8),
        ("byte", ItemKind::U8),
        ("char", ItemKind::U8),
        ("b", ItemKind::U8),
        ("uchar", ItemKind::U8),
        ("uint8", ItemKind::U8),
    ];

    /// The kind called `name`; GNU Radio's names (`float`, `complex`,
    /// `int`, `short`, `byte`) are accepted too, in any case.
    pub fn parse(name: &str) -> Option<Self> {
        let name = name.trim();
        Self::SPELLINGS
            .iter()
            .find(|(s, _)| s.eq_ignore_ascii_case(name))
            .map(|&(_, k)| k)
    }

    /// Every name [`parse`](Self::parse) takes for one of `kinds`.
    pub fn spellings(kinds: &[ItemKind]) -> Vec<&'static str> {
        Self::SPELLINGS
            .iter()
            .filter(|(_, k)| kinds.contains(k))
            .map(|&(s, _)| s)
            .collect()
    }

    /// Bytes per item.
    pub fn size(self) -> usize {
        match self {
            ItemKind::C32 | ItemKind::F64 => 8,
            ItemKind::F32 | ItemKind::I32 => 4,
            ItemKind::I16 => 2,
            ItemKind::I8 | ItemKind::U8 => 1,
        }
    }
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_kinds_take_rfgraph_and_gnu_radio_names() {
        assert_eq!(ItemKind::parse("complex"), Some(ItemKind::C32));
        assert_eq!(ItemKind::parse("Float"), Some(ItemKind::F32));
        assert_eq!(ItemKind::parse("byte"), Some(ItemKind::U8));
        assert_eq!(ItemKind::parse("quaternion"), None);
        for k in ItemKind::ALL {
            assert_eq!(ItemKind::parse(k.name()), Some(k));
        }
        assert_eq!(ItemKind::C32.size(), 8);
    }
}
