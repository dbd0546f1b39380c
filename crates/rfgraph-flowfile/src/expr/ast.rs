//! The syntax tree of an expression. Every node keeps its byte range (for
//! errors) and its depth (bounded, so evaluating and dropping a tree never
//! recurse deeper than [`MAX_DEPTH`](super::MAX_DEPTH)).

use std::ops::Range;

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
        }
    }
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Is,
    IsNot,
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnOp {
    Neg,
    Pos,
    Invert,
    Not,
}

/// One argument of a call, `name=` for keyword arguments.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Arg {
    pub name: Option<String>,
    pub value: Node,
}

/// What is inside `[...]` after a value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Subscript {
    Index(Node),
    Slice(Option<Node>, Option<Node>, Option<Node>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NodeKind {
    Int(i64),
    Float(f64),
    Imag(f64),
    Str(String),
    Bool(bool),
    None,
    Name(String),
    Attr(Box<Node>, String),
    List(Vec<Node>),
    Tuple(Vec<Node>),
    Unary(UnOp, Box<Node>),
    Binary(BinOp, Box<Node>, Box<Node>),
    Compare(Box<Node>, Vec<(CmpOp, Node)>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    IfElse(Box<Node>, Box<Node>, Box<Node>),
    Subscript(Box<Node>, Box<Subscript>),
    Call(Box<Node>, Vec<Arg>),
    /// `[element for name in iterable if condition ...]`.
    ListComp(Box<Comprehension>),
    /// `{key: value, ...}`.
    Dict(Vec<(Node, Node)>),
    /// `{a, b, ...}`.
    Set(Vec<Node>),
    /// `lambda a, b: body`.
    Lambda(Box<LambdaDef>),
}

/// The parts of a `lambda`: its parameters' names and its body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LambdaDef {
    pub params: Vec<String>,
    pub body: Node,
}

/// The parts of a list comprehension (one `for`, any `if`s).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Comprehension {
    pub element: Node,
    pub name: String,
    pub iterable: Node,
    pub conditions: Vec<Node>,
}

/// A node with its byte range and depth.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub span: Range<usize>,
    pub depth: usize,
}

impl Node {
    /// A node over `span`; its depth is one more than its deepest child.
    pub fn new(kind: NodeKind, span: Range<usize>) -> Self {
        let depth = 1 + children_depth(&kind);
        Self { kind, span, depth }
    }

    /// `a.b.c` as `["a", "b", "c"]` when this node is a dotted name.
    pub fn dotted(&self) -> Option<Vec<&str>> {
        match &self.kind {
            NodeKind::Name(n) => Some(vec![n.as_str()]),
            NodeKind::Attr(base, attr) => {
                let mut path = base.dotted()?;
                path.push(attr.as_str());
                Some(path)
            }
            _ => None,
        }
    }

    /// Every name this expression reads (the first part of dotted names),
    /// keyword argument names excluded.
    pub fn names<'a>(&'a self, out: &mut Vec<&'a str>) {
        match &self.kind {
            NodeKind::Name(n) => out.push(n),
            NodeKind::Attr(base, _) => base.names(out),
            NodeKind::List(items) | NodeKind::Tuple(items) | NodeKind::Set(items) => {
                items.iter().for_each(|n| n.names(out))
            }
            NodeKind::Dict(pairs) => pairs.iter().for_each(|(k, v)| {
                k.names(out);
                v.names(out);
            }),
            NodeKind::Unary(_, a) => a.names(out),
            NodeKind::Binary(_, a, b) | NodeKind::And(a, b) | NodeKind::Or(a, b) => {
                a.names(out);
                b.names(out);
            }
            NodeKind::Compare(a, rest) => {
                a.names(out);
                rest.iter().for_each(|(_, n)| n.names(out));
            }
            NodeKind::IfElse(a, b, c) => {
                a.names(out);
                b.names(out);
                c.names(out);
            }
            NodeKind::Subscript(a, s) => {
                a.names(out);
                match &**s {
                    Subscript::Index(i) => i.names(out),
                    Subscript::Slice(x, y, z) => {
                        [x, y, z].into_iter().flatten().for_each(|n| n.names(out))
                    }
                }
            }
            NodeKind::Call(f, args) => {
                f.names(out);
                args.iter().for_each(|a| a.value.names(out));
            }
            NodeKind::ListComp(c) => {
                c.iterable.names(out);
                let mut inner = Vec::new();
                c.element.names(&mut inner);
                c.conditions.iter().for_each(|n| n.names(&mut inner));
                out.extend(inner.into_iter().filter(|n| *n != c.name));
            }
            NodeKind::Lambda(l) => {
                let mut inner = Vec::new();
                l.body.names(&mut inner);
                out.extend(
                    inner
                        .into_iter()
                        .filter(|n| !l.params.iter().any(|p| p == n)),
                );
            }
            NodeKind::Int(_)
            | NodeKind::Float(_)
            | NodeKind::Imag(_)
            | NodeKind::Str(_)
            | NodeKind::Bool(_)
            | NodeKind::None => {}
        }
    }
}

impl Node {
    /// Every dotted name this expression reads in full (`np.exp`,
    /// `x`), and the names it binds itself (comprehension variables,
    /// inner lambdas' parameters).
    pub fn paths<'a>(&'a self, out: &mut Vec<Vec<&'a str>>, bound: &mut Vec<&'a str>) {
        if let Some(path) = self.dotted() {
            out.push(path);
            return;
        }
        let mut walk = |n: &'a Node| n.paths(out, bound);
        match &self.kind {
            NodeKind::Attr(a, _) | NodeKind::Unary(_, a) => walk(a),
            NodeKind::List(items) | NodeKind::Tuple(items) | NodeKind::Set(items) => {
                items.iter().for_each(walk)
            }
            NodeKind::Dict(pairs) => pairs.iter().flat_map(|(k, v)| [k, v]).for_each(walk),
            NodeKind::Binary(_, a, b) | NodeKind::And(a, b) | NodeKind::Or(a, b) => {
                walk(a);
                walk(b);
            }
            NodeKind::Compare(a, rest) => {
                walk(a);
                rest.iter().for_each(|(_, n)| walk(n));
            }
            NodeKind::IfElse(a, b, c) => {
                walk(a);
                walk(b);
                walk(c);
            }
            NodeKind::Subscript(a, sub) => {
                walk(a);
                match &**sub {
                    Subscript::Index(i) => walk(i),
                    Subscript::Slice(x, y, z) => [x, y, z].into_iter().flatten().for_each(walk),
                }
            }
            NodeKind::Call(f, args) => {
                walk(f);
                args.iter().for_each(|a| walk(&a.value));
            }
            NodeKind::ListComp(c) => {
                walk(&c.element);
                walk(&c.iterable);
                c.conditions.iter().for_each(walk);
                bound.push(&c.name);
            }
            NodeKind::Lambda(l) => {
                walk(&l.body);
                bound.extend(l.params.iter().map(String::as_str));
            }
            _ => {}
        }
    }
}

fn children_depth(kind: &NodeKind) -> usize {
    let max = |nodes: &mut dyn Iterator<Item = &Node>| nodes.map(|n| n.depth).max().unwrap_or(0);
    match kind {
        NodeKind::Attr(a, _) | NodeKind::Unary(_, a) => a.depth,
        NodeKind::List(items) | NodeKind::Tuple(items) | NodeKind::Set(items) => {
            max(&mut items.iter())
        }
        NodeKind::Dict(pairs) => max(&mut pairs.iter().flat_map(|(k, v)| [k, v])),
        NodeKind::Binary(_, a, b) | NodeKind::And(a, b) | NodeKind::Or(a, b) => {
            a.depth.max(b.depth)
        }
        NodeKind::Compare(a, rest) => a.depth.max(max(&mut rest.iter().map(|(_, n)| n))),
        NodeKind::IfElse(a, b, c) => a.depth.max(b.depth).max(c.depth),
        NodeKind::Subscript(a, s) => a.depth.max(match &**s {
            Subscript::Index(i) => i.depth,
            Subscript::Slice(x, y, z) => max(&mut [x, y, z].into_iter().flatten()),
        }),
        NodeKind::Call(f, args) => f.depth.max(max(&mut args.iter().map(|a| &a.value))),
        NodeKind::ListComp(c) => c
            .element
            .depth
            .max(c.iterable.depth)
            .max(max(&mut c.conditions.iter())),
        NodeKind::Lambda(l) => l.body.depth,
        _ => 0,
    }
}
