//! JSON paths for error messages: `captures[2].core:sample_start`.
//!
//! This module owns the path notation and [`path_at`], which finds the
//! path of the value a JSON text was in at a byte offset (where a syntax
//! error was found). It never parses JSON into values: `serde_json` does.

/// The path of key `key` inside the object at `parent` (`""` is the root).
pub(crate) fn key(parent: &str, key: &str) -> String {
    if parent.is_empty() || parent == "$" {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// The path of element `index` of the array at `parent`.
pub(crate) fn index(parent: &str, index: usize) -> String {
    if parent.is_empty() {
        format!("$[{index}]")
    } else {
        format!("{parent}[{index}]")
    }
}

/// One open container while scanning.
enum Frame {
    /// An object, with the last key read (if a key was read at all).
    Object(Option<String>),
    /// An array with the index of the element being read.
    Array(usize),
}

/// The path of the innermost value the JSON `text` was in at byte
/// `offset`: the containers open there, with the key or index being read
/// in each. `$` when no container was open. Linear in `offset`; never
/// fails on any bytes (it tracks only strings, brackets, `:` and `,`).
pub(crate) fn path_at(text: &[u8], offset: usize) -> String {
    let end = offset.min(text.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    // After a string in an object: the string was a key if a key was expected.
    let mut expect_key = false;
    while i < end {
        match text[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < end && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                let s = &text[start..i.min(end)];
                if expect_key && let Some(Frame::Object(k)) = stack.last_mut() {
                    *k = Some(unescape(s));
                    expect_key = false;
                }
            }
            b'{' => {
                stack.push(Frame::Object(None));
                expect_key = true;
            }
            b'[' => {
                stack.push(Frame::Array(0));
                expect_key = false;
            }
            b'}' | b']' => {
                stack.pop();
                expect_key = false;
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(_)) => expect_key = true,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(k)) => path = key(&path, k),
            Frame::Object(None) => {}
            Frame::Array(n) => path = index(&path, *n),
        }
    }
    if path.is_empty() { "$".into() } else { path }
}

/// A key's text without its simplest escapes (enough for a message).
fn unescape(raw: &[u8]) -> String {
    let s = String::from_utf8_lossy(raw);
    if !s.contains('\\') {
        return s.into_owned();
    }
    serde_json::from_str::<String>(&format!("\"{s}\"")).unwrap_or_else(|_| s.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_at_offsets() {
        let text = br#"{"global": {"core:datatype": "cf32_le"}, "captures": [{"core:sample_start": 0}, {"core:frequency": x"#;
        assert_eq!(path_at(text, text.len()), "captures[1].core:frequency");
        let at = text.windows(4).position(|w| w == b"cf32").unwrap() + 2;
        assert_eq!(path_at(text, at), "global.core:datatype");
        assert_eq!(path_at(b"  ", 2), "$");
        assert_eq!(path_at(b"[1, 2, [3", 9), "$[2][0]");
        assert_eq!(path_at(br#"{"a\"b": 1"#, 10), "a\"b");
    }

    #[test]
    fn path_building() {
        assert_eq!(key("", "global"), "global");
        assert_eq!(key("global", "core:hw"), "global.core:hw");
        assert_eq!(index("captures", 3), "captures[3]");
        assert_eq!(index("", 0), "$[0]");
    }
}
