//! The hand-written argument loop (std only, in the manner of lexopt): words become flags or
//! positionals, and every mistake becomes a [`UsageError`] that names the command, so `main`
//! can print the right usage line and exit 2.

use std::ffi::OsString;
use std::fmt;

/// A command line that cannot be run: what was wrong, and which command's usage to show.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError {
    /// The command whose usage line applies (`"check"`), or `""` for the top level.
    pub command: &'static str,
    /// What was wrong, as a sentence fragment (`"unknown option '--sumary'"`).
    pub problem: String,
}

/// One parsed word.
#[derive(Debug, PartialEq, Eq)]
pub enum Arg {
    /// `--name`, `--name=value` or `-n`: the name with its dashes, and the inline value.
    Flag(String, Option<String>),
    /// Anything else, including `-` (standard input) and every word after `--`.
    Positional(String),
}

/// The words of one command, read left to right.
pub struct Args {
    command: &'static str,
    words: std::vec::IntoIter<String>,
    /// True after `--`: every later word is positional.
    only_positionals: bool,
}

/// Converts the process arguments (without the program name) to strings.
///
/// # Errors
/// A [`UsageError`] for the first argument that is not valid UTF-8: every name and path
/// toolgate takes is text, and a lossy conversion would open a different file.
pub fn from_os(os_args: impl Iterator<Item = OsString>) -> Result<Vec<String>, UsageError> {
    os_args
        .enumerate()
        .map(|(idx, os)| {
            os.into_string().map_err(|bad| UsageError {
                command: "",
                problem: format!(
                    "argument {} is not valid UTF-8: {}",
                    idx.saturating_add(1),
                    bad.to_string_lossy()
                ),
            })
        })
        .collect()
}

impl Args {
    /// The words after the command name.
    pub fn new(command: &'static str, words: Vec<String>) -> Args {
        Args {
            command,
            words: words.into_iter(),
            only_positionals: false,
        }
    }

    /// The next word, or `None` at the end.
    pub fn next_arg(&mut self) -> Option<Arg> {
        let word = self.words.next()?;
        if self.only_positionals || word == "-" || !word.starts_with('-') {
            return Some(Arg::Positional(word));
        }
        if word == "--" {
            self.only_positionals = true;
            return self.next_arg();
        }
        match word.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                Some(Arg::Flag(name.to_owned(), Some(value.to_owned())))
            }
            _ => Some(Arg::Flag(word, None)),
        }
    }

    /// The value of `flag`: its inline `=value`, else the next word.
    ///
    /// # Errors
    /// A [`UsageError`] when there is no next word, or it is another option (a value that
    /// really starts with `-` can be given as `--flag=-value`).
    pub fn value(&mut self, flag: &str, inline: Option<String>) -> Result<String, UsageError> {
        if let Some(value) = inline {
            return Ok(value);
        }
        let next = self.words.as_slice().first();
        match next {
            Some(word) if word == "-" || !word.starts_with('-') => {
                Ok(self.words.next().unwrap_or_default())
            }
            _ => Err(self.error(format!("{flag} needs a value"))),
        }
    }

    /// The value of `flag` (as [`Args::value`] reads it), stored in `slot`.
    ///
    /// # Errors
    /// As [`Args::value`], and a [`UsageError`] when `flag` was already given.
    pub fn value_once(
        &mut self,
        flag: &str,
        inline: Option<String>,
        slot: &mut Option<String>,
    ) -> Result<(), UsageError> {
        let value = self.value(flag, inline)?;
        set_once(self, slot, flag, value)
    }

    /// Every word not read yet, as it is: a command line to run (`toolgate mcp -- COMMAND
    /// ARGS...`), whose flags are its own.
    pub fn rest(&mut self) -> Vec<String> {
        self.words.by_ref().collect()
    }

    /// A usage error for this command.
    pub fn error(&self, problem: String) -> UsageError {
        UsageError {
            command: self.command,
            problem,
        }
    }

    /// The usage error for a flag this command does not take.
    pub fn unknown(&self, flag: &str) -> UsageError {
        self.error(format!("unknown option '{flag}'"))
    }

    /// Refuses an inline value on a flag that takes none (`--summary=yes`).
    ///
    /// # Errors
    /// A [`UsageError`] when `inline` is set.
    pub fn no_value(&self, flag: &str, inline: Option<String>) -> Result<(), UsageError> {
        match inline {
            None => Ok(()),
            Some(value) => Err(self.error(format!("{flag} takes no value (got '{value}')"))),
        }
    }
}

/// Stores `value` in `slot`, refusing a second one.
///
/// # Errors
/// A [`UsageError`] when `slot` is already set.
pub fn set_once(
    args: &Args,
    slot: &mut Option<String>,
    what: &str,
    value: String,
) -> Result<(), UsageError> {
    if let Some(first) = slot {
        return Err(args.error(format!("{what} given twice ('{first}' and '{value}')")));
    }
    *slot = Some(value);
    Ok(())
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.command.is_empty() {
            write!(f, "toolgate: {}", self.problem)
        } else {
            write!(f, "toolgate {}: {}", self.command, self.problem)
        }
    }
}
