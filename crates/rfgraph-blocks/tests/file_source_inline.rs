//! `FileSource` runs on its scheduler's workers (it is not a blocking
//! block): cf32 into `Complex32` comes back bit for bit on every scheduler
//! and ring size, through its end, repeated with begin tags, throttled on
//! a worker's timer, and on a thread of its own when the graph asks for
//! one; unthrottled, it reads 128 KiB pieces even where the scheduler
//! sizes rings for L1.

mod common;

use common::{RunBounded, every_scheduler};
use num_complex::Complex32;
use rfgraph::scheduler::{Chain, Pool, Single, Tpb};
use rfgraph::{Block, BoxError, Flowgraph, Pmt, Ports, Scheduler, StreamInput, WorkIo};
use rfgraph_blocks::{FileSource, Head, SampleFormat, VectorSink};
use std::path::{Path, PathBuf};

/// A fresh directory for one test's files, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let dir =
        std::env::temp_dir().join(format!("rfgraph-file-inline-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// `n` cf32 samples of arbitrary bits (NaNs, infinities and subnormals
/// among them: the bytes are the items, nothing may touch them).
fn write_bits(path: &Path, n: usize) -> Vec<u8> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let bytes: Vec<u8> = (0..n)
        .flat_map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()
        })
        .collect();
    std::fs::write(path, &bytes).unwrap();
    bytes
}

/// Runs `src` → (`Head(head)`) → `VectorSink` on `s` with rings of at
/// least `ring` bytes; returns the items and the tags.
fn play(
    src: FileSource<Complex32>,
    head: Option<u64>,
    ring: Option<usize>,
    s: Box<dyn Scheduler>,
    own_thread: bool,
) -> (Vec<Complex32>, Vec<(u64, String, Pmt)>) {
    let mut fg = Flowgraph::new();
    if let Some(r) = ring {
        fg.set_buffer_bytes(r);
    }
    let src = fg.add(src);
    if own_thread {
        fg.set_blocking(src).unwrap();
    }
    let sink = fg.add(VectorSink::<Complex32>::new());
    match head {
        Some(n) => {
            let h = fg.add(Head::<Complex32>::new(n));
            fg.chain(&[src, h, sink]).unwrap();
        }
        None => fg.chain(&[src, sink]).unwrap(),
    }
    let done = fg.run_bounded(s).unwrap();
    let sink = done.block::<VectorSink<Complex32>>(sink).unwrap();
    let tags = sink
        .tags()
        .iter()
        .map(|t| (t.index, t.key.clone(), t.value.clone()))
        .collect();
    (sink.items().to_vec(), tags)
}

/// Makes a fresh scheduler.
type MakeScheduler = fn() -> Box<dyn Scheduler>;

fn schedulers() -> Vec<(String, MakeScheduler)> {
    vec![
        ("tpb".into(), || Box::new(Tpb::new())),
        ("single".into(), || Box::new(Single::new())),
        ("pool".into(), || Box::new(Pool::new())),
        ("pool 1 worker".into(), || Box::new(Pool::new().workers(1))),
        ("chain".into(), || Box::new(Chain::new())),
        ("chain 1 worker".into(), || {
            Box::new(Chain::new().workers(1))
        }),
    ]
}

#[test]
fn the_source_is_not_a_blocking_block() {
    let dir = scratch("blocking");
    let path = dir.0.join("x.cf32");
    write_bits(&path, 16);
    let src = FileSource::<Complex32>::new(&path, SampleFormat::CF32).unwrap();
    assert!(!src.is_blocking());
}

#[test]
fn cf32_reads_back_bit_for_bit_on_every_scheduler_and_ring_size() {
    let dir = scratch("bits");
    let path = dir.0.join("x.cf32");
    // Not a multiple of any ring: the last read is a short one.
    let n = 100_003;
    let bytes = write_bits(&path, n);
    for (name, make) in schedulers() {
        for ring in [None, Some(4096), Some(12_000), Some(1 << 20)] {
            for own_thread in [false, true] {
                let src = FileSource::<Complex32>::new(&path, SampleFormat::CF32).unwrap();
                let (got, tags) = play(src, None, ring, make(), own_thread);
                assert_eq!(got.len(), n, "{name} {ring:?} {own_thread}");
                assert!(
                    bytemuck::cast_slice::<Complex32, u8>(&got) == bytes.as_slice(),
                    "{name} ring {ring:?} own thread {own_thread}: bytes differ"
                );
                assert!(tags.is_empty(), "{tags:?}");
            }
        }
    }
}

#[test]
fn an_empty_file_ends_the_run_with_nothing() {
    let dir = scratch("empty");
    let path = dir.0.join("x.cf32");
    std::fs::write(&path, []).unwrap();
    for s in every_scheduler() {
        let name = s.name().to_string();
        let src = FileSource::<Complex32>::new(&path, SampleFormat::CF32).unwrap();
        let (got, _) = play(src, None, Some(4096), s, false);
        assert!(got.is_empty(), "{name}");
    }
}

#[test]
fn a_repeated_range_plays_again_with_a_begin_tag_every_pass() {
    let dir = scratch("repeat");
    let path = dir.0.join("x.cf32");
    let values: Vec<Complex32> = (0..1000)
        .map(|k| Complex32::new(k as f32, -(k as f32)))
        .collect();
    std::fs::write(&path, bytemuck::cast_slice::<Complex32, u8>(&values)).unwrap();
    // 3.5 passes of 300 items from item 100, through small and large rings.
    let (offset, length, total) = (100u64, 300u64, 1050u64);
    for (name, make) in schedulers() {
        for ring in [Some(4096), None] {
            let src = FileSource::<Complex32>::new(&path, SampleFormat::CF32)
                .unwrap()
                .offset(offset)
                .unwrap()
                .length(length)
                .unwrap()
                .repeat(true)
                .unwrap()
                .begin_tag("pass")
                .sample_rate(1e6);
            let (got, tags) = play(src, Some(total), ring, make(), false);
            let want: Vec<Complex32> = (offset..offset + length)
                .cycle()
                .take(total as usize)
                .map(|k| values[k as usize])
                .collect();
            assert_eq!(got, want, "{name} {ring:?}");
            let passes: Vec<(u64, Pmt)> = tags
                .iter()
                .filter(|(_, k, _)| k == "pass")
                .map(|(i, _, v)| (*i, v.clone()))
                .collect();
            let want_passes: Vec<(u64, Pmt)> =
                (0..4).map(|p| (p * length, Pmt::I64(p as i64))).collect();
            assert_eq!(passes, want_passes, "{name} {ring:?}");
            let rates: Vec<u64> = tags
                .iter()
                .filter(|(_, k, _)| k == "core:sample_rate")
                .map(|(i, _, _)| *i)
                .collect();
            assert_eq!(rates, [0], "{name} {ring:?}");
        }
    }
}

#[test]
fn a_throttled_source_on_a_worker_delivers_everything() {
    // The throttle's timer wakes a worker, not a thread of the source's
    // own: every item arrives, in order (no timing asserted).
    let dir = scratch("throttle");
    let path = dir.0.join("x.cf32");
    let n = 20_000;
    let bytes = write_bits(&path, n);
    for (name, make) in schedulers() {
        let src = FileSource::<Complex32>::new(&path, SampleFormat::CF32)
            .unwrap()
            .throttle(400_000.0)
            .unwrap();
        let (got, _) = play(src, None, Some(4096), make(), false);
        assert!(
            bytemuck::cast_slice::<Complex32, u8>(&got) == bytes.as_slice(),
            "{name}: {} items",
            got.len()
        );
    }
}

/// A sink that remembers the most items it was ever offered at once.
struct LargestChunk {
    input: StreamInput<Complex32>,
    largest: usize,
    total: usize,
}

impl Block for LargestChunk {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.slice().len();
        self.largest = self.largest.max(n);
        self.total += n;
        self.input.consume(n);
        Ok(())
    }
}

/// The most items `src`'s reader was offered at once on `s` with rings of
/// `ring` bytes, and the items it read.
fn largest_chunk(src: FileSource<Complex32>, ring: usize, s: Box<dyn Scheduler>) -> (usize, usize) {
    let mut fg = Flowgraph::new();
    fg.set_buffer_bytes(ring);
    let src = fg.add(src);
    let sink = fg.add(LargestChunk {
        input: StreamInput::new("in"),
        largest: 0,
        total: 0,
    });
    fg.chain(&[src, sink]).unwrap();
    let done = fg.run_bounded(s).unwrap();
    let sink = done.block::<LargestChunk>(sink).unwrap();
    (sink.largest, sink.total)
}

#[test]
fn unthrottled_reads_come_in_pieces_of_128_kib_even_in_small_rings() {
    let dir = scratch("pieces");
    let path = dir.0.join("x.cf32");
    let n = 1 << 18; // 2 MiB
    write_bits(&path, n);
    let piece = (128 << 10) / std::mem::size_of::<Complex32>();
    // One worker runs the source, then its reader on what it read: the
    // reader sees each piece whole.
    for (name, make) in [
        (
            "chain 1 worker",
            (|| Box::new(Chain::new().workers(1))) as MakeScheduler,
        ),
        ("single", || Box::new(Single::new())),
    ] {
        let src = FileSource::<Complex32>::new(&path, SampleFormat::CF32).unwrap();
        let (largest, total) = largest_chunk(src, 4096, make());
        assert_eq!(total, n, "{name}");
        assert!(largest >= piece, "{name}: at most {largest} items at once");
        // Throttled, the ring stays as small as asked (its latency).
        let src = FileSource::<Complex32>::new(&path, SampleFormat::CF32)
            .unwrap()
            .throttle(1e9)
            .unwrap();
        let (largest, total) = largest_chunk(src, 4096, make());
        assert_eq!(total, n, "{name}");
        assert!(largest < piece, "{name} throttled: {largest} items at once");
    }
}
