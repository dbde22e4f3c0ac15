//! `hostname` and `email` as jsonschema 0.61 checks them: RFC 1123 labels, punycode
//! A-labels decoded and held to RFC 5892's letters-marks-digits rule, and emails parsed
//! the way the `email_address` crate 0.2.10 does with its default options (display
//! text and domain literals allowed), then an ASCII local part and a checked domain.

use super::tables::{ALPHABETIC_NOT_PVALID, DECIMAL, MARKS};
use std::net::{Ipv4Addr, Ipv6Addr};

/// An ASCII hostname: 1–253 bytes, no trailing dot, labels of 1–63 letters, digits
/// and inner hyphens (the draft 4 and 6 rule).
pub(super) fn is_ascii_hostname(s: &str) -> bool {
    let label_ok = |l: &str| {
        (1..=63).contains(&l.len())
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    s.len() <= 253 && s.split('.').all(label_ok)
}

/// An ASCII hostname whose `??--` labels are `xn--` A-labels that decode to a valid
/// Unicode label.
pub(super) fn is_hostname(s: &str) -> bool {
    is_ascii_hostname(s)
        && s.split('.').all(|label| match label.strip_prefix("xn--") {
            Some(payload) => decode_punycode(payload).is_some_and(|u| unicode_label_ok(&u)),
            None => label.get(2..4) != Some("--"),
        })
}

/// Decodes an RFC 3492 punycode payload (the A-label after `xn--`).
fn decode_punycode(input: &str) -> Option<String> {
    const BASE: u32 = 36;
    let (basic, encoded) = match input.rfind('-') {
        Some(at) if at > 0 => (&input[..at], &input[at + 1..]),
        _ => ("", input),
    };
    let mut out: Vec<char> = basic.chars().collect();
    let (mut code, mut index, mut bias) = (128u32, 0u32, 72u32);
    let mut digits = encoded.bytes();
    while digits.len() > 0 {
        let previous = index;
        let (mut weight, mut k) = (1u32, BASE);
        loop {
            let digit = match digits.next()? {
                b @ b'0'..=b'9' => u32::from(b - b'0') + 26,
                b @ b'A'..=b'Z' => u32::from(b - b'A'),
                b @ b'a'..=b'z' => u32::from(b - b'a'),
                _ => return None,
            };
            index = index.checked_add(digit.checked_mul(weight)?)?;
            let threshold = k.saturating_sub(bias).clamp(1, 26);
            if digit < threshold {
                break;
            }
            weight = weight.checked_mul(BASE - threshold)?;
            k += BASE;
        }
        let count = u32::try_from(out.len()).ok()? + 1;
        let mut delta = (index - previous) / if previous == 0 { 700 } else { 2 };
        delta += delta / count;
        bias = 0;
        while delta > 455 {
            delta /= 35;
            bias += BASE;
        }
        bias += 36 * delta / (delta + 38);
        code = code.checked_add(index / count)?;
        index %= count;
        out.insert(index as usize, char::from_u32(code)?);
        index += 1;
    }
    Some(out.into_iter().collect())
}

/// Whether packed range table `table` holds `c`.
fn holds(table: &[u32], c: char) -> bool {
    let c = c as u32;
    let at = table.partition_point(|&r| r >> 11 <= c);
    at > 0 && c - (table[at - 1] >> 11) <= table[at - 1] & 0x7FF
}

/// General category Mn, Mc or Me.
fn is_mark(c: char) -> bool {
    holds(&MARKS, c)
}

/// A letter (not Nl), a non-enclosing mark or a decimal digit: RFC 5892's PVALID core.
fn is_pvalid(c: char) -> bool {
    let enclosing = matches!(c, '\u{488}'..='\u{489}' | '\u{1ABE}' | '\u{20DD}'..='\u{20E0}'
        | '\u{20E2}'..='\u{20E4}' | '\u{A670}'..='\u{A672}');
    (c.is_alphabetic() && !holds(&ALPHABETIC_NOT_PVALID, c))
        || (is_mark(c) && !enclosing)
        || holds(&DECIMAL, c)
}

/// Viramas, the marks a ZERO WIDTH JOINER may follow (RFC 5892 A.2).
const VIRAMAS: [char; 50] = [
    '\u{094D}',
    '\u{09CD}',
    '\u{0A4D}',
    '\u{0ACD}',
    '\u{0B4D}',
    '\u{0BCD}',
    '\u{0C4D}',
    '\u{0CCD}',
    '\u{0D4D}',
    '\u{0DCA}',
    '\u{0E3A}',
    '\u{0F84}',
    '\u{1039}',
    '\u{1714}',
    '\u{1734}',
    '\u{17D2}',
    '\u{1A60}',
    '\u{1B44}',
    '\u{1BAA}',
    '\u{1BF2}',
    '\u{1BF3}',
    '\u{2D7F}',
    '\u{A806}',
    '\u{A8C4}',
    '\u{A953}',
    '\u{ABED}',
    '\u{10A3F}',
    '\u{11046}',
    '\u{1107F}',
    '\u{110B9}',
    '\u{11133}',
    '\u{111C0}',
    '\u{11235}',
    '\u{112EA}',
    '\u{1134D}',
    '\u{11442}',
    '\u{114C2}',
    '\u{115BF}',
    '\u{1163F}',
    '\u{116B6}',
    '\u{1172B}',
    '\u{11839}',
    '\u{119E0}',
    '\u{11A34}',
    '\u{11A47}',
    '\u{11A99}',
    '\u{11C3F}',
    '\u{11D44}',
    '\u{11D45}',
    '\u{11D97}',
];

/// A decoded U-label under RFC 5892's contextual rules, as jsonschema applies them.
fn unicode_label_ok(label: &str) -> bool {
    let chars: Vec<char> = label.chars().collect();
    if chars.first().is_some_and(|&c| is_mark(c)) {
        return false;
    }
    let has = |lo: char, hi: char| chars.iter().any(|c| (lo..=hi).contains(c));
    if chars.contains(&'\u{30FB}')
        && !(has('\u{3040}', '\u{30FA}')
            || has('\u{30FC}', '\u{30FF}')
            || has('\u{4E00}', '\u{9FFF}'))
    {
        return false;
    }
    if has('\u{0660}', '\u{0669}') && has('\u{06F0}', '\u{06F9}') {
        return false;
    }
    chars.iter().enumerate().all(|(i, &c)| {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        match c {
            '\u{200D}' => prev.is_some_and(|p| VIRAMAS.contains(&p)),
            '\u{00B7}' => prev == Some('l') && next == Some('l'),
            '\u{0375}' => next.is_some_and(|n| ('\u{0370}'..='\u{03FF}').contains(&n)),
            '\u{05F3}' | '\u{05F4}' => prev.is_some_and(|p| ('\u{0590}'..='\u{05FF}').contains(&p)),
            '\u{0640}'
            | '\u{07FA}'
            | '\u{302E}'
            | '\u{302F}'
            | '\u{3031}'..='\u{3035}'
            | '\u{303B}' => false,
            // Exceptions to the category rule, and the scripts jsonschema only records.
            '\u{200C}'
            | '\u{06FD}'
            | '\u{06FE}'
            | '\u{0F0B}'
            | '\u{3007}'
            | '\u{0660}'..='\u{0669}'
            | '\u{06F0}'..='\u{06F9}'
            | '\u{3040}'..='\u{30FF}'
            | '\u{4E00}'..='\u{9FFF}' => true,
            c => c.is_ascii() || is_pvalid(c),
        }
    })
}

/// An email address as jsonschema takes it: `""@domain` as `"a"@domain`, else what
/// `email_address` 0.2.10 parses with its default options (display text `Name <addr>`
/// allowed), with an ASCII local part, and a domain that is a hostname or a bracketed
/// IPv4 or `IPv6:` literal. Those domain rules are stricter than `email_address`'s
/// (ASCII, 253 bytes, bracket contents), so its own domain check never decides.
pub(super) fn is_email(s: &str) -> bool {
    if let Some(domain) = s.strip_prefix("\"\"@") {
        let mut quoted = String::from("\"a\"@");
        quoted.push_str(domain);
        return is_email(&quoted);
    }
    let (display, email) = match display_separator(s) {
        Some(at) => match s[at + 2..].trim().strip_suffix('>') {
            Some(email) => (s[..at].trim(), email),
            None => return false,
        },
        None => ("", s),
    };
    let Some((local, domain)) = email.rsplit_once('@') else {
        return false;
    };
    if (display.is_empty() && local.starts_with('<')) || !local_part_ok(local) {
        return false;
    }
    match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => {
                literal[5..].parse::<Ipv6Addr>().is_ok()
            }
            _ => literal.parse::<Ipv4Addr>().is_ok(),
        },
        None => is_hostname(domain),
    }
}

/// An ASCII local part of 1–64 bytes: a dot-atom, or a quoted string of RFC 5322
/// `qtext`, spaces, tabs and `\` + VCHAR pairs.
fn local_part_ok(local: &str) -> bool {
    let atext = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b);
    if !local.is_ascii() || local.is_empty() || local.len() > 64 {
        return false;
    }
    let Some(quoted) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) else {
        return local
            .split('.')
            .all(|a| !a.is_empty() && a.bytes().all(atext));
    };
    let mut bytes = quoted.bytes();
    while let Some(b) = bytes.next() {
        let ok = match b {
            b'\\' => bytes.next().is_some_and(|n| matches!(n, 0x21..=0x7E)),
            _ => matches!(b, b' ' | b'\t' | 0x21 | 0x23..=0x5B | 0x5D..=0x7E),
        };
        if !ok {
            return false;
        }
    }
    !quoted.is_empty()
}

/// The byte offset of the last ` <` outside double quotes.
fn display_separator(s: &str) -> Option<usize> {
    let (mut quoted, mut escaped, mut found) = (false, false, None);
    for (i, c) in s.char_indices() {
        if !quoted && s[i..].starts_with(" <") {
            found = Some(i);
        }
        if escaped {
            escaped = false;
        } else if quoted && c == '\\' {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        }
    }
    found
}
