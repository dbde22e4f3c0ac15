//! Bounded code mode (`run_tool_code`): a tiny, checked call-sequence language.
//!
//! The model sends one short program that makes several already-inspected
//! tool calls in one turn. Its source looks like Python and is parsed with
//! `rustpython-parser`, but nothing here runs or evaluates Python: the syntax
//! tree is checked into a small IR ([`Program`]) and a sans-IO state machine
//! ([`CodeRun`]) yields one call at a time for the host's execution gate.
//!
//! ```text
//! first = call("toolh_a1b2…", {"path": "notes.txt"})
//! call("toolh_c3d4…", {"content": first})
//! ```
//!
//! # The language
//!
//! A program is a sequence of statements, each either
//! `name = call(HANDLE, ARGS)` or `call(HANDLE, ARGS)`:
//! - `HANDLE` is a string literal starting with `toolh_` (a handle from
//!   `tool_inspect`); the gate resolves it when the call runs.
//! - `ARGS` is optional (default `{}`) and is a dict literal or an earlier
//!   name. Values inside are string, number, `True`/`False`, `None` (null)
//!   literals, lists, dicts with string-literal keys (each key once), and
//!   names bound by an earlier statement. A minus sign directly before a
//!   number literal (`-5`, `-2.5`) is part of the literal; every other
//!   operator is forbidden. Integers must fit in 64 bits; floats must be finite.
//!
//! Everything else is rejected by [`compile`] before any call runs, with
//! `code.forbidden` naming the construct and its line:column (imports,
//! attributes, subscripts, any other function, lambdas, comprehensions,
//! loops, conditionals, f-strings, operators, starred/keyword arguments,
//! augmented/tuple/chained/annotated assignment, `del`, `with`, `try`,
//! definitions and decorators, `global`/`nonlocal`, walrus, `pass`,
//! `return`, `assert`, `raise`, `yield`, `await`, names used before
//! assignment, nested calls, bare expressions). Syntax errors are
//! `code.syntax`; static limits (source bytes, nodes, call sites) are
//! `code.limit` — see `parse.rs` for the order of checks and `check.rs` for
//! the exact node-count rule.
//!
//! # Running
//!
//! [`CodeRun::start`] returns a [`CodeStep`]: either [`CodeStep::Call`] with a
//! [`PendingCall`] (handle, substituted arguments, deadline) or
//! [`CodeStep::Done`] with a [`CodeResult`]. The host answers each call once
//! with [`PendingCall::resume`] (or [`PendingCall::cancel`]). See
//! `machine.rs` for the time, call and output rules and the final value.
//!
//! # Status mapping
//!
//! Each call's outcome maps to a row status and, when it stops the run, a
//! run status — see the table in `outcome.rs`. In short: `ok` continues;
//! pre-dispatch refusals (forged/stale handle, unknown tool, schema not
//! loaded, invalid arguments, nested bridge) → `rejected`; policy denial,
//! approval denial or hook veto → `denied`; tool error → `failed`; tool
//! timeout or the run's deadline → `timed_out`; host cancel → `cancelled`;
//! output over the gate's cap or over `maxOutputBytes`, or too many calls →
//! `limit_exceeded`.
//!
//! A compile error is run status `rejected` with no rows
//! ([`CodeResult::rejected`]).
//!
//! # Where the compiler runs
//!
//! With the `parser` feature (the default; native builds and the separate
//! code module `code-wasm/`) [`compile`] is here. The browser's default wasm is
//! built without it: a host installs a [`Compiler`] (the code module, loaded
//! on demand) whose answer crosses as JSON and is re-checked by [`decode`]
//! before anything runs ([`encode`] is the other end, in the code module).
//!
//! # Crate layout
//!
//! Modules are private; the API is the `pub use` list below. Imports run one
//! way, with no circle: the leaves `located` (located errors, parser offsets),
//! `constructs` and `program` (the IR) → `limits`, `escapes` (on `located`) →
//! `check` → `parse` (the compiler). Beside them, `result` (on `limits`) →
//! `outcome` → `machine` (the run, also on `program`); `wire` (encode,
//! decode) needs only `program` and `limits`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]

#[cfg(feature = "parser")]
mod check;
#[cfg(feature = "parser")]
mod constructs;
#[cfg(feature = "parser")]
mod escapes;
mod limits;
mod located;
mod machine;
mod outcome;
#[cfg(feature = "parser")]
mod parse;
mod program;
mod result;
mod wire;

pub use limits::{check_source_size, CodeLimits, LimitsRequest};
pub use machine::{CodeRun, CodeStep, PendingCall};
pub use outcome::InnerCallOutcome;
#[cfg(feature = "parser")]
pub use parse::{compile, TOKENS_PER_NODE};
pub use program::{Program, Statement, Template};
pub use result::{CodeError, CodeResult, CodeStatus, CodeSummary, RowStatus, TraceRow};
pub use wire::{decode, encode, unavailable, Answer, CompileFn, Compiler};
