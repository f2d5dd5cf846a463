//! Tool-name rules: the one table of which names each party accepts ([`NameRule`]), and the
//! mapping of a name to one a provider accepts ([`NameMap`]).
//!
//! A tool's name is written in three places: the declaration it is loaded from, the tools
//! array a provider is sent, and the call the model makes. They do not share a rule. MCP's
//! (SEP-986, as the official SDKs check it: 1 to 128 characters of `A-Za-z0-9_.-`) is the
//! loosest that real declarations use, so it is the rule a spec is held to when it is
//! loaded or built ([`NameRule::MCP`]): `github.create_issue` loads. OpenAI and Anthropic
//! accept less (`^[a-zA-Z0-9_-]{1,64}$`, no dots), Gemini something else again (a letter or
//! `_` first, then `. : -` as well, at most 64). So each export checks its provider's rule
//! ([`Provider::name_rule`]) and refuses a name the provider would reject, naming the tool
//! and the rule, rather than send a tools array the provider answers with an HTTP 400.
//!
//! Or, when the user asks, it maps the name to one the provider takes: each character the
//! rule refuses becomes `_`, a first character Gemini refuses gets a `_` before it, the name
//! is cut to the rule's length, and `_2`, `_3`… is added if that name is taken
//! (`github.create_issue` becomes `github_create_issue`). The mapping is a function of the
//! ordered list of names alone, so the gate computes the same map from its own
//! specs and accepts each mapped name as the tool's: a call under the mapped name resolves
//! without the map being passed around, and the answer uses the name the model used.

use super::export::Provider;

/// A rule a tool name must follow: its length, the characters it may hold, and what may
/// come first. Every character a rule accepts is ASCII, so lengths count bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRule {
    /// Whose rule it is, as a sentence names it (`"the rule of OpenAI and Anthropic"`).
    pub owner: &'static str,
    /// The rule as a regular expression, as its owner documents it.
    pub pattern: &'static str,
    /// The rule in words, for messages (`"1 to 64 characters, each a letter, a digit, '_'
    /// or '-'"`).
    pub words: &'static str,
    /// The longest name, in characters.
    max_chars: usize,
    /// The characters accepted besides ASCII letters and digits.
    punctuation: &'static str,
    /// True if the first character must be an ASCII letter or `_`.
    letter_first: bool,
}

/// The names one export sends in place of the tools' own: tool name to the name the
/// provider is sent (and the model calls). Empty when every name fits the provider.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameMap {
    /// `(tool's name, name sent)`, in the specs' order.
    entries: Vec<(String, String)>,
}

/// A name one rule maps a tool to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Alias {
    /// The index of the tool in the list of names.
    pub(crate) tool: usize,
    /// The rule it fits.
    pub(crate) rule: &'static NameRule,
    /// The name.
    pub(crate) name: String,
}

impl NameRule {
    /// MCP's rule (SEP-986, as the official SDKs check it), the rule a spec is held to when
    /// it is built or loaded: every name a real MCP server declares loads.
    pub const MCP: NameRule = NameRule {
        owner: "MCP (SEP-986)",
        pattern: "^[A-Za-z0-9_.-]{1,128}$",
        words: "1 to 128 characters, each a letter, a digit, '_', '-' or '.'",
        max_chars: 128,
        punctuation: "_.-",
        letter_first: false,
    };

    /// OpenAI's rule (chat completions and Responses), which Anthropic's Messages API
    /// shares.
    pub const OPENAI: NameRule = NameRule {
        owner: "OpenAI and Anthropic",
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
        words: "1 to 64 characters, each a letter, a digit, '_' or '-'",
        max_chars: 64,
        punctuation: "_-",
        letter_first: false,
    };

    /// Gemini's rule for a function declaration's name (which a `functionResponse.name`
    /// must match too).
    pub const GEMINI: NameRule = NameRule {
        owner: "Gemini",
        pattern: "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
        words: "1 to 64 characters, a letter or '_' first, then letters, digits, '_', '.', \
                ':' or '-'",
        max_chars: 64,
        punctuation: "_.:-",
        letter_first: true,
    };

    /// The rules an export may map a name to, in the order [`aliases`] maps them (MCP's is
    /// the load rule, so every spec's name fits it already).
    const MAPPED: [&'static NameRule; 2] = [&NameRule::OPENAI, &NameRule::GEMINI];

    /// True if the rule accepts `name`.
    ///
    /// ```
    /// use toolgate::spec::NameRule;
    /// assert!(NameRule::MCP.accepts("github.create_issue"));
    /// assert!(!NameRule::OPENAI.accepts("github.create_issue"));
    /// assert!(NameRule::GEMINI.accepts("github.create_issue"));
    /// assert!(!NameRule::GEMINI.accepts("1password_lookup"));
    /// ```
    pub fn accepts(&self, name: &str) -> bool {
        // Every accepted character is one byte, so an absurdly long name is refused before
        // any of it is read.
        if name.is_empty() || name.len() > self.max_chars {
            return false;
        }
        let mut bytes = name.bytes();
        let first_fits = bytes.next().is_some_and(|first| {
            if self.letter_first {
                first.is_ascii_alphabetic() || first == b'_'
            } else {
                self.fits(first)
            }
        });
        first_fits && bytes.all(|byte| self.fits(byte))
    }

    fn fits(&self, byte: u8) -> bool {
        byte.is_ascii_alphanumeric() || self.punctuation.as_bytes().contains(&byte)
    }

    /// `name` made to fit: every character the rule refuses becomes `_`, a refused first
    /// character gets a `_` before it, and the result is cut to the rule's length (every
    /// character left is one byte, so the cut is on a character boundary).
    fn fit(&self, name: &str) -> String {
        let mut fitted: String = name
            .chars()
            .map(|c| match u8::try_from(c) {
                Ok(byte) if self.fits(byte) => c,
                _ => '_',
            })
            .collect();
        let first_fits = fitted.bytes().next().is_some_and(|first| {
            !self.letter_first || first.is_ascii_alphabetic() || first == b'_'
        });
        if !first_fits {
            fitted.insert(0, '_');
        }
        fitted.truncate(self.max_chars);
        fitted
    }
}

impl Provider {
    /// The tool-name rule of this provider's form: [`NameRule::OPENAI`] for Anthropic and
    /// the OpenAI forms, [`NameRule::GEMINI`], and [`NameRule::MCP`] for MCP.
    pub fn name_rule(self) -> &'static NameRule {
        match self {
            Provider::Anthropic
            | Provider::OpenAi
            | Provider::OpenAiStrict
            | Provider::Responses
            | Provider::ResponsesStrict => &NameRule::OPENAI,
            Provider::Gemini => &NameRule::GEMINI,
            Provider::Mcp => &NameRule::MCP,
        }
    }
}

impl NameMap {
    /// The name `tool` is sent under, if the export mapped it.
    pub fn sent_name(&self, tool: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(name, _)| name == tool)
            .map(|(_, sent)| sent.as_str())
    }

    /// The tool sent under `name`, if the export mapped one to it.
    pub fn tool(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(_, sent)| sent == name)
            .map(|(tool, _)| tool.as_str())
    }

    /// `(tool's name, name sent)` for every mapped tool, in the specs' order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries
            .iter()
            .map(|(tool, sent)| (tool.as_str(), sent.as_str()))
    }

    /// True if no name was mapped.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn push(&mut self, tool: String, sent: String) {
        self.entries.push((tool, sent));
    }
}

/// Every name a mapping export may send in place of a tool's own, for the tools `names`
/// (in order): for each mapped rule, in [`NameRule::MAPPED`] order, and each name it
/// refuses, in list order, the name made to fit, with `_2`, `_3`… added until no tool has
/// it and no earlier alias of another tool. A function of the ordered names alone, so the export
/// and the gate find the same map.
pub(crate) fn aliases(names: &[&str]) -> Vec<Alias> {
    let mut aliases: Vec<Alias> = Vec::new();
    if names.iter().all(|name| fits_every_mapped_rule(name)) {
        return aliases;
    }
    let mut declared: Vec<&str> = names.to_vec();
    declared.sort_unstable();
    for rule in NameRule::MAPPED {
        for (tool, name) in names.iter().enumerate() {
            if rule.accepts(name) {
                continue;
            }
            // The same tool may have the same alias under two rules (a long name cut to
            // 64 letters fits both): only another tool's name or alias takes it.
            let taken = |candidate: &str| {
                declared.binary_search(&candidate).is_ok()
                    || aliases
                        .iter()
                        .any(|alias| alias.name == candidate && alias.tool != tool)
            };
            let base = rule.fit(name);
            let mut candidate = base.clone();
            // At most one name per tool and two aliases per tool are taken, so some suffix
            // up to that count is free; the bound keeps the loop finite whatever happens.
            let last_suffix = names.len().saturating_mul(3).saturating_add(2);
            let mut suffix: usize = 2;
            while taken(&candidate) && suffix <= last_suffix {
                let tail = format!("_{suffix}");
                let keep = rule.max_chars.saturating_sub(tail.len());
                candidate = format!("{}{tail}", base.get(..keep).unwrap_or(&base));
                suffix = suffix.saturating_add(1);
            }
            aliases.push(Alias {
                tool,
                rule,
                name: candidate,
            });
        }
    }
    aliases
}

/// True if every rule an export maps to accepts `name` as it is (the common case: then
/// there is nothing to map).
pub(crate) fn fits_every_mapped_rule(name: &str) -> bool {
    NameRule::MAPPED.iter().all(|rule| rule.accepts(name))
}
