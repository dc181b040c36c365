//! Hand-written table records for the DML tests (the derive is tested elsewhere).
#![allow(dead_code)]

use std::sync::OnceLock;

use chrono::{NaiveDate, NaiveDateTime};
use iceberg_sql::prelude::*;

/// The example `analytics.mcp_events` table.
#[derive(Debug, Clone, PartialEq)]
pub struct McpEvent {
    pub event_id: String,
    pub session_id: String,
    pub tool_name: String,
    pub user_id: String,
    pub event_ts: NaiveDateTime,
    pub payload: Option<String>,
    pub status: String,
    pub latency_ms: i64,
}

impl McpEvent {
    pub const EVENT_ID: Col<McpEvent, String> = Col::new("event_id");
    pub const SESSION_ID: Col<McpEvent, String> = Col::new("session_id");
    pub const TOOL_NAME: Col<McpEvent, String> = Col::new("tool_name");
    pub const USER_ID: Col<McpEvent, String> = Col::new("user_id");
    pub const EVENT_TS: Col<McpEvent, NaiveDateTime> = Col::new("event_ts");
    pub const PAYLOAD: Col<McpEvent, Option<String>> = Col::new("payload");
    pub const STATUS: Col<McpEvent, String> = Col::new("status");
    pub const LATENCY_MS: Col<McpEvent, i64> = Col::new("latency_ms");

    /// The example's first row.
    pub fn example() -> McpEvent {
        McpEvent {
            event_id: "evt-001".into(),
            session_id: "sess-abc".into(),
            tool_name: "query_data".into(),
            user_id: "user-123".into(),
            event_ts: ts(2026, 10, 1, 12),
            payload: Some(r#"{"query":"..."}"#.into()),
            status: "success".into(),
            latency_ms: 150,
        }
    }

    /// A synthetic row number `i`.
    pub fn nth(i: usize) -> McpEvent {
        McpEvent {
            event_id: format!("evt-{i:06}"),
            session_id: format!("sess-{:04}", i / 7),
            tool_name: ["query_data", "load_data", "correct_record"][i % 3].into(),
            user_id: format!("user-{}", i % 97),
            event_ts: ts(2026, 10, 1 + (i % 28) as u32, (i % 24) as u32),
            payload: (!i.is_multiple_of(5))
                .then(|| format!(r#"{{"query":"select {i}","note":"it's"}}"#)),
            status: if i.is_multiple_of(11) {
                "error"
            } else {
                "success"
            }
            .into(),
            latency_ms: (i as i64 * 37) % 5000,
        }
    }
}

pub fn ts(y: i32, m: u32, d: u32, h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .unwrap()
        .and_hms_opt(h, 0, 0)
        .unwrap()
}

impl IcebergTable for McpEvent {
    fn table_def() -> &'static TableDef {
        static DEF: OnceLock<TableDef> = OnceLock::new();
        DEF.get_or_init(|| {
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
                .build()
                .expect("valid table")
        })
    }

    fn to_values(&self) -> Vec<Value> {
        vec![
            self.event_id.clone().into(),
            self.session_id.clone().into(),
            self.tool_name.clone().into(),
            self.user_id.clone().into(),
            self.event_ts.into(),
            self.payload.clone().into(),
            self.status.clone().into(),
            self.latency_ms.into(),
        ]
    }
}

/// A table with nested and awkward types; rows carry their values directly.
#[derive(Debug, Clone, PartialEq)]
pub struct Nested {
    pub values: Vec<Value>,
}

impl Nested {
    pub const ID: Col<Nested, i64> = Col::new("id");
    pub const NAME: Col<Nested, Option<String>> = Col::new("name");
    pub const AMOUNT: Col<Nested, Option<iceberg_sql::Decimal>> = Col::new("amount");
    pub const DAY: Col<Nested, Option<NaiveDate>> = Col::new("day");
}

impl IcebergTable for Nested {
    fn table_def() -> &'static TableDef {
        static DEF: OnceLock<TableDef> = OnceLock::new();
        DEF.get_or_init(|| {
            TableDef::builder("lake", "nested")
                .column(Column::new("id", IcebergType::Long).required())
                .column(Column::new("name", IcebergType::String))
                .column(Column::new("tags", IcebergType::list(IcebergType::String)))
                .column(Column::new(
                    "attrs",
                    IcebergType::map(IcebergType::String, IcebergType::Int),
                ))
                .column(Column::new(
                    "loc",
                    IcebergType::structure([
                        ("lat", IcebergType::Double),
                        ("label", IcebergType::String),
                    ]),
                ))
                .column(Column::new("amount", IcebergType::decimal(10, 2)))
                .column(Column::new("day", IcebergType::Date))
                .column(Column::new("raw", IcebergType::Binary))
                .partition(PartitionField::identity("name"))
                .partition(PartitionField::new("id", PartitionTransform::Truncate(10)))
                .location("s3://lake/nested/")
                .build()
                .expect("valid table")
        })
    }

    fn to_values(&self) -> Vec<Value> {
        self.values.clone()
    }
}
