//! Writing generated IQ samples: a raw file in any complex sample format,
//! or a SigMF recording (`x.sigmf-meta` + `x.sigmf-data`) with the rate,
//! centre frequency, description and annotations in its metadata.

use super::FmGenError;
use num_complex::Complex32;
use rfgraph_blocks::sigmf::{Annotation, Capture, SigmfMeta, is_sigmf_name, recording_paths};
use rfgraph_blocks::{SampleCodec, SampleFormat, SampleItem};
use std::io::Write;
use std::path::Path;

/// How [`write_iq`] stores samples and what it says about them.
#[derive(Clone, Debug)]
pub struct IqRecording {
    /// The stored format (complex: `cu8`, `cs8`, `cs16`, `cf32`, ...).
    /// Integer formats clip at ±1.
    pub format: SampleFormat,
    /// Samples per second (SigMF `core:sample_rate`).
    pub sample_rate: f64,
    /// The recording's centre frequency in Hz (the first capture's
    /// `core:frequency`), if known.
    pub center_frequency: Option<f64>,
    /// `core:description`.
    pub description: Option<String>,
    /// Annotations (SigMF only).
    pub annotations: Vec<Annotation>,
}

impl IqRecording {
    /// A recording in `format` at `sample_rate`, with nothing else.
    pub fn new(format: SampleFormat, sample_rate: f64) -> Self {
        Self {
            format,
            sample_rate,
            center_frequency: None,
            description: None,
            annotations: Vec::new(),
        }
    }
}

/// Writes `samples` to `path`: a SigMF recording when the name says so
/// (`.sigmf-meta`, `.sigmf-data`), a raw file otherwise. Existing files
/// are replaced.
///
/// Errors: [`FmGenError::Format`] for a real format,
/// [`FmGenError::Io`] / [`FmGenError::Sigmf`] when writing fails.
pub fn write_iq(
    path: &Path,
    samples: &[Complex32],
    recording: &IqRecording,
) -> Result<(), FmGenError> {
    Complex32::check_format(recording.format)?;
    if !(recording.sample_rate.is_finite() && recording.sample_rate > 0.0) {
        return Err(FmGenError::param(
            "sample_rate",
            recording.sample_rate,
            "must be a positive number",
        ));
    }
    if !is_sigmf_name(path) {
        return write_data(path, samples, recording.format);
    }
    let (meta_path, data_path) = recording_paths(path)?;
    write_data(&data_path, samples, recording.format)?;
    let mut meta = SigmfMeta::new(recording.format);
    meta.global.sample_rate = Some(recording.sample_rate);
    meta.global.description = recording.description.clone();
    meta.global.recorder = Some("rfgraph".into());
    meta.captures.push(Capture {
        frequency: recording.center_frequency,
        ..Capture::at(0)
    });
    meta.annotations = recording.annotations.clone();
    meta.write(&meta_path)?;
    Ok(())
}

fn write_data(path: &Path, samples: &[Complex32], format: SampleFormat) -> Result<(), FmGenError> {
    let io = |cause| FmGenError::Io {
        path: path.to_path_buf(),
        cause,
    };
    let codec = SampleCodec::new(format);
    let file = std::fs::File::create(path).map_err(io)?;
    let mut out = std::io::BufWriter::new(file);
    let mut bytes = Vec::new();
    for chunk in samples.chunks(1 << 16) {
        bytes.resize(chunk.len() * format.bytes_per_item(), 0);
        codec.encode(chunk, &mut bytes);
        out.write_all(&bytes).map_err(io)?;
    }
    out.flush().map_err(io)?;
    out.get_ref().sync_all().map_err(io)
}
