//! Which column types a query may hand to what a statement writes: a new Iceberg table
//! (Iceberg CTAS), a new Hive table (Hive CTAS), or files (UNLOAD).
//!
//! Sources: Trino's Iceberg `TypeConverter.toIcebergType` (trinodb/trino release 417:
//! "Type not supported for Iceberg", "Timestamp precision (3) not supported for
//! Iceberg. Use \"timestamp(6)\" instead."); Trino's Hive `HiveMetadata.validateTimestampTypes`
//! ("Incorrect timestamp precision for timestamp(6); the configured precision is
//! MILLISECONDS", reported for Athena CTAS and UNLOAD in
//! <https://github.com/aws/aws-sdk-pandas/issues/2252>) and
//! `HiveTypeTranslator.toTypeInfo` ("Unsupported Hive type: ..."); `StatementAnalyzer`
//! ("Column type is unknown: x"); and AWS's "Supported data types for Iceberg tables in
//! Athena" (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-supported-data-types.html>:
//! only `timestamp` without time zone can be created).
//!
//! Later Trino releases coerce some of these silently (`tinyint` to `integer`,
//! `timestamp(3)` to `timestamp(6)`); we ask for the exact type, which both readings accept.

use std::fmt;

use super::types::{EngineType, RowField, HIVE_TIMESTAMP_PRECISION, ICEBERG_TIMESTAMP_PRECISION};
use crate::error::{Error, ErrorKind, Result};

/// What a query's rows are written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputTarget {
    /// `CREATE TABLE ... WITH (table_type = 'ICEBERG') AS SELECT`.
    IcebergCtas,
    /// The same on Trino's Iceberg connector, which also creates `timestamp(6) with time
    /// zone` columns (`TypeConverter.toIcebergType`: `TIMESTAMP_TZ_MICROS` becomes
    /// Iceberg's `timestamptz`).
    TrinoIcebergCtas,
    /// `CREATE TABLE ... AS SELECT` of a Hive table (Athena's default table type).
    HiveCtas,
    /// `UNLOAD (SELECT ...) TO 's3://...'`: files written by Athena's Hive writers.
    Unload,
}

impl fmt::Display for OutputTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputTarget::IcebergCtas | OutputTarget::TrinoIcebergCtas => "an Iceberg CTAS",
            OutputTarget::HiveCtas => "a Hive CTAS",
            OutputTarget::Unload => "an UNLOAD",
        })
    }
}

/// Hive's longest `varchar(n)` (`VarcharTypeInfo.MAX_VARCHAR_LENGTH`) and `char(n)`
/// (`CharTypeInfo.MAX_CHAR_LENGTH`).
const HIVE_MAX_VARCHAR: u32 = 65_535;
const HIVE_MAX_CHAR: u32 = 255;

/// Why one (possibly nested) type cannot be written, in the engine's words.
struct Refusal {
    engine_text: String,
}

fn refuse(text: impl Into<String>) -> Option<Refusal> {
    Some(Refusal {
        engine_text: text.into(),
    })
}

/// The first part of `ty` the target refuses, `column` naming the output column.
fn refusal(target: OutputTarget, column: &str, ty: &EngineType) -> Option<Refusal> {
    use EngineType as E;
    let nested = |t: &EngineType| refusal(target, column, t);
    match ty {
        E::Unknown => refuse(format!("Column type is unknown: {column}")),
        E::Array(e) => nested(e),
        E::Map(k, v) => nested(k).or_else(|| nested(v)),
        E::Row(fields) => {
            if fields.iter().any(|f| f.name.is_none()) {
                return match target {
                    OutputTarget::IcebergCtas | OutputTarget::TrinoIcebergCtas => {
                        refuse(format!("Row type field does not have a name: {ty}"))
                    }
                    _ => refuse(format!(
                        "Anonymous row type is not supported in Hive. Please give each field a name: {ty}"
                    )),
                };
            }
            fields.iter().find_map(|f| nested(&f.ty))
        }
        _ => match target {
            OutputTarget::IcebergCtas => iceberg_refusal(ty),
            OutputTarget::TrinoIcebergCtas => match ty {
                E::TimestampWithTimeZone(p) if *p == ICEBERG_TIMESTAMP_PRECISION => None,
                E::TimestampWithTimeZone(p) => refuse(format!(
                    "Timestamp precision ({p}) not supported for Iceberg. Use \"timestamp(6) with time zone\" instead."
                )),
                _ => iceberg_refusal(ty),
            },
            OutputTarget::HiveCtas | OutputTarget::Unload => hive_refusal(column, ty),
        },
    }
}

fn iceberg_refusal(ty: &EngineType) -> Option<Refusal> {
    use EngineType as E;
    match ty {
        E::Boolean
        | E::Integer
        | E::Bigint
        | E::Real
        | E::Double
        | E::Decimal { .. }
        | E::Varchar(_)
        | E::Varbinary
        | E::Date => None,
        E::Timestamp(p) if *p == ICEBERG_TIMESTAMP_PRECISION => None,
        E::Timestamp(p) => refuse(format!(
            "Timestamp precision ({p}) not supported for Iceberg. Use \"timestamp(6)\" instead."
        )),
        // Trino itself would create `timestamp(6) with time zone`; Athena's Iceberg DDL
        // cannot (field report: "Unsupported Hive type: timestamp(6) with time zone",
        // https://github.com/apache/iceberg/issues/15761).
        E::TimestampWithTimeZone(_) => refuse(format!("Unsupported Hive type: {ty}")),
        _ => refuse(format!("Type not supported for Iceberg: {ty}")),
    }
}

fn hive_refusal(column: &str, ty: &EngineType) -> Option<Refusal> {
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
        | E::Varchar(None)
        | E::Varbinary
        | E::Date => None,
        E::Varchar(Some(n)) if *n <= HIVE_MAX_VARCHAR => None,
        E::Varchar(Some(_)) => refuse(format!(
            "Unsupported Hive type: {ty}. Supported VARCHAR types: VARCHAR(<={HIVE_MAX_VARCHAR}), VARCHAR."
        )),
        E::Char(n) if *n <= HIVE_MAX_CHAR => None,
        E::Char(_) => refuse(format!(
            "Unsupported Hive type: {ty}. Supported CHAR types: CHAR(<={HIVE_MAX_CHAR})."
        )),
        E::Timestamp(p) if *p == HIVE_TIMESTAMP_PRECISION => None,
        E::Timestamp(_) => refuse(format!(
            "Incorrect timestamp precision for {ty}; the configured precision is MILLISECONDS; column name: {column}"
        )),
        _ => refuse(format!("Unsupported Hive type: {ty}")),
    }
}

/// Whether a Hive table can be partitioned by a column of type `ty`: Trino's Hive
/// connector takes booleans, numbers, decimals, dates, timestamps (a Hive CTAS writes
/// them with milliseconds) and text, and refuses the rest when it creates the table
/// (`HiveUtil.isValidPartitionType`, checked by `HiveMetadata`: "Unsupported type
/// [varbinary] for partition: c").
pub(crate) fn hive_partition_type_ok(ty: &EngineType) -> bool {
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
            | E::Date
            | E::Timestamp(_)
            | E::Varchar(_)
            | E::Char(_)
    )
}

/// The type to CAST an output column to so that `target` accepts it, where the
/// conversion is unambiguous: integers widen, timestamps take the target's precision,
/// `timestamp with time zone` becomes the UTC wall clock (write
/// `CAST(x AT TIME ZONE 'UTC' AS timestamp(p))`), `char`/long `varchar` become
/// `varchar`. `None` when nothing needs changing, or when no CAST fits (`json`, `time`,
/// intervals, NULL without a type, anonymous row fields).
pub(crate) fn output_cast(target: OutputTarget, ty: &EngineType) -> Option<EngineType> {
    refusal(target, "", ty)?;
    converted(target, ty)
}

fn converted(target: OutputTarget, ty: &EngineType) -> Option<EngineType> {
    use EngineType as E;
    let precision = match target {
        OutputTarget::IcebergCtas | OutputTarget::TrinoIcebergCtas => ICEBERG_TIMESTAMP_PRECISION,
        OutputTarget::HiveCtas | OutputTarget::Unload => HIVE_TIMESTAMP_PRECISION,
    };
    let iceberg = iceberg_target(target);
    Some(match ty {
        E::Array(e) => E::array(converted(target, e)?),
        E::Map(k, v) => E::map(converted(target, k)?, converted(target, v)?),
        E::Row(fields) => E::Row(
            fields
                .iter()
                .map(|f| {
                    Some(RowField {
                        name: Some(f.name.clone()?),
                        ty: converted(target, &f.ty)?,
                    })
                })
                .collect::<Option<_>>()?,
        ),
        E::TimestampWithTimeZone(_) if target == OutputTarget::TrinoIcebergCtas => {
            E::TimestampWithTimeZone(precision)
        }
        E::Timestamp(_) | E::TimestampWithTimeZone(_) => E::Timestamp(precision),
        E::Tinyint | E::Smallint if iceberg => E::Integer,
        E::Char(_) => E::VARCHAR,
        E::Varchar(Some(n)) if !iceberg && *n > HIVE_MAX_VARCHAR => E::VARCHAR,
        E::Unknown | E::Json | E::Time(_) | E::TimeWithTimeZone(_) => return None,
        E::IntervalDayToSecond | E::IntervalYearToMonth => return None,
        other => other.clone(),
    })
}

fn iceberg_target(target: OutputTarget) -> bool {
    matches!(
        target,
        OutputTarget::IcebergCtas | OutputTarget::TrinoIcebergCtas
    )
}

/// Checks that output column `column` of type `ty` can be written by `target`; the
/// error quotes the engine's message and says which CAST fixes it.
pub(crate) fn check_output_column(
    target: OutputTarget,
    column: &str,
    ty: &EngineType,
) -> Result<()> {
    let Some(r) = refusal(target, column, ty) else {
        return Ok(());
    };
    let mut err = Error::new(
        ErrorKind::InvalidType,
        format!(
            "{target} cannot write column `{column}` of type {ty} ({}: \"{}\")",
            if target == OutputTarget::TrinoIcebergCtas {
                "Trino"
            } else {
                "Athena"
            },
            r.engine_text
        ),
    );
    if let Some(fix) = converted(target, ty) {
        let zone = target != OutputTarget::TrinoIcebergCtas
            && ty.any(&|t| matches!(t, EngineType::TimestampWithTimeZone(_)));
        let rounds = ty.any(&|t| {
            matches!(t, EngineType::Timestamp(p) | EngineType::TimestampWithTimeZone(p)
            if !iceberg_target(target) && *p > HIVE_TIMESTAMP_PRECISION)
        });
        let mut hint = if zone {
            format!("write CAST({column} AT TIME ZONE 'UTC' AS {fix}) (the UTC wall-clock time)")
        } else {
            format!("write CAST({column} AS {fix})")
        };
        if rounds {
            hint.push_str("; Hive timestamps hold milliseconds, so microseconds are rounded away");
        }
        err = err.with_hint(hint);
    } else if matches!(ty, EngineType::Unknown) {
        err = err.with_hint(format!(
            "give the NULL a type: CAST(NULL AS <type>) AS {column}"
        ));
    }
    Err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> EngineType {
        EngineType::parse(s).unwrap()
    }

    #[test]
    fn iceberg_ctas_columns() {
        use OutputTarget::IcebergCtas as I;
        for ok in [
            "boolean",
            "integer",
            "bigint",
            "real",
            "double",
            "decimal(38,2)",
            "varchar",
            "varchar(3)",
            "varbinary",
            "date",
            "timestamp(6)",
            "array(row(a timestamp(6), b map(varchar, double)))",
        ] {
            assert!(check_output_column(I, "c", &t(ok)).is_ok(), "{ok}");
            assert_eq!(output_cast(I, &t(ok)), None, "{ok}");
        }
        let e = check_output_column(I, "event_ts", &t("timestamp(3)")).unwrap_err();
        assert_eq!(
            e.message(),
            "an Iceberg CTAS cannot write column `event_ts` of type timestamp(3) \
             (Athena: \"Timestamp precision (3) not supported for Iceberg. Use \"timestamp(6)\" instead.\")"
        );
        assert_eq!(e.hint(), Some("write CAST(event_ts AS timestamp(6))"));
        let e = check_output_column(I, "at", &t("timestamp(3) with time zone")).unwrap_err();
        assert!(e
            .message()
            .contains("Unsupported Hive type: timestamp(3) with time zone"));
        assert_eq!(
            e.hint(),
            Some("write CAST(at AT TIME ZONE 'UTC' AS timestamp(6)) (the UTC wall-clock time)")
        );
        assert_eq!(output_cast(I, &t("tinyint")), Some(t("integer")));
        assert_eq!(
            output_cast(I, &t("array(smallint)")),
            Some(t("array(integer)"))
        );
        assert_eq!(output_cast(I, &t("char(3)")), Some(t("varchar")));
        assert_eq!(output_cast(I, &t("json")), None);
        assert!(check_output_column(I, "j", &t("json"))
            .unwrap_err()
            .message()
            .contains("Type not supported for Iceberg: json"));
        let e = check_output_column(I, "n", &EngineType::Unknown).unwrap_err();
        assert!(e.message().contains("Column type is unknown: n"));
        assert_eq!(
            e.hint(),
            Some("give the NULL a type: CAST(NULL AS <type>) AS n")
        );
        assert!(check_output_column(I, "r", &t("row(integer)"))
            .unwrap_err()
            .message()
            .contains("Row type field does not have a name: row(integer)"));
    }

    #[test]
    fn hive_ctas_and_unload_columns() {
        for target in [OutputTarget::HiveCtas, OutputTarget::Unload] {
            for ok in [
                "tinyint",
                "smallint",
                "varchar(65535)",
                "char(255)",
                "timestamp(3)",
                "array(timestamp(3))",
                "row(a date, b varbinary)",
            ] {
                assert!(check_output_column(target, "c", &t(ok)).is_ok(), "{ok}");
            }
            let e = check_output_column(target, "event_ts", &t("timestamp(6)")).unwrap_err();
            assert!(
                e.message().contains(
                    "Incorrect timestamp precision for timestamp(6); the configured precision is MILLISECONDS"
                ),
                "{}",
                e.message()
            );
            assert_eq!(
                e.hint(),
                Some(
                    "write CAST(event_ts AS timestamp(3)); Hive timestamps hold milliseconds, \
                     so microseconds are rounded away"
                )
            );
            assert_eq!(
                output_cast(target, &t("map(varchar, array(timestamp(6)))")),
                Some(t("map(varchar, array(timestamp(3)))"))
            );
            assert_eq!(
                output_cast(target, &t("timestamp(6) with time zone")),
                Some(t("timestamp(3)"))
            );
            assert_eq!(
                output_cast(target, &t("varchar(70000)")),
                Some(t("varchar"))
            );
            assert!(check_output_column(target, "t", &t("time(3)"))
                .unwrap_err()
                .message()
                .contains("Unsupported Hive type: time(3)"));
            assert!(check_output_column(target, "r", &t("row(integer)"))
                .unwrap_err()
                .message()
                .contains("Anonymous row type is not supported in Hive"));
            assert_eq!(output_cast(target, &t("row(integer)")), None);
        }
    }
}
