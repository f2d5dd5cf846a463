//! Tool-name rules: which names each party accepts ([`NameRule`]), and the mapping of a name
//! to one a provider accepts ([`NameMap`]). A spec is held to MCP's rule, the loosest real
//! declarations use; each export checks its provider's and refuses (or maps) a name the
//! provider would answer with an HTTP 400. The mapping depends on the ordered names alone,
//! so the gate computes the same map from its specs and accepts the mapped names.

use super::export::Provider;

/// A rule a tool name must follow: its length, its (ASCII) characters, what comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRule {
    /// Whose rule it is, as a sentence names it (`"the rule of OpenAI and Anthropic"`).
    pub owner: &'static str,
    /// The rule as a regular expression, as its owner documents it.
    pub pattern: &'static str,
    /// The rule in words, for messages.
    pub words: &'static str,
    /// The longest name, in characters.
    max_chars: usize,
    /// The characters accepted besides ASCII letters and digits.
    punctuation: &'static str,
    /// True if the first character must be an ASCII letter or `_`.
    letter_first: bool,
}

/// The names one export sends in place of the tools' own (and the model calls).
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
    /// MCP's rule (SEP-986, as the SDKs check it), the one a spec is held to at load.
    pub const MCP: NameRule = NameRule {
        owner: "MCP (SEP-986)",
        pattern: "^[A-Za-z0-9_.-]{1,128}$",
        words: "1 to 128 characters, each a letter, a digit, '_', '-' or '.'",
        max_chars: 128,
        punctuation: "_.-",
        letter_first: false,
    };

    /// OpenAI's rule, which Anthropic shares.
    pub const OPENAI: NameRule = NameRule {
        owner: "OpenAI and Anthropic",
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
        words: "1 to 64 characters, each a letter, a digit, '_' or '-'",
        max_chars: 64,
        punctuation: "_-",
        letter_first: false,
    };

    /// Gemini's rule for a function declaration's name.
    pub const GEMINI: NameRule = NameRule {
        owner: "Gemini",
        pattern: "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
        words: "1 to 64 characters, a letter or '_' first, then letters, digits, '_', '.', \
                ':' or '-'",
        max_chars: 64,
        punctuation: "_.:-",
        letter_first: true,
    };

    /// The rules an export may map a name to, in [`aliases`]' order (MCP's always fits).
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
        if name.is_empty() || name.len() > self.max_chars {
            return false;
        }
        let mut bytes = name.bytes();
        bytes.next().is_some_and(|first| self.fits_first(first)) && bytes.all(|b| self.fits(b))
    }

    fn fits(&self, byte: u8) -> bool {
        byte.is_ascii_alphanumeric() || self.punctuation.as_bytes().contains(&byte)
    }

    fn fits_first(&self, byte: u8) -> bool {
        self.fits(byte) && (!self.letter_first || byte.is_ascii_alphabetic() || byte == b'_')
    }

    /// `name` made to fit: refused characters become `_`, a refused first one gets a `_`
    /// before it, cut to the rule's length (all one-byte characters by then).
    fn fit(&self, name: &str) -> String {
        let mut fitted: String = name
            .chars()
            .map(|c| match u8::try_from(c) {
                Ok(byte) if self.fits(byte) => c,
                _ => '_',
            })
            .collect();
        if !fitted
            .bytes()
            .next()
            .is_some_and(|first| self.fits_first(first))
        {
            fitted.insert(0, '_');
        }
        fitted.truncate(self.max_chars);
        fitted
    }
}

impl Provider {
    /// The tool-name rule of this provider's form.
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

/// Every name a mapping export may send for the tools `names`: per mapped rule and refused
/// name, in order, the name made to fit with `_2`, `_3`… added until no other tool has it.
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
            // A tool's alias under two rules may coincide; only another tool's takes it.
            let taken = |candidate: &str| {
                declared.binary_search(&candidate).is_ok()
                    || aliases
                        .iter()
                        .any(|alias| alias.name == candidate && alias.tool != tool)
            };
            let base = rule.fit(name);
            let mut candidate = base.clone();
            // One name and two aliases per tool are taken, so a suffix up to that is free.
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

/// True if every rule an export maps to accepts `name` as it is (nothing to map).
pub(crate) fn fits_every_mapped_rule(name: &str) -> bool {
    NameRule::MAPPED.iter().all(|rule| rule.accepts(name))
}
