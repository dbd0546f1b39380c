//! [`DfCount`]: a sink beside rfgraph's decoder on the demodulator's
//! output, counting the frames by downlink format (every frame there
//! passed its CRC or address/parity check), and [`DfCounts`], the counts
//! every decoder's record reports, however they were gathered.

use rfgraph::{Block, BoxError, Ports, StreamInput, WorkIo};
use rfgraph_radio::modes::RawFrame;

/// Frames by downlink format (0 to 31).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DfCounts(pub [u64; 32]);

impl DfCounts {
    /// Counts one frame whose first byte is `first`.
    pub fn add_first_byte(&mut self, first: u8) {
        self.0[usize::from(first >> 3)] += 1;
    }

    /// Every frame.
    pub fn total(&self) -> u64 {
        self.0.iter().fold(0u64, |a, &n| a.saturating_add(n))
    }

    /// DF17 frames (ADS-B extended squitter).
    pub fn df17(&self) -> u64 {
        self.0[17]
    }

    /// Counts the lines of dump1090's `--raw` output (`*HEX;`, or
    /// `@` + 12 digits of time + `HEX;` in its MLAT form) by the DF of
    /// their first byte; other lines are skipped.
    pub fn of_raw_lines(text: &str) -> Self {
        let mut c = Self::default();
        for line in text.lines().map(str::trim) {
            let hex = line
                .strip_prefix('*')
                .or_else(|| line.strip_prefix('@').and_then(|l| l.get(12..)))
                .and_then(|l| l.strip_suffix(';'));
            let first = hex
                .filter(|h| h.len() == 14 || h.len() == 28)
                .and_then(|h| h.get(..2))
                .and_then(|b| u8::from_str_radix(b, 16).ok());
            if let Some(b) = first {
                c.add_first_byte(b);
            }
        }
        c
    }
}

/// Counts the [`RawFrame`]s on its input by downlink format.
pub struct DfCount {
    input: StreamInput<RawFrame>,
    counts: DfCounts,
}

impl DfCount {
    /// A sink with nothing counted.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new("in"),
            counts: DfCounts::default(),
        }
    }

    /// The counts so far.
    pub fn counts(&self) -> DfCounts {
        self.counts
    }
}

impl Default for DfCount {
    fn default() -> Self {
        Self::new()
    }
}

impl Block for DfCount {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let frames = self.input.slice();
        for f in frames {
            self.counts.add_first_byte(f.bytes[0]);
        }
        let n = frames.len();
        self.input.consume(n);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_lines_by_df() {
        let text = "*8f4d2023587f345e35837e2218b2;\n*5d4d20237a55af;\n\
                    @0123456789ab8f4d2023991098ae088814cdcc1d;\nnoise\n*zz;\n*8f4d;\n";
        let c = DfCounts::of_raw_lines(text);
        assert_eq!(c.df17(), 2);
        assert_eq!(c.0[11], 1);
        assert_eq!(c.total(), 3);
    }
}
