//! [`BercurveChain`]: one Es/N0 point of the BER curve generator, GNU Radio's
//! `fec_test` hierarchical block: packed bytes are unpacked (most
//! significant bit first), encoded frame by frame as `extended_encoder`
//! does (packed again for a code that takes bytes, punctured), mapped to
//! ±1 (`map_bb([-1, 1])`, `char_to_float`), added to Gaussian noise of
//! GNU Radio's generator, decoded frame by frame as `extended_decoder`
//! does (depunctured, the Viterbi decoder's soft bytes made) and packed
//! again. The sent bytes are kept beside the decoded ones.

use crate::fec::puncture::{HOLE, Puncture};
use crate::fec::{Decoder, Encoder, FecCodeParams, SoftInput, uchar_rounded};
use crate::generate::gr_random::GrRandom;
use rfgraph::ParamError;
use std::collections::VecDeque;

/// One point of the BER curve generator: GNU Radio's `fec.fec_test`
/// hierarchical block, value for value: the bytes given to
/// [`push`](Self::push) are unpacked, encoded, punctured, mapped to ±1,
/// given the noise `analog.noise_source_f(GR_GAUSSIAN, √(10^(−Es/N0/10)
/// / 2), seed)` makes, depunctured, decoded and packed; the decoded bytes
/// and the sent ones wait in [`take_decoded`](Self::take_decoded) and
/// [`take_sent`](Self::take_sent).
///
/// ```
/// use rfgraph_blocks::fec::{BercurveChain, FecCode, FecCodeParams};
/// let rep = FecCodeParams { code: FecCode::Repetition, frame_size: 64, ..Default::default() };
/// let mut chain = BercurveChain::new(&rep, "11", 6.0, 0)?;
/// chain.push(&[0x5a; 16]);
/// assert_eq!(chain.take_sent(), vec![0x5a; 16]);
/// assert_eq!(chain.take_decoded().len(), 16);
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct BercurveChain {
    encoder: Encoder,
    decoder: Decoder,
    puncture: Option<Puncture>,
    noise: GrRandom,
    amplitude: f32,
    /// Bits (or packed bytes) waiting for a whole encoder frame.
    bits: Vec<u8>,
    coded: Vec<u8>,
    /// Coded bits waiting for a whole puncturing group.
    unpunctured: Vec<u8>,
    punctured: Vec<u8>,
    /// Soft values waiting for a whole decoder frame (and its history).
    soft: Vec<f32>,
    /// Soft bytes, for a punctured (Viterbi) decoder.
    soft_bytes: Vec<u8>,
    received: Vec<f32>,
    decoded_bits: Vec<u8>,
    frame: Vec<u8>,
    /// Decoded bytes not yet written.
    pub(crate) decoded: VecDeque<u8>,
    /// Sent bytes not yet written.
    pub(crate) sent: VecDeque<u8>,
}

impl BercurveChain {
    /// The chain of code `fec`, puncturing pattern `puncpat`, Es/N0
    /// `esno` dB and noise seed `seed` (a negative one counts from 2⁶⁴,
    /// as GNU Radio's does); what the code or pattern breaks, as an error
    /// of `bercurve_generator`.
    pub fn new(
        fec: &FecCodeParams,
        puncpat: &str,
        esno: f32,
        seed: i64,
    ) -> Result<Self, ParamError> {
        let block = "bercurve_generator";
        fec.check_encoder(block)?;
        let puncture = crate::fec::extended_decoder::check_extended(block, fec, puncpat, "None")?;
        Ok(Self::of(
            Encoder::new(fec, block)?,
            Decoder::new(fec, block)?,
            puncture,
            esno,
            seed,
        ))
    }

    /// The chain of these coders.
    pub(crate) fn of(
        encoder: Encoder,
        decoder: Decoder,
        puncture: Option<Puncture>,
        esno: f32,
        seed: i64,
    ) -> Self {
        // fec_test: math.sqrt((10.0 ** (-esno / 10.0)) / 2.0), a float.
        let amplitude = (10f64.powf(-(esno as f64) / 10.0) / 2.0).sqrt() as f32;
        Self {
            encoder,
            decoder,
            puncture,
            noise: GrRandom::new(seed as u64),
            amplitude,
            bits: Vec::new(),
            coded: Vec::new(),
            unpunctured: Vec::new(),
            punctured: Vec::new(),
            soft: Vec::new(),
            soft_bytes: Vec::new(),
            received: Vec::new(),
            decoded_bits: Vec::new(),
            frame: Vec::new(),
            decoded: VecDeque::new(),
            sent: VecDeque::new(),
        }
    }

    /// Sends `bytes` through the chain: they join the sent bytes, and
    /// every frame they complete is coded, sent and decoded.
    pub fn push(&mut self, bytes: &[u8]) {
        self.sent.extend(bytes);
        if self.encoder.packed_input() {
            self.bits.extend_from_slice(bytes);
        } else {
            self.bits.extend(
                bytes
                    .iter()
                    .flat_map(|&b| (0..8).rev().map(move |i| (b >> i) & 1)),
            );
        }
        let n_in = self.encoder.input_size().max(1);
        let whole = self.bits.len() / n_in * n_in;
        for start in (0..whole).step_by(n_in) {
            self.coded.clear();
            self.coded.resize(self.encoder.output_size(), 0);
            self.encoder
                .encode(&self.bits[start..start + n_in], &mut self.coded);
            self.punctured.clear();
            match &self.puncture {
                None => self.punctured.extend_from_slice(&self.coded),
                Some(p) => {
                    self.unpunctured.extend_from_slice(&self.coded);
                    let groups = self.unpunctured.len() / p.size() * p.size();
                    p.puncture(&self.unpunctured[..groups], &mut self.punctured);
                    self.unpunctured.drain(..groups);
                }
            }
            self.transmit();
        }
        self.bits.drain(..whole);
    }

    /// The decoded bytes so far, taken.
    pub fn take_decoded(&mut self) -> Vec<u8> {
        self.decoded.drain(..).collect()
    }

    /// The sent bytes so far, taken.
    pub fn take_sent(&mut self) -> Vec<u8> {
        self.sent.drain(..).collect()
    }

    /// Maps the punctured bits to ±1, adds the noise and decodes every
    /// frame that completes.
    fn transmit(&mut self) {
        self.received.clear();
        for &b in &self.punctured {
            let symbol = if b & 1 == 1 { 1.0f32 } else { -1.0 };
            self.received
                .push(symbol + self.amplitude * self.noise.gasdev());
        }
        let step = self.decoder.input_size().max(1);
        let need = step + self.decoder.history();
        let out_bits = self.decoder.output_size();
        match &self.puncture {
            None => {
                self.soft.extend_from_slice(&self.received);
                while self.soft.len() >= need {
                    self.frame.clear();
                    self.frame.resize(out_bits, 0);
                    self.decoder
                        .decode_float(&self.soft[..need], &mut self.frame);
                    self.soft.drain(..step);
                    self.decoded_bits.extend_from_slice(&self.frame);
                }
            }
            Some(p) => {
                // `check_extended` keeps puncturing to the Viterbi decoder,
                // whose soft bytes are depunctured with erasures.
                debug_assert_eq!(self.decoder.soft_input(), SoftInput::Uchar);
                let bytes: Vec<u8> = self.received.iter().map(|&x| uchar_rounded(x)).collect();
                p.depuncture(&bytes, HOLE, &mut self.soft_bytes);
                while self.soft_bytes.len() >= need {
                    self.frame.clear();
                    self.frame.resize(out_bits, 0);
                    self.decoder
                        .decode_uchar(&self.soft_bytes[..need], &mut self.frame);
                    self.soft_bytes.drain(..step);
                    self.decoded_bits.extend_from_slice(&self.frame);
                }
            }
        }
        let whole = self.decoded_bits.len() / 8 * 8;
        self.decoded.extend(
            self.decoded_bits[..whole]
                .chunks_exact(8)
                .map(|c| c.iter().fold(0u8, |acc, &b| (acc << 1) | (b & 1))),
        );
        self.decoded_bits.drain(..whole);
    }
}
