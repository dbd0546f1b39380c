//! Helpers shared by this crate's registry specs (see [`registry`](crate::registry)):
//! the item kinds every generic stream block takes, the `items` limit of
//! endless sources.

use rfgraph::registry::{BuildError, ItemKind, ParamSpec, Params};

/// Every item kind a plain stream block (copy, head, null) can carry.
pub(crate) const ALL_KINDS: [ItemKind; 7] = ItemKind::ALL;

/// Builds a boxed `$body` for whichever [`ItemKind`] `$params` names, with
/// `$t` the Rust type of that kind. Inside a `BlockSpec::of` constructor:
/// `for_any_item!(kind = p.item, T => Head::<T>::new(p)?)`.
macro_rules! for_any_item {
    (kind = $kind:expr, $t:ident => $body:expr) => {
        rfgraph::for_item_kinds!($kind, {
            F32 => f32,
            C32 => num_complex::Complex32,
            F64 => f64,
            I32 => i32,
            I16 => i16,
            I8 => i8,
            U8 => u8,
        } as $t => $body)
    };
    ($params:expr, $t:ident => $body:expr) => {
        rfgraph::for_item_kinds!($params, $params.item_type()?, {
            F32 => f32,
            C32 => num_complex::Complex32,
            F64 => f64,
            I32 => i32,
            I16 => i16,
            I8 => i8,
            U8 => u8,
        } as $t => $body)
    };
}
pub(crate) use for_any_item;

/// The `items` parameter of an endless source: stop after that many.
pub(crate) fn items_param() -> ParamSpec {
    ParamSpec::uint("items")
        .optional()
        .unit("items")
        .doc("stop after this many items (endless when not set)")
}

/// The [`items_param`]'s value, `None` when endless.
pub(crate) fn items(p: &Params) -> Result<Option<u64>, BuildError> {
    p.opt("items")
}
