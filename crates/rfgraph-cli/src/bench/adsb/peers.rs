//! The other decoders `bench adsb` runs on the same recording, each when
//! its program is there (one line on stderr when it is not):
//!
//! | mode | program (default) | file | timed command | frames |
//! |---|---|---|---|---|
//! | `dump1090-mutability` | `dump1090-mutability` on PATH (Debian's) | 2.4 MS/s | `--ifile F --quiet --stats` | "total usable messages"; by DF from `--ifile F --raw` |
//! | `dump1090-antirez` | `dump1090` on PATH that is not mutability | 2 MS/s, padded | `--ifile F --stats` | "total usable messages"; by DF from `--ifile F --raw` |
//! | `readsb` | `readsb` on PATH (wiedehopf's) | 2.4 MS/s | `--device-type ifile --ifile F --iformat UC8 --quiet --stats` | "total usable messages"; by DF from its "N DFk messages" lines when it prints them, else from `--raw` |
//!
//! Each program's `--stats` counts what passed its CRC (with its own
//! one-bit repair); the `--raw` run that splits them by DF is made once
//! per program, outside any timing. `seconds` is process start to exit;
//! `cpu_seconds` the child's user + system time once reaped
//! (`getrusage(RUSAGE_CHILDREN)`).

use super::Measured;
use super::count::DfCounts;
use anyhow::{Context, bail};
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// A decoder `bench adsb` compares rfgraph with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Peer {
    /// Debian's `dump1090-mutability` (2.4 MS/s).
    Mutability,
    /// Salvatore Sanfilippo's original `dump1090` (2 MS/s).
    Antirez,
    /// wiedehopf's `readsb` (2.4 MS/s).
    Readsb,
}

/// Every peer, in the order they run.
pub const PEERS: [Peer; 3] = [Peer::Mutability, Peer::Antirez, Peer::Readsb];

impl Peer {
    /// The mode's name in records and `--mode`.
    pub fn mode(self) -> &'static str {
        match self {
            Peer::Mutability => "dump1090-mutability",
            Peer::Antirez => "dump1090-antirez",
            Peer::Readsb => "readsb",
        }
    }

    /// The sample rate it reads.
    pub fn rate(self) -> f64 {
        match self {
            Peer::Antirez => 2.0e6,
            Peer::Mutability | Peer::Readsb => 2.4e6,
        }
    }

    /// Its program's name on PATH, and the option that names another.
    fn program(self) -> (&'static str, &'static str) {
        match self {
            Peer::Mutability => ("dump1090-mutability", "--mutability"),
            Peer::Antirez => ("dump1090", "--dump1090-antirez"),
            Peer::Readsb => ("readsb", "--readsb"),
        }
    }

    fn input_args(self, file: &Path) -> Vec<OsString> {
        let mut a: Vec<OsString> = match self {
            Peer::Readsb => vec!["--device-type".into(), "ifile".into()],
            _ => Vec::new(),
        };
        a.extend(["--ifile".into(), file.as_os_str().to_owned()]);
        if self == Peer::Readsb {
            a.extend(["--iformat".into(), "UC8".into()]);
        }
        a
    }

    /// The timed command's arguments: read `file`, print the counts at
    /// exit and nothing else.
    fn stats_args(self, file: &Path) -> Vec<OsString> {
        let mut a = self.input_args(file);
        match self {
            // antirez's --stats alone prints nothing else; it has no --quiet.
            Peer::Antirez => a.push("--stats".into()),
            _ => a.extend(["--quiet".into(), "--stats".into()]),
        }
        a
    }

    /// The counting command's arguments: every frame as a `*HEX;` line.
    fn raw_args(self, file: &Path) -> Vec<OsString> {
        let mut a = self.input_args(file);
        a.push("--raw".into());
        a
    }
}

/// True when `path` is a file someone may execute.
fn executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `name` on PATH, as a shell finds it.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| executable(p))
}

/// The program of `peer`: `given` (a path, or a name looked up on PATH)
/// or its default name on PATH. `Err` says why it is not there, for the
/// line that skips it.
pub fn locate(peer: Peer, given: Option<&Path>) -> Result<PathBuf, String> {
    let (name, option) = peer.program();
    match given {
        Some(p) if p.components().count() > 1 || p.is_absolute() => {
            if executable(p) {
                Ok(p.to_path_buf())
            } else {
                Err(format!("{} is not an executable file", p.display()))
            }
        }
        Some(p) => {
            on_path(&p.to_string_lossy()).ok_or_else(|| format!("no {} on PATH", p.display()))
        }
        None => {
            let found =
                on_path(name).ok_or_else(|| format!("no {name} on PATH (give {option} PATH)"))?;
            // Debian's mutability may be installed as `dump1090` too.
            let real = std::fs::canonicalize(&found).unwrap_or_else(|_| found.clone());
            let is_mutability = real
                .file_name()
                .is_some_and(|n| n.to_string_lossy().contains("mutability"));
            if peer == Peer::Antirez && is_mutability {
                return Err(format!(
                    "{} is dump1090-mutability, not antirez's (give {option} PATH)",
                    found.display()
                ));
            }
            Ok(found)
        }
    }
}

/// The user + system time of this process's reaped children so far,
/// seconds (`bench io`'s `getrusage(RUSAGE_CHILDREN)`).
fn children_cpu() -> f64 {
    let t = super::super::io::children_cpu();
    (t.user + t.system).as_secs_f64()
}

/// The number that starts the first line ending in `suffix`.
fn count(text: &str, suffix: &str) -> Option<u64> {
    text.lines()
        .find(|l| l.trim_end().ends_with(suffix))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// readsb's per-DF lines (`  123 DF17 messages`), if it printed any.
fn stats_by_df(text: &str) -> Option<DfCounts> {
    let mut c = DfCounts::default();
    let mut any = false;
    for line in text.lines() {
        let mut w = line.split_whitespace();
        let (Some(n), Some(df), Some("messages"), None) = (w.next(), w.next(), w.next(), w.next())
        else {
            continue;
        };
        let df = df.strip_prefix("DF").and_then(|d| d.parse::<usize>().ok());
        if let (Ok(n), Some(df)) = (n.parse::<u64>(), df.filter(|&d| d < 32)) {
            c.0[df] = c.0[df].saturating_add(n);
            any = true;
        }
    }
    any.then_some(c)
}

fn run(program: &Path, args: &[OsString]) -> anyhow::Result<String> {
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {}", program.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        bail!(
            "{} failed ({}): {}",
            program.display(),
            out.status,
            tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned() + &stderr)
}

/// Runs `peer` (at `program`) on `file` once, timed: its seconds from
/// start to exit and what it counted. `samples` are the passes' samples,
/// used when it does not say how many it processed.
///
/// Errors: it cannot start, fails, or prints no message count.
pub fn measure(
    peer: Peer,
    program: &Path,
    file: &Path,
    samples: u64,
) -> anyhow::Result<(f64, Measured)> {
    let cpu_before = children_cpu();
    let start = Instant::now();
    let text = run(program, &peer.stats_args(file))?;
    let seconds = start.elapsed().as_secs_f64();
    let cpu = Some(children_cpu() - cpu_before);
    let frames = count(&text, "total usable messages").with_context(|| {
        format!(
            "{} printed no \"total usable messages\":\n{text}",
            program.display()
        )
    })?;
    let measured = Measured {
        rate: peer.rate(),
        samples: count(&text, "samples processed").unwrap_or(samples),
        frames,
        by_df: stats_by_df(&text),
        cpu_seconds: cpu,
    };
    Ok((seconds, measured))
}

/// Runs `peer` on `file` once, untimed, printing every frame, and counts
/// them by DF. `None` when it printed no frame line.
pub fn count_by_df(peer: Peer, program: &Path, file: &Path) -> anyhow::Result<Option<DfCounts>> {
    let text = run(program, &peer.raw_args(file))?;
    let c = DfCounts::of_raw_lines(&text);
    Ok((c.total() > 0).then_some(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_are_read() {
        let mutability = "  214120 samples processed\n    187 accepted with correct CRC\n\
                          187 total usable messages\n";
        assert_eq!(count(mutability, "total usable messages"), Some(187));
        assert_eq!(count(mutability, "samples processed"), Some(214120));
        assert_eq!(stats_by_df(mutability), None);
        let readsb = "Decoder:\n  200 total usable messages\n    11 DF0 messages\n\
                      110 DF17 messages\n  49 airborne position messages received\n";
        assert_eq!(count(readsb, "total usable messages"), Some(200));
        let c = stats_by_df(readsb).unwrap();
        assert_eq!((c.df17(), c.total()), (110, 121));
        assert!(children_cpu() >= 0.0);
    }

    proptest::proptest! {
        /// A peer's output is another program's text: any of it is read
        /// without a panic, and a well-formed line among it still counts.
        #[test]
        fn any_output_is_read(text in "(?s).{0,400}", n in 0u64..1_000_000, df in 0usize..32) {
            let _ = (count(&text, "total usable messages"), stats_by_df(&text));
            let _ = DfCounts::of_raw_lines(&text);
            let line = format!("{text}\n{n} DF{df} messages\n{n} total usable messages\n");
            proptest::prop_assert!(stats_by_df(&line).is_some_and(|c| c.total() >= n));
            let raw = format!("{text}\n*8d4d2023587f345e35837e2218b2;\n");
            proptest::prop_assert!(DfCounts::of_raw_lines(&raw).df17() >= 1);
        }
    }

    #[test]
    fn a_missing_program_says_why() {
        let e = locate(Peer::Readsb, Some(Path::new("/nonexistent/readsb"))).unwrap_err();
        assert!(e.contains("/nonexistent/readsb"), "{e}");
        let e = locate(Peer::Readsb, Some(Path::new("no-such-readsb-here"))).unwrap_err();
        assert!(e.contains("no no-such-readsb-here on PATH"), "{e}");
        assert_eq!(
            locate(Peer::Mutability, Some(Path::new("sh"))).ok(),
            on_path("sh")
        );
    }
}
