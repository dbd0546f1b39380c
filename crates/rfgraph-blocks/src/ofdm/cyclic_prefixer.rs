//! `ofdm_cyclic_prefixer`: a cyclic prefix in front of every OFDM symbol,
//! optionally raised-cosine flanks between symbols (GNU Radio's
//! `digital_ofdm_cyclic_prefixer`), on whole tagged frames or on a
//! continuous stream of symbols.

use super::packets::{self, Gather, Outbox, Packet};
use num_complex::Complex32;
use rfgraph::params::{ItemKind, ParamType, ParamValue, PmtTypeError, describe, limits};
use rfgraph::registry::{BlockSpec, PortItem, PortSpec};
use rfgraph::{
    Block, BoxError, ParamError, ParamSet, Pmt, Ports, StreamInput, StreamOutput, Tag, TagPolicy,
    WorkIo,
};

/// The cyclic prefix lengths, used in turn symbol by symbol: one number
/// (every symbol) or a list (GNU Radio's `cp_lengths`, e.g. LTE's
/// `[160, 144, 144, 144, 144, 144, 144]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpLengths(pub Vec<usize>);

impl ParamValue for CpLengths {
    const TYPE: ParamType = ParamType::Any;

    fn from_pmt(pmt: Pmt) -> Result<Self, PmtTypeError> {
        let bad = |p: &Pmt| PmtTypeError {
            param: None,
            expected: ParamType::Any,
            found: format!("{} (expected a length or a list of lengths)", describe(p)),
        };
        let list = match &pmt {
            Pmt::Tuple(v) => Pmt::List(v.clone()),
            other => other.clone(),
        };
        match list {
            Pmt::List(_) | Pmt::VecF32(_) => Vec::<usize>::from_pmt(list).map_err(|_| bad(&pmt)),
            one => usize::from_pmt(one).map(|c| vec![c]).map_err(|_| bad(&pmt)),
        }
        .map(Self)
    }

    fn to_pmt(&self) -> Pmt {
        match self.0.as_slice() {
            [one] => Pmt::U64(*one as u64),
            many => Pmt::List(many.iter().map(|&c| Pmt::U64(c as u64)).collect()),
        }
    }
}

/// The parameters of `ofdm_cyclic_prefixer` (GNU Radio's
/// `digital_ofdm_cyclic_prefixer`).
#[derive(rfgraph::ParamSet, Clone, Debug, PartialEq)]
#[params(check = Self::check)]
pub struct CyclicPrefixerParams {
    /// FFT length: items per OFDM symbol at the input
    #[param(default = 64, min = 1, max = limits::MAX_FFT, alias = "input_size")]
    pub fft_len: usize,
    /// cyclic prefix length in items, or a list of them used in turn
    /// (each at most `fft_len`, one at least not 0)
    #[param(default = CpLengths(vec![16]), alias = "cp_lengths")]
    pub cp_len: CpLengths,
    /// length of the raised-cosine flanks in items (0 and 1: none), at
    /// most the shortest prefix
    #[param(default = 0, max = limits::MAX_FFT, alias = "rolloff_len")]
    pub rolloff: usize,
    /// the key of the length tags of whole frames (counted in symbols);
    /// empty: a continuous stream of symbols
    #[param(default = "frame_len", alias = "tagname")]
    pub len_tag_key: String,
}

impl CyclicPrefixerParams {
    fn error(param: &'static str, why: String) -> ParamError {
        ParamError::new("ofdm_cyclic_prefixer", param, why)
    }

    /// GNU Radio's rules, and prefixes no longer than a symbol.
    fn check(&self) -> Result<(), ParamError> {
        let cps = &self.cp_len.0;
        if cps.is_empty() {
            return Err(Self::error("cp_len", "must not be empty".into()));
        }
        if cps.len() > limits::MAX_ELEMENTS {
            return Err(Self::error(
                "cp_len",
                format!("has more than {} lengths", limits::MAX_ELEMENTS),
            ));
        }
        if cps.iter().all(|&c| c == 0) {
            return Err(Self::error(
                "cp_len",
                "needs at least one prefix that is not 0".into(),
            ));
        }
        if let Some(&c) = cps.iter().find(|&&c| c > self.fft_len) {
            return Err(Self::error(
                "cp_len",
                format!("{c} is longer than a symbol (fft_len {})", self.fft_len),
            ));
        }
        let min = cps.iter().copied().min().unwrap_or(0);
        if self.flank() > min {
            return Err(Self::error(
                "rolloff",
                format!(
                    "{} is longer than the shortest prefix ({min})",
                    self.rolloff
                ),
            ));
        }
        Ok(())
    }

    /// The rolloff in effect: GNU Radio turns 1 (a boxcar) into 0.
    fn flank(&self) -> usize {
        if self.rolloff == 1 { 0 } else { self.rolloff }
    }
}

/// The prefixing and pulse shaping of one symbol after another.
struct Shaper {
    fft_len: usize,
    cps: Vec<usize>,
    /// The next symbol's entry of `cps`.
    state: usize,
    /// Rising flank (`rolloff − 1` factors), falling flank, and the tail
    /// of the last symbol that overlaps the next prefix.
    up: Vec<f32>,
    down: Vec<f32>,
    delay: Vec<Complex32>,
}

impl Shaper {
    fn new(p: &CyclicPrefixerParams) -> Self {
        let r = p.flank();
        let flank = |i: usize| {
            let x = std::f64::consts::PI * i as f64 / r as f64 - std::f64::consts::PI;
            (0.5 * (1.0 + x.cos())) as f32
        };
        Self {
            fft_len: p.fft_len,
            cps: p.cp_len.0.clone(),
            state: 0,
            up: (1..r).map(flank).collect(),
            down: (1..r).map(|i| flank(r - i)).collect(),
            delay: vec![Complex32::new(0.0, 0.0); r.saturating_sub(1)],
        }
    }

    /// The output length of the next symbol.
    fn next_len(&self) -> usize {
        self.fft_len + self.cps[self.state]
    }

    /// The prefix of the symbol before the next (GNU Radio's `last_state`).
    fn last_cp(&self) -> usize {
        let last = if self.state > 0 {
            self.state - 1
        } else {
            self.cps.len() - 1
        };
        self.cps[last]
    }

    /// Writes `symbol` (`fft_len` items) with its prefix to the front of
    /// `out` ([`next_len`](Self::next_len) items) and moves on.
    fn symbol(&mut self, symbol: &[Complex32], out: &mut [Complex32]) {
        let (n, cp) = (self.fft_len, self.cps[self.state]);
        out[cp..cp + n].copy_from_slice(symbol);
        out[..cp].copy_from_slice(&symbol[n - cp..]);
        for (i, d) in self.delay.iter_mut().enumerate() {
            out[i] = out[i] * self.up[i] + *d;
            *d = symbol[i] * self.down[i];
        }
        self.state = (self.state + 1) % self.cps.len();
    }

    /// The tail of the last symbol (appended to a frame), then silence.
    fn flush(&mut self) -> Vec<Complex32> {
        let tail = self.delay.clone();
        self.delay.fill(Complex32::new(0.0, 0.0));
        tail
    }

    /// A whole frame: its symbols prefixed, the flank's tail appended;
    /// each symbol's tags at GNU Radio's offset (`symbol · (fft_len +
    /// the previous symbol's prefix)`), then the length tag.
    fn frame(&mut self, packet: &Packet<Complex32>, key: &str) -> (Vec<Complex32>, Vec<Tag>) {
        let n = self.fft_len;
        let symbols = packet.items.len() / n;
        let mut out = Vec::new();
        let mut tags = Vec::new();
        for s in 0..symbols {
            let at = out.len();
            let offset = s * (n + self.last_cp());
            out.resize(at + self.next_len(), Complex32::new(0.0, 0.0));
            self.symbol(&packet.items[s * n..(s + 1) * n], &mut out[at..]);
            let items = (s * n) as u64..((s + 1) * n) as u64;
            tags.extend(packet.tags_in(items).map(|t| Tag {
                index: offset as u64,
                ..t.clone()
            }));
        }
        out.extend(self.flush());
        tags.push(Tag::new(0, key, Pmt::U64(out.len() as u64)));
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

/// Prefixes every OFDM symbol (`fft_len` items, after the IFFT) with its
/// last `cp_len` items, the prefix lengths taken in turn from the list;
/// with a `rolloff`, the first `rolloff − 1` items of a prefix are
/// shaped by a raised-cosine flank and overlap the tail of the symbol
/// before (GNU Radio's `digital_ofdm_cyclic_prefixer`, value for value).
///
/// With a `len_tag_key` the block works on whole frames: each frame's
/// length tag counts symbols, the output frame's counts items, and the
/// tail of the last symbol's flank ends the frame. Other tags move as GNU
/// Radio moves them: a tag on symbol `s` goes to item `s · (fft_len +
/// cp)`, `cp` the prefix of the symbol before. Without a key the stream
/// is continuous; a symbol's tags then go to its first output item (GNU
/// Radio's scheduler also copies them by the block's rate, which depends
/// on how it splits the stream).
///
/// # Parameters
/// [`CyclicPrefixerParams`].
///
/// # Stream Inputs
/// - `in`: `Complex32`, OFDM symbols of `fft_len` items.
///
/// # Stream Outputs
/// - `out`: `Complex32`, the prefixed symbols.
///
/// # Usage
/// ```
/// use rfgraph_blocks::ofdm::{CpLengths, CyclicPrefixer, CyclicPrefixerParams};
/// let cp = CyclicPrefixer::new(CyclicPrefixerParams {
///     fft_len: 64,
///     cp_len: CpLengths(vec![16]),
///     rolloff: 4,
///     len_tag_key: "packet_len".into(),
/// })?;
/// # let _ = cp;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct CyclicPrefixer {
    input: StreamInput<Complex32>,
    output: StreamOutput<Complex32>,
    params: CyclicPrefixerParams,
    shaper: Shaper,
    mode: Mode,
}

impl CyclicPrefixer {
    /// The prefixer `params` describe.
    ///
    /// Errors: an empty list of prefixes or one of only zeros, a prefix
    /// longer than a symbol, or a rolloff longer than the shortest prefix.
    pub fn new(params: CyclicPrefixerParams) -> Result<Self, ParamError> {
        params.validate()?;
        let shaper = Shaper::new(&params);
        let n = params.fft_len;
        let longest = n + params.cp_len.0.iter().copied().max().unwrap_or(0);
        let (input, output, mode) = if params.len_tag_key.is_empty() {
            (
                StreamInput::new("in").with_min_items(n),
                StreamOutput::new("out").with_min_items(longest),
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
            params,
            shaper,
            mode,
        })
    }

    /// A continuous stream: every whole symbol the output has room for;
    /// a symbol's tags go to its first output item.
    fn continuous(&mut self) {
        let n = self.params.fft_len;
        let start = self.input.position();
        // The tags are those of this slice: later slices may hold more
        // items, whose tags this one does not have.
        let available = self.input.slice().len();
        let tags = self.input.tags();
        let (mut read, mut written) = (0, 0);
        loop {
            let len = self.shaper.next_len();
            if available < read + n || self.output.slice().len() < written + len {
                break;
            }
            let symbol = &self.input.slice()[read..read + n];
            self.shaper
                .symbol(symbol, &mut self.output.slice()[written..]);
            let first = start + read as u64;
            for t in tags
                .iter()
                .filter(|t| (first..first + n as u64).contains(&t.index))
            {
                self.output.add_tag(written, &t.key, t.value.clone());
            }
            read += n;
            written += len;
        }
        self.input.consume(read);
        self.output.produce(written);
    }
}

impl Block for CyclicPrefixer {
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
        let shaper = &mut self.shaper;
        packets::work_frames(
            gather,
            outbox,
            &mut self.input,
            &mut self.output,
            io,
            |packet, key, _| Some(shaper.frame(packet, key)),
        );
        Ok(())
    }
}

/// `ofdm_cyclic_prefixer`: GNU Radio's `digital_ofdm_cyclic_prefixer`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<CyclicPrefixerParams>(
        "ofdm_cyclic_prefixer",
        "OFDM",
        "Adds a cyclic prefix to every OFDM symbol, with optional raised-cosine flanks.",
        |p| Ok(Box::new(CyclicPrefixer::new(p)?) as Box<dyn Block>),
    )
    .doc(
        "GNU Radio's `digital_ofdm_cyclic_prefixer`: each symbol of `fft_len` items is preceded \
         by its last `cp_len` items (a list of lengths is used in turn); a `rolloff` shapes the \
         first `rolloff − 1` items of each prefix with a raised-cosine flank overlapping the \
         previous symbol's tail. With `len_tag_key`, whole frames (length in symbols) become \
         frames of items ending with the flank's tail; with an empty key, the stream is \
         continuous.",
    )
    .input(PortSpec::new("in", PortItem::Fixed(ItemKind::C32)).doc("OFDM symbols of fft_len items"))
    .output(PortSpec::new("out", PortItem::Fixed(ItemKind::C32)))
}
