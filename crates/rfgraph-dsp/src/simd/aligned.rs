//! 32-byte-aligned `f32` storage for tap vectors. Owns the alignment only: the
//! slice it hands out has exactly the length it was given (the storage behind
//! it is rounded up to whole 8-lane blocks, which are never read as taps).

use bytemuck::{Pod, Zeroable};

#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(32))]
struct Lane8([f32; 8]);

/// A 32-byte-aligned `f32` buffer.
#[derive(Clone)]
pub struct AlignedF32 {
    lanes: Vec<Lane8>,
    len: usize,
}

impl AlignedF32 {
    /// Copies `data` into aligned storage.
    pub(crate) fn new(data: &[f32]) -> AlignedF32 {
        let mut lanes = vec![Lane8([0.0; 8]); data.len().div_ceil(8)];
        let flat: &mut [f32] = bytemuck::cast_slice_mut(&mut lanes);
        flat[..data.len()].copy_from_slice(data);
        AlignedF32 {
            lanes,
            len: data.len(),
        }
    }

    /// The contents, exactly as given.
    pub(crate) fn as_slice(&self) -> &[f32] {
        &bytemuck::cast_slice(&self.lanes)[..self.len]
    }
}

impl core::fmt::Debug for AlignedF32 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
