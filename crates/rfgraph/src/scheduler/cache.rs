//! Cache sizes of this machine, from sysfs, with fallbacks. Used to size
//! chunks so that a chain of blocks works on data that stays in cache.

/// Size in bytes of the level-`level` data (or unified) cache of CPU 0.
pub fn cache_bytes(level: u32) -> Option<usize> {
    (0..8).find_map(|index| {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).ok();
        let lvl = read("level")?;
        let kind = read("type")?;
        if lvl.trim() != level.to_string() || kind.trim() == "Instruction" {
            return None;
        }
        let size = read("size")?;
        let size = size.trim();
        let (digits, unit) = size.split_at(size.find(|c: char| !c.is_ascii_digit())?);
        let n: usize = digits.parse().ok()?;
        match unit {
            "K" => Some(n * 1024),
            "M" => Some(n * 1024 * 1024),
            _ => None,
        }
    })
}

/// L1 data cache size (fallback 32 KiB).
pub fn l1_data_bytes() -> usize {
    cache_bytes(1).unwrap_or(32 * 1024)
}

/// L2 cache size (fallback 256 KiB).
pub fn l2_bytes() -> usize {
    cache_bytes(2).unwrap_or(256 * 1024)
}

/// Ring size of an edge whose two blocks run one after the other on one
/// core (`chain`, `single`): 3/8 of L1, so that the chunk a
/// block reads and the chunk it writes fill three quarters of L1 and leave
/// the rest to the runtime's control words and the next block's state.
/// Measured on 32 KiB L1 (4 × 20 copy chain): 8 KiB rings pay the per-call
/// cost too often, 16 KiB rings push each other out of L1; 12 KiB ran
/// 10–15 % faster than either, and 30 % faster than 64 KiB.
pub fn local_ring_bytes() -> usize {
    l1_data_bytes() * 3 / 8
}

/// Ring size of an edge whose two blocks run on threads that hand over
/// through the OS (`tpb`): a quarter of L2, at least 64 KiB. Every handover
/// costs a futex wake and a context switch (about 6 µs on this 2-core VM
/// with 130 block threads), so chunks must be large to amortise it, yet the
/// chunk a call reads plus the one it writes should stay in L2. Measured on
/// 512 KiB L2 (stream 10 × 10, tpb): 64 KiB rings 3.3e9 block-items/s,
/// 128 KiB 4.9e9–5.1e9, 192 KiB 5.0e9, 256 KiB 4.3e9, 1 MiB 2.9e9.
pub fn handover_ring_bytes() -> usize {
    (l2_bytes() / 4).max(64 * 1024)
}

/// Ring size of an edge that becomes a data-parallel segment's ring
/// (`chain`, see `segment`): three quarters of L2. Running the segment is
/// usually most of what its cores do, and each of two lanes claims up to
/// a quarter of the ring at a time, so that the cross-core hand-shake of
/// a claim is paid once per several L1-sized sub-chunks while the ring
/// still holds a claim per lane and the upstream writer's backlog. Measured on 512 KiB
/// L2 (saxpy, 12 blocks on 2 cores, 24 KiB sub-chunks, 7 alternating runs):
/// 256 KiB rings with one sub-chunk per claim 2.95e10 block-items/s, with
/// four 3.14e10; 384 KiB with four 3.30e10–3.37e10, 512 KiB with five
/// 3.27e10, 320 KiB with four (three tenths of it) 3.04e10. With 28 KiB
/// sub-chunks (in-place chunks grew to 7/8 of L1), a claim holds three:
/// 3.49e10–3.54e10.
pub fn segment_ring_bytes() -> usize {
    l2_bytes() * 3 / 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_plausible() {
        let l1 = l1_data_bytes();
        let l2 = l2_bytes();
        assert!((4 * 1024..=1024 * 1024).contains(&l1), "{l1}");
        assert!(l2 >= l1, "{l2} < {l1}");
        assert!(local_ring_bytes() < l1);
        assert!(handover_ring_bytes() >= 64 * 1024);
        assert!(segment_ring_bytes() > l2 / 2 && segment_ring_bytes() < l2);
    }
}
