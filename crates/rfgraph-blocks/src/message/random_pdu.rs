//! [`RandomPdu`]: PDUs of random bytes, one at the start and one per
//! message on `generate` (GNU Radio's `pdu_random_pdu`), with its
//! registry entry.

use super::pdu::pdu;
use crate::generate::rng::Xoshiro256PlusPlus;
use rfgraph::params::limits;
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports, WorkIo};

/// The parameters of [`RandomPdu`] (`random_pdu`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct RandomPduParams {
    /// shortest PDU, at most `max_items`
    #[param(default = 50, unit = "bytes", max = limits::MAX_ELEMENTS, alias = "minsize")]
    pub min_items: usize,
    /// longest PDU
    #[param(default = 2000, unit = "bytes", max = limits::MAX_ELEMENTS, alias = "maxsize")]
    pub max_items: usize,
    /// ANDed into every byte
    #[param(default = 0xff, max = 255)]
    pub mask: u8,
    /// lengths are multiples of it
    #[param(default = 1, min = 1, max = limits::MAX_ELEMENTS)]
    pub length_modulo: usize,
    /// of the generator
    #[param(default = 0)]
    pub seed: u64,
}

impl RandomPduParams {
    /// `min_items ≤ max_items`.
    fn check(&self) -> Result<(), ParamError> {
        if self.max_items < self.min_items {
            return Err(ParamError::new(
                "random_pdu",
                "max_items",
                format!(
                    "must be at least min_items ({} < {})",
                    self.max_items, self.min_items
                ),
            ));
        }
        Ok(())
    }
}

/// Posts a PDU of random bytes (each masked with `mask`) on `pdus` when
/// the run starts and for every message on `generate`. Lengths are
/// uniform in `min_items ..= max_items`, rounded down to a multiple of
/// `length_modulo` (and at least `length_modulo`), as GNU Radio does; the
/// bytes differ from GNU Radio's (another generator).
///
/// # Parameters
/// [`RandomPduParams`].
///
/// # Message Inputs
/// - `generate`: any message asks for one PDU.
///
/// # Message Outputs
/// - `pdus`: the PDUs.
///
/// # Usage
/// ```
/// use rfgraph_blocks::message::{RandomPdu, RandomPduParams};
/// let pdus = RandomPdu::new(RandomPduParams {
///     min_items: 10,
///     max_items: 20,
///     seed: 7,
///     ..Default::default()
/// })?;
/// # let _ = pdus;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct RandomPdu {
    output: MessageOutput,
    params: RandomPduParams,
    rng: Xoshiro256PlusPlus,
    started: bool,
}

impl RandomPdu {
    /// PDUs as `params` describe them.
    ///
    /// Errors: `max_items < min_items`, a `length_modulo` of 0, a length
    /// beyond [`limits::MAX_ELEMENTS`].
    pub fn new(params: RandomPduParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: MessageOutput::new("pdus"),
            rng: Xoshiro256PlusPlus::from_seed(params.seed),
            params,
            started: false,
        })
    }

    fn post(&mut self) {
        let p = &self.params;
        let (min, max, modulo, mask) = (p.min_items, p.max_items, p.length_modulo, p.mask);
        let span = (max - min) as u64 + 1;
        let len = min + (self.rng.next_u64() % span) as usize;
        let len = (len - len % modulo).max(modulo);
        let mut bytes = Vec::with_capacity(len);
        while bytes.len() < len {
            let word = self.rng.next_u64().to_le_bytes();
            let n = (len - bytes.len()).min(8);
            bytes.extend(word[..n].iter().map(|b| b & mask));
        }
        self.output.post(pdu(Default::default(), Pmt::Blob(bytes)));
    }
}

impl Block for RandomPdu {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("generate")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(
        &mut self,
        _port: &str,
        _msg: Pmt,
        _io: &mut WorkIo,
    ) -> Result<Pmt, BoxError> {
        self.post();
        Ok(Pmt::Null)
    }

    fn work(&mut self, _io: &mut WorkIo) -> Result<(), BoxError> {
        if !self.started {
            self.started = true;
            self.post();
        }
        Ok(())
    }
}

/// `random_pdu`: GNU Radio's `pdu_random_pdu`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<RandomPduParams>(
        "random_pdu",
        "Packet Operators",
        "PDUs of random bytes, one at the start and one per `generate` message.",
        |p| Ok(Box::new(RandomPdu::new(p)?)),
    )
    .doc("Posts on `pdus` one PDU when the run starts and one per message of any kind on `generate`: empty metadata and a `u8` vector whose length is uniform in `min_items ..= max_items`, rounded down to a multiple of `length_modulo` (and at least `length_modulo`), each byte ANDed with `mask`. Needs `min_items ≤ max_items`, `length_modulo ≥ 1` and `mask ≤ 255`. Lengths follow GNU Radio; the bytes come from a seeded xoshiro256++ generator (reproducible per `seed`), so they differ from GNU Radio's. GNU Radio's `pdu_random_pdu`.")
    .message_input("generate")
    .message_output("pdus")
}
