//! The checked program: a tiny IR that only holds what the language allows.
//!
//! A [`Program`] is a list of [`Statement`]s, each one `call(HANDLE, ARGS)`
//! with an optional target name. `ARGS` is a [`Template`]: literal JSON with
//! holes for names bound by earlier statements. Names are resolved to slots
//! at compile time, so running a program never looks a name up.

use serde_json::{Map, Value};

/// A compiled bounded-code program, ready for [`crate::CodeRun::start`].
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub(crate) statements: Vec<Statement>,
    pub(crate) slots: usize,
    pub(crate) nodes: u32,
}

impl Program {
    /// The statements, in program order.
    pub fn statements(&self) -> &[Statement] {
        &self.statements
    }
    /// Static number of `call(...)` sites (one per statement).
    pub fn call_sites(&self) -> u32 {
        u32::try_from(self.statements.len()).unwrap_or(u32::MAX)
    }
    /// Syntax nodes counted while checking (what counts as one: `check.rs`).
    pub fn nodes(&self) -> u32 {
        self.nodes
    }
    /// Number of distinct names the program binds.
    pub fn names(&self) -> usize {
        self.slots
    }
}

/// One statement: `[target =] call("toolh_…", ARGS)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    pub(crate) target: Option<Target>,
    pub(crate) handle: String,
    pub(crate) args: Template,
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl Statement {
    /// The name the call's output is bound to, if any.
    pub fn target(&self) -> Option<&str> {
        self.target.as_ref().map(|t| t.name.as_str())
    }
    /// The handle literal, exactly as written.
    pub fn handle(&self) -> &str {
        &self.handle
    }
    /// The arguments template.
    pub fn args(&self) -> &Template {
        &self.args
    }
    /// 1-based line of the `call` name.
    pub fn line(&self) -> u32 {
        self.line
    }
    /// 1-based UTF-16 column of the `call` name.
    pub fn column(&self) -> u32 {
        self.column
    }
}

/// An assignment target: the name and its slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    pub(crate) name: String,
    pub(crate) slot: usize,
}

/// Call arguments: JSON literals with holes for earlier names.
#[derive(Clone, Debug, PartialEq)]
pub enum Template {
    /// A literal value (string, number, boolean, `None` → null, or a literal-only list/dict).
    Literal(Value),
    /// The value bound to a name by an earlier statement.
    Name {
        /// The name as written.
        name: String,
        /// Its slot in the run's variables.
        slot: usize,
    },
    /// A list with at least one name inside.
    List(Vec<Template>),
    /// A dict (string keys, source order) with at least one name inside.
    Dict(Vec<(String, Template)>),
}

impl Template {
    /// Bytes that substituting names adds: the sum of `var_len(slot)` over
    /// every name occurrence (a name used twice counts twice).
    pub fn substituted_len(&self, var_len: &dyn Fn(usize) -> u64) -> u64 {
        match self {
            Template::Literal(_) => 0,
            Template::Name { slot, .. } => var_len(*slot),
            Template::List(items) => items
                .iter()
                .fold(0u64, |n, t| n.saturating_add(t.substituted_len(var_len))),
            Template::Dict(entries) => entries.iter().fold(0u64, |n, (_, t)| {
                n.saturating_add(t.substituted_len(var_len))
            }),
        }
    }

    /// Build the JSON value, substituting names from `vars` (an unbound slot,
    /// impossible in a checked program, becomes null rather than a panic).
    pub fn instantiate(&self, vars: &[Option<Value>]) -> Value {
        match self {
            Template::Literal(v) => v.clone(),
            Template::Name { slot, .. } => vars
                .get(*slot)
                .and_then(Option::as_ref)
                .cloned()
                .unwrap_or(Value::Null),
            Template::List(items) => {
                Value::Array(items.iter().map(|t| t.instantiate(vars)).collect())
            }
            Template::Dict(entries) => {
                let mut map = Map::with_capacity(entries.len());
                for (k, t) in entries {
                    map.insert(k.clone(), t.instantiate(vars));
                }
                Value::Object(map)
            }
        }
    }

    /// Fold literal-only lists and dicts into one [`Template::Literal`].
    #[cfg_attr(not(feature = "parser"), allow(dead_code))]
    pub(crate) fn list(items: Vec<Template>) -> Template {
        if items.iter().all(|t| matches!(t, Template::Literal(_))) {
            let values = items
                .into_iter()
                .filter_map(|t| match t {
                    Template::Literal(v) => Some(v),
                    _ => None,
                })
                .collect();
            Template::Literal(Value::Array(values))
        } else {
            Template::List(items)
        }
    }

    /// Fold a literal-only dict into one [`Template::Literal`].
    #[cfg_attr(not(feature = "parser"), allow(dead_code))]
    pub(crate) fn dict(entries: Vec<(String, Template)>) -> Template {
        if entries
            .iter()
            .all(|(_, t)| matches!(t, Template::Literal(_)))
        {
            let mut map = Map::with_capacity(entries.len());
            for (k, t) in entries {
                if let Template::Literal(v) = t {
                    map.insert(k, v);
                }
            }
            Template::Literal(Value::Object(map))
        } else {
            Template::Dict(entries)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_substituted_and_literals_fold() {
        let t = Template::dict(vec![
            ("a".into(), Template::Literal(json!(1))),
            (
                "b".into(),
                Template::list(vec![Template::Name {
                    name: "x".into(),
                    slot: 0,
                }]),
            ),
        ]);
        let vars = vec![Some(json!({"k": true}))];
        assert_eq!(t.instantiate(&vars), json!({"a": 1, "b": [{"k": true}]}));
        let lit = Template::list(vec![Template::Literal(json!("s"))]);
        assert_eq!(lit, Template::Literal(json!(["s"])));
    }

    #[test]
    fn an_unbound_slot_is_null_not_a_panic() {
        let t = Template::Name {
            name: "x".into(),
            slot: 7,
        };
        assert_eq!(t.instantiate(&[]), Value::Null);
    }
}
