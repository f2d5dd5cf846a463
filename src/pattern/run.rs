//! The simulation: every NFA state at once, one character at a time (Thompson's algorithm,
//! as in RE2 and Rust's `regex`), so the cost is O(program × text) whatever the pattern.
//!
//! A backtracking engine tries one way through the pattern and, when it fails, the next; on
//! `(a*)*b` against a run of `a`s the ways are exponential in the text. Here the set of
//! states the text so far can be in is kept instead: each character maps that set to the
//! next, visiting each instruction at most once, so no text makes the work grow faster than
//! its length. The sets are bitsets of [`MAX_STATES`] bits inside the [`Matcher`], and the
//! work stack is a fixed array of the same size, so a match allocates nothing.
//!
//! A state set is kept *before* its closure over forks, jumps and assertions: `\b` and `$`
//! need the character after the position, which text arriving in parts has not sent yet.
//! The closure is taken when that character (or the end) arrives.

use super::class::is_word;
use super::compile::{Inst, Pc, Program};
use super::parse::Assertion;
use super::{Pattern, MAX_STATES};
use std::fmt;

/// Words in a state bitset.
const WORDS: usize = MAX_STATES / 64;

/// A search through text that arrives in parts: [`push_str`](Matcher::push_str) and
/// [`push_char`](Matcher::push_char) as it comes, then [`finish`](Matcher::finish) for the
/// verdict. The parts may split the text anywhere; the verdict is
/// [`Pattern::is_match`] of their concatenation.
///
/// A matcher holds its state sets itself (about 9 KiB, no heap), so making one and feeding it
/// allocates nothing.
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
    program: &'p Program,
    /// The words of each bitset the program uses; the rest stay zero.
    n_words: usize,
    /// The states the text so far has reached, before their closure (see the module doc).
    threads: [u64; WORDS],
    /// The next `threads`, built while stepping over a character.
    next: [u64; WORDS],
    /// The states visited in the closure being taken: each is visited once per position.
    visited: [u64; WORDS],
    /// The closure's work list; every state is pushed at most once per closure, so it never
    /// needs more than `MAX_STATES` slots.
    stack: [Pc; MAX_STATES],
    /// The last character pushed (`None` before the first), for `^` and `\b`.
    previous: Option<char>,
    /// A match was found: every continuation matches too.
    matched: bool,
    /// Instructions visited so far, for the tests' proof of the linear bound.
    steps: u64,
}

impl<'p> Matcher<'p> {
    pub(super) fn new(pattern: &'p Pattern) -> Matcher<'p> {
        let program = &pattern.program;
        Matcher {
            program,
            n_words: program.insts.len().div_ceil(64).min(WORDS),
            threads: [0; WORDS],
            next: [0; WORDS],
            visited: [0; WORDS],
            stack: [0; MAX_STATES],
            previous: None,
            matched: false,
            steps: 0,
        }
    }

    /// Feeds the next part of the text.
    pub fn push_str(&mut self, part: &str) {
        for c in part.chars() {
            if self.is_decided() {
                return;
            }
            self.push_char(c);
        }
    }

    /// Feeds the next character of the text.
    pub fn push_char(&mut self, c: char) {
        if self.is_decided() {
            return;
        }
        self.step(Some(c));
        self.previous = Some(c);
    }

    /// Whether the whole text fed matches the pattern somewhere.
    pub fn finish(mut self) -> bool {
        if !self.is_decided() {
            self.step(None);
        }
        self.matched
    }

    /// True when no continuation of the text fed so far can match, so that a check reading
    /// text as it arrives may refuse it without waiting for the rest.
    ///
    /// It never says so wrongly, but it may notice late or not at all: it is exact for
    /// patterns anchored with `^` (once no state survives), and false for patterns that can
    /// start a match anywhere, since a later part may always hold one.
    pub fn is_dead(&self) -> bool {
        !self.matched
            && self.previous.is_some()
            && !self.program.restartable
            && self.threads.iter().take(self.n_words).all(|word| *word == 0)
    }

    /// Whether the verdict is known whatever follows: matched, or dead. More text then
    /// costs nothing.
    fn is_decided(&self) -> bool {
        self.matched || self.is_dead()
    }

    /// Instructions visited so far. At most the program's length per character fed, plus
    /// one more round for [`finish`](Matcher::finish): the linear bound, which the tests
    /// check with this. Not part of the API.
    #[doc(hidden)]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Takes the closure of `threads` at the current position, where `c` is the character
    /// after it (`None`: the end of the text), and steps every state that consumes `c` into
    /// `next`, which becomes `threads`. Sets `matched` when the closure reaches `Match`.
    fn step(&mut self, c: Option<char>) {
        let n_words = self.n_words;
        clear(&mut self.visited, n_words);
        clear(&mut self.next, n_words);
        let mut top = 0usize;
        // The search is unanchored: a match may start here, unless only the first position
        // can start one.
        if self.previous.is_none() || self.program.restartable {
            self.add(&mut top, 0);
        }
        for word_idx in 0..n_words {
            let mut word = self.threads.get(word_idx).copied().unwrap_or(0);
            while word != 0 {
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                self.add(&mut top, word_idx * 64 + bit);
            }
        }
        while let Some(slot) = top.checked_sub(1) {
            top = slot;
            let pc = usize::from(self.stack.get(slot).copied().unwrap_or(0));
            self.steps = self.steps.saturating_add(1);
            match self.program.insts.get(pc) {
                Some(Inst::Class(id)) => {
                    let class = self.program.classes.get(usize::from(*id));
                    if let (Some(c), Some(class)) = (c, class) {
                        if class.contains(c) {
                            insert(&mut self.next, pc + 1);
                        }
                    }
                }
                Some(Inst::Assert(assertion)) => {
                    if holds(*assertion, self.previous, c) {
                        self.add(&mut top, pc + 1);
                    }
                }
                Some(Inst::Split(first, second)) => {
                    self.add(&mut top, usize::from(*first));
                    self.add(&mut top, usize::from(*second));
                }
                Some(Inst::Jump(target)) => self.add(&mut top, usize::from(*target)),
                Some(Inst::Match) => {
                    self.matched = true;
                    return;
                }
                None => {}
            }
        }
        std::mem::swap(&mut self.threads, &mut self.next);
    }

    /// Pushes `pc` on the closure's work list unless it was visited at this position.
    fn add(&mut self, top: &mut usize, pc: usize) {
        if contains(&self.visited, pc) {
            return;
        }
        insert(&mut self.visited, pc);
        if let (Some(slot), Ok(pc)) = (self.stack.get_mut(*top), Pc::try_from(pc)) {
            *slot = pc;
            *top += 1;
        }
    }
}

impl fmt::Debug for Matcher<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Matcher")
            .field("matched", &self.matched)
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

fn clear(bits: &mut [u64; WORDS], n_words: usize) {
    for word in bits.iter_mut().take(n_words) {
        *word = 0;
    }
}

fn insert(bits: &mut [u64; WORDS], pc: usize) {
    if let Some(word) = bits.get_mut(pc / 64) {
        *word |= 1 << (pc % 64);
    }
}

fn contains(bits: &[u64; WORDS], pc: usize) -> bool {
    bits.get(pc / 64)
        .is_some_and(|word| word & (1 << (pc % 64)) != 0)
}
