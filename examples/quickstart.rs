//! Quickstart: an `mcp_events` table as a plain struct, and validated Athena SQL
//! for its whole life: create, load, correct, upsert, audit, evolve, maintain.
//!
//! Run with `cargo run --example quickstart`.

use chrono::{NaiveDate, NaiveDateTime};
use iceberg_sql::dsl::{row_number, source};
use iceberg_sql::evolve::{evolve, EvolveOptions};
use iceberg_sql::expr::Window;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{Order, Snapshot, SnapshotRow};

/// One MCP tool call. `Option<T>` is a nullable column; everything else is NOT NULL.
#[derive(IcebergTable, Debug, Clone)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts), bucket(16, user_id)),
    properties(
        format = "parquet",
        write_compression = "snappy",
        optimize_rewrite_delete_file_threshold = "10"
    )
)]
pub struct McpEvent {
    #[iceberg(comment = "ULID")]
    pub event_id: String,
    pub session_id: String,
    pub tool_name: String,
    pub user_id: String,
    pub event_ts: NaiveDateTime,
    pub payload: Option<String>,
    pub status: String,
    pub latency_ms: i64,
}

/// The next version of the same table: one more column.
#[derive(IcebergTable, Debug, Clone)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts), bucket(16, user_id)),
    properties(
        format = "parquet",
        write_compression = "snappy",
        optimize_rewrite_delete_file_threshold = "10"
    )
)]
pub struct McpEventV2 {
    #[iceberg(comment = "ULID")]
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

fn ts(day: u32, hour: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 10, day)
        .and_then(|d| d.and_hms_opt(hour, 0, 0))
        .expect("a valid date")
}

fn show(title: &str, statement: &Statement) {
    println!("-- {title}\n{statement};\n");
}

fn main() -> Result<(), Error> {
    let rows: Vec<McpEvent> = (0..3)
        .map(|i| McpEvent {
            event_id: format!("evt-00{i}"),
            session_id: "sess-abc".into(),
            tool_name: "query_data".into(),
            user_id: "user-123".into(),
            event_ts: ts(1, 12 + i),
            payload: (i != 1).then(|| r#"{"query":"it's ok"}"#.to_string()),
            status: "success".into(),
            latency_ms: 150,
        })
        .collect();
    let def = McpEvent::table_def();

    show(
        "create (Hive DDL: backticks, Hive types)",
        &def.create_table().if_not_exists().build()?,
    );
    for (i, batch) in McpEvent::insert(&rows).batches()?.iter().enumerate() {
        show(
            &format!("load, batch {i} (each batch <= 262,144 bytes)"),
            batch,
        );
    }
    show(
        "correct_record",
        &McpEvent::update()
            .set(McpEvent::STATUS, "retried")
            .set(McpEvent::LATENCY_MS, 320)
            .filter(McpEvent::EVENT_ID.eq("evt-001"))
            .build()?,
    );
    show(
        "targeted delete",
        &McpEvent::delete()
            .filter(
                McpEvent::USER_ID
                    .eq("user-123")
                    .and(McpEvent::EVENT_TS.lt(ts(1, 13))),
            )
            .build()?,
    );
    let staging = TableName::new("analytics", "mcp_events_staging");
    show(
        "upsert from staging",
        &McpEvent::merge_from(MergeSource::table(staging))
            .on_key(McpEvent::EVENT_ID)
            .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
            .delete()
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build()?,
    );
    show(
        "audit: the table as of a snapshot",
        &McpEvent::select()
            .as_of(Snapshot::Version(5_789_234_567_890_123_456))
            .filter(McpEvent::TOOL_NAME.eq("query_data"))
            .build()?,
    );
    let latest = Window::new()
        .partition_by(McpEvent::USER_ID)
        .order_by_desc(McpEvent::EVENT_TS);
    show(
        "a window query: each user's events, newest first, with the latency of the next one",
        &McpEvent::select()
            .column(McpEvent::USER_ID)
            .column(McpEvent::EVENT_TS)
            .expr_as(row_number().over(latest.clone()), "nth_latest")
            .expr_as(McpEvent::LATENCY_MS.lag(1).over(latest), "next_latency_ms")
            .build()?,
    );
    show(
        "audit: snapshots",
        &def.name()
            .metadata::<SnapshotRow>()
            .order_by(SnapshotRow::COMMITTED_AT, Order::Desc)
            .limit(20)
            .build()?,
    );
    let plan = evolve(def, McpEventV2::table_def(), EvolveOptions::new())?;
    for step in &plan.steps {
        show("evolve", &step.statement);
    }
    show("compact", &def.optimize().build()?);
    for step in def.vacuum().retain_days(7).build_steps()? {
        show("expire (retention is a table property in Athena)", &step);
    }
    show(
        "correct_record, rendered for Spark (backslash escapes)",
        &McpEvent::update()
            .set(McpEvent::STATUS, "it's retried")
            .filter(McpEvent::EVENT_ID.eq("evt-001"))
            .build_for(Dialect::Spark)?,
    );

    // Mistakes are errors that say what is wrong, where, and how to fix it.
    let err = TableDef::builder("analytics", "bad")
        .column(Column::new("eventName", IcebergType::String))
        .column(Column::new("score", IcebergType::Double))
        .partition(PartitionField::new("score", PartitionTransform::Bucket(16)))
        .location("s3://my-datalake")
        .build()
        .unwrap_err();
    println!("-- a definition with three mistakes:\n{err}\n");
    let err = def.vacuum().retain_days(7).build().unwrap_err();
    println!("-- VACUUM ... RETAIN 7 DAYS (Delta Lake syntax, not Athena's):\n{err}");
    Ok(())
}
