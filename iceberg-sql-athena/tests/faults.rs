//! The executor under faults, against the Athena-protocol test server over HTTP (the
//! real SDK client: signing, retries, timeouts). One group of tests per way an operator
//! could lose track of a write or kill good work; the ledger counts every row.
mod common;

use common::ev::{config, keys, rows, server, start_tokens, Ev};

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use iceberg_sql::ctas::IcebergCtas;
use iceberg_sql::prelude::*;
use iceberg_sql_athena::{
    ApiErrorClass, AppendOptions, AthenaExecutor, Backoff, BatchState, BeforeResubmit,
    CancelHandle, CommitState, Error, ExecuteOptions, FailureKind, QueryError, RetryPolicy, RunEnd,
};
use iceberg_sql_test_server::{
    Failure, Fault, FaultPlan, Op, Plan, QueryFault, ScriptedEngine, ServerConfig,
};

/// The SDK makes 3 attempts; these lose the first answer (the query is created) and
/// fail the next two, so the SDK gives up on a query that exists.
fn lost_start() -> [Fault; 3] {
    [Fault::LostResponse, Fault::ServerError, Fault::ServerError]
}

// ---- 1. StartQueryExecution fails after the SDK's retries, but the query exists ----

#[tokio::test]
async fn a_start_whose_answer_was_lost_is_resolved_with_the_same_token() {
    let s = server(
        ServerConfig::new()
            .faults(FaultPlan::seeded(1).script(Op::StartQueryExecution, lost_start())),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let insert = Ev::insert(&rows(3)).build().unwrap();
    let out = ex.execute(&insert).await.expect("resolved, not failed");
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.executions.len(), 1, "one query for one statement");
    assert_eq!(out.query_id, ledger.executions[0].id);
    assert_eq!(ledger.rows_committed(), 3);
    let tokens = start_tokens(&s, "INSERT");
    assert_eq!(tokens.len(), 4, "the SDK's 3 attempts, then ours");
    assert!(
        tokens.iter().all(|t| *t == tokens[0]),
        "always the same token"
    );
    assert_eq!(out.runs[0].client_request_token, tokens[0]);
}

#[tokio::test]
async fn an_unresolved_start_says_its_outcome_is_unknown_and_its_token_resolves_it() {
    let mut faults = vec![Fault::LostResponse];
    faults.extend([Fault::Throttle; 60]);
    let s = server(
        ServerConfig::new().faults(FaultPlan::seeded(11).script(Op::StartQueryExecution, faults)),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config().timeout(Duration::from_millis(150)));
    let insert = Ev::insert(&rows(2)).build().unwrap();
    let err = ex.execute(&insert).await.unwrap_err();
    assert!(err.outcome_unknown(), "{err}");
    assert_eq!(err.commit_state(), CommitState::Unknown);
    let token = err
        .client_request_token()
        .expect("carries its token")
        .to_string();
    assert_eq!(token, start_tokens(&s, "INSERT")[0]);
    // Resolve: the same token answers the execution Athena created (the throttles
    // left over are waited out).
    let ex = AthenaExecutor::new(s.client(), config());
    let out = ex
        .execute_with(&insert, ExecuteOptions::new().client_request_token(&token))
        .await
        .unwrap();
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.executions.len(), 1);
    assert_eq!(out.query_id, ledger.executions[0].id);
    assert_eq!(ledger.rows_committed(), 2);
    assert!(s.stats().token_replays >= 1);
}

#[tokio::test]
async fn a_rejected_start_is_known_not_committed() {
    let s = server(ServerConfig::new()).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let first = Ev::insert(&rows(1)).build().unwrap();
    let other = Ev::insert(&rows(2)).build().unwrap();
    let token = "reused-token-0000000000000000000000000";
    let options = || ExecuteOptions::new().client_request_token(token);
    ex.execute_with(&first, options()).await.unwrap();
    // The same token with another QueryString: Athena refuses it.
    let err = ex.execute_with(&other, options()).await.unwrap_err();
    let api = err.api_error().expect("an API error");
    assert_eq!(api.code.as_deref(), Some("InvalidRequestException"));
    assert_eq!(api.class, ApiErrorClass::Rejected);
    assert_eq!(err.commit_state(), CommitState::NotCommitted);
    assert_eq!(s.ledger().executions.len(), 1);
    assert!(matches!(
        ex.execute_with(&first, ExecuteOptions::new().client_request_token("short"))
            .await,
        Err(Error::InvalidArgument(_))
    ));
}

// ---- 2. Observation failures are waited out; stops only on timeout/cancel/drop ----

#[tokio::test]
async fn throttled_polls_do_not_stop_a_healthy_query() {
    let s = server(
        ServerConfig::new()
            .faults(FaultPlan::seeded(2).script(Op::GetQueryExecution, [Fault::Throttle; 7])),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let insert = Ev::insert(&rows(2)).build().unwrap();
    let out = ex.execute(&insert).await.expect("throttling is waited out");
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(s.count(Op::StopQueryExecution), 0);
    let ledger = s.ledger();
    assert_eq!(ledger.healthy_stops(), 0);
    assert_eq!(ledger.rows_committed(), 2);
    assert_eq!(out.query_id, ledger.executions[0].id);
}

#[tokio::test]
async fn every_kind_of_poll_failure_is_waited_out() {
    let faults = [
        Fault::ServerError,
        Fault::Reset,
        Fault::Unavailable,
        Fault::Slow(Duration::from_millis(300)),
        Fault::LostConnection,
        Fault::ServerError,
        Fault::Reset,
        Fault::Throttle,
        Fault::ServerError,
    ];
    let s = server(
        ServerConfig::new().faults(FaultPlan::seeded(3).script(Op::GetQueryExecution, faults)),
    )
    .await;
    let client = aws_sdk_athena::Client::from_conf(
        s.client_config()
            .timeout_config(
                aws_sdk_athena::config::timeout::TimeoutConfig::builder()
                    .operation_attempt_timeout(Duration::from_millis(100))
                    .build(),
            )
            .build(),
    );
    let ex = AthenaExecutor::new(client, config());
    let insert = Ev::insert(&rows(4)).build().unwrap();
    ex.execute(&insert).await.expect("all waited out");
    assert_eq!(s.count(Op::StopQueryExecution), 0);
    assert_eq!(s.ledger().rows_committed(), 4);
}

#[tokio::test]
async fn a_timeout_stops_the_query_and_reports_its_final_state() {
    let engine = ScriptedEngine::new().on_contains("INSERT", |_| Plan::succeed().running_forever());
    let s = server(ServerConfig::new().engine(engine)).await;
    let ex = AthenaExecutor::new(s.client(), config().timeout(Duration::from_millis(200)));
    let insert = Ev::insert(&rows(1)).build().unwrap();
    let err = ex.execute(&insert).await.unwrap_err();
    match &err {
        Error::Timeout {
            query_id,
            stop_sent,
            commit_state,
            client_request_token,
            ..
        } => {
            assert_eq!(
                query_id.as_deref(),
                Some(s.ledger().executions[0].id.as_str())
            );
            assert!(stop_sent);
            assert_eq!(*commit_state, CommitState::NotCommitted, "seen CANCELLED");
            assert!(client_request_token.is_some());
        }
        other => panic!("expected Timeout, got {other:?}"),
    }
    assert!(!err.outcome_unknown());
    assert_eq!(s.count(Op::StopQueryExecution), 1);
    assert_eq!(s.ledger().rows_committed(), 0);
}

#[tokio::test]
async fn cancel_stops_the_query_and_returns_its_final_state() {
    let engine = ScriptedEngine::new().on_contains("INSERT", |_| Plan::succeed().running_forever());
    let s = server(ServerConfig::new().engine(engine)).await;
    let ex = AthenaExecutor::new(s.client(), config().no_timeout());
    let insert = Ev::insert(&rows(1)).build().unwrap();
    let cancel = CancelHandle::new();
    let canceller = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(60)).await;
        canceller.cancel();
    });
    let err = ex
        .execute_with(&insert, ExecuteOptions::new().cancel_handle(&cancel))
        .await
        .unwrap_err();
    let Error::Cancelled(q) = &err else {
        panic!("expected Cancelled, got {err:?}")
    };
    assert_eq!(q.commit_state(), CommitState::NotCommitted);
    assert_eq!(s.count(Op::StopQueryExecution), 1);
    assert_eq!(s.ledger().rows_committed(), 0);
}

#[tokio::test]
async fn cancel_during_a_resubmission_backoff_resubmits_nothing() {
    let engine =
        ScriptedEngine::new().on_contains("INSERT", |_| Plan::fail(Failure::internal_retryable()));
    let s = server(ServerConfig::new().engine(engine)).await;
    let ex = AthenaExecutor::new(
        s.client(),
        config().retry(RetryPolicy {
            max_resubmits: 3,
            base_delay: Duration::from_secs(10),
            max_delay: Duration::from_secs(10),
        }),
    );
    let insert = Ev::insert(&rows(1)).build().unwrap();
    let cancel = CancelHandle::new();
    let canceller = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        canceller.cancel();
    });
    let started = std::time::Instant::now();
    let err = ex
        .execute_with(&insert, ExecuteOptions::new().cancel_handle(&cancel))
        .await
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "woken by cancel"
    );
    assert!(matches!(err, Error::Failed(_)), "{err:?}");
    assert_eq!(
        start_tokens(&s, "INSERT").len(),
        1,
        "not resubmitted after cancel()"
    );
}

/// Waits (polling every 5 ms) until `done()` holds; panics after 10 s.
async fn until(done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "condition not reached in 10 s"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn dropping_the_call_stops_its_query() {
    let engine = ScriptedEngine::new().on_contains("INSERT", |_| Plan::succeed().running_forever());
    let s = server(ServerConfig::new().engine(engine)).await;
    let ex = AthenaExecutor::new(s.client(), config().no_timeout());
    let insert = Ev::insert(&rows(1)).build().unwrap();
    // Drop the call once the query runs (its first poll answered), however slow the
    // machine; then give the guard's spawned stop up to 10 s to arrive.
    {
        let call = ex.execute(&insert);
        tokio::pin!(call);
        let started = until(|| s.count(Op::GetQueryExecution) >= 1);
        tokio::select! {
            _ = &mut call => panic!("the query never finishes"),
            _ = started => {}
        }
    }
    until(|| s.count(Op::StopQueryExecution) >= 1).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(s.count(Op::StopQueryExecution), 1, "one stop, not more");
    assert_eq!(
        s.ledger().executions[0].stopped.as_ref().map(|s| s.healthy),
        Some(true)
    );
}

// ---- 3. Appends: each batch committed / not committed / unknown; re-runs write no row twice ----

#[tokio::test]
async fn an_append_resolves_lost_starts_itself() {
    let s = server(ServerConfig::new()).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let all = rows(30);
    // The third batch's start creates the query but every SDK attempt loses its answer.
    let mut script = vec![Fault::Pass, Fault::Pass];
    script.extend(lost_start());
    s.script(Op::StartQueryExecution, script);
    let report = ex
        .append_rows(
            &all,
            AppendOptions::new("lost-start").max_batch_bytes(120),
            |_| {},
        )
        .await
        .unwrap();
    s.settle();
    let ledger = s.ledger();
    assert!(report.batches.len() >= 4);
    assert!(report.is_complete());
    assert_eq!(ledger.duplicates(), vec![]);
    assert_eq!(ledger.missing(&keys(&all)), vec![]);
    assert_eq!(ledger.executions.len(), report.batches.len());
}

#[tokio::test]
async fn a_failed_append_reports_each_batch_and_a_rerun_writes_no_row_twice() {
    let all = rows(30);
    // Batch 3 (rows from e-0012 on) fails with a data error: not retryable.
    let s = server(
        ServerConfig::new().faults(
            FaultPlan::seeded(5)
                .script_queries("'e-0012'", [QueryFault::Fail(Failure::user_data_error())]),
        ),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let options = AppendOptions::new("nightly-ev").max_batch_bytes(120);
    let batches = Ev::insert(&all).max_bytes(120).batches_with_rows().unwrap();
    let failing = batches
        .iter()
        .position(|(_, b)| b.sql().contains("'e-0012'"))
        .unwrap();
    let mut progress = Vec::new();
    let err = ex
        .append_rows(&all, options.clone(), |p| {
            progress.push((p.batch, p.rows.clone()))
        })
        .await
        .unwrap_err();
    assert_eq!(err.failed_batch, failing);
    assert_eq!(err.error.query_error().unwrap().kind(), FailureKind::Other);
    let states: Vec<BatchState> = err.report.batches.iter().map(|b| b.state).collect();
    for (i, st) in states.iter().enumerate() {
        let expected = match i.cmp(&failing) {
            std::cmp::Ordering::Less => BatchState::Committed,
            std::cmp::Ordering::Equal => BatchState::NotCommitted,
            std::cmp::Ordering::Greater => BatchState::NotSent,
        };
        assert_eq!(*st, expected, "batch {i}");
    }
    let committed: Vec<_> = batches[..failing].iter().map(|(r, _)| r.clone()).collect();
    assert_eq!(err.report.committed_rows(), committed);
    assert_eq!(
        progress,
        committed
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, r)| (i, Some(r)))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        s.ledger().rows_committed(),
        committed.iter().map(Vec::len).sum::<usize>()
    );

    // Run the same load again: the committed batches' tokens answer their executions,
    // the failed batch moves on to its next token, the rest run.
    let report = ex.append_rows(&all, options.clone(), |_| {}).await.unwrap();
    assert!(report.is_complete());
    // And once more (a crash after success): nothing new is created.
    let before = s.ledger().executions.len();
    ex.append_rows(&all, options, |_| {}).await.unwrap();
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.executions.len(), before, "all answered from tokens");
    assert_eq!(ledger.duplicates(), vec![]);
    assert_eq!(ledger.missing(&keys(&all)), vec![]);
}

#[tokio::test]
async fn resuming_from_a_report_skips_committed_batches_and_checks_the_rows() {
    let all = rows(20);
    let s = server(
        ServerConfig::new()
            .faults(FaultPlan::seeded(6).script_queries("'e-0008'", [QueryFault::Cancel])),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let options = AppendOptions::new("resume").max_batch_bytes(120);
    let err = ex
        .append_rows(&all, options.clone(), |_| {})
        .await
        .unwrap_err();
    assert!(matches!(err.error, Error::Cancelled(_)));
    assert_eq!(
        err.report.batches[err.failed_batch].state,
        BatchState::NotCommitted
    );
    let starts_before = start_tokens(&s, "INSERT").len();
    let report = ex
        .append_rows(&all, options.clone().skip_committed(&err.report), |_| {})
        .await
        .unwrap();
    assert!(report.is_complete());
    assert_eq!(
        start_tokens(&s, "INSERT").len() - starts_before,
        report.batches.len() - err.failed_batch + 1,
        "committed batches were not sent again; the cancelled one was replayed, then retried"
    );
    assert_eq!(s.ledger().duplicates(), vec![]);
    assert_eq!(s.ledger().missing(&keys(&all)), vec![]);
    // Changed rows in a committed batch are refused before anything is sent.
    let starts = s.count(Op::StartQueryExecution);
    let mut other = rows(20);
    other[0].n = 99;
    let refused = ex
        .append_rows(&other, options.clone().skip_committed(&report), |_| {})
        .await
        .unwrap_err();
    assert!(matches!(refused.error, Error::InvalidArgument(_)));
    assert!(refused.to_string().contains("cannot change"), "{refused}");
    assert_eq!(s.count(Op::StartQueryExecution), starts);
    // A row added after the committed ones is the only one written.
    let more = rows(21);
    ex.append_rows(&more, options.skip_committed(&report), |_| {})
        .await
        .unwrap();
    s.settle();
    assert_eq!(s.ledger().duplicates(), vec![]);
    assert_eq!(s.ledger().missing(&keys(&more)), vec![]);
    assert_eq!(s.ledger().rows_committed(), 21);
}

#[tokio::test]
async fn the_same_load_with_changed_rows_is_refused_by_athena_not_written_twice() {
    let s = server(ServerConfig::new()).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let options = AppendOptions::new("changed").max_batch_bytes(120);
    ex.append_rows(&rows(10), options.clone(), |_| {})
        .await
        .unwrap();
    let mut changed = rows(10);
    changed[0].n = 99;
    let err = ex.append_rows(&changed, options, |_| {}).await.unwrap_err();
    assert_eq!(err.failed_batch, 0);
    assert_eq!(err.report.batches[0].state, BatchState::NotCommitted);
    assert_eq!(
        err.error.api_error().and_then(|a| a.code.as_deref()),
        Some("InvalidRequestException")
    );
    assert_eq!(s.ledger().duplicates(), vec![]);
}

// ---- 4. Retry policy per statement kind ----

fn ctas() -> Statement {
    let select = Ev::select();
    let copy = TableDef::builder("analytics", "ev_copy")
        .column(Column::new("event_id", IcebergType::String).required())
        .column(Column::new("n", IcebergType::Long))
        .location("s3://lake/ev_copy/")
        .build()
        .unwrap();
    IcebergCtas::new(copy.name().clone(), &select)
        .like(&copy)
        .build()
        .unwrap()
}

struct CountingCleanup(Arc<AtomicUsize>, bool);

impl BeforeResubmit for CountingCleanup {
    fn before_resubmit<'a>(
        &'a self,
        _executor: &'a AthenaExecutor,
        statement: &'a Statement,
        failure: &'a QueryError,
    ) -> BoxFuture<'a, iceberg_sql_athena::Result<()>> {
        Box::pin(async move {
            assert_eq!(statement.kind(), StatementKind::CreateTableAs);
            assert!(failure.retryable);
            self.0.fetch_add(1, Ordering::SeqCst);
            if self.1 {
                Ok(())
            } else {
                Err(Error::InvalidArgument("the location is not empty".into()))
            }
        })
    }
}

#[tokio::test]
async fn a_failed_ctas_is_resubmitted_only_after_cleanup() {
    let engine = || {
        let mut first = true;
        ScriptedEngine::new().on_contains("CREATE TABLE", move |_| {
            if std::mem::take(&mut first) {
                Plan::fail(Failure::internal_retryable())
            } else {
                Plan::succeed()
            }
        })
    };
    // No cleanup hook: not resubmitted.
    let s = server(ServerConfig::new().engine(engine())).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let err = ex.execute(&ctas()).await.unwrap_err();
    assert!(err.query_error().unwrap().is_retryable());
    assert_eq!(err.commit_state(), CommitState::NotCommitted);
    assert_eq!(s.ledger().executions.len(), 1, "no blind resubmission");

    // With a hook: it runs, then the CTAS is resubmitted with a new token.
    let s = server(ServerConfig::new().engine(engine())).await;
    let calls = Arc::new(AtomicUsize::new(0));
    let ex = AthenaExecutor::new(s.client(), config())
        .before_resubmit(Arc::new(CountingCleanup(calls.clone(), true)));
    let out = ex.execute(&ctas()).await.unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(out.runs.len(), 2);
    let tokens = start_tokens(&s, "CREATE TABLE");
    assert_eq!(tokens.len(), 2);
    assert_ne!(tokens[0], tokens[1], "a new token for a resubmission");

    // A failing hook stops the retry and keeps both errors.
    let s = server(ServerConfig::new().engine(engine())).await;
    let calls = Arc::new(AtomicUsize::new(0));
    let ex = AthenaExecutor::new(s.client(), config())
        .before_resubmit(Arc::new(CountingCleanup(calls.clone(), false)));
    let err = ex.execute(&ctas()).await.unwrap_err();
    assert!(matches!(err, Error::Cleanup { .. }), "{err:?}");
    assert_eq!(s.ledger().executions.len(), 1);
}

#[tokio::test]
async fn a_write_that_failed_after_its_commit_is_never_resubmitted() {
    let s = server(
        ServerConfig::new().faults(FaultPlan::seeded(7).script_queries(
            "INSERT",
            [QueryFault::FailAfterCommit(Failure::result_write_failed())],
        )),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let insert = Ev::insert(&rows(2)).build().unwrap();
    // Athena says retryable, but the rows may be in: the executor reads the table's
    // snapshots instead of resubmitting, finds the write's, and reports it committed.
    let out = ex.execute(&insert).await.expect("settled committed");
    let evidence = out.evidence.expect("settled by the snapshots");
    assert_eq!(evidence.verdict, CommitState::Committed);
    s.settle();
    assert_eq!(start_tokens(&s, "INSERT").len(), 1, "never resubmitted");
    assert_eq!(s.ledger().rows_committed(), 2);
    assert_eq!(s.ledger().duplicates(), vec![]);
}

#[tokio::test]
async fn iceberg_commit_errors_are_resubmitted_with_a_new_token() {
    let s = server(
        ServerConfig::new().faults(FaultPlan::seeded(8).script_queries(
            "INSERT",
            [
                QueryFault::Fail(Failure::iceberg_commit_error()),
                QueryFault::Fail(Failure::glue_throttled()),
            ],
        )),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let insert = Ev::insert(&rows(3)).build().unwrap();
    let out = ex.execute(&insert).await.unwrap();
    assert_eq!(out.runs.len(), 3);
    assert!(
        matches!(&out.runs[0].end, RunEnd::Resubmitted(q) if q.kind() == FailureKind::IcebergCommitConflict)
    );
    assert!(
        matches!(&out.runs[1].end, RunEnd::Resubmitted(q) if q.kind() == FailureKind::Throttled)
    );
    let tokens = start_tokens(&s, "INSERT");
    assert_eq!(tokens.len(), 3);
    assert!(tokens[0] != tokens[1] && tokens[1] != tokens[2]);
    assert_eq!(s.ledger().rows_committed(), 3);
}

// ---- 5. OPTIMIZE/VACUUM: per-run timeout, overall deadline, completed runs kept ----

fn optimize_engine(
    more_runs: usize,
    run_time: Duration,
    fail_run: Option<usize>,
) -> ScriptedEngine {
    ScriptedEngine::new().on(
        |sql| sql.starts_with("OPTIMIZE"),
        move |q| {
            let plan = if Some(q.earlier_runs) == fail_run {
                Plan::fail(Failure::new(1, 200, false, "GENERIC_INTERNAL_ERROR: lost"))
            } else if q.earlier_runs < more_runs {
                Plan::fail(Failure::optimize_more_runs_needed())
            } else {
                Plan::succeed()
            };
            plan.running_for(run_time)
        },
    )
}

#[tokio::test]
async fn the_timeout_bounds_each_maintenance_run_not_the_whole_loop() {
    let s =
        server(ServerConfig::new().engine(optimize_engine(3, Duration::from_millis(250), None)))
            .await;
    let ex = AthenaExecutor::new(s.client(), config().timeout(Duration::from_millis(600)));
    let optimize = Ev::table_def().optimize().build().unwrap();
    let out = ex
        .execute(&optimize)
        .await
        .expect("4 runs of 250 ms each fit a 600 ms limit per run");
    assert_eq!(out.runs.len(), 4);
}

#[tokio::test]
async fn a_maintenance_failure_returns_the_runs_that_completed() {
    let s = server(ServerConfig::new().engine(optimize_engine(5, Duration::ZERO, Some(2)))).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let optimize = Ev::table_def().optimize().build().unwrap();
    let err = ex.execute(&optimize).await.unwrap_err();
    let Error::MaintenanceIncomplete { completed, error } = &err else {
        panic!("expected MaintenanceIncomplete, got {err:?}")
    };
    assert_eq!(completed.len(), 2);
    assert!(completed
        .iter()
        .all(|r| matches!(r.end, RunEnd::MoreRunsNeeded(_))));
    assert!(matches!(**error, Error::Failed(_)));

    // The overall deadline: runs of 150 ms, 400 ms for all of them.
    let s =
        server(ServerConfig::new().engine(optimize_engine(10, Duration::from_millis(150), None)))
            .await;
    let ex = AthenaExecutor::new(
        s.client(),
        config()
            .timeout(Duration::from_secs(5))
            .maintenance_deadline(Duration::from_millis(400)),
    );
    let err = ex.execute(&optimize).await.unwrap_err();
    let Error::MaintenanceIncomplete { completed, error } = &err else {
        panic!("expected MaintenanceIncomplete, got {err:?}")
    };
    assert!(
        !completed.is_empty() && completed.len() <= 3,
        "{}",
        completed.len()
    );
    assert!(error.is_timeout());

    // maintain_steps keeps OPTIMIZE's runs when VACUUM fails.
    let engine = optimize_engine(1, Duration::ZERO, None).on_contains("VACUUM", |_| {
        Plan::fail(Failure::new(2, 1006, false, "SYNTAX_ERROR"))
    });
    let s = server(ServerConfig::new().engine(engine)).await;
    let ex = AthenaExecutor::new(s.client(), config());
    let vacuum = Ev::table_def().vacuum().build().unwrap();
    let err = ex.maintain(&optimize, &vacuum).await.unwrap_err();
    let Error::MaintenanceIncomplete { completed, .. } = &err else {
        panic!("expected MaintenanceIncomplete, got {err:?}")
    };
    assert_eq!(
        completed.len(),
        2,
        "OPTIMIZE: one MORE_RUNS run and the final one"
    );
}

// ---- 6. Error::Api: source, request id, throttling, one line ----

#[tokio::test]
async fn api_errors_keep_their_source_and_print_one_line() {
    let s = server(
        ServerConfig::new()
            .faults(FaultPlan::seeded(9).script(Op::StartQueryExecution, [Fault::Throttle; 3])),
    )
    .await;
    // A first backoff longer than the time left: the executor gives up after the SDK.
    let ex = AthenaExecutor::new(
        s.client(),
        config()
            .timeout(Duration::from_millis(500))
            .api_backoff(Backoff {
                initial: Duration::from_secs(10),
                max: Duration::from_secs(10),
            }),
    );
    let drop = Ev::table_def()
        .name()
        .drop_table()
        .if_exists()
        .build()
        .unwrap();
    let err = ex.execute(&drop).await.unwrap_err();
    let api = err.api_error().expect("an API error");
    assert!(err.is_throttling() && api.is_throttling());
    assert_eq!(api.operation, "StartQueryExecution");
    assert_eq!(api.statement_kind, Some(StatementKind::DropTable));
    assert_eq!(api.code.as_deref(), Some("ThrottlingException"));
    assert_eq!(api.message, "Rate exceeded");
    assert_eq!(api.http_status, Some(400));
    assert_eq!(err.request_id(), Some("req-00000003"));
    assert!(
        err.outcome_unknown(),
        "a throttled start may follow one that created it"
    );
    let shown = err.to_string();
    assert_eq!(
        shown,
        "Athena StartQueryExecution for DROP TABLE failed: ThrottlingException: Rate exceeded (HTTP 400, request id req-00000003, outcome unknown)"
    );
    let source = std::error::Error::source(&err).expect("keeps the SDK error");
    assert!(source
        .downcast_ref::<aws_sdk_athena::error::SdkError<
            aws_sdk_athena::operation::start_query_execution::StartQueryExecutionError,
        >>()
        .is_some());
}
