//! [`Skip`]: the input samples an interpolating resampler has stepped
//! past the end of one call's input, owed from the start of the next
//! (GNU Radio's blocks ask for them with `consume` beyond what they read).

/// Input samples still to skip before the next interpolation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Skip(usize);

impl Skip {
    /// Pays what is owed out of `len` new samples: the index of the
    /// first sample to use, or `None` when all `len` go to the debt
    /// (consume them all and produce nothing).
    pub(crate) fn pay(&mut self, len: usize) -> Option<usize> {
        let paid = self.0.min(len);
        self.0 -= paid;
        (self.0 == 0).then_some(paid)
    }

    /// Moves the read index `at` on by `step` within `len` samples; when
    /// that runs past the end, owes the overshoot, leaves `at` at `len`
    /// (all samples consumed) and returns `false`.
    pub(crate) fn advance(&mut self, at: &mut usize, step: usize, len: usize) -> bool {
        // A runaway loop may step by `usize::MAX`: owe it, do not wrap.
        let to = at.saturating_add(step);
        if to > len {
            self.0 = to - len;
            *at = len;
            false
        } else {
            *at = to;
            true
        }
    }

    /// Forgets the debt.
    pub(crate) fn clear(&mut self) {
        self.0 = 0;
    }
}
