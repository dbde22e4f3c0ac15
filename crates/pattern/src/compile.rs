//! The compiler: a parsed pattern to a program for the backtracking matcher.
//! Counted repetition uses counter registers, so a program's size is linear in
//! the pattern's (`a{1000000}` is as small as `a{2}`); look-behind bodies are
//! compiled backwards, as ECMA-262 evaluates them right to left.

use super::class::Set;
use super::matcher::{Inst, Program, UNBOUNDED};
use super::parse::{Node, Parsed};

/// The compiled form of `parsed`.
pub(super) fn compile(parsed: Parsed) -> Program {
    let mut c = Compiler {
        insts: Vec::new(),
        sets: Vec::new(),
        regs: 0,
    };
    let anchored = anchored(&parsed.node);
    let first = first(&parsed.node);
    c.emit(&parsed.node, false);
    c.insts.push(Inst::Match);
    Program {
        insts: c.insts,
        sets: c.sets,
        slots: 2 * (parsed.groups + 1),
        regs: c.regs,
        anchored,
        first,
    }
}

struct Compiler {
    insts: Vec<Inst>,
    sets: Vec<Set>,
    regs: usize,
}

impl Compiler {
    fn pc(&self) -> usize {
        self.insts.len()
    }

    /// Emit a placeholder to patch later; its index.
    fn hole(&mut self) -> usize {
        self.insts.push(Inst::Jmp(0));
        self.insts.len() - 1
    }

    fn set(&mut self, s: &Set) -> usize {
        self.sets.push(s.clone());
        self.sets.len() - 1
    }

    fn reg(&mut self) -> usize {
        self.regs += 1;
        self.regs - 1
    }

    fn emit(&mut self, node: &Node, back: bool) {
        match node {
            Node::Empty => {}
            Node::Set(s) => {
                let inst = match s.single() {
                    Some(c) => Inst::Char { c, back },
                    None => Inst::Set {
                        set: self.set(s),
                        back,
                    },
                };
                self.insts.push(inst);
            }
            Node::Start => self.insts.push(Inst::Start),
            Node::End => self.insts.push(Inst::End),
            Node::WordBoundary(negate) => self.insts.push(Inst::WordBoundary(*negate)),
            Node::Group(inner, None) => self.emit(inner, back),
            Node::Group(inner, Some(k)) => {
                let (first, second) = if back { (1, 0) } else { (0, 1) };
                self.insts.push(Inst::Save(2 * k + first));
                self.emit(inner, back);
                self.insts.push(Inst::Save(2 * k + second));
            }
            Node::Look {
                behind,
                negate,
                node,
            } => {
                let at = self.hole();
                self.emit(node, *behind);
                self.insts.push(Inst::LookEnd);
                self.insts[at] = Inst::Look {
                    negate: *negate,
                    next: self.pc(),
                };
            }
            Node::Backref(k) => self.insts.push(Inst::Backref { group: *k, back }),
            Node::Concat(nodes) => {
                if back {
                    nodes.iter().rev().for_each(|n| self.emit(n, back));
                } else {
                    nodes.iter().for_each(|n| self.emit(n, back));
                }
            }
            Node::Alt(alts) => {
                let mut ends = Vec::new();
                for (k, alt) in alts.iter().enumerate() {
                    if k + 1 < alts.len() {
                        let split = self.hole();
                        self.emit(alt, back);
                        ends.push(self.hole());
                        self.insts[split] = Inst::Split(split + 1, self.pc());
                    } else {
                        self.emit(alt, back);
                    }
                }
                let end = self.pc();
                for e in ends {
                    self.insts[e] = Inst::Jmp(end);
                }
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => self.repeat(node, *min, max.unwrap_or(UNBOUNDED), *greedy, back),
        }
    }

    fn repeat(&mut self, node: &Node, min: u32, max: u32, greedy: bool, back: bool) {
        if max == 0 {
            return;
        }
        if let (Node::Set(s), true) = (node, greedy) {
            // One code point at a time, greedy: the matcher backs off one
            // character per retry without a stack entry per character.
            let set = self.set(s);
            self.insts.push(Inst::Star {
                set,
                back,
                min,
                max,
            });
            return;
        }
        if (min, max) == (1, 1) {
            return self.emit(node, back);
        }
        if !nullable(node) && groups(node).is_none() && min <= 1 && (max == 1 || max == UNBOUNDED) {
            // `x*`, `x+`, `x?` over an atom that always advances and captures
            // nothing: a plain loop, no counter and no empty-iteration check.
            let choose = |body: usize, out: usize| {
                if greedy {
                    Inst::Split(body, out)
                } else {
                    Inst::Split(out, body)
                }
            };
            if min == 1 {
                // body: x; split(body, out)
                let body = self.pc();
                self.emit(node, back);
                let out = self.pc() + 1;
                self.insts.push(choose(body, out));
            } else {
                // top: split(body, out); body: x; [jmp top]
                let top = self.hole();
                self.emit(node, back);
                if max == UNBOUNDED {
                    self.insts.push(Inst::Jmp(top));
                }
                self.insts[top] = choose(top + 1, self.pc());
            }
            return;
        }
        let reg = self.reg();
        let mark = self.reg();
        self.insts.push(Inst::RepStart { reg });
        let looped = self.hole();
        let (lo, hi) = groups(node).unwrap_or((1, 0));
        self.insts.push(Inst::RepBody {
            mark,
            slots: (2 * lo, 2 * hi + 2),
        });
        self.emit(node, back);
        self.insts.push(Inst::RepNext {
            reg,
            mark,
            min,
            looped,
        });
        self.insts[looped] = Inst::RepLoop {
            reg,
            min,
            max,
            greedy,
            exit: self.pc(),
        };
    }
}

/// Whether `node` can match the empty string.
fn nullable(node: &Node) -> bool {
    match node {
        Node::Set(_) => false,
        Node::Group(inner, _) => nullable(inner),
        Node::Repeat { node, min, .. } => *min == 0 || nullable(node),
        Node::Concat(nodes) => nodes.iter().all(nullable),
        Node::Alt(nodes) => nodes.iter().any(nullable),
        _ => true,
    }
}

/// The first and last capturing group inside `node`, if any.
fn groups(node: &Node) -> Option<(usize, usize)> {
    let join = |a: Option<(usize, usize)>, b: Option<(usize, usize)>| match (a, b) {
        (Some((l1, h1)), Some((l2, h2))) => Some((l1.min(l2), h1.max(h2))),
        (a, b) => a.or(b),
    };
    match node {
        Node::Group(inner, Some(k)) => join(Some((*k, *k)), groups(inner)),
        Node::Group(inner, None) => groups(inner),
        Node::Look { node, .. } | Node::Repeat { node, .. } => groups(node),
        Node::Concat(nodes) | Node::Alt(nodes) => nodes.iter().map(groups).fold(None, join),
        _ => None,
    }
}

/// Whether every match must start at the beginning of the input.
fn anchored(node: &Node) -> bool {
    match node {
        Node::Start => true,
        Node::Group(inner, _) => anchored(inner),
        Node::Concat(nodes) => nodes.first().is_some_and(anchored),
        Node::Alt(nodes) => nodes.iter().all(anchored),
        _ => false,
    }
}

/// The code points every match starts with, when a match must consume one
/// first (look-arounds and anchors before it only narrow where it may start).
fn first(node: &Node) -> Option<Set> {
    match node {
        Node::Set(s) => Some((**s).clone()),
        Node::Group(inner, _) => first(inner),
        Node::Repeat { node, min, .. } if *min > 0 => first(node),
        Node::Concat(nodes) => {
            for n in nodes {
                match n {
                    Node::Start | Node::End | Node::WordBoundary(_) | Node::Look { .. } => {}
                    _ => return first(n),
                }
            }
            None
        }
        Node::Alt(nodes) => {
            let mut out = Set::default();
            for n in nodes {
                out.add(&first(n)?);
            }
            Some(out.normalize())
        }
        _ => None,
    }
}
