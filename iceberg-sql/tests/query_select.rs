//! SELECT: time travel, metadata tables, aggregates, joins; snapshots in both dialects
//! and a negative test per rule.

#[path = "query_common/mod.rs"]
mod common;

use chrono::TimeZone;
use common::*;
use iceberg_sql::dsl::{count_all, current_timestamp, days};
use iceberg_sql::prelude::*;
use iceberg_sql::query::*;

fn at(h: u32) -> chrono::DateTime<chrono::Utc> {
    chrono::Utc.with_ymd_and_hms(2026, 9, 15, h, 0, 0).unwrap()
}

#[test]
fn time_travel_by_timestamp_is_explicitly_utc() {
    let q = McpEvent::select()
        .as_of(Snapshot::Timestamp(at(0)))
        .filter(McpEvent::TOOL_NAME.eq("query_data"));
    insta::assert_snapshot!("time_travel_timestamp", both(|d| q.clone().build_for(d)));
    let frac = chrono::Utc
        .timestamp_opt(1_789_000_000, 123_456_000)
        .unwrap();
    let q = McpEvent::select().as_of(Snapshot::Timestamp(frac));
    assert_eq!(
        q.build().unwrap().sql(),
        "SELECT * FROM analytics.mcp_events FOR TIMESTAMP AS OF TIMESTAMP '2026-09-10 00:26:40.123456 UTC'"
    );
}

/// Iceberg snapshot ids are positive: a negative one is refused as a value (it was
/// written `AS OF -1`, which the validator then refused as a syntax error).
#[test]
fn time_travel_to_a_negative_snapshot_id_is_refused() {
    for d in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        let e = McpEvent::select()
            .as_of(Snapshot::Version(-1))
            .build_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert_eq!(
            e.message(),
            "time travel snapshot id -1 is negative; Iceberg snapshot ids are positive"
        );
        assert!(McpEvent::select()
            .as_of(Snapshot::Version(i64::MAX))
            .build_for(d)
            .unwrap()
            .sql()
            .ends_with("FOR VERSION AS OF 9223372036854775807"));
    }
}

#[test]
fn time_travel_by_version_with_group_by() {
    let q = McpEvent::select()
        .expr_as(count_all(), "event_count")
        .column(McpEvent::TOOL_NAME)
        .as_of(Snapshot::Version(5789234567890123456))
        .group_by(McpEvent::TOOL_NAME);
    insta::assert_snapshot!(
        "time_travel_version_group_by",
        both(|d| q.clone().build_for(d))
    );
}

#[test]
fn snapshot_listing() {
    let t = McpEvent::table_def().name().clone();
    let q = t
        .metadata::<SnapshotRow>()
        .column(SnapshotRow::SNAPSHOT_ID)
        .column(SnapshotRow::COMMITTED_AT)
        .column(SnapshotRow::OPERATION)
        .order_by(SnapshotRow::COMMITTED_AT, Order::Desc)
        .limit(20);
    insta::assert_snapshot!("snapshots_latest", both(|d| q.clone().build_for(d)));
}

#[test]
fn every_metadata_table_with_its_typed_columns() {
    let t = McpEvent::table_def().name().clone();
    let mut out = String::new();
    macro_rules! each {
        ($($row:ty),*) => {$(
            out.push_str(&both(|d| t.metadata::<$row>().build_for(d)));
            out.push_str("\n\n");
        )*};
    }
    each!(
        SnapshotRow,
        HistoryRow,
        FileRow,
        ManifestRow,
        PartitionRow,
        RefRow
    );
    insta::assert_snapshot!("metadata_tables", out);
}

#[test]
fn history_and_file_pressure_queries() {
    let t = McpEvent::table_def().name().clone();
    let h = t
        .metadata::<HistoryRow>()
        .order_by(HistoryRow::MADE_CURRENT_AT, Order::Desc)
        .limit(10);
    let f = t
        .metadata::<FileRow>()
        .column(FileRow::CONTENT)
        .expr_as(count_all(), "files")
        .expr_as(FileRow::FILE_SIZE_IN_BYTES.sum(), "bytes")
        .group_by(FileRow::CONTENT);
    insta::assert_snapshot!(
        "history_and_files",
        format!(
            "{}\n\n{}",
            both(|d| h.clone().build_for(d)),
            both(|d| f.clone().build_for(d))
        )
    );
}

#[test]
fn daily_aggregates() {
    let start = ts(2026, 10, 1, 0);
    let q = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::STATUS)
        .expr_as(count_all(), "call_count")
        .expr_as(
            count_all().filter(McpEvent::STATUS.eq("success")),
            "success_count",
        )
        .expr_as(
            count_all().filter(McpEvent::STATUS.ne("success")),
            "error_count",
        )
        .expr_as(McpEvent::LATENCY_MS.avg(), "avg_latency_ms")
        .expr_as(
            McpEvent::LATENCY_MS.approx_percentile(0.95),
            "p95_latency_ms",
        )
        .expr_as(
            McpEvent::LATENCY_MS.approx_percentile(0.99),
            "p99_latency_ms",
        )
        .expr_as(McpEvent::LATENCY_MS.min(), "min_latency_ms")
        .expr_as(McpEvent::LATENCY_MS.max(), "max_latency_ms")
        .expr_as(McpEvent::LATENCY_MS.sum(), "total_latency_ms")
        .filter(McpEvent::EVENT_TS.ge(start))
        .filter(McpEvent::EVENT_TS.lt(start + chrono::Duration::days(1)))
        .group_by(McpEvent::TOOL_NAME)
        .group_by(McpEvent::STATUS)
        .order_by(McpEvent::TOOL_NAME, Order::Asc);
    insta::assert_snapshot!("daily_aggregates", both(|d| q.clone().build_for(d)));
}

#[test]
fn join_on_typed_keys() {
    let same = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::USER_ID)
        .join(JoinKind::Inner, McpEvent::USER_ID, McpUser::USER_ID)
        .joined_column(McpUser::PLAN)
        .filter(McpEvent::EVENT_TS.ge(current_timestamp() - days(7)));
    let other = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .join(JoinKind::Left, McpEvent::USER_ID, McpUser::ID)
        .joined_column(McpUser::PLAN)
        .limit(100);
    insta::assert_snapshot!(
        "joins",
        format!(
            "{}\n\n{}",
            both(|d| same.clone().build_for(d)),
            both(|d| other.clone().build_for(d))
        )
    );
}

#[test]
fn metadata_rows_decode_from_result_cells() {
    let cols: Vec<String> = [
        "committed_at",
        "snapshot_id",
        "parent_id",
        "operation",
        "manifest_list",
        "summary",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let cells = vec![
        Some("2026-09-15 10:00:00.123 UTC".to_string()),
        Some("5789234567890123456".to_string()),
        None,
        Some("append".to_string()),
        Some("s3://x/metadata/snap.avro".to_string()),
        Some(r#"{"added-records":"3"}"#.to_string()),
    ];
    let r = SnapshotRow::from_row(&Row::untyped(cols.clone(), cells.clone())).unwrap();
    assert_eq!(r.snapshot_id, 5789234567890123456);
    assert_eq!(r.parent_id, None);
    assert_eq!(r.operation.as_deref(), Some("append"));
    assert_eq!(r.summary.unwrap()["added-records"], "3");
    assert_eq!(
        r.committed_at,
        chrono::Utc.with_ymd_and_hms(2026, 9, 15, 10, 0, 0).unwrap()
            + chrono::Duration::milliseconds(123)
    );

    let cols: Vec<String> = [
        "made_current_at",
        "snapshot_id",
        "parent_id",
        "is_current_ancestor",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let cells = vec![
        Some("2026-09-15 10:00:00.000 UTC".to_string()),
        Some("2".to_string()),
        Some("1".to_string()),
        Some("true".to_string()),
    ];
    let h = HistoryRow::from_row(&Row::untyped(cols.clone(), cells.clone())).unwrap();
    assert_eq!(
        (h.snapshot_id, h.parent_id, h.is_current_ancestor),
        (2, Some(1), true)
    );

    // A NULL in a required column is an error naming the column.
    let cells = vec![None, Some("2".into()), None, Some("true".into())];
    let e = HistoryRow::from_row(&Row::untyped(cols.clone(), cells.clone())).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Decode);
    assert!(e.message().contains("made_current_at"), "{e}");
}

// ---- negative tests -------------------------------------------------------------

#[test]
fn unknown_column_is_refused() {
    const NOPE: Col<McpEvent, i64> = Col::new("nope");
    let e = McpEvent::select().column(NOPE).build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownColumn);
    assert_eq!(e.message(), "`analytics.mcp_events` has no column `nope`");
}

#[test]
fn aggregate_in_where_is_refused() {
    let e = McpEvent::select()
        .filter(McpEvent::LATENCY_MS.max().gt(10))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert!(e.message().contains("aggregate cannot appear in WHERE"));
}

#[test]
fn ungrouped_projection_is_refused() {
    let e = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::STATUS)
        .expr_as(count_all(), "n")
        .group_by(McpEvent::TOOL_NAME)
        .build()
        .unwrap_err();
    assert!(e.message().contains("must be in GROUP BY"), "{e}");
}

/// In a query that aggregates, a column read outside an aggregate must be grouped, in
/// ORDER BY and inside a projected expression alike (Trino: "ORDER BY expression ...
/// must be an aggregate expression or appear in GROUP BY clause"), while an expression
/// of grouped columns is fine; and an aggregate cannot hold another in its argument
/// (Trino: "Cannot nest aggregations inside aggregation") or its FILTER (Spark: "FILTER
/// expression contains aggregate"). Spark 3.5 refuses all three.
#[test]
fn aggregating_queries_read_only_grouped_columns_and_flat_aggregates() {
    let e = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .expr_as(count_all(), "n")
        .group_by(McpEvent::TOOL_NAME)
        .order_by(McpEvent::STATUS, Order::Asc)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert_eq!(
        e.message(),
        "ORDER BY reads column `status`, which is neither aggregated nor in GROUP BY"
    );
    // ORDER BY an aggregate makes the query aggregate.
    let e = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .order_by(count_all(), Order::Desc)
        .build()
        .unwrap_err();
    assert!(e.message().contains("must be in GROUP BY"), "{e}");
    let e = McpEvent::select()
        .expr_as(count_all() + McpEvent::LATENCY_MS, "x")
        .build()
        .unwrap_err();
    assert!(e.message().contains("must be in GROUP BY"), "{e}");
    assert_eq!(
        McpEvent::select()
            .expr_as(McpEvent::LATENCY_MS * 2, "x")
            .expr_as(count_all(), "n")
            .group_by(McpEvent::LATENCY_MS)
            .order_by(McpEvent::LATENCY_MS, Order::Asc)
            .build()
            .unwrap()
            .sql(),
        "SELECT latency_ms * 2 AS x, count(*) AS n FROM analytics.mcp_events \
         GROUP BY latency_ms ORDER BY latency_ms ASC"
    );

    for q in [
        McpEvent::select().expr_as(McpEvent::LATENCY_MS.max().sum(), "n"),
        McpEvent::select().expr_as(count_all().filter(McpEvent::LATENCY_MS.max().gt(3)), "n"),
    ] {
        let e = q.build().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
        assert_eq!(
            e.message(),
            "an aggregate cannot hold another aggregate in its argument or its FILTER"
        );
    }
}

#[test]
fn manifest_rows_name_only_the_columns_every_athena_engine_has() {
    let t = McpEvent::table_def().name().clone();
    for d in [Dialect::Athena, Dialect::Spark] {
        let sql = t.metadata::<ManifestRow>().build_for(d).unwrap();
        // Listed by name (newer Trino releases add columns), without the summaries,
        // which Trino renamed from `partitions` to `partition_summaries`.
        assert!(sql.sql().starts_with("SELECT path, length, "), "{d:?}");
        assert!(!sql.sql().contains("partition_summaries"), "{d:?}");
        assert!(sql.sql().contains("deleted_rows_count FROM"), "{d:?}");
    }
}

#[test]
fn partition_rows_through_the_record_type_check_the_table() {
    // Partitioned: the same statement as through the name.
    let by_name = both(|d| {
        McpEvent::table_def()
            .name()
            .metadata::<PartitionRow>()
            .build_for(d)
    });
    let typed = both(|d| McpEvent::metadata::<PartitionRow>().build_for(d));
    assert_eq!(typed, by_name);
    let other = both(|d| McpEvent::metadata::<SnapshotRow>().build_for(d));
    assert_eq!(
        other,
        both(|d| McpEvent::table_def()
            .name()
            .metadata::<SnapshotRow>()
            .build_for(d))
    );

    // Unpartitioned: `$partitions` has no `partition` column, in Trino and in Spark.
    for d in [Dialect::Athena, Dialect::Spark] {
        let e = McpUser::metadata::<PartitionRow>()
            .build_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnknownColumn);
        assert_eq!(
            e.message(),
            "cannot read whole rows of `analytics.mcp_users$partitions`: `analytics.mcp_users` \
             is unpartitioned, and the `partitions` metadata table of an unpartitioned table \
             has no `partition` column"
        );
        assert!(e
            .hint()
            .unwrap()
            .contains(".column(PartitionRow::RECORD_COUNT)"));
        // Naming it explicitly is refused too.
        let e = McpUser::metadata::<PartitionRow>()
            .column(Col::<PartitionRow, String>::new("partition"))
            .build_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::UnknownColumn);
        assert!(e.message().contains("has no column `partition`"), "{e}");
    }
    // The counts it has.
    let counts = McpUser::metadata::<PartitionRow>()
        .column(PartitionRow::RECORD_COUNT)
        .column(PartitionRow::FILE_COUNT);
    assert_eq!(
        both(|d| counts.clone().build_for(d)),
        "-- athena\nSELECT record_count, file_count FROM \"analytics\".\"mcp_users$partitions\"\n\n\
         -- spark\nSELECT record_count, file_count FROM analytics.mcp_users.partitions"
    );
}

#[test]
fn a_metadata_column_the_target_names_differently_is_renamed_where_projected() {
    // Spark's `partitions` table calls it `total_data_file_size_in_bytes`.
    let sizes = McpEvent::metadata::<PartitionRow>()
        .column(PartitionRow::RECORD_COUNT)
        .column(PartitionRow::TOTAL_SIZE);
    assert_eq!(
        both(|d| sizes.clone().build_for(d)),
        "-- athena\nSELECT record_count, total_size FROM \"analytics\".\"mcp_events$partitions\"\n\n\
         -- spark\nSELECT record_count, total_data_file_size_in_bytes AS total_size FROM analytics.mcp_events.partitions"
    );
    // Filtering or sorting on it would name a column Spark's table lacks: refused there,
    // written as is for Athena.
    let filtered = sizes
        .clone()
        .filter(PartitionRow::TOTAL_SIZE.gt(1_000_000i64));
    let athena = filtered.clone().build_for(Dialect::Athena).unwrap();
    assert!(
        athena.sql().ends_with("WHERE total_size > 1000000"),
        "{athena}"
    );
    let e = filtered.build_for(Dialect::Spark).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(
        e.message(),
        "Spark's `partitions` metadata table has no `total_size` column (this crate reads it \
         as `total_data_file_size_in_bytes` there), so `total_size` can only be projected as \
         a plain column, not used in a filter, grouping, ordering or expression"
    );
    let e = sizes
        .order_by(PartitionRow::TOTAL_SIZE, Order::Desc)
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

#[test]
fn time_travel_on_a_metadata_table_is_refused() {
    let t = McpEvent::table_def().name().clone();
    let e = t
        .metadata::<SnapshotRow>()
        .as_of(Snapshot::Version(1))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

#[test]
fn ambiguous_join_column_is_refused() {
    // Both tables have `user_id`; joining on other keys leaves it ambiguous.
    let e = McpEvent::select()
        .column(McpEvent::USER_ID)
        .join(JoinKind::Inner, McpEvent::EVENT_ID, McpUser::ID)
        .build()
        .unwrap_err();
    assert!(e.message().contains("ambiguous"), "{e}");
}

#[test]
fn bad_alias_is_refused() {
    let e = McpEvent::select()
        .expr_as(count_all(), "Count")
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
}

/// A LIMIT row count the target's parser cannot read is refused before it runs: Trino
/// (Athena) reads it as a 64-bit integer, Spark as a 32-bit one.
#[test]
fn limit_beyond_what_the_target_reads_is_refused() {
    let q = |n: u64| McpEvent::select().column(McpEvent::EVENT_ID).limit(n);
    let max_long = i64::MAX as u64;
    for d in [Dialect::Athena, Dialect::Trino, Dialect::AthenaS3Tables] {
        assert_eq!(
            q(max_long).build_for(d).unwrap().sql(),
            "SELECT event_id FROM analytics.mcp_events LIMIT 9223372036854775807"
        );
        let e = q(max_long + 1).build_for(d).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert_eq!(
            e.message(),
            format!(
                "LIMIT 9223372036854775808 is more than {} reads: the row count is at most 9223372036854775807 (a 64-bit integer)",
                d.name()
            )
        );
        assert!(e.to_string().contains("help: "), "{e}");
    }
    assert_eq!(
        q(i32::MAX as u64).build_for(Dialect::Spark).unwrap().sql(),
        "SELECT event_id FROM analytics.mcp_events LIMIT 2147483647"
    );
    let e = q(i32::MAX as u64 + 1)
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(
        e.message(),
        "LIMIT 2147483648 is more than Spark reads: the row count is at most 2147483647 (a 32-bit integer)"
    );
    // Every statement that writes a query checks it: a view, a CTAS.
    let view = TableName::new("analytics", "v")
        .create_view(&q(u64::MAX))
        .build()
        .unwrap_err();
    assert_eq!(view.kind(), ErrorKind::InvalidValue);
}

/// A percentage is written as a decimal literal while it has at most 38 digits (a
/// DECIMAL's most, in Trino and Spark); a smaller one as a double literal, which parses
/// back to the same f64 (it was a decimal literal of up to 330 digits, which fails).
#[test]
fn tiny_percentiles_are_written_as_double_literals() {
    let sql = |p: f64| {
        McpEvent::select()
            .expr_as(McpEvent::LATENCY_MS.approx_percentile(p), "p")
            .build()
            .unwrap()
            .sql()
            .to_string()
    };
    assert_eq!(
        sql(0.95),
        "SELECT approx_percentile(latency_ms, 0.95) AS p FROM analytics.mcp_events"
    );
    assert!(sql(1e-38)
        .contains("approx_percentile(latency_ms, 0.00000000000000000000000000000000000001)"));
    assert!(sql(1e-39).contains("approx_percentile(latency_ms, 1E-39) AS p"));
    assert!(sql(5e-324).contains("approx_percentile(latency_ms, 5E-324) AS p"));
    assert!(sql(1.2345e-40).contains("approx_percentile(latency_ms, 1.2345E-40) AS p"));
    assert_eq!("1.2345E-40".parse::<f64>(), Ok(1.2345e-40));
}

#[test]
fn percentile_out_of_range_is_refused() {
    let e = McpEvent::select()
        .expr_as(McpEvent::LATENCY_MS.approx_percentile(1.5), "p")
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
}

fn row_of(pairs: &[(&str, Option<&str>)]) -> (Vec<String>, Vec<Option<String>>) {
    (
        pairs.iter().map(|(c, _)| c.to_string()).collect(),
        pairs.iter().map(|(_, v)| v.map(str::to_string)).collect(),
    )
}

#[test]
fn every_metadata_row_type_decodes() {
    let (c, v) = row_of(&[
        ("content", Some("1")),
        ("file_path", Some("s3://b/t/data/x.parquet")),
        ("file_format", Some("PARQUET")),
        ("record_count", Some("10")),
        ("file_size_in_bytes", Some("2048")),
        ("column_sizes", Some(r#"{"1":100,"2":200}"#)),
        ("value_counts", None),
        ("null_value_counts", Some("{}")),
        ("nan_value_counts", None),
        ("lower_bounds", Some(r#"{"1":"a"}"#)),
        ("upper_bounds", None),
        ("split_offsets", Some("[4]")),
        ("equality_ids", None),
    ]);
    let f = FileRow::from_row(&Row::untyped(c.clone(), v.clone())).unwrap();
    assert_eq!(f.content, 1);
    assert_eq!(f.column_sizes.unwrap()[&2], 200);
    assert_eq!(f.lower_bounds.unwrap()[&1], "a");
    assert_eq!(f.split_offsets, Some(vec![4]));

    let (c, v) = row_of(&[
        ("path", Some("s3://b/t/metadata/m.avro")),
        ("length", Some("7000")),
        ("partition_spec_id", Some("0")),
        ("added_snapshot_id", Some("42")),
        ("added_data_files_count", Some("1")),
        ("added_rows_count", None),
        ("existing_data_files_count", Some("0")),
        ("existing_rows_count", None),
        ("deleted_data_files_count", Some("0")),
        ("deleted_rows_count", None),
    ]);
    let m = ManifestRow::from_row(&Row::untyped(c.clone(), v.clone())).unwrap();
    assert_eq!(
        (m.length, m.added_snapshot_id, m.added_rows_count),
        (7000, Some(42), None)
    );

    let (c, v) = row_of(&[
        ("partition", Some(r#"{"dt":"2026-09-01"}"#)),
        ("record_count", Some("3")),
        ("file_count", Some("1")),
        ("total_size", Some("900")),
    ]);
    let p = PartitionRow::from_row(&Row::untyped(c.clone(), v.clone())).unwrap();
    assert_eq!(p.partition, r#"{"dt":"2026-09-01"}"#);
    assert_eq!(p.total_size, Some(900));

    let (c, v) = row_of(&[
        ("name", Some("main")),
        ("type", Some("BRANCH")),
        ("snapshot_id", Some("42")),
        ("max_reference_age_in_ms", None),
        ("min_snapshots_to_keep", None),
        ("max_snapshot_age_in_ms", None),
    ]);
    let r = RefRow::from_row(&Row::untyped(c.clone(), v.clone())).unwrap();
    assert_eq!(
        (r.name.as_str(), r.r#type.as_str(), r.snapshot_id),
        ("main", "BRANCH", 42)
    );
}

/// The query of the Athena guide's metadata-table page
/// (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-table-metadata.html>):
/// `summary` is a `map(varchar, varchar)`, projected as JSON text so that it decodes.
#[test]
fn the_snapshot_summary_can_be_projected_and_decoded() {
    #[derive(FromRow, Debug)]
    struct Recent {
        snapshot_id: i64,
        committed_at: chrono::DateTime<chrono::Utc>,
        operation: Option<String>,
        summary: Option<std::collections::BTreeMap<String, String>>,
    }
    let q = TableName::new("analytics", "mcp_events")
        .metadata::<SnapshotRow>()
        .column(SnapshotRow::SNAPSHOT_ID)
        .column(SnapshotRow::COMMITTED_AT)
        .column(SnapshotRow::OPERATION)
        .column(SnapshotRow::SUMMARY)
        .order_by(SnapshotRow::COMMITTED_AT, Order::Desc)
        .limit(10);
    assert_eq!(
        q.build().unwrap().sql(),
        "SELECT snapshot_id, committed_at, operation, CAST(summary AS JSON) AS summary \
         FROM \"analytics\".\"mcp_events$snapshots\" ORDER BY committed_at DESC LIMIT 10"
    );
    assert_eq!(
        q.build_for(Dialect::Spark).unwrap().sql(),
        "SELECT snapshot_id, committed_at, operation, to_json(summary) AS summary \
         FROM analytics.mcp_events.snapshots ORDER BY committed_at DESC LIMIT 10"
    );
    let cols: Vec<String> = ["snapshot_id", "committed_at", "operation", "summary"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let cells = vec![
        Some("5789234567890123456".to_string()),
        Some("2026-09-15 10:00:00.000 UTC".to_string()),
        Some("append".to_string()),
        Some(r#"{"added-records":"3","total-records":"10"}"#.to_string()),
    ];
    let r = Recent::from_row(&Row::untyped(cols, cells)).unwrap();
    assert_eq!(
        (r.snapshot_id, r.operation.as_deref()),
        (5789234567890123456, Some("append"))
    );
    assert_eq!(r.committed_at, at(10));
    let summary = r.summary.unwrap();
    assert_eq!(
        (
            summary["added-records"].as_str(),
            summary["total-records"].as_str()
        ),
        ("3", "10")
    );
}

/// HAVING filters groups on aggregates and grouped columns; DISTINCT and OFFSET. Trino
/// writes `OFFSET n LIMIT m`, Spark `LIMIT m OFFSET n`.
#[test]
fn having_distinct_and_offset() {
    let q = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .expr_as(count_all(), "n")
        .group_by(McpEvent::TOOL_NAME)
        .having(count_all().gt(1))
        .having(McpEvent::TOOL_NAME.ne("ping"))
        .order_by(McpEvent::TOOL_NAME, Order::Asc)
        .offset(1)
        .limit(2);
    assert_eq!(
        q.build().unwrap().sql(),
        "SELECT tool_name, count(*) AS n FROM analytics.mcp_events GROUP BY tool_name \
         HAVING count(*) > 1 AND tool_name <> 'ping' ORDER BY tool_name ASC OFFSET 1 LIMIT 2"
    );
    assert_eq!(
        q.build_for(Dialect::Spark).unwrap().sql(),
        "SELECT tool_name, count(*) AS n FROM analytics.mcp_events GROUP BY tool_name \
         HAVING count(*) > 1 AND tool_name <> 'ping' ORDER BY tool_name ASC NULLS LAST LIMIT 2 OFFSET 1"
    );
    let q = McpEvent::select()
        .distinct()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::STATUS)
        .offset(3);
    assert_eq!(
        q.build().unwrap().sql(),
        "SELECT DISTINCT tool_name, status FROM analytics.mcp_events OFFSET 3"
    );
    assert_eq!(
        q.build_for(Dialect::Spark).unwrap().sql(),
        "SELECT DISTINCT tool_name, status FROM analytics.mcp_events OFFSET 3"
    );
}

#[test]
fn having_reads_only_grouped_columns_and_booleans() {
    let e = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .group_by(McpEvent::TOOL_NAME)
        .having(McpEvent::LATENCY_MS.gt(10))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert_eq!(
        e.message(),
        "HAVING reads column `latency_ms`, which is neither aggregated nor in GROUP BY"
    );
    let e = McpEvent::select()
        .expr_as(count_all(), "n")
        .having(McpEvent::LATENCY_MS.max().sum().gt(1))
        .build()
        .unwrap_err();
    assert_eq!(
        e.message(),
        "an aggregate cannot hold another aggregate in its argument or its FILTER"
    );
    // HAVING alone makes the query aggregate: a bare projected column must be grouped.
    let e = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .having(count_all().gt(1))
        .build()
        .unwrap_err();
    assert!(e.message().contains("must be in GROUP BY"), "{e}");
}

/// The string functions, typed by Trino's signatures, the same text on both targets.
#[test]
fn string_functions() {
    let q = McpEvent::select()
        .expr_as(McpEvent::TOOL_NAME.upper(), "tool")
        .expr_as(McpEvent::USER_ID.trim().lower().length(), "user_len")
        .expr_as(
            McpEvent::TOOL_NAME
                .substr(1, 4)
                .concat(":")
                .concat(McpEvent::PAYLOAD),
            "label",
        )
        .expr_as(McpEvent::STATUS.replace("success", "ok"), "status")
        .filter(McpEvent::SESSION_ID.regexp_like("^s-[0-9]+$"));
    let athena = q.build().unwrap();
    assert_eq!(
        athena.sql(),
        "SELECT upper(tool_name) AS tool, length(lower(trim(user_id))) AS user_len, \
         concat(substr(tool_name, 1, 4), ':', payload) AS label, \
         replace(status, 'success', 'ok') AS status FROM analytics.mcp_events \
         WHERE regexp_like(session_id, '^s-[0-9]+$')"
    );
    assert_eq!(q.build_for(Dialect::Spark).unwrap().sql(), athena.sql());
}

/// Window functions: ranking, lag/lead and an aggregate over a window; an aggregate
/// over a window does not make the query aggregate. Spark gets Trino's NULL order.
#[test]
fn window_functions() {
    use iceberg_sql::dsl::{dense_rank, rank, row_number};
    use iceberg_sql::expr::Window;
    let by_user = || {
        Window::new()
            .partition_by(McpEvent::USER_ID)
            .order_by_desc(McpEvent::EVENT_TS)
    };
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .expr_as(row_number().over(by_user()), "rn")
        .expr_as(
            rank().over(Window::new().order_by(McpEvent::LATENCY_MS)),
            "r",
        )
        .expr_as(dense_rank().over(Window::new()), "dr")
        .expr_as(McpEvent::LATENCY_MS.lag(1).over(by_user()), "prev_ms")
        .expr_as(McpEvent::LATENCY_MS.lead(2).over(by_user()), "next_ms")
        .expr_as(
            McpEvent::LATENCY_MS
                .sum()
                .over(Window::new().partition_by(McpEvent::USER_ID)),
            "user_ms",
        );
    assert_eq!(
        q.build().unwrap().sql(),
        "SELECT event_id, row_number() OVER (PARTITION BY user_id ORDER BY event_ts DESC) AS rn, \
         rank() OVER (ORDER BY latency_ms ASC) AS r, dense_rank() OVER () AS dr, \
         lag(latency_ms, 1) OVER (PARTITION BY user_id ORDER BY event_ts DESC) AS prev_ms, \
         lead(latency_ms, 2) OVER (PARTITION BY user_id ORDER BY event_ts DESC) AS next_ms, \
         sum(latency_ms) OVER (PARTITION BY user_id) AS user_ms FROM analytics.mcp_events"
    );
    assert_eq!(
        q.build_for(Dialect::Spark).unwrap().sql(),
        "SELECT event_id, row_number() OVER (PARTITION BY user_id ORDER BY event_ts DESC) AS rn, \
         rank() OVER (ORDER BY latency_ms ASC NULLS LAST) AS r, dense_rank() OVER () AS dr, \
         lag(latency_ms, 1) OVER (PARTITION BY user_id ORDER BY event_ts DESC) AS prev_ms, \
         lead(latency_ms, 2) OVER (PARTITION BY user_id ORDER BY event_ts DESC) AS next_ms, \
         sum(latency_ms) OVER (PARTITION BY user_id) AS user_ms FROM analytics.mcp_events"
    );

    // Not in WHERE, GROUP BY or HAVING (Trino refuses all three).
    let e = McpEvent::select()
        .filter(row_number().over(by_user()).eq(1i64))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert_eq!(e.message(), "WHERE cannot contain window functions");
    let e = McpEvent::select()
        .expr_as(count_all(), "n")
        .group_by(rank().over(by_user()))
        .build()
        .unwrap_err();
    assert!(
        e.message()
            .contains("GROUP BY cannot contain window functions"),
        "{e}"
    );
    // OVER on something that is neither a window function nor an aggregate.
    let e = McpEvent::select()
        .expr_as(McpEvent::LATENCY_MS.sql_expr().over(by_user()), "x")
        .build()
        .unwrap_err();
    assert_eq!(
        e.message(),
        "OVER (...) applies to a window function or an aggregate, not to this expression"
    );
}

// The fields are the CTE's declared columns; the rows are not decoded here.
#[allow(dead_code)]
#[derive(FromRow)]
struct PerTool {
    tool_name: String,
    n: i64,
}

impl PerTool {
    const TOOL_NAME: Col<PerTool, String> = Col::new("tool_name");
    const N: Col<PerTool, i64> = Col::new("n");
}

fn per_tool() -> Cte<PerTool> {
    Cte::new(
        "per_tool",
        McpEvent::select()
            .column(McpEvent::TOOL_NAME)
            .expr_as(count_all(), "n")
            .group_by(McpEvent::TOOL_NAME),
    )
}

/// WITH: a named query read through its row type's typed columns, a CTE over a CTE
/// (one WITH, each CTE once), the same text on both targets.
#[test]
fn ctes_are_typed_by_their_row_type() {
    let q = per_tool()
        .select()
        .column(PerTool::TOOL_NAME)
        .expr_as(PerTool::N * 2, "twice")
        .filter(PerTool::N.gt(1))
        .order_by(PerTool::N, Order::Desc)
        .limit(3);
    let want = "WITH per_tool AS (SELECT tool_name, count(*) AS n FROM analytics.mcp_events \
                GROUP BY tool_name) SELECT tool_name, n * 2 AS twice FROM per_tool WHERE n > 1 \
                ORDER BY n DESC LIMIT 3";
    assert_eq!(q.build().unwrap().sql(), want);
    assert_eq!(q.build_for(Dialect::Spark).unwrap().sql(), want);

    // The fields are the CTE's declared columns; the rows are not decoded here.
    #[allow(dead_code)]
    #[derive(FromRow)]
    struct Busiest {
        tool_name: String,
    }
    const BUSIEST: Col<Busiest, String> = Col::new("tool_name");
    let cte = per_tool();
    let busiest = Cte::<Busiest>::new(
        "busiest",
        cte.select()
            .column(PerTool::TOOL_NAME)
            .order_by(PerTool::N, Order::Desc)
            .limit(1),
    );
    // The outer query reads both: `per_tool` is written once, before `busiest`.
    let q = busiest
        .select()
        .column(BUSIEST)
        .union_all(cte.select().column(PerTool::TOOL_NAME));
    assert_eq!(
        q.build().unwrap().sql(),
        "WITH per_tool AS (SELECT tool_name, count(*) AS n FROM analytics.mcp_events GROUP BY tool_name), \
         busiest AS (SELECT tool_name FROM per_tool ORDER BY n DESC LIMIT 1) \
         SELECT tool_name FROM busiest UNION ALL SELECT tool_name FROM per_tool"
    );
}

#[test]
fn cte_columns_are_checked_against_the_query() {
    // A column the query does not have.
    // The fields are the CTE's declared columns; the rows are not decoded here.
    #[allow(dead_code)]
    #[derive(FromRow)]
    struct Missing {
        calls: i64,
    }
    let e = Cte::<Missing>::new("m", McpEvent::select().expr_as(count_all(), "n"))
        .select()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownColumn);
    assert_eq!(
        e.message(),
        "CTE `m` has no column `calls` (its columns: n)"
    );
    // A column of another type than the row type reads (Athena's types).
    // The fields are the CTE's declared columns; the rows are not decoded here.
    #[allow(dead_code)]
    #[derive(FromRow)]
    struct Narrow {
        n: i32,
    }
    let narrow = Cte::<Narrow>::new("m", McpEvent::select().expr_as(count_all(), "n"));
    let e = narrow.select().build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TypeMismatch);
    assert_eq!(
        e.message(),
        "column `n` of CTE `m` is bigint, but `Narrow` reads it as integer"
    );
    // Rows read by position name no columns.
    let e = Cte::<(String, i64)>::new("m", McpEvent::select())
        .select()
        .build()
        .unwrap_err();
    assert!(e.message().contains("reads rows by position"), "{e}");
    // Two different CTEs of one name.
    // The fields are the CTE's declared columns; the rows are not decoded here.
    #[allow(dead_code)]
    #[derive(FromRow)]
    struct Other {
        n: i64,
    }
    let other = Cte::<Other>::new("per_tool", McpEvent::select().expr_as(count_all(), "n"));
    let e = other
        .select()
        .union_all(per_tool().select().column(PerTool::N))
        .build()
        .unwrap_err();
    assert_eq!(e.message(), "two different CTEs are named `per_tool`");
    // A CTE's name is checked like a table's; time travel is for tables.
    assert!(
        Cte::<Other>::new("Bad", McpEvent::select().expr_as(count_all(), "n"))
            .select()
            .build()
            .is_err()
    );
    let e = per_tool()
        .select()
        .as_of(Snapshot::Version(1))
        .build()
        .unwrap_err();
    assert_eq!(
        e.message(),
        "time travel applies to a table, not to CTE `per_tool`"
    );
}

/// UNION ALL: as many columns, Trino's common super types on Athena, no ORDER BY or
/// LIMIT on a member (order the union through a CTE).
#[test]
fn union_all_follows_trinos_rules() {
    let q = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::LATENCY_MS)
        .filter(McpEvent::STATUS.eq("error"))
        .union_all(
            McpEvent::select()
                .column(McpEvent::USER_ID)
                .column(McpEvent::RETRY_COUNT),
        );
    let want = "SELECT tool_name, latency_ms FROM analytics.mcp_events WHERE status = 'error' \
                UNION ALL SELECT user_id, retry_count FROM analytics.mcp_events";
    assert_eq!(q.build().unwrap().sql(), want);
    assert_eq!(q.build_for(Dialect::Spark).unwrap().sql(), want);

    // bigint and integer make a bigint, which the CTE's row type reads as i64.
    // The fields are the CTE's declared columns; the rows are not decoded here.
    #[allow(dead_code)]
    #[derive(FromRow)]
    struct Named {
        tool_name: String,
        latency_ms: i64,
    }
    const MS: Col<Named, i64> = Col::new("latency_ms");
    let all = Cte::<Named>::new("all_rows", q);
    let ordered = all.select().column(MS).order_by(MS, Order::Desc).limit(5);
    assert_eq!(
        ordered.build().unwrap().sql(),
        format!("WITH all_rows AS ({want}) SELECT latency_ms FROM all_rows ORDER BY latency_ms DESC LIMIT 5")
    );

    let e = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .union_all(
            McpEvent::select()
                .column(McpEvent::TOOL_NAME)
                .column(McpEvent::STATUS),
        )
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(
        e.message(),
        "UNION query has different number of fields: 1, 2"
    );

    let mixed = McpEvent::select()
        .column(McpEvent::LATENCY_MS)
        .union_all(McpEvent::select().column(McpEvent::TOOL_NAME));
    let e = mixed.build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TypeMismatch);
    assert_eq!(
        e.message(),
        "column 1 in UNION query has incompatible types: bigint, varchar"
    );
    // Spark widens under its own rules.
    assert_eq!(
        mixed.build_for(Dialect::Spark).unwrap().sql(),
        "SELECT latency_ms FROM analytics.mcp_events UNION ALL SELECT tool_name FROM analytics.mcp_events"
    );

    let e = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .limit(1)
        .union_all(McpEvent::select().column(McpEvent::TOOL_NAME))
        .build()
        .unwrap_err();
    assert_eq!(
        e.message(),
        "query 1 of a UNION ALL has its own LIMIT, which written there would apply to the whole union"
    );
}

/// `raw::<T>`: written as it is (in parentheses where an operator binds tighter), its
/// columns checked against the table, its aggregates counted, its text one expression.
#[test]
fn raw_expressions_are_read_by_our_parser() {
    use iceberg_sql::dsl::raw;
    let q = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .expr_as(raw::<f64>("stddev_samp(latency_ms)"), "sd")
        .expr_as(raw::<i64>("count_if(status = 'error')"), "errors")
        .group_by(McpEvent::TOOL_NAME)
        .filter(raw::<bool>("strpos(user_id, 'u-') = 1"))
        .filter(McpEvent::LATENCY_MS.gt(raw::<i64>("abs(retry_count) * 100")))
        .order_by(raw::<i64>("count_if(status = 'error')"), Order::Desc);
    assert_eq!(
        q.build().unwrap().sql(),
        "SELECT tool_name, stddev_samp(latency_ms) AS sd, count_if(status = 'error') AS errors \
         FROM analytics.mcp_events WHERE (strpos(user_id, 'u-') = 1) AND latency_ms > \
         (abs(retry_count) * 100) GROUP BY tool_name ORDER BY count_if(status = 'error') DESC"
    );
    assert_eq!(
        q.build_for(Dialect::Spark).unwrap().sql(),
        "SELECT tool_name, stddev_samp(latency_ms) AS sd, count_if(status = 'error') AS errors \
         FROM analytics.mcp_events WHERE (strpos(user_id, 'u-') = 1) AND latency_ms > \
         (abs(retry_count) * 100) GROUP BY tool_name ORDER BY count_if(status = 'error') DESC"
    );

    let refusal = |text: &str| {
        McpEvent::select()
            .expr_as(raw::<i64>(text), "x")
            .build()
            .unwrap_err()
    };
    assert_eq!(
        refusal("length(tool)").message(),
        "`analytics.mcp_events` has no column `tool`"
    );
    for (text, why) in [
        (
            "1; DROP TABLE analytics.mcp_events",
            "it holds a `;` (a statement separator)",
        ),
        ("1 -- x", "it holds a comment"),
        ("1 /* x */ + 2", "it holds a comment"),
        ("latency_ms + ?", "it holds a parameter placeholder"),
        (
            "(SELECT max(latency_ms) FROM analytics.mcp_events)",
            "it holds a subquery",
        ),
        (
            "mcp_events.latency_ms",
            "it reads the qualified name `mcp_events.latency_ms`",
        ),
    ] {
        let e = refusal(text);
        assert_eq!(e.kind(), ErrorKind::DisallowedSyntax, "{text}");
        assert_eq!(e.message(), format!("raw expression `{text}`: {why}"));
    }
    let e = refusal("1) OR (1 = 1");
    assert!(
        e.message()
            .starts_with("raw expression `1) OR (1 = 1` is not one expression"),
        "{e}"
    );
    // A string literal may hold a `;`; a lambda's parameter is no column.
    let ok = McpEvent::select()
        .expr_as(raw::<String>("concat(tool_name, ';')"), "a")
        .expr_as(
            raw::<i64>("cardinality(filter(ARRAY[1, 2], x -> x > 1))"),
            "b",
        )
        .build()
        .unwrap();
    assert_eq!(
        ok.sql(),
        "SELECT concat(tool_name, ';') AS a, cardinality(filter(ARRAY[1, 2], x -> x > 1)) AS b \
         FROM analytics.mcp_events"
    );
    // An aggregate in the text makes the query aggregate: a bare column must be grouped.
    let e = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .expr_as(raw::<i64>("max(latency_ms)"), "m")
        .build()
        .unwrap_err();
    assert!(e.message().contains("must be in GROUP BY"), "{e}");
    // A column outside the aggregate in the text must be grouped too.
    let e = McpEvent::select()
        .expr_as(raw::<i64>("max(latency_ms) + retry_count"), "m")
        .group_by(McpEvent::TOOL_NAME)
        .build()
        .unwrap_err();
    assert!(e.message().contains("must be in GROUP BY"), "{e}");
    // A window in the text is refused in WHERE.
    let e = McpEvent::select()
        .filter(raw::<bool>("row_number() OVER (ORDER BY latency_ms) = 1"))
        .build()
        .unwrap_err();
    assert_eq!(e.message(), "WHERE cannot contain window functions");
    // A double-quoted name is a column in Trino's grammar, a string in Spark's.
    let q = McpEvent::select().expr_as(raw::<String>("upper(\"status\")"), "s");
    assert_eq!(
        q.build().unwrap().sql(),
        "SELECT upper(\"status\") AS s FROM analytics.mcp_events"
    );
    let e = q.build_for(Dialect::Spark).unwrap_err();
    assert_eq!(
        e.message(),
        "raw expression `upper(\"status\")` reads other columns in Spark SQL than in Trino's grammar"
    );
}

/// Window frames: written on both targets, Trino's rules for their ends, only on
/// aggregates, a RANGE offset over one numeric sort key.
#[test]
fn window_frames() {
    use iceberg_sql::dsl::row_number;
    use iceberg_sql::expr::{FrameBound as B, Window};
    let by_ts = || {
        Window::new()
            .partition_by(McpEvent::USER_ID)
            .order_by(McpEvent::EVENT_TS)
    };
    let q = McpEvent::select()
        .expr_as(
            McpEvent::LATENCY_MS
                .sum()
                .over(by_ts().rows_between(B::UnboundedPreceding, B::CurrentRow)),
            "running_ms",
        )
        .expr_as(
            McpEvent::LATENCY_MS
                .avg()
                .over(by_ts().rows_between(B::Preceding(2), B::Following(1))),
            "smooth_ms",
        )
        .expr_as(
            McpEvent::LATENCY_MS.count().over(
                Window::new()
                    .order_by(McpEvent::LATENCY_MS)
                    .range_between(B::Preceding(50), B::CurrentRow),
            ),
            "near",
        )
        .expr_as(
            McpEvent::LATENCY_MS
                .max()
                .over(Window::new().rows_between(B::CurrentRow, B::UnboundedFollowing)),
            "rest_max",
        );
    assert_eq!(
        q.build().unwrap().sql(),
        "SELECT sum(latency_ms) OVER (PARTITION BY user_id ORDER BY event_ts ASC \
         ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_ms, \
         avg(latency_ms) OVER (PARTITION BY user_id ORDER BY event_ts ASC \
         ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS smooth_ms, \
         count(latency_ms) OVER (ORDER BY latency_ms ASC RANGE BETWEEN 50 PRECEDING AND CURRENT ROW) AS near, \
         max(latency_ms) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest_max \
         FROM analytics.mcp_events"
    );
    assert_eq!(
        q.build_for(Dialect::Spark).unwrap().sql(),
        "SELECT sum(latency_ms) OVER (PARTITION BY user_id ORDER BY event_ts ASC NULLS LAST \
         ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_ms, \
         avg(latency_ms) OVER (PARTITION BY user_id ORDER BY event_ts ASC NULLS LAST \
         ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS smooth_ms, \
         count(latency_ms) OVER (ORDER BY latency_ms ASC NULLS LAST RANGE BETWEEN 50 PRECEDING AND CURRENT ROW) AS near, \
         max(latency_ms) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest_max \
         FROM analytics.mcp_events"
    );

    let refused = |w: Window<McpEvent>| {
        McpEvent::select()
            .expr_as(McpEvent::LATENCY_MS.sum().over(w), "x")
            .build()
            .unwrap_err()
            .message()
            .to_string()
    };
    for (start, end, message) in [
        (
            B::UnboundedFollowing,
            B::UnboundedFollowing,
            "Window frame start cannot be UNBOUNDED FOLLOWING",
        ),
        (
            B::UnboundedPreceding,
            B::UnboundedPreceding,
            "Window frame end cannot be UNBOUNDED PRECEDING",
        ),
        (
            B::CurrentRow,
            B::Preceding(1),
            "Window frame starting from CURRENT ROW cannot end with PRECEDING",
        ),
        (
            B::Following(1),
            B::Preceding(1),
            "Window frame starting from FOLLOWING cannot end with PRECEDING",
        ),
        (
            B::Following(1),
            B::CurrentRow,
            "Window frame starting from FOLLOWING cannot end with CURRENT ROW",
        ),
    ] {
        assert_eq!(refused(by_ts().rows_between(start, end)), message);
    }
    assert_eq!(
        refused(
            by_ts()
                .order_by(McpEvent::LATENCY_MS)
                .range_between(B::Preceding(1), B::CurrentRow)
        ),
        "Window frame of type RANGE PRECEDING or FOLLOWING requires single sort item in ORDER BY (actual: 2)"
    );
    // Athena: a numeric offset needs a numeric key; Spark leaves it to the engine.
    let ts_range = McpEvent::select().expr_as(
        McpEvent::LATENCY_MS.sum().over(
            Window::new()
                .order_by(McpEvent::EVENT_TS)
                .range_between(B::Preceding(1), B::CurrentRow),
        ),
        "x",
    );
    assert_eq!(
        ts_range.build().unwrap_err().message(),
        "Window frame RANGE value type (bigint) not compatible with sort item type (timestamp(6))"
    );
    // RANGE without offsets takes any sort key.
    assert!(McpEvent::select()
        .expr_as(
            McpEvent::LATENCY_MS.sum().over(
                Window::new()
                    .order_by(McpEvent::EVENT_TS)
                    .range_between(B::UnboundedPreceding, B::CurrentRow),
            ),
            "x",
        )
        .build()
        .is_ok());
    let e = McpEvent::select()
        .expr_as(
            row_number().over(by_ts().rows_between(B::UnboundedPreceding, B::CurrentRow)),
            "rn",
        )
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert!(
        e.message()
            .starts_with("a window frame applies to an aggregate"),
        "{e}"
    );
}
