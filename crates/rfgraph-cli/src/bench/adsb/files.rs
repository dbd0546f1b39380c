//! The input files of `bench adsb`: the recording repeated to `--mib`
//! MiB at 2 MS/s, and the same signal resampled to 2.4 MS/s and repeated
//! as many times, written once (kept and reused with `--keep`) and read
//! once into the page cache before any timing.
//!
//! The 2 MS/s file ends with [`PAD_BYTES`] bytes of value 127 (silence
//! in cu8): antirez's dump1090 drops the last partial block of a file,
//! so the padding carries the last pass into a block it decodes. rfgraph
//! reads only the passes (its file source stops before the padding);
//! every decoder's sample count is the passes'.

use super::super::setup;
use anyhow::{Context, bail};
use num_complex::Complex32;
use rfgraph_blocks::{SampleCodec, SampleFormat};
use rfgraph_dsp::{Ccf, RationalResampler};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Bytes of silence after the passes of the 2 MS/s file (512 KiB).
pub const PAD_BYTES: u64 = 512 << 10;

/// The two input files.
pub struct Files {
    /// The 2 MS/s file (passes, then [`PAD_BYTES`] of silence).
    pub cu8_2000: PathBuf,
    /// The 2.4 MS/s file (passes only).
    pub cu8_2400: PathBuf,
    /// Repetitions of the recording in each.
    pub passes: u64,
    /// Samples of one pass at 2 MS/s.
    pub pass_2000: u64,
    /// Samples of one pass at 2.4 MS/s.
    pub pass_2400: u64,
}

/// The recording `--recording` names, else the shipped one.
fn recording_path(chosen: Option<&Path>) -> PathBuf {
    chosen.map(Path::to_path_buf).unwrap_or_else(|| {
        let local = PathBuf::from("testdata/adsb/modes1-part1.cu8");
        if local.exists() {
            local
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/adsb/modes1-part1.cu8")
        }
    })
}

/// `cu8` bytes at 2 MS/s to `cu8` bytes at 2.4 MS/s (6/5).
pub fn resample_6_5(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let codec = SampleCodec::new(SampleFormat::CU8);
    let mut x = vec![Complex32::new(0.0, 0.0); bytes.len() / 2];
    codec.decode(&bytes[..2 * x.len()], &mut x);
    // scipy's resample_poly puts the cutoff (−6 dB) at the input's
    // Nyquist frequency, 1 MHz: Mode S pulses need all of that band.
    // Pass band to 0.9 MHz, stop band from 1.1 MHz, at the 12 MHz
    // upsampled rate, gain 6 for unity overall.
    let taps: Vec<f32> = rfgraph_dsp::design::kaiser_lowpass(12.0e6, 1.0e6, 0.2e6, 60.0)?
        .into_iter()
        .map(|t| 6.0 * t)
        .collect();
    let mut r = RationalResampler::<Ccf>::with_taps(6, 5, &taps, rfgraph_dsp::Isa::detect())?;
    // Room for every output, plus the filter's tail (the input followed
    // by silence, so nothing at the end is lost).
    let n_out = x.len() * 6 / 5;
    x.resize(x.len() + 256, Complex32::new(0.0, 0.0));
    let mut y = vec![Complex32::new(0.0, 0.0); x.len() * 6 / 5 + 8];
    let (_, made) = r.process(&x, &mut y);
    // Skip the filter's group delay so both files line up.
    let delay = (made.saturating_sub(n_out)) / 2;
    let y = &y[delay.min(made)..(delay + n_out).min(made)];
    let mut out = vec![0u8; 2 * y.len()];
    codec.encode(y, &mut out);
    Ok(out)
}

/// Writes `passes` copies of `pass` then `pad` bytes of 127 to `path`,
/// unless a file of that size is there; then reads it once.
fn write_file(path: &Path, pass: &[u8], passes: u64, pad: u64) -> anyhow::Result<()> {
    let want = pass.len() as u64 * passes + pad;
    if std::fs::metadata(path).map_or(true, |m| m.len() != want) {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        );
        for _ in 0..passes {
            f.write_all(pass)?;
        }
        f.write_all(&vec![127u8; pad as usize])?;
        f.flush()?;
    }
    // Into the page cache before any timing.
    let mut buf = vec![0u8; 1 << 20];
    let mut r = std::fs::File::open(path)?;
    while r.read(&mut buf)? > 0 {}
    Ok(())
}

impl Files {
    /// Makes (or reuses) the files in `dir` (default: /dev/shm, else the
    /// temporary folder) from `recording` (default: the shipped one).
    ///
    /// Errors: `mib` is zero, the recording cannot be read or holds no
    /// sample, a file cannot be written.
    pub fn new(recording: Option<&Path>, dir: Option<&Path>, mib: u64) -> anyhow::Result<Self> {
        let dir = setup::files_dir(dir);
        if mib == 0 {
            bail!("--mib must be positive");
        }
        let rec = recording_path(recording);
        let bytes =
            std::fs::read(&rec).with_context(|| format!("cannot read {}", rec.display()))?;
        if bytes.len() < 2 {
            bail!("{} holds no samples", rec.display());
        }
        let bytes = &bytes[..bytes.len() / 2 * 2];
        let passes = (mib << 20).div_ceil(bytes.len() as u64).max(1);
        let resampled = resample_6_5(bytes)?;
        let files = Self {
            cu8_2000: dir.join("rfgraph-bench-adsb-2000.cu8"),
            cu8_2400: dir.join("rfgraph-bench-adsb-2400.cu8"),
            passes,
            pass_2000: (bytes.len() / 2) as u64,
            pass_2400: (resampled.len() / 2) as u64,
        };
        write_file(&files.cu8_2000, bytes, passes, PAD_BYTES)?;
        write_file(&files.cu8_2400, &resampled, passes, 0)?;
        Ok(files)
    }

    /// The file at `rate` (2e6 or 2.4e6) and the samples of its passes.
    pub fn at(&self, rate: f64) -> (&Path, u64) {
        if rate == 2.0e6 {
            (&self.cu8_2000, self.pass_2000 * self.passes)
        } else {
            (&self.cu8_2400, self.pass_2400 * self.passes)
        }
    }

    /// Deletes both files.
    pub fn remove(&self) {
        let _ = std::fs::remove_file(&self.cu8_2000);
        let _ = std::fs::remove_file(&self.cu8_2400);
    }
}
