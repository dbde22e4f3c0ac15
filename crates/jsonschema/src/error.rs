//! Validation errors: what failed ([`ErrorKind`]), where in the instance (a
//! JSON pointer) and a message worded as the `jsonschema` crate worded it, so
//! callers' texts stay the same.

use serde_json::Value;
use std::fmt;

/// What a failed keyword found (the kinds callers match on carry data).
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// `additionalProperties: false` (or a schema) refused these names.
    AdditionalProperties {
        /// The refused property names, in instance order.
        unexpected: Vec<String>,
    },
    /// `type` did not match.
    Type,
    /// `required` (or a dependency) names a missing property.
    Required,
    /// Any other keyword.
    Other,
    /// The validation needed more steps than its budget ([`crate::STEP_BUDGET`]):
    /// undecided, so refused; the pointer is where the budget ran out.
    BudgetExceeded,
}

/// One validation failure.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidationError {
    /// JSON pointer to the failing part of the instance (empty for the root).
    pub pointer: String,
    /// What failed.
    pub kind: ErrorKind,
    /// The message, as `jsonschema` 0.61 words it.
    pub message: String,
}

impl ValidationError {
    /// The error of a validation that ran out of its `steps` at `pointer`.
    pub(crate) fn over_budget(pointer: String, steps: u64) -> Self {
        ValidationError {
            message: format!(
                "validating this value needs more than {steps} steps (the validation budget): refused undecided"
            ),
            pointer,
            kind: ErrorKind::BudgetExceeded,
        }
    }

    /// The JSON pointer of the failing part of the instance.
    pub fn instance_path(&self) -> &str {
        &self.pointer
    }

    /// What failed.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Why a schema does not compile.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileError {
    /// JSON pointer into the schema where it is known, else empty.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl CompileError {
    /// A compile error at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        CompileError {
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// The JSON pointer into the schema (empty when unknown).
    pub fn instance_path(&self) -> &str {
        &self.pointer
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// `'a', 'b'` as the `jsonschema` crate quotes names.
pub(crate) fn quoted_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("'{i}'")).collect();
    quoted.join(", ")
}

/// ` was unexpected)` or ` were unexpected)`.
pub(crate) fn unexpected_suffix(n: usize) -> &'static str {
    if n == 1 {
        " was unexpected)"
    } else {
        " were unexpected)"
    }
}

/// `x is not one of a, b or c` (at most three options shown).
pub(crate) fn enum_message(instance: &Value, options: &[Value]) -> String {
    let mut m = format!("{instance} is not one of ");
    if options.len() <= 3 {
        for (i, o) in options.iter().enumerate() {
            if i == 0 {
                m.push_str(&o.to_string());
            } else if i + 1 == options.len() {
                m.push_str(&format!(" or {o}"));
            } else {
                m.push_str(&format!(", {o}"));
            }
        }
    } else {
        m.push_str(&format!(
            "{}, {} or {} other candidates",
            options[0],
            options[1],
            options.len() - 2
        ));
    }
    m
}

/// `s` unless `n == 1`.
pub(crate) fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}
