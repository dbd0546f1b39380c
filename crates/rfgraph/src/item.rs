//! What may flow on a stream edge, and how the runtime names item types.

use std::any::TypeId;

/// A stream item: plain old data that may be copied bytewise between threads
/// and devices (`f32`, `u8`, `num_complex::Complex32`, `#[derive(Pod)]`
/// structs). Blanket-implemented.
pub trait Item: bytemuck::Pod + Send + Sync + 'static {}

impl<T: bytemuck::Pod + Send + Sync + 'static> Item for T {}

/// The run-time description of an item type, used to check connections.
#[derive(Clone, Copy, Debug)]
pub struct ItemType {
    id: TypeId,
    name: &'static str,
    size: usize,
    align: usize,
}

impl ItemType {
    /// The description of `T`.
    pub fn of<T: Item>() -> Self {
        Self {
            id: TypeId::of::<T>(),
            name: std::any::type_name::<T>(),
            size: std::mem::size_of::<T>(),
            align: std::mem::align_of::<T>(),
        }
    }

    /// The type's full Rust name, e.g. `num_complex::Complex<f32>`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Size of one item in bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Alignment of one item in bytes.
    pub fn align(&self) -> usize {
        self.align
    }
}

impl PartialEq for ItemType {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for ItemType {}
