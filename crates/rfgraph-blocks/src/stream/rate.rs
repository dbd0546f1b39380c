//! Rate-changing stream operators whose rates may change while they run,
//! with their registry entries: [`KeepMInN`] (GNU Radio's `keep_m_in_n`),
//! [`KeepOneInN`] (`keep_one_in_n`), [`Repeat`] (`repeat`) and
//! [`MatrixInterleaver`] (`matrix_interleaver`). Each moves its tags by
//! its rate, from the last change on.

use super::regroup::{Groups, Regrouped};
use crate::spec_util::{for_any_item, kind_of};
use rfgraph::params::{ItemKind, ParamSet, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, Item, ParamError, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};

/// The parameters of [`KeepMInN`] (`keep_m_in_n`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct KeepMInNParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// items kept per group
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, settable)]
    pub m: usize,
    /// items per group
    #[param(default = 2, min = 1, max = limits::MAX_FACTOR, settable)]
    pub n: usize,
    /// first kept item of each group; `offset + m` is at most `n`
    #[param(default = 0, max = limits::MAX_FACTOR, settable)]
    pub offset: usize,
}

impl KeepMInNParams {
    fn check(&self) -> Result<(), ParamError> {
        if self.m > self.n {
            return Err(ParamError::new(
                "keep_m_in_n",
                "m",
                format!("keeps {} items of groups of n = {}", self.m, self.n),
            ));
        }
        if self.offset + self.m > self.n {
            return Err(ParamError::new(
                "keep_m_in_n",
                "offset",
                format!("{} + m {} is more than n {}", self.offset, self.m, self.n),
            ));
        }
        Ok(())
    }
}

impl<T: Item> Groups<T> for KeepMInNParams {
    fn set_item(&mut self, kind: ItemKind) {
        self.item = kind;
    }
    fn group_in(&self) -> usize {
        self.n
    }
    fn group_out(&self) -> usize {
        self.m
    }
    fn process(&self, input: &[T], output: &mut [T]) {
        for (o, i) in output
            .chunks_exact_mut(self.m)
            .zip(input.chunks_exact(self.n))
        {
            o.copy_from_slice(&i[self.offset..self.offset + self.m]);
        }
    }
}

/// Of every `n` input items, keeps the `m` starting at `offset`; an
/// incomplete last group is dropped. `m`, `n` and `offset` may change
/// while it runs, as GNU Radio's setters: the items not yet in a whole
/// group start the next group with the new values. Tags move by the rate
/// `m/n`.
///
/// # Parameters
/// [`KeepMInNParams`].
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::{KeepMInN, KeepMInNParams};
/// let keep = KeepMInN::<f32>::new(KeepMInNParams { m: 2, n: 5, offset: 1, ..Default::default() })?;
/// # let _ = keep;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub type KeepMInN<T> = Regrouped<T, KeepMInNParams>;

/// The parameters of [`KeepOneInN`] (`keep_one_in_n`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct KeepOneInNParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// vectors per group, the last one kept; a change starts a new group
    /// at once, as GNU Radio's `set_n`
    #[param(default = 2, min = 1, max = limits::MAX_FACTOR, settable)]
    pub n: usize,
    /// GNU Radio vector length
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

/// Keeps the last vector of `vlen` items of every `n`, as GNU Radio's
/// `keep_one_in_n` (an incomplete last group gives nothing). A new `n`
/// while it runs counts a fresh group from the next vector on, as GNU
/// Radio's `set_n` does. Tag indices are divided by `n`, counted from the
/// last change.
///
/// # Parameters
/// [`KeepOneInNParams`].
pub struct KeepOneInN<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: KeepOneInNParams,
    /// Vectors until the next kept one, this one included (GNU Radio's
    /// `d_count`).
    count: usize,
    /// The input and output positions where the rate last changed.
    base: (u64, u64),
}

impl<T: Item> KeepOneInN<T> {
    /// The block `params` describe (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range.
    pub fn new(mut params: KeepOneInNParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let vlen = params.vlen;
        Ok(Self {
            input: StreamInput::new("in").with_min_items(vlen),
            output: StreamOutput::new("out").with_min_items(vlen),
            count: params.n,
            params,
            base: (0, 0),
        })
    }
}

impl<T: Item> Block for KeepOneInN<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        self.count = self.params.n;
        self.base = (self.input.position(), self.output.position());
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let (n, vlen) = (self.params.n, self.params.vlen);
        let start = self.input.position();
        let i = self.input.slice();
        let o = self.output.slice();
        let vectors = i.len() / vlen;
        let (mut used, mut written) = (0, 0);
        while used < vectors {
            let skip = self.count - 1;
            if vectors - used <= skip {
                self.count -= vectors - used;
                used = vectors;
                break;
            }
            if o.len() - written < vlen {
                // No room for the kept vector: pass the ones before it.
                used += skip;
                self.count = 1;
                break;
            }
            let at = (used + skip) * vlen;
            o[written..written + vlen].copy_from_slice(&i[at..at + vlen]);
            written += vlen;
            used += skip + 1;
            self.count = n;
        }
        let consumed = (used * vlen) as u64;
        if consumed > 0 {
            let (in_at, out_at) = self.base;
            let position = self.output.position();
            for t in self.input.tags() {
                if (start..start + consumed).contains(&t.index) {
                    let rel = u128::from(t.index - in_at) / n as u128;
                    let at = out_at.saturating_add(u64::try_from(rel).unwrap_or(u64::MAX));
                    let offset = usize::try_from(at.saturating_sub(position)).unwrap_or(usize::MAX);
                    self.output.add_tag(offset, &t.key, t.value);
                }
            }
        }
        self.input.consume(used * vlen);
        self.output.produce(written);
        Ok(())
    }
}

/// The parameters of [`Repeat`] (`repeat`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
pub struct RepeatParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// copies of each item (or vector); a change applies from the next
    /// input vector on, as GNU Radio's `set_interpolation`
    #[param(default = 1, min = 1, max = limits::MAX_FACTOR, alias = "interp", settable)]
    pub interpolation: usize,
    /// GNU Radio vector length: whole vectors repeat
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

/// Writes every input vector of `vlen` items `interpolation` times in a
/// row. A new `interpolation` while it runs applies from the next input
/// vector. Tag indices are multiplied by `interpolation` (within the
/// vector they arrive on).
///
/// # Parameters
/// [`RepeatParams`].
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::{Repeat, RepeatParams};
/// let repeat = Repeat::<f32>::new(RepeatParams { interpolation: 4, ..Default::default() })?;
/// # let _ = repeat;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct Repeat<T: Item> {
    input: StreamInput<T>,
    output: StreamOutput<T>,
    params: RepeatParams,
    /// The copies of the vector in progress, and the items of them
    /// written (0: no vector in progress).
    copies: usize,
    written: usize,
}

impl<T: Item> Repeat<T> {
    /// The block `params` describe (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range.
    pub fn new(mut params: RepeatParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in").with_min_items(params.vlen),
            output: StreamOutput::new("out"),
            copies: params.interpolation,
            params,
            written: 0,
        })
    }

    /// Attaches the tags of the input vector starting at `start` to its
    /// copies, which start at the output's position.
    fn forward_tags(&self, start: u64, items: usize, n: usize) {
        for t in self.input.tags() {
            if (start..start + items as u64).contains(&t.index) {
                let offset = usize::try_from(t.index - start).unwrap_or(usize::MAX);
                self.output
                    .add_tag(offset.saturating_mul(n), &t.key, t.value);
            }
        }
    }
}

impl<T: Item> Block for Repeat<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let vlen = self.params.vlen;
        loop {
            if self.written == 0 {
                // Whole vectors with room for all their copies.
                let n = self.params.interpolation;
                self.copies = n;
                let start = self.input.position();
                let i = self.input.slice();
                let o = self.output.slice();
                let groups = (i.len() / vlen).min(o.len() / (n * vlen));
                if groups > 0 {
                    for (o, v) in o[..groups * n * vlen]
                        .chunks_exact_mut(n * vlen)
                        .zip(i.chunks_exact(vlen))
                    {
                        for copy in o.chunks_exact_mut(vlen) {
                            copy.copy_from_slice(v);
                        }
                    }
                    self.forward_tags(start, groups * vlen, n);
                    self.input.consume(groups * vlen);
                    self.output.produce(groups * n * vlen);
                }
                // The next vector starts, if it is there and has room for
                // at least part of its copies.
                let start = self.input.position();
                if self.input.slice().len() < vlen || self.output.free() == 0 {
                    return Ok(());
                }
                self.forward_tags(start, vlen, n);
            }
            // The vector in progress: its next copies, item by item.
            let total = self.copies * vlen;
            let i = self.input.slice();
            let o = self.output.slice();
            let k = (total - self.written).min(o.len());
            for (j, out) in o[..k].iter_mut().enumerate() {
                *out = i[(self.written + j) % vlen];
            }
            self.output.produce(k);
            self.written += k;
            if self.written < total {
                return Ok(());
            }
            self.input.consume(vlen);
            self.written = 0;
        }
    }
}

/// The parameters of [`MatrixInterleaver`] (`matrix_interleaver`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct MatrixInterleaverParams {
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
    /// rows of the matrix
    #[param(default = 1, min = 1, max = limits::MAX_ELEMENTS, settable)]
    pub rows: usize,
    /// columns of the matrix
    #[param(default = 1, min = 1, max = limits::MAX_ELEMENTS, settable)]
    pub cols: usize,
    /// undo the interleaving
    #[param(default = false, alias = "deint", settable)]
    pub deinterleave: bool,
    /// GNU Radio vector length: each matrix entry is a vector
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
}

impl MatrixInterleaverParams {
    /// Items per matrix.
    fn size(&self) -> Option<usize> {
        self.rows
            .checked_mul(self.cols)
            .and_then(|s| s.checked_mul(self.vlen))
    }

    fn check(&self) -> Result<(), ParamError> {
        match self.size() {
            Some(s) if s <= limits::MAX_ELEMENTS => Ok(()),
            _ => Err(ParamError::new(
                "matrix_interleaver",
                "rows",
                format!(
                    "a matrix of {} × {} vectors of {} is more than {} items",
                    self.rows,
                    self.cols,
                    self.vlen,
                    limits::MAX_ELEMENTS
                ),
            )),
        }
    }
}

impl<T: Item> Groups<T> for MatrixInterleaverParams {
    fn set_item(&mut self, kind: ItemKind) {
        self.item = kind;
    }
    fn group_in(&self) -> usize {
        self.rows * self.cols * self.vlen
    }
    fn group_out(&self) -> usize {
        self.rows * self.cols * self.vlen
    }
    fn process(&self, input: &[T], output: &mut [T]) {
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

/// Transposes every `rows × cols` block of GNU Radio vectors: written
/// row by row, read column by column (`deinterleave` undoes it). An
/// incomplete last block is dropped. The shape may change while it
/// runs, as GNU Radio's `set_rowsandcols`: the items not yet in a whole
/// block start the next block of the new shape. Tags keep their index.
///
/// # Parameters
/// [`MatrixInterleaverParams`].
///
/// # Usage
/// ```
/// use rfgraph_blocks::stream::{MatrixInterleaver, MatrixInterleaverParams};
/// let block = MatrixInterleaver::<u8>::new(MatrixInterleaverParams {
///     rows: 3,
///     cols: 4,
///     ..Default::default()
/// })?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub type MatrixInterleaver<T> = Regrouped<T, MatrixInterleaverParams>;

/// A block of one input and one output of `T`.
fn one_to_one(spec: BlockSpec) -> BlockSpec {
    spec.input(PortSpec::new("in", PortItem::OfType))
        .output(PortSpec::new("out", PortItem::OfType))
}

/// `matrix_interleaver`: GNU Radio's `blocks_matrix_interleaver`.
pub(crate) fn matrix_interleaver_spec() -> BlockSpec {
    one_to_one(BlockSpec::of::<MatrixInterleaverParams>(
        "matrix_interleaver",
        "Stream Operators",
        "Transposes every `rows × cols` block of items (or vectors).",
        |p| for_any_item!(kind = p.item, T => MatrixInterleaver::<T>::new(p)?),
    )
    .doc("Items come in row by row and leave column by column; with `deinterleave` the other way round. An incomplete last block is dropped. `rows`, `cols` and `deinterleave` may change while the flowgraph runs, as GNU Radio's `set_rowsandcols`: the items not yet in a whole block start the next block of the new shape. A block holds at most 2^26 items."))
}

/// `keep_m_in_n`: GNU Radio's `blocks_keep_m_in_n`.
pub(crate) fn keep_m_in_n_spec() -> BlockSpec {
    one_to_one(BlockSpec::of::<KeepMInNParams>(
        "keep_m_in_n",
        "Stream Operators",
        "Keeps `m` items of every `n`, starting at `offset`.",
        |p| for_any_item!(kind = p.item, T => KeepMInN::<T>::new(p)?),
    )
    .doc("Of every group of `n` input items, writes items `offset .. offset + m`; an incomplete last group is dropped. Tags move by the rate m/n. `m`, `n` and `offset` may change while the flowgraph runs, as GNU Radio's setters (a change that would leave `offset + m` above `n` is refused): the items not yet in a whole group start the next group."))
}

/// `keep_one_in_n`: GNU Radio's `blocks_keep_one_in_n`.
pub(crate) fn keep_one_in_n_spec() -> BlockSpec {
    one_to_one(BlockSpec::of::<KeepOneInNParams>(
        "keep_one_in_n",
        "Stream Operators",
        "Keeps the last item (or vector) of every `n`.",
        |p| for_any_item!(kind = p.item, T => KeepOneInN::<T>::new(p)?),
    )
    .doc("Of every group of `n` input vectors (of `vlen` items), writes the last, as GNU Radio does; an incomplete last group is dropped. `n` may change while the flowgraph runs: as GNU Radio's `set_n`, a new group starts at the next vector."))
}

/// `repeat`: GNU Radio's `blocks_repeat`.
pub(crate) fn repeat_spec() -> BlockSpec {
    one_to_one(BlockSpec::of::<RepeatParams>(
        "repeat",
        "Stream Operators",
        "Writes every item `interpolation` times.",
        |p| for_any_item!(kind = p.item, T => Repeat::<T>::new(p)?),
    )
    .doc("Writes each input vector of `vlen` items `interpolation` times in a row (`a b` → `a a a b b b` for 3), so the output rate is `interpolation` times the input's; any item type. `interpolation` and `vlen` must be at least 1. With `vlen` above 1 the whole vector repeats, not each item. Tags move to the matching output position (the index scaled by `interpolation`). `interpolation` may change while the flowgraph runs, as GNU Radio's `set_interpolation`: from the next input vector on. GNU Radio's `blocks_repeat`."))
}
