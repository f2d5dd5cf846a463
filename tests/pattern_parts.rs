//! Text in parts agrees with text whole: a [`Matcher`] fed random splits of a text (as
//! `push_str` slices and single `push_char`s) finishes with `is_match`'s verdict, and
//! `is_dead` is never wrong: once it says no continuation can match, none does.
#![cfg(feature = "pattern")]

mod support;

use support::rng::Rng;
use toolgate::pattern::{Matcher, Pattern};

/// Pieces random patterns are made of; sequences that are not valid patterns are skipped.
const TOKENS: [&str; 32] = [
    "a",
    "b",
    "a",
    "b",
    ".",
    "[ab]",
    "[^a]",
    "[a-c]",
    "\\b",
    "\\B",
    "^",
    "$",
    "\\s",
    "\\w",
    "\\d",
    "é",
    "😀",
    "(",
    ")",
    "(?:",
    "|",
    "|",
    "*",
    "+",
    "?",
    "{2}",
    "{1,3}",
    "*?",
    "{0,}",
    "[^\\s]",
    "\\u{1F600}",
    "1",
];

const ALPHABET: [char; 9] = ['a', 'b', 'a', 'b', ' ', '\n', 'é', '😀', '1'];

/// A random text of up to `max_len` characters.
fn random_text(rng: &mut Rng, max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    (0..len).map(|_| *rng.pick(&ALPHABET)).collect()
}

/// Feeds `text` to `matcher` in random parts; at each cut where the matcher says it is dead,
/// checks that the text so far followed by a few random continuations does not match.
fn feed(rng: &mut Rng, pattern: &Pattern, matcher: &mut Matcher<'_>, text: &str) {
    let chars: Vec<char> = text.chars().collect();
    let mut fed = 0;
    while fed < chars.len() {
        let len = rng.range(1, chars.len() - fed);
        let part: String = chars[fed..fed + len].iter().collect();
        if len == 1 && rng.bool() {
            matcher.push_char(chars[fed]);
        } else {
            matcher.push_str(&part);
        }
        fed += len;
        if matcher.is_dead() {
            let so_far: String = chars[..fed].iter().collect();
            for _ in 0..4 {
                let longer = format!("{so_far}{}", random_text(rng, 8));
                assert!(
                    !pattern.is_match(&longer),
                    "/{}/ said dead after {so_far:?}, but matches {longer:?}",
                    pattern.as_str()
                );
            }
        }
    }
}

#[test]
fn parts_agree_with_the_whole_text() {
    let mut rng = Rng::from_env();
    let (mut n_patterns, mut n_texts, mut n_skipped, mut n_dead) = (0, 0, 0, 0);
    for _ in 0..Rng::iters(3_000) {
        let n_tokens = rng.range(1, 10);
        let source: String = (0..n_tokens).map(|_| *rng.pick(&TOKENS)).collect();
        let Ok(plain) = Pattern::new(&source) else {
            n_skipped += 1;
            continue;
        };
        // The same pattern in the middle and large state-set sizes too.
        let padded = |n: usize| format!("(?:\\u{{10FFFF}}{{{n}}}|)(?:{source})");
        let mut patterns = vec![plain];
        patterns.extend(
            [padded(100), padded(600)]
                .iter()
                .flat_map(|p| Pattern::new(p)),
        );
        for pattern in patterns {
            n_patterns += 1;
            for _ in 0..20 {
                let text = random_text(&mut rng, 16);
                let mut matcher = pattern.matcher();
                feed(&mut rng, &pattern, &mut matcher, &text);
                n_dead += usize::from(matcher.is_dead());
                let whole = pattern.is_match(&text);
                assert_eq!(
                    matcher.finish(),
                    whole,
                    "/{}/ on {text:?}: parts disagree with the whole (seed {})",
                    pattern.as_str(),
                    rng.seed()
                );
                n_texts += 1;
            }
        }
    }
    println!(
        "{n_patterns} patterns × 20 texts = {n_texts} split runs ({n_dead} ended dead); \
         {n_skipped} token sequences were not patterns"
    );
}

/// The matcher after `fed`, and whether it is dead.
fn dead_after(pattern: &str, fed: &str) -> bool {
    let compiled = Pattern::new(pattern).unwrap_or_else(|error| panic!("{pattern:?}: {error}"));
    let mut matcher = compiled.matcher();
    matcher.push_str(fed);
    matcher.is_dead()
}

#[test]
fn anchored_patterns_die_as_soon_as_no_continuation_can_match() {
    assert!(!dead_after("^[a-z]+$", "ab"));
    assert!(dead_after("^[a-z]+$", "ab1"));
    assert!(dead_after("^[a-z]+$", "1"));
    assert!(!dead_after("^\\d{5}$", "12345"));
    assert!(dead_after("^\\d{5}$", "123456"));
    assert!(dead_after("^(?:a|b)c", "ab"));
    assert!(!dead_after("^(?:a|b)c", "ac"));
    // Matched already: every continuation matches, so never dead.
    assert!(!dead_after("^ab", "abzzz"));
    // Nothing fed yet: the empty text may still be continued.
    assert!(!dead_after("^a", ""));
}

#[test]
fn unanchored_patterns_never_die() {
    // A later part may always hold a match.
    assert!(!dead_after("es", "xxxxxxxx"));
    assert!(!dead_after("^a|b", "cc"));
    assert!(!dead_after("a$", "ab"));
}

#[test]
fn a_decided_matcher_ignores_the_rest() {
    let pattern = Pattern::new("^ab").unwrap_or_else(|error| panic!("{error}"));
    let mut matcher = pattern.matcher();
    matcher.push_str("abc");
    let steps = matcher.steps();
    matcher.push_str(&"x".repeat(10_000));
    assert_eq!(matcher.steps(), steps, "more text after a match cost work");
    assert!(matcher.finish());

    let mut matcher = pattern.matcher();
    matcher.push_str("x");
    let steps = matcher.steps();
    matcher.push_str(&"ab".repeat(10_000));
    assert_eq!(matcher.steps(), steps, "more text after death cost work");
    assert!(!matcher.finish());
}
