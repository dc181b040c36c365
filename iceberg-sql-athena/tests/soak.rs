//! Soak: more than 2,000 INSERT batches appended through the real SDK client to the
//! Athena-protocol test server while a quarter of the API calls and of the queries
//! fail, with every kind of fault the server has: lost answers, 5xx, throttles,
//! non-retryable 4xx, stops that do not take, commits that then fail, Athena's clock
//! 3 s behind this machine's. The operator is having a bad night: after any error a
//! load is run again, mostly from the last report (sometimes with a bad row corrected),
//! sometimes from scratch (a crash lost the report); calls are dropped mid-way, a
//! runtime is shut down under a running load, and two runs of one load id race.
//! The ledger must show every row exactly once, no query stopped unless its call was
//! abandoned, and every load finished.
//!
//! Loads run two at a time; faults come from a seeded generator (`SOAK_SEED` overrides
//! the seed), so the figures vary a little between runs, the verdicts never.
mod common;

use common::ev::{ev_def, Ev};

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use aws_sdk_athena::config::timeout::TimeoutConfig;
use iceberg_sql::prelude::*;
use iceberg_sql_athena::{
    AppendError, AppendOptions, AppendReport, AthenaExecutor, Backoff, BatchState, Error,
    ExecutorConfig, PollConfig, RetryPolicy, RunEnd,
};
use iceberg_sql_test_server::{
    Failure, Fault, FaultPlan, Op, Plan, QueryFault, RandomFaults, RandomQueryFaults, RowKey,
    ScriptedEngine, SeededRng, ServerConfig, TestServer,
};

const LOADS: usize = 20;
const ROWS_PER_LOAD: usize = 110;
/// About one row per INSERT (into `analytics.ev`): more than 100 batches per load.
const BATCH_BYTES: usize = 83;
const FAULT_RATE: f64 = 0.25;
const MAX_RERUNS_PER_LOAD: usize = 300;

fn start_and_poll_faults() -> RandomFaults {
    RandomFaults {
        rate: FAULT_RATE,
        kinds: vec![
            (Fault::Throttle, 4),
            (Fault::TooManyRequests, 1),
            (Fault::ServerError, 3),
            (Fault::Unavailable, 1),
            (Fault::Reset, 2),
            (Fault::Slow(Duration::from_millis(5)), 3),
            // Longer than the client's 100 ms attempt timeout: the call takes effect,
            // the client times out and retries.
            (Fault::Slow(Duration::from_millis(110)), 1),
            (Fault::LostResponse, 2),
            (Fault::LostConnection, 2),
            (Fault::Rejected("AccessDeniedException"), 1),
        ],
        ops: vec![
            Op::StartQueryExecution,
            Op::GetQueryExecution,
            Op::GetQueryResults,
        ],
    }
}

/// Stops: a quarter are accepted and do nothing.
fn stop_faults() -> RandomFaults {
    RandomFaults {
        rate: FAULT_RATE,
        kinds: vec![(Fault::Ignored, 3), (Fault::Throttle, 1)],
        ops: vec![Op::StopQueryExecution],
    }
}

fn query_faults() -> RandomQueryFaults {
    RandomQueryFaults {
        rate: FAULT_RATE,
        kinds: vec![
            (QueryFault::Fail(Failure::iceberg_commit_error()), 6),
            (QueryFault::Fail(Failure::glue_throttled()), 4),
            (QueryFault::Fail(Failure::internal_retryable()), 4),
            // The commit went through, then the query failed: settled by the snapshots.
            (
                QueryFault::FailAfterCommit(Failure::iceberg_commit_error()),
                2,
            ),
            (
                QueryFault::FailAfterCommit(Failure::internal_retryable()),
                2,
            ),
            (
                QueryFault::FailAfterCommit(Failure::result_write_failed()),
                1,
            ),
            // Not retryable: the append stops, the operator runs the load again.
            (QueryFault::Fail(Failure::user_data_error()), 1),
            (QueryFault::Cancel, 1),
        ],
        prefix: "INSERT".into(),
    }
}

/// INSERTs run for one poll; OPTIMIZE needs three runs each time, VACUUM two.
fn engine() -> ScriptedEngine {
    ScriptedEngine::new()
        .on(
            |sql| sql.starts_with("INSERT"),
            |_| Plan::succeed().substatement("INSERT").running_polls(1),
        )
        .on(
            |sql| sql.starts_with("OPTIMIZE"),
            |q| {
                if q.earlier_runs % 3 < 2 {
                    Plan::fail(Failure::optimize_more_runs_needed())
                } else {
                    Plan::succeed()
                }
            },
        )
        .on(
            |sql| sql.starts_with("VACUUM"),
            |q| {
                if q.earlier_runs % 2 == 0 {
                    Plan::fail(Failure::vacuum_more_runs_needed())
                } else {
                    Plan::succeed()
                }
            },
        )
}

fn client(server: &TestServer) -> aws_sdk_athena::Client {
    aws_sdk_athena::Client::from_conf(
        server
            .client_config()
            .timeout_config(
                TimeoutConfig::builder()
                    .operation_attempt_timeout(Duration::from_millis(100))
                    .build(),
            )
            .build(),
    )
}

fn executor(server: &TestServer) -> AthenaExecutor {
    AthenaExecutor::new(
        client(server),
        ExecutorConfig::default()
            .poll(PollConfig::fixed(Duration::from_millis(1)))
            .api_backoff(Backoff {
                initial: Duration::from_millis(1),
                max: Duration::from_millis(10),
            })
            .retry(RetryPolicy {
                max_resubmits: 5,
                base_delay: Duration::from_millis(1),
                max_delay: Duration::from_millis(5),
            })
            .timeout(Duration::from_secs(60))
            .stop_grace(Duration::from_secs(5))
            // One clock stamps both the completions and the commits here, and the next
            // batch commits a millisecond after the last one completed.
            .snapshot_clock_tolerance(Duration::ZERO),
    )
}

fn out(line: &str) {
    // The real stdout, so the figures show in `cargo test` output without --nocapture.
    let _ = writeln!(std::io::stdout(), "{line}");
}

/// `analytics.ev_b`: the table the second load of each pair writes. Two loads into
/// one table at once cannot be settled by its snapshots (the executor's stated limit),
/// so concurrent loads here write tables of their own.
#[derive(Debug, Clone)]
struct EvB(Ev);

impl IcebergTable for EvB {
    fn table_def() -> &'static TableDef {
        static DEF: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
        DEF.get_or_init(|| ev_def("ev_b"))
    }
    fn to_values(&self) -> Vec<Value> {
        self.0.to_values()
    }
}

/// A load's row `i`, in the table of lane `load % 2`.
trait SoakRow: IcebergTable + Clone + Send + Sync + 'static {
    fn make(load: usize, i: usize) -> Self;
    fn bump(&mut self);
}

impl SoakRow for Ev {
    fn make(load: usize, i: usize) -> Self {
        Ev {
            event_id: format!("l{load:02}-{i:04}"),
            n: i as i64,
        }
    }
    fn bump(&mut self) {
        self.n += 1_000;
    }
}

impl SoakRow for EvB {
    fn make(load: usize, i: usize) -> Self {
        EvB(Ev::make(load, i))
    }
    fn bump(&mut self) {
        self.0.bump();
    }
}

/// The ledger's keys of load `load`'s rows.
fn load_keys(load: usize) -> Vec<RowKey> {
    let table = if load.is_multiple_of(2) {
        "analytics.ev"
    } else {
        "analytics.ev_b"
    };
    (0..ROWS_PER_LOAD)
        .map(|i| RowKey {
            table: table.into(),
            key: format!("l{load:02}-{i:04}"),
        })
        .collect()
}

/// What the operator did, counted.
#[derive(Default)]
struct Night {
    reruns: AtomicUsize,
    from_report: AtomicUsize,
    corrected: AtomicUsize,
    refused_corrections: AtomicUsize,
    dropped: AtomicUsize,
    shutdowns: AtomicUsize,
    races: AtomicUsize,
    progress: AtomicUsize,
    batches: AtomicUsize,
    more_runs: AtomicUsize,
    stopped_by: std::sync::Mutex<BTreeMap<String, usize>>,
}

impl Night {
    fn count(&self, c: &AtomicUsize) {
        c.fetch_add(1, Ordering::Relaxed);
    }
    fn get(c: &AtomicUsize) -> usize {
        c.load(Ordering::Relaxed)
    }
}

/// How one run of a load ends.
enum Ended {
    Done(AppendReport),
    Failed(Box<AppendError>),
    /// The call was dropped or its runtime shut down: the report is lost.
    Crashed,
}

/// One load run to the end, whatever it takes.
async fn run_load<T: SoakRow>(
    server: &TestServer,
    ex: &AthenaExecutor,
    night: &Night,
    load: usize,
    seed: u64,
) {
    let mut rng = SeededRng::new(seed ^ (load as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut rows: Vec<T> = (0..ROWS_PER_LOAD).map(|i| T::make(load, i)).collect();
    let load_id = format!("soak-{seed}-load-{load:02}");
    let mut last: Option<AppendReport> = None;
    // Once a row was corrected, a run from scratch cannot finish (the batch's first
    // token ran other rows): the operator keeps the report from then on.
    let mut corrected = false;
    // The corrections made, newest last, with the value each replaced.
    let mut corrections: Vec<(usize, T)> = Vec::new();
    let mut last_error = String::new();
    for attempt in 0..MAX_RERUNS_PER_LOAD {
        let mut options = AppendOptions::new(&load_id).max_batch_bytes(BATCH_BYTES);
        if let Some(r) = last.as_ref().filter(|_| corrected || attempt % 3 != 0) {
            // A bad row is corrected now and then: only in a batch that did not commit.
            if rng.chance(0.2) {
                if let Some(b) = r
                    .batches
                    .iter()
                    .find(|b| matches!(b.state, BatchState::NotCommitted | BatchState::NotSent))
                {
                    if let Some(&i) = b.rows.as_ref().and_then(|r| r.first()) {
                        corrections.push((i, rows[i].clone()));
                        rows[i].bump();
                        corrected = true;
                        night.count(&night.corrected);
                    }
                }
            }
            options = options.skip_committed(r);
            night.count(&night.from_report);
        }
        let progress = &night.progress;
        let run = ex.append_rows(&rows, options.clone(), |_| {
            progress.fetch_add(1, Ordering::Relaxed);
        });
        let ended = match rng.next_u64() % 10 {
            // Dropped mid-way (the guard stops what runs; its stop may not take).
            0 => {
                let cut = Duration::from_millis(2 + rng.next_u64() % 60);
                match tokio::time::timeout(cut, run).await {
                    Ok(Ok(r)) => Ended::Done(r),
                    Ok(Err(e)) => Ended::Failed(Box::new(e)),
                    Err(_) => {
                        night.count(&night.dropped);
                        Ended::Crashed
                    }
                }
            }
            // The process dies: its runtime is shut down under the running load.
            1 => {
                drop(run);
                night.count(&night.shutdowns);
                let crash_ex = executor(server);
                let (rows, options) = (rows.clone(), options.clone());
                let cut = Duration::from_millis(2 + rng.next_u64() % 60);
                std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap();
                    rt.spawn(async move {
                        let _ = crash_ex.append_rows(&rows, options, |_| {}).await;
                    });
                    rt.block_on(async { tokio::time::sleep(cut).await });
                    rt.shutdown_timeout(Duration::ZERO);
                })
                .join()
                .unwrap();
                Ended::Crashed
            }
            // Two runs of the load race (a double-clicked re-run).
            2 => {
                night.count(&night.races);
                let twin = ex.append_rows(&rows, options, |_| {});
                let (a, b) = tokio::join!(run, twin);
                match (a, b) {
                    (Ok(r), Ok(_)) => Ended::Done(r),
                    (Err(e), _) | (_, Err(e)) => Ended::Failed(Box::new(e)),
                }
            }
            _ => match run.await {
                Ok(r) => Ended::Done(r),
                Err(e) => Ended::Failed(Box::new(e)),
            },
        };
        match ended {
            Ended::Done(report) => {
                assert!(report.is_complete());
                night
                    .batches
                    .fetch_add(report.batches.len(), Ordering::Relaxed);
                return;
            }
            Ended::Failed(e) => {
                let why = match &e.error {
                    Error::Failed(q) => format!("failed {:?}", q.kind()),
                    other => format!("{:?}", other.commit_state()),
                };
                *night.stopped_by.lock().unwrap().entry(why).or_insert(0) += 1;
                last_error = e.to_string();
                if e.rows_changed() || matches!(e.error, Error::InvalidArgument(_)) {
                    // The corrected batch ran with its earlier rows after the report
                    // the operator resumed from: Athena refused the correction, and
                    // the operator takes it back.
                    night.count(&night.refused_corrections);
                    if let Some((i, old)) = corrections.pop() {
                        rows[i] = old;
                    }
                }
                last = Some(e.report);
            }
            Ended::Crashed => {
                *night
                    .stopped_by
                    .lock()
                    .unwrap()
                    .entry("crash".into())
                    .or_insert(0) += 1;
                if !corrected {
                    last = None;
                }
            }
        }
        night.count(&night.reruns);
        // The operator looks at the error before running again.
        tokio::time::sleep(Duration::from_millis(1 + rng.next_u64() % 5)).await;
    }
    panic!("load {load} is stuck after {MAX_RERUNS_PER_LOAD} runs: {last_error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_every_row_exactly_once_under_faults() {
    let seed: u64 = std::env::var("SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_240_501);
    let server = TestServer::start(
        ServerConfig::new()
            .engine(engine())
            .faults(
                FaultPlan::seeded(seed)
                    .random(start_and_poll_faults())
                    .random(stop_faults())
                    .random_queries(query_faults()),
            )
            .clock_skew_ms(-3_000)
            .row_key("event_id"),
    )
    .await
    .unwrap();
    let ex = executor(&server);
    let night = Night::default();
    let started = Instant::now();
    let mut expected: Vec<RowKey> = Vec::new();
    for load in 0..LOADS {
        expected.extend(load_keys(load));
    }
    for pair in 0..LOADS / 2 {
        tokio::join!(
            run_load::<Ev>(&server, &ex, &night, 2 * pair, seed),
            run_load::<EvB>(&server, &ex, &night, 2 * pair + 1, seed),
        );
        // Maintenance under the same faults: OPTIMIZE and VACUUM loop on MORE_RUNS.
        let optimize = Ev::table_def().optimize().build().unwrap();
        let vacuum = Ev::table_def().vacuum().build().unwrap();
        // A refused call (4xx) stops it; the operator runs it again.
        let mut tries = 0;
        let m = loop {
            match ex.maintain(&optimize, &vacuum).await {
                Ok(m) => break m,
                Err(e) if tries < 20 && e.to_string().contains("AccessDenied") => tries += 1,
                Err(e) => panic!("maintenance: {e}"),
            }
        };
        let more = m
            .optimize
            .runs
            .iter()
            .chain(&m.vacuum.runs)
            .filter(|r| matches!(r.end, RunEnd::MoreRunsNeeded(_)))
            .count();
        night.more_runs.fetch_add(more, Ordering::Relaxed);
    }
    let elapsed = started.elapsed();
    // The crashed runs' abandoned queries end too.
    tokio::time::sleep(Duration::from_millis(200)).await;
    server.settle();
    let ledger = server.ledger();
    let stats = server.stats();
    let duplicates = ledger.duplicates();
    let lost = ledger.missing(&expected);
    let stopped_healthy = ledger.healthy_stops();
    let abandoned = Night::get(&night.dropped) + Night::get(&night.shutdowns);
    let insert_executions = ledger.executions_of("INSERT INTO").len();
    let requests = stats.total_requests();
    let api_fault_share = stats.api_faults() as f64 / requests as f64;
    let query_fault_share = stats.total_query_faults() as f64 / insert_executions as f64;
    let batches = Night::get(&night.batches);

    out(&format!(
        "soak (seed {seed}): {batches} batches, {} rows, {LOADS} loads (two at a time), {elapsed:.1?}",
        expected.len()
    ));
    out(&format!(
        "  API calls: {requests} ({:?}); faults injected: {} ({:.1} %)",
        stats.requests,
        stats.api_faults(),
        100.0 * api_fault_share
    ));
    for (kind, n) in &stats.faults {
        out(&format!("    {kind}: {n}"));
    }
    out(&format!(
        "  INSERT executions: {insert_executions}; query faults injected: {} ({:.1} %)",
        stats.total_query_faults(),
        100.0 * query_fault_share
    ));
    for (kind, n) in &stats.query_faults {
        out(&format!("    {kind}: {n}"));
    }
    out(&format!(
        "  operator: re-runs {} ({} from the report, {} with a corrected row, {} corrections refused: the batch ran with its earlier rows since, or its rows regrouped), calls dropped {}, runtimes shut down {}, racing runs {}; MORE_RUNS re-runs {}; StartQueryExecution answered from a known token {}",
        Night::get(&night.reruns),
        Night::get(&night.from_report),
        Night::get(&night.corrected),
        Night::get(&night.refused_corrections),
        Night::get(&night.dropped),
        Night::get(&night.shutdowns),
        Night::get(&night.races),
        Night::get(&night.more_runs),
        stats.token_replays,
    ));
    out(&format!(
        "  re-runs caused by: {:?}",
        night.stopped_by.lock().unwrap()
    ));
    out(&format!(
        "  rows committed {}, duplicates {}, lost {}, stuck loads 0, healthy queries stopped {stopped_healthy} (all by the guards of the {abandoned} abandoned calls), progress callbacks {}",
        ledger.rows_committed(),
        duplicates.len(),
        lost.len(),
        Night::get(&night.progress),
    ));

    for (key, _) in duplicates.iter().take(4) {
        out(&format!("  duplicate {key:?}, committed by:"));
        for e in ledger
            .executions
            .iter()
            .filter(|e| e.committed.contains(key))
        {
            out(&format!(
                "    {} token {} {:?} stopped {:?} rows {}: {}",
                e.id,
                &e.token[..16.min(e.token.len())],
                e.state,
                e.stopped,
                e.committed.len(),
                e.sql.replace('\n', " ")
            ));
        }
    }
    assert!(batches >= 2_000, "{batches} batches");
    assert_eq!(duplicates, vec![], "rows committed more than once");
    assert_eq!(lost, vec![], "rows never committed");
    assert!(
        stopped_healthy <= abandoned,
        "{stopped_healthy} healthy queries stopped, only {abandoned} calls abandoned"
    );
    assert_eq!(ledger.rows_committed(), expected.len());
    assert!(api_fault_share >= 0.20, "{api_fault_share}");
    assert!(query_fault_share >= 0.20, "{query_fault_share}");
    for kind in [
        "throttle",
        "too-many-requests",
        "5xx",
        "reset",
        "slow",
        "effect+5xx",
        "effect+reset",
        "ignored",
        "rejected-4xx",
    ] {
        assert!(
            stats.faults.get(kind).is_some_and(|n| *n > 0),
            "no {kind} fault"
        );
    }
    for kind in [
        "failed-233",
        "failed-1401",
        "failed-200",
        "failed-1001",
        "cancelled",
        "failed-after-commit-233",
        "failed-after-commit-200",
    ] {
        assert!(
            stats.query_faults.get(kind).is_some_and(|n| *n > 0),
            "no {kind} query fault"
        );
    }
    for c in [
        &night.corrected,
        &night.dropped,
        &night.shutdowns,
        &night.races,
    ] {
        assert!(Night::get(c) > 0, "every kind of operator mishap happened");
    }
    assert!(Night::get(&night.more_runs) > 0);
}
