//! Parameter changes and messages without a flowgraph or a device:
//! before `init` opens the device a change only updates the configuration
//! that `init` applies, and malformed changes and messages are rejected
//! naming what is wrong, leaving everything as it was.

use rfgraph::params::{ParamSet, setting_inputs};
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

/// What a message on the input of settable parameter `param` does.
fn set(block: &mut dyn Block, param: &str, value: Pmt) -> Result<Pmt, String> {
    rfgraph::params::apply(block, param, value).map_err(|e| e.to_string())
}

/// What a message on the block's own input `port` does.
fn send(block: &mut impl Block, port: &str, msg: Pmt) -> Result<Pmt, String> {
    block
        .handle_message(port, msg, &mut WorkIo::default())
        .map_err(|e| e.to_string())
}

#[test]
fn before_init_changes_update_the_configuration_only() {
    let mut src = source();
    assert_eq!(set(&mut src, "frequency", Pmt::F64(120e6)), Ok(Pmt::Null));
    assert_eq!(
        set(&mut src, "sample_rate", Pmt::U64(2_000_000)),
        Ok(Pmt::Null)
    );
    set(&mut src, "agc", Pmt::Bool(true)).unwrap();
    assert!(src.device().is_none());
    assert_eq!(src.config().frequency, 120e6);
    assert_eq!((src.frequency(), src.sample_rate()), (120e6, 2e6));
    assert_eq!(src.config().gain_setting(), Some(Gain::Agc));
    // AGC off before the device is open: the gain is left to the driver.
    set(&mut src, "agc", Pmt::Bool(false)).unwrap();
    assert_eq!(src.config().gain_setting(), None);
    set(&mut src, "gain", Pmt::I64(15)).unwrap();
    assert_eq!(src.config().gain_setting(), Some(Gain::Db(15.0)));
    // A fixed gain ends AGC.
    set(&mut src, "agc", Pmt::Bool(true)).unwrap();
    set(&mut src, "gain", Pmt::I64(16)).unwrap();
    assert_eq!(src.config().gain_setting(), Some(Gain::Db(16.0)));

    let Pmt::Map(status) = send(&mut src, "status", Pmt::Null).unwrap() else {
        panic!("status is a map")
    };
    assert_eq!(status["frequency"], Pmt::F64(120e6));
    assert_eq!(status["gain"], Pmt::F64(16.0));
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
        set(&mut sink, "sample_rate", Pmt::F64(0.0)),
        Err("parameter `sample_rate`: 0 is out of range: must be > 0".into())
    );
    assert_eq!(
        set(&mut sink, "frequency", Pmt::F64(f64::INFINITY)),
        Err("parameter `frequency`: must be finite, not inf".into())
    );
    assert_eq!(
        set(&mut sink, "antenna", Pmt::from("")),
        Err("parameter `antenna`: the name is empty".into())
    );
    assert_eq!(
        set(&mut sink, "bandwidth", Pmt::F64(-1.0)),
        Err("parameter `bandwidth`: -1 is out of range: must be > 0".into())
    );
    assert_eq!(
        set(&mut sink, "frequency", Pmt::from("fast")),
        Err("parameter `frequency`: expected float, found string \"fast\"".into())
    );
    assert_eq!(
        set(&mut sink, "args", Pmt::from("driver=rtlsdr")),
        Err("`args` is not a parameter that can change while the block runs".into())
    );
    assert_eq!(sink.config().sample_rate, 1e6, "nothing changed");
    assert_eq!(sink.config().frequency, 1e6, "nothing changed");
    assert_eq!(sink.config().antenna, None, "nothing changed");
}

/// The settable parameters are the runtime's message inputs (each alias
/// one too); `cmd` and `status` are the block's own.
#[test]
fn settable_parameters_and_commands_are_the_message_inputs() {
    let mut src = source();
    let params = src.params().expect("a parameter set");
    let inputs: Vec<&str> = setting_inputs(params).into_iter().map(|(i, _)| i).collect();
    assert_eq!(
        inputs,
        [
            "frequency",
            "freq",
            "center_freq",
            "sample_rate",
            "samp_rate",
            "gain",
            "agc",
            "antenna",
            "bandwidth"
        ]
    );
    let units: Vec<(&str, &str)> = params
        .describe()
        .into_iter()
        .filter(|p| p.settable)
        .map(|p| (p.name, p.unit))
        .collect();
    assert_eq!(
        units,
        [
            ("frequency", "Hz"),
            ("sample_rate", "Hz"),
            ("gain", "dB"),
            ("agc", ""),
            ("antenna", ""),
            ("bandwidth", "Hz"),
        ]
    );
    assert_eq!(src.ports().message_input_names(), ["cmd", "status"]);
    let mut sink = SdrSink::new(SdrConfig::new("driver=dummy")).unwrap();
    assert_eq!(
        sink.params().unwrap().describe(),
        SdrConfig::specs(),
        "one declaration for both blocks"
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
        "command key `volume` is not one of freq, rate, sample_rate, gain, agc, antenna, \
         bandwidth, chan"
    );
    let e = send(
        &mut src,
        "cmd",
        map(&[("freq", Pmt::F64(1e6)), ("gain", Pmt::from("high"))]),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "command key `gain`: expected float, found string \"high\""
    );
    let e = send(
        &mut src,
        "cmd",
        map(&[("freq", Pmt::F64(1e6)), ("rate", Pmt::F64(-2e6))]),
    )
    .unwrap_err();
    assert_eq!(
        e,
        "command key `rate`: -2000000 is out of range: must be > 0"
    );
    let e = send(&mut src, "cmd", map(&[("chan", Pmt::U64(1))])).unwrap_err();
    assert_eq!(e, "command names channel 1, this block streams channel 0");
    let e = send(&mut src, "cmd", Pmt::F64(1e6)).unwrap_err();
    assert_eq!(e, "command must be a map of settings, found F64(1000000.0)");
    assert_eq!(src.frequency(), 100e6, "no half-applied command");

    send(
        &mut src,
        "cmd",
        map(&[
            ("freq", Pmt::F64(90e6)),
            ("sample_rate", Pmt::F64(3e6)),
            ("antenna", Pmt::from("A")),
            ("bandwidth", Pmt::F64(2e6)),
            ("gain", Pmt::F64(5.0)),
        ]),
    )
    .unwrap();
    assert_eq!((src.frequency(), src.sample_rate()), (90e6, 3e6));
    let config = src.config();
    assert_eq!((config.frequency, config.sample_rate), (90e6, 3e6));
    assert_eq!(config.antenna_name(), Some("A"));
    assert_eq!(config.bandwidth, Some(2e6));
    assert_eq!(config.gain_setting(), Some(Gain::Db(5.0)));
}
