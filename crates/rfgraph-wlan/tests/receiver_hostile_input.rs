//! Input a radio or a recording can really give: a NaN or an infinity
//! just before a frame, samples far louder than a float's comfortable
//! range, a stream that ends inside a frame and a new one after it. The
//! frames still come out, numbered without gaps.

use num_complex::Complex32;
use rfgraph_wlan::burst::Decoded;
use rfgraph_wlan::rate::Rate;
use rfgraph_wlan::receiver::Receiver;
use rfgraph_wlan::scene::{ADDRESSES, payload};
use rfgraph_wlan::transmitter::Transmitter;

fn frame() -> (Vec<u8>, Vec<Complex32>) {
    let [a1, a2, a3] = ADDRESSES;
    let mpdu = rfgraph_wlan::mac::data_frame(7, a1, a2, a3, &payload(7, 200));
    let samples = Transmitter::new().frame(&mpdu, Rate::Qpsk12, 0x5d);
    (mpdu, samples)
}

fn silence(n: usize) -> Vec<Complex32> {
    vec![Complex32::new(1e-4, -1e-4); n]
}

fn receive(chunks: &[&[Complex32]]) -> Vec<Decoded> {
    let mut rx = Receiver::new();
    let mut out = Vec::new();
    for c in chunks {
        rx.push(c, &mut out);
    }
    rx.finish(&mut out);
    out
}

#[test]
fn a_nan_or_infinity_just_before_a_frame_does_not_hide_it() {
    let (mpdu, f) = frame();
    for bad in [
        Complex32::new(f32::NAN, 0.0),
        Complex32::new(f32::INFINITY, 1.0),
        Complex32::new(0.0, f32::NEG_INFINITY),
    ] {
        let mut x = silence(1000);
        x[900] = bad;
        x.extend_from_slice(&f);
        x.extend(silence(1000));
        let got = receive(&[&x]);
        assert_eq!(got.len(), 1, "{bad}");
        assert!(got[0].fcs_ok && got[0].mpdu == mpdu, "{bad}");
    }
}

#[test]
fn loud_input_is_received_like_quiet_input() {
    let (mpdu, f) = frame();
    // Up to an unscaled 32-bit integer recording's full scale.
    for scale in [1e-6f32, 1.0, 1e6, 2.1e9] {
        let mut x: Vec<Complex32> = silence(1000).iter().map(|s| s * scale).collect();
        x.extend(f.iter().map(|s| s * scale));
        x.extend(silence(1000).iter().map(|s| s * scale));
        let got = receive(&[&x]);
        assert_eq!(got.len(), 1, "scale {scale}");
        assert!(got[0].fcs_ok && got[0].mpdu == mpdu, "scale {scale}");
    }
}

#[test]
fn a_frame_cut_off_by_the_end_takes_no_number() {
    let (mpdu, f) = frame();
    let mut rx = Receiver::new();
    let mut out = Vec::new();
    let mut first = silence(1000);
    first.extend_from_slice(&f[..f.len() / 2]);
    rx.push(&first, &mut out);
    rx.finish(&mut out);
    assert!(out.is_empty());
    // The next stream's first frame is burst 0: nothing waits for the
    // one cut off.
    let mut second = silence(1000);
    second.extend_from_slice(&f);
    second.extend(silence(1000));
    rx.push(&second, &mut out);
    rx.finish(&mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].seq, 0);
    assert_eq!(out[0].mpdu, mpdu);
}
