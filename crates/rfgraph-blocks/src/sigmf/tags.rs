//! How SigMF metadata becomes stream tags and back: the tag mapping.
//!
//! This module owns [`tag_keys`], the conversion between JSON values and
//! [`Pmt`]s, the tags `SigmfSource` emits for a recording, and the
//! `MetaBuilder` through which `SigmfSink` turns tags into captures and
//! annotations. The mapping is documented once, in the `sigmf` module.

use super::error::SigmfError;
use super::meta::{Annotation, Capture, Global, SigmfMeta};
use super::parse::{annotation_from_json, capture_from_json};
use rfgraph::{Pmt, Tag};
use serde_json::{Map, Number, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The tag keys of the SigMF mapping (see the [module](super) docs).
pub mod tag_keys {
    pub use rfgraph::tag::keys::{COMMENT, DATETIME, FREQUENCY, SAMPLE_RATE};
    /// A capture's `core:global_index` (`U64`).
    pub const GLOBAL_INDEX: &str = "core:global_index";
    /// An annotation's `core:label` (`String`).
    pub const LABEL: &str = "core:label";
    /// An annotation's `core:sample_count` (`U64`).
    pub const SAMPLE_COUNT: &str = "core:sample_count";
    /// An annotation's `core:freq_lower_edge` in Hz (`F64`).
    pub const FREQ_LOWER_EDGE: &str = "core:freq_lower_edge";
    /// An annotation's `core:freq_upper_edge` in Hz (`F64`).
    pub const FREQ_UPPER_EDGE: &str = "core:freq_upper_edge";
    /// An annotation's `core:generator` (`String`).
    pub const GENERATOR: &str = "core:generator";
    /// An annotation's `core:uuid` (`String`).
    pub const UUID: &str = "core:uuid";
    /// A whole SigMF annotation, at its `core:sample_start`: a `Pmt::Map`
    /// of its other keys (`core:sample_count`, `core:label`, ...,
    /// extension keys), as `SigmfSource` emits and `SigmfSink` records.
    pub const ANNOTATION: &str = "rfgraph:annotation";
}

use tag_keys::*;

/// The keys a plain (non-[`ANNOTATION`]) tag contributes to an annotation.
const ANNOTATION_FIELDS: [&str; 7] = [
    LABEL,
    COMMENT,
    SAMPLE_COUNT,
    FREQ_LOWER_EDGE,
    FREQ_UPPER_EDGE,
    GENERATOR,
    UUID,
];

/// A JSON value as a [`Pmt`]: integers as `U64` (or `I64` when negative),
/// other numbers as `F64`, arrays as `List`, objects as `Map`.
pub fn json_to_pmt(v: &Value) -> Pmt {
    match v {
        Value::Null => Pmt::Null,
        Value::Bool(b) => Pmt::Bool(*b),
        Value::Number(n) => n
            .as_u64()
            .map(Pmt::U64)
            .or_else(|| n.as_i64().map(Pmt::I64))
            .unwrap_or_else(|| Pmt::F64(n.as_f64().unwrap_or(f64::NAN))),
        Value::String(s) => Pmt::String(s.clone()),
        Value::Array(a) => Pmt::List(a.iter().map(json_to_pmt).collect()),
        Value::Object(o) => Pmt::Map(o.iter().map(|(k, v)| (k.clone(), json_to_pmt(v))).collect()),
    }
}

/// A [`Pmt`] as a JSON value; `Err` names what JSON cannot hold (a NaN or
/// infinite number).
pub fn pmt_to_json(p: &Pmt) -> Result<Value, String> {
    let float = |f: f64| {
        Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("{f} is not a JSON number"))
    };
    Ok(match p {
        Pmt::Null => Value::Null,
        Pmt::Bool(b) => Value::Bool(*b),
        Pmt::I64(i) => Value::from(*i),
        Pmt::U64(u) => Value::from(*u),
        Pmt::F32(f) => float(f64::from(*f))?,
        Pmt::F64(f) => float(*f)?,
        Pmt::String(s) => Value::String(s.clone()),
        Pmt::Blob(b) => Value::Array(b.iter().map(|&x| Value::from(x)).collect()),
        Pmt::VecF32(v) => Value::Array(
            v.iter()
                .map(|&x| float(f64::from(x)))
                .collect::<Result<_, _>>()?,
        ),
        Pmt::VecComplexF32(v) => Value::Array(
            v.iter()
                .map(|[re, im]| {
                    Ok(Value::Array(vec![
                        float(f64::from(*re))?,
                        float(f64::from(*im))?,
                    ]))
                })
                .collect::<Result<_, String>>()?,
        ),
        Pmt::Complex([re, im]) => Value::Array(vec![float(*re)?, float(*im)?]),
        Pmt::Uniform(u) => u.to_plain_json(),
        Pmt::List(l) | Pmt::Tuple(l) => {
            Value::Array(l.iter().map(pmt_to_json).collect::<Result<_, _>>()?)
        }
        Pmt::Pair(pair) => Value::Array(vec![pmt_to_json(&pair.0)?, pmt_to_json(&pair.1)?]),
        Pmt::Map(m) => Value::Object(
            m.iter()
                .map(|(k, v)| Ok((k.clone(), pmt_to_json(v)?)))
                .collect::<Result<Map<_, _>, String>>()?,
        ),
    })
}

/// An annotation's fields other than its start, as the [`ANNOTATION`]
/// tag's map.
pub(crate) fn annotation_pmt(a: &Annotation) -> Pmt {
    let mut m = BTreeMap::new();
    if let Some(n) = a.sample_count {
        m.insert(SAMPLE_COUNT.to_string(), Pmt::U64(n));
    }
    for (k, v) in [
        (FREQ_LOWER_EDGE, a.freq_lower_edge),
        (FREQ_UPPER_EDGE, a.freq_upper_edge),
    ] {
        if let Some(f) = v {
            m.insert(k.to_string(), Pmt::F64(f));
        }
    }
    for (k, v) in [
        (LABEL, &a.label),
        (COMMENT, &a.comment),
        (GENERATOR, &a.generator),
        (UUID, &a.uuid),
    ] {
        if let Some(s) = v {
            m.insert(k.to_string(), Pmt::String(s.clone()));
        }
    }
    for (k, v) in &a.extra {
        m.insert(k.clone(), json_to_pmt(v));
    }
    Pmt::Map(m)
}

/// The tags a recording's metadata puts on its samples, by sample index,
/// in index order (captures' tags before annotations' at one index).
pub(crate) fn source_tags(meta: &SigmfMeta) -> Vec<Tag> {
    let mut tags = Vec::new();
    let rate = meta.global.sample_rate;
    if let Some(r) = rate
        && meta.captures.first().is_none_or(|c| c.sample_start > 0)
    {
        tags.push(Tag::new(0, SAMPLE_RATE, r));
    }
    for c in &meta.captures {
        let at = c.sample_start;
        if let Some(r) = rate {
            tags.push(Tag::new(at, SAMPLE_RATE, r));
        }
        if let Some(f) = c.frequency {
            tags.push(Tag::new(at, FREQUENCY, f));
        }
        if let Some(d) = &c.datetime {
            tags.push(Tag::new(at, DATETIME, d.as_str()));
        }
        if let Some(g) = c.global_index {
            tags.push(Tag::new(at, GLOBAL_INDEX, g));
        }
        for (k, v) in &c.extra {
            tags.push(Tag::new(at, k.as_str(), json_to_pmt(v)));
        }
    }
    for a in &meta.annotations {
        tags.push(Tag::new(a.sample_start, ANNOTATION, annotation_pmt(a)));
    }
    // Stable: captures keep their place before annotations at one index.
    tags.sort_by_key(|t| t.index);
    tags
}

/// A key in an extension namespace (`ns:key`, `ns` neither `core` nor
/// `rfgraph`).
fn is_extension(key: &str) -> bool {
    key.split_once(':')
        .is_some_and(|(ns, k)| !ns.is_empty() && !k.is_empty() && ns != "core" && ns != "rfgraph")
}

/// Where the sample rate of a recording being written comes from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Rate {
    /// Given to the sink: `core:sample_rate` tags are ignored.
    Fixed(f64),
    /// The first `core:sample_rate` tag (none yet: `None`).
    FromTags(Option<f64>),
}

/// Collects captures and annotations from the tags a sink receives.
#[derive(Debug)]
pub(crate) struct MetaBuilder {
    file: PathBuf,
    pub(crate) rate: Rate,
    pub(crate) captures: Vec<Capture>,
    pub(crate) annotations: Vec<Annotation>,
}

impl MetaBuilder {
    /// A builder for the metadata file `file` (named in errors).
    pub(crate) fn new(file: &Path, rate: Rate, captures: Vec<Capture>) -> Self {
        Self {
            file: file.to_path_buf(),
            rate,
            captures,
            annotations: Vec::new(),
        }
    }

    fn tag_error(&self, t: &Tag, index: u64, reason: impl Into<String>) -> SigmfError {
        SigmfError::Tag {
            file: self.file.clone(),
            index,
            key: t.key.clone(),
            reason: reason.into(),
        }
    }

    /// Records the tags on sample `index` (all of them at once: tags on
    /// one sample make one capture and one annotation).
    pub(crate) fn add(&mut self, index: u64, tags: &[&Tag]) -> Result<(), SigmfError> {
        let mut capture: Option<Map<String, Value>> = None;
        let mut plain: Option<Map<String, Value>> = None;
        let mut extensions = Map::new();
        for t in tags {
            let json = || pmt_to_json(&t.value).map_err(|e| self.tag_error(t, index, e));
            match t.key.as_str() {
                SAMPLE_RATE => self.rate(t, index)?,
                FREQUENCY | DATETIME | GLOBAL_INDEX => {
                    capture
                        .get_or_insert_with(Map::new)
                        .insert(t.key.clone(), json()?);
                }
                ANNOTATION => {
                    let Pmt::Map(_) = &t.value else {
                        return Err(self.tag_error(t, index, "must be a map of annotation fields"));
                    };
                    let mut fields = json()?.as_object().cloned().unwrap_or_default();
                    fields.insert("core:sample_start".into(), index.into());
                    let a = annotation_from_json(&Value::Object(fields), "annotation", &self.file)
                        .map_err(|e| {
                            self.tag_error(t, index, format!("`{}` {}", json_key(&e), reason_of(e)))
                        })?;
                    self.annotations.push(a);
                }
                k if ANNOTATION_FIELDS.contains(&k) => {
                    plain
                        .get_or_insert_with(Map::new)
                        .insert(t.key.clone(), json()?);
                }
                k if is_extension(k) => {
                    extensions.insert(t.key.clone(), json()?);
                }
                _ => {}
            }
        }
        if let Some(mut fields) = capture {
            fields.extend(extensions);
            fields.insert("core:sample_start".into(), index.into());
            let c =
                capture_from_json(&Value::Object(fields), "capture", &self.file).map_err(|e| {
                    SigmfError::Tag {
                        file: self.file.clone(),
                        index,
                        key: json_key(&e),
                        reason: reason_of(e),
                    }
                })?;
            self.push_capture(c);
        } else if !extensions.is_empty() {
            plain.get_or_insert_with(Map::new).extend(extensions);
        }
        if let Some(mut fields) = plain {
            fields.insert("core:sample_start".into(), index.into());
            let a = annotation_from_json(&Value::Object(fields), "annotation", &self.file)
                .map_err(|e| SigmfError::Tag {
                    file: self.file.clone(),
                    index,
                    key: json_key(&e),
                    reason: reason_of(e),
                })?;
            self.annotations.push(a);
        }
        Ok(())
    }

    fn rate(&mut self, t: &Tag, index: u64) -> Result<(), SigmfError> {
        if let Rate::Fixed(_) = self.rate {
            return Ok(());
        }
        let Some(r) = t.value.as_f64().filter(|r| *r > 0.0 && *r <= 1e12) else {
            return Err(self.tag_error(
                t,
                index,
                format!(
                    "must be a positive number of samples per second, found {:?}",
                    t.value
                ),
            ));
        };
        match self.rate {
            Rate::FromTags(None) => self.rate = Rate::FromTags(Some(r)),
            Rate::FromTags(Some(first)) if first != r => {
                return Err(self.tag_error(
                    t,
                    index,
                    format!(
                        "the rate changed from {first} to {r} samples/s, but a SigMF recording has one \
                         sample rate (give the sink a rate to ignore rate tags)"
                    ),
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// Adds a capture from tags: merged into one already at its sample
    /// (the sink's initial capture), otherwise a new one that keeps the
    /// previous capture's frequency unless it has its own (the centre
    /// frequency still holds; SigMF wants it repeated in every segment).
    fn push_capture(&mut self, c: Capture) {
        match self.captures.last_mut() {
            Some(last) if last.sample_start == c.sample_start => {
                last.frequency = c.frequency.or(last.frequency);
                last.datetime = c.datetime.or(last.datetime.take());
                last.global_index = c.global_index.or(last.global_index);
                last.extra.extend(c.extra);
            }
            last => {
                let frequency = c.frequency.or(last.and_then(|l| l.frequency));
                self.captures.push(Capture { frequency, ..c });
            }
        }
    }

    /// The sample rate, if known.
    pub(crate) fn sample_rate(&self) -> Option<f64> {
        match self.rate {
            Rate::Fixed(r) => Some(r),
            Rate::FromTags(r) => r,
        }
    }

    /// The metadata of a recording of `samples` samples: captures and
    /// annotations that start past the end are left out, and annotations
    /// that run past it end there (a run stopped early); at least one
    /// capture (at sample 0).
    pub(crate) fn meta(&self, global: &Global, samples: u64) -> SigmfMeta {
        let mut global = global.clone();
        global.sample_rate = self.sample_rate();
        let mut captures: Vec<Capture> = self
            .captures
            .iter()
            .filter(|c| c.sample_start <= samples)
            .cloned()
            .collect();
        if captures.is_empty() {
            captures.push(Capture::at(0));
        }
        let mut annotations: Vec<Annotation> = self
            .annotations
            .iter()
            .filter(|a| a.sample_start <= samples)
            .cloned()
            .map(|mut a| {
                if let Some(n) = a.sample_count.as_mut() {
                    *n = (*n).min(samples - a.sample_start);
                }
                a
            })
            .collect();
        annotations.sort_by_key(|a| a.sample_start);
        SigmfMeta {
            global,
            captures,
            annotations,
        }
    }
}

/// The key a metadata error's JSON path ends in (`capture.core:datetime`
/// → `core:datetime`).
fn json_key(e: &SigmfError) -> String {
    e.json_path()
        .and_then(|p| p.split_once('.').map(|(_, k)| k.to_string()))
        .unwrap_or_default()
}

/// A metadata error's reason alone.
fn reason_of(e: SigmfError) -> String {
    match e {
        SigmfError::Meta { reason, .. } => reason,
        other => other.to_string(),
    }
}
