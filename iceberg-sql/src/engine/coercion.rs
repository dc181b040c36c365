//! Trino's implicit coercions, common super types and the store-assignment rule, as
//! Athena engine v3 applies them.
//!
//! Mirrors `core/trino-main/src/main/java/io/trino/type/TypeCoercion.java` (trinodb/trino,
//! release 417; unchanged in substance through current master): `compatibility()` is
//! the one rule, `can_coerce`, `common_super_type` and `is_compatible` read it. The
//! store-assignment rule (INSERT, UPDATE SET, MERGE SET and INSERT) mirrors
//! `StatementAnalyzer.typesMatchForInsert` (release 417) and `TypeCoercion.isStoreAssignable`
//! (master): the value must be *compatible* with the column, which is broader than
//! implicit coercion; Trino then inserts a CAST that can round or fail at run time.

use super::types::{EngineType, RowField, MAX_DECIMAL_PRECISION};

/// Result of Trino's `TypeCoercion.compatibility(from, to)`.
struct Compatibility {
    /// The common super type, if the types are compatible.
    common: Option<EngineType>,
    /// Whether `from` coerces implicitly to `to` (the common super type is `to`).
    coercible: bool,
}

impl Compatibility {
    fn compatible(common: EngineType, coercible: bool) -> Self {
        Compatibility {
            common: Some(common),
            coercible,
        }
    }

    fn incompatible() -> Self {
        Compatibility {
            common: None,
            coercible: false,
        }
    }
}

fn compatibility(from: &EngineType, to: &EngineType) -> Compatibility {
    use EngineType as E;
    if from == to {
        return Compatibility::compatible(to.clone(), true);
    }
    if *from == E::Unknown {
        return Compatibility::compatible(to.clone(), true);
    }
    if *to == E::Unknown {
        return Compatibility::compatible(from.clone(), false);
    }
    if from.base_name() == to.base_name() {
        let same = |common: EngineType| {
            let coercible = common == *to;
            Compatibility::compatible(common, coercible)
        };
        return match (from, to) {
            (E::Decimal { .. }, E::Decimal { .. }) => same(decimal_super_type(from, to)),
            (E::Varchar(a), E::Varchar(b)) => same(E::Varchar(match (a, b) {
                (Some(a), Some(b)) => Some(*a.max(b)),
                _ => None,
            })),
            (E::Char(a), E::Char(b)) => same(E::Char(*a.max(b))),
            (E::Timestamp(a), E::Timestamp(b)) => same(E::Timestamp(*a.max(b))),
            (E::TimestampWithTimeZone(a), E::TimestampWithTimeZone(b)) => {
                same(E::TimestampWithTimeZone(*a.max(b)))
            }
            (E::Time(a), E::Time(b)) => same(E::Time(*a.max(b))),
            (E::TimeWithTimeZone(a), E::TimeWithTimeZone(b)) => {
                same(E::TimeWithTimeZone(*a.max(b)))
            }
            (E::Row(a), E::Row(b)) => row_compatibility(a, b),
            (E::Array(a), E::Array(b)) => {
                let c = compatibility(a, b);
                match c.common {
                    Some(t) => Compatibility::compatible(E::array(t), c.coercible),
                    None => Compatibility::incompatible(),
                }
            }
            (E::Map(ak, av), E::Map(bk, bv)) => {
                let k = compatibility(ak, bk);
                let v = compatibility(av, bv);
                match (k.common, v.common) {
                    (Some(kt), Some(vt)) => {
                        Compatibility::compatible(E::map(kt, vt), k.coercible && v.coercible)
                    }
                    _ => Compatibility::incompatible(),
                }
            }
            _ => Compatibility::incompatible(),
        };
    }
    if let Some(coerced) = coerce_type_base(from, to.base_name()) {
        return compatibility(&coerced, to);
    }
    if let Some(coerced) = coerce_type_base(to, from.base_name()) {
        let c = compatibility(from, &coerced);
        return match c.common {
            Some(common) => Compatibility::compatible(common, false),
            None => Compatibility::incompatible(),
        };
    }
    Compatibility::incompatible()
}

/// `TypeCoercion.getCommonSuperTypeForDecimal`: enough integer digits for either side,
/// the larger scale, at most 38 digits ("we allow potential loss of precision here").
fn decimal_super_type(a: &EngineType, b: &EngineType) -> EngineType {
    let (
        EngineType::Decimal {
            precision: pa,
            scale: sa,
        },
        EngineType::Decimal {
            precision: pb,
            scale: sb,
        },
    ) = (a, b)
    else {
        unreachable!("decimal_super_type takes two decimals")
    };
    let scale = *sa.max(sb);
    let integer_digits = (pa - sa).max(pb - sb);
    let precision = (integer_digits + scale).min(MAX_DECIMAL_PRECISION);
    EngineType::decimal(precision, scale)
}

/// `TypeCoercion.typeCompatibilityForRow`: same number of fields, each compatible; a
/// field keeps its name when both sides agree. Names do not matter for coercibility.
fn row_compatibility(a: &[RowField], b: &[RowField]) -> Compatibility {
    if a.len() != b.len() {
        return Compatibility::incompatible();
    }
    let mut fields = Vec::with_capacity(a.len());
    let mut coercible = true;
    for (fa, fb) in a.iter().zip(b) {
        let c = compatibility(&fa.ty, &fb.ty);
        let Some(common) = c.common else {
            return Compatibility::incompatible();
        };
        coercible &= c.coercible;
        let name = if fa.name == fb.name {
            fa.name.clone()
        } else {
            None
        };
        fields.push(RowField { name, ty: common });
    }
    Compatibility::compatible(EngineType::Row(fields), coercible)
}

/// `TypeCoercion.coerceTypeBase`: the type `source` becomes when implicitly coerced to
/// a type of base `result_base`, if Trino has that coercion. These are all of Trino's
/// hand-written implicit coercions for the types modelled here.
fn coerce_type_base(source: &EngineType, result_base: &str) -> Option<EngineType> {
    use EngineType as E;
    if source.base_name() == result_base {
        return Some(source.clone());
    }
    // `unknown` (NULL) coerces to everything; `compatibility` handles it before it gets
    // here, so it has no branch.
    match (source, result_base) {
        (E::Tinyint, "smallint") => Some(E::Smallint),
        (E::Tinyint | E::Smallint, "integer") => Some(E::Integer),
        (E::Tinyint | E::Smallint | E::Integer, "bigint") => Some(E::Bigint),
        (E::Tinyint | E::Smallint | E::Integer | E::Bigint | E::Decimal { .. }, "real") => {
            Some(E::Real)
        }
        (
            E::Tinyint | E::Smallint | E::Integer | E::Bigint | E::Decimal { .. } | E::Real,
            "double",
        ) => Some(E::Double),
        (E::Tinyint, "decimal") => Some(E::decimal(3, 0)),
        (E::Smallint, "decimal") => Some(E::decimal(5, 0)),
        (E::Integer, "decimal") => Some(E::decimal(10, 0)),
        (E::Bigint, "decimal") => Some(E::decimal(19, 0)),
        (E::Date, "timestamp") => Some(E::Timestamp(0)),
        (E::Date, "timestamp with time zone") => Some(E::TimestampWithTimeZone(0)),
        (E::Time(p), "time with time zone") => Some(E::TimeWithTimeZone(*p)),
        (E::Timestamp(p), "timestamp with time zone") => Some(E::TimestampWithTimeZone(*p)),
        // varchar <-> char: release 417 coerces varchar to char(n); current master coerces
        // char(n) to varchar(n) instead (release 417's rule is behind
        // `legacyVarcharToCharCoercion`). Neither direction holds on both readings, so
        // none is modelled: a mix of the two is refused, never assumed. Iceberg has no
        // char type, so only explicit CASTs can produce one.
        _ => None,
    }
}

/// Whether a value of type `from` is implicitly coerced to `to` wherever Trino expects a
/// `to` (`TypeCoercion.canCoerce`): function and operator arguments, CASE/COALESCE
/// branches, and assignments without any CAST.
pub(crate) fn can_coerce(from: &EngineType, to: &EngineType) -> bool {
    compatibility(from, to).coercible
}

/// The type both sides are coerced to when compared, or `None` when Trino finds none
/// (`TypeCoercion.getCommonSuperType`).
pub(crate) fn common_super_type(a: &EngineType, b: &EngineType) -> Option<EngineType> {
    compatibility(a, b).common
}

/// Whether the two types have a common super type (`TypeCoercion.isCompatible`).
pub(crate) fn is_compatible(from: &EngineType, to: &EngineType) -> bool {
    compatibility(from, to).common.is_some()
}

/// Whether `=`, `<>`, `IS DISTINCT FROM`, `IN`, GROUP BY and DISTINCT work on the type
/// (`Type.isComparable`). Every type modelled here is comparable: json compares its
/// text, a map compares keys and values (its keys must be comparable to exist at all).
pub(crate) fn is_comparable(ty: &EngineType) -> bool {
    match ty {
        EngineType::Array(e) => is_comparable(e),
        EngineType::Map(k, v) => is_comparable(k) && is_comparable(v),
        EngineType::Row(fields) => fields.iter().all(|f| is_comparable(&f.ty)),
        _ => true,
    }
}

/// Whether `<`, `<=`, `>`, `>=`, `BETWEEN`, ORDER BY, `min` and `max` work on the type
/// (`Type.isOrderable`): not for `json` and `map` (`JsonType`, `MapType` declare no
/// comparison operator), nor arrays and rows that contain them.
pub(crate) fn is_orderable(ty: &EngineType) -> bool {
    match ty {
        EngineType::Json | EngineType::Map(..) => false,
        EngineType::Array(e) => is_orderable(e),
        EngineType::Row(fields) => fields.iter().all(|f| is_orderable(&f.ty)),
        _ => true,
    }
}

/// Whether an ORDER BY key of the type sorts every row it may meet (`None`), or why a
/// row can fail the query at run time: Trino compares arrays and rows element by element
/// and fails on a NULL element or field it reaches ("ARRAY comparison not supported for
/// arrays with null elements", "ROW comparison not supported for fields with null
/// elements": `ArrayType.java`, `RowType.java` in trinodb/trino `core/trino-spi`), and
/// an Iceberg list element or struct field may be NULL. The type is orderable
/// ([`is_orderable`]) for this to apply.
pub(crate) fn sort_failure(ty: &EngineType) -> Option<&'static str> {
    match ty {
        EngineType::Array(_) => Some(
            "Trino fails the query when two arrays it orders reach a NULL element (\"ARRAY comparison not supported for arrays with null elements\")",
        ),
        EngineType::Row(_) => Some(
            "Trino fails the query when two rows it orders reach a NULL field (\"ROW comparison not supported for fields with null elements\")",
        ),
        _ => None,
    }
}

/// The way out of a [`sort_failure`].
pub(crate) const SORT_FAILURE_HINT: &str = "order by scalar values instead: a row's fields one by one (or a scalar column holding the ordering value), an array's cardinality or an element";

/// A comparison operator class: equality (`=`, `<>`, `IS [NOT] DISTINCT FROM`, `IN`) or
/// ordering (`<`, `<=`, `>`, `>=`, `BETWEEN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Comparison {
    /// `=`, `<>`, `IS [NOT] DISTINCT FROM`, `IN`
    Equality,
    /// `<`, `<=`, `>`, `>=`, `BETWEEN`
    Ordering,
}

/// The type both operands are compared as, or `None` when Trino refuses the comparison.
///
/// Trino resolves `$operator$equal(T, T)` (or `less_than`, ...) by coercing both sides
/// to one `T` (`FunctionResolver` with `TypeCoercion.canCoerce`); with no such `T` the
/// analyzer fails with "Cannot apply operator: varchar = bigint" (`OperatorNotFoundException`).
/// `BETWEEN` fails with "Cannot check if ... is BETWEEN ... and ..." and `IN` with "IN
/// value and list items must be the same type or coercible to a common type" instead.
pub(crate) fn comparison_type(
    kind: Comparison,
    left: &EngineType,
    right: &EngineType,
) -> Option<EngineType> {
    // A column compared with a string literal (`varchar` with `varchar(n)`), or two
    // values of one type, the usual filters: answered without the general search (a
    // test holds these to the same answer).
    match (left, right) {
        (EngineType::Varchar(a), EngineType::Varchar(b)) => {
            return Some(EngineType::Varchar(a.zip(*b).map(|(a, b)| a.max(b))));
        }
        _ if left == right && !matches!(left, EngineType::Unknown) => {
            let ok = match kind {
                Comparison::Equality => is_comparable(left),
                Comparison::Ordering => is_orderable(left),
            };
            return ok.then(|| left.clone());
        }
        _ => {}
    }
    general_comparison_type(kind, left, right)
}

/// [`comparison_type`] by Trino's general rule.
fn general_comparison_type(
    kind: Comparison,
    left: &EngineType,
    right: &EngineType,
) -> Option<EngineType> {
    let common = common_super_type(left, right)?;
    if !can_coerce(left, &common) || !can_coerce(right, &common) {
        return None;
    }
    let ok = match kind {
        Comparison::Equality => is_comparable(&common),
        Comparison::Ordering => is_orderable(&common),
    };
    ok.then_some(common)
}

/// Why several expressions have no single type (see [`single_type`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NoCommonType {
    /// The super type found so far.
    pub so_far: EngineType,
    /// The type that does not fit it.
    pub offending: EngineType,
}

/// The one type of a list of expressions that must agree: `ARRAY[...]` elements, `IN`
/// lists, `COALESCE` operands, `CASE` results (`ExpressionAnalyzer.coerceToSingleType`):
/// the common super type of all of them, to which each must coerce implicitly. Trino's
/// message on failure: "All COALESCE operands must be the same type or coercible to a
/// common type. Cannot find common type between varchar and bigint, all types (without
/// duplicates): [varchar, bigint]".
pub(crate) fn single_type<'a>(
    types: impl IntoIterator<Item = &'a EngineType>,
) -> Result<EngineType, NoCommonType> {
    let types: Vec<&EngineType> = types.into_iter().collect();
    let mut super_type = EngineType::Unknown;
    for t in &types {
        match common_super_type(&super_type, t) {
            Some(s) => super_type = s,
            None => {
                return Err(NoCommonType {
                    so_far: super_type,
                    offending: (*t).clone(),
                })
            }
        }
    }
    for t in &types {
        if !can_coerce(t, &super_type) {
            return Err(NoCommonType {
                so_far: super_type,
                offending: (*t).clone(),
            });
        }
    }
    Ok(super_type)
}

/// What storing a value of one type into a column of another does in Trino.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Assignment {
    /// Same type.
    Exact,
    /// Trino converts implicitly and no value changes: `integer` into `bigint`,
    /// `varchar(3)` into `varchar`, `timestamp(3)` into `timestamp(6)`, `decimal(4,2)`
    /// into `decimal(10,2)`, NULL into anything.
    Implicit,
    /// Trino accepts the statement and converts the value in a way that can change or
    /// reject it; the [`Conversion`] says how. Mostly these are compatible types that do
    /// not coerce (`bigint` into `integer`, `timestamp(6)` into `timestamp(3)`,
    /// `timestamp(3) with time zone` into `timestamp(6)`), for which Trino adds a CAST;
    /// a few are coercions Trino calls implicit although they are not lossless
    /// (`decimal(38,0)` into `decimal(38,37)`, `bigint` into `double`, `timestamp` into
    /// `timestamp with time zone`). Write the conversion in the statement, or refuse.
    Cast(Conversion),
    /// Trino refuses the statement (TYPE_MISMATCH): "Insert query has mismatched column
    /// types", "UPDATE table column types don't match SET expressions", "MERGE table
    /// column types don't match for MERGE case N, SET expressions".
    Mismatch,
}

/// What a conversion can do to a value (all false: nothing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Conversion {
    /// Digits, fractional seconds or float precision are rounded away.
    pub rounds: bool,
    /// The conversion fails at run time for some values (overflow, a string longer
    /// than `varchar(n)`: "Cannot truncate non-space characters when casting from
    /// varchar(x) to varchar(n) on INSERT").
    pub may_fail: bool,
    /// The result depends on a time zone: `timestamp with time zone` to `timestamp`
    /// keeps the wall-clock time of the value's own zone (the session zone for
    /// `current_timestamp`; UTC on Athena), `timestamp` or `date` to `timestamp with
    /// time zone` reads the value in the session zone.
    pub zone_dependent: bool,
    /// A timestamp becomes a date: the time of day is dropped.
    pub drops_time_of_day: bool,
}

/// Whether a value of type `value` may be stored in a column of type `column`, and how
/// (`StatementAnalyzer.typesMatchForInsert`, used by INSERT, UPDATE SET and MERGE
/// SET/INSERT alike; `TypeCoercion.isStoreAssignable` in current master).
///
/// Trino's rule: compatible types are accepted, except that a column whose array, map
/// or row type nests a bounded `varchar(n)` or `char(n)` needs implicit coercion.
pub(crate) fn assignment(value: &EngineType, column: &EngineType) -> Assignment {
    if value == column {
        return Assignment::Exact;
    }
    // Every string value of an INSERT row or a SET is a `varchar(n)` literal stored in
    // a `varchar` column: answered here without the general search (a test holds it to
    // the same answer).
    if let (EngineType::Varchar(Some(_)), EngineType::Varchar(None)) = (value, column) {
        return Assignment::Implicit;
    }
    // Likewise an integer literal (`integer`, or `bigint` beyond its range) stored in a
    // wider integer column, every integer SET value.
    if integer_widening(value, column) {
        return Assignment::Implicit;
    }
    general_assignment(value, column)
}

/// An integer type stored in a strictly wider one (lossless, implicit in Trino).
fn integer_widening(value: &EngineType, column: &EngineType) -> bool {
    use EngineType as E;
    matches!(
        (value, column),
        (E::Tinyint, E::Smallint | E::Integer | E::Bigint)
            | (E::Smallint, E::Integer | E::Bigint)
            | (E::Integer, E::Bigint)
    )
}

/// [`assignment`] of two different types, by Trino's general rule.
fn general_assignment(value: &EngineType, column: &EngineType) -> Assignment {
    let c = compatibility(value, column);
    if c.common.is_none() || (!c.coercible && has_nested_bounded_character_type(column)) {
        return Assignment::Mismatch;
    }
    let mut conversion = Conversion::default();
    describe_conversion(value, column, &mut conversion);
    if !c.coercible && conversion == Conversion::default() {
        // A CAST Trino adds that we cannot characterise: assume it can fail.
        conversion.may_fail = true;
    }
    if conversion == Conversion::default() {
        Assignment::Implicit
    } else {
        Assignment::Cast(conversion)
    }
}

fn has_nested_bounded_character_type(ty: &EngineType) -> bool {
    fn bounded(ty: &EngineType) -> bool {
        matches!(ty, EngineType::Char(_) | EngineType::Varchar(Some(_)))
            || has_nested_bounded_character_type(ty)
    }
    match ty {
        EngineType::Array(e) => bounded(e),
        EngineType::Map(k, v) => bounded(k) || bounded(v),
        EngineType::Row(fields) => fields.iter().any(|f| bounded(&f.ty)),
        _ => false,
    }
}

/// Integer digits a type always holds in full.
fn integer_digits(ty: &EngineType) -> Option<u8> {
    match ty {
        EngineType::Tinyint => Some(2),
        EngineType::Smallint => Some(4),
        EngineType::Integer => Some(9),
        EngineType::Bigint => Some(18),
        EngineType::Decimal { precision, scale } => Some(precision - scale),
        _ => None,
    }
}

/// Integer digits a value of the type can have.
fn max_integer_digits(ty: &EngineType) -> Option<u8> {
    match ty {
        EngineType::Tinyint => Some(3),
        EngineType::Smallint => Some(5),
        EngineType::Integer => Some(10),
        EngineType::Bigint => Some(19),
        EngineType::Decimal { precision, scale } => Some(precision - scale),
        _ => None,
    }
}

/// Whether converting an exact number to a float can round it: Trino's
/// `TypeCoercion.isInjectiveCoercion` (bigint to double or real, integer to real,
/// decimals of more than 15 digits to double or more than 7 to real).
fn float_rounds(from: &EngineType, to: &EngineType) -> bool {
    use EngineType as E;
    match (from, to) {
        (E::Bigint, E::Double | E::Real) | (E::Integer, E::Real) => true,
        (E::Decimal { precision, .. }, E::Double) => *precision > 15,
        (E::Decimal { precision, .. }, E::Real) => *precision > 7,
        _ => false,
    }
}

/// Fills in what converting a `from` (compatible with `to`) into a `to` does.
fn describe_conversion(from: &EngineType, to: &EngineType, c: &mut Conversion) {
    use EngineType as E;
    if from == to || *from == E::Unknown {
        return;
    }
    let time_precision = |p: &u8, q: &u8, c: &mut Conversion| {
        if p > q {
            c.rounds = true;
        }
    };
    match (from, to) {
        (E::Array(a), E::Array(b)) => describe_conversion(a, b, c),
        (E::Map(ak, av), E::Map(bk, bv)) => {
            describe_conversion(ak, bk, c);
            describe_conversion(av, bv, c);
        }
        (E::Row(a), E::Row(b)) => {
            for (fa, fb) in a.iter().zip(b) {
                describe_conversion(&fa.ty, &fb.ty, c);
            }
        }
        (E::Real | E::Double, E::Double) => {}
        (E::Real | E::Double, E::Real) => c.rounds = true,
        (E::Real | E::Double, _) if to.is_numeric() => {
            c.rounds = true;
            c.may_fail = true;
        }
        (_, E::Real | E::Double) if from.is_numeric() => {
            if float_rounds(from, to) {
                c.rounds = true;
            }
        }
        (_, _) if from.is_numeric() && to.is_numeric() => {
            let scale = |t: &EngineType| match t {
                E::Decimal { scale, .. } => *scale,
                _ => 0,
            };
            if scale(from) > scale(to) {
                c.rounds = true;
            }
            match (max_integer_digits(from), integer_digits(to)) {
                (Some(needed), Some(held)) if needed <= held => {}
                _ => c.may_fail = true,
            }
        }
        (E::Varchar(a), E::Varchar(b)) => {
            if let Some(b) = b {
                if a.is_none_or(|a| a > *b) {
                    c.may_fail = true;
                }
            }
        }
        (E::Char(a), E::Char(b)) => {
            if a > b {
                c.may_fail = true;
            }
        }
        (E::Timestamp(p), E::Timestamp(q))
        | (E::TimestampWithTimeZone(p), E::TimestampWithTimeZone(q))
        | (E::Time(p), E::Time(q))
        | (E::TimeWithTimeZone(p), E::TimeWithTimeZone(q)) => time_precision(p, q, c),
        (E::TimestampWithTimeZone(p), E::Timestamp(q))
        | (E::Timestamp(p), E::TimestampWithTimeZone(q))
        | (E::TimeWithTimeZone(p), E::Time(q))
        | (E::Time(p), E::TimeWithTimeZone(q)) => {
            c.zone_dependent = true;
            time_precision(p, q, c);
        }
        (E::Date, E::Timestamp(_)) => {}
        (E::Date, E::TimestampWithTimeZone(_)) => c.zone_dependent = true,
        (E::Timestamp(_), E::Date) => c.drops_time_of_day = true,
        (E::TimestampWithTimeZone(_), E::Date) => {
            c.drops_time_of_day = true;
            c.zone_dependent = true;
        }
        // Anything else Trino finds compatible: assume the worst.
        _ => {
            c.rounds = true;
            c.may_fail = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_comparisons_answer_as_the_general_rule() {
        let types = [
            "varchar",
            "varchar(3)",
            "varchar(7)",
            "bigint",
            "integer",
            "boolean",
            "date",
            "timestamp(6)",
            "timestamp(3) with time zone",
            "decimal(10,2)",
            "double",
            "json",
            "array(bigint)",
            "map(varchar, bigint)",
            "row(a bigint)",
            "varbinary",
        ];
        for a in types {
            for b in types {
                for kind in [Comparison::Equality, Comparison::Ordering] {
                    assert_eq!(
                        comparison_type(kind, &t(a), &t(b)),
                        general_comparison_type(kind, &t(a), &t(b)),
                        "{a} vs {b}, {kind:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_string_literal_into_varchar_is_implicit_by_the_general_rule_too() {
        for n in [0, 1, 7, 65_535, u32::MAX] {
            let value = EngineType::Varchar(Some(n));
            let column = EngineType::Varchar(None);
            assert_eq!(assignment(&value, &column), Assignment::Implicit);
            assert_eq!(general_assignment(&value, &column), Assignment::Implicit);
        }
    }

    #[test]
    fn an_integer_into_a_wider_integer_is_implicit_by_the_general_rule_too() {
        let ints = ["tinyint", "smallint", "integer", "bigint"];
        let mut widening = 0;
        for (i, value) in ints.iter().enumerate() {
            for (j, column) in ints.iter().enumerate() {
                let (value, column) = (t(value), t(column));
                assert_eq!(
                    integer_widening(&value, &column),
                    i < j,
                    "{value} into {column}"
                );
                if i < j {
                    widening += 1;
                    assert_eq!(assignment(&value, &column), Assignment::Implicit);
                    assert_eq!(general_assignment(&value, &column), Assignment::Implicit);
                }
            }
        }
        assert_eq!(widening, 6);
    }

    fn t(s: &str) -> EngineType {
        EngineType::parse(s).unwrap()
    }

    /// Which way `can_coerce` holds between a pair (Trino's `CompatibilityAssertion`).
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Dir {
        Both,
        FirstOnly,
        SecondOnly,
        Neither,
    }

    /// Trino's `assertThat(first, second).hasCommonSuperType(common).<dir>()`: the
    /// common super type is the same either way round, and coercion goes `dir`.
    fn check(first: &str, second: &str, common: Option<&str>, dir: Dir) {
        let (a, b) = (t(first), t(second));
        let want = common.map(t);
        assert_eq!(common_super_type(&a, &b), want, "{first} vs {second}");
        assert_eq!(common_super_type(&b, &a), want, "{second} vs {first}");
        let got = match (can_coerce(&a, &b), can_coerce(&b, &a)) {
            (true, true) => Dir::Both,
            (true, false) => Dir::FirstOnly,
            (false, true) => Dir::SecondOnly,
            (false, false) => Dir::Neither,
        };
        assert_eq!(got, dir, "coercion between {first} and {second}");
    }

    /// `TestTypeCoercion.testTypeCompatibility` (core/trino-main/src/test/java/io/trino/
    /// type/TestTypeCoercion.java, release 417), every assertion on the types modelled
    /// here. Left out: regexp, JSON path and code-point types, and the char/varchar mixes
    /// (see `coerce_type_base`).
    #[test]
    fn type_compatibility_matches_trino() {
        use Dir::*;
        let cases: &[(&str, &str, Option<&str>, Dir)] = &[
            ("unknown", "unknown", Some("unknown"), Both),
            ("bigint", "bigint", Some("bigint"), Both),
            ("unknown", "bigint", Some("bigint"), FirstOnly),
            ("bigint", "double", Some("double"), FirstOnly),
            ("date", "timestamp(0)", Some("timestamp(0)"), FirstOnly),
            ("date", "timestamp(2)", Some("timestamp(2)"), FirstOnly),
            ("date", "timestamp(3)", Some("timestamp(3)"), FirstOnly),
            ("date", "timestamp(7)", Some("timestamp(7)"), FirstOnly),
            (
                "date",
                "timestamp(0) with time zone",
                Some("timestamp(0) with time zone"),
                FirstOnly,
            ),
            (
                "date",
                "timestamp(2) with time zone",
                Some("timestamp(2) with time zone"),
                FirstOnly,
            ),
            (
                "date",
                "timestamp(3) with time zone",
                Some("timestamp(3) with time zone"),
                FirstOnly,
            ),
            (
                "date",
                "timestamp(7) with time zone",
                Some("timestamp(7) with time zone"),
                FirstOnly,
            ),
            (
                "time(3)",
                "time(3) with time zone",
                Some("time(3) with time zone"),
                FirstOnly,
            ),
            (
                "timestamp(3)",
                "timestamp(3) with time zone",
                Some("timestamp(3) with time zone"),
                FirstOnly,
            ),
            ("real", "double", Some("double"), FirstOnly),
            ("real", "tinyint", Some("real"), SecondOnly),
            ("real", "smallint", Some("real"), SecondOnly),
            ("real", "integer", Some("real"), SecondOnly),
            ("real", "bigint", Some("real"), SecondOnly),
            ("timestamp(3)", "time(3) with time zone", None, Neither),
            ("varbinary", "varchar", None, Neither),
            ("unknown", "array(bigint)", Some("array(bigint)"), FirstOnly),
            (
                "array(bigint)",
                "array(double)",
                Some("array(double)"),
                FirstOnly,
            ),
            (
                "array(bigint)",
                "array(unknown)",
                Some("array(bigint)"),
                SecondOnly,
            ),
            (
                "map(bigint, double)",
                "map(bigint, double)",
                Some("map(bigint, double)"),
                Both,
            ),
            (
                "map(bigint, double)",
                "map(double, double)",
                Some("map(double, double)"),
                FirstOnly,
            ),
            ("time(5)", "time(9)", Some("time(9)"), FirstOnly),
            ("time(9)", "time(5)", Some("time(9)"), SecondOnly),
            (
                "time(5)",
                "time(9) with time zone",
                Some("time(9) with time zone"),
                FirstOnly,
            ),
            (
                "time(9)",
                "time(5) with time zone",
                Some("time(9) with time zone"),
                Neither,
            ),
            (
                "time(5) with time zone",
                "time(9)",
                Some("time(9) with time zone"),
                Neither,
            ),
            (
                "time(9) with time zone",
                "time(5)",
                Some("time(9) with time zone"),
                SecondOnly,
            ),
            (
                "time(5) with time zone",
                "time(9) with time zone",
                Some("time(9) with time zone"),
                FirstOnly,
            ),
            (
                "time(9) with time zone",
                "time(5) with time zone",
                Some("time(9) with time zone"),
                SecondOnly,
            ),
            (
                "decimal(22,1)",
                "decimal(23,1)",
                Some("decimal(23,1)"),
                FirstOnly,
            ),
            ("bigint", "decimal(23,1)", Some("decimal(23,1)"), FirstOnly),
            ("bigint", "decimal(18,0)", Some("decimal(19,0)"), Neither),
            ("bigint", "decimal(19,0)", Some("decimal(19,0)"), FirstOnly),
            ("bigint", "decimal(37,1)", Some("decimal(37,1)"), FirstOnly),
            ("real", "decimal(37,1)", Some("real"), SecondOnly),
            (
                "array(decimal(23,1))",
                "array(decimal(22,1))",
                Some("array(decimal(23,1))"),
                SecondOnly,
            ),
            (
                "array(bigint)",
                "array(decimal(2,1))",
                Some("array(decimal(20,1))"),
                Neither,
            ),
            (
                "array(bigint)",
                "array(decimal(20,1))",
                Some("array(decimal(20,1))"),
                FirstOnly,
            ),
            ("decimal(3,2)", "double", Some("double"), FirstOnly),
            ("decimal(22,1)", "double", Some("double"), FirstOnly),
            ("decimal(37,1)", "double", Some("double"), FirstOnly),
            ("decimal(37,37)", "double", Some("double"), FirstOnly),
            ("decimal(22,1)", "real", Some("real"), FirstOnly),
            ("decimal(3,2)", "real", Some("real"), FirstOnly),
            ("decimal(37,37)", "real", Some("real"), FirstOnly),
            ("integer", "decimal(23,1)", Some("decimal(23,1)"), FirstOnly),
            ("integer", "decimal(9,0)", Some("decimal(10,0)"), Neither),
            ("integer", "decimal(10,0)", Some("decimal(10,0)"), FirstOnly),
            ("integer", "decimal(37,1)", Some("decimal(37,1)"), FirstOnly),
            ("tinyint", "decimal(2,0)", Some("decimal(3,0)"), Neither),
            ("tinyint", "decimal(9,0)", Some("decimal(9,0)"), FirstOnly),
            ("tinyint", "decimal(2,1)", Some("decimal(4,1)"), Neither),
            ("tinyint", "decimal(3,0)", Some("decimal(3,0)"), FirstOnly),
            ("tinyint", "decimal(37,1)", Some("decimal(37,1)"), FirstOnly),
            (
                "smallint",
                "decimal(37,1)",
                Some("decimal(37,1)"),
                FirstOnly,
            ),
            ("smallint", "decimal(4,0)", Some("decimal(5,0)"), Neither),
            ("smallint", "decimal(5,0)", Some("decimal(5,0)"), FirstOnly),
            ("smallint", "decimal(2,0)", Some("decimal(5,0)"), Neither),
            ("smallint", "decimal(9,0)", Some("decimal(9,0)"), FirstOnly),
            ("smallint", "decimal(2,1)", Some("decimal(6,1)"), Neither),
            ("char(42)", "char(40)", Some("char(42)"), SecondOnly),
            ("char(42)", "char(44)", Some("char(44)"), FirstOnly),
            ("varchar(42)", "varchar(42)", Some("varchar(42)"), Both),
            ("varchar(42)", "varchar(44)", Some("varchar(44)"), FirstOnly),
            (
                "row(varchar(2))",
                "row(varchar(5))",
                Some("row(varchar(5))"),
                FirstOnly,
            ),
            (
                "row(a integer)",
                "row(a bigint)",
                Some("row(a bigint)"),
                FirstOnly,
            ),
            (
                "row(a integer)",
                "row(b bigint)",
                Some("row(bigint)"),
                FirstOnly,
            ),
            (
                "row(integer)",
                "row(b bigint)",
                Some("row(bigint)"),
                FirstOnly,
            ),
            ("row(a integer)", "row(a varchar(2))", None, Neither),
            (
                "row(a integer)",
                "row(a integer, b varchar(2))",
                None,
                Neither,
            ),
            (
                "row(a integer, b varchar(2))",
                "row(a bigint, b varchar(5))",
                Some("row(a bigint, b varchar(5))"),
                FirstOnly,
            ),
            (
                "row(a integer, b varchar(2))",
                "row(bigint, b varchar(5))",
                Some("row(bigint, b varchar(5))"),
                FirstOnly,
            ),
            (
                "row(a integer, b varchar(5))",
                "row(c bigint, d varchar(2))",
                Some("row(bigint, varchar(5))"),
                Neither,
            ),
            (
                "row(a row(c integer, b varchar(2)))",
                "row(row(c integer, varchar(5)))",
                Some("row(row(c integer, varchar(5)))"),
                FirstOnly,
            ),
            (
                "row(a row(c integer, b varchar(2)))",
                "row(a row(c integer, b varchar(5)))",
                Some("row(a row(c integer, b varchar(5)))"),
                FirstOnly,
            ),
            (
                "row(a row(c integer, b varchar(5)))",
                "row(d row(e integer, b varchar(5)))",
                Some("row(row(integer, b varchar(5)))"),
                Both,
            ),
        ];
        for (a, b, common, dir) in cases {
            check(a, b, *common, *dir);
        }
    }

    /// Beyond Trino's tests: the pairs the crate's statements produce.
    #[test]
    fn pairs_the_builders_produce() {
        use Dir::*;
        // `timestamp(6)` coerces to `timestamp(6) with time zone`, not to the `(3)` of
        // `current_timestamp`: compared, both become `timestamp(6) with time zone`.
        check(
            "timestamp(6)",
            "timestamp(3) with time zone",
            Some("timestamp(6) with time zone"),
            Neither,
        );
        check(
            "timestamp(3)",
            "timestamp(6)",
            Some("timestamp(6)"),
            FirstOnly,
        );
        check("varchar(2)", "varchar", Some("varchar"), FirstOnly);
        check("integer", "bigint", Some("bigint"), FirstOnly);
        check(
            "decimal(3,2)",
            "decimal(5,1)",
            Some("decimal(6,2)"),
            Neither,
        );
        // Trino caps the super type at 38 digits and calls the lossy direction coercible
        // ("we allow potential loss of precision here").
        check(
            "decimal(38,0)",
            "decimal(38,37)",
            Some("decimal(38,37)"),
            FirstOnly,
        );
        check("bigint", "varchar", None, Neither);
        check("boolean", "integer", None, Neither);
        check("json", "varchar", None, Neither);
        check("json", "array(varchar)", None, Neither);
        check("timestamp(6) with time zone", "varchar", None, Neither);
        check("varchar(19)", "timestamp(6)", None, Neither);
        check("date", "varchar(10)", None, Neither);
        // Neither release coerces both ways between varchar and char; see
        // `coerce_type_base`.
        check("varchar(3)", "char(3)", None, Neither);
    }

    /// The types Trino's transitivity test runs over, for ours.
    fn sample_types() -> Vec<EngineType> {
        [
            "unknown",
            "boolean",
            "tinyint",
            "smallint",
            "integer",
            "bigint",
            "real",
            "double",
            "decimal(1,0)",
            "decimal(17,0)",
            "decimal(38,0)",
            "decimal(17,17)",
            "decimal(38,38)",
            "varchar(0)",
            "varchar",
            "char(42)",
            "varbinary",
            "json",
            "date",
            "time(3)",
            "time(3) with time zone",
            "timestamp(3)",
            "timestamp(6)",
            "timestamp(3) with time zone",
            "timestamp(6) with time zone",
            "interval year to month",
            "interval day to second",
        ]
        .iter()
        .map(|s| t(s))
        .collect()
    }

    /// `TestTypeCoercion.testCanCoerceIsTransitive`.
    #[test]
    fn can_coerce_is_transitive() {
        let types = sample_types();
        for via in &types {
            for to in &types {
                if !can_coerce(via, to) {
                    continue;
                }
                for from in &types {
                    if can_coerce(from, via) {
                        assert!(can_coerce(from, to), "{from} -> {via} -> {to}");
                    }
                }
            }
        }
    }

    /// `TestTypeCoercion.testCastOperatorsExistForCoercions`: every implicit coercion is
    /// also an explicit CAST.
    #[test]
    fn every_coercion_is_a_cast() {
        let types = sample_types();
        for from in &types {
            for to in &types {
                if can_coerce(from, to) {
                    assert!(super::super::casts::can_cast(from, to), "{from} -> {to}");
                }
            }
        }
    }

    #[test]
    fn store_assignment_follows_type_compatibility() {
        let a = |v: &str, c: &str| assignment(&t(v), &t(c));
        assert_eq!(a("timestamp(6)", "timestamp(6)"), Assignment::Exact);
        assert_eq!(a("unknown", "timestamp(6)"), Assignment::Implicit);
        assert_eq!(a("integer", "bigint"), Assignment::Implicit);
        assert_eq!(a("varchar(7)", "varchar"), Assignment::Implicit);
        assert_eq!(a("decimal(4,2)", "decimal(10,2)"), Assignment::Implicit);
        assert_eq!(a("timestamp(3)", "timestamp(6)"), Assignment::Implicit);
        // `current_timestamp` into an Iceberg `timestamp` column: Trino accepts it and
        // casts in the value's zone.
        assert_eq!(
            a("timestamp(3) with time zone", "timestamp(6)"),
            Assignment::Cast(Conversion {
                zone_dependent: true,
                ..Conversion::default()
            })
        );
        assert_eq!(
            a("timestamp(6)", "timestamp(3)"),
            Assignment::Cast(Conversion {
                rounds: true,
                ..Conversion::default()
            })
        );
        assert_eq!(
            a("bigint", "integer"),
            Assignment::Cast(Conversion {
                may_fail: true,
                ..Conversion::default()
            })
        );
        assert_eq!(
            a("decimal(38,2)", "decimal(10,2)"),
            Assignment::Cast(Conversion {
                may_fail: true,
                ..Conversion::default()
            })
        );
        assert_eq!(
            a("decimal(10,4)", "decimal(20,2)"),
            Assignment::Cast(Conversion {
                rounds: true,
                ..Conversion::default()
            })
        );
        assert_eq!(
            a("double", "bigint"),
            Assignment::Cast(Conversion {
                rounds: true,
                may_fail: true,
                ..Conversion::default()
            })
        );
        assert_eq!(
            a("varchar", "varchar(5)"),
            Assignment::Cast(Conversion {
                may_fail: true,
                ..Conversion::default()
            })
        );
        assert_eq!(
            a("timestamp(6)", "date"),
            Assignment::Cast(Conversion {
                drops_time_of_day: true,
                ..Conversion::default()
            })
        );
        // Coercions Trino calls implicit that can still change or reject a value.
        assert_eq!(
            a("decimal(38,0)", "decimal(38,37)"),
            Assignment::Cast(Conversion {
                may_fail: true,
                ..Conversion::default()
            })
        );
        assert_eq!(
            a("bigint", "double"),
            Assignment::Cast(Conversion {
                rounds: true,
                ..Conversion::default()
            })
        );
        assert_eq!(a("integer", "double"), Assignment::Implicit);
        assert_eq!(
            a("timestamp(6)", "timestamp(6) with time zone"),
            Assignment::Cast(Conversion {
                zone_dependent: true,
                ..Conversion::default()
            })
        );
        assert_eq!(a("date", "timestamp(6)"), Assignment::Implicit);
        assert_eq!(a("row(a integer)", "row(b bigint)"), Assignment::Implicit);
        // The examples that fail in Athena: a string into a bigint or timestamp column,
        // JSON into an array, a varchar aggregate into a bigint.
        assert_eq!(a("varchar", "bigint"), Assignment::Mismatch);
        assert_eq!(a("varchar(19)", "timestamp(6)"), Assignment::Mismatch);
        assert_eq!(a("json", "array(varchar)"), Assignment::Mismatch);
        assert_eq!(a("integer", "varchar"), Assignment::Mismatch);
        assert_eq!(a("boolean", "integer"), Assignment::Mismatch);
        // Nested bounded character types need implicit coercion.
        assert_eq!(
            a("array(varchar)", "array(varchar(3))"),
            Assignment::Mismatch
        );
        assert_eq!(a("array(varchar)", "array(varchar)"), Assignment::Exact);
        assert_eq!(
            a("array(bigint)", "array(integer)"),
            Assignment::Cast(Conversion {
                may_fail: true,
                ..Conversion::default()
            })
        );
    }

    #[test]
    fn comparisons_coerce_both_sides() {
        let eq = |a: &str, b: &str| comparison_type(Comparison::Equality, &t(a), &t(b));
        let lt = |a: &str, b: &str| comparison_type(Comparison::Ordering, &t(a), &t(b));
        assert_eq!(
            lt("timestamp(6)", "timestamp(3) with time zone"),
            Some(t("timestamp(6) with time zone"))
        );
        assert_eq!(eq("bigint", "integer"), Some(t("bigint")));
        assert_eq!(eq("decimal(10,2)", "integer"), Some(t("decimal(12,2)")));
        assert_eq!(eq("date", "timestamp(6)"), Some(t("timestamp(6)")));
        assert_eq!(eq("varchar", "bigint"), None);
        assert_eq!(eq("varchar(10)", "date"), None);
        assert_eq!(eq("json", "json"), Some(t("json")));
        assert_eq!(lt("json", "json"), None);
        assert_eq!(lt("map(varchar, integer)", "map(varchar, integer)"), None);
        assert_eq!(
            eq("map(varchar, integer)", "map(varchar, bigint)"),
            Some(t("map(varchar, bigint)"))
        );
        assert_eq!(
            lt("array(integer)", "array(bigint)"),
            Some(t("array(bigint)"))
        );
    }

    #[test]
    fn single_type_of_lists() {
        let types = |v: &[&str]| v.iter().map(|s| t(s)).collect::<Vec<_>>();
        assert_eq!(
            single_type(&types(&["varchar(1)", "varchar(3)", "unknown"])),
            Ok(t("varchar(3)"))
        );
        assert_eq!(
            single_type(&types(&["integer", "bigint", "decimal(5,2)"])),
            Ok(t("decimal(21,2)"))
        );
        assert_eq!(single_type(&types(&[])), Ok(t("unknown")));
        assert_eq!(
            single_type(&types(&["varchar", "bigint"])),
            Err(NoCommonType {
                so_far: t("varchar"),
                offending: t("bigint")
            })
        );
    }
}
