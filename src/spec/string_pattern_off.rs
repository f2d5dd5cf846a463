//! A type's `pattern` without the `pattern` feature: no values (the keywords are refused).

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
