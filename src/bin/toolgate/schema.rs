//! `toolgate schema --tools TOOLS.json --to PROVIDER [--lenient] [--map-names] [--no-close]`:
//! converts tool declarations from any form toolgate reads into one provider's form, through
//! the same specs the gate checks with, so the schema a model is sent and the check its calls
//! meet cannot drift apart. What the export changes to fit the form (a closed object, a
//! mapped name) or cannot say (no strict form) is a note on standard error.

use crate::args::{Arg, Args, UsageError};
use crate::tools;
use std::process::ExitCode;
use toolgate::json;
use toolgate::spec::{self, ExportOptions, ExportRefusal, Provider};

/// The usage line.
pub const USAGE: &str = concat!("usage: ", schema_synopsis!());

/// `toolgate schema --help`.
pub const HELP: &str = concat!(
    "toolgate schema: convert tool declarations to one provider's form\n\nusage: ",
    schema_synopsis!(),
    "

  --tools TOOLS.json  the tools array (Anthropic, OpenAI, Responses, Gemini or MCP form)
  --to PROVIDER       anthropic, openai, openai-strict, responses, responses-strict,
                      gemini or mcp
  --lenient           load a keyword toolgate cannot enforce instead of refusing the file;
                      each is listed on standard error, and kept in the export
  --map-names         send a tool whose name the provider refuses (such as
                      'github.create_issue' to OpenAI) under one it accepts
                      ('github_create_issue'); the gate takes calls under either
  --no-close          strict forms: refuse a tool with open objects instead of closing them
  -h, --help          print this help

Prints the tools array as pretty JSON on standard output. A keyword toolgate cannot
enforce (such as 'pattern') is an error, exit 2, unless --lenient: the gate never passes
what it cannot check without saying so. A tool name the provider refuses is an error,
exit 2, unless --map-names. The strict forms close every open object that declares its
fields (\"additionalProperties\": false), naming each on standard error; a tool they
cannot take at all is exported as \"strict\": false, with a note saying why."
);

/// What `schema` was asked to do.
#[derive(Debug)]
pub struct Options {
    tools: String,
    provider: Provider,
    lenient: bool,
    export: ExportOptions,
}

/// Reads `schema`'s arguments; `Ok(None)` means help was asked for.
///
/// # Errors
/// A [`UsageError`] for an unknown flag or provider, a missing value or flag, or any
/// positional argument.
pub fn parse_args(mut args: Args) -> Result<Option<Options>, UsageError> {
    let mut tools = None;
    let mut to = None;
    let mut lenient = false;
    let mut export = ExportOptions::default();
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Flag(flag, inline) => match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--tools" => args.value_once(&flag, inline, &mut tools)?,
                "--to" => args.value_once(&flag, inline, &mut to)?,
                "--lenient" => {
                    args.no_value(&flag, inline)?;
                    lenient = true;
                }
                "--map-names" => {
                    args.no_value(&flag, inline)?;
                    export.map_names = true;
                }
                "--no-close" => {
                    args.no_value(&flag, inline)?;
                    export.close_open_objects = false;
                }
                _ => return Err(args.unknown(&flag)),
            },
            Arg::Positional(word) => {
                return Err(args.error(format!("unexpected argument '{word}'")));
            }
        }
    }
    let tools = tools.ok_or_else(|| args.error("--tools TOOLS.json is required".into()))?;
    let to = to.ok_or_else(|| args.error("--to PROVIDER is required".into()))?;
    let provider = Provider::from_label(&to).ok_or_else(|| {
        let labels: Vec<&str> = Provider::ALL.iter().map(|p| p.label()).collect();
        args.error(format!(
            "unknown provider '{to}': expected one of {}",
            labels.join(", ")
        ))
    })?;
    Ok(Some(Options {
        tools,
        provider,
        lenient,
        export,
    }))
}

/// Runs `schema`.
pub fn run(options: &Options) -> ExitCode {
    let specs = match tools::load_specs("schema", &options.tools, options.lenient) {
        Ok(specs) => specs,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let exported = match spec::export_tools_with(&specs, options.provider, options.export) {
        Ok(exported) => exported,
        Err(refusal) => {
            let fix = match refusal {
                ExportRefusal::Name { .. } => {
                    "; --map-names sends it under a name the form accepts"
                }
                ExportRefusal::OpenObjects(_) => "; without --no-close they are closed",
                _ => "",
            };
            eprintln!("toolgate schema: {refusal}{fix}");
            return ExitCode::from(2);
        }
    };
    // What the export changed, or could not say: nobody should believe the provider holds
    // the model to a schema it was not given as strict, or to objects it was told to close.
    for note in &exported.notes {
        eprintln!("toolgate schema: note: {note}");
    }
    let mut text = json::to_pretty_string(&exported.tools);
    text.push('\n');
    match crate::out::print("toolgate schema", &text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
