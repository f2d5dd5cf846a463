//! `enum` and `const` compiled for a stream: the allowed values sorted by kind, so that a
//! scalar is matched as it arrives and a string as it grows.
//!
//! A string value may arrive in parts (an escape, a chunk boundary). The allowed strings
//! are kept sorted by their bytes, so the ones that start with the text read so far are one
//! contiguous range; each part narrows the range, and an empty range means that no ending
//! of the string can be allowed, which the streaming check reports at once. Arrays and
//! objects are compared whole, under JSON Schema equality, once the value is complete.

use super::equal::equal;
use crate::json::decimal::compare;
use crate::json::same_name;
use crate::json::Value;
use std::cmp::Ordering;

/// The allowed values of one `enum` (or the one value of a `const`).
#[derive(Debug)]
pub(crate) struct Choices {
    /// As declared, in declaration order: for messages, and for comparing containers.
    pub(crate) values: Vec<Value<'static>>,
    /// The allowed strings, sorted by bytes, without repeats.
    strings: Vec<String>,
    /// The allowed numbers' texts.
    numbers: Vec<String>,
    null: bool,
    true_: bool,
    false_: bool,
    /// True if an array (or an object) is allowed: such a value must be compared whole.
    arrays: bool,
    objects: bool,
}

/// The allowed strings that begin with the text read so far: `start..end` in sorted order.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Prefix {
    start: u32,
    end: u32,
}

impl Choices {
    pub(crate) fn new(values: &[Value<'static>]) -> Choices {
        let mut choices = Choices {
            values: values.to_vec(),
            strings: Vec::new(),
            numbers: Vec::new(),
            null: false,
            true_: false,
            false_: false,
            arrays: false,
            objects: false,
        };
        for value in values {
            match value {
                Value::Null => choices.null = true,
                Value::Bool(true) => choices.true_ = true,
                Value::Bool(false) => choices.false_ = true,
                Value::Number(number) => choices.numbers.push(number.as_str().to_owned()),
                Value::String(text) => choices.strings.push(text.to_string()),
                Value::Array(_) => choices.arrays = true,
                Value::Object(_) => choices.objects = true,
            }
        }
        choices.strings.sort_unstable();
        choices.strings.dedup();
        choices
    }

    pub(super) fn allows_null(&self) -> bool {
        self.null
    }

    pub(super) fn allows_bool(&self, b: bool) -> bool {
        if b {
            self.true_
        } else {
            self.false_
        }
    }

    /// True if the number equals an allowed number (by value: `1` is `1.0`).
    /// True if some number is allowed.
    #[cfg(feature = "stream")]
    pub(super) fn allows_some_number(&self) -> bool {
        !self.numbers.is_empty()
    }

    pub(super) fn allows_number(&self, text: &str) -> bool {
        self.numbers
            .iter()
            .any(|allowed| allowed == text || compare(allowed, text) == Ordering::Equal)
    }

    /// True if the whole string is allowed: a few are compared in turn (names compare
    /// fast), more are searched (apart, so that the common case saves no registers for the
    /// search's calls).
    pub(super) fn allows_string(&self, text: &str) -> bool {
        if self.strings.len() <= 16 {
            return self.strings.iter().any(|allowed| same_name(allowed, text));
        }
        self.searches_string(text)
    }

    #[inline(never)]
    fn searches_string(&self, text: &str) -> bool {
        self.strings
            .binary_search_by(|allowed| allowed.as_bytes().cmp(text.as_bytes()))
            .is_ok()
    }

    /// True if an array (`array` true) or object of this kind may be allowed; such a value
    /// is compared whole when it ends.
    pub(super) fn may_allow_container(&self, array: bool) -> bool {
        if array {
            self.arrays
        } else {
            self.objects
        }
    }

    /// True if the complete container `value` equals an allowed value.
    pub(super) fn allows_container(&self, value: &Value<'_>) -> bool {
        self.values.iter().any(|allowed| equal(allowed, value))
    }

    /// Every allowed string: nothing of the string has been read yet.
    pub(super) fn all_strings(&self) -> Prefix {
        Prefix {
            start: 0,
            end: u32::try_from(self.strings.len()).unwrap_or(u32::MAX),
        }
    }

    /// Narrows `prefix` (the strings that begin with the first `offset` bytes read) to
    /// those that go on with `part`.
    pub(super) fn narrow(&self, prefix: Prefix, offset: usize, part: &[u8]) -> Prefix {
        let range = self.range(prefix);
        // Within the range every string shares the first `offset` bytes, so they are
        // sorted by what follows; the ones that go on with `part` are contiguous.
        let following = |allowed: &String| -> Ordering {
            let bytes = allowed.as_bytes();
            let end = offset.saturating_add(part.len()).min(bytes.len());
            bytes.get(offset..end).unwrap_or(&[]).cmp(part)
        };
        let start = range.partition_point(|allowed| following(allowed) == Ordering::Less);
        let end = range.partition_point(|allowed| following(allowed) != Ordering::Greater);
        let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Prefix {
            start: prefix.start.saturating_add(to_u32(start)),
            end: prefix.start.saturating_add(to_u32(end.max(start))),
        }
    }

    /// True if no allowed string begins with what has been read.
    pub(super) fn none_left(&self, prefix: Prefix) -> bool {
        self.range(prefix).is_empty()
    }

    /// True if the string read, `len` bytes that every string in `prefix` begins with, is
    /// itself allowed: the shortest string of the range (its first, in sorted order) is
    /// exactly that long.
    pub(super) fn ends_allowed(&self, prefix: Prefix, len: usize) -> bool {
        self.range(prefix)
            .first()
            .is_some_and(|allowed| allowed.len() == len)
    }

    fn range(&self, prefix: Prefix) -> &[String] {
        let start = usize::try_from(prefix.start).unwrap_or(usize::MAX);
        let end = usize::try_from(prefix.end).unwrap_or(usize::MAX);
        self.strings.get(start..end).unwrap_or(&[])
    }
}
