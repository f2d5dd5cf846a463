//! [`Path`]: a place inside a JSON value, as the member keys and array indices that lead
//! there from the root, and the three ways toolgate writes one.
//!
//! Every message that says *where* (a violation, a schema or tools-file load error, a
//! contradiction in a spec, a spec with no strict form) builds its place as a `Path`, so
//! the rules for joining and quoting are written once, here:
//!
//! - `Display`, the *location* form, for places in what a person wrote (a tools file, a
//!   schema, a spec): `tools[2].input_schema.properties.zip`. A key that is not a plain
//!   name is quoted as a JSON string (`properties["a b"]`), so a path reads back one way
//!   only. A place in a schema can also stand for every item of an array (`[]`,
//!   [`Segment::AnyIndex`]) or every member an object does not declare (`*`,
//!   [`Segment::AnyKey`]): `filters.tags[]`, `headers.*`.
//! - [`Path::dotted`], the form of a violation's path (`items.2.sku`): segments joined by
//!   dots, keys as sent. It is what the model reads and what programs match on
//!   ([`Violation::path`](crate::spec::Violation::path)), unchanged since 0.1.
//! - [`Path::pointer`], an RFC 6901 JSON Pointer (`/items/2/sku`), for places a `$ref`
//!   names.
//!
//! ```
//! use toolgate::json::Path;
//! let path = Path::root().key("items").index(2).key("unit price");
//! assert_eq!(path.to_string(), r#"items[2]["unit price"]"#);
//! assert_eq!(path.dotted(), "items.2.unit price");
//! assert_eq!(path.pointer(), "/items/2/unit price");
//! ```

use std::fmt;

/// A place inside a JSON value: the segments from the root, outermost first. The root
/// itself is the empty path, written `""` in every form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Path {
    segments: Vec<Segment>,
}

/// One step of a [`Path`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// The member with this key.
    Key(String),
    /// The array item at this index (from 0).
    Index(usize),
    /// Every item of an array (`[]`): a place in a schema whose rule holds for each item.
    AnyIndex,
    /// Every member an object does not declare (`*`): a place in a schema whose rule
    /// holds for each of them.
    AnyKey,
}

impl Path {
    /// The root: the empty path.
    pub fn root() -> Path {
        Path::default()
    }

    /// This path, then the member `key`.
    #[must_use]
    pub fn key(&self, key: impl Into<String>) -> Path {
        self.with(Segment::Key(key.into()))
    }

    /// This path, then the item at `index`.
    #[must_use]
    pub fn index(&self, index: usize) -> Path {
        self.with(Segment::Index(index))
    }

    /// This path, then `segment`.
    #[must_use]
    pub fn with(&self, segment: Segment) -> Path {
        let mut path = self.clone();
        path.push(segment);
        path
    }

    /// Appends `segment`.
    pub fn push(&mut self, segment: Segment) {
        self.segments.push(segment);
    }

    /// Removes and returns the last segment; `None` at the root.
    pub fn pop(&mut self) -> Option<Segment> {
        self.segments.pop()
    }

    /// The segments, outermost first.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// True for the root.
    pub fn is_root(&self) -> bool {
        self.segments.is_empty()
    }

    /// The violation form: `items.2.sku`, every segment after a dot and keys as they are
    /// (`AnyIndex` and `AnyKey` as `[]` and `*`).
    pub fn dotted(&self) -> String {
        let mut out = String::new();
        for (index, segment) in self.segments.iter().enumerate() {
            if index > 0 {
                out.push('.');
            }
            match segment {
                Segment::Key(key) => out.push_str(key),
                Segment::Index(item) => out.push_str(&item.to_string()),
                Segment::AnyIndex => out.push_str("[]"),
                Segment::AnyKey => out.push('*'),
            }
        }
        out
    }

    /// The RFC 6901 JSON Pointer: `/items/2/sku`, with `~` written `~0` and `/` written
    /// `~1` inside a key; `""` for the root. A pointer names one place, so `AnyIndex` and
    /// `AnyKey`, which name many, are written as the token `*`.
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            out.push('/');
            match segment {
                Segment::Key(key) => out.push_str(&key.replace('~', "~0").replace('/', "~1")),
                Segment::Index(item) => out.push_str(&item.to_string()),
                Segment::AnyIndex | Segment::AnyKey => out.push('*'),
            }
        }
        out
    }
}

impl FromIterator<Segment> for Path {
    fn from_iter<I: IntoIterator<Item = Segment>>(segments: I) -> Path {
        Path {
            segments: segments.into_iter().collect(),
        }
    }
}

impl fmt::Display for Path {
    /// The location form: `tools[2].input_schema.properties["a b"]`, `filters.tags[]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, segment) in self.segments.iter().enumerate() {
            let dot = if index == 0 { "" } else { "." };
            match segment {
                Segment::Key(key) if is_plain(key) => write!(f, "{dot}{key}")?,
                Segment::Key(key) => {
                    f.write_str("[")?;
                    super::write_escaped_str(f, key)?;
                    f.write_str("]")?;
                }
                Segment::Index(item) => write!(f, "[{item}]")?,
                Segment::AnyIndex => f.write_str("[]")?,
                Segment::AnyKey => write!(f, "{dot}*")?,
            }
        }
        Ok(())
    }
}

/// A key the location form writes bare: letters, digits, `_`, `-` and `$` (so `$defs`
/// stays readable); any other key is quoted.
fn is_plain(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$')
}
