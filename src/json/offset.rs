//! [`offset_of`]: where, in a text, the value or key at a [`Path`](super::Path) starts. A
//! `Value` keeps no offsets, so a stream finds its refusal point by reading the text (or a
//! prefix of it) once more, following the path.

use super::event::{Event, Sink};
use super::path::Segment;
use super::reader::{Limits, Reader};
use std::ops::ControlFlow;

/// The byte offset in `text` where the value at `path` starts, or with `key` its key (the
/// key's opening quote; `path` then ends with that key); `None` when the text holds no such
/// value, or is not JSON before it.
pub(crate) fn offset_of(text: &[u8], path: &[Segment], key: bool) -> Option<usize> {
    let limits = Limits {
        max_depth: Limits::DEPTH_CEILING,
        max_bytes: text.len(),
    };
    let mut reader = Reader::new(limits);
    let mut finder = Finder {
        path,
        key,
        on_path: Vec::new(),
        off_path: 0,
        found: None,
    };
    // A sink that broke found the path, or the container it was to be in ended.
    let read_all = reader.feed(text, &mut finder).is_ok();
    if read_all && !key && finder.off_path == 0 {
        // A string or number the text ends inside: the reader sends nothing for it yet.
        if let Some(start) = reader.string_started().or(reader.number_started()) {
            if finder.value_is_target() {
                finder.found = Some(start);
            }
        }
    }
    finder.found
}

/// The sink that follows a path through a text's events.
struct Finder<'p> {
    path: &'p [Segment],
    key: bool,
    /// The open containers on the path, outermost first: the `n`th holds the value of
    /// `path[n]`.
    on_path: Vec<Place>,
    /// How many containers are open inside a value off the path (0 when on it).
    off_path: usize,
    found: Option<usize>,
}

/// An open container on the path.
struct Place {
    is_object: bool,
    /// For an object: whether its current member is the path's next segment.
    current: bool,
    /// For an array: the index of its next item.
    next_item: usize,
}

impl Finder<'_> {
    /// Whether the value that starts now, inside the innermost container on the path, is on
    /// the path (counting it, in an array), and whether it is the path's end.
    fn value_is_target(&mut self) -> bool {
        self.on_path(true) && self.on_path.len() == self.path.len()
    }

    /// Whether the value that starts now is on the path; `count` moves an array on to its
    /// next item.
    fn on_path(&mut self, count: bool) -> bool {
        let depth = self.on_path.len();
        let Some(place) = self.on_path.last_mut() else {
            return true;
        };
        if place.is_object {
            return place.current;
        }
        let index = place.next_item;
        if count {
            place.next_item = index.saturating_add(1);
        }
        matches!(self.path.get(depth.saturating_sub(1)), Some(Segment::Index(want)) if *want == index)
    }
}

impl<'a> Sink<'a> for Finder<'_> {
    fn event(&mut self, event: Event<'a>, at: usize) -> ControlFlow<()> {
        let opens = matches!(event, Event::ArrayStart | Event::ObjectStart);
        if self.off_path > 0 {
            match event {
                Event::ArrayStart | Event::ObjectStart => self.off_path += 1,
                Event::ArrayEnd | Event::ObjectEnd => self.off_path -= 1,
                _ => {}
            }
            return ControlFlow::Continue(());
        }
        match event {
            Event::Key(key) => {
                let depth = self.on_path.len();
                let wanted = matches!(self.path.get(depth.wrapping_sub(1)),
                    Some(Segment::Key(want)) if *want == *key);
                if let Some(place) = self.on_path.last_mut() {
                    place.current = wanted;
                }
                if wanted && self.key && depth == self.path.len() {
                    self.found = Some(at);
                    return ControlFlow::Break(());
                }
            }
            // The container that holds the path closed without it.
            Event::ArrayEnd | Event::ObjectEnd => return ControlFlow::Break(()),
            Event::StringPart(_) | Event::StringChar(_) | Event::StringEnd => {}
            _ => {
                if !self.on_path(true) {
                    self.off_path = usize::from(opens);
                } else if self.on_path.len() == self.path.len() {
                    if !self.key {
                        self.found = Some(at);
                    }
                    return ControlFlow::Break(());
                } else if opens {
                    self.on_path.push(Place {
                        is_object: matches!(event, Event::ObjectStart),
                        current: false,
                        next_item: 0,
                    });
                }
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> Segment {
        Segment::Key(text.to_owned())
    }

    /// The text from where `offset_of` points, up to 6 bytes.
    fn at(text: &str, path: &[Segment], is_key: bool) -> Option<String> {
        let start = offset_of(text.as_bytes(), path, is_key)?;
        Some(text.get(start..)?.chars().take(6).collect())
    }

    #[test]
    fn values_and_keys_are_found_where_they_start() {
        let text = r#"{"a": 1, "b": [true, {"c": "x\"y", "d": [[], -2]}], "e": null}"#;
        let b = [key("b")];
        let b1c = [key("b"), Segment::Index(1), key("c")];
        let b1d1 = [key("b"), Segment::Index(1), key("d"), Segment::Index(1)];
        assert_eq!(at(text, &[], false).as_deref(), Some(r#"{"a": "#));
        assert_eq!(at(text, &[key("a")], false).as_deref(), Some("1, \"b\""));
        assert_eq!(at(text, &[key("a")], true).as_deref(), Some("\"a\": 1"));
        assert_eq!(at(text, &b, false).as_deref(), Some("[true,"));
        assert_eq!(at(text, &b1c, false).as_deref(), Some(r#""x\"y""#));
        assert_eq!(at(text, &b1c, true).as_deref(), Some(r#""c": ""#));
        assert_eq!(at(text, &b1d1, false).as_deref(), Some("-2]}],"));
        assert_eq!(at(text, &[key("e")], false).as_deref(), Some("null}"));
        // Not there: a missing key, an index past the end, a path through a scalar.
        assert_eq!(at(text, &[key("z")], false), None);
        assert_eq!(at(text, &[key("b"), Segment::Index(2)], false), None);
        assert_eq!(at(text, &[key("a"), key("x")], false), None);
    }

    #[test]
    fn a_prefix_points_at_the_value_it_ends_inside() {
        assert_eq!(
            offset_of(br#"{"a": [1, "xy"#, &[key("a"), Segment::Index(1)], false),
            Some(10)
        );
        assert_eq!(
            offset_of(br#"{"a": [1, ""#, &[key("a"), Segment::Index(1)], false),
            Some(10)
        );
        assert_eq!(
            offset_of(br#"{"a": [1, -12"#, &[key("a"), Segment::Index(1)], false),
            Some(10)
        );
        assert_eq!(
            offset_of(br#"{"a": [1, tr"#, &[key("a"), Segment::Index(1)], false),
            None
        );
        assert_eq!(
            offset_of(br#"{"a": [1, -1"#, &[key("a"), Segment::Index(0)], false),
            Some(7)
        );
    }
}
