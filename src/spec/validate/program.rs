//! The compiled form of a [`Schema`]: a flat list of nodes, one per [`Type`], each a list
//! of assertions in the order the validator checks them. This is the keyword table of the
//! validator: one [`Assertion`] variant per keyword (or per group of keywords checked
//! together), compiled by one line of [`compile_node`], enforced by its arms in the
//! validation, and turned into a [`Rule`](crate::spec::Rule) by one arm of the report.
//!
//! A schema is compiled once, the first time it validates (a [`ToolSpec`] does it when it
//! is built), so a call costs no compilation. Nodes point at each other by index, which
//! lets recursive definitions (`$ref` cycles through fields and items) be plain data.
//!
//! [`ToolSpec`]: crate::spec::ToolSpec

use super::choices::Choices;
use super::kinds::kinds_counted;
use super::quick::Outline;
use crate::json::Kind;
use crate::pattern::Pattern;
use crate::spec::format::Format;
use crate::spec::{Additional, Bound, Forbidden, Kinds, Schema, Type};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The index of a node in [`Program::nodes`].
pub(crate) type NodeId = u32;

/// A compiled schema.
#[derive(Debug)]
pub(crate) struct Program {
    /// Node 0 is the root; node `1 + i` is definition `i`, so `$ref` to definition `i` is
    /// node `1 + i`; the rest follow in no particular order.
    nodes: Vec<Node>,
}

/// One compiled type.
#[derive(Debug)]
pub(crate) struct Node {
    /// In check order: `enum`, `const`, `type`, the rules for each kind, then `$ref`,
    /// `allOf`, `anyOf`, `oneOf`, `not`. A failure's rank starts with its assertion's position.
    pub(crate) assertions: Vec<Assertion>,
    /// The kinds the node can accept at all, looking through `enum`, `const`, `$ref` and
    /// the alternatives: what a failed `anyOf`/`oneOf` explains itself with.
    pub(crate) explain: Kinds,
    /// How many types computing `explain` visits: the steps explaining costs.
    pub(crate) explain_visits: u32,
    /// True if an assertion applies further nodes to the same value (`$ref`, `allOf`,
    /// `anyOf`, `oneOf`, `not`).
    pub(crate) applies_others: bool,
    /// True if the [quick path](super::quick) decides every assertion of this node
    /// ([`Assertion::is_quick`]).
    pub(crate) quick: bool,
    /// What the quick path reads of the node, derived from its assertions.
    pub(crate) outline: Outline,
}

/// One keyword's check, with what it needs and what its violation reports.
#[derive(Debug)]
pub(crate) enum Assertion {
    /// `enum`.
    Enum(Choices),
    /// `const`.
    Const(Choices),
    /// `type`.
    Type(Kinds),
    /// `minimum` or `exclusiveMinimum`; `other` and `integer` are for the message.
    Minimum {
        bound: Bound,
        other: Option<Bound>,
        integer: bool,
    },
    /// `maximum` or `exclusiveMaximum`.
    Maximum {
        bound: Bound,
        other: Option<Bound>,
        integer: bool,
    },
    /// `multipleOf`.
    MultipleOf(f64),
    /// `minLength`, in code points; `max` is for the message.
    MinLength { min: u64, max: Option<u64> },
    /// `maxLength`.
    MaxLength { max: u64, min: Option<u64> },
    /// `minProperties`; `max` is for the message.
    MinProperties { min: u64, max: Option<u64> },
    /// `maxProperties`.
    MaxProperties { max: u64, min: Option<u64> },
    /// `pattern`: the string must match it somewhere.
    Pattern(Arc<Pattern>),
    /// `format`, for a name toolgate enforces: a string or a number (as the format
    /// applies to) must be a value of it.
    Format(Format),
    /// `minItems`.
    MinItems { min: u64, max: Option<u64> },
    /// `maxItems`.
    MaxItems { max: u64, min: Option<u64> },
    /// `uniqueItems: true`.
    UniqueItems,
    /// `items`: every element against this node.
    Items(NodeId),
    /// `contains`: between `min` and `max` items (`minContains`, 1 when not given, and
    /// `maxContains`) must match `node`.
    Contains {
        node: NodeId,
        min: u64,
        max: Option<u64>,
    },
    /// `prefixItems`: item `i` must match `prefix[i]`, and each item after them `rest`
    /// (the `items` beside it), if there is one.
    PrefixItems {
        prefix: Vec<NodeId>,
        rest: Option<NodeId>,
    },
    /// `properties`, `required`, `additionalProperties` and `propertyNames`, checked
    /// together in the documented order (unknown, missing, names, fields, others).
    Object(ObjectRules),
    /// `$ref` to a definition.
    Ref(NodeId),
    /// A `$ref` past the definitions (refused when a spec is built): accepts nothing.
    DanglingRef,
    /// `allOf`.
    AllOf(Vec<NodeId>),
    /// `anyOf`.
    AnyOf(Vec<NodeId>),
    /// `oneOf`.
    OneOf(Vec<NodeId>),
    /// `not`: the node must not match; `forbidden` is what the message says of it.
    Not { node: NodeId, forbidden: Forbidden },
    /// A condition and what it asks (`if`/`then`/`else`, `dependentRequired`,
    /// `dependentSchemas`).
    Conditional(Conditional),
    /// `unevaluatedProperties`: each member no other assertion of the node evaluated
    /// (through the subschemas that match, too) must match the node given. Last but one.
    UnevaluatedProperties(NodeId),
    /// `unevaluatedItems`: the same for an array's items. Last.
    UnevaluatedItems(NodeId),
}

/// Nodes applied only as another matches the same value or not: the condition, then the
/// consequence when it matches (if `then`), then the one when it does not (if
/// `otherwise`).
#[derive(Debug)]
pub(crate) struct Conditional {
    pub(crate) parts: Vec<NodeId>,
    pub(crate) then: bool,
    pub(crate) otherwise: bool,
    pub(crate) kind: ConditionKind,
}

/// Which keyword a [`Conditional`] compiles, for its violation.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ConditionKind {
    /// `if`, `then`, `else`: a consequence's failure is reported as it is.
    IfThenElse,
    /// `dependentRequired`: the condition is "the object has this member", the
    /// consequence "it has these"; a missing one is reported with the member that asked.
    DependentRequired(String),
    /// `dependentSchemas`: the condition is "the object has this member"; the schema's
    /// failure is reported as it is.
    DependentSchema,
}

impl Conditional {
    /// Where in `parts` the consequence stands that applies when the condition matches
    /// (`true`) or not, if there is one.
    pub(crate) fn consequence(&self, matched: bool) -> Option<usize> {
        match matched {
            true if self.then => Some(1),
            false if self.otherwise => Some(1 + usize::from(self.then)),
            _ => None,
        }
    }
}

/// The member rules of an object.
#[derive(Debug)]
pub(crate) struct ObjectRules {
    /// Declared fields, in declaration order.
    pub(crate) fields: Vec<FieldRule>,
    /// Bit `i % 64` of word `i / 64` is set if field `i` is required.
    pub(crate) required: Vec<u64>,
    pub(crate) additional: AdditionalRule,
    /// True if `additionalProperties` is given (any value, `true` where it matters: see
    /// [`Additional::AllowedExplicitly`]): it evaluates every member no field declares and
    /// no pattern matches, as `unevaluatedProperties` reads it.
    pub(crate) evaluates_others: bool,
    /// `propertyNames`.
    pub(crate) names: Option<NodeId>,
    /// `patternProperties`, in declaration order: members whose names match a pattern
    /// are checked against its node, and are not undeclared.
    pub(crate) patterns: Vec<(Arc<Pattern>, NodeId)>,
}

/// One declared field.
#[derive(Debug)]
pub(crate) struct FieldRule {
    pub(crate) name: String,
    pub(crate) node: NodeId,
    /// Declared only to be refused (its type is `false`).
    pub(crate) never: bool,
    /// Declared by `properties` (not a name only `required` lists), so that a member it
    /// names is evaluated, as `unevaluatedProperties` reads it.
    pub(crate) evaluated: bool,
}

impl ObjectRules {
    /// True if field `index` is required.
    pub(crate) fn is_required(&self, index: usize) -> bool {
        self.required
            .get(index / 64)
            .is_some_and(|word| word & (1 << (index % 64)) != 0)
    }
}

/// What undeclared members must be.
#[derive(Debug)]
pub(crate) enum AdditionalRule {
    Forbidden,
    Allowed,
    Typed(NodeId),
}

/// A schema's program, compiled on first use and kept beside its types.
#[derive(Default)]
pub(crate) struct Compiled(OnceLock<Program>);

impl Compiled {
    /// The program of `schema` (whose field this is), compiling it the first time.
    pub(crate) fn get(&self, schema: &Schema) -> &Program {
        self.0.get_or_init(|| Program::compile(schema))
    }
}

impl Clone for Compiled {
    /// Empty: a clone may be changed before it validates (a strict export changes its
    /// copy), so it compiles its own.
    fn clone(&self) -> Self {
        Compiled::default()
    }
}

impl PartialEq for Compiled {
    /// Always: the program is derived from the types, which the schema compares.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Compiled")
    }
}

/// The node every out-of-range index reads as (none is made: ids come from `compile`).
static EMPTY: Node = Node {
    assertions: Vec::new(),
    explain: Kinds::ANY,
    explain_visits: 0,
    applies_others: false,
    quick: false,
    outline: Outline::NONE,
};

impl Program {
    /// The root node.
    pub(crate) const ROOT: NodeId = 0;

    /// Compiles `schema`, walking its types with an explicit work list (no recursion, so a
    /// hand-built schema of any depth compiles).
    pub(crate) fn compile(schema: &Schema) -> Program {
        let mut compiler = Compiler {
            defs: &schema.defs,
            asserts_formats: schema.asserts_formats(),
            nodes: Vec::new(),
            work: Vec::new(),
        };
        compiler.reserve(&schema.root);
        for (_, def) in &schema.defs {
            compiler.reserve(def);
        }
        while let Some((ty, id)) = compiler.work.pop() {
            let node = compiler.compile_node(ty);
            if let Some(slot) = usize::try_from(id)
                .ok()
                .and_then(|i| compiler.nodes.get_mut(i))
            {
                *slot = node;
            }
        }
        Program {
            nodes: compiler.nodes,
        }
    }

    pub(crate) fn node(&self, id: NodeId) -> &Node {
        usize::try_from(id)
            .ok()
            .and_then(|index| self.nodes.get(index))
            .unwrap_or(&EMPTY)
    }
}

struct Compiler<'s> {
    defs: &'s [(String, Type)],
    /// False when the schema reads `format` as an annotation only
    /// ([`Schema::without_format_assertions`]).
    asserts_formats: bool,
    nodes: Vec<Node>,
    /// Types whose node is reserved but not yet compiled.
    work: Vec<(&'s Type, NodeId)>,
}

impl<'s> Compiler<'s> {
    /// Reserves a node for `ty`, to be compiled from the work list.
    fn reserve(&mut self, ty: &'s Type) -> NodeId {
        let id = NodeId::try_from(self.nodes.len()).unwrap_or(NodeId::MAX);
        self.nodes.push(Node {
            assertions: Vec::new(),
            explain: Kinds::ANY,
            explain_visits: 0,
            applies_others: false,
            quick: false,
            outline: Outline::NONE,
        });
        self.work.push((ty, id));
        id
    }

    /// One type's assertions, in check order. Adding a keyword is one line here, one
    /// variant of [`Assertion`], its arms in the validation and its rule in the report.
    fn compile_node(&mut self, ty: &'s Type) -> Node {
        let mut out = Vec::new();
        if let Some(values) = &ty.enumeration {
            out.push(Assertion::Enum(Choices::new(values)));
        }
        if let Some(value) = &ty.constant {
            out.push(Assertion::Const(Choices::new(std::slice::from_ref(value))));
        }
        if ty.kinds != Kinds::ANY {
            out.push(Assertion::Type(ty.kinds));
        }
        let number = &ty.number;
        let integer = !ty.kinds.accepts_fractions();
        if let Some(bound) = &number.minimum {
            out.push(Assertion::Minimum {
                bound: bound.clone(),
                other: number.maximum.clone(),
                integer,
            });
        }
        if let Some(bound) = &number.maximum {
            out.push(Assertion::Maximum {
                bound: bound.clone(),
                other: number.minimum.clone(),
                integer,
            });
        }
        if let Some(divisor) = number.multiple_of {
            out.push(Assertion::MultipleOf(divisor));
        }
        // A format name toolgate does not know is an annotation: it compiles to nothing.
        let format = ty
            .format
            .as_deref()
            .and_then(Format::from_name)
            .filter(|_| self.asserts_formats);
        if let Some(format) = format.filter(|f| f.applies_to() == Kind::Number) {
            out.push(Assertion::Format(format));
        }
        let string = &ty.string;
        if let Some(min) = string.min_length {
            out.push(Assertion::MinLength {
                min,
                max: string.max_length,
            });
        }
        if let Some(max) = string.max_length {
            out.push(Assertion::MaxLength {
                max,
                min: string.min_length,
            });
        }
        // A pattern that does not compile never reaches here: the builder refuses it when the
        // spec is built and the importer at load, and a `Schema` comes only from those two.
        if let Some(Ok(pattern)) = string.pattern.as_ref().map(|p| p.compiled()) {
            out.push(Assertion::Pattern(Arc::clone(pattern)));
        }
        if let Some(format) = format.filter(|f| f.applies_to() == Kind::String) {
            out.push(Assertion::Format(format));
        }
        let array = &ty.array;
        if let Some(min) = array.min_items {
            out.push(Assertion::MinItems {
                min,
                max: array.max_items,
            });
        }
        if let Some(max) = array.max_items {
            out.push(Assertion::MaxItems {
                max,
                min: array.min_items,
            });
        }
        if array.unique {
            out.push(Assertion::UniqueItems);
        }
        if array.prefix.is_empty() {
            if let Some(items) = &array.items {
                out.push(Assertion::Items(self.reserve(items)));
            }
        } else {
            let prefix = array.prefix.iter().map(|item| self.reserve(item)).collect();
            let rest = array.items.as_deref().map(|items| self.reserve(items));
            out.push(Assertion::PrefixItems { prefix, rest });
        }
        if let Some(contains) = &array.contains {
            out.push(Assertion::Contains {
                node: self.reserve(contains),
                min: array.min_contains.unwrap_or(1),
                max: array.max_contains,
            });
        }
        let members = ty.members;
        if let Some(min) = members.min {
            out.push(Assertion::MinProperties {
                min,
                max: members.max,
            });
        }
        if let Some(max) = members.max {
            out.push(Assertion::MaxProperties {
                max,
                min: members.min,
            });
        }
        if let Some(object) = &ty.object {
            let mut required = vec![0u64; object.fields.len().div_ceil(64)];
            let mut fields = Vec::with_capacity(object.fields.len());
            for (index, field) in object.fields.iter().enumerate() {
                if field.required {
                    if let Some(word) = required.get_mut(index / 64) {
                        *word |= 1 << (index % 64);
                    }
                }
                fields.push(FieldRule {
                    name: field.name.clone(),
                    node: self.reserve(&field.ty),
                    never: field.ty.kinds == Kinds::NONE,
                    evaluated: field.declared,
                });
            }
            let additional = match &object.additional {
                Additional::Forbidden => AdditionalRule::Forbidden,
                Additional::Allowed | Additional::AllowedExplicitly => AdditionalRule::Allowed,
                Additional::Typed(ty) => AdditionalRule::Typed(self.reserve(ty)),
            };
            let names = object.property_names.as_deref().map(|ty| self.reserve(ty));
            // As for `pattern`: one that does not compile never reaches here.
            let patterns = object
                .patterns
                .iter()
                .filter_map(|field| {
                    let pattern = Arc::clone(field.pattern.compiled().ok()?);
                    Some((pattern, self.reserve(&field.ty)))
                })
                .collect();
            out.push(Assertion::Object(ObjectRules {
                fields,
                required,
                additional,
                evaluates_others: object.additional != Additional::Allowed,
                names,
                patterns,
            }));
        }
        if let Some(index) = ty.reference {
            out.push(match NodeId::try_from(index) {
                Ok(index) if index < self.n_defs() => Assertion::Ref(index + 1),
                _ => Assertion::DanglingRef,
            });
        }
        if !ty.all_of.is_empty() {
            let nodes = ty.all_of.iter().map(|t| self.reserve(t)).collect();
            out.push(Assertion::AllOf(nodes));
        }
        if !ty.any_of.is_empty() {
            let nodes = ty.any_of.iter().map(|t| self.reserve(t)).collect();
            out.push(Assertion::AnyOf(nodes));
        }
        if !ty.one_of.is_empty() {
            let nodes = ty.one_of.iter().map(|t| self.reserve(t)).collect();
            out.push(Assertion::OneOf(nodes));
        }
        if let Some(negated) = &ty.not {
            out.push(Assertion::Not {
                node: self.reserve(negated),
                forbidden: forbidden(negated),
            });
        }
        if let Some(branches) = &ty.if_then_else {
            let mut parts = vec![self.reserve(&branches.condition)];
            parts.extend(branches.then.as_ref().map(|then| self.reserve(then)));
            parts.extend(branches.otherwise.as_ref().map(|other| self.reserve(other)));
            out.push(Assertion::Conditional(Conditional {
                parts,
                then: branches.then.is_some(),
                otherwise: branches.otherwise.is_some(),
                kind: ConditionKind::IfThenElse,
            }));
        }
        for (trigger, required) in &ty.dependent_required {
            let condition = self.presence(std::slice::from_ref(trigger));
            let consequence = self.presence(required);
            out.push(Assertion::Conditional(Conditional {
                parts: vec![condition, consequence],
                then: true,
                otherwise: false,
                kind: ConditionKind::DependentRequired(trigger.clone()),
            }));
        }
        for (trigger, schema) in &ty.dependent_schemas {
            let condition = self.presence(std::slice::from_ref(trigger));
            let consequence = self.reserve(schema);
            out.push(Assertion::Conditional(Conditional {
                parts: vec![condition, consequence],
                then: true,
                otherwise: false,
                kind: ConditionKind::DependentSchema,
            }));
        }
        if let Some(members) = &ty.unevaluated_properties {
            out.push(Assertion::UnevaluatedProperties(self.reserve(members)));
        }
        if let Some(items) = &ty.unevaluated_items {
            out.push(Assertion::UnevaluatedItems(self.reserve(items)));
        }
        let applies_others = out.iter().any(Assertion::applies_others);
        let quick = out.iter().all(Assertion::is_quick);
        let outline = Outline::of(&out);
        let (explain, explain_visits) = kinds_counted(self.defs, ty);
        Node {
            assertions: out,
            explain,
            explain_visits,
            applies_others,
            quick,
            outline,
        }
    }

    /// A node of its own (no [`Type`] behind it): "an object has every one of `names`"
    /// (a value of another kind passes, as object rules ignore other kinds), for the
    /// conditions of `dependentRequired` and `dependentSchemas`. Its fields may hold
    /// anything.
    fn presence(&mut self, names: &[String]) -> NodeId {
        let anything = self.push_node(Vec::new());
        let mut required = vec![0u64; names.len().div_ceil(64)];
        for index in 0..names.len() {
            if let Some(word) = required.get_mut(index / 64) {
                *word |= 1 << (index % 64);
            }
        }
        let fields = names
            .iter()
            .map(|name| FieldRule {
                name: name.clone(),
                node: anything,
                never: false,
                evaluated: false,
            })
            .collect();
        self.push_node(vec![Assertion::Object(ObjectRules {
            fields,
            required,
            additional: AdditionalRule::Allowed,
            evaluates_others: false,
            names: None,
            patterns: Vec::new(),
        })])
    }

    /// Adds a node of `assertions`, none of which applies others, that may accept any kind.
    fn push_node(&mut self, assertions: Vec<Assertion>) -> NodeId {
        let id = NodeId::try_from(self.nodes.len()).unwrap_or(NodeId::MAX);
        let quick = assertions.iter().all(Assertion::is_quick);
        let outline = Outline::of(&assertions);
        self.nodes.push(Node {
            assertions,
            explain: Kinds::ANY,
            explain_visits: 0,
            applies_others: false,
            quick,
            outline,
        });
        id
    }

    fn n_defs(&self) -> NodeId {
        NodeId::try_from(self.defs.len()).unwrap_or(NodeId::MAX)
    }
}

/// What a `not` violation can say of the schema it negates: its kinds when it names
/// nothing else (`"not": {"type": "null"}`: `must not be null`), its values when it lists
/// only those (`enum`, `const`), and otherwise only that the value matches it.
/// Annotations do not count; any other keyword (`format` too, which may assert) does.
fn forbidden(negated: &Type) -> Forbidden {
    let bare = Type {
        kinds: negated.kinds,
        enumeration: negated.enumeration.clone(),
        constant: negated.constant.clone(),
        description: negated.description.clone(),
        kept: negated.kept.clone(),
        ..Type::default()
    };
    if bare != *negated {
        return Forbidden::Schema;
    }
    match (&negated.enumeration, &negated.constant) {
        (None, None) => Forbidden::Kinds(negated.kinds),
        (Some(values), None) if negated.kinds == Kinds::ANY => Forbidden::Values(values.clone()),
        (None, Some(value)) if negated.kinds == Kinds::ANY => {
            Forbidden::Values(vec![value.clone()])
        }
        _ => Forbidden::Schema,
    }
}

impl Assertion {
    /// True for the assertions that read a string whole (`pattern`, a string `format`):
    /// a string that arrives in parts keeps them, joined, for these.
    pub(crate) fn reads_whole_string(&self) -> bool {
        match self {
            Assertion::Pattern(_) => true,
            Assertion::Format(format) => format.applies_to() == Kind::String,
            _ => false,
        }
    }

    /// True for the assertions that apply other nodes to the same value.
    pub(crate) fn applies_others(&self) -> bool {
        matches!(
            self,
            Assertion::Ref(_)
                | Assertion::DanglingRef
                | Assertion::AllOf(_)
                | Assertion::AnyOf(_)
                | Assertion::OneOf(_)
                | Assertion::Not { .. }
                | Assertion::Conditional(_)
        )
    }

    #[cfg(test)]
    #[cfg(all(feature = "pattern", feature = "format"))]
    /// The JSON Schema keywords this assertion enforces (for the table's own test: every
    /// keyword the importer accepts as enforced has an assertion).
    pub(crate) fn keywords(&self) -> &'static [&'static str] {
        match self {
            Assertion::Enum(_) => &["enum"],
            Assertion::Const(_) => &["const"],
            // `nullable: true` widens the kinds `type` names.
            Assertion::Type(_) => &["type", "nullable"],
            Assertion::Minimum { .. } => &["minimum", "exclusiveMinimum"],
            Assertion::Maximum { .. } => &["maximum", "exclusiveMaximum"],
            Assertion::MultipleOf(_) => &["multipleOf"],
            Assertion::MinLength { .. } => &["minLength"],
            Assertion::MaxLength { .. } => &["maxLength"],
            Assertion::Pattern(_) => &["pattern"],
            Assertion::Format(_) => &["format"],
            Assertion::MinProperties { .. } => &["minProperties"],
            Assertion::MaxProperties { .. } => &["maxProperties"],
            Assertion::MinItems { .. } => &["minItems"],
            Assertion::MaxItems { .. } => &["maxItems"],
            Assertion::UniqueItems => &["uniqueItems"],
            Assertion::Items(_) => &["items"],
            Assertion::PrefixItems { .. } => &["prefixItems", "items"],
            Assertion::Contains { .. } => &["contains", "minContains", "maxContains"],
            Assertion::Object(_) => &[
                "properties",
                "required",
                "additionalProperties",
                "propertyNames",
                "patternProperties",
            ],
            // `$dynamicRef` is resolved at load: a reference like any other here.
            Assertion::Ref(_) | Assertion::DanglingRef => &["$ref", "$dynamicRef"],
            Assertion::AllOf(_) => &["allOf"],
            Assertion::AnyOf(_) => &["anyOf"],
            Assertion::OneOf(_) => &["oneOf"],
            Assertion::Not { .. } => &["not"],
            Assertion::Conditional(conditional) => match conditional.kind {
                ConditionKind::IfThenElse => &["if", "then", "else"],
                ConditionKind::DependentRequired(_) => &["dependentRequired"],
                ConditionKind::DependentSchema => &["dependentSchemas"],
            },
            Assertion::UnevaluatedProperties(_) => &["unevaluatedProperties"],
            Assertion::UnevaluatedItems(_) => &["unevaluatedItems"],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For each keyword the importer enforces: a schema that uses it, and a value that
    /// schema refuses only because of that keyword.
    fn sample(keyword: &str) -> Option<(&'static str, &'static str)> {
        Some(match keyword {
            "type" => (r#"{"type": "string"}"#, "1"),
            "nullable" => (r#"{"type": "string", "nullable": true}"#, "1"),
            "enum" => (r#"{"enum": [1]}"#, "2"),
            "const" => (r#"{"const": 1}"#, "2"),
            "minimum" => (r#"{"minimum": 1}"#, "0"),
            "maximum" => (r#"{"maximum": 1}"#, "2"),
            "exclusiveMinimum" => (r#"{"exclusiveMinimum": 1}"#, "1"),
            "exclusiveMaximum" => (r#"{"exclusiveMaximum": 1}"#, "1"),
            "multipleOf" => (r#"{"multipleOf": 2}"#, "3"),
            "minLength" => (r#"{"minLength": 1}"#, r#""""#),
            "maxLength" => (r#"{"maxLength": 1}"#, r#""ab""#),
            "pattern" => (r#"{"pattern": "^[A-Z]{3}$"}"#, r#""ab""#),
            "format" => (r#"{"format": "email"}"#, r#""bob at example dot com""#),
            "items" => (r#"{"items": {"type": "null"}}"#, "[1]"),
            "prefixItems" => (r#"{"prefixItems": [{"type": "null"}]}"#, "[1]"),
            "contains" => (r#"{"contains": {"type": "null"}}"#, "[1]"),
            "minContains" => (
                r#"{"contains": {"type": "null"}, "minContains": 2}"#,
                "[null]",
            ),
            "maxContains" => (
                r#"{"contains": {"type": "null"}, "maxContains": 1}"#,
                "[null, null]",
            ),
            "minItems" => (r#"{"minItems": 1}"#, "[]"),
            "maxItems" => (r#"{"maxItems": 1}"#, "[1, 2]"),
            "uniqueItems" => (r#"{"uniqueItems": true}"#, "[1, 1]"),
            "properties" => (r#"{"properties": {"a": {"type": "null"}}}"#, r#"{"a": 1}"#),
            "required" => (r#"{"required": ["a"]}"#, "{}"),
            "minProperties" => (r#"{"minProperties": 1}"#, "{}"),
            "maxProperties" => (r#"{"maxProperties": 1}"#, r#"{"a": 1, "b": 2}"#),
            "additionalProperties" => (r#"{"additionalProperties": false}"#, r#"{"a": 1}"#),
            "propertyNames" => (r#"{"propertyNames": {"maxLength": 2}}"#, r#"{"abc": 1}"#),
            "patternProperties" => (
                r#"{"patternProperties": {"^x-": {"type": "string"}}}"#,
                r#"{"x-a": 1}"#,
            ),
            "anyOf" => (r#"{"anyOf": [{"type": "null"}]}"#, "1"),
            "oneOf" => (r#"{"oneOf": [{"type": "null"}]}"#, "1"),
            "allOf" => (r#"{"allOf": [{"type": "null"}]}"#, "1"),
            "not" => (r#"{"not": {"type": "null"}}"#, "null"),
            "dependentRequired" => (r#"{"dependentRequired": {"a": ["b"]}}"#, r#"{"a": 1}"#),
            "if" | "then" => (
                r#"{"if": {"type": "integer"}, "then": {"minimum": 1}}"#,
                "0",
            ),
            "else" => (
                r#"{"if": {"type": "integer"}, "else": {"type": "null"}}"#,
                "\"a\"",
            ),
            "dependentSchemas" => (
                r#"{"dependentSchemas": {"a": {"required": ["b"]}}}"#,
                r#"{"a": 1}"#,
            ),
            "$ref" => (
                r##"{"$defs": {"a": {"type": "null"}}, "$ref": "#/$defs/a"}"##,
                "1",
            ),
            "$dynamicRef" => (
                r##"{"$defs": {"a": {"$dynamicAnchor": "a", "type": "null"}},
                     "$dynamicRef": "#a"}"##,
                "1",
            ),
            "unevaluatedProperties" => (
                r#"{"properties": {"a": true}, "unevaluatedProperties": false}"#,
                r#"{"a": 1, "b": 2}"#,
            ),
            "unevaluatedItems" => (
                r#"{"prefixItems": [true], "unevaluatedItems": false}"#,
                "[1, 2]",
            ),
            _ => return None,
        })
    }

    /// Walks the one keyword table: a keyword marked enforced that no assertion checks, or
    /// whose schema accepts the value it must refuse, would load and be silently ignored.
    // It counts the enforced rows, which the `pattern` and `format` rows are only with their features.
    #[cfg(all(feature = "pattern", feature = "format"))]
    #[test]
    fn every_keyword_the_table_marks_enforced_has_an_assertion_that_refuses() {
        let mut n_enforced = 0;
        for (keyword, enforced) in crate::spec::schema::keyword_table() {
            if !enforced {
                continue;
            }
            n_enforced += 1;
            let (text, refused) = sample(keyword).unwrap_or_else(|| {
                panic!("the table marks '{keyword}' enforced: add an assertion and a sample here")
            });
            let document = crate::json::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let schema =
                Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{text}: {e}"));
            let program = Program::compile(&schema);
            let found = program
                .nodes
                .iter()
                .flat_map(|node| &node.assertions)
                .any(|assertion| assertion.keywords().contains(&keyword));
            assert!(found, "'{keyword}' loads but no assertion enforces it");
            let value = crate::json::parse(refused).unwrap_or_else(|e| panic!("{refused}: {e}"));
            assert!(
                schema.validate(&value).is_err(),
                "'{keyword}': {text} accepts {refused}"
            );
        }
        assert_eq!(n_enforced, 41);
    }

    /// The same walk for the export: a keyword the table marks enforced that the JSON
    /// Schema export did not write would be checked at the gate and never shown to the
    /// model. Each sample is written, named in the text, and reads back as itself.
    #[test]
    fn every_keyword_the_table_marks_enforced_is_written_by_the_json_schema_export() {
        for (keyword, enforced) in crate::spec::schema::keyword_table() {
            if !enforced {
                continue;
            }
            let Some((text, _)) = sample(keyword) else {
                panic!("the table marks '{keyword}' enforced: add a sample here");
            };
            let document = crate::json::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let schema =
                Schema::from_json_schema(&document).unwrap_or_else(|e| panic!("{text}: {e}"));
            let written = schema.to_json_schema();
            // `nullable: true` is written as what it means, a `null` type; a `$dynamicRef`
            // as the `$ref` it resolved to.
            let spelling = match keyword {
                "nullable" => "null",
                "$dynamicRef" => "$ref",
                keyword => keyword,
            };
            assert!(
                written.to_string().contains(&format!("\"{spelling}\"")),
                "'{keyword}' is enforced but the export leaves it out: {text} -> {written}"
            );
            let again =
                Schema::from_json_schema(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(again, schema, "'{keyword}': {text} -> {written}");
        }
    }
}
