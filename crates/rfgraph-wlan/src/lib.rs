//! IEEE 802.11a/g OFDM at 20 MS/s (10 and 5 MHz channels scale the
//! clock): the transmitter, the receiver and MAC framing.
//!
//! The receiver has two stages (see `docs/architecture.md`, "WLAN"):
//! the synchroniser sees every sample and cuts [`burst::Burst`]s; the
//! decoder sees only frames and can run on other cores. The pieces each
//! have their own module and test against the standard's worked example
//! (IEEE 802.11-2016 Annex I) or a straightforward reference.

pub mod burst;
pub mod rate;
