//! The registry keeps its wire names up to date per change (issue 32): after
//! any sequence of registrations, replacements and removals, its wire names
//! and their inverse are exactly what the rule ([`holaryn_model::wire_names`])
//! derives from scratch for the same registry.

use holaryn_core::Registry;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Names whose preferred wire names collide with each other, with registered
/// names and aliases, with reserved names, with handle-like names, or are too long.
const NAMES: &[&str] = &[
    "a/b",
    "a.b",
    "a_b",
    "a__b",
    "a/b/c",
    "a__b/c",
    "tool.search",
    "tool/list",
    "toolh_x/y",
    "toolh_.z",
    "p/x",
    "p.x",
    "p__x",
    "q/Ü",
    "q/_",
    "run.tool.code",
];

fn long(i: usize) -> String {
    format!("{}/{}", "l".repeat(40), "m".repeat(30 + i % 2))
}

fn tool(name: &str, alias: Option<&str>, rev: u32) -> Value {
    let mut v = json!({
        "name": name, "description": format!("rev {rev}"), "source": "native",
        "provider": {"id": "host"},
    });
    if let Some(a) = alias {
        v["aliases"] = json!([a]);
    }
    v
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn check(reg: &Registry, step: usize) {
    let names: Vec<String> = reg.entries().map(|e| e.descriptor.name.clone()).collect();
    let expected =
        holaryn_model::wire_names(names.iter().map(String::as_str), &|w| reg.get(w).is_some());
    assert_eq!(reg.wire_names(), &expected, "step {step}: {names:?}");
    let mut wires: BTreeMap<String, String> = BTreeMap::new();
    for n in &names {
        let wire = reg.wire_of(n);
        assert_eq!(reg.by_wire(&wire), Some(n.as_str()), "step {step}: {wire}");
        wires.insert(wire, n.clone());
    }
    // No other string stands for a tool.
    for probe in NAMES.iter().map(|s| s.replace(['/', '.'], "_")) {
        if !wires.contains_key(&probe) && reg.get(&probe).is_none() {
            assert_eq!(reg.by_wire(&probe), None, "step {step}: {probe}");
        }
    }
}

#[test]
fn wire_names_follow_every_change_as_if_derived_afresh() {
    let pool: Vec<String> = NAMES
        .iter()
        .map(|s| s.to_string())
        .chain((0..3).map(long))
        .collect();
    for seed in 1..=40u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut reg = Registry::new();
        for step in 0..60 {
            let batch: Vec<Value> = (0..1 + rng.next(3))
                .map(|_| {
                    let name = &pool[rng.next(pool.len())];
                    let alias = match rng.next(5) {
                        0 => Some(NAMES[rng.next(NAMES.len())].replace(['/', '.'], "_")),
                        _ => None,
                    };
                    tool(name, alias.as_deref(), rng.next(3) as u32)
                })
                .collect();
            if rng.next(3) == 0 {
                let gone: Vec<String> = batch
                    .iter()
                    .filter_map(|t| t["name"].as_str())
                    .filter(|n| reg.get(n).is_some())
                    .map(str::to_string)
                    .collect();
                let _ = reg.remove(&gone);
            } else {
                // Refused batches (clashes, reserved names) must leave the table as it was.
                let _ = reg.register_values(&batch);
            }
            check(&reg, step);
        }
    }
}
