//! Instance validation: a schema and an instance (`[schema, instance]` as
//! JSON text, or generated, see `holaryn_fuzz::json_input`), through
//! `holaryn-jsonschema` under its step budget.
//!
//! Asserted: every validation ends (libFuzzer's `-timeout` catches a hang);
//! a refusal by the budget is the only error and never reads as valid;
//! with fewer steps the answer is the full one or that refusal, never
//! another verdict (memoisation and the shared budget change cost, not
//! verdicts); `is_valid` agrees with `iter_errors` whenever both decide.
#![no_main]

use holaryn_fuzz::json_input;
use holaryn_jsonschema::{validator_for, ErrorKind, ValidationError, STEP_BUDGET};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn refused(errors: &[ValidationError]) -> bool {
    errors.iter().any(|e| e.kind == ErrorKind::BudgetExceeded)
}

fuzz_target!(|data: &[u8]| {
    let Some((&steps, rest)) = data.split_first() else {
        return;
    };
    let Some(Value::Array(pair)) = json_input(rest) else {
        return;
    };
    let [schema, instance] = pair.as_slice() else {
        return;
    };
    let Ok(v) = validator_for(schema) else {
        return;
    };
    let full: Vec<_> = v.iter_errors(instance).collect();
    if refused(&full) {
        assert_eq!(full.len(), 1, "a budget refusal comes alone: {full:?}");
        assert!(full[0].pointer.is_empty() || full[0].pointer.starts_with('/'));
    }
    let valid = v.is_valid(instance);
    if full.is_empty() {
        assert!(valid, "no error, yet not valid");
    } else if !refused(&full) {
        assert!(!valid, "errors, yet valid: {full:?}");
    }
    // Fewer steps: the same answer, or refused.
    let few = u64::from(steps) << (steps % 24);
    let cut: Vec<_> = v
        .iter_errors_within(instance, few.min(STEP_BUDGET))
        .collect();
    if refused(&cut) {
        assert_eq!(cut.len(), 1, "{cut:?}");
    } else if !refused(&full) {
        assert_eq!(cut, full, "a smaller budget changed the verdict");
    }
});
