//! `ofdm_serializer`: the data carriers of OFDM symbols read out in
//! order, the inverse of `ofdm_carrier_allocator` (GNU Radio's
//! `digital_ofdm_serializer_vcc`), on whole tagged frames or on a
//! continuous stream of symbols.

use super::carriers::CarrierSets;
use super::packets::{self, Gather, MAX_PACKET_ITEMS, Outbox, Packet, length_of};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, Tag, TagPolicy,
    WorkIo,
};

/// The parameters of `ofdm_serializer` (GNU Radio's
/// `digital_ofdm_serializer_vcc`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct SerializerParams {
    /// FFT length: items per OFDM symbol at the input
    #[param(default = 64, min = 1, max = limits::MAX_FFT)]
    pub fft_len: usize,
    /// the carriers that carry data, one list per OFDM symbol used in turn
    /// (negative: from the end)
    #[param(default = CarrierSets::txrx_occupied())]
    pub occupied_carriers: CarrierSets,
    /// the key of the frames' length tags (counted in OFDM symbols);
    /// empty: a continuous stream of symbols
    #[param(default = "frame_len")]
    pub len_tag_key: String,
    /// the key of a tag on a frame's first symbol giving the number of
    /// complex symbols to read out at most; its key then marks the output
    /// frames (else `len_tag_key` does)
    #[param(default = "")]
    pub packet_len_tag_key: String,
    /// the list of occupied carriers the first symbol uses (symbols
    /// removed before this block)
    #[param(default = 0, max = limits::MAX_ELEMENTS)]
    pub symbols_skipped: usize,
    /// the key of a tag on a frame's first symbol giving a carrier offset
    /// to read the carriers at
    #[param(default = "")]
    pub carr_offset_key: String,
    /// DC in the middle of each input symbol (after an FFT that shifts)
    #[param(default = true)]
    pub input_is_shifted: bool,
}

impl SerializerParams {
    fn error(param: &'static str, why: String) -> ParamError {
        ParamError::new("ofdm_serializer", param, why)
    }

    /// The carriers as input indices, as GNU Radio maps them (shifted:
    /// `c + fft_len/2`, less `fft_len` above it; else negative ones from
    /// the end), each in `0..fft_len`.
    fn placed(&self) -> Result<Vec<Vec<usize>>, ParamError> {
        let n = self.fft_len as i64;
        self.occupied_carriers
            .0
            .iter()
            .map(|set| {
                set.iter()
                    .map(|&c| {
                        let w = if self.input_is_shifted {
                            let w = c.saturating_add(n / 2);
                            if w > n { w - n } else { w }
                        } else if c < 0 {
                            c + n
                        } else {
                            c
                        };
                        if (0..n).contains(&w) {
                            Ok(w as usize)
                        } else {
                            Err(Self::error(
                                "occupied_carriers",
                                format!("carrier {c} lies outside the FFT length {n}"),
                            ))
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn check(&self) -> Result<(), ParamError> {
        if self.occupied_carriers.0.is_empty() {
            return Err(Self::error(
                "occupied_carriers",
                "must be a list of lists, e.g. [[1, 2]]".into(),
            ));
        }
        self.placed().map(drop)
    }

    /// The key of the output frames' length tags.
    fn out_key(&self) -> &str {
        if self.packet_len_tag_key.is_empty() {
            &self.len_tag_key
        } else {
            &self.packet_len_tag_key
        }
    }
}

/// The read-out of symbols.
struct Serialize {
    fft_len: usize,
    occupied: Vec<Vec<usize>>,
    skipped: usize,
    /// The list of carriers the next symbol uses.
    set: usize,
}

impl Serialize {
    /// The complex symbols of one frame, as GNU Radio reads them: each
    /// symbol's carriers (plus the frame's carrier offset; indices
    /// outside the frame read 0), stopping after the packet length if
    /// one is given. Tags of symbol `s` go to its first output item, but
    /// the packet length's; then the length tag. A frame that could give
    /// more than [`MAX_PACKET_ITEMS`] items is dropped. The items are
    /// made in `out` (empty).
    fn frame(
        &mut self,
        packet: &Packet<Complex32>,
        p: &SerializerParams,
        mut out: Vec<Complex32>,
    ) -> (Vec<Complex32>, Vec<Tag>) {
        let n = self.fft_len;
        let first = |key: &str| {
            packet
                .tags_on(0)
                .filter(|t| t.key == key)
                .last()
                .map(|t| t.value.clone())
        };
        let offset = first(&p.carr_offset_key)
            .and_then(|v| match v {
                Pmt::I64(o) => Some(o),
                Pmt::U64(o) => i64::try_from(o).ok(),
                _ => None,
            })
            .unwrap_or(0);
        let limit = first(&p.packet_len_tag_key)
            .and_then(|v| length_of(&v))
            .unwrap_or(0);
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let symbols = packet.items.len() / n;
        let widest = self.occupied.iter().map(Vec::len).max().unwrap_or(0);
        if symbols.saturating_mul(widest) > MAX_PACKET_ITEMS {
            return (Vec::new(), Vec::new());
        }
        out.clear();
        out.reserve(symbols * widest);
        let mut tags = Vec::new();
        for s in 0..symbols {
            let at = out.len() as u64;
            tags.extend(
                packet
                    .tags_in((s * n) as u64..((s + 1) * n) as u64)
                    .filter(|t| t.key != p.packet_len_tag_key)
                    .map(|t| Tag {
                        index: at,
                        ..t.clone()
                    }),
            );
            for &c in &self.occupied[self.set] {
                let i = (s * n + c) as i64 + offset;
                let x = usize::try_from(i)
                    .ok()
                    .and_then(|i| packet.items.get(i))
                    .copied()
                    .unwrap_or_default();
                out.push(x);
            }
            if limit > 0 && out.len() > limit {
                out.truncate(limit);
                break;
            }
            self.set = (self.set + 1) % self.occupied.len();
        }
        self.set = self.skipped;
        if !out.is_empty() {
            tags.push(Tag::new(0, p.out_key(), Pmt::U64(out.len() as u64)));
        }
        (out, tags)
    }
}

/// Frames or a continuous stream.
enum Mode {
    Frames {
        gather: Gather<Complex32>,
        outbox: Outbox<Complex32>,
    },
    Continuous,
}

/// Reads the occupied carriers of OFDM symbols (`fft_len` items each,
/// after the FFT) out in order, dropping pilots and unused carriers: the
/// inverse of [`CarrierAllocator`](super::CarrierAllocator) (GNU Radio's
/// `digital_ofdm_serializer_vcc`, value for value).
///
/// With a `len_tag_key` the block works on whole frames (length in OFDM
/// symbols): a `packet_len_tag_key` tag on the first symbol limits how
/// many complex symbols come out (and its key marks the output frames),
/// a `carr_offset_key` tag there shifts the carriers read (a carrier
/// shifted outside the frame reads 0, where GNU Radio reads whatever its
/// buffer holds next to the frame). Each symbol's
/// tags go to its first output item (the packet length tag excepted).
/// Every frame starts with the list of carriers `symbols_skipped` names.
/// Without a key the stream is continuous and the lists are used in turn
/// across the whole stream.
///
/// # Parameters
/// [`SerializerParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`, OFDM symbols of `fft_len` items.
///
/// # Stream Outputs
/// - `out`: `Complex32`, the data symbols.
///
/// # Usage
/// ```
/// use rfgraph_blocks::ofdm::{Serializer, SerializerParams};
/// // ofdm_txrx.py's payload serializer: the header symbol was taken off.
/// let serializer = Serializer::new(SerializerParams {
///     len_tag_key: "frame_length".into(),
///     packet_len_tag_key: "packet_length".into(),
///     symbols_skipped: 1,
///     ..Default::default()
/// })?;
/// # let _ = serializer;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct Serializer {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    params: SerializerParams,
    serialize: Serialize,
    mode: Mode,
}

impl Serializer {
    /// The serializer `params` describe.
    ///
    /// Errors: no lists of occupied carriers, or a carrier outside the FFT.
    pub fn new(params: SerializerParams) -> Result<Self, ParamError> {
        params.validate()?;
        let occupied = params.placed()?;
        let skipped = params.symbols_skipped % occupied.len();
        let most = occupied.iter().map(Vec::len).max().unwrap_or(0);
        let n = params.fft_len;
        let (input, output, mode) = if params.len_tag_key.is_empty() {
            (
                StreamInput::new("in").with_min_items(n),
                StreamOutput::new("out").with_min_items(most),
                Mode::Continuous,
            )
        } else {
            (
                StreamInput::new("in"),
                StreamOutput::new("out"),
                Mode::Frames {
                    gather: Gather::new(&params.len_tag_key, n),
                    outbox: Outbox::new(),
                },
            )
        };
        Ok(Self {
            input,
            output,
            serialize: Serialize {
                fft_len: n,
                occupied,
                skipped,
                set: skipped,
            },
            params,
            mode,
        })
    }

    /// A continuous stream: every whole symbol the output has room for.
    fn continuous(&mut self) {
        let n = self.params.fft_len;
        let drop_key = &self.params.packet_len_tag_key;
        let start = self.input.position();
        // The tags are those of this slice: later slices may hold more
        // items, whose tags this one does not have.
        let available = self.input.slice().len();
        let tags = self.input.tags();
        let s = &mut self.serialize;
        let (mut read, mut written) = (0, 0);
        loop {
            let carriers = &s.occupied[s.set];
            let i = &self.input.slice()[..available];
            if i.len() < read + n {
                break;
            }
            let o = self.output.slice();
            if o.len() < written + carriers.len() {
                break;
            }
            for (o, &c) in o[written..].iter_mut().zip(carriers) {
                *o = i[read + c];
            }
            let first = start + read as u64;
            for t in tags
                .iter()
                .filter(|t| (first..first + n as u64).contains(&t.index) && t.key != *drop_key)
            {
                self.output.add_tag(written, &t.key, t.value.clone());
            }
            read += n;
            written += carriers.len();
            s.set = (s.set + 1) % s.occupied.len();
        }
        self.input.consume(read);
        self.output.produce(written);
    }
}

impl Block for Serializer {
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
        let Mode::Frames { gather, outbox } = &mut self.mode else {
            self.continuous();
            return Ok(());
        };
        let (serialize, params) = (&mut self.serialize, &self.params);
        packets::work_frames(
            gather,
            outbox,
            &mut self.input,
            &mut self.output,
            io,
            |packet, _, out| Some(serialize.frame(packet, params, out)),
        );
        Ok(())
    }
}

/// `ofdm_serializer`: GNU Radio's `digital_ofdm_serializer_vcc`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<SerializerParams>(
        "ofdm_serializer",
        "OFDM",
        "Reads the data carriers of OFDM symbols out in order (the allocator's inverse).",
        |p| Ok(Box::new(Serializer::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_ofdm_serializer_vcc`: each OFDM symbol of `fft_len` items gives \
         the items on its `occupied_carriers` (lists taken in turn, from `symbols_skipped` at \
         every frame). With `len_tag_key`, whole frames: a `packet_len_tag_key` tag limits the \
         output frame, a `carr_offset_key` tag shifts the carriers read. With an empty key, a \
         continuous stream.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)).doc("OFDM symbols of fft_len items"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
