//! The example `mcp_events` table as a derived struct: the same `TableDef`, and the same
//! CREATE TABLE text in both dialects, as the hand-built definition.

use iceberg_sql::prelude::*;

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    location = "s3://my-datalake/iceberg/mcp_events/",
    name = "mcp_events",
    partition(day(event_ts), bucket(16, user_id)),
    properties(
        format = "parquet",
        write_compression = "snappy",
        optimize_rewrite_delete_file_threshold = "10"
    )
)]
pub struct McpEvent {
    pub event_id: String,
    pub session_id: String,
    pub tool_name: String,
    pub user_id: String,
    pub event_ts: chrono::NaiveDateTime,
    pub payload: Option<String>,
    pub status: String,
    pub latency_ms: i64,
}

fn hand_built() -> TableDef {
    TableDef::builder("analytics", "mcp_events")
        .column(Column::new("event_id", IcebergType::String).required())
        .column(Column::new("session_id", IcebergType::String).required())
        .column(Column::new("tool_name", IcebergType::String).required())
        .column(Column::new("user_id", IcebergType::String).required())
        .column(Column::new("event_ts", IcebergType::Timestamp).required())
        .column(Column::new("payload", IcebergType::String))
        .column(Column::new("status", IcebergType::String).required())
        .column(Column::new("latency_ms", IcebergType::Long).required())
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .partition(PartitionField::new(
            "user_id",
            PartitionTransform::Bucket(16),
        ))
        .location("s3://my-datalake/iceberg/mcp_events/")
        .property_str("format", "parquet")
        .property_str("write_compression", "snappy")
        .property_str("optimize_rewrite_delete_file_threshold", "10")
        .build()
        .expect("the example table is valid")
}

#[test]
fn derived_definition_equals_the_hand_built_one() {
    assert_eq!(McpEvent::table_def(), &hand_built());
}

#[test]
fn create_table_is_the_same_in_both_dialects() {
    let derived = McpEvent::table_def();
    let hand = hand_built();
    for dialect in [Dialect::Athena, Dialect::Spark] {
        let a = derived.create_table().build_for(dialect).unwrap();
        let b = hand.create_table().build_for(dialect).unwrap();
        assert_eq!(a.sql(), b.sql(), "{dialect:?}");
    }
    let athena = derived.create_table().build().unwrap();
    insta::assert_snapshot!("derive_mcp_events_athena", athena.sql());
    let spark = derived.create_table().build_for(Dialect::Spark).unwrap();
    insta::assert_snapshot!("derive_mcp_events_spark", spark.sql());
}

#[test]
fn typed_columns() {
    let c: Col<McpEvent, i64> = McpEvent::LATENCY_MS;
    assert_eq!(c.name(), "latency_ms");
    let p: Col<McpEvent, Option<String>> = McpEvent::PAYLOAD;
    assert_eq!(p.name(), "payload");
    assert_eq!(McpEvent::EVENT_TS.name(), "event_ts");
}

#[test]
fn values_in_column_order_and_back() {
    let ts = chrono::NaiveDate::from_ymd_opt(2026, 10, 1)
        .unwrap()
        .and_hms_milli_opt(12, 0, 0, 123)
        .unwrap();
    let e = McpEvent {
        event_id: "evt-001".into(),
        session_id: "s".into(),
        tool_name: "query_data".into(),
        user_id: "u".into(),
        event_ts: ts,
        payload: None,
        status: "".into(),
        latency_ms: 320,
    };
    let values = e.to_values();
    assert_eq!(values.len(), 8);
    assert_eq!(values[5], Value::Null);
    assert_eq!(values[7], Value::Long(320));

    let columns: Vec<String> = McpEvent::table_def()
        .columns()
        .iter()
        .map(|c| c.name.clone())
        .collect();
    let cells = vec![
        Some("evt-001".to_string()),
        Some("s".into()),
        Some("query_data".into()),
        Some("u".into()),
        Some("2026-10-01 12:00:00.123".into()),
        None,
        Some("".into()),
        Some("320".into()),
    ];
    let back = McpEvent::from_row(&Row::untyped(columns.clone(), cells.clone())).unwrap();
    assert_eq!(back, e);

    let mut bad = cells.clone();
    bad[7] = None;
    let err = McpEvent::from_row(&Row::untyped(columns.clone(), bad.clone())).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert_eq!(
        err.message(),
        "column `latency_ms`: expected a long value, found NULL"
    );
    bad[7] = Some("".into());
    let err = McpEvent::from_row(&Row::untyped(columns.clone(), bad.clone())).unwrap_err();
    assert_eq!(err.message(), "column `latency_ms`: `` is not a long value");
}
