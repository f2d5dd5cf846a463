//! The `pattern` keyword's value as a type keeps it: the source as written (for export and
//! for the violation text, which shows it to the model) and the compiled [`Pattern`], or
//! why it did not compile.
//!
//! The Rust builder takes a pattern by value and cannot fail (`Type::string().pattern(..)`
//! chains like every other rule), so a pattern that does not compile is kept with its
//! error and refused when the spec is built, as a [`SpecError`](super::SpecError), like an
//! empty range. The importer refuses it at load. A compiled type never validates with an
//! uncompiled pattern: the program of a type with one is never built.

use crate::pattern::{Pattern, PatternError};
use std::fmt;
use std::sync::Arc;

/// A `pattern`: its source and what compiling it gave.
#[derive(Clone)]
pub(crate) struct StringPattern {
    /// Shared with the compiled program, which keeps a clone (the NFA is compiled once).
    compiled: Result<Arc<Pattern>, PatternError>,
    source: String,
}

impl StringPattern {
    /// Compiles `source`; an error is kept, for the build check to report.
    pub(crate) fn new(source: &str) -> StringPattern {
        StringPattern {
            compiled: Pattern::new(source).map(Arc::new),
            source: source.to_string(),
        }
    }

    /// The pattern as written.
    pub(crate) fn source(&self) -> &str {
        &self.source
    }

    /// The compiled pattern, or why it does not compile.
    pub(crate) fn compiled(&self) -> Result<&Arc<Pattern>, &PatternError> {
        self.compiled.as_ref()
    }
}

impl fmt::Debug for StringPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.source)
    }
}

/// Two patterns are the same rule when they are written the same.
impl PartialEq for StringPattern {
    fn eq(&self, other: &StringPattern) -> bool {
        self.source == other.source
    }
}

impl Eq for StringPattern {}
