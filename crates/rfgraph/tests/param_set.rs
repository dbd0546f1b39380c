//! `#[derive(ParamSet)]` and `#[derive(ParamChoice)]` as a block crate
//! uses them: the declarations they write, construction from a file's
//! values with typed errors, live setting with range and consistency
//! checks undone on refusal, flattened parameter families, defaults.

use num_complex::Complex32;
use rfgraph::params::{BuildError, ItemKind, ParamType, SetError, Values};
use rfgraph::{ParamChoice, ParamError, ParamSet, Pmt};
use std::collections::BTreeMap;

/// A shape.
#[derive(ParamChoice, Clone, Copy, Debug, PartialEq)]
enum Shape {
    Sine,
    #[choice(alias = "sq", alias = "GR_SQR_WAVE")]
    Square,
    #[choice(name = "saw")]
    Sawtooth,
}

/// What a family of blocks shares.
#[derive(ParamSet, Clone, Debug, PartialEq)]
struct Common {
    /// samples per second
    #[param(
        default = 48_000.0,
        unit = "Hz",
        above = 0.0,
        alias = "samp_rate",
        settable
    )]
    rate: f64,
    /// stream item type
    #[param(name = "type", kinds(C32, F32))]
    item: ItemKind,
}

/// A block's parameters.
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
struct Tone {
    /// the shared ones
    #[param(flatten)]
    common: Common,
    /// tone frequency, below half the rate
    #[param(default = 1_000.0, unit = "Hz", settable)]
    freq: f64,
    /// the wave
    #[param(default = Shape::Sine, settable)]
    shape: Shape,
    /// vector length
    #[param(default = 1, min = 1, max = 4096)]
    vlen: usize,
    /// stop after this many
    items: Option<u64>,
    /// an offset
    #[param(default = Complex32::new(0.0, 0.0), settable)]
    offset: Complex32,
    /// taps
    #[param(default = vec![1.0], max_len = 4, settable)]
    taps: Vec<f32>,
    /// a label
    #[param(default = "x", choices = ["x", "y"])]
    label: String,
}

impl Tone {
    fn check(&self) -> Result<(), ParamError> {
        if self.freq.abs() >= self.common.rate / 2.0 {
            return Err(ParamError::new(
                "tone",
                "freq",
                "must be below half the rate",
            ));
        }
        Ok(())
    }
}

/// A block with a required parameter and no `Default`.
#[derive(ParamSet, Debug)]
struct Needs {
    /// where to write
    path: String,
}

fn given(pairs: &[(&str, Pmt)]) -> BTreeMap<String, Pmt> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

#[test]
fn the_declaration_lists_every_field_in_order_with_its_doc() {
    let specs = Tone::specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [
            "rate", "type", "freq", "shape", "vlen", "items", "offset", "taps", "label"
        ]
    );
    let rate = &specs[0];
    assert_eq!(
        (rate.ty, rate.unit, rate.doc, rate.settable),
        (ParamType::Float, "Hz", "samples per second", true)
    );
    assert_eq!(rate.aliases, ["samp_rate"]);
    assert_eq!(rate.range.to_string(), "> 0");
    assert_eq!(specs[1].choices, ["c32", "f32"]);
    assert_eq!(specs[1].default, Some(Pmt::from("c32")));
    assert_eq!(specs[3].choices, ["sine", "square", "saw"]);
    assert_eq!(specs[3].default, Some(Pmt::from("sine")));
    assert_eq!(specs[4].range.to_string(), "in [1, 4096]");
    assert!(specs[5].is_optional());
    assert_eq!(specs[6].ty, ParamType::Complex);
    assert_eq!(specs[7].max_len, Some(4));
    assert_eq!(specs[8].choices, ["x", "y"]);
    assert!(Needs::specs()[0].default.is_none(), "no default: required");
}

#[test]
fn defaults_build_the_struct_and_rust_code_can_use_them() {
    let t = Tone::resolve("tone", BTreeMap::new()).unwrap();
    assert_eq!(t, Tone::default());
    assert_eq!(
        (t.common.rate, t.common.item, t.shape, t.items),
        (48_000.0, ItemKind::C32, Shape::Sine, None)
    );
    let t = Tone {
        freq: 100.0,
        ..Default::default()
    };
    assert!(t.validate().is_ok());
    let bad = Tone {
        vlen: 0,
        ..Default::default()
    };
    let e = bad.validate().unwrap_err();
    assert_eq!((e.param.as_str(), e.block.as_str()), ("vlen", "Tone"));
    let e = Tone {
        freq: 30_000.0,
        ..Default::default()
    }
    .validate()
    .unwrap_err();
    assert_eq!(e.param, "freq");
}

#[test]
fn file_values_convert_by_name_or_alias_and_errors_name_the_parameter() {
    let t = Tone::resolve(
        "tone",
        given(&[
            ("samp_rate", Pmt::I64(8000)),
            ("type", Pmt::from("float")),
            ("shape", Pmt::from("GR_SQR_WAVE")),
            ("items", Pmt::F64(10.0)),
            ("offset", Pmt::List(vec![Pmt::F64(1.0), Pmt::F64(-1.0)])),
        ]),
    )
    .unwrap();
    assert_eq!(t.common.rate, 8000.0);
    assert_eq!(t.common.item, ItemKind::F32);
    assert_eq!(t.shape, Shape::Square);
    assert_eq!(t.items, Some(10));
    assert_eq!(t.offset, Complex32::new(1.0, -1.0));
    let err = |pairs: &[(&str, Pmt)]| Tone::resolve("tone", given(pairs)).unwrap_err();
    assert_eq!(
        err(&[("vlen", Pmt::F64(1e12))]).to_string(),
        "block `tone`, parameter `vlen`: 1000000000000 is out of range: must be in [1, 4096]"
    );
    assert_eq!(
        err(&[("freq", Pmt::F64(30_000.0))]).to_string(),
        "block `tone`, parameter `freq`: must be below half the rate"
    );
    assert!(matches!(
        err(&[("shape", Pmt::from("noise"))]),
        BuildError::Invalid { .. }
    ));
    assert!(matches!(
        err(&[("taps", Pmt::VecF32(vec![0.0; 5]))]),
        BuildError::Invalid { .. }
    ));
    assert!(matches!(
        err(&[("rate", Pmt::F64(f64::INFINITY))]),
        BuildError::Invalid { .. }
    ));
    assert!(matches!(
        err(&[("label", Pmt::from("z"))]),
        BuildError::Invalid { .. }
    ));
    assert!(matches!(
        err(&[("type", Pmt::from("i16"))]),
        BuildError::Invalid { .. }
    ));
    assert!(matches!(
        err(&[("fre", Pmt::F64(1.0))]),
        BuildError::UnknownParam { suggest: Some(s), .. } if s == "freq"
    ));
    assert!(matches!(
        Needs::resolve("needs", BTreeMap::new()).unwrap_err(),
        BuildError::Missing { .. }
    ));
    let values = Values::resolve("tone", &Tone::specs(), BTreeMap::new()).unwrap();
    assert_eq!(values.raw("shape").unwrap(), &Pmt::from("sine"));
}

#[test]
fn live_changes_are_checked_and_a_refused_one_changes_nothing() {
    let mut t = Tone::default();
    t.set("freq", Pmt::I64(2000)).unwrap();
    assert_eq!(t.get("freq"), Some(Pmt::F64(2000.0)));
    t.set("rate", Pmt::F64(96_000.0)).unwrap();
    assert_eq!(t.common.rate, 96_000.0);
    t.set("shape", Pmt::from("saw")).unwrap();
    assert_eq!(t.get("shape"), Some(Pmt::from("saw")));
    t.set("taps", Pmt::List(vec![Pmt::I64(1), Pmt::F64(0.5)]))
        .unwrap();
    assert_eq!(t.taps, [1.0, 0.5]);

    let before = t.clone();
    assert_eq!(
        t.set("freq", Pmt::from("fast")).unwrap_err(),
        SetError::Type {
            param: "freq".into(),
            expected: "float".into(),
            found: "string \"fast\"".into()
        }
    );
    assert_eq!(
        t.set("freq", Pmt::F64(60_000.0)).unwrap_err().to_string(),
        "parameter `freq`: must be below half the rate"
    );
    // A change of a flattened parameter is checked against the whole set.
    assert!(t.set("rate", Pmt::F64(1000.0)).is_err());
    assert!(t.set("rate", Pmt::F64(-1.0)).is_err());
    assert!(matches!(
        t.set("vlen", Pmt::I64(2)).unwrap_err(),
        SetError::NotSettable(_)
    ));
    assert!(matches!(
        t.set("type", Pmt::from("f32")).unwrap_err(),
        SetError::NotSettable(_)
    ));
    assert!(t.set("nonsense", Pmt::Null).is_err());
    assert_eq!(t, before, "every refused change was undone");
    assert_eq!(t.get("type"), Some(Pmt::from("c32")));
    assert_eq!(t.get("items"), Some(Pmt::Null));
    assert_eq!(t.get("nonsense"), None);
}

#[test]
fn choices_parse_names_and_aliases_in_any_case() {
    assert_eq!(Shape::from_choice("SQ"), Some(Shape::Square));
    assert_eq!(Shape::from_choice("gr_sqr_wave"), Some(Shape::Square));
    assert_eq!(Shape::from_choice("saw"), Some(Shape::Sawtooth));
    assert_eq!(Shape::from_choice("sawtooth"), None);
    assert_eq!(Shape::Sawtooth.choice_name(), "saw");
}
