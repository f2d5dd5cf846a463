//! JSON Schema's `pattern`: ECMA-262 regular expressions, checked in time linear in the text
//! whatever the pattern.
//!
//! The text a pattern is checked against is written by the model, so it is untrusted, and a
//! backtracking engine (JavaScript's, PCRE, Python's `re`) can take time exponential in its
//! length: `^(a+)+$` against thirty `a`s and a `b` is a billion steps. Here a pattern is
//! compiled once to an NFA and the text is run through all of its states at once (see
//! `run.rs`), so a check costs at most the program's size for each character, and no pattern
//! a tool declares can turn a call into a denial of service.
//!
//! ```
//! use toolgate::pattern::Pattern;
//!
//! let sku = Pattern::new(r"^[A-Z]{3}-\d{4}$")?;
//! assert!(sku.is_match("ABC-1234"));
//! assert!(!sku.is_match("abc-1234"));
//! // Unanchored unless the pattern anchors, as JSON Schema requires.
//! assert!(Pattern::new("es")?.is_match("test"));
//! // What backtracking cannot do quickly, this does in one pass.
//! assert!(!Pattern::new("^(a+)+$")?.is_match(&format!("{}b", "a".repeat(100_000))));
//! # Ok::<(), toolgate::pattern::PatternError>(())
//! ```
//!
//! # The dialect
//!
//! ECMA-262 with the `u` flag, as JSON Schema specifies: code points, not UTF-16 units (`.`
//! matches one emoji), and the strict syntax of unicode mode (`\a`, a lone `{` and `[z-a]`
//! are errors). Literals, `.` (anything but a line terminator), classes `[...]` and
//! `[^...]` with ranges, `\d \D \w \W \s \S` (ECMA's sets: `\d` is ASCII digits, `\s`
//! includes U+00A0 and U+FEFF), `\b \B`, `\t \n \v \f \r \0 \cX \xHH \uXXXX \u{X...}`
//! (`\uD83D\uDE00` written as two escapes is one code point), escaped metacharacters, `^`
//! and `$` anywhere (the input's ends: there is no multiline flag), groups `(...)`, `(?:...)`
//! and `(?<name>...)`, alternation, and the quantifiers `* + ? {n} {n,} {n,m}`, greedy or
//! lazy. `\p{...}` and `\P{...}` name three general categories, `L` (`Letter`), `N`
//! (`Number`) and `Nd` (`Decimal_Number`), as of Unicode 14.0, in or out of a class.
//!
//! # What is refused, and why
//!
//! [`Pattern::new`] refuses, by name ([`Unsupported`]), what it cannot check in linear time:
//! backreferences (`\1`, `\k<name>`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`); also
//! any other Unicode property (`\p{Lu}`, `\p{Script=Greek}`: their tables are not carried)
//! and inline flags. It refuses a pattern whose
//! program exceeds [`MAX_STATES`] states (`.{1,5000}`: counted repetitions are written out)
//! and groups nested deeper than [`MAX_DEPTH`]. A refused pattern is a schema error at load,
//! never a silently ignored keyword.

mod class;
mod compile;
mod error;
mod parse;
mod run;
mod unicode;

pub use error::{PatternError, PatternErrorKind, Unsupported};
pub use run::Matcher;

use compile::Program;
use std::fmt;

/// The most NFA states a pattern may compile to. It sizes the bitsets every
/// [`Matcher`] carries (three of 512 bytes, and an 8 KiB work stack), and it is ample for
/// real tools' patterns: `^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$` needs 13 and
/// `^.{1,255}$` about 520. Each character of text costs at most this many steps.
pub const MAX_STATES: usize = 4096;

/// The deepest nesting of groups a pattern may use. The compiler walks the syntax tree
/// recursively, so its depth must be bounded; no real pattern comes near.
pub const MAX_DEPTH: usize = 64;

/// A compiled pattern. Compile once, match many texts; matching never allocates.
///
/// Two patterns are equal when their sources are, and `Debug` shows the source, so a
/// pattern can sit in a schema's data model like the string it was read from.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    program: Program,
    /// The program's closures, precomputed when it is small enough (see `run.rs`).
    tables: Option<run::Tables>,
}

impl Pattern {
    /// Compiles `source`, an ECMA-262 pattern in unicode mode (the module doc lists the
    /// dialect).
    ///
    /// # Errors
    ///
    /// A [`PatternError`] with the character offset of the problem:
    /// - [`PatternErrorKind::Unsupported`] for valid ECMA-262 this engine refuses:
    ///   backreferences, lookaround, a `\p{...}` other than `L`, `N` and `Nd`, inline flags;
    /// - [`PatternErrorKind::TooLarge`] when the program needs more than [`MAX_STATES`]
    ///   states, and [`PatternErrorKind::TooDeep`] for groups nested deeper than
    ///   [`MAX_DEPTH`];
    /// - any other kind for text that is not an ECMA-262 pattern in unicode mode: what was
    ///   expected and what arrived ([`PatternErrorKind::Unexpected`]), a quantifier with
    ///   nothing to repeat, a range or repetition out of order, an unclosed `[` or `(`.
    ///
    /// ```
    /// use toolgate::pattern::{Pattern, PatternErrorKind, Unsupported};
    ///
    /// let error = Pattern::new(r"^(?=.*\d)\w+$").unwrap_err();
    /// assert_eq!(error.kind(), &PatternErrorKind::Unsupported(Unsupported::Lookahead));
    /// assert_eq!(
    ///     error.to_string(),
    ///     "lookahead (?=...) at character 1 is not supported: it cannot be checked in linear time"
    /// );
    /// ```
    pub fn new(source: &str) -> Result<Pattern, PatternError> {
        let tree = parse::parse(source)?;
        let program = compile::compile(&tree)?;
        Ok(Pattern {
            source: source.to_owned(),
            tables: run::Tables::build(&program),
            program,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether `text` contains a match: the pattern matches somewhere in it, unless it
    /// anchors itself with `^` or `$`. Costs at most [`MAX_STATES`] steps per character.
    pub fn is_match(&self, text: &str) -> bool {
        run::is_match(self, text)
    }

    /// A matcher for text that arrives in parts.
    pub fn matcher(&self) -> Matcher<'_> {
        Matcher::new(self)
    }

    /// The number of NFA states the pattern compiled to: a match costs at most this many
    /// steps per character. Not part of the API; the tests use it.
    #[doc(hidden)]
    pub fn n_states(&self) -> usize {
        self.program.insts.len()
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl Eq for Pattern {}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}
