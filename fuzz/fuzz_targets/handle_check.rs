//! Handle parsing: nothing panics, and a forged handle never resolves.
//!
//! The input gives a session secret, a few tools to issue handles for, and
//! candidate strings: raw text and issued handles with edits. Asserted: a
//! candidate resolves only when it is exactly a handle issued in the current
//! epoch, to the binding it was issued for; another secret's table resolves
//! none of them; after a registry change every issued handle is
//! `handle.stale` and nothing resolves.
#![no_main]

use holaryn_core::ErrorCode;
use holaryn_core::{Binding, HandleTable, MIN_SECRET_BYTES};
use holaryn_fuzz::Bytes;
use holaryn_model::HANDLE_PREFIX;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let secret_len = MIN_SECRET_BYTES + usize::from(b.byte() % 17);
    let secret = b.take(secret_len).to_vec();
    let Ok(mut table) = HandleTable::new(&secret) else {
        assert!(secret.len() < MIN_SECRET_BYTES);
        return;
    };
    let mut other_secret = secret.clone();
    other_secret[0] ^= 1;
    let other = HandleTable::new(&other_secret).expect("long enough");
    let mut issued = BTreeMap::new();
    for i in 0..(b.byte() % 5) {
        let binding = Binding {
            tool: format!("tool{}", b.byte() % 4),
            tool_version: format!("t{}", b.byte() % 2),
            registry_version: format!("v{i}"),
            schema_hash: "s".into(),
        };
        let h = table.issue(binding.clone());
        // Re-issuing a tool replaces its binding; the old handle stays bound.
        issued.insert(h, binding);
    }
    let handles: Vec<String> = issued.keys().cloned().collect();
    let mut candidates = handles.clone();
    // A few candidates per input: each check costs HMACs, and libFuzzer
    // explores more with many short inputs than with a few long ones.
    while !b.is_empty() && candidates.len() < handles.len() + 8 {
        let kind = b.byte();
        let base = handles.get(usize::from(kind >> 2) % handles.len().max(1));
        let candidate = match (kind % 4, base.cloned()) {
            (0, Some(mut h)) => {
                // Overwrite one byte of an issued handle with an ASCII byte.
                let at = usize::from(b.byte()) % h.len();
                let c = char::from(b.byte() & 0x7f);
                h.replace_range(at..at + 1, c.encode_utf8(&mut [0; 4]));
                h
            }
            (1, Some(h)) => h[..usize::from(b.byte()) % h.len()].to_string(),
            (2, Some(h)) => format!("{HANDLE_PREFIX}{}", h[HANDLE_PREFIX.len()..].to_uppercase()),
            _ => {
                let n = usize::from(b.byte() % 64);
                String::from_utf8_lossy(b.take(n)).into_owned()
            }
        };
        candidates.push(candidate);
    }
    for c in &candidates {
        match table.check(c) {
            Ok(binding) => assert_eq!(issued.get(c), Some(binding), "{c:?} resolved"),
            Err(e) => {
                assert!(!issued.contains_key(c), "an issued handle failed: {e:?}");
                assert_eq!(e.code, ErrorCode::HandleForged);
            }
        }
        assert!(other.check(c).is_err(), "another secret resolved {c:?}");
    }
    table.clear();
    for c in &candidates {
        let e = table.check(c).expect_err("nothing resolves after a change");
        let want = if issued.contains_key(c) {
            ErrorCode::HandleStale
        } else {
            ErrorCode::HandleForged
        };
        assert!(
            e.code == want || e.code == ErrorCode::HandleStale,
            "{c:?}: {e:?}"
        );
    }
});
