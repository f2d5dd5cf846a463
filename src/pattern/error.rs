//! `PatternError`: why a pattern was refused, and where (in characters). The message says
//! which of three reasons, because the fix differs: not ECMA-262 (a typo), ECMA-262 this
//! engine will not run ([`Unsupported`]), or too big ([`PatternErrorKind::TooLarge`]).

use std::fmt;

/// A pattern that cannot be compiled: the condition and the character offset it was found at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pub(super) kind: PatternErrorKind,
    pub(super) offset: usize,
}

/// The condition a [`PatternError`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternErrorKind {
    /// Valid ECMA-262 that this engine refuses, by name.
    Unsupported(Unsupported),
    /// The syntax allows `expected` here; `found` arrived instead (`None`: the pattern ended).
    Unexpected {
        /// What the syntax allows here, in words (`"a hex digit"`).
        expected: &'static str,
        /// The character found, or `None` at the end of the pattern.
        found: Option<char>,
    },
    /// A quantifier (`*`, `+`, `?`, `{`) with no atom before it (unicode mode forbids `^*`).
    NothingToRepeat {
        /// The quantifier's first character.
        quantifier: char,
    },
    /// `{min,max}` with `min > max`, such as `a{2,1}`.
    RepeatOutOfOrder {
        /// The minimum written.
        min: u32,
        /// The maximum written.
        max: u32,
    },
    /// A class range whose start is above its end, such as `[z-a]`.
    RangeOutOfOrder {
        /// The start's code point.
        start: u32,
        /// The end's code point.
        end: u32,
    },
    /// A class escape at one end of a range, such as `[\d-z]`.
    ClassEscapeInRange,
    /// A `[` with no `]` after it.
    UnclosedClass,
    /// A `(` with no `)` after it.
    UnclosedGroup,
    /// Groups nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    TooDeep {
        /// The limit in force.
        limit: usize,
    },
    /// A program over [`MAX_STATES`](super::MAX_STATES) states, such as `.{1,5000}`'s.
    TooLarge {
        /// The limit in force.
        limit: usize,
    },
}

/// ECMA-262 constructs the engine refuses, each for a reason its message gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unsupported {
    /// `\1` to `\9`: not a regular language; every known algorithm backtracks.
    Backreference,
    /// `\k<name>`: a backreference by name.
    NamedBackreference,
    /// `(?=...)`.
    Lookahead,
    /// `(?!...)`.
    NegativeLookahead,
    /// `(?<=...)`.
    Lookbehind,
    /// `(?<!...)`.
    NegativeLookbehind,
    /// `\p{...}` naming a property other than `L`, `N` and `Nd`: its table is not carried.
    PropertyEscape,
    /// `(?i)`, `(?i:...)` and the like: JSON Schema patterns carry no flags but `u`.
    Modifiers,
}

impl PatternError {
    /// The condition found.
    pub fn kind(&self) -> &PatternErrorKind {
        &self.kind
    }

    /// Where it was found, in characters (code points) from the start of the pattern.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl Unsupported {
    /// The construct as it is written, and why it is refused.
    fn describe(self) -> (&'static str, &'static str) {
        const NOT_LINEAR: &str = "it cannot be checked in linear time";
        match self {
            Unsupported::Backreference => ("the backreference \\1", NOT_LINEAR),
            Unsupported::NamedBackreference => ("the backreference \\k<name>", NOT_LINEAR),
            Unsupported::Lookahead => ("lookahead (?=...)", NOT_LINEAR),
            Unsupported::NegativeLookahead => ("negative lookahead (?!...)", NOT_LINEAR),
            Unsupported::Lookbehind => ("lookbehind (?<=...)", NOT_LINEAR),
            Unsupported::NegativeLookbehind => ("negative lookbehind (?<!...)", NOT_LINEAR),
            Unsupported::PropertyEscape => (
                "the Unicode property class \\p{...}",
                "of Unicode's properties only the general categories L (Letter), N (Number) and \
                 Nd (Decimal_Number) are carried",
            ),
            Unsupported::Modifiers => (
                "an inline flag such as (?i)",
                "JSON Schema patterns take no flags",
            ),
        }
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match &self.kind {
            PatternErrorKind::Unsupported(construct) => {
                let (written, reason) = construct.describe();
                write!(f, "{written} at character {at} is not supported: {reason}")
            }
            PatternErrorKind::Unexpected { expected, found } => {
                write!(f, "expected {expected} at character {at}, found ")?;
                match found {
                    Some(c) => write!(f, "'{}'", c.escape_debug()),
                    None => f.write_str("the end of the pattern"),
                }
            }
            PatternErrorKind::NothingToRepeat { quantifier } => {
                write!(
                    f,
                    "the quantifier '{quantifier}' at character {at} has nothing to repeat (a \
                     literal '{quantifier}' is written \\{quantifier})"
                )
            }
            PatternErrorKind::RepeatOutOfOrder { min, max } => write!(
                f,
                "the repetition {{{min},{max}}} at character {at} is out of order: its minimum is \
                 above its maximum"
            ),
            PatternErrorKind::RangeOutOfOrder { start, end } => write!(
                f,
                "the class range {}-{} at character {at} is out of order: its start is above its \
                 end",
                CodePoint(*start),
                CodePoint(*end)
            ),
            PatternErrorKind::ClassEscapeInRange => write!(
                f,
                "the class range at character {at} has a class escape (\\d, \\w or \\s) at one \
                 end; write \\- for a literal '-'"
            ),
            PatternErrorKind::UnclosedClass => {
                write!(
                    f,
                    "the class '[' at character {at} is never closed with ']'"
                )
            }
            PatternErrorKind::UnclosedGroup => {
                write!(
                    f,
                    "the group '(' at character {at} is never closed with ')'"
                )
            }
            PatternErrorKind::TooDeep { limit } => write!(
                f,
                "the group at character {at} nests deeper than {limit} groups"
            ),
            PatternErrorKind::TooLarge { limit } => write!(
                f,
                "the pattern needs more than {limit} states (at character {at}); use a smaller \
                 repetition count, or maxLength for a length limit"
            ),
        }
    }
}

impl std::error::Error for PatternError {}

/// A code point in a message: the character if printable, else `U+XXXX`.
struct CodePoint(u32);

impl fmt::Display for CodePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match char::from_u32(self.0) {
            Some(c) if !c.is_control() => write!(f, "{c}"),
            _ => write!(f, "U+{:04X}", self.0),
        }
    }
}
