//! `ofdm_carrier_allocator`: complex symbols placed on the occupied
//! carriers of OFDM symbols, pilots added, sync words prepended (GNU
//! Radio's `digital_ofdm_carrier_allocator_cvc`).

use super::carriers::{CarrierSets, SymbolSets};
use super::packets::{self, Gather, MAX_PACKET_ITEMS, Outbox, Packet};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, Tag, TagPolicy,
    WorkIo,
};

/// The parameters of `ofdm_carrier_allocator` (GNU Radio's
/// `digital_ofdm_carrier_allocator_cvc`); the defaults are those of GNU
/// Radio's `ofdm_txrx.py`.
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct CarrierAllocatorParams {
    /// FFT length: items per OFDM symbol at the output
    #[param(default = 64, min = 1, max = limits::MAX_FFT)]
    pub fft_len: usize,
    /// the carriers that carry data, one list per OFDM symbol used in turn
    /// (negative: from the end; none of them empty)
    #[param(default = CarrierSets::txrx_occupied())]
    pub occupied_carriers: CarrierSets,
    /// the pilot carriers, one list per OFDM symbol used in turn
    #[param(default = CarrierSets::txrx_pilots())]
    pub pilot_carriers: CarrierSets,
    /// the pilot symbols, one list per OFDM symbol used in turn, each as
    /// long as its list of pilot carriers
    #[param(default = SymbolSets::txrx_pilot_symbols())]
    pub pilot_symbols: SymbolSets,
    /// symbols of `fft_len` items put in front of every frame, as they are
    #[param(default = SymbolSets::txrx_sync_words())]
    pub sync_words: SymbolSets,
    /// the key of the length tags, at the input (in complex symbols) and
    /// the output (in OFDM symbols)
    #[param(default = "packet_len")]
    pub len_tag_key: String,
    /// DC in the middle of each output symbol (for an FFT that shifts)
    #[param(default = true)]
    pub output_is_shifted: bool,
}

impl CarrierAllocatorParams {
    fn error(param: &'static str, why: String) -> ParamError {
        ParamError::new("ofdm_carrier_allocator", param, why)
    }

    /// The carriers of `sets` as output indices (GNU Radio's range
    /// `−fft_len ..= fft_len`, then the shift; unshifted, `fft_len`
    /// itself would lie past the symbol).
    fn placed(
        &self,
        param: &'static str,
        sets: &CarrierSets,
    ) -> Result<Vec<Vec<usize>>, ParamError> {
        let n = self.fft_len as i64;
        sets.0
            .iter()
            .map(|set| {
                set.iter()
                    .map(|&c| {
                        let w = if c < 0 { c + n } else { c };
                        let top = if self.output_is_shifted { n } else { n - 1 };
                        if !(0..=top).contains(&w) {
                            return Err(Self::error(
                                param,
                                format!("carrier {c} lies outside the FFT length {n}"),
                            ));
                        }
                        Ok(if self.output_is_shifted {
                            ((w + n / 2) % n) as usize
                        } else {
                            w as usize
                        })
                    })
                    .collect()
            })
            .collect()
    }

    /// GNU Radio's rules (and no empty list of occupied carriers, which
    /// GNU Radio indexes anyway).
    fn check(&self) -> Result<(), ParamError> {
        if self.occupied_carriers.0.is_empty() {
            return Err(Self::error(
                "occupied_carriers",
                "must be a list of lists, e.g. [[1, 2]]".into(),
            ));
        }
        if self.occupied_carriers.0.iter().any(Vec::is_empty) {
            return Err(Self::error(
                "occupied_carriers",
                "every list needs a carrier".into(),
            ));
        }
        self.placed("occupied_carriers", &self.occupied_carriers)?;
        if self.pilot_carriers.0.is_empty() {
            return Err(Self::error(
                "pilot_carriers",
                "must be a list of lists, e.g. [[]]".into(),
            ));
        }
        self.placed("pilot_carriers", &self.pilot_carriers)?;
        let (pc, ps) = (&self.pilot_carriers.0, &self.pilot_symbols.0);
        if ps.is_empty() {
            return Err(Self::error(
                "pilot_symbols",
                "must be a list of lists, e.g. [[]]".into(),
            ));
        }
        for i in 0..pc.len().max(ps.len()) {
            if pc[i % pc.len()].len() != ps[i % ps.len()].len() {
                return Err(Self::error(
                    "pilot_symbols",
                    format!("list {} does not match its pilot carriers", i % ps.len()),
                ));
            }
        }
        if let Some((i, w)) = self
            .sync_words
            .0
            .iter()
            .enumerate()
            .find(|(_, w)| w.len() != self.fft_len)
        {
            return Err(Self::error(
                "sync_words",
                format!(
                    "sync word {i} has {} items, not fft_len ({})",
                    w.len(),
                    self.fft_len
                ),
            ));
        }
        Ok(())
    }
}

/// The allocation of one frame.
struct Allocate {
    fft_len: usize,
    occupied: Vec<Vec<usize>>,
    pilots: Vec<Vec<usize>>,
    pilot_symbols: Vec<Vec<Complex32>>,
    sync_words: Vec<Vec<Complex32>>,
}

impl Allocate {
    fn new(p: &CarrierAllocatorParams) -> Result<Self, ParamError> {
        Ok(Self {
            fft_len: p.fft_len,
            occupied: p.placed("occupied_carriers", &p.occupied_carriers)?,
            pilots: p.placed("pilot_carriers", &p.pilot_carriers)?,
            pilot_symbols: p.pilot_symbols.0.clone(),
            sync_words: p.sync_words.0.clone(),
        })
    }

    /// The frame of `packet` (its items in complex symbols): sync words,
    /// then as many OFDM symbols as the items fill. The tags of the
    /// items on one OFDM symbol go to that symbol (those of the first to
    /// the first sync word), then the length tag.
    /// `None` for a frame longer than [`MAX_PACKET_ITEMS`] items: dropped.
    fn frame(&self, packet: &Packet<Complex32>, key: &str) -> Option<(Vec<Complex32>, Vec<Tag>)> {
        let n = self.fft_len;
        let zero = Complex32::new(0.0, 0.0);
        let nsync = self.sync_words.len();
        let per_round: usize = self.occupied.iter().map(Vec::len).sum();
        let rounds = packet.items.len().div_ceil(per_round.max(1));
        let most = (nsync + rounds * self.occupied.len()).checked_mul(n)?;
        if most > MAX_PACKET_ITEMS {
            return None;
        }
        let mut out: Vec<Complex32> = self.sync_words.concat();
        let mut tags = Vec::new();
        let data = &packet.items;
        let (mut symbols, mut set, mut placed) = (0usize, 0usize, 0usize);
        for (i, &x) in data.iter().enumerate() {
            if placed == 0 {
                let span = self.occupied[set].len().min(data.len() - i);
                let vector = symbols + if symbols == 0 { 0 } else { nsync };
                tags.extend(packet.tags_in(i as u64..(i + span) as u64).map(|t| Tag {
                    index: (vector * n) as u64,
                    ..t.clone()
                }));
                symbols += 1;
                out.resize(out.len() + n, zero);
            }
            let base = (nsync + symbols - 1) * n;
            out[base + self.occupied[set][placed]] = x;
            placed += 1;
            if placed == self.occupied[set].len() {
                set = (set + 1) % self.occupied.len();
                placed = 0;
            }
        }
        for s in 0..symbols {
            let base = (nsync + s) * n;
            let carriers = &self.pilots[s % self.pilots.len()];
            let values = &self.pilot_symbols[s % self.pilot_symbols.len()];
            for (&c, &v) in carriers.iter().zip(values) {
                out[base + c] = v;
            }
        }
        tags.push(Tag::new(0, key, Pmt::U64((nsync + symbols) as u64)));
        Some((out, tags))
    }
}

/// Places a frame of complex modulation symbols on the occupied carriers
/// of OFDM symbols (`fft_len` items each, the input to an IFFT), adds
/// the pilot symbols on the pilot carriers and puts the sync words in
/// front (GNU Radio's `digital_ofdm_carrier_allocator_cvc`, value for
/// value). Unused carriers are 0.
///
/// The input is a tagged stream whose length tags count complex symbols;
/// the output frame's length tag counts OFDM symbols (sync words
/// included). The tags of the input items an OFDM symbol carries go to
/// its first item (those of the first symbol to the frame's first item).
/// A frame of more than [`MAX_PACKET_ITEMS`] output items is dropped.
///
/// # Parameters
/// [`CarrierAllocatorParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`, a tagged stream of modulation symbols.
///
/// # Stream Outputs
/// - `out`: `Complex32`, OFDM symbols of `fft_len` items.
///
/// # Usage
/// ```
/// use rfgraph_blocks::ofdm::{CarrierAllocator, CarrierAllocatorParams};
/// // GNU Radio's ofdm_txrx.py allocation: 48 data carriers, 4 pilots.
/// let allocator = CarrierAllocator::new(CarrierAllocatorParams::default())?;
/// # let _ = allocator;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct CarrierAllocator {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    params: CarrierAllocatorParams,
    allocate: Allocate,
    gather: Gather<Complex32>,
    outbox: Outbox<Complex32>,
}

impl CarrierAllocator {
    /// The allocator `params` describe.
    ///
    /// Errors: no occupied carriers (or an empty list of them), a carrier
    /// outside the FFT, pilot symbols that do not match their carriers, or
    /// a sync word not `fft_len` long.
    pub fn new(params: CarrierAllocatorParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            input: StreamInput::new("in"),
            output: StreamOutput::new("out"),
            allocate: Allocate::new(&params)?,
            gather: Gather::new(&params.len_tag_key, 1),
            outbox: Outbox::new(),
            params,
        })
    }
}

impl Block for CarrierAllocator {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().input(&mut self.input).output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn tag_policy(&self) -> TagPolicy {
        TagPolicy::Manual
    }

    fn work(&mut self, io: &mut WorkIo) -> Result<(), BoxError> {
        let (allocate, key) = (&self.allocate, &self.params.len_tag_key);
        packets::work_frames(
            &mut self.gather,
            &mut self.outbox,
            &mut self.input,
            &mut self.output,
            io,
            |packet, _, _| allocate.frame(packet, key),
        );
        Ok(())
    }
}

/// `ofdm_carrier_allocator`: GNU Radio's `digital_ofdm_carrier_allocator_cvc`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<CarrierAllocatorParams>(
        "ofdm_carrier_allocator",
        "OFDM",
        "Places complex symbols on the occupied carriers of OFDM symbols, with pilots and sync words.",
        |p| Ok(Box::new(CarrierAllocator::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_ofdm_carrier_allocator_cvc`: each frame of complex symbols (length \
         tag in symbols) becomes the sync words followed by OFDM symbols of `fft_len` items, the \
         data on `occupied_carriers`, the pilots on `pilot_carriers` (both lists taken in turn, \
         symbol by symbol), other carriers 0; the output length tag counts OFDM symbols.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)).doc("a tagged stream of symbols"))
    .output(
        PortSpec::new("out", PortItem::Fixed(ItemKind::C32)).doc("OFDM symbols of fft_len items"),
    )
}
