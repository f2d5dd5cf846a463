//! What the server said its tools are: the gate built from its `tools/list` results, page by
//! page, and what could not be loaded strictly. The proxy checks a call against this, so it
//! must never claim more than the server said: until the last page has arrived, a name
//! not seen yet may still be on a later page, and a tool whose schema cannot be loaded is
//! known by name only.

use crate::gate::Gate;
use crate::json::{Path, Value};
use crate::spec::load_tool_entry;

/// The tools learned from one listing (a `tools/list` without a cursor and the pages that
/// follow it).
#[derive(Debug)]
pub(crate) struct Listing {
    pub(crate) gate: Gate,
    /// Tools whose schema loaded only leniently: checked, but not on every keyword.
    pub(crate) lenient: Vec<String>,
    /// Tools listed whose schema could not be loaded even leniently: their calls pass
    /// unchecked.
    pub(crate) unloadable: Vec<String>,
    /// The first page (a request without a cursor) was learned.
    first_page: bool,
    /// A page without `nextCursor` was learned: no later page can add a tool.
    last_page: bool,
}

/// What the proxy knows of a tool called by name.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// Its schema is in the gate: check the call.
    Checked,
    /// Its schema is not known (no listing yet, a page still to come, or a schema that
    /// could not be loaded): the call passes unchecked.
    Unknown,
    /// Every page was learned and no tool has this name: refuse it.
    Absent,
}

impl Listing {
    /// A listing with no page learned.
    fn new(first_page: bool) -> Listing {
        Listing {
            gate: Gate::empty(),
            lenient: Vec::new(),
            unloadable: Vec::new(),
            first_page,
            last_page: false,
        }
    }

    /// What is known of the tool named `name`.
    pub(crate) fn known(&self, name: &str) -> Known {
        if self.gate.spec(name).is_some() {
            Known::Checked
        } else if self.unloadable.iter().any(|tool| tool == name)
            || !(self.first_page && self.last_page)
        {
            Known::Unknown
        } else {
            Known::Absent
        }
    }
}

/// Learns one page, a `tools/list` result: a fresh listing when its request had no
/// cursor, else the next page of `listing` (or of an unknown first page, after
/// `notifications/tools/list_changed` made the proxy forget). Returns the sentences for
/// standard error: each tool loaded leniently (and what is not enforced), each tool not
/// loaded at all (and why), each name given twice.
pub(crate) fn learn_page(
    listing: &mut Option<Listing>,
    result: &Value<'_>,
    fresh: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    let page = match listing.take() {
        Some(page) if !fresh => listing.insert(page),
        _ => listing.insert(Listing::new(fresh)),
    };
    let tools_path = Path::root().key("result").key("tools");
    let entries = result.get("tools").and_then(Value::as_array).unwrap_or(&[]);
    for (index, entry) in entries.iter().enumerate() {
        let path = tools_path.index(index);
        let name = entry.get("name").and_then(Value::as_str).unwrap_or("");
        let loaded = match load_tool_entry(entry, &path, false) {
            Ok((specs, _)) => Ok(specs),
            Err(strict) => match load_tool_entry(entry, &path, true) {
                Ok((specs, unenforced)) => {
                    let skipped: Vec<String> = unenforced.iter().map(ToString::to_string).collect();
                    notes.push(format!(
                        "tool '{name}': its schema cannot be loaded strictly ({strict}); \
                         loaded leniently, not enforced: {}",
                        skipped.join("; ")
                    ));
                    page.lenient.push(name.to_owned());
                    Ok(specs)
                }
                Err(error) => Err(error),
            },
        };
        match loaded {
            Ok(specs) => {
                for spec in specs {
                    let spec_name = spec.name().to_owned();
                    if page.gate.add(spec).is_err() {
                        notes.push(format!(
                            "tool '{spec_name}' is listed twice; the first listing is checked"
                        ));
                    }
                }
            }
            Err(error) => {
                notes.push(format!(
                    "tool '{name}': its schema cannot be loaded ({error}); its calls pass \
                     unchecked"
                ));
                page.unloadable.push(name.to_owned());
            }
        }
    }
    let next_cursor = result
        .get("nextCursor")
        .is_some_and(|cursor| !cursor.is_null());
    page.last_page = !next_cursor;
    notes
}
