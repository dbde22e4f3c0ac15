//! The packed wire form of `tool_search` output: one string that the JS entry
//! (`js/wire.mjs::unpackSearch`) turns into exactly the object `JSON.parse`
//! of serde's JSON would give (same keys, same order, same optional fields).
//!
//! Why: tool_search is the per-turn call, and its answer (~3 KB for eight
//! results) spent about a quarter of a wasm search in serde_json's writer
//! and `JSON.parse`. The packed form carries no key text and no escapes,
//! and one `split` on JS's side yields every field:
//!
//! ```text
//! RS nothingFits US hint US registryVersion             (hint = NONE when absent)
//!    US name US title US summary US source US provider US state
//!    US permissions US trust US schemaLoaded US why
//!    US callName                                        (eleven fields per result; callName NONE when absent)
//! ```
//!
//! RS = U+001E (only the first character: the packed form's mark), US =
//! U+001F, lists join their items with LS = U+001D, NONE = U+001C, booleans
//! are `1`/`0`. When any string holds one of U+001C..=U+001F or a list holds
//! an empty item (which the form could not tell apart), the answer is serde's
//! JSON instead, which starts with `{`.
//!
//! The one source of truth of that layout is this file: the separators,
//! [`HEAD`] and [`RESULT`] (each field's order, key and [`Kind`]). The JS
//! side, `js/wire-fields.mjs`, is generated from them by [`javascript`]; a
//! test fails when it drifts (`HOLARYN_BLESS=1 cargo test -p holaryn-wasm
//! wire` rewrites it).

use holaryn_core::{SearchView, SummaryView};
use std::fmt::Write as _;

/// The packed form's mark: its first character (serde's JSON starts with `{`).
const RS: u8 = 0x1e;
/// Between two fields.
const US: u8 = 0x1f;
/// Between a list's items.
const LS: u8 = 0x1d;
/// An absent optional string.
const NONE: u8 = 0x1c;

/// How a field is packed, and so how JS reads it back. The `Optional` kinds
/// are the fields serde leaves out (`skip_serializing_if`): JS leaves the key
/// out too.
#[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generator: a native test
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A string, as is.
    Text,
    /// An `Option<String>`: the string, or NONE when absent.
    OptionalText,
    /// A boolean: `1` or `0`.
    Flag,
    /// A boolean whose key is left out when false.
    OptionalFlag,
    /// Strings joined with LS (no items: empty).
    List,
    /// A list whose key is left out when it has no items.
    OptionalList,
}

/// A field's value, as the writer packs it.
enum Value<'a> {
    Text(&'a str),
    /// A text, then `...` when the flag is set (a cut summary).
    CutText(&'a str, bool),
    OptionalText(Option<&'a str>),
    Flag(bool),
    List(&'a [String]),
}

/// A field of the answer other than `results`.
#[derive(Debug, Clone, Copy)]
enum HeadField {
    NothingFits,
    Hint,
    RegistryVersion,
}

/// The answer's fields before its results, in serde's order after `results`
/// (which serde writes first and the packed form last: their count varies).
const HEAD: [HeadField; 3] = [
    HeadField::NothingFits,
    HeadField::Hint,
    HeadField::RegistryVersion,
];

impl HeadField {
    /// The field's key in serde's JSON (and so in the JS object), and its kind.
    #[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generator: a native test
    const fn spec(self) -> (&'static str, Kind) {
        match self {
            HeadField::NothingFits => ("nothingFits", Kind::OptionalFlag),
            HeadField::Hint => ("hint", Kind::OptionalText),
            HeadField::RegistryVersion => ("registryVersion", Kind::Text),
        }
    }

    fn value<'a>(self, out: &SearchView<'a>) -> Value<'a> {
        match self {
            HeadField::NothingFits => Value::Flag(out.nothing_fits),
            HeadField::Hint => Value::OptionalText(out.hint),
            HeadField::RegistryVersion => Value::Text(out.registry_version),
        }
    }
}

/// A field of one result (`ToolSummary`).
#[derive(Debug, Clone, Copy)]
enum ResultField {
    Name,
    Title,
    Summary,
    Source,
    Provider,
    State,
    Permissions,
    Trust,
    SchemaLoaded,
    Why,
    CallName,
}

/// One result's fields, in `ToolSummary`'s serde order.
const RESULT: [ResultField; 11] = [
    ResultField::Name,
    ResultField::Title,
    ResultField::Summary,
    ResultField::Source,
    ResultField::Provider,
    ResultField::State,
    ResultField::Permissions,
    ResultField::Trust,
    ResultField::SchemaLoaded,
    ResultField::Why,
    ResultField::CallName,
];

impl ResultField {
    /// The field's key in serde's JSON (and so in the JS object), and its kind.
    #[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generator: a native test
    const fn spec(self) -> (&'static str, Kind) {
        match self {
            ResultField::Name => ("name", Kind::Text),
            ResultField::Title => ("title", Kind::Text),
            ResultField::Summary => ("summary", Kind::Text),
            ResultField::Source => ("source", Kind::Text),
            ResultField::Provider => ("provider", Kind::Text),
            ResultField::State => ("state", Kind::Text),
            ResultField::Permissions => ("permissions", Kind::List),
            ResultField::Trust => ("trust", Kind::Text),
            ResultField::SchemaLoaded => ("schemaLoaded", Kind::Flag),
            ResultField::Why => ("why", Kind::OptionalList),
            ResultField::CallName => ("callName", Kind::OptionalText),
        }
    }

    fn value<'b>(self, t: &'b SummaryView<'_>) -> Value<'b> {
        match self {
            ResultField::Name => Value::Text(t.name),
            ResultField::Title => Value::Text(t.title),
            ResultField::Summary => Value::CutText(t.summary, t.summary_cut),
            ResultField::Source => Value::Text(t.source.as_str()),
            ResultField::Provider => Value::Text(t.provider),
            ResultField::State => Value::Text(t.state.as_str()),
            ResultField::Permissions => Value::List(t.permissions),
            ResultField::Trust => Value::Text(t.trust.as_str()),
            ResultField::SchemaLoaded => Value::Flag(t.schema_loaded),
            ResultField::Why => Value::List(t.why),
            ResultField::CallName => Value::OptionalText(t.call_name.as_deref()),
        }
    }
}

/// Call `f` with every field of `out` in packed order: the head's, then
/// each result's (plain loops: a chained iterator measured slower here).
fn each_value<'a>(out: &'a SearchView<'_>, mut f: impl FnMut(Value<'a>)) {
    for field in HEAD {
        f(field.value(out));
    }
    for t in &out.results {
        for field in RESULT {
            f(field.value(t));
        }
    }
}

/// The packed form of `out`, or serde's JSON when it cannot be packed.
/// One pass: each string is checked as it is copied (not in a pass of its
/// own), and serde's JSON replaces what was written when one cannot be packed.
pub fn search(out: &SearchView<'_>) -> Result<String, serde_json::Error> {
    let mut len = 1;
    each_value(out, |v| len += v.packed_len() + 1);
    let mut w = Writer {
        out: String::with_capacity(len),
        packable: true,
    };
    w.out.push(char::from(RS));
    let mut first = true;
    each_value(out, |v| {
        if !first {
            w.byte(US);
        }
        first = false;
        w.value(&v);
    });
    if !w.packable {
        return serde_json::to_string(&out.to_owned());
    }
    Ok(w.out)
}

/// True when no byte of `s` is a separator (NONE..=US), eight bytes at a time.
fn clean(s: &str) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = s.as_bytes().chunks_exact(8);
    for c in &mut chunks {
        let v = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        // A separator byte is 0b0001_11xx: its top six bits give a zero byte here.
        let x = (v ^ (u64::from(NONE) * ONES)) & (0xfc * ONES);
        // Some byte of `x` is zero (exact: no false alarm when none is).
        if x.wrapping_sub(ONES) & !x & HIGH != 0 {
            return false;
        }
    }
    !chunks.remainder().iter().any(|b| (NONE..=US).contains(b))
}

impl Value<'_> {
    /// The packed length (bytes), at most.
    fn packed_len(&self) -> usize {
        match self {
            Value::Text(s) => s.len(),
            Value::CutText(s, cut) => s.len() + 3 * usize::from(*cut),
            Value::OptionalText(s) => s.map_or(1, str::len),
            Value::Flag(_) => 1,
            Value::List(l) => l.iter().map(|s| s.len() + 1).sum(),
        }
    }

    /// Whether `kind` says how this value is packed.
    #[cfg(test)]
    fn is(&self, kind: Kind) -> bool {
        matches!(
            (self, kind),
            (Value::Text(_) | Value::CutText(..), Kind::Text)
                | (Value::OptionalText(_), Kind::OptionalText)
                | (Value::Flag(_), Kind::Flag | Kind::OptionalFlag)
                | (Value::List(_), Kind::List | Kind::OptionalList)
        )
    }
}

/// The packed text being written, and whether it can stand: no
/// string held a separator and no list an empty item (which the form could
/// not tell apart).
struct Writer {
    out: String,
    packable: bool,
}

impl Writer {
    /// An ASCII byte (a separator, `0` or `1`).
    fn byte(&mut self, b: u8) {
        self.out.push(char::from(b));
    }

    fn str(&mut self, s: &str) {
        self.packable &= clean(s);
        self.out.push_str(s);
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Text(s) => self.str(s),
            Value::CutText(s, cut) => {
                self.str(s);
                if *cut {
                    self.out.push_str("...");
                }
            }
            Value::OptionalText(Some(s)) => self.str(s),
            Value::OptionalText(None) => self.byte(NONE),
            Value::Flag(on) => self.byte(if *on { b'1' } else { b'0' }),
            Value::List(items) => {
                for (i, s) in items.iter().enumerate() {
                    if i > 0 {
                        self.byte(LS);
                    }
                    self.packable &= !s.is_empty();
                    self.str(s);
                }
            }
        }
    }
}

/// `js/wire-fields.mjs`: the separators and the two readers of the packed
/// form (`answer`, `result`), unrolled from [`HEAD`] and [`RESULT`] as plain
/// object code (the unpacking runs on every search; a loop over a field table
/// measured ~1.5x the time).
#[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generator: a native test
pub fn javascript() -> String {
    let mut js = String::from(
        "// Generated from wasm/src/wire.rs (the separators, HEAD and RESULT): how js/wire.mjs\n\
         // reads tool_search's packed form. Do not edit: after changing them there, run\n\
         // `HOLARYN_BLESS=1 cargo test -p holaryn-wasm wire` (a test fails while this file drifts).\n\n",
    );
    let sep = |name: &str, doc: &str, byte: u8| {
        format!("/** {doc} */\nexport const {name} = \"\\u{byte:04x}\";\n")
    };
    js.push_str(&sep(
        "RS",
        "The packed form's mark: its first character.",
        RS,
    ));
    js.push_str(&sep("US", "Between two fields.", US));
    js.push_str(&sep("LS", "Between a list's items.", LS));
    js.push_str(&sep("NONE", "An absent optional string.", NONE));
    let _ = write!(
        js,
        "/** Fields of the answer before its results. */\nexport const HEAD_FIELDS = {};\n\
         /** Fields of one result. */\nexport const RESULT_FIELDS = {};\n",
        HEAD.len(),
        RESULT.len()
    );
    let head: Vec<_> = HEAD.iter().map(|f| f.spec()).collect();
    let result: Vec<_> = RESULT.iter().map(|f| f.spec()).collect();
    if head.iter().chain(&result).any(|(_, k)| *k == Kind::List) {
        js.push_str("\nconst list = (text) => (text === \"\" ? [] : text.split(LS));\n");
    }
    let _ = write!(
        js,
        "\n/** The answer: its `results` and the head fields `f[0]`..`f[{}]`, keys in serde's order. */\n\
         export function answer(f, results) {{\n{}  return out;\n}}\n",
        HEAD.len() - 1,
        object("out", Some("results"), &head, |j| format!("f[{j}]"))
    );
    let _ = write!(
        js,
        "\n/** The result whose fields start at `f[i]`, keys in serde's order. */\n\
         export function result(f, i) {{\n{}  return t;\n}}\n",
        object("t", None, &result, |j| match j {
            0 => "f[i]".to_string(),
            _ => format!("f[i + {j}]"),
        })
    );
    js
}

/// JS statements building `var` from `fields` (keys in their order): the
/// leading always-present ones in its literal (after `first`, a shorthand
/// property), the rest assigned one by one, an optional one only when present.
#[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generator: a native test
fn object(
    var: &str,
    first: Option<&str>,
    fields: &[(&str, Kind)],
    at: impl Fn(usize) -> String,
) -> String {
    let always = |k: Kind| matches!(k, Kind::Text | Kind::Flag | Kind::List);
    let read = |k: Kind, f: &str| match k {
        Kind::Flag => format!("{f} === \"1\""),
        Kind::List => format!("list({f})"),
        _ => f.to_string(),
    };
    let literal = fields.iter().take_while(|(_, k)| always(*k)).count();
    let mut js = String::new();
    if literal == 0 {
        let init = first.map_or_else(|| "{}".to_string(), |f| format!("{{ {f} }}"));
        let _ = writeln!(js, "  const {var} = {init};");
    } else {
        let _ = writeln!(js, "  const {var} = {{");
        if let Some(first) = first {
            let _ = writeln!(js, "    {first},");
        }
        for (j, (key, kind)) in fields.iter().enumerate().take(literal) {
            let _ = writeln!(js, "    {key}: {},", read(*kind, &at(j)));
        }
        js.push_str("  };\n");
    }
    for (j, (key, kind)) in fields.iter().enumerate().skip(literal) {
        let f = at(j);
        let _ = match kind {
            Kind::OptionalText => writeln!(js, "  if ({f} !== NONE) {var}.{key} = {f};"),
            Kind::OptionalFlag => writeln!(js, "  if ({f} === \"1\") {var}.{key} = true;"),
            Kind::OptionalList => writeln!(js, "  if ({f} !== \"\") {var}.{key} = {f}.split(LS);"),
            _ => writeln!(js, "  {var}.{key} = {};", read(*kind, &f)),
        };
    }
    js
}

#[cfg(test)]
mod tests {
    use super::*;
    use holaryn_core::{AvailabilityState, SearchOutput, ToolSummary};
    use holaryn_model::{Source, Trust};

    fn tool(summary: &str, why: &[&str]) -> ToolSummary {
        ToolSummary {
            name: "fs/read".into(),
            title: "Read".into(),
            summary: summary.into(),
            source: Source::SlashCommand,
            provider: "fs".into(),
            state: AvailabilityState::ApprovalRequired,
            permissions: vec!["fs.read".into(), "net".into()],
            trust: Trust::Untrusted,
            schema_loaded: true,
            why: why.iter().map(|s| s.to_string()).collect(),
            call_name: Some("fs__read".into()),
        }
    }

    fn out(results: Vec<ToolSummary>, hint: Option<&str>) -> SearchOutput {
        SearchOutput {
            results,
            nothing_fits: hint.is_some(),
            hint: hint.map(str::to_string),
            registry_version: "sha256:ab".into(),
        }
    }

    #[test]
    fn packs_fields_in_serde_order_with_enum_names() {
        let o = out(vec![tool("Reads \"a\" file", &["name: read"])], None);
        let p = search(&o.view()).expect("pack");
        assert_eq!(
            p,
            "\u{1e}0\u{1f}\u{1c}\u{1f}sha256:ab\u{1f}fs/read\u{1f}Read\u{1f}Reads \"a\" file\u{1f}\
             slash_command\u{1f}fs\u{1f}approval_required\u{1f}fs.read\u{1d}net\u{1f}untrusted\u{1f}1\u{1f}name: read\u{1f}fs__read"
        );
    }

    #[test]
    fn falls_back_to_json_on_separators_and_empty_items() {
        for o in [
            out(vec![tool("a \u{1f} b", &[])], None),
            out(vec![tool("a", &[""])], None),
            out(vec![], Some("look \u{1c}")),
        ] {
            let p = search(&o.view()).expect("json");
            assert_eq!(p, serde_json::to_string(&o).expect("json"));
        }
    }

    #[test]
    fn clean_finds_a_separator_anywhere_and_nothing_else() {
        // Every byte value at every position of the eight-byte chunks and the tail.
        for len in 1..=19 {
            for at in 0..len {
                for b in 0u8..0x80 {
                    let mut v = vec![b'a'; len];
                    v[at] = b;
                    let s = String::from_utf8(v).expect("ascii");
                    assert_eq!(clean(&s), !(NONE..=US).contains(&b), "{len} {at} {b}");
                }
            }
        }
        assert!(clean("naïve 日本 😀 éèêëìíîï"));
        assert!(clean(""));
    }

    #[test]
    fn a_cut_summary_packs_as_its_owned_text() {
        let o = out(vec![tool("Reads a file", &[])], None);
        let mut v = o.view();
        v.results[0].summary_cut = true;
        let owned = v.to_owned();
        assert_eq!(owned.results[0].summary, "Reads a file...");
        assert_eq!(
            search(&v).expect("pack"),
            search(&owned.view()).expect("pack")
        );
    }

    #[test]
    fn empty_results_and_hint() {
        let p = search(&out(vec![], Some("")).view()).expect("pack");
        assert_eq!(p, "\u{1e}1\u{1f}\u{1f}sha256:ab");
    }

    fn keys(v: &serde_json::Value) -> Vec<&str> {
        v.as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect()
    }

    /// HEAD and RESULT are serde's keys in serde's order, their kinds say
    /// which keys serde leaves out, and each field is written as its kind says:
    /// what lets JS rebuild serde's object from the table alone.
    #[test]
    fn the_field_tables_are_serdes_keys_order_and_optional_fields() {
        let head: Vec<_> = HEAD.iter().map(|f| f.spec()).collect();
        let result: Vec<_> = RESULT.iter().map(|f| f.spec()).collect();
        let optional = |k: Kind| {
            matches!(
                k,
                Kind::OptionalText | Kind::OptionalFlag | Kind::OptionalList
            )
        };
        let full = out(vec![tool("s", &["w"])], Some("h"));
        let json = serde_json::to_value(&full).expect("json");
        let want: Vec<&str> = std::iter::once("results")
            .chain(head.iter().map(|(k, _)| *k))
            .collect();
        assert_eq!(keys(&json), want);
        assert_eq!(
            keys(&json["results"][0]),
            result.iter().map(|(k, _)| *k).collect::<Vec<_>>()
        );
        let mut bare = tool("s", &[]);
        bare.permissions.clear();
        bare.schema_loaded = false;
        bare.call_name = None;
        let empty = serde_json::to_value(out(vec![bare], None)).expect("json");
        let kept = |fields: &[(&'static str, Kind)]| -> Vec<&'static str> {
            fields
                .iter()
                .filter(|(_, k)| !optional(*k))
                .map(|(key, _)| *key)
                .collect()
        };
        assert_eq!(keys(&empty)[1..], kept(&head)[..]);
        assert_eq!(keys(&empty["results"][0]), kept(&result));
        for f in HEAD {
            assert!(f.value(&full.view()).is(f.spec().1), "{f:?}");
        }
        for f in RESULT {
            assert!(f.value(&full.results[0].view()).is(f.spec().1), "{f:?}");
        }
    }

    /// The generated JS side equals the committed file.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn js_wire_fields_is_generated_from_this_file() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../js/wire-fields.mjs");
        let want = javascript();
        if std::env::var_os("HOLARYN_BLESS").is_some() {
            std::fs::write(path, &want).expect("write js/wire-fields.mjs");
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "js/wire-fields.mjs drifted from wasm/src/wire.rs (separators, HEAD, RESULT): regenerate it with \
             `HOLARYN_BLESS=1 cargo test -p holaryn-wasm wire` and commit it.\n--- generated:\n{want}"
        );
    }
}
