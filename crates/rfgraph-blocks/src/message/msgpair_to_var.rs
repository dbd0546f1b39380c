//! `msgpair_to_var`: sets a flowgraph variable from the value of every
//! message pair arriving (GNU Radio's `blocks_msgpair_to_var`,
//! `blocks.msg_pair_to_var`), as [`MsgPairToVar`]. Setting a variable is
//! the flowgraph runner's business: the block gets a [`VariableSetter`]
//! from whoever builds it; [`spec_with`] makes the registry entry around
//! one (rfgraph's flowfile builder hands the requests to its controller).

use super::pdu::parse;
use rfgraph::registry::BlockSpec;
use rfgraph::{Block, BoxError, ParamError, ParamSet, Pmt, Ports, WorkIo};
use std::sync::Arc;

/// Sets the variable named by the first argument to the value of the
/// second; an error is the setter's refusal (the block counts it, as
/// GNU Radio's logs it).
pub type VariableSetter = Arc<dyn Fn(&str, Pmt) -> Result<(), String> + Send + Sync>;

/// The parameters of [`MsgPairToVar`] (`msgpair_to_var`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct MsgPairToVarParams {
    /// the flowgraph variable set
    #[param(default = "freq")]
    pub target: String,
}

/// Sets the flowgraph variable `target` to the second element of every
/// message pair arriving on `inpair`, as GNU Radio's `msg_pair_to_var`:
/// a message that is no pair, or a PDU, is dropped; the first element is
/// ignored.
///
/// # Parameters
/// [`MsgPairToVarParams`], and the [`VariableSetter`].
///
/// # Message Inputs
/// - `inpair`: pairs `(name . value)`.
///
/// # Usage
/// ```
/// use rfgraph::Pmt;
/// use rfgraph_blocks::message::{MsgPairToVar, MsgPairToVarParams};
/// use std::sync::Arc;
/// let print = Arc::new(|name: &str, v: Pmt| {
///     println!("{name} = {v:?}");
///     Ok(())
/// });
/// let block = MsgPairToVar::new(MsgPairToVarParams { target: "freq".into() }, print)?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct MsgPairToVar {
    params: MsgPairToVarParams,
    setter: VariableSetter,
    dropped: u64,
    refused: u64,
}

impl MsgPairToVar {
    /// Sets `params.target` through `setter`.
    pub fn new(params: MsgPairToVarParams, setter: VariableSetter) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            params,
            setter,
            dropped: 0,
            refused: 0,
        })
    }

    /// Messages dropped: no pair, or a PDU.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Values the setter refused.
    pub fn refused(&self) -> u64 {
        self.refused
    }
}

impl Block for MsgPairToVar {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new().message_input("inpair")
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        match &msg {
            Pmt::Pair(pair) if parse(&msg).is_none() => {
                if (self.setter)(&self.params.target, pair.1.clone()).is_err() {
                    self.refused += 1;
                }
            }
            _ => self.dropped += 1,
        }
        Ok(Pmt::Null)
    }
}

/// `msgpair_to_var` (GNU Radio's `blocks_msgpair_to_var`), setting
/// variables through `setter`.
pub fn spec_with(setter: VariableSetter) -> BlockSpec {
    BlockSpec::of::<MsgPairToVarParams>(
        "msgpair_to_var",
        "Message Tools",
        "Sets a flowgraph variable from every message pair's value.",
        move |p| Ok(Box::new(MsgPairToVar::new(p, setter.clone())?)),
    )
    .doc("Sets the flowgraph variable `target` to the second element of every message pair arriving on `inpair` (the first is ignored); a message that is no pair, or a PDU, is dropped. The variable must be one the runner may change while running (`settable`). GNU Radio's `blocks_msgpair_to_var`.")
    .message_input("inpair")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn pairs_set_the_target_and_other_messages_are_dropped() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let setter: VariableSetter = Arc::new(move |name: &str, v: Pmt| {
            if v == Pmt::Bool(false) {
                return Err("no".into());
            }
            log.lock().unwrap().push((name.to_string(), v));
            Ok(())
        });
        let mut b = MsgPairToVar::new(
            MsgPairToVarParams {
                target: "test".into(),
            },
            setter,
        )
        .unwrap();
        let mut io = WorkIo::default();
        let pair = |a: Pmt, b: Pmt| Pmt::Pair(Box::new((a, b)));
        for msg in [
            pair(Pmt::from("testval"), Pmt::I64(5)),
            Pmt::I64(3),
            super::super::pdu::pdu(Default::default(), Pmt::Blob(vec![1])),
            pair(Pmt::from("x"), Pmt::Bool(false)),
        ] {
            b.handle_message("inpair", msg, &mut io).unwrap();
        }
        assert_eq!(*seen.lock().unwrap(), [("test".to_string(), Pmt::I64(5))]);
        assert_eq!((b.dropped(), b.refused()), (2, 1));
    }
}
