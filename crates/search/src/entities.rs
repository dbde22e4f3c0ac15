//! Entities in a request: the values a user pastes or names (a URL, a file
//! path or glob, an email address, coordinates, a date, time or time zone, a
//! number with a unit, an amount of money, `owner/repo`, an issue reference,
//! SQL, a code identifier, a commit SHA, a channel, a search pattern, a cron
//! schedule, a paper id, a street address, a command line). Detection is
//! token-shaped and linear in the query (multi-token and sub-token shapes in
//! `search/values.rs`); [`super::fit`] scores tools whose parameters take them.

use super::text::listed;
use super::values::{address, command, cron, opaque_spans, url_spans, Span};

/// One kind of entity; its bit in a [`Kinds`] mask is `1 << kind as u16`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// `https://…`, `www.…`, `example.com/…`.
    Url,
    /// `src/main.rs`, `./notes`, `report.txt`, `**/*.md`.
    Path,
    /// `ann@example.com`.
    Email,
    /// `48.85, 2.29`.
    Coords,
    /// `2024-05-01`, `3pm`, `tomorrow`, `next monday`.
    Date,
    /// `Europe/Paris`, `UTC`, `PST`.
    TimeZone,
    /// `5 km`, `20 MB`, `30s`.
    Quantity,
    /// `$40`, `12 EUR`.
    Money,
    /// `owner/repo`.
    Repo,
    /// `#42`, `PROJ-123`, `issue 7`.
    Issue,
    /// `SELECT … FROM …`.
    Sql,
    /// `parseConfig`, `snake_case_name`, `fn()`.
    Code,
    /// A hex commit SHA.
    Sha,
    /// A bare number (`2 and 3`).
    Number,
    /// `#releases`.
    Channel,
    /// A regular expression (`TODO\(.*\)`) or a glob.
    Pattern,
    /// A cron schedule (`*/15 * * * *`).
    Schedule,
    /// A DOI, arXiv or PubMed id.
    Paper,
    /// A street address (`1600 Amphitheatre Parkway, Mountain View`).
    Address,
    /// A shell command line (`mkdir -p ~/site`).
    Command,
    /// A version (`1.4.0`, `v2.4.0`).
    Version,
}

/// A set of [`Kind`]s.
pub(crate) type Kinds = u32;

/// Every kind, in order, with the phrase `why` uses ("takes a URL").
pub(crate) const KINDS: [(Kind, &str); 21] = [
    (Kind::Url, "a URL"),
    (Kind::Path, "a file path"),
    (Kind::Email, "an email address"),
    (Kind::Coords, "coordinates"),
    (Kind::Date, "a date or time"),
    (Kind::TimeZone, "a time zone"),
    (Kind::Quantity, "a quantity"),
    (Kind::Money, "an amount of money"),
    (Kind::Repo, "owner/repo"),
    (Kind::Issue, "an issue reference"),
    (Kind::Sql, "SQL"),
    (Kind::Code, "a code identifier"),
    (Kind::Sha, "a commit SHA"),
    (Kind::Number, "numbers"),
    (Kind::Channel, "a channel"),
    (Kind::Pattern, "a search pattern"),
    (Kind::Schedule, "a cron schedule"),
    (Kind::Paper, "a paper id"),
    (Kind::Address, "an address"),
    (Kind::Command, "a command line"),
    (Kind::Version, "a version"),
];

impl Kind {
    /// This kind's bit.
    pub(crate) fn bit(self) -> Kinds {
        1 << self as u16
    }
}

/// What a request carries: entity kinds, and the byte spans they cover
/// (their words count little as search words).
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Entities {
    /// Kinds found.
    pub kinds: Kinds,
    /// Kinds found twice or more (two paths, two time zones).
    pub many: Kinds,
    /// Kinds some value of which has letters (`ENG-982`): no number parameter takes it.
    pub text: Kinds,
    /// Kinds found only after "then" (a later step's values: "…, then tell #team").
    pub later: Kinds,
    /// An opaque id was found before any later step (`cus_NffrFeUfNV2Hib`, a UUID).
    pub ids: bool,
    /// Byte ranges of entity text in the query, with the weight their words
    /// keep (the first range holding a byte decides).
    pub spans: Vec<Span>,
}

impl Entities {
    /// The weight of a word at byte offset `at` if it lies inside an entity.
    pub(crate) fn weight_at(&self, at: usize) -> Option<f32> {
        self.spans
            .iter()
            .find(|(s, e, _)| at >= *s && at < *e)
            .map(|(_, _, w)| *w)
    }
}

/// How much the words of an entity still count as search words: values
/// (URLs, numbers, hashes) little, paths and `owner/repo` half, code
/// identifiers fully (they are often field or tool names).
fn word_weight(k: Kinds) -> f32 {
    if k & Kind::Code.bit() != 0 {
        1.0
    } else if k
        & (Kind::Sha.bit()
            | Kind::Paper.bit()
            | Kind::Schedule.bit()
            | Kind::Coords.bit()
            | Kind::Date.bit()
            | Kind::Version.bit())
        != 0
    {
        0.0 // hex digits, ids, positions, `18:00`: no words at all
    } else if k & (Kind::Path.bit() | Kind::Repo.bit() | Kind::Sql.bit()) != 0 {
        0.5
    } else {
        0.25
    }
}

const TLDS: &[&str] = &[
    "com", "org", "net", "io", "dev", "ai", "app", "co", "edu", "gov", "info", "me", "uk", "de",
    "fr", "jp", "ca", "us", "eu", "xyz", "site", "so", "gg", "tv",
];
const EXTENSIONS: &[&str] = &[
    "txt", "md", "rs", "js", "mjs", "ts", "tsx", "jsx", "py", "json", "yaml", "yml", "toml", "csv",
    "tsv", "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "png", "jpg", "jpeg", "gif", "svg",
    "webp", "html", "htm", "css", "xml", "log", "sh", "go", "java", "c", "h", "cpp", "rb", "php",
    "sql", "zip", "gz", "tar", "mp3", "mp4", "wav", "env", "ini", "cfg", "conf", "lock", "ipynb",
];
const ZONE_PREFIXES: &[&str] = &[
    "africa/",
    "america/",
    "antarctica/",
    "asia/",
    "atlantic/",
    "australia/",
    "europe/",
    "indian/",
    "pacific/",
    "etc/",
];
const ZONES: &[&str] = &[
    "utc", "gmt", "est", "edt", "cst", "cdt", "mst", "mdt", "pst", "pdt", "cet", "cest", "eet",
    "bst", "ist", "jst", "kst", "aest", "aedt", "timezone", "tz",
];
const DATE_WORDS: &[&str] = &[
    "today",
    "tomorrow",
    "yesterday",
    "tonight",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "noon",
    "midnight",
    "weekend",
    "morning",
    "afternoon",
    "evening",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];
const UNITS: &[&str] = &[
    "km", "kms", "mi", "mile", "miles", "m", "meter", "meters", "metres", "kg", "g", "lb", "lbs",
    "kb", "mb", "gb", "tb", "px", "ms", "s", "sec", "secs", "second", "seconds", "min", "mins",
    "minute", "minutes", "h", "hr", "hrs", "hour", "hours", "day", "days", "week", "weeks",
    "month", "months", "year", "years", "%", "percent", "°c", "°f", "c", "f", "degrees", "ft",
    "feet", "cm", "mm", "inch", "inches",
];
const CURRENCIES: &[&str] = &[
    "usd", "eur", "gbp", "jpy", "cad", "aud", "chf", "cny", "inr", "dollars", "dollar", "euros",
    "euro", "pounds", "bucks", "cents",
];
const ISSUE_WORDS: &[&str] = &[
    "issue", "pr", "ticket", "bug", "story", "task", "incident", "mr", "pull",
];
const NUMBER_WORDS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "numbers", "sum",
    "product",
];
const COORD_WORDS: &[&str] = &[
    "lat",
    "lng",
    "lon",
    "long",
    "latitude",
    "longitude",
    "coordinates",
    "coords",
];
const SQL_HEADS: &[&str] = &[
    "select", "insert", "update", "delete", "create", "alter", "drop",
];
const SQL_BODIES: &[&str] = &["from", "into", "set", "table", "where", "join", "index"];
/// Regular-expression pieces no file name or sentence has.
const REGEX_MARKS: &[&str] = &["\\(", "\\)", "\\.", "\\[", ".*", ".+", "(?", "[^"];
/// Regular-expression classes (`\d+`), when no letter follows (`C:\dana` is a path).
const REGEX_CLASSES: &[&str] = &["\\d", "\\w", "\\s", "\\b"];
/// Words near an ambiguous `name/name.js` that make it a repository.
const REPO_CONTEXT: &[&str] = &[
    "issue",
    "issues",
    "pr",
    "prs",
    "pull",
    "repo",
    "repository",
    "star",
    "stars",
    "fork",
    "clone",
    "release",
    "releases",
    "contributors",
    "commits",
    "branch",
    "branches",
];
/// Words before a number that make it a paper id.
const PAPER_WORDS: &[&str] = &["pmid", "pmcid", "doi", "arxiv"];

fn is_num(t: &str) -> bool {
    let t = t.strip_prefix('-').unwrap_or(t);
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        && t.chars().next().is_some_and(|c| c.is_ascii_digit())
}

fn is_ident(t: &str) -> bool {
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
        && t.chars().next().is_some_and(|c| c.is_alphabetic())
}

/// Kinds of one trimmed token (no surrounding spaces or punctuation), given
/// its ASCII lower case `l`.
fn token_kinds(tok: &str, l: &str) -> Kinds {
    if tok.bytes().all(|b| b.is_ascii_alphabetic()) {
        return word_kinds(tok, l); // a plain word: the common case, kept short
    }
    if l.starts_with("http://")
        || l.starts_with("https://")
        || l.starts_with("www.")
        || l.starts_with("ftp://")
        || l.starts_with("file://")
    {
        return Kind::Url.bit();
    }
    if let Some((local, domain)) = l.split_once('@') {
        if !local.is_empty() && domain.contains('.') && !domain.contains('/') {
            return Kind::Email.bit();
        }
    }
    if is_date(l) {
        return Kind::Date.bit();
    }
    if let Some(id) = l
        .strip_prefix("doi:")
        .or_else(|| l.strip_prefix("arxiv:"))
        .or_else(|| l.strip_prefix("pmid:"))
        .or_else(|| l.strip_prefix("pmcid:"))
    {
        if !id.is_empty() {
            return Kind::Paper.bit();
        }
    }
    // 10.1145/3297858.3304013: a DOI.
    if let Some((prefix, suffix)) = l.split_once('/') {
        if prefix.len() >= 7
            && prefix.starts_with("10.")
            && prefix[3..].chars().all(|c| c.is_ascii_digit())
            && !suffix.is_empty()
        {
            return Kind::Paper.bit();
        }
    }
    // [[-0.14,51.50],[-0.12,51.50],…]: a list of positions.
    if l.matches(',').count() >= 3
        && l.contains('.')
        && l.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '[' | ']'))
    {
        return Kind::Coords.bit();
    }
    if let Some((a, b)) = l.split_once(',') {
        if let (Ok(a), Ok(b)) = (a.parse::<f64>(), b.parse::<f64>()) {
            if a.fract() != 0.0 && b.fract() != 0.0 && a.abs() <= 90.0 && b.abs() <= 180.0 {
                return Kind::Coords.bit();
            }
        }
    }
    if let Some((a, b)) = l.split_once('/') {
        if COORD_WORDS.contains(&a) && COORD_WORDS.contains(&b) {
            return Kind::Coords.bit();
        }
    }
    if ZONE_PREFIXES.iter().any(|p| l.starts_with(p)) && l.len() > 6 {
        return Kind::TimeZone.bit();
    }
    if let Some(rest) = l.strip_prefix('#') {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return Kind::Issue.bit();
        }
    }
    if let Some(rest) = l.strip_prefix('#') {
        if rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && is_ident(rest) {
            return Kind::Channel.bit(); // #releases
        }
    }
    if let Some(rest) = l.strip_prefix('!') {
        if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
            return Kind::Issue.bit(); // !482, a merge request
        }
    }
    if let Some((repo, num)) = l.split_once('#') {
        if !repo.is_empty() && !num.is_empty() && num.chars().all(|c| c.is_ascii_digit()) {
            if repo.contains('/') {
                return Kind::Issue.bit() | Kind::Repo.bit();
            }
            if repo.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Kind::Issue.bit(); // AB#4521
            }
        }
    }
    // sc-12345: a lower-case key with three digits or more (not utf-8, covid-19).
    if let Some((key, num)) = l.split_once('-') {
        if (2..=6).contains(&key.len())
            && key.chars().all(|c| c.is_ascii_lowercase())
            && num.len() >= 3
            && num.chars().all(|c| c.is_ascii_digit())
        {
            return Kind::Issue.bit();
        }
    }
    if let Some(rest) = l.strip_prefix(['$', '€', '£', '¥']) {
        if is_num(rest) {
            return Kind::Money.bit();
        }
    }
    if is_regex(l) {
        return Kind::Pattern.bit();
    }
    if l.contains('*') || l.contains('?') && l.contains('.') {
        return Kind::Path.bit() | Kind::Pattern.bit();
    }
    let ext = l.rsplit_once('.');
    if l.contains('/') || l.contains('\\') {
        if let Some(host) = l.split('/').next() {
            if host.contains('.')
                && host
                    .rsplit('.')
                    .next()
                    .is_some_and(|tld| TLDS.contains(&tld))
            {
                return Kind::Url.bit();
            }
        }
        if l.starts_with('/')
            || l.starts_with("./")
            || l.starts_with("../")
            || l.starts_with("~/")
            || l.contains('\\')
            || l.matches('/').count() >= 2
            || ext.is_some_and(|(_, e)| EXTENSIONS.contains(&e))
        {
            return Kind::Path.bit();
        }
        let (a, b) = l.split_once('/').unwrap_or((l, ""));
        if is_ident(a) && is_ident(b) {
            return Kind::Repo.bit();
        }
        return Kind::Path.bit();
    }
    if let Some((stem, e)) = ext {
        if !stem.is_empty() && is_ident(stem) {
            if TLDS.contains(&e) && e != "md" {
                return Kind::Url.bit();
            }
            if EXTENSIONS.contains(&e) {
                return Kind::Path.bit();
            }
        }
    }
    // 2024-05-01, 05/01/2024, 15:30, 3pm
    let digits = l.chars().filter(char::is_ascii_digit).count();
    if digits >= 1 {
        let shape: String = l
            .chars()
            .map(|c| if c.is_ascii_digit() { '9' } else { c })
            .collect();
        if shape.starts_with("9999-99-99")
            || shape.contains("99:99")
            || shape.contains("9:99")
            || shape.ends_with("9am")
            || shape.ends_with("9pm")
            || shape.ends_with("9a.m")
            || shape.ends_with("9p.m")
        {
            return Kind::Date.bit();
        }
        if (7..=40).contains(&l.len())
            && l.chars().all(|c| c.is_ascii_hexdigit())
            && l.chars().any(|c| c.is_ascii_alphabetic())
            && digits >= 2
        {
            return Kind::Sha.bit();
        }
        let alpha_head = l.split(|c: char| c.is_ascii_digit()).next().unwrap_or("");
        if tok.chars().take_while(|c| c.is_ascii_uppercase()).count() >= 2
            && tok.contains('-')
            && tok
                .rsplit('-')
                .next()
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            && alpha_head.ends_with('-')
        {
            return Kind::Issue.bit();
        }
        // 5km, 20mb, 30s, 25°c
        let (num, unit) = l.split_at(
            l.find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(l.len()),
        );
        if is_num(num) && !unit.is_empty() && UNITS.contains(&unit) {
            return Kind::Quantity.bit();
        }
        if is_num(l) {
            return Kind::Number.bit();
        }
    }
    if l.ends_with("()") || tok.contains("::") {
        return Kind::Code.bit();
    }
    word_kinds(tok, l)
}

/// Kinds of a token past the value shapes: camelCase / PascalCase with an
/// inner capital or snake_case with letters (code), time zone and date words.
fn word_kinds(tok: &str, l: &str) -> Kinds {
    let inner_upper = tok.chars().skip(1).any(|c| c.is_ascii_uppercase())
        && tok.chars().any(|c| c.is_ascii_lowercase())
        && tok.chars().all(|c| c.is_ascii_alphanumeric());
    let snake = tok.contains('_')
        && tok.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && tok.chars().any(|c| c.is_ascii_alphabetic());
    if inner_upper || snake {
        return Kind::Code.bit();
    }
    if listed(ZONES, l) || (l.starts_with("utc") || l.starts_with("gmt")) && l.len() <= 6 {
        return Kind::TimeZone.bit();
    }
    if listed(DATE_WORDS, l) {
        return Kind::Date.bit();
    }
    0
}

/// `TODO\\(.*\\)`, `^v\\d+$`: a regular expression (not `C:\\dana\\x.txt`).
fn is_regex(l: &str) -> bool {
    let drive = l.as_bytes().get(1..3) == Some(b":\\");
    let class = REGEX_CLASSES.iter().any(|c| {
        l.match_indices(c).any(|(i, _)| {
            l[i + 2..]
                .chars()
                .next()
                .is_none_or(|n| !n.is_ascii_alphanumeric())
        })
    });
    !drive
        && (class
            || REGEX_MARKS.iter().any(|m| l.contains(m))
            || l.len() > 2 && l.starts_with('^') && l.ends_with('$'))
}

fn trim(tok: &str) -> (usize, &str) {
    let start = tok.len()
        - tok
            .trim_start_matches(['"', '\'', '`', '(', '[', '{', '<', ',', ';'])
            .len();
    let t = tok[start..]
        .trim_end_matches(['"', '\'', '`', ')', ']', '}', '>', ',', ';', ':', '!', '?']);
    let t = t.strip_suffix('.').unwrap_or(t);
    (start, t)
}

/// Detect the entities of a request.
pub(crate) fn detect(query: &str) -> Entities {
    let mut out = Entities::default();
    let mut toks: Vec<(usize, &str)> = Vec::new();
    let mut pos = 0;
    for raw in query.split_inclusive(char::is_whitespace) {
        let word = raw.trim_end();
        let (off, t) = trim(word);
        if !t.is_empty() {
            toks.push((pos + off, t));
        }
        pos += raw.len();
        if toks.len() >= 64 {
            break;
        }
    }
    // Each token's ASCII lower case, sliced from one lower-cased copy of the
    // query (ASCII lower-casing keeps every byte offset): no string per token.
    let lowered = query.to_ascii_lowercase();
    let lower: Vec<&str> = toks
        .iter()
        .map(|(at, t)| lowered.get(*at..*at + t.len()).unwrap_or(""))
        .collect();
    // A later step starts after "then" / "afterwards".
    let later = toks
        .iter()
        .zip(&lower)
        .find(|(_, l)| **l == "then" || **l == "afterwards")
        .map_or(usize::MAX, |((at, t), _)| at + t.len());
    // `pair_end`: tokens before this byte belong to a value already read
    // (the second number of a coordinate pair, a SQL statement, a schedule).
    let mut pair_end = 0;
    if let Some((a, b)) = cron(&toks) {
        add(&mut out, Kind::Schedule.bit(), toks[a].0, later);
        let end = toks[b - 1].0 + toks[b - 1].1.len();
        out.spans.push((toks[a].0, end, 0.0));
        if a == 0 {
            pair_end = end;
        }
    }
    if let Some(flags) = command(&toks) {
        add(&mut out, Kind::Command.bit(), 0, later);
        out.spans.extend(flags);
    }
    let repo_context = lower.iter().any(|w| listed(REPO_CONTEXT, w));
    for (i, (at, t)) in toks.iter().enumerate() {
        if *at < pair_end || out.weight_at(*at) == Some(0.0) {
            continue;
        }
        let l = lower[i];
        let mut k = token_kinds(t, l);
        let next = lower.get(i + 1).copied().unwrap_or("");
        let prev = if i > 0 { lower[i - 1] } else { "" };
        let plain = t.bytes().all(|b| b.is_ascii_alphabetic());
        if let Some(end) = address(&toks, i).filter(|_| !plain) {
            add(&mut out, Kind::Address.bit(), *at, later);
            pair_end = toks[end - 1].0 + toks[end - 1].1.len();
            out.spans.push((*at, pair_end, 0.5));
            continue;
        }
        if !plain && is_version(l) {
            k = Kind::Version.bit(); // v2.4.0: neither a number nor words
        }
        if is_num(l) && k == Kind::Number.bit() {
            // 48.85, 2.29 — two decimals in latitude/longitude range.
            let raw_next = toks.get(i + 1).map(|(_, t)| *t).unwrap_or("");
            if l.contains('.')
                && word_ends_with_comma(query, *at + t.len())
                && is_num(raw_next)
                && raw_next.contains('.')
            {
                if let (Ok(a), Ok(b)) = (l.parse::<f64>(), raw_next.parse::<f64>()) {
                    if a.abs() <= 90.0 && b.abs() <= 180.0 {
                        k = Kind::Coords.bit();
                        pair_end = toks[i + 1].0 + raw_next.len();
                        out.spans.push((*at, pair_end, word_weight(k)));
                    }
                }
            }
            if UNITS.contains(&next) {
                k = Kind::Quantity.bit();
            } else if CURRENCIES.contains(&next) || CURRENCIES.contains(&prev) {
                k = Kind::Money.bit();
            } else if PAPER_WORDS.contains(&prev) {
                k = Kind::Paper.bit();
            } else if ISSUE_WORDS.contains(&prev) && !l.contains('.') {
                k = Kind::Issue.bit();
            }
        }
        if listed(SQL_HEADS, l) && i == 0
            || (listed(SQL_HEADS, l) && t.chars().all(|c| c.is_ascii_uppercase()))
        {
            let body = lower[i + 1..]
                .iter()
                .take(12)
                .any(|w| SQL_BODIES.contains(w));
            if body && (l != "create" || next == "table" || next == "index") {
                k = Kind::Sql.bit();
                // The statement runs to a `;` or the end: its words are
                // values and clauses (`SET plan = 'pro'`), not request
                // verbs, and its `count(*)` and `1 day` are no path or quantity.
                let end = query[*at..].find(';').map_or(query.len(), |e| at + e);
                out.spans.push((*at, end, word_weight(k)));
                pair_end = end;
            }
        }
        if listed(NUMBER_WORDS, l) && k == 0 {
            out.kinds |= Kind::Number.bit();
            continue; // a word, not a value: its text still counts
        }
        if listed(COORD_WORDS, l) && l != "long" || k == Kind::Coords.bit() && l.contains('/') {
            out.kinds |= Kind::Coords.bit();
            continue; // "lat/lng": words asking for coordinates
        }
        if k & (Kind::Date.bit() | Kind::TimeZone.bit()) != 0 && t.chars().all(char::is_alphabetic)
        {
            add(&mut out, k, *at, later);
            continue; // "tomorrow", "UTC": words that also mean something
        }
        if k == Kind::Path.bit() && repo_context && repo_like(t) {
            k = Kind::Repo.bit(); // "vercel/next.js open issues"
        }
        let number = || t.rsplit(['#', '!']).next().unwrap_or(t);
        if k & Kind::Issue.bit() != 0 && number().chars().any(|c| c.is_ascii_alphabetic()) {
            out.text |= Kind::Issue.bit(); // ENG-982, not #982 or owner/repo#982
        }
        if k & Kind::Url.bit() != 0 {
            out.spans.extend(url_spans(*at, t));
        } else if k & !(Kind::Code.bit() | Kind::Issue.bit() | Kind::Number.bit()) == 0 {
            // cus_NffrFeUfNV2Hib: an id; its readable prefix still counts.
            let ids = if plain && t.len() < 12 {
                Vec::new()
            } else {
                opaque_spans(*at, t)
            };
            if !ids.is_empty() && !is_num(l) {
                out.ids |= *at < later;
                out.spans.extend(ids);
                k &= !Kind::Code.bit();
            }
        }
        if k != 0 {
            add(&mut out, k, *at, later);
            let w = word_weight(k);
            if w < 1.0 {
                out.spans.push((*at, *at + t.len(), w));
            }
        }
    }
    out.spans.extend(quoted(query));
    out
}

/// Record one value of kinds `k` at byte `at` (a second value of a kind
/// makes it "many"; values from byte `later` on belong to a later step).
fn add(out: &mut Entities, k: Kinds, at: usize, later: usize) {
    // Dates come in twos without filling two parameters ("today is …").
    out.many |= out.kinds & k & !Kind::Date.bit();
    if at >= later {
        out.later |= k & !out.kinds;
    } else {
        out.later &= !k;
    }
    out.kinds |= k;
}

/// `2023.3.1`, `12/03/2024`, `2024/05/01`: a year and two small numbers.
fn is_date(l: &str) -> bool {
    if !l.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let mut n = [(0u32, 0usize); 3];
    let mut parts = l.split(['.', '/']);
    for slot in &mut n {
        match parts.next() {
            Some(p) if (1..=4).contains(&p.len()) => {
                *slot = (p.parse().unwrap_or(u32::MAX), p.len());
            }
            _ => return false,
        }
    }
    let year = |(y, len): (u32, usize)| len == 4 && (1900..=2100).contains(&y);
    parts.next().is_none()
        && (year(n[0]) && n[1].0 <= 31 && n[2].0 <= 31
            || year(n[2]) && n[0].0 <= 31 && n[1].0 <= 31)
}

/// `1.4.0`, `v2.4.0`: three or more dotted numbers (not a dotted date).
fn is_version(l: &str) -> bool {
    if is_date(l) {
        return false;
    }
    let v = l.strip_prefix('v').unwrap_or(l);
    v.split('.').count() >= 3
        && v.split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// `vercel/next.js`: one slash between two names, no leading `./`, `~`, `/`.
fn repo_like(t: &str) -> bool {
    let Some((a, b)) = t.split_once('/') else {
        return false;
    };
    is_ident(a) && !a.contains('.') && is_ident(b) && !b.contains('/')
}

/// Weight of the words of a quoted value.
const QUOTED: f32 = 0.25;
/// Longest quoted value read as one, in bytes.
const QUOTE_MAX: usize = 80;

/// Quoted values ('fix typo', "Sales 2026", `wip`): text the user passes
/// on, not words that choose the tool. A quote opens at the start of a word
/// and closes at the end of one, so "what's" and "don't" quote nothing.
pub(super) fn quoted(query: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some((open, q)) = query[from..].char_indices().find(|&(i, c)| {
        matches!(c, '\'' | '"' | '`' | '\u{2018}' | '\u{201c}')
            && query[..from + i]
                .chars()
                .next_back()
                .is_none_or(|p| p.is_whitespace() || "([{:=,".contains(p))
    }) {
        let start = from + open + q.len_utf8();
        let close = match q {
            '\u{2018}' => '\u{2019}',
            '\u{201c}' => '\u{201d}',
            c => c,
        };
        let end = query[start..].char_indices().find(|&(i, c)| {
            c == close
                && query[start + i + c.len_utf8()..]
                    .chars()
                    .next()
                    .is_none_or(|n| !n.is_alphanumeric())
        });
        match end {
            Some((len, _)) if len > 0 && len <= QUOTE_MAX => {
                out.push((start, start + len, QUOTED));
                from = start + len + close.len_utf8();
            }
            _ => from = start,
        }
    }
    out
}

fn word_ends_with_comma(query: &str, end: usize) -> bool {
    query.get(end..).is_some_and(|r| r.starts_with(','))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(q: &str) -> Vec<&'static str> {
        let e = detect(q);
        KINDS
            .iter()
            .filter(|(k, _)| e.kinds & k.bit() != 0)
            .map(|(_, w)| *w)
            .collect()
    }

    #[test]
    fn a_sql_statement_is_one_value() {
        let q = "psql: UPDATE accounts SET plan='pro' WHERE id=42; then tell me";
        let e = detect(q);
        assert_eq!(e.weight_at(q.find("SET").unwrap_or(0)), Some(0.5));
        assert_eq!(e.weight_at(q.find("tell").unwrap_or(0)), None);
    }

    #[test]
    fn quoted_values_are_values() {
        let q = "commit with 'fix typo', don't push";
        let e = detect(q);
        assert_eq!(e.weight_at(q.find("fix").unwrap_or(0)), Some(QUOTED));
        assert_eq!(e.weight_at(q.find("push").unwrap_or(0)), None);
        assert_eq!(e.weight_at(q.find("don").unwrap_or(0)), None);
        assert!(quoted("what's up, it's fine").is_empty());
    }

    #[test]
    fn detects_the_values_users_paste() {
        assert_eq!(kinds("open https://example.com/a?b=1"), ["a URL"]);
        assert_eq!(kinds("fetch example.org/docs"), ["a URL"]);
        assert_eq!(kinds("give report.txt a new name"), ["a file path"]);
        assert_eq!(
            kinds("find all **/*.md files"),
            ["a file path", "a search pattern"]
        );
        assert_eq!(kinds("read ./src/main.rs"), ["a file path"]);
        assert_eq!(kinds("mail ann@example.com"), ["an email address"]);
        assert_eq!(kinds("what is at 48.8584, 2.2945?"), ["coordinates"]);
        assert_eq!(kinds("meet on 2024-05-01 at 3pm"), ["a date or time"]);
        assert_eq!(kinds("time in Europe/Paris"), ["a time zone"]);
        assert_eq!(
            kinds("send this customer a bill for $40"),
            ["an amount of money"]
        );
        assert_eq!(kinds("star facebook/react"), ["owner/repo"]);
        assert_eq!(kinds("close #42"), ["an issue reference"]);
        assert_eq!(kinds("move PROJ-123 to done"), ["an issue reference"]);
        assert_eq!(kinds("SELECT name FROM users"), ["SQL"]);
        assert_eq!(kinds("where is parseConfig defined"), ["a code identifier"]);
        assert_eq!(kinds("show commit 3fa9c2d1"), ["a commit SHA"]);
        assert_eq!(kinds("add 2 and 3"), ["numbers"]);
        assert_eq!(kinds("places within 5 km"), ["a quantity"]);
        assert!(kinds("create a github issue").is_empty());
    }

    #[test]
    fn detects_refs_patterns_schedules_papers_addresses_commands() {
        assert_eq!(
            kinds("#releases: v2.4.0 is out"),
            ["a channel", "a version"]
        );
        assert_eq!(
            kinds("!482 in acme/web"),
            ["owner/repo", "an issue reference"]
        );
        assert_eq!(kinds("AB#4521 set state"), ["an issue reference"]);
        assert_eq!(kinds("sc-12345 add a comment"), ["an issue reference"]);
        assert_eq!(kinds("TODO\\(.*\\) in the code"), ["a search pattern"]);
        assert_eq!(kinds("*/15 * * * * trigger"), ["a cron schedule"]);
        assert_eq!(kinds("10.1145/3297858.3304013 cites"), ["a paper id"]);
        assert_eq!(kinds("PMID 31452104: methods"), ["a paper id"]);
        assert_eq!(
            kinds("1600 Amphitheatre Parkway, Mountain View"),
            ["an address"]
        );
        assert_eq!(
            kinds("mkdir -p ~/projects/site"),
            ["a file path", "a command line"]
        );
        assert_eq!(kinds("today is 2023.10.1"), ["a date or time"]);
        assert_eq!(kinds("on 12/03/2024 please"), ["a date or time"]);
        assert_eq!(
            kinds("area of [[-0.14,51.50],[-0.12,51.50],[-0.12,51.52]]"),
            ["coordinates"]
        );
        assert_eq!(kinds("vercel/next.js open issues"), ["owner/repo"]);
    }

    #[test]
    fn look_alikes_are_not_those_values() {
        // Versions are not coordinates or numbers; a Windows path is no regex.
        assert_eq!(kinds("bump it to 1.4.0"), ["a version"]);
        assert_eq!(kinds("open C:\\Users\\dana\\todo.txt"), ["a file path"]);
        assert!(kinds("the covid-19 and utf-8 notes").is_empty());
        // A sentence with a period is not a file path, nor is a plain word a command.
        assert!(kinds("I saw it. Then I left").is_empty());
        assert!(kinds("find the notes in my drive").is_empty());
        assert!(kinds("3 Big Files in the folder").contains(&"numbers"));
        assert!(!kinds("3 Big Files in the folder").contains(&"an address"));
        assert_eq!(kinds("read src/main.rs"), ["a file path"]);
        assert_eq!(kinds("add 2.5 and 3.5"), ["numbers"]);
    }

    #[test]
    fn values_say_how_many_which_steps_and_whether_numbers() {
        let e = detect("what's 18:00 UTC in Australia/Sydney");
        assert_ne!(e.many & Kind::TimeZone.bit(), 0);
        let e = detect("status of ENG-982");
        assert_ne!(e.text & Kind::Issue.bit(), 0);
        let e = detect("open facebook/react#31415");
        assert_eq!(e.text & Kind::Issue.bit(), 0);
        let e = detect("check the time, then tell #team");
        assert_ne!(e.later & Kind::Channel.bit(), 0);
        let e = detect("today is 2023.10.1, show me March 3rd");
        assert_eq!(e.many & Kind::Date.bit(), 0);
    }

    #[test]
    fn id_and_url_pieces_are_no_words() {
        let q = "cancel sub_1NqJx2LkdIwHu7ixA0b";
        let e = detect(q);
        assert_eq!(e.weight_at(q.find("1Nq").unwrap_or(0)), Some(0.0));
        assert_eq!(e.weight_at(q.find("sub").unwrap_or(0)), None);
        assert_eq!(e.weight_at(0), None);
        let q = "https://app.shortcut.com/acme/story/4521 where";
        let e = detect(q);
        assert_eq!(e.weight_at(0), Some(0.0));
        assert_eq!(e.weight_at(q.find("shortcut").unwrap_or(0)), Some(0.5));
        assert_eq!(e.weight_at(q.find("4521").unwrap_or(0)), Some(0.0));
    }
}
