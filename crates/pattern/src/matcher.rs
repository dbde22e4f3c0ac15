//! The matcher: a backtracking machine with an explicit stack (no recursion
//! per character, so long inputs cannot overflow the call stack) and a step
//! budget proportional to the input, so no pattern can run away (ReDoS).
//! Semantics are ECMA-262's: leftmost, first-alternative-preferred,
//! look-arounds atomic, an iteration that matches empty fails once the
//! minimum is reached, captures reset at each iteration.

use super::class::{is_word, Set};

/// `max` of an unbounded repetition.
pub(super) const UNBOUNDED: u32 = u32::MAX;
/// Steps every match may take, whatever the input.
const BASE_STEPS: u64 = 1 << 20;
/// Further steps per byte of input.
const STEPS_PER_BYTE: u64 = 256;
/// Backtracking entries every match may keep (bounds memory as the budget bounds time).
const BASE_STACK: usize = 1 << 20;
/// Further backtracking entries per byte of input.
const STACK_PER_BYTE: usize = 16;
/// A capture slot that is not set.
const UNSET: usize = usize::MAX;

/// One instruction.
#[derive(Debug, Clone)]
pub(super) enum Inst {
    /// Consume one code point equal to `c` (backwards in a look-behind).
    Char { c: u32, back: bool },
    /// Consume one code point in `sets[set]`.
    Set { set: usize, back: bool },
    /// Consume `min..=max` code points of `sets[set]`, as many as possible first.
    Star {
        set: usize,
        back: bool,
        min: u32,
        max: u32,
    },
    /// At the start of the input.
    Start,
    /// At the end of the input.
    End,
    /// At a word boundary (`false`) or not at one (`true`).
    WordBoundary(bool),
    /// Record the position in a capture slot.
    Save(usize),
    /// Continue at the first; on failure at the second.
    Split(usize, usize),
    /// Continue there.
    Jmp(usize),
    /// Consume what group `group` captured (nothing if it did not).
    Backref { group: usize, back: bool },
    /// A look-around whose body follows, up to `LookEnd`; then continue at `next`.
    Look { negate: bool, next: usize },
    /// The end of a look-around body.
    LookEnd,
    /// Set a repetition's counter to zero.
    RepStart { reg: usize },
    /// Iterate again or leave (to `exit`), by the counter and greediness.
    RepLoop {
        reg: usize,
        min: u32,
        max: u32,
        greedy: bool,
        exit: usize,
    },
    /// An iteration starts: remember where; clear the captures in `slots`.
    RepBody { mark: usize, slots: (usize, usize) },
    /// An iteration ends: refuse an empty one past the minimum, count, loop.
    RepNext {
        reg: usize,
        mark: usize,
        min: u32,
        looped: usize,
    },
    /// The whole pattern matched.
    Match,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub(super) struct Program {
    pub insts: Vec<Inst>,
    pub sets: Vec<Set>,
    /// Capture slots: two per group, group 0 unused.
    pub slots: usize,
    /// Counter and mark registers of repetitions.
    pub regs: usize,
    /// Every match starts at position 0.
    pub anchored: bool,
    /// Every match starts by consuming one of these code points.
    pub first: Option<Set>,
}

/// The step budget ran out before the matcher could decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Exhausted;

/// One backtracking entry.
enum Bt {
    /// Resume at `pc` and `pos`.
    Branch(usize, usize),
    /// Restore a capture slot.
    Slot(usize, usize),
    /// Restore a register.
    Reg(usize, usize),
    /// Retry `Star` one code point shorter: resume at `pc`; `floor` is as short as it may get.
    Star {
        pc: usize,
        pos: usize,
        floor: usize,
        back: bool,
    },
}

/// Whether `program` matches somewhere in `hay`, in at most the search's own
/// budget and `*steps`; the steps taken are taken off `*steps`.
pub(super) fn search(program: &Program, hay: &str, steps: &mut u64) -> Result<bool, Exhausted> {
    let own = BASE_STEPS.saturating_add(STEPS_PER_BYTE.saturating_mul(hay.len() as u64));
    let mut vm = Vm {
        program,
        hay,
        slots: vec![UNSET; program.slots],
        regs: vec![0; program.regs],
        stack: Vec::new(),
        max_stack: BASE_STACK.saturating_add(STACK_PER_BYTE.saturating_mul(hay.len())),
        steps: 0,
        budget: own.min(*steps),
    };
    let found = scan(&mut vm, program, hay);
    *steps = steps.saturating_sub(vm.steps);
    found
}

/// Try every start position in turn.
fn scan(vm: &mut Vm<'_>, program: &Program, hay: &str) -> Result<bool, Exhausted> {
    let mut start = 0;
    loop {
        if let (Some(first), false) = (&program.first, program.anchored) {
            // Skip the positions where no match can start.
            match hay
                .get(start..)
                .and_then(|rest| rest.char_indices().find(|&(_, c)| first.contains(c as u32)))
            {
                Some((at, _)) => start += at,
                None => return Ok(false),
            }
        }
        if vm.run(0, start)? {
            return Ok(true);
        }
        match hay.get(start..).and_then(|rest| rest.chars().next()) {
            Some(c) if !program.anchored => start += c.len_utf8(),
            _ => return Ok(false),
        }
    }
}

struct Vm<'a> {
    program: &'a Program,
    hay: &'a str,
    slots: Vec<usize>,
    regs: Vec<usize>,
    stack: Vec<Bt>,
    max_stack: usize,
    steps: u64,
    budget: u64,
}

impl Vm<'_> {
    /// The code point at `pos` going forwards (or before it, backwards) and the position past it.
    fn step(&self, pos: usize, back: bool) -> Option<(char, usize)> {
        if back {
            let c = self.hay.get(..pos)?.chars().next_back()?;
            Some((c, pos - c.len_utf8()))
        } else {
            let c = self.hay.get(pos..)?.chars().next()?;
            Some((c, pos + c.len_utf8()))
        }
    }

    fn push(&mut self, bt: Bt) -> Result<(), Exhausted> {
        if self.stack.len() >= self.max_stack {
            return Err(Exhausted);
        }
        self.stack.push(bt);
        Ok(())
    }

    fn set_slot(&mut self, slot: usize, value: usize) -> Result<(), Exhausted> {
        let old = self.slots.get(slot).copied().unwrap_or(UNSET);
        self.push(Bt::Slot(slot, old))?;
        if let Some(s) = self.slots.get_mut(slot) {
            *s = value;
        }
        Ok(())
    }

    fn set_reg(&mut self, reg: usize, value: usize) -> Result<(), Exhausted> {
        let old = self.regs.get(reg).copied().unwrap_or(0);
        self.push(Bt::Reg(reg, old))?;
        if let Some(r) = self.regs.get_mut(reg) {
            *r = value;
        }
        Ok(())
    }

    fn reg(&self, reg: usize) -> usize {
        self.regs.get(reg).copied().unwrap_or(0)
    }

    fn is_word_at(&self, pos: usize, back: bool) -> bool {
        self.step(pos, back).is_some_and(|(c, _)| is_word(c))
    }

    /// Undo the stack down to `base`.
    fn unwind(&mut self, base: usize) {
        while self.stack.len() > base {
            match self.stack.pop() {
                Some(Bt::Slot(s, v)) => self.slots[s] = v,
                Some(Bt::Reg(r, v)) => self.regs[r] = v,
                _ => {}
            }
        }
    }

    /// Run from `pc` at `pos` until `Match` or `LookEnd` (true) or every
    /// alternative failed (false, the stack back at its height on entry).
    fn run(&mut self, mut pc: usize, mut pos: usize) -> Result<bool, Exhausted> {
        let base = self.stack.len();
        let program = self.program;
        loop {
            self.steps += 1;
            if self.steps > self.budget {
                return Err(Exhausted);
            }
            let ok = match program.insts.get(pc) {
                None | Some(Inst::Match | Inst::LookEnd) => return Ok(true),
                Some(&Inst::Char { c, back }) => match self.step(pos, back) {
                    Some((got, next)) if got as u32 == c => {
                        pos = next;
                        true
                    }
                    _ => false,
                },
                Some(&Inst::Set { set, back }) => match self.step(pos, back) {
                    Some((got, next)) if program.sets[set].contains(got as u32) => {
                        pos = next;
                        true
                    }
                    _ => false,
                },
                Some(&Inst::Star {
                    set,
                    back,
                    min,
                    max,
                }) => {
                    let mut n = 0u32;
                    let mut floor = pos;
                    while n < max {
                        match self.step(pos, back) {
                            Some((got, next)) if program.sets[set].contains(got as u32) => {
                                pos = next;
                                n += 1;
                                if n == min {
                                    floor = pos;
                                }
                            }
                            _ => break,
                        }
                    }
                    self.steps += u64::from(n);
                    if n < min {
                        false
                    } else {
                        if pos != floor {
                            self.push(Bt::Star {
                                pc: pc + 1,
                                pos,
                                floor,
                                back,
                            })?;
                        }
                        true
                    }
                }
                Some(Inst::Start) => pos == 0,
                Some(Inst::End) => pos == self.hay.len(),
                Some(&Inst::WordBoundary(negate)) => {
                    (self.is_word_at(pos, true) != self.is_word_at(pos, false)) != negate
                }
                Some(&Inst::Save(slot)) => {
                    self.set_slot(slot, pos)?;
                    true
                }
                Some(&Inst::Split(first, second)) => {
                    self.push(Bt::Branch(second, pos))?;
                    pc = first;
                    continue;
                }
                Some(&Inst::Jmp(to)) => {
                    pc = to;
                    continue;
                }
                Some(&Inst::Backref { group, back }) => {
                    let slot = |k: usize| self.slots.get(k).copied().unwrap_or(UNSET);
                    let (s, e) = (slot(2 * group), slot(2 * group + 1));
                    match self.hay.get(s..e) {
                        Some(text) if s != UNSET && e != UNSET => {
                            let hit = if back {
                                self.hay.get(..pos).is_some_and(|h| h.ends_with(text))
                            } else {
                                self.hay.get(pos..).is_some_and(|h| h.starts_with(text))
                            };
                            if hit {
                                pos = if back {
                                    pos - text.len()
                                } else {
                                    pos + text.len()
                                };
                            }
                            hit
                        }
                        _ => true,
                    }
                }
                Some(&Inst::Look { negate, next }) => {
                    let inner = self.stack.len();
                    let found = self.run(pc + 1, pos)?;
                    if found {
                        if negate {
                            self.unwind(inner);
                        } else {
                            // Atomic: drop the body's alternatives, keep its undo entries.
                            let tail = self.stack.split_off(inner);
                            self.stack.extend(
                                tail.into_iter()
                                    .filter(|b| !matches!(b, Bt::Branch(..) | Bt::Star { .. })),
                            );
                        }
                    }
                    if found != negate {
                        pc = next;
                        continue;
                    }
                    false
                }
                Some(&Inst::RepStart { reg }) => {
                    self.set_reg(reg, 0)?;
                    true
                }
                Some(&Inst::RepLoop {
                    reg,
                    min,
                    max,
                    greedy,
                    exit,
                }) => {
                    let count = self.reg(reg);
                    if count < min as usize {
                        true
                    } else if max != UNBOUNDED && count >= max as usize {
                        pc = exit;
                        continue;
                    } else if greedy {
                        self.push(Bt::Branch(exit, pos))?;
                        true
                    } else {
                        self.push(Bt::Branch(pc + 1, pos))?;
                        pc = exit;
                        continue;
                    }
                }
                Some(&Inst::RepBody { mark, slots }) => {
                    self.set_reg(mark, pos)?;
                    for slot in slots.0..slots.1 {
                        if self.slots.get(slot).is_some_and(|&v| v != UNSET) {
                            self.steps += 1;
                            self.set_slot(slot, UNSET)?;
                        }
                    }
                    true
                }
                Some(&Inst::RepNext {
                    reg,
                    mark,
                    min,
                    looped,
                }) => {
                    let count = self.reg(reg);
                    if count >= min as usize && pos == self.reg(mark) {
                        false
                    } else {
                        self.set_reg(reg, count + 1)?;
                        pc = looped;
                        continue;
                    }
                }
            };
            if ok {
                pc += 1;
                continue;
            }
            // Backtrack to the latest alternative, undoing as we go.
            loop {
                if self.stack.len() <= base {
                    return Ok(false);
                }
                match self.stack.pop() {
                    Some(Bt::Branch(p, q)) => {
                        pc = p;
                        pos = q;
                        break;
                    }
                    Some(Bt::Star {
                        pc: p,
                        pos: q,
                        floor,
                        back,
                    }) => {
                        // One code point shorter (the set's code points were all checked).
                        let shorter = self.step(q, !back).map_or(floor, |(_, next)| next);
                        if shorter != floor {
                            self.stack.push(Bt::Star {
                                pc: p,
                                pos: shorter,
                                floor,
                                back,
                            });
                        }
                        pc = p;
                        pos = shorter;
                        break;
                    }
                    Some(Bt::Slot(s, v)) => self.slots[s] = v,
                    Some(Bt::Reg(r, v)) => self.regs[r] = v,
                    None => return Ok(false),
                }
            }
        }
    }
}
