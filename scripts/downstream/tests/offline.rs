//! The app's workflows against the athena crate's offline test double.

use std::collections::HashSet;
use std::time::Duration;

use downstream_app::*;
use iceberg_sql::prelude::*;
use iceberg_sql_athena::test_server::{
    Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer,
};
use iceberg_sql_athena::{AthenaExecutor, ExecutorConfig, PollConfig};

fn cells(rows: &[McpEvent]) -> Vec<Vec<Option<String>>> {
    rows.iter()
        .map(|e| {
            vec![
                Some(e.event_id.clone()),
                Some(e.user_id.clone()),
                Some(e.tool_name.clone()),
                Some(e.event_ts.format("%Y-%m-%d %H:%M:%S%.6f").to_string()),
                e.payload.clone(),
                Some(e.latency_ms.to_string()),
            ]
        })
        .collect()
}

async fn new_account(rows: &[McpEvent]) -> TestServer {
    let cells = cells(rows);
    let engine = ScriptedEngine::new()
        .on_contains("SHOW CREATE TABLE", |_| {
            Plan::fail(Failure::new(
                2,
                1000,
                false,
                "FAILED: SemanticException [Error 10072]: Database does not exist: analytics",
            ))
        })
        .on_contains("$snapshots", |_| {
            Plan::rows(ResultSet::select(
                &[
                    ("committed_at", "timestamp(6) with time zone"),
                    ("snapshot_id", "bigint"),
                    ("parent_id", "bigint"),
                    ("operation", "varchar"),
                    ("manifest_list", "varchar"),
                    ("summary", "json"),
                ],
                vec![],
            ))
        })
        .on_contains("FROM analytics.mcp_events", move |_| {
            Plan::rows(ResultSet::select(
                &[
                    ("event_id", "varchar"),
                    ("user_id", "varchar"),
                    ("tool_name", "varchar"),
                    ("event_ts", "timestamp(6)"),
                    ("payload", "varchar"),
                    ("latency_ms", "bigint"),
                ],
                cells.clone(),
            ))
        });
    TestServer::start(ServerConfig::new().engine(engine).row_key("event_id"))
        .await
        .expect("the test server starts")
}

fn executor(server: &TestServer) -> AthenaExecutor {
    AthenaExecutor::new(
        server.client(),
        ExecutorConfig::default()
            .output_location("s3://my-athena-results/")
            .poll(PollConfig::fixed(Duration::from_millis(5))),
    )
}

#[test]
fn every_statement_kind_builds() {
    let statements = every_statement().expect("every statement builds");
    let kinds: HashSet<StatementKind> = statements.iter().map(|s| s.kind()).collect();
    assert_eq!(kinds.len(), 21, "{kinds:?}");
}

#[tokio::test]
async fn ensure_append_and_fetch_in_async_fns() {
    let rows = events();
    let server = new_account(&rows).await;
    let executor = executor(&server);
    let report = ensure(&executor).await.expect("ensure");
    assert_eq!(report.changes(), 2, "CREATE DATABASE, CREATE TABLE");
    load(&executor, &rows, "load-1").await.expect("append");
    assert_eq!(read(&executor).await.expect("fetch"), rows);
    let ledger = server.ledger();
    assert_eq!(ledger.rows_committed(), rows.len());
    assert!(ledger.duplicates().is_empty());
}

#[tokio::test]
async fn the_daily_job_is_spawnable() {
    let rows = events();
    let server = new_account(&rows).await;
    let job = tokio::spawn(daily_job(executor(&server), rows.clone()));
    let (created, read) = job.await.expect("the job ran").expect("the job succeeded");
    assert_eq!(created, 2);
    assert_eq!(read, rows);
    assert_eq!(server.ledger().rows_committed(), rows.len());
}

#[tokio::test]
async fn eight_levels_of_the_apps_own_async_fns_compile_and_run() {
    let rows = events();
    let server = new_account(&rows).await;
    let job = tokio::spawn(nested_8(executor(&server)));
    let (created, read) = job.await.expect("the job ran").expect("the job succeeded");
    assert_eq!(created, 2);
    assert_eq!(read, rows);
}
