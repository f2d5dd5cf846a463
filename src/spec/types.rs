//! The data model: [`ToolSpec`], [`Schema`] and [`Type`]. A [`Type`] is one struct, not an
//! enum of shapes, because JSON Schema lets any keyword stand beside any other: the rules
//! for each kind sit side by side and apply only to values of that kind. Unset fields
//! assert nothing, so `Type::default()` accepts any value.

use crate::json::Value;
use std::fmt;

/// A tool's contract: its name, what it does, and the arguments it takes.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    /// Invariant: [`NameRule::MCP`](crate::spec::NameRule::MCP) accepts it (1 to 128
    /// characters of `A-Za-z0-9_.-`); each export checks its provider's own rule.
    pub(crate) name: String,
    /// What the tool does and when to use it: the model reads this to choose the tool.
    pub(crate) description: String,
    /// The arguments: its root is an object type.
    pub(crate) params: Schema,
}

/// A compiled schema: a root [`Type`] and the definitions its references point into.
#[derive(Clone, PartialEq, Default)]
pub struct Schema {
    /// The root type.
    pub(crate) root: Type,
    /// Named definitions (`$defs`), in declaration order; [`Type::reference`] indexes this.
    pub(crate) defs: Vec<(String, Type)>,
    /// True when `format` asserts nothing, as draft 2020-12's default format-annotation
    /// vocabulary says ([`Schema::without_format_assertions`]); false, the default, when
    /// every format name [`Format::from_name`](crate::spec::format::Format::from_name)
    /// knows is enforced.
    pub(crate) format_annotation_only: bool,
}

/// What a value must be. Each set field is one assertion; all must hold; the default
/// accepts any value.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Type {
    /// The kinds of value accepted. `Kinds::ANY` asserts nothing; `Kinds::NONE` accepts
    /// nothing (JSON Schema's `false`).
    pub(crate) kinds: Kinds,
    /// `enum`: the value must equal one of these (JSON Schema equality: `1 == 1.0`).
    pub(crate) enumeration: Option<Vec<Value<'static>>>,
    /// `const`: the value must equal this.
    pub(crate) constant: Option<Value<'static>>,
    /// Rules for strings; they ignore other kinds.
    pub(crate) string: StringRules,
    /// Rules for numbers; they ignore other kinds.
    pub(crate) number: NumberRules,
    /// Rules for arrays; they ignore other kinds.
    pub(crate) array: ArrayRules,
    /// Rules for objects; they ignore other kinds. `None` asserts nothing about members.
    pub(crate) object: Option<Box<ObjectType>>,
    /// `minProperties` and `maxProperties`: apart from `object`, which a schema without
    /// `properties` does not have.
    pub(crate) members: MemberCount,
    /// `dependentRequired`: when an object has the first member, it must have each of the
    /// others too (in declaration order; no name repeats within one list).
    pub(crate) dependent_required: Vec<(String, Vec<String>)>,
    /// `anyOf`: at least one must match (empty: no assertion).
    pub(crate) any_of: Vec<Type>,
    /// `oneOf`: exactly one must match (empty: no assertion).
    pub(crate) one_of: Vec<Type>,
    /// `allOf`: every one must match.
    pub(crate) all_of: Vec<Type>,
    /// `not`: the value must not match this.
    pub(crate) not: Option<Box<Type>>,
    /// `if`, `then` and `else` (present when `if` is: without it, `then` and `else` assert
    /// nothing, as draft 2020-12 says).
    pub(crate) if_then_else: Option<Box<IfThenElse>>,
    /// `dependentSchemas`: when an object has the member named, it must match the schema
    /// too (in declaration order).
    pub(crate) dependent_schemas: Vec<(String, Type)>,
    /// `unevaluatedProperties`: the members of an object that no other keyword here
    /// evaluated (not `properties`, `patternProperties` or `additionalProperties`, here or in
    /// a subschema that matched through `$ref`, `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`
    /// or `dependentSchemas`) must match this. `None` asserts nothing.
    pub(crate) unevaluated_properties: Option<Box<Type>>,
    /// `unevaluatedItems`: the items of an array that no other keyword here evaluated
    /// (`prefixItems`, `items`, `contains`, here or in a matching subschema) must match this.
    pub(crate) unevaluated_items: Option<Box<Type>>,
    /// `$ref`: an index into [`Schema::defs`]; the definition must match too.
    pub(crate) reference: Option<usize>,
    /// `description`: shown to the model, asserts nothing.
    pub(crate) description: Option<String>,
    /// `format`, as written: enforced when [`Format::from_name`] knows it (and the schema
    /// has not turned format assertions off), an annotation otherwise; exported either way.
    ///
    /// [`Format::from_name`]: crate::spec::format::Format::from_name
    pub(crate) format: Option<String>,
    /// Keywords a lenient load accepted without enforcing them, as written, in document
    /// order: they assert nothing, but exports write them back so the model still sees
    /// them. Invariant: no key is one the other fields write, no value holds a `$ref`.
    pub(crate) annotations: Vec<(String, Value<'static>)>,
    /// OpenAPI's `example`, `discriminator` and `x-…` extensions, as written: they assert
    /// nothing, but teach the model, so exports write them back (invariant as for
    /// `annotations`).
    pub(crate) kept: Vec<(String, Value<'static>)>,
    /// A builder argument that could not be stored (a NaN bound), kept so that the chained
    /// builder methods never fail half-way and `ToolSpecBuilder::build` reports it with its
    /// path. Always `None` in types compiled from JSON Schema.
    pub(crate) unbuildable: Option<Box<crate::spec::build::SpecErrorKind>>,
}

/// A set of JSON kinds, as JSON Schema's `type` names them. `INTEGER` is a subset of
/// `NUMBER`: a set holding `NUMBER` accepts every number. `Debug` names the kinds
/// (`Kinds(string | null)`), so a printed violation or type says what it accepts.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kinds(pub(crate) u8);

/// Rules for string values; lengths count Unicode code points, as JSON Schema does.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StringRules {
    /// `minLength`.
    pub(crate) min_length: Option<u64>,
    /// `maxLength`.
    pub(crate) max_length: Option<u64>,
    /// `pattern`: an ECMA-262 regular expression the string must match somewhere (search
    /// semantics: unanchored unless the pattern anchors).
    pub(crate) pattern: Option<crate::spec::string_pattern::StringPattern>,
}

/// Rules for number values.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct NumberRules {
    /// `minimum` or `exclusiveMinimum`.
    pub(crate) minimum: Option<Bound>,
    /// `maximum` or `exclusiveMaximum`.
    pub(crate) maximum: Option<Bound>,
    /// `multipleOf`; invariant: finite and above zero.
    pub(crate) multiple_of: Option<f64>,
}

/// One end of a numeric range. `Debug` shows the bound as declared, without the integer
/// copy kept for speed.
#[derive(Clone, PartialEq)]
pub struct Bound {
    /// The bound, as declared (kept as a JSON number so it exports as written).
    pub(crate) value: crate::json::Number<'static>,
    /// True for `exclusiveMinimum` / `exclusiveMaximum`: the bound itself is refused.
    pub(crate) exclusive: bool,
    /// `value` when its text is a plain integer within `i32`, so that validation compares
    /// it as one (meaningful only when `is_integer`; both set by [`Bound::new`]).
    pub(crate) integer: i32,
    /// True if `integer` holds `value`.
    pub(crate) is_integer: bool,
}

/// How many members an object may have (`minProperties`, `maxProperties`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MemberCount {
    /// `minProperties`.
    pub(crate) min: Option<u64>,
    /// `maxProperties`.
    pub(crate) max: Option<u64>,
}

/// Rules for array values.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ArrayRules {
    /// `prefixItems`: item `i` must match entry `i` (items past the list are for `items`).
    pub(crate) prefix: Vec<Type>,
    /// `items`: every element after the `prefix` ones must match. `None` asserts nothing.
    pub(crate) items: Option<Box<Type>>,
    /// `minItems`.
    pub(crate) min_items: Option<u64>,
    /// `maxItems`.
    pub(crate) max_items: Option<u64>,
    /// `uniqueItems: true`.
    pub(crate) unique: bool,
    /// `contains`: how many items must match it, at least `min_contains` (1 when not
    /// given) and at most `max_contains`. `None` asserts nothing (nor do the counts).
    pub(crate) contains: Option<Box<Type>>,
    /// `minContains` (`None`: 1).
    pub(crate) min_contains: Option<u64>,
    /// `maxContains`.
    pub(crate) max_contains: Option<u64>,
}

/// Rules for object values: declared fields in declaration order, and what happens to the
/// rest (by default, no fields and unknown members refused).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ObjectType {
    /// Declared fields, in declaration order; names are unique.
    pub(crate) fields: Vec<Field>,
    /// Members not declared in `fields`.
    pub(crate) additional: Additional,
    /// `propertyNames`: string rules every member name must meet (`None`: no assertion).
    pub(crate) property_names: Option<Box<Type>>,
    /// `patternProperties`, in declaration order: a member whose name matches a pattern
    /// must meet its type (declared or not), and `additional` applies only to members no
    /// field declares and no pattern matches.
    pub(crate) patterns: Vec<PatternField>,
}

/// One `patternProperties` entry: members whose names match `pattern` must be a `ty`.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternField {
    pub(crate) pattern: crate::spec::string_pattern::StringPattern,
    pub(crate) ty: Type,
}

/// `if`, `then` and `else`: a value that matches `condition` must match `then`, one that
/// does not must match `otherwise` (each asserting nothing when absent).
#[derive(Clone, Debug, PartialEq)]
pub struct IfThenElse {
    /// `if`.
    pub(crate) condition: Type,
    /// `then`.
    pub(crate) then: Option<Type>,
    /// `else`.
    pub(crate) otherwise: Option<Type>,
}

/// One declared field of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The member name.
    pub(crate) name: String,
    /// What its value must be.
    pub(crate) ty: Type,
    /// True if the member must be present.
    pub(crate) required: bool,
    /// False for a name only `required` lists, in a document that uses
    /// `unevaluatedProperties` (which counts such a member as not evaluated; the JSON
    /// Schema export then writes the name under `required` only); true otherwise.
    pub(crate) declared: bool,
}

/// What an object does with members it does not declare.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Additional {
    /// Refused: the default for tool specs, so a misspelled optional field is caught
    /// instead of silently dropped.
    #[default]
    Forbidden,
    /// Accepted whatever they hold (an explicitly open object).
    Allowed,
    /// Accepted whatever they hold, said with `additionalProperties: true` in a document
    /// that uses `unevaluatedProperties`, the one keyword that tells the two apart: `true`
    /// evaluates every member it applies to, absence none. (Elsewhere `true` loads as
    /// [`Additional::Allowed`], so that specs compare as they always have.)
    AllowedExplicitly,
    /// Accepted if their value matches (`{string: T}` maps, as zod and pydantic emit).
    Typed(Box<Type>),
}

impl Kinds {
    /// Accepts nothing.
    pub const NONE: Kinds = Kinds(0);
    /// `null`.
    pub const NULL: Kinds = Kinds(1);
    /// `true` and `false`.
    pub const BOOLEAN: Kinds = Kinds(1 << 1);
    /// Numbers whose value is an integer within `i64`.
    pub const INTEGER: Kinds = Kinds(1 << 2);
    /// Every number (includes `INTEGER`).
    pub const NUMBER: Kinds = Kinds(1 << 3 | 1 << 2);
    /// Strings.
    pub const STRING: Kinds = Kinds(1 << 4);
    /// Arrays.
    pub const ARRAY: Kinds = Kinds(1 << 5);
    /// Objects.
    pub const OBJECT: Kinds = Kinds(1 << 6);
    /// Every value.
    pub const ANY: Kinds = Kinds(0x7f);

    /// The union of two sets.
    pub const fn union(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }

    /// True if every kind in `other` is in `self`.
    pub const fn contains(self, other: Kinds) -> bool {
        self.0 & other.0 == other.0
    }

    /// The kinds in both sets.
    pub const fn intersection(self, other: Kinds) -> Kinds {
        Kinds(self.0 & other.0)
    }

    /// True if the set shares a kind with `other`.
    pub const fn intersects(self, other: Kinds) -> bool {
        self.0 & other.0 != 0
    }

    /// True if numbers with a fraction (or beyond `i64`) are accepted: the part of
    /// `NUMBER` that `INTEGER` lacks.
    pub const fn accepts_fractions(self) -> bool {
        self.0 & (Kinds::NUMBER.0 & !Kinds::INTEGER.0) != 0
    }

    /// JSON Schema's name for each kind, in the order a `type` array lists them: the one
    /// table the importer reads `type` with, the exporters write it with, and `Debug`
    /// prints.
    const NAMES: [(Kinds, &'static str); 7] = [
        (Kinds::STRING, "string"),
        (Kinds::NUMBER, "number"),
        (Kinds::INTEGER, "integer"),
        (Kinds::BOOLEAN, "boolean"),
        (Kinds::ARRAY, "array"),
        (Kinds::OBJECT, "object"),
        (Kinds::NULL, "null"),
    ];

    /// The kind a JSON Schema `type` name stands for (`"integer"`), if it is one.
    pub(crate) fn named(name: &str) -> Option<Kinds> {
        Kinds::NAMES
            .into_iter()
            .find(|&(_, known)| known == name)
            .map(|(kind, _)| kind)
    }

    /// The `type` names of the kinds in the set, in [`Kinds::NAMES`] order; `number`
    /// covers `integer`, so a set holding every number lists only `number`.
    pub(crate) fn names(self) -> impl Iterator<Item = &'static str> {
        Kinds::NAMES
            .into_iter()
            .filter(move |&(kind, _)| {
                let covered = kind == Kinds::INTEGER && self.contains(Kinds::NUMBER);
                self.contains(kind) && !covered
            })
            .map(|(_, name)| name)
    }
}

impl fmt::Debug for Kinds {
    /// `Kinds(string | null)`, `Kinds(integer)`, `Kinds(any)`, `Kinds(none)`: JSON Schema's
    /// type names, in the order a `type` array lists them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Kinds::ANY {
            return f.write_str("Kinds(any)");
        }
        f.write_str("Kinds(")?;
        let mut names = self.names().peekable();
        if names.peek().is_none() {
            f.write_str("none")?;
        }
        while let Some(name) = names.next() {
            f.write_str(name)?;
            if names.peek().is_some() {
                f.write_str(" | ")?;
            }
        }
        f.write_str(")")
    }
}

impl fmt::Debug for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bound")
            .field("value", &format_args!("{}", self.value.as_str()))
            .field("exclusive", &self.exclusive)
            .finish()
    }
}

impl Default for Kinds {
    /// [`Kinds::ANY`]: a type that names no kind accepts every value.
    fn default() -> Self {
        Kinds::ANY
    }
}

impl Bound {
    /// A bound on `value`, refusing the value itself when `exclusive`.
    pub(crate) fn new(value: crate::json::Number<'static>, exclusive: bool) -> Bound {
        let integer = crate::json::decimal::plain_i64(value.as_str())
            .and_then(|integer| i32::try_from(integer).ok());
        Bound {
            value,
            exclusive,
            integer: integer.unwrap_or(0),
            is_integer: integer.is_some(),
        }
    }

    /// The bound as an `i64`, when its text is a plain integer.
    pub(crate) fn as_plain_i64(&self) -> Option<i64> {
        self.is_integer.then_some(i64::from(self.integer))
    }

    /// The bound as declared.
    pub fn value(&self) -> &crate::json::Number<'static> {
        &self.value
    }

    /// True if the bound itself is refused (`exclusiveMinimum`, `exclusiveMaximum`).
    pub fn is_exclusive(&self) -> bool {
        self.exclusive
    }
}

impl fmt::Debug for Schema {
    /// The types only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema")
            .field("root", &self.root)
            .field("defs", &self.defs)
            .finish()
    }
}

impl ToolSpec {
    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool's description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The arguments' schema.
    pub fn params(&self) -> &Schema {
        &self.params
    }

    /// This spec with `format` read as an annotation only
    /// ([`Schema::without_format_assertions`] on its arguments' schema).
    #[cfg(feature = "format")]
    #[must_use]
    pub fn without_format_assertions(self) -> ToolSpec {
        let params = self.params.without_format_assertions();
        ToolSpec { params, ..self }
    }
}

impl Type {
    /// The types this one applies to the same value (not to its members or items): the
    /// `allOf`, `anyOf` and `oneOf` branches, `not`, `if`, `then`, `else` and the
    /// `dependentSchemas`, in that order. The one list that walks which must look through
    /// them (reference cycles, the build check) read.
    pub(crate) fn same_value(&self) -> impl Iterator<Item = &Type> {
        let conditional = self.if_then_else.as_deref().into_iter().flat_map(|c| {
            std::iter::once(&c.condition)
                .chain(c.then.as_ref())
                .chain(c.otherwise.as_ref())
        });
        self.all_of
            .iter()
            .chain(&self.any_of)
            .chain(&self.one_of)
            .chain(self.not.as_deref())
            .chain(conditional)
            .chain(self.dependent_schemas.iter().map(|(_, ty)| ty))
    }
}

impl Schema {
    /// A schema of a root type and its definitions.
    pub(crate) fn new(root: Type, defs: Vec<(String, Type)>) -> Schema {
        Schema {
            root,
            defs,
            format_annotation_only: false,
        }
    }

    /// This schema with `format` read as an annotation only: no format is checked, and
    /// every `format` is still exported for the model. This is draft 2020-12's default
    /// (its format-annotation vocabulary), which the JSON-Schema-Test-Suite's `format.json`
    /// expects; toolgate's default is to enforce the formats it knows (see
    /// [`format`](crate::spec::format)), because a tool that declares `"format": "date"`
    /// will parse the value as one.
    ///
    /// ```
    /// use toolgate::{json, spec::format::Format, ToolSpec, Type};
    /// let spec = ToolSpec::new("remind", "Set a reminder.")
    ///     .required("due", Type::string().format(Format::Date))
    ///     .build()?;
    /// let args = json::parse(r#"{"due": "next Tuesday"}"#)?;
    /// assert!(spec.params().validate(&args).is_err());
    /// let annotated = spec.params().clone().without_format_assertions();
    /// assert!(annotated.validate(&args).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "format")]
    #[must_use]
    pub fn without_format_assertions(self) -> Schema {
        Schema {
            format_annotation_only: true,
            ..self
        }
    }

    /// False if `format` is an annotation only (`Schema::without_format_assertions`).
    pub fn asserts_formats(&self) -> bool {
        !self.format_annotation_only
    }

    /// The root type.
    pub fn root(&self) -> &Type {
        &self.root
    }

    /// The named definitions, in declaration order.
    pub fn defs(&self) -> &[(String, Type)] {
        &self.defs
    }
}
