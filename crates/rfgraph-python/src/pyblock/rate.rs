//! How many items a Python block's `work` sees, by kind (GNU Radio's
//! rules): a sync block as many on every port, a decimating block
//! `decim` input items per output item, an interpolating one `interp`
//! output items per input item, each output count a multiple of the
//! block's output multiple; a general block everything each input holds
//! (its Python side asks `forecast` how many outputs that allows).

use rfgraph::TagPolicy;

/// A Python block's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 1:1 (`python_sync`).
    Sync,
    /// `n` inputs per output (`python_decim`).
    Decim(usize),
    /// `n` outputs per input (`python_interp`).
    Interp(usize),
    /// Its own consume/produce (`python_general`), with its relative
    /// rate for tags (`set_relative_rate`; 1/1 unless set).
    General {
        /// Output items per `decimation` input items.
        interpolation: u64,
        /// Input items per `interpolation` output items.
        decimation: u64,
    },
}

/// The view lengths of one call: each input's, and the outputs' (all
/// outputs get the same length, as in GNU Radio).
#[derive(Debug, PartialEq, Eq)]
pub struct Plan {
    /// Items of each input the views show.
    pub inputs: Vec<usize>,
    /// Items of every output the views show.
    pub outputs: usize,
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `n` rounded down to a multiple of `unit` (≥ 1).
fn round_down(n: usize, unit: usize) -> usize {
    n - n % unit.max(1)
}

impl Kind {
    /// The output multiple `work` calls use: the block's own `multiple`,
    /// and for an interpolating block a multiple of `interp` too.
    pub fn output_unit(self, multiple: usize) -> usize {
        let multiple = multiple.max(1);
        match self {
            Kind::Interp(i) => multiple / gcd(multiple, i) * i,
            _ => multiple,
        }
    }

    /// The fewest input items one call needs on each input (ring sizes).
    pub fn min_input(self, multiple: usize) -> usize {
        let unit = self.output_unit(multiple);
        match self {
            Kind::Sync => unit,
            Kind::Decim(d) => unit.saturating_mul(d),
            Kind::Interp(i) => (unit / i).max(1),
            Kind::General { .. } => 1,
        }
    }

    /// Input items for `produced` output items (`None`: no whole number
    /// of inputs, an interpolating block's `produced` not a multiple of
    /// `interp`). A general block's count is its own (`None` here).
    pub fn consumed_for(self, produced: usize) -> Option<usize> {
        match self {
            Kind::Sync => Some(produced),
            Kind::Decim(d) => produced.checked_mul(d),
            Kind::Interp(i) => produced.is_multiple_of(i).then_some(produced / i),
            Kind::General { .. } => None,
        }
    }

    /// The view lengths for a call given each input's readable items and
    /// the least free space of the outputs (`None` without outputs);
    /// `None` when the call would have nothing to do.
    pub fn plan(self, available: &[usize], free: Option<usize>, multiple: usize) -> Option<Plan> {
        let unit = self.output_unit(multiple);
        let least = available.iter().copied().min();
        let out = |n: usize| free.map_or(n, |f| f.min(n));
        let (inputs, outputs) = match self {
            Kind::General { .. } => {
                let outputs = free.map_or(0, |f| round_down(f, unit));
                let idle = free.is_some() && outputs == 0
                    || !available.is_empty() && available.iter().all(|&a| a == 0);
                if idle {
                    return None;
                }
                (available.to_vec(), outputs)
            }
            _ => {
                let outputs = match (self, least) {
                    (_, None) => free.map_or(0, |f| round_down(f, unit)),
                    (Kind::Decim(d), Some(a)) => round_down(out(a / d), unit),
                    (Kind::Interp(i), Some(a)) => round_down(out(a.saturating_mul(i)), unit),
                    (_, Some(a)) => round_down(out(a), unit),
                };
                if outputs == 0 {
                    return None;
                }
                let each = self.consumed_for(outputs)?;
                (vec![each; available.len()], outputs)
            }
        };
        Some(Plan { inputs, outputs })
    }

    /// How the runtime propagates tags for this kind under GNU Radio's
    /// policy `tpp` (0 don't, 1 all to all, 2 one to one); one to one is
    /// the block's own work (`Manual` here).
    pub fn tag_policy(self, tpp: u8) -> TagPolicy {
        if tpp != 1 {
            return TagPolicy::Manual;
        }
        let (interpolation, decimation) = self.ratio();
        TagPolicy::Propagate {
            interpolation,
            decimation,
        }
    }

    /// Output items per input items, as `(interpolation, decimation)`
    /// (both positive).
    pub fn ratio(self) -> (u64, u64) {
        match self {
            Kind::Decim(d) => (1, d as u64),
            Kind::Interp(i) => (i as u64, 1),
            Kind::General {
                interpolation,
                decimation,
            } => (interpolation, decimation),
            Kind::Sync => (1, 1),
        }
    }
}
