//! A new user's first day, end to end: create the database, create the table, load
//! rows, read the table's snapshots, and read a SELECT as typed rows and as Arrow
//! record batches.
//!
//! It runs against `iceberg-sql-test-server`, an in-process server that speaks
//! Athena's API on 127.0.0.1 (no AWS account, no network). The server has no query
//! engine: it answers `SHOW CREATE TABLE` the way Athena answers on a new account
//! (the database does not exist), commits the `INSERT`s into its ledger, and answers
//! the reads with the cells Athena returns for the rows loaded here. On Athena, build
//! the executor with `AthenaExecutor::from_env(config).await` (feature `aws-config`)
//! or `AthenaExecutor::from_sdk_config(&sdk_config, config)`; the rest is the same.
//!
//! ```text
//! cargo run -p iceberg-sql-athena --example new_user --features arrow
//! ```

use std::time::Duration;

use chrono::NaiveDateTime;
use futures::TryStreamExt;
use iceberg_sql::prelude::*;
use iceberg_sql_athena::{
    AppendOptions, AthenaExecutor, EnsureOptions, ExecutorConfig, PollConfig,
};
use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};

/// One MCP tool call.
#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts))
)]
pub struct McpEvent {
    pub event_id: String,
    pub tool_name: String,
    pub event_ts: NaiveDateTime,
    pub latency_ms: i64,
    pub error: Option<String>,
}

/// What the example did, for the test that runs it.
#[derive(Debug, PartialEq)]
pub struct Summary {
    /// Statements `ensure_table` ran (database, table).
    pub created: usize,
    /// Rows the load committed, counted by the server's ledger.
    pub rows_committed: usize,
    /// Snapshots read from `$snapshots`.
    pub snapshots: usize,
    /// Rows read back as `McpEvent`s.
    pub typed_rows: Vec<McpEvent>,
    /// Rows in the Arrow batches, and the batches' column names.
    pub arrow_rows: usize,
    pub arrow_columns: Vec<String>,
}

fn events() -> Vec<McpEvent> {
    let at = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").expect("valid");
    vec![
        McpEvent {
            event_id: "01J0000000000000000000001".into(),
            tool_name: "query_data".into(),
            event_ts: at("2026-01-01 09:00:00"),
            latency_ms: 120,
            error: None,
        },
        McpEvent {
            event_id: "01J0000000000000000000002".into(),
            tool_name: "list_tables".into(),
            event_ts: at("2026-01-01 09:00:05"),
            latency_ms: 35,
            error: Some("timeout".into()),
        },
        McpEvent {
            event_id: "01J0000000000000000000003".into(),
            tool_name: "query_data".into(),
            event_ts: at("2026-01-02 17:30:00"),
            latency_ms: 980,
            error: None,
        },
    ]
}

/// The Athena test server, scripted as a new account: no `analytics` database yet.
fn new_account(events: &[McpEvent]) -> ScriptedEngine {
    // The cells Athena returns for `SELECT *` of these rows (NULL has no cell).
    let cells: Vec<Vec<Option<String>>> = events
        .iter()
        .map(|e| {
            vec![
                Some(e.event_id.clone()),
                Some(e.tool_name.clone()),
                Some(e.event_ts.format("%Y-%m-%d %H:%M:%S%.6f").to_string()),
                Some(e.latency_ms.to_string()),
                e.error.clone(),
            ]
        })
        .collect();
    let loaded = events.len();
    ScriptedEngine::new()
        .on_contains("SHOW CREATE TABLE", |_| {
            Plan::fail(Failure::new(
                2,
                1000,
                false,
                "FAILED: SemanticException [Error 10072]: Database does not exist: analytics",
            ))
        })
        .on_contains("$snapshots", move |_| {
            Plan::rows(ResultSet::select(
                &[
                    ("committed_at", "timestamp(6) with time zone"),
                    ("snapshot_id", "bigint"),
                    ("parent_id", "bigint"),
                    ("operation", "varchar"),
                    ("manifest_list", "varchar"),
                    ("summary", "json"),
                ],
                vec![vec![
                    Some("2026-01-03 08:00:00.000000 UTC".into()),
                    Some("5789234567890123456".into()),
                    None,
                    Some("append".into()),
                    Some("s3://my-datalake/iceberg/mcp_events/metadata/snap-1.avro".into()),
                    Some(format!(r#"{{"added-records":"{loaded}"}}"#)),
                ]],
            ))
        })
        .on_contains("FROM analytics.mcp_events", move |_| {
            Plan::rows(ResultSet::select(
                &[
                    ("event_id", "varchar"),
                    ("tool_name", "varchar"),
                    ("event_ts", "timestamp(6)"),
                    ("latency_ms", "bigint"),
                    ("error", "varchar"),
                ],
                cells.clone(),
            ))
        })
}

/// The stories, printed as they run.
pub async fn run() -> Result<Summary, Box<dyn std::error::Error>> {
    let events = events();
    let server = TestServer::start(
        ServerConfig::new()
            .engine(new_account(&events))
            .row_key("event_id"),
    )
    .await?;
    let executor = AthenaExecutor::new(
        server.client(),
        ExecutorConfig::default()
            .output_location("s3://my-athena-results/iceberg-sql/")
            .poll(PollConfig::fixed(Duration::from_millis(5))),
    );
    println!("Athena test server at {}", server.endpoint());

    // 1-2. Create the database and the table (a new account has neither).
    let report = executor
        .ensure_table_for::<McpEvent>(EnsureOptions::new().create_database())
        .await?;
    println!("ensure_table: {report}");
    for outcome in report.outcomes() {
        println!("  ran: {}", outcome.sql.lines().next().unwrap_or_default());
    }

    // 3. Load rows: INSERT batches with idempotency tokens derived from the load id.
    let load = executor
        .append_rows(&events, AppendOptions::new("mcp-events-2026-01-02"), |p| {
            println!("  loaded batch {}/{}", p.done, p.total)
        })
        .await?;
    let inserted: u64 = load.outcomes().iter().filter_map(|o| o.rows_affected).sum();
    println!(
        "append: {} batch(es), {inserted} rows (UpdateCount)",
        load.batches.len()
    );

    // 4. Metadata rows, typed.
    let snapshots = executor.snapshots(McpEvent::table_def().name()).await?;
    for s in &snapshots {
        println!(
            "snapshot {} {} at {}, summary {:?}",
            s.snapshot_id,
            s.operation.as_deref().unwrap_or("?"),
            s.committed_at,
            s.summary
        );
    }

    // 5. A SELECT as typed rows, in one call.
    let all = McpEvent::select().build()?;
    let typed: Vec<McpEvent> = executor.fetch_all(&all).await?;
    for e in &typed {
        println!("event {} {} {} ms", e.event_id, e.tool_name, e.latency_ms);
    }

    // 6. The same SELECT as Arrow record batches, one per result page.
    let batches: Vec<iceberg_sql_athena::arrow_array::RecordBatch> =
        executor.fetch_arrow(&all).try_collect().await?;
    let schema = batches.first().map(|b| b.schema());
    let arrow_columns: Vec<String> = schema
        .iter()
        .flat_map(|s| s.fields().iter().map(|f| f.name().clone()))
        .collect();
    let arrow_rows = batches.iter().map(|b| b.num_rows()).sum();
    if let Some(schema) = &schema {
        for f in schema.fields() {
            println!("arrow column {}: {}", f.name(), f.data_type());
        }
    }
    println!("arrow: {} batch(es), {arrow_rows} rows", batches.len());

    Ok(Summary {
        created: report.changes(),
        rows_committed: server.ledger().rows_committed(),
        snapshots: snapshots.len(),
        typed_rows: typed,
        arrow_rows,
        arrow_columns,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let summary = run().await?;
    println!(
        "done: {} statements created the database and table, {} rows loaded",
        summary.created, summary.rows_committed
    );
    Ok(())
}
