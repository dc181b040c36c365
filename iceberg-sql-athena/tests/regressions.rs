//! The executor's exactly-once cases, written only against the executor API that the
//! earlier executor had as well, so that `scripts/regressions.sh` can run this same file
//! against an older checkout (with this checkout's test server) and show each case
//! failing there and passing here. The outcome of each case is read from the test
//! server's ledger and request log: rows committed twice, starts counted, stops sent.
//! Each test's name starts with `case_<n>_`, the number the script reports.
mod common;

use std::future::Future;
use std::time::Duration;

use common::ev::{config, keys, rows, server, start_tokens, Ev};
use iceberg_sql::prelude::*;
use iceberg_sql_athena::{AppendOptions, AthenaExecutor, CommitState, RetryPolicy, UncheckedSql};
use iceberg_sql_test_server::{
    Failure, Fault, FaultPlan, Op, Plan, QueryFault, ScriptedEngine, ServerConfig,
};

/// `fut`, or a failed test after 60 s (an executor that loops must fail the case, not
/// hang the run).
async fn bounded<F: Future>(what: &str, fut: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), fut)
        .await
        .unwrap_or_else(|_| panic!("{what} did not return within 60 s"))
}

/// A write whose commit went through and whose query then reports ICEBERG_COMMIT_ERROR
/// returns Ok with its rows in the table once (never resubmitted into a second commit).
#[tokio::test]
async fn case_1_a_commit_error_after_the_commit_does_not_write_twice() {
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
    let out = bounded("execute", ex.execute(&insert)).await;
    s.settle();
    let ledger = s.ledger();
    assert_eq!(
        ledger.duplicates(),
        vec![],
        "rows committed twice ({} INSERT starts, result ok: {})",
        start_tokens(&s, "INSERT").len(),
        out.is_ok()
    );
    assert_eq!(ledger.rows_committed(), 3);
    out.expect("the committed write is reported committed");
}

/// An append batch whose query committed and then FAILED with an internal error is
/// settled: the load completes, each of the 30 rows once.
#[tokio::test]
async fn case_2_an_append_batch_that_failed_after_its_commit_is_settled() {
    let s = server(
        ServerConfig::new().faults(FaultPlan::seeded(2).script_queries(
            "'e-0012'",
            [QueryFault::FailAfterCommit(Failure::internal_retryable())],
        )),
    )
    .await;
    let ex = AthenaExecutor::new(s.client(), config());
    let all = rows(30);
    let options = AppendOptions::new("unknown-batch").max_batch_bytes(120);
    // The operator runs the same load again after an error, up to three times.
    let mut last = None;
    for _ in 0..3 {
        let run = bounded("append_rows", ex.append_rows(&all, options.clone(), |_| {})).await;
        let done = run.is_ok();
        last = Some(run);
        if done {
            break;
        }
    }
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.duplicates(), vec![], "rows committed twice");
    let report = match last {
        Some(Ok(report)) => report,
        Some(Err(e)) => panic!(
            "stuck after 3 runs, {} of 30 rows in the table: {e}",
            ledger.rows_committed()
        ),
        None => unreachable!("the loop runs at least once"),
    };
    assert!(report.is_complete());
    assert_eq!(ledger.missing(&keys(&all)), vec![]);
    assert_eq!(ledger.rows_committed(), 30);
}

/// A batch fails on a bad row; the operator fixes the row and runs again from the
/// report: the load completes and each row lands once.
#[tokio::test]
async fn case_3_a_corrected_row_completes_the_load_without_duplicates() {
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
    let err = bounded("append_rows", ex.append_rows(&all, options.clone(), |_| {}))
        .await
        .expect_err("the bad row fails its batch");
    let committed_before = s.ledger().rows_committed();
    assert!(committed_before < 30, "{committed_before}");
    all[12].n = -12;
    let run = bounded(
        "append_rows",
        ex.append_rows(&all, options.skip_committed(&err.report), |_| {}),
    )
    .await;
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.duplicates(), vec![], "rows committed twice");
    if let Err(e) = run {
        panic!("the corrected load is refused: {e}");
    }
    assert_eq!(ledger.missing(&keys(&all)), vec![]);
    assert_eq!(ledger.rows_committed(), 30);
}

/// The future is dropped while StartQueryExecution is in flight (its answer slow, the
/// query created): the query it created is stopped and commits nothing.
#[tokio::test]
async fn case_4_dropping_the_call_during_a_slow_start_stops_the_query() {
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
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while s.count(Op::StopQueryExecution) == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "no stop was sent within 5 s of the drop"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    s.settle();
    let ledger = s.ledger();
    assert_eq!(ledger.executions.len(), 1);
    assert!(ledger.executions[0].stopped.is_some());
    assert_eq!(ledger.rows_committed(), 0);
}

/// Athena's clock 3 s behind the client: a query FAILED at the first poll (a failure
/// that commits nothing) is this call's own, and an unchecked statement with no
/// resubmits is started once.
#[tokio::test]
async fn case_5_athena_behind_the_client_clock_starts_an_unchecked_statement_once() {
    let engine = ScriptedEngine::new().on_contains("SELECT 42", |_| {
        Plan::fail(Failure::user_data_error()).phases(Vec::new())
    });
    let s = server(ServerConfig::new().engine(engine).clock_skew_ms(-3_000)).await;
    let ex = AthenaExecutor::new(
        s.client(),
        config().retry(RetryPolicy {
            max_resubmits: 0,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(5),
        }),
    );
    let out = bounded(
        "execute_unchecked",
        ex.execute_unchecked(&UncheckedSql::new("SELECT 42").unwrap()),
    )
    .await;
    let starts = start_tokens(&s, "SELECT 42").len();
    assert_eq!(
        starts, 1,
        "{starts} starts of a statement allowed no resubmit"
    );
    assert_eq!(s.ledger().executions.len(), 1);
    let err = out.expect_err("the statement fails");
    assert!(err.query_error().is_some(), "{err}");
}

/// The first SDK attempt created the query (its answer a 500), the retry was refused
/// with ExpiredTokenException: the write may be running, so the error says Unknown.
#[tokio::test]
async fn case_6_a_start_created_by_a_lost_attempt_then_refused_is_unknown() {
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
    let err = bounded("execute", ex.execute(&insert))
        .await
        .expect_err("the retry is refused");
    assert_eq!(err.commit_state(), CommitState::Unknown, "{err}");
    assert!(err.client_request_token().is_some(), "{err}");
}

/// The staged-load cases (feature `staged-load`): the server's engine reads the staged
/// files when a write finishes, so the ledger and the bucket directory show rows lost,
/// written twice, or read from files deleted under a running write.
#[cfg(feature = "staged-load")]
mod staged_cases {
    use std::time::Duration;

    use futures::stream::{self, StreamExt};
    use iceberg_sql_athena::staged::{LoadOptions, LoadStep, WriterOptions};
    use iceberg_sql_athena::AthenaExecutor;
    use iceberg_sql_test_server::{Fault, FaultPlan, Op, Plan, ServerConfig, State, TestServer};

    use super::bounded;
    use crate::common::ev::{fast_config, rows, Ev};
    use crate::common::staged::{
        assert_exactly_once, bucket_dir, engine, files_under, staged_ids, staging, Written,
    };

    fn stops_ignored() -> FaultPlan {
        FaultPlan::seeded(1).script(Op::StopQueryExecution, [Fault::Ignored; 4])
    }

    fn inserts(s: &TestServer) -> usize {
        s.ledger().executions_of("INSERT INTO analytics.ev").len()
    }

    /// The same load id with the next day's rows: both days are in the table, once each.
    #[tokio::test]
    async fn case_7_the_same_load_id_with_other_rows_writes_them() {
        let dir = bucket_dir("reg-daily");
        let written = Written::default();
        let s = TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| {
            Plan::succeed().substatement("INSERT")
        })))
        .await
        .unwrap();
        let ex = AthenaExecutor::new(s.client(), fast_config());
        let all = rows(10);
        let (day1, day2) = (all[..5].to_vec(), all[5..].to_vec());
        for day in [&day1, &day2] {
            bounded(
                "load_rows",
                ex.load_rows(day, LoadOptions::new("daily", staging(&dir)), |_| {}),
            )
            .await
            .expect("each day's load returns Ok");
        }
        assert_eq!(inserts(&s), 2, "one write per day");
        assert_exactly_once(&s, &written, &all);
    }

    /// The write outlives the executor's timeout and its stop does not take: its staged
    /// files stay while it runs, and re-runs settle it without a second write.
    #[tokio::test]
    async fn case_8_a_write_that_may_still_run_keeps_its_staging() {
        let dir = bucket_dir("reg-timeout");
        let written = Written::default();
        let s = TestServer::start(
            ServerConfig::new()
                .engine(engine(&dir, &written, |_| {
                    Plan::succeed()
                        .substatement("INSERT")
                        .running_for(Duration::from_millis(600))
                }))
                .faults(stops_ignored()),
        )
        .await
        .unwrap();
        let short = fast_config()
            .timeout(Duration::from_millis(100))
            .stop_grace(Duration::from_millis(20));
        let ex = AthenaExecutor::new(s.client(), short);
        let data = rows(300);
        let load = || ex.load_rows(&data, LoadOptions::new("ev-slow", staging(&dir)), |_| {});
        let err = bounded("load_rows", load())
            .await
            .expect_err("the write outlives the timeout");
        assert_eq!(err.step, LoadStep::Writing, "{err}");
        assert_eq!(
            staged_ids(&dir).len(),
            300,
            "staged rows left under the write still running"
        );
        if bounded("load_rows", load()).await.is_err() {
            tokio::time::sleep(Duration::from_millis(700)).await;
            bounded("load_rows", load()).await.expect("settled");
        }
        assert_eq!(inserts(&s), 1);
        assert_exactly_once(&s, &written, &data);
        assert!(files_under(&dir).is_empty(), "every run's staging removed");
    }

    /// Two runs of one load at once, with different lane counts: no row written twice.
    #[tokio::test]
    async fn case_9_concurrent_runs_of_one_load_write_each_row_once() {
        let dir = bucket_dir("reg-concurrent");
        let written = Written::default();
        let s = TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| {
            Plan::succeed()
                .substatement("INSERT")
                .running_for(Duration::from_millis(200))
        })))
        .await
        .unwrap();
        let ex = AthenaExecutor::new(s.client(), fast_config());
        let data = rows(100);
        let (gate_tx, gate_rx) = tokio::sync::oneshot::channel::<()>();
        let mut gate_tx = Some(gate_tx);
        // Run A opens the gate once its write is sent; run B stages only then.
        let a = ex.load_rows(
            &data,
            LoadOptions::new("ev-twice", staging(&dir))
                .batch_rows(10)
                .writer(WriterOptions::default().lanes(1).max_file_bytes(512)),
            move |p| {
                if p.step == LoadStep::Writing {
                    if let Some(tx) = gate_tx.take() {
                        let _ = tx.send(());
                    }
                }
            },
        );
        let late: Vec<Result<Ev, std::io::Error>> = data.iter().cloned().map(Ok).collect();
        let b_input = stream::once(async move {
            let _ = gate_rx.await;
            stream::iter(late)
        })
        .flatten();
        let b = ex.load_stream(
            b_input,
            LoadOptions::new("ev-twice", staging(&dir))
                .batch_rows(10)
                .writer(WriterOptions::default().lanes(2).max_file_bytes(512)),
            |_| {},
        );
        let (ra, rb) = bounded("both runs", async { tokio::join!(a, b) }).await;
        for (run, r) in [("A", ra.err()), ("B", rb.err())] {
            if let Some(e) = r {
                panic!("run {run} failed: {e}");
            }
        }
        assert_eq!(inserts(&s), 1);
        assert_exactly_once(&s, &written, &data);
    }

    /// The process dies while its write runs: the restart removes nothing under that
    /// write and the rows are written once, from complete files.
    #[tokio::test]
    async fn case_10_a_restart_after_a_crash_mid_write_leaves_the_write_its_files() {
        let dir = bucket_dir("reg-crash");
        let written = Written::default();
        let s = TestServer::start(
            ServerConfig::new()
                .engine(engine(&dir, &written, |_| {
                    Plan::succeed()
                        .substatement("INSERT")
                        .running_for(Duration::from_millis(400))
                }))
                .faults(stops_ignored()),
        )
        .await
        .unwrap();
        let ex = AthenaExecutor::new(s.client(), fast_config());
        let data = rows(500);
        let load = ex.load_rows(
            &data,
            LoadOptions::new("ev-crash", staging(&dir)).writer(WriterOptions::default().lanes(2)),
            |_| {},
        );
        let started = async {
            while inserts(&s) == 0 {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        };
        tokio::select! {
            r = load => panic!("the load finished before the crash: {r:?}"),
            () = started => {}
        }
        // The crashed run's files, which its write reads when it finishes.
        let crashed_files = files_under(&dir);
        assert!(!crashed_files.is_empty());
        let write_running = || {
            s.ledger()
                .executions_of("INSERT INTO analytics.ev")
                .iter()
                .any(|e| matches!(e.state, State::Queued | State::Running))
        };
        // Each progress report of the restart: a file of the crashed run gone while
        // its write still runs.
        let mut deleted_under_write = Vec::new();
        bounded(
            "load_rows",
            ex.load_rows(
                &data,
                LoadOptions::new("ev-crash", staging(&dir))
                    .writer(WriterOptions::default().lanes(3)),
                |p| {
                    if write_running() {
                        deleted_under_write.extend(
                            crashed_files
                                .iter()
                                .filter(|f| !f.exists())
                                .map(|f| format!("{} at step {}", f.display(), p.step)),
                        );
                    }
                },
            ),
        )
        .await
        .expect("the restart finishes the load");
        deleted_under_write.dedup();
        assert_eq!(
            deleted_under_write,
            Vec::<String>::new(),
            "staged files deleted while the crashed run's write still ran"
        );
        assert_eq!(inserts(&s), 1);
        assert_exactly_once(&s, &written, &data);
    }
}
