//! The `format` keyword's checks, with the verdicts of the `jsonschema` crate 0.61
//! (built without its `idna` feature) that this validator replaces.
//!
//! Which formats a draft knows, and whether it asserts them by default, follow that
//! crate; so does every verdict, down to its quirks (a leap second only at 23:59 UTC,
//! `Name <a@b.c>` as an email, punycode labels decoded and checked). The formats a
//! draft does not know (`idn-email`, `idn-hostname` and any other name) are ignored.
//! Hostnames and emails live in `format/host.rs`, URIs and IRIs in `format/uri.rs`;
//! `crates/jsonschema/tests/format_diff.rs` holds every verdict against the crate's.

mod host;
mod tables;
mod uri;

use serde_json::Value;

/// Whether `value` satisfies `format` under `draft` (4, 6, 7, 2019 or 2020); `None` when that draft does not know the format (ignored).
pub fn check(draft: u16, format: &str, value: &Value) -> Option<bool> {
    let check = checker(draft, format)?;
    Some(value.as_str().is_none_or(check))
}

/// Whether `format` is an assertion (not just an annotation) by default under `draft`, as jsonschema 0.61 does it with our options.
pub fn asserted_by_default(draft: u16) -> bool {
    matches!(draft, 4 | 6 | 7)
}

/// The check of a format `draft` knows.
fn checker(draft: u16, format: &str) -> Option<fn(&str) -> bool> {
    let since = |first: u16| draft >= first;
    let check: fn(&str) -> bool = match format {
        "date" => is_date,
        "date-time" => is_date_time,
        "time" => is_time,
        "duration" if since(2019) => is_duration,
        "email" => host::is_email,
        "hostname" if draft <= 6 => host::is_ascii_hostname,
        "hostname" => host::is_hostname,
        "ipv4" => |s| s.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => |s| s.parse::<std::net::Ipv6Addr>().is_ok(),
        "uri" => |s| uri::is_valid(s, false, true),
        "uri-reference" if since(6) => |s| uri::is_valid(s, false, false),
        "iri" if since(7) => |s| uri::is_valid(s, true, true),
        "iri-reference" if since(7) => |s| uri::is_valid(s, true, false),
        "uri-template" if since(6) => is_uri_template,
        "json-pointer" if since(6) => is_json_pointer,
        "relative-json-pointer" if since(7) => is_relative_json_pointer,
        "regex" => |s| holaryn_pattern::Pattern::new(s).is_ok(),
        "uuid" if since(2019) => is_uuid,
        _ => return None,
    };
    Some(check)
}

/// Two ASCII digits as a number.
fn two_digits(b: &[u8]) -> Option<u8> {
    match b {
        [h @ b'0'..=b'9', l @ b'0'..=b'9'] => Some((h - b'0') * 10 + (l - b'0')),
        _ => None,
    }
}

/// `YYYY-MM-DD`, a day that exists in the proleptic Gregorian calendar.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(hi), Some(lo)) = (two_digits(&b[0..2]), two_digits(&b[2..4])) else {
        return false;
    };
    let (Some(month), Some(day)) = (two_digits(&b[5..7]), two_digits(&b[8..10])) else {
        return false;
    };
    let year = u16::from(hi) * 100 + u16::from(lo);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let last = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=last).contains(&day)
}

/// `HH:MM:SS[.frac](Z|±HH:MM)`; second 60 only where it falls on 23:59 UTC.
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        two_digits(&b[..2]),
        two_digits(&b[3..5]),
        two_digits(&b[6..8]),
    ) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 8;
    if b[i] == b'.' {
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        i += 1 + digits;
    }
    let (hour, minute) = (i16::from(hour), i16::from(minute));
    let (utc_hour, utc_minute) = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => (hour, minute),
        Some(&sign @ (b'+' | b'-')) if b.len() - i == 6 && b[i + 3] == b':' => {
            let (Some(oh), Some(om)) = (two_digits(&b[i + 1..i + 3]), two_digits(&b[i + 4..]))
            else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let (oh, om) = (i16::from(oh), i16::from(om));
            let (h, m) = if sign == b'+' {
                (hour - oh, minute - om)
            } else {
                (hour + oh, minute + om)
            };
            let (h, m) = (h + m.div_euclid(60), m.rem_euclid(60));
            (h.rem_euclid(24), m)
        }
        _ => return false,
    };
    second != 60 || (utc_hour == 23 && utc_minute == 59)
}

/// A date, `T` (or `t`, the first one), and a time.
fn is_date_time(s: &str) -> bool {
    s.find(['T', 't'])
        .is_some_and(|t| is_date(&s[..t]) && is_time(&s[t + 1..]))
}

/// An RFC 3339 duration: `P` then date units `Y M D` in order, or `W` alone, then
/// `T` and time units `H M S` in order; a unit in the middle is never skipped.
fn is_duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match rest.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (rest, None),
    };
    if date.is_empty() && time.is_none() {
        return false;
    }
    let date_units = if date.ends_with('W') { "W" } else { "YMD" };
    if !units_in_order(date, date_units) || (date_units == "W" && time.is_some()) {
        return false;
    }
    time.is_none_or(|time| !time.is_empty() && units_in_order(time, "HMS"))
}

/// Whether `s` is `1*DIGIT unit` pieces, the first unit any of `units`, each next
/// one the unit right after the previous (so `1Y1D` without `M` fails).
fn units_in_order(s: &str, units: &str) -> bool {
    let units = units.as_bytes();
    let mut next = None;
    let mut rest = s.as_bytes();
    while !rest.is_empty() {
        let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        let Some(&unit) = rest.get(digits) else {
            return false;
        };
        let at = match next {
            None => units.iter().position(|&u| u == unit),
            Some(n) => (units.get(n) == Some(&unit)).then_some(n),
        };
        let Some(at) = at.filter(|_| digits > 0) else {
            return false;
        };
        next = Some(at + 1);
        rest = &rest[digits + 1..];
    }
    true
}

/// `""` or `/`-separated tokens where `~` is only `~0` or `~1`.
fn is_json_pointer(s: &str) -> bool {
    s.is_empty() || s.strip_prefix('/').is_some_and(tokens_ok)
}

/// The escapes of a pointer after its first `/`.
fn tokens_ok(s: &str) -> bool {
    let mut escaped = false;
    for c in s.bytes() {
        match c {
            b'0' | b'1' if escaped => escaped = false,
            _ if escaped => return false,
            b'~' => escaped = true,
            _ => {}
        }
    }
    !escaped
}

/// A non-negative integer (no leading zero) then `#`, a JSON pointer, or nothing.
fn is_relative_json_pointer(s: &str) -> bool {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits > 1 && s.starts_with('0')) {
        return false;
    }
    let rest = &s[digits..];
    rest.is_empty() || rest == "#" || is_json_pointer(rest) && rest.starts_with('/')
}

/// 8-4-4-4-12 hexadecimal digits, either case.
fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// An RFC 6570 level-4 URI template (apostrophes allowed, erratum 6937).
fn is_uri_template(s: &str) -> bool {
    let mut rest = s.as_bytes();
    while let Some((&c, tail)) = rest.split_first() {
        rest = match c {
            b'{' => match expression(tail) {
                Some(tail) => tail,
                None => return false,
            },
            b'%' => match pct(tail) {
                Some(tail) => tail,
                None => return false,
            },
            0..=0x20 | b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'|' | b'}' | 0x7F => {
                return false
            }
            _ => tail,
        };
    }
    true
}

/// After `%`: two hex digits.
fn pct(s: &[u8]) -> Option<&[u8]> {
    match s {
        [a, b, rest @ ..] if a.is_ascii_hexdigit() && b.is_ascii_hexdigit() => Some(rest),
        _ => None,
    }
}

/// After `{`: an operator, varspecs separated by `,`, then `}`.
fn expression(s: &[u8]) -> Option<&[u8]> {
    let mut s = match s.split_first()? {
        (b'+' | b'#' | b'.' | b'/' | b';' | b'?' | b'&' | b'=' | b',' | b'!' | b'@' | b'|', t) => t,
        _ => s,
    };
    loop {
        s = varspec(s)?;
        match s.split_first()? {
            (b',', tail) => s = tail,
            (b'}', tail) => return Some(tail),
            _ => return None,
        }
    }
}

/// A varname of `varchar *( ["."] varchar )` then `:1-9999` prefix or `*`.
fn varspec(mut s: &[u8]) -> Option<&[u8]> {
    let mut after_dot = true;
    loop {
        (s, after_dot) = match s.split_first() {
            Some((c, t)) if c.is_ascii_alphanumeric() || *c == b'_' => (t, false),
            Some((b'%', t)) => (pct(t)?, false),
            Some((b'.', t)) if !after_dot => (t, true),
            _ if after_dot => return None,
            _ => break,
        };
    }
    match s.split_first() {
        Some((b':', t)) => {
            let n = t.iter().take(4).take_while(|c| c.is_ascii_digit()).count();
            (n > 0 && t[0] != b'0').then_some(&t[n..])
        }
        Some((b'*', t)) => Some(t),
        _ => Some(s),
    }
}
