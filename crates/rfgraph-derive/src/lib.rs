//! Derive macros of rfgraph: a block's parameters declared once.
//!
//! - `#[derive(ParamSet)]` on a struct of parameters implements
//!   `rfgraph::params::ParamSet` from its fields and their `#[param(...)]`
//!   attributes: the registry's description, construction from a flowgraph
//!   file's values, reading and live setting by name, and validation. See
//!   the `rfgraph::params` module docs for the attribute reference and an
//!   example.
//! - `#[derive(ParamChoice)]` on a fieldless enum implements
//!   `rfgraph::params::ParamValue` and `ParamChoice`: the enum is a string
//!   parameter whose choices are its variants' names.
//!
//! This crate owns only the code generation; every type and rule the
//! generated code uses lives in `rfgraph::params`, so the expansion stays
//! a short list of calls a reader can follow.

mod attrs;
mod choice;
mod param_set;

use proc_macro::TokenStream;

/// Implements `rfgraph::params::ParamSet` for a struct whose fields are a
/// block's parameters (see `rfgraph::params`).
#[proc_macro_derive(ParamSet, attributes(param, params))]
pub fn derive_param_set(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    param_set::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Implements `rfgraph::params::ParamValue` and `ParamChoice` for a
/// fieldless enum: a string parameter whose choices are the variants'
/// names (snake case, or `#[choice(name = "...")]`, with optional
/// `alias = "..."`).
#[proc_macro_derive(ParamChoice, attributes(choice))]
pub fn derive_param_choice(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    choice::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
