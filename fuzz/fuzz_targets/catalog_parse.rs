//! Catalog parsing, then registering what parsed.
//!
//! First byte: the options (provider id, qualified names, source, trust);
//! next byte even: the rest is catalog text (`parse_catalog_text`); odd: a
//! generated value (`parse_catalog_value`). Asserted: a refusal is
//! `catalog.malformed` naming the file and located inside the input (a
//! line:column in the text, or a pointer that resolves in the value); parsed
//! specs then register (or re-list a provider) into the seed registry, which
//! must be unchanged after any refusal.
#![no_main]

use holaryn_core::ErrorCode;
use holaryn_core::{parse_catalog_text, parse_catalog_value, CatalogOptions};
use holaryn_fuzz::{assert_located, check_change, gen, seed_registry, snapshot, Bytes, WORDS};
use holaryn_model::Trust;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

const FILE: &str = "servers/github.json";

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let o = b.byte();
    let opts = CatalogOptions {
        provider_id: (o & 1 != 0).then(|| "github".to_string()),
        qualify_names: o & 2 != 0,
        source: (o & 4 != 0).then(|| b.pick(WORDS).to_string()),
        trust: [
            None,
            Some(Trust::Trusted),
            Some(Trust::Untrusted),
            Some(Trust::Builtin),
        ][usize::from(o >> 3) % 4],
        qualify_refused_names: o & 0x80 != 0,
    };
    let (specs, text, value) = if b.byte().is_multiple_of(2) {
        let text = String::from_utf8_lossy(b.rest()).into_owned();
        let value = serde_json::from_str::<Value>(&text).ok();
        (parse_catalog_text(FILE, &text, &opts), text, value)
    } else {
        let value = gen(&mut b, 0);
        (
            parse_catalog_value(FILE, &value, &opts),
            String::new(),
            Some(value),
        )
    };
    let specs = match specs {
        Ok(specs) => specs,
        Err(e) => {
            assert_eq!(e.code, ErrorCode::CatalogMalformed);
            assert_eq!(e.file.as_deref(), Some(FILE));
            assert_located(&text, value.as_ref(), &e);
            return;
        }
    };
    let mut r = seed_registry();
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let before = snapshot(&r, &names);
    let result = if o & 0x80 != 0 {
        let provider = specs
            .first()
            .map(|s| s.provider.id.clone())
            .unwrap_or_default();
        r.sync_provider(&provider, specs)
    } else {
        r.register(specs)
    };
    check_change(&before, &r, &names, &result);
});
