//! `#[derive(ParamChoice)]`: a fieldless enum as a string parameter whose
//! choices are its variants, by snake-case name or `#[choice(name = ...)]`,
//! each with optional `alias = ...` spellings that parse to it.

use crate::attrs::snake_case;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr};

pub(crate) fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new(
            input.span(),
            "ParamChoice is derived for a fieldless enum",
        ));
    };
    let mut idents = Vec::new();
    let mut names = Vec::new();
    let mut spellings = Vec::new();
    for variant in &data.variants {
        if !matches!(variant.fields, Fields::Unit) {
            return Err(syn::Error::new(
                variant.span(),
                "ParamChoice variants carry no fields",
            ));
        }
        let mut name = snake_case(&variant.ident.to_string());
        let mut all = Vec::new();
        for attr in variant.attrs.iter().filter(|a| a.path().is_ident("choice")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("name") {
                    name = meta.value()?.parse::<LitStr>()?.value();
                } else if meta.path.is_ident("alias") {
                    all.push(meta.value()?.parse::<LitStr>()?.value());
                } else {
                    return Err(meta.error("expected `name = \"...\"` or `alias = \"...\"`"));
                }
                Ok(())
            })?;
        }
        all.insert(0, name.clone());
        // Names parse in any case.
        let all: Vec<String> = all.iter().map(|s| s.to_ascii_lowercase()).collect();
        idents.push(&variant.ident);
        names.push(name);
        spellings.push(all);
    }
    let ident = &input.ident;
    let arms = idents.iter().zip(&spellings).map(|(v, all)| {
        quote! { #( #all )|* => ::core::option::Option::Some(Self::#v), }
    });
    Ok(quote! {
        impl ::rfgraph::params::ParamChoice for #ident {
            const NAMES: &'static [&'static str] = &[ #( #names ),* ];
            const SPELLINGS: &'static [&'static str] = &[ #( #( #spellings ),* ),* ];

            fn choice_name(&self) -> &'static str {
                match self { #( Self::#idents => #names, )* }
            }

            fn from_choice(name: &str) -> ::core::option::Option<Self> {
                match name.trim().to_ascii_lowercase().as_str() {
                    #( #arms )*
                    _ => ::core::option::Option::None,
                }
            }
        }

        impl ::rfgraph::params::ParamValue for #ident {
            const TYPE: ::rfgraph::params::ParamType = ::rfgraph::params::ParamType::String;

            fn from_pmt(pmt: ::rfgraph::Pmt) -> ::core::result::Result<Self, ::rfgraph::params::PmtTypeError> {
                ::rfgraph::params::choice_from_pmt(pmt)
            }

            fn to_pmt(&self) -> ::rfgraph::Pmt {
                ::rfgraph::Pmt::from(::rfgraph::params::ParamChoice::choice_name(self))
            }

            fn choices() -> ::std::vec::Vec<&'static str> {
                <Self as ::rfgraph::params::ParamChoice>::NAMES.to_vec()
            }

            fn spellings() -> ::std::vec::Vec<&'static str> {
                <Self as ::rfgraph::params::ParamChoice>::SPELLINGS.to_vec()
            }
        }
    })
}
