//! [`IcaoFilter`]: the ICAO addresses recently heard in frames whose
//! parity proves their address (DF11 with plain parity, DF17, DF18 with
//! an ICAO address), so that frames whose address is only recovered from
//! their parity (DF0/4/5/16/20/21, DF11 with an interrogator code) are
//! believed only for aircraft known to be there, as dump1090 does.
//!
//! Time is counted in samples of the demodulator's input, never the
//! wall clock, so the filter (and therefore the frame list) is the same
//! however the input arrives.

use std::collections::HashMap;

/// Addresses with the sample index at which each was last proven.
#[derive(Clone, Debug, Default)]
pub struct IcaoFilter {
    seen: HashMap<u32, u64>,
    ttl: u64,
}

impl IcaoFilter {
    /// A filter that forgets an address `ttl` samples after it was last
    /// proven (dump1090: 60 s).
    pub fn new(ttl: u64) -> Self {
        Self {
            seen: HashMap::new(),
            ttl,
        }
    }

    /// Records `address` as proven at sample `now`.
    pub fn add(&mut self, address: u32, now: u64) {
        self.seen.insert(address & 0xFF_FFFF, now);
        // Keep the map small on a busy channel: drop the expired now and
        // then (deterministic: depends only on the addresses and `now`).
        if self.seen.len() > 4096 {
            let ttl = self.ttl;
            self.seen.retain(|_, t| now.saturating_sub(*t) <= ttl);
        }
    }

    /// True when `address` was proven within the last `ttl` samples
    /// before `now`.
    pub fn contains(&self, address: u32, now: u64) -> bool {
        self.seen
            .get(&address)
            .is_some_and(|&t| now.saturating_sub(t) <= self.ttl)
    }

    /// Addresses currently remembered (expired ones included until
    /// pruned).
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// True when no address was ever added.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry() {
        let mut f = IcaoFilter::new(100);
        assert!(!f.contains(0x4D2023, 0));
        f.add(0x4D2023, 50);
        assert!(f.contains(0x4D2023, 60));
        assert!(f.contains(0x4D2023, 150));
        assert!(!f.contains(0x4D2023, 151));
        assert!(!f.contains(0x4D2024, 60));
        assert_eq!(f.len(), 1);
    }
}
