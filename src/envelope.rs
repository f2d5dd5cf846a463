//! Envelopes: every provider's shape of a tool call, read into one [`Call`].
//! (Skeleton: the API contract; lands with issue #4.)

use crate::json::Value;
use std::borrow::Cow;

/// One tool call, whatever shape it arrived in.
#[derive(Clone, Debug, PartialEq)]
pub struct Call<'a> {
    /// The call id, where the shape has one: every answer pairs with it.
    pub id: Option<Cow<'a, str>>,
    /// The tool name the model used.
    pub name: Cow<'a, str>,
    /// The arguments (`{}` when absent).
    pub args: Value<'a>,
}
