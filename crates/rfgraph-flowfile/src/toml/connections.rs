//! The connection strings of a flowgraph file: `"src.out -> lpf.in"` for
//! streams, `"strobe.strobe => dbg.print"` for messages, chains
//! (`"src -> lpf -> snk"`), and a port left out (`"src"`) when the block
//! has only one port of that kind (the builder picks it). Owns this
//! small syntax only.

use crate::model::{ConnectionKind, Endpoint};

/// One connection read from a string, before locations are attached.
#[derive(Debug, PartialEq)]
pub(crate) struct Link {
    pub from: Endpoint,
    pub to: Endpoint,
    pub kind: ConnectionKind,
}

/// Why a connection string is malformed, and the character offset of the
/// culprit inside it.
#[derive(Debug, PartialEq)]
pub(crate) struct SyntaxError {
    pub message: String,
    pub chars: usize,
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// Whether `name` is a valid block, port or variable name.
pub(crate) fn is_name(name: &str) -> bool {
    is_ident(name)
}

/// `block.port` or `block` (an empty port).
pub(crate) fn endpoint(text: &str) -> Option<Endpoint> {
    let (block, port) = match text.split_once('.') {
        Some((b, p)) => (b, p),
        None => (text, ""),
    };
    if !is_ident(block) || !(port.is_empty() || is_ident(port)) {
        return None;
    }
    Some(Endpoint::new(block, port))
}

/// Reads `a.x -> b.y -> c` into its links.
pub(crate) fn parse(text: &str) -> Result<Vec<Link>, SyntaxError> {
    // Split into endpoints and operators, remembering char offsets.
    let mut parts: Vec<(usize, &str)> = Vec::new();
    let mut ops: Vec<(usize, ConnectionKind)> = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 2 <= bytes.len() {
        let kind = match &bytes[i..i + 2] {
            b"->" => ConnectionKind::Stream,
            b"=>" => ConnectionKind::Message,
            _ => {
                i += 1;
                continue;
            }
        };
        parts.push((start, &text[start..i]));
        ops.push((i, kind));
        i += 2;
        start = i;
    }
    parts.push((start, &text[start..]));
    let chars = |byte: usize| text[..byte.min(text.len())].chars().count();
    if ops.is_empty() {
        return Err(SyntaxError {
            message: "expected `a.out -> b.in` (stream) or `a.out => b.in` (message)".into(),
            chars: 0,
        });
    }
    let mut ends = Vec::new();
    for (off, part) in &parts {
        let trimmed = part.trim();
        let lead = part.len() - part.trim_start().len();
        if trimmed.is_empty() {
            return Err(SyntaxError {
                message: "missing a `block.port` here".into(),
                chars: chars(*off + lead),
            });
        }
        let ep = endpoint(trimmed).ok_or_else(|| SyntaxError {
            message: format!("`{trimmed}` is not `block.port` or `block`"),
            chars: chars(*off + lead),
        })?;
        ends.push(ep);
    }
    Ok(ops
        .iter()
        .enumerate()
        .map(|(k, (_, kind))| Link {
            from: ends[k].clone(),
            to: ends[k + 1].clone(),
            kind: *kind,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_messages_chains_and_defaults() {
        let links = parse("src.out -> lpf.in").unwrap();
        assert_eq!(links.len(), 1);
        assert_eq!(links[0].from, Endpoint::new("src", "out"));
        assert_eq!(links[0].kind, ConnectionKind::Stream);
        let links = parse(" a -> b -> c.in0").unwrap();
        assert_eq!(links.len(), 2);
        assert_eq!(links[1].from, Endpoint::new("b", ""));
        assert_eq!(links[1].to, Endpoint::new("c", "in0"));
        let links = parse("s.strobe=>d.print").unwrap();
        assert_eq!(links[0].kind, ConnectionKind::Message);
    }

    #[test]
    fn errors_point_into_the_string() {
        assert_eq!(parse("a.out").unwrap_err().chars, 0);
        assert_eq!(parse("a.out -> ").unwrap_err().chars, 9);
        assert_eq!(parse("a.out -> b.c.d").unwrap_err().chars, 9);
        assert_eq!(parse("é -> 1x").unwrap_err().chars, 0);
        assert_eq!(parse("-> b").unwrap_err().chars, 0);
        assert!(parse("->").is_err());
        assert!(parse("a=>").is_err());
    }
}
