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
//! RS version US nothingFits US hint                     (hint = NONE when absent)
//!    US name US title US summary US source US provider US state
//!    US permissions US trust US schemaLoaded US why     (ten fields per result)
//! ```
//!
//! RS = U+001E (only the first character: the packed form's mark), US =
//! U+001F, lists join their items with LS = U+001D, NONE = U+001C, booleans
//! are `1`/`0`. When any string holds one of U+001C..=U+001F or a list holds
//! an empty item (which the form could not tell apart), the answer is serde's
//! JSON instead, which starts with `{`.

use holaryn_core::{SearchOutput, ToolSummary};

const RS: u8 = 0x1e;
const US: u8 = 0x1f;
const LS: u8 = 0x1d;
const NONE: u8 = 0x1c;

/// The packed form of `out`, or serde's JSON when it cannot be packed.
pub fn search(out: &SearchOutput) -> Result<String, serde_json::Error> {
    if !packable(out) {
        return serde_json::to_string(out);
    }
    let mut w = Writer(Vec::with_capacity(packed_len(out)));
    w.byte(RS);
    w.str(&out.registry_version);
    w.byte(US);
    w.flag(out.nothing_fits);
    w.byte(US);
    match &out.hint {
        Some(h) => w.str(h),
        None => w.byte(NONE),
    }
    for t in &out.results {
        w.byte(US);
        w.summary(t);
    }
    // Only whole `&str`s and ASCII bytes were written.
    Ok(String::from_utf8(w.0).unwrap_or_default())
}

/// True when no string holds a separator and no list holds an empty item.
fn packable(out: &SearchOutput) -> bool {
    let clean = |s: &str| !s.bytes().any(|b| (NONE..=US).contains(&b));
    let list = |l: &[String]| l.iter().all(|s| !s.is_empty() && clean(s));
    clean(&out.registry_version)
        && out.hint.as_deref().is_none_or(clean)
        && out.results.iter().all(|t| {
            clean(&t.name)
                && clean(&t.title)
                && clean(&t.summary)
                && clean(&t.provider)
                && list(&t.permissions)
                && list(&t.why)
        })
}

/// An upper bound of the packed length (one allocation).
fn packed_len(out: &SearchOutput) -> usize {
    let list = |l: &[String]| l.iter().map(|s| s.len() + 1).sum::<usize>();
    let head = out.registry_version.len() + out.hint.as_ref().map_or(1, String::len) + 8;
    head + out
        .results
        .iter()
        .map(|t| {
            t.name.len()
                + t.title.len()
                + t.summary.len()
                + t.provider.len()
                + list(&t.permissions)
                + list(&t.why)
                + 64
        })
        .sum::<usize>()
}

/// The packed text being written, as bytes.
struct Writer(Vec<u8>);

impl Writer {
    fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    fn str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }

    fn flag(&mut self, on: bool) {
        self.byte(if on { b'1' } else { b'0' });
    }

    fn list(&mut self, items: &[String]) {
        for (i, s) in items.iter().enumerate() {
            if i > 0 {
                self.byte(LS);
            }
            self.str(s);
        }
    }

    /// One result's fields, in `ToolSummary`'s serde order.
    fn summary(&mut self, t: &ToolSummary) {
        self.str(&t.name);
        self.byte(US);
        self.str(&t.title);
        self.byte(US);
        self.str(&t.summary);
        self.byte(US);
        self.str(t.source.as_str());
        self.byte(US);
        self.str(&t.provider);
        self.byte(US);
        self.str(t.state.as_str());
        self.byte(US);
        self.list(&t.permissions);
        self.byte(US);
        self.str(t.trust.as_str());
        self.byte(US);
        self.flag(t.schema_loaded);
        self.byte(US);
        self.list(&t.why);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use holaryn_core::AvailabilityState;
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
        let p = search(&o).expect("pack");
        assert_eq!(
            p,
            "\u{1e}sha256:ab\u{1f}0\u{1f}\u{1c}\u{1f}fs/read\u{1f}Read\u{1f}Reads \"a\" file\u{1f}\
             slash_command\u{1f}fs\u{1f}approval_required\u{1f}fs.read\u{1d}net\u{1f}untrusted\u{1f}1\u{1f}name: read"
        );
    }

    #[test]
    fn falls_back_to_json_on_separators_and_empty_items() {
        for o in [
            out(vec![tool("a \u{1f} b", &[])], None),
            out(vec![tool("a", &[""])], None),
            out(vec![], Some("look \u{1c}")),
        ] {
            let p = search(&o).expect("json");
            assert_eq!(p, serde_json::to_string(&o).expect("json"));
        }
    }

    #[test]
    fn empty_results_and_hint() {
        let p = search(&out(vec![], Some(""))).expect("pack");
        assert_eq!(p, "\u{1e}sha256:ab\u{1f}1\u{1f}");
    }
}
