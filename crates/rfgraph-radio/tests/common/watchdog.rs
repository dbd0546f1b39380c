//! Runs a reference tool (a Python script: a GNU Radio flowgraph with
//! gr-rds, pyModeS) under a watchdog: one that hangs is killed and fails
//! the test instead of holding up the run.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The most a reference tool may take.
pub const TOOL_WATCHDOG: Duration = Duration::from_secs(300);

/// Runs `command` to the end, its output captured, within `limit`; past
/// that it is killed and the test fails.
pub fn output(command: &mut Command, limit: Duration) -> Output {
    let what = format!("{command:?}");
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    std::thread::scope(|s| {
        // Drain both pipes while waiting, so a large output never blocks.
        let out = s.spawn(move || {
            let mut v = Vec::new();
            let _ = stdout.read_to_end(&mut v);
            v
        });
        let err = s.spawn(move || {
            let mut v = Vec::new();
            let _ = stderr.read_to_end(&mut v);
            v
        });
        let deadline = Instant::now() + limit;
        let status = loop {
            if let Some(status) = child.try_wait().expect("the tool's status") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{what} did not finish within {limit:?}: killed");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        Output {
            status,
            stdout: out.join().expect("stdout reader"),
            stderr: err.join().expect("stderr reader"),
        }
    })
}
