//! Reading `.sigmf-meta` text into a [`SigmfMeta`], checking every field
//! rfgraph knows against the SigMF 1.x schema.
//!
//! `serde_json` parses the text into a `Value` (its recursion limit bounds
//! nesting); this module walks it, so every rejection names the exact JSON
//! path. A syntax error is placed by `json_path::path_at`. The file size is
//! limited ([`MAX_META_BYTES`]). This module never reads the data file:
//! checks against the data's length live in `recording`.

use super::datetime;
use super::error::SigmfError;
use super::format::SampleFormat;
use super::json_path::{index, key, path_at};
use super::meta::{Annotation, Capture, Global, SigmfMeta};
use serde_json::{Map, Value};
use std::io::Read;
use std::path::Path;

/// The largest `.sigmf-meta` file rfgraph reads (64 MiB: about half a
/// million annotations).
pub const MAX_META_BYTES: u64 = 64 << 20;

/// The largest integer SigMF allows (2^63 − 1).
const MAX_INT: u64 = i64::MAX as u64;

/// The largest magnitude of a frequency or sample rate SigMF allows.
const MAX_HZ: f64 = 1e12;

impl SigmfMeta {
    /// Reads and parses the metadata file at `path`.
    ///
    /// Errors: [`SigmfError::Io`] when it cannot be read,
    /// [`SigmfError::MetaTooLarge`] beyond [`MAX_META_BYTES`], and those of
    /// [`parse`](Self::parse).
    pub fn read(path: &Path) -> Result<Self, SigmfError> {
        let file = std::fs::File::open(path).map_err(|e| SigmfError::io(path, "cannot open", e))?;
        let mut text = Vec::new();
        file.take(MAX_META_BYTES + 1)
            .read_to_end(&mut text)
            .map_err(|e| SigmfError::io(path, "cannot read", e))?;
        if text.len() as u64 > MAX_META_BYTES {
            let size = std::fs::metadata(path).map_or(text.len() as u64, |m| m.len());
            return Err(SigmfError::MetaTooLarge {
                file: path.to_path_buf(),
                size,
                limit: MAX_META_BYTES,
            });
        }
        Self::parse(&text, path)
    }

    /// Parses metadata text; `file` names it in errors.
    ///
    /// Errors: [`SigmfError::Json`] for text that is not JSON (with the
    /// path being read and the line, column and byte offset), and
    /// [`SigmfError::Meta`] naming the JSON path of the first value that
    /// is not valid SigMF: a missing `global.core:datatype`, an unknown
    /// datatype, a sample rate that is not positive, a field of the wrong
    /// type, captures or annotations out of order, an unknown top-level key.
    pub fn parse(text: &[u8], file: &Path) -> Result<Self, SigmfError> {
        let value: Value = serde_json::from_slice(text).map_err(|e| json_error(e, text, file))?;
        Walker { file }.document(&value)
    }
}

/// A `serde_json` syntax error, placed by path and byte offset.
fn json_error(e: serde_json::Error, text: &[u8], file: &Path) -> SigmfError {
    let (line, column) = (e.line(), e.column());
    // Line and column (1-based, in bytes) back to an offset.
    let line_start = if line <= 1 {
        0
    } else {
        text.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    let offset = (line_start + column.saturating_sub(1)).min(text.len());
    let reason = e.to_string();
    // serde_json appends " at line L column C"; the error says it already.
    let reason = reason
        .rsplit_once(" at line ")
        .map_or(reason.as_str(), |(r, _)| r)
        .to_string();
    SigmfError::Json {
        file: file.to_path_buf(),
        path: path_at(text, offset),
        line,
        column,
        offset: offset as u64,
        reason,
    }
}

/// How a value reads in a message.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.chars().count() > 40 => {
            format!("the string \"{}…\"", s.chars().take(40).collect::<String>())
        }
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Walks a parsed document; knows the file for its errors.
struct Walker<'a> {
    file: &'a Path,
}

impl Walker<'_> {
    fn err(&self, path: impl Into<String>, reason: impl Into<String>) -> SigmfError {
        SigmfError::meta(self.file, path, reason)
    }

    fn expected(&self, path: &str, what: &str, v: &Value) -> SigmfError {
        self.err(path, format!("must be {what}, found {}", describe(v)))
    }

    fn document(&self, v: &Value) -> Result<SigmfMeta, SigmfError> {
        let root = v.as_object().ok_or_else(|| {
            self.expected(
                "$",
                "an object with `global`, `captures` and `annotations`",
                v,
            )
        })?;
        for k in root.keys() {
            if !matches!(k.as_str(), "global" | "captures" | "annotations") {
                return Err(self.err(
                    key("", k),
                    "not a SigMF key: a recording's metadata holds only `global`, `captures` and `annotations`",
                ));
            }
        }
        let global = match root.get("global") {
            Some(g) => self.global(g)?,
            None => {
                return Err(self.err(
                    "global",
                    "missing: a recording's metadata needs a `global` object with `core:datatype`",
                ));
            }
        };
        // The schema requires both arrays; rfgraph reads a file without
        // them as having none (older writers omit empty ones).
        let captures = match root.get("captures") {
            Some(c) => self.array(c, "captures", |w, v, p| w.capture(v, p))?,
            None => Vec::new(),
        };
        let annotations = match root.get("annotations") {
            Some(a) => self.array(a, "annotations", |w, v, p| w.annotation(v, p))?,
            None => Vec::new(),
        };
        check_order(self, "captures", captures.iter().map(|c| c.sample_start))?;
        check_order(
            self,
            "annotations",
            annotations.iter().map(|a| a.sample_start),
        )?;
        Ok(SigmfMeta {
            global,
            captures,
            annotations,
        })
    }

    fn array<T>(
        &self,
        v: &Value,
        path: &str,
        each: impl Fn(&Self, &Value, &str) -> Result<T, SigmfError>,
    ) -> Result<Vec<T>, SigmfError> {
        let items = v
            .as_array()
            .ok_or_else(|| self.expected(path, "an array", v))?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| each(self, item, &index(path, i)))
            .collect()
    }

    fn object<'v>(&self, v: &'v Value, path: &str) -> Result<&'v Map<String, Value>, SigmfError> {
        v.as_object()
            .ok_or_else(|| self.expected(path, "an object", v))
    }

    fn global(&self, v: &Value) -> Result<Global, SigmfError> {
        let path = "global";
        let map = self.object(v, path)?;
        let datatype = match map.get("core:datatype") {
            Some(d) => self.datatype(d, &key(path, "core:datatype"))?,
            None => {
                return Err(self.err(
                    key(path, "core:datatype"),
                    "missing: every recording must say how its samples are stored (e.g. \"cf32_le\")",
                ));
            }
        };
        let mut g = Global::new(datatype);
        g.version = None;
        for (k, v) in map {
            let p = key(path, k);
            match k.as_str() {
                "core:datatype" => {}
                "core:sample_rate" => {
                    let rate = self.number(v, &p)?;
                    if !(rate > 0.0 && rate <= MAX_HZ) {
                        return Err(self.err(
                            p,
                            format!("must be a positive number of samples per second (at most 1e12), found {rate}"),
                        ));
                    }
                    g.sample_rate = Some(rate);
                }
                "core:version" => {
                    let s = self.string(v, &p)?;
                    if !is_version(s) {
                        return Err(self.err(p, format!("must be a version X.Y.Z, found {s:?}")));
                    }
                    g.version = Some(s.to_string());
                }
                "core:num_channels" => {
                    g.num_channels = self.integer(v, &p)?;
                    if g.num_channels == 0 {
                        return Err(self.err(p, "must be at least 1"));
                    }
                }
                "core:description" => g.description = Some(self.string(v, &p)?.into()),
                "core:author" => g.author = Some(self.string(v, &p)?.into()),
                "core:hw" => g.hw = Some(self.string(v, &p)?.into()),
                "core:recorder" => g.recorder = Some(self.string(v, &p)?.into()),
                "core:license" => g.license = Some(self.string(v, &p)?.into()),
                "core:sha512" => {
                    let s = self.string(v, &p)?;
                    if s.len() != 128 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return Err(self.err(p, "must be 128 hexadecimal digits"));
                    }
                    g.sha512 = Some(s.into());
                }
                "core:dataset" => {
                    let s = self.string(v, &p)?;
                    if s.is_empty() || s.contains(['/', '\\']) || s == "." || s == ".." {
                        return Err(self.err(
                            p,
                            format!("must be a file name in the metadata's directory, found {s:?}"),
                        ));
                    }
                    g.dataset = Some(s.into());
                }
                "core:trailing_bytes" => g.trailing_bytes = self.integer(v, &p)?,
                "core:metadata_only" => {
                    g.metadata_only = v
                        .as_bool()
                        .ok_or_else(|| self.expected(&p, "true or false", v))?
                }
                _ => {
                    self.check_extra(k, v, &p)?;
                    g.extra.insert(k.clone(), v.clone());
                }
            }
        }
        Ok(g)
    }

    fn datatype(&self, v: &Value, path: &str) -> Result<SampleFormat, SigmfError> {
        let s = self.string(v, path)?;
        // SigMF's names only: `c`/`r`, the type, and `_le`/`_be` (none for
        // 8-bit types). Raw tools' names (`cs16`) are not SigMF.
        let unknown = || {
            self.err(
                path,
                format!(
                    "unknown datatype {s:?}: expected c or r, then f32, f64, i32, i16, u32, u16 \
                     with _le or _be, or i8, u8 (\"cf32_le\", \"ri16_be\", \"cu8\")"
                ),
            )
        };
        let (body, _) = s.split_once('_').map_or((s, ""), |(b, e)| (b, e));
        // Byte checks first: the slices below then fall on char boundaries.
        let shape_ok = matches!(s.as_bytes().first(), Some(b'c' | b'r'))
            && matches!(
                &body[1..],
                "f32" | "f64" | "i32" | "i16" | "u32" | "u16" | "i8" | "u8"
            )
            && matches!(&s[body.len()..], "" | "_le" | "_be");
        if !shape_ok {
            return Err(unknown());
        }
        SampleFormat::parse(s).map_err(|_| unknown())
    }

    fn capture(&self, v: &Value, path: &str) -> Result<Capture, SigmfError> {
        let map = self.object(v, path)?;
        let mut c = Capture::at(self.sample_start(map, path)?);
        for (k, v) in map {
            let p = key(path, k);
            match k.as_str() {
                "core:sample_start" => {}
                "core:frequency" => c.frequency = Some(self.frequency(v, &p)?),
                "core:datetime" => {
                    let s = self.string(v, &p)?;
                    datetime::check(s).map_err(|e| self.err(&p, e))?;
                    c.datetime = Some(s.into());
                }
                "core:global_index" => c.global_index = Some(self.integer(v, &p)?),
                "core:header_bytes" => c.header_bytes = self.integer(v, &p)?,
                _ => {
                    self.check_extra(k, v, &p)?;
                    c.extra.insert(k.clone(), v.clone());
                }
            }
        }
        Ok(c)
    }

    fn annotation(&self, v: &Value, path: &str) -> Result<Annotation, SigmfError> {
        let map = self.object(v, path)?;
        let mut a = Annotation::at(self.sample_start(map, path)?);
        for (k, v) in map {
            let p = key(path, k);
            match k.as_str() {
                "core:sample_start" => {}
                "core:sample_count" => {
                    let n = self.integer(v, &p)?;
                    if a.sample_start
                        .checked_add(n)
                        .is_none_or(|end| end > MAX_INT)
                    {
                        return Err(
                            self.err(p, "reaches past the largest sample index SigMF allows")
                        );
                    }
                    a.sample_count = Some(n);
                }
                "core:freq_lower_edge" => a.freq_lower_edge = Some(self.frequency(v, &p)?),
                "core:freq_upper_edge" => a.freq_upper_edge = Some(self.frequency(v, &p)?),
                "core:label" => a.label = Some(self.string(v, &p)?.into()),
                "core:comment" => a.comment = Some(self.string(v, &p)?.into()),
                "core:generator" => a.generator = Some(self.string(v, &p)?.into()),
                "core:uuid" => a.uuid = Some(self.string(v, &p)?.into()),
                _ => {
                    self.check_extra(k, v, &p)?;
                    a.extra.insert(k.clone(), v.clone());
                }
            }
        }
        if let (Some(lo), Some(hi)) = (a.freq_lower_edge, a.freq_upper_edge)
            && lo > hi
        {
            return Err(self.err(
                key(path, "core:freq_lower_edge"),
                format!("{lo} Hz is above `core:freq_upper_edge` {hi} Hz"),
            ));
        }
        Ok(a)
    }

    fn sample_start(&self, map: &Map<String, Value>, path: &str) -> Result<u64, SigmfError> {
        let p = key(path, "core:sample_start");
        match map.get("core:sample_start") {
            Some(v) => self.integer(v, &p),
            None => Err(self.err(p, "missing: every segment says where it starts")),
        }
    }

    /// Core keys rfgraph does not use but whose type it checks; other keys
    /// (extension namespaces, keys of later versions) pass as they are.
    fn check_extra(&self, k: &str, v: &Value, p: &str) -> Result<(), SigmfError> {
        match k {
            "core:offset" => self.integer(v, p).map(drop),
            "core:collection" | "core:data_doi" | "core:meta_doi" => self.string(v, p).map(drop),
            "core:geolocation" => self.geolocation(v, p),
            "core:extensions" => {
                let items = v
                    .as_array()
                    .ok_or_else(|| self.expected(p, "an array", v))?;
                for (i, ext) in items.iter().enumerate() {
                    let ep = index(p, i);
                    let m = self.object(ext, &ep)?;
                    for (field, want) in [
                        ("name", "a string"),
                        ("version", "a string"),
                        ("optional", "true or false"),
                    ] {
                        let fp = key(&ep, field);
                        match m.get(field) {
                            Some(Value::String(_)) if want == "a string" => {}
                            Some(Value::Bool(_)) if want == "true or false" => {}
                            Some(other) => return Err(self.expected(&fp, want, other)),
                            None => return Err(self.err(fp, "missing")),
                        }
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn geolocation(&self, v: &Value, p: &str) -> Result<(), SigmfError> {
        let m = self.object(v, p)?;
        match m.get("type") {
            Some(Value::String(t)) if t == "Point" => {}
            Some(other) => return Err(self.expected(&key(p, "type"), "\"Point\"", other)),
            None => return Err(self.err(key(p, "type"), "missing")),
        }
        let cp = key(p, "coordinates");
        let coords = m
            .get("coordinates")
            .ok_or_else(|| self.err(&cp, "missing"))?;
        coords
            .as_array()
            .filter(|c| (2..=3).contains(&c.len()) && c.iter().all(Value::is_number))
            .map(drop)
            .ok_or_else(|| self.expected(&cp, "an array of 2 or 3 numbers", coords))
    }

    fn string<'v>(&self, v: &'v Value, path: &str) -> Result<&'v str, SigmfError> {
        v.as_str().ok_or_else(|| self.expected(path, "a string", v))
    }

    fn number(&self, v: &Value, path: &str) -> Result<f64, SigmfError> {
        v.as_f64().ok_or_else(|| self.expected(path, "a number", v))
    }

    fn frequency(&self, v: &Value, path: &str) -> Result<f64, SigmfError> {
        let f = self.number(v, path)?;
        if f.abs() > MAX_HZ {
            return Err(self.err(
                path,
                format!("must be between -1e12 and 1e12 Hz, found {f}"),
            ));
        }
        Ok(f)
    }

    /// A non-negative integer up to 2^63 − 1 (`12.0` counts, as in JSON
    /// Schema).
    fn integer(&self, v: &Value, path: &str) -> Result<u64, SigmfError> {
        let n = match v {
            Value::Number(n) => n.as_u64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= MAX_INT as f64)
                    .map(|f| f as u64)
            }),
            _ => None,
        };
        match n {
            Some(n) if n <= MAX_INT => Ok(n),
            _ => Err(self.expected(path, "a non-negative integer (at most 2^63 - 1)", v)),
        }
    }
}

/// Segments must be in `core:sample_start` order (equal starts allowed).
fn check_order(
    w: &Walker<'_>,
    section: &str,
    starts: impl Iterator<Item = u64>,
) -> Result<(), SigmfError> {
    let mut previous = 0;
    for (i, start) in starts.enumerate() {
        if start < previous {
            return Err(w.err(
                key(&index(section, i), "core:sample_start"),
                format!("{start} comes before the previous segment's {previous}: {section} must be in sample order"),
            ));
        }
        previous = start;
    }
    Ok(())
}

fn is_version(s: &str) -> bool {
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    parts.len() == 3
        && parts[..2]
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && parts[2].bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// Reads one annotation object (for tags that carry one), checked as in a
/// file; `path` and `file` name it in errors.
pub(crate) fn annotation_from_json(
    v: &Value,
    path: &str,
    file: &Path,
) -> Result<Annotation, SigmfError> {
    Walker { file }.annotation(v, path)
}

/// Reads one capture object, checked as in a file.
pub(crate) fn capture_from_json(v: &Value, path: &str, file: &Path) -> Result<Capture, SigmfError> {
    Walker { file }.capture(v, path)
}
