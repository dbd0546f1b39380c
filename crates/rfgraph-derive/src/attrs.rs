//! Attribute reading shared by the derives: doc comments as one line, and
//! snake-case names of identifiers.

use syn::{Attribute, Expr, Lit, Meta};

/// The text of the `///` comments in `attrs`, each line trimmed, joined
/// by spaces; `None` when there are none.
pub(crate) fn doc_line(attrs: &[Attribute]) -> Option<String> {
    let mut parts = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(lit) = &nv.value
            && let Lit::Str(s) = &lit.lit
        {
            let text = s.value();
            let text = text.trim();
            if !text.is_empty() {
                parts.push(text.to_string());
            }
        }
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// `CamelCase` → `camel_case`.
pub(crate) fn snake_case(ident: &str) -> String {
    let mut out = String::new();
    for (i, c) in ident.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_docs() {
        assert_eq!(snake_case("BlackmanHarris"), "blackman_harris");
        assert_eq!(snake_case("Sine"), "sine");
        let attrs: Vec<Attribute> = vec![
            syn::parse_quote!(#[doc = " the wave's "]),
            syn::parse_quote!(#[doc = " frequency"]),
        ];
        assert_eq!(doc_line(&attrs).as_deref(), Some("the wave's frequency"));
        assert_eq!(doc_line(&[]), None);
    }
}
