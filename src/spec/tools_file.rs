//! Declaration files: a tools array in any provider's form, mixed freely.
//!
//! One file can hold the tools exactly as a request sends them, whichever provider it goes
//! to, so the gate checks the same declarations the model was shown. Each entry is read by
//! its shape:
//!
//! | Form | Shape | Arguments schema |
//! |---|---|---|
//! | Anthropic | `{name, description, input_schema}` (also `type: "custom"`) | JSON Schema |
//! | OpenAI chat | `{type: "function", function: {name, description, parameters, strict}}` | JSON Schema |
//! | OpenAI Responses | `{type: "function", name, description, parameters, strict}` | JSON Schema |
//! | MCP | `{name, description, inputSchema}` (also `input_schema`) | JSON Schema |
//! | Gemini | `{functionDeclarations: [{name, description, parameters}]}` (also `function_declarations`) | Gemini's dialect, or `parametersJsonSchema` |
//!
//! A bare `{name, description, parameters}` (a Gemini function declaration on its own, or a
//! legacy OpenAI `functions` entry) is read like a Gemini declaration. The file may be the
//! array itself, or an object holding it under `tools` (a request body, an MCP `tools/list`
//! result, also under `result.tools`), or one Gemini tool object.
//!
//! What real files carry beyond that loads too: other keys (`cache_control`, `strict`,
//! `title`, `annotations`, `outputSchema`, `_meta`…) are not about the arguments and are
//! ignored; a key whose value is `null` counts as absent; a tool with no arguments schema
//! takes no arguments (an object with no fields, unknown fields refused). In Gemini's
//! `parameters`, the SDKs' spellings are read (`"OBJECT"`, `nullable`, `any_of`,
//! `"maxLength": "10"`…), and `parametersJsonSchema`, when present, is the schema: it takes
//! precedence over `parameters`, as the Gemini API documents.

use super::schema::{import_schema, present, tool_spec, Dialect};
use super::{Kinds, LoadError, ObjectType, Schema, ToolSpec, Type, Unenforced};
use crate::json::{parse_with, repeated_key, Limits, Member, Path, Value};

/// The largest tools file read, in bytes (a tools array is loaded once; 16 MiB holds
/// thousands of tools).
pub const MAX_TOOLS_FILE_BYTES: usize = 16 << 20;

/// Reads a tools file (Anthropic, OpenAI chat, OpenAI Responses, MCP and Gemini forms,
/// mixed freely; see the [module](self) documentation) into specs, in file order.
///
/// ```
/// let specs = toolgate::spec::load_tools(r#"[
///   {"name": "get_weather", "description": "Current weather for a city.",
///    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
///                     "required": ["city"]}}
/// ]"#)?;
/// assert_eq!(specs[0].name(), "get_weather");
/// # Ok::<(), toolgate::spec::LoadError>(())
/// ```
///
/// # Errors
/// - [`LoadError::Syntax`]: the text is not JSON (with line and column), or is larger than
///   [`MAX_TOOLS_FILE_BYTES`].
/// - [`LoadError::Shape`]: not a tools array, or an entry that is not a tool in any form
///   (no name, a name that is not a string, two keys declaring the arguments).
/// - [`LoadError::BuiltIn`]: a provider's built-in tool, whose schema is not in the file.
/// - [`LoadError::DuplicateTool`]: two tools with one name.
/// - [`LoadError::Spec`]: an invalid tool name, arguments that are not an object, or a
///   contradiction ([`ToolSpec::from_schema`]).
/// - Any error of [`Schema::from_json_schema`], with the tool and path
///   (`tools[2].input_schema.properties.zip: 'pattern' is not enforced`).
pub fn load_tools(text: &str) -> Result<Vec<ToolSpec>, LoadError> {
    load_tools_from_value(&parse_file(text)?)
}

/// Like [`load_tools`], but a keyword toolgate cannot enforce, or a provider's built-in
/// tool, is skipped and listed instead of refused (see
/// [`Schema::from_json_schema_lenient`]: what loads accepts every value the file's schemas
/// accept).
///
/// # Errors
/// As [`load_tools`], except [`LoadError::Unsupported`], [`LoadError::BuiltIn`] and remote
/// or anchor references, which are listed.
pub fn load_tools_lenient(text: &str) -> Result<(Vec<ToolSpec>, Vec<Unenforced>), LoadError> {
    load_tools_from_value_lenient(&parse_file(text)?)
}

/// [`load_tools`] on a document already parsed.
///
/// # Errors
/// As [`load_tools`], without [`LoadError::Syntax`].
pub fn load_tools_from_value(document: &Value<'_>) -> Result<Vec<ToolSpec>, LoadError> {
    let mut loader = Loader::new(false);
    loader.file(document)?;
    Ok(loader.specs)
}

/// [`load_tools_lenient`] on a document already parsed.
///
/// # Errors
/// As [`load_tools_lenient`], without [`LoadError::Syntax`].
pub fn load_tools_from_value_lenient(
    document: &Value<'_>,
) -> Result<(Vec<ToolSpec>, Vec<Unenforced>), LoadError> {
    let mut loader = Loader::new(true);
    loader.file(document)?;
    Ok((loader.specs, loader.unenforced))
}

/// One entry of a tools array (a tool in any form above), read at `path` as [`load_tools`]
/// (or, with `lenient`, [`load_tools_lenient`]) reads each entry; a Gemini tool object may
/// declare several specs. The MCP proxy learns a `tools/list` page tool by tool with it, so
/// that one schema it cannot load leaves every other tool checked. Names are not compared
/// across entries: the caller keeps them distinct.
///
/// # Errors
/// As [`load_tools`] (or [`load_tools_lenient`]), without [`LoadError::Syntax`] and
/// [`LoadError::DuplicateTool`] between entries.
pub fn load_tool_entry(
    entry: &Value<'_>,
    path: &Path,
    lenient: bool,
) -> Result<(Vec<ToolSpec>, Vec<Unenforced>), LoadError> {
    let mut loader = Loader::new(lenient);
    loader.entry(entry, path)?;
    Ok((loader.specs, loader.unenforced))
}

fn parse_file(text: &str) -> Result<Value<'_>, LoadError> {
    let limits = Limits {
        max_bytes: MAX_TOOLS_FILE_BYTES,
        ..Limits::default()
    };
    parse_with(text, limits).map_err(LoadError::Syntax)
}

/// Where the arguments schema of one declaration is, and how it is spelled.
struct Arguments<'v, 'a> {
    key: &'v str,
    schema: &'v Value<'a>,
    dialect: Dialect,
}

struct Loader {
    lenient: bool,
    specs: Vec<ToolSpec>,
    /// Where each spec was declared, for duplicate-name errors.
    places: Vec<Path>,
    unenforced: Vec<Unenforced>,
}

impl Loader {
    fn new(lenient: bool) -> Loader {
        Loader {
            lenient,
            specs: Vec::new(),
            places: Vec::new(),
            unenforced: Vec::new(),
        }
    }

    /// The whole file: the array, or the object that holds it.
    fn file(&mut self, document: &Value<'_>) -> Result<(), LoadError> {
        let root = Path::root();
        let tools = root.key("tools");
        if let Some(entries) = document.as_array() {
            return self.entries(entries, &tools);
        }
        if let Some(members) = document.as_object() {
            unique(members, &root)?;
            if let Some(value) = present(members, "tools") {
                let entries = value
                    .as_array()
                    .ok_or_else(|| shape(&tools, EXPECTED_ARRAY, value))?;
                return self.entries(entries, &tools);
            }
            if let Some(result) = present(members, "result").and_then(Value::as_object) {
                if let Some(value) = present(result, "tools") {
                    let tools = root.key("result").key("tools");
                    let entries = value
                        .as_array()
                        .ok_or_else(|| shape(&tools, EXPECTED_ARRAY, value))?;
                    return self.entries(entries, &tools);
                }
            }
            if gemini_declarations(members).is_some() {
                return self.gemini_tool(members, &root);
            }
        }
        Err(shape(&root, EXPECTED_FILE, document))
    }

    fn entries(&mut self, entries: &[Value<'_>], base: &Path) -> Result<(), LoadError> {
        for (index, entry) in entries.iter().enumerate() {
            self.entry(entry, &base.index(index))?;
        }
        Ok(())
    }

    /// One entry of the tools array, read by its shape.
    fn entry(&mut self, entry: &Value<'_>, path: &Path) -> Result<(), LoadError> {
        let members = entry
            .as_object()
            .ok_or_else(|| shape(path, EXPECTED_TOOL, entry))?;
        unique(members, path)?;
        if gemini_declarations(members).is_some() {
            return self.gemini_tool(members, path);
        }
        match present(members, "type") {
            Some(Value::String(kind)) if kind == "function" => {
                if let Some(function) = present(members, "function") {
                    let inner = path.key("function");
                    let fields = function
                        .as_object()
                        .ok_or_else(|| shape(&inner, EXPECTED_TOOL, function))?;
                    unique(fields, &inner)?;
                    return self.declaration(fields, &inner, Dialect::JsonSchema);
                }
                return self.declaration(members, path, Dialect::JsonSchema);
            }
            Some(Value::String(kind)) if kind == "custom" && has_schema_key(members) => {
                return self.declaration(members, path, Dialect::JsonSchema);
            }
            Some(Value::String(kind)) => return self.built_in(path, kind),
            Some(other) => {
                return Err(shape(
                    &path.key("type"),
                    "a tool type (a string such as \"function\")",
                    other,
                ))
            }
            None => {}
        }
        if present(members, "name").is_none() {
            return Err(shape(path, EXPECTED_TOOL, entry));
        }
        self.declaration(members, path, Dialect::Gemini)
    }

    /// A Gemini tool object: its function declarations, and any built-in tool beside them.
    fn gemini_tool(&mut self, members: &[Member<'_>], path: &Path) -> Result<(), LoadError> {
        for (key, value) in members {
            if value.is_null() {
                continue;
            }
            let key: &str = key;
            if key == "functionDeclarations" || key == "function_declarations" {
                let list = path.key(key);
                let declarations = value
                    .as_array()
                    .ok_or_else(|| shape(&list, "an array of function declarations", value))?;
                for (index, declaration) in declarations.iter().enumerate() {
                    let place = list.index(index);
                    let fields = declaration
                        .as_object()
                        .ok_or_else(|| shape(&place, "a function declaration", declaration))?;
                    unique(fields, &place)?;
                    self.declaration(fields, &place, Dialect::Gemini)?;
                }
            } else {
                self.built_in(&path.key(key), key)?;
            }
        }
        Ok(())
    }

    fn built_in(&mut self, path: &Path, kind: &str) -> Result<(), LoadError> {
        if self.lenient {
            self.unenforced.push(Unenforced {
                path: path.to_string(),
                keyword: kind.to_string(),
            });
            return Ok(());
        }
        Err(LoadError::BuiltIn {
            path: path.to_string(),
            kind: kind.to_string(),
        })
    }

    /// One function: its name, description and arguments schema, in whichever spelling;
    /// `parameters` is read in `dialect` (JSON Schema in the OpenAI forms, Gemini's in a
    /// function declaration).
    fn declaration(
        &mut self,
        fields: &[Member<'_>],
        path: &Path,
        dialect: Dialect,
    ) -> Result<(), LoadError> {
        let name = match present(fields, "name") {
            Some(Value::String(name)) => name.to_string(),
            Some(other) => {
                return Err(shape(
                    &path.key("name"),
                    "the tool's name (a string)",
                    other,
                ))
            }
            None => {
                return Err(LoadError::Shape {
                    path: path.to_string(),
                    expected: "a tool with a \"name\"",
                    found: "none".to_string(),
                })
            }
        };
        let description = match present(fields, "description") {
            Some(Value::String(text)) => text.to_string(),
            Some(other) => {
                return Err(shape(
                    &path.key("description"),
                    "the tool's description (a string)",
                    other,
                ))
            }
            None => String::new(),
        };
        let arguments = arguments(fields, path, dialect)?;
        let schema = match &arguments {
            Some(arguments) => {
                let base = path.key(arguments.key);
                let (schema, unenforced) =
                    import_schema(arguments.schema, &base, arguments.dialect, self.lenient)?;
                self.unenforced.extend(unenforced);
                schema
            }
            None => no_arguments(),
        };
        let spec = tool_spec(name, description, schema, path)?;
        if let Some(first) = self
            .specs
            .iter()
            .position(|other| other.name == spec.name)
            .and_then(|index| self.places.get(index))
        {
            return Err(LoadError::DuplicateTool {
                path: path.to_string(),
                name: spec.name.clone(),
                first: first.to_string(),
            });
        }
        self.specs.push(spec);
        self.places.push(path.clone());
        Ok(())
    }
}

const EXPECTED_FILE: &str = "a tools array, or an object with a \"tools\" array";
const EXPECTED_ARRAY: &str = "an array of tools";
const EXPECTED_TOOL: &str = "a tool in Anthropic, OpenAI, Responses, MCP or Gemini form \
                             (an object with a \"name\")";

/// The keys that declare a function's arguments, in the order they are looked for.
const SCHEMA_KEYS: &[&str] = &[
    "input_schema",
    "inputSchema",
    "parametersJsonSchema",
    "parameters_json_schema",
    "parameters",
];

/// Which arguments schema a declaration has. Only Gemini's documented pair may appear
/// together (`parametersJsonSchema` wins over `parameters`); any other two are an error,
/// since reading one would ignore the other.
fn arguments<'v, 'a>(
    fields: &'v [Member<'a>],
    path: &Path,
    dialect: Dialect,
) -> Result<Option<Arguments<'v, 'a>>, LoadError> {
    let found: Vec<(&'v str, &'v Value<'a>)> = SCHEMA_KEYS
        .iter()
        .filter_map(|&key| present(fields, key).map(|value| (key, value)))
        .collect();
    let (key, schema) = match found.as_slice() {
        [] => return Ok(None),
        [one] => *one,
        [first, (second, _)] if *second == "parameters" && first.0.starts_with("parameters") => {
            *first
        }
        [(first, _), (second, _), ..] => {
            return Err(LoadError::Shape {
                path: path.to_string(),
                expected: "one key declaring the arguments",
                found: format!("both '{first}' and '{second}'"),
            })
        }
    };
    let dialect = if key == "parameters" {
        dialect
    } else {
        Dialect::JsonSchema
    };
    Ok(Some(Arguments {
        key,
        schema,
        dialect,
    }))
}

/// The arguments of a tool that declares none: an object with no fields, unknown fields
/// refused (the function takes nothing, so anything sent is a mistake).
fn no_arguments() -> Schema {
    Schema::new(
        Type {
            kinds: Kinds::OBJECT,
            object: Some(Box::new(ObjectType::default())),
            ..Type::default()
        },
        Vec::new(),
    )
}

fn gemini_declarations<'v, 'a>(members: &'v [Member<'a>]) -> Option<&'v Value<'a>> {
    present(members, "functionDeclarations").or_else(|| present(members, "function_declarations"))
}

fn has_schema_key(members: &[Member<'_>]) -> bool {
    SCHEMA_KEYS
        .iter()
        .any(|key| present(members, key).is_some())
}

/// Refuses a repeated key: two readers of the file could take different copies.
fn unique(members: &[Member<'_>], path: &Path) -> Result<(), LoadError> {
    let Some((key, _)) = repeated_key(members, |(key, _)| key).and_then(|i| members.get(i)) else {
        return Ok(());
    };
    Err(LoadError::Shape {
        path: path.to_string(),
        expected: "each key once (two JSON readers may keep different copies)",
        found: format!("\"{key}\" twice"),
    })
}

fn shape(path: &Path, expected: &'static str, found: &Value<'_>) -> LoadError {
    LoadError::Shape {
        path: path.to_string(),
        expected,
        found: crate::json::preview(found, crate::json::PREVIEW_CHARS),
    }
}
