//! `AudioSink`: plays two `f32` channels on the default sound card through
//! `cpal` (the `audio` feature). Owns the player thread that owns the
//! `cpal` stream (which may not move between threads); the queue between
//! `work` and the device's callback is the [`Handover`].

use super::handover::Handover;
use crate::console::errln;
use anyhow::{Context, bail};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use rfgraph::{Block, BoxError, Ports, StreamInput, Waker, WorkIo};
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Plays `in0` (left) and `in1` (right) at the rate it was opened with,
/// pacing the flowgraph to the sound card: at most half a second of audio
/// is queued; while the queue is full the sink waits on the device, which
/// wakes it as it plays (see [`Handover`]).
///
/// # Stream Inputs
/// - `in0`, `in1`: `f32`, left and right, full scale ±1.
pub struct AudioSink {
    left: StreamInput<f32>,
    right: StreamInput<f32>,
    handover: Arc<Handover>,
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
        let capacity = rate as usize;
        let handover = Arc::new(Handover::new(capacity));
        let (ready, started) = mpsc::channel();
        let for_player = handover.clone();
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
            handover,
            player: Some(player),
            capacity,
            rate,
        })
    }
}

/// The player thread: builds and runs the stream until the queue is done
/// and empty.
fn play(
    device: cpal::Device,
    config: cpal::StreamConfig,
    handover: Arc<Handover>,
    ready: mpsc::Sender<Result<(), String>>,
) {
    let feed = handover.clone();
    let stream = device.build_output_stream(
        &config,
        move |out: &mut [f32], _: &cpal::OutputCallbackInfo| feed.take(out),
        |e| errln!("rfgraph fm: audio device: {e}"),
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
    while !handover.wait_drained(Duration::from_millis(100)) {}
    drop(stream);
}

impl Block for AudioSink {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.left).input(&mut self.right)
    }

    fn is_blocking(&self) -> bool {
        true
    }

    fn attach_waker(&mut self, waker: Waker) {
        self.handover.attach(waker);
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let n = self
            .handover
            .offer(self.left.slice(), self.right.slice(), io);
        self.left.consume(n);
        self.right.consume(n);
        Ok(())
    }

    fn finishing(&mut self) {
        // Let what is queued play out (at most the queue's length), then
        // stop the player.
        let limit = Duration::from_secs_f64(self.capacity as f64 / 2.0 / self.rate as f64 + 1.0);
        self.handover.close();
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
