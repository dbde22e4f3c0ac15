//! Reading a request before it is scored: entities (their words count
//! little), conversational filler (ignored), negation and "instead of" (the
//! words they exclude are dropped and penalise tools named by them), and the
//! concept lexicon's extra tool words.

use super::entities::{detect, Entities};
use super::lexicon::{is_skipped, lexicon};
use super::related::related;
use super::sense::{sense_at, Found};
use super::text::{family_of, is_stopword, listed, stem, words, STEP_JOINERS};

/// Weight of the words of a later step ("…, then open an issue").
pub(crate) const LATER_STEP: f32 = 0.5;
/// Most content words read from one request.
const MAX_WORDS: usize = 64;
/// Most words one negation excludes.
const NEGATION_SCOPE: usize = 2;

/// One content word of a request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Word {
    /// The word as typed (lower case).
    pub word: String,
    /// Its stem.
    pub stem: String,
    /// Weight (1.0 normally).
    pub weight: f32,
    /// Whether it may act as an action verb (not inside an entity or phrase).
    pub verb: bool,
    /// Position among content words (the word's concept).
    pub concept: usize,
    /// Part of a later step of a multi-step request.
    pub later: bool,
    /// Phrased as a name: after "on", "in", "with", "via", "my"…, before
    /// "server", "mcp", "tools"… or a colon, or capitalised mid-sentence
    /// (see `named_at`); a provider named by a common word needs it.
    pub named: bool,
    /// Part of an entity or quoted value (a path, a URL, 'fix typo').
    pub value: bool,
    /// Capitalised mid-sentence, outside any value and not all capitals
    /// ("the Platform team", not "the SESSIONS namespace").
    pub proper: bool,
    /// Part of a clause before the request's action that a comma closes
    /// ("with puppeteer, …", "where our code is hosted, …"): it names the
    /// place, and the action's verb opens the next clause.
    pub preamble: bool,
}

/// Extra tool words a lexicon phrase adds (borrowed from the compiled-in lexicon).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Expansion {
    /// The phrase as written in the lexicon.
    pub phrase: &'static str,
    /// Tool words, as (word, stem).
    pub adds: &'static [(String, String)],
    /// Concept they count under (the phrase's own, or its single word's).
    pub concept: usize,
    /// The content words (indices into [`Request::words`]) the phrase spans.
    pub span: (usize, usize),
    /// Weight of the phrase's words where they stand: [`LATER_STEP`] in a
    /// later step, as the words it stands for would count.
    pub weight: f32,
    /// From the relatedness table (`search/related.rs`), not the hand lexicon.
    pub related: bool,
    /// Stands for a later step's words only and names a thing, not an
    /// action ("a PR", "a reminder"; not "read it out"): a later step's
    /// object names that step's tools (see `LATER_NAME` in `search/index.rs`).
    pub later: bool,
}

/// A verb read in the sense its object gives it ("open" + "issue": create).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sensed {
    /// The verb's content word (an index into [`Request::words`]).
    pub word: usize,
    /// The rule (see `search/sense.rs`).
    pub found: Found,
    /// The object as typed ("issue"), for `why`.
    pub object: String,
    /// The concept the sense's tool words count under (their own: they
    /// name the object's kind, not the verb).
    pub concept: usize,
}

/// A request, read.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Request {
    /// Content words in order.
    pub words: Vec<Word>,
    /// Lexicon expansions.
    pub expansions: Vec<Expansion>,
    /// Verbs read in their object's sense.
    pub senses: Vec<Sensed>,
    /// Stems of words a negation excluded.
    pub negated: Vec<String>,
    /// Entities found.
    pub entities: Entities,
    /// The first step asks a question ("what's this one about", "… did it
    /// finish ok?") rather than for an action.
    pub asks: bool,
}

/// A raw word with where it stands.
struct Raw {
    word: String,
    /// Weight when inside an entity.
    entity: Option<f32>,
    /// A clause ends after this word (punctuation).
    boundary: bool,
    /// The word ends in a colon: what follows is this clause's content
    /// ("azure devops: list projects"), not a later step.
    colon: bool,
    /// The word ends in a question mark.
    question: bool,
    /// The token is written as code (`groupBy`, `drop_target`): its words
    /// name a field, not an action.
    code: bool,
    /// The word starts a token with a capital letter ("GitHub", "Slack").
    capital: bool,
    /// The token is all capitals ("SESSIONS", "RLS").
    upper: bool,
}

fn raw_words(query: &str, entities: &Entities) -> Vec<Raw> {
    let mut out = Vec::new();
    let mut pos = 0;
    for piece in query.split_inclusive(char::is_whitespace) {
        let token = piece.trim_end();
        // Look up the token's first and last word characters: quotes and
        // punctuation around a value ("'new-checkout',") lie outside its span.
        let first = token.find(char::is_alphanumeric).unwrap_or(0);
        let last = token
            .rfind(char::is_alphanumeric)
            .unwrap_or(token.len().saturating_sub(1));
        let entity = entities
            .weight_at(pos + first)
            .or_else(|| entities.weight_at(pos + last));
        let ws = words(token);
        let n = ws.len();
        let ends = token.ends_with([',', '.', ';', ':', '!', '?', ')']);
        let code = n > 1
            && (token.contains('_')
                || token
                    .as_bytes()
                    .windows(2)
                    .any(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase()));
        // Each word's own place in the token when it can be found (a URL's
        // host and path words weigh differently, see `search/values.rs`).
        let lower = if entity.is_some() {
            token.to_ascii_lowercase()
        } else {
            String::new()
        };
        let mut cur = 0;
        for (i, w) in ws.into_iter().enumerate() {
            // (Only entity tokens are looked into: `lower` is empty for the rest.)
            let found = entity.and_then(|_| lower.get(cur..)?.find(w.as_str()));
            let entity = match found {
                Some(f) => {
                    cur += f + w.len();
                    entities.weight_at(pos + cur - w.len()).or(entity)
                }
                _ => entity,
            };
            out.push(Raw {
                word: w,
                entity,
                boundary: ends && i + 1 == n,
                colon: token.ends_with(':') && i + 1 == n,
                question: token.ends_with('?') && i + 1 == n,
                code,
                capital: i == 0 && token.chars().next().is_some_and(char::is_uppercase),
                upper: !token.chars().any(char::is_lowercase),
            });
        }
        pos += piece.len();
        if out.len() >= MAX_WORDS * 2 {
            break;
        }
    }
    out
}

/// Words before a name that mark it as a service ("on GitHub", "in my notion").
const NAME_BEFORE: &[&str] = &[
    "on", "in", "with", "using", "via", "from", "through", "into", "my", "our",
];
/// Words after a name that mark it as a service ("the memory server").
pub(crate) const NAME_AFTER: &[&str] = &[
    "server",
    "mcp",
    "tool",
    "tools",
    "integration",
    "connector",
    "plugin",
    "account",
    "workspace",
    "instance",
];
/// Articles skipped when looking for a word before a name ("on the filesystem server").
const ARTICLES: &[&str] = &["the", "a", "an", "your"];

/// Whether raw word `k` is phrased as a name (see [`Word::named`]).
fn named_at(raw: &[Raw], k: usize) -> bool {
    let mut before = k;
    while before > 0 && listed(ARTICLES, raw[before - 1].word.as_str()) {
        before -= 1;
    }
    let prev = before.checked_sub(1).map(|b| &raw[b]);
    let after = raw.get(k + 1).map_or("", |r| r.word.as_str());
    let sentence_start = prev.is_none_or(|p| p.boundary && !p.colon);
    prev.is_some_and(|p| listed(NAME_BEFORE, p.word.as_str()))
        || listed(NAME_AFTER, after)
        || raw[k].colon
        || (raw[k].capital && !sentence_start)
}

/// Index of the first word after a negation cue starting at `i`, if any.
fn negation_cue(ws: &[Raw], i: usize) -> Option<usize> {
    let w = |k: usize| ws.get(k).map(|r| r.word.as_str()).unwrap_or("");
    match w(i) {
        "not" | "never" | "without" | "except" | "excluding" | "dont" | "avoid" | "exclude" => {
            Some(i + 1)
        }
        "don" | "doesn" | "didn" | "won" | "shouldn" if w(i + 1) == "t" => Some(i + 2),
        "instead" if w(i + 1) == "of" => Some(i + 2),
        "rather" | "other" if w(i + 1) == "than" => Some(i + 2),
        _ => None,
    }
}

/// Action verbs beyond the verb families that start a new step after "and" or a comma.
const STEP_VERBS: &[&str] = &[
    "send",
    "post",
    "commit",
    "merge",
    "push",
    "pull",
    "summarize",
    "summarise",
    "tell",
    "email",
    "notify",
    "schedule",
    "review",
    "approve",
    "deploy",
    "scale",
    "tail",
    "switch",
    "pick",
    "evaluate",
    "validate",
    "roll",
    "restart",
    "close",
    "assign",
    "comment",
    "reply",
    "share",
    "upload",
    "download",
    "chart",
    "plot",
    "translate",
    "compare",
    "check",
    "confirm",
    "log",
    "attach",
    "bump",
    "stage",
    "tag",
    "rename",
    "move",
    "copy",
    "click",
    "fill",
    "type",
    "screenshot",
    "navigate",
    "go",
    "query",
    "draft",
    "book",
    "invite",
    "archive",
    "mark",
    "leave",
    "put",
    "give",
    "take",
    "make",
    "generate",
    "build",
    "test",
    "fix",
    "describe",
    "turn",
];

/// Words a verb's object opens with: a word between "and" (or a comma) and
/// one of these acts on it, so it is a verb the lists may not hold ("and
/// draw them", "and decline anything", "and mute the ones tagged …").
const OBJECT_OPENS: &[&str] = &[
    "the",
    "a",
    "an",
    "it",
    "them",
    "him",
    "her",
    "its",
    "their",
    "this",
    "that",
    "these",
    "those",
    "anything",
    "everything",
    "whatever",
    "whichever",
];
/// Words that open a condition on a later step ("…, and if it looks ok write …").
const CONDITIONS: &[&str] = &["if", "once", "when"];

/// Words that open a question, not an imperative.
const QUESTION_WORDS: &[&str] = &[
    "what", "where", "which", "who", "how", "why", "when", "whose",
];
/// A question word opens a question among the first this many sentence
/// words ("https://… what's on this one", "ENG-982, where is it at").
const QUESTION_REACH: usize = 3;
/// Words after a question word that make it a question ("what's", "how do").
const QUESTION_VERBS: &[&str] = &["s", "is", "are", "was", "were", "do", "does", "did", "can"];
/// Pronouns a later step acts on (the earlier step's result: "read it out").
const RESULT_PRONOUNS: &[&str] = &["it", "them", "this", "that", "these", "those"];

/// True when word `k` opens a later step: after "then"; once the step so far
/// has an action (`acted`: "with puppeteer, take …" and "R2 bucket
/// 'assets', list …" are one step), an action verb, a condition or a word
/// before an object (see [`OBJECT_OPENS`]) right after "and" or a comma;
/// after a question, a verb acting on its answer ("what does the page say?
/// read it out"), not one that says how to answer it ("who flipped it? check
/// the audit trail").
fn starts_step(raw: &[Raw], k: usize, acted: bool) -> bool {
    let prev = raw[k - 1].word.as_str();
    if prev == "then" || prev == "afterwards" {
        return true;
    }
    let w = raw[k].word.as_str();
    let next = raw.get(k + 1).map_or("", |n| n.word.as_str());
    // (The cheap checks first: the verb lists are long.)
    let known = || family_of(w).is_some() || listed(STEP_VERBS, w);
    if raw[k - 1].question {
        return listed(RESULT_PRONOUNS, next) && known();
    }
    if !acted || !(prev == "and" || (raw[k - 1].boundary && !raw[k - 1].colon)) {
        return false;
    }
    let condition = || listed(CONDITIONS, w) && !raw[k].boundary;
    let object_next = || {
        listed(OBJECT_OPENS, next)
            && raw[k].entity.is_none()
            && !is_stopword(w)
            && !listed(OBJECT_OPENS, w)
            && !listed(LIGHT_VERBS, w)
            && w.bytes().all(|b| b.is_ascii_lowercase())
    };
    known() || condition() || object_next()
}

/// Whether a word names an action (a verb of the lists: a family, a step verb, a light verb).
fn acts(w: &str) -> bool {
    family_of(w).is_some() || listed(STEP_VERBS, w) || listed(LIGHT_VERBS, w)
}

/// Light verbs: they carry little of a request's meaning ("put a thumbs-up",
/// "make the window smaller", "get me the headlines"), so they neither act as
/// the first action verb nor expand to their verb family, and count half.
pub(crate) const LIGHT_VERBS: &[&str] = &[
    "put", "make", "get", "give", "take", "have", "do", "bring", "keep", "let", "go", "show",
];
/// Weight of a light verb's literal word.
const LIGHT: f32 = 0.5;

/// Contraction tails left by splitting "what's", "don't", "I'll".
const CONTRACTIONS: &[&str] = &["s", "t", "d", "ll", "re", "ve", "m"];

/// Determiners: a verb-family word after one (over adjectives and nouns) is a
/// noun ("the last CI run", "the new files", "a quick search").
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "my", "our", "your", "their", "his", "her", "its", "this", "that", "these",
    "those", "every", "each", "any", "some", "last", "latest", "first", "next",
];
/// Auxiliaries: a verb-family word right after one is a participle or
/// adjective ("the alarms that are already set"), not the action.
const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "been", "being", "already", "has", "have", "had",
];
/// Most words between a determiner and the noun it introduces.
const NOUN_REACH: usize = 3;

/// Whether raw word `k` (a verb-family word: callers check) is not an action here: a
/// determiner stands before it with only modifiers between ("the last CI
/// run"), an auxiliary right before it, or it is capitalised mid-sentence.
fn noun_at(raw: &[Raw], k: usize) -> bool {
    // After an auxiliary: a participle ("are already set"). Capitalised
    // mid-sentence: part of a name ("a music event in New York").
    if k > 0
        && (listed(AUXILIARIES, raw[k - 1].word.as_str())
            || (raw[k].capital && !raw[k - 1].boundary))
    {
        return true;
    }
    for j in (k.saturating_sub(NOUN_REACH + 1)..k).rev() {
        let w = raw[j].word.as_str();
        if listed(DETERMINERS, w) {
            return true;
        }
        // Cheap checks first (the verb lists are long).
        if raw[j].boundary || is_stopword(w) || listed(STEP_JOINERS, w) {
            return false;
        }
        if family_of(w).is_some() || listed(STEP_VERBS, w) || listed(LIGHT_VERBS, w) {
            return false;
        }
    }
    false
}

/// Words before a verb that make it an adjective ("how many open issues").
const NOT_BEFORE_VERB: &[&str] = &[
    "many",
    "all",
    "any",
    "no",
    "still",
    "currently",
    "of",
    "with",
    "for",
    "are",
    "is",
    "only",
];

/// Whether raw word `k` opens its clause as its action: no action verb, light
/// verb or [`NOT_BEFORE_VERB`] word stands before it in the clause ("please
/// open a ticket", not "list open tickets").
fn clause_verb(raw: &[Raw], k: usize) -> bool {
    for j in (0..k).rev() {
        let w = raw[j].word.as_str();
        if raw[j].boundary || listed(STEP_JOINERS, w) {
            return true;
        }
        if family_of(w).is_some()
            || listed(STEP_VERBS, w)
            || listed(LIGHT_VERBS, w)
            || listed(NOT_BEFORE_VERB, w)
        {
            return false;
        }
    }
    true
}

/// Whether a purpose clause opens at raw word `k` ("so I can patch it",
/// "so that", "in order to"): what follows says why, not what to do.
fn purpose_at(raw: &[Raw], k: usize) -> bool {
    let w = |j: usize| raw.get(j).map_or("", |r| r.word.as_str());
    (w(k - 1) == "so" && matches!(w(k), "i" | "we" | "you" | "that" | "they"))
        || (w(k - 1) == "order" && w(k) == "to" && k >= 2 && w(k - 2) == "in")
}

/// Read a request: content words, expansions, negated words, entities.
pub(crate) fn read(query: &str) -> Request {
    let entities = detect(query);
    let raw = raw_words(query, &entities);
    let lex = lexicon();
    let stems: Vec<String> = raw.iter().map(|r| stem(&r.word)).collect();
    // Phrases match over the words that are not skippable, entity words blanked.
    // (Borrowed stems: no copy per word.)
    let phrase_seq = |dropped: &[bool]| -> (Vec<&str>, Vec<usize>) {
        let mut seq = Vec::with_capacity(raw.len());
        let mut at = Vec::with_capacity(raw.len());
        for (k, r) in raw.iter().enumerate() {
            if dropped[k] || is_skipped(&r.word) {
                continue;
            }
            seq.push(if r.entity.is_some() { "" } else { &stems[k] });
            at.push(k);
        }
        (seq, at)
    };
    // 1. Filler.
    let mut dropped = vec![false; raw.len()];
    let (seq, at) = phrase_seq(&dropped);
    let mut i = 0;
    while i < seq.len() {
        match lex.match_at(&seq, i, true) {
            Some(e) => {
                let n = e.phrase.len();
                for k in &at[i..i + n] {
                    dropped[*k] = true;
                }
                i += n;
            }
            None => i += 1,
        }
    }
    // 2. Negation: the next few content words up to a clause boundary.
    let mut negated = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let Some(start) = negation_cue(&raw, i) else {
            i += 1;
            continue;
        };
        dropped[i..start.min(raw.len())].fill(true);
        let mut j = start;
        let mut taken = 0;
        while j < raw.len() && taken < NEGATION_SCOPE {
            let w = raw[j].word.as_str();
            if listed(STEP_JOINERS, w) || w == "but" || w == "use" {
                break;
            }
            dropped[j] = true;
            if !is_stopword(w) {
                negated.push(stems[j].clone());
                taken += 1;
            }
            if raw[j].boundary {
                break;
            }
            j += 1;
        }
        i = j.max(i + 1);
    }
    // 3. Content words.
    let mut out = Request {
        entities,
        negated,
        ..Request::default()
    };
    let mut content_at = vec![usize::MAX; raw.len()];
    // Per raw word: the weight its step and entity give it (phrases use it).
    let mut raw_weight = vec![1.0f32; raw.len()];
    let mut clause_weight = 1.0;
    // Non-verb content words of the first step so far: "find and read the
    // notes" is one step with two verbs; "find the notes and read them" two.
    let mut objects = 0;
    // Whether the first step has an action word so far (a verb, a step verb or a light verb).
    let mut acted = false;
    // Sentence words (not values, not filler) of the first step so far.
    let mut lead = 0;
    for (k, r) in raw.iter().enumerate() {
        let w = r.word.as_str();
        // A clause closed before any action is a preamble (see `Word::preamble`).
        if k > 0 && raw[k - 1].boundary && !raw[k - 1].colon && !acted && clause_weight == 1.0 {
            for w in &mut out.words {
                w.preamble = true;
            }
        }
        // A request's first word, when it is a plain word, is its imperative
        // ("clone github.com/acme/tools into ~/src and run its tests"; not a
        // name it addresses, "kubernetes, uninstall …"); a question is an
        // action too ("what's the time in Tokyo, and schedule …"), a
        // question word before no verb is not ("where our code is hosted, …").
        if k == 0 && r.entity.is_none() && !r.code && !r.capital && !r.boundary {
            let next = raw.get(1).map_or("", |n| n.word.as_str());
            acted = if listed(QUESTION_WORDS, w) {
                listed(QUESTION_VERBS, next)
            } else {
                !dropped[k] && !is_stopword(w)
            };
        }
        // A later step, or a purpose clause ("so I can patch it"): what
        // follows is not what the first tool does.
        if k > 0 && ((objects > 0 && starts_step(&raw, k, acted)) || purpose_at(&raw, k)) {
            clause_weight = LATER_STEP;
        }
        raw_weight[k] = r.entity.unwrap_or(1.0) * clause_weight;
        if clause_weight == 1.0 && r.entity.is_none() && !dropped[k] {
            out.asks |= r.question || lead < QUESTION_REACH && listed(QUESTION_WORDS, w);
            lead += 1;
        }
        // Words of a value that weigh nothing (a URL's scheme, an id's
        // digits) are no content words: they neither score nor explain.
        let nothing = r.entity == Some(0.0);
        if dropped[k]
            || nothing
            || is_stopword(w)
            || STEP_JOINERS.contains(&w)
            || CONTRACTIONS.contains(&w)
        {
            continue;
        }
        if out.words.len() >= MAX_WORDS {
            break;
        }
        let concept = out.words.len();
        content_at[k] = concept;
        let light = listed(LIGHT_VERBS, w);
        let family = family_of(w).is_some();
        // A family word that is a noun here ("the last CI run").
        let noun = family && noun_at(&raw, k);
        if !family && !listed(STEP_VERBS, w) && !light {
            objects += 1;
        } else if r.entity.is_none() && !r.code && !noun {
            acted = true;
        }
        out.words.push(Word {
            stem: stems[k].clone(),
            word: r.word.clone(),
            weight: r.entity.unwrap_or(1.0) * clause_weight * if light { LIGHT } else { 1.0 },
            verb: r.entity.is_none() && !light && !noun,
            concept,
            later: clause_weight < 1.0,
            named: r.entity.is_none() && named_at(&raw, k),
            value: r.entity.is_some(),
            proper: r.entity.is_none()
                && r.capital
                && r.word.len() > 1
                && !r.upper
                && k > 0
                && !raw[k - 1].boundary,
            preamble: false,
        });
    }
    // 4. Lexicon phrases (and, over the same words, verb senses).
    let (seq, at) = phrase_seq(&dropped);
    for (i, k) in at.iter().enumerate() {
        let c = content_at[*k];
        let verb = out.words.get(c).is_some_and(|w| w.verb);
        if !verb {
            continue;
        }
        // (The rules first: most words are no sense verb, and the clause check reads back.)
        if let Some(found) = sense_at(&seq, i).filter(|_| clause_verb(&raw, *k)) {
            let object = at
                .get(found.object..found.object + found.object_len)
                .map(|ks| {
                    let ws: Vec<&str> = ks.iter().map(|k| raw[*k].word.as_str()).collect();
                    ws.join(" ")
                })
                .unwrap_or_default();
            out.senses.push(Sensed {
                word: c,
                found,
                object,
                concept: 0,
            });
        }
    }
    let mut i = 0;
    let mut next_concept = out.words.len();
    // The particle of a verb matched apart from it ("roll the worker back").
    let mut particle = usize::MAX;
    while i < seq.len() {
        if i == particle {
            i += 1;
            continue;
        }
        // Contiguous first; else a verb whose particle stands after its object.
        let open =
            |j: usize| !seq[j].is_empty() && !raw[at[j]].boundary && !raw[at[j - 1]].boundary;
        let (e, spots, split) = match lex.match_at(&seq, i, false) {
            Some(e) => (e, (i..i + e.phrase.len()).collect::<Vec<_>>(), false),
            None => match lex.match_split(&seq, i, open) {
                Some((e, k)) => {
                    particle = k;
                    (e, vec![i, k], true)
                }
                None => {
                    i += 1;
                    continue;
                }
            },
        };
        // Past the phrase; past only the verb of a split one (its object is read on its own).
        let step = if split { 1 } else { spots.len() };
        let covered: Vec<usize> = spots
            .iter()
            .map(|j| content_at[at[*j]])
            .filter(|c| *c != usize::MAX)
            .collect();
        let (lo, hi) = (
            covered.first().copied().unwrap_or(0),
            covered.last().map_or(0, |c| c + 1),
        );
        let concept = if covered.len() == 1 && spots.len() == 1 {
            lo
        } else {
            next_concept += 1;
            // Words of a phrase read as the phrase, not as separate verbs.
            for c in &covered {
                out.words[*c].verb = false;
            }
            next_concept - 1
        };
        let weight = spots
            .iter()
            .map(|j| raw_weight[at[*j]])
            .fold(0f32, f32::max);
        let later = !covered.is_empty()
            && covered.iter().all(|c| out.words[*c].later)
            && !acts(raw[at[i]].word.as_str());
        out.expansions.push(Expansion {
            phrase: &e.text,
            adds: &e.adds,
            concept,
            span: (lo, hi),
            weight,
            related: false,
            later,
        });
        i += step;
    }
    // 5. Related words for content words no lexicon phrase covers.
    for (c, w) in out.words.iter().enumerate() {
        if w.value || w.weight <= 0.0 {
            continue;
        }
        // The table first: most words are not in it (the other checks cost more).
        let Some(r) = related(&w.stem) else {
            continue;
        };
        let covered = out.expansions.iter().any(|e| e.span.0 <= c && c < e.span.1);
        if !covered && family_of(&w.word).is_none() {
            out.expansions.push(Expansion {
                phrase: &r.text,
                adds: &r.adds,
                concept: c,
                span: (c, c + 1),
                weight: w.weight * r.weight,
                related: true,
                later: w.later && !acts(&w.word),
            });
        }
    }
    for s in &mut out.senses {
        s.concept = next_concept;
        next_concept += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(q: &str) -> Vec<String> {
        read(q).words.into_iter().map(|w| w.word).collect()
    }

    #[test]
    fn a_question_word_or_mark_in_the_first_step_asks() {
        assert!(read("https://x.io/issues/7 what's this one about").asks);
        assert!(read("cus_Qx81bA2 subscriptions?").asks);
        assert!(read("hey, how far along is ENG-4").asks);
        assert!(!read("list the issues of acme/api").asks);
        // A question word deep in an imperative, or in a later step, is no question.
        assert!(!read("open ENG-4 and tell me what is in it").asks);
        assert!(!read("fetch the page, then tell me what it says?").asks);
    }

    #[test]
    fn filler_and_negation_leave_the_content_words() {
        assert_eq!(
            content("can you get the weather for me right now"),
            ["get", "weather"]
        );
        assert_eq!(content("search the web, not the docs"), ["search", "web"]);
        let r = read("use firefox instead of chrome");
        assert_eq!(r.negated, [stem("chrome")]);
        assert_eq!(content("don't delete it, archive it"), ["archive"]);
    }

    #[test]
    fn a_colon_introduces_the_request_and_names_are_read() {
        let r = read("azure devops: list projects in the org");
        assert!(r.words.iter().all(|w| !w.later), "{:?}", r.words);
        let named = |q: &str, w: &str| read(q).words.iter().any(|x| x.word == w && x.named);
        assert!(named("save it in memory", "memory"));
        assert!(named("ask the fetch server", "fetch"));
        assert!(named("what does Slack say", "slack"));
        assert!(named("linear: list projects", "linear"));
        assert!(!named("how much memory is used", "memory"));
        assert!(!named("Memory usage please", "memory"));
    }

    #[test]
    fn nouns_purposes_and_quoted_values() {
        let verb = |q: &str, w: &str| read(q).words.iter().any(|x| x.word == w && x.verb);
        assert!(!verb("what went wrong in the last CI run", "run"));
        assert!(!verb("show me the new files", "new"));
        assert!(verb("run the tests", "run"));
        assert!(verb("list the pods and delete them", "delete"));
        assert!(!verb("which alarms are already set", "set"));
        assert!(!verb("a music event in New York", "new"));
        assert!(verb("azure devops: List projects", "list"));
        let r = read("take node-3 out of rotation so I can patch it");
        assert!(r.words.iter().any(|w| w.word == "patch" && w.later));
        let r = read("get the flag 'new-checkout', then turn it on");
        let new = r.words.iter().find(|w| w.word == "new").expect("new");
        assert!(new.value && !new.verb, "{new:?}");
    }

    #[test]
    fn a_later_steps_phrases_count_as_its_words() {
        let r = read("get the pods, then tail the logs of the crashing one");
        let crash = r.expansions.iter().find(|e| e.phrase == "crash");
        assert_eq!(crash.map(|e| e.weight), Some(LATER_STEP));
        let r = read("put a thumbs-up on that message");
        assert!(r
            .expansions
            .iter()
            .filter(|e| !e.related)
            .all(|e| e.weight == 1.0));
    }

    #[test]
    fn a_later_step_needs_an_action_before_it() {
        let later = |q: &str| -> Vec<String> {
            read(q)
                .words
                .into_iter()
                .filter(|w| w.later)
                .map(|w| w.word)
                .collect()
        };
        // A preamble that names a place or a field is no step of its own.
        assert!(later("with puppeteer, take a screenshot of the page").is_empty());
        assert!(later("in github, list the open pull requests").is_empty());
        assert!(later("dropTarget true, rename events_tmp to events").is_empty());
        assert!(later("kubernetes, uninstall the helm release redis").is_empty());
        let r = read("where our code is hosted, open a change request");
        assert!(r.words.iter().all(|w| !w.later), "{:?}", r.words);
        assert!(r.words.iter().any(|w| w.word == "hosted" && w.preamble));
        // An imperative or a question is an action; a verb no list holds is
        // read by the object after it.
        assert_eq!(
            later("clone the repo into src and run its tests"),
            ["run", "tests"]
        );
        assert_eq!(
            later("query the signups from postgres and draw them as a line chart"),
            ["draw", "line", "chart"]
        );
        assert_eq!(
            later("what's the time in Tokyo, and schedule a call"),
            ["schedule", "call"]
        );
        // After a question, only a verb acting on its answer starts a step.
        assert_eq!(
            later("what does the page say? read it out to me"),
            ["read", "out"]
        );
        assert!(later("who flipped the flag and when? check the audit trail").is_empty());
    }

    #[test]
    fn phrases_add_tool_words() {
        let r = read("give report.txt a new name");
        assert!(r.expansions.iter().any(|e| e.phrase == "new name"));
        assert!(r.words.iter().all(|w| w.word != "new" || !w.verb));
        let r = read("put a thumbs-up on that message");
        assert!(r
            .expansions
            .iter()
            .any(|e| e.adds.iter().any(|(w, _)| w == "reaction")));
    }

    #[test]
    fn a_particle_after_its_object_still_makes_the_phrase() {
        let split = |q: &str| read(q).expansions.iter().any(|e| e.phrase == "roll back");
        assert!(split("roll back the worker"));
        assert!(split("roll the worker back to version 7d1e"));
        assert!(split("roll the edge worker back"));
        // Not across a clause, nor past two words.
        assert!(!split("roll the dice, back to work"));
        assert!(!split("roll the big edge worker back"));
        // The object keeps its own reading, and the verb is no verb of its own.
        let r = read("roll the worker back");
        assert!(r.words.iter().any(|w| w.word == "worker"));
        assert!(r.words.iter().all(|w| w.word != "roll" || !w.verb));
    }
}
