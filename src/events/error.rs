//! [`EventError`]: an event a turn stream cannot take, or a stream that cannot end in a
//! turn. The SDK delivered the events, so the text is for a developer: which event, what was
//! expected, what arrived.

use crate::json::ParseError;
use crate::turn::TurnError;
use std::fmt;

/// Why a turn stream refused an event, or could not end in a turn. Events are numbered from
/// 1, in the order they were fed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum EventError {
    /// The event is not JSON, or breaks the gate's limits.
    NotJson {
        /// Which event.
        event: usize,
        /// The parser's error.
        error: Box<ParseError>,
    },
    /// The event is no provider's, another provider's than the stream's, or contradicts the
    /// stream (a delta for a block never started, a second start of one block).
    Unexpected {
        /// Which event.
        event: usize,
        /// What the stream expected, in words.
        expected: &'static str,
        /// What arrived, as compact JSON cut at 120 characters.
        received: String,
    },
    /// The provider's own `error` event: the turn broke off.
    Failed {
        /// Which event.
        event: usize,
        /// The provider's message (cut at 120 characters).
        message: String,
    },
    /// The stream ended before any event.
    NoEvents,
    /// The turn grew past the gate's `max_bytes`.
    TooLarge {
        /// The limit in force.
        limit: usize,
    },
    /// The assembled turn could not be read (a toolgate bug: it is written to be read).
    Turn(TurnError),
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventError::NotJson { event, error } => {
                write!(f, "Event {event} is not a JSON event: {error}.")
            }
            EventError::Unexpected {
                event,
                expected,
                received,
            } => write!(
                f,
                "Event {event}: expected {expected}; received {received}."
            ),
            EventError::Failed { event, message } => {
                write!(f, "Event {event} is the provider's error: {message}")
            }
            EventError::NoEvents => f.write_str("Expected a turn's stream events; none arrived."),
            EventError::TooLarge { limit } => write!(
                f,
                "The turn the events make is larger than the limit of {limit} bytes."
            ),
            EventError::Turn(error) => {
                write!(f, "The turn the events make cannot be read: {error}")
            }
        }
    }
}

impl std::error::Error for EventError {}
