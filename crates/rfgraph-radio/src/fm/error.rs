//! `FmError`: what can go wrong configuring or assembling the FM receiver,
//! each naming the parameter and the range it must lie in.

use rfgraph::GraphError;
use rfgraph_dsp::DspError;

/// An invalid receiver parameter, or a failure adding its blocks.
#[derive(Debug, thiserror::Error)]
pub enum FmError {
    /// A parameter outside its range.
    #[error("FM receiver: {name} = {value} is invalid: {expected}")]
    Param {
        /// The parameter.
        name: &'static str,
        /// Its value.
        value: f64,
        /// What it must be.
        expected: String,
    },
    /// A block's parameter outside its declaration, naming it.
    #[error("FM receiver: {0}")]
    Block(#[from] rfgraph::ParamError),
    /// A filter or kernel could not be made from the parameters.
    #[error("FM receiver: {0}")]
    Dsp(#[from] DspError),
    /// The RDS decoder could not be added.
    #[error("FM receiver: RDS: {0}")]
    Rds(#[from] crate::rds::RdsError),
    /// Connecting the receiver's blocks failed (a source port of the wrong
    /// item type, say).
    #[error("FM receiver: {0}")]
    Graph(#[from] GraphError),
}

impl FmError {
    pub(crate) fn param(name: &'static str, value: f64, expected: impl Into<String>) -> Self {
        FmError::Param {
            name,
            value,
            expected: expected.into(),
        }
    }
}
