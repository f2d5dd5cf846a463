//! JSON Schema's `pattern`: ECMA-262 regular expressions, checked in time linear in the text
//! whatever the pattern.
//!
//! The text is the model's, so untrusted, and a backtracking engine can take time
//! exponential in it (`^(a+)+$`). Here a pattern compiles once to an NFA and the text runs
//! through all its states at once: at most the program's size in steps per character.
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
//! The dialect is ECMA-262's with the `u` flag, as JSON Schema specifies: code points (`.`
//! matches one emoji), unicode mode's strict syntax, classes, `\d \w \s \b` with ECMA's
//! sets, `^`/`$` at the input's ends, groups, alternation and greedy or lazy quantifiers;
//! `\p{...}` names only `L`, `N` and `Nd` (Unicode 14.0). `Pattern::new` refuses by name
//! ([`Unsupported`]) what has no linear-time check (backreferences, lookaround), other
//! properties and inline flags, programs over [`MAX_STATES`] states and groups nested
//! deeper than [`MAX_DEPTH`]. Without the `pattern` feature only the error types remain
//! and the keywords are refused at load.

mod error;
pub use error::{PatternError, PatternErrorKind, Unsupported};

// The error types stay in every build: the public load and spec errors carry one.
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

// Without the engine, a `Pattern` with no values stands in for it.
#[cfg(not(feature = "pattern"))]
#[path = "off.rs"]
mod regex;
#[cfg(not(feature = "pattern"))]
pub(crate) use regex::Pattern;

/// The most NFA states a pattern may compile to: it sizes a matcher's fixed bitsets, and
/// each character of text costs at most this many steps.
pub const MAX_STATES: usize = 4096;

/// The deepest nesting of groups a pattern may use (the compiler recurses on the tree).
pub const MAX_DEPTH: usize = 64;
