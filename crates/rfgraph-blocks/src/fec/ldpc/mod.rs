//! The LDPC codes of GNU Radio 3.10's `gr-fec`, value for value: the
//! alist reader ([`Alist`]), GNU Radio's `cldpc` code with its belief
//! propagation decoder (`fec.ldpc_encoder_make`,
//! `fec.ldpc_decoder.make`), and the parity check and generator matrix
//! objects (`fec.ldpc_H_matrix`, `fec.ldpc_G_matrix`) with their
//! encoders and the bit flip decoder. The FEC blocks run them as the
//! codes `ldpc`, `ldpc_h` and `ldpc_g` of
//! [`FecCodeParams`](crate::fec::FecCodeParams).

mod alist;
mod bp;
mod cldpc;
pub(crate) mod coder;
mod gf2;
mod matrix;
mod params;

pub use alist::{Alist, AlistError};
pub use params::LdpcParams;
