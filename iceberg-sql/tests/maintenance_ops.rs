//! OPTIMIZE and VACUUM in both dialects, and a negative test per rule.

#[path = "query_common/mod.rs"]
mod common;

use chrono::TimeZone;
use common::*;
use iceberg_sql::maintenance::VacuumRetention;
use iceberg_sql::prelude::*;

#[test]
fn optimize_whole_table() {
    insta::assert_snapshot!(
        "optimize",
        both(|d| McpEvent::table_def().optimize().build_for(d))
    );
}

/// The `catalog` column of the `by_catalog` table below, for typed conditions.
struct ByCatalog;
const CATALOG: Col<ByCatalog, String> = Col::new("catalog");

#[test]
fn optimize_on_identity_partition_columns() {
    let t = DatedEvent::table_def();
    insta::assert_snapshot!(
        "optimize_where",
        both(|d| t
            .optimize()
            .filter(DatedEvent::EVENT_DATE.ge(date(2026, 10, 1)))
            .filter(DatedEvent::EVENT_DATE.lt(date(2026, 11, 1)))
            .build_for(d))
    );
    let strings = TableDef::builder("analytics", "by_catalog")
        .column(Column::new("id", IcebergType::Long))
        .column(Column::new("catalog", IcebergType::String))
        .partition(PartitionField::identity("catalog"))
        .location("s3://my-datalake/iceberg/by_catalog/")
        .build()
        .unwrap();
    // AWS's own example.
    insta::assert_snapshot!(
        "optimize_where_string",
        both(|d| strings.optimize().filter(CATALOG.eq("c1")).build_for(d))
    );
    // A quote cannot be written into Athena's Hive-parsed OPTIMIZE; Spark escapes it
    // inside its `where` string.
    let e = strings
        .optimize()
        .filter(CATALOG.eq("it's"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert!(e.hint().unwrap().contains("Hive DDL parser"), "{e}");
    let s = strings
        .optimize()
        .filter(CATALOG.eq("it's"))
        .build_for(Dialect::Spark)
        .unwrap();
    assert_eq!(
        s.sql(),
        r"CALL `local`.system.rewrite_data_files(table => 'analytics.by_catalog', where => 'catalog = \'it\\\'s\'')"
    );
}

#[test]
fn optimize_with_another_spark_catalog() {
    let s = McpEvent::table_def()
        .optimize()
        .spark_catalog("glue_catalog")
        .build_for(Dialect::Spark)
        .unwrap();
    assert_eq!(
        s.sql(),
        "CALL glue_catalog.system.rewrite_data_files(table => 'analytics.mcp_events')"
    );
}

#[test]
fn vacuum_plain_and_with_retention_steps() {
    let t = McpEvent::table_def();
    insta::assert_snapshot!("vacuum", both(|d| t.vacuum().build_for(d)));
    insta::assert_snapshot!(
        "vacuum_retention_steps",
        both_steps(|d| t
            .vacuum()
            .retention(VacuumRetention::days(7).min_snapshots_to_keep(1))
            .build_steps_for(d))
    );
    // Without a retention, build_steps is just the vacuum.
    assert_eq!(t.vacuum().build_steps().unwrap().len(), 1);
}

#[test]
fn spark_expire_snapshots_arguments() {
    let s = McpEvent::table_def()
        .vacuum()
        .older_than(chrono::Utc.with_ymd_and_hms(2026, 9, 24, 0, 0, 0).unwrap())
        .retain_last(5)
        .build_for(Dialect::Spark)
        .unwrap();
    insta::assert_snapshot!("vacuum_spark_arguments", s.sql());
}

/// A cutoff with nanoseconds (`Utc::now()` on Linux) is cut to microseconds, not
/// refused as a data value would be: snapshot times are whole milliseconds.
#[test]
fn an_expiry_cutoff_is_cut_to_microseconds() {
    use chrono::Timelike;
    let cutoff = chrono::Utc
        .with_ymd_and_hms(2026, 9, 24, 0, 0, 0)
        .unwrap()
        .with_nanosecond(123_456_789)
        .unwrap();
    let s = McpEvent::table_def()
        .vacuum()
        .older_than(cutoff)
        .build_for(Dialect::Spark)
        .unwrap();
    assert!(
        s.sql()
            .contains("older_than => TIMESTAMP '2026-09-24 00:00:00.123456Z'"),
        "{s}"
    );
}

#[test]
fn retention_helper_sets_the_vacuum_properties() {
    let t = McpEvent::table_def();
    insta::assert_snapshot!(
        "retention_alter",
        both(|d| t
            .alter()
            .set_properties(
                VacuumRetention::seconds(259_200)
                    .min_snapshots_to_keep(3)
                    .max_metadata_files_to_keep(20)
                    .properties()
            )
            .build_for(d))
    );
}

/// The snapshot age is kept in milliseconds as a 64-bit integer by Iceberg: the longest
/// age whose milliseconds fit is written (Spark gets the milliseconds exactly), a longer
/// one is refused instead of being written as a number the engine cannot read.
#[test]
fn retention_longer_than_iceberg_keeps_is_refused() {
    let t = McpEvent::table_def();
    let longest = VacuumRetention::seconds(9_223_372_036_854_775);
    let steps = t.vacuum().retention(longest).build_steps().unwrap();
    assert_eq!(
        steps[0].sql(),
        "ALTER TABLE analytics.mcp_events SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='9223372036854775')"
    );
    let spark = t
        .vacuum()
        .retention(longest)
        .build_steps_for(Dialect::Spark)
        .unwrap();
    assert_eq!(
        spark[0].sql(),
        "ALTER TABLE analytics.mcp_events SET TBLPROPERTIES ('history.expire.max-snapshot-age-ms'='9223372036854775000')"
    );
    for d in [Dialect::Athena, Dialect::Spark] {
        let e = t
            .vacuum()
            .retention(VacuumRetention::seconds(9_223_372_036_854_776))
            .build_steps_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidProperty);
        assert_eq!(
            e.message(),
            "property `vacuum_max_snapshot_age_seconds` = 9223372036854776 is out of range; \
             Athena allows 1 to 9223372036854775 (seconds whose milliseconds fit a 64-bit integer)"
        );
        let e = t
            .alter()
            .set_property(TableProperty::VacuumMaxSnapshotAgeSeconds(u64::MAX))
            .build_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    }
}

/// Snapshot and metadata-file counts are Java `int`s to Iceberg (table properties) and
/// to the expire_snapshots procedures (`retain_last`): a larger count is refused instead
/// of written as a number the engine cannot read.
#[test]
fn counts_beyond_a_32_bit_integer_are_refused() {
    let t = McpEvent::table_def();
    let max = i32::MAX.unsigned_abs();
    assert!(t
        .vacuum()
        .retain_last(max)
        .build_for(Dialect::Spark)
        .unwrap()
        .sql()
        .ends_with("retain_last => 2147483647)"));
    for d in [Dialect::Spark, Dialect::Trino] {
        let e = t.vacuum().retain_last(max + 1).build_for(d).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert_eq!(
            e.message(),
            "retain_last 2147483648 is more than the procedure's 32-bit argument holds (at most 2147483647)"
        );
    }
    for p in [
        TableProperty::VacuumMinSnapshotsToKeep(max + 1),
        TableProperty::VacuumMaxMetadataFilesToKeep(u32::MAX),
    ] {
        let e = t.alter().set_property(p).build().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidProperty);
        assert!(
            e.message()
                .ends_with("is out of range; Athena allows 1 to 2147483647 (a 32-bit integer)"),
            "{e}"
        );
    }
}

// ---- negative tests -------------------------------------------------------------

/// Trino 476's expire_snapshots takes only `retention_threshold` and keeps the current
/// snapshot: a count of 1 to keep is left out of the text, a larger one is refused with
/// the way out; the same vacuum builds on Spark.
#[test]
fn trino_keeps_snapshots_by_age_only() {
    let t = McpEvent::table_def();
    let kept_one = VacuumRetention::days(7).min_snapshots_to_keep(1);
    let steps = t
        .vacuum()
        .retention(kept_one)
        .build_steps_for(Dialect::Trino)
        .unwrap();
    let sql: Vec<&str> = steps.iter().map(|s| s.sql()).collect();
    assert_eq!(
        sql,
        [
            "ALTER TABLE analytics.mcp_events EXECUTE expire_snapshots(retention_threshold => '7d')",
            "ALTER TABLE analytics.mcp_events EXECUTE remove_orphan_files(retention_threshold => '7d')",
        ]
    );
    assert_eq!(
        t.vacuum()
            .retain_last(1)
            .build_for(Dialect::Trino)
            .unwrap()
            .sql(),
        "ALTER TABLE analytics.mcp_events EXECUTE expire_snapshots"
    );
    let three = VacuumRetention::days(7).min_snapshots_to_keep(3);
    for e in [
        t.vacuum()
            .retain_last(3)
            .build_for(Dialect::Trino)
            .unwrap_err(),
        t.vacuum()
            .retention(three)
            .build_steps_for(Dialect::Trino)
            .unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        assert_eq!(
            e.message(),
            "the vacuum of analytics.mcp_events asks to keep the last 3 snapshots (retain_last \
             or min_snapshots_to_keep), and Trino 476's expire_snapshots takes no such argument: \
             only retention_threshold, keeping the current snapshot \
             (https://trino.io/docs/476/connector/iceberg.html#expire-snapshots)"
        );
        let hint = e.hint().unwrap();
        assert!(
            hint.contains(".retain_days(n)") && hint.contains("Dialect::Spark"),
            "{hint}"
        );
    }
    assert!(t
        .vacuum()
        .retain_last(3)
        .build_for(Dialect::Spark)
        .unwrap()
        .sql()
        .ends_with("retain_last => 3)"));
}

#[test]
fn optimize_where_on_a_transformed_source_is_refused() {
    // The common OPTIMIZE ... WHERE event_ts >= ... on a day(event_ts) table.
    let e = McpEvent::table_def()
        .optimize()
        .filter(McpEvent::EVENT_TS.ge(ts(2026, 10, 1, 0)))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(
        e.message().contains("hidden partition `day(event_ts)`"),
        "{e}"
    );
    assert!(
        e.message().contains("only identity partition columns"),
        "{e}"
    );
    let hint = e.hint().unwrap();
    assert!(hint.contains("optimize the whole table"), "{hint}");
    assert!(hint.contains("identity partition column"), "{hint}");
    // Also for an hour() source on a table that has identity partitions too.
    let e = DatedEvent::table_def()
        .optimize()
        .filter(DatedEvent::EVENT_TS.ge(ts(2026, 10, 1, 0)))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

#[test]
fn optimize_where_on_a_non_partition_column_is_refused() {
    let e = McpEvent::table_def()
        .optimize()
        .filter(McpEvent::TOOL_NAME.eq("query_data".to_string()))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.message().contains("not a partition column"), "{e}");
    // Every bad filter is reported at once.
    let e = McpEvent::table_def()
        .optimize()
        .filter(McpEvent::TOOL_NAME.eq("x".to_string()))
        .filter(Col::<McpEvent, i64>::new("nope").eq(1))
        .build()
        .unwrap_err();
    assert_eq!(e.all().count(), 2);
}

#[test]
fn vacuum_with_options_is_refused_in_athena() {
    let t = McpEvent::table_def();
    let e = t.vacuum().retain_days(7).build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.message().contains("no RETAIN clause"), "{e}");
    assert!(
        e.hint().unwrap().contains(
            "ALTER TABLE analytics.mcp_events SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='604800'), then VACUUM analytics.mcp_events"
        ),
        "{e}"
    );
    let e = t.vacuum().retain_last(3).build().unwrap_err();
    assert!(e.message().contains("takes no options"), "{e}");
    let e = t
        .vacuum()
        .older_than(chrono::Utc::now())
        .build_steps()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

#[test]
fn spark_retention_needs_steps_and_a_positive_retain_last() {
    let t = McpEvent::table_def();
    let e = t
        .vacuum()
        .retain_days(7)
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert!(e.hint().unwrap().contains("build_steps"), "{e}");
    let e = t
        .vacuum()
        .retain_last(0)
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    let e = t
        .vacuum()
        .retention(VacuumRetention::default())
        .build_steps()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
}

#[test]
fn names_that_need_quotes_are_refused() {
    let reserved = TableDef::builder("analytics", "order")
        .column(Column::new("id", IcebergType::Long))
        .location("s3://my-datalake/iceberg/order/")
        .build()
        .unwrap();
    for e in [
        reserved.optimize().build().unwrap_err(),
        reserved.vacuum().build().unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::UnquotableIdentifier);
        assert!(e.message().contains("`order` must be quoted"), "{e}");
    }
    let underscore = TableDef::builder("_db", "t")
        .column(Column::new("id", IcebergType::Long))
        .location("s3://my-datalake/iceberg/t/")
        .build()
        .unwrap();
    let e = underscore.optimize().build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnquotableIdentifier);
    assert!(e.message().contains("OPTIMIZE"), "{e}");
}

#[test]
fn bad_spark_catalog_is_refused() {
    let e = McpEvent::table_def()
        .optimize()
        .spark_catalog("Glue")
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
    assert!(e.message().starts_with("Spark catalog name"), "{e}");
}

#[test]
fn optimize_where_with_the_expression_dsl() {
    let t = DatedEvent::table_def();
    insta::assert_snapshot!(
        "optimize_where_expr",
        both(|d| t
            .optimize()
            .filter(DatedEvent::EVENT_DATE.le(date(2026, 12, 31)))
            .filter(
                DatedEvent::EVENT_DATE
                    .between(date(2026, 10, 1), date(2026, 10, 7))
                    .or(DatedEvent::EVENT_DATE.eq(date(2026, 9, 30)))
            )
            .build_for(d))
    );
    let single = t
        .optimize()
        .filter(DatedEvent::EVENT_DATE.is_in([date(2026, 10, 1), date(2026, 10, 2)]))
        .build()
        .unwrap();
    assert_eq!(
        single.sql(),
        "OPTIMIZE analytics.mcp_events_dated REWRITE DATA USING BIN_PACK \
         WHERE event_date IN (DATE '2026-10-01', DATE '2026-10-02')"
    );
    // The rules hold for DSL conditions too.
    let e = t
        .optimize()
        .filter(
            DatedEvent::EVENT_DATE
                .eq(date(2026, 10, 1))
                .and(DatedEvent::EVENT_TS.ge(ts(2026, 10, 1, 0)))
                .and(DatedEvent::TOOL_NAME.eq("x")),
        )
        .build()
        .unwrap_err();
    assert_eq!(e.all().count(), 2, "{e}");
    assert!(
        e.message().contains("hidden partition `hour(event_ts)`"),
        "{e}"
    );
    assert!(
        e.others()[0].message().contains("not a partition column"),
        "{e}"
    );
    let e = t
        .optimize()
        .filter(DatedEvent::EVENT_DATE.eq(iceberg_sql::dsl::param(date(2026, 10, 1))))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
}
