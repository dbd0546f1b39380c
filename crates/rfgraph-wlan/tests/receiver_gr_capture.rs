//! The receiver on gr-ieee802-11's captures (`testdata/wlan/`): all 8
//! encodings, 3 frames each, at 25 dB and 10 dB SNR. At 25 dB it must
//! give exactly the 24 MPDUs gr-ieee802-11's receiver gives, in order; at
//! 10 dB at least the 12 gr-ieee802-11 gives; and every frame it calls
//! valid (FCS matched) must be the MPDU sent at that place.

use num_complex::Complex32;
use rfgraph_wlan::burst::Decoded;
use rfgraph_wlan::receiver::Receiver;

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

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The MPDUs gr-ieee802-11 decoded, in order.
fn gr_decoded(name: &str) -> Vec<Vec<u8>> {
    std::fs::read_to_string(format!("{DIR}{name}"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| hex(l.trim()))
        .collect()
}

/// What was sent: (first sample, MPDU) per frame, from the JSON: the
/// 24-byte data header (frame control 0x0008, addresses 42…, 23…, ff…,
/// sequence control: gr-ieee802-11's MAC numbers each encoding's three
/// frames 0, 1, 2) and the payload.
fn sent(name: &str) -> Vec<(u64, Vec<u8>)> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{DIR}{name}")).unwrap()).unwrap();
    json["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let seq = (f["seq"].as_u64().unwrap() % 3) as u16;
            let mut mpdu = vec![0x08, 0x00, 0x00, 0x00];
            mpdu.extend([0x42; 6]);
            mpdu.extend([0x23; 6]);
            mpdu.extend([0xff; 6]);
            mpdu.extend((seq << 4).to_le_bytes());
            mpdu.extend(hex(f["payload_hex"].as_str().unwrap()));
            (f["start"].as_u64().unwrap(), mpdu)
        })
        .collect()
}

/// The receiver over `samples` in pieces of `chunk`.
fn receive(samples: &[Complex32], chunk: usize) -> (Vec<Decoded>, Receiver) {
    let mut rx = Receiver::new();
    let mut out = Vec::new();
    for piece in samples.chunks(chunk) {
        rx.push(piece, &mut out);
    }
    rx.finish(&mut out);
    (out, rx)
}

/// Every valid frame is the one sent where it was found (its start
/// within 4 samples of the frame's first sample); returns how many
/// frames were valid.
fn check_valid_frames_are_the_sent_ones(frames: &[Decoded], sent: &[(u64, Vec<u8>)]) -> usize {
    let mut valid = 0;
    for f in frames.iter().filter(|f| f.fcs_ok) {
        let (start, mpdu) = sent
            .iter()
            .min_by_key(|(s, _)| s.abs_diff(f.start))
            .unwrap();
        assert!(
            start.abs_diff(f.start) <= 4,
            "frame at {} vs {start}",
            f.start
        );
        assert_eq!(&f.mpdu, mpdu, "frame at {}", f.start);
        valid += 1;
    }
    valid
}

#[test]
fn capture_at_25_db_gives_the_24_mpdus_gr_ieee802_11_gives() {
    let samples = read_cf32("wlan-25db.cf32");
    assert_eq!(samples.len(), 299_088);
    let gr = gr_decoded("wlan-25db.gr-decoded.txt");
    assert_eq!(gr.len(), 24);
    let sent = sent("wlan-25db.json");
    let (frames, rx) = receive(&samples, 10_000);
    assert_eq!(rx.consumed(), samples.len() as u64);
    assert_eq!(rx.dropped().total(), 0, "{:?}", rx.dropped());
    assert!(frames.iter().all(|f| f.fcs_ok), "a frame failed its FCS");
    let mpdus: Vec<Vec<u8>> = frames.iter().map(|f| f.mpdu.clone()).collect();
    assert_eq!(mpdus, gr);
    assert_eq!(check_valid_frames_are_the_sent_ones(&frames, &sent), 24);
    for (i, f) in frames.iter().enumerate() {
        assert_eq!(f.seq, i as u64);
        assert_eq!(f.rate.encoding(), i / 3, "frame {i}");
        assert!(
            f.snr_db > 18.0 && f.snr_db < 32.0,
            "frame {i}: {} dB",
            f.snr_db
        );
        assert!(f.cfo_hz.abs() < 2_000.0, "frame {i}: {} Hz", f.cfo_hz);
    }
}

#[test]
fn capture_at_10_db_gives_at_least_what_gr_ieee802_11_gives() {
    let samples = read_cf32("wlan-10db.cf32");
    let gr = gr_decoded("wlan-10db.gr-decoded.txt");
    assert_eq!(gr.len(), 12);
    let sent = sent("wlan-10db.json");
    let (frames, _) = receive(&samples, 4096);
    let valid = check_valid_frames_are_the_sent_ones(&frames, &sent);
    let mpdus: Vec<&Vec<u8>> = frames
        .iter()
        .filter(|f| f.fcs_ok)
        .map(|f| &f.mpdu)
        .collect();
    // gr-ieee802-11's frames, in order, among ours.
    let mut ours = mpdus.iter();
    for m in &gr {
        assert!(ours.any(|o| *o == m), "missing seq {:?}", &m[22..24]);
    }
    assert!(valid >= 12, "{valid}");
    let which: Vec<u64> = frames.iter().filter(|f| f.fcs_ok).map(|f| f.seq).collect();
    eprintln!(
        "10 dB: {valid} of 24 frames valid, bursts {which:?} ({} decoded)",
        frames.len()
    );
}
