//! Check: walk the syntax tree once and keep only the accepted language.
//!
//! # What counts as a syntax node
//!
//! The checker counts one node for every AST node it reaches, *before*
//! looking at its kind, in source order: each statement; each expression
//! (the `call(...)` expression, the `call` name, the handle string, the
//! arguments dict or name, every dict key, every dict value, every list
//! element, every literal and name); each assignment target; and each keyword
//! argument. A negative number `-5` is two nodes (the minus and the number),
//! as in Python's own AST. Node `maxNodes + 1` (257 at the default and the
//! maximum) is `code.limit` at that node's position, even when the node
//! would also be forbidden. Examples: `call("toolh_x")` is 4 nodes
//! (statement, call, name, handle); `x = call("toolh_x", {"a": y})` is 8
//! (statement, target, call, name, handle, dict, key, value). Children of a
//! rejected node are never visited, so the walk is at most `maxNodes + 1`
//! deep.
//!
//! Call sites are counted statically too: call site number `maxCalls + 1`
//! is `code.limit` at its `call`.

use crate::constructs::{clip, describe, statement_construct};
use crate::limits::CodeLimits;
use crate::located::{located, offset};
use crate::program::{Program, Statement, Target, Template};
use holaryn_model::{line_col_utf16, Error, ErrorCode, Result, HANDLE_PREFIX};
use rustpython_parser::ast::{self, Constant, Expr, Ranged, Stmt};
use rustpython_parser::text_size::TextSize;
use serde_json::{Number, Value};
use std::collections::BTreeMap;

/// The only callable name.
const CALL: &str = "call";

/// The one-pass checker: node and call-site counters and the names bound so far.
pub(crate) struct Checker<'a> {
    source: &'a str,
    limits: CodeLimits,
    nodes: u32,
    calls: u32,
    slots: BTreeMap<String, usize>,
}

impl<'a> Checker<'a> {
    /// A checker for `source` with `limits` already capped.
    pub(crate) fn new(source: &'a str, limits: CodeLimits) -> Self {
        Checker {
            source,
            limits,
            nodes: 0,
            calls: 0,
            slots: BTreeMap::new(),
        }
    }

    /// Check every statement, in order, into a [`Program`].
    pub(crate) fn program(mut self, suite: &[Stmt]) -> Result<Program> {
        let mut statements = Vec::with_capacity(suite.len());
        for stmt in suite {
            statements.push(self.statement(stmt)?);
        }
        Ok(Program {
            statements,
            slots: self.slots.len(),
            nodes: self.nodes,
        })
    }

    /// Count one node at `at`; node `maxNodes + 1` is `code.limit`.
    fn count(&mut self, at: TextSize) -> Result<()> {
        self.nodes = self.nodes.saturating_add(1);
        if self.nodes > self.limits.max_nodes {
            let msg = format!(
                "syntax nodes: the program has more than {} syntax nodes",
                self.limits.max_nodes
            );
            return Err(located(ErrorCode::CodeLimit, msg, self.source, offset(at)));
        }
        Ok(())
    }

    /// A `code.forbidden` error naming `construct`.
    fn forbidden(&self, construct: &str, detail: &str, at: TextSize) -> Error {
        let msg = if detail.is_empty() {
            format!("{construct} is not allowed in bounded code")
        } else {
            format!("{construct} is not allowed in bounded code: {detail}")
        };
        located(ErrorCode::CodeForbidden, msg, self.source, offset(at))
    }

    /// The offset of `token` when it directly precedes `at` (spaces
    /// between allowed), else `at`: points `@d` and `**x` at their sigil.
    fn before(&self, at: TextSize, token: &str) -> TextSize {
        let end = offset(at);
        let Some(head) = self.source.get(..end) else {
            return at;
        };
        let trimmed = head.trim_end_matches([' ', '\t']);
        match trimmed.strip_suffix(token) {
            Some(rest) => u32::try_from(rest.len()).map(TextSize::from).unwrap_or(at),
            None => at,
        }
    }

    fn statement(&mut self, stmt: &Stmt) -> Result<Statement> {
        self.count(stmt.start())?;
        match stmt {
            Stmt::Assign(a) => {
                let Some(first) = a.targets.first() else {
                    return Err(self.forbidden("assignment without a target", "", a.start()));
                };
                self.count(first.start())?;
                let name = match first {
                    Expr::Name(n) if n.id.as_str() == CALL => {
                        return Err(self.forbidden(
                            "assigning to `call`",
                            "`call` is reserved",
                            n.start(),
                        ))
                    }
                    Expr::Name(n) => n.id.to_string(),
                    Expr::Tuple(_) | Expr::List(_) => {
                        return Err(self.forbidden(
                            "tuple assignment",
                            "assign one call to one plain name",
                            first.start(),
                        ))
                    }
                    other => {
                        return Err(self.forbidden(
                            describe(other),
                            "assign to one plain name",
                            other.start(),
                        ))
                    }
                };
                if let Some(second) = a.targets.get(1) {
                    return Err(self.forbidden(
                        "chained assignment",
                        "assign to one plain name",
                        second.start(),
                    ));
                }
                let mut statement = match a.value.as_ref() {
                    Expr::Call(call) => self.call(call)?,
                    other => {
                        self.count(other.start())?;
                        return Err(self.not_a_call(other, true));
                    }
                };
                // Bind after the value is checked: `x = call(h, {"a": x})` uses `x` too early.
                let next = self.slots.len();
                let slot = *self.slots.entry(name.clone()).or_insert(next);
                statement.target = Some(Target { name, slot });
                Ok(statement)
            }
            Stmt::Expr(e) => match e.value.as_ref() {
                Expr::Call(call) => self.call(call),
                other => {
                    self.count(other.start())?;
                    Err(self.not_a_call(other, false))
                }
            },
            other => {
                let (construct, mut at) = statement_construct(other);
                if construct == "decorator" {
                    at = self.before(at, "@");
                }
                Err(self.forbidden(
                    construct,
                    "every statement must be `name = call(...)` or `call(...)`",
                    at,
                ))
            }
        }
    }

    /// A statement value that is not a `call(...)`.
    fn not_a_call(&self, expr: &Expr, in_assignment: bool) -> Error {
        let plain = if in_assignment {
            "assignment without call"
        } else {
            "expression statement without call"
        };
        let construct = match expr {
            Expr::Name(_) if !in_assignment => "bare name statement",
            Expr::Name(_) | Expr::Constant(_) | Expr::List(_) | Expr::Dict(_) => plain,
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => plain,
            other => describe(other),
        };
        self.forbidden(
            construct,
            "every statement must be `name = call(...)` or `call(...)`",
            expr.start(),
        )
    }

    /// `call(HANDLE[, ARGS])`: the call node itself is counted here.
    fn call(&mut self, call: &ast::ExprCall) -> Result<Statement> {
        self.count(call.start())?;
        self.count(call.func.start())?;
        match call.func.as_ref() {
            Expr::Name(n) if n.id.as_str() == CALL => {}
            Expr::Name(n) => {
                let construct = format!("function `{}`", clip(n.id.as_str()));
                return Err(self.forbidden(
                    &construct,
                    "only `call(\"toolh_…\", {...})` may be called",
                    n.start(),
                ));
            }
            other => {
                return Err(self.forbidden(
                    describe(other),
                    "only `call(...)` may be called",
                    other.start(),
                ))
            }
        }
        self.calls = self.calls.saturating_add(1);
        if !self.limits.allows_calls(self.calls) {
            let msg = format!(
                "call sites: the program has more than {} calls (maxCalls)",
                self.limits.max_calls
            );
            return Err(located(
                ErrorCode::CodeLimit,
                msg,
                self.source,
                offset(call.start()),
            ));
        }
        // Positional and keyword arguments, in source order.
        let mut items: Vec<(TextSize, Option<&Expr>, Option<&ast::Keyword>)> = call
            .args
            .iter()
            .map(|a| (a.start(), Some(a), None))
            .chain(call.keywords.iter().map(|k| (k.start(), None, Some(k))))
            .collect();
        items.sort_by_key(|(at, _, _)| *at);
        let mut handle = None;
        let mut args = None;
        for (position, (at, arg, keyword)) in items.into_iter().enumerate() {
            self.count(at)?;
            if let Some(k) = keyword {
                let construct = if k.arg.is_some() {
                    "keyword argument"
                } else {
                    "`**` argument"
                };
                return Err(self.forbidden(
                    construct,
                    "pass `call(\"toolh_…\", {...})` positionally",
                    at,
                ));
            }
            let Some(arg) = arg else { continue };
            if let Expr::Starred(_) = arg {
                return Err(self.forbidden(
                    "starred argument",
                    "pass `call(\"toolh_…\", {...})` positionally",
                    at,
                ));
            }
            match position {
                0 => handle = Some(self.handle(arg)?),
                1 => args = Some(self.args(arg)?),
                _ => {
                    return Err(self.forbidden(
                        "more than two arguments",
                        "`call` takes a handle and one arguments dict",
                        at,
                    ))
                }
            }
        }
        let Some(handle) = handle else {
            return Err(self.forbidden(
                "call without a handle",
                "write `call(\"toolh_…\", {...})`",
                call.start(),
            ));
        };
        let (line, column) = line_col_utf16(self.source, offset(call.start()));
        Ok(Statement {
            target: None,
            handle,
            args: args.unwrap_or_else(|| Template::Literal(Value::Object(Default::default()))),
            line,
            column,
        })
    }

    /// The first argument: a `"toolh_…"` string literal.
    fn handle(&self, arg: &Expr) -> Result<String> {
        match arg {
            Expr::Constant(c) => match &c.value {
                Constant::Str(s) if s.starts_with(HANDLE_PREFIX) => Ok(s.clone()),
                Constant::Str(_) => Err(self.forbidden(
                    "handle literal not starting with `toolh_`",
                    "use a handle from tool_inspect",
                    arg.start(),
                )),
                _ => Err(self.forbidden(
                    "non-literal handle",
                    "the handle must be a string literal \"toolh_…\"",
                    arg.start(),
                )),
            },
            Expr::JoinedStr(_) | Expr::FormattedValue(_) => Err(self.forbidden(
                "f-string",
                "the handle must be a plain string literal",
                arg.start(),
            )),
            _ => Err(self.forbidden(
                "non-literal handle",
                "the handle must be a string literal \"toolh_…\"",
                arg.start(),
            )),
        }
    }

    /// The second argument: a dict literal or an earlier name.
    fn args(&mut self, arg: &Expr) -> Result<Template> {
        match arg {
            Expr::Dict(_) | Expr::Name(_) => self.value_counted(arg),
            Expr::Constant(_) | Expr::List(_) => Err(self.forbidden(
                "non-dict arguments",
                "the arguments must be a dict literal `{...}` or an earlier name",
                arg.start(),
            )),
            other => self.value_counted(other),
        }
    }

    /// A value node that has already been counted.
    fn value_counted(&mut self, expr: &Expr) -> Result<Template> {
        match expr {
            Expr::Constant(c) => self
                .constant(&c.value, expr.start(), false)
                .map(Template::Literal),
            Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => {
                self.count(u.operand.start())?;
                match u.operand.as_ref() {
                    Expr::Constant(c)
                        if matches!(c.value, Constant::Int(_) | Constant::Float(_)) =>
                    {
                        self.constant(&c.value, expr.start(), true)
                            .map(Template::Literal)
                    }
                    _ => Err(self.forbidden(
                        "unary operator `-`",
                        "a minus sign is only allowed directly before a number literal",
                        expr.start(),
                    )),
                }
            }
            Expr::Name(n) => match self.slots.get(n.id.as_str()) {
                Some(slot) => Ok(Template::Name {
                    name: n.id.to_string(),
                    slot: *slot,
                }),
                None => {
                    let construct =
                        format!("name `{}` used before assignment", clip(n.id.as_str()));
                    Err(self.forbidden(
                        &construct,
                        "only names bound by an earlier statement may be used",
                        n.start(),
                    ))
                }
            },
            Expr::List(l) => {
                let mut items = Vec::with_capacity(l.elts.len());
                for e in &l.elts {
                    items.push(self.value(e)?);
                }
                Ok(Template::list(items))
            }
            Expr::Dict(d) => {
                let mut entries: Vec<(String, Template)> = Vec::with_capacity(d.values.len());
                for (key, value) in d.keys.iter().zip(&d.values) {
                    let Some(key) = key else {
                        return Err(self.forbidden(
                            "`**` dict unpacking",
                            "write every key as a string literal",
                            self.before(value.start(), "**"),
                        ));
                    };
                    let key_at = key.start();
                    self.count(key_at)?;
                    let key = match key {
                        Expr::Constant(ast::ExprConstant {
                            value: Constant::Str(s),
                            ..
                        }) => s.clone(),
                        other => {
                            return Err(self.forbidden(
                                "dict with a non-string key",
                                "dict keys must be string literals",
                                other.start(),
                            ))
                        }
                    };
                    if entries.iter().any(|(k, _)| *k == key) {
                        let construct = format!("duplicate dict key \"{}\"", clip(&key));
                        return Err(self.forbidden(&construct, "each key may appear once", key_at));
                    }
                    let value = self.value(value)?;
                    entries.push((key, value));
                }
                Ok(Template::dict(entries))
            }
            Expr::Call(c) => Err(match c.func.as_ref() {
                Expr::Name(n) if n.id.as_str() == CALL => self.forbidden(
                    "nested call",
                    "bind the inner call to a name on an earlier line",
                    expr.start(),
                ),
                Expr::Name(n) => {
                    let construct = format!("function `{}`", clip(n.id.as_str()));
                    self.forbidden(
                        &construct,
                        "only `call(\"toolh_…\", {...})` may be called",
                        expr.start(),
                    )
                }
                other => self.forbidden(
                    describe(other),
                    "only `call(...)` may be called",
                    other.start(),
                ),
            }),
            other => Err(self.forbidden(describe(other), "", other.start())),
        }
    }

    /// Count a value node, then check it.
    fn value(&mut self, expr: &Expr) -> Result<Template> {
        self.count(expr.start())?;
        self.value_counted(expr)
    }

    /// A literal constant as JSON (`negate` for a leading minus).
    fn constant(&self, c: &Constant, at: TextSize, negate: bool) -> Result<Value> {
        match c {
            Constant::None => Ok(Value::Null),
            Constant::Bool(b) => Ok(Value::Bool(*b)),
            Constant::Str(s) => Ok(Value::String(s.clone())),
            Constant::Int(i) => {
                let number = if negate {
                    i64::try_from(&-i).ok().map(Number::from)
                } else {
                    u64::try_from(i).ok().map(Number::from)
                };
                let number = number.ok_or_else(|| {
                    self.forbidden(
                        "integer literal out of range",
                        "integers must fit in 64 bits",
                        at,
                    )
                })?;
                // A JavaScript host would receive it rounded: never change a value silently.
                if !holaryn_model::exact_in_js(&number) {
                    return Err(self.forbidden(
                        "integer literal beyond 2^53",
                        "a JavaScript number cannot hold it exactly; write it as a string",
                        at,
                    ));
                }
                Ok(Value::Number(number))
            }
            Constant::Float(f) => {
                let f = if negate { -*f } else { *f };
                Number::from_f64(f).map(Value::Number).ok_or_else(|| {
                    self.forbidden("float literal out of range", "floats must be finite", at)
                })
            }
            Constant::Bytes(_) => Err(self.forbidden("bytes literal", "use a string literal", at)),
            Constant::Complex { .. } => Err(self.forbidden("complex number literal", "", at)),
            Constant::Ellipsis => Err(self.forbidden("ellipsis `...`", "", at)),
            Constant::Tuple(_) => Err(self.forbidden("tuple", "use a list `[...]`", at)),
        }
    }
}
