//! The transmitter against gr-ieee802-11's waveform: the first frame of
//! `testdata/wlan/wlan-25db.cf32` (seq 0, BPSK 1/2, made by
//! gr-ieee802-11's transmitter, 25 dB SNR) correlates with this crate's
//! frame for the same MPDU, once the scrambler seed is found.

use num_complex::Complex32;
use rfgraph_wlan::rate::Rate;
use rfgraph_wlan::transmitter::Transmitter;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/wlan/");

fn read_cf32(name: &str) -> Vec<Complex32> {
    let b = std::fs::read(format!("{DIR}{name}")).unwrap();
    b.chunks_exact(8)
        .map(|c| {
            Complex32::new(
                f32::from_le_bytes(c[..4].try_into().unwrap()),
                f32::from_le_bytes(c[4..].try_into().unwrap()),
            )
        })
        .collect()
}

/// The first number after `"key":` at or after `from` in `json`.
fn json_number(json: &str, key: &str) -> usize {
    let at = json.find(&format!("\"{key}\"")).unwrap();
    let rest = &json[at + key.len() + 2..];
    let rest = rest.trim_start_matches([':', ' ']);
    let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap();
    rest[..end].parse().unwrap()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// |⟨a, b⟩| / (‖a‖ ‖b‖).
fn correlation(a: &[Complex32], b: &[Complex32]) -> f32 {
    let dot: Complex32 = a.iter().zip(b).map(|(x, y)| x.conj() * y).sum();
    let ea: f32 = a.iter().map(|c| c.norm_sqr()).sum();
    let eb: f32 = b.iter().map(|c| c.norm_sqr()).sum();
    dot.norm() / (ea * eb).sqrt()
}

#[test]
fn first_capture_frame_is_our_waveform() {
    let json = std::fs::read_to_string(format!("{DIR}wlan-25db.json")).unwrap();
    // The first frame: seq 0, encoding 0.
    let frames = &json[json.find("\"frames\"").unwrap()..];
    assert_eq!(json_number(frames, "encoding"), 0);
    let start = json_number(frames, "start");
    assert_eq!(start, 2000);
    let decoded = std::fs::read_to_string(format!("{DIR}wlan-25db.gr-decoded.txt")).unwrap();
    let mpdu = hex(decoded.lines().next().unwrap().trim());
    assert_eq!(mpdu.len(), 24 + 36);

    let capture = read_cf32("wlan-25db.cf32");
    let mut tx = Transmitter::new();
    let mut best = (0.0f32, 0u8);
    let mut others = Vec::new();
    for seed in 1..128u8 {
        let f = tx.frame(&mpdu, Rate::Bpsk12, seed);
        let c = correlation(&f, &capture[start..start + f.len()]);
        others.push(c);
        if c > best.0 {
            best = (c, seed);
        }
    }
    let (c, seed) = best;
    others.sort_by(|a, b| b.total_cmp(a));
    eprintln!(
        "best seed {seed:#04x}: correlation {c:.4}; next {:.4}",
        others[1]
    );
    // 25 dB SNR alone would allow ≈ 0.997; gr-ieee802-11 windows symbol
    // edges, which costs a little more.
    assert!(c > 0.9, "correlation {c}");
    // Only the preamble and SIGNAL are shared with other seeds' frames.
    assert!(others[1] < 0.5, "second-best {}", others[1]);
}

/// All 24 frames (8 rates × 3 lengths): gr-ieee802-11's scrambler starts
/// at seed 1 for each rate's first frame and counts up (found with the
/// search above), so seeds 1, 2, 3 in each rate.
#[test]
fn every_capture_frame_matches_at_every_rate() {
    let json = std::fs::read_to_string(format!("{DIR}wlan-25db.json")).unwrap();
    let decoded = std::fs::read_to_string(format!("{DIR}wlan-25db.gr-decoded.txt")).unwrap();
    let capture = read_cf32("wlan-25db.cf32");
    let mut tx = Transmitter::new();
    let mut rest = &json[json.find("\"frames\"").unwrap()..];
    let mut n = 0;
    for (i, line) in decoded.lines().enumerate() {
        let rate = Rate::from_encoding(json_number(rest, "encoding")).unwrap();
        assert_eq!(rate.encoding(), i / 3);
        let start = json_number(rest, "start");
        rest = &rest[rest.find("\"start\"").unwrap() + 8..];
        let mpdu = hex(line.trim());
        let seed = (i % 3 + 1) as u8;
        let rx = |len: usize| &capture[start..start + len];
        let f = tx.frame(&mpdu, rate, seed);
        let c = correlation(&f, rx(f.len()));
        assert!(c > 0.99, "frame {i} ({rate}): correlation {c}");
        // The data symbols alone (after preamble and SIGNAL) tell the
        // seed: another seed's data does not correlate.
        let data = correlation(&f[400..], &rx(f.len())[400..]);
        assert!(data > 0.99, "frame {i} ({rate}): data correlation {data}");
        let wrong = tx.frame(&mpdu, rate, seed + 10);
        let w = correlation(&wrong[400..], &rx(wrong.len())[400..]);
        assert!(w < 0.3, "frame {i} ({rate}): wrong seed correlates {w}");
        n += 1;
    }
    assert_eq!(n, 24);
}
