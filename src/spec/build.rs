//! Building a [`ToolSpec`] in Rust, and [`SpecError`]: the contradictions refused when a
//! spec is built, never at call time. (Skeleton: lands with issue #3.)

use std::fmt;

/// A spec that cannot be built: the declaration itself is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecError {
    pub(crate) message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}
