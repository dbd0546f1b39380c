//! Mode S / ADS-B test signals: aircraft flying known tracks, sending
//! known frames at chosen levels, pulse-position modulated at 2 or 2.4
//! MS/s (any rate of at least 2 MS/s), with noise, random timing within a
//! sample, carrier offsets, and overlapping frames.
//!
//! [`Traffic`] says what to send; [`Traffic::generate`] returns the
//! complex baseband and the list of frames sent ([`SentFrame`]), each with
//! its exact start, level, the position (and CPR format) and altitude it
//! encodes, its sender's state ([`Sender`]: callsign, squawk, motion, on
//! the ground, from which its flight status and capability follow), and
//! whether a receiver must decode it ([`SentFrame::decodable`]: at least
//! [`DECODE_SNR_DB`] above the noise, not under a stronger overlapping
//! frame, and, for formats whose parity hides the address, sent by an
//! aircraft whose address a decodable DF11/17 proved first).
//!
//! The waveform: each 0.5 µs chip that is on adds the carrier
//! (`level`, a random phase, the aircraft's carrier offset) for the part
//! of each sample period it covers, which is what an integrating receiver
//! sees; bursts add up as complex signals, so overlaps interfere as on
//! air. Frames come from [`adsb_frames`](super::adsb_frames), which
//! encodes with the decoder's own CPR, CRC and altitude code: the tests
//! check every frame with pyModeS, an independent decoder
//! (`tests/adsb/generator.rs`), so that a bug shared by the two cannot
//! hide.
//! Everything is drawn from one seeded generator: the same [`Traffic`]
//! always gives the same samples.

use super::adsb_frames as frames;
use crate::modes::decode::cpr;
use num_complex::Complex32;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Frames at least this far above the noise (pulse power over noise
/// power, dB) must decode. The margin is for the worst case at 2 MS/s: a
/// burst half a sample off the grid splits every chip over two samples,
/// which costs about 6 dB; at 20 dB every frame of every timing decodes
/// (at 16 dB 99 %, at 12 dB 90 %: see `tests/adsb/generated.rs`).
pub const DECODE_SNR_DB: f64 = 20.0;

/// Seconds a proven address stays proven (dump1090's, and the
/// demodulator's, 60 s).
const PROVEN_S: f64 = 60.0;

/// A generator that cannot make what it was asked.
#[derive(Debug, Error, PartialEq)]
pub enum AdsbGenError {
    /// A parameter out of range.
    #[error("{name} = {value}: {why}")]
    Param {
        /// The parameter.
        name: &'static str,
        /// Its value, as text.
        value: String,
        /// What it must be.
        why: &'static str,
    },
}

fn param(name: &'static str, value: impl ToString, why: &'static str) -> AdsbGenError {
    AdsbGenError::Param {
        name,
        value: value.to_string(),
        why,
    }
}

/// One aircraft: who it is, where it is at time zero and how it moves,
/// and how strong it arrives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Flight {
    /// ICAO address (24 bits).
    pub icao: u32,
    /// Callsign: up to eight of `A`–`Z`, `0`–`9`, space.
    pub callsign: String,
    /// Squawk: four octal digits.
    pub squawk: String,
    /// Latitude at time zero, degrees.
    pub lat: f64,
    /// Longitude at time zero, degrees.
    pub lon: f64,
    /// Barometric altitude at time zero, feet (sent in 25 ft steps).
    pub altitude_ft: f64,
    /// Ground speed, knots.
    pub ground_speed_kt: f64,
    /// Track, degrees clockwise from true north.
    pub track_deg: f64,
    /// Vertical rate, feet per minute.
    pub vertical_rate_fpm: f64,
    /// On the ground: surface positions instead of airborne ones.
    pub on_ground: bool,
    /// Pulse level at the receiver, dBFS.
    pub level_dbfs: f64,
}

impl Flight {
    /// Position (degrees) after `t` seconds, flying a rhumb line.
    pub fn position_at(&self, t: f64) -> (f64, f64) {
        const M_PER_DEG: f64 = 111_194.93; // mean-radius Earth
        let d = self.ground_speed_kt * 1852.0 / 3600.0 * t;
        let trk = self.track_deg.to_radians();
        let lat = self.lat + d * trk.cos() / M_PER_DEG;
        let mid = ((self.lat + lat) / 2.0).to_radians().cos().max(1e-6);
        let lon = self.lon + d * trk.sin() / (M_PER_DEG * mid);
        (lat, (lon + 180.0).rem_euclid(360.0) - 180.0)
    }

    /// Altitude after `t` seconds, in the 25 ft steps it is sent in.
    pub fn altitude_at(&self, t: f64) -> i32 {
        let ft = self.altitude_ft + self.vertical_rate_fpm * t / 60.0;
        ((ft / 25.0).round() * 25.0) as i32
    }

    fn check(&self) -> Result<(), AdsbGenError> {
        if crate::modes::decode::ident::encode_callsign(&self.callsign).is_none() {
            return Err(param(
                "callsign",
                &self.callsign,
                "up to 8 of A-Z, 0-9, space",
            ));
        }
        if crate::modes::decode::ident::encode_squawk(&self.squawk).is_none() {
            return Err(param("squawk", &self.squawk, "four octal digits"));
        }
        if self.icao > 0xFF_FFFF {
            return Err(param(
                "icao",
                format!("{:x}", self.icao),
                "a 24-bit address",
            ));
        }
        for (name, v) in [
            ("lat", self.lat),
            ("lon", self.lon),
            ("altitude_ft", self.altitude_ft),
            ("ground_speed_kt", self.ground_speed_kt),
            ("track_deg", self.track_deg),
            ("vertical_rate_fpm", self.vertical_rate_fpm),
        ] {
            if !v.is_finite() {
                return Err(param(name, v, "a finite number"));
            }
        }
        if self.lat.abs() > 85.0 {
            return Err(param("lat", self.lat, "within ±85°"));
        }
        if !(self.level_dbfs.is_finite() && self.level_dbfs <= 0.0) {
            return Err(param("level_dbfs", self.level_dbfs, "at most 0 dBFS"));
        }
        if !(-1000.0..=50_000.0).contains(&self.altitude_ft) {
            return Err(param(
                "altitude_ft",
                self.altitude_ft,
                "between -1000 and 50000",
            ));
        }
        Ok(())
    }
}

/// What a frame carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameKind {
    /// DF17, type code 4: callsign.
    Identification,
    /// DF17, type code 11: airborne position.
    AirbornePosition,
    /// DF17, type code 7: surface position.
    SurfacePosition,
    /// DF17, type code 19: velocity.
    Velocity,
    /// DF11 all-call reply.
    AllCall,
    /// DF4 altitude reply.
    Altitude,
    /// DF5 identity reply.
    Identity,
    /// DF20 Comm-B altitude reply (BDS 2,0 callsign).
    CommBAltitude,
    /// DF21 Comm-B identity reply (BDS 2,0 callsign).
    CommBIdentity,
    /// DF0 short air-air reply.
    AirAir,
}

impl FrameKind {
    /// True for the formats whose parity hides the address.
    pub fn overlays_address(self) -> bool {
        matches!(
            self,
            FrameKind::Altitude
                | FrameKind::Identity
                | FrameKind::CommBAltitude
                | FrameKind::CommBIdentity
                | FrameKind::AirAir
        )
    }
}

/// What each airborne aircraft sends, in turn.
const AIRBORNE_CYCLE: [FrameKind; 13] = [
    FrameKind::Identification,
    FrameKind::AirbornePosition,
    FrameKind::Velocity,
    FrameKind::AirbornePosition,
    FrameKind::AllCall,
    FrameKind::Altitude,
    FrameKind::Identity,
    FrameKind::AirbornePosition,
    FrameKind::Velocity,
    FrameKind::AirbornePosition,
    FrameKind::CommBAltitude,
    FrameKind::CommBIdentity,
    FrameKind::AirAir,
];

/// What each aircraft on the ground sends, in turn.
const SURFACE_CYCLE: [FrameKind; 6] = [
    FrameKind::Identification,
    FrameKind::SurfacePosition,
    FrameKind::AllCall,
    FrameKind::SurfacePosition,
    FrameKind::Identity,
    FrameKind::SurfacePosition,
];

/// A frame the generator sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SentFrame {
    /// Where its preamble starts, in samples (fractional).
    pub start: f64,
    /// `start` rounded down: the sample a receiver should report (or the
    /// next one).
    pub sample: u64,
    /// The frame, lower-case hex.
    pub hex: String,
    /// The sender's address.
    pub icao: u32,
    /// What it carries.
    pub kind: FrameKind,
    /// Its pulse level, dBFS.
    pub level_dbfs: f64,
    /// The position it encodes (position frames), degrees.
    pub position: Option<(f64, f64)>,
    /// Its altitude, feet, when it carries one.
    pub altitude_ft: Option<i32>,
    /// The CPR format of a position frame: 0 even, 1 odd (each
    /// aircraft's alternate).
    pub cpr_format: Option<u8>,
    /// The sender's state when the frame went out, whatever the frame
    /// carries of it.
    pub sender: Sender,
    /// True when a receiver must decode it (see the module doc).
    pub decodable: bool,
    /// True when a stronger frame overlaps it.
    pub hidden: bool,
}

/// What a sender was when it sent a frame: the values its transponder
/// encodes in whichever fields the frame has (callsign in identification
/// and Comm-B frames, squawk in DF5/21, motion in velocity and surface
/// frames), and those its status fields follow from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sender {
    /// Callsign.
    pub callsign: String,
    /// Squawk: four octal digits. 7500, 7600 and 7700 are the permanent
    /// alert condition (Annex 10 Vol IV 3.1.2.6.10.1.1.1): flight status
    /// 2 or 3 and capability 7.
    pub squawk: String,
    /// On the ground: flight status 1 (3 with an alert), capability 4.
    pub on_ground: bool,
    /// Ground speed, knots.
    pub ground_speed_kt: f64,
    /// Track, degrees clockwise from true north.
    pub track_deg: f64,
    /// Vertical rate, feet per minute.
    pub vertical_rate_fpm: f64,
}

impl Sender {
    /// True for the squawks of the permanent alert condition.
    pub fn alert(&self) -> bool {
        matches!(self.squawk.as_str(), "7500" | "7600" | "7700")
    }

    /// The flight status field (DF4/5/20/21): 0 airborne, 1 on the
    /// ground, 2 and 3 the same with an alert (no SPI).
    pub fn flight_status(&self) -> u8 {
        2 * u8::from(self.alert()) + u8::from(self.on_ground)
    }

    /// The capability field (DF11/17) of a level 2+ transponder: 7 when
    /// the flight status is an alert, else 4 on the ground and 5 airborne.
    pub fn capability(&self) -> u8 {
        if self.alert() {
            7
        } else if self.on_ground {
            4
        } else {
            5
        }
    }
}

/// A generated recording: the samples and what was sent.
#[derive(Clone, Debug)]
pub struct TrafficRecording {
    /// Complex baseband, full scale 1.0.
    pub samples: Vec<Complex32>,
    /// The frames, by start.
    pub frames: Vec<SentFrame>,
}

/// What to generate (see the module doc).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Traffic {
    /// Samples per second (at least 2e6).
    pub rate: f64,
    /// Seconds of signal.
    pub seconds: f64,
    /// Noise power per complex sample, dBFS; `None`: no noise.
    pub noise_dbfs: Option<f64>,
    /// The seed of every random choice.
    pub seed: u64,
    /// The aircraft.
    pub flights: Vec<Flight>,
    /// Mean seconds between two frames of one aircraft.
    pub interval_s: f64,
    /// Pairs of deliberately overlapping frames 15 dB apart: half with the
    /// later frame (starting inside the earlier) the stronger, half the
    /// weaker.
    pub overlaps: usize,
    /// Random variation of each frame's level around its aircraft's, ±dB.
    pub level_jitter_db: f64,
}

impl Traffic {
    /// The demonstration scene of `examples/adsb/`: six aircraft around
    /// Amsterdam (one taxiing at Schiphol, one squawking 7700, one 8 dB
    /// above the noise, too weak to be required) at 2 MS/s, noise at −32
    /// dBFS, the others 21 to 29 dB above it, frames every 5 ms per
    /// aircraft on average, eight overlapping pairs.
    pub fn demo(seconds: f64) -> Self {
        let flight =
            |icao, callsign: &str, squawk: &str, lat, lon, alt, gs, trk, vr, level| Flight {
                icao,
                callsign: callsign.into(),
                squawk: squawk.into(),
                lat,
                lon,
                altitude_ft: alt,
                ground_speed_kt: gs,
                track_deg: trk,
                vertical_rate_fpm: vr,
                on_ground: false,
                level_dbfs: level,
            };
        let mut taxi = flight(
            0x484175, "KLM1763", "1000", 52.3206, 4.7347, 0.0, 16.0, 98.0, 0.0, -10.0,
        );
        taxi.on_ground = true;
        Traffic {
            rate: 2.0e6,
            seconds,
            noise_dbfs: Some(-32.0),
            seed: 1090,
            flights: vec![
                flight(
                    0x40621D, "EZY85MH", "4721", 52.2572, 3.9194, 38000.0, 451.0, 82.0, 0.0, -6.0,
                ),
                flight(
                    0x4840D6, "KLM1023", "2000", 52.1012, 4.5519, 9500.0, 250.0, 313.0, -1280.0,
                    -11.0,
                ),
                taxi,
                flight(
                    0x3C6586, "DLH4AB", "7700", 51.8302, 5.2117, 23375.0, 380.0, 151.0, -2304.0,
                    -9.0,
                ),
                flight(
                    0xA05F21, "UAL70", "3354", 53.1255, 2.8891, 41000.0, 512.0, 271.0, 64.0, -3.0,
                ),
                flight(
                    0x4CA7B5, "RYR9SK", "5432", 52.9121, 6.0042, 35000.0, 433.0, 203.0, 0.0, -24.0,
                ),
            ],
            interval_s: 0.005,
            overlaps: 8,
            level_jitter_db: 1.0,
        }
    }

    fn check(&self) -> Result<(), AdsbGenError> {
        if !(self.rate.is_finite() && self.rate >= 2.0e6) {
            return Err(param("rate", self.rate, "at least 2e6 samples per second"));
        }
        if !(self.seconds.is_finite() && self.seconds > 0.0 && self.seconds * self.rate <= 1e9) {
            return Err(param(
                "seconds",
                self.seconds,
                "positive, at most 1e9 samples",
            ));
        }
        if let Some(n) = self.noise_dbfs
            && !(n.is_finite() && n <= 0.0)
        {
            return Err(param("noise_dbfs", n, "at most 0 dBFS"));
        }
        if !(self.interval_s.is_finite() && self.interval_s >= 200e-6) {
            return Err(param("interval_s", self.interval_s, "at least 200 µs"));
        }
        if !(self.level_jitter_db.is_finite() && (0.0..=6.0).contains(&self.level_jitter_db)) {
            return Err(param("level_jitter_db", self.level_jitter_db, "0 to 6 dB"));
        }
        if self.flights.is_empty() && self.overlaps > 0 {
            return Err(param(
                "overlaps",
                self.overlaps,
                "needs at least two aircraft",
            ));
        }
        if self.overlaps > 0 && self.flights.len() < 2 {
            return Err(param(
                "overlaps",
                self.overlaps,
                "needs at least two aircraft",
            ));
        }
        self.flights.iter().try_for_each(Flight::check)
    }

    /// Generates the recording (see the module doc).
    ///
    /// Errors: [`AdsbGenError::Param`] naming the first parameter out of
    /// range (rate below 2 MS/s, a callsign outside the alphabet, ...).
    pub fn generate(&self) -> Result<TrafficRecording, AdsbGenError> {
        self.check()?;
        let mut rng = Rng::new(self.seed);
        let n = (self.seconds * self.rate).round() as usize;
        let mut samples = vec![Complex32::new(0.0, 0.0); n];
        let plan = self.schedule(&mut rng);
        let chip = self.rate / 2.0e6;
        let offsets: Vec<f64> = self
            .flights
            .iter()
            .map(|_| rng.uniform(-100e3, 100e3))
            .collect();
        for p in &plan {
            let amplitude = 10f64.powf(p.frame.level_dbfs / 20.0);
            let phase = rng.uniform(0.0, std::f64::consts::TAU);
            modulate(
                &mut samples,
                &p.bytes,
                p.frame.start,
                chip,
                amplitude,
                phase,
                offsets[p.flight] / self.rate,
            );
        }
        if let Some(noise) = self.noise_dbfs {
            let sigma = (10f64.powf(noise / 10.0) / 2.0).sqrt();
            for s in &mut samples {
                let (a, b) = rng.gaussian_pair();
                *s += Complex32::new((a * sigma) as f32, (b * sigma) as f32);
            }
        }
        let mut frames: Vec<SentFrame> = plan.into_iter().map(|p| p.frame).collect();
        self.mark_decodable(&mut frames);
        Ok(TrafficRecording { samples, frames })
    }

    /// When each frame goes out, and what it is.
    fn schedule(&self, rng: &mut Rng) -> Vec<Planned> {
        let mut plan = Vec::new();
        if self.flights.is_empty() {
            return plan;
        }
        let end = self.seconds * self.rate;
        let us = self.rate / 1e6;
        let gap = 4.0 * us;
        let mut next: Vec<f64> = self
            .flights
            .iter()
            .map(|_| rng.uniform(20.0, 2000.0) * us)
            .collect();
        let mut turn = vec![0usize; self.flights.len()];
        let mut free = 0.0f64;
        // Roughly how many frames there will be, to spread the overlaps.
        let expected = (self.seconds / self.interval_s * self.flights.len() as f64).max(1.0);
        let every = (expected / (self.overlaps as f64 + 1.0)).max(2.0) as usize;
        let mut overlaps_left = self.overlaps;
        let mut count = 0usize;
        loop {
            let (f, &t) = next
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.total_cmp(b.1))
                .unwrap_or((0, &f64::INFINITY));
            let start = t.max(free) + rng.uniform(0.0, 1.0);
            let host = self.build(f, &mut turn[f], start, rng);
            let len = host.duration(us);
            if start + len + 400.0 * us > end {
                break;
            }
            next[f] = start + self.interval_s * self.rate * rng.uniform(0.5, 1.5);
            free = start + len + gap;
            count += 1;
            let host_level = host.frame.level_dbfs;
            plan.push(host);
            if overlaps_left > 0 && count.is_multiple_of(every) {
                // Another aircraft's next frame, starting inside this one,
                // 15 dB stronger or weaker.
                let k = self.overlaps - overlaps_left;
                overlaps_left -= 1;
                let g = (f + 1 + k % (self.flights.len() - 1)) % self.flights.len();
                let at = start + rng.uniform(16.0, 0.75 * len / us) * us;
                let mut o = self.build(g, &mut turn[g], at, rng);
                // Always 15 dB apart: a stronger frame that would pass
                // −1 dBFS lowers its host instead.
                let stronger = k.is_multiple_of(2);
                let lo = if stronger {
                    let level = (host_level + 15.0).min(-1.0);
                    o.frame.level_dbfs = level;
                    let host = plan.len() - 1;
                    plan[host].frame.level_dbfs = level - 15.0;
                    host
                } else {
                    o.frame.level_dbfs = host_level - 15.0;
                    plan.len()
                };
                let o_len = o.duration(us);
                plan.push(o);
                plan[lo].frame.hidden = true;
                free = free.max(at + o_len + gap);
                next[g] = at + self.interval_s * self.rate * rng.uniform(0.5, 1.5);
            }
        }
        plan.sort_by(|a, b| a.frame.start.total_cmp(&b.frame.start));
        plan
    }

    /// The next frame of flight `f` in its cycle, sent at `start` samples.
    fn build(&self, f: usize, turn: &mut usize, start: f64, rng: &mut Rng) -> Planned {
        let fl = &self.flights[f];
        let t = start / self.rate;
        let cycle: &[FrameKind] = if fl.on_ground {
            &SURFACE_CYCLE
        } else {
            &AIRBORNE_CYCLE
        };
        let kind = cycle[*turn % cycle.len()];
        // Positions alternate even and odd within each aircraft: odd
        // when it has sent an odd number of them before this one.
        let is_position =
            |k: &&FrameKind| matches!(k, FrameKind::AirbornePosition | FrameKind::SurfacePosition);
        let sent_before = *turn / cycle.len() * cycle.iter().filter(is_position).count()
            + cycle[..*turn % cycle.len()]
                .iter()
                .filter(is_position)
                .count();
        let odd = sent_before % 2 == 1;
        *turn += 1;
        let alt = fl.altitude_at(t);
        let (lat, lon) = fl.position_at(t);
        let sender = Sender {
            callsign: fl.callsign.clone(),
            squawk: fl.squawk.clone(),
            on_ground: fl.on_ground,
            ground_speed_kt: fl.ground_speed_kt,
            track_deg: fl.track_deg,
            vertical_rate_fpm: fl.vertical_rate_fpm,
        };
        let (fs, ca) = (sender.flight_status(), sender.capability());
        let mut position = None;
        let mut altitude = None;
        let mut cpr_format = None;
        // Every builder's inputs were checked (`Flight::check`), and the
        // altitude stays in range over any sane run; an unencodable one
        // falls back to an all-call reply rather than failing.
        let bytes = match kind {
            FrameKind::Identification => frames::me_identification(0, 3, &fl.callsign)
                .map(|me| frames::df17(ca, fl.icao, me)),
            FrameKind::AirbornePosition => {
                let c = cpr::encode(lat, lon, odd, false);
                position = Some((lat, lon));
                cpr_format = Some(u8::from(odd));
                altitude = Some(alt);
                frames::me_airborne_position(alt, c).map(|me| frames::df17(ca, fl.icao, me))
            }
            FrameKind::SurfacePosition => {
                let c = cpr::encode(lat, lon, odd, true);
                position = Some((lat, lon));
                cpr_format = Some(u8::from(odd));
                Some(frames::df17(
                    ca,
                    fl.icao,
                    frames::me_surface_position(fl.ground_speed_kt, fl.track_deg, c),
                ))
            }
            FrameKind::Velocity => Some(frames::df17(
                ca,
                fl.icao,
                frames::me_velocity(
                    fl.ground_speed_kt,
                    fl.track_deg,
                    fl.vertical_rate_fpm.round() as i32,
                ),
            )),
            FrameKind::AllCall => Some(frames::df11(ca, fl.icao, 0)),
            FrameKind::Altitude => {
                altitude = Some(alt);
                frames::df4(fs, fl.icao, alt)
            }
            FrameKind::Identity => frames::df5(fs, fl.icao, &fl.squawk),
            FrameKind::CommBAltitude => {
                altitude = Some(alt);
                frames::mb_identification(&fl.callsign)
                    .and_then(|mb| frames::df20(fs, fl.icao, alt, mb))
            }
            FrameKind::CommBIdentity => frames::mb_identification(&fl.callsign)
                .and_then(|mb| frames::df21(fs, fl.icao, &fl.squawk, mb)),
            FrameKind::AirAir => {
                altitude = Some(alt);
                frames::df0(fl.icao, alt)
            }
        };
        let (bytes, kind) = match bytes {
            Some(b) => (b, kind),
            None => {
                position = None;
                altitude = None;
                cpr_format = None;
                (frames::df11(ca, fl.icao, 0), FrameKind::AllCall)
            }
        };
        let level = fl.level_dbfs + rng.uniform(-self.level_jitter_db, self.level_jitter_db);
        Planned {
            flight: f,
            frame: SentFrame {
                start,
                sample: start.floor() as u64,
                hex: bytes.iter().map(|b| format!("{b:02x}")).collect(),
                icao: fl.icao,
                kind,
                level_dbfs: level.min(0.0),
                position,
                altitude_ft: altitude,
                cpr_format,
                sender,
                decodable: false,
                hidden: false,
            },
            bytes,
        }
    }

    /// Sets [`SentFrame::decodable`] (see the module doc).
    fn mark_decodable(&self, frames: &mut [SentFrame]) {
        let mut proven: Vec<(u32, f64)> = Vec::new();
        for f in frames.iter_mut() {
            let t = f.start / self.rate;
            let loud = self
                .noise_dbfs
                .is_none_or(|n| f.level_dbfs - n >= DECODE_SNR_DB);
            let clear = loud && !f.hidden;
            let address_ok = !f.kind.overlays_address()
                || proven
                    .iter()
                    .any(|&(a, at)| a == f.icao && t - at <= PROVEN_S);
            f.decodable = clear && address_ok;
            if f.decodable && !f.kind.overlays_address() {
                proven.retain(|&(a, _)| a != f.icao);
                proven.push((f.icao, t));
            }
        }
    }
}

/// A frame with its bytes and sender, before it is modulated.
struct Planned {
    flight: usize,
    frame: SentFrame,
    bytes: Vec<u8>,
}

impl Planned {
    /// Samples the burst lasts, at `us` samples per microsecond.
    fn duration(&self, us: f64) -> f64 {
        (8.0 + self.bytes.len() as f64 * 8.0) * us
    }
}

/// Adds the burst of `bytes` starting at sample `start` (fractional),
/// `chip` samples per half-bit.
fn modulate(
    out: &mut [Complex32],
    bytes: &[u8],
    start: f64,
    chip: f64,
    amplitude: f64,
    phase: f64,
    cycles_per_sample: f64,
) {
    let mut on = vec![false; 16];
    for k in [0, 2, 7, 9] {
        on[k] = true;
    }
    for i in 0..bytes.len() * 8 {
        let bit = (bytes[i / 8] >> (7 - i % 8)) & 1 == 1;
        on.extend([bit, !bit]);
    }
    let tau = std::f64::consts::TAU;
    for (i, _) in on.iter().enumerate().filter(|(_, o)| **o) {
        let (a, b) = (start + i as f64 * chip, start + (i + 1) as f64 * chip);
        let first = a.floor().max(0.0) as usize;
        let last = (b.ceil() as usize).min(out.len());
        for (k, s) in out.iter_mut().enumerate().take(last).skip(first) {
            let cover = (b.min(k as f64 + 1.0) - a.max(k as f64)).max(0.0);
            if cover > 0.0 {
                let ph = phase + tau * cycles_per_sample * (k as f64 + 0.5);
                let v = amplitude * cover;
                *s += Complex32::new((v * ph.cos()) as f32, (v * ph.sin()) as f32);
            }
        }
    }
}

/// xorshift64* with Box–Muller: small, seeded, the same everywhere.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Two independent standard normal values.
    fn gaussian_pair(&mut self) -> (f64, f64) {
        let u = 1.0 - self.unit();
        let v = self.unit();
        let r = (-2.0 * u.ln()).sqrt();
        let a = std::f64::consts::TAU * v;
        (r * a.cos(), r * a.sin())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_scene() {
        let rec = Traffic::demo(0.05).generate().unwrap();
        assert_eq!(rec.samples.len(), 100_000);
        assert!(rec.frames.len() > 30, "{}", rec.frames.len());
        assert!(rec.frames.windows(2).all(|w| w[0].start <= w[1].start));
        assert!(rec.frames.iter().any(|f| f.hidden));
        assert!(
            rec.frames
                .iter()
                .any(|f| f.decodable && f.kind.overlays_address())
        );
        // The weak aircraft is never required at its own level (only
        // when an overlap makes it the stronger frame).
        assert!(
            rec.frames
                .iter()
                .filter(|f| f.icao == 0x4CA7B5 && f.level_dbfs < -20.0)
                .all(|f| !f.decodable)
        );
        // Each aircraft's positions alternate even and odd.
        for fl in &Traffic::demo(0.05).flights {
            let formats: Vec<u8> = rec
                .frames
                .iter()
                .filter(|f| f.icao == fl.icao)
                .filter_map(|f| f.cpr_format)
                .collect();
            assert!(formats.len() > 2, "{:06x}", fl.icao);
            assert!(formats.windows(2).all(|w| w[0] != w[1]), "{formats:?}");
        }
        // The squawk 7700 aircraft is in the alert condition, the taxiing
        // one on the ground.
        let status = |icao| {
            let s = &rec.frames.iter().find(|f| f.icao == icao).unwrap().sender;
            (s.flight_status(), s.capability())
        };
        assert_eq!(status(0x3C6586), (2, 7));
        assert_eq!(status(0x484175), (1, 4));
        assert_eq!(status(0x40621D), (0, 5));
        // Same seed, same samples.
        let again = Traffic::demo(0.05).generate().unwrap();
        assert_eq!(again.samples, rec.samples);
        let mut bad = Traffic::demo(0.05);
        bad.flights[0].callsign = "lower".into();
        assert!(matches!(
            bad.generate(),
            Err(AdsbGenError::Param {
                name: "callsign",
                ..
            })
        ));
        bad = Traffic::demo(0.05);
        bad.rate = 1e6;
        assert!(bad.generate().is_err());
    }
}
