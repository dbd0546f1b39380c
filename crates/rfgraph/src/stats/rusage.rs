//! [`rusage`]: `getrusage`, the one place the statistics read the
//! kernel's resource counters, for a thread ([`ThreadUsage`]) or the whole
//! process ([`CpuTime`]).
//!
//! [`ThreadUsage`]: super::ThreadUsage
//! [`CpuTime`]: super::CpuTime

/// The counters of `who` (`libc::RUSAGE_THREAD` or `RUSAGE_SELF`), or
/// `None` if the call fails.
pub(super) fn rusage(who: libc::c_int) -> Option<libc::rusage> {
    // SAFETY: `rusage` is plain data (integers and timevals), for which
    // all zero bytes is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable `rusage` for the whole call;
    // getrusage writes only into it.
    (unsafe { libc::getrusage(who, &mut ru) } == 0).then_some(ru)
}
