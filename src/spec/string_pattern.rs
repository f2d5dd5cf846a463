//! A type's `pattern`: the source as written (exported, and shown to the model) and the
//! compiled [`Pattern`] or its error, which the spec build reports (the builder cannot fail).

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
