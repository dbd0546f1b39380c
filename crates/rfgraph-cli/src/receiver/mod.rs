//! What every receiver command (`rfgraph fm`, `rfgraph adsb`,
//! `rfgraph spectrum`) shares, so that they take the same options and
//! behave the same: where the samples come from ([`input`]), how the graph
//! runs ([`run`](mod@run)), the progress line ([`progress`]), and the
//! control port (`--control`, [`control`]: `fm` and `adsb` flatten
//! [`ControlArgs`] and set [`RunArgs::control`]).
//!
//! A command flattens both option groups into its arguments, opens the
//! input, adds its source, connects its own blocks, and runs:
//!
//! ```ignore
//! #[derive(clap::Args)]
//! pub struct FmArgs {
//!     #[command(flatten)]
//!     input: receiver::InputArgs,
//!     #[command(flatten)]
//!     run: receiver::RunArgs,
//!     // the command's own options
//! }
//!
//! let input = args.input.open()?;                 // checks options, reads metadata
//! let mut fg = rfgraph::Flowgraph::new();
//! let src = input.add_complex(&mut fg)?;          // or add_cu8 for bytes
//! let demod = fg.add_named("demod", ...);
//! fg.connect(src.block, receiver::Source::PORT, demod, "in")?;
//! let outcome = receiver::run(fg, &src, &args.run)?; // progress, Ctrl-C, --stats
//! let sink = outcome.finished.block::<MySink>(sink_id);
//! ```
//!
//! The option groups carry their own help headings (`Input`, `Run`); give
//! the command's own options one too (`help_heading = "FM"`), or clap
//! lists them under `Input`.
//!
//! This module owns only the plumbing: receivers' logic lives in
//! `rfgraph-radio`, and each command's own file builds its graph.

pub mod control;
pub mod input;
pub mod progress;
pub mod run;

pub use control::ControlArgs;
pub use input::{Input, InputArgs, Source};
pub use run::{Outcome, RunArgs, run};

#[cfg(test)]
mod tests;
