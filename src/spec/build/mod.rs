//! Building a [`ToolSpec`] in Rust, and [`SpecError`]: what is refused when a spec is
//! built, never at call time.
//!
//! ```
//! use toolgate::{ToolSpec, Type};
//! let spec = ToolSpec::new("get_weather", "Current weather for a city")
//!     .required("city", Type::string().min_length(1))
//!     .optional("units", Type::string().one_of(["metric", "imperial"]))
//!     .build()?;
//! assert_eq!(spec.name(), "get_weather");
//! # Ok::<(), toolgate::spec::SpecError>(())
//! ```
//!
//! Every chained method stores what it is given and cannot fail; [`build`](ToolSpecBuilder::build)
//! checks the whole declaration and returns the first [`SpecError`] with its path. A
//! builder is not a `ToolSpec`, so the check cannot be skipped, and a `ToolSpec` always
//! holds its invariants: the gate never re-checks one at call time.

mod check;
mod error;

pub(crate) use check::check_schema;
pub use error::{SpecError, SpecErrorKind};

use super::NameRule;
use super::{Additional, Bound, Field, Kinds, ObjectType, Schema, ToolSpec, Type};
use crate::json::{Number, Value};

/// A tool spec being declared: add fields, then [`build`](ToolSpecBuilder::build).
#[derive(Clone, Debug, PartialEq)]
#[must_use = "a ToolSpecBuilder does nothing until `.build()` checks it and makes the ToolSpec"]
pub struct ToolSpecBuilder {
    name: String,
    description: String,
    /// The arguments object.
    params: Type,
}

/// A Rust number usable as a bound ([`Type::min`] and the like): `i32`, `i64`, `u32`,
/// `u64`, `usize` or `f64`.
pub trait IntoNumber {
    /// The number as JSON number text, or the `f64` itself if it is NaN or infinite
    /// (which JSON cannot write; the spec's build reports it).
    ///
    /// # Errors
    /// The value itself when it is not finite.
    fn into_number(self) -> Result<Number<'static>, f64>;
}

impl ToolSpec {
    /// Starts declaring a tool: its name (MCP's rule, [`NameRule::MCP`]: 1 to 128
    /// characters of `A-Za-z0-9_.-`; each export checks its own provider's rule) and what
    /// it does (the model reads this to choose the tool). The arguments are an object
    /// that refuses unknown fields until [`ToolSpecBuilder::open`] says otherwise.
    // Not `Self`: a declaration becomes a `ToolSpec` only through `build()`, which checks
    // it (see the module documentation). The name `new` is the one the issue's API reads.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> ToolSpecBuilder {
        ToolSpecBuilder {
            name: name.into(),
            description: description.into(),
            params: Type::object(),
        }
    }

    /// A spec from a compiled schema (the JSON Schema importer's way in).
    ///
    /// # Errors
    /// [`SpecErrorKind::InvalidName`] for a name [`NameRule::MCP`] refuses;
    /// [`SpecErrorKind::RootNotObject`] if the root can accept anything but an object
    /// (looking through `$ref`, `allOf`, `anyOf` and `oneOf`); otherwise the first
    /// contradiction, as `check_schema` finds them.
    pub fn from_schema(
        name: impl Into<String>,
        description: impl Into<String>,
        schema: Schema,
    ) -> Result<ToolSpec, SpecError> {
        let name = name.into();
        check_name(&name)?;
        let accepts = super::validate::kinds_of(&schema.defs, &schema.root);
        if accepts == Kinds::NONE || !Kinds::OBJECT.contains(accepts) {
            return Err(SpecError {
                tool: name,
                path: String::new(),
                kind: SpecErrorKind::RootNotObject { accepts },
            });
        }
        if let Err(mut error) = check_schema(&schema) {
            error.tool = name;
            return Err(error);
        }
        Ok(ToolSpec {
            name,
            description: description.into(),
            params: schema,
        })
    }
}

impl ToolSpecBuilder {
    /// Declares a field the call must give.
    pub fn required(mut self, name: impl Into<String>, ty: Type) -> ToolSpecBuilder {
        self.params = self.params.required(name, ty);
        self
    }

    /// Declares a field the call may give.
    pub fn optional(mut self, name: impl Into<String>, ty: Type) -> ToolSpecBuilder {
        self.params = self.params.optional(name, ty);
        self
    }

    /// Accepts fields that are not declared, whatever they hold.
    pub fn open(mut self) -> ToolSpecBuilder {
        self.params = self.params.open();
        self
    }

    /// Checks the declaration and makes the spec.
    ///
    /// # Errors
    /// The first problem, with its path: [`SpecErrorKind::InvalidName`],
    /// [`DuplicateField`](SpecErrorKind::DuplicateField) (at any depth),
    /// [`EmptyEnum`](SpecErrorKind::EmptyEnum),
    /// [`ValueOfWrongKind`](SpecErrorKind::ValueOfWrongKind) (an `enum` or `const` value the
    /// type's kind refuses), [`EmptyRange`](SpecErrorKind::EmptyRange),
    /// [`EmptyLengthRange`](SpecErrorKind::EmptyLengthRange),
    /// [`EmptyItemsRange`](SpecErrorKind::EmptyItemsRange),
    /// [`BadMultipleOf`](SpecErrorKind::BadMultipleOf),
    /// [`NotFinite`](SpecErrorKind::NotFinite) (a NaN or infinite bound),
    /// [`RuleNeverApplies`](SpecErrorKind::RuleNeverApplies) (`Type::string().min(1)`),
    /// [`TooDeep`](SpecErrorKind::TooDeep).
    ///
    /// ```
    /// use toolgate::{ToolSpec, Type};
    /// let error = ToolSpec::new("issue_refund", "Refund an order.")
    ///     .required("amount_cents", Type::integer().min(500).max(1))
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "issue_refund: at amount_cents: minimum 500 and maximum 1 leave no number between them"
    /// );
    /// ```
    pub fn build(self) -> Result<ToolSpec, SpecError> {
        check_name(&self.name)?;
        let params = Schema::new(self.params, Vec::new());
        if let Err(mut error) = check::check_built(&params) {
            error.tool = self.name;
            return Err(error);
        }
        Ok(ToolSpec {
            name: self.name,
            description: self.description,
            params,
        })
    }
}

/// A spec's name follows MCP's rule ([`NameRule::MCP`]), the loosest real declarations use;
/// each export holds it to its provider's rule.
fn check_name(name: &str) -> Result<(), SpecError> {
    if NameRule::MCP.accepts(name) {
        return Ok(());
    }
    Err(SpecError {
        tool: name.to_owned(),
        path: String::new(),
        kind: SpecErrorKind::InvalidName {
            name: name.to_owned(),
        },
    })
}

/// Constructors: one per JSON kind, plus arrays, objects, `any` and the unions.
impl Type {
    /// A string.
    pub fn string() -> Type {
        Type::of(Kinds::STRING)
    }

    /// An integer: a number with no fraction within `i64` (`1.0` and `1e2` count, `true`
    /// never does).
    pub fn integer() -> Type {
        Type::of(Kinds::INTEGER)
    }

    /// Any number.
    pub fn number() -> Type {
        Type::of(Kinds::NUMBER)
    }

    /// `true` or `false`.
    pub fn boolean() -> Type {
        Type::of(Kinds::BOOLEAN)
    }

    /// `null`.
    pub fn null() -> Type {
        Type::of(Kinds::NULL)
    }

    /// Any value at all.
    pub fn any() -> Type {
        Type::default()
    }

    /// An array whose items are each an `item`.
    pub fn array(item: Type) -> Type {
        let mut ty = Type::of(Kinds::ARRAY);
        ty.array.items = Some(Box::new(item));
        ty
    }

    /// An object with no fields yet; unknown fields are refused until
    /// [`open`](Type::open) or [`additional`](Type::additional).
    pub fn object() -> Type {
        let mut ty = Type::of(Kinds::OBJECT);
        ty.object = Some(Box::default());
        ty
    }

    /// A value that matches at least one of `types` (`anyOf`).
    pub fn any_of(types: impl IntoIterator<Item = Type>) -> Type {
        Type {
            any_of: types.into_iter().collect(),
            ..Type::default()
        }
    }

    /// A value that matches exactly one of `types` (`oneOf`). Named apart from
    /// [`one_of`](Type::one_of), which lists allowed values.
    pub fn exactly_one_of(types: impl IntoIterator<Item = Type>) -> Type {
        Type {
            one_of: types.into_iter().collect(),
            ..Type::default()
        }
    }

    /// A value that matches every one of `types` (`allOf`).
    pub fn all_of(types: impl IntoIterator<Item = Type>) -> Type {
        Type {
            all_of: types.into_iter().collect(),
            ..Type::default()
        }
    }

    fn of(kinds: Kinds) -> Type {
        Type {
            kinds,
            ..Type::default()
        }
    }
}

/// Rules, chained: each takes the type and returns it with one more rule.
impl Type {
    /// Declares a field the object must have. (Builds object rules if there are none.)
    pub fn required(self, name: impl Into<String>, ty: Type) -> Type {
        self.field(name.into(), ty, true)
    }

    /// Declares a field the object may have.
    pub fn optional(self, name: impl Into<String>, ty: Type) -> Type {
        self.field(name.into(), ty, false)
    }

    /// Accepts undeclared fields, whatever they hold.
    pub fn open(mut self) -> Type {
        self.object_rules().additional = Additional::Allowed;
        self
    }

    /// Fields whose names match `pattern` (ECMA-262, searched like `pattern`: anchor it to
    /// match whole names) must each be a `ty`, whether declared or not; an undeclared
    /// field that matches is not unknown. JSON Schema's `patternProperties`. A pattern
    /// that does not compile is refused when the spec is built.
    ///
    /// ```
    /// use toolgate::{ToolSpec, Type};
    /// let spec = ToolSpec::new("tag", "Tag a record.")
    ///     .required("id", Type::string())
    ///     .required("labels", Type::object().pattern_field("^x-", Type::string()))
    ///     .build()?;
    /// let gate = toolgate::Gate::new(vec![spec])?;
    /// let ok = r#"{"name":"tag","arguments":{"id":"7","labels":{"x-team":"core"}}}"#;
    /// assert!(gate.check_call(ok).is_ok());
    /// let bad = r#"{"name":"tag","arguments":{"id":"7","labels":{"x-team":7}}}"#;
    /// assert_eq!(
    ///     gate.check_call(bad).unwrap_err().to_string(),
    ///     "tag rejected: labels.x-team must be a string; received 7."
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "pattern")]
    pub fn pattern_field(mut self, pattern: &str, ty: Type) -> Type {
        let pattern = crate::spec::string_pattern::StringPattern::new(pattern);
        let field = crate::spec::PatternField { pattern, ty };
        self.object_rules().patterns.push(field);
        self
    }

    /// Accepts undeclared fields whose values are each a `ty`: with no declared fields,
    /// the map `{string: T}` that zod's `record` and pydantic's `dict` describe.
    pub fn additional(mut self, ty: Type) -> Type {
        self.object_rules().additional = Additional::Typed(Box::new(ty));
        self
    }

    /// Accepts `null` as well. Allowed values (`one_of`, `constant`) gain `null`; a type
    /// made of alternatives becomes "this, or null" (`anyOf`), since the alternatives
    /// would otherwise refuse `null`.
    pub fn nullable(mut self) -> Type {
        let has_alternatives = self.reference.is_some() || self.same_value().next().is_some();
        if has_alternatives {
            if self.is_only_any_of() {
                self.any_of.push(Type::null());
                return self;
            }
            let description = self.description.take();
            return Type {
                any_of: vec![self, Type::null()],
                description,
                ..Type::default()
            };
        }
        self.kinds = self.kinds.union(Kinds::NULL);
        self.add_null_to_values(true);
        self
    }

    /// Allowed values (`enum`): the value must equal one of them (`1` equals `1.0`).
    /// On a type whose kinds include `null` ([`nullable`](Type::nullable) ones), `null`
    /// stays allowed, whichever of the two is called first.
    pub fn one_of<V: Into<Value<'static>>>(mut self, values: impl IntoIterator<Item = V>) -> Type {
        self.enumeration = Some(values.into_iter().map(Into::into).collect());
        self.constant = None;
        self.add_null_to_values(false);
        self
    }

    /// The one allowed value (`const`). On a nullable type, `null` stays allowed (the
    /// rule becomes `enum: [value, null]`).
    pub fn constant(mut self, value: impl Into<Value<'static>>) -> Type {
        self.constant = Some(value.into());
        self.enumeration = None;
        self.add_null_to_values(false);
        self
    }

    /// Least value, inclusive (`minimum`).
    pub fn min(self, n: impl IntoNumber) -> Type {
        self.bound(n, false, true)
    }

    /// Greatest value, inclusive (`maximum`).
    pub fn max(self, n: impl IntoNumber) -> Type {
        self.bound(n, false, false)
    }

    /// Lower bound, itself refused (`exclusiveMinimum`).
    pub fn exclusive_min(self, n: impl IntoNumber) -> Type {
        self.bound(n, true, true)
    }

    /// Upper bound, itself refused (`exclusiveMaximum`).
    pub fn exclusive_max(self, n: impl IntoNumber) -> Type {
        self.bound(n, true, false)
    }

    /// The number must be a multiple of `n` (`multipleOf`), decided exactly in decimal:
    /// `0.0075` is a multiple of `0.0001`.
    pub fn multiple_of(mut self, n: impl IntoNumber) -> Type {
        self.number.multiple_of = Some(match n.into_number() {
            Ok(number) => number.as_f64(),
            Err(not_finite) => not_finite,
        });
        self
    }

    /// Least length in Unicode code points (`minLength`).
    pub fn min_length(mut self, n: u64) -> Type {
        self.string.min_length = Some(n);
        self
    }

    /// Greatest length in Unicode code points (`maxLength`).
    pub fn max_length(mut self, n: u64) -> Type {
        self.string.max_length = Some(n);
        self
    }

    /// A regular expression the string must match (`pattern`): ECMA-262 syntax, searched
    /// for (unanchored unless it anchors, `^[A-Z]{3}$`), checked in time linear in the
    /// string whatever the pattern (see [`crate::pattern`]). A pattern that does not compile
    /// (or uses a construct that cannot run in linear time: backreferences, lookaround)
    /// is refused when the spec is built, as [`SpecErrorKind::BadPattern`].
    ///
    /// [`SpecErrorKind::BadPattern`]: crate::spec::build::SpecErrorKind::BadPattern
    #[cfg(feature = "pattern")]
    pub fn pattern(mut self, pattern: &str) -> Type {
        self.string.pattern = Some(crate::spec::string_pattern::StringPattern::new(pattern));
        self
    }

    /// Least number of members of an object (`minProperties`).
    pub fn min_properties(mut self, n: u64) -> Type {
        self.members.min = Some(n);
        self
    }

    /// Greatest number of members of an object (`maxProperties`).
    pub fn max_properties(mut self, n: u64) -> Type {
        self.members.max = Some(n);
        self
    }

    /// Least number of items (`minItems`).
    pub fn min_items(mut self, n: u64) -> Type {
        self.array.min_items = Some(n);
        self
    }

    /// Greatest number of items (`maxItems`).
    pub fn max_items(mut self, n: u64) -> Type {
        self.array.max_items = Some(n);
        self
    }

    /// No two items may be equal (`uniqueItems`).
    pub fn unique_items(mut self) -> Type {
        self.array.unique = true;
        self
    }

    /// What the value means, for the model (`description`); asserts nothing.
    pub fn describe(mut self, text: impl Into<String>) -> Type {
        self.description = Some(text.into());
        self
    }

    /// The value's `format`: a [`Format`] (`Type::string().format(Format::Email)`), or any
    /// format name. A name [`Format::from_name`] knows is enforced, with its exact RFC
    /// rule (see [`format`](crate::spec::format)); another (`"float"`, a vendor's own) is
    /// exported for the model and asserts nothing, as in draft 2020-12. Both are exported.
    /// A format that applies to a kind the type refuses (`Type::integer().format(Format::Email)`)
    /// is refused when the spec is built, as [`SpecErrorKind::RuleNeverApplies`].
    /// [`Schema::without_format_assertions`] turns every format into an annotation.
    ///
    /// ```
    /// use toolgate::{json, spec::format::Format, ToolSpec, Type};
    /// let spec = ToolSpec::new("send_email", "Send an email.")
    ///     .required("to", Type::string().format(Format::Email))
    ///     .optional("priority", Type::string().format("x-priority"))
    ///     .build()?;
    /// let violation = spec.validate(&json::parse(r#"{"to": "bob at example dot com"}"#)?);
    /// assert_eq!(
    ///     violation.unwrap_err().to_string(),
    ///     r#"to must be an email address such as ana@example.com; received "bob at example dot com""#
    /// );
    /// assert!(spec.validate(&json::parse(r#"{"to": "jürgen@exämple.de"}"#)?).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// [`Format`]: crate::spec::format::Format
    /// [`Format::from_name`]: crate::spec::format::Format::from_name
    #[cfg(feature = "format")]
    pub fn format(mut self, format: impl Into<String>) -> Type {
        self.format = Some(format.into());
        self
    }

    fn field(mut self, name: String, ty: Type, required: bool) -> Type {
        self.object_rules().fields.push(Field {
            name,
            ty,
            required,
            declared: true,
        });
        self
    }

    fn object_rules(&mut self) -> &mut ObjectType {
        self.object.get_or_insert_with(Box::default)
    }

    fn bound(mut self, n: impl IntoNumber, exclusive: bool, lower: bool) -> Type {
        match n.into_number() {
            Ok(value) => {
                let bound = Some(Bound::new(value, exclusive));
                if lower {
                    self.number.minimum = bound;
                } else {
                    self.number.maximum = bound;
                }
            }
            Err(value) => {
                let keyword = match (lower, exclusive) {
                    (true, false) => "minimum",
                    (true, true) => "exclusiveMinimum",
                    (false, false) => "maximum",
                    (false, true) => "exclusiveMaximum",
                };
                self.unbuildable
                    .get_or_insert(Box::new(SpecErrorKind::NotFinite { keyword, value }));
            }
        }
        self
    }

    /// True for a type that is only alternatives (`Type::any_of([...])`, perhaps
    /// described): adding a `null` alternative makes it nullable.
    fn is_only_any_of(&self) -> bool {
        let bare = Type {
            any_of: Vec::new(),
            description: None,
            format: None,
            ..self.clone()
        };
        !self.any_of.is_empty() && bare == Type::default()
    }

    /// Keeps `null` among the allowed values of a nullable type: always when `nullable()`
    /// asks (`force`), else when the kinds name `null` explicitly (not merely as part of
    /// "any value").
    fn add_null_to_values(&mut self, force: bool) {
        let nullable = self.kinds != Kinds::ANY && self.kinds.contains(Kinds::NULL);
        if !(force || nullable) {
            return;
        }
        if let Some(value) = self.constant.take() {
            if value == Value::Null {
                self.constant = Some(value);
            } else {
                self.enumeration = Some(vec![value, Value::Null]);
            }
        }
        if let Some(values) = &mut self.enumeration {
            if !values.contains(&Value::Null) {
                values.push(Value::Null);
            }
        }
    }
}

// Decimal digits with an optional '-' are always in the JSON number grammar.
macro_rules! integer_into_number {
    ($($int:ty),*) => {$(
        impl IntoNumber for $int {
            fn into_number(self) -> Result<Number<'static>, f64> {
                Number::from_text(self.to_string()).ok_or(f64::NAN)
            }
        }
    )*};
}
integer_into_number!(i32, i64, u32, u64, usize);

impl IntoNumber for f64 {
    /// Written as Rust's shortest round-trip decimal (`0.5`, `3`), in exponent form only
    /// when very large or small (`1e300`).
    fn into_number(self) -> Result<Number<'static>, f64> {
        Number::from_f64(self).ok_or(self)
    }
}
