//! A YAML document as a tree whose every node knows its line and column,
//! read from `saphyr-parser`'s events, for the GRC importer's errors.
//!
//! GRC writes plain YAML: mappings, sequences and scalars, no tags that
//! matter. Every scalar stays text (GRC itself treats parameter values as
//! Python source), with a flag saying whether it was written plain, so
//! `null`/`~` can be told from the string `'null'`. Aliases are expanded,
//! within a bound on the number of nodes so that a "billion laughs"
//! document is an error, not an exhausted machine; nesting is bounded
//! too, and the tree is built without recursion. This module owns the
//! tree and its reading; it knows nothing of GRC.

use saphyr_parser::{Event, Parser, ScalarStyle, Span};
use std::collections::HashMap;
use std::fmt;

/// The most nodes a document may expand to (aliases included).
pub const MAX_NODES: usize = 2_000_000;
/// The deepest nesting of sequences and mappings accepted.
pub const MAX_DEPTH: usize = 64;

/// A place in the text: line and column, both counted from 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub col: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

impl Pos {
    fn of(span: &Span) -> Self {
        Pos {
            line: span.start.line(),
            col: span.start.col() + 1,
        }
    }
}

/// What a node holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A scalar's text; `plain` when written without quotes or block
    /// style.
    Scalar {
        /// The text.
        text: String,
        /// Written plain (so `null`, `~` and nothing mean no value).
        plain: bool,
    },
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, in file order (keys are nodes: GRC only uses scalars).
    Map(Vec<(Node, Node)>),
}

/// One node of the tree and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Its value.
    pub value: Value,
    /// Where it starts.
    pub pos: Pos,
}

impl Node {
    /// The scalar's text, if this is a scalar that is not null.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar { text, .. } if !self.is_null() => Some(text),
            _ => None,
        }
    }

    /// True for a plain `null`, `~`, `Null`, `NULL` or empty scalar.
    pub fn is_null(&self) -> bool {
        matches!(&self.value, Value::Scalar { text, plain: true }
            if matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL"))
    }

    /// The entries, if this is a mapping.
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items, if this is a sequence.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The value under the scalar key `key`, if this is a mapping that
    /// has it (the first one, if written twice).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// What kind of node this is, for error messages.
    pub fn kind(&self) -> &'static str {
        match &self.value {
            Value::Scalar { .. } if self.is_null() => "null",
            Value::Scalar { .. } => "a scalar",
            Value::Seq(_) => "a sequence",
            Value::Map(_) => "a mapping",
        }
    }

    fn count(&self) -> usize {
        let mut n = 0;
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            n += 1;
            match &node.value {
                Value::Scalar { .. } => {}
                Value::Seq(items) => stack.extend(items),
                Value::Map(entries) => {
                    for (k, v) in entries {
                        stack.push(k);
                        stack.push(v);
                    }
                }
            }
        }
        n
    }
}

/// A document that is not YAML, or exceeds the limits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct YamlError {
    /// Where.
    pub pos: Pos,
    /// What.
    pub message: String,
}

enum Frame {
    Seq {
        items: Vec<Node>,
        pos: Pos,
        anchor: usize,
    },
    Map {
        entries: Vec<(Node, Node)>,
        key: Option<Node>,
        pos: Pos,
        anchor: usize,
    },
}

struct Builder {
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    nodes: usize,
    root: Option<Node>,
    documents: usize,
}

impl Builder {
    fn push_node(&mut self, node: Node, anchor: usize) -> Result<(), YamlError> {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                None => *key = Some(node),
                Some(k) => entries.push((k, node)),
            },
        }
        Ok(())
    }

    fn grow(&mut self, n: usize, pos: Pos) -> Result<(), YamlError> {
        self.nodes += n;
        if self.nodes > MAX_NODES {
            return Err(YamlError {
                pos,
                message: format!("the document expands to more than {MAX_NODES} nodes"),
            });
        }
        Ok(())
    }

    fn event(&mut self, event: Event<'_>, pos: Pos) -> Result<(), YamlError> {
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(YamlError {
                        pos,
                        message: "a second YAML document: a flowgraph file holds one".into(),
                    });
                }
            }
            Event::Scalar(text, style, anchor, _tag) => {
                self.grow(1, pos)?;
                let node = Node {
                    value: Value::Scalar {
                        text: text.into_owned(),
                        plain: style == ScalarStyle::Plain,
                    },
                    pos,
                };
                self.push_node(node, anchor)?;
            }
            Event::Alias(id) => {
                let node = self.anchors.get(&id).cloned().ok_or_else(|| YamlError {
                    pos,
                    message: "an alias to an unknown anchor".into(),
                })?;
                self.grow(node.count(), pos)?;
                self.push_node(Node { pos, ..node }, 0)?;
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                self.grow(1, pos)?;
                if self.stack.len() >= MAX_DEPTH {
                    return Err(YamlError {
                        pos,
                        message: format!("nested deeper than {MAX_DEPTH} levels"),
                    });
                }
                self.stack
                    .push(if matches!(event, Event::SequenceStart(..)) {
                        Frame::Seq {
                            items: Vec::new(),
                            pos,
                            anchor,
                        }
                    } else {
                        Frame::Map {
                            entries: Vec::new(),
                            key: None,
                            pos,
                            anchor,
                        }
                    });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (node, anchor) = match self.stack.pop() {
                    Some(Frame::Seq { items, pos, anchor }) => (
                        Node {
                            value: Value::Seq(items),
                            pos,
                        },
                        anchor,
                    ),
                    Some(Frame::Map {
                        entries,
                        pos,
                        anchor,
                        ..
                    }) => (
                        Node {
                            value: Value::Map(entries),
                            pos,
                        },
                        anchor,
                    ),
                    None => {
                        return Err(YamlError {
                            pos,
                            message: "the end of a collection that never started".into(),
                        });
                    }
                };
                self.push_node(node, anchor)?;
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {}
        }
        Ok(())
    }
}

/// Parses `text` into its one document's tree. An empty document is a
/// null scalar at 1:1.
pub fn parse(text: &str) -> Result<Node, YamlError> {
    let mut builder = Builder {
        stack: Vec::new(),
        anchors: HashMap::new(),
        nodes: 0,
        root: None,
        documents: 0,
    };
    let mut parser = Parser::new_from_str(text);
    while let Some(next) = parser.next_event() {
        match next {
            Ok((event, span)) => builder.event(event, Pos::of(&span))?,
            Err(e) => {
                return Err(YamlError {
                    pos: Pos {
                        line: e.marker().line(),
                        col: e.marker().col() + 1,
                    },
                    message: e.info().to_string(),
                });
            }
        }
    }
    Ok(builder.root.unwrap_or(Node {
        value: Value::Scalar {
            text: String::new(),
            plain: true,
        },
        pos: Pos { line: 1, col: 1 },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_know_their_line_and_column() {
        let doc = parse("options:\n  id: top\nblocks:\n- name: a\n  value: '1'\n  x: ~\n").unwrap();
        let blocks = doc.get("blocks").unwrap().as_seq().unwrap();
        assert_eq!(blocks[0].pos, Pos { line: 4, col: 3 });
        let value = blocks[0].get("value").unwrap();
        assert_eq!(value.as_str(), Some("1"));
        assert_eq!(value.pos, Pos { line: 5, col: 10 });
        assert!(blocks[0].get("x").unwrap().is_null());
        assert_eq!(
            doc.get("options").unwrap().get("id").unwrap().as_str(),
            Some("top")
        );
    }

    #[test]
    fn quoted_null_is_text_and_flow_sequences_work() {
        let doc = parse("a: 'null'\nb: [x, '0', y, '1']\n").unwrap();
        assert_eq!(doc.get("a").unwrap().as_str(), Some("null"));
        let b: Vec<_> = doc
            .get("b")
            .unwrap()
            .as_seq()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(b, ["x", "0", "y", "1"]);
    }

    #[test]
    fn bad_documents_are_errors_with_a_place() {
        let e = parse("a: [1, 2\nb: c\n").unwrap_err();
        assert!(e.pos.line >= 1, "{e}");
        let e = parse("a: 1\n---\nb: 2\n").unwrap_err();
        assert_eq!(e.pos.line, 2, "{e}");
        let deep = "[".repeat(200);
        let e = parse(&deep).unwrap_err();
        assert!(
            e.message.contains("nested deeper") || e.pos.line == 1,
            "{e}"
        );
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let e = parse(&text).unwrap_err();
        assert!(e.message.contains("more than"), "{e}");
        let ok = parse("a: &x [1, 2]\nb: *x\n").unwrap();
        assert_eq!(ok.get("b").unwrap().as_seq().unwrap().len(), 2);
        assert_eq!(ok.get("b").unwrap().pos.line, 2);
    }
}
