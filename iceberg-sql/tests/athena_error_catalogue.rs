//! The catalogue of Athena run-time errors the crate prevents: one case per error class.
//!
//! None of these is a grammar error: each statement parses, and Athena (engine v3, built
//! on Trino) refuses it when it runs, or runs it with another meaning. Each case gives
//! the input, what the crate does instead (refuses it with a fix, or renders the form
//! Athena accepts), the engine's error text it prevents, and the public source of the
//! rule. Trino source paths are relative to <https://github.com/trinodb/trino>
//! (release 417 unless said otherwise).

#[path = "query_common/mod.rs"]
mod common;

use std::sync::OnceLock;

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use common::*;
use iceberg_sql::ctas::{HiveCtas, IcebergCtas, Unload};
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::{count_all, current_date, current_timestamp, days, hours, years};
use iceberg_sql::expr::TimeUnit;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{JoinKind, ManifestRow, PartitionRow, Snapshot};
use iceberg_sql::recipes::DailyRefresh;
use iceberg_sql::Result;

/// What the crate does with a case's input.
enum Outcome {
    /// Refused at build time: the error's kind and words of its message and hint.
    Refused {
        kind: ErrorKind,
        message: &'static str,
        hint: &'static str,
    },
    /// Rendered in the form Athena accepts: words the SQL contains, and words it must not.
    Renders {
        contains: &'static [&'static str],
        not: &'static [&'static str],
    },
}

/// One error class.
struct Case {
    /// The class of run-time error.
    class: &'static str,
    /// The engine's error text the crate prevents (as Athena or Trino prints it).
    engine_error: &'static str,
    /// The public source of the rule.
    source: &'static str,
    /// What the crate does.
    outcome: Outcome,
}

/// Checks `built` against the case: a refusal must say what and how to fix it, a
/// rendering must hold the accepted form.
fn check(case: Case, built: Result<Vec<Statement>>) {
    assert!(!case.engine_error.is_empty() && case.source.starts_with("http"));
    match (case.outcome, built) {
        (
            Outcome::Refused {
                kind,
                message,
                hint,
            },
            Err(e),
        ) => {
            assert_eq!(e.kind(), kind, "{}: {e}", case.class);
            assert!(e.message().contains(message), "{}: {e}", case.class);
            assert!(
                e.hint().is_some_and(|h| h.contains(hint)),
                "{}: the refusal must say how to fix it: {e}",
                case.class
            );
        }
        (Outcome::Renders { contains, not }, Ok(statements)) => {
            let sql: Vec<&str> = statements.iter().map(Statement::sql).collect();
            let sql = sql.join(";\n");
            for c in contains {
                assert!(sql.contains(c), "{}: `{c}` missing from\n{sql}", case.class);
            }
            for n in not {
                assert!(!sql.contains(n), "{}: `{n}` in\n{sql}", case.class);
            }
        }
        (Outcome::Refused { .. }, Ok(s)) => panic!("{}: built {:?}", case.class, s),
        (Outcome::Renders { .. }, Err(e)) => panic!("{}: refused: {e}", case.class),
    }
}

fn one(s: Result<Statement>) -> Result<Vec<Statement>> {
    s.map(|s| vec![s])
}

/// A table with the types and names the cases need: a `DateTime<Utc>` column, nested
/// columns, names Trino reserves or does not.
struct Odd;

impl Odd {
    const ID: Col<Odd, i64> = Col::new("id");
    const SEEN: Col<Odd, DateTime<Utc>> = Col::new("seen");
    const INTERVAL: Col<Odd, i64> = Col::new("interval");
    const CURRENT_ROLE: Col<Odd, String> = Col::new("current_role");
    const TRIM: Col<Odd, String> = Col::new("trim");
    const ALL: Col<Odd, String> = Col::new("all");
    const DAY: Col<Odd, NaiveDate> = Col::new("day");
}

impl IcebergTable for Odd {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            TableDef::builder("limit", "odd")
                .column(Column::new("id", IcebergType::Long).required())
                .column(Column::new("seen", IcebergType::Timestamp))
                .column(Column::new("tags", IcebergType::list(IcebergType::String)))
                .column(Column::new("interval", IcebergType::Long))
                .column(Column::new("current_role", IcebergType::String))
                .column(Column::new("trim", IcebergType::String))
                .column(Column::new("current_time", IcebergType::String))
                .column(Column::new("all", IcebergType::String))
                .column(Column::new("day", IcebergType::Date))
                .partition(PartitionField::identity("trim"))
                .partition(PartitionField::identity("current_time"))
                .location("s3://my-datalake/iceberg/odd/")
                .build()
                .unwrap()
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

/// A table with a struct holding bytes, which Trino cannot cast to JSON.
struct Blob;

impl IcebergTable for Blob {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            TableDef::builder("analytics", "blobs")
                .column(Column::new("id", IcebergType::Long))
                .column(Column::new(
                    "blob",
                    IcebergType::structure([("raw", IcebergType::Binary)]),
                ))
                .location("s3://my-datalake/iceberg/blobs/")
                .build()
                .unwrap()
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

/// A user table whose `Col` for `user_id` was declared with the wrong Rust type: the
/// table's own type (varchar) is what the engine compares.
struct WrongKey;

impl WrongKey {
    const USER_ID: Col<WrongKey, i64> = Col::new("user_id");
}

impl IcebergTable for WrongKey {
    fn table_def() -> &'static TableDef {
        McpUser::table_def()
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

#[test]
fn clock_value_into_a_timestamp_column() {
    // `current_timestamp` is `timestamp(3) with time zone`; the column is
    // `timestamp(6)`. Trino's source accepts the pair with an implicit CAST, a field
    // report has Athena refuse it: the explicit CAST runs on both readings and stores
    // the same value (the UTC wall clock).
    let update = McpEvent::update()
        .set(McpEvent::EVENT_TS, current_timestamp())
        .filter(McpEvent::USER_ID.eq("u-1"))
        .build();
    let merge = McpEvent::merge_from(MergeSource::table(TableName::new("analytics", "staged")))
        .on_key(McpEvent::EVENT_ID)
        .when_matched()
        .update(|u| u.set(McpEvent::EVENT_TS, current_timestamp()))
        .build();
    check(
        Case {
            class: "clock value into a timestamp column (UPDATE SET, MERGE SET)",
            engine_error:
                "UPDATE table column types don't match SET expressions: Table: [timestamp(6)], \
                           Expressions: [timestamp(3) with time zone]",
            source: "https://github.com/elementary-data/elementary/pull/1451 \
                     (core/trino-main/.../analyzer/StatementAnalyzer.java typesMatchForInsert)",
            outcome: Outcome::Renders {
                contains: &["SET event_ts = CAST(current_timestamp AS timestamp(6))"],
                not: &["= current_timestamp\n"],
            },
        },
        update.and_then(|u| merge.map(|m| vec![u, m])),
    );
}

#[test]
fn aggregate_of_another_type_into_a_summary_column() {
    let day = date(2026, 10, 1);
    let q = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::STATUS)
        .expr_as(count_all(), "call_count")
        .expr_as(count_all(), "success_count")
        .expr_as(McpEvent::STATUS.max(), "error_count")
        .expr_as(McpEvent::LATENCY_MS.avg(), "avg_latency_ms")
        .expr_as(
            McpEvent::LATENCY_MS.approx_percentile(0.95),
            "p95_latency_ms",
        )
        .expr_as(
            McpEvent::LATENCY_MS.approx_percentile(0.99),
            "p99_latency_ms",
        )
        .value_as(day, "dt")
        .group_by(McpEvent::TOOL_NAME)
        .group_by(McpEvent::STATUS);
    check(
        Case {
            class: "aggregate result type vs the column it is stored in",
            engine_error: "Insert query has mismatched column types: Table: [..., bigint, ...], Query: [..., varchar, ...]",
            source: "https://trino.io/docs/current/functions/aggregate.html#max \
                     (StatementAnalyzer.java, INSERT: typesMatchForInsert)",
            outcome: Outcome::Refused {
                kind: ErrorKind::TypeMismatch,
                message: "stores a varchar value in column `error_count` of type bigint",
                hint: "CAST(x AS bigint)",
            },
        },
        DailyRefresh::new(DailySummary::DT, day, &q).build(),
    );
}

#[test]
fn refresh_query_writing_another_day() {
    let day = date(2026, 10, 1);
    let q = common_summary()
        .value_as(date(2026, 10, 2), "dt")
        .group_by(McpEvent::TOOL_NAME)
        .group_by(McpEvent::STATUS);
    check(
        Case {
            class: "a refresh that inserts another day than it deletes (a re-run duplicates rows)",
            engine_error: "(no error: the statement runs and the data is wrong)",
            source: "https://docs.aws.amazon.com/athena/latest/ug/insert-into.html",
            outcome: Outcome::Refused {
                kind: ErrorKind::InvalidValue,
                message: "writes 2026-10-02 into the day column `dt`, but the refresh deletes day 2026-10-01",
                hint: "value_as(day, \"dt\")",
            },
        },
        DailyRefresh::new(DailySummary::DT, day, &q).build(),
    );
    // A computed day column is kept to the refreshed day by a filter on the output.
    let q = common_summary()
        .expr_as(McpEvent::EVENT_TS.cast::<NaiveDate>(), "dt")
        .group_by(McpEvent::TOOL_NAME)
        .group_by(McpEvent::STATUS)
        .group_by(McpEvent::EVENT_TS.cast::<NaiveDate>());
    check(
        Case {
            class: "a refresh whose day column is computed",
            engine_error: "(no error: rows of other days would be inserted again on a re-run)",
            source: "https://docs.aws.amazon.com/athena/latest/ug/insert-into.html",
            outcome: Outcome::Renders {
                contains: &[") AS refreshed WHERE dt = DATE '2026-10-01'"],
                not: &[],
            },
        },
        DailyRefresh::new(DailySummary::DT, day, &q).build(),
    );
}

fn common_summary() -> Select<McpEvent> {
    McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::STATUS)
        .expr_as(count_all(), "call_count")
        .expr_as(count_all(), "success_count")
        .expr_as(count_all(), "error_count")
        .expr_as(McpEvent::LATENCY_MS.avg(), "avg_latency_ms")
        .expr_as(
            McpEvent::LATENCY_MS.approx_percentile(0.95),
            "p95_latency_ms",
        )
        .expr_as(
            McpEvent::LATENCY_MS.approx_percentile(0.99),
            "p99_latency_ms",
        )
}

#[test]
fn json_read_projection_as_a_merge_source() {
    let staged = Odd::select();
    let read_side = staged.build().unwrap();
    assert!(read_side.sql().contains("CAST(tags AS JSON)"));
    let case = || Case {
        class: "JSON text (a read-side projection) stored in a nested column",
        engine_error: "MERGE table column types don't match for MERGE case 0, SET expressions: \
                       Table: [array(varchar)], Expressions: [json]",
        source: "https://trino.io/docs/current/sql/merge.html (StatementAnalyzer.java, visitMerge)",
        outcome: Outcome::Refused {
            kind: ErrorKind::TypeMismatch,
            message: "reads nested columns as JSON text",
            hint: "MergeSource::select(&query)",
        },
    };
    check(
        case(),
        one(Odd::merge_from(MergeSource::Query(&read_side))
            .on_key(Odd::ID)
            .when_matched()
            .update_all()
            .build()),
    );
    let staged = Odd::select();
    let m = Odd::merge_from(MergeSource::select(&staged))
        .on_key(Odd::ID)
        .when_matched()
        .update_all()
        .build();
    check(
        Case {
            outcome: Outcome::Renders {
                contains: &["SELECT * FROM limit.odd", "tags = source.tags"],
                not: &["JSON"],
            },
            ..case()
        },
        one(m),
    );
}

#[test]
fn microsecond_timestamps_into_hive_ctas_and_unload() {
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::EVENT_TS);
    let case = || {
        Case {
        class: "timestamp(6) into a Hive CTAS or UNLOAD (millisecond precision)",
        engine_error: "NOT_SUPPORTED: Incorrect timestamp precision for timestamp(6); the configured precision is MILLISECONDS",
        source: "https://github.com/aws/aws-sdk-pandas/issues/2252 \
                 (plugin/trino-hive/.../HiveMetadata.java validateTimestampColumns)",
        outcome: Outcome::Renders {
            contains: &["SELECT event_id, CAST(event_ts AS timestamp(3)) AS event_ts FROM"],
            not: &[],
        },
    }
    };
    check(
        case(),
        one(HiveCtas::new(TableName::new("analytics", "export"), &q)
            .external_location("s3://my-datalake/exports/e/")
            .build()),
    );
    check(
        case(),
        one(Unload::new(&q, "s3://my-datalake/exports/u/").build()),
    );
}

#[test]
fn millisecond_clock_into_an_iceberg_ctas() {
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .expr_as(current_timestamp(), "loaded_at");
    check(
        Case {
            class: "timestamp(3) with time zone as an Iceberg CTAS column",
            engine_error: "Timestamp precision (3) not supported for Iceberg. Use \"timestamp(6)\" instead.",
            source: "https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-supported-data-types.html \
                     (plugin/trino-iceberg/.../TypeConverter.java toIcebergType)",
            outcome: Outcome::Renders {
                contains: &["CAST(current_timestamp AS timestamp(6)) AS loaded_at"],
                not: &[],
            },
        },
        one(IcebergCtas::new(TableName::new("analytics", "snap"), &q)
            .location("s3://my-datalake/iceberg/snap/")
            .build()),
    );
}

#[test]
fn nested_value_that_has_no_json_cast() {
    check(
        Case {
            class: "a nested column read back as JSON that Trino cannot cast to JSON",
            engine_error: "Cannot cast row(raw varbinary) to json",
            source: "https://trino.io/docs/current/functions/json.html#cast-to-json \
                     (core/trino-main/.../util/JsonUtil.java canCastToJson)",
            outcome: Outcome::Refused {
                kind: ErrorKind::TypeMismatch,
                message: "Cannot cast row(raw varbinary) to json",
                hint: "project the columns you need",
            },
        },
        one(Blob::select().build()),
    );
}

#[test]
fn comparison_of_incompatible_types() {
    let q = McpEvent::select().column(McpEvent::EVENT_ID).join(
        JoinKind::Inner,
        McpEvent::LATENCY_MS,
        WrongKey::USER_ID,
    );
    check(
        Case {
            class: "a comparison (join keys, filters) across types with no common type",
            engine_error: "Cannot apply operator: bigint = varchar",
            source: "https://trino.io/docs/current/language/types.html \
                     (core/trino-main/.../metadata/OperatorNotFoundException.java)",
            outcome: Outcome::Refused {
                kind: ErrorKind::TypeMismatch,
                message: "Cannot apply operator: bigint = varchar",
                hint: "join on keys of one type",
            },
        },
        one(q.build()),
    );
}

#[test]
fn aggregate_of_a_type_the_function_does_not_take() {
    // `approx_percentile` of a `String` column does not compile; a handle declared
    // with the wrong Rust type is caught by the table's own column type.
    const STATUS_AS_NUMBER: Col<McpEvent, i64> = Col::new("status");
    let q = McpEvent::select().expr_as(STATUS_AS_NUMBER.approx_percentile(0.5), "median");
    check(
        Case {
            class: "an aggregate function over a type it does not take",
            engine_error: "Unexpected parameters (varchar, double) for function approx_percentile. Expected: ...",
            source: "https://trino.io/docs/current/functions/aggregate.html#approx_percentile",
            outcome: Outcome::Refused {
                kind: ErrorKind::TypeMismatch,
                message: "approx_percentile",
                hint: "approx_percentile: numbers",
            },
        },
        one(q.build()),
    );
}

#[test]
fn date_moved_by_hours() {
    let q = McpEvent::select().filter(
        McpEvent::EVENT_TS
            .cast::<NaiveDate>()
            .gt(current_date() - hours(1)),
    );
    check(
        Case {
            class: "date ± an interval of hours, minutes or seconds",
            engine_error: "Cannot subtract hour, minutes or seconds from a date",
            source: "https://trino.io/docs/current/functions/datetime.html \
                     (core/trino-main/.../type/DateTimeOperators.java)",
            outcome: Outcome::Refused {
                kind: ErrorKind::TypeMismatch,
                message: "Cannot subtract hour, minutes or seconds from a date",
                hint: "whole days",
            },
        },
        one(q.build()),
    );
}

#[test]
fn date_truncated_to_the_hour() {
    let q = Odd::select().filter(Odd::DAY.date_trunc(TimeUnit::Hour).eq(date(2026, 1, 1)));
    check(
        Case {
            class: "date_trunc to a time unit on a date",
            engine_error: "'hour' is not a valid DATE field",
            source: "https://trino.io/docs/current/functions/datetime.html#date_trunc",
            outcome: Outcome::Refused {
                kind: ErrorKind::TypeMismatch,
                message: "hour",
                hint: "",
            },
        },
        one(q.build()),
    );
}

#[test]
fn interval_amount_out_of_range() {
    let q =
        McpEvent::select().filter(McpEvent::EVENT_TS.gt(current_timestamp() - years(200_000_000)));
    check(
        Case {
            class: "an INTERVAL literal whose months overflow",
            engine_error: "Invalid INTERVAL YEAR value: 200000000",
            source: "https://trino.io/docs/current/language/types.html#interval-year-to-month \
                     (core/trino-main/.../util/DateTimeUtils.java)",
            outcome: Outcome::Refused {
                kind: ErrorKind::InvalidValue,
                message: "200000000",
                hint: "a larger unit",
            },
        },
        one(q.build()),
    );
}

#[test]
fn leap_second_and_year_ranges() {
    let leap = NaiveDate::from_ymd_opt(2016, 12, 31)
        .unwrap()
        .and_hms_milli_opt(23, 59, 59, 1_500)
        .unwrap();
    let case = |message| Case {
        class: "a timestamp literal with second 60, or a year outside 0001-9999",
        engine_error: "'2016-12-31 23:59:60.500000' is not a valid TIMESTAMP literal",
        source: "https://trino.io/docs/current/language/types.html#timestamp \
                 (core/trino-spi/.../type/DateTimes.java)",
        outcome: Outcome::Refused {
            kind: ErrorKind::InvalidValue,
            message,
            hint: "",
        },
    };
    check(
        case("leap second"),
        one(McpEvent::select()
            .filter(McpEvent::EVENT_TS.lt(leap))
            .build()),
    );
    check(
        case("leap second"),
        one(McpEvent::select()
            .as_of(Snapshot::Timestamp(leap.and_utc()))
            .build()),
    );
    let far = NaiveDate::from_ymd_opt(10_000, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc();
    check(
        case("outside 0001-9999"),
        one(McpEvent::select().as_of(Snapshot::Timestamp(far)).build()),
    );
}

#[test]
fn reserved_words_are_quoted_and_non_reserved_ones_accepted() {
    // `current_role` is reserved by Trino but missing from AWS's list; `trim` is
    // reserved; `limit` and `interval` are not.
    let u = Odd::update()
        .set(Odd::CURRENT_ROLE, "admin")
        .filter(Odd::TRIM.eq("x").and(Odd::INTERVAL.gt(3i64)))
        .filter(Odd::ALL.ne("y"))
        .build();
    let create = Odd::table_def().create_table().build();
    check(
        Case {
            class: "a reserved word as an unquoted name; a non-reserved keyword refused as a name",
            engine_error: "line 2:5: mismatched input 'current_role'. Expecting: <identifier>",
            source: "https://trino.io/docs/current/language/reserved.html \
                     (core/trino-parser/src/main/antlr4/io/trino/sql/parser/SqlBase.g4)",
            outcome: Outcome::Renders {
                contains: &[
                    "UPDATE limit.odd",
                    "SET \"current_role\" = 'admin'",
                    "WHERE \"trim\" = 'x' AND interval > 3 AND \"all\" <> 'y'",
                    "PARTITIONED BY (`trim`, `current_time`)",
                ],
                not: &[],
            },
        },
        u.and_then(|u| create.map(|c| vec![u, c])),
    );
}

#[test]
fn optimize_cannot_quote_a_reserved_partition_column() {
    let o = Odd::table_def()
        .optimize()
        .filter(Odd::TRIM.eq("x"))
        .build();
    check(
        Case {
            class: "OPTIMIZE/VACUUM on a name that needs quotes (no documented quoting)",
            engine_error: "line 1:53: mismatched input 'trim'",
            source: "https://docs.aws.amazon.com/athena/latest/ug/optimize-statement.html",
            outcome: Outcome::Refused {
                kind: ErrorKind::UnquotableIdentifier,
                message: "`trim` must be quoted",
                hint: "rename it to a plain name",
            },
        },
        one(o),
    );
}

#[test]
fn timestamptz_declared_in_athena_ddl() {
    let a = McpEvent::table_def()
        .alter()
        .add_columns([Column::new("loaded_at", IcebergType::TimestampTz)])
        .build();
    check(
        Case {
            class: "timestamptz in Athena DDL (written as timestamp: another type, silently)",
            engine_error: "(no error: the column is created as timestamp)",
            source: "https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-supported-data-types.html",
            outcome: Outcome::Refused {
                kind: ErrorKind::InvalidType,
                message: "timestamptz cannot be declared in Athena DDL",
                hint: "declare the column as `timestamp`",
            },
        },
        one(a),
    );
}

#[test]
fn utc_datetime_compared_and_assigned() {
    let at = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
    let u = Odd::update()
        .set(Odd::SEEN, at)
        .filter(Odd::SEEN.lt(at).and(Odd::ID.eq(1i64)))
        .filter(Odd::SEEN.gt((current_timestamp() - days(30)).at_utc()))
        .build();
    check(
        Case {
            class: "a DateTime<Utc> value compared with or stored in its timestamp column",
            engine_error:
                "UPDATE table column types don't match SET expressions (a zone-qualified literal \
                           was refused before it was written)",
            source: "https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg.html",
            outcome: Outcome::Renders {
                contains: &[
                    "SET seen = TIMESTAMP '2026-01-02 03:04:05.000000'",
                    "WHERE seen < TIMESTAMP '2026-01-02 03:04:05.000000' AND id = 1 \
                     AND seen > current_timestamp - INTERVAL '30' DAY",
                ],
                not: &["UTC'"],
            },
        },
        one(u),
    );
}

#[test]
fn ctas_output_without_a_name() {
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .expr_as(McpEvent::EVENT_TS.cast::<NaiveDate>(), "event_id");
    check(
        Case {
            class: "a CTAS output column named twice",
            engine_error: "Column name 'event_id' specified more than once",
            source:
                "https://trino.io/docs/current/sql/create-table-as.html (StatementAnalyzer.java)",
            outcome: Outcome::Refused {
                kind: ErrorKind::InvalidTable,
                message: "Column name 'event_id' specified more than once",
                hint: "alias one of them",
            },
        },
        one(IcebergCtas::new(TableName::new("analytics", "x"), &q)
            .location("s3://my-datalake/iceberg/x/")
            .build()),
    );
}

#[test]
fn spark_create_table_with_a_comment() {
    let def = TableDef::builder("analytics", "commented")
        .column(Column::new("id", IcebergType::Long))
        .comment("daily facts")
        .location("s3://my-datalake/iceberg/commented/")
        .build()
        .unwrap();
    check(
        Case {
            class: "Spark CREATE TABLE with a table comment (refused by our own validator before)",
            engine_error: "(none: Spark takes COMMENT among its CREATE TABLE clauses in any order)",
            source: "https://spark.apache.org/docs/3.5.0/sql-ref-syntax-ddl-create-table-datasource.html",
            outcome: Outcome::Renders {
                contains: &["USING iceberg\nCOMMENT 'daily facts'"],
                not: &[],
            },
        },
        one(def.create_table().build_for(Dialect::Spark)),
    );
}

#[test]
fn manifest_summaries_column_of_another_trino_release() {
    // Trino renamed `$manifests.partitions` to `partition_summaries` in November 2024;
    // Athena does not say which release its engine runs, so neither name is read.
    check(
        Case {
            class: "a metadata column that only some Trino releases have",
            engine_error: "Column 'partition_summaries' cannot be resolved",
            source: "https://github.com/trinodb/trino/pull/24103 \
                     (plugin/trino-iceberg/src/main/java/io/trino/plugin/iceberg/system/ManifestsTable.java)",
            outcome: Outcome::Renders {
                contains: &[
                    "SELECT path, length, partition_spec_id, added_snapshot_id, ",
                    "deleted_rows_count FROM \"analytics\".\"mcp_events$manifests\"",
                ],
                not: &["partition_summaries", "partitions,", "SELECT *"],
            },
        },
        one(McpEvent::table_def()
            .name()
            .metadata::<ManifestRow>()
            .build()),
    );
}

#[test]
fn partition_column_of_an_unpartitioned_table() {
    // An unpartitioned table's `$partitions` has no `partition` column.
    check(
        Case {
            class: "the `partition` column of an unpartitioned table's `$partitions`",
            engine_error: "Column 'partition' cannot be resolved",
            source: "https://github.com/trinodb/trino \
                     (plugin/trino-iceberg/src/main/java/io/trino/plugin/iceberg/system/PartitionsTable.java)",
            outcome: Outcome::Refused {
                kind: ErrorKind::UnknownColumn,
                message: "is unpartitioned, and the `partitions` metadata table of an \
                          unpartitioned table has no `partition` column",
                hint: "project the columns it has",
            },
        },
        one(Blob::metadata::<PartitionRow>().build()),
    );
}
