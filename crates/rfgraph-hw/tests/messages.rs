//! Message handling without a flowgraph or a device: before `init`
//! opens the device a message only updates the configuration that `init`
//! applies, and malformed messages are rejected naming what is wrong.

use rfgraph::{Block, Pmt, WorkIo};
use rfgraph_hw::{Gain, SdrConfig, SdrSink, SdrSource};

fn source() -> SdrSource {
    SdrSource::new(
        SdrConfig::new("driver=dummy")
            .frequency(100e6)
            .sample_rate(1e6),
    )
    .unwrap()
}

fn send(block: &mut impl Block, port: &str, msg: Pmt) -> Result<Pmt, String> {
    block
        .handle_message(port, msg, &mut WorkIo::default())
        .map_err(|e| e.to_string())
}

#[test]
fn before_init_messages_update_the_configuration_only() {
    let mut src = source();
    assert_eq!(send(&mut src, "freq", Pmt::F64(120e6)), Ok(Pmt::Null));
    assert_eq!(
        send(&mut src, "sample_rate", Pmt::U64(2_000_000)),
        Ok(Pmt::Null)
    );
    send(&mut src, "agc", Pmt::Bool(true)).unwrap();
    assert!(src.device().is_none());
    assert_eq!(src.config().frequency_hz(), Some(120e6));
    assert_eq!((src.frequency(), src.sample_rate()), (120e6, 2e6));
    assert_eq!(src.config().gain_setting(), Some(Gain::Agc));
    // AGC off before the device is open: the gain is left to the driver.
    send(&mut src, "agc", Pmt::Bool(false)).unwrap();
    assert_eq!(src.config().gain_setting(), None);
    send(&mut src, "gain", Pmt::I64(15)).unwrap();
    assert_eq!(src.config().gain_setting(), Some(Gain::Db(15.0)));

    let Pmt::Map(status) = send(&mut src, "status", Pmt::Null).unwrap() else {
        panic!("status is a map")
    };
    assert_eq!(status["frequency"], Pmt::F64(120e6));
    assert_eq!(status["gain"], Pmt::F64(15.0));
    assert_eq!(status["items"], Pmt::U64(0));
}

#[test]
fn values_no_device_accepts_are_rejected_before_the_driver() {
    let mut sink = SdrSink::new(
        SdrConfig::new("driver=dummy")
            .frequency(1e6)
            .sample_rate(1e6),
    )
    .unwrap();
    assert_eq!(
        send(&mut sink, "sample_rate", Pmt::F64(0.0)),
        Err(
            "parameter `sample_rate`: sample rate 0 S/s is not valid: it must be above zero".into()
        )
    );
    assert_eq!(
        send(&mut sink, "freq", Pmt::F64(f64::INFINITY)),
        Err("parameter `freq`: frequency inf Hz is not valid: it is not finite".into())
    );
    assert_eq!(
        send(&mut sink, "antenna", Pmt::from("")),
        Err("parameter `antenna`: antenna \"\" is not valid: the name is empty".into())
    );
    assert_eq!(
        sink.config().sample_rate_sps(),
        Some(1e6),
        "nothing changed"
    );
}

#[test]
fn a_cmd_map_is_checked_whole_before_anything_changes() {
    let mut src = source();
    let map = |pairs: &[(&str, Pmt)]| {
        Pmt::Map(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    };
    let e = send(
        &mut src,
        "cmd",
        map(&[("freq", Pmt::F64(1e6)), ("volume", Pmt::I64(11))]),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "parameter `cmd`: command key `volume` is not one of freq, rate, sample_rate, gain, agc, \
         antenna, bandwidth, chan"
    );
    let e = send(
        &mut src,
        "cmd",
        map(&[("freq", Pmt::F64(1e6)), ("gain", Pmt::from("high"))]),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "parameter `cmd`: command key `gain`: expected float, found string \"high\""
    );
    let e = send(&mut src, "cmd", map(&[("chan", Pmt::U64(1))])).unwrap_err();
    assert_eq!(
        e,
        "parameter `cmd`: command names channel 1, this block streams channel 0"
    );
    let e = send(&mut src, "cmd", Pmt::F64(1e6)).unwrap_err();
    assert_eq!(
        e,
        "parameter `cmd`: command must be a map of settings, found F64(1000000.0)"
    );
    assert_eq!(src.frequency(), 100e6, "no half-applied command");

    send(
        &mut src,
        "cmd",
        map(&[
            ("freq", Pmt::F64(90e6)),
            ("sample_rate", Pmt::F64(3e6)),
            ("antenna", Pmt::from("A")),
            ("bandwidth", Pmt::F64(2e6)),
        ]),
    )
    .unwrap();
    assert_eq!((src.frequency(), src.sample_rate()), (90e6, 3e6));
    assert_eq!(src.config().antenna_name(), Some("A"));
    assert_eq!(src.config().bandwidth_hz(), Some(2e6));
}
