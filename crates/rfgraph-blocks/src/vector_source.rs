//! `VectorSource`: plays a vector (optionally repeated) with its tags;
//! built from parameters, the vector and its tags may change while it
//! runs (GNU Radio's `vector_source::set_data`).

use crate::spec_util::kind_of;
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamSet, ParamType, ParamValue, PmtTypeError, limits};
use rfgraph::{Block, BoxError, Item, ParamError, Pmt, Ports, StreamOutput, Tag, WorkIo};

/// The tags of a vector source's `tags` parameter: each `[offset, key,
/// value]` (or a map with those keys), the offset counted in GNU Radio
/// vectors from the vector's start. Null or an empty list is no tags.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceTags(pub Vec<Tag>);

impl SourceTags {
    /// One tag from `[offset, key, value]` or `{offset, key, value}`.
    fn tag(p: &Pmt) -> Option<Tag> {
        let (offset, key, value) = match p {
            Pmt::List(t) if t.len() == 3 => (&t[0], &t[1], t[2].clone()),
            Pmt::Map(m) => (
                m.get("offset")?,
                m.get("key")?,
                m.get("value").cloned().unwrap_or(Pmt::Null),
            ),
            _ => return None,
        };
        let offset = u64::from_pmt(offset.clone()).ok()?;
        match key {
            Pmt::String(k) => Some(Tag::new(offset, k.clone(), value)),
            _ => None,
        }
    }
}

impl ParamValue for SourceTags {
    const TYPE: ParamType = ParamType::Any;

    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        let bad = |found: String| PmtTypeError {
            param: None,
            expected: ParamType::Any,
            found: format!("{found} (expected a list of [offset, key, value] tags)"),
        };
        match &pmt {
            Pmt::Null => Ok(Self::default()),
            Pmt::VecF32(v) if v.is_empty() => Ok(Self::default()),
            Pmt::List(items) => items
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    Self::tag(t)
                        .ok_or_else(|| bad(format!("tag {i}: {}", rfgraph::params::describe(t))))
                })
                .collect::<Result<Vec<Tag>, _>>()
                .map(Self),
            other => Err(bad(rfgraph::params::describe(other))),
        }
    }

    fn to_pmt(&self) -> Pmt {
        Pmt::List(
            self.0
                .iter()
                .map(|t| {
                    Pmt::List(vec![
                        Pmt::U64(t.index),
                        Pmt::String(t.key.clone()),
                        t.value.clone(),
                    ])
                })
                .collect(),
        )
    }
}

/// The parameters of [`VectorSource`] (`vector_source`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct VectorSourceParams {
    /// the items to play (complex ones as `[re, im]` pairs); a new vector
    /// while running plays from its start at once, as GNU Radio's
    /// `set_data`
    #[param(
        default = vec![Complex32::new(0.0, 0.0); 3],
        max_len = limits::MAX_ELEMENTS,
        alias = "vector",
        settable
    )]
    pub values: Vec<Complex32>,
    /// play again at the end, for ever
    #[param(default = false)]
    pub repeat: bool,
    /// tags on the items, `[offset, key, value]` each, the offset in
    /// vectors of `vlen` from the vector's start (on every repetition); new
    /// tags while running restart the vector, as new `values` do
    #[param(default = SourceTags::default(), settable)]
    pub tags: SourceTags,
    /// items per GNU Radio vector: `values` holds whole vectors and tag
    /// offsets count vectors
    #[param(default = 1, min = 1, max = limits::MAX_VLEN)]
    pub vlen: usize,
    /// stream item type
    #[param(name = "type", kinds(F32, C32, F64, I32, I16, I8, U8))]
    pub item: ItemKind,
}

/// Why `value` (number `i` of `values`) is no item of `kind`, if it is not
/// one.
fn misfit(kind: ItemKind, i: usize, value: Complex32) -> Option<String> {
    let (re, im) = (value.re, value.im);
    if kind == ItemKind::C32 {
        return None;
    }
    if im != 0.0 {
        return Some(format!(
            "item {i} ({re}, {im}) is complex; `{kind}` items are real"
        ));
    }
    let range = match kind {
        ItemKind::I32 => Some((i32::MIN as f64, i32::MAX as f64)),
        ItemKind::I16 => Some((i16::MIN as f64, i16::MAX as f64)),
        ItemKind::I8 => Some((i8::MIN as f64, i8::MAX as f64)),
        ItemKind::U8 => Some((0.0, u8::MAX as f64)),
        _ => None,
    };
    let re = re as f64;
    match range {
        Some((lo, hi)) if re.fract() != 0.0 || re < lo || re > hi => {
            Some(format!("item {i} ({re}) is not a `{kind}`"))
        }
        _ => None,
    }
}

impl VectorSourceParams {
    fn check(&self) -> Result<(), ParamError> {
        let invalid = |param: &str, reason: String| ParamError::new("vector_source", param, reason);
        if !self.values.len().is_multiple_of(self.vlen) {
            return Err(invalid(
                "values",
                format!(
                    "has {} items, not whole vectors of {}",
                    self.values.len(),
                    self.vlen
                ),
            ));
        }
        if let Some(reason) = self
            .values
            .iter()
            .enumerate()
            .find_map(|(i, &v)| misfit(self.item, i, v))
        {
            return Err(invalid("values", reason));
        }
        if self.tags.0.len() > limits::MAX_ELEMENTS {
            return Err(invalid(
                "tags",
                format!(
                    "has {} tags, more than the {} allowed",
                    self.tags.0.len(),
                    limits::MAX_ELEMENTS
                ),
            ));
        }
        let vectors = (self.values.len() / self.vlen) as u64;
        if let Some(t) = self.tags.0.iter().find(|t| t.index >= vectors) {
            return Err(invalid(
                "tags",
                format!(
                    "tag `{}` at offset {} lies past the vector's {vectors} items",
                    t.key, t.index
                ),
            ));
        }
        Ok(())
    }
}

/// An item type a [`VectorSource`] built from parameters plays: one of
/// the registry's item kinds, made from a value of `values`.
pub trait VectorItem: Item {
    /// `value` as an item, if it is one (whole and in range for integers,
    /// real for real types).
    fn from_value(value: Complex32) -> Option<Self>;
}

impl VectorItem for Complex32 {
    fn from_value(value: Complex32) -> Option<Self> {
        Some(value)
    }
}

macro_rules! vector_item {
    ($($t:ty => $kind:ident),*) => {$(
        impl VectorItem for $t {
            fn from_value(value: Complex32) -> Option<Self> {
                match misfit(ItemKind::$kind, 0, value) {
                    None => Some(value.re as $t),
                    Some(_) => None,
                }
            }
        }
    )*};
}

vector_item!(f32 => F32, f64 => F64, i32 => I32, i16 => I16, i8 => I8, u8 => U8);

/// The items a source plays and their tags (indices in items).
type Played<T> = (Vec<T>, Vec<Tag>);

/// The items and tags `params` describe, for item type `T`.
fn play<T: VectorItem>(params: &VectorSourceParams) -> Result<Played<T>, ParamError> {
    let items = params
        .values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            T::from_value(v).ok_or_else(|| {
                ParamError::new(
                    "vector_source",
                    "values",
                    format!("item {i} ({}, {}) is no item of this source", v.re, v.im),
                )
            })
        })
        .collect::<Result<Vec<T>, _>>()?;
    let tags = params
        .tags
        .0
        .iter()
        .map(|t| Tag::new(t.index * params.vlen as u64, t.key.clone(), t.value.clone()))
        .collect();
    Ok((items, tags))
}

/// A source built from parameters: the parameters, and how they become
/// items of its type.
struct Declared<T> {
    params: VectorSourceParams,
    play: fn(&VectorSourceParams) -> Result<Played<T>, ParamError>,
}

/// Writes the items of a vector, `repeat` times, attaching tags at their
/// indices (relative to each repetition), then finishes.
///
/// # Parameters
/// Built by [`from_params`](Self::from_params): [`VectorSourceParams`],
/// whose `values` and `tags` may change while the source runs (it then
/// plays the new vector from its start). Built from Rust items with
/// [`new`](Self::new), for any item type, it has no declared parameters.
pub struct VectorSource<T: Item> {
    output: StreamOutput<T>,
    items: Vec<T>,
    tags: Vec<Tag>,
    repeat: u64,
    /// Items written since the vector (re)started.
    written: u64,
    declared: Option<Declared<T>>,
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
            declared: None,
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

impl<T: VectorItem> VectorSource<T> {
    /// The source `params` describe (the item type is `T`'s).
    ///
    /// Errors: a parameter out of its range, values that are no items of
    /// the type or not whole vectors, a tag past the vector's end.
    pub fn from_params(mut params: VectorSourceParams) -> Result<Self, ParamError> {
        params.item = kind_of::<T>().unwrap_or(params.item);
        params.validate()?;
        let (items, tags) = play::<T>(&params)?;
        let times = if params.repeat { u64::MAX } else { 1 };
        Ok(Self {
            declared: Some(Declared {
                params,
                play: play::<T>,
            }),
            ..Self::new(items).with_tags(tags).repeat(times)
        })
    }
}

impl<T: Item> Block for VectorSource<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        self.declared
            .as_mut()
            .map(|d| &mut d.params as &mut dyn ParamSet)
    }

    fn params_changed(&mut self, _name: &str) -> Result<(), BoxError> {
        // `values` or `tags`: GNU Radio's set_data, which rewinds.
        if let Some(d) = &self.declared {
            let (items, mut tags) = (d.play)(&d.params)?;
            tags.sort_by_key(|t| t.index);
            self.items = items;
            self.tags = tags;
            self.written = 0;
        }
        Ok(())
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
    use crate::spec_util::for_any_item;
    use rfgraph::registry::{BlockSpec, PortItem, PortSpec};

    BlockSpec::of::<VectorSourceParams>(
        "vector_source",
        "Sources",
        "Plays a list of values, once or repeated, with tags.",
        |p| for_any_item!(kind = p.item, T => VectorSource::<T>::from_params(p)?),
    )
    .doc(
        "Writes `values` on `out` once, or over and over with `repeat`, with `tags` \
          on their items on every pass (GNU Radio's `blocks_vector_source`). Complex \
          values are `[re, im]` pairs; real types need real values, integer types \
          whole numbers in their range. Values are read as `f32`, so integers beyond \
          2^24 lose precision. Tags are `[offset, key, value]` lists, the offset in \
          vectors of `vlen` (an offset past the vector is refused). `values` and \
          `tags` may change while the flowgraph runs: as GNU Radio's `set_data`, the \
          source then plays the new vector from its start.",
    )
    .output(PortSpec::new("out", PortItem::OfType))
}
