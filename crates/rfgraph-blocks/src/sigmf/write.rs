//! Writing a [`SigmfMeta`] as `.sigmf-meta` JSON, atomically.
//!
//! This module owns the JSON layout (`global`, then `captures`, then
//! `annotations`, two-space indents) and the replace-by-rename write. What
//! it writes, it first parses back with rfgraph's own reader, so rfgraph
//! never writes metadata it would reject.

use super::error::SigmfError;
use super::json_path::{index, key};
use super::meta::{Annotation, Capture, Global, SigmfMeta};
use serde_json::{Map, Number, Value};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

impl SigmfMeta {
    /// The metadata as `.sigmf-meta` text; `file` names it in errors.
    ///
    /// Errors: [`SigmfError::Meta`] naming the path of a value that is not
    /// valid SigMF (a NaN frequency, captures out of order, ...).
    pub fn to_json_text(&self, file: &Path) -> Result<String, SigmfError> {
        let global = Value::Object(global(&self.global, file)?);
        let captures = self
            .captures
            .iter()
            .enumerate()
            .map(|(i, c)| capture(c, &index("captures", i), file).map(Value::Object))
            .collect::<Result<Vec<_>, _>>()?;
        let annotations = self
            .annotations
            .iter()
            .enumerate()
            .map(|(i, a)| annotation(a, &index("annotations", i), file).map(Value::Object))
            .collect::<Result<Vec<_>, _>>()?;
        let mut text = String::from("{\n");
        for (i, (name, part)) in [
            ("global", global),
            ("captures", Value::Array(captures)),
            ("annotations", Value::Array(annotations)),
        ]
        .into_iter()
        .enumerate()
        {
            let body = serde_json::to_string_pretty(&part)
                .map_err(|e| SigmfError::meta(file, name, e.to_string()))?;
            text.push_str(&format!("  \"{name}\": {}", body.replace('\n', "\n  ")));
            text.push_str(if i < 2 { ",\n" } else { "\n" });
        }
        text.push_str("}\n");
        // Never write what rfgraph would not read back.
        SigmfMeta::parse(text.as_bytes(), file)?;
        Ok(text)
    }

    /// Writes the metadata to `path`, atomically: into a temporary file
    /// beside it, flushed to disk, then renamed over `path`. A reader sees
    /// the old file or the new one, never half of one; a failure (a full
    /// disk) leaves the old file as it was.
    pub fn write(&self, path: &Path) -> Result<(), SigmfError> {
        let text = self.to_json_text(path)?;
        write_atomic(path, text.as_bytes())
    }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames
/// it over `path`.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SigmfError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "sigmf-meta".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f =
            std::fs::File::create(&tmp).map_err(|e| SigmfError::io(&tmp, "cannot create", e))?;
        f.write_all(bytes).map_err(|e| SigmfError::Write {
            file: tmp.clone(),
            offset: 0,
            cause: e,
        })?;
        f.sync_all().map_err(|e| SigmfError::Write {
            file: tmp.clone(),
            offset: 0,
            cause: e,
        })?;
        std::fs::rename(&tmp, path).map_err(|e| SigmfError::io(path, "cannot replace", e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn number(v: f64, path: &str, file: &Path) -> Result<Value, SigmfError> {
    Number::from_f64(v)
        .map(Value::Number)
        .ok_or_else(|| SigmfError::meta(file, path, format!("{v} is not a number JSON can hold")))
}

fn put_str(map: &mut Map<String, Value>, k: &str, v: &Option<String>) {
    if let Some(s) = v {
        map.insert(k.into(), Value::String(s.clone()));
    }
}

fn global(g: &Global, file: &Path) -> Result<Map<String, Value>, SigmfError> {
    let mut m = g.extra.clone();
    m.insert("core:datatype".into(), g.datatype.sigmf_name().into());
    if let Some(rate) = g.sample_rate {
        m.insert(
            "core:sample_rate".into(),
            number(rate, "global.core:sample_rate", file)?,
        );
    }
    put_str(&mut m, "core:version", &g.version);
    if g.num_channels != 1 {
        m.insert("core:num_channels".into(), g.num_channels.into());
    }
    put_str(&mut m, "core:description", &g.description);
    put_str(&mut m, "core:author", &g.author);
    put_str(&mut m, "core:hw", &g.hw);
    put_str(&mut m, "core:recorder", &g.recorder);
    put_str(&mut m, "core:license", &g.license);
    put_str(&mut m, "core:sha512", &g.sha512);
    put_str(&mut m, "core:dataset", &g.dataset);
    if g.trailing_bytes != 0 {
        m.insert("core:trailing_bytes".into(), g.trailing_bytes.into());
    }
    if g.metadata_only {
        m.insert("core:metadata_only".into(), true.into());
    }
    Ok(m)
}

fn capture(c: &Capture, path: &str, file: &Path) -> Result<Map<String, Value>, SigmfError> {
    let mut m = c.extra.clone();
    m.insert("core:sample_start".into(), c.sample_start.into());
    if let Some(f) = c.frequency {
        m.insert(
            "core:frequency".into(),
            number(f, &key(path, "core:frequency"), file)?,
        );
    }
    put_str(&mut m, "core:datetime", &c.datetime);
    if let Some(g) = c.global_index {
        m.insert("core:global_index".into(), g.into());
    }
    if c.header_bytes != 0 {
        m.insert("core:header_bytes".into(), c.header_bytes.into());
    }
    Ok(m)
}

fn annotation(a: &Annotation, path: &str, file: &Path) -> Result<Map<String, Value>, SigmfError> {
    let mut m = a.extra.clone();
    m.insert("core:sample_start".into(), a.sample_start.into());
    if let Some(n) = a.sample_count {
        m.insert("core:sample_count".into(), n.into());
    }
    if let Some(f) = a.freq_lower_edge {
        m.insert(
            "core:freq_lower_edge".into(),
            number(f, &key(path, "core:freq_lower_edge"), file)?,
        );
    }
    if let Some(f) = a.freq_upper_edge {
        m.insert(
            "core:freq_upper_edge".into(),
            number(f, &key(path, "core:freq_upper_edge"), file)?,
        );
    }
    put_str(&mut m, "core:label", &a.label);
    put_str(&mut m, "core:comment", &a.comment);
    put_str(&mut m, "core:generator", &a.generator);
    put_str(&mut m, "core:uuid", &a.uuid);
    Ok(m)
}
