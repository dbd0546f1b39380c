//! The grammar: Python's expression syntax, precedence and associativity
//! (`x if c else y`, `or`, `and`, `not`, chained comparisons, `| ^ &`,
//! shifts, `+ -`, `* / // %`, unary signs, `**`, calls, indexing,
//! attributes), by recursive descent with a depth bound. Owns parsing
//! only; names mean nothing here.

use super::ast::{Arg, BinOp, CmpOp, Comprehension, LambdaDef, Node, NodeKind, Subscript, UnOp};
use super::error::{ExprError, ExprErrorKind};
use super::lexer::{Tok, Token, tokenize};
use super::{MAX_DEPTH, MAX_TEXT};
use std::ops::Range;

/// Parses `text` as one expression (a top-level `a, b` is a tuple).
pub(crate) fn parse(text: &str) -> Result<Node, ExprError> {
    if text.len() > MAX_TEXT {
        return Err(ExprError::new(
            ExprErrorKind::TooLong {
                size: text.len(),
                limit: MAX_TEXT,
            },
            0..0,
        ));
    }
    let toks = tokenize(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    if p.peek() == &Tok::End {
        return Err(syntax("empty expression", 0..text.len()));
    }
    let (node, _) = p.expr_list(false)?;
    match p.peek() {
        Tok::End => Ok(node),
        _ => Err(p.unexpected()),
    }
}

fn syntax(message: impl Into<String>, span: Range<usize>) -> ExprError {
    ExprError::new(ExprErrorKind::Syntax(message.into()), span)
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn span(&self) -> Range<usize> {
        self.toks[self.pos].span.clone()
    }

    fn at(&self, sym: &str) -> bool {
        matches!(self.peek(), Tok::Sym(s) if *s == sym)
    }

    fn eat(&mut self, sym: &str) -> bool {
        if self.at(sym) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn expect(&mut self, sym: &str) -> Result<Range<usize>, ExprError> {
        if self.at(sym) {
            Ok(self.bump().span)
        } else {
            Err(match self.peek() {
                Tok::End => syntax(format!("expected `{sym}` before the end"), self.span()),
                _ => syntax(
                    format!("expected `{sym}`, found {}", describe(self.peek())),
                    self.span(),
                ),
            })
        }
    }

    fn unexpected(&self) -> ExprError {
        match self.peek() {
            Tok::End => syntax("unexpected end of expression", self.span()),
            Tok::Sym(s @ ("for" | "yield" | "await" | ":=")) => ExprError::new(
                ExprErrorKind::Unsupported(match *s {
                    "for" => "a comprehension".to_string(),
                    other => format!("`{other}`"),
                }),
                self.span(),
            ),
            other => syntax(format!("unexpected {}", describe(other)), self.span()),
        }
    }

    /// Counts one level of nesting; errors past [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ExprError::new(
                ExprErrorKind::TooDeep(MAX_DEPTH),
                self.span(),
            ));
        }
        Ok(())
    }

    fn node(&self, kind: NodeKind, span: Range<usize>) -> Result<Node, ExprError> {
        let node = Node::new(kind, span);
        if node.depth > MAX_DEPTH {
            return Err(ExprError::new(
                ExprErrorKind::TooDeep(MAX_DEPTH),
                node.span.clone(),
            ));
        }
        Ok(node)
    }

    /// `a` or `a, b, ...` (a tuple); inside brackets when `nested`. The
    /// flag says whether a comma made it a tuple (`(a,)`, `[a, b]`).
    fn expr_list(&mut self, nested: bool) -> Result<(Node, bool), ExprError> {
        let first = self.expr()?;
        if !self.at(",") {
            return Ok((first, false));
        }
        let start = first.span.start;
        let mut items = vec![first];
        while self.eat(",") {
            if self.ends_list(nested) {
                break;
            }
            items.push(self.expr()?);
        }
        let end = items.last().map_or(start, |n| n.span.end);
        Ok((self.node(NodeKind::Tuple(items), start..end)?, true))
    }

    fn ends_list(&self, nested: bool) -> bool {
        match self.peek() {
            Tok::End => !nested,
            Tok::Sym(")" | "]") => nested,
            _ => false,
        }
    }

    fn expr(&mut self) -> Result<Node, ExprError> {
        self.enter()?;
        let r = self.ternary();
        self.depth -= 1;
        r
    }

    fn ternary(&mut self) -> Result<Node, ExprError> {
        if self.at("lambda") {
            return self.lambda();
        }
        let then = self.or_test()?;
        if !self.eat("if") {
            return Ok(then);
        }
        let cond = self.or_test()?;
        if !self.at("else") {
            return Err(syntax(
                "expected `else` in a conditional expression",
                self.span(),
            ));
        }
        self.bump();
        let other = self.expr()?;
        let span = then.span.start..other.span.end;
        self.node(
            NodeKind::IfElse(Box::new(cond), Box::new(then), Box::new(other)),
            span,
        )
    }

    /// `lambda a, b: body` (plain positional parameters only).
    fn lambda(&mut self) -> Result<Node, ExprError> {
        let start = self.bump().span.start;
        let mut params: Vec<String> = Vec::new();
        while !self.at(":") {
            let t = self.bump();
            let Tok::Name(name) = t.tok else {
                return Err(match t.tok {
                    Tok::Sym("*" | "**" | "=") => ExprError::new(
                        ExprErrorKind::Unsupported(
                            "lambda parameters other than plain names".into(),
                        ),
                        t.span,
                    ),
                    Tok::End => syntax("expected `:` in a lambda", t.span),
                    other => syntax(
                        format!("expected a parameter name, found {}", describe(&other)),
                        t.span,
                    ),
                });
            };
            if params.contains(&name) {
                return Err(syntax(
                    format!("duplicate argument `{name}` in a lambda"),
                    t.span,
                ));
            }
            params.push(name);
            if self.at("=") {
                return Err(ExprError::new(
                    ExprErrorKind::Unsupported("lambda parameters with defaults".into()),
                    self.span(),
                ));
            }
            if !self.eat(",") {
                break;
            }
        }
        self.expect(":")?;
        let body = self.expr()?;
        let span = start..body.span.end;
        self.node(NodeKind::Lambda(Box::new(LambdaDef { params, body })), span)
    }

    fn or_test(&mut self) -> Result<Node, ExprError> {
        let mut left = self.and_test()?;
        while self.eat("or") {
            let right = self.and_test()?;
            let span = left.span.start..right.span.end;
            left = self.node(NodeKind::Or(Box::new(left), Box::new(right)), span)?;
        }
        Ok(left)
    }

    fn and_test(&mut self) -> Result<Node, ExprError> {
        let mut left = self.not_test()?;
        while self.eat("and") {
            let right = self.not_test()?;
            let span = left.span.start..right.span.end;
            left = self.node(NodeKind::And(Box::new(left), Box::new(right)), span)?;
        }
        Ok(left)
    }

    fn not_test(&mut self) -> Result<Node, ExprError> {
        if self.at("not") {
            let start = self.bump().span.start;
            self.enter()?;
            let operand = self.not_test();
            self.depth -= 1;
            let operand = operand?;
            let span = start..operand.span.end;
            return self.node(NodeKind::Unary(UnOp::Not, Box::new(operand)), span);
        }
        self.comparison()
    }

    fn cmp_op(&mut self) -> Option<CmpOp> {
        let op = match self.peek() {
            Tok::Sym("==") => CmpOp::Eq,
            Tok::Sym("!=") => CmpOp::Ne,
            Tok::Sym("<") => CmpOp::Lt,
            Tok::Sym("<=") => CmpOp::Le,
            Tok::Sym(">") => CmpOp::Gt,
            Tok::Sym(">=") => CmpOp::Ge,
            Tok::Sym("in") => CmpOp::In,
            Tok::Sym("is") => {
                self.bump();
                return Some(if self.eat("not") {
                    CmpOp::IsNot
                } else {
                    CmpOp::Is
                });
            }
            Tok::Sym("not") if matches!(self.toks.get(self.pos + 1), Some(t) if t.tok == Tok::Sym("in")) =>
            {
                self.bump();
                CmpOp::NotIn
            }
            _ => return None,
        };
        self.bump();
        Some(op)
    }

    fn comparison(&mut self) -> Result<Node, ExprError> {
        let first = self.bitor()?;
        let mut rest = Vec::new();
        while let Some(op) = self.cmp_op() {
            rest.push((op, self.bitor()?));
        }
        if rest.is_empty() {
            return Ok(first);
        }
        let span = first.span.start..rest.last().map_or(first.span.end, |(_, n)| n.span.end);
        self.node(NodeKind::Compare(Box::new(first), rest), span)
    }

    fn binary_level(
        &mut self,
        ops: &[(&str, BinOp)],
        next: fn(&mut Self) -> Result<Node, ExprError>,
    ) -> Result<Node, ExprError> {
        let mut left = next(self)?;
        loop {
            let Some(&(_, op)) = ops.iter().find(|(s, _)| self.at(s)) else {
                return Ok(left);
            };
            self.bump();
            let right = next(self)?;
            let span = left.span.start..right.span.end;
            left = self.node(NodeKind::Binary(op, Box::new(left), Box::new(right)), span)?;
        }
    }

    fn bitor(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("|", BinOp::BitOr)], Self::bitxor)
    }

    fn bitxor(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("^", BinOp::BitXor)], Self::bitand)
    }

    fn bitand(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("&", BinOp::BitAnd)], Self::shift)
    }

    fn shift(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("<<", BinOp::Shl), (">>", BinOp::Shr)], Self::arith)
    }

    fn arith(&mut self) -> Result<Node, ExprError> {
        self.binary_level(&[("+", BinOp::Add), ("-", BinOp::Sub)], Self::term)
    }

    fn term(&mut self) -> Result<Node, ExprError> {
        let node = self.binary_level(
            &[
                ("*", BinOp::Mul),
                ("/", BinOp::Div),
                ("//", BinOp::FloorDiv),
                ("%", BinOp::Mod),
            ],
            Self::factor,
        )?;
        if self.at("@") {
            return Err(ExprError::new(
                ExprErrorKind::Unsupported("matrix multiplication `@`".into()),
                self.span(),
            ));
        }
        Ok(node)
    }

    fn factor(&mut self) -> Result<Node, ExprError> {
        let op = match self.peek() {
            Tok::Sym("-") => UnOp::Neg,
            Tok::Sym("+") => UnOp::Pos,
            Tok::Sym("~") => UnOp::Invert,
            _ => return self.power(),
        };
        let start = self.bump().span.start;
        self.enter()?;
        let operand = self.factor();
        self.depth -= 1;
        let operand = operand?;
        let span = start..operand.span.end;
        self.node(NodeKind::Unary(op, Box::new(operand)), span)
    }

    fn power(&mut self) -> Result<Node, ExprError> {
        let base = self.primary()?;
        if !self.eat("**") {
            return Ok(base);
        }
        self.enter()?;
        let exponent = self.factor();
        self.depth -= 1;
        let exponent = exponent?;
        let span = base.span.start..exponent.span.end;
        self.node(
            NodeKind::Binary(BinOp::Pow, Box::new(base), Box::new(exponent)),
            span,
        )
    }

    fn primary(&mut self) -> Result<Node, ExprError> {
        let mut node = self.atom()?;
        loop {
            if self.eat(".") {
                let t = self.bump();
                let Tok::Name(attr) = t.tok else {
                    return Err(syntax("expected a name after `.`", t.span));
                };
                let span = node.span.start..t.span.end;
                node = self.node(NodeKind::Attr(Box::new(node), attr), span)?;
            } else if self.at("(") {
                self.bump();
                self.enter()?;
                let args = self.args();
                self.depth -= 1;
                let args = args?;
                let end = self.expect(")")?.end;
                let span = node.span.start..end;
                node = self.node(NodeKind::Call(Box::new(node), args), span)?;
            } else if self.at("[") {
                self.bump();
                self.enter()?;
                let sub = self.subscript();
                self.depth -= 1;
                let sub = sub?;
                let end = self.expect("]")?.end;
                let span = node.span.start..end;
                node = self.node(NodeKind::Subscript(Box::new(node), Box::new(sub)), span)?;
            } else {
                return Ok(node);
            }
        }
    }

    fn args(&mut self) -> Result<Vec<Arg>, ExprError> {
        let mut args: Vec<Arg> = Vec::new();
        while !self.at(")") {
            if self.at("*") || self.at("**") {
                return Err(ExprError::new(
                    ExprErrorKind::Unsupported("argument unpacking".into()),
                    self.span(),
                ));
            }
            let keyword = match (self.peek(), self.toks.get(self.pos + 1)) {
                (Tok::Name(n), Some(t)) if t.tok == Tok::Sym("=") => Some(n.clone()),
                _ => None,
            };
            if keyword.is_some() {
                self.bump();
                self.bump();
            } else if args.iter().any(|a| a.name.is_some()) {
                return Err(syntax(
                    "a positional argument follows a keyword argument",
                    self.span(),
                ));
            }
            let value = self.expr()?;
            if self.at("for") {
                return Err(self.unexpected());
            }
            args.push(Arg {
                name: keyword,
                value,
            });
            if !self.eat(",") {
                break;
            }
        }
        Ok(args)
    }

    fn subscript(&mut self) -> Result<Subscript, ExprError> {
        let first = if self.at(":") {
            None
        } else {
            Some(self.expr()?)
        };
        if !self.eat(":") {
            return match first {
                Some(n) => Ok(Subscript::Index(n)),
                None => Err(self.unexpected()),
            };
        }
        let stop = if self.at(":") || self.at("]") {
            None
        } else {
            Some(self.expr()?)
        };
        let step = if self.eat(":") && !self.at("]") {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Subscript::Slice(first, stop, step))
    }

    /// `for name in iterable [if condition]...]` after `[element`.
    fn comprehension(&mut self, element: Node, start: usize) -> Result<Node, ExprError> {
        self.bump();
        let t = self.bump();
        let Tok::Name(name) = t.tok else {
            return Err(ExprError::new(
                ExprErrorKind::Unsupported("a comprehension target other than one name".into()),
                t.span,
            ));
        };
        self.expect("in")?;
        self.enter()?;
        let parts = self.comprehension_tail();
        self.depth -= 1;
        let (iterable, conditions) = parts?;
        if self.at("for") {
            return Err(ExprError::new(
                ExprErrorKind::Unsupported("a comprehension with several `for`s".into()),
                self.span(),
            ));
        }
        let end = self.expect("]")?.end;
        self.node(
            NodeKind::ListComp(Box::new(Comprehension {
                element,
                name,
                iterable,
                conditions,
            })),
            start..end,
        )
    }

    /// `iterable [if condition]...` of a comprehension.
    fn comprehension_tail(&mut self) -> Result<(Node, Vec<Node>), ExprError> {
        let iterable = self.or_test()?;
        let mut conditions = Vec::new();
        while self.eat("if") {
            conditions.push(self.or_test()?);
        }
        Ok((iterable, conditions))
    }

    /// The rest of `{...}` after its `{` at `start`: a dictionary
    /// (`{}`, `{k: v, ...}`) or a set (`{a, b}`), a trailing comma allowed.
    fn braced(&mut self, start: usize) -> Result<Node, ExprError> {
        let mut pairs = Vec::new();
        let mut items = Vec::new();
        let mut is_dict = true;
        while !self.at("}") {
            let key = self.expr()?;
            if pairs.is_empty() && items.is_empty() {
                is_dict = self.at(":");
            }
            if is_dict {
                self.expect(":")?;
                let value = self.expr()?;
                pairs.push((key, value));
            } else {
                items.push(key);
            }
            if !self.eat(",") {
                break;
            }
        }
        let end = self.expect("}")?.end;
        let kind = if is_dict {
            NodeKind::Dict(pairs)
        } else {
            NodeKind::Set(items)
        };
        self.node(kind, start..end)
    }

    fn atom(&mut self) -> Result<Node, ExprError> {
        let t = self.bump();
        let kind = match t.tok {
            Tok::Int(v) => NodeKind::Int(v),
            Tok::Float(v) => NodeKind::Float(v),
            Tok::Imag(v) => NodeKind::Imag(v),
            Tok::Str(mut s) => {
                let mut end = t.span.end;
                while let Tok::Str(more) = self.peek() {
                    s.push_str(more);
                    end = self.bump().span.end;
                }
                return self.node(NodeKind::Str(s), t.span.start..end);
            }
            Tok::Name(n) => NodeKind::Name(n),
            Tok::Sym("True") => NodeKind::Bool(true),
            Tok::Sym("False") => NodeKind::Bool(false),
            Tok::Sym("None") => NodeKind::None,
            Tok::Sym(open @ ("(" | "[")) => {
                let close = if open == "(" { ")" } else { "]" };
                if self.at(close) {
                    let end = self.bump().span.end;
                    let kind = if open == "(" {
                        NodeKind::Tuple(Vec::new())
                    } else {
                        NodeKind::List(Vec::new())
                    };
                    return self.node(kind, t.span.start..end);
                }
                self.enter()?;
                let inner = self.expr_list(true);
                self.depth -= 1;
                let (inner, comma) = inner?;
                if self.at("for") {
                    if open == "(" || comma {
                        return Err(self.unexpected());
                    }
                    return self.comprehension(inner, t.span.start);
                }
                let end = self.expect(close)?.end;
                let span = t.span.start..end;
                return match (open, comma, inner.kind) {
                    // `(a, b)` is a tuple, `(a)` is `a`.
                    ("(", true, kind) => self.node(kind, span),
                    ("(", false, kind) => Ok(Node {
                        kind,
                        span,
                        depth: inner.depth,
                    }),
                    (_, true, NodeKind::Tuple(items)) => self.node(NodeKind::List(items), span),
                    (_, _, kind) => {
                        let item = Node {
                            kind,
                            span: inner.span,
                            depth: inner.depth,
                        };
                        self.node(NodeKind::List(vec![item]), span)
                    }
                };
            }
            Tok::Sym("{") => {
                self.enter()?;
                let braced = self.braced(t.span.start);
                self.depth -= 1;
                return braced;
            }
            Tok::Sym("yield") | Tok::Sym("await") => {
                return Err(ExprError::new(
                    ExprErrorKind::Unsupported(format!("`{}`", describe(&t.tok))),
                    t.span,
                ));
            }
            Tok::End => return Err(syntax("unexpected end of expression", t.span)),
            other => return Err(syntax(format!("unexpected {}", describe(&other)), t.span)),
        };
        self.node(kind, t.span)
    }
}

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Int(v) => format!("number `{v}`"),
        Tok::Float(v) => format!("number `{v}`"),
        Tok::Imag(v) => format!("number `{v}j`"),
        Tok::Str(_) => "a string".to_string(),
        Tok::Name(n) => format!("name `{n}`"),
        Tok::Sym(s) => format!("`{s}`"),
        Tok::End => "the end".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> String {
        fn show(n: &Node) -> String {
            match &n.kind {
                NodeKind::Int(v) => v.to_string(),
                NodeKind::Float(v) => format!("{v:?}"),
                NodeKind::Imag(v) => format!("{v}j"),
                NodeKind::Str(s) => format!("{s:?}"),
                NodeKind::Bool(b) => b.to_string(),
                NodeKind::None => "None".into(),
                NodeKind::Name(n) => n.clone(),
                NodeKind::Attr(b, a) => format!("{}.{a}", show(b)),
                NodeKind::List(v) => {
                    format!("[{}]", v.iter().map(show).collect::<Vec<_>>().join(" "))
                }
                NodeKind::Tuple(v) => {
                    format!("({})", v.iter().map(show).collect::<Vec<_>>().join(" "))
                }
                NodeKind::Unary(op, a) => format!("({op:?} {})", show(a)),
                NodeKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), show(a), show(b)),
                NodeKind::Compare(a, r) => format!(
                    "(cmp {} {})",
                    show(a),
                    r.iter()
                        .map(|(o, n)| format!("{o:?} {}", show(n)))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                NodeKind::And(a, b) => format!("(and {} {})", show(a), show(b)),
                NodeKind::Or(a, b) => format!("(or {} {})", show(a), show(b)),
                NodeKind::IfElse(c, a, b) => format!("(if {} {} {})", show(c), show(a), show(b)),
                NodeKind::Subscript(a, s) => match &**s {
                    Subscript::Index(i) => format!("{}[{}]", show(a), show(i)),
                    Subscript::Slice(..) => format!("{}[:]", show(a)),
                },
                NodeKind::ListComp(c) => format!(
                    "[{} for {} in {}]",
                    show(&c.element),
                    c.name,
                    show(&c.iterable)
                ),
                NodeKind::Dict(pairs) => format!(
                    "{{{}}}",
                    pairs
                        .iter()
                        .map(|(k, v)| format!("{}:{}", show(k), show(v)))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                NodeKind::Set(items) => format!(
                    "{{{}}}",
                    items.iter().map(show).collect::<Vec<_>>().join(" ")
                ),
                NodeKind::Lambda(l) => {
                    format!("(lambda {}: {})", l.params.join(" "), show(&l.body))
                }
                NodeKind::Call(f, args) => format!(
                    "{}({})",
                    show(f),
                    args.iter()
                        .map(|a| match &a.name {
                            Some(n) => format!("{n}={}", show(&a.value)),
                            None => show(&a.value),
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            }
        }
        show(&parse(text).unwrap())
    }

    #[test]
    fn lambdas_parse_with_lowest_precedence() {
        assert_eq!(shape("lambda x: x + 1"), "(lambda x: (+ x 1))");
        assert_eq!(shape("lambda: 3"), "(lambda : 3)");
        assert_eq!(
            shape("lambda a, b,: a if b else c"),
            "(lambda a b: (if b a c))"
        );
        assert_eq!(
            shape("map(lambda x: int(x), y)"),
            "map((lambda x: int(x)) y)"
        );
        assert_eq!(
            shape("lambda x: lambda y: x * y"),
            "(lambda x: (lambda y: (* x y)))"
        );
        for bad in ["lambda x", "lambda 1: 2", "lambda x, x: x", "1 + lambda: 2"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        for unsupported in ["lambda x=1: x", "lambda *a: a", "lambda **k: k"] {
            assert!(
                matches!(
                    parse(unsupported).map_err(|e| e.kind),
                    Err(ExprErrorKind::Unsupported(_))
                ),
                "{unsupported}"
            );
        }
    }

    #[test]
    fn precedence_follows_python() {
        assert_eq!(shape("1 + 2 * 3"), "(+ 1 (* 2 3))");
        assert_eq!(shape("-2 ** 2"), "(Neg (** 2 2))");
        assert_eq!(shape("2 ** -1"), "(** 2 (Neg 1))");
        assert_eq!(shape("2 ** 3 ** 2"), "(** 2 (** 3 2))");
        assert_eq!(shape("a - b - c"), "(- (- a b) c)");
        assert_eq!(shape("not a == b"), "(Not (cmp a Eq b))");
        assert_eq!(shape("a < b < c"), "(cmp a Lt b Lt c)");
        assert_eq!(shape("x if c else y if d else z"), "(if c x (if d y z))");
        assert_eq!(shape("a or b and c"), "(or a (and b c))");
        assert_eq!(shape("x not in y"), "(cmp x NotIn y)");
        assert_eq!(shape("x is not None"), "(cmp x IsNot None)");
    }

    #[test]
    fn dictionaries_and_sets() {
        assert_eq!(shape("{}"), "{}");
        assert_eq!(shape("{'a': 1, 'b': [2],}"), "{\"a\":1 \"b\":[2]}");
        assert_eq!(shape("{1, x}"), "{1 x}");
        assert_eq!(shape("f({'k': {'n': 1}})"), "f({\"k\":{\"n\":1}})");
        for bad in ["{1: 2, 3}", "{1, 2: 3}", "{:1}", "{1: }", "{1 2}", "{"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lists_tuples_calls_and_attributes() {
        assert_eq!(shape("[1, 2.5, 'a']"), "[1 2.5 \"a\"]");
        assert_eq!(shape("[1,]"), "[1]");
        assert_eq!(shape("[(1, 2)]"), "[(1 2)]");
        assert_eq!(shape("(1,)"), "(1)");
        assert_eq!(shape("()"), "()");
        assert_eq!(shape("(1)"), "1");
        assert_eq!(shape("1, 2"), "(1 2)");
        assert_eq!(
            shape("firdes.low_pass(1, fs, window=window.WIN_HAMMING)"),
            "firdes.low_pass(1 fs window=window.WIN_HAMMING)"
        );
        assert_eq!(shape("a[0][-1]"), "a[0][(Neg 1)]");
        assert_eq!(shape("a[1:]"), "a[:]");
        assert_eq!(shape("'a' 'b'"), "\"ab\"");
    }

    #[test]
    fn errors_point_at_the_culprit() {
        let cases = [
            ("1 +", 3..3),
            ("(1 + 2", 6..6),
            ("f(a=1, 2)", 7..8),
            ("(x for x in y)", 3..6),
            ("{1: 2 3}", 6..7),
            ("1 2", 2..3),
            ("x if y", 6..6),
            ("a.1", 1..3),
            ("", 0..0),
        ];
        for (text, span) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.span, span, "{text}: {e}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!("{}1{}", "(".repeat(500), ")".repeat(500));
        assert!(matches!(
            parse(&deep).unwrap_err().kind,
            ExprErrorKind::TooDeep(_)
        ));
        let long_chain = vec!["1"; 1000].join(" + ");
        assert!(matches!(
            parse(&long_chain).unwrap_err().kind,
            ExprErrorKind::TooDeep(_)
        ));
        let unary = format!("{}1", "-".repeat(1000));
        assert!(parse(&unary).is_err());
        let flat = format!("[{}]", vec!["1.5"; 10_000].join(", "));
        assert!(parse(&flat).is_ok(), "long flat lists are fine");
    }
}
