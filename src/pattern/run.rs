//! The simulation: every NFA state at once, one character at a time (Thompson's algorithm,
//! as in RE2), so a match costs O(program × text) whatever the pattern, in fixed bitsets
//! without allocating. A state set is kept *before* its closure: `\b` and `$` need the next
//! character, which text arriving in parts has not sent yet.

use super::class::is_word;
use super::compile::{Inst, Pc, Program};
use super::parse::Assertion;
use super::{Pattern, MAX_STATES};
use std::fmt;

/// Words in the largest state bitset.
const WORDS: usize = MAX_STATES / 64;

/// A search through text that arrives in parts, split anywhere: the verdict of
/// [`finish`](Matcher::finish) is [`Pattern::is_match`] of their concatenation. It holds its
/// state sets itself (about 10 KiB at most), so it never allocates.
///
/// ```
/// use toolgate::pattern::Pattern;
///
/// let zip = Pattern::new(r"^\d{5}$")?;
/// let mut matcher = zip.matcher();
/// matcher.push_str("94");
/// matcher.push_str("103");
/// assert!(matcher.finish());
///
/// let mut matcher = zip.matcher();
/// matcher.push_str("941x");
/// // No continuation of "941x" can match: a streaming check may refuse now.
/// assert!(matcher.is_dead());
/// # Ok::<(), toolgate::pattern::PatternError>(())
/// ```
#[derive(Clone)]
pub struct Matcher<'p> {
    pattern: &'p Pattern,
    sets: Sets,
}

/// The state sets in the smallest size the program fits: zeroing 10 KiB per short string
/// would cost more than the check, and boxing would allocate.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Sets {
    /// Up to 64 states.
    Small(States<1>),
    /// Up to [`TABLE_STATES`].
    Medium(States<{ TABLE_STATES / 64 }>),
    /// Up to [`MAX_STATES`].
    Large(States<WORDS>),
}

/// Each state's ε-closure in the middle of the text, computed at compile: there `^` and `$`
/// fail and `\b` depends only on whether the position is a boundary, so a step is a few
/// word operations per live state. Only up to [`TABLE_STATES`] states (they grow with its
/// square); larger programs, and the text's ends, walk.
#[derive(Clone, Debug)]
pub(super) struct Tables {
    /// The program's size, the rows in each context.
    n_states: usize,
    /// Whether the program has `\b` or `\B`: closures then come in two contexts.
    by_boundary: bool,
    /// Row `context * n_states + pc`: the states the closure of `pc` reaches.
    closures: Vec<u64>,
    /// Row `c`, for ASCII `c`: the `Class` states whose set holds `c`.
    accepts: Vec<u64>,
}

/// The largest program [`Tables`] are built for: at most 64 KiB of closures.
const TABLE_STATES: usize = 512;

/// The state sets, for programs of up to `W × 64` states.
#[derive(Clone)]
struct States<const W: usize> {
    /// The states reached right after a step, before their closure.
    threads: [u64; W],
    /// The closure being taken: every state visited at this position, once each.
    visited: [u64; W],
    /// The closure walk's work list: each state at most once per closure.
    stack: [[Pc; 64]; W],
    /// The last character pushed (`None` before the first), for `^` and `\b`.
    previous: Option<char>,
    /// A match was found: every continuation matches too.
    matched: bool,
    /// Closure work so far (states walked, rows read), for the tests' proof of the bound.
    steps: u64,
}

impl<'p> Matcher<'p> {
    pub(super) fn new(pattern: &'p Pattern) -> Matcher<'p> {
        let sets = match pattern.program.insts.len() {
            0..=64 => Sets::Small(States::new()),
            65..=TABLE_STATES => Sets::Medium(States::new()),
            _ => Sets::Large(States::new()),
        };
        Matcher { pattern, sets }
    }

    /// Feeds the next part of the text.
    pub fn push_str(&mut self, part: &str) {
        for c in part.chars() {
            self.push_char(c);
        }
    }

    /// Feeds the next character of the text.
    pub fn push_char(&mut self, c: char) {
        let pattern = self.pattern;
        with_states!(&mut self.sets, states => if !states.is_decided(pattern) {
            states.push_char(pattern, c);
        });
    }

    /// Whether the whole text fed matches the pattern somewhere.
    pub fn finish(mut self) -> bool {
        let pattern = self.pattern;
        with_states!(&mut self.sets, states => states.finish(pattern))
    }

    /// True when no continuation of the text fed so far can match, so a streaming check may
    /// refuse early. Never wrong, but only ever true for patterns anchored with `^`.
    pub fn is_dead(&self) -> bool {
        with_states!(&self.sets, states => states.is_dead(self.pattern))
    }

    /// Closure work so far, for the tests' check of the linear bound.
    #[doc(hidden)]
    pub fn steps(&self) -> u64 {
        with_states!(&self.sets, states => states.steps)
    }
}

/// `$body` with `$states` bound to the sets, whatever their size.
macro_rules! with_states {
    ($sets:expr, $states:ident => $body:expr) => {
        match $sets {
            Sets::Small($states) => $body,
            Sets::Medium($states) => $body,
            Sets::Large($states) => $body,
        }
    };
}
use with_states;

/// Whether `text` contains a match: a [`Matcher`]'s work without copying its largest size.
pub(super) fn is_match(pattern: &Pattern, text: &str) -> bool {
    match pattern.program.insts.len() {
        0..=64 => search(&mut States::<1>::new(), pattern, text),
        65..=TABLE_STATES => search(&mut States::<{ TABLE_STATES / 64 }>::new(), pattern, text),
        _ => search(&mut States::<WORDS>::new(), pattern, text),
    }
}

fn search<const W: usize>(states: &mut States<W>, pattern: &Pattern, text: &str) -> bool {
    for c in text.chars() {
        if states.is_decided(pattern) {
            break;
        }
        states.push_char(pattern, c);
    }
    states.finish(pattern)
}

impl Tables {
    /// The tables for `program`, or `None` when it has more than [`TABLE_STATES`] states.
    pub(super) fn build(program: &Program) -> Option<Tables> {
        let n_states = program.insts.len();
        if n_states > TABLE_STATES {
            return None;
        }
        // Rows as wide as the state sets that will read them, so that they read whole arrays.
        let n_words = if n_states <= 64 { 1 } else { TABLE_STATES / 64 };
        let by_boundary = program.insts.iter().any(|inst| {
            matches!(
                inst,
                Inst::Assert(Assertion::WordBoundary | Assertion::NotWordBoundary)
            )
        });
        // Between two word characters, and between a word character and a space: the
        // middle of the text without and with a boundary.
        let afters: &[char] = if by_boundary { &['a', ' '] } else { &['a'] };
        let mut closures = Vec::with_capacity(afters.len() * n_states * n_words);
        let mut states = States::<{ TABLE_STATES / 64 }>::new();
        for &after in afters {
            for pc in 0..n_states {
                states.threads = [0; TABLE_STATES / 64];
                insert(&mut states.threads, pc);
                states.previous = Some('a');
                states.close(program, false, Some(after));
                closures.extend_from_slice(states.visited.get(..n_words).unwrap_or(&[]));
            }
        }
        let mut accepts = vec![0u64; 128 * n_words];
        for (pc, inst) in program.insts.iter().enumerate() {
            let Inst::Class(id) = inst else { continue };
            let Some(class) = program.classes.get(usize::from(*id)) else {
                continue;
            };
            for (code, row) in accepts.chunks_mut(n_words.max(1)).enumerate() {
                let holds = char::from_u32(code as u32).is_some_and(|c| class.contains(c));
                if let (true, Some(word)) = (holds, row.get_mut(pc / 64)) {
                    *word |= 1 << (pc % 64);
                }
            }
        }
        Some(Tables {
            n_states,
            by_boundary,
            closures,
            accepts,
        })
    }

    /// The closure of `pc` in the middle of the text, at a word boundary or not.
    fn closure<const W: usize>(&self, pc: usize, boundary: bool) -> Option<&[u64; W]> {
        let context = usize::from(boundary);
        let row = (context * self.n_states + pc) * W;
        self.closures.get(row..row + W)?.try_into().ok()
    }

    /// The `Class` states that take `c`, when `c` is ASCII.
    fn accepts<const W: usize>(&self, c: char) -> Option<&[u64; W]> {
        let code = usize::try_from(u32::from(c))
            .ok()
            .filter(|code| *code < 128)?;
        self.accepts.get(code * W..(code + 1) * W)?.try_into().ok()
    }
}

impl<const W: usize> States<W> {
    fn new() -> States<W> {
        States {
            threads: [0; W],
            visited: [0; W],
            stack: [[0; 64]; W],
            previous: None,
            matched: false,
            steps: 0,
        }
    }

    /// Walks the closure of `threads` (and of the start, if `seed_start`) at the position
    /// between `previous` and `after` (`None`: the end of the text) into `visited`.
    fn close(&mut self, program: &Program, seed_start: bool, after: Option<char>) {
        self.visited = [0; W];
        let mut top = 0usize;
        if seed_start {
            self.add(&mut top, 0);
        }
        let threads = self.threads;
        for_each_member(&threads, |pc| self.add(&mut top, pc));
        while let Some(slot) = top.checked_sub(1) {
            top = slot;
            let row = self.stack.get(slot / 64);
            let pc = usize::from(row.and_then(|row| row.get(slot % 64)).copied().unwrap_or(0));
            self.steps = self.steps.saturating_add(1);
            match program.insts.get(pc) {
                Some(Inst::Assert(assertion)) if holds(*assertion, self.previous, after) => {
                    self.add(&mut top, pc + 1);
                }
                Some(Inst::Split(first, second)) => {
                    self.add(&mut top, usize::from(*first));
                    self.add(&mut top, usize::from(*second));
                }
                Some(Inst::Jump(target)) => self.add(&mut top, usize::from(*target)),
                _ => {}
            }
        }
    }

    /// Pushes `pc` on the closure's work list unless it was visited at this position.
    fn add(&mut self, top: &mut usize, pc: usize) {
        if contains(&self.visited, pc) {
            return;
        }
        insert(&mut self.visited, pc);
        let slot = self
            .stack
            .get_mut(*top / 64)
            .and_then(|row| row.get_mut(*top % 64));
        if let (Some(slot), Ok(pc)) = (slot, Pc::try_from(pc)) {
            *slot = pc;
            *top += 1;
        }
    }
}

impl<const W: usize> States<W> {
    /// Whether the verdict is known whatever follows: matched, or dead.
    fn is_decided(&self, pattern: &Pattern) -> bool {
        self.matched || self.is_dead(pattern)
    }

    /// The verdict once the text has ended.
    fn finish(&mut self, pattern: &Pattern) -> bool {
        if !self.is_decided(pattern) {
            self.step(pattern, None);
        }
        self.matched
    }

    fn push_char(&mut self, pattern: &Pattern, c: char) {
        self.step(pattern, Some(c));
        self.previous = Some(c);
    }

    /// Takes the closure of `threads` before `after` (`None`: the end), from the tables or
    /// by a walk; sets `matched` on reaching `Match`, else steps the states that take `after`.
    fn step(&mut self, pattern: &Pattern, after: Option<char>) {
        let program = &pattern.program;
        let seed_start = self.previous.is_none() || program.restartable;
        match (&pattern.tables, self.previous, after) {
            (Some(tables), Some(before), Some(c)) => {
                let boundary = tables.by_boundary && is_word(Some(before)) != is_word(Some(c));
                let mut reached = [0; W];
                let mut n_rows = 0u64;
                let mut reach = |pc: usize| {
                    n_rows += 1;
                    if let Some(row) = tables.closure::<W>(pc, boundary) {
                        for (word, row) in reached.iter_mut().zip(row) {
                            *word |= row;
                        }
                    }
                };
                if seed_start {
                    reach(0);
                }
                for_each_member(&self.threads, reach);
                self.visited = reached;
                self.steps = self.steps.saturating_add(n_rows);
            }
            _ => self.close(program, seed_start, after),
        }
        if contains(&self.visited, program.insts.len().saturating_sub(1)) {
            self.matched = true;
            return;
        }
        let Some(c) = after else {
            self.threads = [0; W];
            return;
        };
        // The states that take `c`: from the table for ASCII, else by asking each set.
        let mut takers = self.visited;
        match pattern
            .tables
            .as_ref()
            .and_then(|tables| tables.accepts::<W>(c))
        {
            Some(accepts) => {
                for (word, accepted) in takers.iter_mut().zip(accepts) {
                    *word &= accepted;
                }
            }
            None => {
                for_each_member(&self.visited, |pc| {
                    let class = match program.insts.get(pc) {
                        Some(Inst::Class(id)) => program.classes.get(usize::from(*id)),
                        _ => None,
                    };
                    if !class.is_some_and(|class| class.contains(c)) {
                        remove(&mut takers, pc);
                    }
                });
            }
        }
        // A `Class` state at `pc` goes on to `pc + 1`: the takers, shifted up by one.
        let mut carry = 0;
        for word in takers.iter_mut() {
            (*word, carry) = ((*word << 1) | carry, *word >> 63);
        }
        self.threads = takers;
    }

    fn is_dead(&self, pattern: &Pattern) -> bool {
        !self.matched
            && self.previous.is_some()
            && !pattern.program.restartable
            && self.threads.iter().all(|word| *word == 0)
    }
}

impl fmt::Debug for Matcher<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Matcher")
            .field(
                "matched",
                &with_states!(&self.sets, states => states.matched),
            )
            .field("dead", &self.is_dead())
            .finish_non_exhaustive()
    }
}

/// Whether `assertion` holds between `before` and `after` (`None`: an end of the text).
fn holds(assertion: Assertion, before: Option<char>, after: Option<char>) -> bool {
    match assertion {
        Assertion::Start => before.is_none(),
        Assertion::End => after.is_none(),
        Assertion::WordBoundary => is_word(before) != is_word(after),
        Assertion::NotWordBoundary => is_word(before) == is_word(after),
    }
}

fn insert<const W: usize>(bits: &mut [u64; W], pc: usize) {
    if let Some(word) = bits.get_mut(pc / 64) {
        *word |= 1 << (pc % 64);
    }
}

fn remove<const W: usize>(bits: &mut [u64; W], pc: usize) {
    if let Some(word) = bits.get_mut(pc / 64) {
        *word &= !(1 << (pc % 64));
    }
}

/// Calls `f` with each state in `bits`, in order.
fn for_each_member(bits: &[u64], mut f: impl FnMut(usize)) {
    for (word_idx, &word) in bits.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            f(word_idx * 64 + rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
    }
}

fn contains<const W: usize>(bits: &[u64; W], pc: usize) -> bool {
    bits.get(pc / 64)
        .is_some_and(|word| word & (1 << (pc % 64)) != 0)
}
