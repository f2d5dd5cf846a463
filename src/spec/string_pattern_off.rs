//! The `pattern` a type keeps, in a build without the `pattern` feature: a type with no
//! values, so that the validator and the exports, which read a type's patterns, compile
//! unchanged and find none. Such a build refuses `pattern` and `patternProperties` at load
//! by name, and has no builder method that sets one.

use crate::pattern::{Pattern, PatternError};
use std::sync::Arc;

/// A `pattern`, of which a build without the regex engine has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StringPattern {}

impl StringPattern {
    /// The pattern as written.
    pub(crate) fn source(&self) -> &str {
        match *self {}
    }

    /// The compiled pattern, or why it does not compile.
    pub(crate) fn compiled(&self) -> Result<&Arc<Pattern>, &PatternError> {
        match *self {}
    }
}
