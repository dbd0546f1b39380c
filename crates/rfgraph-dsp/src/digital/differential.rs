//! Differential coding modulo `M`: [`DiffEncoder`] (`out = (in + last_out)
//! mod M`) and [`DiffDecoder`] (`out = (in − last_in) mod M`), GNU Radio's
//! `diff_encoder_bb` / `diff_decoder_bb`, and their NRZI mode (bits: a 0
//! toggles the line, a 1 keeps it).

use crate::error::DspError;

/// What an encoder and a decoder both keep: the alphabet size, the mode
/// and the last symbol (the encoder's last output, the decoder's last
/// input), which starts at 0.
#[derive(Clone, Debug)]
struct Coding {
    modulus: u32,
    nrzi: bool,
    last: u32,
}

impl Coding {
    /// Modulo `modulus`. Errors: `modulus` not in 2..=256.
    fn modulo(modulus: u32) -> Result<Self, DspError> {
        if !(2..=256).contains(&modulus) {
            return Err(DspError::OutOfRange {
                name: "modulus",
                value: modulus as f64,
                expected: "must be between 2 and 256",
            });
        }
        Ok(Self {
            modulus,
            nrzi: false,
            last: 0,
        })
    }

    /// NRZI over bit 0 of each symbol.
    fn nrzi() -> Self {
        Self {
            modulus: 2,
            nrzi: true,
            last: 0,
        }
    }
}

/// Differential encoder over symbols `0..modulus`, or NRZI over bits.
#[derive(Clone, Debug)]
pub struct DiffEncoder(Coding);

impl DiffEncoder {
    /// An encoder starting from symbol 0. Errors: `modulus` not in 2..=256.
    pub fn new(modulus: u32) -> Result<Self, DspError> {
        Coding::modulo(modulus).map(Self)
    }

    /// An NRZI encoder: bit 0 of each input, 0 toggles the output, 1
    /// keeps it (GNU Radio's `DIFF_NRZI`); the line starts at 0.
    pub fn nrzi() -> Self {
        Self(Coding::nrzi())
    }

    /// Encodes one symbol.
    #[inline]
    pub fn step(&mut self, x: u8) -> u8 {
        let c = &mut self.0;
        c.last = if c.nrzi {
            c.last ^ (!x as u32 & 1)
        } else {
            (x as u32 + c.last) % c.modulus
        };
        c.last as u8
    }
}

/// Differential decoder over symbols `0..modulus`, or NRZI over bits.
#[derive(Clone, Debug)]
pub struct DiffDecoder(Coding);

impl DiffDecoder {
    /// A decoder whose previous symbol is 0. Errors: `modulus` not in 2..=256.
    pub fn new(modulus: u32) -> Result<Self, DspError> {
        Coding::modulo(modulus).map(Self)
    }

    /// An NRZI decoder: 1 where bit 0 of the input kept its value, 0
    /// where it toggled (GNU Radio's `DIFF_NRZI`); the line starts at 0.
    pub fn nrzi() -> Self {
        Self(Coding::nrzi())
    }

    /// Decodes one symbol.
    #[inline]
    pub fn step(&mut self, x: u8) -> u8 {
        let c = &mut self.0;
        if c.nrzi {
            let out = !(x as u32 ^ c.last) & 1;
            c.last = x as u32 & 1;
            return out as u8;
        }
        let m = c.modulus;
        let out = ((x as u32 % m) + m - c.last % m) % m;
        c.last = x as u32;
        out as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_undoes_encoding() {
        let mut e = DiffEncoder::new(4).unwrap();
        let mut d = DiffDecoder::new(4).unwrap();
        let data = [0u8, 3, 1, 2, 2, 0, 1];
        let coded: Vec<u8> = data.iter().map(|&x| e.step(x)).collect();
        assert_eq!(coded, [0, 3, 0, 2, 0, 0, 1]);
        let back: Vec<u8> = coded.iter().map(|&x| d.step(x)).collect();
        assert_eq!(back, data);
        assert!(DiffEncoder::new(1).is_err());
        // GNU Radio 3.10's DIFF_NRZI on the same bits.
        let bits = [0u8, 1, 1, 0, 0, 0, 1, 0, 1, 1];
        let mut e = DiffEncoder::nrzi();
        let line: Vec<u8> = bits.iter().map(|&x| e.step(x)).collect();
        assert_eq!(line, [1, 1, 1, 0, 1, 0, 0, 1, 1, 1]);
        let mut d = DiffDecoder::nrzi();
        let back: Vec<u8> = bits.iter().map(|&x| d.step(x)).collect();
        assert_eq!(back, [1, 0, 1, 0, 1, 1, 0, 0, 0, 1]);
    }
}
