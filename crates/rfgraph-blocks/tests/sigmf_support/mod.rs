//! Helpers shared by the SigMF tests: scratch directories, deterministic
//! random samples, and running a recording through a flowgraph.

#![allow(dead_code)]

use rfgraph::{Flowgraph, Scheduler, Tag};
use rfgraph_blocks::sigmf::{SigmfSink, SigmfSource};
use rfgraph_blocks::{SampleCodec, SampleFormat, SampleItem, VectorSink, VectorSource};
use std::path::{Path, PathBuf};

/// The most a test flowgraph may take.
pub const WATCHDOG: std::time::Duration = std::time::Duration::from_secs(60);

/// A fresh scratch directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rfgraph-sigmf-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// `samples` stored samples of `format` whose decode → encode is exact:
/// every value of 8- and 16-bit types, 32-bit integers within the f32
/// mantissa, finite f32 values (also for f64 formats).
pub fn exact_bytes(format: SampleFormat, samples: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let scalars = samples * if format.is_complex() { 2 } else { 1 };
    let big = format.endian() == rfgraph_blocks::sample_format::Endian::Big;
    let mut out = Vec::with_capacity(scalars * format.bytes_per_scalar());
    let put = |out: &mut Vec<u8>, le: &[u8]| {
        if big {
            out.extend(le.iter().rev());
        } else {
            out.extend_from_slice(le);
        }
    };
    use rfgraph_blocks::sample_format::ScalarType::*;
    for _ in 0..scalars {
        let r = rng.next();
        match format.scalar() {
            I8 | U8 => out.push(r as u8),
            I16 | U16 => put(&mut out, &(r as u16).to_le_bytes()),
            // Within 2^22 of the midpoint: the decoded f32 is exact.
            I32 => put(
                &mut out,
                &(((r % (1 << 23)) as i32) - (1 << 22)).to_le_bytes(),
            ),
            U32 => put(
                &mut out,
                &((r % (1 << 22)) as u32 + (1 << 31) - (1 << 21)).to_le_bytes(),
            ),
            F32 => put(&mut out, &random_f32(r).to_le_bytes()),
            F64 => put(&mut out, &f64::from(random_f32(r)).to_le_bytes()),
        }
    }
    out
}

/// A finite f32 from random bits (sign, any exponent but the top one).
fn random_f32(r: u64) -> f32 {
    let bits = r as u32;
    let exp = (bits >> 23) & 0xff;
    let bits = if exp == 0xff { bits & !(1 << 30) } else { bits };
    f32::from_bits(bits)
}

/// Items decoded from stored bytes by the format's codec.
pub fn decode<T: SampleItem + Default>(format: SampleFormat, bytes: &[u8]) -> Vec<T> {
    let n = bytes.len() / format.bytes_per_item() * T::per_stored_item(format);
    let mut out = vec![T::default(); n];
    T::decode(&SampleCodec::new(format), bytes, &mut out);
    out
}

/// Writes `items` with `tags` through a `SigmfSink` built by `sink`.
pub fn write<T: SampleItem>(
    items: Vec<T>,
    tags: Vec<Tag>,
    sink: SigmfSink<T>,
    scheduler: impl Scheduler,
) -> Result<(), rfgraph::RunError> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(items).with_tags(tags));
    let snk = fg.add(sink);
    fg.connect(src, "out", snk, "in").unwrap();
    fg.start(scheduler)?.wait_timeout(WATCHDOG).map(drop)
}

/// Adds blocks between a source and a sink: returns the first and last.
pub type Middle = Box<dyn FnOnce(&mut Flowgraph) -> (rfgraph::BlockId, rfgraph::BlockId)>;

/// Reads every item and tag of the recording `path` through a
/// `SigmfSource`, and the flowgraph in between (`middle`, if any).
pub fn read<T: SampleItem>(
    path: &Path,
    middle: Option<Middle>,
    scheduler: Box<dyn Scheduler>,
) -> (Vec<T>, Vec<Tag>) {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(8192);
    let src = fg.add(SigmfSource::<T>::open(path).unwrap());
    let sink = fg.add(VectorSink::<T>::new());
    match middle {
        Some(m) => {
            let (first, last) = m(&mut fg);
            fg.connect(src, "out", first, "in").unwrap();
            fg.connect(last, "out", sink, "in").unwrap();
        }
        None => fg.connect(src, "out", sink, "in").unwrap(),
    }
    let done = fg.start(scheduler).unwrap().wait_timeout(WATCHDOG).unwrap();
    let s = done.block::<VectorSink<T>>(sink).unwrap();
    (s.items().to_vec(), s.tags().to_vec())
}

/// Bit patterns, for bit-for-bit comparisons (NaN-safe).
pub fn bits<T: bytemuck::Pod>(items: &[T]) -> &[u8] {
    bytemuck::cast_slice(items)
}
