//! Our JSON Schema validator (replacing the `jsonschema` crate); for now only its `format` checks.
pub mod format;
