//! Hand tables of ECMA-262 (unicode mode) cases: each row is a pattern, a text and whether
//! JavaScript's `new RegExp(pattern, "u").test(text)` is true. They pin the corners a random
//! test over `a` and `b` never reaches: the exact sets of `\s`, `\w` and `.`, code points
//! against UTF-16 units, escapes, classes, `\b`, and anchors inside alternation.
#![cfg(feature = "pattern")]

use toolgate::pattern::Pattern;

/// Fails naming the row when `pattern` does not compile or disagrees on a text, whole or fed
/// one character at a time.
fn check(pattern: &str, rows: &[(&str, bool)]) {
    let compiled =
        Pattern::new(pattern).unwrap_or_else(|error| panic!("{pattern:?} refused: {error}"));
    for &(text, expected) in rows {
        assert_eq!(
            compiled.is_match(text),
            expected,
            "/{pattern}/u.test({text:?})"
        );
        let mut matcher = compiled.matcher();
        for c in text.chars() {
            matcher.push_char(c);
        }
        assert_eq!(
            matcher.finish(),
            expected,
            "/{pattern}/u fed {text:?} by chars"
        );
    }
}

#[test]
fn search_is_unanchored_unless_the_pattern_anchors() {
    check(
        "es",
        &[("test", true), ("tset", false), ("es", true), ("", false)],
    );
    check("", &[("", true), ("anything", true)]);
    check("^es", &[("test", false), ("est", true)]);
    check("es$", &[("test", false), ("tes", true)]);
    check("^$", &[("", true), ("a", false)]);
    check("a+", &[("xxaayy", true), ("xxyy", false)]);
    check("^a*$", &[("aaa", true), ("abc", false), ("", true)]);
}

#[test]
fn anchors_stand_anywhere_and_test_the_input_ends() {
    check(
        "^a|b$",
        &[("ax", true), ("xb", true), ("xa", false), ("bx", false)],
    );
    check("(^a|b)c", &[("ac", true), ("xac", false), ("xbc", true)]);
    check("a(b$|c)", &[("ab", true), ("abx", false), ("acx", true)]);
    check("x^", &[("x", false), ("", false)]);
    check("$x", &[("x", false)]);
    check("(?:^)*a", &[("ba", true)]);
    check(
        "(^|,)id(,|$)",
        &[
            ("id", true),
            ("a,id", true),
            ("a,id,b", true),
            ("aid", false),
        ],
    );
    // No multiline flag: a line break is not a start or end.
    check("^b", &[("a\nb", false)]);
    check("a$", &[("a\nb", false), ("b\na", true)]);
}

#[test]
fn dot_is_any_code_point_but_a_line_terminator() {
    check(
        "^.$",
        &[
            ("a", true),
            ("\n", false),
            ("\r", false),
            ("\u{2028}", false),
            ("\u{2029}", false),
            ("\u{85}", true),
            ("\t", true),
            ("\0", true),
            ("😀", true),
            ("é", true),
            ("", false),
            ("ab", false),
        ],
    );
    check("^[^]$", &[("\n", true), ("😀", true), ("", false)]);
    check("^[]$", &[("a", false), ("", false)]);
    check("[]|a", &[("a", true), ("b", false)]);
}

#[test]
fn astral_characters_are_one_code_point_not_two_units() {
    check("^😀$", &[("😀", true), ("😀😀", false)]);
    check("^.{2}$", &[("😀😀", true), ("😀", false)]);
    check("^[😀-😎]+$", &[("😀😎😅", true), ("😏", false)]);
    check("^\\u{1F600}$", &[("😀", true)]);
    check("^\\u{01F600}$", &[("😀", true)]);
    // Two \u escapes of a surrogate pair are one code point.
    check("^\\uD83D\\uDE00$", &[("😀", true)]);
    check(
        "^[\\uD83D\\uDE00-\\uD83D\\uDE4F]$",
        &[("😀", true), ("🙏", true), ("🙐", false)],
    );
    // A lone surrogate can never be in a Rust string.
    check("\\uD83D", &[("😀", false), ("\u{FFFD}", false)]);
    check("^[^\\uD800-\\uDFFF]$", &[("😀", true), ("a", true)]);
    check("^\\uD83Dx$", &[("x", false)]);
}

#[test]
fn whitespace_is_ecma_whitespace_and_line_terminators() {
    let spaces = [
        "\t", "\n", "\u{B}", "\u{C}", "\r", " ", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2005}",
        "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}",
    ];
    let not_spaces = ["a", "\u{85}", "\u{180E}", "\u{200B}", "\u{1F}", "_", "\0"];
    let rows: Vec<(&str, bool)> = spaces
        .iter()
        .map(|s| (*s, true))
        .chain(not_spaces.iter().map(|s| (*s, false)))
        .collect();
    check("^\\s$", &rows);
    let negated: Vec<(&str, bool)> = rows.iter().map(|&(s, m)| (s, !m)).collect();
    check("^\\S$", &negated);
    check("^[\\s]$", &rows);
    check("^[^\\S]$", &rows);
}

#[test]
fn digit_and_word_escapes_are_ascii_only() {
    check(
        "^\\d+$",
        &[
            ("0123456789", true),
            ("٣", false),
            ("１", false),
            ("a", false),
        ],
    );
    check("^\\D$", &[("a", true), ("5", false), ("٣", true)]);
    check(
        "^\\w+$",
        &[
            ("azAZ09_", true),
            ("é", false),
            ("-", false),
            ("\u{17F}", false),
            ("\u{212A}", false),
        ],
    );
    check(
        "^\\W$",
        &[("-", true), ("é", true), ("a", false), ("_", false)],
    );
    check("^[\\w-]+$", &[("a-b_c", true), ("a b", false)]);
    check("^[\\d\\s]+$", &[("1 2\t3", true), ("1a", false)]);
    check("^[^\\d\\s]+$", &[("ab", true), ("a1", false)]);
    check("^[\\D]$", &[("a", true), ("1", false)]);
    check("^[\\Wa]+$", &[("a-a", true), ("b", false)]);
}

#[test]
fn word_boundaries() {
    check(
        "\\bfoo\\b",
        &[
            ("foo", true),
            ("a foo.", true),
            ("foobar", false),
            ("afoo", false),
        ],
    );
    check("\\Bfoo", &[("afoo", true), ("foo", false), (" foo", false)]);
    check("^\\b$", &[("", false)]);
    check("^\\B$", &[("", true)]);
    check(
        "\\b",
        &[("", false), (" ", false), ("a", true), ("é", false)],
    );
    check(
        "a\\b",
        &[("a", true), ("ab", false), ("a-", true), ("aé", true)],
    );
    check("\\b_", &[("_", true), ("a_", false)]);
    check("^[\\b]$", &[("\u{8}", true), ("b", false)]);
}

#[test]
fn escapes() {
    check("^\\t\\n\\v\\f\\r\\0$", &[("\t\n\u{B}\u{C}\r\0", true)]);
    check("^\\x41\\u0042\\u{43}$", &[("ABC", true)]);
    check("^\\cJ\\cj$", &[("\n\n", true)]);
    check(
        "^\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/$",
        &[("^$\\.*+?()[]{}|/", true)],
    );
    check("^[\\-\\]\\\\]+$", &[("-]\\", true), ("a", false)]);
    check("^[\\^]$", &[("^", true)]);
    check("^a/b$", &[("a/b", true)]);
    check("^\\u00e9$", &[("é", true), ("e\u{301}", false)]);
    check("^\\u00E9$", &[("é", true)]);
}

#[test]
fn classes_and_ranges() {
    check("^[a-c]+$", &[("abcabc", true), ("abd", false)]);
    check("^[^a-c]+$", &[("xyz", true), ("xaz", false), ("\n", true)]);
    check("^[a-]$", &[("a", true), ("-", true), ("b", false)]);
    check("^[-a]$", &[("-", true), ("a", true)]);
    check("^[a-c-e]+$", &[("a-e", true), ("d", false)]);
    check("^[[]$", &[("[", true)]);
    check("^[.]$", &[(".", true), ("a", false)]);
    check("^[$^*+?(){}|/]+$", &[("$^*+?(){}|/", true)]);
    check(
        "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$",
        &[
            ("bob@example.com", true),
            ("bob at example dot com", false),
            ("b.o+b@ex-ample.co", true),
            ("bob@example.c", false),
        ],
    );
    check("^[^]*$", &[("a\nb", true)]);
    check("^[\\u0000-\\u{10FFFF}]$", &[("😀", true), ("\0", true)]);
    check("^[é-ë]$", &[("ê", true), ("e", false)]);
}

#[test]
fn quantifiers_greedy_and_lazy() {
    check("^a{3}$", &[("aaa", true), ("aa", false), ("aaaa", false)]);
    check("^a{2,}$", &[("a", false), ("aa", true), ("aaaaaa", true)]);
    check(
        "^a{2,3}$",
        &[("a", false), ("aa", true), ("aaa", true), ("aaaa", false)],
    );
    check("^a{0,2}$", &[("", true), ("aa", true), ("aaa", false)]);
    check("^a{0}$", &[("", true), ("a", false)]);
    check("^(?:ab){2}$", &[("abab", true), ("ab", false)]);
    check("^a*?$", &[("aaa", true)]);
    check("^a+?b$", &[("aab", true), ("b", false)]);
    check("^a??b$", &[("ab", true), ("b", true)]);
    check("^a{1,2}?b$", &[("aab", true), ("aaab", false)]);
    check("^a{2,}?$", &[("aaaa", true), ("a", false)]);
    check("^(a|ab)(c|bcd)(d*)$", &[("abcd", true)]);
    check("^(?:a*)*$", &[("aaa", true), ("", true), ("b", false)]);
    check("^(?:a|)+$", &[("aa", true), ("", true)]);
    check("^(|a)+b$", &[("aab", true), ("b", true)]);
    check("^(?:a?){3}$", &[("aa", true), ("aaaa", false)]);
    check(
        "^(?:a{2}){2,3}$",
        &[("aaaa", true), ("aaaaa", false), ("aaaaaa", true)],
    );
    check("^\\d{3}-\\d{4}$", &[("555-1234", true), ("5551234", false)]);
    check("^.{1,255}$", &[("", false), ("x", true)]);
}

#[test]
fn groups_named_and_not() {
    check(
        "^(?<year>\\d{4})-(?<month>\\d{2})$",
        &[("2024-05", true), ("2024-5", false)],
    );
    check("^(?:a|b)c$", &[("ac", true), ("bc", true), ("c", false)]);
    check("^(a|b|)$", &[("", true), ("a", true), ("ab", false)]);
    check("^((a)|(b))+$", &[("abba", true)]);
    check("^(?<$x_1>a)$", &[("a", true)]);
    check("^(?<é>a)$", &[("a", true)]);
    check("()", &[("", true)]);
    check("^()*$", &[("", true), ("a", false)]);
    check("^(?:)+a$", &[("a", true)]);
}

#[test]
fn real_tool_patterns() {
    check(
        "^[a-zA-Z0-9_-]{1,64}$",
        &[("search_orders", true), ("github.create_issue", false)],
    );
    check(
        "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
        &[
            ("123e4567-e89b-12d3-a456-426614174000", true),
            ("123e4567-e89b-12d3-a456-42661417400", false),
        ],
    );
    check(
        "^\\d{4}-\\d{2}-\\d{2}$",
        &[("2024-01-31", true), ("2024-1-31", false)],
    );
    check(
        "^(\\+\\d{1,3})?\\d{10}$",
        &[("+15551234567", true), ("5551234567", true)],
    );
    check("^https?://", &[("https://x.y", true), ("ftp://x", false)]);
    check("^[A-Z]{2}$", &[("US", true), ("us", false)]);
    check(
        "^projects/[^/]+/locations/[^/]+$",
        &[
            ("projects/p1/locations/us", true),
            ("projects/p1/locations/us/x", false),
        ],
    );
}

#[test]
fn unicode_general_categories_letter_number_and_decimal_number() {
    // Letters of every kind: upper, lower, title case (ǅ), modifier (ʰ), other (日, א).
    let letters = ["a", "Z", "π", "Ж", "ǅ", "ʰ", "日", "א", "ß"];
    // Not letters: digits, a letter number (Ⅻ), a fraction, a combining accent, punctuation.
    let not_letters = ["1", "٣", "Ⅻ", "½", "\u{301}", "_", " ", "-", "😀"];
    for pattern in [
        "^\\p{L}$",
        "^\\p{Letter}$",
        "^\\p{gc=L}$",
        "^\\p{General_Category=Letter}$",
    ] {
        let rows: Vec<(&str, bool)> = letters
            .iter()
            .map(|&t| (t, true))
            .chain(not_letters.iter().map(|&t| (t, false)))
            .collect();
        check(pattern, &rows);
    }
    check(
        "^\\P{L}+$",
        &[
            ("123 !", true),
            ("12a", false),
            ("\u{301}", true),
            ("", false),
        ],
    );
    check(
        "^[\\p{L}\\d_-]+$",
        &[("名前_1-x", true), ("a b", false), ("٣", false)],
    );
    check("^[^\\p{L}]$", &[("1", true), ("é", false)]);
    check(
        "^\\p{N}+$",
        &[
            ("123", true),
            ("٣", true),
            ("Ⅻ", true),
            ("½", true),
            ("a", false),
        ],
    );
    check(
        "^\\p{Nd}+$",
        &[("123", true), ("٣४", true), ("Ⅻ", false), ("½", false)],
    );
    check("^\\p{digit}$", &[("7", true), ("x", false)]);
}

/// `\p{N}` is exactly the numbers std knows (`char::is_numeric`: Nd, Nl and No), on the
/// Basic Multilingual Plane, where the table's Unicode 14.0 and std's later version agree.
#[test]
fn the_number_category_agrees_with_std_on_the_basic_plane() {
    let number = Pattern::new("^\\p{N}$").unwrap_or_else(|error| panic!("{error}"));
    let not_number = Pattern::new("^\\P{N}$").unwrap_or_else(|error| panic!("{error}"));
    for c in (0..0x1_0000).filter_map(char::from_u32) {
        let text = c.to_string();
        assert_eq!(
            number.is_match(&text),
            c.is_numeric(),
            "U+{:04X}",
            u32::from(c)
        );
        assert_eq!(
            not_number.is_match(&text),
            !c.is_numeric(),
            "U+{:04X}",
            u32::from(c)
        );
    }
}
