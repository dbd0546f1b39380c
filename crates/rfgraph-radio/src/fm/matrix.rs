//! `StereoMatrix`: left and right from sum and difference. Owns only that
//! arithmetic; the mono fallback needs nothing here, since the stereo
//! decoder's difference is zero while it is unlocked.

use rfgraph::{Block, BoxError, Ports, StreamInput, StreamOutput, WorkIo};

/// `left = sum + diff`, `right = sum − diff`.
///
/// With the receiver's scaling (`sum = 0.9·(L+R)/2`, `diff = 0.9·(L−R)/2`)
/// the outputs are `0.9·L` and `0.9·R`: full deviation is just under 1.0.
/// A `diff` of zero gives two equal channels. Tags on either input reach
/// both outputs.
///
/// # Stream Inputs
/// - `sum`: `f32`, L+R.
/// - `diff`: `f32`, L−R, at the same rate.
///
/// # Stream Outputs
/// - `left`: `f32`.
/// - `right`: `f32`.
///
/// # Usage
/// ```
/// use rfgraph_radio::fm::StereoMatrix;
/// let matrix = StereoMatrix::new();
/// # let _ = matrix;
/// ```
pub struct StereoMatrix {
    sum: StreamInput<f32>,
    diff: StreamInput<f32>,
    left: StreamOutput<f32>,
    right: StreamOutput<f32>,
}

impl StereoMatrix {
    /// A matrix.
    pub fn new() -> Self {
        StereoMatrix {
            sum: StreamInput::new("sum"),
            diff: StreamInput::new("diff"),
            left: StreamOutput::new("left"),
            right: StreamOutput::new("right"),
        }
    }
}

impl Default for StereoMatrix {
    fn default() -> Self {
        Self::new()
    }
}

impl Block for StereoMatrix {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.sum)
            .input(&mut self.diff)
            .output(&mut self.left)
            .output(&mut self.right)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let s = self.sum.slice();
        let d = self.diff.slice();
        let l = self.left.slice();
        let r = self.right.slice();
        let n = s.len().min(d.len()).min(l.len()).min(r.len());
        for (((l, r), &s), &d) in l[..n].iter_mut().zip(&mut r[..n]).zip(s).zip(d) {
            *l = s + d;
            *r = s - d;
        }
        self.sum.consume(n);
        self.diff.consume(n);
        self.left.produce(n);
        self.right.produce(n);
        Ok(())
    }
}

/// The registry entry: `stereo_matrix`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::params::NoParams;
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<NoParams>(
        "stereo_matrix",
        "Receivers",
        "Left and right from L+R and L−R.",
        |NoParams| Ok(Box::new(StereoMatrix::new()) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "The FM stereo matrix: `left = sum + diff`, `right = sum − diff`. With the \
         receiver's scaling (`sum = 0.9·(L+R)/2`, `diff = 0.9·(L−R)/2`) the outputs are \
         `0.9·L` and `0.9·R`. Tags on either input reach both outputs.",
    )
    .input(PortSpec::new("sum", PortItem::Fixed(ItemKind::F32)).doc("L+R"))
    .input(PortSpec::new("diff", PortItem::Fixed(ItemKind::F32)).doc("L−R"))
    .output(PortSpec::new("left", PortItem::Fixed(ItemKind::F32)))
    .output(PortSpec::new("right", PortItem::Fixed(ItemKind::F32)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rfgraph::scheduler::Single;
    use rfgraph::{Flowgraph, Pmt, Tag};
    use rfgraph_blocks::{VectorSink, VectorSource};
    use std::time::Duration;

    #[test]
    fn left_and_right_from_sum_and_difference_with_tags() {
        let sum: Vec<f32> = (0..1000).map(|k| k as f32).collect();
        let diff: Vec<f32> = (0..1000).map(|k| (k % 7) as f32).collect();
        let mut fg = Flowgraph::new();
        let s = fg.add(VectorSource::new(sum.clone()));
        let d = fg.add(VectorSource::new(diff.clone()).with_tags(vec![Tag::new(
            500,
            "rfgraph:stereo",
            true,
        )]));
        let m = fg.add(StereoMatrix::new());
        let l = fg.add(VectorSink::<f32>::new());
        let r = fg.add(VectorSink::<f32>::new());
        fg.connect(s, "out", m, "sum").unwrap();
        fg.connect(d, "out", m, "diff").unwrap();
        fg.connect(m, "left", l, "in").unwrap();
        fg.connect(m, "right", r, "in").unwrap();
        let done = fg
            .start(Single::new())
            .unwrap()
            .wait_timeout(Duration::from_secs(60))
            .unwrap();
        let left = done.block::<VectorSink<f32>>(l).unwrap();
        let right = done.block::<VectorSink<f32>>(r).unwrap();
        for k in 0..1000 {
            assert_eq!(left.items()[k], sum[k] + diff[k]);
            assert_eq!(right.items()[k], sum[k] - diff[k]);
        }
        for sink in [left, right] {
            let t: Vec<_> = sink
                .tags()
                .iter()
                .filter(|t| t.key == "rfgraph:stereo")
                .collect();
            assert_eq!(t.len(), 1);
            assert_eq!((t[0].index, &t[0].value), (500, &Pmt::Bool(true)));
        }
    }
}
