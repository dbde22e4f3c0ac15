//! The parser: ECMA-262 pattern syntax in Unicode mode (`new RegExp(p, "u")`)
//! to a tree, refusing with a reason whatever JavaScript refuses, except one
//! widening: a backslash before any character that is not alphanumeric means
//! that character (`\-`, `\:`, `\#`), as patterns without the `u` flag allow
//! and as jsonschema's own ECMA-262 dialect (and so the former stack) accepts.

use super::class::{Set, MAX};

/// How deep groups, look-arounds and classes may nest.
pub(super) const MAX_DEPTH: usize = 128;

/// A parsed pattern.
#[derive(Debug)]
pub(super) enum Node {
    /// Matches the empty string.
    Empty,
    /// One code point out of a set (a literal is a set of one).
    Set(Box<Set>),
    /// `^`: the start of the input.
    Start,
    /// `$`: the end of the input.
    End,
    /// `\b` (`false`) or `\B` (`true`).
    WordBoundary(bool),
    /// A capturing group (number from 1) or, with `None`, a non-capturing one.
    Group(Box<Node>, Option<usize>),
    /// `(?=` `(?!` `(?<=` `(?<!`.
    Look {
        behind: bool,
        negate: bool,
        node: Box<Node>,
    },
    /// A back-reference to a group number.
    Backref(usize),
    /// A quantified atom; `max` of `None` is unbounded.
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    /// A sequence.
    Concat(Vec<Node>),
    /// Alternatives, first preferred.
    Alt(Vec<Node>),
}

/// A parsed pattern and its number of capturing groups.
pub(super) struct Parsed {
    pub node: Node,
    pub groups: usize,
}

/// Parse `source` as JavaScript's `new RegExp(source, "u")` would.
pub(super) fn parse(source: &str) -> Result<Parsed, String> {
    let chars: Vec<char> = source.chars().collect();
    let names = scan_names(&chars);
    let mut p = Parser {
        chars,
        i: 0,
        groups: 0,
        total: names.len(),
        names,
        depth: 0,
    };
    let node = p.disjunction()?;
    if p.i < p.chars.len() {
        return Err(p.error("unmatched `)`"));
    }
    Ok(Parsed {
        node,
        groups: p.groups,
    })
}

struct Parser {
    chars: Vec<char>,
    i: usize,
    /// Capturing groups opened so far.
    groups: usize,
    /// Capturing groups in the whole pattern.
    total: usize,
    /// The name of each capturing group (from the pre-scan).
    names: Vec<Option<String>>,
    depth: usize,
}

impl Parser {
    fn error(&self, what: &str) -> String {
        format!("{what} at character {}", self.i)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.i += 1;
        }
        hit
    }

    fn looking_at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(k, c)| self.peek_at(k) == Some(c))
    }

    fn nest(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(&format!("groups nest deeper than {MAX_DEPTH}")));
        }
        Ok(())
    }

    fn disjunction(&mut self) -> Result<Node, String> {
        let mut alts = vec![self.alternative()?];
        while self.eat('|') {
            alts.push(self.alternative()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(alts)
        })
    }

    fn alternative(&mut self) -> Result<Node, String> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            terms.push(self.term()?);
        }
        Ok(match terms.len() {
            0 => Node::Empty,
            1 => terms.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(terms),
        })
    }

    fn term(&mut self) -> Result<Node, String> {
        let assertion = if self.eat('^') {
            Some(Node::Start)
        } else if self.eat('$') {
            Some(Node::End)
        } else if self.looking_at("\\b") || self.looking_at("\\B") {
            self.i += 2;
            Some(Node::WordBoundary(self.chars[self.i - 1] == 'B'))
        } else if let Some((behind, negate, len)) = [
            ("(?=", false, false),
            ("(?!", false, true),
            ("(?<=", true, false),
            ("(?<!", true, true),
        ]
        .iter()
        .find(|(s, _, _)| self.looking_at(s))
        .map(|&(s, b, n)| (b, n, s.len()))
        {
            self.i += len;
            self.nest()?;
            let node = Box::new(self.disjunction()?);
            self.depth -= 1;
            if !self.eat(')') {
                return Err(self.error("unterminated group"));
            }
            Some(Node::Look {
                behind,
                negate,
                node,
            })
        } else {
            None
        };
        if let Some(node) = assertion {
            if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
                return Err(self.error("nothing to repeat"));
            }
            return Ok(node);
        }
        let atom = self.atom()?;
        self.quantifier(atom)
    }

    fn quantifier(&mut self, atom: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                let start = self.i;
                self.i += 1;
                let min = self
                    .number()
                    .ok_or_else(|| self.error("incomplete quantifier"))?;
                let max = if self.eat(',') {
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(
                            self.number()
                                .ok_or_else(|| self.error("incomplete quantifier"))?,
                        )
                    }
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') {
                    return Err(self.error("incomplete quantifier"));
                }
                if max.is_some_and(|m| m < min) {
                    self.i = start;
                    return Err(self.error("numbers out of order in `{}` quantifier"));
                }
                (min, max)
            }
            _ => return Ok(atom),
        };
        self.i += 1;
        let greedy = !self.eat('?');
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return Err(self.error("nothing to repeat"));
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }

    /// Decimal digits, saturating; `None` without any.
    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        let mut n = 0u32;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d);
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    fn atom(&mut self) -> Result<Node, String> {
        let Some(c) = self.peek() else {
            return Err(self.error("unexpected end"));
        };
        match c {
            '.' => {
                self.i += 1;
                Ok(set(Set::escape('.').unwrap_or_default()))
            }
            '(' => self.group(),
            '[' => {
                self.i += 1;
                self.nest()?;
                let s = self.class()?;
                self.depth -= 1;
                Ok(set(s))
            }
            '\\' => {
                self.i += 1;
                self.atom_escape()
            }
            '*' | '+' | '?' | '{' => Err(self.error("nothing to repeat")),
            ']' | '}' => Err(self.error(&format!("lone `{c}`"))),
            _ => {
                self.i += 1;
                Ok(set(Set::one(c as u32)))
            }
        }
    }

    fn group(&mut self) -> Result<Node, String> {
        self.i += 1;
        let index = if self.eat('?') {
            if self.eat(':') {
                None
            } else if self.peek() == Some('<') {
                let name = group_name(&self.chars, &mut self.i)
                    .ok_or_else(|| self.error("invalid capture group name"))?;
                let index = self.groups + 1;
                if self.names[..self.groups]
                    .iter()
                    .any(|n| n.as_deref() == Some(&name))
                {
                    return Err(self.error("duplicate capture group name"));
                }
                Some(index)
            } else {
                return Err(self.error("invalid group"));
            }
        } else {
            Some(self.groups + 1)
        };
        if index.is_some() {
            self.groups += 1;
        }
        self.nest()?;
        let node = self.disjunction()?;
        self.depth -= 1;
        if !self.eat(')') {
            return Err(self.error("unterminated group"));
        }
        Ok(Node::Group(Box::new(node), index))
    }

    fn atom_escape(&mut self) -> Result<Node, String> {
        let Some(c) = self.peek() else {
            return Err(self.error("`\\` at end of pattern"));
        };
        if matches!(c, '1'..='9') {
            let n = self.number().unwrap_or(0) as usize;
            if n > self.total {
                return Err(self.error("invalid escape (no such group)"));
            }
            return Ok(Node::Backref(n));
        }
        if c == 'k' {
            self.i += 1;
            let name = group_name(&self.chars, &mut self.i)
                .ok_or_else(|| self.error("invalid named reference"))?;
            let index = self
                .names
                .iter()
                .position(|n| n.as_deref() == Some(&name))
                .ok_or_else(|| self.error("invalid named capture referenced"))?;
            return Ok(Node::Backref(index + 1));
        }
        Ok(set(self.escape(false)?))
    }

    /// After `\`: a class escape or a character escape, as a set.
    fn escape(&mut self, in_class: bool) -> Result<Set, String> {
        let Some(c) = self.peek() else {
            return Err(self.error("`\\` at end of pattern"));
        };
        self.i += 1;
        if let Some(s) = Set::escape(c).filter(|_| c != '.') {
            return Ok(s);
        }
        let code = match c {
            'p' | 'P' => {
                if !self.eat('{') {
                    return Err(self.error("invalid property name"));
                }
                let start = self.i;
                while self.peek().is_some_and(|c| c != '}') {
                    self.i += 1;
                }
                let body: String = self.chars[start..self.i].iter().collect();
                if !self.eat('}') {
                    return Err(self.error("invalid property name"));
                }
                let s = Set::property(&body).map_err(|e| self.error(&e))?;
                return Ok(if c == 'P' { s.negate() } else { s });
            }
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            'b' if in_class => 0x08,
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.i += 1;
                    l as u32 % 32
                }
                _ => return Err(self.error("invalid unicode escape `\\c`")),
            },
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => 0,
            'x' => self
                .hex(2)
                .ok_or_else(|| self.error("invalid escape `\\x`"))?,
            'u' => unicode_escape(&self.chars, &mut self.i)
                .ok_or_else(|| self.error("invalid unicode escape"))?,
            // Syntax characters and `/`, and (as without the `u` flag, and as
            // jsonschema's ECMA-262 dialect allows) any other character that
            // is not alphanumeric: `\-`, `\:`, `\@` mean themselves.
            c if !c.is_alphanumeric() => c as u32,
            _ => {
                self.i -= 1;
                return Err(self.error(&format!("invalid escape `\\{c}`")));
            }
        };
        Ok(Set::one(code))
    }

    fn hex(&mut self, digits: usize) -> Option<u32> {
        hex(&self.chars, &mut self.i, digits)
    }

    /// After `[`: the class up to and including `]`.
    fn class(&mut self) -> Result<Set, String> {
        let negate = self.eat('^');
        let mut out = Set::default();
        loop {
            let lo = match self.peek() {
                None => return Err(self.error("unterminated character class")),
                Some(']') => break,
                Some(_) => self.class_atom()?,
            };
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.i += 1;
                let hi = self.class_atom()?;
                match (lo.single(), hi.single()) {
                    (Some(a), Some(b)) if a <= b => out.add_range(a, b),
                    (Some(_), Some(_)) => {
                        return Err(self.error("range out of order in character class"))
                    }
                    _ => return Err(self.error("invalid character class")),
                }
            } else {
                out.add(&lo);
            }
        }
        self.i += 1;
        let out = out.normalize();
        Ok(if negate { out.negate() } else { out })
    }

    fn class_atom(&mut self) -> Result<Set, String> {
        let Some(c) = self.peek() else {
            return Err(self.error("unterminated character class"));
        };
        self.i += 1;
        if c != '\\' {
            return Ok(Set::one(c as u32));
        }
        if self.peek().is_some_and(|d| d.is_ascii_digit() && d != '0') {
            return Err(self.error("invalid class escape"));
        }
        self.escape(true)
    }
}

fn set(s: Set) -> Node {
    Node::Set(Box::new(s))
}

/// `digits` hex digits at `*i`, advancing past them.
fn hex(chars: &[char], i: &mut usize, digits: usize) -> Option<u32> {
    let mut n = 0u32;
    for k in 0..digits {
        n = n * 16 + chars.get(*i + k)?.to_digit(16)?;
    }
    *i += digits;
    Some(n)
}

/// After `\u`: `XXXX`, a `\uXXXX\uXXXX` surrogate pair, or `{X…}`.
fn unicode_escape(chars: &[char], i: &mut usize) -> Option<u32> {
    if chars.get(*i) == Some(&'{') {
        let mut j = *i + 1;
        let mut n = 0u32;
        let start = j;
        while let Some(d) = chars.get(j).and_then(|c| c.to_digit(16)) {
            n = n.checked_mul(16)?.checked_add(d)?;
            j += 1;
        }
        if j == start || chars.get(j) != Some(&'}') || n > MAX {
            return None;
        }
        *i = j + 1;
        return Some(n);
    }
    let lead = hex(chars, i, 4)?;
    if (0xD800..0xDC00).contains(&lead) && chars.get(*i..*i + 2) == Some(&['\\', 'u']) {
        let mut j = *i + 2;
        if let Some(trail) = hex(chars, &mut j, 4).filter(|t| (0xDC00..0xE000).contains(t)) {
            *i = j;
            return Some(0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00));
        }
    }
    Some(lead)
}

/// At `<`: a group name up to and including `>`, advancing past it.
fn group_name(chars: &[char], i: &mut usize) -> Option<String> {
    let mut j = *i;
    if chars.get(j) != Some(&'<') {
        return None;
    }
    j += 1;
    let mut name = String::new();
    loop {
        let c = match *chars.get(j)? {
            '>' => break,
            '\\' => {
                if chars.get(j + 1) != Some(&'u') {
                    return None;
                }
                j += 2;
                char::from_u32(unicode_escape(chars, &mut j)?)?
            }
            c => {
                j += 1;
                c
            }
        };
        let first = name.is_empty();
        let ok = c.is_ascii_alphabetic()
            || matches!(c, '$' | '_')
            || (!first && (c.is_ascii_digit() || matches!(c, '\u{200C}' | '\u{200D}')))
            || (!c.is_ascii()
                && Set::property(if first { "ID_Start" } else { "ID_Continue" })
                    .is_ok_and(|s| s.contains(c as u32)));
        if !ok {
            return None;
        }
        name.push(c);
    }
    if name.is_empty() {
        return None;
    }
    *i = j + 1;
    Some(name)
}

/// The name (or `None`) of every capturing group, in order, by a quick scan.
fn scan_names(chars: &[char]) -> Vec<Option<String>> {
    let mut names = Vec::new();
    let mut i = 0;
    let mut in_class = false;
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '\\' => i += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '(' if !in_class => {
                if chars.get(i) != Some(&'?') {
                    names.push(None);
                } else if chars.get(i + 1) == Some(&'<')
                    && !matches!(chars.get(i + 2), Some('=' | '!'))
                {
                    let mut j = i + 1;
                    names.push(group_name(chars, &mut j));
                }
            }
            _ => {}
        }
    }
    names
}
