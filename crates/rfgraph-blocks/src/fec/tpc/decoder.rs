//! [`TpcDecoder`]: GNU Radio's `tpc_decoder`. The frame's soft values
//! (positive for a 1) fill the product codeword after `B` erasures; each
//! turbo iteration decodes every row (channel values plus the columns'
//! extrinsic information) and then every column (the rows' outputs less
//! that information), until `max_iter` iterations or until no column
//! decoder changes a sign. The bits are the signs of the last column
//! outputs at the information positions after the first `B + Q`.

use super::maxstar::MaxStar;
use super::params::TpcShape;
use super::siso::Siso;

/// A turbo product decoder.
#[derive(Clone, Debug)]
pub(crate) struct TpcDecoder {
    shape: TpcShape,
    star: MaxStar,
    max_iter: usize,
    rows: Siso,
    cols: Siso,
    /// The channel values, `height × width`, row-major.
    channel: Vec<f32>,
    /// The rows' outputs less the extrinsic information, row-major.
    z: Vec<f32>,
    /// The columns' extrinsic information, row-major.
    extrinsic: Vec<f32>,
    row_in: Vec<f32>,
    row_out: Vec<f32>,
    col_in: Vec<f32>,
    /// The columns' outputs, column-major; kept between frames as GNU
    /// Radio keeps them (with no iterations a frame reads the last).
    col_out: Vec<f32>,
}

impl TpcDecoder {
    pub(crate) fn new(shape: TpcShape, max_iter: usize, decoder_type: i64) -> Self {
        let (w, h) = (shape.width(), shape.height());
        Self {
            rows: Siso::new(shape.row.clone(), shape.krow),
            cols: Siso::new(shape.col.clone(), shape.kcol),
            star: MaxStar::of(decoder_type),
            max_iter,
            channel: vec![0.0; w * h],
            z: vec![0.0; w * h],
            extrinsic: vec![0.0; w * h],
            row_in: vec![0.0; w],
            row_out: vec![0.0; w],
            col_in: vec![0.0; h],
            col_out: vec![0.0; w * h],
            shape,
        }
    }

    pub(crate) fn input_size(&self) -> usize {
        self.shape.coded_bits()
    }

    pub(crate) fn output_size(&self) -> usize {
        self.shape.info_bits()
    }

    /// Decodes one frame of `input_size` soft values into
    /// `output_size` bits.
    pub(crate) fn decode(&mut self, input: &[f32], output: &mut [u8]) {
        let (w, h) = (self.shape.width(), self.shape.height());
        let b = self.shape.bval;
        self.channel[..b].fill(0.0);
        self.channel[b..].copy_from_slice(&input[..w * h - b]);
        self.extrinsic.fill(0.0);
        for _ in 0..self.max_iter {
            for m in 0..h {
                let at = m * w..(m + 1) * w;
                for ((i, &c), &e) in self
                    .row_in
                    .iter_mut()
                    .zip(&self.channel[at.clone()])
                    .zip(&self.extrinsic[at.clone()])
                {
                    *i = c + e;
                }
                self.rows.decode(self.star, &self.row_in, &mut self.row_out);
                for ((z, &o), &e) in self.z[at.clone()]
                    .iter_mut()
                    .zip(&self.row_out)
                    .zip(&self.extrinsic[at])
                {
                    *z = o - e;
                }
            }
            let mut settled = true;
            for n in 0..w {
                for (ii, v) in self.col_in.iter_mut().enumerate() {
                    *v = self.z[ii * w + n];
                }
                let out = &mut self.col_out[n * h..(n + 1) * h];
                self.cols.decode(self.star, &self.col_in, out);
                for (ii, (&o, &i)) in out.iter().zip(&self.col_in).enumerate() {
                    self.extrinsic[ii * w + n] = o - i;
                    if settled && sign(o) != sign(i) {
                        settled = false;
                    }
                }
            }
            if settled {
                break;
            }
        }
        let (krow, kcol) = (self.shape.krow, self.shape.kcol);
        let first = b + self.shape.qval;
        for (o, cell) in output.iter_mut().zip(first..krow * kcol) {
            let (m, n) = (cell / krow, cell % krow);
            *o = (self.col_out[n * h + m] > 0.0) as u8;
        }
    }
}

/// GNU Radio's `sgn`: −1, 0 or 1 (0 for NaN).
fn sign(x: f32) -> i32 {
    (x > 0.0) as i32 - (x < 0.0) as i32
}
