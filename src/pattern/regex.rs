//! [`Pattern`]: a pattern compiled once to an NFA (`compile.rs`), matched against many
//! texts (`run.rs`).

use super::compile::{self, Program};
use super::error::PatternError;
use super::parse;
use super::run::{self, Matcher};
use std::fmt;

/// A compiled pattern. Compile once, match many texts; matching never allocates.
///
/// Two patterns are equal when their sources are, and `Debug` shows the source, so a
/// pattern can sit in a schema's data model like the string it was read from.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    pub(super) program: Program,
    /// The program's closures, precomputed when it is small enough (see `run.rs`).
    pub(super) tables: Option<run::Tables>,
}

impl Pattern {
    /// Compiles `source`, an ECMA-262 pattern in unicode mode (the module doc lists the
    /// dialect).
    ///
    /// # Errors
    ///
    /// A [`PatternError`] with the character offset of the problem (the kinds are
    /// [`PatternErrorKind`](super::PatternErrorKind)'s):
    /// - `Unsupported` for valid ECMA-262 this engine refuses: backreferences, lookaround,
    ///   a `\p{...}` other than `L`, `N` and `Nd`, inline flags;
    /// - `TooLarge` when the program needs more than [`MAX_STATES`](super::MAX_STATES)
    ///   states, and `TooDeep` for groups nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH);
    /// - any other kind for text that is not an ECMA-262 pattern in unicode mode: what was
    ///   expected and what arrived (`Unexpected`), a quantifier with nothing to repeat, a
    ///   range or repetition out of order, an unclosed `[` or `(`.
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
    /// anchors itself with `^` or `$`. Costs at most [`MAX_STATES`](super::MAX_STATES)
    /// steps per character.
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
