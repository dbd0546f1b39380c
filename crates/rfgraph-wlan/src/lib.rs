//! IEEE 802.11a/g OFDM at 20 MS/s: the transmitter, the receiver and MAC
//! framing.
//!
//! - The standard's tables, each written once: [`rate`], [`scrambler`],
//!   [`convolutional`] (and its puncturing), [`interleaver`], [`mapping`],
//!   [`ofdm`] (carriers, pilots, polarity), [`preamble`], [`signal`],
//!   [`fcs`], [`mac`].
//! - The transmitter: [`transmitter`]; test captures: [`channel`],
//!   [`scene`].
//! - The receiver, in two stages joined by [`burst`]: the synchroniser
//!   ([`sync`], [`sync_detect`], [`sync_timing`]) sees every sample and
//!   cuts bursts; the decoder ([`decoder`], [`equalizer`], [`demapping`],
//!   [`depuncture`], [`viterbi`]) sees only frames and can run on other
//!   cores. [`receiver`] joins them on one thread; [`block`] makes them
//!   rfgraph blocks. [`pcap`] writes what it decodes for Wireshark.
//!
//! See `docs/architecture.md`, "WLAN". The pieces test against the
//! standard's worked example (IEEE 802.11-2016 Annex I), gr-ieee802-11's
//! captures, or a straightforward reference.

#[cfg(test)]
mod annex_i;
pub mod block;
pub mod burst;
pub mod channel;
pub mod convolutional;
pub mod decoder;
pub mod demapping;
pub mod depuncture;
pub mod equalizer;
pub mod fcs;
pub mod interleaver;
pub mod mac;
pub mod mapping;
pub mod ofdm;
pub mod pcap;
pub mod preamble;
pub mod rate;
pub mod receiver;
pub mod scene;
pub mod scrambler;
pub mod signal;
pub mod sync;
pub mod sync_detect;
pub mod sync_timing;
pub mod transmitter;
pub mod viterbi;
