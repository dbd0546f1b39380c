//! The tokens of an expression: Python's numbers (`2.4e6`, `1_000`,
//! `0x1f`, `1j`), strings, names, keywords and operators, each with its
//! byte range. Owns tokenising only; the grammar is the parser's.

use super::error::{ExprError, ExprErrorKind};
use std::ops::Range;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Int(i64),
    Float(f64),
    Imag(f64),
    Str(String),
    Name(String),
    /// Operators, punctuation and keywords (`and`, `if`, `None`, ...).
    Sym(&'static str),
    End,
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Range<usize>,
}

const KEYWORDS: &[&str] = &[
    "and", "or", "not", "if", "else", "in", "is", "None", "True", "False", "lambda", "for",
    "yield", "await", "def", "class", "import", "from", "return", "del", "pass", "while", "with",
    "as", "global", "nonlocal", "assert", "raise", "try", "except", "finally", "break", "continue",
    "elif",
];

/// Longest first, so `**` wins over `*`.
const SYMBOLS: &[&str] = &[
    "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", ":=", "(", ")", "[", "]", "{", "}", ",",
    ":", ".", "+", "-", "*", "/", "%", "&", "|", "^", "~", "<", ">", "=", ";", "@",
];

fn syntax(message: impl Into<String>, span: Range<usize>) -> ExprError {
    ExprError::new(ExprErrorKind::Syntax(message.into()), span)
}

/// Splits `text` into tokens, ending with [`Tok::End`].
pub(crate) fn tokenize(text: &str) -> Result<Vec<Token>, ExprError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' || c == b'\x0c' {
            i += 1;
            continue;
        }
        if c == b'\\' && matches!(bytes.get(i + 1), Some(b'\n')) {
            i += 2;
            continue;
        }
        if c == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let (tok, end) = number(text, i)?;
            tokens.push(Token {
                tok,
                span: start..end,
            });
            i = end;
            continue;
        }
        if c == b'\'' || c == b'"' {
            let (s, end) = string(text, i, false)?;
            tokens.push(Token {
                tok: Tok::Str(s),
                span: start..end,
            });
            i = end;
            continue;
        }
        if (c == b'r' || c == b'R') && matches!(bytes.get(i + 1), Some(b'\'' | b'"')) {
            let (s, end) = string(text, i + 1, true)?;
            tokens.push(Token {
                tok: Tok::Str(s),
                span: start..end,
            });
            i = end;
            continue;
        }
        if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 {
            let mut end = i;
            for (off, ch) in text[i..].char_indices() {
                if ch == '_' || ch.is_alphanumeric() {
                    end = i + off + ch.len_utf8();
                } else {
                    break;
                }
            }
            if end == i {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(syntax(
                    format!("unexpected character `{ch}`"),
                    i..i + ch.len_utf8(),
                ));
            }
            let word = &text[i..end];
            let tok = match KEYWORDS.iter().find(|k| **k == word) {
                Some(k) => Tok::Sym(k),
                None => Tok::Name(word.to_string()),
            };
            if let (Tok::Name(_), Some(b'\'' | b'"')) = (&tok, bytes.get(end)) {
                return Err(ExprError::new(
                    ExprErrorKind::Unsupported(format!("the string prefix `{word}`")),
                    i..end,
                ));
            }
            tokens.push(Token {
                tok,
                span: start..end,
            });
            i = end;
            continue;
        }
        match SYMBOLS.iter().find(|s| text[i..].starts_with(**s)) {
            Some(s) => {
                tokens.push(Token {
                    tok: Tok::Sym(s),
                    span: i..i + s.len(),
                });
                i += s.len();
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(syntax(
                    format!("unexpected character `{ch}`"),
                    i..i + ch.len_utf8(),
                ));
            }
        }
    }
    tokens.push(Token {
        tok: Tok::End,
        span: text.len()..text.len(),
    });
    Ok(tokens)
}

/// Digits with single underscores between them, in `radix`; the end.
fn digits(bytes: &[u8], mut i: usize, radix: u32) -> (usize, bool) {
    let start = i;
    let mut ok = true;
    while i < bytes.len() {
        let b = bytes[i];
        let separator = b == b'_'
            && i > start
            && bytes
                .get(i + 1)
                .is_some_and(|n| (*n as char).is_digit(radix));
        if (b as char).is_digit(radix) || separator {
            i += 1;
        } else {
            if b == b'_' {
                ok = false;
            }
            break;
        }
    }
    (i, ok)
}

fn number(text: &str, start: usize) -> Result<(Tok, usize), ExprError> {
    let bytes = text.as_bytes();
    let bad = |end: usize| syntax("invalid number", start..end.max(start + 1));
    // 0x, 0o, 0b
    if bytes[start] == b'0'
        && let Some(radix) = match bytes.get(start + 1) {
            Some(b'x' | b'X') => Some(16),
            Some(b'o' | b'O') => Some(8),
            Some(b'b' | b'B') => Some(2),
            _ => None,
        }
    {
        let mut first = start + 2;
        if bytes.get(first) == Some(&b'_') {
            first += 1;
        }
        let (end, ok) = digits(bytes, first, radix);
        if !ok || end == first || ident_follows(bytes, end) {
            return Err(bad(end));
        }
        let clean: String = text[first..end].chars().filter(|&c| c != '_').collect();
        let value = i64::from_str_radix(&clean, radix)
            .map_err(|_| ExprError::new(ExprErrorKind::Overflow, start..end))?;
        return Ok((Tok::Int(value), end));
    }
    let (int_end, ok) = digits(bytes, start, 10);
    if !ok {
        return Err(bad(int_end + 1));
    }
    let mut end = int_end;
    let mut is_float = false;
    if bytes.get(end) == Some(&b'.') {
        is_float = true;
        end += 1;
        if bytes.get(end).is_some_and(u8::is_ascii_digit) {
            let (e, ok) = digits(bytes, end, 10);
            if !ok {
                return Err(bad(e + 1));
            }
            end = e;
        }
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut e = end + 1;
        if matches!(bytes.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        if !bytes.get(e).is_some_and(u8::is_ascii_digit) {
            return Err(bad(e));
        }
        let (e2, ok) = digits(bytes, e, 10);
        if !ok {
            return Err(bad(e2 + 1));
        }
        end = e2;
        is_float = true;
    }
    let clean: String = text[start..end].chars().filter(|&c| c != '_').collect();
    if matches!(bytes.get(end), Some(b'j' | b'J')) {
        let value: f64 = clean.parse().map_err(|_| bad(end))?;
        end += 1;
        if ident_follows(bytes, end) {
            return Err(bad(end));
        }
        return Ok((Tok::Imag(value), end));
    }
    if ident_follows(bytes, end) {
        return Err(bad(end + 1));
    }
    if is_float {
        let value: f64 = clean.parse().map_err(|_| bad(end))?;
        return Ok((Tok::Float(value), end));
    }
    if clean.len() > 1 && clean.starts_with('0') && clean.bytes().any(|b| b != b'0') {
        return Err(syntax(
            "leading zeros in a decimal integer (write 0o for octal)",
            start..end,
        ));
    }
    let value: i64 = clean
        .parse()
        .map_err(|_| ExprError::new(ExprErrorKind::Overflow, start..end))?;
    Ok((Tok::Int(value), end))
}

fn ident_follows(bytes: &[u8], i: usize) -> bool {
    bytes
        .get(i)
        .is_some_and(|b| *b == b'_' || b.is_ascii_alphanumeric() || *b >= 0x80)
}

/// A quoted string starting at `start` (the quote); its value and end.
fn string(text: &str, start: usize, raw: bool) -> Result<(String, usize), ExprError> {
    let bytes = text.as_bytes();
    let q = bytes[start];
    let triple = bytes.get(start + 1) == Some(&q) && bytes.get(start + 2) == Some(&q);
    let mut i = start + if triple { 3 } else { 1 };
    let mut out = String::new();
    loop {
        let Some(ch) = text[i..].chars().next() else {
            return Err(syntax("unterminated string", start..text.len()));
        };
        if ch as u32 == q as u32 {
            if !triple {
                return Ok((out, i + 1));
            }
            if bytes.get(i + 1) == Some(&q) && bytes.get(i + 2) == Some(&q) {
                return Ok((out, i + 3));
            }
        }
        if ch == '\n' && !triple {
            return Err(syntax("unterminated string", start..i));
        }
        if ch == '\\' && !raw {
            let Some(next) = text[i + 1..].chars().next() else {
                return Err(syntax("unterminated string", start..text.len()));
            };
            let esc_end = i + 1 + next.len_utf8();
            match next {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                '\\' => out.push('\\'),
                '\'' => out.push('\''),
                '"' => out.push('"'),
                '\n' => {}
                'x' | 'u' => {
                    let n = if next == 'x' { 2 } else { 4 };
                    let hex = text.get(esc_end..esc_end + n).unwrap_or("");
                    let code = u32::from_str_radix(hex, 16)
                        .ok()
                        .filter(|_| hex.len() == n && hex.bytes().all(|b| b.is_ascii_hexdigit()))
                        .and_then(char::from_u32)
                        .ok_or_else(|| syntax("invalid escape", i..esc_end))?;
                    out.push(code);
                    i = esc_end + n;
                    continue;
                }
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
            i = esc_end;
            continue;
        }
        if ch == '\\' && raw {
            out.push('\\');
            if let Some(next) = text[i + 1..].chars().next() {
                out.push(next);
                i += 1 + next.len_utf8();
                continue;
            }
        }
        out.push(ch);
        i += ch.len_utf8();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        tokenize(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn python_numbers() {
        assert_eq!(
            toks("2.4e6 1_000 0x1f 1j .5 5. 0 00 1e-3 2.5J 0b101 0o17"),
            vec![
                Tok::Float(2.4e6),
                Tok::Int(1000),
                Tok::Int(31),
                Tok::Imag(1.0),
                Tok::Float(0.5),
                Tok::Float(5.0),
                Tok::Int(0),
                Tok::Int(0),
                Tok::Float(1e-3),
                Tok::Imag(2.5),
                Tok::Int(5),
                Tok::Int(15),
                Tok::End
            ]
        );
        for bad in [
            "1__0",
            "1_",
            "012",
            "1e",
            "0x",
            "1abc",
            "99999999999999999999",
        ] {
            assert!(tokenize(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn strings_names_and_operators() {
        assert_eq!(
            toks(r#"'a\n' "b" r'\d' x_1 ** // not"#),
            vec![
                Tok::Str("a\n".into()),
                Tok::Str("b".into()),
                Tok::Str("\\d".into()),
                Tok::Name("x_1".into()),
                Tok::Sym("**"),
                Tok::Sym("//"),
                Tok::Sym("not"),
                Tok::End
            ]
        );
        let e = tokenize("'abc").unwrap_err();
        assert_eq!(e.span, 0..4);
        let e = tokenize("1 $ 2").unwrap_err();
        assert_eq!(e.span, 2..3);
    }
}
