//! Staged loads against the Athena-protocol test server, with the staging files in a
//! local directory standing for the bucket. The server's engine finds the staging
//! table's folder when a write is submitted and reads the files in it when the write
//! finishes, so the ledger counts every row the write put in the table: each row
//! exactly once, after any failure, any re-run and any concurrent run.
mod common;

use std::sync::{Arc, Mutex};

use futures::stream::{self, StreamExt};
use iceberg_sql::prelude::*;
use iceberg_sql_athena::staged::{LoadOptions, LoadStep, Staging, WriterOptions};
use iceberg_sql_athena::{AthenaExecutor, CommitState};
use iceberg_sql_test_server::{Failure, Fault, FaultPlan, Op, Plan, ServerConfig, TestServer};

use common::ev::{fast_config, rows, Ev};
use common::staged::{
    assert_exactly_once, bucket_dir, engine, files_under, staged_ids, staging, Written,
};

fn statements(s: &TestServer) -> Vec<String> {
    s.ledger()
        .executions
        .iter()
        .map(|e| {
            e.sql
                .split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[tokio::test]
async fn a_load_stages_files_writes_once_and_removes_everything() {
    let dir = bucket_dir("ok");
    let written = Written::default();
    let s = TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| {
        Plan::succeed().substatement("INSERT")
    })))
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let data = rows(5000);
    let mut steps = Vec::new();
    let options = LoadOptions::new("ev-2024-05-01", staging(&dir))
        .batch_rows(500)
        .writer(
            WriterOptions::default()
                .lanes(2)
                .row_group_rows(400)
                .max_file_bytes(4096),
        );
    let report = ex
        .load_rows(&data, options, |p| steps.push(p.step))
        .await
        .expect("loaded");
    assert_eq!(report.rows, 5000);
    assert!(
        report.files.len() > 2,
        "bounded files: {}",
        report.files.len()
    );
    assert_eq!(report.commit_state, CommitState::Committed);
    assert!(report.staging_dropped);
    assert_eq!(report.objects_deleted, report.files.len());
    assert!(files_under(&dir).is_empty(), "no staged file left");
    assert_eq!(
        statements(&s),
        [
            "DROP TABLE IF",
            "CREATE EXTERNAL TABLE",
            "INSERT INTO analytics.ev",
            "DROP TABLE IF"
        ]
    );
    let write = &s.ledger().executions[2];
    assert_eq!(write.token, report.write_token);
    assert_eq!(report.write.as_ref().unwrap().query_id, write.id);
    assert_exactly_once(&s, &written, &data);
    steps.dedup();
    assert_eq!(
        steps,
        [
            LoadStep::Preparing,
            LoadStep::Staging,
            LoadStep::Exposing,
            LoadStep::Writing,
            LoadStep::CleaningUp,
            LoadStep::Done
        ]
    );
}

#[tokio::test]
async fn a_failed_write_commits_nothing_and_cleans_up() {
    let dir = bucket_dir("write-fails");
    let written = Written::default();
    let s = TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| {
        Plan::fail(Failure::user_data_error())
    })))
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let err = ex
        .load_rows(
            &rows(100),
            LoadOptions::new("ev-fail", staging(&dir)),
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.step, LoadStep::Writing, "{err}");
    assert_eq!(err.report.commit_state, CommitState::NotCommitted);
    assert!(err.cleanup_error.is_none());
    assert!(err.report.staging_dropped);
    assert!(files_under(&dir).is_empty(), "no staged file left");
    assert_eq!(statements(&s).last().unwrap(), "DROP TABLE IF");
    assert_exactly_once(&s, &written, &[]);
}

#[tokio::test]
async fn a_failed_create_never_writes_and_cleans_up() {
    let dir = bucket_dir("create-fails");
    let written = Written::default();
    let s = TestServer::start(ServerConfig::new().engine(
        engine(&dir, &written, |_| Plan::succeed()).on_contains("CREATE EXTERNAL TABLE", |_| {
            Plan::fail(Failure::new(2, 1100, false, "Glue: access denied")).statement_type("DDL")
        }),
    ))
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let err = ex
        .load_rows(
            &rows(100),
            LoadOptions::new("ev-create", staging(&dir)),
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.step, LoadStep::Exposing, "{err}");
    assert_eq!(err.report.commit_state, CommitState::NotCommitted);
    assert!(files_under(&dir).is_empty(), "no staged file left");
    assert_eq!(
        statements(&s),
        ["DROP TABLE IF", "CREATE EXTERNAL TABLE", "DROP TABLE IF"]
    );
}

#[tokio::test]
async fn a_source_failure_while_staging_exposes_nothing_and_deletes_the_files() {
    let dir = bucket_dir("source-fails");
    let written = Written::default();
    let s =
        TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| Plan::succeed())))
            .await
            .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let good = rows(300);
    let items: Vec<Result<Ev, std::io::Error>> = good
        .into_iter()
        .map(Ok)
        .chain([Err(std::io::Error::other("the source broke"))])
        .collect();
    let options = LoadOptions::new("ev-source", staging(&dir)).batch_rows(100);
    let err = ex
        .load_stream(stream::iter(items), options, |_| {})
        .await
        .unwrap_err();
    assert_eq!(err.step, LoadStep::Staging, "{err}");
    assert!(err.to_string().contains("the source broke"), "{err}");
    assert!(files_under(&dir).is_empty(), "no staged file left");
    assert!(statements(&s).is_empty(), "nothing exposed");
}

/// The write committed but the load failed afterwards (its cleanup's DROP failed): a
/// re-run of the same load sends the same write with the same token, Athena answers
/// with the execution that committed, and no row is written twice.
#[tokio::test]
async fn a_rerun_after_a_committed_write_does_not_write_again() {
    let dir = bucket_dir("rerun");
    let written = Written::default();
    let drops = Arc::new(Mutex::new(0usize));
    let d = drops.clone();
    let s = TestServer::start(ServerConfig::new().engine(
        engine(&dir, &written, |_| Plan::succeed().substatement("INSERT")).on_contains(
            "DROP TABLE IF EXISTS",
            move |_| {
                let mut n = d.lock().unwrap();
                *n += 1;
                // The second DROP (the first run's cleanup) fails.
                if *n == 2 {
                    Plan::fail(Failure::new(2, 1100, false, "Glue: throttled for good"))
                        .statement_type("DDL")
                } else {
                    Plan::succeed().statement_type("DDL")
                }
            },
        ),
    ))
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let data = rows(1000);
    let err = ex
        .load_rows(&data, LoadOptions::new("ev-rerun", staging(&dir)), |_| {})
        .await
        .unwrap_err();
    assert_eq!(err.step, LoadStep::CleaningUp, "{err}");
    assert_eq!(err.report.commit_state, CommitState::Committed);
    assert!(err.to_string().contains("committed"), "{err}");
    let first_write = err.report.write.clone().unwrap().query_id;

    let again = ex
        .load_rows(&data, LoadOptions::new("ev-rerun", staging(&dir)), |_| {})
        .await
        .expect("the re-run finishes");
    assert_eq!(
        again.write.unwrap().query_id,
        first_write,
        "the same execution"
    );
    assert!(files_under(&dir).is_empty(), "no staged file left");
    assert_eq!(
        s.ledger().executions_of("INSERT INTO analytics.ev").len(),
        1
    );
    assert_exactly_once(&s, &written, &data);

    // With the earlier report, a resume does not depend on Athena's token memory.
    let resumed = ex
        .load_rows(
            &data,
            LoadOptions::new("ev-rerun", staging(&dir)).skip_committed(&err.report),
            |_| {},
        )
        .await
        .expect("cleanup only");
    assert_eq!(resumed.commit_state, CommitState::Committed);
    assert_eq!(
        s.ledger().executions_of("INSERT INTO analytics.ev").len(),
        1
    );
    assert_exactly_once(&s, &written, &data);
}

/// A write whose answer is lost (the query exists, the SDK gives up): the executor
/// finds it again by its token; the rows are written once.
#[tokio::test]
async fn a_lost_start_of_the_write_is_found_by_its_token() {
    let dir = bucket_dir("lost");
    let written = Written::default();
    let s = TestServer::start(
        ServerConfig::new()
            .engine(engine(&dir, &written, |_| {
                Plan::succeed().substatement("INSERT")
            }))
            .faults(FaultPlan::seeded(3).script(
                Op::StartQueryExecution,
                // DROP and CREATE go through; the write's first answer is lost and the
                // SDK's two retries fail.
                [
                    Fault::Pass,
                    Fault::Pass,
                    Fault::LostResponse,
                    Fault::ServerError,
                    Fault::ServerError,
                ],
            )),
    )
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let data = rows(200);
    let report = ex
        .load_rows(&data, LoadOptions::new("ev-lost", staging(&dir)), |_| {})
        .await
        .expect("loaded");
    assert_eq!(report.commit_state, CommitState::Committed);
    assert_eq!(
        s.ledger().executions_of("INSERT INTO analytics.ev").len(),
        1
    );
    assert_exactly_once(&s, &written, &data);
}

#[tokio::test]
async fn a_merge_load_runs_one_merge() {
    let dir = bucket_dir("merge");
    let written = Written::default();
    let s = TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| {
        Plan::succeed().substatement("MERGE")
    })))
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let data = rows(50);
    let report = ex
        .load_rows(
            &data,
            LoadOptions::new("ev-merge", staging(&dir))
                .merge_on("event_id")
                .dedup_by("n"),
            |_| {},
        )
        .await
        .expect("merged");
    assert_eq!(report.rows, 50);
    let merges = s.ledger().executions_of("MERGE INTO analytics.ev").len();
    assert_eq!(merges, 1);
    assert!(files_under(&dir).is_empty());
}

/// The load and append futures can be spawned on a multi-threaded runtime: they are
/// `Send` whatever the input (the driver takes its input boxed, so this is what keeps
/// a change there honest). Type-checked only; the closure is never called.
#[test]
fn the_load_and_append_futures_are_send() {
    fn send<F: std::future::Future + Send>(_: F) {}
    let _ = |e: AthenaExecutor, rows: Vec<Ev>, s: Staging| {
        send(e.load_rows(&rows, LoadOptions::new("l", s.clone()), |_| {}));
        send(e.load_iter(rows.clone(), LoadOptions::new("l", s.clone()), |_| {}));
        send(e.load_stream(
            stream::iter(rows.clone().into_iter().map(Ok::<_, std::io::Error>)),
            LoadOptions::new("l", s),
            |_| {},
        ));
        send(e.append_rows(&rows, iceberg_sql_athena::AppendOptions::new("a"), |_| {}));
    };
}

/// The next day's rows under a fixed load id are another write (the token and the
/// staging table are named after the rows): both days are in the table, once each.
#[tokio::test]
async fn the_same_load_id_with_other_rows_writes_them_once() {
    let dir = bucket_dir("daily");
    let written = Written::default();
    let s = TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| {
        Plan::succeed().substatement("INSERT")
    })))
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let all = rows(10);
    let (day1, day2) = (all[..5].to_vec(), all[5..].to_vec());
    let r1 = ex
        .load_rows(&day1, LoadOptions::new("daily", staging(&dir)), |_| {})
        .await
        .expect("day 1");
    let r2 = ex
        .load_rows(&day2, LoadOptions::new("daily", staging(&dir)), |_| {})
        .await
        .expect("day 2");
    assert_ne!(r1.write_token, r2.write_token);
    assert_ne!(r1.rows_sha256, r2.rows_sha256);
    assert_eq!(r2.commit_state, CommitState::Committed);
    assert_eq!(
        s.ledger().executions_of("INSERT INTO analytics.ev").len(),
        2
    );
    assert_exactly_once(&s, &written, &all);
    assert!(files_under(&dir).is_empty(), "no staged file left");
}

fn stops_ignored() -> FaultPlan {
    FaultPlan::seeded(1).script(Op::StopQueryExecution, [Fault::Ignored; 4])
}

/// The write outlives the executor's timeout and its stop does not take: its staging
/// is kept (the write reads it when it finishes), and a re-run of the same rows finds
/// the write by its token, waits for it, and removes the staging afterwards.
#[tokio::test]
async fn a_write_that_may_still_run_keeps_its_staging_until_it_is_settled() {
    let dir = bucket_dir("timeout");
    let written = Written::default();
    let s = TestServer::start(
        ServerConfig::new()
            .engine(engine(&dir, &written, |_| {
                Plan::succeed()
                    .substatement("INSERT")
                    .running_for(std::time::Duration::from_millis(600))
            }))
            .faults(stops_ignored()),
    )
    .await
    .unwrap();
    let short = fast_config()
        .timeout(std::time::Duration::from_millis(100))
        .stop_grace(std::time::Duration::from_millis(20));
    let ex = AthenaExecutor::new(s.client(), short);
    let data = rows(300);
    let err = ex
        .load_rows(&data, LoadOptions::new("ev-slow", staging(&dir)), |_| {})
        .await
        .unwrap_err();
    assert_eq!(err.step, LoadStep::Writing, "{err}");
    assert_eq!(err.report.commit_state, CommitState::Unknown, "{err}");
    assert!(err.report.staging_kept, "{err}");
    assert!(err.to_string().contains("kept"), "{err}");
    assert_eq!(
        staged_ids(&dir).len(),
        300,
        "the files under the running write are all there"
    );
    let first = s.ledger().executions_of("INSERT INTO analytics.ev")[0]
        .id
        .clone();

    let again = ex
        .load_rows(&data, LoadOptions::new("ev-slow", staging(&dir)), |_| {})
        .await;
    // A re-run may time out on the same write too while it still runs (on a loaded
    // machine more than once); a later run, after the write finished, settles it.
    let mut again = again;
    for _ in 0..20 {
        match &again {
            Ok(_) => break,
            Err(e) => assert!(e.report.staging_kept, "{e}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        again = ex
            .load_rows(&data, LoadOptions::new("ev-slow", staging(&dir)), |_| {})
            .await;
    }
    let again = again.expect("settled once the write finished");
    assert_eq!(
        again.write.as_ref().unwrap().query_id,
        first,
        "the same write"
    );
    assert_eq!(
        s.ledger().executions_of("INSERT INTO analytics.ev").len(),
        1
    );
    assert_exactly_once(&s, &written, &data);
    assert!(files_under(&dir).is_empty(), "every run's staging removed");
}

/// The process dies while its write runs (no cleanup, no stop that takes): the next
/// run's prepare step removes nothing under that write, finds it by its token and
/// waits for it; the rows are written once, from complete files.
#[tokio::test]
async fn a_restart_after_a_crash_mid_write_leaves_the_running_write_its_files() {
    let dir = bucket_dir("crash");
    let written = Written::default();
    let s = TestServer::start(
        ServerConfig::new()
            .engine(engine(&dir, &written, |_| {
                Plan::succeed()
                    .substatement("INSERT")
                    .running_for(std::time::Duration::from_millis(400))
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
        while s
            .ledger()
            .executions_of("INSERT INTO analytics.ev")
            .is_empty()
        {
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    };
    tokio::select! {
        r = load => panic!("the load finished before the crash: {r:?}"),
        () = started => {}
    }
    // The crashed run's future is gone; its write runs on.
    let report = ex
        .load_rows(
            &data,
            LoadOptions::new("ev-crash", staging(&dir)).writer(WriterOptions::default().lanes(3)),
            |_| {},
        )
        .await
        .expect("the restart finishes the load");
    assert_eq!(report.commit_state, CommitState::Committed);
    assert_eq!(
        s.ledger().executions_of("INSERT INTO analytics.ev").len(),
        1
    );
    assert_exactly_once(&s, &written, &data);
    assert!(files_under(&dir).is_empty(), "both runs' staging removed");
}

/// Two runs of one load at once, with different lane counts: each write reads only
/// its own run's folder, the second run's write is the first's (same rows, same
/// token), and no row is written twice.
#[tokio::test]
async fn concurrent_runs_of_one_load_write_each_row_once() {
    let dir = bucket_dir("concurrent");
    let written = Written::default();
    let s = TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| {
        Plan::succeed()
            .substatement("INSERT")
            .running_for(std::time::Duration::from_millis(200))
    })))
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let data = rows(100);
    let (gate_tx, gate_rx) = tokio::sync::oneshot::channel::<()>();
    let mut gate_tx = Some(gate_tx);
    // Run A stages with one lane and opens the gate once its write is sent; run B
    // (two lanes) starts staging only then, while A's write runs.
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
    let (ra, rb) = tokio::join!(a, b);
    let (ra, rb) = (ra.expect("run A"), rb.expect("run B"));
    assert_eq!(ra.write_token, rb.write_token);
    assert_eq!(
        s.ledger().executions_of("INSERT INTO analytics.ev").len(),
        1
    );
    assert_exactly_once(&s, &written, &data);
    assert!(files_under(&dir).is_empty(), "both runs' staging removed");
}

/// A load into a partitioned table whose rows fall into more than Athena's 100
/// partitions per INSERT is refused before anything is staged or run.
#[tokio::test]
async fn a_load_of_more_than_100_partitions_is_refused_before_staging() {
    let dir = bucket_dir("partitions");
    let written = Written::default();
    let s = TestServer::start(ServerConfig::new().engine(engine(&dir, &written, |_| {
        Plan::succeed().substatement("INSERT")
    })))
    .await
    .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let def = TableDef::builder("analytics", "ev")
        .column(Column::new("event_id", IcebergType::String).required())
        .column(Column::new("n", IcebergType::Long))
        .partition(PartitionField::new("n", PartitionTransform::Identity))
        .location("s3://lake/iceberg/ev/")
        .build()
        .unwrap();
    let batch = iceberg_sql::arrow::records_to_batch(&rows(101)).unwrap();
    let err = ex
        .load_batches(
            &def,
            stream::iter([Ok::<_, std::io::Error>(batch)]),
            LoadOptions::new("ev-wide", staging(&dir)),
            |_| {},
        )
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("more than 100 partitions"),
        "{err}"
    );
    assert!(
        err.to_string().contains("append_rows"),
        "the way out: {err}"
    );
    assert_eq!(err.report.commit_state, CommitState::NotCommitted);
    assert!(statements(&s).is_empty(), "nothing ran");
    assert!(files_under(&dir).is_empty(), "nothing staged");

    // 100 partitions are one write.
    let batch = iceberg_sql::arrow::records_to_batch(&rows(100)).unwrap();
    ex.load_batches(
        &def,
        stream::iter([Ok::<_, std::io::Error>(batch)]),
        LoadOptions::new("ev-wide", staging(&dir)),
        |_| {},
    )
    .await
    .expect("100 partitions load");
}

/// A night of staged loads: twelve loads of 400 rows each, four of them run twice at once,
/// while a quarter of the API calls fail (throttles, 5xx, lost answers and connections),
/// stops do not take, 40 % of the writes fail (some after their commit went
/// through), and Athena's clock runs 3 s behind. After every error the operator runs the
/// same load again. Every row is in the table exactly once and no staging is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_night_of_staged_loads_under_faults_writes_each_row_once() {
    use iceberg_sql_test_server::{QueryFault, RandomFaults, RandomQueryFaults};
    use std::time::{Duration, Instant};
    const LOADS: usize = 12;
    const ROWS: usize = 400;
    let dir = bucket_dir("night");
    let written = Written::default();
    let api = RandomFaults {
        rate: 0.25,
        kinds: vec![
            (Fault::Throttle, 3),
            (Fault::ServerError, 3),
            (Fault::Slow(Duration::from_millis(5)), 2),
            (Fault::LostResponse, 2),
            (Fault::LostConnection, 2),
        ],
        ops: vec![
            Op::StartQueryExecution,
            Op::GetQueryExecution,
            Op::GetQueryResults,
        ],
    };
    let stops = RandomFaults {
        rate: 0.5,
        kinds: vec![(Fault::Ignored, 1)],
        ops: vec![Op::StopQueryExecution],
    };
    let writes = RandomQueryFaults {
        rate: 0.4,
        kinds: vec![
            (QueryFault::Fail(Failure::iceberg_commit_error()), 2),
            (QueryFault::Fail(Failure::internal_retryable()), 1),
            (
                QueryFault::FailAfterCommit(Failure::iceberg_commit_error()),
                2,
            ),
            (
                QueryFault::FailAfterCommit(Failure::internal_retryable()),
                1,
            ),
            (QueryFault::Cancel, 1),
        ],
        prefix: "INSERT INTO analytics.ev".into(),
    };
    let s = TestServer::start(
        ServerConfig::new()
            .engine(engine(&dir, &written, |_| {
                Plan::succeed().substatement("INSERT").running_polls(1)
            }))
            .faults(
                FaultPlan::seeded(20_261_207)
                    .random(api)
                    .random(stops)
                    .random_queries(writes),
            )
            .clock_skew_ms(-3_000),
    )
    .await
    .unwrap();
    let ex = AthenaExecutor::new(
        s.client(),
        fast_config().snapshot_clock_tolerance(Duration::ZERO),
    );
    let load_rows = |load: usize| -> Vec<Ev> {
        (0..ROWS)
            .map(|i| Ev {
                event_id: format!("l{load}-{i:04}"),
                n: i as i64,
            })
            .collect()
    };
    // Runs load `load` until a run reports the write committed; returns the number of
    // runs it took.
    let until_committed = |load: usize, lanes: usize| {
        let ex = &ex;
        let dir = &dir;
        async move {
            let data = load_rows(load);
            for run in 1..=40 {
                let options = LoadOptions::new(format!("night-{load}"), staging(dir))
                    .batch_rows(50)
                    .writer(WriterOptions::default().lanes(lanes).max_file_bytes(2048));
                match ex.load_rows(&data, options, |_| {}).await {
                    Ok(r) => {
                        assert_eq!(r.commit_state, CommitState::Committed, "load {load}");
                        return run;
                    }
                    Err(e) if e.report.staging_kept => {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    Err(_) => {}
                }
            }
            panic!("load {load} did not finish in 40 runs");
        }
    };
    let started = Instant::now();
    let mut runs = 0;
    let mut expected = Vec::new();
    for load in 0..LOADS {
        expected.extend(load_rows(load));
        if load % 3 == 2 {
            // The same load twice at once (a retry by a scheduler while the first runs).
            let (a, b) = tokio::join!(until_committed(load, 1), until_committed(load, 2));
            runs += a + b;
        } else {
            runs += until_committed(load, 2).await;
        }
    }
    let elapsed = started.elapsed();
    let stats = s.stats();
    let writes = s.ledger().executions_of("INSERT INTO analytics.ev").len();
    let after_commit: u64 = stats
        .query_faults
        .iter()
        .filter(|(kind, _)| kind.starts_with("failed-after-commit"))
        .map(|(_, n)| n)
        .sum();
    assert!(
        after_commit > 0 && stats.api_faults() > 0,
        "faults were injected: {stats:?}"
    );
    assert_exactly_once(&s, &written, &expected);
    assert!(files_under(&dir).is_empty(), "no staged file left");
    println!(
        "staged night: {LOADS} loads, {} rows, {runs} runs, {writes} writes, {} write faults ({after_commit} after the commit), {} API faults, {:.1} s: 0 duplicates, 0 lost",
        expected.len(),
        stats.total_query_faults(),
        stats.api_faults(),
        elapsed.as_secs_f64()
    );
}

/// A staged load of Arrow record batches built by hand (no Rust record type) into a
/// table built from their schema: `ensure_table` creates it, the batches are staged and
/// written once, every row exactly once, nothing left behind.
#[tokio::test]
async fn a_staged_load_of_record_batches_into_a_table_built_from_their_schema() {
    use arrow_array::{ArrayRef, Int64Array, LargeStringArray, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use iceberg_sql_athena::EnsureOptions;
    use iceberg_sql_test_server::{Failure, Plan};
    let dir = bucket_dir("batches");
    let written = Written::default();
    let engine = engine(&dir, &written, |_| Plan::succeed().substatement("INSERT")).on(
        |sql| sql.starts_with("SHOW CREATE TABLE"),
        |_| {
            Plan::fail(Failure::new(
                2,
                1110,
                false,
                "TABLE_NOT_FOUND: line 1:1: Table 'awsdatacatalog.analytics.ev' does not exist",
            ))
        },
    );
    let s = TestServer::start(ServerConfig::new().engine(engine))
        .await
        .unwrap();
    let ex = AthenaExecutor::new(s.client(), fast_config());
    let schema = Arc::new(Schema::new(vec![
        Field::new("event_id", DataType::LargeUtf8, false),
        Field::new("n", DataType::Int64, true),
    ]));
    let table = iceberg_sql::arrow::table_builder("analytics", "ev", &schema)
        .unwrap()
        .location("s3://lake/iceberg/ev/")
        .build()
        .unwrap();
    let data = rows(700);
    let batches: Vec<Result<RecordBatch, std::io::Error>> = data
        .chunks(300)
        .map(|part| {
            Ok(RecordBatch::try_new(
                schema.clone(),
                vec![
                    Arc::new(LargeStringArray::from_iter_values(
                        part.iter().map(|r| r.event_id.clone()),
                    )) as ArrayRef,
                    Arc::new(Int64Array::from_iter_values(part.iter().map(|r| r.n))),
                ],
            )
            .unwrap())
        })
        .collect();
    let report = ex
        .load_batches(
            &table,
            stream::iter(batches),
            LoadOptions::new("ev-batches", staging(&dir)).ensure_table(EnsureOptions::new()),
            |_| {},
        )
        .await
        .expect("loaded");
    assert_eq!(report.rows, 700);
    assert_eq!(report.commit_state, CommitState::Committed);
    assert!(files_under(&dir).is_empty(), "no staged file left");
    assert_eq!(
        statements(&s),
        [
            "SHOW CREATE TABLE",
            "CREATE TABLE IF",
            "DROP TABLE IF",
            "CREATE EXTERNAL TABLE",
            "INSERT INTO analytics.ev",
            "DROP TABLE IF"
        ]
    );
    assert_eq!(
        s.ledger().executions[1].sql,
        table.create_table().if_not_exists().build().unwrap().sql()
    );
    assert_exactly_once(&s, &written, &data);
}
