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
//! # #[cfg(feature = "pattern")] {
//! use toolgate::pattern::Pattern;
//!
//! let sku = Pattern::new(r"^[A-Z]{3}-\d{4}$")?;
//! assert!(sku.is_match("ABC-1234"));
//! assert!(!sku.is_match("abc-1234"));
//! // Unanchored unless the pattern anchors, as JSON Schema requires.
//! assert!(Pattern::new("es")?.is_match("test"));
//! // What backtracking cannot do quickly, this does in one pass.
//! assert!(!Pattern::new("^(a+)+$")?.is_match(&format!("{}b", "a".repeat(100_000))));
//! # }
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
//!
//! # The `pattern` feature
//!
//! The engine is the `pattern` Cargo feature (on by default). A build without it keeps only
//! the error types here, which [`LoadError`](crate::spec::LoadError) and
//! [`SpecError`](crate::spec::SpecError) name, and refuses the `pattern` and
//! `patternProperties` keywords at load, by name, saying which feature enforces them.

mod error;
pub use error::{PatternError, PatternErrorKind, Unsupported};

// The engine is the `pattern` feature. The error types above stay in every build: the
// public load and spec errors carry one, and keeping them whole is simpler and more honest
// than an empty copy (a build without the engine refuses the keywords, so it never makes one).
#[cfg(feature = "pattern")]
mod class;
#[cfg(feature = "pattern")]
mod compile;
#[cfg(feature = "pattern")]
mod parse;
#[cfg(feature = "pattern")]
mod regex;
#[cfg(feature = "pattern")]
mod run;
#[cfg(feature = "pattern")]
mod unicode;
#[cfg(feature = "pattern")]
pub use regex::Pattern;
#[cfg(feature = "pattern")]
pub use run::Matcher;

// Without the engine, a `Pattern` with no values stands in for it, so that the validator,
// which names the type, compiles unchanged and never runs a pattern.
#[cfg(not(feature = "pattern"))]
#[path = "off.rs"]
mod regex;
#[cfg(not(feature = "pattern"))]
pub(crate) use regex::Pattern;

/// The most NFA states a pattern may compile to. It sizes the bitsets every matcher
/// carries (three of 512 bytes, and an 8 KiB work stack), and it is ample for real tools'
/// patterns: `^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$` needs 13 and `^.{1,255}$`
/// about 520. Each character of text costs at most this many steps.
pub const MAX_STATES: usize = 4096;

/// The deepest nesting of groups a pattern may use. The compiler walks the syntax tree
/// recursively, so its depth must be bounded; no real pattern comes near.
pub const MAX_DEPTH: usize = 64;
