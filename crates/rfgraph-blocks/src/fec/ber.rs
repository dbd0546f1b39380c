//! `ber`: GNU Radio's `fec.ber_bf`, [`Ber`] counting the bits that
//! differ between two byte streams, with its parameters and registry
//! entry.

use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, WorkIo};

/// The parameters of `ber` (GNU Radio's `fec_ber_bf`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct BerParams {
    /// run until `berminerrors` errors (or the BER falls below
    /// `ber_limit`), write one value and finish; otherwise write the BER
    /// so far after every chunk of input
    #[param(default = false)]
    pub test_mode: bool,
    /// errors to count before a test ends
    #[param(default = 100, min = 0, max = i64::MAX)]
    pub berminerrors: i64,
    /// log10 of the BER below which a test ends early
    #[param(default = -7.0, alias = "berlimit")]
    pub ber_limit: f32,
}

/// Compares two streams of bytes bit by bit (all eight bits of each
/// byte) and writes `log10(errors / bits)` of everything compared so far,
/// as GNU Radio's `ber_bf`: one value per call in streaming mode (so the
/// count of values depends on how the input arrives; the last one is the
/// BER of the whole streams); in test mode one value once `berminerrors`
/// errors were seen (or `ber_limit` itself once the BER falls below it
/// with at least one error), then the block finishes.
///
/// # Parameters
/// [`BerParams`].
///
/// # Stream Inputs
/// - `in0`, `in1`: `u8`, the streams to compare.
///
/// # Stream Outputs
/// - `out`: `f32`, log10 of the bit error rate (−∞ without errors).
///
/// # Usage
/// ```
/// use rfgraph_blocks::fec::{Ber, BerParams};
/// let ber = Ber::new(BerParams::default())?;
/// # let _ = ber;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct Ber {
    in0: StreamInput<u8>,
    in1: StreamInput<u8>,
    output: StreamOutput<f32>,
    params: BerParams,
    errors: i64,
    total: i64,
}

impl Ber {
    /// A comparison as `params` describe it.
    pub fn new(params: BerParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            in0: StreamInput::new("in0"),
            in1: StreamInput::new("in1"),
            output: StreamOutput::new("out"),
            params,
            errors: 0,
            total: 0,
        })
    }

    fn log_ber(&self) -> f32 {
        (self.errors as f64 / (self.total as f64 * 8.0)).log10() as f32
    }
}

impl Block for Ber {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .input(&mut self.in0)
            .input(&mut self.in1)
            .output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        if self.params.test_mode && self.errors >= self.params.berminerrors {
            io.finish();
            return Ok(());
        }
        if self.output.slice().is_empty() {
            return Ok(());
        }
        let a = self.in0.slice();
        let b = self.in1.slice();
        let n = a.len().min(b.len());
        if n > 0 {
            let errors: u64 = a[..n]
                .iter()
                .zip(&b[..n])
                .map(|(x, y)| (x ^ y).count_ones() as u64)
                .sum();
            self.errors = self.errors.saturating_add(errors as i64);
            self.total = self.total.saturating_add(n as i64);
        }
        self.in0.consume(n);
        self.in1.consume(n);
        let value = if !self.params.test_mode {
            (n > 0).then(|| self.log_ber())
        } else if self.errors >= self.params.berminerrors {
            Some(self.log_ber())
        } else if self.log_ber() < self.params.ber_limit && self.errors > 0 {
            self.errors = self.params.berminerrors.saturating_add(1);
            Some(self.params.ber_limit)
        } else {
            None
        };
        if let Some(v) = value {
            self.output.slice()[0] = v;
            self.output.produce(1);
            if self.params.test_mode {
                io.finish();
            }
        }
        Ok(())
    }
}

/// `ber`: GNU Radio's `fec_ber_bf`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<BerParams>(
        "ber",
        "Error Coding",
        "Bit error rate between two byte streams, as log10.",
        |p| Ok(Box::new(Ber::new(p)?)),
    )
    .doc("GNU Radio's `fec.ber_bf`: counts the differing bits of `in0` and `in1` (all eight bits of each byte) and writes `log10(errors / (8·bytes))` of everything so far: one value per call in streaming mode (the last one covers both whole streams); with `test_mode` a single value once `berminerrors` errors were counted, or `ber_limit` once the BER is below it with at least one error, and then the block finishes.")
    .input(PortSpec::new("in0", PortItem::Fixed(ItemKind::U8)))
    .input(PortSpec::new("in1", PortItem::Fixed(ItemKind::U8)))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)))
}
