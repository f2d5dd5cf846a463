//! The stand-in for the regex engine in a build without the `pattern` feature: a
//! [`Pattern`] with no values.
//!
//! The validator names `Pattern` and calls its methods. With this type that code compiles
//! unchanged and can never run, which is the truth of such a build: it refuses `pattern`
//! and `patternProperties` at load, by name (see `spec/schema/keywords.rs`), so no compiled
//! type ever holds a pattern.

/// A compiled pattern, of which a build without the engine has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pattern {}

impl Pattern {
    /// The pattern as written.
    pub(crate) fn as_str(&self) -> &str {
        match *self {}
    }

    /// Whether `text` contains a match.
    pub(crate) fn is_match(&self, _text: &str) -> bool {
        match *self {}
    }
}
