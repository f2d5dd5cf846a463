//! The stand-in for the regex engine without the `pattern` feature: a [`Pattern`] with no
//! values, so the validator compiles unchanged (such a build refuses the keywords at load).

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
