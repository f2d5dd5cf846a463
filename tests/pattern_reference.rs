//! The engine against a reference: a naive backtracking matcher written here from ECMA-262's
//! own definition of matching (section 22.2.2: matchers and continuations, greedy and lazy
//! repetition, and the rule that a repetition past its minimum stops at an empty iteration),
//! run on syntax trees generated here and printed as patterns.
//!
//! Exhaustively: every tree of up to 4 nodes over the atoms `a b . [^a] ^ $ \b \B (?:)`, the
//! quantifiers `* + ?? {2} {1,2} {2,}` and the operators concatenation and `|`, against every
//! string over `a`, `b` and `\n` of up to 5 characters, and every tree of 5 nodes against
//! every string of up to 3. Then random larger trees against random longer strings. Each
//! pattern (but the 5-node ones) also runs padded with a never-matching branch of hundreds
//! of states, so that the table-driven middle size and the walk-only large size are compared
//! too, not just the small one.
#![cfg(feature = "pattern")]

mod support;

use support::rng::Rng;
use toolgate::pattern::{Pattern, PatternErrorKind};

#[derive(Clone, Debug)]
enum Re {
    Char(char),
    Dot,
    NotA,
    Empty,
    Start,
    End,
    Boundary,
    NotBoundary,
    Concat(Box<Re>, Box<Re>),
    Alternation(Box<Re>, Box<Re>),
    Repeat(Box<Re>, Quantifier),
}

#[derive(Clone, Copy, Debug)]
struct Quantifier {
    min: u32,
    max: Option<u32>,
    lazy: bool,
    text: &'static str,
}

const fn quantifier(min: u32, max: Option<u32>, lazy: bool, text: &'static str) -> Quantifier {
    Quantifier {
        min,
        max,
        lazy,
        text,
    }
}

const ATOMS: [Re; 9] = [
    Re::Char('a'),
    Re::Char('b'),
    Re::Dot,
    Re::NotA,
    Re::Empty,
    Re::Start,
    Re::End,
    Re::Boundary,
    Re::NotBoundary,
];

const EXHAUSTIVE_QUANTIFIERS: [Quantifier; 6] = [
    quantifier(0, None, false, "*"),
    quantifier(1, None, false, "+"),
    quantifier(0, Some(1), true, "??"),
    quantifier(2, Some(2), false, "{2}"),
    quantifier(1, Some(2), false, "{1,2}"),
    quantifier(2, None, false, "{2,}"),
];

const MORE_QUANTIFIERS: [Quantifier; 6] = [
    quantifier(0, None, true, "*?"),
    quantifier(1, None, true, "+?"),
    quantifier(0, Some(1), false, "?"),
    quantifier(0, Some(3), false, "{0,3}"),
    quantifier(3, Some(3), false, "{3}"),
    quantifier(1, None, false, "{1,}"),
];

/// How tightly a place in the printed pattern binds: an alternative, an item of a
/// concatenation, or the operand of a quantifier.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Place {
    Alternative,
    Item,
    Operand,
}

/// Prints `re` as a pattern, in groups where `place` needs them; groups take each of the
/// three forms in turn (`n_groups` counts them).
fn print(re: &Re, place: Place, out: &mut String, n_groups: &mut usize) {
    let (text, binds) = match re {
        Re::Char(c) => {
            out.push(*c);
            return;
        }
        Re::Dot => (".", Place::Operand),
        Re::NotA => ("[^a]", Place::Operand),
        Re::Empty => ("", Place::Alternative),
        Re::Start => ("^", Place::Item),
        Re::End => ("$", Place::Item),
        Re::Boundary => ("\\b", Place::Item),
        Re::NotBoundary => ("\\B", Place::Item),
        Re::Concat(..) => ("", Place::Item),
        Re::Alternation(..) => ("", Place::Alternative),
        Re::Repeat(..) => ("", Place::Item),
    };
    let wrap = binds < place || matches!(re, Re::Empty);
    if wrap {
        *n_groups += 1;
        out.push_str(["(?:", "(", "(?<g>"][*n_groups % 3]);
    }
    out.push_str(text);
    match re {
        Re::Concat(left, right) => {
            print(left, Place::Item, out, n_groups);
            print(right, Place::Item, out, n_groups);
        }
        Re::Alternation(left, right) => {
            print(left, Place::Alternative, out, n_groups);
            out.push('|');
            print(right, Place::Alternative, out, n_groups);
        }
        Re::Repeat(operand, quantifier) => {
            print(operand, Place::Operand, out, n_groups);
            out.push_str(quantifier.text);
        }
        _ => {}
    }
    if wrap {
        out.push(')');
    }
}

fn source(re: &Re) -> String {
    let mut out = String::new();
    print(re, Place::Alternative, &mut out, &mut 0);
    out
}

fn is_word(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
}

/// ECMA-262's matcher for `re` at `pos`: true when some way of matching it there makes the
/// continuation `k` succeed.
fn matches(re: &Re, text: &[char], pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    // A backtracker is exponential on some patterns (that is why the engine is not one): past
    // its budget the reference gives up, every path fails fast, and `reference` says so.
    let spent = STEPS.with(|steps| {
        steps.set(steps.get() + 1);
        steps.get()
    });
    if spent > REFERENCE_BUDGET {
        return false;
    }
    let at = text.get(pos);
    match re {
        Re::Char(c) => at == Some(c) && k(pos + 1),
        Re::Dot => {
            at.is_some_and(|c| !matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')) && k(pos + 1)
        }
        Re::NotA => at.is_some_and(|c| *c != 'a') && k(pos + 1),
        Re::Empty => k(pos),
        Re::Start => pos == 0 && k(pos),
        Re::End => pos == text.len() && k(pos),
        Re::Boundary | Re::NotBoundary => {
            let before = pos.checked_sub(1).and_then(|before| text.get(before));
            let boundary = is_word(before) != is_word(at);
            boundary == matches!(re, Re::Boundary) && k(pos)
        }
        Re::Concat(left, right) => {
            matches(left, text, pos, &mut |mid| matches(right, text, mid, k))
        }
        Re::Alternation(left, right) => matches(left, text, pos, k) || matches(right, text, pos, k),
        Re::Repeat(operand, q) => repeat(operand, q.min, q.max, q.lazy, text, pos, k),
    }
}

/// ECMA-262's RepeatMatcher: `operand` at least `min` and at most `max` more times.
fn repeat(
    operand: &Re,
    min: u32,
    max: Option<u32>,
    lazy: bool,
    text: &[char],
    pos: usize,
    k: &mut dyn FnMut(usize) -> bool,
) -> bool {
    if max == Some(0) {
        return k(pos);
    }
    let max_after = max.map(|max| max - 1);
    if min != 0 {
        let mut again = |after| repeat(operand, min - 1, max_after, lazy, text, after, k);
        return matches(operand, text, pos, &mut again);
    }
    if lazy && k(pos) {
        return true;
    }
    // Past the minimum, an iteration that matches the empty string fails.
    let mut again = |after| after != pos && repeat(operand, 0, max_after, lazy, text, after, k);
    matches(operand, text, pos, &mut again) || (!lazy && k(pos))
}

/// Steps the reference may take for one text before it gives up.
const REFERENCE_BUDGET: u64 = 200_000;

thread_local! {
    /// Steps the reference has taken on the current text.
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The reference's verdict: a match starting anywhere; `None` when it ran out of budget (a
/// random pattern on which backtracking blows up), and the case is not compared.
fn reference(re: &Re, text: &str) -> Option<bool> {
    let chars: Vec<char> = text.chars().collect();
    STEPS.with(|steps| steps.set(0));
    let verdict = (0..=chars.len()).any(|start| matches(re, &chars, start, &mut |_| true));
    let spent = STEPS.with(|steps| steps.get());
    (spent <= REFERENCE_BUDGET).then_some(verdict)
}

/// Every tree of exactly `size` nodes, given all smaller ones (`by_size[n]` holds size `n`).
fn trees_of_size(size: usize, by_size: &[Vec<Re>]) -> Vec<Re> {
    if size == 1 {
        return ATOMS.to_vec();
    }
    let mut trees = Vec::new();
    for quantifier in EXHAUSTIVE_QUANTIFIERS {
        for operand in &by_size[size - 1] {
            trees.push(Re::Repeat(Box::new(operand.clone()), quantifier));
        }
    }
    for left_size in 1..size - 1 {
        for left in &by_size[left_size] {
            for right in &by_size[size - 1 - left_size] {
                let (left, right) = (Box::new(left.clone()), Box::new(right.clone()));
                trees.push(Re::Concat(left.clone(), right.clone()));
                trees.push(Re::Alternation(left, right));
            }
        }
    }
    trees
}

/// Every string over `alphabet` of up to `max_len` characters.
fn strings(alphabet: &[char], max_len: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..max_len {
        last = last
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

/// The pattern, and the same pattern behind a never-matching branch long enough to need the
/// table-driven middle size (over 64 states) or the walk-only large size (over 512), each
/// when it compiles (a random tree may be too large).
fn compiled(re: &Re, padded_too: bool) -> Vec<(String, Pattern)> {
    let plain = source(re);
    let padded = |n: usize| format!("(?:\\u{{10FFFF}}{{{n}}}|)(?:{plain})");
    let mut sources = vec![plain.clone()];
    if padded_too {
        sources.extend([padded(100), padded(600)]);
    }
    sources
        .into_iter()
        .filter_map(|text| match Pattern::new(&text) {
            Ok(pattern) => Some((text, pattern)),
            Err(error) if matches!(error.kind(), PatternErrorKind::TooLarge { .. }) => None,
            Err(error) => panic!("{text:?}: {error}"),
        })
        .collect()
}

/// Compares each compiled form of `re` with the reference on every text; returns the number
/// of pattern × text comparisons made.
fn check(patterns: &[(String, Pattern)], re: &Re, texts: &[String]) -> usize {
    let mut n_compared = 0;
    for text in texts {
        let Some(expected) = reference(re, text) else {
            continue;
        };
        n_compared += patterns.len();
        for (source, pattern) in patterns {
            assert_eq!(
                pattern.is_match(text),
                expected,
                "/{source}/u.test({text:?}), tree {re:?}"
            );
        }
    }
    n_compared
}

#[test]
fn every_small_pattern_agrees_with_the_backtracking_reference() {
    let mut by_size: Vec<Vec<Re>> = vec![Vec::new()];
    for size in 1..=5 {
        let trees = trees_of_size(size, &by_size);
        by_size.push(trees);
    }
    let long = strings(&['a', 'b', '\n'], 5);
    let short = strings(&['a', 'b', '\n'], 3);
    let (mut n_patterns, mut n_compared) = (0, 0);
    for (size, trees) in by_size.iter().enumerate() {
        let texts = if size <= 4 { &long } else { &short };
        for re in trees {
            // The three sizes share all but their state sets; the 5-node trees run small only.
            let patterns = compiled(re, size <= 4);
            let sizes: Vec<usize> = patterns.iter().map(|(_, p)| p.n_states()).collect();
            assert!(
                matches!(sizes[..], [small] if size == 5 && small <= 64)
                    || matches!(sizes[..], [small, middle, large]
                        if small <= 64 && (65..=512).contains(&middle) && large > 512),
                "{re:?}: sizes {sizes:?}"
            );
            n_compared += check(&patterns, re, texts);
            n_patterns += 1;
        }
        println!(
            "size {size}: {} trees × {} strings",
            trees.len(),
            texts.len()
        );
    }
    println!("{n_patterns} patterns, {n_compared} comparisons (up to 4 nodes in three sizes)");
}

/// A random tree of about `budget` nodes.
fn random_tree(rng: &mut Rng, budget: usize) -> Re {
    if budget <= 1 || rng.chance(1, 6) {
        return rng.pick(&ATOMS).clone();
    }
    match rng.below(5) {
        0 | 1 => {
            let left = rng.range(1, budget - 1);
            let (a, b) = (random_tree(rng, left), random_tree(rng, budget - left));
            Re::Concat(Box::new(a), Box::new(b))
        }
        2 => {
            let left = rng.range(1, budget - 1);
            let (a, b) = (random_tree(rng, left), random_tree(rng, budget - left));
            Re::Alternation(Box::new(a), Box::new(b))
        }
        _ => {
            let quantifier = if rng.bool() {
                *rng.pick(&EXHAUSTIVE_QUANTIFIERS)
            } else {
                *rng.pick(&MORE_QUANTIFIERS)
            };
            Re::Repeat(Box::new(random_tree(rng, budget - 1)), quantifier)
        }
    }
}

#[test]
fn random_larger_patterns_agree_with_the_backtracking_reference() {
    let mut rng = Rng::from_env();
    let alphabet = ['a', 'b', '\n', ' ', 'a', 'b'];
    let (mut n_patterns, mut n_compared) = (0, 0);
    for _ in 0..Rng::iters(2_000) {
        let budget = rng.range(5, 12);
        let re = random_tree(&mut rng, budget);
        let texts: Vec<String> = (0..40)
            .map(|_| (0..rng.below(11)).map(|_| *rng.pick(&alphabet)).collect())
            .collect();
        let patterns = compiled(&re, true);
        n_compared += check(&patterns, &re, &texts);
        n_patterns += usize::from(!patterns.is_empty());
    }
    println!(
        "{n_patterns} random patterns, {n_compared} comparisons (seed {})",
        rng.seed()
    );
}
