//! Turbo product codes as GNU Radio 3.10's `gr-fec` has them
//! (`fec.tpc_encoder_make`, `fec.tpc_decoder.make`), value for value: a
//! `kcol × krow` matrix of bits, its rows and columns each terminated by
//! a recursive systematic convolutional code ([`TpcParams`]' `row_poly`,
//! `col_poly`), decoded by iterating soft-in soft-out row and column
//! decoders with one of GNU Radio's five max* operators. The same soft
//! input decodes to GNU Radio's bits. [`Encoder`](crate::fec::Encoder)
//! and [`Decoder`](crate::fec::Decoder) run them as the code `tpc`.

mod decoder;
mod encoder;
mod maxstar;
mod params;
mod siso;
mod trellis;

pub use params::{MAX_TPC_CELLS, MAX_TPC_POLY, MAX_TPC_SIDE, TpcParams};

pub(crate) use decoder::TpcDecoder;
pub(crate) use encoder::TpcEncoder;
