//! The executor's exactly-once duties against a realistic Athena (the test server with
//! its clock, token memory and catalog of snapshots): each test is a way an operator on
//! a bad night lost or doubled rows, and the ledger counts every row.
mod common;

use common::ev::{config, keys, rows, server, start_tokens, Ev};

use std::time::Duration;

use iceberg_sql::prelude::*;
use iceberg_sql_athena::{
    AppendOptions, AthenaExecutor, BatchState, CommitState, RetryPolicy, UncheckedSql,
};
use iceberg_sql_test_server::{
    Failure, Fault, FaultPlan, Op, Plan, QueryFault, ScriptedEngine, ServerConfig,
};

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

/// An append batch whose query committed and then FAILED with an internal error is
/// settled by the snapshots in the same run: the load completes, each row once.
#[tokio::test]
async fn an_append_batch_that_failed_after_its_commit_is_settled_and_the_load_completes() {
    let s = server(
        ServerConfig::new().faults(FaultPlan::seeded(2).script_queries(
            "'e-0012'",
            [QueryFault::FailAfterCommit(Failure::internal_retryable())],
        )),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let all = rows(30);
    let report = ex
        .append_rows(
            &all,
            AppendOptions::new("unknown-batch").max_batch_bytes(120),
            |_| {},
        )
        .await
        .expect("the unknown batch is settled committed");
    assert!(report.is_complete());
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.duplicates(), vec![]);
    assert_eq!(ledger.missing(&keys(&all)), vec![]);
    assert_eq!(ledger.rows_committed(), 30);
    // A re-run (a crash after the load returned) creates no write.
    let inserts = start_tokens(&s, "INSERT").len();
    ex.append_rows(
        &all,
        AppendOptions::new("unknown-batch").max_batch_bytes(120),
        |_| {},
    )
    .await
    .unwrap();
    s.settle();
    assert_eq!(s.ledger().rows_committed(), 30);
    assert!(start_tokens(&s, "INSERT").len() >= inserts);
    assert_eq!(s.ledger().duplicates(), vec![]);
}

/// A batch fails on a bad row; the operator fixes the row and resumes from the report:
/// only the corrected batch and the batches after it run, each row lands once.
#[tokio::test]
async fn a_corrected_row_resumes_from_the_report_and_only_its_batch_runs_again() {
    let s = server(
        ServerConfig::new().faults(
            FaultPlan::seeded(3)
                .script_queries("'e-0012'", [QueryFault::Fail(Failure::user_data_error())]),
        ),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let options = AppendOptions::new("corrected").max_batch_bytes(120);
    let mut all = rows(30);
    let err = ex
        .append_rows(&all, options.clone(), |_| {})
        .await
        .unwrap_err();
    let failed = err.failed_batch;
    assert_eq!(err.report.batches[failed].state, BatchState::NotCommitted);
    let committed_before = s.ledger().rows_committed();
    // The fix: another value in the bad row.
    all[12].n = -12;
    let starts_before = start_tokens(&s, "INSERT").len();
    let report = ex
        .append_rows(&all, options.skip_committed(&err.report), |_| {})
        .await
        .expect("the corrected batch runs under a token of its own");
    assert!(report.is_complete());
    assert_eq!(
        start_tokens(&s, "INSERT").len() - starts_before,
        report.batches.len() - failed,
        "committed batches were not sent again"
    );
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.duplicates(), vec![]);
    assert_eq!(ledger.missing(&keys(&all)), vec![]);
    assert_eq!(ledger.rows_committed(), 30);
    assert!(committed_before < 30);
}

/// The future is dropped while StartQueryExecution is in flight (its answer slow, the
/// query created): the guard finds the query through the token and stops it.
#[tokio::test]
async fn dropping_the_call_during_a_slow_start_stops_the_query_it_created() {
    let engine = ScriptedEngine::new().on_contains("INSERT", |_| Plan::succeed().running_forever());
    let s = server(ServerConfig::new().engine(engine)).await;
    s.script(
        Op::StartQueryExecution,
        [Fault::Slow(Duration::from_millis(800))],
    );
    let ex = AthenaExecutor::new(s.client(), config().no_timeout());
    let insert = Ev::insert(&rows(1)).build().unwrap();
    {
        let call = ex.execute(&insert);
        tokio::pin!(call);
        tokio::select! {
            _ = &mut call => panic!("the query never finishes"),
            _ = tokio::time::sleep(Duration::from_millis(200)) => {}
        }
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while s.count(Op::StopQueryExecution) == 0 {
        assert!(std::time::Instant::now() < deadline, "no stop was sent");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.executions.len(), 1);
    assert!(
        ledger.executions[0].stopped.is_some(),
        "the created query was stopped"
    );
    assert_eq!(ledger.rows_committed(), 0);
}

/// Athena's clock 3 s behind the client: a query that has FAILED at the first poll is
/// this call's own, and an unchecked statement with no resubmits is started once.
#[tokio::test]
async fn athena_behind_the_client_clock_does_not_restart_an_unchecked_statement() {
    let engine = ScriptedEngine::new()
        .on_contains("SELECT 42", |_| Plan::fail(Failure::internal_retryable()));
    let s = server(ServerConfig::new().engine(engine).clock_skew_ms(-3_000)).await;
    let ex = AthenaExecutor::new(
        s.client(),
        config().retry(RetryPolicy {
            max_resubmits: 0,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(5),
        }),
    );
    let err = ex
        .execute_unchecked(&UncheckedSql::new("SELECT 42").unwrap())
        .await
        .unwrap_err();
    assert!(err.query_error().is_some(), "{err}");
    assert_eq!(start_tokens(&s, "SELECT 42").len(), 1);
    assert_eq!(s.ledger().executions.len(), 1);
}

/// The first SDK attempt created the query (its answer a 500), the retry was refused
/// with ExpiredTokenException: the write may be running, so it is Unknown.
#[tokio::test]
async fn a_start_created_by_a_lost_attempt_then_refused_is_unknown_not_not_committed() {
    let s = server(ServerConfig::new()).await;
    s.script(
        Op::StartQueryExecution,
        [
            Fault::LostResponse,
            Fault::Rejected("ExpiredTokenException"),
        ],
    );
    let ex = AthenaExecutor::new(s.client(), config());
    let insert = Ev::insert(&rows(2)).build().unwrap();
    let err = ex.execute(&insert).await.unwrap_err();
    assert_eq!(err.commit_state(), CommitState::Unknown, "{err}");
    assert!(
        err.client_request_token().is_some(),
        "the token resolves it: {err}"
    );
}

/// A correction made from a report that is no longer the latest (the batch ran with its
/// earlier rows since, in a run whose report was lost) is refused by Athena through the
/// batch's token chain, never written a second time.
#[tokio::test]
async fn a_correction_from_a_stale_report_is_refused_not_written_twice() {
    let s = server(
        ServerConfig::new().faults(
            FaultPlan::seeded(4)
                .script_queries("'e-0012'", [QueryFault::Fail(Failure::user_data_error())]),
        ),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let options = AppendOptions::new("stale").max_batch_bytes(120);
    let mut all = rows(30);
    let stale = ex
        .append_rows(&all, options.clone(), |_| {})
        .await
        .unwrap_err()
        .report;
    // Run again from scratch (the report was lost): the batch runs with its rows.
    ex.append_rows(&all, options.clone(), |_| {}).await.unwrap();
    // The operator finds the old report and "corrects" a row that is in the table.
    all[12].n = -12;
    let err = ex
        .append_rows(&all, options.skip_committed(&stale), |_| {})
        .await
        .unwrap_err();
    assert!(err.rows_changed(), "{err}");
    s.settle();
    assert_eq!(s.ledger().duplicates(), vec![]);
    assert_eq!(s.ledger().rows_committed(), 30);
}

/// A correction that regroups rows into batches (a longer value splits a batch) is
/// refused before anything is sent: rows could have committed under another batch's
/// tokens.
#[tokio::test]
async fn a_correction_that_regroups_the_batches_is_refused_before_anything_is_sent() {
    let s = server(
        ServerConfig::new().faults(
            FaultPlan::seeded(5)
                .script_queries("'e-0012'", [QueryFault::Fail(Failure::user_data_error())]),
        ),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let options = AppendOptions::new("regrouped").max_batch_bytes(120);
    let mut all = rows(30);
    let report = ex
        .append_rows(&all, options.clone(), |_| {})
        .await
        .unwrap_err()
        .report;
    all[12].n = 123_456_789_012;
    let starts = s.count(Op::StartQueryExecution);
    let err = ex
        .append_rows(&all, options.skip_committed(&report), |_| {})
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("fall into batches differently"),
        "{err}"
    );
    assert_eq!(s.count(Op::StartQueryExecution), starts);
}
