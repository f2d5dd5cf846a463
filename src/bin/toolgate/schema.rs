//! `toolgate schema --tools TOOLS.json --to PROVIDER`: converts tool declarations from any
//! form toolgate reads into one provider's form, through the same specs the gate checks
//! with, so the schema a model is sent and the check its calls meet cannot drift apart.

use crate::args::{Arg, Args, UsageError};
use crate::tools;
use std::io::{self, Write};
use std::process::ExitCode;
use toolgate::json;
use toolgate::spec::{self, Provider};

/// The usage line.
pub const USAGE: &str = "usage: toolgate schema --tools TOOLS.json --to PROVIDER";

/// `toolgate schema --help`.
pub const HELP: &str = "\
toolgate schema: convert tool declarations to one provider's form

usage: toolgate schema --tools TOOLS.json --to PROVIDER

  --tools TOOLS.json  the tools array (Anthropic, OpenAI, Responses, Gemini or MCP form)
  --to PROVIDER       anthropic, openai, openai-strict, responses, responses-strict,
                      gemini or mcp
  -h, --help          print this help

Prints the tools array as pretty JSON on standard output. A keyword toolgate cannot
enforce (such as 'pattern') is an error, exit 2: the gate never passes what it cannot check.
A strict form that a tool cannot take is exported as \"strict\": false, with a note on
standard error saying why.";

/// What `schema` was asked to do.
#[derive(Debug)]
pub struct Options {
    tools: String,
    provider: Provider,
}

/// Reads `schema`'s arguments; `Ok(None)` means help was asked for.
///
/// # Errors
/// A [`UsageError`] for an unknown flag or provider, a missing value or flag, or any
/// positional argument.
pub fn parse_args(mut args: Args) -> Result<Option<Options>, UsageError> {
    let mut tools = None;
    let mut to = None;
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Flag(flag, inline) => match flag.as_str() {
                "-h" | "--help" => return Ok(None),
                "--tools" => args.value_once(&flag, inline, &mut tools)?,
                "--to" => args.value_once(&flag, inline, &mut to)?,
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
    Ok(Some(Options { tools, provider }))
}

/// Runs `schema`.
pub fn run(options: &Options) -> ExitCode {
    let specs = match tools::load_specs("schema", &options.tools) {
        Ok(specs) => specs,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    if matches!(
        options.provider,
        Provider::OpenAiStrict | Provider::ResponsesStrict
    ) {
        // The export falls back to `"strict": false` for such a tool; say why, so nobody
        // believes the provider enforces a schema it was not given as strict.
        for tool in &specs {
            if let Err(problem) = spec::check_strict(tool) {
                eprintln!("toolgate schema: note: exported with \"strict\": false: {problem}");
            }
        }
    }
    let exported = spec::export_tools(&specs, options.provider);
    let mut text = json::to_pretty_string(&exported);
    text.push('\n');
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("toolgate schema: cannot write standard output: {error}");
            ExitCode::from(2)
        }
    }
}
