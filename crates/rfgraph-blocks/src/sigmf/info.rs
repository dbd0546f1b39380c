//! [`RecordingInfo`]: what a SigMF or raw recording holds, for
//! `rfgraph info` and for tools.
//!
//! This module owns recognising a recording by its name (SigMF by its
//! extensions, raw by a format name as extension: `.cu8`, `.cs16`,
//! `.cf32`, ...), and the human-readable summary. It never reads samples.

use super::error::SigmfError;
use super::recording::{SigmfRecording, is_sigmf_name, recording_paths};
use crate::sample_format::{Endian, SampleFormat, ScalarType};
use std::fmt;
use std::path::{Path, PathBuf};

/// The sample format a raw recording's extension names: any name
/// [`SampleFormat::parse`] accepts (`cu8`, `cs8`, `cs16`, `cf32`, `f32`,
/// `ci16_le`, ...), and `cfile` / `fc32` (GNU Radio's complex file) and
/// `sc16`. `None` for other extensions (`.bin`, `.raw`, `.iq`).
pub fn format_from_extension(path: &Path) -> Option<SampleFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    let name = match ext.as_str() {
        "cfile" | "fc32" => "cf32",
        "sc16" => "cs16",
        "sc8" => "cs8",
        other => other,
    };
    SampleFormat::parse(name).ok()
}

/// What a recording holds.
#[derive(Debug)]
pub enum RecordingInfo {
    /// A SigMF recording, checked against its data file.
    Sigmf(Box<SigmfRecording>),
    /// A raw (headerless) recording.
    Raw {
        /// The file.
        path: PathBuf,
        /// Its sample format.
        format: SampleFormat,
        /// Its length in bytes.
        bytes: u64,
        /// The sample rate given, if any.
        sample_rate: Option<f64>,
    },
}

impl RecordingInfo {
    /// Looks at `path`: a SigMF recording when its name says so (or a
    /// `.sigmf-meta` file exists beside it) and `format` is not given,
    /// otherwise a raw file of `format` or the format its extension names.
    /// `rate` is the raw file's sample rate (ignored for SigMF, whose
    /// metadata has it).
    ///
    /// Errors: those of [`SigmfRecording::open`]; for raw files a missing
    /// file ([`SigmfError::Io`]), an unknown format ([`SigmfError::Name`]),
    /// and a length that is not a whole number of samples
    /// ([`SigmfError::DataLength`], naming the byte offset).
    pub fn probe(
        path: &Path,
        format: Option<SampleFormat>,
        rate: Option<f64>,
    ) -> Result<Self, SigmfError> {
        if path.is_dir() {
            return Err(SigmfError::Name {
                file: path.to_path_buf(),
                reason: "is a directory, not a recording".into(),
            });
        }
        if format.is_none() && is_sigmf(path) {
            return Ok(RecordingInfo::Sigmf(Box::new(SigmfRecording::open(path)?)));
        }
        let format = match format.or_else(|| format_from_extension(path)) {
            Some(f) => f,
            None => {
                return Err(SigmfError::Name {
                    file: path.to_path_buf(),
                    reason: "not a SigMF recording, and the extension names no sample format: \
                             give the format (cu8, cs8, cs16, cf32, f32, ...)"
                        .into(),
                });
            }
        };
        let meta = std::fs::metadata(path).map_err(|e| SigmfError::io(path, "cannot open", e))?;
        let bytes = meta.len();
        let item = format.bytes_per_item() as u64;
        if bytes % item != 0 {
            return Err(SigmfError::DataLength {
                file: path.to_path_buf(),
                datatype: format.raw_name().unwrap_or(format.sigmf_name()).into(),
                item_bytes: item as usize,
                sample_bytes: bytes,
                rest: bytes % item,
                offset: bytes / item * item,
            });
        }
        Ok(RecordingInfo::Raw {
            path: path.to_path_buf(),
            format,
            bytes,
            sample_rate: rate,
        })
    }

    /// The sample format.
    pub fn format(&self) -> SampleFormat {
        match self {
            RecordingInfo::Sigmf(r) => r.meta().global.datatype,
            RecordingInfo::Raw { format, .. } => *format,
        }
    }

    /// Samples in the recording.
    pub fn samples(&self) -> u64 {
        match self {
            RecordingInfo::Sigmf(r) => r.samples(),
            RecordingInfo::Raw { format, bytes, .. } => bytes / format.bytes_per_item() as u64,
        }
    }

    /// The sample rate, when known.
    pub fn sample_rate(&self) -> Option<f64> {
        match self {
            RecordingInfo::Sigmf(r) => r.meta().global.sample_rate,
            RecordingInfo::Raw { sample_rate, .. } => *sample_rate,
        }
    }

    /// A summary listing at most `max_listed` captures and annotations.
    pub fn summary(&self, max_listed: usize) -> Summary<'_> {
        Summary {
            info: self,
            max_listed,
        }
    }
}

/// True when `path` names a SigMF recording, by extension or by a
/// `.sigmf-meta` file beside it.
fn is_sigmf(path: &Path) -> bool {
    is_sigmf_name(path) || recording_paths(path).is_ok_and(|(meta, _)| meta.is_file())
}

/// [`RecordingInfo`]'s human-readable form (`Display`).
pub struct Summary<'a> {
    info: &'a RecordingInfo,
    max_listed: usize,
}

/// `433.92 MHz`, `2.4 GHz`, `12 Hz`.
pub fn format_hz(hz: f64) -> String {
    let (div, unit) = match hz.abs() {
        a if a >= 1e9 => (1e9, "GHz"),
        a if a >= 1e6 => (1e6, "MHz"),
        a if a >= 1e3 => (1e3, "kHz"),
        _ => (1.0, "Hz"),
    };
    // Rounded to 1 mHz-equivalent digits, then shortest form.
    let v = ((hz / div) * 1e9).round() / 1e9;
    format!("{v} {unit}")
}

fn describe_format(f: SampleFormat) -> String {
    let kind = if f.is_complex() { "complex" } else { "real" };
    let scalar = match f.scalar() {
        ScalarType::F32 => "32-bit floats",
        ScalarType::F64 => "64-bit floats",
        ScalarType::I8 => "8-bit signed integers",
        ScalarType::I16 => "16-bit signed integers",
        ScalarType::I32 => "32-bit signed integers",
        ScalarType::U8 => "8-bit unsigned integers",
        ScalarType::U16 => "16-bit unsigned integers",
        ScalarType::U32 => "32-bit unsigned integers",
    };
    let order = match (f.bytes_per_scalar(), f.endian()) {
        (1, _) => "",
        (_, Endian::Little) => ", little-endian",
        (_, Endian::Big) => ", big-endian",
    };
    format!(
        "{kind}, {scalar}{order}; {} bytes per sample",
        f.bytes_per_item()
    )
}

fn duration(samples: u64, rate: Option<f64>) -> String {
    match rate {
        Some(r) => {
            let s = samples as f64 / r;
            let rounded = (s * 1e6).round() / 1e6;
            if s >= 60.0 {
                format!("{rounded} s ({}:{:09.6})", (s / 60.0).floor(), s % 60.0)
            } else {
                format!("{rounded} s")
            }
        }
        None => "unknown (no sample rate)".into(),
    }
}

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.info;
        let row = |f: &mut fmt::Formatter<'_>, k: &str, v: &str| writeln!(f, "  {k:<12} {v}");
        match info {
            RecordingInfo::Raw {
                path,
                format,
                bytes,
                sample_rate,
            } => {
                let name = format.raw_name().unwrap_or(format.sigmf_name());
                writeln!(
                    f,
                    "{}: raw {name} recording ({bytes} bytes)",
                    path.display()
                )?;
                row(
                    f,
                    "format",
                    &format!(
                        "{name} = SigMF {} ({})",
                        format.sigmf_name(),
                        describe_format(*format)
                    ),
                )?;
                match sample_rate {
                    Some(r) => row(f, "sample rate", &format!("{r} Hz (given)"))?,
                    None => row(f, "sample rate", "unknown (give one: raw files do not say)")?,
                }
                row(f, "samples", &info.samples().to_string())?;
                row(f, "duration", &duration(info.samples(), *sample_rate))
            }
            RecordingInfo::Sigmf(r) => {
                let m = r.meta();
                let g = &m.global;
                writeln!(
                    f,
                    "{}: SigMF {} recording (data: {}, {} bytes)",
                    r.meta_path().display(),
                    g.version.as_deref().unwrap_or("(no version)"),
                    r.data_path().display(),
                    r.data_bytes()
                )?;
                row(
                    f,
                    "datatype",
                    &format!(
                        "{} ({})",
                        g.datatype.sigmf_name(),
                        describe_format(g.datatype)
                    ),
                )?;
                match g.sample_rate {
                    Some(rate) => row(f, "sample rate", &format!("{rate} Hz"))?,
                    None => row(f, "sample rate", "not given")?,
                }
                row(f, "samples", &r.samples().to_string())?;
                row(f, "duration", &duration(r.samples(), g.sample_rate))?;
                for (k, v) in [
                    ("description", &g.description),
                    ("author", &g.author),
                    ("hardware", &g.hw),
                    ("recorder", &g.recorder),
                    ("license", &g.license),
                ] {
                    if let Some(v) = v {
                        row(f, k, v)?;
                    }
                }
                for (k, v) in &g.extra {
                    row(f, k, &v.to_string())?;
                }
                row(f, "captures", &m.captures.len().to_string())?;
                for (i, c) in m.captures.iter().enumerate().take(self.max_listed) {
                    let mut parts = vec![format!("sample {}", c.sample_start)];
                    if let Some(hz) = c.frequency {
                        parts.push(format_hz(hz));
                    }
                    if let Some(d) = &c.datetime {
                        parts.push(d.clone());
                    }
                    if let Some(gi) = c.global_index {
                        parts.push(format!("global index {gi}"));
                    }
                    if c.header_bytes != 0 {
                        parts.push(format!("{} header bytes", c.header_bytes));
                    }
                    parts.extend(c.extra.iter().map(|(k, v)| format!("{k} = {v}")));
                    writeln!(f, "    [{i}] {}", parts.join(", "))?;
                }
                more(f, m.captures.len(), self.max_listed)?;
                row(f, "annotations", &m.annotations.len().to_string())?;
                for (i, a) in m.annotations.iter().enumerate().take(self.max_listed) {
                    let span = match a.sample_count {
                        Some(n) => format!("samples {}..{}", a.sample_start, a.sample_start + n),
                        None => format!("samples {}.. (to the end of the capture)", a.sample_start),
                    };
                    let mut parts = vec![span];
                    if let Some(l) = &a.label {
                        parts.push(format!("{l:?}"));
                    }
                    match (a.freq_lower_edge, a.freq_upper_edge) {
                        (Some(lo), Some(hi)) => {
                            parts.push(format!("{} to {}", format_hz(lo), format_hz(hi)))
                        }
                        (Some(lo), None) => parts.push(format!("from {}", format_hz(lo))),
                        (None, Some(hi)) => parts.push(format!("up to {}", format_hz(hi))),
                        (None, None) => {}
                    }
                    if let Some(c) = &a.comment {
                        parts.push(format!("comment {c:?}"));
                    }
                    if let Some(g) = &a.generator {
                        parts.push(format!("by {g}"));
                    }
                    if let Some(u) = &a.uuid {
                        parts.push(format!("uuid {u}"));
                    }
                    parts.extend(a.extra.iter().map(|(k, v)| format!("{k} = {v}")));
                    writeln!(f, "    [{i}] {}", parts.join(", "))?;
                }
                more(f, m.annotations.len(), self.max_listed)
            }
        }
    }
}

fn more(f: &mut fmt::Formatter<'_>, total: usize, listed: usize) -> fmt::Result {
    if total > listed {
        writeln!(f, "    ... and {} more", total - listed)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hertz_read_naturally() {
        assert_eq!(format_hz(433.92e6), "433.92 MHz");
        assert_eq!(format_hz(2.4e9), "2.4 GHz");
        assert_eq!(format_hz(12.0), "12 Hz");
        assert_eq!(format_hz(-1500.0), "-1.5 kHz");
    }

    #[test]
    fn extensions_name_raw_formats() {
        let f = |p: &str| format_from_extension(Path::new(p)).map(|f| f.sigmf_name());
        assert_eq!(f("x.cu8"), Some("cu8"));
        assert_eq!(f("x.CS16"), Some("ci16_le"));
        assert_eq!(f("x.cfile"), Some("cf32_le"));
        assert_eq!(f("x.ri16_be"), Some("ri16_be"));
        assert_eq!(f("x.bin"), None);
        assert_eq!(f("x"), None);
    }
}
