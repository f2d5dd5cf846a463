//! [`Violation`]: the first rule a value breaks, with its dotted path and the received
//! value. (Skeleton: lands with issue #3.)

use std::fmt;

/// The first rule an argument value breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Dotted path from the arguments root (`filters.limit`, `items.2.sku`; `""` for the root).
    pub(crate) path: String,
    /// The rule broken, with its data.
    pub(crate) rule: Rule,
    /// The received value as compact JSON, cut at 120 characters on a character boundary.
    pub(crate) received: String,
}

/// A rule a value can break.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Rule {
    /// Placeholder until issue #3.
    Placeholder,
}

impl Violation {
    /// Dotted path from the arguments root; `""` for the root itself.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The rule broken.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    /// The received value as compact JSON, cut at 120 characters.
    pub fn received(&self) -> &str {
        &self.received
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is invalid; received {}", self.path, self.received)
    }
}
