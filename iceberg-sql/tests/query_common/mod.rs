//! Shared fixtures for the query/alter/evolve/maintenance/ctas/corrections tests: hand-written
//! `IcebergTable` impls (the derive is tested on its own).
#![allow(dead_code)]

use std::sync::OnceLock;

use chrono::{NaiveDate, NaiveDateTime};
use iceberg_sql::prelude::*;
use iceberg_sql::Result;

/// Renders `f(dialect)` for Athena and Spark into one snapshot text.
pub fn both(f: impl Fn(Dialect) -> Result<Statement>) -> String {
    let a = f(Dialect::Athena).expect("athena");
    let s = f(Dialect::Spark).expect("spark");
    assert_eq!(a.dialect(), Dialect::Athena);
    assert_eq!(s.dialect(), Dialect::Spark);
    format!("-- athena\n{}\n\n-- spark\n{}", a.sql(), s.sql())
}

/// Renders several statements (a plan, a pair of steps) for Athena and Spark.
pub fn both_steps(f: impl Fn(Dialect) -> Result<Vec<Statement>>) -> String {
    let show = |v: Vec<Statement>| {
        v.iter()
            .map(|s| s.sql().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "-- athena\n{}\n\n-- spark\n{}",
        show(f(Dialect::Athena).expect("athena")),
        show(f(Dialect::Spark).expect("spark"))
    )
}

/// The example event table, partitioned by day(event_ts).
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
    pub retry_count: Option<i32>,
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
    pub const RETRY_COUNT: Col<McpEvent, Option<i32>> = Col::new("retry_count");
}

pub fn mcp_events_builder() -> iceberg_sql::model::TableDefBuilder {
    TableDef::builder("analytics", "mcp_events")
        .column(Column::new("event_id", IcebergType::String))
        .column(Column::new("session_id", IcebergType::String))
        .column(Column::new("tool_name", IcebergType::String))
        .column(Column::new("user_id", IcebergType::String))
        .column(Column::new("event_ts", IcebergType::Timestamp))
        .column(Column::new("payload", IcebergType::String))
        .column(Column::new("status", IcebergType::String))
        .column(Column::new("latency_ms", IcebergType::Long))
        .column(Column::new("retry_count", IcebergType::Int))
        .location("s3://my-datalake/iceberg/mcp_events/")
        .property(TableProperty::Format(FileFormat::Parquet))
        .property(TableProperty::WriteCompression(Compression::Snappy))
        .property(TableProperty::OptimizeRewriteDeleteFileThreshold(10))
}

impl IcebergTable for McpEvent {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            mcp_events_builder()
                .partition(PartitionField::new("event_ts", PartitionTransform::Day))
                .build()
                .unwrap()
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
            self.retry_count.into(),
        ]
    }
}

/// An event table with an identity-partitioned `event_date` (the corrected way to make
/// OPTIMIZE WHERE possible).
pub struct DatedEvent;

impl DatedEvent {
    pub const EVENT_ID: Col<DatedEvent, String> = Col::new("event_id");
    pub const EVENT_TS: Col<DatedEvent, NaiveDateTime> = Col::new("event_ts");
    pub const EVENT_DATE: Col<DatedEvent, NaiveDate> = Col::new("event_date");
    pub const TOOL_NAME: Col<DatedEvent, String> = Col::new("tool_name");
}

impl IcebergTable for DatedEvent {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            TableDef::builder("analytics", "mcp_events_dated")
                .column(Column::new("event_id", IcebergType::String))
                .column(Column::new("event_ts", IcebergType::Timestamp))
                .column(Column::new("event_date", IcebergType::Date))
                .column(Column::new("tool_name", IcebergType::String))
                .partition(PartitionField::identity("event_date"))
                .partition(PartitionField::new("event_ts", PartitionTransform::Hour))
                .location("s3://my-datalake/iceberg/mcp_events_dated/")
                .build()
                .unwrap()
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

/// A daily summary, as an Iceberg table partitioned by identity on `dt`.
pub struct DailySummary;

impl DailySummary {
    pub const TOOL_NAME: Col<DailySummary, String> = Col::new("tool_name");
    pub const STATUS: Col<DailySummary, String> = Col::new("status");
    pub const DT: Col<DailySummary, NaiveDate> = Col::new("dt");
}

impl IcebergTable for DailySummary {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            TableDef::builder("analytics", "mcp_daily_summary")
                .column(Column::new("tool_name", IcebergType::String))
                .column(Column::new("status", IcebergType::String))
                .column(Column::new("call_count", IcebergType::Long))
                .column(Column::new("success_count", IcebergType::Long))
                .column(Column::new("error_count", IcebergType::Long))
                .column(Column::new("avg_latency_ms", IcebergType::Double))
                .column(Column::new("p95_latency_ms", IcebergType::Long))
                .column(Column::new("p99_latency_ms", IcebergType::Long))
                .column(Column::new("dt", IcebergType::Date))
                .partition(PartitionField::identity("dt"))
                .location("s3://my-datalake/iceberg/mcp_daily_summary/")
                .property(TableProperty::Format(FileFormat::Parquet))
                .property(TableProperty::WriteCompression(Compression::Zstd))
                .build()
                .unwrap()
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

/// A user dimension, for joins on `user_id`.
pub struct McpUser;

impl McpUser {
    pub const USER_ID: Col<McpUser, String> = Col::new("user_id");
    pub const ID: Col<McpUser, String> = Col::new("id");
    pub const PLAN: Col<McpUser, String> = Col::new("plan");
}

impl IcebergTable for McpUser {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            TableDef::builder("analytics", "mcp_users")
                .column(Column::new("user_id", IcebergType::String))
                .column(Column::new("id", IcebergType::String))
                .column(Column::new("plan", IcebergType::String))
                .location("s3://my-datalake/iceberg/mcp_users/")
                .build()
                .unwrap()
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

pub fn ts(y: i32, m: u32, d: u32, h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .unwrap()
        .and_hms_opt(h, 0, 0)
        .unwrap()
}

pub fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}
