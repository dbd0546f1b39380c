//! Helpers shared by this crate's registry specs (see [`registry`](crate::registry)):
//! building a generic block for its item type, and the item type a
//! generic block built from Rust code was built for.

use rfgraph::params::ItemKind;
use std::any::TypeId;

/// Builds a boxed `$body` for whichever [`ItemKind`] `$kind` names, with
/// `$t` the Rust type of that kind. Inside a `BlockSpec::of` constructor:
/// `for_any_item!(kind = p.item, T => Head::<T>::new(p)?)`. Exported for
/// crates that register blocks of their own (the caller depends on
/// `rfgraph` and `num-complex`).
#[macro_export]
macro_rules! for_any_item {
    (kind = $kind:expr, $t:ident => $body:expr) => {
        ::rfgraph::for_item_kinds!($kind, {
            F32 => f32,
            C32 => ::num_complex::Complex32,
            F64 => f64,
            I32 => i32,
            I16 => i16,
            I8 => i8,
            U8 => u8,
        } as $t => $body)
    };
}
pub(crate) use crate::for_any_item;

/// The item kind whose Rust type is `T`, when it is one: what a generic
/// block built from Rust code reports as its `type` parameter.
pub(crate) fn kind_of<T: 'static>() -> Option<ItemKind> {
    let id = TypeId::of::<T>();
    [
        (TypeId::of::<f32>(), ItemKind::F32),
        (TypeId::of::<num_complex::Complex32>(), ItemKind::C32),
        (TypeId::of::<f64>(), ItemKind::F64),
        (TypeId::of::<i32>(), ItemKind::I32),
        (TypeId::of::<i16>(), ItemKind::I16),
        (TypeId::of::<i8>(), ItemKind::I8),
        (TypeId::of::<u8>(), ItemKind::U8),
    ]
    .into_iter()
    .find(|(t, _)| *t == id)
    .map(|(_, k)| k)
}
