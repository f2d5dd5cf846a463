//! What is still open at the end of a partial value, the shape a stream's partial tree is
//! lent in: a model writes left to right, so only the chain of last members from the root
//! can be open.

/// What is still being written at the end of a partial value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Open<'k> {
    /// How many containers are still open along the chain of last members (or items)
    /// from the root: 0 means the value is whole. The root is the first of them.
    pub(crate) containers: usize,
    /// What stands last inside the innermost open container.
    pub(crate) tail: Tail<'k>,
}

/// What stands last inside the innermost open container of a partial value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Only a stream's builder makes an open tail; the core validates whole values.
#[cfg_attr(not(feature = "stream"), allow(dead_code))]
pub(crate) enum Tail<'k> {
    /// Its last member or item is whole, or it has none yet. A literal still being
    /// written (`tru`) is not in the tree yet, so it reads as this too.
    Whole,
    /// Its last member or item is a string still being written: the `Value::String`
    /// holds the text so far.
    String,
    /// Its last member or item is a number still being written: the `Value::Number` is a
    /// stand-in (the longest valid prefix, or `0`), so only "can a number stand here" is
    /// known.
    Number,
    /// It is an object whose next key has arrived whole; the key's value has not begun.
    Key(&'k str),
}

impl Open<'_> {
    /// A value that is whole: nothing open.
    pub(crate) const WHOLE: Open<'static> = Open {
        containers: 0,
        tail: Tail::Whole,
    };
}
