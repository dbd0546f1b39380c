//! Names, sizes, scaling, byte order and exact round trips of every format.

use super::kernels::{self, Params};
use super::*;
use num_complex::Complex32;

/// splitmix64: a reproducible stream of random words.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn fmt(name: &str) -> SampleFormat {
    SampleFormat::parse(name).unwrap()
}

/// Decodes and encodes through both builds of the loops (baseline and,
/// where the CPU has it, AVX2), checking they agree bit for bit.
fn decode_both(codec: &SampleCodec, bytes: &[u8]) -> Vec<f32> {
    let f = codec.format();
    let n = bytes.len() / f.bytes_per_scalar();
    let mut out = vec![0.0f32; n];
    codec.decode_scalars(bytes, &mut out);
    let p = codec_params(codec);
    let mut base = vec![0.0f32; n];
    kernels::decode(false, f.scalar(), f.endian(), bytes, &mut base, p);
    let same = out
        .iter()
        .zip(&base)
        .all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(same, "{f}: AVX2 and baseline decode differ");
    out
}

fn encode_both(codec: &SampleCodec, input: &[f32]) -> Vec<u8> {
    let f = codec.format();
    let mut bytes = vec![0u8; input.len() * f.bytes_per_scalar()];
    codec.encode_scalars(input, &mut bytes);
    let mut base = vec![0u8; bytes.len()];
    kernels::encode(
        false,
        f.scalar(),
        f.endian(),
        input,
        &mut base,
        codec_params(codec),
    );
    assert_eq!(bytes, base, "{f}: AVX2 and baseline encode differ");
    bytes
}

fn codec_params(codec: &SampleCodec) -> Params {
    let scale = codec.scale();
    Params {
        offset: codec.format().scalar().offset(),
        scale,
        inv: 1.0 / scale,
        unit: codec.format().scalar().is_float() && scale == 1.0,
    }
}

#[test]
fn every_sigmf_name_parses_back_to_its_format() {
    let all: Vec<SampleFormat> = SampleFormat::all().collect();
    assert_eq!(all.len(), 28, "SigMF has 28 datatypes");
    for f in &all {
        assert_eq!(fmt(f.sigmf_name()), *f, "{}", f.sigmf_name());
        assert_eq!(f.to_string(), f.sigmf_name());
        if let Some(raw) = f.raw_name() {
            assert_eq!(fmt(raw), *f, "raw name {raw}");
        }
    }
    let mut names: Vec<&str> = all.iter().map(|f| f.sigmf_name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 28, "names are distinct");
}

/// As a parameter, a format takes exactly the names `parse` takes (any
/// case), lists one choice per format, and reads back as itself.
#[test]
fn a_format_parameter_takes_every_name_parse_takes() {
    use rfgraph::Pmt;
    use rfgraph::params::{ParamSpec, ParamValue};
    let spec = ParamSpec::of::<SampleFormat>("format");
    assert_eq!(spec.choices.len(), 28);
    for name in SampleFormat::spellings() {
        let f = SampleFormat::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(SampleFormat::from_pmt(Pmt::from(name)).unwrap(), f);
        assert!(
            spec.check(&Pmt::from(name.to_ascii_uppercase())).is_ok(),
            "{name}"
        );
    }
    for f in SampleFormat::all() {
        assert!(spec.check(&Pmt::from(f.sigmf_name())).is_ok(), "{f}");
        assert_eq!(SampleFormat::from_pmt(f.to_pmt()).unwrap(), f);
    }
    let e = spec.check(&Pmt::from("cs17")).unwrap_err().to_string();
    assert!(e.contains("`cs17` is not one of cf32, cf32_be"), "{e}");
    assert!(SampleFormat::from_pmt(Pmt::F64(1.0)).is_err());
}

#[test]
fn raw_tool_names_mean_what_the_tools_write() {
    use ScalarType::*;
    let cases = [
        ("cu8", true, U8, "cu8", 2),
        ("cs8", true, I8, "ci8", 2),
        ("cs16", true, I16, "ci16_le", 4),
        ("cf32", true, F32, "cf32_le", 8),
        ("f32", false, F32, "rf32_le", 4),
        ("i16", false, I16, "ri16_le", 2),
        ("u8", false, U8, "ru8", 1),
        ("CF32", true, F32, "cf32_le", 8),
        (" cs16 ", true, I16, "ci16_le", 4),
        ("ci16", true, I16, "ci16_le", 4),
        ("cf64", true, F64, "cf64_le", 16),
        ("s16", false, I16, "ri16_le", 2),
        ("cu8_le", true, U8, "cu8", 2),
        ("ci8_be", true, I8, "ci8", 2),
        ("CF32_BE", true, F32, "cf32_be", 8),
        ("ru32_be", false, U32, "ru32_be", 4),
    ];
    for (name, complex, scalar, sigmf, bytes) in cases {
        let f = fmt(name);
        assert_eq!(f.is_complex(), complex, "{name}");
        assert_eq!(f.scalar(), scalar, "{name}");
        assert_eq!(f.sigmf_name(), sigmf, "{name}");
        assert_eq!(f.bytes_per_item(), bytes, "{name}");
    }
    assert_eq!(SampleFormat::CU8, fmt("cu8"));
    assert_eq!(SampleFormat::CS8, fmt("cs8"));
    assert_eq!(SampleFormat::CS16, fmt("cs16"));
    assert_eq!(SampleFormat::CF32, fmt("cf32"));
    assert_eq!(SampleFormat::F32, fmt("f32"));
    assert_eq!(SampleFormat::I16, fmt("i16"));
    assert_eq!(SampleFormat::U8, fmt("u8"));
    assert_eq!("cs16".parse::<SampleFormat>().unwrap(), SampleFormat::CS16);
    assert_eq!(fmt("ci16_be").raw_name(), None);
    assert_eq!(fmt("ci8").raw_name(), Some("cs8"));
}

#[test]
fn unknown_names_are_a_clear_error() {
    for bad in [
        "",
        "cf16",
        "complex",
        "cf32_xx",
        "ccf32",
        "cu8le",
        "f32_le_be",
        "c",
    ] {
        let err = SampleFormat::parse(bad).unwrap_err();
        assert_eq!(
            err,
            SampleFormatError::Unknown {
                name: bad.to_string()
            }
        );
        let text = err.to_string();
        assert!(text.contains(&format!("`{bad}`")), "{text}");
        assert!(text.contains("cf32_le") && text.contains("cu8"), "{text}");
    }
}

#[test]
fn item_types_must_match_the_format() {
    assert!(Complex32::check_format(SampleFormat::CU8).is_ok());
    assert!(f32::check_format(SampleFormat::F32).is_ok());
    assert!(u8::check_format(SampleFormat::CS16).is_ok());
    let e = Complex32::check_format(SampleFormat::I16).unwrap_err();
    assert!(
        e.to_string().contains("ri16_le") && e.to_string().contains("real"),
        "{e}"
    );
    let e = f32::check_format(SampleFormat::CF32).unwrap_err();
    assert!(
        e.to_string().contains("cf32_le") && e.to_string().contains("complex"),
        "{e}"
    );
    assert_eq!(u8::per_stored_item(SampleFormat::CS16), 4);
    assert_eq!(Complex32::per_stored_item(SampleFormat::CS16), 1);
}

#[test]
fn scales_must_be_positive_and_finite() {
    for s in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let e = SampleCodec::with_scale(SampleFormat::CS16, s).unwrap_err();
        assert!(e.to_string().contains("positive"), "{e}");
    }
    assert_eq!(
        SampleCodec::with_scale(SampleFormat::CS16, 1.0)
            .unwrap()
            .scale(),
        1.0
    );
}

#[test]
fn every_8_bit_value_round_trips() {
    for name in ["cu8", "ru8", "ci8", "ri8"] {
        let codec = SampleCodec::new(fmt(name));
        let bytes: Vec<u8> = (0..=255u8).collect();
        let floats = decode_both(&codec, &bytes);
        assert!(floats.iter().all(|v| (-1.0..=1.0).contains(v)), "{name}");
        assert_eq!(encode_both(&codec, &floats), bytes, "{name}");
    }
}

#[test]
fn every_16_bit_value_round_trips_in_both_byte_orders() {
    for name in [
        "ci16_le", "ci16_be", "ri16_le", "ri16_be", "cu16_le", "cu16_be", "ru16_be",
    ] {
        let codec = SampleCodec::new(fmt(name));
        let big = codec.format().endian() == Endian::Big;
        let bytes: Vec<u8> = (0..=u16::MAX)
            .flat_map(|v| {
                if big {
                    v.to_be_bytes()
                } else {
                    v.to_le_bytes()
                }
            })
            .collect();
        let floats = decode_both(&codec, &bytes);
        assert!(floats.iter().all(|v| (-1.0..=1.0).contains(v)), "{name}");
        assert_eq!(encode_both(&codec, &floats), bytes, "{name}");
    }
}

#[test]
fn wide_integers_round_trip_where_f32_holds_them() {
    let mut rng = Rng(1);
    for name in ["ci32_le", "ci32_be", "ru32_le", "cu32_be"] {
        let f = fmt(name);
        let codec = SampleCodec::new(f);
        let unsigned = f.scalar().is_unsigned();
        let big = f.endian() == Endian::Big;
        let bytes_of = |v: u32| {
            if big {
                v.to_be_bytes()
            } else {
                v.to_le_bytes()
            }
        };
        // Values an f32 holds exactly after decoding: 24 significant bits
        // for i32 (any exponent), |x - offset| < 2^22 for u32.
        let exact: Vec<u32> = (0..200_000)
            .map(|_| {
                let r = rng.next();
                if unsigned {
                    let d = (r as u32 >> 10) as i64 - (1 << 21);
                    (2_147_483_648i64 + d) as u32
                } else {
                    let mant = (r as i32) >> 8; // 24-bit signed
                    (mant << ((r >> 40) % 8)) as u32
                }
            })
            .chain(
                [0, 1, u32::MAX, 0x8000_0000, 0x7FFF_FFFF]
                    .into_iter()
                    .filter(|_| !unsigned),
            )
            .collect();
        let bytes: Vec<u8> = exact.iter().flat_map(|&v| bytes_of(v)).collect();
        let floats = decode_both(&codec, &bytes);
        let back = encode_both(&codec, &floats);
        for (i, (a, b)) in bytes.chunks(4).zip(back.chunks(4)).enumerate() {
            assert_eq!(a, b, "{name}: value {:#x}", exact[i]);
        }
        // Any value: within half an f32 step of where it started.
        let any: Vec<u32> = (0..200_000).map(|_| rng.next() as u32).collect();
        let bytes: Vec<u8> = any.iter().flat_map(|&v| bytes_of(v)).collect();
        let back = encode_both(&codec, &decode_both(&codec, &bytes));
        let value = |c: &[u8]| {
            let a: [u8; 4] = c.try_into().unwrap();
            let v = if big {
                u32::from_be_bytes(a)
            } else {
                u32::from_le_bytes(a)
            };
            if unsigned { v as i64 } else { v as i32 as i64 }
        };
        for (a, b) in bytes.chunks(4).zip(back.chunks(4)) {
            let (a, b) = (value(a), value(b));
            assert!((a - b).abs() <= 256, "{name}: {a} came back as {b}");
        }
    }
}

#[test]
fn floats_round_trip_bit_for_bit() {
    let mut rng = Rng(2);
    // Random bit patterns: every sign, exponent, subnormal, infinity, NaN.
    let words: Vec<u32> = (0..100_000).map(|_| rng.next() as u32).collect();
    for name in ["cf32_le", "cf32_be", "rf32_le", "rf32_be"] {
        let f = fmt(name);
        let codec = SampleCodec::new(f);
        let big = f.endian() == Endian::Big;
        let bytes: Vec<u8> = words
            .iter()
            .flat_map(|&w| {
                if big {
                    w.to_be_bytes()
                } else {
                    w.to_le_bytes()
                }
            })
            .collect();
        let floats = decode_both(&codec, &bytes);
        let bits: Vec<u32> = floats.iter().map(|v| v.to_bits()).collect();
        assert_eq!(bits, words, "{name} decode");
        assert_eq!(encode_both(&codec, &floats), bytes, "{name} encode");
    }
    // f64: every f32 widens and narrows back exactly.
    let floats: Vec<f32> = words
        .iter()
        .map(|&w| f32::from_bits(w))
        .filter(|v| !v.is_nan())
        .collect();
    for name in ["cf64_le", "cf64_be", "rf64_le", "rf64_be"] {
        let codec = SampleCodec::new(fmt(name));
        let bytes = encode_both(&codec, &floats);
        let back = decode_both(&codec, &bytes);
        for (a, b) in floats.iter().zip(&back) {
            assert_eq!(a.to_bits(), b.to_bits(), "{name}");
        }
    }
}

#[test]
fn byte_order_matches_hand_made_bytes() {
    let dec = |name: &str, bytes: &[u8]| decode_both(&SampleCodec::new(fmt(name)), bytes);
    assert_eq!(dec("ci16_le", &[0x00, 0x40, 0x00, 0xC0]), [0.5, -0.5]);
    assert_eq!(dec("ci16_be", &[0x40, 0x00, 0xC0, 0x00]), [0.5, -0.5]);
    assert_eq!(
        dec("cs16", &[0x01, 0x00, 0xFF, 0xFF]),
        [1.0 / 32768.0, -1.0 / 32768.0]
    );
    assert_eq!(dec("ri32_le", &[0, 0, 0, 0x40]), [0.5]);
    assert_eq!(dec("ri32_be", &[0x40, 0, 0, 0]), [0.5]);
    assert_eq!(dec("ru16_le", &[0xFF, 0xFF, 0x00, 0x00]), [1.0, -1.0]);
    assert_eq!(dec("ru16_be", &[0xFF, 0xFF, 0x00, 0x00]), [1.0, -1.0]);
    assert_eq!(
        dec("ru32_be", &[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]),
        [1.0, -1.0]
    );
    assert_eq!(dec("rf32_le", &[0, 0, 0x80, 0x3F]), [1.0]);
    assert_eq!(dec("rf32_be", &[0x3F, 0x80, 0, 0]), [1.0]);
    assert_eq!(dec("rf64_le", &[0, 0, 0, 0, 0, 0, 0xF0, 0x3F]), [1.0]);
    assert_eq!(dec("rf64_be", &[0x3F, 0xF0, 0, 0, 0, 0, 0, 0]), [1.0]);
    assert_eq!(dec("cf32_be", &[0xC0, 0, 0, 0, 0x3F, 0, 0, 0]), [-2.0, 0.5]);
    // Encoding writes the same bytes back.
    let enc = |name: &str, v: &[f32]| encode_both(&SampleCodec::new(fmt(name)), v);
    assert_eq!(enc("ci16_be", &[0.5, -0.5]), [0x40, 0x00, 0xC0, 0x00]);
    assert_eq!(enc("ci16_le", &[0.5, -0.5]), [0x00, 0x40, 0x00, 0xC0]);
    assert_eq!(enc("ri32_be", &[0.5]), [0x40, 0, 0, 0]);
    assert_eq!(enc("rf32_be", &[1.0]), [0x3F, 0x80, 0, 0]);
    assert_eq!(enc("rf64_be", &[1.0]), [0x3F, 0xF0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(enc("ru16_be", &[1.0, -1.0]), [0xFF, 0xFF, 0x00, 0x00]);
}

#[test]
fn scaling_conventions_hold() {
    let dec = |c: &SampleCodec, bytes: &[u8]| decode_both(c, bytes);
    let cu8 = SampleCodec::new(SampleFormat::CU8);
    assert_eq!(dec(&cu8, &[0, 255]), [-1.0, 1.0]);
    assert_eq!(dec(&cu8, &[127, 128]), [-0.5 / 127.5, 0.5 / 127.5]);
    let cs8 = SampleCodec::new(SampleFormat::CS8);
    assert_eq!(dec(&cs8, &[0x80, 0x7F]), [-1.0, 127.0 / 128.0]);
    // A user scale of 1 keeps the integers (GNU Radio's interleaved_*_to_complex).
    let raw = SampleCodec::with_scale(SampleFormat::CS16, 1.0).unwrap();
    assert_eq!(dec(&raw, &[0x00, 0x80, 0xFF, 0x7F]), [-32768.0, 32767.0]);
    let raw8 = SampleCodec::with_scale(SampleFormat::CS8, 1.0).unwrap();
    assert_eq!(dec(&raw8, &[0xFB, 0x05]), [-5.0, 5.0]);
    // Encoding clips, rounds half to even, and sends NaN to the lowest value.
    let enc = |c: &SampleCodec, v: &[f32]| encode_both(c, v);
    assert_eq!(
        enc(&cs8, &[2.0, -2.0, f32::INFINITY, f32::NAN]),
        [0x7F, 0x80, 0x7F, 0x80]
    );
    assert_eq!(enc(&cu8, &[2.0, -2.0, 0.0, f32::NAN]), [255, 0, 128, 0]);
    assert_eq!(
        enc(&raw8, &[0.5, 1.5, 2.5, -0.5, -1.5, 0.49, 0.51]),
        [0, 2, 2, 0, 0xFE, 0, 1]
    );
    let raw32 = SampleCodec::with_scale(fmt("ri32_le"), 1.0).unwrap();
    assert_eq!(
        enc(&raw32, &[1e10, -1e10]),
        [0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0x80]
    );
    // Floats scale too, when asked.
    let half = SampleCodec::with_scale(SampleFormat::F32, 2.0).unwrap();
    assert_eq!(dec(&half, &4.0f32.to_le_bytes()), [2.0]);
    assert_eq!(enc(&half, &[2.0]), 4.0f32.to_le_bytes());
}

#[test]
fn items_decode_through_the_generic_interface() {
    let codec = SampleCodec::new(SampleFormat::CS8);
    let mut c = [Complex32::new(0.0, 0.0); 2];
    codec.decode(&[0x40, 0xC0, 0x00, 0x7F], &mut c);
    assert_eq!(
        c,
        [
            Complex32::new(0.5, -0.5),
            Complex32::new(0.0, 127.0 / 128.0)
        ]
    );
    let mut bytes = [0u8; 4];
    codec.encode(&c, &mut bytes);
    assert_eq!(bytes, [0x40, 0xC0, 0x00, 0x7F]);
    let mut raw = [0u8; 4];
    codec.decode(&bytes, &mut raw);
    assert_eq!(raw, bytes);
    assert!(Complex32::is_passthrough(&SampleCodec::new(
        SampleFormat::CF32
    )));
    assert!(f32::is_passthrough(&SampleCodec::new(SampleFormat::F32)));
    assert!(!Complex32::is_passthrough(&SampleCodec::new(fmt(
        "cf32_be"
    ))));
    assert!(!Complex32::is_passthrough(
        &SampleCodec::with_scale(SampleFormat::CF32, 2.0).unwrap()
    ));
}

#[test]
#[should_panic(expected = "not `f32` items")]
fn decoding_into_the_wrong_item_type_panics() {
    let mut out = [0.0f32; 2];
    SampleCodec::new(SampleFormat::CS8).decode(&[0, 0], &mut out);
}

proptest::proptest! {
    /// Any text: an error or a format whose SigMF name parses back to it;
    /// never a panic.
    #[test]
    fn parsing_any_text_never_panics(name in "\\PC{0,12}") {
        if let Ok(f) = SampleFormat::parse(&name) {
            proptest::prop_assert_eq!(SampleFormat::parse(f.sigmf_name()).unwrap(), f);
        }
    }

    /// Valid names mutated by one character: still never a panic, and an
    /// error names the input.
    #[test]
    fn mutated_names_are_parsed_or_named_in_the_error(
        i in 0usize..28,
        pos in 0usize..8,
        c in proptest::char::any(),
    ) {
        let base = SampleFormat::all().nth(i).unwrap().sigmf_name();
        let mut chars: Vec<char> = base.chars().collect();
        let at = pos.min(chars.len() - 1);
        chars[at] = c;
        let name: String = chars.into_iter().collect();
        match SampleFormat::parse(&name) {
            Ok(f) => proptest::prop_assert_eq!(SampleFormat::parse(f.sigmf_name()).unwrap(), f),
            Err(e) => {
                let quoted = format!("`{name}`");
                proptest::prop_assert!(e.to_string().contains(&quoted), "{}", e);
            }
        }
    }
}
