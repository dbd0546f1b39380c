//! The eight IEEE 802.11a/g OFDM rates (IEEE 802.11-2016 Table 17-4):
//! modulation, coding rate and the bits per symbol that follow, and the
//! SIGNAL field's RATE bits.

use std::fmt;

/// A subcarrier modulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modulation {
    Bpsk,
    Qpsk,
    Qam16,
    Qam64,
}

impl Modulation {
    /// Coded bits per subcarrier (N_BPSC).
    pub const fn bits(self) -> usize {
        match self {
            Modulation::Bpsk => 1,
            Modulation::Qpsk => 2,
            Modulation::Qam16 => 4,
            Modulation::Qam64 => 6,
        }
    }
}

/// A convolutional coding rate (the K = 7 mother code punctured).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeRate {
    Half,
    TwoThirds,
    ThreeQuarters,
}

/// One of the eight OFDM rates, in gr-ieee802-11's `Encoding` order
/// (0 = BPSK 1/2 … 7 = 64-QAM 3/4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rate {
    Bpsk12,
    Bpsk34,
    Qpsk12,
    Qpsk34,
    Qam16_12,
    Qam16_34,
    Qam64_23,
    Qam64_34,
}

/// Data subcarriers per OFDM symbol (N_SD).
pub const DATA_CARRIERS: usize = 48;

impl Rate {
    /// All rates, slowest first.
    pub const ALL: [Rate; 8] = [
        Rate::Bpsk12,
        Rate::Bpsk34,
        Rate::Qpsk12,
        Rate::Qpsk34,
        Rate::Qam16_12,
        Rate::Qam16_34,
        Rate::Qam64_23,
        Rate::Qam64_34,
    ];

    /// gr-ieee802-11's encoding number (0…7).
    pub fn encoding(self) -> usize {
        Self::ALL.iter().position(|&r| r == self).expect("listed")
    }

    /// The rate of gr-ieee802-11's encoding number.
    pub fn from_encoding(n: usize) -> Option<Rate> {
        Self::ALL.get(n).copied()
    }

    /// The subcarrier modulation.
    pub const fn modulation(self) -> Modulation {
        match self {
            Rate::Bpsk12 | Rate::Bpsk34 => Modulation::Bpsk,
            Rate::Qpsk12 | Rate::Qpsk34 => Modulation::Qpsk,
            Rate::Qam16_12 | Rate::Qam16_34 => Modulation::Qam16,
            Rate::Qam64_23 | Rate::Qam64_34 => Modulation::Qam64,
        }
    }

    /// The coding rate.
    pub const fn code_rate(self) -> CodeRate {
        match self {
            Rate::Bpsk12 | Rate::Qpsk12 | Rate::Qam16_12 => CodeRate::Half,
            Rate::Qam64_23 => CodeRate::TwoThirds,
            Rate::Bpsk34 | Rate::Qpsk34 | Rate::Qam16_34 | Rate::Qam64_34 => {
                CodeRate::ThreeQuarters
            }
        }
    }

    /// Coded bits per subcarrier (N_BPSC).
    pub const fn bits_per_carrier(self) -> usize {
        self.modulation().bits()
    }

    /// Coded bits per OFDM symbol (N_CBPS).
    pub const fn coded_bits_per_symbol(self) -> usize {
        DATA_CARRIERS * self.bits_per_carrier()
    }

    /// Data bits per OFDM symbol (N_DBPS).
    pub const fn data_bits_per_symbol(self) -> usize {
        let cbps = self.coded_bits_per_symbol();
        match self.code_rate() {
            CodeRate::Half => cbps / 2,
            CodeRate::TwoThirds => cbps * 2 / 3,
            CodeRate::ThreeQuarters => cbps * 3 / 4,
        }
    }

    /// The data rate in Mb/s at 20 MHz channel spacing.
    pub const fn mbps(self) -> f32 {
        // 250,000 symbols a second.
        self.data_bits_per_symbol() as f32 / 4.0
    }

    /// The SIGNAL field's RATE bits R1…R4, R1 in bit 0 (sent first).
    pub const fn signal_bits(self) -> u8 {
        // Table 17-6, written R1 R2 R3 R4.
        let r1_to_r4: [u8; 4] = match self {
            Rate::Bpsk12 => [1, 1, 0, 1],
            Rate::Bpsk34 => [1, 1, 1, 1],
            Rate::Qpsk12 => [0, 1, 0, 1],
            Rate::Qpsk34 => [0, 1, 1, 1],
            Rate::Qam16_12 => [1, 0, 0, 1],
            Rate::Qam16_34 => [1, 0, 1, 1],
            Rate::Qam64_23 => [0, 0, 0, 1],
            Rate::Qam64_34 => [0, 0, 1, 1],
        };
        r1_to_r4[0] | (r1_to_r4[1] << 1) | (r1_to_r4[2] << 2) | (r1_to_r4[3] << 3)
    }

    /// The rate of SIGNAL RATE bits (R1 in bit 0); `None` for the eight
    /// patterns the standard leaves unused.
    pub fn from_signal_bits(bits: u8) -> Option<Rate> {
        Self::ALL
            .iter()
            .copied()
            .find(|r| r.signal_bits() == bits & 0x0f)
    }

    /// OFDM data symbols for a PSDU of `bytes`: SERVICE (16 bits), the
    /// PSDU and the 6 tail bits, padded to whole symbols.
    pub const fn data_symbols(self, bytes: usize) -> usize {
        (16 + 8 * bytes + 6).div_ceil(self.data_bits_per_symbol())
    }

    /// The encoding's name as gr-ieee802-11 and `--json` give it
    /// (`"BPSK 1/2"` … `"64-QAM 3/4"`).
    pub const fn name(self) -> &'static str {
        match self {
            Rate::Bpsk12 => "BPSK 1/2",
            Rate::Bpsk34 => "BPSK 3/4",
            Rate::Qpsk12 => "QPSK 1/2",
            Rate::Qpsk34 => "QPSK 3/4",
            Rate::Qam16_12 => "16-QAM 1/2",
            Rate::Qam16_34 => "16-QAM 3/4",
            Rate::Qam64_23 => "64-QAM 2/3",
            Rate::Qam64_34 => "64-QAM 3/4",
        }
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} Mb/s ({})", self.mbps(), self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_17_4_bits_per_symbol() {
        let dbps: Vec<usize> = Rate::ALL.iter().map(|r| r.data_bits_per_symbol()).collect();
        assert_eq!(dbps, [24, 36, 48, 72, 96, 144, 192, 216]);
        let mbps: Vec<f32> = Rate::ALL.iter().map(|r| r.mbps()).collect();
        assert_eq!(mbps, [6.0, 9.0, 12.0, 18.0, 24.0, 36.0, 48.0, 54.0]);
    }

    #[test]
    fn signal_bits_round_trip_and_unused_patterns_refused() {
        for r in Rate::ALL {
            assert_eq!(Rate::from_signal_bits(r.signal_bits()), Some(r));
            assert_eq!(Rate::from_encoding(r.encoding()), Some(r));
        }
        let used: Vec<u8> = Rate::ALL.iter().map(|r| r.signal_bits()).collect();
        // R4 is 1 for every rate.
        assert!(used.iter().all(|b| b & 0b1000 != 0));
        assert_eq!(Rate::from_signal_bits(0b0000), None);
    }

    #[test]
    fn annex_i_message_takes_six_symbols_at_36_mbps() {
        // Annex I: 100-byte PSDU at 36 Mb/s: (16 + 800 + 6) / 144 → 6.
        assert_eq!(Rate::Qam16_34.data_symbols(100), 6);
    }
}
