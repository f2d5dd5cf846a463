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
use crate::spec::ToolSpec;
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
        let Some(spec) = self.gate.spec(&self.name) else {
            let call = Call {
                id: id.map(Cow::Borrowed),
                name: Cow::Borrowed(self.name.as_str()),
                args: Value::Null,
            };
            return self.gate.check_name(&call).err();
        };
        // All the text so far says the most ("received 42", not "received 4"), unless what
        // came after the refusal breaks an earlier gate: then the refused prefix answers.
        [self.kept.len(), refused.prefix]
            .into_iter()
            .find_map(|len| {
                let text = self.kept.get(..len)?;
                let rejection = self.judge_text(spec, text, id)?;
                (rejection.kind() == refused.kind).then_some(rejection)
            })
    }

    /// The rejection of `text`, the provider form's arguments so far, if any.
    fn judge_text(&self, spec: &ToolSpec, text: &[u8], id: Option<&str>) -> Option<Rejection> {
        let id = id.map(String::from);
        let mut builder = PartialBuilder::new(self.gate.limits());
        if let Err(Stop::Invalid(error)) = builder.feed(text) {
            return Some(Rejection::MalformedJson {
                id,
                tool: Some(self.name.clone()),
                part: Part::Arguments,
                error: Box::new(error.locate(text)),
            });
        }
        let (value, open) = builder.partial()?;
        if !matches!(value, Value::Object(_)) {
            let call = Call {
                id: id.map(Cow::Owned),
                name: Cow::Borrowed(self.name.as_str()),
                args: value.clone(),
            };
            return check_object(spec, &call).err();
        }
        let violation = spec.params().validate_partial(value, open).err()?;
        Some(Rejection::SchemaViolation {
            id,
            tool: self.name.clone(),
            violation,
        })
    }
}
