//! Hand-written statements for an `mcp_events` table that Athena rejects (Delta Lake's
//! `VACUUM … RETAIN`, `OPTIMIZE … WHERE` on a hidden partition's source, `timestamptz` in
//! DDL, …): the corrected form of each, and each invalid form refused with an error that
//! says what Athena accepts instead.

#[path = "query_common/mod.rs"]
mod common;

use chrono::TimeZone;
use common::*;
use iceberg_sql::ctas::IcebergCtas;
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::source;
use iceberg_sql::evolve::{evolve, EvolveOptions};
use iceberg_sql::maintenance::VacuumRetention;
use iceberg_sql::prelude::*;
use iceberg_sql::query::Snapshot;

fn t() -> &'static TableDef {
    McpEvent::table_def()
}

/// (1) `VACUUM analytics.mcp_events RETAIN 7 DAYS`: INVALID.
#[test]
fn e1_vacuum_retain_is_refused_and_corrected() {
    let e = t().vacuum().retain_days(7).build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.message().contains("no RETAIN clause"), "{e}");
    assert!(e.message().contains("vacuum_* properties"), "{e}");
    assert!(
        e.hint()
            .unwrap()
            .contains("'vacuum_max_snapshot_age_seconds'='604800'"),
        "{e}"
    );
    let steps = t()
        .vacuum()
        .retention(VacuumRetention::days(7).min_snapshots_to_keep(1))
        .build_steps()
        .unwrap();
    let sql: Vec<&str> = steps.iter().map(|s| s.sql()).collect();
    assert_eq!(
        sql,
        [
            "ALTER TABLE analytics.mcp_events SET TBLPROPERTIES ('vacuum_min_snapshots_to_keep'='1', 'vacuum_max_snapshot_age_seconds'='604800')",
            "VACUUM analytics.mcp_events",
        ]
    );
    assert_eq!(steps[0].kind(), StatementKind::AlterTable);
    assert_eq!(steps[1].kind(), StatementKind::Vacuum);
}

/// (2) `ALTER TABLE ... RENAME COLUMN payload TO tool_payload`: INVALID in Athena.
#[test]
fn e2_rename_is_change_column_with_the_current_type() {
    let s = t()
        .alter()
        .rename_column("payload", "tool_payload")
        .build()
        .unwrap();
    assert_eq!(
        s.sql(),
        "ALTER TABLE analytics.mcp_events CHANGE COLUMN payload tool_payload string"
    );
    assert!(!s.sql().contains("RENAME COLUMN"));
    // RENAME COLUMN is what Spark takes.
    let s = t()
        .alter()
        .rename_column("payload", "tool_payload")
        .build_for(Dialect::Spark)
        .unwrap();
    assert_eq!(
        s.sql(),
        "ALTER TABLE analytics.mcp_events RENAME COLUMN payload TO tool_payload"
    );
}

/// (3) `ALTER TABLE ... ADD PARTITION FIELD day(event_ts)`: INVALID in Athena.
#[test]
fn e3_partition_evolution_is_refused_with_the_ctas_rebuild() {
    let unpartitioned = mcp_events_builder().build().unwrap();
    let e = unpartitioned
        .alter()
        .add_partition_field(PartitionField::new("event_ts", PartitionTransform::Day))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(
        e.message().contains("ADD PARTITION FIELD day(event_ts)"),
        "{e}"
    );
    assert!(
        e.message().contains("Athena has no partition evolution"),
        "{e}"
    );
    let hint = e.hint().unwrap();
    assert!(
        hint.contains("CTAS") && hint.contains("partitioning = ARRAY"),
        "{hint}"
    );
    assert!(hint.contains("RENAME TO mcp_events"), "{hint}");
    // The planner says the same for a derive whose spec changed.
    let e = evolve(&unpartitioned, t(), EvolveOptions::new()).unwrap_err();
    assert!(
        e.message().contains("(unpartitioned) to day(event_ts)"),
        "{e}"
    );
    // The correction: CTAS into a new table with the spec (Trino transform strings).
    let all = McpEvent::select();
    let ctas = IcebergCtas::new(TableName::new("analytics", "mcp_events_v2"), &all)
        .location("s3://my-datalake/iceberg/mcp_events_v2/")
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .build()
        .unwrap();
    assert_eq!(
        ctas.sql(),
        "CREATE TABLE analytics.mcp_events_v2\nWITH (\n  table_type = 'ICEBERG',\n  is_external = false,\n  \
         location = 's3://my-datalake/iceberg/mcp_events_v2/',\n  partitioning = ARRAY['day(event_ts)']\n) AS\n\
         SELECT * FROM analytics.mcp_events"
    );
}

/// (4) `CHANGE COLUMN retry_count retry_count BIGINT`: CONDITIONAL on the current type.
#[test]
fn e4_widening_depends_on_the_current_type() {
    // retry_count is int: valid.
    let s = t()
        .alter()
        .widen_column("retry_count", IcebergType::Long)
        .build()
        .unwrap();
    assert_eq!(
        s.sql(),
        "ALTER TABLE analytics.mcp_events CHANGE COLUMN retry_count retry_count bigint"
    );
    // Already bigint: nothing to do (the builder says so; the planner plans nothing).
    let mut cols = t().columns().to_vec();
    let i = cols.iter().position(|c| c.name == "retry_count").unwrap();
    cols[i] = Column::new("retry_count", IcebergType::Long);
    let bigint = TableDef::builder("analytics", "mcp_events")
        .columns(cols)
        .partition(t().partition_spec()[0].clone())
        .location(t().location().unwrap().as_str())
        .build()
        .unwrap();
    let e = bigint
        .alter()
        .widen_column("retry_count", IcebergType::Long)
        .build()
        .unwrap_err();
    assert!(e.message().contains("already has type long"), "{e}");
    assert!(evolve(&bigint, &bigint, EvolveOptions::new())
        .unwrap()
        .is_empty());
    // From int, the planner produces exactly the hand-written statement.
    let plan = evolve(t(), &bigint, EvolveOptions::new().sync_properties(false)).unwrap();
    assert_eq!(plan.steps.len(), 1);
    assert!(plan.steps[0].breaking);
    // From string: refused with the add/UPDATE/drop/rename workaround.
    let e = t()
        .alter()
        .widen_column("status", IcebergType::Long)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidType);
    assert!(e.hint().unwrap().contains("UPDATE"), "{e}");
}

/// (6) time travel: valid, but make the zone explicit.
#[test]
fn e6_time_travel_names_utc() {
    let q = McpEvent::select()
        .as_of(Snapshot::Timestamp(
            chrono::Utc.with_ymd_and_hms(2026, 9, 15, 0, 0, 0).unwrap(),
        ))
        .build()
        .unwrap();
    assert_eq!(
        q.sql(),
        "SELECT * FROM analytics.mcp_events FOR TIMESTAMP AS OF TIMESTAMP '2026-09-15 00:00:00 UTC'"
    );
}

/// (7) `OPTIMIZE ... WHERE event_ts >= ...` on a day(event_ts) table: INVALID.
#[test]
fn e7_optimize_where_on_a_hidden_partition_source_is_refused() {
    let e = t()
        .optimize()
        .filter(McpEvent::EVENT_TS.ge(ts(2026, 10, 1, 0)))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(
        e.message().contains("only identity partition columns"),
        "{e}"
    );
    assert!(
        e.hint().unwrap().contains("optimize the whole table"),
        "{e}"
    );
    assert_eq!(
        t().optimize().build().unwrap().sql(),
        "OPTIMIZE analytics.mcp_events REWRITE DATA USING BIN_PACK"
    );
    // With an identity partition column the filter is fine.
    let s = DatedEvent::table_def()
        .optimize()
        .filter(DatedEvent::EVENT_DATE.ge(date(2026, 10, 1)))
        .build()
        .unwrap();
    assert!(s.sql().ends_with("WHERE event_date >= DATE '2026-10-01'"));
}

/// The corrected versions of the whole set, both dialects.
#[test]
fn corrected_statement_set() {
    let staging = TableName::new("analytics", "mcp_events_staging");
    let all = McpEvent::select();
    let mut out = String::new();
    let mut add = |title: &str, text: String| {
        out.push_str(&format!("== ({title}\n{text}\n\n"));
    };
    add(
        "1) retention + vacuum: two separate API calls",
        both_steps(|d| {
            t().vacuum()
                .retention(VacuumRetention::days(7).min_snapshots_to_keep(1))
                .build_steps_for(d)
        }),
    );
    add(
        "2) rename column",
        both(|d| {
            t().alter()
                .rename_column("payload", "tool_payload")
                .build_for(d)
        }),
    );
    add(
        "3) no partition evolution in Athena: rebuild with the new spec",
        both(|d| {
            IcebergCtas::new(TableName::new("analytics", "mcp_events_v2"), &all)
                .location("s3://my-datalake/iceberg/mcp_events_v2/")
                .partition(PartitionField::new("event_ts", PartitionTransform::Day))
                .build_for(d)
        }),
    );
    add(
        "4) widen int -> bigint (only valid if currently int)",
        both(|d| {
            t().alter()
                .widen_column("retry_count", IcebergType::Long)
                .build_for(d)
        }),
    );
    add("5) valid as-is", both(|d| t().create_table().build_for(d)));
    add(
        "6) time travel (explicit UTC)",
        both(|d| {
            McpEvent::select()
                .as_of(Snapshot::Timestamp(
                    chrono::Utc.with_ymd_and_hms(2026, 9, 15, 0, 0, 0).unwrap(),
                ))
                .build_for(d)
        }),
    );
    add(
        "7) optimize: whole table",
        both(|d| t().optimize().build_for(d)),
    );
    add(
        "8) merge",
        both(|d| {
            McpEvent::merge_from(MergeSource::table(staging.clone()))
                .on_key(McpEvent::EVENT_ID)
                .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
                .delete()
                .when_matched()
                .update(|u| {
                    u.set(McpEvent::STATUS, source(McpEvent::STATUS))
                        .set(McpEvent::LATENCY_MS, source(McpEvent::LATENCY_MS))
                })
                .when_not_matched()
                .insert(|i| {
                    i.value(McpEvent::EVENT_ID, source(McpEvent::EVENT_ID))
                        .value(McpEvent::STATUS, source(McpEvent::STATUS))
                        .value(McpEvent::LATENCY_MS, source(McpEvent::LATENCY_MS))
                })
                .build_for(d)
        }),
    );
    insta::assert_snapshot!("corrected_statement_set", out);
}
