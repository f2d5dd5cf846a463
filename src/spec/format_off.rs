//! `format` without the `format` feature: a [`Format`] with no values, so the rule and the
//! validator keep their shape (such a build refuses the keyword at load, by name).

use crate::json::{Kind, Number};
use std::fmt;

/// A `format` value toolgate enforces: none in this build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {}

impl Format {
    /// Every format: none in this build.
    pub const ALL: [Format; 0] = [];

    /// The format a schema's `"format"` value names: `None`, whatever the name.
    pub fn from_name(_name: &str) -> Option<Format> {
        None
    }

    /// The keyword value, as a schema spells it.
    pub fn name(self) -> &'static str {
        match self {}
    }

    /// What a value of this format is, as the rest of a sentence after "must be".
    pub fn phrase(self) -> &'static str {
        match self {}
    }

    /// The kind of value the format constrains.
    pub fn applies_to(self) -> Kind {
        match self {}
    }

    /// The longest string, in bytes, this format accepts, or `None` if there is no limit.
    pub fn max_len(self) -> Option<usize> {
        match self {}
    }

    /// True if `text` is a value of this format.
    pub fn accepts_str(self, _text: &str) -> bool {
        match self {}
    }

    /// True if `number` is a value of this format.
    pub fn accepts_number(self, _number: &Number<'_>) -> bool {
        match self {}
    }
}

impl From<Format> for String {
    /// The keyword value.
    fn from(format: Format) -> String {
        match format {}
    }
}

impl fmt::Display for Format {
    /// The keyword value.
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}
