//! Running one measurement on the first C CPUs: the calling thread's
//! affinity set to CPUs `0..C` around it, then back to all of them.
//!
//! Every thread the run starts (the scheduler's workers, the file
//! source's reader) and every child process it spawns (a peer decoder:
//! Linux copies the spawning thread's affinity into the new process, as
//! `taskset` relies on) inherits that set, so `cores` bounds the whole
//! measurement, not only the scheduler's workers. The same pinning as
//! `bench wlan`'s and `bench fm --cores`' (`rfgraph::scheduler::thread`).

use anyhow::{Context, bail};

/// The CPUs the process had before any pinning (counted once, since a
/// pinned thread sees only its own set).
#[derive(Clone, Copy, Debug)]
pub struct Cpus {
    all: usize,
}

impl Cpus {
    /// Counts the CPUs the calling thread may use now.
    pub fn new() -> Self {
        Self {
            all: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// The counts of a `--cores` list this machine can run: each from 1
    /// to the CPUs there are. A count above them is left out with a line
    /// on stderr (the default `1,2` on a one-CPU machine measures one
    /// core); none left, or a zero, is an error.
    pub fn usable(&self, cores: &[usize]) -> anyhow::Result<Vec<usize>> {
        if cores.contains(&0) {
            bail!("--cores: 0 is not a number of CPUs");
        }
        let (fit, over): (Vec<usize>, Vec<usize>) = cores.iter().partition(|&&c| c <= self.all);
        if fit.is_empty() {
            bail!(
                "--cores: none of {cores:?} is 1 to {} (the CPUs there are)",
                self.all
            );
        }
        for c in over {
            crate::console::errln!(
                "adsb: --cores {c} skipped: this machine has {} CPU(s)",
                self.all
            );
        }
        Ok(fit)
    }

    /// Runs `f` with the calling thread (and so what it starts) on CPUs
    /// `0..cores`, then gives it every CPU back, whatever `f` returned.
    pub fn on<T>(&self, cores: usize, f: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
        set(cores)?;
        let out = f();
        set(self.all)?;
        out
    }
}

fn set(cpus: usize) -> anyhow::Result<()> {
    rfgraph::scheduler::thread::set_affinity(&(0..cpus).collect::<Vec<_>>())
        .with_context(|| format!("pinning the process to {cpus} CPU(s)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPUs the calling thread may run on, from /proc.
    fn allowed() -> String {
        std::fs::read_to_string("/proc/thread-self/status")
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .unwrap()
            .trim()
            .to_string()
    }

    #[test]
    fn pins_around_the_call_and_restores() {
        let cpus = Cpus::new();
        let before = allowed();
        let inside = cpus.on(1, || Ok(allowed())).unwrap();
        assert_eq!(inside, "0");
        // A child process inherits the set.
        let child = cpus
            .on(1, || {
                let out = std::process::Command::new("grep")
                    .args(["Cpus_allowed_list", "/proc/self/status"])
                    .output()?;
                Ok(String::from_utf8_lossy(&out.stdout).to_string())
            })
            .unwrap();
        assert!(child.trim_end().ends_with("\t0"), "{child}");
        // An error inside still restores.
        let failed: anyhow::Result<()> = cpus.on(1, || bail!("inside"));
        assert!(failed.is_err());
        assert_eq!(allowed(), before);
        assert!(cpus.usable(&[0]).is_err());
        assert!(cpus.usable(&[cpus.all + 1]).is_err());
        assert!(cpus.usable(&[]).is_err());
        assert_eq!(cpus.usable(&[1]).unwrap(), vec![1]);
        assert_eq!(cpus.usable(&[1, cpus.all + 1]).unwrap(), vec![1]);
    }
}
