//! RFC 3986 URI references: split into parts, resolve a reference against a
//! base (section 5.2) and normalise scheme/host case and dot segments —
//! enough for `$id`/`$ref` resolution without a URL crate.

/// A URI reference split as RFC 3986 appendix B splits it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(s: &str) -> Parts<'_> {
    let (rest, fragment) = match s.find('#') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (rest, query) = match rest.find('?') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.find(':') {
        Some(i) if is_scheme(&rest[..i]) => (Some(&rest[..i]), &rest[i + 1..]),
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// RFC 3986 5.2.4: remove `.` and `..` segments.
fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut input = path;
    let absolute = path.starts_with('/');
    if absolute {
        input = &input[1..];
    }
    let segments: Vec<&str> = input.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut trailing = false;
    for (i, seg) in segments.iter().enumerate() {
        match *seg {
            "." => trailing = i == last,
            ".." => {
                out.pop();
                trailing = i == last;
            }
            s => {
                out.push(s);
                trailing = false;
            }
        }
    }
    let mut result = if absolute {
        "/".to_string()
    } else {
        String::new()
    };
    result.push_str(&out.join("/"));
    if trailing && !result.ends_with('/') {
        result.push('/');
    }
    result
}

fn merge(base: &Parts<'_>, reference: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{reference}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{reference}", &base.path[..=i]),
        None => reference.to_string(),
    }
}

fn assemble(
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) -> String {
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(&s.to_ascii_lowercase());
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(&a.to_ascii_lowercase());
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Resolve `reference` against the absolute `base` (RFC 3986 5.2.2).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = split(reference);
    let b = split(base);
    if r.scheme.is_some() {
        let path = remove_dot_segments(r.path);
        return assemble(r.scheme, r.authority, &path, r.query, r.fragment);
    }
    let (authority, path, query) = if r.authority.is_some() {
        (r.authority, remove_dot_segments(r.path), r.query)
    } else if r.path.is_empty() {
        (b.authority, b.path.to_string(), r.query.or(b.query))
    } else if r.path.starts_with('/') {
        (b.authority, remove_dot_segments(r.path), r.query)
    } else {
        (
            b.authority,
            remove_dot_segments(&merge(&b, r.path)),
            r.query,
        )
    };
    assemble(b.scheme, authority, &path, query, r.fragment)
}

/// Split an absolute URI into the part before `#` and the fragment.
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.find('#') {
        Some(i) => (&uri[..i], &uri[i + 1..]),
        None => (uri, ""),
    }
}

/// Decode `%XX` escapes (invalid ones stay as written).
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(b) = hex {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3986_examples_resolve() {
        let base = "http://a/b/c/d;p?q";
        let cases = [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("urn:x:y", "urn:x:y"),
        ];
        for (r, want) in cases {
            assert_eq!(resolve(base, r), want, "{r}");
        }
        assert_eq!(resolve("json-schema:///", "#/a"), "json-schema:///#/a");
        assert_eq!(percent_decode("a%25b%22"), "a%b\"");
    }
}
