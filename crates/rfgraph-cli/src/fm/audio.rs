//! `AudioSink`: plays two `f32` channels on the default sound card through
//! `cpal` (the `audio` feature). Owns the hand-over between the flowgraph
//! and the device's callback: a bounded queue of interleaved samples,
//! filled by `work` and drained by the callback, and the player thread
//! that owns the `cpal` stream (which may not move between threads).

use anyhow::{Context, bail};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use rfgraph::{Block, BoxError, Ports, StreamInput, WorkIo};
use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What `work` and the device's callback share.
#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    changed: Condvar,
}

#[derive(Default)]
struct Queue {
    samples: VecDeque<f32>,
    /// No more samples will come: the player may stop once it is empty.
    done: bool,
}

/// Plays `in0` (left) and `in1` (right) at the rate it was opened with,
/// pacing the flowgraph to the sound card: `work` waits while half a
/// second of audio is queued.
///
/// # Stream Inputs
/// - `in0`, `in1`: `f32`, left and right, full scale ±1.
pub struct AudioSink {
    left: StreamInput<f32>,
    right: StreamInput<f32>,
    shared: Arc<Shared>,
    player: Option<JoinHandle<()>>,
    capacity: usize,
    rate: u32,
}

impl AudioSink {
    /// Opens the default output device for stereo at `rate` Hz.
    ///
    /// Errors: no output device (the message suggests `-o`), or the device
    /// cannot play stereo at `rate`.
    pub fn open(rate: u32) -> anyhow::Result<Self> {
        let host = cpal::default_host();
        let Some(device) = host.default_output_device() else {
            bail!("no audio output device found; write a WAV file instead with -o out.wav");
        };
        let config = cpal::StreamConfig {
            channels: 2,
            sample_rate: cpal::SampleRate(rate),
            buffer_size: cpal::BufferSize::Default,
        };
        let shared = Arc::new(Shared::default());
        let (ready, started) = mpsc::channel();
        let for_player = shared.clone();
        let player = std::thread::Builder::new()
            .name("audio device".into())
            .spawn(move || play(device, config, for_player, ready))
            .context("cannot start the audio thread")?;
        match started.recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                let _ = player.join();
                bail!(
                    "cannot open the audio device for stereo at {rate} Hz ({e}); \
                     write a WAV file instead with -o out.wav (or try another --audio-rate)"
                );
            }
            Err(_) => bail!("the audio thread ended before the device opened"),
        }
        Ok(AudioSink {
            left: StreamInput::new("in0"),
            right: StreamInput::new("in1"),
            shared,
            player: Some(player),
            capacity: rate as usize,
            rate,
        })
    }
}

/// The player thread: builds and runs the stream until the queue is done
/// and empty.
fn play(
    device: cpal::Device,
    config: cpal::StreamConfig,
    shared: Arc<Shared>,
    ready: mpsc::Sender<Result<(), String>>,
) {
    let feed = shared.clone();
    let stream = device.build_output_stream(
        &config,
        move |out: &mut [f32], _: &cpal::OutputCallbackInfo| {
            let mut q = feed.queue.lock().unwrap_or_else(|p| p.into_inner());
            for o in out.iter_mut() {
                *o = q.samples.pop_front().unwrap_or(0.0);
            }
            drop(q);
            feed.changed.notify_all();
        },
        |e| eprintln!("rfgraph fm: audio device: {e}"),
        None,
    );
    let stream = match stream.map_err(|e| e.to_string()).and_then(|s| {
        s.play().map_err(|e| e.to_string())?;
        Ok(s)
    }) {
        Ok(s) => s,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let _ = ready.send(Ok(()));
    let mut q = shared.queue.lock().unwrap_or_else(|p| p.into_inner());
    while !(q.done && q.samples.is_empty()) {
        q = shared
            .changed
            .wait_timeout(q, Duration::from_millis(100))
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
    drop(q);
    drop(stream);
}

impl Block for AudioSink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.left).input(&mut self.right)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let l = self.left.slice();
        let r = self.right.slice();
        let mut q = self.shared.queue.lock().unwrap_or_else(|p| p.into_inner());
        // Wait (briefly) for room: the sound card sets the pace.
        let deadline = Instant::now() + Duration::from_millis(50);
        while q.samples.len() + 2 > self.capacity && Instant::now() < deadline {
            q = self
                .shared
                .changed
                .wait_timeout(q, Duration::from_millis(10))
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        let room = self.capacity.saturating_sub(q.samples.len()) / 2;
        let n = l.len().min(r.len()).min(room);
        for (&a, &b) in l[..n].iter().zip(&r[..n]) {
            q.samples.push_back(a);
            q.samples.push_back(b);
        }
        drop(q);
        self.left.consume(n);
        self.right.consume(n);
        Ok(())
    }

    fn finishing(&mut self) {
        // Let what is queued play out (at most the queue's length), then
        // stop the player.
        let limit = Duration::from_secs_f64(self.capacity as f64 / 2.0 / self.rate as f64 + 1.0);
        {
            let mut q = self.shared.queue.lock().unwrap_or_else(|p| p.into_inner());
            q.done = true;
        }
        self.shared.changed.notify_all();
        let start = Instant::now();
        if let Some(player) = self.player.take() {
            while !player.is_finished() && start.elapsed() < limit {
                std::thread::sleep(Duration::from_millis(10));
            }
            if player.is_finished() {
                let _ = player.join();
            }
        }
    }
}
