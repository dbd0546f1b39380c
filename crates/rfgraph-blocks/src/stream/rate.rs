//! Fixed-rate stream operators as [`FixedRateKernel`]s, with their
//! registry entries: [`KeepMInN`] (GNU Radio's `keep_m_in_n` and
//! `keep_one_in_n`), [`Repeat`] (`repeat`) and [`MatrixInterleaver`]
//! (`matrix_interleaver`). Tags move by the rate.

use rfgraph::registry::{BlockSpec, ItemKind, ParamSpec, Params, PortItem, PortSpec};
use rfgraph::{FixedRateBlock, FixedRateKernel, Item};
use std::marker::PhantomData;

/// Of every `n` input items, keeps the `m` starting at `offset`.
///
/// # Stream Inputs
/// - `in`: `T`, in groups of `n`.
///
/// # Stream Outputs
/// - `out`: `T`, `m` per group.
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::KeepMInN;
/// let keep = KeepMInN::<f32>::block(2, 5, 1)?;
/// # let _ = keep;
/// # Ok::<(), String>(())
/// ```
pub struct KeepMInN<T> {
    m: usize,
    n: usize,
    offset: usize,
    _item: PhantomData<fn(T) -> T>,
}

impl<T: Item> KeepMInN<T> {
    /// The block keeping items `offset .. offset + m` of every `n`.
    ///
    /// Errors: `m` or `n` of 0, or `offset + m` above `n`.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(m: usize, n: usize, offset: usize) -> Result<FixedRateBlock<Self>, String> {
        if m == 0 || n == 0 {
            return Err("m and n must be at least 1".into());
        }
        if offset.checked_add(m).is_none_or(|end| end > n) {
            return Err(format!("offset {offset} + m {m} is more than n {n}"));
        }
        FixedRateBlock::new(Self {
            m,
            n,
            offset,
            _item: PhantomData,
        })
        .map_err(|e| e.to_string())
    }
}

impl<T: Item> FixedRateKernel for KeepMInN<T> {
    type In = T;
    type Out = T;
    fn interpolation(&self) -> usize {
        self.m
    }
    fn decimation(&self) -> usize {
        self.n
    }
    fn process(&mut self, input: &[T], output: &mut [T]) {
        for (o, i) in output
            .chunks_exact_mut(self.m)
            .zip(input.chunks_exact(self.n))
        {
            o.copy_from_slice(&i[self.offset..self.offset + self.m]);
        }
    }
}

/// Writes every input item `n` times.
///
/// # Stream Inputs
/// - `in`: `T`.
///
/// # Stream Outputs
/// - `out`: `T`, `n` per input item.
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::Repeat;
/// let repeat = Repeat::<f32>::block(4)?;
/// # let _ = repeat;
/// # Ok::<(), String>(())
/// ```
pub struct Repeat<T> {
    n: usize,
    vlen: usize,
    _item: PhantomData<fn(T) -> T>,
}

impl<T: Item> Repeat<T> {
    /// The block repeating each item `n` times.
    ///
    /// Errors: `n` of 0.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(n: usize) -> Result<FixedRateBlock<Self>, String> {
        Self::vectors(n, 1)
    }

    /// The block repeating each GNU Radio vector of `vlen` items `n` times.
    ///
    /// Errors: `n` or `vlen` of 0, or `n · vlen` too large.
    pub fn vectors(n: usize, vlen: usize) -> Result<FixedRateBlock<Self>, String> {
        if n.checked_mul(vlen).is_none() {
            return Err("n · vlen is too large".into());
        }
        FixedRateBlock::new(Self {
            n,
            vlen,
            _item: PhantomData,
        })
        .map_err(|e| e.to_string())
    }
}

impl<T: Item> FixedRateKernel for Repeat<T> {
    type In = T;
    type Out = T;
    fn interpolation(&self) -> usize {
        self.n * self.vlen
    }
    fn decimation(&self) -> usize {
        self.vlen
    }
    fn process(&mut self, input: &[T], output: &mut [T]) {
        if self.vlen == 1 {
            for (o, &x) in output.chunks_exact_mut(self.n).zip(input) {
                o.fill(x);
            }
            return;
        }
        for (o, v) in output
            .chunks_exact_mut(self.n * self.vlen)
            .zip(input.chunks_exact(self.vlen))
        {
            for copy in o.chunks_exact_mut(self.vlen) {
                copy.copy_from_slice(v);
            }
        }
    }
}

/// Transposes every `rows × cols` block of GNU Radio vectors: written
/// row by row, read column by column (`deinterleave` undoes it).
///
/// # Stream Inputs
/// - `in`: `T`, in blocks of `rows · cols · vlen`.
///
/// # Stream Outputs
/// - `out`: `T`, the same items transposed.
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::MatrixInterleaver;
/// let block = MatrixInterleaver::<u8>::block(3, 4, 1, false)?;
/// # let _ = block;
/// # Ok::<(), String>(())
/// ```
pub struct MatrixInterleaver<T> {
    rows: usize,
    cols: usize,
    vlen: usize,
    deinterleave: bool,
    _item: PhantomData<fn(T) -> T>,
}

impl<T: Item> MatrixInterleaver<T> {
    /// The block for `rows × cols` vectors of `vlen`.
    ///
    /// Errors: a dimension of 0 or a block too large.
    #[allow(clippy::new_ret_no_self)]
    pub fn block(
        rows: usize,
        cols: usize,
        vlen: usize,
        deinterleave: bool,
    ) -> Result<FixedRateBlock<Self>, String> {
        let size = rows.checked_mul(cols).and_then(|s| s.checked_mul(vlen));
        if size.is_none_or(|s| s == 0) {
            return Err("rows, cols and vlen must be at least 1, and their product fit".into());
        }
        FixedRateBlock::new(Self {
            rows,
            cols,
            vlen,
            deinterleave,
            _item: PhantomData,
        })
        .map_err(|e| e.to_string())
    }
}

impl<T: Item> FixedRateKernel for MatrixInterleaver<T> {
    type In = T;
    type Out = T;
    fn interpolation(&self) -> usize {
        self.rows * self.cols * self.vlen
    }
    fn decimation(&self) -> usize {
        self.rows * self.cols * self.vlen
    }
    fn process(&mut self, input: &[T], output: &mut [T]) {
        let (rows, cols, v) = (self.rows, self.cols, self.vlen);
        let size = rows * cols * v;
        for (o, i) in output.chunks_exact_mut(size).zip(input.chunks_exact(size)) {
            for r in 0..rows {
                for c in 0..cols {
                    // Entry (r, c) of the row-major matrix, and its place
                    // in the column-major one.
                    let (row_major, col_major) = ((r * cols + c) * v, (c * rows + r) * v);
                    let (from, to) = if self.deinterleave {
                        (col_major, row_major)
                    } else {
                        (row_major, col_major)
                    };
                    o[to..to + v].copy_from_slice(&i[from..from + v]);
                }
            }
        }
    }
}

/// `matrix_interleaver`: GNU Radio's `blocks_matrix_interleaver`.
pub(crate) fn matrix_interleaver_spec() -> BlockSpec {
    BlockSpec::new(
        "matrix_interleaver",
        "Stream Operators",
        "Transposes every `rows × cols` block of items (or vectors).",
        |p: &Params| {
            let (rows, cols, vlen, deint) =
                (p.usize("rows")?, p.usize("cols")?, p.usize("vlen")?, p.bool("deinterleave")?);
            super::any_item!(p, T => MatrixInterleaver::<T>::block(rows, cols, vlen, deint).map_err(|e| p.refused(e))?)
        },
    )
    .doc("Items come in row by row and leave column by column; with `deinterleave` the other way round. An incomplete last block is dropped.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::uint("rows").default(1u64).doc("rows of the matrix"))
    .param(ParamSpec::uint("cols").default(1u64).doc("columns of the matrix"))
    .param(ParamSpec::bool("deinterleave").default(false).doc("undo the interleaving"))
    .param(ParamSpec::uint("vlen").default(1u64).doc("GNU Radio vector length"))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `keep_m_in_n`: GNU Radio's `blocks_keep_m_in_n`.
pub(crate) fn keep_m_in_n_spec() -> BlockSpec {
    BlockSpec::new(
        "keep_m_in_n",
        "Stream Operators",
        "Keeps `m` items of every `n`, starting at `offset`.",
        |p: &Params| {
            let (m, n, offset) = (p.usize("m")?, p.usize("n")?, p.usize("offset")?);
            super::any_item!(p, T => KeepMInN::<T>::block(m, n, offset).map_err(|e| p.refused(e))?)
        },
    )
    .doc("Of every group of `n` input items, writes items `offset .. offset + m`; an incomplete last group is dropped. Tags move by the rate m/n.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::uint("m").default(1u64).doc("items kept per group"))
    .param(ParamSpec::uint("n").default(2u64).doc("items per group"))
    .param(
        ParamSpec::uint("offset")
            .default(0u64)
            .doc("first kept item of each group"),
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `keep_one_in_n`: GNU Radio's `blocks_keep_one_in_n`.
pub(crate) fn keep_one_in_n_spec() -> BlockSpec {
    BlockSpec::new(
        "keep_one_in_n",
        "Stream Operators",
        "Keeps the last item (or vector) of every `n`.",
        |p: &Params| {
            let (n, vlen) = (p.usize("n")?, p.usize("vlen")?);
            let group = n
                .checked_mul(vlen)
                .ok_or_else(|| p.refused("n · vlen is too large"))?;
            super::any_item!(p, T => KeepMInN::<T>::block(vlen, group, group.saturating_sub(vlen)).map_err(|e| p.refused(e))?)
        },
    )
    .doc("Of every group of `n` input vectors (of `vlen` items), writes the last, as GNU Radio does; an incomplete last group is dropped.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(ParamSpec::uint("n").default(2u64).doc("vectors per group"))
    .param(ParamSpec::uint("vlen").default(1u64).doc("GNU Radio vector length"))
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}

/// `repeat`: GNU Radio's `blocks_repeat`.
pub(crate) fn repeat_spec() -> BlockSpec {
    BlockSpec::new(
        "repeat",
        "Stream Operators",
        "Writes every item `interpolation` times.",
        |p: &Params| {
            let (n, vlen) = (p.usize("interpolation")?, p.usize("vlen")?);
            super::any_item!(p, T => Repeat::<T>::vectors(n, vlen).map_err(|e| p.refused(e))?)
        },
    )
    .doc("Writes each input vector of `vlen` items `interpolation` times in a row (`a b` → `a a a b b b` for 3), so the output rate is `interpolation` times the input's; any item type. `interpolation` and `vlen` must be at least 1. With `vlen` above 1 the whole vector repeats, not each item. Tags move to the matching output position (the index scaled by `interpolation`). GNU Radio's `blocks_repeat`.")
    .param(ParamSpec::item_type(&ItemKind::ALL))
    .param(
        ParamSpec::uint("interpolation")
            .default(1u64)
            .doc("copies of each item (or vector)"),
    )
    .param(
        ParamSpec::uint("vlen")
            .default(1u64)
            .doc("GNU Radio vector length"),
    )
    .input(PortSpec::new("in", PortItem::OfType))
    .output(PortSpec::new("out", PortItem::OfType))
}
