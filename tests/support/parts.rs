//! A value written as a reader's events, for the tests of strings that arrive in parts (a
//! run, a character written as an escape, another run): the same value as one JSON text.

use toolgate::json::Event;
use toolgate::spec::Schema;

/// Whether `schema` accepts the value whose text `events` stand for, each `StringChar`
/// written as a `\u` escape.
pub fn accepts(schema: &Schema, events: &[Event<'static>]) -> bool {
    let mut text = String::new();
    for event in events {
        match event {
            Event::ObjectStart => text.push('{'),
            Event::ObjectEnd => text.push('}'),
            Event::Key(key) => text.push_str(&format!("\"{key}\":")),
            Event::StringStart | Event::StringEnd => text.push('"'),
            Event::StringPart(part) => text.push_str(part),
            Event::StringChar(c) => text.push_str(&format!("\\u{:04x}", u32::from(*c))),
            other => panic!("not used here: {other:?}"),
        }
    }
    let value = toolgate::json::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    schema.validate(&value).is_ok()
}
