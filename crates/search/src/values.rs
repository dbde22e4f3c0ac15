//! Value shapes inside and across request tokens, for [`super::entities`]:
//! which parts of a URL still say something (its host names the service, its
//! path words the object; scheme, `www`, TLD and ids say nothing), opaque ids
//! (`cus_NffrFeUfNV2Hib`, `api-7d9f8b6c5-x2k4q`: their pieces are no words),
//! and the multi-token values: cron schedules, street addresses, command lines.

/// A weighted byte range of the query: (start, end, weight of its words).
pub(crate) type Span = (usize, usize, f32);

/// Weight of the host's main label (`gitlab` in `gitlab.com`).
const HOST: f32 = 0.5;
/// Weight of a URL's path words (`story` in `…/acme/story/4521`).
const PATH: f32 = 0.5;
/// Host labels that name no service (`www.`, `app.`, `api.`).
const GENERIC_HOST: &[&str] = &["www", "app", "api", "m", "web", "en"];

/// Whether one segment of an identifier looks random: five characters or
/// more, with a digit, switching between lower case, upper case and digits
/// at least four times (`7d9f8b6c5`, `x2k4q`, `1NqJx2Lkd`; not `h264`,
/// `utf8`, `win32api`, `iPhone15`). Base64 padding does not count
/// (`AAMkAGE1…BGAAA=`, an Outlook message id).
pub(crate) fn opaque(seg: &str) -> bool {
    let seg = seg.trim_end_matches('=');
    let class = |c: char| {
        if c.is_ascii_digit() {
            0
        } else if c.is_ascii_uppercase() {
            1
        } else {
            2
        }
    };
    if seg.len() < 5 || !seg.chars().all(|c| c.is_ascii_alphanumeric()) {
        return false;
    }
    let digits = seg.chars().filter(char::is_ascii_digit).count();
    let changes = seg
        .chars()
        .zip(seg.chars().skip(1))
        .filter(|(a, b)| class(*a) != class(*b))
        .count();
    (digits > 0 && changes >= 4) || (seg.len() >= 12 && changes >= 6)
}

/// Spans of the opaque segments of a token at `at` (split on `_ - . :`),
/// weight 0: a random id's letters and digits match nothing meaningful.
pub(crate) fn opaque_spans(at: usize, tok: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut from = 0;
    for seg in tok.split(['_', '-', '.', ':']) {
        if opaque(seg) || (seg.len() >= 4 && seg.chars().all(|c| c.is_ascii_digit())) {
            out.push((at + from, at + from + seg.len(), 0.0));
        }
        from += seg.len() + 1;
    }
    out
}

/// Sub-spans of a URL token at `at`: scheme, `www`, generic host labels and
/// the TLD weigh nothing, the host's main label is the service (full weight),
/// path words half, path segments with digits (ids, numbers) and the query
/// string nothing. Words not covered keep the URL's own weight.
pub(crate) fn url_spans(at: usize, tok: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let host_at = tok.find("://").map_or(0, |i| i + 3);
    out.push((at, at + host_at, 0.0));
    let rest = &tok[host_at..];
    let host_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..host_len];
    let labels: Vec<&str> = host.split('.').collect();
    let main = labels.len().saturating_sub(2);
    let mut from = at + host_at;
    for (i, label) in labels.iter().enumerate() {
        let generic = GENERIC_HOST.contains(&label.to_ascii_lowercase().as_str());
        let w = if i + 1 == labels.len() || generic || label.contains(':') {
            0.0
        } else if i == main {
            HOST
        } else {
            0.25
        };
        out.push((from, from + label.len(), w));
        from += label.len() + 1;
    }
    let path_at = at + host_at + host_len;
    let path = &tok[host_at + host_len..];
    let query = path.find(['?', '#']).unwrap_or(path.len());
    let mut from = path_at;
    for seg in path[..query].split('/') {
        let w = if seg.chars().any(|c| c.is_ascii_digit()) {
            0.0
        } else {
            PATH
        };
        out.push((from, from + seg.len(), w));
        from += seg.len() + 1;
    }
    out.push((path_at + query, at + tok.len(), 0.0));
    out
}

/// Whether a token is one field of a cron schedule (`*/15`, `0`, `1-5`, `*`).
fn cron_field(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= 12
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '*' | '/' | ',' | '-' | '?'))
}

/// A cron schedule: five (or six) consecutive cron fields, one with a `*`.
/// Returns the index of the first and past the last token.
pub(crate) fn cron(toks: &[(usize, &str)]) -> Option<(usize, usize)> {
    let mut i = 0;
    while i + 5 <= toks.len() {
        let n = toks[i..]
            .iter()
            .take(6)
            .take_while(|(_, t)| cron_field(t))
            .count();
        if n >= 5 && toks[i..i + n].iter().any(|(_, t)| t.contains('*')) {
            return Some((i, i + n));
        }
        i += n.max(1);
    }
    None
}

/// Street types closing the street part of an address.
const STREET: &[&str] = &[
    "street",
    "st",
    "avenue",
    "ave",
    "road",
    "rd",
    "boulevard",
    "blvd",
    "parkway",
    "pkwy",
    "lane",
    "ln",
    "drive",
    "dr",
    "way",
    "court",
    "ct",
    "place",
    "pl",
    "square",
    "highway",
    "hwy",
    "terrace",
    "strasse",
    "straße",
    "rue",
];

/// A street address starting at token `i`: a house number, one to four
/// capitalised words ending in a street type ("1600 Amphitheatre Parkway"),
/// then the capitalised words and codes of its town ("Mountain View, CA").
/// Returns the index past its last token.
pub(crate) fn address(toks: &[(usize, &str)], i: usize) -> Option<usize> {
    let (_, num) = toks.get(i)?;
    if num.is_empty() || num.len() > 5 || !num.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let capital = |t: &str| t.chars().next().is_some_and(char::is_uppercase);
    let mut j = i + 1;
    while j < toks.len() && j <= i + 4 && capital(toks[j].1) {
        let w = toks[j].1.trim_end_matches(',').to_lowercase();
        j += 1;
        if STREET.contains(&w.as_str()) && j > i + 2 {
            while j < toks.len()
                && (capital(toks[j].1) || toks[j].1.chars().all(|c| c.is_ascii_digit()))
            {
                j += 1;
            }
            return Some(j);
        }
    }
    None
}

/// Shell commands a request may paste as a command line (not those that are
/// also everyday verbs: "find", "make", "touch").
const COMMANDS: &[&str] = &[
    "mv",
    "cp",
    "rm",
    "mkdir",
    "rmdir",
    "ls",
    "cat",
    "grep",
    "curl",
    "wget",
    "kubectl",
    "docker",
    "git",
    "npm",
    "npx",
    "pip",
    "python",
    "node",
    "psql",
    "mysql",
    "chmod",
    "chown",
    "tar",
    "ssh",
    "scp",
    "rsync",
    "sed",
    "awk",
    "helm",
    "terraform",
    "aws",
    "gcloud",
    "az",
    "gh",
    "heroku",
    "cargo",
];

/// A command line: the request starts with a shell command followed, later,
/// by a flag (`-p`) or a path (`~/x`, `./x`, `/x`). Returns the spans of its
/// flags (weight 0: `-p` is no word).
pub(crate) fn command(toks: &[(usize, &str)]) -> Option<Vec<Span>> {
    let (_, head) = toks.first()?;
    if !COMMANDS.contains(&head.to_ascii_lowercase().as_str()) {
        return None;
    }
    let argy = |t: &str| {
        t.starts_with('-') && t.len() > 1 && !t[1..].starts_with('-') || t.starts_with("--")
    };
    let pathy = |t: &str| t.starts_with(['~', '/']) || t.starts_with("./");
    if !toks[1..].iter().any(|(_, t)| argy(t) || pathy(t)) {
        return None;
    }
    Some(
        toks[1..]
            .iter()
            .filter(|(_, t)| argy(t))
            .map(|(at, t)| (*at, at + t.len(), 0.0))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(q: &str) -> Vec<(usize, &str)> {
        let mut out = Vec::new();
        let mut pos = 0;
        for raw in q.split_inclusive(' ') {
            out.push((pos, raw.trim_end()));
            pos += raw.len();
        }
        out
    }

    #[test]
    fn random_ids_are_opaque_words_are_not() {
        for id in [
            "7d9f8b6c5",
            "x2k4q",
            "1NqJx2LkdIwHu7ixA0b",
            "NffrFeUfNV2Hib",
            "AAMkAGE1M2IyNGNmLTI5MTgtNDUyZi1iMzVjLTQ5ZjkxMzM0NmE1NQBGAAA=",
        ] {
            assert!(opaque(id), "{id}");
        }
        for w in [
            "h264",
            "utf8",
            "win32api",
            "iPhone15",
            "parseConfig",
            "report",
            "2024",
            "v2",
        ] {
            assert!(!opaque(w), "{w}");
        }
        let spans = opaque_spans(10, "cus_NffrFeUfNV2Hib");
        assert_eq!(spans, vec![(14, 28, 0.0)]);
    }

    #[test]
    fn a_url_host_names_the_service_its_scheme_says_nothing() {
        let u = "https://app.shortcut.com/acme/story/4521";
        let spans = url_spans(0, u);
        let at = |w: &str| {
            let i = u.find(w).unwrap_or(0);
            spans
                .iter()
                .find(|(s, e, _)| i >= *s && i < *e)
                .map(|s| s.2)
        };
        assert_eq!(at("https"), Some(0.0));
        assert_eq!(at("app"), Some(0.0));
        assert_eq!(at("shortcut"), Some(HOST));
        assert_eq!(at("com"), Some(0.0));
        assert_eq!(at("story"), Some(PATH));
        assert_eq!(at("4521"), Some(0.0));
    }

    #[test]
    fn multi_token_values() {
        assert_eq!(cron(&toks("*/15 * * * * trigger my job")), Some((0, 5)));
        assert_eq!(cron(&toks("add 1 2 3 4 5 and 6")), None);
        let q = "1600 Amphitheatre Parkway, Mountain View, CA -> lat/lng";
        assert_eq!(address(&toks(q), 0), Some(6));
        assert_eq!(address(&toks("3 Big Files in the folder"), 0), None);
        let flags = command(&toks("mkdir -p ~/projects/site")).unwrap_or_default();
        assert_eq!(flags, vec![(6, 8, 0.0)]);
        assert!(command(&toks("git commit my changes")).is_none());
        assert!(command(&toks("find the notes about ~/x")).is_none());
        assert!(command(&toks("ls ~/x")).is_some());
    }
}
