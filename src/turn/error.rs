//! [`TurnError`]: a text that is no turn at all, so there are no calls to answer. It is the
//! caller's mistake, not the model's (the SDK wrote the turn), so its text is for a developer:
//! what was expected, where, and what arrived.

use crate::json::ParseError;
use crate::json::PREVIEW_CHARS;
use std::fmt;

/// Why a text could not be read as an assistant turn. Paths are dotted
/// (`choices.0.message`); `""` is the top level.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TurnError {
    /// The text is not JSON, or stops short: the parser's error.
    NotJson(Box<ParseError>),
    /// JSON, but in no form of turn toolgate reads.
    NotATurn {
        /// What arrived: its kind, and an object's keys (cut at 120 characters).
        found: String,
    },
    /// A member the turn's form reads holds the wrong kind of value.
    WrongType {
        /// Where.
        path: String,
        /// What it must be, with its article (`"an array of tool calls"`).
        expected: &'static str,
        /// What arrived, as compact JSON cut at 120 characters.
        received: String,
    },
    /// A list the turn is taken from is empty (`choices`, `candidates`).
    Empty {
        /// Where.
        path: String,
        /// What it must hold (`"a choice"`).
        expected: &'static str,
    },
    /// A member the turn's form needs is missing (a choice without its `message`).
    Missing {
        /// Where it belongs.
        path: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A member the turn's form reads is given twice: which holds the calls is a guess.
    DuplicateKey {
        /// The key, dotted with its place (`"tool_calls"`, `"choices.0.message"`).
        path: String,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::NotJson(error) if error.is_truncated() => write!(
                f,
                "Expected a whole assistant turn as JSON; the text stops short: {error}."
            ),
            TurnError::NotJson(error) => {
                write!(f, "Expected an assistant turn as JSON; {error}.")
            }
            TurnError::NotATurn { found } => write!(
                f,
                "Expected an assistant turn at the top level (an OpenAI chat message or \
                 completion, an Anthropic message or content list, a Responses output list or \
                 response, a Gemini content, candidate or response, or a list of calls); \
                 received {found}."
            ),
            TurnError::WrongType {
                path,
                expected,
                received,
            } => write!(
                f,
                "Expected {expected} at {}; received {received}.",
                At(path)
            ),
            TurnError::Empty { path, expected } => write!(
                f,
                "Expected {expected} at {}; received an empty list.",
                At(path)
            ),
            TurnError::Missing { path, expected } => {
                write!(f, "Expected {expected} at {}; received nothing.", At(path))
            }
            TurnError::DuplicateKey { path } => write!(
                f,
                "Expected `{path}` once; received it twice, and readers disagree on which one \
                 counts."
            ),
        }
    }
}

impl std::error::Error for TurnError {}

/// A path in a sentence: `` `choices.0` ``, or "the top level" for `""`.
struct At<'p>(&'p str);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("the top level")
        } else {
            write!(f, "`{}`", self.0)
        }
    }
}

/// `text` cut at [`PREVIEW_CHARS`] characters, with `…` when cut.
pub(crate) fn cut(text: String) -> String {
    match text.char_indices().nth(PREVIEW_CHARS) {
        Some((end, _)) => {
            let mut short = text;
            short.truncate(end);
            short.push('…');
            short
        }
        None => text,
    }
}
