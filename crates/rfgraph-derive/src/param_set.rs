//! `#[derive(ParamSet)]`: one parameter per field, described by the
//! field's type, its `///` comment and its `#[param(...)]` attribute.
//!
//! The expansion is four plain functions (`specs`, `from_values`, `get`,
//! `set`), a `consistent` that calls the struct's own check if it names
//! one, and `Default` when every field has a default. A field marked
//! `#[param(flatten)]` is a parameter set of its own (the parameters a
//! family of blocks shares); its parameters join the struct's.

use crate::attrs::doc_line;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Expr, Fields, Ident, LitStr, Type};

/// What one field's attribute says.
struct Param {
    field: Ident,
    ty: Type,
    name: String,
    doc: String,
    default: Option<Expr>,
    unit: Option<LitStr>,
    min: Option<Expr>,
    max: Option<Expr>,
    above: Option<Expr>,
    below: Option<Expr>,
    max_len: Option<Expr>,
    choices: Option<Expr>,
    kinds: Vec<Ident>,
    aliases: Vec<LitStr>,
    settable: bool,
    /// The field is a parameter set of its own whose parameters join
    /// these (`#[param(flatten)]`).
    flatten: bool,
}

impl Param {
    fn read(field: &syn::Field) -> syn::Result<Self> {
        let ident = field
            .ident
            .clone()
            .ok_or_else(|| syn::Error::new(field.span(), "parameters need named fields"))?;
        let flatten = field.attrs.iter().any(|a| {
            a.path().is_ident("param") && a.parse_args::<Ident>().is_ok_and(|i| i == "flatten")
        });
        let doc = match doc_line(&field.attrs) {
            Some(doc) => doc,
            None if flatten => String::new(),
            None => {
                return Err(syn::Error::new(
                    ident.span(),
                    format!(
                        "parameter `{ident}` needs a `///` comment: it is the parameter's documentation"
                    ),
                ));
            }
        };
        let mut p = Param {
            name: ident.to_string().trim_start_matches("r#").to_string(),
            field: ident,
            ty: field.ty.clone(),
            doc,
            default: None,
            unit: None,
            min: None,
            max: None,
            above: None,
            below: None,
            max_len: None,
            choices: None,
            kinds: Vec::new(),
            aliases: Vec::new(),
            settable: false,
            flatten,
        };
        for attr in field.attrs.iter().filter(|a| a.path().is_ident("param")) {
            attr.parse_nested_meta(|meta| {
                let key = meta
                    .path
                    .get_ident()
                    .map(Ident::to_string)
                    .unwrap_or_default();
                match key.as_str() {
                    "flatten" => {}
                    "settable" => p.settable = true,
                    "name" => p.name = meta.value()?.parse::<LitStr>()?.value(),
                    "unit" => p.unit = Some(meta.value()?.parse()?),
                    "alias" => p.aliases.push(meta.value()?.parse()?),
                    "default" => p.default = Some(meta.value()?.parse()?),
                    "min" => p.min = Some(meta.value()?.parse()?),
                    "max" => p.max = Some(meta.value()?.parse()?),
                    "above" => p.above = Some(meta.value()?.parse()?),
                    "below" => p.below = Some(meta.value()?.parse()?),
                    "max_len" => p.max_len = Some(meta.value()?.parse()?),
                    "choices" => p.choices = Some(meta.value()?.parse()?),
                    "kinds" => meta.parse_nested_meta(|kind| {
                        let ident = kind.path.get_ident().cloned().ok_or_else(|| {
                            kind.error("expected an item kind (`F32`, `C32`, ...)")
                        })?;
                        p.kinds.push(ident);
                        Ok(())
                    })?,
                    _ => {
                        return Err(meta.error(
                            "unknown key; expected one of name, default, unit, min, max, above, \
                             below, max_len, choices, kinds, alias, settable, flatten",
                        ));
                    }
                }
                Ok(())
            })?;
        }
        Ok(p)
    }

    /// True when the field's type is `Option<...>`.
    fn is_option(&self) -> bool {
        matches!(&self.ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"))
    }

    /// The default as a value of the field's type, if the field has one.
    fn default_value(&self) -> Option<TokenStream> {
        let ty = &self.ty;
        if self.flatten {
            return Some(quote! { <#ty as ::core::default::Default>::default() });
        }
        let value = match &self.default {
            Some(Expr::Lit(lit)) if matches!(lit.lit, syn::Lit::Str(_)) => {
                quote! { ::core::convert::Into::into(#lit) }
            }
            Some(e) if self.is_option() => quote! { ::core::option::Option::Some(#e) },
            Some(e) => quote! { #e },
            None if self.is_option() => quote! { ::core::option::Option::None },
            None if !self.kinds.is_empty() => {
                let first = &self.kinds[0];
                quote! { ::rfgraph::params::ItemKind::#first }
            }
            None => return None,
        };
        Some(quote! { { let value: #ty = #value; value } })
    }

    /// The `ParamSpec` expression.
    fn spec(&self) -> TokenStream {
        let (ty, name, doc) = (&self.ty, &self.name, &self.doc);
        let mut spec = quote! { ::rfgraph::params::ParamSpec::of::<#ty>(#name).doc(#doc) };
        if !self.kinds.is_empty() {
            let kinds = &self.kinds;
            spec = quote! { #spec.kinds(&[#(::rfgraph::params::ItemKind::#kinds),*]) };
        }
        if let Some(choices) = &self.choices {
            spec = quote! { #spec.choices(&#choices) };
        }
        if self.default.is_some() || !self.kinds.is_empty() {
            let value = self.default_value();
            spec = quote! { #spec.default_value(&#value) };
        }
        if let Some(unit) = &self.unit {
            spec = quote! { #spec.unit(#unit) };
        }
        for (key, bound) in [
            ("min", &self.min),
            ("max", &self.max),
            ("above", &self.above),
            ("below", &self.below),
        ] {
            if let Some(bound) = bound {
                let method = format_ident!("{key}");
                spec = quote! { #spec.#method((#bound) as f64) };
            }
        }
        if let Some(len) = &self.max_len {
            spec = quote! { #spec.max_len((#len) as usize) };
        }
        for alias in &self.aliases {
            spec = quote! { #spec.alias(#alias) };
        }
        if self.settable {
            spec = quote! { #spec.settable() };
        }
        spec
    }
}

pub(crate) fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new(
            input.span(),
            "ParamSet is derived for a struct of parameters",
        ));
    };
    let Fields::Named(fields) = &data.fields else {
        return Err(syn::Error::new(
            input.span(),
            "ParamSet needs a struct with named fields",
        ));
    };
    let params: Vec<Param> = fields
        .named
        .iter()
        .map(Param::read)
        .collect::<syn::Result<_>>()?;
    let mut check = None;
    let mut no_default = false;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("params")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("check") {
                check = Some(meta.value()?.parse::<Expr>()?);
                Ok(())
            } else if meta.path.is_ident("no_default") {
                no_default = true;
                Ok(())
            } else {
                Err(meta.error("unknown key; expected `check = path::to::fn` or `no_default`"))
            }
        })?;
    }

    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let (nested, own): (Vec<&Param>, Vec<&Param>) = params.iter().partition(|p| p.flatten);
    let spec_pushes = params.iter().map(|p| {
        let ty = &p.ty;
        if p.flatten {
            quote! { specs.extend(<#ty as ::rfgraph::params::ParamSet>::specs()); }
        } else {
            let spec = p.spec();
            quote! { specs.push(#spec); }
        }
    });
    let field_values = params.iter().map(|p| {
        let (field, ty, name) = (&p.field, &p.ty, &p.name);
        if p.flatten {
            quote! { #field: <#ty as ::rfgraph::params::ParamSet>::from_values(values)? }
        } else {
            quote! { #field: values.take(#name)? }
        }
    });
    let own_fields: Vec<&Ident> = own.iter().map(|p| &p.field).collect();
    let own_names: Vec<&str> = own.iter().map(|p| p.name.as_str()).collect();
    let nested_fields: Vec<&Ident> = nested.iter().map(|p| &p.field).collect();
    let setters = own.iter().filter(|p| p.settable).map(|p| {
        let (field, name, ty) = (&p.field, &p.name, &p.ty);
        quote! {
            #name => {
                let spec = ::rfgraph::params::spec_named(<Self as ::rfgraph::params::ParamSet>::specs(), #name)?;
                let new: #ty = ::rfgraph::params::accept(&spec, value)?;
                let old = ::core::mem::replace(&mut self.#field, new);
                if let ::core::result::Result::Err(e) = ::rfgraph::params::ParamSet::consistent(self) {
                    self.#field = old;
                    return ::core::result::Result::Err(e.into());
                }
                ::core::result::Result::Ok(())
            }
        }
    });
    let nested_setters = nested.iter().map(|p| {
        let field = &p.field;
        quote! {
            if let ::core::option::Option::Some(old) = ::rfgraph::params::ParamSet::get(&self.#field, name) {
                ::rfgraph::params::ParamSet::set(&mut self.#field, name, value)?;
                if let ::core::result::Result::Err(e) = ::rfgraph::params::ParamSet::consistent(self) {
                    let _ = ::rfgraph::params::ParamSet::set(&mut self.#field, name, old);
                    return ::core::result::Result::Err(e.into());
                }
                return ::core::result::Result::Ok(());
            }
        }
    });
    let own_check = match &check {
        Some(path) => quote! { (#path)(self) },
        None => quote! { ::core::result::Result::Ok(()) },
    };
    let fields: Vec<&Ident> = params.iter().map(|p| &p.field).collect();
    let default_impl = params
        .iter()
        .map(Param::default_value)
        .collect::<Option<Vec<_>>>()
        .filter(|_| !no_default)
        .map(|defaults| {
            quote! {
                impl #impl_generics ::core::default::Default for #ident #ty_generics #where_clause {
                    fn default() -> Self {
                        Self { #( #fields: #defaults ),* }
                    }
                }
            }
        });

    Ok(quote! {
        impl #impl_generics ::rfgraph::params::ParamSet for #ident #ty_generics #where_clause {
            fn specs() -> ::std::vec::Vec<::rfgraph::params::ParamSpec>
            where
                Self: Sized,
            {
                let mut specs = ::std::vec::Vec::new();
                #( #spec_pushes )*
                specs
            }

            fn from_values(
                values: &::rfgraph::params::Values,
            ) -> ::core::result::Result<Self, ::rfgraph::params::BuildError>
            where
                Self: Sized,
            {
                let this = Self { #( #field_values ),* };
                values.checked(this)
            }

            fn describe(&self) -> ::std::vec::Vec<::rfgraph::params::ParamSpec> {
                <Self as ::rfgraph::params::ParamSet>::specs()
            }

            fn get(&self, name: &str) -> ::core::option::Option<::rfgraph::Pmt> {
                match name {
                    #( #own_names => ::core::option::Option::Some(
                        ::rfgraph::params::ParamValue::to_pmt(&self.#own_fields)
                    ), )*
                    _ => {
                        #( if let ::core::option::Option::Some(v) = ::rfgraph::params::ParamSet::get(&self.#nested_fields, name) {
                            return ::core::option::Option::Some(v);
                        } )*
                        ::core::option::Option::None
                    }
                }
            }

            fn set(
                &mut self,
                name: &str,
                value: ::rfgraph::Pmt,
            ) -> ::core::result::Result<(), ::rfgraph::params::SetError> {
                match name {
                    #( #setters )*
                    _ => {
                        #( #nested_setters )*
                        ::core::result::Result::Err(::rfgraph::params::SetError::not_settable(name))
                    }
                }
            }

            fn consistent(&self) -> ::core::result::Result<(), ::rfgraph::ParamError> {
                #( ::rfgraph::params::ParamSet::consistent(&self.#nested_fields)?; )*
                #own_check
            }
        }

        #default_impl
    })
}
