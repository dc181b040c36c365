//! `into_table(name)` on UPDATE, DELETE, MERGE (target) and SELECT: the same statement
//! against another table with the same columns (a staging or mirror copy), mirroring
//! `Insert::into_table`; and Spark-only `rewrite_data_files` options on OPTIMIZE.

#[path = "query_common/mod.rs"]
mod common;

use common::*;
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::source;
use iceberg_sql::prelude::*;
use iceberg_sql::query::JoinKind;

fn staging() -> TableName {
    TableName::new("analytics", "mcp_events_staging")
}

fn bad_name() -> TableName {
    TableName::new("analytics", "Staging-Copy")
}

#[test]
fn update_into_table() {
    insta::assert_snapshot!(
        "update_into_table",
        both(|d| McpEvent::update()
            .into_table(staging())
            .set(McpEvent::STATUS, "retried")
            .set(McpEvent::LATENCY_MS, McpEvent::LATENCY_MS + 1)
            .filter(McpEvent::EVENT_ID.eq("evt-001"))
            .build_for(d))
    );
    // Without the override, the record type's own table.
    let own = McpEvent::update()
        .set(McpEvent::STATUS, "x")
        .all_rows()
        .build()
        .unwrap();
    assert!(own.sql().starts_with("UPDATE analytics.mcp_events\n"));
    // The name is checked like Insert::into_table's, and the columns are still `T`'s.
    let e = McpEvent::update()
        .into_table(bad_name())
        .set(McpEvent::STATUS, "x")
        .all_rows()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier, "{e}");
    // A reserved word as table name is quoted in the statement's grammar.
    let s = McpEvent::update()
        .into_table(TableName::new("analytics", "table"))
        .set(McpEvent::STATUS, "x")
        .all_rows()
        .build()
        .unwrap();
    assert!(s.sql().starts_with("UPDATE analytics.\"table\"\n"), "{s}");
}

#[test]
fn delete_into_table() {
    insta::assert_snapshot!(
        "delete_into_table",
        both(|d| McpEvent::delete()
            .into_table(staging())
            .filter(McpEvent::USER_ID.eq("user-123"))
            .build_for(d))
    );
    assert_eq!(
        McpEvent::delete()
            .into_table(staging())
            .all_rows()
            .build()
            .unwrap()
            .sql(),
        "DELETE FROM analytics.mcp_events_staging"
    );
    let e = McpEvent::delete()
        .into_table(bad_name())
        .all_rows()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier, "{e}");
    // The WHERE-or-all_rows rule still holds.
    assert!(McpEvent::delete().into_table(staging()).build().is_err());
}

#[test]
fn merge_into_table() {
    let mirror = TableName::new("analytics", "mcp_events_mirror");
    insta::assert_snapshot!(
        "merge_into_table",
        both(|d| McpEvent::merge_from(MergeSource::table(staging()))
            .into_table(mirror.clone())
            .on_key(McpEvent::EVENT_ID)
            .dedup_source(McpEvent::EVENT_TS)
            .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
            .delete()
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build_for(d))
    );
    let e = McpEvent::merge_from(MergeSource::table(staging()))
        .into_table(bad_name())
        .on_key(McpEvent::EVENT_ID)
        .when_not_matched()
        .insert_all()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier, "{e}");
}

#[test]
fn select_into_table() {
    insta::assert_snapshot!(
        "select_into_table",
        both(|d| McpEvent::select()
            .into_table(staging())
            .column(McpEvent::EVENT_ID)
            .join(JoinKind::Left, McpEvent::USER_ID, McpUser::ID)
            .joined_column(McpUser::PLAN)
            .filter(McpEvent::TOOL_NAME.eq("query_data"))
            .build_for(d))
    );
    let e = McpEvent::select()
        .into_table(bad_name())
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier, "{e}");
    assert_eq!(
        McpEvent::select()
            .into_table(staging())
            .limit(1)
            .build()
            .unwrap()
            .sql(),
        "SELECT * FROM analytics.mcp_events_staging LIMIT 1"
    );
}

#[test]
fn optimize_spark_options() {
    let t = McpEvent::table_def();
    let s = t
        .optimize()
        .spark_option("min-input-files", "1")
        .spark_option("target-file-size-bytes", "134217728")
        .build_for(Dialect::Spark)
        .unwrap();
    insta::assert_snapshot!("optimize_spark_options", s.sql());
    // With a WHERE: options come after it.
    let d = DatedEvent::table_def();
    let s = d
        .optimize()
        .filter(DatedEvent::EVENT_DATE.eq(date(2026, 10, 1)))
        .spark_option("min-input-files", "1")
        .build_for(Dialect::Spark)
        .unwrap();
    assert_eq!(
        s.sql(),
        "CALL `local`.system.rewrite_data_files(table => 'analytics.mcp_events_dated', \
         where => 'event_date = DATE \\'2026-10-01\\'', options => map('min-input-files', '1'))"
    );

    // Athena: any option is an error that says where Athena's thresholds live.
    let e = t
        .optimize()
        .spark_option("min-input-files", "1")
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.message().contains("takes no options"), "{e}");
    assert!(e.message().contains("optimize_"), "{e}");
    assert!(
        e.hint()
            .unwrap()
            .contains("optimize_rewrite_data_file_threshold"),
        "{e}"
    );

    // Keys and values are plain [a-z0-9.-] text.
    for (k, v) in [
        ("min-input-files", "1'), x => ('"),
        ("Min-Input-Files", "1"),
        ("min_input_files", "1"),
        ("", "1"),
        ("min-input-files", ""),
        ("min-input-files", "1 "),
        ("min-input-files", "tru\u{e9}"),
    ] {
        let e = t
            .optimize()
            .spark_option(k, v)
            .build_for(Dialect::Spark)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue, "{k:?} {v:?}: {e}");
    }
    let e = t
        .optimize()
        .spark_option("min-input-files", "1")
        .spark_option("min-input-files", "2")
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert!(e.message().contains("twice"), "{e}");
    // Dots are fine (e.g. `rewrite-job-order` values, decimal numbers).
    assert!(t
        .optimize()
        .spark_option("max-file-group-size-bytes", "1.5")
        .build_for(Dialect::Spark)
        .is_ok());
}
