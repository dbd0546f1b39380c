//! `udp_sink` and `udp_source`: rfgraph to rfgraph on loopback, hand-made
//! datagrams with gaps, late and malformed ones, the header parser under
//! random input, the registry entries, and both directions against GNU
//! Radio 3.10's own blocks.

use num_complex::Complex32;
use proptest::prelude::*;
use rfgraph::params::ItemKind;
use rfgraph::registry::BlockSpec;
use rfgraph::scheduler::Tpb;
use rfgraph::{Finished, Flowgraph, Running};
use rfgraph_blocks::{VectorSink, VectorSource};
use rfgraph_net::udp::{FrameError, HeaderType, parse};
use rfgraph_net::{UdpSink, UdpSinkParams, UdpSource, UdpSourceParams};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, UdpSocket};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Every flowgraph here must end within this.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Items of GNU Radio's default datagram (1472 bytes) after a seqnum
/// header: 1464 bytes of complex items.
const PER_DATAGRAM: usize = 183;

/// A recognisable complex sequence, exact in `f32` (and as GNU Radio's
/// scripts below compute it).
fn sequence(n: usize) -> Vec<Complex32> {
    (0..n)
        .map(|i| Complex32::new(i as f32 * 0.25, -(i as f32)))
        .collect()
}

fn finish(running: Running) -> Finished {
    running.wait_timeout(WATCHDOG).expect("the flowgraph ends")
}

/// A running `udp_source` into a vector sink, and where it listens.
fn start_source<T: rfgraph::Item>(
    params: UdpSourceParams,
) -> (Running, rfgraph::BlockId, rfgraph::BlockId, SocketAddr) {
    let src = UdpSource::<T>::new(params).unwrap();
    let local = src.local_addr();
    let mut fg = Flowgraph::new();
    let src = fg.add(src);
    let sink = fg.add(VectorSink::<T>::new());
    fg.chain(&[src, sink]).unwrap();
    let running = fg.start(Tpb::new()).unwrap();
    let addr = local.wait(WATCHDOG).expect("the source binds");
    (running, src, sink, addr)
}

#[test]
fn rfgraph_sink_to_rfgraph_source_seqnum_bit_exact() {
    let params = UdpSourceParams {
        header: HeaderType::Seqnum,
        ..UdpSourceParams::new(ItemKind::C32, 0)
    };
    let (running, src, sink, addr) = start_source::<Complex32>(params);
    // 40 full datagrams and a short last one.
    let items = sequence(40 * PER_DATAGRAM + 50);
    let mut fg = Flowgraph::new();
    let vs = fg.add(VectorSource::new(items.clone()));
    let tx = fg.add(
        UdpSink::<Complex32>::new(UdpSinkParams {
            header: HeaderType::Seqnum,
            send_eof: true,
            ..UdpSinkParams::new(ItemKind::C32, "127.0.0.1", addr.port())
        })
        .unwrap(),
    );
    fg.chain(&[vs, tx]).unwrap();
    let sent = finish(fg.start(Tpb::new()).unwrap());
    assert_eq!(
        sent.block::<UdpSink<Complex32>>(tx)
            .unwrap()
            .datagrams_sent(),
        41
    );
    // The end-of-stream datagrams end the source.
    let done = finish(running);
    let got = done.block::<VectorSink<Complex32>>(sink).unwrap().items();
    assert_eq!(got.len(), items.len());
    assert!(got == items.as_slice(), "the items arrive bit-exact");
    let s = done.block::<UdpSource<Complex32>>(src).unwrap();
    assert_eq!(
        (
            s.datagrams(),
            s.datagrams_lost(),
            s.datagrams_reordered(),
            s.frames_dropped()
        ),
        (41, 0, 0, 0)
    );
}

/// A datagram with sequence number `seq` and four floats of `value`.
fn datagram(seq: u64, value: f32, floats: usize) -> Vec<u8> {
    let mut d = seq.to_le_bytes().to_vec();
    for _ in 0..floats {
        d.extend_from_slice(&value.to_le_bytes());
    }
    d
}

#[test]
fn gaps_late_and_malformed_datagrams_are_counted_and_gaps_filled_with_zeros() {
    for zeros in [false, true] {
        let params = UdpSourceParams {
            header: HeaderType::Seqnum,
            // Four floats a datagram.
            payloadsize: 8 + 16,
            notify_missed: true,
            source_zeros: zeros,
            ..UdpSourceParams::new(ItemKind::F32, 0)
        };
        let (running, src, sink, addr) = start_source::<f32>(params);
        let tx = UdpSocket::bind("127.0.0.1:0").unwrap();
        let send = |d: &[u8]| {
            tx.send_to(d, addr).unwrap();
        };
        send(&datagram(1, 1.0, 4));
        send(&datagram(2, 2.0, 4));
        send(&datagram(4, 4.0, 4)); // 3 is lost...
        send(&datagram(3, 3.0, 4)); // ...and comes late: dropped
        send(&[1, 2, 3, 4, 5]); // shorter than the header
        send(&datagram(5, 5.0, 4)[..8 + 6]); // not whole floats
        // 5 was malformed and 6 never came: two lost. A longer datagram
        // is fine.
        send(&datagram(7, 7.0, 8));
        send(&[]); // GNU Radio's end of stream
        let done = finish(running);
        let got = done.block::<VectorSink<f32>>(sink).unwrap().items();
        let mut want = vec![1.0; 4];
        want.extend([2.0; 4]);
        if zeros {
            want.extend([0.0; 4]);
        }
        want.extend([4.0; 4]);
        if zeros {
            want.extend([0.0; 8]);
        }
        want.extend([7.0; 8]);
        assert_eq!(got, want.as_slice(), "source_zeros {zeros}");
        let s = done.block::<UdpSource<f32>>(src).unwrap();
        assert_eq!(s.datagrams(), 4);
        assert_eq!(s.datagrams_lost(), 3);
        assert_eq!(s.datagrams_reordered(), 1);
        assert_eq!(s.frames_dropped(), 2);
        let stats = done
            .stats()
            .iter()
            .find(|b| b.counters.iter().any(|(n, _)| n == "datagrams_lost"))
            .expect("the source reports its counters")
            .counters
            .clone();
        let counters: BTreeMap<_, _> = stats.into_iter().collect();
        assert_eq!(counters["datagrams_lost"], 3);
        assert_eq!(counters["datagrams_reordered"], 1);
        assert_eq!(counters["frames_dropped"], 2);
    }
}

#[test]
fn malformed_datagrams_without_and_with_size_header_are_dropped() {
    for header in [HeaderType::None, HeaderType::SeqPlusSize] {
        let params = UdpSourceParams {
            header,
            ..UdpSourceParams::new(ItemKind::C32, 0)
        };
        let (running, src, sink, addr) = start_source::<Complex32>(params);
        let tx = UdpSocket::bind("127.0.0.1:0").unwrap();
        let head = vec![0u8; header.size()];
        let mut good = head.clone();
        good.extend(bytemuck::cast_slice::<Complex32, u8>(&sequence(3)));
        let mut partial = head.clone();
        partial.extend([0u8; 12]); // a complex and a half
        // Shorter than the 16-byte header, or (without one) not a whole
        // complex item.
        tx.send_to(&[9u8; 7], addr).unwrap();
        tx.send_to(&partial, addr).unwrap();
        tx.send_to(&good, addr).unwrap();
        tx.send_to(&[], addr).unwrap();
        let done = finish(running);
        assert_eq!(
            done.block::<VectorSink<Complex32>>(sink).unwrap().items(),
            sequence(3).as_slice()
        );
        assert_eq!(
            done.block::<UdpSource<Complex32>>(src)
                .unwrap()
                .frames_dropped(),
            2
        );
    }
}

proptest! {
    /// Random datagrams never make the parser panic, and it accepts
    /// exactly those whose header fits and whose rest is whole vectors.
    #[test]
    fn the_header_parser_accepts_or_drops_consistently(
        datagram in proptest::collection::vec(any::<u8>(), 0..300),
        kind in 0usize..3,
        vector in 0usize..40,
    ) {
        let header = [HeaderType::None, HeaderType::Seqnum, HeaderType::SeqPlusSize][kind];
        let size = header.size();
        let fits = datagram.len() >= size;
        let rest = datagram.len().saturating_sub(size);
        let whole = rest == 0 || (vector > 0 && rest % vector == 0);
        match parse(&datagram, header, vector) {
            Ok(frame) => {
                prop_assert!(fits && whole);
                prop_assert_eq!(frame.payload, &datagram[size..]);
                let seq = (size > 0).then(|| u64::from_le_bytes(datagram[..8].try_into().unwrap()));
                prop_assert_eq!(frame.seq, seq);
            }
            Err(FrameError::Short { len, header: h, .. }) => {
                prop_assert!(!fits);
                prop_assert_eq!((len, h), (datagram.len(), size));
            }
            Err(FrameError::Partial { payload, .. }) => {
                prop_assert!(fits && !whole);
                prop_assert_eq!(payload, rest);
            }
        }
    }
}

fn spec(name: &str) -> BlockSpec {
    rfgraph_net::registry::specs()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("`{name}` is registered"))
}

#[test]
fn registry_entries_build_for_every_type_and_take_gnu_radios_names() {
    for name in ["udp_sink", "udp_source"] {
        let spec = spec(name);
        for kind in [
            ItemKind::C32,
            ItemKind::F32,
            ItemKind::I32,
            ItemKind::I16,
            ItemKind::U8,
        ] {
            let given = BTreeMap::from([("type".to_string(), rfgraph::Pmt::from(kind.name()))]);
            spec.build(given)
                .unwrap_or_else(|e| panic!("`{name}` {kind}: {e}"));
        }
    }
    // GNU Radio's names and enumeration values.
    let given = BTreeMap::from([
        ("type".to_string(), rfgraph::Pmt::from("complex")),
        ("addr".to_string(), rfgraph::Pmt::from("127.0.0.1")),
        ("header".to_string(), rfgraph::Pmt::from("1")),
        ("veclen".to_string(), rfgraph::Pmt::I64(1)),
    ]);
    spec("udp_sink").build(given).unwrap();
    let given = BTreeMap::from([
        ("type".to_string(), rfgraph::Pmt::from("float")),
        ("header_type".to_string(), rfgraph::Pmt::from("2")),
        ("src_zeros".to_string(), rfgraph::Pmt::Bool(true)),
    ]);
    spec("udp_source").build(given).unwrap();
    // Items of a datagram must be whole vectors: 1464 bytes are not
    // whole 16-byte vectors.
    let given = BTreeMap::from([
        ("type".to_string(), rfgraph::Pmt::from("c32")),
        ("vlen".to_string(), rfgraph::Pmt::I64(2)),
        ("header".to_string(), rfgraph::Pmt::from("seqnum")),
    ]);
    let e = spec("udp_sink")
        .build(given)
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains("payloadsize"), "{e}");
}

/// Runs `script` with GNU Radio's Python; its stdout lines go to the
/// returned channel.
fn gnuradio_script(script: &str, args: &[String]) -> (Child, std::sync::mpsc::Receiver<String>) {
    let mut child = Command::new(rfgraph_testkit::GNURADIO_PYTHON)
        .arg("-c")
        .arg(script)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python runs");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    (child, rx)
}

/// Waits for `child` under the watchdog; its standard error.
fn wait_child(mut child: Child) -> String {
    let deadline = Instant::now() + WATCHDOG;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut e, &mut err);
            }
            assert!(status.success(), "GNU Radio's script failed: {err}");
            return err;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("GNU Radio's script did not end within {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const GR_SINK: &str = r#"
import sys
from gnuradio import gr, blocks, network
port, n = int(sys.argv[1]), int(sys.argv[2])
data = [complex(i * 0.25, -i) for i in range(n)]
tb = gr.top_block()
src = blocks.vector_source_c(data, False)
snk = network.udp_sink(gr.sizeof_gr_complex, 1, "127.0.0.1", port, 1, 1472, True)
tb.connect(src, snk)
tb.run()
"#;

#[test]
fn gnuradio_udp_sink_to_rfgraph_udp_source() {
    let test = "gnuradio_udp_sink_to_rfgraph_udp_source";
    if !rfgraph_testkit::gnuradio(test, "gnuradio.network, gnuradio.blocks") {
        return;
    }
    let params = UdpSourceParams {
        header: HeaderType::Seqnum,
        ..UdpSourceParams::new(ItemKind::C32, 0)
    };
    let (running, src, sink, addr) = start_source::<Complex32>(params);
    let n = 40 * PER_DATAGRAM;
    let (child, _lines) = gnuradio_script(GR_SINK, &[addr.port().to_string(), n.to_string()]);
    wait_child(child);
    // GNU Radio's sink ends with its zero-length datagrams.
    let done = finish(running);
    let got = done.block::<VectorSink<Complex32>>(sink).unwrap().items();
    assert!(
        got == sequence(n).as_slice(),
        "GNU Radio's items arrive bit-exact"
    );
    let s = done.block::<UdpSource<Complex32>>(src).unwrap();
    assert_eq!(
        (
            s.datagrams(),
            s.datagrams_lost(),
            s.datagrams_reordered(),
            s.frames_dropped()
        ),
        (40, 0, 0, 0)
    );
}

const GR_SOURCE: &str = r#"
import sys
from gnuradio import gr, blocks, network
port, n, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
tb = gr.top_block()
src = network.udp_source(gr.sizeof_gr_complex, 1, port, 1, 1472, True, False, False)
head = blocks.head(gr.sizeof_gr_complex, n)
snk = blocks.file_sink(gr.sizeof_gr_complex, path, False)
snk.set_unbuffered(True)
tb.connect(src, head, snk)
tb.start()
print("READY", flush=True)
# GNU Radio's source never notices that the head is done (it returns no
# items while no datagram comes): stop it once the head has them all.
import time
deadline = time.time() + 30
while head.nitems_written(0) < n and time.time() < deadline:
    time.sleep(0.02)
tb.stop()
tb.wait()
"#;

#[test]
fn rfgraph_udp_sink_to_gnuradio_udp_source() {
    let test = "rfgraph_udp_sink_to_gnuradio_udp_source";
    if !rfgraph_testkit::gnuradio(test, "gnuradio.network, gnuradio.blocks") {
        return;
    }
    // GNU Radio's source cannot say which port it bound: find a free one.
    let port = UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::env::temp_dir().join(format!("rfgraph-net-udp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("from_rfgraph.cf32");
    let n = 40 * PER_DATAGRAM;
    let (child, lines) = gnuradio_script(
        GR_SOURCE,
        &[
            port.to_string(),
            n.to_string(),
            path.to_string_lossy().into_owned(),
        ],
    );
    // GNU Radio logs to standard output too.
    let ready = lines.iter().find(|line| line == "READY");
    assert!(ready.is_some(), "GNU Radio's source started");
    let items = sequence(n);
    let mut fg = Flowgraph::new();
    let vs = fg.add(VectorSource::new(items.clone()));
    let tx = fg.add(
        UdpSink::<Complex32>::new(UdpSinkParams {
            header: HeaderType::Seqnum,
            ..UdpSinkParams::new(ItemKind::C32, "127.0.0.1", port)
        })
        .unwrap(),
    );
    fg.chain(&[vs, tx]).unwrap();
    finish(fg.start(Tpb::new()).unwrap());
    let stderr = wait_child(child);
    assert!(
        !stderr.contains("missed"),
        "GNU Radio counted no loss: {stderr}"
    );
    let bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(bytes.len(), n * 8);
    assert!(
        bytes.as_slice() == bytemuck::cast_slice::<Complex32, u8>(&items),
        "GNU Radio received rfgraph's items bit-exact"
    );
}
