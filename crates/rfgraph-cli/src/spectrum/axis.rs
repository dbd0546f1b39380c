//! Frequency axes in Hz, kHz, MHz or GHz, and the colour map of the
//! waterfall: the pure parts of the picture, tested here.
//!
//! This module owns the choice of unit and decimals for tick labels and
//! the dB → colour mapping; it never draws.

/// How frequencies on an axis are written: a unit and a number of
/// decimals chosen from the axis's span.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HzAxis {
    /// Hz per unit (1, 1e3, 1e6, 1e9).
    pub div: f64,
    /// `Hz`, `kHz`, `MHz`, `GHz`.
    pub unit: &'static str,
    /// Decimals in tick labels.
    pub decimals: usize,
}

impl HzAxis {
    /// The axis for `lo..hi` Hz with about `ticks` labels: the largest unit
    /// in which the span is at least 0.5 (a 2.4 MHz span around 1090 MHz
    /// reads in MHz, not GHz), and enough decimals to tell ticks apart.
    pub fn new(lo: f64, hi: f64, ticks: usize) -> Self {
        let span = (hi - lo).abs().max(f64::MIN_POSITIVE);
        let (div, unit) = [(1e9, "GHz"), (1e6, "MHz"), (1e3, "kHz")]
            .into_iter()
            .find(|(div, _)| span / div >= 0.5)
            .unwrap_or((1.0, "Hz"));
        let step = span / div / ticks.max(1) as f64;
        let decimals = (-step.log10()).ceil().clamp(0.0, 9.0) as usize;
        Self {
            div,
            unit,
            decimals,
        }
    }

    /// A tick label: `hz` in the axis's unit, without the unit.
    pub fn label(&self, hz: f64) -> String {
        format!("{:.*}", self.decimals, hz / self.div)
    }

    /// The axis description: `Frequency (MHz)`.
    pub fn description(&self) -> String {
        format!("Frequency ({})", self.unit)
    }
}

/// Viridis at eleven points, dark blue to yellow: perceptually even, its
/// brightness rising with the value.
const VIRIDIS: [(u8, u8, u8); 11] = [
    (68, 1, 84),
    (72, 36, 117),
    (65, 68, 135),
    (53, 95, 141),
    (42, 120, 142),
    (33, 145, 140),
    (34, 168, 132),
    (68, 191, 112),
    (122, 209, 81),
    (189, 223, 38),
    (253, 231, 37),
];

/// The colour of `db` on a scale from `lo` (dark) to `hi` (bright),
/// clamped at both ends.
pub fn colour(db: f32, lo: f32, hi: f32) -> (u8, u8, u8) {
    let t = if hi > lo { (db - lo) / (hi - lo) } else { 1.0 };
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f32;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f32;
    let mix = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * f).round() as u8;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Relative brightness of a colour (Rec. 709 luma).
#[cfg(test)]
pub fn luma((r, g, b): (u8, u8, u8)) -> f32 {
    0.2126 * r as f32 + 0.7152 * g as f32 + 0.0722 * b as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_follow_the_span() {
        let a = HzAxis::new(1088.8e6, 1091.2e6, 8);
        assert_eq!((a.unit, a.decimals), ("MHz", 1));
        assert_eq!(a.label(1090e6), "1090.0");
        assert_eq!(a.description(), "Frequency (MHz)");
        let a = HzAxis::new(-12e3, 12e3, 8);
        assert_eq!((a.unit, a.label(-3000.0)), ("kHz", "-3".into()));
        assert_eq!(HzAxis::new(-50.0, 50.0, 8).unit, "Hz");
        assert_eq!(HzAxis::new(99.55e6, 100.45e6, 8).unit, "MHz");
        assert_eq!(HzAxis::new(-125e3, 125e3, 8).unit, "kHz");
        let a = HzAxis::new(2.0e9, 2.5e9, 5);
        assert_eq!((a.unit, a.label(2.4e9)), ("GHz", "2.4".into()));
        // A narrow span around a high frequency keeps enough decimals.
        let a = HzAxis::new(100e6 - 500.0, 100e6 + 500.0, 8);
        assert_eq!(a.unit, "kHz");
        assert_ne!(a.label(100e6), a.label(100e6 + 125.0));
    }

    #[test]
    fn brighter_means_stronger() {
        let mut last = -1.0;
        for i in 0..=100 {
            let l = luma(colour(i as f32, 0.0, 100.0));
            assert!(l > last, "luma falls at {i}");
            last = l;
        }
        assert_eq!(colour(-50.0, 0.0, 100.0), VIRIDIS[0]);
        assert_eq!(colour(500.0, 0.0, 100.0), VIRIDIS[10]);
        assert_eq!(colour(f32::NAN, 0.0, 100.0), VIRIDIS[0]);
        assert_eq!(colour(3.0, 5.0, 5.0), VIRIDIS[10]);
    }
}
