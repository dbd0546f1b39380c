//! `Limit`: an optional budget of items for sources and `Head`, which
//! finishes the block when it is spent.

use rfgraph::WorkIo;

/// Items a block may still produce (`None`: unlimited).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limit(Option<u64>);

impl Limit {
    /// No limit.
    pub(crate) fn unlimited() -> Self {
        Self(None)
    }

    /// At most `items` items.
    pub(crate) fn of(items: u64) -> Self {
        Self(Some(items))
    }

    /// At most `items` items, or unlimited (a source's `items` parameter).
    pub(crate) fn new(items: Option<u64>) -> Self {
        Self(items)
    }

    /// How many of `available` items may go now.
    #[inline]
    pub(crate) fn allow(&self, available: usize) -> usize {
        self.0
            .map_or(available, |left| (left.min(available as u64)) as usize)
    }

    /// Records `n` items gone; finishes the block when the budget is spent.
    #[inline]
    pub(crate) fn spend(&mut self, n: usize, io: &mut WorkIo) {
        if let Some(left) = &mut self.0 {
            *left -= n as u64;
            if *left == 0 {
                io.finish();
            }
        }
    }
}
