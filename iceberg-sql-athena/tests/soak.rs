//! Soak: more than 1,000 INSERT batches appended through the real SDK client to the
//! Athena-protocol test server while at least a fifth of the API calls and of the
//! queries fail, with every kind of fault; an operator re-runs a load after any error
//! (mostly from the last report, every third time from scratch, as after a crash).
//! The ledger must show every row exactly once and no healthy query stopped.
//!
//! Deterministic: one client sends one request at a time, and the faults come from a
//! seeded generator (`SOAK_SEED` overrides the seed).
mod common;

use common::ev::{keys, Ev};

use std::collections::BTreeMap;
use std::io::Write;
use std::time::{Duration, Instant};

use aws_sdk_athena::config::timeout::TimeoutConfig;
use iceberg_sql::prelude::*;
use iceberg_sql_athena::{
    AppendOptions, AppendReport, AthenaExecutor, Backoff, ExecutorConfig, PollConfig, RetryPolicy,
    RunEnd,
};
use iceberg_sql_test_server::{
    Failure, Fault, FaultPlan, Op, Plan, QueryFault, RandomFaults, RandomQueryFaults, RowKey,
    ScriptedEngine, ServerConfig, TestServer,
};

const LOADS: usize = 10;
const ROWS_PER_LOAD: usize = 110;
/// About one row per INSERT (into `analytics.ev`): more than 100 batches per load.
const BATCH_BYTES: usize = 83;
const FAULT_RATE: f64 = 0.25;
const MAX_RERUNS_PER_LOAD: usize = 300;

fn api_faults() -> RandomFaults {
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
        ],
        ops: Op::ALL.to_vec(),
    }
}

fn query_faults() -> RandomQueryFaults {
    RandomQueryFaults {
        rate: FAULT_RATE,
        kinds: vec![
            (QueryFault::Fail(Failure::iceberg_commit_error()), 8),
            (QueryFault::Fail(Failure::glue_throttled()), 4),
            (QueryFault::Fail(Failure::internal_retryable()), 4),
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

fn out(line: &str) {
    // The real stdout, so the figures show in `cargo test` output without --nocapture.
    let _ = writeln!(std::io::stdout(), "{line}");
}

#[tokio::test]
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
                    .random(api_faults())
                    .random_queries(query_faults()),
            )
            .row_key("event_id"),
    )
    .await
    .unwrap();
    let client = aws_sdk_athena::Client::from_conf(
        server
            .client_config()
            .timeout_config(
                TimeoutConfig::builder()
                    .operation_attempt_timeout(Duration::from_millis(100))
                    .build(),
            )
            .build(),
    );
    let ex = AthenaExecutor::new(
        client,
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
            // One clock stamps both the completions and the commits here, and the next
            // batch commits a millisecond after the last one completed.
            .snapshot_clock_tolerance(Duration::ZERO),
    );

    let started = Instant::now();
    let mut expected: Vec<RowKey> = Vec::new();
    let mut batches = 0usize;
    let mut reruns = 0usize;
    let mut reruns_from_report = 0usize;
    let mut stopped_by: BTreeMap<String, usize> = BTreeMap::new();
    let mut progress_calls = 0usize;
    let mut more_runs = 0usize;
    for load in 0..LOADS {
        let rows: Vec<Ev> = (0..ROWS_PER_LOAD)
            .map(|i| Ev {
                event_id: format!("l{load:02}-{i:04}"),
                n: i as i64,
            })
            .collect();
        expected.extend(keys(&rows));
        let load_id = format!("soak-{seed}-load-{load:02}");
        let mut last: Option<AppendReport> = None;
        let mut attempt = 0usize;
        let report = loop {
            let mut options = AppendOptions::new(&load_id).max_batch_bytes(BATCH_BYTES);
            // Two re-runs in three resume from the last report; the others start from
            // scratch, as after a crash that lost the report.
            if let Some(r) = last.as_ref().filter(|_| !attempt.is_multiple_of(3)) {
                options = options.skip_committed(r);
                reruns_from_report += 1;
            }
            match ex
                .append_rows(&rows, options, |_| progress_calls += 1)
                .await
            {
                Ok(report) => break report,
                Err(e) => {
                    attempt += 1;
                    reruns += 1;
                    let why = match &e.error {
                        iceberg_sql_athena::Error::Failed(q) => format!("failed {:?}", q.kind()),
                        other => format!("{:?}", other.commit_state()),
                    };
                    *stopped_by.entry(why).or_insert(0) += 1;
                    assert!(
                        attempt < MAX_RERUNS_PER_LOAD,
                        "load {load} does not finish: {e}"
                    );
                    last = Some(e.report);
                }
            }
        };
        assert!(report.is_complete());
        batches += report.batches.len();

        // Maintenance under the same faults: OPTIMIZE and VACUUM loop on MORE_RUNS.
        let optimize = Ev::table_def().optimize().build().unwrap();
        let vacuum = Ev::table_def().vacuum().build().unwrap();
        let m = ex.maintain(&optimize, &vacuum).await.unwrap();
        more_runs += m
            .optimize
            .runs
            .iter()
            .chain(&m.vacuum.runs)
            .filter(|r| matches!(r.end, RunEnd::MoreRunsNeeded(_)))
            .count();
    }
    let elapsed = started.elapsed();
    server.settle();
    let ledger = server.ledger();
    let stats = server.stats();
    let duplicates = ledger.duplicates();
    let lost = ledger.missing(&expected);
    let healthy_stops = ledger.healthy_stops();
    let insert_executions = ledger.executions_of("INSERT INTO").len();
    let requests = stats.total_requests();
    let api_fault_share = stats.api_faults() as f64 / requests as f64;
    let query_fault_share = stats.total_query_faults() as f64 / insert_executions as f64;

    out(&format!(
        "soak (seed {seed}): {batches} batches, {} rows, {LOADS} loads, {elapsed:.1?}",
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
        "  retries: StartQueryExecution answered from a known token {}, queries resubmitted with a new token {}, operator re-runs {reruns} ({reruns_from_report} from the report), MORE_RUNS re-runs {more_runs}",
        stats.token_replays,
        insert_executions - batches,
    ));
    out(&format!("  re-runs caused by: {stopped_by:?}"));
    out(&format!(
        "  rows committed {}, duplicates {}, lost {}, healthy stops {healthy_stops}, progress callbacks {progress_calls}",
        ledger.rows_committed(),
        duplicates.len(),
        lost.len()
    ));

    assert!(batches >= 1_000, "{batches} batches");
    assert_eq!(duplicates, vec![], "rows committed more than once");
    assert_eq!(lost, vec![], "rows never committed");
    assert_eq!(healthy_stops, 0, "a healthy query was stopped");
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
    ] {
        assert!(
            stats.query_faults.get(kind).is_some_and(|n| *n > 0),
            "no {kind} query fault"
        );
    }
    assert!(progress_calls >= batches);
    assert!(more_runs > 0);
}
