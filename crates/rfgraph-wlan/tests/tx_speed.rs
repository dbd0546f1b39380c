//! Release-mode speed of the transmitter side (ignored by default):
//! `cargo test -p rfgraph-wlan --release --test tx_speed -- --ignored --nocapture`.

use rfgraph_wlan::fcs;
use rfgraph_wlan::rate::Rate;
use rfgraph_wlan::scrambler::Scrambler;
use rfgraph_wlan::transmitter::Transmitter;
use std::time::Instant;

#[test]
#[ignore = "speed measurement; run in release"]
fn transmitter_and_fcs_speed() {
    let mpdu: Vec<u8> = (0..1500u32).map(|i| (i * 7 + 3) as u8).collect();
    let mut tx = Transmitter::new();
    for rate in [Rate::Bpsk12, Rate::Qam16_34, Rate::Qam64_34] {
        let t = Instant::now();
        let mut samples = 0usize;
        let mut check = 0f32;
        for i in 0..200 {
            let f = tx.frame(&mpdu, rate, 1 + (i % 127) as u8);
            samples += f.len();
            check += f[400].re;
        }
        let s = t.elapsed().as_secs_f64();
        eprintln!(
            "transmitter {rate}: {:.1} MS/s ({check:.1})",
            samples as f64 / s / 1e6
        );
        assert!(samples > 0);
    }
    let mut data = vec![0x5au8; 1 << 20];
    let t = Instant::now();
    let mut x = 0u32;
    for i in 0..50 {
        data[0] = i as u8;
        x ^= fcs::fcs(std::hint::black_box(&data));
    }
    eprintln!(
        "fcs: {:.0} MB/s ({x:08x})",
        50.0 / t.elapsed().as_secs_f64()
    );
    let mut buf = vec![0u8; 1 << 20];
    let t = Instant::now();
    let mut s = Scrambler::new(0x5d);
    for _ in 0..50 {
        s.scramble_bytes(&mut buf);
    }
    eprintln!(
        "scrambler (bytes): {:.0} MB/s ({})",
        50.0 / t.elapsed().as_secs_f64(),
        buf[7]
    );
}
