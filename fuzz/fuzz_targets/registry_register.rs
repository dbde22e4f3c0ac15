//! Descriptor validation and registration: the registry is all-or-nothing.
//!
//! First byte: the operation (register, remove, re-list a provider, set a
//! provider's status, or a reversed re-run); the rest is a JSON value
//! (text or generated, see `holaryn_fuzz::json_input`) holding host tool
//! values, or names. Asserted: any refusal leaves the seed registry exactly
//! as it was (version, generation, tools, aliases, statuses, every lookup);
//! a success reports a change exactly when the version moved; registering
//! the same batch in reverse order gives the same outcome and version.
#![no_main]

use holaryn_core::parse_spec;
use holaryn_fuzz::{check_change, json_input, seed_registry, snapshot, strings_in};
use holaryn_model::ProviderStatus;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&op, rest)) = data.split_first() else {
        return;
    };
    let Some(value) = json_input(rest) else {
        return;
    };
    let values = match value {
        Value::Array(items) => items,
        other => vec![other],
    };
    let mut names = Vec::new();
    values.iter().for_each(|v| strings_in(v, &mut names));
    names.truncate(64);
    let mut r = seed_registry();
    let before = snapshot(&r, &names);
    let result = match op % 5 {
        0 | 1 => r.register_values(&values),
        2 => r.remove(&names[..names.len().min(4)]),
        3 => match values.iter().map(parse_spec).collect() {
            Ok(specs) => r.sync_provider(names.first().map_or("github", String::as_str), specs),
            Err(e) => Err(e),
        },
        _ => {
            let id = names.first().map_or("github", String::as_str);
            let status = [
                ProviderStatus::Connected,
                ProviderStatus::Disconnected,
                ProviderStatus::NeedsAuth,
            ][usize::from(op >> 4) % 3];
            r.set_provider_status(id, status)
        }
    };
    check_change(&before, &r, &names, &result);
    if op % 5 == 1 {
        // Order never matters: the same batch reversed, on a fresh copy.
        let mut reversed = values.clone();
        reversed.reverse();
        let mut again = seed_registry();
        let second = again.register_values(&reversed);
        assert_eq!(result.is_ok(), second.is_ok(), "{result:?} vs {second:?}");
        assert_eq!(r.version(), again.version(), "order changed the version");
    }
});
