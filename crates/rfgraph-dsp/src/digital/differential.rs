//! Differential coding modulo `M`: [`DiffEncoder`] (`out = (in + last_out)
//! mod M`) and [`DiffDecoder`] (`out = (in − last_in) mod M`), GNU Radio's
//! `diff_encoder_bb` / `diff_decoder_bb` in their differential mode.

use crate::error::DspError;

fn check(modulus: u32) -> Result<u32, DspError> {
    if (2..=256).contains(&modulus) {
        Ok(modulus)
    } else {
        Err(DspError::OutOfRange {
            name: "modulus",
            value: modulus as f64,
            expected: "must be between 2 and 256",
        })
    }
}

/// Differential encoder over symbols `0..modulus`.
#[derive(Clone, Debug)]
pub struct DiffEncoder {
    modulus: u32,
    last: u32,
}

impl DiffEncoder {
    /// An encoder starting from symbol 0. Errors: `modulus` not in 2..=256.
    pub fn new(modulus: u32) -> Result<Self, DspError> {
        Ok(Self {
            modulus: check(modulus)?,
            last: 0,
        })
    }

    /// Encodes one symbol.
    #[inline]
    pub fn step(&mut self, x: u8) -> u8 {
        self.last = (x as u32 + self.last) % self.modulus;
        self.last as u8
    }
}

/// Differential decoder over symbols `0..modulus`.
#[derive(Clone, Debug)]
pub struct DiffDecoder {
    modulus: u32,
    last: u32,
}

impl DiffDecoder {
    /// A decoder whose previous symbol is 0. Errors: `modulus` not in 2..=256.
    pub fn new(modulus: u32) -> Result<Self, DspError> {
        Ok(Self {
            modulus: check(modulus)?,
            last: 0,
        })
    }

    /// Decodes one symbol.
    #[inline]
    pub fn step(&mut self, x: u8) -> u8 {
        let m = self.modulus;
        let out = ((x as u32 % m) + m - self.last % m) % m;
        self.last = x as u32;
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
    }
}
