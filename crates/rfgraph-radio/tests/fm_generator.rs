//! The FM broadcast generator: each part of the multiplex at its level and
//! phase, stereo that separates, IQ that demodulates back to the
//! multiplex, noise at the CNR the docs define, seeds, parameter checks,
//! recordings that read back — and gr-rds, an independent decoder, finds
//! the generator's PI, PS and RadioText.

mod common;

use common::{fm_demod_hz, gr_rds_available, run_gr_script, scratch_dir, tone, write_f32};
use num_complex::Complex32;
use rfgraph_blocks::SampleFormat;
use rfgraph_blocks::sigmf::SigmfRecording;
use rfgraph_radio::generate::fm::{
    Audio, FmGenError, FmStation, IqRecording, Preemphasis, write_iq,
};
use rfgraph_radio::rds::RdsContent;
use std::f64::consts::{FRAC_PI_2, TAU};

/// Pre-emphasis gain at `f` Hz for τ.
fn pre(f: f64, tau: f64) -> f64 {
    (1.0 + (TAU * f * tau).powi(2)).sqrt()
}

/// Left and right at `f` from a stereo multiplex: the sum (the multiplex
/// itself) and the difference (the multiplex times `2 sin 2θ`).
fn left_right(mpx: &[f32], rate: f64, f: f64) -> (f64, f64) {
    let diff: Vec<f32> = mpx
        .iter()
        .enumerate()
        .map(|(n, &m)| {
            let theta = TAU * 19e3 * n as f64 / rate;
            (m as f64 * 2.0 * (2.0 * theta).sin()) as f32
        })
        .collect();
    let sum = tone(mpx, rate, f);
    let d = tone(&diff, rate, f);
    ((sum + d).norm(), (sum - d).norm())
}

#[test]
fn the_multiplex_has_each_part_at_its_level_and_phase() {
    let station = FmStation {
        rds: Some(RdsContent::default()),
        ..FmStation::new(240e3, 1.0)
    };
    let mpx = station.mpx().unwrap();
    assert_eq!(mpx.rate, 240e3);
    assert_eq!(mpx.samples.len(), 240_000);
    let (rate, m) = (mpx.rate, &mpx.samples);

    // The pilot: 0.09, as sin θ (phase −90° against a cosine).
    let pilot = tone(m, rate, 19e3);
    assert!((pilot.norm() - 0.09).abs() < 1e-3, "pilot {}", pilot.norm());
    assert!(
        (pilot.arg() + FRAC_PI_2).abs() < 0.01,
        "pilot phase {}",
        pilot.arg()
    );

    // Left carries 1 kHz, right 2.5 kHz, each pre-emphasised by 50 µs,
    // at 0.87 × 0.5; neither leaks into the other channel.
    let a = 0.87 * 0.5;
    let (l1, r1) = left_right(m, rate, 1e3);
    let (l2, r2) = left_right(m, rate, 2.5e3);
    assert!((l1 - a * pre(1e3, 50e-6)).abs() < 2e-3, "L at 1 kHz: {l1}");
    assert!(
        (r2 - a * pre(2.5e3, 50e-6)).abs() < 2e-3,
        "R at 2.5 kHz: {r2}"
    );
    assert!(r1 < 2e-3 && l2 < 2e-3, "crosstalk {r1} {l2}");

    // The multiplex never exceeds the peak deviation.
    let peak = m.iter().fold(0.0f32, |p, v| p.max(v.abs()));
    assert!(peak <= 1.0, "peak {peak}");

    // RDS: energy around 57 kHz, none without RDS.
    let rds_power = |m: &[f32]| -> f64 {
        (0..40)
            .map(|i| tone(m, rate, 55_000.0 + 100.0 * i as f64).norm_sqr())
            .sum()
    };
    let without = FmStation {
        rds: None,
        ..station.clone()
    }
    .mpx()
    .unwrap();
    assert!(rds_power(m) > 2e-6, "RDS power {}", rds_power(m));
    assert!(rds_power(&without.samples) < 1e-9);
}

#[test]
fn mono_sends_the_sum_alone() {
    let station = FmStation {
        stereo: false,
        preemphasis: Preemphasis::Off,
        ..FmStation::new(240e3, 0.5)
    };
    let m = station.mpx().unwrap().samples;
    let rate = 240e3;
    assert!(tone(&m, rate, 19e3).norm() < 1e-4, "no pilot");
    assert!(tone(&m, rate, 37e3).norm() < 1e-4, "no L−R");
    assert!((tone(&m, rate, 1e3).norm() - 0.87 * 0.25).abs() < 1e-3);
    assert!((tone(&m, rate, 2.5e3).norm() - 0.87 * 0.25).abs() < 1e-3);
}

#[test]
fn sample_audio_and_75_us_preemphasis() {
    let audio_rate = 48e3;
    let samples: Vec<f32> = (0..48_000)
        .map(|i| (0.3 * (TAU * 3e3 * i as f64 / audio_rate).sin()) as f32)
        .collect();
    let station = FmStation {
        left: Audio::samples(audio_rate, samples),
        right: Audio::Silence,
        preemphasis: Preemphasis::Us75,
        ..FmStation::new(250e3, 1.0)
    };
    let m = station.mpx().unwrap().samples;
    let (l, r) = left_right(&m[25_000..225_000], 250e3, 3e3);
    let want = 0.87 * 0.3 * pre(3e3, 75e-6);
    assert!((l - want).abs() / want < 0.01, "L {l} vs {want}");
    assert!(r < 0.01 * want, "R {r}");
}

#[test]
fn iq_demodulates_to_the_multiplex_at_every_rate() {
    // At 240 kS/s the multiplex is the IQ's own rate: the demodulated
    // phase steps are the multiplex, sample for sample.
    let station = FmStation {
        carrier_offset: 20e3,
        rds: Some(RdsContent::default()),
        ..FmStation::new(240e3, 0.25)
    };
    let iq = station.generate().unwrap();
    let mpx = station.mpx().unwrap().samples;
    let hz = fm_demod_hz(&iq, 240e3);
    for n in 1..iq.len() {
        let want = 20e3 + 75e3 * mpx[n] as f64;
        assert!(
            (hz[n] as f64 - want).abs() < 2.0,
            "sample {n}: {} vs {want}",
            hz[n]
        );
    }
    // At 2.4 MS/s the multiplex is interpolated: the same tones and pilot
    // come back, and the carrier sits at its offset.
    let station = FmStation {
        carrier_offset: -300e3,
        ..FmStation::new(2.4e6, 0.5)
    };
    assert_eq!(station.mpx_rate(), 240e3);
    let iq = station.generate().unwrap();
    assert_eq!(iq.len(), 1_200_000);
    let hz = fm_demod_hz(&iq, 2.4e6);
    let mean = hz.iter().map(|&v| v as f64).sum::<f64>() / hz.len() as f64;
    assert!((mean + 300e3).abs() < 50.0, "carrier at {mean}");
    let m: Vec<f32> = hz
        .iter()
        .map(|&v| ((v as f64 + 300e3) / 75e3) as f32)
        .collect();
    let pilot = tone(&m, 2.4e6, 19e3);
    assert!((pilot.norm() - 0.09).abs() < 1e-3, "pilot {}", pilot.norm());
    let (l, r) = left_right(&m, 2.4e6, 1e3);
    assert!(
        (l - 0.435 * pre(1e3, 50e-6)).abs() < 3e-3 && r < 3e-3,
        "{l} {r}"
    );
    // The interpolation is delay-compensated: the pilot's phase at the
    // IQ's time 0 is the multiplex's (sin θ, θ(0) = 0).
    assert!(
        (pilot.arg() + FRAC_PI_2).abs() < 0.02,
        "pilot phase {}",
        pilot.arg()
    );
}

/// The noise's power is `A² · rate / (200 kHz · 10^(CNR/10))`, the
/// carrier's amplitude follows the headroom rule, and the noise is white:
/// a 200 kHz slice of its spectrum holds `200 kHz / rate` of its power.
#[test]
fn noise_follows_the_cnr_definition() {
    for (rate, cnr) in [(240e3, 12.0), (2.4e6, 20.0)] {
        let noisy = FmStation {
            cnr_db: Some(cnr),
            ..FmStation::new(rate, 0.2)
        };
        let clean = FmStation {
            cnr_db: None,
            amplitude: Some(noisy.carrier_amplitude()),
            ..noisy.clone()
        };
        let a = noisy.carrier_amplitude();
        let sigma2 = a * a * rate / (200e3 * 10f64.powf(cnr / 10.0));
        let kappa = (sigma2 / 2.0).sqrt() / a;
        assert!((a - 0.9 / (1.0 + 4.0 * kappa)).abs() < 1e-12);
        let x = noisy.generate().unwrap();
        let c = clean.generate().unwrap();
        assert!((c[100].norm() as f64 - a).abs() < 1e-5);
        let noise: Vec<Complex32> = x.iter().zip(&c).map(|(a, b)| a - b).collect();
        let p = noise.iter().map(|n| n.norm_sqr() as f64).sum::<f64>() / noise.len() as f64;
        assert!(
            (p / sigma2 - 1.0).abs() < 0.02,
            "rate {rate}: power {p} vs {sigma2}"
        );
        // White: the lag-1 correlation is negligible.
        let r1: f64 = noise
            .windows(2)
            .map(|w| (w[1] * w[0].conj()).re as f64)
            .sum::<f64>()
            / noise.len() as f64;
        assert!(r1.abs() < 0.02 * sigma2, "lag-1 correlation {r1}");
    }
}

#[test]
fn a_seed_gives_one_signal() {
    let s = FmStation {
        cnr_db: Some(15.0),
        seed: 42,
        ..FmStation::new(240e3, 0.1)
    };
    assert_eq!(s.generate().unwrap(), s.generate().unwrap());
    let other = FmStation {
        seed: 43,
        ..s.clone()
    };
    assert_ne!(s.generate().unwrap(), other.generate().unwrap());
}

#[test]
fn parameters_out_of_range_are_rejected_by_name() {
    let base = FmStation::new(240e3, 0.1);
    let name = |s: FmStation| match s.generate() {
        Err(FmGenError::Param { name, .. }) => name,
        other => panic!("expected a parameter error, got {other:?}"),
    };
    assert_eq!(
        name(FmStation {
            sample_rate: 200e3,
            ..base.clone()
        }),
        "sample_rate"
    );
    assert_eq!(
        name(FmStation {
            sample_rate: f64::NAN,
            ..base.clone()
        }),
        "sample_rate"
    );
    assert_eq!(
        name(FmStation {
            duration: 0.0,
            ..base.clone()
        }),
        "duration"
    );
    assert_eq!(
        name(FmStation {
            duration: 1e9,
            ..base.clone()
        }),
        "duration"
    );
    assert_eq!(
        name(FmStation {
            carrier_offset: 30e3,
            ..base.clone()
        }),
        "carrier_offset"
    );
    assert_eq!(
        name(FmStation {
            cnr_db: Some(f64::INFINITY),
            ..base.clone()
        }),
        "cnr_db"
    );
    assert_eq!(
        name(FmStation {
            amplitude: Some(1.5),
            ..base.clone()
        }),
        "amplitude"
    );
    assert_eq!(
        name(FmStation {
            left: Audio::tone(20e3, 0.5),
            ..base.clone()
        }),
        "left.frequency"
    );
    assert_eq!(
        name(FmStation {
            right: Audio::tone(1e3, -1.0),
            ..base.clone()
        }),
        "right.amplitude"
    );
    assert_eq!(
        name(FmStation {
            deviation: 0.0,
            ..base.clone()
        }),
        "deviation"
    );
    let nan_audio = FmStation {
        right: Audio::samples(48e3, vec![0.0, f32::NAN]),
        ..base.clone()
    };
    assert!(matches!(
        nan_audio.generate(),
        Err(FmGenError::AudioSample {
            channel: "right",
            index: 1,
            ..
        })
    ));
    let bad_rds = FmStation {
        rds: Some(RdsContent {
            ps: "TOO LONG NAME".into(),
            ..RdsContent::default()
        }),
        ..base
    };
    assert!(matches!(bad_rds.generate(), Err(FmGenError::Rds(_))));
}

#[test]
fn recordings_read_back() {
    let dir = scratch_dir("recordings_read_back");
    let station = FmStation {
        cnr_db: Some(30.0),
        ..FmStation::new(240e3, 0.05)
    };
    let iq = station.generate().unwrap();
    for (name, format, tolerance) in [
        ("a.sigmf-meta", SampleFormat::CU8, 1.0 / 127.5),
        ("b.sigmf-data", SampleFormat::CF32, 0.0),
        ("c.cs16", SampleFormat::CS16, 1.0 / 32768.0),
    ] {
        let path = dir.join(name);
        let rec = IqRecording {
            center_frequency: Some(98.5e6),
            description: Some("test".into()),
            ..IqRecording::new(format, 240e3)
        };
        write_iq(&path, &iq, &rec).unwrap();
        let (data, bytes) = if name.contains("sigmf") {
            let r = SigmfRecording::open(&path).unwrap();
            assert_eq!(r.meta().global.sample_rate, Some(240e3));
            assert_eq!(r.meta().global.datatype, format);
            assert_eq!(r.meta().captures[0].frequency, Some(98.5e6));
            assert_eq!(r.samples(), iq.len() as u64);
            (r.data_path().to_path_buf(), r.data_bytes())
        } else {
            (path.clone(), std::fs::metadata(&path).unwrap().len())
        };
        assert_eq!(bytes, (iq.len() * format.bytes_per_item()) as u64);
        let raw = std::fs::read(data).unwrap();
        let mut back = vec![Complex32::default(); iq.len()];
        rfgraph_blocks::SampleCodec::new(format).decode(&raw, &mut back);
        for (a, b) in back.iter().zip(&iq) {
            assert!(
                (a.re - b.re).abs() <= tolerance + 1e-6 && (a.im - b.im).abs() <= tolerance + 1e-6
            );
        }
    }
    let real = write_iq(
        &dir.join("d.f32"),
        &iq,
        &IqRecording::new(SampleFormat::F32, 240e3),
    );
    assert!(matches!(real, Err(FmGenError::Format(_))));
    let _ = std::fs::remove_dir_all(&dir);
}

/// gr-rds, an independent implementation, decodes the generator's RDS:
/// from the multiplex directly, and from the IQ at 25 dB CNR after a
/// plain FM demodulator.
#[test]
fn gr_rds_decodes_the_generators_pi_ps_and_radiotext() {
    if !gr_rds_available("gr_rds_decodes_the_generators_pi_ps_and_radiotext") {
        return;
    }
    let dir = scratch_dir("gr_rds_decodes");
    let content = RdsContent {
        pi: 0xC0DE,
        ps: "GR-CHECK".into(),
        radiotext: "Independent decoders agree".into(),
        ..RdsContent::default()
    };
    let station = FmStation {
        rds: Some(content.clone()),
        cnr_db: Some(25.0),
        carrier_offset: 20e3,
        ..FmStation::new(250e3, 6.0)
    };
    let mpx = station.mpx().unwrap();
    let iq = station.generate().unwrap();
    let demod: Vec<f32> = fm_demod_hz(&iq, 250e3)
        .into_iter()
        .map(|hz| ((hz as f64 - 20e3) / 75e3) as f32)
        .collect();
    for (what, samples) in [("multiplex", &mpx.samples), ("demodulated IQ", &demod)] {
        let path = dir.join("mpx.f32");
        write_f32(&path, samples);
        let found = run_gr_script("decode_mpx.py", &[path.to_str().unwrap(), "250000"]);
        assert_eq!(found["pi"], "0xC0DE", "{what}: {found}");
        assert_eq!(found["ps"], "GR-CHECK", "{what}: {found}");
        assert_eq!(found["rt"], content.radiotext.as_str(), "{what}: {found}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
