//! A compiled program (or compile error) as JSON, and the core's structural
//! check of one that came from outside.
//!
//! The browser's default wasm has no parser: the code module (`code-wasm/`,
//! loaded on demand) compiles and hands over [`encode`]'s JSON through the
//! host. [`decode`] trusts none of it. It accepts only:
//! - `{"program": {"nodes", "statements": [...]}}` where each statement is
//!   `{"target": NAME | null, "handle": "toolh_…", "args": T, "line", "column"}`
//!   and a template `T` is `{"literal": JSON}`, `{"name": NAME}` (bound by an
//!   earlier statement), `{"list": [T…]}` or `{"dict": [[KEY, T]…]}` (keys
//!   unique, at least one name inside, as the compiler folds the rest);
//!   slots are assigned here, never read from the wire;
//! - `{"error": {"code", "message", "line"?, "column"?, "nextAction"?}}` with
//!   code `code.syntax`, `code.forbidden` or `code.limit`.
//!
//! Limits are the session's own: at most `maxCalls` statements, `nodes` at
//! most `maxNodes` and at least the nodes the structure needs, the source
//! itself at most `maxSourceBytes` (checked before any compiler is asked), the
//! strings no longer than the source, positions inside it, the text bounded.
//! Anything else is `code.invalid_program` and nothing runs.

use crate::limits::CodeLimits;
use crate::program::{Program, Statement, Target, Template};
use holaryn_model::{line_col_utf16, Error, ErrorCode, Result, HANDLE_PREFIX};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// A compiler's answer: [`encode`]'s JSON, or why it could not answer (`code.unavailable`).
pub type Answer = std::result::Result<String, String>;

/// What a compiler does: `(source, limits)` → its [`Answer`].
pub type CompileFn = dyn Fn(&str, &CodeLimits) -> Answer;

/// A host-installed compiler.
pub struct Compiler(pub Box<CompileFn>);

impl fmt::Debug for Compiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Compiler(..)")
    }
}

/// Longest compile-error message or next action accepted from the wire.
const MAX_MESSAGE_BYTES: usize = 4096;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum Wire {
    Program(WireProgram),
    Error(WireError),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireProgram {
    nodes: u32,
    statements: Vec<WireStatement>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireStatement {
    target: Option<String>,
    handle: String,
    args: WireTemplate,
    line: u32,
    column: u32,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum WireTemplate {
    Literal(Value),
    Name(String),
    List(Vec<WireTemplate>),
    Dict(Vec<(String, WireTemplate)>),
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WireError {
    code: ErrorCode,
    message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next_action: Option<String>,
}

/// A compile result as wire JSON (what the code module returns).
pub fn encode(result: &Result<Program>) -> String {
    let wire = match result {
        Ok(p) => Wire::Program(WireProgram {
            nodes: p.nodes,
            statements: p
                .statements
                .iter()
                .map(|s| WireStatement {
                    target: s.target.as_ref().map(|t| t.name.clone()),
                    handle: s.handle.clone(),
                    args: to_wire(&s.args),
                    line: s.line,
                    column: s.column,
                })
                .collect(),
        }),
        Err(e) => Wire::Error(WireError {
            code: e.code,
            message: e.message.clone(),
            line: e.line,
            column: e.column,
            next_action: e.next_action.clone(),
        }),
    };
    serde_json::to_string(&wire).unwrap_or_default()
}

fn to_wire(t: &Template) -> WireTemplate {
    match t {
        Template::Literal(v) => WireTemplate::Literal(v.clone()),
        Template::Name { name, .. } => WireTemplate::Name(name.clone()),
        Template::List(items) => WireTemplate::List(items.iter().map(to_wire).collect()),
        Template::Dict(entries) => WireTemplate::Dict(
            entries
                .iter()
                .map(|(k, t)| (k.clone(), to_wire(t)))
                .collect(),
        ),
    }
}

/// Check `text` (a compiler's answer for `source`) against `limits`: the
/// program, the compile error it reports, or `code.invalid_program`.
pub fn decode(text: &str, source: &str, limits: &CodeLimits) -> Result<Program> {
    let limits = limits.clamped();
    let max_text = 6 * limits.max_source_bytes as usize + 64 * limits.max_nodes as usize + 1024;
    if text.len() > max_text {
        return Err(invalid(format!(
            "the answer is {} bytes; at most {max_text} fit these limits",
            text.len()
        )));
    }
    let wire: Wire =
        serde_json::from_str(text).map_err(|e| invalid(format!("malformed answer: {e}")))?;
    match wire {
        Wire::Error(e) => Err(compile_error(e, source)?),
        Wire::Program(p) => Checker::new(source, limits).program(p),
    }
}

/// The compiler's own error, if it is one a compiler may give.
fn compile_error(e: WireError, source: &str) -> Result<Error> {
    if !matches!(
        e.code,
        ErrorCode::CodeSyntax | ErrorCode::CodeForbidden | ErrorCode::CodeLimit
    ) {
        return Err(invalid(format!("a compiler may not answer `{}`", e.code)));
    }
    let long = |s: &str| s.len() > MAX_MESSAGE_BYTES;
    if long(&e.message) || e.next_action.as_deref().is_some_and(long) {
        return Err(invalid("an error message is too long".into()));
    }
    let mut err = Error::new(e.code, e.message);
    match (e.line, e.column) {
        (Some(line), Some(column)) => {
            check_position(source, line, column)?;
            err = err.with_position(line, column);
        }
        (None, None) => {}
        _ => return Err(invalid("an error has a line without a column".into())),
    }
    if let Some(next) = e.next_action {
        err = err.with_next_action(&next);
    }
    Ok(err)
}

/// A position must lie within the source (1-based, UTF-16 columns).
fn check_position(source: &str, line: u32, column: u32) -> Result<()> {
    let (last_line, _) = line_col_utf16(source, source.len());
    let max_column = source.len() as u64 + 1;
    if line == 0 || column == 0 || line > last_line || u64::from(column) > max_column {
        return Err(invalid(format!(
            "position {line}:{column} is outside the source"
        )));
    }
    Ok(())
}

fn invalid(why: String) -> Error {
    Error::new(
        ErrorCode::CodeInvalidProgram,
        format!("the bounded-code compiler's answer was refused: {why}"),
    )
    .with_next_action("reload the code module; nothing ran")
}

/// Rebuilds a [`Program`] from the wire, counting what the structure needs.
struct Checker<'a> {
    source: &'a str,
    limits: CodeLimits,
    slots: BTreeMap<String, usize>,
    /// Nodes the structure needs at least (a negative number counts one here).
    min_nodes: u64,
    /// UTF-8 bytes of every string (handles, names, keys, values).
    string_bytes: u64,
}

impl<'a> Checker<'a> {
    fn new(source: &'a str, limits: CodeLimits) -> Self {
        Checker {
            source,
            limits,
            slots: BTreeMap::new(),
            min_nodes: 0,
            string_bytes: 0,
        }
    }

    fn program(mut self, p: WireProgram) -> Result<Program> {
        if p.statements.len() > self.limits.max_calls as usize {
            return Err(invalid(format!(
                "{} statements; maxCalls is {}",
                p.statements.len(),
                self.limits.max_calls
            )));
        }
        let mut statements = Vec::with_capacity(p.statements.len());
        for s in p.statements {
            statements.push(self.statement(s)?);
        }
        if p.nodes > self.limits.max_nodes || u64::from(p.nodes) < self.min_nodes {
            return Err(invalid(format!(
                "{} nodes claimed; the structure needs {} and maxNodes is {}",
                p.nodes, self.min_nodes, self.limits.max_nodes
            )));
        }
        Ok(Program {
            statements,
            slots: self.slots.len(),
            nodes: p.nodes,
        })
    }

    fn statement(&mut self, s: WireStatement) -> Result<Statement> {
        // statement, call, `call` name, handle (+ target below).
        self.nodes(4)?;
        if !s.handle.starts_with(HANDLE_PREFIX) {
            return Err(invalid("a handle does not start with `toolh_`".into()));
        }
        self.string(&s.handle)?;
        check_position(self.source, s.line, s.column)?;
        // Omitted arguments (`call(h)`) are `{}` with no node of their own.
        let args = match s.args {
            WireTemplate::Literal(Value::Object(m)) if m.is_empty() => {
                Template::Literal(Value::Object(m))
            }
            args => self.template(args, 0)?,
        };
        let target = match s.target {
            None => None,
            Some(name) => {
                self.nodes(1)?;
                self.identifier(&name)?;
                let next = self.slots.len();
                let slot = *self.slots.entry(name.clone()).or_insert(next);
                Some(Target { name, slot })
            }
        };
        Ok(Statement {
            target,
            handle: s.handle,
            args,
            line: s.line,
            column: s.column,
        })
    }

    fn template(&mut self, t: WireTemplate, depth: u32) -> Result<Template> {
        if depth > self.limits.max_nodes {
            return Err(invalid("the arguments nest too deeply".into()));
        }
        self.nodes(1)?;
        match t {
            WireTemplate::Literal(v) => {
                self.literal(&v, depth)?;
                Ok(Template::Literal(v))
            }
            WireTemplate::Name(name) => {
                self.string(&name)?;
                match self.slots.get(&name) {
                    Some(&slot) => Ok(Template::Name { name, slot }),
                    None => Err(invalid(format!("name `{name}` is used before assignment"))),
                }
            }
            WireTemplate::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.template(item, depth + 1)?);
                }
                if out.iter().all(|t| matches!(t, Template::Literal(_))) {
                    return Err(invalid("a list template holds no name".into()));
                }
                Ok(Template::List(out))
            }
            WireTemplate::Dict(entries) => {
                let mut out: Vec<(String, Template)> = Vec::with_capacity(entries.len());
                for (key, value) in entries {
                    self.nodes(1)?;
                    self.string(&key)?;
                    if out.iter().any(|(k, _)| *k == key) {
                        return Err(invalid(format!("dict key `{key}` appears twice")));
                    }
                    let value = self.template(value, depth + 1)?;
                    out.push((key, value));
                }
                if out.iter().all(|(_, t)| matches!(t, Template::Literal(_))) {
                    return Err(invalid("a dict template holds no name".into()));
                }
                Ok(Template::Dict(out))
            }
        }
    }

    /// A literal's nodes (its own already counted) and strings.
    fn literal(&mut self, v: &Value, depth: u32) -> Result<()> {
        if depth > self.limits.max_nodes {
            return Err(invalid("a literal nests too deeply".into()));
        }
        match v {
            Value::String(s) => self.string(s),
            Value::Array(items) => items.iter().try_for_each(|item| {
                self.nodes(1)?;
                self.literal(item, depth + 1)
            }),
            Value::Object(map) => map.iter().try_for_each(|(k, item)| {
                self.nodes(2)?;
                self.string(k)?;
                self.literal(item, depth + 1)
            }),
            Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
        }
    }

    /// Count `n` more structural nodes; more than `maxNodes` is refused at once.
    fn nodes(&mut self, n: u64) -> Result<()> {
        self.min_nodes += n;
        if self.min_nodes > u64::from(self.limits.max_nodes) {
            return Err(invalid(format!(
                "more than maxNodes ({}) nodes",
                self.limits.max_nodes
            )));
        }
        Ok(())
    }

    /// Every string comes out of the source, never longer in total.
    fn string(&mut self, s: &str) -> Result<()> {
        self.string_bytes += s.len() as u64;
        if self.string_bytes > self.source.len() as u64 {
            return Err(invalid("its strings are longer than the source".into()));
        }
        Ok(())
    }

    /// A target name: non-empty, no digit first, no space, control or ASCII punctuation but `_`.
    fn identifier(&mut self, name: &str) -> Result<()> {
        let bad =
            |c: char| c.is_whitespace() || c.is_control() || (c.is_ascii_punctuation() && c != '_');
        let ok = name.chars().next().is_some_and(|c| !c.is_ascii_digit()) && !name.chars().any(bad);
        if !ok {
            return Err(invalid(format!(
                "`{name}` is not a name a program may bind"
            )));
        }
        self.string(name)
    }
}

/// The core's answer when no compiler is installed and none is built in.
pub fn unavailable(why: &str) -> Error {
    Error::new(
        ErrorCode::CodeUnavailable,
        format!("bounded code cannot be compiled here: {why}"),
    )
    .with_next_action(
        "load the code module (the npm package does so when a session enables bounded code mode)",
    )
}
