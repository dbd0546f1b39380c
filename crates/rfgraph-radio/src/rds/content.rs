//! What an RDS station says: [`RdsContent`] (PI, PS, RadioText, programme
//! type, flags, alternative frequencies), as the encoder takes it and the
//! decoder reports it, with the checks that make it encodable.

use super::charset::encode_char;

/// The four decoder-identification bits of type 0 groups (IEC 62106 /
/// EN 50067 §3.2.1.5): each group carries one, chosen by its segment
/// address (0: `dynamic_pty` (d3), 1: `compressed` (d2), 2:
/// `artificial_head` (d1), 3: `stereo` (d0)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecoderId {
    /// d0: stereo (not mono).
    pub stereo: bool,
    /// d1: recorded with an artificial head.
    pub artificial_head: bool,
    /// d2: compressed.
    pub compressed: bool,
    /// d3: the programme type changes with the programme (dynamic PTY).
    pub dynamic_pty: bool,
}

impl DecoderId {
    /// The bit a type 0 group with segment address `segment` (0..=3)
    /// carries.
    pub fn bit(&self, segment: usize) -> bool {
        match segment & 3 {
            0 => self.dynamic_pty,
            1 => self.compressed,
            2 => self.artificial_head,
            _ => self.stereo,
        }
    }

    /// Sets the bit of segment `segment` (0..=3).
    pub fn set_bit(&mut self, segment: usize, value: bool) {
        match segment & 3 {
            0 => self.dynamic_pty = value,
            1 => self.compressed = value,
            2 => self.artificial_head = value,
            _ => self.stereo = value,
        }
    }
}

/// A group type's version: A (block 3 carries data) or B (block 3
/// repeats the PI, offset C').
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Version {
    /// Version A.
    #[default]
    A,
    /// Version B.
    B,
}

/// Why an [`RdsContent`] cannot be encoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RdsContentError {
    /// A text is longer than its field.
    #[error("{field} has {len} characters; at most {max} fit")]
    TooLong {
        /// `ps` or `radiotext`.
        field: &'static str,
        /// Its length in characters.
        len: usize,
        /// The most the field holds.
        max: usize,
    },
    /// A text holds a character the RDS basic table lacks.
    #[error("{field} character {index} ({ch:?}) is not in the RDS character table")]
    Character {
        /// `ps` or `radiotext`.
        field: &'static str,
        /// Its position (in characters).
        index: usize,
        /// The character.
        ch: char,
    },
    /// The programme type is not 0..=31.
    #[error("pty {0} is not a programme type (0..=31)")]
    Pty(u8),
    /// An alternative frequency is not on the 100 kHz raster of 87.6 to
    /// 107.9 MHz, or there are more than 25.
    #[error("alternative frequency {0} MHz is not 87.6..=107.9 MHz on the 0.1 MHz raster")]
    Af(f64),
    /// More than 25 alternative frequencies.
    #[error("{0} alternative frequencies; at most 25 fit")]
    TooManyAfs(usize),
}

/// The data an RDS encoder sends (and that a decoder recovers): the
/// programme identification, the 8-character programme service name,
/// RadioText, the programme type, and the flags.
///
/// Texts use the RDS basic character table (`rds::charset`): printable
/// ASCII except `$ ^ \` ~`.
#[derive(Clone, Debug, PartialEq)]
pub struct RdsContent {
    /// Programme identification.
    pub pi: u16,
    /// Programme service name, up to 8 characters (padded with spaces).
    pub ps: String,
    /// RadioText, up to 64 characters in 2A groups or 32 in 2B (a
    /// shorter text is ended by a carriage return); empty sends no type
    /// 2 groups.
    pub radiotext: String,
    /// Programme type, 0..=31 (10: pop music in RDS).
    pub pty: u8,
    /// Traffic programme.
    pub tp: bool,
    /// Traffic announcement in progress.
    pub ta: bool,
    /// Music (true) or speech.
    pub music: bool,
    /// Decoder identification.
    pub di: DecoderId,
    /// 0A (with alternative frequencies) or 0B groups for the PS.
    pub ps_version: Version,
    /// 2A (64 characters) or 2B (32) groups for the RadioText.
    pub rt_version: Version,
    /// The RadioText A/B flag (a decoder clears its text when it flips).
    pub rt_ab: bool,
    /// Alternative frequencies in MHz (0A groups only, method A).
    pub af: Vec<f64>,
}

impl Default for RdsContent {
    /// PI 0x1234, PS `RFGRAPH`, RadioText `rfgraph test transmission`,
    /// PTY 10, music, stereo, 0A and 2A groups.
    fn default() -> Self {
        Self {
            pi: 0x1234,
            ps: "RFGRAPH".into(),
            radiotext: "rfgraph test transmission".into(),
            pty: 10,
            tp: false,
            ta: false,
            music: true,
            di: DecoderId {
                stereo: true,
                ..DecoderId::default()
            },
            ps_version: Version::A,
            rt_version: Version::A,
            rt_ab: false,
            af: Vec::new(),
        }
    }
}

/// The RDS codes of `text`, or the first character that has none.
fn codes(field: &'static str, text: &str, max: usize) -> Result<Vec<u8>, RdsContentError> {
    let len = text.chars().count();
    if len > max {
        return Err(RdsContentError::TooLong { field, len, max });
    }
    text.chars()
        .enumerate()
        .map(|(index, ch)| encode_char(ch).ok_or(RdsContentError::Character { field, index, ch }))
        .collect()
}

impl RdsContent {
    /// The most RadioText characters the chosen group version carries.
    pub fn radiotext_capacity(&self) -> usize {
        match self.rt_version {
            Version::A => 64,
            Version::B => 32,
        }
    }

    /// Checks that every field is encodable.
    ///
    /// Errors: the first problem found.
    pub fn validate(&self) -> Result<(), RdsContentError> {
        self.ps_codes()?;
        self.radiotext_codes()?;
        if self.pty > 31 {
            return Err(RdsContentError::Pty(self.pty));
        }
        self.af_codes()?;
        Ok(())
    }

    /// The PS as 8 RDS codes, padded with spaces.
    pub fn ps_codes(&self) -> Result<[u8; 8], RdsContentError> {
        let c = codes("ps", &self.ps, 8)?;
        let mut out = [b' '; 8];
        out[..c.len()].copy_from_slice(&c);
        Ok(out)
    }

    /// The RadioText as sent: its codes, then a carriage return when it is
    /// shorter than the capacity, padded with spaces to whole segments (4
    /// characters in 2A, 2 in 2B). Empty for an empty text.
    pub fn radiotext_codes(&self) -> Result<Vec<u8>, RdsContentError> {
        let max = self.radiotext_capacity();
        let mut c = codes("radiotext", &self.radiotext, max)?;
        if c.is_empty() {
            return Ok(c);
        }
        if c.len() < max {
            c.push(super::charset::CARRIAGE_RETURN);
        }
        let seg = max / 16;
        while !c.len().is_multiple_of(seg) {
            c.push(b' ');
        }
        Ok(c)
    }

    /// The alternative frequencies as AF codes (1..=204).
    pub fn af_codes(&self) -> Result<Vec<u8>, RdsContentError> {
        if self.af.len() > 25 {
            return Err(RdsContentError::TooManyAfs(self.af.len()));
        }
        self.af
            .iter()
            .map(|&mhz| {
                let code = ((mhz - 87.5) * 10.0).round();
                if mhz.is_finite()
                    && (1.0..=204.0).contains(&code)
                    && ((mhz - 87.5) * 10.0 - code).abs() < 1e-6
                {
                    Ok(code as u8)
                } else {
                    Err(RdsContentError::Af(mhz))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_checked_and_padded() {
        let mut c = RdsContent::default();
        assert_eq!(&c.ps_codes().unwrap(), b"RFGRAPH ");
        c.radiotext = "abc".into();
        assert_eq!(c.radiotext_codes().unwrap(), b"abc\r".to_vec());
        c.rt_version = Version::B;
        assert_eq!(c.radiotext_codes().unwrap(), b"abc\r".to_vec());
        c.radiotext = "abcd".into();
        assert_eq!(c.radiotext_codes().unwrap(), b"abcd\r ".to_vec());
        c.radiotext = "x".repeat(32);
        assert_eq!(c.radiotext_codes().unwrap().len(), 32);
        c.radiotext = "x".repeat(33);
        assert!(matches!(c.validate(), Err(RdsContentError::TooLong { .. })));
        c.radiotext.clear();
        c.ps = "COST $5".into();
        assert_eq!(
            c.validate(),
            Err(RdsContentError::Character {
                field: "ps",
                index: 5,
                ch: '$'
            })
        );
        c.ps = "NINE CHRS".into();
        assert!(c.validate().is_err());
        c.ps = "OK".into();
        c.af = vec![87.6, 107.9, 100.0];
        assert_eq!(c.af_codes().unwrap(), vec![1, 204, 125]);
        c.af = vec![100.05];
        assert!(c.validate().is_err());
        c.af.clear();
        c.pty = 32;
        assert_eq!(c.validate(), Err(RdsContentError::Pty(32)));
    }
}
