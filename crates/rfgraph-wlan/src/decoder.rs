//! The receiver's second stage (IEEE 802.11-2016 17.3.4, 17.3.5, the
//! receive side of Figure 17-1's chain): [`read_header`] turns a
//! frame's long training field and SIGNAL symbol into a
//! [`Header`]; [`Decoder::decode`] turns a whole [`Burst`] into a
//! [`Decoded`] frame — every data symbol equalised with pilot tracking
//! ([`equalizer`](crate::equalizer)), soft-demapped
//! ([`demapping`](crate::demapping)), deinterleaved, depunctured, one
//! Viterbi run over the frame ([`viterbi`](crate::viterbi)),
//! descrambled from the seed the SERVICE field's first seven bits give,
//! packed LSB first and checked against its FCS.

use crate::burst::{Burst, Decoded, Dropped, Header, LTF, SYMBOL};
use crate::demapping::Demapper;
use crate::depuncture::mother_positions;
use crate::equalizer::Equalizer;
use crate::fcs;
use crate::interleaver::{Interleaver, MAX_CBPS};
use crate::rate::{DATA_CARRIERS, Modulation, Rate};
use crate::scrambler::{PERIOD, Scrambler, seed_from_first_bits};
use crate::signal::parse_signal;
use crate::transmitter::{SERVICE_BITS as SERVICE, TAIL_BITS as TAIL};
use crate::viterbi::{ERASED, Viterbi};
use num_complex::Complex32;
use std::cell::RefCell;

/// Bits of the SIGNAL field.
const SIGNAL_BITS: usize = 24;

/// Samples [`read_header`] needs: from the first long training
/// symbol to the SIGNAL symbol's end.
pub const HEAD: usize = LTF + SYMBOL;

/// What reading a SIGNAL symbol needs, kept per thread so that
/// [`read_header`] allocates only on a thread's first call.
struct HeaderReader {
    equalizer: Equalizer,
    demapper: Demapper,
    interleaver: Interleaver,
    viterbi: Viterbi,
    bits: Vec<u8>,
}

impl HeaderReader {
    fn new() -> Self {
        Self {
            equalizer: Equalizer::new(),
            demapper: Demapper::new(Modulation::Bpsk),
            interleaver: Interleaver::signal(),
            viterbi: Viterbi::new(),
            bits: Vec::with_capacity(SIGNAL_BITS),
        }
    }

    fn read(&mut self, head: &[Complex32]) -> Result<Header, Dropped> {
        if head.len() < HEAD {
            return Err(Dropped::Truncated);
        }
        let snr_db = self.equalizer.estimate(&head[..LTF]);
        let mut points = [Complex32::default(); DATA_CARRIERS];
        self.equalizer
            .symbol(&head[LTF..LTF + SYMBOL], 0, &mut points);
        let mut soft = [ERASED; DATA_CARRIERS];
        self.demapper
            .demap(&points, self.equalizer.weights(), &mut soft);
        let mut coded = [ERASED; DATA_CARRIERS];
        self.interleaver.deinterleave(&soft, &mut coded);
        self.viterbi.decode(&coded, SIGNAL_BITS, &mut self.bits);
        let mut bits = [0u8; SIGNAL_BITS];
        bits.copy_from_slice(&self.bits);
        let signal = parse_signal(&bits)?;
        Ok(Header {
            signal,
            channel: *self.equalizer.channel(),
            snr_db,
        })
    }
}

thread_local! {
    static HEADER_READER: RefCell<HeaderReader> = RefCell::new(HeaderReader::new());
}

/// Reads a frame's header from `head`: at least [`LTF`] + [`SYMBOL`]
/// samples from the first long training symbol's first sample (after
/// GI2), the carrier offset already removed. The channel and SNR come
/// from the two long training symbols; the SIGNAL symbol is
/// equalised, BPSK-demapped, deinterleaved, Viterbi-decoded (the
/// decoder ends in state 0, so the tail always reads zero) and parsed.
pub fn read_header(head: &[Complex32]) -> Result<Header, Dropped> {
    HEADER_READER.with(|r| r.borrow_mut().read(head))
}

/// A frame decoder; keeps its FFT plan, Viterbi decoder and buffers
/// between frames (one per thread of decoding).
pub struct Decoder {
    equalizer: Equalizer,
    viterbi: Viterbi,
    /// One symbol's soft bits, as demapped (interleaved).
    symbol_soft: Vec<u8>,
    /// The frame's rate-1/2 soft bits.
    mother: Vec<u8>,
    bits: Vec<u8>,
    /// The last frame's rate and its symbol layout.
    layout: Option<(Rate, Layout)>,
}

/// Where each demapped soft bit of a symbol goes in the frame's
/// rate-1/2 stream: deinterleaving and depuncturing as one table.
struct Layout {
    /// Per coded bit k of a symbol (deinterleaved order): where the
    /// demapper's bit planes hold it (`Interleaver::position` gives the
    /// demapped bit), and its index in the symbol's share of the
    /// rate-1/2 stream (`mother_positions`).
    moves: Vec<(u16, u16)>,
    /// Rate-1/2 soft bits per symbol (2 × N_DBPS).
    mother_per_symbol: usize,
}

impl Layout {
    fn new(rate: Rate) -> Self {
        let cbps = rate.coded_bits_per_symbol();
        let nbpsc = rate.bits_per_carrier();
        let interleaver = Interleaver::for_rate(rate);
        let moves = mother_positions(rate.code_rate(), cbps)
            .enumerate()
            .map(|(k, m)| {
                // Demapped bit j = N_BPSC·carrier + b sits in plane b.
                let j = interleaver.position(k);
                let (carrier, b) = (j / nbpsc, j % nbpsc);
                ((DATA_CARRIERS * b + carrier) as u16, m as u16)
            })
            .collect();
        Self {
            moves,
            mother_per_symbol: 2 * rate.data_bits_per_symbol(),
        }
    }
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder").finish_non_exhaustive()
    }
}

impl Decoder {
    /// A decoder on the fastest Viterbi kernel this CPU runs.
    pub fn new() -> Self {
        Self::with_viterbi(Viterbi::new())
    }

    /// A decoder running `viterbi` (e.g. on a chosen kernel).
    pub fn with_viterbi(viterbi: Viterbi) -> Self {
        Self {
            equalizer: Equalizer::new(),
            viterbi,
            symbol_soft: vec![ERASED; MAX_CBPS],
            mother: Vec::new(),
            bits: Vec::new(),
            layout: None,
        }
    }

    /// Decodes `burst`. Samples missing at its end (a burst shorter
    /// than [`Burst::len_for`] its SIGNAL) count as erasures; the FCS
    /// then tells.
    pub fn decode(&mut self, burst: &Burst) -> Decoded {
        let header = &burst.header;
        let rate = header.signal.rate;
        let length = header.signal.length;
        let symbols = rate.data_symbols(length);
        let demapper = Demapper::new(rate.modulation());
        if self.layout.as_ref().is_none_or(|(r, _)| *r != rate) {
            self.layout = Some((rate, Layout::new(rate)));
        }
        let layout = &self.layout.as_ref().expect("set above").1;

        self.equalizer.set_channel(&header.channel);
        self.mother.clear();
        self.mother
            .resize(symbols * layout.mother_per_symbol, ERASED);
        let mut points = [Complex32::default(); DATA_CARRIERS];
        // The SIGNAL symbol first, for the phase tracking's start.
        if let Some(signal) = burst.samples.get(LTF..LTF + SYMBOL) {
            self.equalizer.symbol(signal, 0, &mut points);
        }
        for (s, mother) in self
            .mother
            .chunks_exact_mut(layout.mother_per_symbol)
            .enumerate()
        {
            let at = LTF + SYMBOL * (1 + s);
            let Some(samples) = burst.samples.get(at..at + SYMBOL) else {
                break;
            };
            self.equalizer.symbol(samples, s + 1, &mut points);
            demapper.demap_planes(&points, self.equalizer.weights(), &mut self.symbol_soft);
            for &(from, to) in &layout.moves {
                mother[to as usize] = self.symbol_soft[from as usize];
            }
        }
        let bits = SERVICE + 8 * length + TAIL;
        // Coded bits cover every data bit (N_SYM × N_DBPS ≥ bits).
        debug_assert!(self.mother.len() >= 2 * bits);
        self.viterbi.decode(&self.mother, bits, &mut self.bits);

        let seed = seed_from_first_bits(&self.bits[..7]);
        let payload = &mut self.bits[..SERVICE + 8 * length];
        descramble(seed, payload);
        let psdu: Vec<u8> = payload[SERVICE..]
            .chunks_exact(8)
            .map(|b| b.iter().rev().fold(0u8, |acc, &x| (acc << 1) | x))
            .collect();
        let fcs_ok = fcs::check(&psdu);
        let mut mpdu = psdu;
        mpdu.truncate(length.saturating_sub(4));
        Decoded {
            seq: burst.seq,
            start: burst.start,
            rate,
            length,
            mpdu,
            fcs_ok,
            snr_db: header.snr_db,
            cfo_hz: burst.cfo * 20e6 / std::f32::consts::TAU,
        }
    }
}

/// XORs the scrambler sequence of `seed` onto `bits` (one 0/1 a
/// byte), a period at a time (a loop that vectorises). A zero seed
/// (the SERVICE bits read all zero: no scrambler makes that) leaves the
/// bits as they are; the FCS will tell.
fn descramble(seed: u8, bits: &mut [u8]) {
    if seed & 0x7f == 0 {
        return;
    }
    let mut sequence = [0u8; PERIOD];
    let mut s = Scrambler::new(seed);
    for b in &mut sequence {
        *b = s.next_bit();
    }
    for chunk in bits.chunks_mut(PERIOD) {
        for (b, &x) in chunk.iter_mut().zip(&sequence) {
            *b ^= x;
        }
    }
}

#[cfg(test)]
mod tests;
