//! Validation: arguments against a [`Schema`], returning the first [`Violation`] in a
//! documented order. (Skeleton: lands with issue #3.)

use super::{Schema, ToolSpec, Violation};
use crate::json::Value;

impl Schema {
    /// Checks `value` against this schema.
    ///
    /// # Errors
    /// The first [`Violation`].
    pub fn validate(&self, value: &Value<'_>) -> Result<(), Violation> {
        let _ = value;
        Ok(())
    }
}

impl ToolSpec {
    /// Checks a call's arguments against this tool's contract.
    ///
    /// # Errors
    /// The first [`Violation`].
    pub fn validate(&self, args: &Value<'_>) -> Result<(), Violation> {
        self.params.validate(args)
    }
}
