//! Explicit CASTs Trino has, and the JSON casts in particular.
//!
//! Sources (trinodb/trino, release 417): the `@ScalarOperator(CAST)` operators of
//! `io.trino.type.*Operators`, `DecimalCasts`, the `operator/scalar/timestamp*`
//! casts, `ArrayToArrayCast`, `MapToMapCast`, `RowToRowCast`, and for JSON
//! `io.trino.util.JsonUtil.canCastToJson` / `canCastFromJson` with `JsonOperators`,
//! `ArrayToJsonCast`, `MapToJsonCast`, `RowToJsonCast`, `TimestampToJsonCast`
//! (unchanged in current master). A CAST Trino lacks fails analysis with
//! "Cannot cast row(a varbinary) to json" (`ExpressionAnalyzer.visitCast`).

use super::types::EngineType;

/// Whether `CAST(x AS to)` exists for an `x` of type `from`. It may still fail at run
/// time for some values (`CAST('abc' AS bigint)`), and a CAST to `varchar(n)` truncates
/// silently.
pub(crate) fn can_cast(from: &EngineType, to: &EngineType) -> bool {
    use EngineType as E;
    // Written out on its own (not via `can_coerce`), so that the coercion tests can
    // check Trino's rule that every implicit coercion is also a CAST.
    if from == to || *from == E::Unknown {
        return true;
    }
    let numeric_or_boolean = |t: &EngineType| t.is_numeric() || *t == E::Boolean;
    match (from, to) {
        (a, b) if numeric_or_boolean(a) && numeric_or_boolean(b) => true,
        (E::Json, b) => can_cast_from_json(b),
        (a, E::Json) => can_cast_to_json(a),
        // To text: every scalar but varbinary (Trino has no varbinary -> varchar CAST;
        // `from_utf8` converts).
        (a, E::Varchar(_) | E::Char(_)) => {
            numeric_or_boolean(a)
                || matches!(
                    a,
                    E::Varchar(_)
                        | E::Char(_)
                        | E::Date
                        | E::Time(_)
                        | E::TimeWithTimeZone(_)
                        | E::Timestamp(_)
                        | E::TimestampWithTimeZone(_)
                        | E::IntervalYearToMonth
                        | E::IntervalDayToSecond
                )
        }
        // From text: parsed (and may fail on the value).
        (E::Varchar(_) | E::Char(_), b) => {
            numeric_or_boolean(b)
                || matches!(
                    b,
                    E::Varbinary
                        | E::Date
                        | E::Time(_)
                        | E::TimeWithTimeZone(_)
                        | E::Timestamp(_)
                        | E::TimestampWithTimeZone(_)
                )
        }
        (E::Date, E::Timestamp(_) | E::TimestampWithTimeZone(_)) => true,
        (
            E::Timestamp(_) | E::TimestampWithTimeZone(_),
            E::Date
            | E::Time(_)
            | E::TimeWithTimeZone(_)
            | E::Timestamp(_)
            | E::TimestampWithTimeZone(_),
        ) => true,
        (
            E::Time(_) | E::TimeWithTimeZone(_),
            E::Time(_) | E::TimeWithTimeZone(_) | E::Timestamp(_) | E::TimestampWithTimeZone(_),
        ) => true,
        (E::Array(a), E::Array(b)) => can_cast(a, b),
        (E::Map(ak, av), E::Map(bk, bv)) => can_cast(ak, bk) && can_cast(av, bv),
        (E::Row(a), E::Row(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(fa, fb)| can_cast(&fa.ty, &fb.ty))
        }
        _ => false,
    }
}

/// Whether `CAST(x AS JSON)` exists for `x` of type `ty` (`JsonUtil.canCastToJson`):
/// boolean, the numeric types, varchar, json, `timestamp(p)` and date, and arrays,
/// maps and rows of them, where map keys must be boolean, numeric or varchar.
///
/// Not castable: varbinary, `timestamp with time zone`, time, char, intervals, and maps
/// keyed by date or timestamp. A row becomes a JSON object keyed by its field names
/// (`RowToJsonCast`); a varchar becomes a JSON string (use `json_parse` to parse text);
/// a timestamp becomes its text in the `yyyy-MM-dd HH:mm:ss.SSS...` form of its precision.
pub(crate) fn can_cast_to_json(ty: &EngineType) -> bool {
    use EngineType as E;
    match ty {
        E::Unknown
        | E::Boolean
        | E::Tinyint
        | E::Smallint
        | E::Integer
        | E::Bigint
        | E::Real
        | E::Double
        | E::Decimal { .. }
        | E::Varchar(_)
        | E::Json
        | E::Timestamp(_)
        | E::Date => true,
        E::Array(e) => can_cast_to_json(e),
        E::Map(k, v) => (**k == E::Unknown || is_json_object_key(k)) && can_cast_to_json(v),
        E::Row(fields) => fields.iter().all(|f| can_cast_to_json(&f.ty)),
        _ => false,
    }
}

/// Whether `CAST(json AS ty)` exists (`JsonUtil.canCastFromJson`): boolean, the numeric
/// types, varchar and json, and arrays, maps (keys as for [`can_cast_to_json`]) and rows
/// of them. No date or timestamp: parse those from varchar.
pub(crate) fn can_cast_from_json(ty: &EngineType) -> bool {
    use EngineType as E;
    match ty {
        E::Boolean
        | E::Tinyint
        | E::Smallint
        | E::Integer
        | E::Bigint
        | E::Real
        | E::Double
        | E::Decimal { .. }
        | E::Varchar(_)
        | E::Json => true,
        E::Array(e) => can_cast_from_json(e),
        E::Map(k, v) => is_json_object_key(k) && can_cast_from_json(v),
        E::Row(fields) => fields.iter().all(|f| can_cast_from_json(&f.ty)),
        _ => false,
    }
}

/// A map key type that becomes a JSON object key (`JsonUtil.isValidJsonObjectKeyType`).
fn is_json_object_key(ty: &EngineType) -> bool {
    use EngineType as E;
    matches!(
        ty,
        E::Boolean
            | E::Tinyint
            | E::Smallint
            | E::Integer
            | E::Bigint
            | E::Real
            | E::Double
            | E::Decimal { .. }
            | E::Varchar(_)
    )
}

/// The nested types inside `ty` that make `CAST(ty AS JSON)` fail, each once, for an
/// error message ("`tags` holds varbinary, which Trino cannot cast to JSON").
pub(crate) fn json_blockers(ty: &EngineType) -> Vec<EngineType> {
    fn add(t: &EngineType, out: &mut Vec<EngineType>) {
        if !out.contains(t) {
            out.push(t.clone());
        }
    }
    fn walk(ty: &EngineType, out: &mut Vec<EngineType>) {
        match ty {
            EngineType::Array(e) => walk(e, out),
            EngineType::Map(k, v) => {
                let key_ok = **k == EngineType::Unknown || is_json_object_key(k);
                if !key_ok {
                    add(k, out);
                }
                walk(v, out);
            }
            EngineType::Row(fields) => fields.iter().for_each(|f| walk(&f.ty, out)),
            t if !can_cast_to_json(t) => add(t, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(ty, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> EngineType {
        EngineType::parse(s).unwrap()
    }

    #[test]
    fn json_casts_follow_json_util() {
        for yes in [
            "boolean",
            "tinyint",
            "integer",
            "bigint",
            "real",
            "double",
            "decimal(10,2)",
            "varchar",
            "varchar(3)",
            "json",
            "date",
            "timestamp(6)",
            "timestamp(3)",
            "array(timestamp(6))",
            "map(varchar, array(date))",
            "map(bigint, double)",
            "map(decimal(5,2), boolean)",
            "row(a integer, b row(c varchar, d array(date)))",
            "array(unknown)",
        ] {
            assert!(can_cast_to_json(&t(yes)), "{yes}");
            assert!(can_cast(&t(yes), &EngineType::Json), "{yes}");
        }
        for no in [
            "varbinary",
            "timestamp(6) with time zone",
            "time(3)",
            "char(2)",
            "interval day to second",
            "map(date, integer)",
            "map(timestamp(6), integer)",
            "array(varbinary)",
            "row(a integer, b timestamp(6) with time zone)",
            "map(varchar, row(x varbinary))",
        ] {
            assert!(!can_cast_to_json(&t(no)), "{no}");
            assert!(!can_cast(&t(no), &EngineType::Json), "{no}");
        }
        // From JSON: no dates or timestamps.
        assert!(can_cast_from_json(&t("array(varchar)")));
        assert!(can_cast_from_json(&t(
            "map(varchar, row(a bigint, b double))"
        )));
        assert!(!can_cast_from_json(&t("date")));
        assert!(!can_cast_from_json(&t("array(timestamp(6))")));
        assert!(!can_cast_from_json(&t("map(date, bigint)")));
        assert!(!can_cast_from_json(&t("varbinary")));
    }

    #[test]
    fn json_blockers_name_each_type_once() {
        assert_eq!(
            json_blockers(&t(
                "row(a varbinary, b map(date, varbinary), c timestamp(6) with time zone, d integer)"
            )),
            vec![
                t("varbinary"),
                t("date"),
                t("timestamp(6) with time zone")
            ]
        );
        assert!(json_blockers(&t("row(a integer, b array(varchar))")).is_empty());
    }

    #[test]
    fn explicit_casts() {
        let yes = [
            ("varchar", "timestamp(6)"),
            ("varchar(19)", "timestamp(6)"),
            ("varchar", "date"),
            ("varchar", "bigint"),
            ("varchar", "varbinary"),
            ("varchar", "json"),
            ("json", "varchar"),
            ("bigint", "varchar"),
            ("boolean", "decimal(5,2)"),
            ("double", "integer"),
            ("timestamp(6) with time zone", "timestamp(6)"),
            ("timestamp(3) with time zone", "date"),
            ("timestamp(6)", "date"),
            ("timestamp(6)", "timestamp(3)"),
            ("date", "timestamp(6)"),
            ("interval day to second", "varchar"),
            ("json", "array(varchar)"),
            ("json", "map(varchar, bigint)"),
            ("array(bigint)", "array(varchar)"),
            ("row(a bigint)", "row(b varchar)"),
            ("unknown", "array(varchar)"),
        ];
        for (from, to) in yes {
            assert!(can_cast(&t(from), &t(to)), "{from} -> {to}");
        }
        let no = [
            ("varbinary", "varchar"),
            ("date", "bigint"),
            ("json", "date"),
            ("json", "array(timestamp(6))"),
            ("array(varbinary)", "json"),
            ("varchar", "interval day to second"),
            ("date", "time(3)"),
            ("row(a bigint)", "row(a bigint, b bigint)"),
            ("array(bigint)", "map(bigint, bigint)"),
            ("boolean", "date"),
        ];
        for (from, to) in no {
            assert!(!can_cast(&t(from), &t(to)), "{from} -> {to}");
        }
    }
}
