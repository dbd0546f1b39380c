//! [`RdsDemod`]: the RDS demodulator as a block, from the FM multiplex to
//! soft bits.

use super::RdsError;
use super::demod::{MAX_MPX_RATE, MIN_MPX_RATE, RdsDemodulator};
use super::pulse::BIT_RATE;
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Ports, StreamInput, StreamOutput, TagPolicy, WorkIo,
};
use std::collections::VecDeque;

/// The parameters of [`RdsDemod`] (`rds_demod`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct RdsDemodParams {
    /// sample rate of the multiplex, 128 kHz to 10 MHz (the 57 kHz
    /// subcarrier must fit)
    #[param(default = 240_000.0, unit = "Hz", min = MIN_MPX_RATE, max = MAX_MPX_RATE)]
    pub mpx_rate: f64,
}

/// Input samples handled per call at most.
const MAX_INPUT: usize = 1 << 16;

/// Demodulates RDS from an FM multiplex: 57 kHz mix-down, low-pass and
/// decimation, resampling to 16 samples per bit, the biphase matched
/// filter, bit timing and carrier recovery (see `rds::demod` and
/// `rds::symbol_sync`).
///
/// # Stream Inputs
/// - `in`: `f32`, the FM demodulator's multiplex at `mpx_rate` (any scale;
///   128 kHz to 10 MHz).
///
/// # Stream Outputs
/// - `out`: `f32`, one soft value per RDS bit (1187.5 per second): the
///   sign is the differentially encoded bit (or its inverse), about ±1
///   when clean. Feed it to [`RdsDecoder`](super::RdsDecoder).
///
/// Tags are not passed on (the rates differ by two orders of magnitude).
///
/// # Parameters
/// [`RdsDemodParams`]: the input's sample rate.
///
/// # Usage
/// ```
/// use rfgraph_radio::rds::RdsDemod;
/// let demod = RdsDemod::new(240e3).unwrap();
/// # let _ = demod;
/// assert!(RdsDemod::new(48e3).is_err());
/// ```
pub struct RdsDemod {
    input: StreamInput<f32>,
    output: StreamOutput<f32>,
    params: RdsDemodParams,
    demod: RdsDemodulator,
    /// Bits made but not yet written (normally none: input is taken only
    /// as far as the output has room for its bits).
    pending: VecDeque<f32>,
    scratch: Vec<f32>,
}

impl RdsDemod {
    /// A demodulator for a multiplex at `mpx_rate` Hz.
    ///
    /// Errors: [`RdsError::Param`] outside 128 kHz to 10 MHz.
    pub fn new(mpx_rate: f64) -> Result<Self, RdsError> {
        Ok(Self::from_params(RdsDemodParams { mpx_rate })?)
    }

    /// The demodulator `params` describe.
    ///
    /// Errors: a parameter outside its declaration.
    pub fn from_params(params: RdsDemodParams) -> Result<Self, ParamError> {
        params.validate()?;
        let demod = RdsDemodulator::new(params.mpx_rate)
            .map_err(|e| ParamError::new("rds_demod", "mpx_rate", e.to_string()))?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            params,
            demod,
            pending: VecDeque::new(),
            scratch: Vec::new(),
        })
    }

    /// Input samples whose bits surely fit in `room` outputs: strobes are
    /// at least 14 of the 16 samples per bit apart.
    fn input_for(rate: f64, room: usize) -> usize {
        let per_bit = rate / BIT_RATE * 14.0 / 16.0;
        (room.saturating_sub(2) as f64 * per_bit) as usize
    }
}

impl Block for RdsDemod {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn rfgraph::params::ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        let rate = self.demod.rate();
        let out = self.output.slice();
        let mut written = 0;
        while written < out.len() {
            let Some(v) = self.pending.pop_front() else {
                break;
            };
            out[written] = v;
            written += 1;
        }
        if self.pending.is_empty() {
            let room = out.len() - written;
            let input = self.input.slice();
            let n = input.len().min(MAX_INPUT).min(Self::input_for(rate, room));
            if n > 0 {
                self.scratch.clear();
                self.demod.process(&input[..n], &mut self.scratch);
                for &v in &self.scratch {
                    if written < out.len() {
                        out[written] = v;
                        written += 1;
                    } else {
                        self.pending.push_back(v);
                    }
                }
                self.input.consume(n);
            }
        }
        self.output.produce(written);
        Ok(())
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }
}

/// The registry entry: `rds_demod`.
pub(crate) fn spec() -> rfgraph::registry::BlockSpec {
    use rfgraph::registry::{BlockSpec, ItemKind, PortItem, PortSpec};
    BlockSpec::of::<RdsDemodParams>(
        "rds_demod",
        "Receivers",
        "RDS demodulator: FM multiplex in, soft RDS bits out.",
        |p| Ok(Box::new(RdsDemod::from_params(p)?) as Box<dyn rfgraph::Block>),
    )
    .doc(
        "Takes the 57 kHz RDS subcarrier of an FM multiplex (the quadrature demodulator's \
         output, at least 128 kS/s), demodulates its biphase symbols and writes one soft \
         bit per RDS bit (1187.5 bit/s): the sign is the bit, the size its confidence. \
         Feed `rds_decoder` with it.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::F32)).doc("FM multiplex"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::F32)).doc("soft bits"))
}
