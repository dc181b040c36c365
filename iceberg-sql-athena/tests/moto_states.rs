//! moto over real HTTP: QUEUED -> RUNNING -> SUCCEEDED, then seeded rows decoded.
//!
//! moto's state-machine setting is global to the server, so this test lives alone in
//! its own test binary (cargo runs test binaries one after another).
mod common;

use std::time::Duration;

use common::moto;
use futures::TryStreamExt;
use iceberg_sql_athena::{AthenaExecutor, ExecutorConfig, FromRow, PollConfig, QueryState};
use serde_json::json;

/// A projection struct: decoded by column name through the derive.
#[derive(Debug, PartialEq, FromRow)]
struct ToolCount {
    tool_name: String,
    n: Option<i64>,
    note: Option<String>,
}

struct UnsetTransition(String);
impl Drop for UnsetTransition {
    fn drop(&mut self) {
        let ep = self.0.clone();
        // Best effort, on a fresh runtime: the test's runtime may be gone.
        let _ = std::thread::spawn(move || {
            if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                rt.block_on(moto::control(
                    &ep,
                    "/moto-api/state-manager/unset-transition",
                    &json!({"model_name": "athena::execution"}),
                ));
            }
        })
        .join();
    }
}

#[tokio::test]
async fn queued_running_succeeded_and_seeded_rows_decode() {
    let Some(ep) = moto::endpoint("queued_running_succeeded_and_seeded_rows_decode") else {
        return;
    };
    let account = moto::fresh_account();
    let seeded = moto::control(
        &ep,
        "/moto-api/static/athena/query-results",
        &json!({
            "account_id": account, "region": "us-east-1",
            "results": [{
                "rows": [
                    {"Data": [{"VarCharValue": "tool_name"}, {"VarCharValue": "n"}, {"VarCharValue": "note"}]},
                    {"Data": [{"VarCharValue": "fetch"}, {"VarCharValue": "42"}, {}]},
                    {"Data": [{"VarCharValue": "query_data"}, {}, {"VarCharValue": ""}]}
                ],
                "column_info": [
                    {"Name": "tool_name", "Type": "varchar"},
                    {"Name": "n", "Type": "bigint"},
                    {"Name": "note", "Type": "varchar"}
                ]
            }]
        }),
    )
    .await;
    assert_eq!(seeded, 201, "seeding results");
    let status = moto::control(
        &ep,
        "/moto-api/state-manager/set-transition",
        &json!({"model_name": "athena::execution", "transition": {"progression": "manual", "times": 2}}),
    )
    .await;
    assert!((200..300).contains(&status), "set-transition: {status}");
    let _reset = UnsetTransition(ep.clone());

    let ex = AthenaExecutor::new(
        moto::client(&ep, &account),
        ExecutorConfig::default()
            .database("analytics")
            .output_location("s3://iceberg-sql-results/q/")
            .poll(PollConfig::adaptive(
                Duration::from_millis(5),
                1.5,
                Duration::from_millis(50),
            ))
            .timeout(Duration::from_secs(30)),
    );
    let stmt = common::create_stmt();
    let mut outcome = ex.execute(&stmt).await.expect("query succeeds");
    assert_eq!(outcome.state, QueryState::Succeeded);
    assert_eq!(
        outcome.runs[0].states,
        vec![
            QueryState::Queued,
            QueryState::Running,
            QueryState::Succeeded
        ]
    );
    // moto echoes what was sent.
    let exec = ex
        .client()
        .get_query_execution()
        .query_execution_id(&outcome.query_id)
        .send()
        .await
        .unwrap();
    let qe = exec.query_execution().unwrap();
    assert_eq!(qe.query(), Some(stmt.sql()));
    assert_eq!(
        qe.query_execution_context().and_then(|c| c.database()),
        Some("analytics")
    );

    // moto does not add Athena's header row by itself; it was seeded like a SELECT's.
    outcome.has_header = true;
    let rows: Vec<ToolCount> = ex.decode(&outcome).try_collect().await.unwrap();
    assert_eq!(
        rows,
        vec![
            ToolCount {
                tool_name: "fetch".into(),
                n: Some(42),
                note: None
            },
            ToolCount {
                tool_name: "query_data".into(),
                n: None,
                note: Some(String::new())
            },
        ]
    );
}
