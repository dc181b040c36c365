//! The executor's exactly-once duties against a realistic Athena (the test server with
//! its clock, token memory and catalog of snapshots): each test is a way an operator on
//! a bad night lost or doubled rows, and the ledger counts every row.
mod common;

use common::ev::{fast_config, keys, rows, Ev};

use std::time::Duration;

use iceberg_sql::prelude::*;
use iceberg_sql_athena::{AthenaExecutor, CommitState, ExecutorConfig};
use iceberg_sql_test_server::{Failure, FaultPlan, QueryFault, ServerConfig, TestServer};

fn config() -> ExecutorConfig {
    fast_config().stop_grace(Duration::from_secs(2))
}

async fn server(config: ServerConfig) -> TestServer {
    TestServer::start(config.row_key("event_id")).await.unwrap()
}

/// A write whose commit went through and whose query then reports ICEBERG_COMMIT_ERROR
/// is not resubmitted: the table's snapshots show it committed.
#[tokio::test]
async fn a_commit_error_after_the_commit_is_settled_committed_not_resubmitted() {
    let s = server(
        ServerConfig::new().faults(FaultPlan::seeded(1).script_queries(
            "INSERT",
            [QueryFault::FailAfterCommit(Failure::iceberg_commit_error())],
        )),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let batch = rows(3);
    let insert = Ev::insert(&batch).build().unwrap();
    let out = ex.execute(&insert).await;
    let out = out.expect("settled as committed");
    let ledger = s.ledger();
    assert!(ledger.duplicates().is_empty(), "{:?}", ledger.duplicates());
    assert!(ledger.missing(&keys(&batch)).is_empty());
    assert_eq!(ledger.rows_committed(), 3);
    let evidence = out.evidence.expect("settled by the snapshots");
    assert_eq!(evidence.verdict, CommitState::Committed);
}
