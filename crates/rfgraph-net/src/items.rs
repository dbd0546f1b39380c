//! The item types the network blocks carry, for their registry
//! constructors: GNU Radio's five (`complex`, `float`, `int`, `short`,
//! `byte`) for its blocks, and every stream type for host links.

/// The item types GNU Radio's network blocks carry (`complex`, `float`,
/// `int`, `short`, `byte`), for a `BlockSpec::of` constructor:
/// `for_network_item!(p.item, T => TcpSink::<T>::new(p)?)`.
macro_rules! for_network_item {
    ($kind:expr, $t:ident => $body:expr) => {
        rfgraph::for_item_kinds!($kind, {
            C32 => num_complex::Complex32,
            F32 => f32,
            I32 => i32,
            I16 => i16,
            U8 => u8,
        } as $t => $body)
    };
}
pub(crate) use for_network_item;

/// Every stream item type, for the host links, which carry whatever the
/// edge they replace carried: `for_any_item!(p.item, T => ...)`.
macro_rules! for_any_item {
    ($kind:expr, $t:ident => $body:expr) => {
        rfgraph::for_item_kinds!($kind, {
            C32 => num_complex::Complex32,
            F32 => f32,
            F64 => f64,
            I32 => i32,
            I16 => i16,
            I8 => i8,
            U8 => u8,
        } as $t => $body)
    };
}
pub(crate) use for_any_item;

/// The item kind whose Rust type is `T`, when it is one of the network
/// blocks' types: what a generic block built from Rust code reports as
/// its `type` parameter.
pub(crate) fn kind_of<T: 'static>() -> Option<rfgraph::params::ItemKind> {
    use rfgraph::params::ItemKind;
    use std::any::TypeId;
    let id = TypeId::of::<T>();
    [
        (TypeId::of::<num_complex::Complex32>(), ItemKind::C32),
        (TypeId::of::<f32>(), ItemKind::F32),
        (TypeId::of::<i32>(), ItemKind::I32),
        (TypeId::of::<i16>(), ItemKind::I16),
        (TypeId::of::<u8>(), ItemKind::U8),
    ]
    .into_iter()
    .find(|(t, _)| *t == id)
    .map(|(_, k)| k)
}
