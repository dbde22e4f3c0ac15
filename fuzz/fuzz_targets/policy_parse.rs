//! The policy file parser and the two policy evaluators.
//!
//! First byte even: the rest is the text of `.holaryn/tool-policy.json`
//! (`parse_policy_file`); odd: a generated value for host session rules
//! (`Rules::from_value`). Asserted: either the rules parse, or the error is
//! `policy.malformed` located inside the input (a line:column in the text, or
//! a JSON pointer that resolves in the value); every parsed entry re-parses to
//! itself; and the precompiled policy decides exactly like
//! `Policy::evaluate` for the seed tools and for tools named by the entries.
#![no_main]

use holaryn_core::{ErrorCode, Registry, Source, ToolDescriptor};
use holaryn_core::{Pattern, Policy, Rules};
use holaryn_fuzz::{assert_located, gen, with_seed, Bytes};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let parsed = if b.byte().is_multiple_of(2) {
        let text = String::from_utf8_lossy(b.rest());
        let value: Option<Value> =
            serde_json::from_str(text.strip_prefix('\u{feff}').unwrap_or(&text)).ok();
        let r = holaryn_core::parse_policy_file("p.json", &text);
        if let Err(e) = &r {
            assert_eq!(e.code, ErrorCode::PolicyMalformed);
            assert_eq!(e.file.as_deref(), Some("p.json"));
            let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
            if e.line.is_some() {
                assert_located(body, None, e);
            } else {
                assert_located(body, value.as_ref(), e);
            }
        }
        r
    } else {
        let value = gen(&mut b, 0);
        let r = Rules::from_value(&value, None);
        if let Err(e) = &r {
            assert_eq!(e.code, ErrorCode::PolicyMalformed);
            assert!(e.line.is_none(), "a value has no lines");
            assert_located("", Some(&value), e);
        }
        r
    };
    if let Ok(rules) = parsed {
        check_rules(&rules);
    }
});

fn check_rules(rules: &Rules) {
    let entries: Vec<&Pattern> = rules.allow.iter().flatten().chain(&rules.deny).collect();
    for p in &entries {
        assert_eq!(Pattern::parse(p.as_str()).as_ref(), Ok(*p), "re-parse");
    }
    let policies = [
        Policy::with_session(rules.clone()),
        Policy {
            hidden_providers: vec!["skills".into()],
            profile_allowed: rules.allow.clone(),
            session: Rules::default(),
            project: Some(("p.json".into(), rules.clone())),
        },
    ];
    with_seed(|registry| evaluate_both(registry, &entries, &policies));
}

fn evaluate_both(registry: &Registry, entries: &[&Pattern], policies: &[Policy]) {
    let mut tools: Vec<ToolDescriptor> = registry
        .entries()
        .map(|e| (*e.descriptor).clone())
        .collect();
    // Tools named after the entries, so exact and qualified matches are hit.
    let base = tools[0].clone();
    for (i, p) in entries.iter().take(8).enumerate() {
        let text = p.as_str().trim_end_matches('*');
        let name = text.rsplit(':').next().unwrap_or(text).to_string();
        let mut t = base.clone();
        t.source = Source::ALL[i % Source::ALL.len()];
        match name.split_once('/') {
            Some((provider, local)) if i % 2 == 0 => {
                t.provider.id = provider.into();
                t.local_name = local.into();
                t.name = format!("x{i}");
            }
            _ => {
                t.local_name = name.clone();
                t.aliases = vec![format!("{name}{i}")];
                t.name = name;
            }
        }
        tools.push(t);
    }
    for policy in policies {
        let compiled = policy.compile();
        assert_eq!(compiled.digest(), policy.digest().as_str());
        for t in &tools {
            assert_eq!(
                compiled.evaluate(t),
                policy.evaluate(t),
                "the two evaluators disagree on {}",
                t.name
            );
        }
    }
}
