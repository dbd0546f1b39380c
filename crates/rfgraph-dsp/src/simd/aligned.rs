//! 32-byte-aligned, zero-padded `f32` storage for tap vectors. Owns the padding
//! rule (length rounded up to a multiple of 8) that lets the SIMD loops run
//! without tails.

use bytemuck::{Pod, Zeroable};

#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(32))]
struct Lane8([f32; 8]);

/// A 32-byte-aligned `f32` buffer whose length is a multiple of 8.
#[derive(Clone)]
pub struct AlignedF32 {
    lanes: Vec<Lane8>,
}

impl AlignedF32 {
    /// Copies `data` after `lead` zeros, then pads with zeros up to a multiple of 8.
    pub(crate) fn with_lead(lead: usize, data: &[f32]) -> AlignedF32 {
        let len = (lead + data.len()).div_ceil(8) * 8;
        let mut lanes = vec![Lane8([0.0; 8]); len / 8];
        let flat: &mut [f32] = bytemuck::cast_slice_mut(&mut lanes);
        flat[lead..lead + data.len()].copy_from_slice(data);
        AlignedF32 { lanes }
    }

    /// The padded contents.
    pub(crate) fn as_slice(&self) -> &[f32] {
        bytemuck::cast_slice(&self.lanes)
    }

    /// Padded length in `f32`.
    pub(crate) fn len(&self) -> usize {
        self.lanes.len() * 8
    }
}

impl core::fmt::Debug for AlignedF32 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
