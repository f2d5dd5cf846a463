//! Linear time whatever the pattern: the patterns that take a backtracking engine time
//! exponential in the text (`(a*)*b`, `(a|a)*c`, `(a+)+$` and their kin) run against
//! 100,000 characters, and the work the matcher reports is at most the program's size per
//! character. That count, not the clock, is the proof: a timed assertion would fail on a busy
//! machine and pass on a slow algorithm with a fast one.
#![cfg(feature = "pattern")]

use toolgate::pattern::Pattern;

/// Fails unless `pattern` on `text` gives `expected`, whole and fed in parts, within
/// `n_states` steps per character.
fn check(pattern: &str, text: &str, expected: bool) {
    let compiled = Pattern::new(pattern).unwrap_or_else(|error| panic!("{pattern:?}: {error}"));
    assert_eq!(
        compiled.is_match(text),
        expected,
        "/{pattern}/ on {} chars",
        text.len()
    );
    let mut matcher = compiled.matcher();
    for part in text.as_bytes().chunks(4096) {
        matcher.push_str(std::str::from_utf8(part).unwrap_or_default());
    }
    let steps = matcher.steps();
    assert_eq!(matcher.finish(), expected, "/{pattern}/ fed in parts");
    let n_chars = text.chars().count() as u64;
    let bound = compiled.n_states() as u64 * n_chars;
    assert!(
        steps <= bound,
        "/{pattern}/: {steps} steps for {n_chars} chars and {} states",
        compiled.n_states()
    );
    println!(
        "/{pattern}/: {n_chars} chars, {} states, {steps} steps ({:.2} per char)",
        compiled.n_states(),
        steps as f64 / n_chars as f64
    );
}

fn a_times(n: usize) -> String {
    "a".repeat(n)
}

#[test]
fn nested_stars_do_not_blow_up() {
    let text = a_times(100_000);
    check("(a*)*b", &text, false);
    check("^(a*)*b", &text, false);
    check("(a*)*$", &text, true);
}

#[test]
fn overlapping_alternatives_do_not_blow_up() {
    let text = a_times(100_000);
    check("(a|a)*c", &text, false);
    check("^(a|aa)+$", &format!("{text}b"), false);
    check("^(a|a?)+$", &text, true);
}

#[test]
fn nested_pluses_do_not_blow_up() {
    let text = a_times(100_000);
    check("(a+)+$", &text, true);
    check("^(a+)+$", &format!("{text}b"), false);
    check("(x+x+)+y", &"x".repeat(100_000), false);
    check("^(\\w+\\s?)*$", &format!("{text}!"), false);
    check(
        "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@)",
        &text,
        false,
    );
}

#[test]
fn quadratic_search_cases_stay_linear() {
    // A backtracking search restarts at each position and rescans the rest: quadratic.
    let text = a_times(100_000);
    check("a*b", &text, false);
    check("(.*){10}b", &text, false);
    check("\\b\\w+\\b\\s+\\d", &text, false);
}

#[test]
fn large_programs_stay_linear() {
    // Over 512 states: the walk without precomputed closures.
    let text = a_times(20_000);
    check("(?:a|a){0,300}c", &text, false);
    check("^(?:a{1,300}){1,2}$", &text, false);
    check("a{600}$", &text, true);
}
