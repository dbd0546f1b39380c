//! [`RdsError`]: why an RDS block could not be built.

/// Why an RDS demodulator or decoder could not be built.
#[derive(Debug, thiserror::Error)]
pub enum RdsError {
    /// The multiplex rate is outside what the demodulator accepts.
    #[error(
        "multiplex rate {0} Hz: the RDS demodulator needs 128 kHz to 10 MHz (the 57 kHz subcarrier must fit)"
    )]
    Rate(f64),
    /// A block's parameter outside its declaration, naming it.
    #[error(transparent)]
    Param(#[from] rfgraph::ParamError),
    /// A filter could not be designed.
    #[error("RDS filter design: {0}")]
    Dsp(#[from] rfgraph_dsp::DspError),
    /// Connecting the blocks failed.
    #[error(transparent)]
    Graph(#[from] rfgraph::GraphError),
}
