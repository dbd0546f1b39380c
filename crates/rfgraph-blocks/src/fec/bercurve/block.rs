//! [`BercurveGenerator`]: the block `bercurve_generator` (GNU Radio's
//! `fec.bercurve_generator`) and its registry entry.

use super::chain::BercurveChain;
use super::params::BercurveGeneratorParams;
use crate::fec::puncture::Puncture;
use crate::fec::{Decoder, Encoder};
use crate::generate::rng::splitmix64;
use crate::wav::ports::channel_port;
use rfgraph::params::ItemKind;
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{Block, BoxError, ParamError, ParamSet, Ports, StreamOutput, WorkIo};

/// Bytes of GNU Radio's random table (`vector_source_b` of 100000
/// `numpy.random.randint(0, 256)` bytes, repeated).
const TABLE: usize = 100_000;

/// Bytes a point takes from the source at a time.
const BATCH: usize = 256;

/// Written bytes a point keeps ready at most before it takes more.
const READY: usize = 1 << 14;

/// For each Es/N0 point, random bytes sent through the code and a
/// Gaussian channel: the decoded bytes and the sent bytes, for a
/// `ber` block or GNU Radio's BER curve sink to compare. As GNU Radio's
/// generator: one table of random bytes, repeated, dealt out to the
/// points in turn; each point unpacks its bytes, encodes them frame by
/// frame (punctured by `puncpat`), maps the bits to ±1, adds noise of
/// standard deviation `√(10^(−Es/N0 / 10) / 2)` from GNU Radio's own
/// generator (`gr::random` seeded with `seed`, the same seed for every
/// point), decodes frame by frame and packs the bits again. The random
/// bytes are not GNU Radio's (its are unseeded), so the streams differ
/// from one run of GNU Radio's; the bit error rates agree (given the same
/// bytes, each point decodes GNU Radio's very bytes). Runs until stopped,
/// or until each point sent `items` bytes.
///
/// # Parameters
/// [`BercurveGeneratorParams`].
///
/// # Stream Outputs
/// - `out0`, `out1`, ...: `u8`: `out{2i}` the decoded bytes of point
///   `i`, `out{2i+1}` the bytes it sent.
///
/// # Usage
/// ```
/// use rfgraph_blocks::fec::{BercurveGenerator, BercurveGeneratorParams, FecCode, FecCodeParams};
/// let generator = BercurveGenerator::new(BercurveGeneratorParams {
///     fec: FecCodeParams { code: FecCode::Repetition, frame_size: 64, ..Default::default() },
///     esno: vec![0.0, 3.0],
///     outputs: 4,
///     ..Default::default()
/// })?;
/// # let _ = generator;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct BercurveGenerator {
    params: BercurveGeneratorParams,
    outputs: Vec<StreamOutput<u8>>,
    chains: Vec<BercurveChain>,
    table: Vec<u8>,
    /// The next table byte each point takes.
    cursor: Vec<usize>,
    /// Bytes each point took.
    taken: Vec<u64>,
    /// The point that takes the next batch.
    next: usize,
    batch: Vec<u8>,
}

impl BercurveGenerator {
    /// The generator of `params`.
    pub fn new(params: BercurveGeneratorParams) -> Result<Self, ParamError> {
        params.validate()?;
        let block = "bercurve_generator";
        let puncture = Puncture::parse(&params.puncpat, block)?;
        let points = params.esno.len();
        let chains = params
            .esno
            .iter()
            .map(|&esno| {
                Ok(BercurveChain::of(
                    Encoder::new(&params.fec, block)?,
                    Decoder::new(&params.fec, block)?,
                    puncture.clone(),
                    esno,
                    params.seed,
                ))
            })
            .collect::<Result<Vec<_>, ParamError>>()?;
        let mut state = 0x6265_7263_7572_7665u64;
        let table = (0..TABLE).map(|_| splitmix64(&mut state) as u8).collect();
        Ok(Self {
            outputs: (0..2 * points)
                .map(|i| StreamOutput::new(channel_port("out", i)))
                .collect(),
            chains,
            table,
            cursor: (0..points).collect(),
            taken: vec![0; points],
            next: 0,
            batch: Vec::new(),
            params,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &BercurveGeneratorParams {
        &self.params
    }
}

/// Writes what `queue` holds and `out` has room for.
fn drain(queue: &mut std::collections::VecDeque<u8>, out: &mut StreamOutput<u8>) {
    let room = out.slice();
    let n = room.len().min(queue.len());
    for (o, b) in room[..n].iter_mut().zip(queue.drain(..n)) {
        *o = b;
    }
    out.produce(n);
}

impl Block for BercurveGenerator {
    fn ports(&mut self) -> Ports<'_> {
        let mut ports = Ports::new();
        for o in &mut self.outputs {
            ports = ports.output(o);
        }
        ports
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let points = self.chains.len();
        let budget = self.params.items.unwrap_or(u64::MAX);
        for (i, chain) in self.chains.iter_mut().enumerate() {
            let (decoded, sent) = pair(&mut self.outputs, i);
            drain(&mut chain.decoded, decoded);
            drain(&mut chain.sent, sent);
        }
        // One batch for one point a call, the points in turn: a call
        // stays short (a decoder can be slow), so the runtime answers a
        // stop or readers gone between calls. A point takes more while
        // both its streams have room and little is ready (a code whose
        // frames are long sends nothing until one ends).
        for k in 0..points {
            let i = (self.next + k) % points;
            let chain = &mut self.chains[i];
            let (decoded, sent) = pair(&mut self.outputs, i);
            if self.taken[i] >= budget
                || chain.decoded.len() >= READY
                || chain.sent.len() >= READY
                || decoded.slice().is_empty()
                || sent.slice().is_empty()
            {
                continue;
            }
            self.batch.clear();
            let cursor = &mut self.cursor[i];
            let n = (budget - self.taken[i]).min(BATCH as u64) as usize;
            self.taken[i] += n as u64;
            self.batch.extend((0..n).map(|_| {
                let b = self.table[*cursor];
                *cursor = (*cursor + points) % TABLE;
                b
            }));
            chain.push(&self.batch);
            drain(&mut chain.decoded, decoded);
            drain(&mut chain.sent, sent);
            self.next = i + 1;
            break;
        }
        let done = self.taken.iter().all(|&t| t >= budget)
            && self
                .chains
                .iter()
                .all(|c| c.decoded.is_empty() && c.sent.is_empty());
        if done {
            io.finish();
        }
        Ok(())
    }
}

/// Point `i`'s outputs: its decoded and its sent bytes.
fn pair(
    outputs: &mut [StreamOutput<u8>],
    i: usize,
) -> (&mut StreamOutput<u8>, &mut StreamOutput<u8>) {
    let (a, b) = outputs.split_at_mut(2 * i + 1);
    (&mut a[2 * i], &mut b[0])
}

/// `bercurve_generator`: GNU Radio's `fec_bercurve_generator`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<BercurveGeneratorParams>(
        "bercurve_generator",
        "Error Coding",
        "Decoded and sent random bytes through a FEC code and Gaussian noise, per Es/N0 point.",
        |p| Ok(Box::new(BercurveGenerator::new(p)?)),
    )
    .doc("GNU Radio's `fec.bercurve_generator`: for each Es/N0 in `esno`, random bytes are unpacked, encoded by the code (punctured by `puncpat`), mapped to ±1, given Gaussian noise of standard deviation √(10^(−Es/N0/10)/2) from GNU Radio's own generator seeded by `seed` (the same for every point), decoded and packed again. Output `2i` is point i's decoded bytes, output `2i+1` the bytes it sent, for `ber` (GNU Radio's `fec_ber_bf`, behind its BER curve sink) to compare. `outputs` is twice the number of points. The random bytes are not GNU Radio's (its are unseeded): the streams differ from a GNU Radio run, their bit error rates agree (on the same bytes each point decodes GNU Radio's very bytes). Runs until stopped, or until each point sent `items` bytes (a last partial frame is not decoded).")
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::U8)).repeated("outputs"))
}
