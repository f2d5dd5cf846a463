//! What `Pattern::new` refuses, by name, with the exact message a schema author reads: the
//! constructs that cannot run in linear time, the ones not supported, the text that is not
//! ECMA-262 in unicode mode, and the limits. Then random pattern text: never a panic.
#![cfg(feature = "pattern")]

mod support;

use support::rng::Rng;
use toolgate::pattern::{Pattern, PatternErrorKind, Unsupported, MAX_DEPTH, MAX_STATES};

/// Fails unless `pattern` is refused with exactly `expected` as its message.
fn check(pattern: &str, expected: &str) {
    match Pattern::new(pattern) {
        Ok(_) => panic!("{pattern:?} compiled; expected {expected:?}"),
        Err(error) => assert_eq!(error.to_string(), expected, "message for {pattern:?}"),
    }
}

fn kind(pattern: &str) -> PatternErrorKind {
    match Pattern::new(pattern) {
        Ok(_) => panic!("{pattern:?} compiled"),
        Err(error) => error.kind().clone(),
    }
}

#[test]
fn what_cannot_run_in_linear_time_is_refused_by_name() {
    let refused = [
        ("(a)\\1", Unsupported::Backreference),
        ("(a)(b)\\2", Unsupported::Backreference),
        ("(?<x>a)\\k<x>", Unsupported::NamedBackreference),
        ("a(?=b)", Unsupported::Lookahead),
        ("^(?=.*\\d).{8,}$", Unsupported::Lookahead),
        ("a(?!b)", Unsupported::NegativeLookahead),
        ("(?<=a)b", Unsupported::Lookbehind),
        ("(?<!a)b", Unsupported::NegativeLookbehind),
        ("^\\p{Lu}+$", Unsupported::PropertyEscape),
        ("[\\P{Script=Greek}]", Unsupported::PropertyEscape),
        ("\\p{letter}", Unsupported::PropertyEscape),
        ("(?i)abc", Unsupported::Modifiers),
        ("(?i:abc)", Unsupported::Modifiers),
        ("(?-i:abc)", Unsupported::Modifiers),
    ];
    for (pattern, construct) in refused {
        assert_eq!(
            kind(pattern),
            PatternErrorKind::Unsupported(construct),
            "{pattern:?}"
        );
    }
    check(
        "(a)\\1",
        "the backreference \\1 at character 3 is not supported: it cannot be checked in linear \
         time",
    );
    check(
        "(?<x>a)\\k<x>",
        "the backreference \\k<name> at character 7 is not supported: it cannot be checked in \
         linear time",
    );
    check(
        "a(?=b)",
        "lookahead (?=...) at character 1 is not supported: it cannot be checked in linear time",
    );
    check(
        "a(?!b)",
        "negative lookahead (?!...) at character 1 is not supported: it cannot be checked in \
         linear time",
    );
    check(
        "(?<=a)b",
        "lookbehind (?<=...) at character 0 is not supported: it cannot be checked in linear time",
    );
    check(
        "(?<!a)b",
        "negative lookbehind (?<!...) at character 0 is not supported: it cannot be checked in \
         linear time",
    );
    check(
        "^\\p{Lu}+$",
        "the Unicode property class \\p{...} at character 1 is not supported: of Unicode's \
         properties only the general categories L (Letter), N (Number) and Nd (Decimal_Number) \
         are carried",
    );
    check(
        "(?i)abc",
        "an inline flag such as (?i) at character 0 is not supported: JSON Schema patterns take \
         no flags",
    );
}

#[test]
fn what_unicode_mode_forbids_is_refused_saying_where_and_what() {
    check(
        "a{2,1}",
        "the repetition {2,1} at character 1 is out of order: its minimum is above its maximum",
    );
    check(
        "[z-a]",
        "the class range z-a at character 1 is out of order: its start is above its end",
    );
    check(
        "[\\d-z]",
        "the class range at character 1 has a class escape (\\d, \\w or \\s) at one end; write \
         \\- for a literal '-'",
    );
    check(
        "x\\a",
        "expected an escape such as \\d, \\n, \\x41, \\u0041 or an escaped '.' after '\\' at \
         character 2, found 'a'",
    );
    check(
        "\\-",
        "expected an escape such as \\d, \\n, \\x41, \\u0041 or an escaped '.' after '\\' at \
         character 1, found '-'",
    );
    check(
        "a\\",
        "expected an escape such as \\d, \\n, \\x41, \\u0041 or an escaped '.' after '\\' at \
         character 2, found the end of the pattern",
    );
    check(
        "\\01",
        "expected no digit after \\0 (octal escapes are not ECMA-262's) at character 2, found '1'",
    );
    check("\\x4g", "expected a hex digit at character 3, found 'g'");
    check("\\pL", "expected '{' after \\p at character 2, found 'L'");
    check(
        "\\p{L",
        "expected a property name and '}' in \\p{...} at character 4, found the end of the pattern",
    );
    check(
        "\\u12",
        "expected a hex digit at character 4, found the end of the pattern",
    );
    check(
        "\\u{110000}",
        "expected '}' ending a code point at most 10FFFF at character 8, found '0'",
    );
    check(
        "\\c1",
        "expected a letter after \\c at character 2, found '1'",
    );
    check(
        "*a",
        "the quantifier '*' at character 0 has nothing to repeat (a literal '*' is written \\*)",
    );
    check(
        "a**",
        "the quantifier '*' at character 2 has nothing to repeat (a literal '*' is written \\*)",
    );
    check(
        "^*",
        "the quantifier '*' at character 1 has nothing to repeat (a literal '*' is written \\*)",
    );
    check(
        "a|+",
        "the quantifier '+' at character 2 has nothing to repeat (a literal '+' is written \\+)",
    );
    check(
        "{1}",
        "the quantifier '{' at character 0 has nothing to repeat (a literal '{' is written \\{)",
    );
    check(
        "a{,5}",
        "expected a digit after '{' (a literal '{' is written \\{) at character 2, found ','",
    );
    check(
        "a{1",
        "expected a digit, ',' or '}' in the repetition at character 3, found the end of the \
         pattern",
    );
    check(
        "a}",
        "expected an atom (a literal '}' is written \\}) at character 1, found '}'",
    );
    check(
        "[]]",
        "expected an atom (a literal ']' is written \\]) at character 2, found ']'",
    );
    check(
        "a)",
        "expected an atom, '|' or the end (this ')' closes no group) at character 1, found ')'",
    );
    check(
        "a(b",
        "the group '(' at character 1 is never closed with ')'",
    );
    check(
        "x[ab",
        "the class '[' at character 1 is never closed with ']'",
    );
    check(
        "(?>a)",
        "expected ':', '=', '!' or '<' after '(?' at character 2, found '>'",
    );
    check(
        "(?P<n>a)",
        "expected ':', '=', '!' or '<' after '(?' at character 2, found 'P'",
    );
    check(
        "(?<1>a)",
        "expected a group name (a letter, '$' or '_', then letters, digits, '$' or '_') at \
         character 3, found '1'",
    );
    // Offsets count characters, not bytes.
    check(
        "é😀)",
        "expected an atom, '|' or the end (this ')' closes no group) at character 2, found ')'",
    );
}

#[test]
fn the_limits_refuse_just_past_them() {
    let nested = |depth: usize| format!("{}a{}", "(".repeat(depth), ")".repeat(depth));
    assert!(Pattern::new(&nested(MAX_DEPTH)).is_ok());
    assert_eq!(
        kind(&nested(MAX_DEPTH + 1)),
        PatternErrorKind::TooDeep { limit: MAX_DEPTH }
    );
    check(
        &nested(MAX_DEPTH + 1),
        &format!("the group at character {MAX_DEPTH} nests deeper than {MAX_DEPTH} groups"),
    );
    // 100,000 open groups: an error, not a stack overflow.
    assert_eq!(
        kind(&"(".repeat(100_000)),
        PatternErrorKind::TooDeep { limit: MAX_DEPTH }
    );

    // `a{n}` is n states and `Match`.
    let just_fits = format!("a{{{}}}", MAX_STATES - 1);
    let compiled = Pattern::new(&just_fits).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(compiled.n_states(), MAX_STATES);
    assert!(compiled.is_match(&"a".repeat(MAX_STATES - 1)));
    assert!(!compiled.is_match(&"a".repeat(MAX_STATES - 2)));
    assert_eq!(
        kind(&format!("a{{{MAX_STATES}}}")),
        PatternErrorKind::TooLarge { limit: MAX_STATES }
    );
    check(
        "x(a{100}){100}",
        "the pattern needs more than 4096 states (at character 9); use a smaller repetition \
         count, or maxLength for a length limit",
    );
    // Counts past u32 saturate and are refused as too large, not wrapped.
    assert_eq!(
        kind("a{99999999999999999999}"),
        PatternErrorKind::TooLarge { limit: MAX_STATES }
    );
    // Repeating nothing costs nothing, however often.
    assert!(Pattern::new("(?:){4000000000}a").is_ok());
    assert!(Pattern::new("(?:a{0}){4000000000}").is_ok());
}

#[test]
fn a_pattern_is_its_source() {
    let compiled = Pattern::new("^a+$").unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(compiled.as_str(), "^a+$");
    assert_eq!(format!("{compiled:?}"), "Pattern(\"^a+$\")");
    assert_eq!(compiled.clone(), compiled);
    assert_ne!(Pattern::new("^a+$").ok(), Pattern::new("^a*$").ok());
}

/// Characters pattern syntax gives meaning to, and a few it does not.
const SYNTAX: &[char] = &[
    '\\', '(', ')', '[', ']', '{', '}', '|', '*', '+', '?', '.', '^', '$', '-', ',', '<', '>', '=',
    '!', ':', 'a', 'b', 'd', 'u', 'x', 'k', 'p', 'c', 'B', '0', '1', '9', 'F', '😀', 'é',
];

#[test]
fn random_pattern_text_never_panics() {
    let mut rng = Rng::from_env();
    let (mut n_ok, mut n_refused) = (0, 0);
    for _ in 0..Rng::iters(100_000) {
        let len = rng.below(16);
        let source: String = (0..len).map(|_| *rng.pick(SYNTAX)).collect();
        match Pattern::new(&source) {
            Ok(pattern) => {
                n_ok += 1;
                let text: String = (0..rng.below(12)).map(|_| *rng.pick(SYNTAX)).collect();
                let whole = pattern.is_match(&text);
                let mut matcher = pattern.matcher();
                matcher.push_str(&text);
                assert_eq!(matcher.finish(), whole, "/{source}/ on {text:?}");
            }
            Err(error) => {
                n_refused += 1;
                assert!(
                    error.offset() <= source.chars().count(),
                    "{source:?}: {error}"
                );
                assert!(!error.to_string().is_empty());
            }
        }
    }
    println!(
        "{n_ok} random pattern texts compiled, {n_refused} refused (seed {})",
        rng.seed()
    );
}
