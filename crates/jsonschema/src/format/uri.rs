//! RFC 3986 URIs and RFC 3987 IRIs (and their references), read the way `fluent-uri`
//! 0.4, which jsonschema 0.61 uses, reads them: syntax only, one pass, no allocation.

use std::net::Ipv6Addr;

/// Whether `s` is an IRI (`iri`) or URI, absolute (`absolute`) or a reference.
pub(super) fn is_valid(s: &str, iri: bool, absolute: bool) -> bool {
    let mut reader = Reader { s, at: 0, iri };
    reader.reference(absolute).is_some()
}

/// A cursor over the text; `None` from a method means the text is not valid.
struct Reader<'a> {
    s: &'a str,
    at: usize,
    iri: bool,
}

/// Non-ASCII characters RFC 3987 admits in every IRI component (`ucschar`).
fn is_ucschar(c: u32) -> bool {
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
        || ((0x10000..=0xDFFFF).contains(&c) && c & 0xFFFF <= 0xFFFD)
        || (0xE1000..=0xEFFFD).contains(&c)
}

/// Private-use characters RFC 3987 admits in a query (`iprivate`).
fn is_iprivate(c: u32) -> bool {
    (0xE000..=0xF8FF).contains(&c) || (c >= 0xF0000 && c & 0xFFFF <= 0xFFFD)
}

/// `unreserved / sub-delims`.
fn is_plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=".contains(&b)
}

impl Reader<'_> {
    /// The next byte.
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.at).copied()
    }

    /// Consumes `lit` if it comes next.
    fn eat(&mut self, lit: &str) -> bool {
        let found = self.s[self.at..].starts_with(lit);
        if found {
            self.at += lit.len();
        }
        found
    }

    /// Reads unreserved, sub-delims, `extra`, percent-encodings and, in an IRI,
    /// `ucschar` (and `iprivate` where `private`); whether it read anything.
    fn read(&mut self, extra: &[u8], private: bool) -> Option<bool> {
        let start = self.at;
        while let Some(b) = self.peek() {
            if b == b'%' {
                let hex = self.s.as_bytes().get(self.at + 1..self.at + 3)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                self.at += 3;
            } else if b.is_ascii() {
                if !(is_plain(b) || extra.contains(&b)) {
                    break;
                }
                self.at += 1;
            } else {
                let c = self.s[self.at..].chars().next()?;
                if !(self.iri && (is_ucschar(c as u32) || (private && is_iprivate(c as u32)))) {
                    break;
                }
                self.at += c.len_utf8();
            }
        }
        Some(self.at > start)
    }

    /// A whole URI / IRI (with a scheme when `absolute`) or reference.
    fn reference(&mut self, absolute: bool) -> Option<()> {
        let bytes = self.s.as_bytes();
        let scheme = bytes
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
            .count();
        self.at = scheme;
        if self.peek() == Some(b':') {
            if !bytes[0].is_ascii_alphabetic() {
                return None;
            }
            self.at += 1;
            if self.eat("//") {
                self.authority()?;
            } else {
                self.read(b":@/", false)?;
            }
        } else if absolute {
            return None;
        } else if scheme == 0 && self.eat("//") {
            self.authority()?;
        } else {
            // The first segment of a relative path cannot hold a colon.
            self.read(b"@", false)?;
            if self.peek() == Some(b':') {
                return None;
            }
            self.read(b":@/", false)?;
        }
        if self.eat("?") {
            self.read(b":@/?", true)?;
        }
        if self.eat("#") {
            self.read(b":@/?", false)?;
        }
        (self.at == self.s.len()).then_some(())
    }

    /// After `//`: `[ userinfo "@" ] host [ ":" port ]`, then a path that is empty or
    /// starts with `/`.
    fn authority(&mut self) -> Option<()> {
        let start = self.at;
        self.read(b":", false)?;
        if self.eat("@") {
            if !self.ip_literal()? {
                self.read(b"", false)?;
            }
            self.port();
        } else if self.at == start {
            if self.ip_literal()? {
                self.port();
            }
        } else {
            // Read as userinfo, it is a host and maybe one `:port`.
            let read = &self.s.as_bytes()[start..self.at];
            let mut colons = read.iter().enumerate().filter(|(_, &b)| b == b':');
            if let Some((colon, _)) = colons.next() {
                if colons.next().is_some() || !read[colon + 1..].iter().all(u8::is_ascii_digit) {
                    return None;
                }
            }
        }
        let path = self.at;
        if self.read(b":@/", false)? && self.s.as_bytes()[path] != b'/' {
            return None;
        }
        Some(())
    }

    /// `[ IPv6address ]` or `[ IPvFuture ]`: `Some(false)` when no `[` comes next.
    fn ip_literal(&mut self) -> Option<bool> {
        if !self.eat("[") {
            return Some(false);
        }
        let len = self.s[self.at..].find(']')?;
        let inner = &self.s[self.at..self.at + len];
        self.at += len + 1;
        (inner.parse::<Ipv6Addr>().is_ok() || is_ipv_future(inner)).then_some(true)
    }

    /// `[ ":" *DIGIT ]`.
    fn port(&mut self) {
        if self.eat(":") {
            self.at += self.s[self.at..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
        }
    }
}

/// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
fn is_ipv_future(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(['v', 'V']) else {
        return false;
    };
    let Some((version, body)) = rest.split_once('.') else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_hexdigit())
        && !body.is_empty()
        && body.bytes().all(|b| is_plain(b) || b == b':')
}
