//! Bad input: what no device accepts is rejected by the constructors;
//! a device that cannot be opened, or a value it refuses, fails `init`
//! with the driver's own message, before anything runs.

mod common;

use common::run;
use num_complex::Complex32;
use rfgraph::scheduler::Tpb;
use rfgraph::{Flowgraph, RunError};
use rfgraph_blocks::{Head, NullSink, NullSource};
use rfgraph_hw::{HwError, SdrConfig, SdrSink, SdrSource};

fn config(args: &str) -> SdrConfig {
    SdrConfig::new(args).frequency(100e6).sample_rate(1e6)
}

/// Runs an `SdrSource` on `config` into a sink and returns why `init`
/// failed.
fn source_init_error(config: SdrConfig) -> String {
    let mut fg = Flowgraph::new();
    let src = fg.add_named("radio", SdrSource::new(config).unwrap());
    let head = fg.add(Head::<Complex32>::new(10));
    let sink = fg.add(NullSink::<Complex32>::new());
    fg.chain(&[src, head, sink]).unwrap();
    match run(fg, Box::new(Tpb::new())) {
        Err(RunError::Init { block, cause }) => {
            assert_eq!(block, "radio");
            cause
        }
        Err(e) => panic!("expected an init error, got {e}"),
        Ok(_) => panic!("the run succeeded"),
    }
}

/// The same for an `SdrSink`.
fn sink_init_error(config: SdrConfig) -> String {
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<Complex32>::limited(10));
    let tx = fg.add_named("tx", SdrSink::new(config).unwrap());
    fg.chain(&[src, tx]).unwrap();
    match run(fg, Box::new(Tpb::new())) {
        Err(RunError::Init { block, cause }) => {
            assert_eq!(block, "tx");
            cause
        }
        Err(e) => panic!("expected an init error, got {e}"),
        Ok(_) => panic!("the run succeeded"),
    }
}

#[test]
fn an_unknown_driver_fails_init_with_seifys_message() {
    let cause = source_init_error(config("driver=warp_drive"));
    assert!(
        cause.starts_with(
            "cannot open device `driver=warp_drive`: invalid argument driver: failed to parse value \
             (`warp_drive` is not a seify driver; this build "
        ),
        "{cause}"
    );
    for name in rfgraph_hw::drivers() {
        assert!(cause.contains(&format!("driver={name}")), "{cause}");
    }
}

/// A driver seify knows but this build left out says which feature is
/// missing.
#[cfg(not(feature = "hackrf"))]
#[test]
fn a_driver_not_compiled_in_fails_init_naming_it() {
    let cause = sink_init_error(config("driver=hackrf"));
    assert!(
        cause.starts_with(
            "cannot open device `driver=hackrf`: driver feature not enabled for HackRf \
             (build rfgraph-hw with its `hackrf` feature, or "
        ),
        "{cause}"
    );
}

#[cfg(feature = "dummy")]
#[test]
fn values_the_dummy_refuses_fail_init_with_its_message() {
    use rfgraph_hw::Gain;
    for (config, expected) in [
        (
            config("driver=dummy").frequency(-1.0),
            "RX channel 0: cannot set frequency to -1 Hz: invalid argument dummy: invalid dummy argument",
        ),
        (
            config("driver=dummy").gain(Gain::Db(-10.0)),
            "RX channel 0: cannot set gain to -10 dB: invalid argument dummy: invalid dummy argument",
        ),
        (
            config("driver=dummy").antenna("LNAW"),
            "RX channel 0: cannot set antenna to \"LNAW\": invalid argument dummy: invalid dummy argument",
        ),
        (
            config("driver=dummy").channel(1),
            "RX channel 1: cannot set channel to 1: invalid Rx channel 1; available channels: 1",
        ),
    ] {
        assert_eq!(source_init_error(config), expected);
    }
    assert_eq!(
        sink_init_error(config("driver=dummy").frequency(-2.0)),
        "TX channel 0: cannot set frequency to -2 Hz: invalid argument dummy: invalid dummy argument"
    );
}

/// What no device accepts never gets as far as a flowgraph.
#[test]
fn constructors_reject_what_no_device_accepts() {
    let e = |r: Result<SdrSource, HwError>| r.err().expect("rejected").to_string();
    assert_eq!(
        e(SdrSource::new(config("driver=dummy").sample_rate(-1e6))),
        "SdrConfig: `sample_rate` -1000000 is out of range: must be > 0"
    );
    assert_eq!(
        e(SdrSource::new(config("driver=dummy").frequency(f64::NAN))),
        "SdrConfig: `frequency` must be finite, not NaN"
    );
    assert!(matches!(
        SdrSink::new(config("driver=dummy,oops")),
        Err(HwError::Args { .. })
    ));
    assert!(matches!(
        SdrSink::new(config("driver=dummy").stream_args("buffers")),
        Err(HwError::Args { .. })
    ));
    // A configuration that sets neither takes the registry's defaults.
    let src = SdrSource::new(SdrConfig::new("driver=dummy")).unwrap();
    assert_eq!((src.frequency(), src.sample_rate()), (100e6, 1e6));
}

/// With SoapySDR compiled in, a module that does not exist fails `init`
/// with SoapySDR's own message.
#[cfg(feature = "soapy")]
#[test]
fn a_missing_soapy_module_fails_init_with_soapys_message() {
    let cause = source_init_error(config("driver=soapy,soapy_driver=no_such_module"));
    assert_eq!(
        cause,
        "cannot open device `driver=soapy,soapy_driver=no_such_module`: \
         driver error (Soapy (Other: SoapySDR::Device::make() no match))"
    );
}
