//! Depuncturing (IEEE 802.11-2016 17.3.5.6, Figure 17-9, undone): the
//! soft bits of a punctured rate back into the rate-1/2 mother code's
//! stream (A0 B0 A1 B1 …), each dropped bit an erasure
//! ([`viterbi::ERASED`](crate::viterbi::ERASED), neutral to the
//! decoder). Which bits were dropped is
//! [`convolutional::puncture_pattern`](crate::convolutional::puncture_pattern)'s to say.

use crate::convolutional::puncture_pattern;
use crate::rate::CodeRate;
use crate::viterbi::ERASED;

/// Rate-1/2 soft bits the `sent` soft bits of `rate` become: whole
/// pattern periods, except that a last period whose sent bits are not
/// all there ends after its last sent one.
pub fn mother_len(rate: CodeRate, sent: usize) -> usize {
    let pattern = puncture_pattern(rate);
    let kept = pattern.iter().filter(|&&k| k == 1).count();
    let (periods, rest) = (sent / kept, sent % kept);
    let mut len = periods * pattern.len();
    if rest > 0 {
        // Up to and including the rest-th kept position.
        let mut seen = 0;
        for (i, &k) in pattern.iter().enumerate() {
            seen += k as usize;
            if seen == rest {
                len += i + 1;
                break;
            }
        }
    }
    len
}

/// Writes the rate-1/2 stream of the punctured soft bits `sent` (the
/// first at a pattern period's start) to `out` (cleared first,
/// [`mother_len`] long), erasures where `rate` dropped a bit.
pub fn depuncture(rate: CodeRate, sent: &[u8], out: &mut Vec<u8>) {
    out.clear();
    if rate == CodeRate::Half {
        out.extend_from_slice(sent);
        return;
    }
    let pattern = puncture_pattern(rate);
    out.resize(mother_len(rate, sent.len()), ERASED);
    let mut from = sent.iter();
    for period in out.chunks_mut(pattern.len()) {
        for (o, &k) in period.iter_mut().zip(pattern) {
            if k == 1 {
                match from.next() {
                    Some(&s) => *o = s,
                    None => return,
                }
            }
        }
    }
}

/// The rate-1/2 stream index of each of `sent` punctured bits of
/// `rate` (the first at a pattern period's start): where
/// [`depuncture`] puts them. Decoders that scatter a symbol's bits
/// straight into the rate-1/2 stream build their tables from it.
pub fn mother_positions(rate: CodeRate, sent: usize) -> impl Iterator<Item = usize> {
    let pattern = puncture_pattern(rate);
    (0..)
        .filter(move |&i| pattern[i % pattern.len()] == 1)
        .take(sent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convolutional::puncture;

    /// Depuncturing undoes [`puncture`]: the sent bits land where they
    /// came from, the others are erasures, for every rate and every
    /// length (partial periods included).
    #[test]
    fn undoes_puncturing_for_every_rate_and_length() {
        for rate in [CodeRate::Half, CodeRate::TwoThirds, CodeRate::ThreeQuarters] {
            let pattern = puncture_pattern(rate);
            for n in 0..40usize {
                // Distinct non-erasure values 0..n (mod 128) as "soft bits".
                let mother: Vec<u8> = (0..n).map(|i| (i % 100) as u8).collect();
                let mut sent = Vec::new();
                puncture(&mother, rate, &mut sent);
                let mut back = Vec::new();
                depuncture(rate, &sent, &mut back);
                // The stream is restored up to the end of the last
                // period a sent bit is in; beyond `n` only erasures.
                assert_eq!(back.len(), mother_len(rate, sent.len()));
                assert!(back.len() + pattern.len() > n && back.len() < n + pattern.len());
                for (i, &b) in back.iter().enumerate() {
                    let want = if i < n && pattern[i % pattern.len()] == 1 {
                        mother[i]
                    } else {
                        ERASED
                    };
                    assert_eq!(b, want, "{rate:?}, n {n}, bit {i}");
                }
            }
        }
    }

    /// The positions are where `depuncture` puts each sent bit.
    #[test]
    fn positions_agree_with_depuncture() {
        for rate in [CodeRate::Half, CodeRate::TwoThirds, CodeRate::ThreeQuarters] {
            let sent: Vec<u8> = (0..96).map(|i| i as u8).collect();
            let mut back = Vec::new();
            depuncture(rate, &sent, &mut back);
            for (k, pos) in mother_positions(rate, sent.len()).enumerate() {
                assert_eq!(back[pos], sent[k], "{rate:?} bit {k}");
            }
            assert_eq!(mother_positions(rate, 96).count(), 96);
        }
    }

    /// The figure's numbers: 3/4 sends 4 of every 6, 2/3 3 of every 4.
    #[test]
    fn figure_17_9_ratios() {
        assert_eq!(mother_len(CodeRate::ThreeQuarters, 288), 432);
        assert_eq!(mother_len(CodeRate::TwoThirds, 288), 384);
        assert_eq!(mother_len(CodeRate::Half, 48), 48);
    }
}
