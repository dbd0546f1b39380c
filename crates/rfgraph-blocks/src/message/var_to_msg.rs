//! `var_to_msg`: posts a flowgraph variable's new value as a message
//! pair whenever the variable changes (GNU Radio's `blocks_var_to_msg`,
//! `blocks.var_to_msg_pair`), as [`VarToMsg`] with its registry entry.

use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, MessageOutput, ParamError, ParamSet, Pmt, Ports};

/// The parameters of [`VarToMsg`] (`var_to_msg`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct VarToMsgParams {
    /// the pair's name (its first element)
    #[param(default = "freq", alias = "pairname")]
    pub msgname: String,
    /// the watched value: a flowgraph file gives the variable here; each
    /// new value is posted
    #[param(default = Pmt::Null, settable)]
    pub target: Pmt,
}

/// Posts `(msgname, value)` on `msgout` each time `target` takes a new
/// value (a settable variable it is given changed); nothing at start, as
/// GNU Radio's block, which posts only from its `variable_changed`
/// callback. A value goes as it is: integers as `I64`, reals as `F64`,
/// booleans, text as a string (GNU Radio's `from_long`, `from_double`,
/// `from_bool`, `intern`).
///
/// # Parameters
/// [`VarToMsgParams`]; `target` has a message input of its name.
///
/// # Message Inputs
/// - `target`: a new value (the setting).
///
/// # Message Outputs
/// - `msgout`: pairs `(msgname, value)`.
///
/// # Usage
/// ```
/// use rfgraph::Pmt;
/// use rfgraph_blocks::message::{VarToMsg, VarToMsgParams};
/// let block = VarToMsg::new(VarToMsgParams {
///     msgname: "freq".into(),
///     target: Pmt::F64(100e6),
/// })?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct VarToMsg {
    output: MessageOutput,
    params: VarToMsgParams,
}

impl VarToMsg {
    /// Watches `params.target`.
    pub fn new(params: VarToMsgParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: MessageOutput::new("msgout"),
            params,
        })
    }
}

impl Block for VarToMsg {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name == "target" {
            self.output.post(Pmt::Pair(Box::new((
                Pmt::String(self.params.msgname.clone()),
                self.params.target.clone(),
            ))));
        }
        Ok(())
    }
}

/// `var_to_msg`: GNU Radio's `blocks_var_to_msg`.
pub(crate) fn spec() -> BlockSpec {
    BlockSpec::of::<VarToMsgParams>(
        "var_to_msg",
        "Message Tools",
        "Posts a variable's new value as a message pair.",
        |p| Ok(Box::new(VarToMsg::new(p)?)),
    )
    .doc("Posts `(msgname, value)` on `msgout` each time `target` takes a new value: give it a settable variable (`target = \"freq\"` in a file; GRC's `Variable`) and every change of that variable (`rfgraph run --control-stdin`, the control port) is posted; nothing is posted at start, as GNU Radio's `blocks_var_to_msg` posts only from its callback. Integers go as 64-bit integers, reals as doubles, booleans as booleans, text as a symbol (GNU Radio's `from_long`, `from_double`, `from_bool`, `intern`).")
    .message_output("msgout")
}
