//! Pacing in pieces: `Throttle` and `FileSource`'s throttle release the
//! items that are due together, `chunk` seconds at a time, so a paced
//! stream wakes its neighbours once a piece, not once an item. What is
//! checked is what comes out (every size a sink sees is a whole number of
//! pieces, the count is exact), never how long it took.

mod common;

use common::{RunBounded, WATCHDOG, every_scheduler};
use rfgraph::{Block, BoxError, Flowgraph, Item, Ports, StreamInput, WorkIo};
use rfgraph_blocks::{FileSource, SampleFormat, Throttle, ThrottleParams, VectorSource};
use std::sync::{Arc, Mutex};

/// Rings that hold every test's whole stream: neither the throttle's
/// input nor its output ever limits a piece, only the schedule does.
const RING_BYTES: usize = 1 << 16;

/// Consumes everything it is offered and records how much that was.
struct ChunkRecorder<T: Item> {
    input: StreamInput<T>,
    sizes: Arc<Mutex<Vec<usize>>>,
}

impl<T: Item> ChunkRecorder<T> {
    fn new() -> (Self, Arc<Mutex<Vec<usize>>>) {
        let sizes = Arc::new(Mutex::new(Vec::new()));
        let rec = Self {
            input: StreamInput::new("in"),
            sizes: sizes.clone(),
        };
        (rec, sizes)
    }
}

impl<T: Item> Block for ChunkRecorder<T> {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self.input.slice().len();
        if n > 0 {
            self.sizes.lock().unwrap().push(n);
            self.input.consume(n);
        }
        Ok(())
    }
}

/// Runs `items` items through a throttle of `params` into a recorder on
/// every scheduler; returns each scheduler's name, the sizes the recorder
/// saw and the throttle's work calls.
fn through_throttle(items: u32, params: ThrottleParams) -> Vec<(String, Vec<usize>, u64)> {
    every_scheduler()
        .into_iter()
        .map(|s| {
            let name = s.name().to_string();
            let mut fg = Flowgraph::new();
            fg.set_buffer_bytes(RING_BYTES);
            let src = fg.add(VectorSource::new((0..items).collect::<Vec<u32>>()));
            let throttle = fg.add(Throttle::<u32>::from_params(params.clone()).unwrap());
            let (rec, sizes) = ChunkRecorder::<u32>::new();
            let sink = fg.add(rec);
            fg.chain(&[src, throttle, sink]).unwrap();
            let done = fg.run_bounded(s).unwrap();
            let calls = done
                .stats()
                .iter()
                .find(|st| st.type_name.contains("Throttle"))
                .map(|st| st.work_calls)
                .unwrap();
            let sizes = sizes.lock().unwrap().clone();
            (name, sizes, calls)
        })
        .collect()
}

fn assert_whole_pieces(name: &str, sizes: &[usize], piece: usize, total: usize) {
    assert_eq!(sizes.iter().sum::<usize>(), total, "{name}: {sizes:?}");
    assert!(
        sizes.iter().all(|&n| n % piece == 0),
        "{name}: pieces of {piece} expected, the sink saw {sizes:?}"
    );
    // Each size is at least one piece: no more sizes than pieces.
    assert!(sizes.len() <= total / piece, "{name}: {sizes:?}");
}

#[test]
fn the_throttle_releases_pieces_of_its_chunk() {
    // (rate, chunk, vlen, piece): 20 000 items/s for 5 ms is 100 items;
    // twice the rate, twice the piece; 5 000 vectors of 4 items per
    // second for 5 ms is 25 whole vectors.
    for (rate, chunk, vlen, piece) in [
        (20_000.0, 0.005, 1, 100),
        (40_000.0, 0.005, 1, 200),
        (5_000.0, 0.005, 4, 100),
    ] {
        let params = ThrottleParams {
            sample_rate: rate,
            chunk,
            vlen,
            ..Default::default()
        };
        for (name, sizes, calls) in through_throttle(2000, params) {
            let name = format!("{name} at {rate}/s × {vlen}");
            assert_whole_pieces(&name, &sizes, piece, 2000);
            // A call passes at most what is due: never the whole stream
            // at once, so the throttle took several calls.
            assert!(calls >= 2, "{name}: {calls} calls");
        }
    }
}

#[test]
fn a_slow_rate_releases_single_items_and_a_new_rate_lands() {
    // At 1 item/s a millisecond holds no item: a piece is one item. The
    // 500 items would take eight minutes; a new rate ends them at once.
    for s in every_scheduler() {
        let name = s.name().to_string();
        let mut fg = Flowgraph::new();
        fg.set_buffer_bytes(RING_BYTES);
        let src = fg.add(VectorSource::new((0..500u32).collect::<Vec<_>>()));
        let throttle = fg.add(Throttle::<u32>::new(1.0).unwrap());
        let (rec, sizes) = ChunkRecorder::<u32>::new();
        let sink = fg.add(rec);
        fg.chain(&[src, throttle, sink]).unwrap();
        let running = fg.start(s).unwrap();
        let handle = running.handle();
        handle
            .call(
                throttle,
                "sample_rate",
                1e9,
                std::time::Duration::from_secs(20),
            )
            .unwrap();
        running.wait_timeout(WATCHDOG).unwrap();
        let sizes = sizes.lock().unwrap().clone();
        assert_eq!(sizes.iter().sum::<usize>(), 500, "{name}: {sizes:?}");
    }
}

#[test]
fn a_chunk_of_zero_passes_item_by_item_and_extremes_are_refused() {
    let params = ThrottleParams {
        sample_rate: 1e15,
        chunk: 0.0,
        ..Default::default()
    };
    for (name, sizes, _) in through_throttle(3000, params) {
        assert_eq!(sizes.iter().sum::<usize>(), 3000, "{name}");
    }
    // The fastest rate with the longest chunk: a piece far larger than
    // any ring passes what the rings hold instead of waiting a second.
    let params = ThrottleParams {
        sample_rate: 1e15,
        chunk: 1.0,
        ..Default::default()
    };
    for (name, sizes, _) in through_throttle(3000, params) {
        assert_eq!(sizes.iter().sum::<usize>(), 3000, "{name}");
    }
    for chunk in [-1e-3, 1.5, f64::NAN, f64::INFINITY] {
        let e = Throttle::<u32>::from_params(ThrottleParams {
            chunk,
            ..Default::default()
        })
        .err()
        .unwrap_or_else(|| panic!("chunk {chunk} accepted"));
        assert!(e.to_string().contains("chunk"), "{e}");
    }
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rfgraph-pacing-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_file_source_throttle_releases_pieces_of_its_chunk() {
    let dir = scratch("file");
    let path = dir.join("ramp.u32");
    let items: Vec<u32> = (0..2000).collect();
    std::fs::write(&path, bytemuck::cast_slice::<u32, u8>(&items)).unwrap();
    // u8 output: 4 bytes per stored f32 item. 20 000 items/s, 5 ms:
    // pieces of 100 stored items, 400 bytes.
    for (chunk, piece) in [(0.005, 400), (0.01, 800)] {
        for s in every_scheduler() {
            let name = s.name().to_string();
            let src = FileSource::<u8>::new(&path, SampleFormat::F32)
                .unwrap()
                .throttle(20_000.0)
                .unwrap()
                .throttle_chunk(chunk)
                .unwrap();
            let mut fg = Flowgraph::new();
            fg.set_buffer_bytes(RING_BYTES);
            let src = fg.add(src);
            let (rec, sizes) = ChunkRecorder::<u8>::new();
            let sink = fg.add(rec);
            fg.chain(&[src, sink]).unwrap();
            fg.run_bounded(s).unwrap();
            let sizes = sizes.lock().unwrap().clone();
            assert_eq!(sizes.iter().sum::<usize>(), 8000, "{name}");
            // The source publishes whole pieces, several at once when it
            // runs late; a reader's window (the scheduler's chunk) may
            // split such a burst, but only a full window ends between
            // two pieces, and the next read completes the piece.
            let window = sizes.iter().copied().max().unwrap_or(0);
            let mut at = 0;
            for (k, &n) in sizes.iter().enumerate() {
                at += n;
                assert!(
                    at % piece == 0 || (n == window && k + 1 < sizes.len()),
                    "{name}: pieces of {piece} bytes expected, the sink saw {sizes:?}"
                );
            }
        }
    }
    assert!(
        FileSource::<u8>::new(&path, SampleFormat::F32)
            .unwrap()
            .throttle_chunk(2.0)
            .is_err()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
