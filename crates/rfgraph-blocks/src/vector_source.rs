//! `VectorSource`: plays a vector (optionally repeated) with its tags.

use rfgraph::{Block, BoxError, Item, Pmt, Ports, StreamOutput, Tag, WorkIo};

/// Writes the items of a vector, `repeat` times, attaching tags at their
/// indices (relative to each repetition), then finishes.
pub struct VectorSource<T: Item> {
    output: StreamOutput<T>,
    items: Vec<T>,
    tags: Vec<Tag>,
    repeat: u64,
    /// Items written in total.
    written: u64,
}

impl<T: Item> VectorSource<T> {
    /// Plays `items` once.
    pub fn new(items: Vec<T>) -> Self {
        Self {
            output: StreamOutput::new("out"),
            items,
            tags: Vec::new(),
            repeat: 1,
            written: 0,
        }
    }

    /// Attaches `tags`; their `index` is relative to the vector's start.
    pub fn with_tags(mut self, mut tags: Vec<Tag>) -> Self {
        tags.sort_by_key(|t| t.index);
        self.tags = tags;
        self
    }

    /// Plays the vector `times` times.
    pub fn repeat(mut self, times: u64) -> Self {
        self.repeat = times;
        self
    }
}

impl<T: Item> Block for VectorSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let len = self.items.len() as u64;
        let total = len.saturating_mul(self.repeat);
        // One slice per call, however many repetitions it spans: a loop
        // that asked for room again would never return once every reader
        // is gone (the room then never runs out), and a stop could not
        // end the block.
        let out = self.output.slice();
        let room = (out.len() as u64).min(total - self.written) as usize;
        let start = self.written;
        let mut filled = 0;
        while filled < room {
            let offset = ((start + filled as u64) % len) as usize;
            let n = (room - filled).min(self.items.len() - offset);
            rfgraph::copy_items(
                &mut out[filled..filled + n],
                &self.items[offset..offset + n],
            );
            filled += n;
        }
        // The tags of every repetition the items spanned.
        let mut tagged = 0;
        while tagged < filled {
            let offset = ((start + tagged as u64) % len) as usize;
            let n = (filled - tagged).min(self.items.len() - offset);
            let first = self.tags.partition_point(|t| (t.index as usize) < offset);
            for t in self.tags[first..]
                .iter()
                .take_while(|t| (t.index as usize) < offset + n)
            {
                self.output
                    .add_tag(tagged + t.index as usize - offset, &t.key, t.value.clone());
            }
            tagged += n;
        }
        self.written += filled as u64;
        self.output.produce(filled);
        if self.written == total {
            io.finish();
        }
        Ok(())
    }
}

/// The registry entry: `vector_source`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use crate::spec_util::ALL_KINDS;
    use num_complex::Complex32;
    use rfgraph::registry::{
        BlockSpec, BuildError, ItemKind, ParamSpec, Params, PortItem, PortSpec,
    };

    /// The values as integers of `T`: each must be a whole real number in range.
    fn ints<T: TryFrom<i64> + Item>(p: &Params, values: &[[f32; 2]]) -> Result<Vec<T>, BuildError> {
        values
            .iter()
            .enumerate()
            .map(|(i, &[re, im])| {
                let whole = im == 0.0 && re.fract() == 0.0 && re.is_finite();
                whole
                    .then(|| T::try_from(re as i64).ok())
                    .flatten()
                    .ok_or_else(|| {
                        p.invalid(
                            "values",
                            format!(
                                "item {i} ({re}, {im}) is not a `{}`",
                                p.item_type().map(|k| k.name()).unwrap_or("?")
                            ),
                        )
                    })
            })
            .collect()
    }

    fn build<T: Item>(items: Vec<T>, repeat: bool) -> Box<dyn Block> {
        let times = if repeat {
            u64::MAX / (items.len() as u64).max(1)
        } else {
            1
        };
        Box::new(VectorSource::new(items).repeat(times))
    }

    BlockSpec::new(
        "vector_source",
        "Sources",
        "Plays a list of values, once or repeated.",
        |p| {
            let values = p.complexes("values")?;
            let repeat = p.bool("repeat")?;
            let reals = || values.iter().map(|v| v[0]);
            Ok(match p.item_type()? {
                ItemKind::F32 => build(reals().collect::<Vec<f32>>(), repeat),
                ItemKind::F64 => build(reals().map(f64::from).collect::<Vec<f64>>(), repeat),
                ItemKind::C32 => build(
                    values
                        .iter()
                        .map(|&[re, im]| Complex32::new(re, im))
                        .collect(),
                    repeat,
                ),
                ItemKind::I32 => build(ints::<i32>(p, &values)?, repeat),
                ItemKind::I16 => build(ints::<i16>(p, &values)?, repeat),
                ItemKind::I8 => build(ints::<i8>(p, &values)?, repeat),
                ItemKind::U8 => build(ints::<u8>(p, &values)?, repeat),
            })
        },
    )
    .doc(
        "Writes `values` on `out` once, or over and over with `repeat` (GNU Radio's \
          `blocks_vector_source`; tags are not set from files). Complex values are \
          `[re, im]` pairs; integer types need whole numbers in their range. Values \
          are read as `f32`, so integers beyond 2^24 lose precision.",
    )
    .param(
        ParamSpec::complexes("values")
            .default(Pmt::VecF32(vec![0.0, 0.0, 0.0]))
            .doc("the items to play"),
    )
    .param(
        ParamSpec::bool("repeat")
            .default(false)
            .doc("play again at the end, for ever"),
    )
    .param(ParamSpec::item_type(&ALL_KINDS))
    .output(PortSpec::new("out", PortItem::OfType))
}
