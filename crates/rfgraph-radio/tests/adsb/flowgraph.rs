//! The receiver as a flowgraph: the same messages on every scheduler,
//! whatever the chunk sizes between the blocks (random, from `CopyRand`),
//! as the demodulator and tracker give without a runtime; and dump1090's
//! network outputs over loopback.

use crate::common::{cu8, demodulate, magnitudes, scene};
use rfgraph::Flowgraph;
use rfgraph::scheduler::by_name;
use rfgraph_blocks::{CopyRand, VectorSource};
use rfgraph_radio::modes::{
    Cu8Magnitude, Message, ModesDecoder, ModesDemod, ModesNetOutput, RawFrame, ReceiverConfig,
    ReceiverInput, Tracker, add_receiver,
};
use std::io::Read;
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::Duration;

const WATCHDOG: Duration = Duration::from_secs(60);

fn recording() -> Vec<u8> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/adsb/modes1-part1.cu8");
    std::fs::read(path).expect("the test recording")
}

/// What the blocks should produce: the demodulator and tracker run
/// directly over the whole input.
fn reference(bytes: &[u8], rate: f64) -> Vec<Message> {
    let frames = demodulate(&magnitudes(bytes), rate);
    let mut t = Tracker::new(rate);
    frames.iter().map(|f| t.process(f)).collect()
}

/// source → [CopyRand] → magnitude → [CopyRand] → demod → [CopyRand] →
/// decoder, run on `scheduler`; the decoder's messages.
fn run(bytes: &[u8], rate: f64, scheduler: &str, shake: Option<u64>) -> Vec<Message> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(bytes.to_vec()));
    let mag = fg.add(Cu8Magnitude::new());
    let demod = fg.add(ModesDemod::new(rate).expect("a demodulator rate"));
    let dec = fg.add(ModesDecoder::new(rate).keeping(usize::MAX));
    match shake {
        Some(seed) => {
            let a = fg.add(CopyRand::<u8>::new(5000, seed));
            let b = fg.add(CopyRand::<u16>::new(700, seed + 1));
            let c = fg.add(CopyRand::<RawFrame>::new(3, seed + 2));
            fg.chain(&[src, a, mag, b, demod, c, dec]).unwrap();
        }
        None => fg.chain(&[src, mag, demod, dec]).unwrap(),
    }
    let running = fg.start(by_name(scheduler).unwrap()).unwrap();
    let done = running.wait_timeout(WATCHDOG).unwrap();
    done.block::<ModesDecoder>(dec).unwrap().messages().to_vec()
}

#[test]
fn same_messages_on_every_scheduler_and_chunking() {
    let (_, rec) = scene(2.0e6, 0.1);
    for (bytes, what) in [(recording(), "recording"), (cu8(&rec), "generated")] {
        let want = reference(&bytes, 2.0e6);
        assert!(want.len() > 20, "{what}: {} messages", want.len());
        for scheduler in ["single", "pool", "chain", "tpb"] {
            for shake in [None, Some(7), Some(1234)] {
                let got = run(&bytes, 2.0e6, scheduler, shake);
                assert_eq!(got, want, "{what} on {scheduler}, chunks {shake:?}");
            }
        }
    }
}

#[test]
fn same_messages_at_2_4_msps() {
    let (_, rec) = scene(2.4e6, 0.1);
    let bytes = cu8(&rec);
    let want = reference(&bytes, 2.4e6);
    assert!(want.len() > 20);
    for scheduler in ["single", "pool", "chain"] {
        assert_eq!(run(&bytes, 2.4e6, scheduler, Some(99)), want, "{scheduler}");
    }
}

/// Reads what a server sends until it closes the connection.
fn read_all(mut s: TcpStream) -> String {
    s.set_read_timeout(Some(WATCHDOG)).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text
}

#[test]
fn raw_and_sbs_outputs_over_loopback() {
    let bytes = recording();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(bytes.clone()));
    let mut config = ReceiverConfig::new(2.0e6);
    config.keep = usize::MAX;
    let rx = add_receiver(&mut fg, src, "out", ReceiverInput::Cu8Bytes, &config).unwrap();
    let local = SocketAddr::from(([127, 0, 0, 1], 0));
    let net = ModesNetOutput::bind(Some(local), Some(local)).unwrap();
    let (raw_addr, sbs_addr) = (net.raw_addr().unwrap(), net.sbs_addr().unwrap());
    let net = fg.add(net);
    fg.connect_message(rx.decoder, "messages", net, "in")
        .unwrap();
    // Two clients on each port, connected before the first frame.
    let clients: Vec<TcpStream> = [raw_addr, raw_addr, sbs_addr, sbs_addr]
        .iter()
        .map(|a| TcpStream::connect(a).unwrap())
        .collect();
    let readers: Vec<_> = clients
        .into_iter()
        .map(|c| std::thread::spawn(move || read_all(c)))
        .collect();
    let done = fg
        .start(by_name("chain").unwrap())
        .unwrap()
        .wait_timeout(WATCHDOG)
        .unwrap();
    let messages = done
        .block::<ModesDecoder>(rx.decoder)
        .unwrap()
        .messages()
        .to_vec();
    let texts: Vec<String> = readers.into_iter().map(|r| r.join().unwrap()).collect();
    assert!(messages.len() >= 159);
    let want_raw: String = messages
        .iter()
        .map(|m| format!("*{};\n", m.hex.to_ascii_uppercase()))
        .collect();
    assert_eq!(texts[0], want_raw);
    assert_eq!(texts[1], want_raw);
    assert_eq!(texts[2], texts[3].clone());
    let sbs: Vec<&str> = texts[2].split("\r\n").filter(|l| !l.is_empty()).collect();
    // Every message has a BaseStation type here (DF0/4/5/11/17/20/21).
    assert_eq!(sbs.len(), messages.len());
    for (line, m) in sbs.iter().zip(&messages) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 22, "{line}");
        assert_eq!(f[0], "MSG");
        assert_eq!(f[4], m.icao.to_ascii_uppercase());
        if let (Some(lat), Some(lon)) = (m.fields.lat, m.fields.lon) {
            assert_eq!(f[1], "3");
            assert_eq!(f[14], format!("{lat:.5}"));
            assert_eq!(f[15], format!("{lon:.5}"));
            assert_eq!(f[11], m.fields.altitude_ft.unwrap().to_string());
        }
        if let Some(s) = &m.fields.squawk {
            assert_eq!(f[17], s.as_str());
        }
    }
    assert!(sbs.iter().filter(|l| l.starts_with("MSG,3,")).count() > 20);
    assert!(sbs.iter().any(|l| l.starts_with("MSG,8,")));
}
