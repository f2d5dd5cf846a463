//! Pattern text to syntax tree: ECMA-262's grammar in unicode mode, strict (no Annex B: a
//! lone `{` or `\a` is an error). Open groups are an explicit stack, not recursion. Groups
//! leave no trace and lazy quantifiers read as greedy: only *whether* a text matches counts.

use super::class::Class;
use super::error::{PatternError, PatternErrorKind, Unsupported};
use super::unicode;
use super::MAX_DEPTH;

/// A pattern's syntax tree.
#[derive(Debug)]
pub(super) enum Node {
    /// Matches the empty string.
    Empty,
    /// One code point from the set.
    Class(Class),
    /// A zero-width test of the characters around the position.
    Assert(Assertion),
    /// Each in turn; never empty or of one item (see [`concat`]).
    Concat(Vec<Node>),
    /// Any one of them; at least two.
    Alternation(Vec<Node>),
    /// `node` from `min` to `max` times (`None`: unbounded); `at` is the quantifier's offset.
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        at: usize,
    },
}

/// The zero-width assertions; without the `m` flag `^` and `$` test the input's ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Assertion {
    /// `^`: the start of the input.
    Start,
    /// `$`: the end of the input.
    End,
    /// `\b`: a word character on exactly one side.
    WordBoundary,
    /// `\B`: a word character on both sides or on neither.
    NotWordBoundary,
}

/// The syntax tree of `source`.
///
/// # Errors
///
/// Any [`PatternErrorKind`] but `TooLarge`, at the character where it was found.
pub(super) fn parse(source: &str) -> Result<Node, PatternError> {
    Parser {
        chars: source.chars().collect(),
        pos: 0,
    }
    .parse()
}

/// What `\` followed by some characters stands for.
enum Escape {
    /// A code point, possibly a lone surrogate (`\uD800`).
    Char(u32),
    /// A class escape: `\d \D \w \W \s \S`.
    Set(Class),
    /// `\b` or `\B` outside a class.
    Assert(Assertion),
}

/// ECMA-262's SyntaxCharacter, plus `/`: what an escape may make literal.
const SYNTAX_CHARACTERS: &str = "^$\\.*+?()[]{}|/";

/// What may follow `\` in unicode mode, for the message when something else does.
const AN_ESCAPE: &str = "an escape such as \\d, \\n, \\x41, \\u0041 or an escaped '.' after '\\'";

struct Parser {
    chars: Vec<char>,
    /// Index into `chars` of the next character: the offset errors report.
    pos: usize,
}

/// One open group (or the whole pattern, at the bottom of the stack).
struct Frame {
    /// Where the `(` stands.
    opened_at: usize,
    /// The alternatives finished so far (those before the last `|`).
    alternatives: Vec<Node>,
    /// The items of the alternative being read.
    items: Vec<Node>,
    /// Whether the last item may take a quantifier (not an assertion, not `a*`).
    quantifiable: bool,
}

impl Frame {
    fn new(opened_at: usize) -> Frame {
        Frame {
            opened_at,
            alternatives: Vec::new(),
            items: Vec::new(),
            quantifiable: false,
        }
    }

    fn push(&mut self, node: Node, quantifiable: bool) {
        self.items.push(node);
        self.quantifiable = quantifiable;
    }

    /// The node this group stands for once its `)` (or the end of the pattern) is read.
    fn finish(mut self) -> Node {
        let last = concat(self.items);
        if self.alternatives.is_empty() {
            return last;
        }
        self.alternatives.push(last);
        Node::Alternation(self.alternatives)
    }
}

/// The concatenation of `items` without the empty ones.
fn concat(items: Vec<Node>) -> Node {
    let mut items: Vec<Node> = items
        .into_iter()
        .filter(|item| !matches!(item, Node::Empty))
        .collect();
    match items.len() {
        0 => Node::Empty,
        1 => items.pop().unwrap_or(Node::Empty),
        _ => Node::Concat(items),
    }
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos.saturating_add(ahead)).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn eat(&mut self, wanted: char) -> bool {
        let found = self.peek() == Some(wanted);
        if found {
            self.pos += 1;
        }
        found
    }

    /// An error of `kind` at `offset`.
    fn error<T>(&self, kind: PatternErrorKind, offset: usize) -> Result<T, PatternError> {
        Err(PatternError { kind, offset })
    }

    /// The refusal of `construct` at `offset`.
    fn unsupported<T>(&self, construct: Unsupported, offset: usize) -> Result<T, PatternError> {
        self.error(PatternErrorKind::Unsupported(construct), offset)
    }

    /// An `Unexpected` error at the current character.
    fn unexpected<T>(&self, expected: &'static str) -> Result<T, PatternError> {
        let found = self.peek();
        self.error(PatternErrorKind::Unexpected { expected, found }, self.pos)
    }

    fn parse(mut self) -> Result<Node, PatternError> {
        let mut stack = vec![Frame::new(0)];
        loop {
            let at = self.pos;
            let Some(c) = self.bump() else { break };
            let Some(frame) = stack.last_mut() else { break };
            match c {
                '|' => {
                    let items = std::mem::take(&mut frame.items);
                    frame.alternatives.push(concat(items));
                    frame.quantifiable = false;
                }
                '(' => {
                    if stack.len() > MAX_DEPTH {
                        let limit = MAX_DEPTH;
                        return self.error(PatternErrorKind::TooDeep { limit }, at);
                    }
                    self.group_opening(at)?;
                    stack.push(Frame::new(at));
                }
                ')' => {
                    if stack.len() < 2 {
                        self.pos = at;
                        return self
                            .unexpected("an atom, '|' or the end (this ')' closes no group)");
                    }
                    let Some(group) = stack.pop() else { break };
                    let Some(parent) = stack.last_mut() else {
                        break;
                    };
                    parent.push(group.finish(), true);
                }
                '*' | '+' | '?' | '{' => {
                    if !frame.quantifiable {
                        let quantifier = c;
                        return self.error(PatternErrorKind::NothingToRepeat { quantifier }, at);
                    }
                    let (min, max) = match c {
                        '*' => (0, None),
                        '+' => (1, None),
                        '?' => (0, Some(1)),
                        _ => self.counted_repetition(at)?,
                    };
                    // Lazy or greedy, the same strings match (see the module doc).
                    self.eat('?');
                    let Some(node) = frame.items.pop() else { break };
                    let repeated = match (node, max) {
                        (_, Some(0)) | (Node::Empty, _) => Node::Empty,
                        (node, max) => Node::Repeat {
                            node: Box::new(node),
                            min,
                            max,
                            at,
                        },
                    };
                    frame.push(repeated, false);
                }
                '^' => frame.push(Node::Assert(Assertion::Start), false),
                '$' => frame.push(Node::Assert(Assertion::End), false),
                '.' => frame.push(Node::Class(Class::dot()), true),
                '[' => {
                    let class = self.class(at)?;
                    frame.push(Node::Class(class), true);
                }
                '\\' => {
                    let node = match self.escape(at, false)? {
                        Escape::Char(code) => Node::Class(Class::single(code)),
                        Escape::Set(class) => Node::Class(class),
                        Escape::Assert(assertion) => Node::Assert(assertion),
                    };
                    let quantifiable = !matches!(node, Node::Assert(_));
                    frame.push(node, quantifiable);
                }
                ']' | '}' => {
                    self.pos = at;
                    return self.unexpected(if c == ']' {
                        "an atom (a literal ']' is written \\])"
                    } else {
                        "an atom (a literal '}' is written \\})"
                    });
                }
                c => frame.push(Node::Class(Class::single(u32::from(c))), true),
            }
        }
        if stack.len() > 1 {
            let opened_at = stack.last().map_or(0, |frame| frame.opened_at);
            return self.error(PatternErrorKind::UnclosedGroup, opened_at);
        }
        Ok(stack.pop().map_or(Node::Empty, Frame::finish))
    }

    /// After `(`: accepts `(?:` and `(?<name>`, refuses lookaround and flags by name.
    fn group_opening(&mut self, at: usize) -> Result<(), PatternError> {
        if !self.eat('?') {
            return Ok(());
        }
        match self.peek() {
            Some(':') => {
                self.pos += 1;
                Ok(())
            }
            Some('=') => self.unsupported(Unsupported::Lookahead, at),
            Some('!') => self.unsupported(Unsupported::NegativeLookahead, at),
            Some('<') if self.peek_at(1) == Some('=') => {
                self.unsupported(Unsupported::Lookbehind, at)
            }
            Some('<') if self.peek_at(1) == Some('!') => {
                self.unsupported(Unsupported::NegativeLookbehind, at)
            }
            Some('<') => {
                self.pos += 1;
                self.group_name()
            }
            // ES2025's modifiers `(?i:...)`, and the inline flags of other dialects `(?i)`.
            Some(c) if "imsx-".contains(c) => self.unsupported(Unsupported::Modifiers, at),
            _ => self.unexpected("':', '=', '!' or '<' after '(?'"),
        }
    }

    /// A group name and its `>`: letters, digits, `$`, `_` (not a digit first), no escapes.
    fn group_name(&mut self) -> Result<(), PatternError> {
        const NAME: &str = "a group name (a letter, '$' or '_', then letters, digits, '$' or '_')";
        match self.peek() {
            Some(c) if c.is_alphabetic() || c == '$' || c == '_' => self.pos += 1,
            _ => return self.unexpected(NAME),
        }
        while let Some(c) = self.peek() {
            if c == '>' {
                self.pos += 1;
                return Ok(());
            }
            if !(c.is_alphanumeric() || c == '$' || c == '_' || c == '\u{200C}' || c == '\u{200D}')
            {
                return self.unexpected(NAME);
            }
            self.pos += 1;
        }
        self.unexpected("'>' after the group name")
    }

    /// The rest of `{n}`, `{n,}` or `{n,m}` after its `{` (at `at`).
    fn counted_repetition(&mut self, at: usize) -> Result<(u32, Option<u32>), PatternError> {
        let min = self.number("a digit after '{' (a literal '{' is written \\{)")?;
        if self.eat('}') {
            return Ok((min, Some(min)));
        }
        if !self.eat(',') {
            return self.unexpected("a digit, ',' or '}' in the repetition");
        }
        if self.eat('}') {
            return Ok((min, None));
        }
        let max = self.number("a digit or '}' after ','")?;
        if !self.eat('}') {
            return self.unexpected("a digit or '}' in the repetition");
        }
        if min > max {
            return self.error(PatternErrorKind::RepeatOutOfOrder { min, max }, at);
        }
        Ok((min, Some(max)))
    }

    /// One or more decimal digits, saturating (such a count is too large anyway).
    fn number(&mut self, expected: &'static str) -> Result<u32, PatternError> {
        let mut value: Option<u32> = None;
        while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
            self.pos += 1;
            let so_far = value.unwrap_or(0);
            value = Some(so_far.saturating_mul(10).saturating_add(digit));
        }
        match value {
            Some(value) => Ok(value),
            None => self.unexpected(expected),
        }
    }

    /// The rest of a class after its `[` (at `open_at`).
    fn class(&mut self, open_at: usize) -> Result<Class, PatternError> {
        let negated = self.eat('^');
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        loop {
            let at = self.pos;
            let first = match self.bump() {
                None => return self.error(PatternErrorKind::UnclosedClass, open_at),
                Some(']') => break,
                Some(c) => self.class_atom(c, at)?,
            };
            // A '-' between two atoms makes a range; first or last it is a literal.
            let is_range = self.peek() == Some('-') && !matches!(self.peek_at(1), None | Some(']'));
            if !is_range {
                match first {
                    Escape::Char(code) => ranges.push((code, code)),
                    Escape::Set(class) => ranges.extend_from_slice(class.ranges()),
                    Escape::Assert(_) => {}
                }
                continue;
            }
            self.pos += 1;
            let second_at = self.pos;
            let second = match self.bump() {
                None => return self.error(PatternErrorKind::UnclosedClass, open_at),
                Some(c) => self.class_atom(c, second_at)?,
            };
            match (first, second) {
                (Escape::Char(start), Escape::Char(end)) if start <= end => {
                    ranges.push((start, end));
                }
                (Escape::Char(start), Escape::Char(end)) => {
                    return self.error(PatternErrorKind::RangeOutOfOrder { start, end }, at);
                }
                _ => return self.error(PatternErrorKind::ClassEscapeInRange, at),
            }
        }
        let class = Class::from_ranges(ranges);
        Ok(if negated { class.negated() } else { class })
    }

    /// One member of a class, `c` (at `at`) being its first character.
    fn class_atom(&mut self, c: char, at: usize) -> Result<Escape, PatternError> {
        if c == '\\' {
            self.escape(at, true)
        } else {
            Ok(Escape::Char(u32::from(c)))
        }
    }

    /// The rest of an escape after its `\` (at `at`); `in_class` for the rules inside `[...]`
    /// (`\b` is backspace there, `\-` is allowed, `\B` is not).
    fn escape(&mut self, at: usize, in_class: bool) -> Result<Escape, PatternError> {
        let after = self.pos;
        let Some(c) = self.bump() else {
            return self.unexpected(AN_ESCAPE);
        };
        let code = match c {
            'd' => return Ok(Escape::Set(Class::digit())),
            'D' => return Ok(Escape::Set(Class::digit().negated())),
            'w' => return Ok(Escape::Set(Class::word())),
            'W' => return Ok(Escape::Set(Class::word().negated())),
            's' => return Ok(Escape::Set(Class::space())),
            'S' => return Ok(Escape::Set(Class::space().negated())),
            'b' if in_class => 0x08,
            'b' => return Ok(Escape::Assert(Assertion::WordBoundary)),
            'B' if !in_class => return Ok(Escape::Assert(Assertion::NotWordBoundary)),
            '-' if in_class => u32::from('-'),
            't' => 0x09,
            'n' => 0x0A,
            'v' => 0x0B,
            'f' => 0x0C,
            'r' => 0x0D,
            '0' if self.peek().is_some_and(|c| c.is_ascii_digit()) => {
                return self.unexpected("no digit after \\0 (octal escapes are not ECMA-262's)");
            }
            '0' => 0,
            '1'..='9' if !in_class => {
                return self.unsupported(Unsupported::Backreference, at);
            }
            'k' if !in_class && self.peek() == Some('<') => {
                return self.unsupported(Unsupported::NamedBackreference, at);
            }
            'p' | 'P' => {
                let class = self.property(at)?;
                return Ok(Escape::Set(if c == 'P' { class.negated() } else { class }));
            }
            'c' => match self.peek() {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    self.pos += 1;
                    u32::from(letter) % 32
                }
                _ => return self.unexpected("a letter after \\c"),
            },
            'x' => self.hex_digits(2)?,
            'u' => self.unicode_escape()?,
            c if SYNTAX_CHARACTERS.contains(c) => u32::from(c),
            _ => {
                self.pos = after;
                return self.unexpected(AN_ESCAPE);
            }
        };
        Ok(Escape::Char(code))
    }

    /// The rest of `\p{...}` after its `p`: the category's class, or a refusal.
    fn property(&mut self, at: usize) -> Result<Class, PatternError> {
        if !self.eat('{') {
            return self.unexpected("'{' after \\p");
        }
        let mut name = String::new();
        while let Some(c) = self
            .peek()
            .filter(|&c| c.is_ascii_alphanumeric() || "_=".contains(c))
        {
            name.push(c);
            self.pos += 1;
        }
        if !self.eat('}') {
            return self.unexpected("a property name and '}' in \\p{...}");
        }
        match unicode::category(&name) {
            Some(ranges) => Ok(Class::from_ranges(ranges.to_vec())),
            None => self.unsupported(Unsupported::PropertyEscape, at),
        }
    }

    /// The rest of `\uXXXX` or `\u{X...}` after its `u`; two `\uXXXX` surrogates pair up.
    fn unicode_escape(&mut self) -> Result<u32, PatternError> {
        if self.eat('{') {
            let mut code: u32 = 0;
            let mut n_digits = 0usize;
            while let Some(digit) = self.peek().and_then(|c| c.to_digit(16)) {
                code = code.saturating_mul(16).saturating_add(digit);
                if code > 0x10_FFFF {
                    return self.unexpected("'}' ending a code point at most 10FFFF");
                }
                self.pos += 1;
                n_digits += 1;
            }
            if n_digits == 0 {
                return self.unexpected("a hex digit after \\u{");
            }
            if !self.eat('}') {
                return self.unexpected("a hex digit or '}' in \\u{...}");
            }
            return Ok(code);
        }
        let lead = self.hex_digits(4)?;
        if (0xD800..=0xDBFF).contains(&lead)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let before = self.pos;
            self.pos += 2;
            match self.hex_digits(4) {
                Ok(trail) if (0xDC00..=0xDFFF).contains(&trail) => {
                    return Ok(0x1_0000 + ((lead - 0xD800) << 10) + (trail - 0xDC00));
                }
                // Not a trail surrogate: the next escape is read on its own.
                _ => self.pos = before,
            }
        }
        Ok(lead)
    }

    /// Exactly `count` hex digits.
    fn hex_digits(&mut self, count: usize) -> Result<u32, PatternError> {
        let mut value = 0u32;
        for _ in 0..count {
            match self.peek().and_then(|c| c.to_digit(16)) {
                Some(digit) => value = value * 16 + digit,
                None => return self.unexpected("a hex digit"),
            }
            self.pos += 1;
        }
        Ok(value)
    }
}
