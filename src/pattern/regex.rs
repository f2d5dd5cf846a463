//! [`Pattern`]: compiled once to an NFA (`compile.rs`), matched against many texts (`run.rs`).

use super::compile::{self, Program};
use super::error::PatternError;
use super::parse;
use super::run::{self, Matcher};
use std::fmt;

/// A compiled pattern. Compile once, match many texts; matching never allocates. Equality
/// and `Debug` go by the source.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    pub(super) program: Program,
    pub(super) tables: Option<run::Tables>,
}

impl Pattern {
    /// Compiles `source`, an ECMA-262 pattern in unicode mode (the module doc lists the
    /// dialect).
    ///
    /// # Errors
    ///
    /// A [`PatternError`] at the problem's character offset: `Unsupported` for ECMA-262 this
    /// engine refuses, `TooLarge`/`TooDeep` past the limits, any other kind for text that is
    /// not an ECMA-262 pattern in unicode mode.
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

    /// Whether the pattern matches somewhere in `text` (unless it anchors with `^` or `$`).
    pub fn is_match(&self, text: &str) -> bool {
        run::is_match(self, text)
    }

    /// A matcher for text that arrives in parts.
    pub fn matcher(&self) -> Matcher<'_> {
        Matcher::new(self)
    }

    /// The number of NFA states (the per-character step bound). For the tests.
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
