//! `WavInput` on bytes: exact values for every encoding, the errors for
//! broken and unsupported files, and a property test that feeds it mutated
//! files (an error naming the file, never a panic or a hang).

use super::*;
use hound::{WavSpec, WavWriter};
use proptest::prelude::*;
use std::io::Cursor;

/// The encodings a test file can have.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Int(u16),
    Float,
}

/// A valid WAV file: `frames` frames of `channels` channels, sample `i`
/// holding a value derived from `i`; and the `f32` each sample must read
/// as.
fn wav_bytes(kind: Kind, channels: u16, frames: usize) -> (Vec<u8>, Vec<f32>) {
    let spec = WavSpec {
        channels,
        sample_rate: 12_345,
        bits_per_sample: match kind {
            Kind::Int(b) => b,
            Kind::Float => 32,
        },
        sample_format: match kind {
            Kind::Int(_) => SampleFormat::Int,
            Kind::Float => SampleFormat::Float,
        },
    };
    let mut cursor = Cursor::new(Vec::new());
    let mut expected = Vec::new();
    {
        let mut w = WavWriter::new(&mut cursor, spec).unwrap();
        for i in 0..frames * channels as usize {
            match kind {
                Kind::Int(bits) => {
                    let full = 1i64 << (bits - 1);
                    let v = ((i as i64 * 7919 + 13) % (2 * full)) - full;
                    w.write_sample(v as i32).unwrap();
                    expected.push(v as f32 / full as f32);
                }
                Kind::Float => {
                    let v = (i as f32 * 0.37).sin() * 1.5;
                    w.write_sample(v).unwrap();
                    expected.push(v);
                }
            }
        }
        w.finalize().unwrap();
    }
    (cursor.into_inner(), expected)
}

fn input(bytes: Vec<u8>) -> Result<WavInput<Cursor<Vec<u8>>>, WavError> {
    WavInput::new(Cursor::new(bytes), PathBuf::from("test.wav"))
}

/// Reads everything, `chunk` frames at a time.
fn read_all(wav: &mut WavInput<Cursor<Vec<u8>>>, chunk: usize) -> Result<Vec<f32>, WavError> {
    let mut all = Vec::new();
    let mut buf = vec![0.0; chunk * wav.channels()];
    while wav.remaining() > 0 {
        let (frames, error) = wav.read(&mut buf);
        all.extend_from_slice(&buf[..frames * wav.channels()]);
        if let Some(e) = error {
            return Err(e);
        }
        assert!(frames > 0, "no progress");
    }
    Ok(all)
}

#[test]
fn every_encoding_reads_back_exactly() {
    for kind in [
        Kind::Int(8),
        Kind::Int(16),
        Kind::Int(24),
        Kind::Int(32),
        Kind::Float,
    ] {
        for channels in [1, 2, 5] {
            let (bytes, expected) = wav_bytes(kind, channels, 101);
            let mut wav = input(bytes).unwrap();
            assert_eq!(wav.channels(), channels as usize);
            assert_eq!(wav.sample_rate(), 12_345);
            assert_eq!(wav.frames(), 101);
            let expected_encoding = match kind {
                Kind::Int(b) => Encoding::Int(b),
                Kind::Float => Encoding::Float,
            };
            assert_eq!(wav.encoding(), expected_encoding);
            assert_eq!(
                read_all(&mut wav, 7).unwrap(),
                expected,
                "{kind:?} × {channels}"
            );
            wav.rewind().unwrap();
            assert_eq!(wav.remaining(), 101);
            assert_eq!(
                read_all(&mut wav, 1000).unwrap(),
                expected,
                "after a rewind"
            );
        }
    }
}

#[test]
fn a_short_data_chunk_fails_at_the_first_missing_frame() {
    let (mut bytes, expected) = wav_bytes(Kind::Int(16), 2, 50);
    let header = bytes.len() - 50 * 4;
    bytes.truncate(header + 20 * 4 + 2); // 20 frames and half of one
    let mut wav = input(bytes).unwrap();
    let mut buf = vec![0.0; 2 * 64];
    let (frames, error) = wav.read(&mut buf);
    assert_eq!(frames, 20);
    assert_eq!(&buf[..40], &expected[..40]);
    let e = error.unwrap().to_string();
    assert!(e.starts_with("test.wav: cannot read frame 20"), "{e}");
    assert!(
        e.contains(&format!("byte offset {}", header + 80 + 2)),
        "{e}"
    );
    assert!(e.contains("header promises 50 frames"), "{e}");
    assert_eq!(wav.remaining(), 0, "no reading on mid-frame");
}

#[test]
fn broken_headers_name_the_file_and_the_offset() {
    let e = input(b"hello, this is not a WAV file at all".to_vec())
        .err()
        .unwrap();
    assert!(matches!(e, WavError::Invalid { .. }), "{e}");
    assert!(
        e.to_string().starts_with("test.wav: not a valid WAV file"),
        "{e}"
    );

    let (bytes, _) = wav_bytes(Kind::Int(16), 1, 10);
    let e = input(bytes[..30].to_vec()).err().unwrap();
    assert!(e.to_string().contains("ends inside the header"), "{e}");
    assert!(e.to_string().contains("byte offset 30"), "{e}");

    // A sample rate of 0 (bytes 24..28), with the byte rate to match.
    let mut zero_rate = bytes.clone();
    zero_rate[24..32].fill(0);
    let e = input(zero_rate).err().unwrap();
    assert!(e.to_string().contains("sample rate is 0"), "{e}");
}

/// A canonical 44-byte header with the given format fields.
fn header(tag: u16, channels: u16, bits: u16, data: &[u8]) -> Vec<u8> {
    let block = channels * bits / 8;
    let mut h = Vec::new();
    h.extend_from_slice(b"RIFF");
    h.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
    h.extend_from_slice(b"WAVEfmt ");
    h.extend_from_slice(&16u32.to_le_bytes());
    h.extend_from_slice(&tag.to_le_bytes());
    h.extend_from_slice(&channels.to_le_bytes());
    h.extend_from_slice(&8000u32.to_le_bytes());
    h.extend_from_slice(&(8000 * block as u32).to_le_bytes());
    h.extend_from_slice(&block.to_le_bytes());
    h.extend_from_slice(&bits.to_le_bytes());
    h.extend_from_slice(b"data");
    h.extend_from_slice(&(data.len() as u32).to_le_bytes());
    h.extend_from_slice(data);
    h
}

#[test]
fn unsupported_encodings_say_what_they_are() {
    // The canonical header reads as a plain 16-bit file.
    let mut ok = input(header(1, 1, 16, &[0, 0x40, 0, 0xC0])).unwrap();
    assert_eq!(read_all(&mut ok, 4).unwrap(), [0.5, -0.5]);
    // 64-bit float, μ-law (7), ADPCM (2).
    for (tag, bits, what) in [
        (3, 64, "float samples of other than 32 bits"),
        (7, 8, "μ-law (format tag 0x0007)"),
        (2, 4, "Microsoft ADPCM (format tag 0x0002)"),
        (0x1234, 16, "an unknown format (format tag 0x1234)"),
    ] {
        let e = input(header(tag, 1, bits, &[0; 8])).err().unwrap();
        assert!(matches!(e, WavError::Unsupported { .. }), "tag {tag}: {e}");
        let e = e.to_string();
        assert!(e.starts_with("test.wav: unsupported WAV encoding: "), "{e}");
        assert!(e.contains(what), "{e}");
    }
}

#[derive(Clone, Debug)]
enum Mutation {
    Set(usize, u8),
    Truncate(usize),
    Insert(usize, Vec<u8>),
    Remove(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Set(p, b)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..9))
            .prop_map(|(p, b)| Mutation::Insert(p, b)),
        1 => (any::<usize>(), 1usize..9).prop_map(|(p, n)| Mutation::Remove(p, n)),
    ]
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::Int(8)),
        Just(Kind::Int(16)),
        Just(Kind::Int(24)),
        Just(Kind::Int(32)),
        Just(Kind::Float),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    match *m {
        Mutation::Set(p, b) => {
            // Mostly the header, where the structure is.
            let p = if p % 4 == 0 {
                p % bytes.len()
            } else {
                p % bytes.len().min(80)
            };
            bytes[p] = b;
        }
        Mutation::Truncate(p) => bytes.truncate(p % bytes.len()),
        Mutation::Insert(p, ref b) => {
            let p = p % bytes.len();
            bytes.splice(p..p, b.iter().copied());
        }
        Mutation::Remove(p, n) => {
            let p = p % bytes.len();
            let end = (p + n).min(bytes.len());
            bytes.drain(p..end);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Mutated files open and read to the end, or fail with an error that
    /// names the file: never a panic, never a hang (every read makes
    /// progress or ends), and never more frames than the header promised.
    #[test]
    fn mutated_files_fail_cleanly(
        kind in kind(),
        channels in 1u16..4,
        frames in 0usize..40,
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let (mut bytes, _) = wav_bytes(kind, channels, frames);
        for m in &mutations {
            apply(&mut bytes, m);
        }
        match input(bytes) {
            Err(e) => prop_assert!(e.to_string().starts_with("test.wav: "), "{}", e),
            Ok(mut wav) => {
                let promised = wav.frames() as usize * wav.channels();
                for _ in 0..2 {
                    match read_all(&mut wav, 5) {
                        Ok(all) => prop_assert_eq!(all.len(), promised),
                        Err(e) => prop_assert!(e.to_string().starts_with("test.wav: "), "{}", e),
                    }
                    if wav.rewind().is_err() {
                        break;
                    }
                }
            }
        }
    }

    /// Unmutated files of any shape read back exactly, in any chunk size.
    #[test]
    fn valid_files_read_back_exactly(
        kind in kind(),
        channels in 1u16..6,
        frames in 0usize..300,
        chunk in 1usize..64,
    ) {
        let (bytes, expected) = wav_bytes(kind, channels, frames);
        let mut wav = input(bytes).unwrap();
        prop_assert_eq!(read_all(&mut wav, chunk).unwrap(), expected);
    }
}
