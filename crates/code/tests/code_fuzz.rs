//! Bounded code: no input panics — random token soup, mutated programs, raw bytes.
//!
//! A small deterministic generator (xorshift, fixed seeds) keeps the run
//! reproducible and quick; a proptest property adds shrinking on top. Every
//! compiled program is also run against a random scripted host and its result
//! checked against the published schema.

use holaryn_code::{
    compile, CodeLimits, CodeResult, CodeRun, CodeStatus, CodeStep, InnerCallOutcome,
};
use holaryn_model::Code;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// Pieces of (mostly) Python: keywords, operators, literals, layout, odd characters.
const VOCAB: &[&str] = &[
    "call",
    "(",
    ")",
    "\"toolh_a1\"",
    "'toolh_b2'",
    ",",
    "{",
    "}",
    "[",
    "]",
    ":",
    "=",
    "\n",
    "    ",
    "\t",
    " ",
    "x",
    "first",
    "_",
    "\"k\"",
    "1",
    "-",
    "-5",
    "2.5",
    "1e999",
    "99999999999999999999",
    "0x1F",
    "1_000",
    "3j",
    "True",
    "False",
    "None",
    "...",
    "+",
    "*",
    "**",
    "/",
    "//",
    "%",
    "@",
    "&",
    "|",
    "^",
    "~",
    "<",
    ">",
    "==",
    "!=",
    "<=",
    ":=",
    "+=",
    ".",
    ";",
    "\\\n",
    "#c",
    "not",
    "and",
    "or",
    "in",
    "is",
    "if",
    "else",
    "elif",
    "for",
    "while",
    "def",
    "class",
    "lambda",
    "return",
    "yield",
    "await",
    "async",
    "import",
    "from",
    "as",
    "with",
    "try",
    "except",
    "finally",
    "raise",
    "assert",
    "del",
    "global",
    "nonlocal",
    "pass",
    "break",
    "continue",
    "match",
    "case",
    "type",
    "print",
    "open",
    "__import__",
    "os",
    "f\"",
    "f'{x}'",
    "f\"{x!r:>{w}}\"",
    "b'raw'",
    "r'\\d'",
    "'''",
    "\"\"\"",
    "\"",
    "'",
    "\"unterminated",
    "\\",
    "é",
    "😀",
    "\u{202e}",
    "\u{0}",
    "\r",
    "\r\n",
    "\u{c}",
    "\u{feff}",
    "\u{300}",
    "０",
    "ℌ",
    "*args",
    "**kw",
    "args=",
    "[i for i in x]",
    "{k: v for k in x}",
    "(i for i in x)",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

fn seeds() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/code");
    let mut out = vec![
        std::fs::read_to_string(dir.join("golden-completed.py")).unwrap_or_default(),
        "first = call(\"toolh_a1b2\", {\"path\": \"notes.txt\"})\ncall(\"toolh_c3d4\", {\"content\": first})\n".into(),
        "a = call('toolh_x', {\"n\": -5, \"l\": [1, [None, True]], \"d\": {\"é😀\": 2.5}})\nb = call('toolh_y', a)\n".into(),
    ];
    let forbidden: Vec<Value> = std::fs::read_to_string(dir.join("forbidden.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    out.extend(
        forbidden
            .iter()
            .filter_map(|c| c["source"].as_str().map(str::to_string)),
    );
    out
}

/// Byte offsets that are char boundaries of `s`.
fn boundary(rng: &mut Rng, s: &str) -> usize {
    let mut at = rng.below(s.len() + 1);
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut s = seed.to_string();
    for _ in 0..1 + rng.below(4) {
        let a = boundary(rng, &s);
        let b = boundary(rng, &s);
        let (lo, hi) = (a.min(b), a.max(b));
        match rng.below(5) {
            0 => s.insert_str(a, rng.pick(VOCAB)),
            1 => s.replace_range(lo..hi, ""),
            2 => {
                let piece = s[lo..hi].to_string();
                s.insert_str(hi, &piece);
            }
            3 => s.replace_range(lo..hi, rng.pick(VOCAB)),
            _ => {
                let piece = s[lo..hi].repeat(1 + rng.below(50));
                s.insert_str(lo, &piece);
            }
        }
    }
    s
}

/// A literal or earlier name, nested up to `depth`.
fn value(rng: &mut Rng, names: &[String], depth: u32) -> String {
    match rng.below(if depth == 0 { 6 } else { 8 }) {
        0 => format!("\"s{}\"", rng.below(100)),
        1 => format!("-{}", rng.below(1000)),
        2 => format!("{}.5", rng.below(1000)),
        3 => rng.pick(&["True", "False", "None", "'é😀'"]).to_string(),
        4 | 5 if !names.is_empty() => names[rng.below(names.len())].clone(),
        4 | 5 => "0".into(),
        6 => {
            let items: Vec<String> = (0..rng.below(4))
                .map(|_| value(rng, names, depth - 1))
                .collect();
            format!("[{}]", items.join(", "))
        }
        _ => dict(rng, names, depth - 1),
    }
}

fn dict(rng: &mut Rng, names: &[String], depth: u32) -> String {
    let entries: Vec<String> = (0..rng.below(4))
        .map(|i| format!("\"k{i}\": {}", value(rng, names, depth)))
        .collect();
    format!("{{{}}}", entries.join(", "))
}

/// A program in the accepted language (it may still pass a limit).
fn valid(rng: &mut Rng) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut out = String::new();
    for i in 0..rng.below(18) {
        if rng.below(4) == 0 {
            out.push_str("# note\n\n");
        }
        let args = match rng.below(4) {
            0 => String::new(),
            1 if !names.is_empty() => format!(", {}", names[rng.below(names.len())]),
            _ => format!(", {}", dict(rng, &names, 2)),
        };
        let call = format!("call(\"toolh_{i}\"{args})");
        if rng.below(3) == 0 {
            out.push_str(&format!("{call}\n"));
        } else {
            let name = format!("v{}", rng.below(6));
            out.push_str(&format!("{name} = {call}\n"));
            names.push(name);
        }
    }
    out
}

fn soup(rng: &mut Rng) -> String {
    (0..rng.below(60)).map(|_| rng.pick(VOCAB)).collect()
}

fn random_bytes(rng: &mut Rng) -> String {
    let bytes: Vec<u8> = (0..rng.below(200))
        .map(|_| (rng.next() & 0xff) as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn random_limits(rng: &mut Rng) -> CodeLimits {
    let max = CodeLimits::MAX;
    match rng.below(4) {
        0 => return CodeLimits::defaults(),
        1 => return CodeLimits::MAX,
        _ => {}
    }
    CodeLimits {
        max_calls: 1 + rng.below(max.max_calls as usize) as u32,
        timeout_ms: 1 + rng.below(max.timeout_ms as usize) as u64,
        max_output_bytes: 1 + rng.below(max.max_output_bytes as usize) as u64,
        max_source_bytes: 1 + rng.below(max.max_source_bytes as usize) as u32,
        max_nodes: 1 + rng.below(max.max_nodes as usize) as u32,
    }
}

/// Run a compiled program against a random host and check the result's invariants.
fn run(
    rng: &mut Rng,
    program: holaryn_code::Program,
    limits: CodeLimits,
    validator: &holaryn_jsonschema::Validator,
) {
    let statements = program.statements().len();
    let mut now = rng.next() % 1_000_000;
    let mut step = CodeRun::start(program, "run_f".into(), limits, now);
    let result: CodeResult = loop {
        match step {
            CodeStep::Done(r) => break r,
            CodeStep::Call(call) => {
                now += rng.below(limits.timeout_ms as usize / 2 + 2) as u64;
                let tool = "t".to_string();
                let outcome = match rng.below(12) {
                    0 => InnerCallOutcome::Refused {
                        tool: None,
                        code: Code::HandleForged,
                        message: "m".into(),
                    },
                    1 => InnerCallOutcome::Denied {
                        tool,
                        code: Code::ApprovalDenied,
                        message: "m".into(),
                    },
                    2 => InnerCallOutcome::Failed {
                        tool,
                        code: Code::ToolFailed,
                        message: "m".into(),
                        duration_ms: 1,
                    },
                    3 => InnerCallOutcome::TimedOut {
                        tool,
                        duration_ms: 5,
                    },
                    4 => InnerCallOutcome::OutputTooLarge {
                        tool,
                        bytes: 1 << 20,
                    },
                    5 => {
                        let r = call.cancel(now);
                        step = CodeStep::Done(r);
                        continue;
                    }
                    _ => InnerCallOutcome::Ok {
                        tool,
                        output: json!({"args": call.args(), "pad": "x".repeat(rng.below(9000))}),
                        duration_ms: 1,
                    },
                };
                step = call.resume(outcome, now);
            }
        }
    };
    assert!(result.trace.len() <= statements);
    assert_eq!(result.calls_attempted as usize, result.trace.len());
    assert!(result.output_bytes <= result.limits.max_output_bytes);
    assert_eq!(
        result.status == CodeStatus::Completed,
        result.error.is_none()
    );
    let value = serde_json::to_value(&result).unwrap_or(Value::Null);
    assert!(validator.is_valid(&value), "{value:#}");
}

fn schema() -> holaryn_jsonschema::Validator {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas/code-result.schema.json");
    let text = std::fs::read_to_string(path).expect("schema");
    holaryn_jsonschema::validator_for(&serde_json::from_str(&text).expect("json"))
        .expect("valid schema")
}

#[test]
fn thousands_of_generated_inputs_never_panic() {
    let validator = schema();
    let seeds = seeds();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut panics = Vec::new();
    let mut compiled = 0;
    // `HOLARYN_CODE_FUZZ_ITERS` runs longer campaigns locally; CI keeps the default.
    let iterations: usize = std::env::var("HOLARYN_CODE_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4_000);
    for i in 0..iterations {
        let source = match i % 6 {
            0 => soup(&mut rng),
            1 | 2 => {
                let seed = &seeds[rng.below(seeds.len())];
                mutate(&mut rng, seed)
            }
            3 => valid(&mut rng),
            4 => {
                let program = valid(&mut rng);
                mutate(&mut rng, &program)
            }
            _ => random_bytes(&mut rng),
        };
        let limits = random_limits(&mut rng);
        let outcome = catch_unwind(AssertUnwindSafe(|| match compile(&source, &limits) {
            Ok(program) => {
                run(&mut Rng(rng.next() | 1), program, limits, &validator);
                true
            }
            Err(e) => {
                assert!(
                    e.line.is_some() && e.column.is_some(),
                    "every rejection is located: {e}"
                );
                false
            }
        }));
        match outcome {
            Ok(true) => compiled += 1,
            Ok(false) => {}
            Err(_) => panics.push(source),
        }
    }
    assert!(
        panics.is_empty(),
        "{} inputs panicked, first: {:?}",
        panics.len(),
        panics.first()
    );
    assert!(
        compiled > 400,
        "the generator reaches valid programs too ({compiled})"
    );
}

#[test]
fn long_repetitive_inputs_at_the_source_limit_never_panic() {
    let pieces = [
        "(", "[", "{", "-", "not ", "lambda:", "f(", "a.", "\"", "'''", "\\\n", "    ", "if 1:\n",
        "@d\n", "€",
    ];
    for piece in pieces {
        let mut source = String::new();
        while source.len() + piece.len() <= 16_384 {
            source.push_str(piece);
        }
        let result = catch_unwind(|| compile(&source, &CodeLimits::MAX).map(|p| p.nodes()));
        assert!(result.is_ok(), "{piece:?} repeated panicked");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn token_sequences_never_panic(tokens in proptest::collection::vec(0..VOCAB.len(), 0..48)) {
        let source: String = tokens.iter().map(|&i| VOCAB[i]).collect();
        let _ = compile(&source, &CodeLimits::defaults());
    }
}

#[test]
fn the_deepest_inputs_the_token_guard_lets_through_fit_a_small_stack() {
    // 4 × 256 = 1024 significant tokens; each input sits just under it, so
    // the parser builds its deepest possible tree. Unoptimised parser frames
    // take about 300 KiB even for a one-line program; these inputs fit in
    // 512 KiB, half the default wasm stack (release frames are smaller).
    let n = 1_020;
    let inputs = vec![
        format!("{}1", "-".repeat(n)),
        format!("{}1", "not ".repeat(n)),
        format!("{}1", "~".repeat(n)),
        format!("{}{}", "[".repeat(n / 2), "]".repeat(n / 2)),
        format!("{}1{}", "(".repeat(n / 2), ")".repeat(n / 2)),
        format!("1{}", "+1".repeat(n / 2)),
        format!("1{}", "**1".repeat(n / 2)),
        format!("{}1", "lambda:".repeat(n / 2)),
        format!("f{}", "()".repeat(n / 2)),
        format!("a{}", ".b".repeat(n / 2)),
        format!("a{}", "[0]".repeat(n / 3)),
        format!("1{}", " if 1 else 1".repeat(n / 4)),
        format!(
            "{}pass",
            (0..100)
                .map(|i| format!("{}if 1:\n", " ".repeat(i)))
                .collect::<String>()
                + &" ".repeat(100)
        ),
        format!("f\"{{{}1}}\"", "-".repeat(16_000)),
    ];
    for source in inputs {
        let head: String = source.chars().take(12).collect();
        let joined = std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(move || {
                compile(&source, &CodeLimits::MAX)
                    .map(|p| p.nodes())
                    .map_err(|e| e.code)
            })
            .expect("thread")
            .join();
        assert!(joined.is_ok(), "{head:?}… panicked");
    }
}
