//! The rejection of a refused stream's text so far: the sentence the model should read when
//! the agent cancels its generation at the refusal, without waiting for the call to end.
//!
//! It is built from the shortest refused prefix, by the gate's own parts: an unknown name is
//! [`Gate::check_name`]'s answer (with its suggestions), arguments that are no object are
//! [`check_object`]'s, a broken spec is the partial validation's [`Violation`], and text that
//! is not JSON is the parser's error. [`CallStream::finish`] still has the last word on the
//! whole call (an earlier gate may refuse what arrives later).
//!
//! [`Violation`]: crate::spec::Violation

use super::{CallStream, Form};
use crate::envelope::Call;
use crate::gate::check_object;
use crate::json::{PartialBuilder, Stop, Value};
use crate::rejection::{Part, Rejection};
use std::borrow::Cow;

impl CallStream<'_> {
    /// Once the stream is [`Progress::Refused`](super::Progress::Refused) in the provider
    /// form, the rejection of the text so far, for the call with id `id` (the stream does
    /// not see ids): what the model reads if the agent stops the generation there. `None`
    /// while pending, and in the raw form, whose envelope only
    /// [`CallStream::finish`] reads whole.
    pub fn rejection(&self, id: Option<&str>) -> Option<Rejection> {
        let refused = self.refused?;
        if self.form != Form::Arguments {
            return None;
        }
        let id = id.map(String::from);
        let call = |args| Call {
            id: id.as_deref().map(Cow::Borrowed),
            name: Cow::Borrowed(self.name.as_str()),
            args,
        };
        let Some(spec) = self.gate.spec(&self.name) else {
            return self.gate.check_name(&call(Value::Null)).err();
        };
        let prefix = self.kept.get(..refused.prefix)?;
        let mut builder = PartialBuilder::new(self.gate.limits());
        if let Err(Stop::Invalid(error)) = builder.feed(prefix) {
            return Some(Rejection::MalformedJson {
                id,
                tool: Some(self.name.clone()),
                part: Part::Arguments,
                error: Box::new(error.locate(prefix)),
            });
        }
        let (value, open) = builder.partial()?;
        if !matches!(value, Value::Object(_)) {
            return check_object(spec, &call(value.clone())).err();
        }
        let violation = spec.params().validate_partial(value, open).err()?;
        Some(Rejection::SchemaViolation {
            id,
            tool: self.name.clone(),
            violation,
        })
    }
}
