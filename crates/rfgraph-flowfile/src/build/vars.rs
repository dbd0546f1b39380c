//! Variables: evaluated in dependency order (a variable may use any other,
//! wherever it is written), cycles reported with their path, `--set`
//! overrides applied, and model values turned into expression values.

use crate::expr::{self, Env, Expr};
use crate::model::{Document, FileError, Location, Value, Variable};
use rfgraph::registry::suggest::closest;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// An expression error as a file error at `at` (the start of the text),
/// moved to the culprit's column.
pub(crate) fn expr_error(at: &Location, key: &str, text: &str, e: &expr::ExprError) -> FileError {
    let at = if at.line > 0 {
        at.shifted(e.column_in(text))
    } else {
        at.clone()
    };
    let suggestion = match &e.kind {
        expr::ExprErrorKind::UnknownName { suggest, .. } => suggest.clone(),
        _ => None,
    };
    let message = match &e.kind {
        expr::ExprErrorKind::UnknownName { name, .. } => format!("unknown name `{name}`"),
        other => other.to_string(),
    };
    FileError::new(at, key, format!("in `{}`: {message}", short(text))).suggest(suggestion)
}

fn short(text: &str) -> String {
    if text.chars().count() > 60 {
        let s: String = text.chars().take(57).collect();
        format!("{s}...")
    } else {
        text.to_string()
    }
}

/// Evaluates a value written in a file: expressions are evaluated, text
/// is evaluated too unless `text_literal`, literals are taken as they are.
pub(crate) fn eval_value(
    v: &Value,
    env: &Env,
    at: &Location,
    key: &str,
    text_literal: bool,
) -> Result<expr::Value, FileError> {
    let run = |text: &str| {
        Expr::parse(text)
            .and_then(|e| e.eval(env))
            .map_err(|e| expr_error(at, key, text, &e))
    };
    Ok(match v {
        Value::Expr(s) => run(s)?,
        Value::Text(s) if text_literal => expr::Value::Str(s.clone()),
        Value::Text(s) => run(s)?,
        Value::Bool(b) => expr::Value::Bool(*b),
        Value::Int(i) => expr::Value::Int(*i),
        Value::Float(f) => expr::Value::Float(*f),
        Value::List(items) => expr::Value::List(
            items
                .iter()
                .map(|i| eval_value(i, env, at, key, false))
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// Like [`eval_value`], but text that is no expression (a syntax
/// error, or a name that is not a variable: `path = "rec.cf32"`) is taken
/// as a string: for values whose type is not known (a hierarchical
/// block's parameters, `--set`).
pub(crate) fn eval_loose(
    v: &Value,
    env: &Env,
    at: &Location,
    key: &str,
) -> Result<expr::Value, FileError> {
    if let Value::Text(s) = v
        && let Err(e) = Expr::parse(s).and_then(|e| e.eval(env))
        && matches!(
            e.kind,
            expr::ExprErrorKind::Syntax(_) | expr::ExprErrorKind::UnknownName { .. }
        )
    {
        return Ok(expr::Value::Str(s.clone()));
    }
    eval_value(v, env, at, key, false)
}

/// The names a value reads.
pub(crate) fn names_of(v: &Value) -> Vec<String> {
    match v {
        Value::Expr(s) | Value::Text(s) => Expr::parse(s).map(|e| e.names()).unwrap_or_default(),
        Value::List(items) => items.iter().flat_map(names_of).collect(),
        _ => Vec::new(),
    }
}

/// Where `--set` overrides are said to come from in errors.
pub(crate) fn command_line() -> Location {
    Location::file(Arc::new(PathBuf::from("--set")))
}

/// Evaluates every variable of `doc`, with `given` (already evaluated
/// values: a parent's parameters) and `overrides` (`--set` texts)
/// replacing the file's values.
pub(crate) fn evaluate(
    doc: &Document,
    given: &BTreeMap<String, expr::Value>,
    overrides: &[(String, String)],
) -> Result<Env, FileError> {
    let names: Vec<&str> = doc.variables.iter().map(|v| v.name.as_str()).collect();
    for (name, _) in overrides {
        if !names.contains(&name.as_str()) {
            return Err(FileError::new(
                command_line(),
                name.as_str(),
                format!("`{}` has no variable `{name}`", doc.path.display()),
            )
            .suggest(closest(name, names.iter().copied())));
        }
    }
    let by_name: BTreeMap<&str, &Variable> =
        doc.variables.iter().map(|v| (v.name.as_str(), v)).collect();
    let mut env = Env::new();
    // 0 = not visited, 1 = in progress, 2 = done.
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    for v in &doc.variables {
        visit(
            v,
            &by_name,
            &mut state,
            &mut Vec::new(),
            &mut env,
            given,
            overrides,
        )?;
    }
    Ok(env)
}

fn visit<'a>(
    var: &'a Variable,
    by_name: &BTreeMap<&str, &'a Variable>,
    state: &mut BTreeMap<&'a str, u8>,
    path: &mut Vec<&'a str>,
    env: &mut Env,
    given: &BTreeMap<String, expr::Value>,
    overrides: &[(String, String)],
) -> Result<(), FileError> {
    match state.get(var.name.as_str()) {
        Some(2) => return Ok(()),
        Some(1) => {
            let start = path.iter().position(|n| *n == var.name).unwrap_or(0);
            let mut cycle: Vec<&str> = path[start..].to_vec();
            cycle.push(&var.name);
            return Err(FileError::new(
                var.at.clone(),
                format!("variables.{}", var.name),
                format!(
                    "variables depend on each other in a cycle: {}",
                    cycle.join(" -> ")
                ),
            ));
        }
        _ => {}
    }
    let key = format!("variables.{}", var.name);
    if let Some(v) = given.get(&var.name) {
        env.set(var.name.clone(), v.clone());
        state.insert(&var.name, 2);
        return Ok(());
    }
    let text_override = overrides.iter().rev().find(|(n, _)| *n == var.name);
    let deps: Vec<String> = match text_override {
        Some((_, text)) => Expr::parse(text).map(|e| e.names()).unwrap_or_default(),
        None => names_of(&var.value),
    };
    state.insert(&var.name, 1);
    path.push(&var.name);
    for d in deps {
        if d != var.name
            && let Some(dep) = by_name.get(d.as_str())
        {
            visit(dep, by_name, state, path, env, given, overrides)?;
        } else if d == var.name && text_override.is_none() {
            return Err(FileError::new(
                var.at.clone(),
                key,
                format!("variable `{}` refers to itself", var.name),
            ));
        }
    }
    path.pop();
    let value = match text_override {
        Some((_, text)) => match Expr::parse(text).and_then(|e| e.eval(env)) {
            Ok(v) => v,
            // `--set path=rec.cf32`: text that is no expression is a string.
            Err(e)
                if matches!(
                    e.kind,
                    expr::ExprErrorKind::Syntax(_) | expr::ExprErrorKind::UnknownName { .. }
                ) =>
            {
                expr::Value::Str(text.clone())
            }
            Err(e) => return Err(expr_error(&command_line(), &var.name, text, &e)),
        },
        None => eval_value(&var.value, env, &var.at, &key, true)?,
    };
    env.set(var.name.clone(), value);
    state.insert(&var.name, 2);
    Ok(())
}
