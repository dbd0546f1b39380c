//! [`RandomPdu`]: PDUs of random bytes, one at the start and one per
//! message on `generate` (GNU Radio's `pdu_random_pdu`), with its
//! registry entry.

use super::pdu::pdu;
use crate::generate::rng::Xoshiro256PlusPlus;
use rfgraph::registry::{BlockSpec, ParamSpec, Params};
use rfgraph::{Block, BoxError, MessageOutput, Pmt, Ports, WorkIo};

/// Posts a PDU of random bytes (each masked with `mask`) on `pdus` when
/// the run starts and for every message on `generate`. Lengths are
/// uniform in `min ..= max`, rounded down to a multiple of `modulo` (and
/// at least `modulo`), as GNU Radio does; the bytes differ from GNU
/// Radio's (another generator).
///
/// # Message Inputs
/// - `generate`: any message asks for one PDU.
///
/// # Message Outputs
/// - `pdus`: the PDUs.
///
/// # Usage
/// ```
/// use rfgraph::{Block, Pmt, WorkIo};
/// use rfgraph_blocks::message::RandomPdu;
/// let pdus = RandomPdu::new(10, 20, 0xff, 1, 7)?;
/// # let _ = pdus;
/// # Ok::<(), String>(())
/// ```
pub struct RandomPdu {
    output: MessageOutput,
    min: usize,
    max: usize,
    mask: u8,
    modulo: usize,
    rng: Xoshiro256PlusPlus,
    started: bool,
}

impl RandomPdu {
    /// PDUs of `min ..= max` bytes (a multiple of `modulo`), masked with
    /// `mask`, from the generator seeded with `seed`.
    ///
    /// Errors: `max < min`, or a `modulo` of 0.
    pub fn new(min: usize, max: usize, mask: u8, modulo: usize, seed: u64) -> Result<Self, String> {
        if max < min || modulo == 0 {
            return Err(format!(
                "needs min ≤ max and modulo ≥ 1 (min {min}, max {max}, modulo {modulo})"
            ));
        }
        Ok(Self {
            output: MessageOutput::new("pdus"),
            min,
            max,
            mask,
            modulo,
            rng: Xoshiro256PlusPlus::from_seed(seed),
            started: false,
        })
    }

    fn post(&mut self) {
        let span = (self.max - self.min) as u64 + 1;
        let len = self.min + (self.rng.next_u64() % span) as usize;
        let len = (len - len % self.modulo).max(self.modulo);
        let mut bytes = Vec::with_capacity(len);
        while bytes.len() < len {
            let word = self.rng.next_u64().to_le_bytes();
            let n = (len - bytes.len()).min(8);
            bytes.extend(word[..n].iter().map(|b| b & self.mask));
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
    BlockSpec::new(
        "random_pdu",
        "Packet Operators",
        "PDUs of random bytes, one at the start and one per `generate` message.",
        |p: &Params| {
            let mask = p.u64("mask")?;
            let mask = u8::try_from(mask).map_err(|_| p.invalid("mask", "must be 0 to 255"))?;
            let pdus = RandomPdu::new(
                p.usize("min_items")?,
                p.usize("max_items")?,
                mask,
                p.usize("length_modulo")?,
                p.u64("seed")?,
            )
            .map_err(|e| p.refused(e))?;
            Ok(Box::new(pdus))
        },
    )
    .doc("Posts on `pdus` one PDU when the run starts and one per message of any kind on `generate`: empty metadata and a `u8` vector whose length is uniform in `min_items ..= max_items`, rounded down to a multiple of `length_modulo` (and at least `length_modulo`), each byte ANDed with `mask`. Needs `min_items ≤ max_items`, `length_modulo ≥ 1` and `mask ≤ 255`. Lengths follow GNU Radio; the bytes come from a seeded xoshiro256++ generator (reproducible per `seed`), so they differ from GNU Radio's. GNU Radio's `pdu_random_pdu`.")
    .param(
        ParamSpec::uint("min_items")
            .default(50u64)
            .doc("shortest PDU, bytes"),
    )
    .param(
        ParamSpec::uint("max_items")
            .default(2000u64)
            .doc("longest PDU, bytes"),
    )
    .param(
        ParamSpec::uint("mask")
            .default(0xffu64)
            .doc("ANDed into every byte"),
    )
    .param(
        ParamSpec::uint("length_modulo")
            .default(1u64)
            .doc("lengths are multiples of it"),
    )
    .param(
        ParamSpec::uint("seed")
            .default(0u64)
            .doc("of the generator"),
    )
    .message_input("generate")
    .message_output("pdus")
}
