//! `pdu_lambda`: applies a function to every PDU's data, to one of its
//! metadata values, or to the whole message (GNU Radio's
//! `pdu_pdu_lambda`), as [`PduLambda`]. The function is not a parameter
//! value: whoever builds the block compiles it from the declared
//! parameters (its text, [`PduLambdaParams::function`]) and hands it over
//! as a [`PmtFunction`]; [`spec_with`] makes the registry entry around
//! such a compiler (rfgraph's flowfile crate supplies its expression
//! language's lambdas).

use super::pdu::{meta_pair, pdu};
use rfgraph::registry::BlockSpec;
use rfgraph::{
    Block, BoxError, MessageOutput, ParamChoice, ParamError, ParamSet, Pmt, Ports, WorkIo,
};
use std::sync::Arc;

/// A function on message values, as [`PduLambda`] applies it: an error
/// leaves the value as it was (GNU Radio prints the exception and passes
/// the PDU on unchanged).
pub type PmtFunction = Arc<dyn Fn(&Pmt) -> Result<Pmt, String> + Send + Sync>;

/// Makes the [`PmtFunction`] of a block's parameters (see [`spec_with`]).
pub type PmtFunctionCompiler =
    Arc<dyn Fn(&PduLambdaParams) -> Result<PmtFunction, String> + Send + Sync>;

/// What [`PduLambda`] applies its function to (GNU Radio's `metadict`).
#[derive(ParamChoice, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PduLambdaMode {
    /// The metadata value of `key` (GNU Radio's `"META"`).
    #[choice(alias = "META")]
    Meta,
    /// The PDU's data vector (`"UVEC"`).
    #[choice(alias = "UVEC")]
    Uvec,
    /// The whole message (`"RAW"`).
    #[choice(alias = "RAW")]
    Raw,
}

/// The parameters of [`PduLambda`] (`pdu_lambda`, GNU Radio's
/// `pdu_pdu_lambda`).
#[derive(ParamSet, Clone, Debug, PartialEq)]
pub struct PduLambdaParams {
    /// the function, as written (`lambda x: x * 10`); the builder
    /// compiles it. It may change while running (GNU Radio's `set_fn`)
    /// when the block was made with its compiler ([`spec_with`])
    #[param(default = "lambda x: x * 10", alias = "fn", settable)]
    pub function: String,
    /// what the function gets: `meta` (the value of `key`), `uvec` (the
    /// data vector) or `raw` (the message)
    #[param(default = PduLambdaMode::Uvec, alias = "metadict")]
    pub mode: PduLambdaMode,
    /// the metadata key (`meta`); it may change while running (GNU
    /// Radio's callback sets the function to it instead, a slip)
    #[param(default = "key", settable)]
    pub key: String,
}

/// Python's truth of a message value as GNU Radio's block sees it
/// (`pmt.to_python`): a vector of more than one element has none
/// (numpy's "truth value of an array ... is ambiguous").
fn truthy(v: &Pmt) -> Result<bool, String> {
    Ok(match v {
        Pmt::Null => false,
        Pmt::Bool(b) => *b,
        Pmt::I64(x) => *x != 0,
        Pmt::U64(x) => *x != 0,
        Pmt::F32(x) => *x != 0.0,
        Pmt::F64(x) => *x != 0.0,
        Pmt::Complex(c) => c[0] != 0.0 || c[1] != 0.0,
        Pmt::String(s) => !s.is_empty(),
        Pmt::Map(m) => !m.is_empty(),
        Pmt::List(l) | Pmt::Tuple(l) => !l.is_empty(),
        Pmt::Blob(b) => vector_truth(b.len(), || b[0] != 0)?,
        Pmt::VecF32(x) => vector_truth(x.len(), || x[0] != 0.0)?,
        Pmt::VecComplexF32(x) => vector_truth(x.len(), || x[0] != [0.0, 0.0])?,
        Pmt::Uniform(u) => vector_truth(u.len(), || true)?,
        _ => true,
    })
}

/// numpy's truth of an array of `len` elements whose first is `first`.
fn vector_truth(len: usize, first: impl Fn() -> bool) -> Result<bool, String> {
    match len {
        0 => Ok(false),
        1 => Ok(first()),
        _ => Err("the truth value of an array with more than one element is ambiguous".into()),
    }
}

/// Applies a function to every PDU arriving on `pdu` and posts the result
/// on `pdu`, as GNU Radio's `pdu_pdu_lambda`:
/// - `meta`: to the metadata value of `key`, when it is true in Python's
///   sense (a missing key is `None`: the key is then set to `Null`);
/// - `uvec`: to the data vector;
/// - `raw`: to the whole message (which need not be a PDU).
///
/// When the function fails, the PDU goes on unchanged (GNU Radio prints
/// the exception); [`failures`](Self::failures) counts them. A message
/// that is no PDU is an error (`meta`, `uvec`).
///
/// # Parameters
/// [`PduLambdaParams`], and the compiled function.
///
/// # Message Inputs
/// - `pdu`: PDUs (any message, `raw`).
///
/// # Message Outputs
/// - `pdu`: the PDUs, changed.
///
/// # Usage
/// ```
/// use rfgraph::Pmt;
/// use rfgraph_blocks::message::{PduLambda, PduLambdaMode, PduLambdaParams};
/// use std::sync::Arc;
/// let twice = Arc::new(|v: &Pmt| match v {
///     Pmt::VecF32(x) => Ok(Pmt::VecF32(x.iter().map(|x| 2.0 * x).collect())),
///     other => Err(format!("not floats: {other:?}")),
/// });
/// let params = PduLambdaParams {
///     function: "lambda x: x * 2".into(),
///     mode: PduLambdaMode::Uvec,
///     ..Default::default()
/// };
/// let block = PduLambda::new(params, twice)?;
/// # let _ = block;
/// # Ok::<(), rfgraph::ParamError>(())
/// ```
pub struct PduLambda {
    output: MessageOutput,
    params: PduLambdaParams,
    function: PmtFunction,
    compile: Option<PmtFunctionCompiler>,
    failures: u64,
}

impl PduLambda {
    /// Applies `function` as `params.mode` says.
    pub fn new(params: PduLambdaParams, function: PmtFunction) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(Self {
            output: MessageOutput::new("pdu"),
            params,
            function,
            compile: None,
            failures: 0,
        })
    }

    /// Applies the function `compile` makes of `params.function`, and
    /// makes it anew when `function` changes while running.
    ///
    /// Errors: invalid parameters, or the compiler's refusal (on
    /// `function`).
    pub fn with_compiler(
        params: PduLambdaParams,
        compile: PmtFunctionCompiler,
    ) -> Result<Self, ParamError> {
        let f = compile(&params).map_err(|e| ParamError::new("pdu_lambda", "function", e))?;
        let mut block = Self::new(params, f)?;
        block.compile = Some(compile);
        Ok(block)
    }

    /// How many times the function failed (the PDU went on unchanged).
    pub fn failures(&self) -> u64 {
        self.failures
    }

    /// The message `msg` becomes.
    fn apply(&mut self, msg: Pmt) -> Result<Pmt, BoxError> {
        let f = &self.function;
        if self.params.mode == PduLambdaMode::Raw {
            return Ok(match f(&msg) {
                Ok(out) => out,
                Err(_) => {
                    self.failures += 1;
                    msg
                }
            });
        }
        let (mut meta, data) = meta_pair(&msg).ok_or("expected a PDU ([metadata map, data])")?;
        match self.params.mode {
            PduLambdaMode::Meta => {
                let key = &self.params.key;
                let val = meta.get(key).cloned().unwrap_or(Pmt::Null);
                let changed = truthy(&val).and_then(|t| if t { f(&val) } else { Ok(val) });
                match changed {
                    Ok(v) => {
                        meta.insert(key.clone(), v);
                    }
                    Err(_) => self.failures += 1,
                }
                Ok(pdu(meta, data.clone()))
            }
            _ => Ok(match f(data) {
                Ok(v) => pdu(meta, v),
                Err(_) => {
                    self.failures += 1;
                    msg
                }
            }),
        }
    }
}

impl Block for PduLambda {
    fn ports(&mut self) -> Ports<'_> {
        Ports::new()
            .message_input("pdu")
            .message_output(&mut self.output)
    }

    fn params(&mut self) -> Option<&mut dyn ParamSet> {
        Some(&mut self.params)
    }

    fn params_changed(&mut self, name: &str) -> Result<(), BoxError> {
        if name != "function" {
            return Ok(());
        }
        let Some(compile) = &self.compile else {
            return Err("this block's function was given compiled: it cannot change".into());
        };
        self.function = compile(&self.params)?;
        Ok(())
    }

    fn handle_message(&mut self, _port: &str, msg: Pmt, _io: &mut WorkIo) -> Result<Pmt, BoxError> {
        let out = self.apply(msg)?;
        self.output.post(out);
        Ok(Pmt::Null)
    }
}

/// `pdu_lambda` (GNU Radio's `pdu_pdu_lambda`), its function made by
/// `compile` from the checked parameters: a compiler's error is the
/// block's refusal, on its `function` parameter. The library registers
/// no `pdu_lambda` of its own; a flowgraph builder that has a language
/// for functions registers this one.
pub fn spec_with(compile: PmtFunctionCompiler) -> BlockSpec {
    let checker = compile.clone();
    BlockSpec::of::<PduLambdaParams>(
        "pdu_lambda",
        "Packet Operators",
        "Applies a function to every PDU's data, a metadata value, or the message.",
        move |p| Ok(Box::new(PduLambda::with_compiler(p, compile.clone())?)),
    )
    .check_params(move |p: &PduLambdaParams| {
        checker(p)
            .map(drop)
            .map_err(|e| ParamError::new("pdu_lambda", "function", e))
    })
    .doc("Applies the function `function` (`fn`, GNU Radio's Python lambda) to every PDU from `pdu` and posts the result on `pdu`. `mode` (`metadict`): `meta` applies it to the metadata value of `key` when that is true in Python's sense (a missing key is set to null), `uvec` to the data vector, `raw` to the whole message. `function` and `key` may change while running (GNU Radio's `set_fn`). When the function fails the PDU goes on unchanged, as GNU Radio's block prints the exception and passes it on. A message that is no PDU is an error (`meta`, `uvec`). GNU Radio's `pdu_pdu_lambda`.")
    .message_input("pdu")
    .message_output("pdu")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn block(mode: PduLambdaMode, f: PmtFunction) -> PduLambda {
        let params = PduLambdaParams {
            mode,
            key: "k".into(),
            ..Default::default()
        };
        PduLambda::new(params, f).unwrap()
    }

    fn double() -> PmtFunction {
        Arc::new(|v: &Pmt| match v {
            Pmt::I64(x) => Ok(Pmt::I64(2 * x)),
            Pmt::VecF32(x) => Ok(Pmt::VecF32(x.iter().map(|x| 2.0 * x).collect())),
            other => Err(format!("cannot double {other:?}")),
        })
    }

    fn msg(meta: &[(&str, Pmt)], data: Pmt) -> Pmt {
        let meta: BTreeMap<String, Pmt> = meta
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        pdu(meta, data)
    }

    #[test]
    fn modes_apply_as_gnu_radio_applies_them() {
        let data = Pmt::VecF32(vec![1.0, -2.5]);
        let mut uvec = block(PduLambdaMode::Uvec, double());
        let out = uvec.apply(msg(&[], data.clone())).unwrap();
        assert_eq!(out, msg(&[], Pmt::VecF32(vec![2.0, -5.0])));
        // A failing function passes the PDU on.
        let bytes = msg(&[], Pmt::Blob(vec![1]));
        assert_eq!(uvec.apply(bytes.clone()).unwrap(), bytes);
        assert_eq!(uvec.failures(), 1);
        assert!(uvec.apply(Pmt::I64(3)).is_err());

        let mut meta = block(PduLambdaMode::Meta, double());
        let out = meta
            .apply(msg(&[("k", Pmt::I64(21))], data.clone()))
            .unwrap();
        assert_eq!(out, msg(&[("k", Pmt::I64(42))], data.clone()));
        // A false value is kept; a missing one becomes null.
        let zero = msg(&[("k", Pmt::I64(0))], data.clone());
        assert_eq!(meta.apply(zero.clone()).unwrap(), zero);
        let out = meta.apply(msg(&[], data.clone())).unwrap();
        assert_eq!(out, msg(&[("k", Pmt::Null)], data.clone()));
        // An array of several values has no truth: unchanged.
        let vector = msg(&[("k", Pmt::VecF32(vec![1.0, 2.0]))], data.clone());
        assert_eq!(meta.apply(vector.clone()).unwrap(), vector);
        assert_eq!(meta.failures(), 1);

        let mut raw = block(PduLambdaMode::Raw, double());
        assert_eq!(raw.apply(Pmt::I64(4)).unwrap(), Pmt::I64(8));
        assert_eq!(raw.apply(Pmt::Bool(true)).unwrap(), Pmt::Bool(true));
    }

    #[test]
    fn a_compiler_error_is_the_functions_refusal() {
        let spec = spec_with(Arc::new(|p: &PduLambdaParams| {
            if p.function.contains("bad") {
                Err("no such function".to_string())
            } else {
                Ok(double())
            }
        }));
        let given = |f: &str| -> BTreeMap<String, Pmt> {
            [
                ("fn".to_string(), Pmt::from(f)),
                ("metadict".to_string(), Pmt::from("META")),
            ]
            .into()
        };
        assert!(spec.build(given("lambda x: x * 2")).is_ok());
        let e = spec.build(given("bad")).err().unwrap().to_string();
        assert!(e.contains("no such function"), "{e}");
    }

    #[test]
    fn a_new_function_is_compiled_and_a_bad_one_refused() {
        let compile: PmtFunctionCompiler = Arc::new(|p: &PduLambdaParams| {
            let factor: i64 = p
                .function
                .trim_start_matches("times ")
                .parse()
                .map_err(|e: std::num::ParseIntError| e.to_string())?;
            let f: PmtFunction = Arc::new(move |v: &Pmt| match v {
                Pmt::I64(x) => Ok(Pmt::I64(factor * x)),
                other => Err(format!("{other:?}")),
            });
            Ok(f)
        });
        let params = PduLambdaParams {
            function: "times 2".into(),
            mode: PduLambdaMode::Raw,
            ..Default::default()
        };
        let mut b = PduLambda::with_compiler(params, compile).unwrap();
        assert_eq!(b.apply(Pmt::I64(5)).unwrap(), Pmt::I64(10));
        rfgraph::params::apply(&mut b, "function", Pmt::from("times 3")).unwrap();
        assert_eq!(b.apply(Pmt::I64(5)).unwrap(), Pmt::I64(15));
        assert!(rfgraph::params::apply(&mut b, "function", Pmt::from("times x")).is_err());
        assert_eq!(b.apply(Pmt::I64(5)).unwrap(), Pmt::I64(15));
        // A block given its function compiled cannot change it.
        let mut fixed = block(PduLambdaMode::Raw, double());
        assert!(rfgraph::params::apply(&mut fixed, "function", Pmt::from("x")).is_err());
    }
}
