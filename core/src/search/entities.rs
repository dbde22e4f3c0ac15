//! Entities in a request: the values a user pastes or names (a URL, a file
//! path or glob, an email address, coordinates, a date, time or time zone, a
//! number with a unit, an amount of money, `owner/repo`, an issue reference,
//! SQL, a code identifier, a commit SHA). Detection is token-shaped and
//! linear in the query; [`super::fit`] scores tools whose parameters take them.

/// One kind of entity; its bit in a [`Kinds`] mask is `1 << kind as u16`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
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
}

/// A set of [`Kind`]s.
pub type Kinds = u16;

/// Every kind, in order, with the phrase `why` uses ("takes a URL").
pub const KINDS: [(Kind, &str); 14] = [
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
];

impl Kind {
    /// This kind's bit.
    pub fn bit(self) -> Kinds {
        1 << self as u16
    }
}

/// What a request carries: entity kinds, and the byte spans they cover
/// (their words count little as search words).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Entities {
    /// Kinds found.
    pub kinds: Kinds,
    /// Byte ranges of entity text in the query, with the weight their words keep.
    pub spans: Vec<(usize, usize, f32)>,
}

impl Entities {
    /// The weight of a word at byte offset `at` if it lies inside an entity.
    pub fn weight_at(&self, at: usize) -> Option<f32> {
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

/// Kinds of one trimmed token (no surrounding spaces or punctuation).
fn token_kinds(tok: &str) -> Kinds {
    let lower = tok.to_ascii_lowercase();
    let l = lower.as_str();
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
    if let Some((repo, num)) = l.split_once('#') {
        if repo.contains('/') && !num.is_empty() && num.chars().all(|c| c.is_ascii_digit()) {
            return Kind::Issue.bit() | Kind::Repo.bit();
        }
    }
    if let Some(rest) = l.strip_prefix(['$', '€', '£', '¥']) {
        if is_num(rest) {
            return Kind::Money.bit();
        }
    }
    if l.contains('*') || l.contains('?') && l.contains('.') {
        return Kind::Path.bit();
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
    // camelCase / PascalCase with an inner capital, snake_case with letters.
    let inner_upper = tok.chars().skip(1).any(|c| c.is_ascii_uppercase())
        && tok.chars().any(|c| c.is_ascii_lowercase())
        && tok.chars().all(|c| c.is_ascii_alphanumeric());
    let snake = tok.contains('_')
        && tok.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && tok.chars().any(|c| c.is_ascii_alphabetic());
    if inner_upper || snake {
        return Kind::Code.bit();
    }
    if ZONES.contains(&l) || (l.starts_with("utc") || l.starts_with("gmt")) && l.len() <= 6 {
        return Kind::TimeZone.bit();
    }
    if DATE_WORDS.contains(&l) {
        return Kind::Date.bit();
    }
    0
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
pub fn detect(query: &str) -> Entities {
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
    let lower: Vec<String> = toks.iter().map(|(_, t)| t.to_ascii_lowercase()).collect();
    let mut pair_end = 0;
    for (i, (at, t)) in toks.iter().enumerate() {
        if *at < pair_end {
            continue; // the second number of a coordinate pair
        }
        let mut k = token_kinds(t);
        let l = lower[i].as_str();
        let next = lower.get(i + 1).map(String::as_str).unwrap_or("");
        let prev = if i > 0 { lower[i - 1].as_str() } else { "" };
        if is_num(l) {
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
                        out.spans.push((*at, pair_end, 0.25));
                    }
                }
            }
            if UNITS.contains(&next) {
                k = Kind::Quantity.bit();
            } else if CURRENCIES.contains(&next) || CURRENCIES.contains(&prev) {
                k = Kind::Money.bit();
            } else if ISSUE_WORDS.contains(&prev) && !l.contains('.') {
                k = Kind::Issue.bit();
            }
        }
        if SQL_HEADS.contains(&l) && i == 0
            || (SQL_HEADS.contains(&l) && t.chars().all(|c| c.is_ascii_uppercase()))
        {
            let body = lower[i + 1..]
                .iter()
                .take(12)
                .any(|w| SQL_BODIES.contains(&w.as_str()));
            if body && (l != "create" || next == "table" || next == "index") {
                k |= Kind::Sql.bit();
                // The statement runs to a `;` or the end: its words are
                // values and clauses (`SET plan = 'pro'`), not request verbs.
                let end = query[*at..].find(';').map_or(query.len(), |e| at + e);
                out.spans.push((*at, end, word_weight(Kind::Sql.bit())));
            }
        }
        if NUMBER_WORDS.contains(&l) && k == 0 {
            k = Kind::Number.bit();
            out.kinds |= k;
            continue; // a word, not a value: its text still counts
        }
        if COORD_WORDS.contains(&l) && l != "long" {
            out.kinds |= Kind::Coords.bit();
            continue;
        }
        if k & (Kind::Date.bit() | Kind::TimeZone.bit()) != 0 && t.chars().all(char::is_alphabetic)
        {
            out.kinds |= k;
            continue; // "tomorrow", "UTC": words that also mean something
        }
        if k != 0 {
            out.kinds |= k;
            let w = word_weight(k);
            if w < 1.0 {
                out.spans.push((*at, *at + t.len(), w));
            }
        }
    }
    out.spans.extend(quoted(query));
    out
}

/// Weight of the words of a quoted value.
const QUOTED: f32 = 0.25;
/// Longest quoted value read as one, in bytes.
const QUOTE_MAX: usize = 80;

/// Quoted values ('fix typo', "Sales 2026", `wip`): text the user passes
/// on, not words that choose the tool. A quote opens at the start of a word
/// and closes at the end of one, so "what's" and "don't" quote nothing.
fn quoted(query: &str) -> Vec<(usize, usize, f32)> {
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
        assert_eq!(kinds("find all **/*.md files"), ["a file path"]);
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
}
