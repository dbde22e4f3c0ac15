//! The scorer and `why` explanations over the incremental index in
//! [`super::postings`].

use super::entities::{Kind, Kinds, KINDS};
use super::fit::{param_kinds, Fit};
use super::fuse::{fuse, Cand};
use super::mention::Mentions;
use super::nothing::{self, Evidence};
use super::postings::{exact_keys, toggle_slot, Store, FIELDS};
use super::prereq::{self, Lift};
use super::provider::{provider_why, Named, Providers};
use super::query::{read, Request, LATER_STEP};
use super::sense;
use super::text::{
    exact_key, family_of, family_stems, is_stopword, plural, DELETE, FIND, LIST, READ,
    VERB_FAMILIES,
};
use holaryn_model::ToolDescriptor;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;

const FIELD_NAMES: [&str; FIELDS] = [
    "name",
    "title",
    "description",
    "schema field",
    "permission",
    "provider",
    "source",
];
const K1: f32 = 1.2;
const SYNONYM: f32 = 0.6;
/// Multiplier for tools whose name or title carries the first action verb of
/// a request of several steps (a second action verb of another family, or a
/// later clause): the other words also describe the later steps, so the verb
/// is what picks the first step's tool.
const FIRST_VERB: f32 = 1.6;
/// Multiplier, in a request of several steps, for tools that match none of
/// the first action verb's family.
const NO_VERB: f32 = 0.6;
/// [`FIRST_VERB`] for a request of one step, whose other words all describe
/// the one tool asked for: the verb is one signal among them, and verb
/// families miss many ways of saying an action ("what's the weather").
/// Tuned on the dev half (1.6 / 0.6 for both: multi-step 0.547 / 0.828,
/// paraphrase any@8 0.736; 1.4 / 0.8 here: same multi-step, paraphrase
/// 0.755; 1.2 / 0.8 drops `delete_file` out of the first 3 for "remove a
/// file", behind tools that only describe removing).
const FIRST_VERB_ONE_STEP: f32 = 1.4;
/// [`NO_VERB`] for a request of one step.
const NO_VERB_ONE_STEP: f32 = 0.8;
const LATER_VERB: f32 = 0.45;
/// Verb families (indices into `VERB_FAMILIES`) that stand in for a first
/// step's look-up verb when a later step acts on what it finds: "find" for
/// list and get ("find Bob's email in my contacts and then send him the
/// deck": `list-outlook-contacts`; "find Dana's user id in linear and assign
/// …": `linear_getUsers`), "list" for get ("list the pods in every
/// namespace, then delete …": `kubectl_get`). A tool named by one is lifted
/// by [`LOOKUP`], less than [`FIRST_VERB`]: the first verb's own tools still
/// lead ("find the project release notes and summarize them", `glob_files`).
fn stand_ins(first: usize) -> &'static [usize] {
    match first {
        FIND => &[READ, LIST],
        LIST => &[READ],
        _ => &[],
    }
}
/// A question with no action verb, by what it asks about: a question reads
/// what it names, so a family stands in for the missing verb, as one does
/// for a later step's look-up (see [`stand_ins`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// No such question.
    No,
    /// About one object a value names (a URL, a path, `owner/repo`, an
    /// issue reference, a SHA, a paper or an opaque id): "https://…/issues/77
    /// what's this one about", "run HG7ML… did it finish ok?" read it (the
    /// read family, lifted by [`LOOKUP`]), not its list, create or update;
    /// `many` when its noun is plural ("cus_… subscriptions?", "which
    /// invoices does this customer have"): list stands in too.
    One { many: bool },
    /// About several things, no value naming one ("what branches are there
    /// in web/app", "which dynos are up"): list stands in, lifted by
    /// [`ASKED_MANY`].
    Many,
}

impl Asked {
    /// What a question (with no action verb) asks about.
    fn of(req: &Request) -> Asked {
        let one = [
            Kind::Url,
            Kind::Path,
            Kind::Repo,
            Kind::Issue,
            Kind::Sha,
            Kind::Paper,
        ];
        let ents = &req.entities;
        let named = ents.ids || one.iter().any(|k| ents.kinds & !ents.later & k.bit() != 0);
        // A plural noun of the first step (not a verb-family word).
        let many = req
            .words
            .iter()
            .any(|w| !w.value && !w.later && family_of(&w.word).is_none() && plural(&w.word));
        match (named, many) {
            (true, many) => Asked::One { many },
            (false, true) => Asked::Many,
            (false, false) => Asked::No,
        }
    }

    /// The multiplier for a tool its stand-in family names.
    fn lift(self) -> f32 {
        match self {
            Asked::Many => ASKED_MANY,
            _ => LOOKUP,
        }
    }
}
/// The first action verb picks the first step's tool only among the first
/// three sentence words (values not counted): an imperative opens with its
/// verb ("desktop commander run …" has two words before it); a verb-family
/// word deeper in ("visualize how users drop off", "which places can I
/// open") is not the request's action. Tuned on the dev half (2 and 3 tie
/// on paraphrase; 3 keeps provider-led requests).
const FIRST_VERB_REACH: usize = 3;
/// Weight of a tool word the concept lexicon adds for an everyday phrase
/// (1.0, as a typed word, capped by [`LEXICON_IDF_CAP`]: tuned on the dev half;
/// was 0.6, which let long descriptions' literal matches outrank the tool the
/// phrase names).
const LEXICON: f32 = 1.0;
/// Weight of a tool word the relatedness table adds (`search/related.rs`),
/// before the entry's own weight.
const RELATED: f32 = 0.3;
/// Related words stand in for a request word that at most this many tools
/// use (a word many tools use speaks for itself). Tuned on the dev half.
const RELATED_DF: usize = 3;
/// Largest IDF a lexicon word counts with (a rare tool word must not outweigh
/// the words the user typed).
const LEXICON_IDF_CAP: f32 = 4.0;
/// Score a tool gains per kind of entity in the request its parameters take.
const FIT: f32 = 2.0;
/// Extra score when the request has two values of a kind and two of the
/// tool's parameters take it (two time zones, `source_timezone` and
/// `target_timezone`).
const FIT_MANY: f32 = 1.0;
/// Share of [`FIT`] kept when only number parameters take a kind and the
/// request's value has letters (`ENG-982` for a `pullNumber`).
const FIT_NUMERIC: f32 = 0.5;
/// Score per IDF unit a tool gains when the request names one of its schema
/// fields exactly as written (`maintainer_can_modify`, `jsonOptions`), or
/// one of its enum values as `field=value`. Tuned on the dev half: 0.5 let
/// a tool without the field win on the request's other words (`jsonOptions`
/// … "product name and price": `create_price`); 0.75–1.5 gain 5–8 dev
/// schema-field requests and move no other request down; 2.0 starts to.
/// Such a hit fits whatever else it lacks (`Evidence::named_field`).
const FIELD_NAME: f32 = 1.25;
/// Score per IDF unit when a plain request word is the whole name of one of
/// a tool's schema fields ("formats", "orientation"): weaker than code-cased
/// (plain words are also everyday words). Tuned on the dev half.
const FIELD_WORD: f32 = 0.25;
/// Multiplier for tools whose name or title carries a word the request excludes.
const NEGATED: f32 = 0.4;
/// Multiplier for a tool whose name or title says it destroys (a word of the
/// delete family, or of [`DESTROYS`]) when no word of the request asks for
/// that: a question about an object is no request to delete or cancel it
/// ("notion block … what does it say" is not `delete-a-block`). Tuned on the
/// dev half.
const UNASKED: f32 = 0.7;
/// Destructive words beyond the delete family (which `rm`, `drop` … join).
const DESTROYS: &[&str] = &["cancel", "purge"];

/// The stems of the destructive words, with the words (computed once).
fn destroys() -> &'static [(String, &'static str)] {
    static STEMS: std::sync::OnceLock<Vec<(String, &'static str)>> = std::sync::OnceLock::new();
    STEMS.get_or_init(|| {
        VERB_FAMILIES[DELETE]
            .iter()
            .chain(DESTROYS)
            .map(|w| (super::text::stem(w), *w))
            .collect()
    })
}
/// Skills and slash commands cannot be called as tools: when words match a
/// callable tool about as well, the callable one ranks first (exact names
/// still win outright).
const CATALOG_ONLY: f32 = 0.7;
/// Share of a concept's further matches (beyond its best) that still counts.
const STACK: f32 = 0.3;
/// Weight left to a verb read in another family's sense ("open" in "open an
/// issue", "file" in "file a bug"): the typed word names the wrong action.
const SENSE_LITERAL: f32 = 0.3;
/// Weight of a tool word a verb sense adds ("navigate" for "open a page").
const SENSE_ADD: f32 = 0.8;
/// Multiplier, in a request of several steps, for tools whose name or title
/// carries a word only a later step has ("…, then open an issue": the
/// issue tools; "check the cost, confirm it, then create the branch":
/// `confirm_cost`, `create_branch`): such a tool is a later step's, not
/// the first's. A word the first step also has is no later step's own.
const LATER_NAME: f32 = 0.6;
/// Bit of [`Scratch::verb_field`] marking a tool named by a later step's
/// word (the fields' bits are below it).
const LATER_BIT: u16 = 1 << FIELDS;
/// Bit of [`Scratch::verb_field`] marking a tool whose name or title has a
/// word of a family standing in for the first verb (see [`stand_ins`]).
const LOOKUP_BIT: u16 = 1 << (FIELDS + 1);
/// Multiplier for a tool named by a stand-in family (see [`stand_ins`]).
const LOOKUP: f32 = 1.4;
/// [`LOOKUP`] for list standing in for a question about several things
/// (see [`Asked::Many`]): weaker, as no value says what is asked about.
/// Tuned on the dev half (1.2 and more drop requests out of the eight).
const ASKED_MANY: f32 = 1.1;
/// Bit of [`Scratch::verb_field`] marking a tool already ranked lower by
/// [`UNASKED`] in this search.
const UNASKED_BIT: u16 = 1 << (FIELDS + 2);
/// Share of the best tool's score a producer of its required input is
/// lifted to (see `search/prereq.rs`).
const PREREQ: f32 = 0.95;
/// [`PREREQ`] when the request names the thing instead of giving its id
/// ("the Platform team", "'Q3 OKRs'", "#support"): finding it comes first.
const PREREQ_NAMED: f32 = 1.05;
/// How far the best tool must lead the next for its inputs to count.
const PREREQ_LEAD: f32 = 1.15;

/// The parts joined into one string of exactly their length (`why` text,
/// built for every result: no formatting machinery, one allocation).
fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    parts.iter().for_each(|p| out.push_str(p));
    out
}

/// Move the `k` first of `items` under `order` (a total order) to the
/// front, sorted (the rest follow in any order). One pass that keeps a
/// sorted front of `k`: most candidates score below the front's last and
/// cost one comparison; one that enters finds its place by binary search.
fn best_first<T>(items: &mut [T], k: usize, order: impl Fn(&T, &T) -> std::cmp::Ordering) {
    if k == 0 {
        return;
    }
    items[..k].sort_unstable_by(&order);
    for i in k..items.len() {
        if order(&items[i], &items[k - 1]).is_lt() {
            items.swap(i, k - 1);
            if let Some((new, front)) = items[..k].split_last() {
                let at = front.partition_point(|x| order(x, new).is_lt());
                items[at..k].rotate_right(1);
            }
        }
    }
}

/// One ranked result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// Slot of the tool in the index ([`SearchIndex::tool`] gives it back).
    pub doc: usize,
    /// Score (higher is better).
    pub score: f32,
    /// Which fields matched, in short phrases.
    pub why: Vec<String>,
}

/// A ranking of one request (possibly several phrasings fused).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranking {
    /// Hits, best first.
    pub hits: Vec<SearchHit>,
    /// True when no tool clears the bar of a real match (see `nothing::lexical`).
    pub nothing_fits: bool,
    /// IDF-weighted share of the request's content words the best hit
    /// matches (the best over phrasings; 1.0 for an exact name, 0.0 with no hit).
    pub coverage: f32,
    /// True when the request (its first phrasing) has later steps ("find the
    /// notes, then email them"; see `query::Word::later`).
    pub later_steps: bool,
    /// What the best hit has of the request, for the nothing-fits bars.
    pub evidence: Evidence,
}

/// One phrasing, scored.
struct Scored<'a> {
    cands: Vec<(f32, u32)>,
    qterms: Vec<QTerm<'a>>,
    exact: Option<&'a Vec<(u32, f32, &'static str)>>,
    kinds: Kinds,
    req: Request,
    /// Per request word: the term id of its stem, if indexed.
    ids: Vec<Option<u32>>,
    /// Identifier-like request words that are some tool's schema field name.
    fields: Vec<String>,
    /// Those of `fields` written as code or as `field=value` ([`FIELD_NAME`]).
    coded: Vec<String>,
    /// Tools the request names (see `search/mention.rs`), by slot.
    named: Vec<(u32, f32)>,
    /// Providers the request names (see `search/provider.rs`).
    providers: Vec<Named>,
    /// Tools lifted as the first step (see `search/prereq.rs`).
    lifts: Vec<Lift>,
    /// Families standing in for the first verb (see [`stand_ins`]).
    lookup: &'static [usize],
    /// What question, if any, the stand-in is for (see [`Asked`]).
    asked: Asked,
    /// Tools ranked lower for an unasked destructive word (see [`UNASKED`]).
    unasked: Unasked,
}

/// The destructive words no request term asks for, and the scored tools
/// ranked lower for one (sorted); both empty when none was.
#[derive(Default)]
struct Unasked {
    words: Vec<(u32, &'static str)>,
    docs: Vec<u32>,
}

/// A read request's query terms and what its first verb asks of the tools.
struct Terms<'a> {
    /// Weighted terms, by concept.
    qterms: Vec<QTerm<'a>>,
    /// Term ids of the first action verb's family (`true`) and of the
    /// families standing in for it (`false`, see [`stand_ins`]).
    first_verb: Vec<(u32, bool)>,
    /// The stand-in families.
    lookup: &'static [usize],
    /// What question, if any, the stand-in is for (see [`Asked`]).
    asked: Asked,
    /// Whether the request has several steps.
    steps: bool,
}

/// One weighted query term.
#[derive(Debug, Clone)]
struct QTerm<'a> {
    id: u32,
    weight: f32,
    word: Label<'a>,
    idf_cap: f32,
    concept: usize,
    /// Position in the query's expansion (orders terms within a concept).
    seq: usize,
    /// From a later step's words only (see [`LATER_NAME`]).
    later: bool,
}

/// How `why` names a query term: its text is built only for the hits shown,
/// not for every term of every search.
#[derive(Debug, Clone, Copy)]
enum Label<'a> {
    /// Request word `.0` (an index into [`Request::words`]).
    Word(usize),
    /// An index word that request word starts (the last word, typed in part).
    Vocab(&'a str),
    /// A verb-family synonym of request word `.1`: "syn (≈ word)".
    Synonym(&'static str, usize),
    /// Word `.1` a lexicon expansion `.0` adds: "word (lexicon: phrase)".
    Lexicon(usize, usize),
    /// Tool word `.0` of verb sense `.1` (an index into [`Request::senses`]):
    /// "word (sense: verb + object)".
    Sense(&'a str, usize),
}

impl<'a> Label<'a> {
    /// The label's text in `why`.
    fn text<'s>(self, req: &'s Request) -> std::borrow::Cow<'s, str>
    where
        'a: 's,
    {
        use std::borrow::Cow;
        let word = |i: usize| req.words.get(i).map_or("", |w| w.word.as_str());
        match self {
            Label::Word(i) => Cow::Borrowed(word(i)),
            Label::Vocab(t) => Cow::Borrowed(t),
            Label::Synonym(syn, i) => Cow::Owned(concat(&[syn, " (≈ ", word(i), ")"])),
            Label::Lexicon(e, a) => {
                let Some(e) = req.expansions.get(e) else {
                    return Cow::Borrowed("");
                };
                let add = e.adds.get(a).map_or("", |(w, _)| w.as_str());
                let source = if e.related {
                    " (related: "
                } else {
                    " (lexicon: "
                };
                Cow::Owned(concat(&[add, source, e.phrase, ")"]))
            }
            Label::Sense(w, si) => {
                let Some(s) = req.senses.get(si) else {
                    return Cow::Borrowed(w);
                };
                Cow::Owned(concat(&[
                    w,
                    " (sense: ",
                    word(s.word),
                    " + ",
                    &s.object,
                    ")",
                ]))
            }
        }
    }
}

/// An index over a tool list, kept up to date tool by tool: any sequence of
/// [`SearchIndex::insert`] and [`SearchIndex::remove`] ranks exactly as a
/// fresh [`SearchIndex::build`] of the same tools (same scores, same order).
#[derive(Debug, Default, Clone)]
pub struct SearchIndex {
    pub(super) store: Store,
    /// Per-slot accumulators reused by every search (all zero between searches).
    scratch: std::cell::RefCell<Scratch>,
    /// Per slot: the entity kinds its tool's parameters take (see `fit`).
    pub(super) kinds: Vec<Fit>,
    /// Per entity kind: the slots whose tools' parameters take it, sorted.
    pub(super) kind_docs: Vec<Vec<u32>>,
    /// Per identifier-like schema field name (lower case): the slots whose
    /// tools' input schemas have it, sorted (see [`field_names`]).
    pub(super) field_docs: super::map::Map<String, Vec<u32>>,
    /// Parameter kinds per shared input schema (see [`KindsMemo`]).
    pub(super) kinds_memo: KindsMemo,
    /// Spaced tool names a request may spell (see `search/mention.rs`).
    pub(super) mentions: Mentions,
    /// Words of providers' ids and display names (see `search/provider.rs`).
    pub(super) providers: Providers,
}

/// The parameter kinds of each input schema in use, by the address of its
/// shared copy: tools sharing a schema (the registry pools them) walk it once.
/// The weak reference keeps the address from being reused while it is a key.
#[derive(Debug, Default, Clone)]
pub(super) struct KindsMemo {
    by_schema: std::collections::HashMap<usize, (std::sync::Weak<Value>, Fit)>,
    /// Size after the last sweep of dead entries.
    swept: usize,
}

impl KindsMemo {
    /// Remember `fit` as the kinds of `tool`'s input schema (a restored
    /// index: the kinds were walked when the snapshot's index was built).
    pub(super) fn remember(&mut self, tool: &ToolDescriptor, fit: Fit) {
        let key = Arc::as_ptr(&tool.input_schema) as usize;
        self.by_schema
            .entry(key)
            .or_insert_with(|| (Arc::downgrade(&tool.input_schema), fit));
        self.swept = self.by_schema.len();
    }

    /// [`param_kinds`] of `tool`, walked once per live schema.
    fn kinds(&mut self, tool: &ToolDescriptor) -> Fit {
        let key = Arc::as_ptr(&tool.input_schema) as usize;
        if let Some((w, k)) = self.by_schema.get(&key) {
            if w.strong_count() > 0 {
                return *k;
            }
        }
        if self.by_schema.len() > 2 * self.swept + 64 {
            self.by_schema.retain(|_, (w, _)| w.strong_count() > 0);
            self.swept = self.by_schema.len();
        }
        let k = param_kinds(tool);
        self.by_schema
            .insert(key, (Arc::downgrade(&tool.input_schema), k));
        k
    }
}

/// Per-slot accumulators of one search.
#[derive(Debug, Default, Clone)]
struct Scratch {
    scores: Vec<f32>,
    best: Vec<f32>,
    extra: Vec<f32>,
    verb_field: Vec<u16>,
    /// Slots scored in this search (kept for its capacity; empty between searches).
    touched: Vec<u32>,
    /// Slots one concept reached (kept for its capacity; empty between concepts).
    seen: Vec<u32>,
}

impl Scratch {
    /// Grow (zero-filled) to `slots` entries.
    fn fit(&mut self, slots: usize) {
        if self.scores.len() < slots {
            self.scores.resize(slots, 0.0);
            self.best.resize(slots, 0.0);
            self.extra.resize(slots, 0.0);
            self.verb_field.resize(slots, 0);
        }
    }
}

fn schema_text(schema: &Value, depth: usize, budget: &mut usize, out: &mut String) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, sub) in props {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        out.push_str(name);
        out.push(' ');
        if let Some(d) = sub.get("description").and_then(Value::as_str) {
            out.extend(d.chars().take(240));
            out.push(' ');
        }
        enum_text(sub, out);
        if depth < 3 {
            schema_text(sub, depth + 1, budget, out);
            if let Some(items) = sub.get("items") {
                schema_text(items, depth + 1, budget, out);
            }
        }
    }
}

/// Most enum values of one field indexed, and most characters of each.
const ENUM_VALUES: usize = 16;
const ENUM_CHARS: usize = 40;

/// A field's string enum values (its own, or its items'), at most [`ENUM_VALUES`].
fn enum_values(field: &Value) -> impl Iterator<Item = &str> {
    field
        .get("enum")
        .or_else(|| field.get("items").and_then(|i| i.get("enum")))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .take(ENUM_VALUES)
}

/// A field's enum values for the schema field text: a request that says
/// `squash` or `cycling` names the value.
fn enum_text(field: &Value, out: &mut String) {
    for v in enum_values(field) {
        out.extend(v.chars().take(ENUM_CHARS));
        out.push(' ');
    }
}

/// Whether a word reads as a code identifier (`snake_case` or `camelCase`):
/// only those name a schema field exactly (plain words are the BM25F's job).
fn is_identifier(w: &str) -> bool {
    let alnum = w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let inner_upper = w.chars().skip(1).any(|c| c.is_ascii_uppercase())
        && w.chars().any(|c| c.is_ascii_lowercase());
    alnum && w.len() >= 4 && (w.contains('_') || inner_upper) && !w.starts_with('_')
}

/// Whether a field name (or request word) can name a field on its own:
/// three or more word characters and not a stopword ("from", "to").
fn is_field_word(w: &str) -> bool {
    w.len() >= 3
        && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !w.starts_with('_')
        && !is_stopword_ascii(w)
}

/// [`is_stopword`] of an ASCII word in any case, lower-cased on the stack
/// (stopwords are at most six letters).
fn is_stopword_ascii(w: &str) -> bool {
    let mut buf = [0u8; 6];
    let Some(lower) = buf.get_mut(..w.len()) else {
        return false;
    };
    lower.copy_from_slice(w.as_bytes());
    lower.make_ascii_lowercase();
    std::str::from_utf8(lower).is_ok_and(is_stopword)
}

/// Input field names of a tool (nested to depth 3), lower case.
fn field_names(schema: &Value, depth: usize, budget: &mut usize, out: &mut Vec<String>) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, sub) in props {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        if is_field_word(name) {
            let key = name.to_ascii_lowercase();
            for v in enum_values(sub) {
                let pair = format!("{key}={}", v.to_ascii_lowercase());
                if is_field_word(v) && !out.contains(&pair) {
                    out.push(pair);
                }
            }
            if !out.contains(&key) {
                out.push(key);
            }
        }
        if depth < 3 {
            field_names(sub, depth + 1, budget, out);
            if let Some(items) = sub.get("items") {
                field_names(items, depth + 1, budget, out);
            }
        }
    }
}

/// Words that are values whatever the field ("replicas true").
const VALUE_WORDS: &[&str] = &["true", "false", "none", "null", "yes", "no"];

/// The schema-field keys a request names, each once, with the weight of
/// the match ([`FIELD_NAME`] or [`FIELD_WORD`]): every identifier (`maintainer_can_modify`), and a plain
/// word when a value follows it (`orientation landscape`, `zoom 14`,
/// `previous=true`, `device 'iPhone 13'`) — then also the `field=value`
/// key, which matches tools whose field has that enum value. A plain word
/// with no value after it is left to the text match ("project" is a field
/// of hundreds of tools and a word of many requests). Only keys `known`
/// accepts are returned (the rest are looked up in reused buffers, with no
/// string each).
fn field_words(query: &str, known: impl Fn(&str) -> bool) -> Vec<(String, f32)> {
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut runs: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in query.char_indices().chain([(query.len(), ' ')]) {
        match (word_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((s, &query[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    let mut out: Vec<(String, f32)> = Vec::new();
    let mut push = |key: &str, weight: f32| {
        if known(key) && !out.iter().any(|(k, _)| k == key) {
            out.push((key.to_string(), weight));
        }
    };
    let lower = |buf: &mut String, w: &str| {
        buf.clear();
        buf.push_str(w);
        buf.make_ascii_lowercase();
    };
    let (mut word, mut next, mut pair) = (String::new(), String::new(), String::new());
    for (i, &(at, w)) in runs.iter().enumerate() {
        if is_identifier(w) {
            lower(&mut word, w);
            push(&word, FIELD_NAME);
            continue;
        }
        lower(&mut word, w);
        if !is_field_word(&word) || family_of(&word).is_some() {
            continue;
        }
        let Some(&(next_at, next_raw)) = runs.get(i + 1) else {
            continue;
        };
        let gap = &query[at + w.len()..next_at];
        if !gap
            .chars()
            .all(|c| c.is_whitespace() || "'\"`:=-".contains(c))
        {
            continue;
        }
        lower(&mut next, next_raw);
        if gap.contains([':', '=', '\'', '"', '`']) || VALUE_WORDS.contains(&next.as_str()) {
            push(&word, FIELD_WORD);
        }
        pair.clear();
        pair.push_str(&word);
        pair.push('=');
        pair.push_str(&next);
        push(&pair, FIELD_NAME);
    }
    out
}

/// The provider field: its id, display name and, when it has one, its
/// description (a server's own words for its domain: "payments", "design
/// files"), so a request that describes a service finds its tools.
fn provider_text(p: &holaryn_model::Provider) -> String {
    let mut out = concat(&[&p.id, " ", &p.display_name]);
    if let Some(d) = &p.description {
        out.push(' ');
        out.extend(d.chars().take(600));
    }
    out
}

fn fields_of(t: &ToolDescriptor) -> [String; FIELDS] {
    let mut names: Vec<&str> = vec![&t.name];
    if t.local_name != t.name {
        names.push(&t.local_name);
    }
    names.extend(t.aliases.iter().map(String::as_str));
    let mut schema = String::new();
    schema_text(&t.input_schema, 0, &mut 64, &mut schema);
    let title = if t.title == t.name {
        String::new()
    } else {
        t.title.clone()
    };
    [
        names.join(" "),
        title,
        t.description.chars().take(4000).collect(),
        schema,
        t.permissions.join(" "),
        provider_text(&t.provider),
        t.source.as_str().replace('_', " "),
    ]
}

impl SearchIndex {
    /// Build from tools (any order: ties rank by canonical name).
    pub fn build(tools: &[Arc<ToolDescriptor>]) -> SearchIndex {
        let mut idx = SearchIndex::default();
        for t in tools {
            idx.insert(t.clone());
        }
        idx.refresh();
        idx
    }

    /// Add a tool, or replace the tool of the same canonical name (in place).
    pub fn insert(&mut self, tool: Arc<ToolDescriptor>) {
        let weight = if tool.is_catalog_only() {
            CATALOG_ONLY
        } else {
            1.0
        };
        let fields = fields_of(&tool);
        let keys = exact_keys(&tool);
        let slot = self.store.slot_of(&tool.name);
        match slot.and_then(|s| self.store.doc(s).map(|d| (s, d.tool.clone()))) {
            Some((slot, old)) => {
                self.set_fields(slot, &old, false);
                self.mentions.set(slot, &old, false);
                self.providers.set(&old, false);
                let (old_fields, old_keys) = (fields_of(&old), exact_keys(&old));
                let new = (tool.clone(), &fields, keys);
                self.store
                    .replace(slot, (&old_fields, &old_keys), new, weight);
            }
            None => self.store.insert(tool.clone(), &fields, keys, weight),
        }
        // Argument-fit hook: the tool's parameter kinds, computed per tool.
        if let Some(slot) = self.store.slot_of(&tool.name) {
            let kinds = self.kinds_memo.kinds(&tool);
            self.set_kinds(slot, kinds);
            self.set_fields(slot, &tool, true);
            self.mentions.set(slot, &tool, true);
            self.providers.set(&tool, true);
        }
    }

    /// Add (or remove) the tool in `slot` under its identifier-like field names.
    fn set_fields(&mut self, slot: u32, tool: &ToolDescriptor, add: bool) {
        let mut names = Vec::new();
        field_names(&tool.input_schema, 0, &mut 64, &mut names);
        for name in names {
            toggle_slot(&mut self.field_docs, name, slot, add);
        }
    }

    /// Record the entity kinds of the tool in `slot` (0 when it leaves).
    fn set_kinds(&mut self, slot: u32, fit: Fit) {
        let at = slot as usize;
        if self.kinds.len() <= at {
            self.kinds.resize(at + 1, Fit::default());
        }
        let kinds = fit.kinds;
        if self.kind_docs.len() < KINDS.len() {
            self.kind_docs.resize(KINDS.len(), Vec::new());
        }
        self.kinds[at] = fit;
        for (k, docs) in self.kind_docs.iter_mut().enumerate() {
            match (docs.binary_search(&slot), kinds & (1 << k) != 0) {
                (Err(i), true) => docs.insert(i, slot),
                (Ok(i), false) => {
                    docs.remove(i);
                }
                _ => {}
            }
        }
    }

    /// Remove a tool by canonical name; false when it is not indexed.
    pub fn remove(&mut self, name: &str) -> bool {
        let Some(slot) = self.store.slot_of(name) else {
            return false;
        };
        let Some(tool) = self.store.doc(slot).map(|d| d.tool.clone()) else {
            return false;
        };
        self.store
            .remove(slot, &fields_of(&tool), &exact_keys(&tool));
        self.set_kinds(slot, Fit::default());
        self.set_fields(slot, &tool, false);
        self.mentions.set(slot, &tool, false);
        self.providers.set(&tool, false);
        true
    }

    /// Re-derive length norms after inserts and removals (call before searching).
    pub fn refresh(&mut self) {
        self.store.refresh();
    }

    /// The tool in a slot (a [`SearchHit::doc`]).
    pub fn tool(&self, doc: usize) -> Option<&Arc<ToolDescriptor>> {
        self.store.doc(doc as u32).map(|d| &d.tool)
    }

    /// The one-line summary of the tool in `doc` (its
    /// [`ToolDescriptor::summary`], found at indexing) as its text and
    /// whether `...` follows.
    pub fn summary_parts(&self, doc: usize) -> Option<(&str, bool)> {
        let d = self.store.doc(doc as u32)?;
        Some(d.summary.parts(&d.tool.description))
    }

    /// The indexed tool of a canonical name.
    pub fn get(&self, name: &str) -> Option<&Arc<ToolDescriptor>> {
        self.store.slot_of(name).and_then(|s| self.tool(s as usize))
    }

    /// Every indexed tool, in slot order.
    pub fn tools(&self) -> impl Iterator<Item = &Arc<ToolDescriptor>> {
        self.store.docs().map(|(_, d)| &d.tool)
    }

    /// Slots (live or gaps left by removed tools): every `doc` is below this.
    pub fn slots(&self) -> usize {
        self.store.slots()
    }

    /// Number of indexed tools.
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// True when no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.store.len() == 0
    }

    /// Documents whose canonical name, alias or `provider/name` is exactly the query.
    pub fn exact_docs(&self, query: &str) -> Vec<usize> {
        self.store
            .exact
            .get(&exact_key(query))
            .map(|e| e.iter().map(|(d, _, _)| *d as usize).collect())
            .unwrap_or_default()
    }

    /// Weighted query terms of a read request, the first action verb's terms
    /// and its stand-ins, and whether the request has several steps (a later
    /// clause, or a second action verb of another family: "find and read …").
    fn query_terms<'a>(&'a self, req: &Request, ids: &[Option<u32>]) -> Terms<'a> {
        let mut out: Vec<QTerm<'a>> = Vec::new();
        let mut first_family: Option<usize> = None;
        let mut steps = req.words.iter().any(|w| w.later);
        let last = req.words.len().saturating_sub(1);
        // Sentence words (not values) before the current one.
        let mut lead = 0usize;
        for (i, qw) in req.words.iter().enumerate() {
            let w = &qw.word;
            // A verb sense replaces the verb's own family (`search/sense.rs`).
            let sensed = req
                .senses
                .iter()
                .position(|s| s.word == i)
                .and_then(|si| Some((si, sense::rule(req.senses[si].found.rule)?)));
            let own = if qw.verb { family_of(w) } else { None };
            let family = match sensed {
                Some((_, rule)) => rule.family,
                None => own,
            };
            let literal = match sensed {
                Some(_) if own.is_none() || own != family => SENSE_LITERAL,
                _ => 1.0,
            };
            let weight = literal
                * qw.weight
                * match (family, first_family) {
                    // Only the first step's verb picks the first step's tool.
                    (Some(f), None) if !qw.later && lead < FIRST_VERB_REACH => {
                        first_family = Some(f);
                        1.0
                    }
                    (Some(f), Some(first)) if f != first => {
                        steps = true;
                        LATER_VERB
                    }
                    _ => 1.0,
                };
            let s = &qw.stem;
            let concept = qw.concept;
            lead += usize::from(!qw.value && !qw.preamble);
            let word_id = ids.get(i).copied().flatten();
            match word_id {
                Some(id) => out.push(QTerm {
                    id,
                    weight,
                    word: Label::Word(i),
                    idf_cap: f32::MAX,
                    concept,
                    seq: out.len(),
                    later: qw.later,
                }),
                None if i == last && qw.verb && w.chars().count() >= 3 => {
                    for (t, id) in self
                        .store
                        .vocab
                        .range::<str, _>((
                            std::ops::Bound::Included(w.as_str()),
                            std::ops::Bound::Unbounded,
                        ))
                        .take_while(|(t, _)| t.starts_with(w.as_str()))
                        .take(8)
                    {
                        out.push(QTerm {
                            id: *id,
                            weight: weight * 0.5,
                            word: Label::Vocab(t),
                            idf_cap: f32::MAX,
                            concept,
                            seq: out.len(),
                            later: qw.later,
                        });
                    }
                }
                None => {}
            }
            if let Some(f) = family {
                // A synonym is worth at most what the literal word is worth:
                // rare synonyms must not outscore the word the user typed.
                // A sense's words are worth what a lexicon word is.
                let cap = match sensed {
                    Some(_) => LEXICON_IDF_CAP,
                    None => word_id.map_or(f32::MAX, |id| self.store.idf(id)),
                };
                let weight = weight / literal;
                let members = VERB_FAMILIES[f].iter().zip(&family_stems()[f]);
                for (syn, syn_stem) in members.filter(|(m, _)| **m != w.as_str()) {
                    if let Some(id) = self.store.id(syn_stem) {
                        if syn_stem != s {
                            out.push(QTerm {
                                id,
                                weight: weight * SYNONYM,
                                word: match sensed {
                                    Some((si, _)) if own != family => Label::Sense(syn, si),
                                    _ => Label::Synonym(syn, i),
                                },
                                idf_cap: cap,
                                concept,
                                seq: out.len(),
                                later: false,
                            });
                        }
                    }
                }
            }
            if let Some((si, rule)) = sensed {
                for (add, add_stem) in &rule.adds {
                    if let Some(id) = self.store.id(add_stem) {
                        out.push(QTerm {
                            id,
                            weight: qw.weight * SENSE_ADD,
                            word: Label::Sense(add, si),
                            idf_cap: LEXICON_IDF_CAP,
                            concept: req.senses[si].concept,
                            seq: out.len(),
                            // A sense's words are verbs many tools are named by
                            // ("get" for "pull logs"): no later step's own.
                            later: false,
                        });
                    }
                }
            }
        }
        // Lexicon hook: everyday phrasings add the words tools use.
        for (ei, e) in req.expansions.iter().enumerate() {
            // Related words stand in for a word tools do not use: a word the
            // index has speaks for itself.
            let known = ids.get(e.span.0).copied().flatten();
            if e.related && known.is_some_and(|id| self.store.postings(id).len() > RELATED_DF) {
                continue;
            }
            let weight = if e.related { RELATED } else { LEXICON };
            let later = e.later;
            // A one-word phrase's tool words are worth at most the typed
            // word, as a synonym is ("commits" adds `log`, rarer than
            // `commit`: it must not outscore the word the user typed).
            let cap = match known {
                Some(id) if e.span.1 == e.span.0 + 1 => self.store.idf(id).min(LEXICON_IDF_CAP),
                _ => LEXICON_IDF_CAP,
            };
            for (ai, (_, s)) in e.adds.iter().enumerate() {
                if let Some(id) = self.store.id(s) {
                    out.push(QTerm {
                        id,
                        weight: weight * e.weight,
                        word: Label::Lexicon(ei, ai),
                        idf_cap: cap,
                        concept: e.concept,
                        seq: out.len(),
                        later,
                    });
                }
            }
        }
        // One entry per term: keep the strongest weight (the earliest of equals).
        // Within a concept, terms keep the query's expansion order, never the
        // term ids, so scores do not depend on the order tools were indexed in.
        // (`seq` is unique: the orders are total, so unstable sorts give them.)
        out.sort_unstable_by(|a, b| {
            a.id.cmp(&b.id)
                .then(b.weight.total_cmp(&a.weight))
                .then(a.seq.cmp(&b.seq))
        });
        // A term a first-step word also gives is no later step's own.
        out.dedup_by(|dup, kept| {
            let same = dup.id == kept.id;
            if same {
                kept.later &= dup.later;
            }
            same
        });
        out.sort_unstable_by_key(|t| (t.concept, t.seq));
        // Finding or listing what a later step acts on is looking it up:
        // tools named to list or get it serve the first step too (see
        // [`stand_ins`]; a later step, not a second verb: "find and read the
        // notes" reads them).
        let later = req.words.iter().any(|w| w.later);
        let asked = match first_family {
            None if req.asks => Asked::of(req),
            _ => Asked::No,
        };
        let lookup = match (first_family, asked) {
            (Some(f), _) if later => stand_ins(f),
            (None, Asked::One { many: true }) => &[READ, LIST][..],
            (None, Asked::One { many: false }) => &[READ][..],
            (None, Asked::Many) => &[LIST][..],
            _ => &[],
        };
        let own = first_family.map(|f| (f, true));
        let first_verb: Vec<(u32, bool)> = own
            .into_iter()
            .chain(lookup.iter().map(|f| (*f, false)))
            .flat_map(|(f, own)| family_stems()[f].iter().map(move |m| (m, own)))
            .filter_map(|(m, own)| Some((self.store.id(m)?, own)))
            .collect();
        Terms {
            qterms: out,
            first_verb,
            lookup,
            asked,
            steps,
        }
    }

    /// Rank; `accept(doc)` filters; at most `limit` hits, best first, ties by canonical name.
    pub fn search(
        &self,
        query: &str,
        limit: usize,
        accept: &dyn Fn(usize) -> bool,
    ) -> Vec<SearchHit> {
        self.search_all(&[query], limit, accept).hits
    }

    /// Rank several phrasings of one request fused into one ranking (see
    /// `search/fuse.rs`), and say whether nothing fits.
    pub fn search_all(
        &self,
        queries: &[&str],
        limit: usize,
        accept: &dyn Fn(usize) -> bool,
    ) -> Ranking {
        if self.is_empty() || limit == 0 || queries.is_empty() {
            return Ranking::default();
        }
        let mut scored: Vec<Scored> = queries.iter().map(|q| self.score(q)).collect();
        let lists: Vec<Vec<(f32, u32)>> = scored
            .iter_mut()
            .map(|s| std::mem::take(&mut s.cands))
            .collect();
        let mut cands = fuse(&lists);
        let name = |d: u32| self.store.doc(d).map_or("", |doc| doc.tool.name.as_str());
        // A total order: candidates are live tools, whose canonical names
        // differ, so an unstable sort and any window give one ranking.
        let order = |a: &Cand, b: &Cand| b.0.total_cmp(&a.0).then_with(|| name(a.1).cmp(name(b.1)));
        let mut hits = Vec::with_capacity(limit);
        // Label texts of each phrasing's terms, built once per search for
        // the hits that show them (not once per hit).
        let mut labels: Vec<Vec<Option<std::borrow::Cow<'_, str>>>> =
            scored.iter().map(|s| vec![None; s.qterms.len()]).collect();
        // Buffers of `why`, reused for every hit.
        let (mut found, mut line) = (Vec::new(), String::new());
        // Most candidates pass `accept`: a window of twice the limit is
        // usually sorted once (it grows fourfold when too few pass).
        let mut window = (limit * 2).max(16);
        let mut from = 0;
        while hits.len() < limit && from < cands.len() {
            let rest = &mut cands[from..];
            let take = rest.len().min(window);
            best_first(rest, take, order);
            for &(score, doc, q) in &rest[..take] {
                if accept(doc as usize) {
                    let s = &scored[q as usize];
                    let mut why = match labels.get_mut(q as usize) {
                        Some(cache) => self.why(doc, s, cache, &mut found, &mut line),
                        None => Vec::new(),
                    };
                    if let Some(k) = self.fit_why(doc, s.kinds) {
                        why.push(k);
                    }
                    if let Some(f) = self.field_why(doc, &s.fields) {
                        why.push(f);
                    }
                    if s.named.binary_search_by_key(&doc, |n| n.0).is_ok() {
                        why.push("named in the request".to_string());
                    }
                    if let Some(p) = provider_why(&self.store, doc, &s.providers) {
                        why.push(p);
                    }
                    if let Some(l) = s.lifts.iter().find(|l| l.doc == doc) {
                        why.push(concat(&[
                            "first step: provides ",
                            &l.field,
                            " for ",
                            name(l.consumer),
                        ]));
                    }
                    if let Some(w) = self.lookup_why(doc, s.lookup) {
                        let reason = match s.asked {
                            Asked::One { .. } => "asked about one: ",
                            Asked::Many => "asked for several: ",
                            Asked::No => "looks up for a later step: ",
                        };
                        why.push(concat(&[reason, w]));
                    }
                    if let Some(w) = self.unasked_why(doc, &s.unasked) {
                        why.push(concat(&["not asked to: ", w]));
                    }
                    if queries.len() > 1 {
                        why.push(concat(&["phrasing ", &(q + 1).to_string()]));
                    }
                    hits.push(SearchHit {
                        doc: doc as usize,
                        score,
                        why,
                    });
                    if hits.len() == limit {
                        break;
                    }
                }
            }
            from += take;
            window *= 4;
        }
        let evidence = self.evidence(&scored, &hits);
        let later_steps = scored
            .first()
            .is_some_and(|s| s.req.words.iter().any(|w| w.later));
        Ranking {
            hits,
            nothing_fits: nothing::lexical(&evidence),
            coverage: evidence.coverage,
            later_steps,
            evidence,
        }
    }

    /// Score every matching document for one phrasing.
    fn score(&self, query: &str) -> Scored<'_> {
        let req = read(query);
        let ids: Vec<Option<u32>> = req.words.iter().map(|w| self.store.id(&w.stem)).collect();
        let Terms {
            qterms,
            first_verb,
            lookup,
            asked,
            steps,
        } = self.query_terms(&req, &ids);
        let mut scratch = self.scratch.take();
        scratch.fit(self.store.slots());
        let Scratch {
            scores,
            best,
            extra,
            verb_field,
            touched,
            seen,
        } = &mut scratch;
        // Slices, not the vectors: indexing a slice needs no call at opt-level "z".
        let (scores, best, extra, verb_field) = (
            scores.as_mut_slice(),
            best.as_mut_slice(),
            extra.as_mut_slice(),
            verb_field.as_mut_slice(),
        );
        // Each query word is one concept: its literal term, prefix expansions and
        // verb synonyms count once per tool (the best of them) plus a small
        // share of the rest, so many synonyms cannot outweigh one literal word.
        let mut i = 0;
        while i < qterms.len() {
            let concept = qterms[i].concept;
            while i < qterms.len() && qterms[i].concept == concept {
                let t = &qterms[i];
                let idf = self.store.idf(t.id).min(t.idf_cap);
                for p in self.store.postings(t.id) {
                    let b = &mut best[p.doc as usize];
                    if *b == 0.0 {
                        seen.push(p.doc);
                    }
                    let c = t.weight * idf * self.store.impact(t.id, p, K1);
                    extra[p.doc as usize] += c.min(*b);
                    *b = b.max(c);
                }
                // (A pass of its own: most terms are of the first step.)
                if t.later {
                    for p in self.store.postings(t.id) {
                        if p.fields & 0b11 != 0 {
                            verb_field[p.doc as usize] |= LATER_BIT;
                        }
                    }
                }
                i += 1;
            }
            for d in seen.drain(..) {
                let s = &mut scores[d as usize];
                if *s == 0.0 {
                    touched.push(d);
                }
                *s += std::mem::take(&mut best[d as usize])
                    + STACK * std::mem::take(&mut extra[d as usize]);
            }
        }
        // Argument-fit hook: tools whose parameters take the request's entities.
        let ents = &req.entities;
        let kinds = ents.kinds;
        if kinds != 0 {
            for (k, docs) in self.kind_docs.iter().enumerate() {
                let bit: Kinds = 1 << k;
                if kinds & bit == 0 {
                    continue;
                }
                // Numbers, identifiers and versions fit many parameters: weak evidence.
                let weak = [Kind::Number, Kind::Code, Kind::Version];
                let bonus = if weak.iter().any(|w| *w as usize == k) {
                    FIT * 0.5
                } else {
                    FIT
                };
                for d in docs {
                    let fit = self.kinds.get(*d as usize).copied().unwrap_or_default();
                    let mut b = bonus;
                    if ents.text & fit.numeric & bit != 0 {
                        b *= FIT_NUMERIC;
                    }
                    if ents.many & fit.many & bit != 0 {
                        b += FIT_MANY;
                    }
                    if ents.later & bit != 0 {
                        b *= LATER_STEP;
                    }
                    let s = &mut scores[*d as usize];
                    if *s == 0.0 {
                        touched.push(*d);
                    }
                    *s += b;
                }
            }
        }
        // Field-name hook: a request that writes a schema field as code
        // (`maintainer_can_modify`) points at the tools that have it.
        let (mut fields, mut coded) = (Vec::new(), Vec::new());
        for (key, weight) in field_words(query, |k| self.field_docs.contains_key(k)) {
            let Some(docs) = self.field_docs.get(&key) else {
                continue;
            };
            let n = self.store.len() as f32;
            let df = docs.len() as f32;
            let bonus = weight * (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for d in docs {
                let s = &mut scores[*d as usize];
                if *s == 0.0 {
                    touched.push(*d);
                }
                *s += bonus;
            }
            if weight >= FIELD_NAME {
                coded.push(key.clone());
            }
            fields.push(key);
        }
        // Multi-step requests: the tool for the first step names its verb in
        // its name or title; tools that do not relate to the first verb at all
        // are unlikely to be the first step. In a request of one step the
        // verb weighs less against the other words (see [`FIRST_VERB_ONE_STEP`]).
        // A tool named by a later step's word is that step's (see [`LATER_NAME`]).
        let later_names = qterms.iter().any(|t| t.later);
        if !first_verb.is_empty() || later_names {
            let (named, none) = match (first_verb.is_empty(), steps) {
                (true, _) => (1.0, 1.0),
                // A question's stand-in lifts its tools; it lowers no others.
                _ if asked != Asked::No => (1.0, 1.0),
                (false, true) => (FIRST_VERB, NO_VERB),
                (false, false) => (FIRST_VERB_ONE_STEP, NO_VERB_ONE_STEP),
            };
            for (id, own) in &first_verb {
                for p in self.store.postings(*id) {
                    // A stand-in family counts in the name or title only.
                    verb_field[p.doc as usize] |= match own {
                        true => u16::from(p.fields),
                        false if p.fields & 0b11 != 0 => LOOKUP_BIT,
                        false => 0,
                    };
                }
            }
            for d in touched.iter() {
                let f = verb_field[*d as usize];
                let verb = f & !(LATER_BIT | LOOKUP_BIT);
                let mut m = if verb & 0b11 != 0 {
                    named
                } else if f & LOOKUP_BIT != 0 {
                    asked.lift()
                } else if verb == 0 {
                    none
                } else {
                    1.0
                };
                if f & LATER_BIT != 0 {
                    m *= LATER_NAME;
                }
                scores[*d as usize] *= m;
            }
            let later_ids = qterms.iter().filter(|t| t.later).map(|t| t.id);
            for id in first_verb.iter().map(|(id, _)| *id).chain(later_ids) {
                for p in self.store.postings(id) {
                    verb_field[p.doc as usize] = 0;
                }
            }
        }
        // Provider hook: a request that names a provider ranks its tools higher.
        let providers = self.providers.detect(&self.store, &req);
        Providers::boost(&self.store, &providers, scores);
        // Negation hook: tools named by an excluded word rank lower.
        for s in &req.negated {
            if let Some(id) = self.store.id(s) {
                for p in self.store.postings(id) {
                    if p.fields & 0b11 != 0 {
                        scores[p.doc as usize] *= NEGATED;
                    }
                }
            }
        }
        // Unasked-destruction hook: a tool named for deleting or cancelling
        // ranks lower unless some request word (or its expansion) asks it.
        let unasked = self.unasked(&qterms, scores, verb_field);
        let exact = self.store.exact.get(&exact_key(query));
        if let Some(docs) = exact {
            for (doc, boost, _) in docs {
                let s = &mut scores[*doc as usize];
                if *s == 0.0 {
                    touched.push(*doc);
                }
                *s += boost;
            }
        }
        // Mention hook: a tool the request names inside a sentence.
        let named = self.mentions.find(&self.store, query, &providers);
        for (doc, boost) in &named {
            let s = &mut scores[*doc as usize];
            if *s == 0.0 {
                touched.push(*doc);
            }
            *s += boost;
        }
        // Prerequisite hook: when the best tool needs an identifier the
        // request does not carry, the tools that produce it come first.
        let mut lifts = Vec::new();
        if exact.is_none() && named.is_empty() {
            let name = |d: u32| self.store.doc(d).map_or("", |doc| doc.tool.name.as_str());
            let order = |a: &(f32, u32), b: &(f32, u32)| {
                a.0.total_cmp(&b.0).then_with(|| name(b.1).cmp(name(a.1)))
            };
            let (mut best, mut second) = ((0f32, u32::MAX), 0f32);
            for d in touched.iter() {
                let c = (scores[*d as usize], *d);
                if order(&c, &best).is_gt() {
                    second = best.0;
                    best = c;
                } else {
                    second = second.max(c.0);
                }
            }
            // Only a clear best tool's inputs say what the first step is.
            let (top, slot) = best;
            if top > 0.0 && top >= PREREQ_LEAD * second {
                // A producer the request says nothing of is no step of it.
                lifts = prereq::producers(&self.store, slot, kinds, |d| scores[d as usize] > 0.0);
                for l in &lifts {
                    let share = if prereq::names_a_thing(&req, &providers, &l.thing) {
                        PREREQ_NAMED
                    } else {
                        PREREQ
                    };
                    let s = &mut scores[l.doc as usize];
                    *s = s.max(top * share);
                }
            }
        }
        let mut cands: Vec<(f32, u32)> = Vec::with_capacity(touched.len());
        cands.extend(
            touched
                .drain(..)
                .map(|d| {
                    let weight = self.store.doc(d).map_or(1.0, |doc| doc.weight);
                    (std::mem::take(&mut scores[d as usize]) * weight, d)
                })
                .filter(|(s, _)| *s > 0.0),
        );
        self.scratch.replace(scratch);
        Scored {
            cands,
            qterms,
            exact,
            kinds,
            req,
            ids,
            fields,
            coded,
            named,
            providers,
            lifts,
            lookup,
            asked,
            unasked,
        }
    }

    /// Rank lower the scored tools named for a destructive word no term of
    /// the request asks for (see [`UNASKED`]), once per tool.
    fn unasked(&self, qterms: &[QTerm<'_>], scores: &mut [f32], marks: &mut [u16]) -> Unasked {
        let mut words = [(0u32, ""); 16];
        let mut n = 0;
        for (stem, word) in destroys() {
            if let Some(id) = self.store.id(stem) {
                if qterms.iter().any(|t| t.id == id) {
                    return Unasked::default();
                }
                if n < words.len() {
                    words[n] = (id, *word);
                    n += 1;
                }
            }
        }
        let mut docs = Vec::new();
        for (id, _) in &words[..n] {
            for p in self.store.postings(*id) {
                let d = p.doc as usize;
                if p.fields & 0b11 != 0 && marks[d] & UNASKED_BIT == 0 && scores[d] > 0.0 {
                    marks[d] |= UNASKED_BIT;
                    scores[d] *= UNASKED;
                    docs.push(p.doc);
                }
            }
        }
        for d in &docs {
            marks[*d as usize] &= !UNASKED_BIT;
        }
        if docs.is_empty() {
            return Unasked::default();
        }
        docs.sort_unstable();
        Unasked {
            words: words[..n].to_vec(),
            docs,
        }
    }

    /// The destructive word (see [`UNASKED`]) `doc` was ranked lower for, if any.
    fn unasked_why(&self, doc: u32, unasked: &Unasked) -> Option<&'static str> {
        unasked.docs.binary_search(&doc).ok()?;
        unasked
            .words
            .iter()
            .find(|(id, _)| {
                self.store
                    .fields_in(*id, doc)
                    .is_some_and(|f| f & 0b11 != 0)
            })
            .map(|(_, w)| *w)
    }

    /// The stand-in family word (see [`stand_ins`]) in `doc`'s name or title, if any.
    fn lookup_why(&self, doc: u32, families: &[usize]) -> Option<&'static str> {
        families.iter().find_map(|f| {
            let members = VERB_FAMILIES[*f].iter().zip(&family_stems()[*f]);
            members
                .filter(|(_, stem)| {
                    self.store
                        .id(stem)
                        .and_then(|id| self.store.fields_in(id, doc))
                        .is_some_and(|f| f & 0b11 != 0)
                })
                .map(|(m, _)| *m)
                .next()
        })
    }

    /// `why` entry for argument fit ("takes a URL").
    fn fit_why(&self, doc: u32, kinds: Kinds) -> Option<String> {
        let fits = self.kinds.get(doc as usize).map_or(0, |f| f.kinds) & kinds;
        if fits == 0 {
            return None;
        }
        let mut out = String::from("takes ");
        let names = KINDS.iter().filter(|(k, _)| fits & k.bit() != 0);
        for (i, (_, w)) in names.enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(w);
        }
        Some(out)
    }

    /// `why` entry for fields the request names exactly ("has field maintainer_can_modify").
    fn field_why(&self, doc: u32, fields: &[String]) -> Option<String> {
        let has: Vec<String> = fields
            .iter()
            .filter(|f| {
                self.field_docs
                    .get(*f)
                    .is_some_and(|d| d.binary_search(&doc).is_ok())
            })
            .map(|f| f.replacen('=', " = ", 1))
            .collect();
        (!has.is_empty()).then(|| format!("has field {}", has.join(", ")))
    }

    /// `found` and `line` are buffers the search reuses for every hit.
    fn why<'s>(
        &self,
        doc: u32,
        s: &'s Scored<'_>,
        labels: &mut [Option<std::borrow::Cow<'s, str>>],
        found: &mut Vec<(u8, usize)>,
        line: &mut String,
    ) -> Vec<String> {
        // Room for a few lines (the caller adds fit, field and name lines).
        let mut out = Vec::with_capacity(4);
        if let Some((_, _, kind)) = s.exact.and_then(|e| e.iter().find(|(d, _, _)| *d == doc)) {
            out.push((*kind).to_string());
        }
        // The matched terms' labels with the fields they match in, each label
        // text built once per search; per field, its labels in term order,
        // first of equals.
        found.clear();
        // The first later step's word in the name or title (see [`LATER_NAME`]).
        let mut later = None;
        for (k, t) in s.qterms.iter().enumerate() {
            if let Some(fields) = self.store.fields_in(t.id, doc) {
                if let Some(slot) = labels.get_mut(k) {
                    slot.get_or_insert_with(|| t.word.text(&s.req));
                }
                found.push((fields, k));
                if t.later && fields & 0b11 != 0 && later.is_none() {
                    later = Some(k);
                }
            }
        }
        let label = |k: usize| labels.get(k).and_then(Option::as_deref).unwrap_or("");
        for (f, name) in FIELD_NAMES.iter().enumerate() {
            let bit = 1u8 << f;
            line.clear();
            for (i, (fields, k)) in found.iter().enumerate() {
                let word = label(*k);
                let repeat = || {
                    found[..i]
                        .iter()
                        .any(|(g, j)| g & bit != 0 && label(*j) == word)
                };
                if fields & bit == 0 || repeat() {
                    continue;
                }
                if line.is_empty() {
                    line.push_str(name);
                    line.push_str(": ");
                } else {
                    line.push_str(", ");
                }
                line.push_str(word);
            }
            if !line.is_empty() {
                // One allocation of the line's exact size.
                out.push(line.as_str().to_owned());
            }
        }
        if let Some(k) = later {
            out.push(concat(&["named for a later step: ", label(k)]));
        }
        out
    }

    /// What the best hit has of the request (see [`Evidence`]).
    fn evidence(&self, scored: &[Scored<'_>], hits: &[SearchHit]) -> Evidence {
        let Some(top) = hits.first() else {
            return Evidence::default();
        };
        if top.score >= 500.0 {
            return Evidence {
                coverage: 1.0,
                title_coverage: 1.0,
                hit: true,
                exact: true,
                ..Evidence::default()
            };
        }
        let doc = top.doc as u32;
        let cover = |fields: u8| {
            scored
                .iter()
                .map(|s| self.coverage(doc, s, fields))
                .fold(0f32, f32::max)
        };
        let coverage = cover(0xff);
        // A field the request writes as code: the hit takes what was asked.
        let named_field = scored.iter().flat_map(|s| &s.coded).any(|k| {
            self.field_docs
                .get(k)
                .is_some_and(|d| d.binary_search(&doc).is_ok())
        });
        if coverage >= nothing::MEASURED_BELOW || named_field {
            // No bar reads the rest up here: spare the search the passes.
            return Evidence {
                coverage,
                hit: true,
                named_field,
                ..Evidence::default()
            };
        }
        let (mut unknown_share, mut unknown_words, mut unknown_names) =
            (f32::MAX, usize::MAX, usize::MAX);
        for s in scored {
            let content = s.req.words.iter().zip(&s.ids);
            let content = content.filter(|(w, _)| w.weight >= 1.0);
            let (mut n, mut missing, mut names) = (0, 0, 0);
            for (w, id) in content {
                let unknown = id.is_none();
                n += 1;
                missing += usize::from(unknown);
                // A word with a digit is a value (an id, a date), not a name for a thing.
                names += usize::from(unknown && !w.word.bytes().any(|b| b.is_ascii_digit()));
            }
            unknown_share = unknown_share.min(missing as f32 / n.max(1) as f32);
            unknown_words = unknown_words.min(missing);
            unknown_names = unknown_names.min(names);
        }
        let (rarest, ask_rarest) = self.rarest_shared(doc, scored);
        Evidence {
            coverage,
            title_coverage: cover(0b11),
            unknown_share,
            unknown_words,
            unknown_names,
            rarest,
            ask_rarest,
            hit: true,
            exact: false,
            named_field: false,
        }
    }

    /// Highest IDF of a typed content word of the request that `doc` has (a
    /// rare one is specific evidence, "APM" in a tracing tool, however little
    /// else of the request it covers), and the same leaving out the words that
    /// name a provider.
    fn rarest_shared(&self, doc: u32, scored: &[Scored<'_>]) -> (f32, f32) {
        let (mut rarest, mut ask) = (0f32, 0f32);
        for s in scored {
            for (w, id) in s.req.words.iter().zip(&s.ids) {
                let Some(id) = id.filter(|_| w.weight >= 1.0) else {
                    continue;
                };
                if self.store.fields_in(id, doc).is_some() {
                    let idf = self.store.idf(id);
                    rarest = rarest.max(idf);
                    if !s.providers.iter().any(|n| n.words.contains(&w.word)) {
                        ask = ask.max(idf);
                    }
                }
            }
        }
        (rarest, ask)
    }

    /// IDF-weighted share of a phrasing's content words that `doc` matches
    /// in `fields` (a field mask), directly or through a lexicon phrase.
    fn coverage(&self, doc: u32, s: &Scored<'_>, fields: u8) -> f32 {
        let unknown = (1.0 + (self.store.len() as f32 + 0.5) / 0.5).ln();
        let mut want = 0f32;
        let mut got = 0f32;
        // Related words (`search/related.rs`) are weak evidence: they rank, but
        // cover nothing of the request (the nothing-fits bars stay as they were).
        let related = |t: &QTerm<'_>| match t.word {
            Label::Lexicon(e, _) => s.req.expansions.get(e).is_some_and(|e| e.related),
            _ => false,
        };
        let matches = |concept: usize| {
            s.qterms.iter().any(|t| {
                t.concept == concept
                    && !related(t)
                    && self
                        .store
                        .fields_in(t.id, doc)
                        .is_some_and(|f| f & fields != 0)
            })
        };
        for (i, w) in s.req.words.iter().enumerate() {
            if w.weight < 1.0 {
                continue;
            }
            let id = s.ids.get(i).copied().flatten();
            let idf = id.map_or(unknown, |id| self.store.idf(id));
            want += idf;
            let hit = matches(w.concept)
                || s.req
                    .expansions
                    .iter()
                    .any(|e| !e.related && e.span.0 <= i && i < e.span.1 && matches(e.concept));
            if hit {
                got += idf;
            }
        }
        if fields == 0xff && self.kinds.get(doc as usize).map_or(0, |f| f.kinds) & s.kinds != 0 {
            got += 2.0;
            want += 2.0;
        }
        if want == 0.0 {
            return 0.0;
        }
        got / want
    }
}

#[cfg(test)]
mod tests {
    use super::best_first;

    #[test]
    fn best_first_puts_the_k_best_in_order_in_front() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for len in [0usize, 1, 5, 16, 17, 40, 300] {
            let items: Vec<(u32, u32)> = (0..len as u32)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    ((x % 23) as u32, i)
                })
                .collect();
            let mut sorted = items.clone();
            sorted.sort();
            for k in [0, 1, 8, 16, len].into_iter().filter(|k| *k <= len) {
                let mut got = items.clone();
                best_first(&mut got, k, |a, b| a.cmp(b));
                assert_eq!(got[..k], sorted[..k], "len {len} k {k}");
                got.sort();
                assert_eq!(got, sorted, "a permutation");
            }
        }
    }
}
