//! Names for the constructs the checker rejects, used in `code.forbidden` messages.
//!
//! Each AST kind outside the language maps to a short, stable construct name
//! (`` `import` ``, `list comprehension`, `` binary operator `+` `` …) that
//! every rejection message starts with.

use rustpython_parser::ast::{self, Expr, Ranged, Stmt};
use rustpython_parser::text_size::TextSize;

/// Shorten a quoted name so a message stays small.
pub(crate) fn clip(s: &str) -> String {
    if s.chars().count() > 40 {
        s.chars().take(40).collect::<String>() + "…"
    } else {
        s.to_string()
    }
}

/// The construct name and position of a statement kind that is never allowed.
pub(crate) fn statement_construct(stmt: &Stmt) -> (&'static str, TextSize) {
    let decorated = |list: &[Expr], what: &'static str, at: TextSize| match list.first() {
        Some(d) => ("decorator", d.start()),
        None => (what, at),
    };
    match stmt {
        Stmt::FunctionDef(s) => {
            decorated(&s.decorator_list, "function definition `def`", s.start())
        }
        Stmt::AsyncFunctionDef(s) => decorated(
            &s.decorator_list,
            "async function definition `async def`",
            s.start(),
        ),
        Stmt::ClassDef(s) => decorated(&s.decorator_list, "class definition", s.start()),
        Stmt::Return(s) => ("`return`", s.start()),
        Stmt::Delete(s) => ("`del`", s.start()),
        Stmt::TypeAlias(s) => ("type alias", s.start()),
        Stmt::AugAssign(s) => ("augmented assignment", s.start()),
        Stmt::AnnAssign(s) => ("annotated assignment", s.start()),
        Stmt::For(s) => ("`for` loop", s.start()),
        Stmt::AsyncFor(s) => ("`async for` loop", s.start()),
        Stmt::While(s) => ("`while` loop", s.start()),
        Stmt::If(s) => ("`if` statement", s.start()),
        Stmt::With(s) => ("`with` statement", s.start()),
        Stmt::AsyncWith(s) => ("`async with` statement", s.start()),
        Stmt::Match(s) => ("`match` statement", s.start()),
        Stmt::Raise(s) => ("`raise`", s.start()),
        Stmt::Try(s) => ("`try` statement", s.start()),
        Stmt::TryStar(s) => ("`try` statement", s.start()),
        Stmt::Assert(s) => ("`assert`", s.start()),
        Stmt::Import(s) => ("`import`", s.start()),
        Stmt::ImportFrom(s) => ("`from … import`", s.start()),
        Stmt::Global(s) => ("`global`", s.start()),
        Stmt::Nonlocal(s) => ("`nonlocal`", s.start()),
        Stmt::Pass(s) => ("`pass`", s.start()),
        Stmt::Break(s) => ("`break`", s.start()),
        Stmt::Continue(s) => ("`continue`", s.start()),
        Stmt::Assign(s) => ("assignment", s.start()),
        Stmt::Expr(s) => ("expression", s.start()),
    }
}

/// The construct name of an expression kind outside the value language.
pub(crate) fn describe(expr: &Expr) -> &'static str {
    match expr {
        Expr::BoolOp(b) => match b.op {
            ast::BoolOp::And => "boolean operator `and`",
            ast::BoolOp::Or => "boolean operator `or`",
        },
        Expr::NamedExpr(_) => "walrus assignment `:=`",
        Expr::BinOp(b) => binary(b.op),
        Expr::UnaryOp(u) => match u.op {
            ast::UnaryOp::Not => "unary operator `not`",
            ast::UnaryOp::Invert => "unary operator `~`",
            ast::UnaryOp::UAdd => "unary operator `+`",
            ast::UnaryOp::USub => "unary operator `-`",
        },
        Expr::Lambda(_) => "`lambda`",
        Expr::IfExp(_) => "conditional expression `… if … else …`",
        Expr::Dict(_) => "dict",
        Expr::Set(_) => "set literal",
        Expr::ListComp(_) => "list comprehension",
        Expr::SetComp(_) => "set comprehension",
        Expr::DictComp(_) => "dict comprehension",
        Expr::GeneratorExp(_) => "generator expression",
        Expr::Await(_) => "`await`",
        Expr::Yield(_) => "`yield`",
        Expr::YieldFrom(_) => "`yield from`",
        Expr::Compare(c) => compare(c.ops.first()),
        Expr::Call(_) => "call",
        Expr::FormattedValue(_) | Expr::JoinedStr(_) => "f-string",
        Expr::Constant(_) => "literal",
        Expr::Attribute(_) => "attribute access",
        Expr::Subscript(_) => "subscript",
        Expr::Starred(_) => "starred expression",
        Expr::Name(_) => "name",
        Expr::List(_) => "list",
        Expr::Tuple(_) => "tuple",
        Expr::Slice(_) => "slice",
    }
}

/// The construct name of a binary operator.
fn binary(op: ast::Operator) -> &'static str {
    use ast::Operator as O;
    match op {
        O::Add => "binary operator `+`",
        O::Sub => "binary operator `-`",
        O::Mult => "binary operator `*`",
        O::MatMult => "binary operator `@`",
        O::Div => "binary operator `/`",
        O::Mod => "binary operator `%`",
        O::Pow => "binary operator `**`",
        O::LShift => "binary operator `<<`",
        O::RShift => "binary operator `>>`",
        O::BitOr => "binary operator `|`",
        O::BitXor => "binary operator `^`",
        O::BitAnd => "binary operator `&`",
        O::FloorDiv => "binary operator `//`",
    }
}

/// The construct name of a comparison (named by its first operator).
fn compare(op: Option<&ast::CmpOp>) -> &'static str {
    use ast::CmpOp as C;
    match op {
        Some(C::Eq) => "comparison operator `==`",
        Some(C::NotEq) => "comparison operator `!=`",
        Some(C::Lt) => "comparison operator `<`",
        Some(C::LtE) => "comparison operator `<=`",
        Some(C::Gt) => "comparison operator `>`",
        Some(C::GtE) => "comparison operator `>=`",
        Some(C::Is) => "comparison operator `is`",
        Some(C::IsNot) => "comparison operator `is not`",
        Some(C::In) => "comparison operator `in`",
        Some(C::NotIn) => "comparison operator `not in`",
        None => "comparison operator",
    }
}
