//! Variables that poll a value while the graph runs (GRC's
//! `variable_function_probe`, a TOML variable's `probe`): the builder
//! resolves each probe to a block's reading, a block's parameter or
//! another variable (`VariableProbes::resolve`), and whoever runs the
//! graph calls [`VariableProbes::poll`] now and then, which reads the
//! values that are due and sets their variables through the
//! [`Controller`], with every block setting that depends on them.
//!
//! GNU Radio calls `self.BLOCK.FUNCTION(ARGS)` from a thread of its own.
//! rfgraph has no methods to call: `FUNCTION` names one of the block's
//! readings (`level` of a `probe_signal`), or is `get_NAME` for its
//! reading or parameter `NAME` (`get_gain`, GNU Radio's getter of a
//! parameter); the arguments GNU Radio would pass (a channel number) are
//! not needed and are ignored. An empty block is the flowgraph itself,
//! whose `get_NAME` is variable `NAME`.

use crate::build::Controller;
use crate::build::vars::eval_value;
use crate::expr::{Env, Value};
use crate::model::{Document, FileError, VariableProbe};
use rfgraph::params::ParamSpec;
use rfgraph::registry::suggest::closest;
use rfgraph::{BlockId, Flowgraph, FlowgraphHandle, HandleError};
use std::time::{Duration, Instant};

/// How long a poll waits for a block's reply: a block busy in `work`
/// answers between two calls.
const REPLY_TIMEOUT: Duration = Duration::from_secs(1);

/// What one probe reads.
#[derive(Clone, Debug, PartialEq)]
enum Source {
    /// Reading `name` of a block.
    Reading { block: BlockId, name: String },
    /// Parameter `name` of a block.
    Param { block: BlockId, name: String },
    /// Another variable.
    Variable(String),
}

#[derive(Debug)]
struct Probe {
    variable: String,
    source: Source,
    period: Duration,
    due: Instant,
    /// The last error said, so that a failing probe says it once.
    said: Option<String>,
}

/// The probes of one built flowgraph.
#[derive(Debug, Default)]
pub struct VariableProbes {
    probes: Vec<Probe>,
}

/// A block of the built graph, as a probe finds it: instance name, id
/// and parameter declarations.
pub(crate) struct ProbedBlock<'a> {
    pub name: &'a str,
    pub id: BlockId,
    pub params: &'a [ParamSpec],
}

impl ProbedBlock<'_> {
    /// The name of the parameter called `name` (or aliased so).
    fn param(&self, name: &str) -> Option<&'static str> {
        self.params
            .iter()
            .find(|p| p.is_called(name))
            .map(|p| p.name)
    }
}

impl VariableProbes {
    /// Resolves the probes of `doc`'s variables against the built
    /// `blocks` of `fg`; `env` holds the variables (for the rates).
    /// Without `fg` (a check that builds no blocks) the readings cannot
    /// be known, and a function that is no parameter is taken as one.
    /// A probe that is not [`strict`](VariableProbe::strict) and reads
    /// nothing the graph has adds a line to `notices` instead.
    ///
    /// Errors (at the probe): a rate that is not a positive number, an
    /// unknown block (with the closest name), a function that is none of
    /// the block's readings or parameters, a variable getter of an
    /// unknown variable.
    pub(crate) fn resolve(
        doc: &Document,
        env: &Env,
        fg: Option<&Flowgraph>,
        blocks: &[ProbedBlock<'_>],
        notices: &mut Vec<String>,
    ) -> Result<Self, FileError> {
        let mut probes = Vec::new();
        for v in &doc.variables {
            let Some(p) = &v.probe else { continue };
            let key = format!("variables.{}.probe", v.name);
            let period = period(p, env, &key)?;
            let source = match source(doc, p, fg, blocks, &key) {
                Ok(s) => s,
                Err(e) if !p.strict => {
                    notices.push(format!(
                        "the probe of `{}` reads nothing this graph has ({}); it keeps its value",
                        v.name, e.message
                    ));
                    continue;
                }
                Err(e) => return Err(e),
            };
            probes.push(Probe {
                variable: v.name.clone(),
                source,
                period,
                due: Instant::now(),
                said: None,
            });
        }
        Ok(Self { probes })
    }

    /// True when no variable probes anything.
    pub fn is_empty(&self) -> bool {
        self.probes.is_empty()
    }

    /// How long until the next probe is due (zero when one is).
    pub fn next_in(&self) -> Option<Duration> {
        let now = Instant::now();
        self.probes
            .iter()
            .map(|p| p.due.saturating_duration_since(now))
            .min()
    }

    /// Reads every probe that is due and sets its variable through
    /// `control`, the graph running as `handle`. Returns a line for each
    /// probe that failed, once per distinct failure (a probe that keeps
    /// failing the same way says so once).
    pub fn poll(&mut self, control: &mut Controller, handle: &FlowgraphHandle) -> Vec<String> {
        let now = Instant::now();
        let mut said = Vec::new();
        for p in self.probes.iter_mut().filter(|p| p.due <= now) {
            // The next poll counts from this one, as GNU Radio's sleep
            // does; a slow reply delays it rather than piling polls up.
            p.due = now + p.period;
            let result = read(&p.source, control, handle).and_then(|text| {
                let unchanged = control
                    .value(&p.variable)
                    .and_then(crate::lambda::literal)
                    .is_some_and(|cur| cur == text);
                if unchanged {
                    return Ok(());
                }
                control
                    .set(handle, &p.variable, &text)
                    .map_err(|e| e.to_string())
                    .and_then(|change| match change.failed.first() {
                        Some(f) => Err(f.clone()),
                        None => Ok(()),
                    })
            });
            match result {
                Ok(()) => p.said = None,
                Err(e) if p.said.as_deref() != Some(e.as_str()) => {
                    said.push(format!("error: probe `{}`: {e}", p.variable));
                    p.said = Some(e);
                }
                Err(_) => {}
            }
        }
        said
    }
}

/// The value a probe reads now, written as an expression.
fn read(source: &Source, control: &Controller, handle: &FlowgraphHandle) -> Result<String, String> {
    let pmt = match source {
        Source::Reading { block, name } => handle.reading(*block, name, REPLY_TIMEOUT),
        Source::Param { block, name } => handle.param(*block, name, REPLY_TIMEOUT),
        Source::Variable(name) => {
            return control
                .value(name)
                .and_then(crate::lambda::literal)
                .ok_or_else(|| format!("variable `{name}` has no value to pass on"));
        }
    }
    .map_err(|e: HandleError| e.to_string())?;
    Value::from_pmt(&pmt)
        .and_then(|v| crate::lambda::literal(&v))
        .ok_or_else(|| format!("a value no expression can write: {pmt:?}"))
}

/// The probe's poll period from its rate.
fn period(p: &VariableProbe, env: &Env, key: &str) -> Result<Duration, FileError> {
    let key = format!("{key}.rate");
    let rate = eval_value(&p.rate, env, &p.at, &key, false)?
        .as_f64()
        .filter(|r| r.is_finite() && *r > 0.0);
    let Some(rate) = rate else {
        return Err(FileError::new(
            p.at.clone(),
            key,
            "a probe's rate must be a positive number of polls per second",
        ));
    };
    Ok(Duration::from_secs_f64(1.0 / rate.min(1e6)))
}

/// What `p` reads, checked against the graph.
fn source(
    doc: &Document,
    p: &VariableProbe,
    fg: Option<&Flowgraph>,
    blocks: &[ProbedBlock<'_>],
    key: &str,
) -> Result<Source, FileError> {
    let getter = p.function.strip_prefix("get_").filter(|n| !n.is_empty());
    if p.block.is_empty() {
        return match getter {
            Some(name) if doc.variable(name).is_some() => Ok(Source::Variable(name.to_string())),
            _ => Err(FileError::new(
                p.at.clone(),
                key.to_string(),
                format!(
                    "`{}` of the flowgraph itself: only `get_NAME` of a variable NAME can be probed",
                    p.function
                ),
            )),
        };
    }
    let Some(b) = blocks.iter().find(|b| b.name == p.block) else {
        return Err(FileError::new(
            p.at.clone(),
            format!("{key}.block"),
            format!("no block `{}` to probe", p.block),
        )
        .suggest(closest(&p.block, blocks.iter().map(|b| b.name))));
    };
    let Some(fg) = fg else {
        return Ok(match getter.and_then(|g| b.param(g)) {
            Some(name) => Source::Param {
                block: b.id,
                name: name.to_string(),
            },
            None => Source::Reading {
                block: b.id,
                name: p.function.clone(),
            },
        });
    };
    let readings = fg.readings(b.id);
    let reading = |n: &str| readings.iter().find(|r| **r == n);
    if let Some(r) = reading(&p.function).or_else(|| getter.and_then(reading)) {
        return Ok(Source::Reading {
            block: b.id,
            name: r.to_string(),
        });
    }
    if let Some(name) = getter.and_then(|g| b.param(g)) {
        return Ok(Source::Param {
            block: b.id,
            name: name.to_string(),
        });
    }
    let readings = if readings.is_empty() {
        "no readings".to_string()
    } else {
        format!("readings {}", readings.join(", "))
    };
    Err(FileError::new(
        p.at.clone(),
        key.to_string(),
        format!(
            "block `{}` has no reading `{}` and no parameter for it (it has {readings}; `get_NAME` reads parameter NAME)",
            p.block, p.function
        ),
    ))
}
