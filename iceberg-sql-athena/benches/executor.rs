//! Benchmarks for the executor (criterion, `harness = false`).
//!
//! 1. Polling: a simulated query that finishes after T. The real `AthenaExecutor` runs
//!    against an in-process Athena fake on a tokio runtime with a paused (virtual)
//!    clock, so no real time passes. For each T it reports the time to notice
//!    completion and the number of `GetQueryExecution` calls, for the default adaptive
//!    schedule and for a fixed 1 s poll (what pyathena/awswrangler do), in the same run.
//!    Criterion then times the CPU cost of one whole simulated query.
//! 2. Decoding 100,000 rows (100 pages of 1,000) from `GetQueryResults` pages into
//!    structs: `rows_from_result_set` + a `FromRow` impl, against a hand-written
//!    decoder that indexes the SDK's data directly.
//!
//! Run: `cargo bench -p iceberg-sql-athena --profile dev` (see BENCHMARKS.md).

use std::hint::black_box;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_athena::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_athena::types::{ColumnInfo, Datum, ResultSet, ResultSetMetadata, Row as SdkRow};
use aws_sdk_athena::Client;
use aws_smithy_http_client::test_util::infallible_client_fn;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use iceberg_sql::prelude::*;
use iceberg_sql_athena::{
    rows_from_result_set, AthenaExecutor, ExecutorConfig, FromRow, PollConfig, Row,
};
use serde_json::json;
use tokio::time::Instant;

// ---------------------------------------------------------------- polling -----------

struct SimQuery {
    runs_for: Duration,
    started: Option<Instant>,
    polls: u32,
}

fn sim_client(state: Arc<Mutex<SimQuery>>) -> Client {
    let http = infallible_client_fn(move |req: http::Request<_>| {
        let target = req
            .headers()
            .get("x-amz-target")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let mut s = state.lock().expect("state");
        let body = if target.ends_with("StartQueryExecution") {
            s.started = Some(Instant::now());
            s.polls = 0;
            json!({"QueryExecutionId": "q-1"})
        } else {
            s.polls += 1;
            let done = s.started.is_some_and(|t| t.elapsed() >= s.runs_for);
            let st = if done { "SUCCEEDED" } else { "RUNNING" };
            json!({"QueryExecution": {"QueryExecutionId": "q-1", "Status": {"State": st}}})
        };
        http::Response::builder()
            .status(200)
            .header("content-type", "application/x-amz-json-1.1")
            .body(body.to_string())
            .expect("response")
    });
    let conf = aws_sdk_athena::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("testing", "testing", None, None, "static"))
        .http_client(http)
        .build();
    Client::from_conf(conf)
}

fn paused_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("runtime")
}

struct Sim {
    rt: tokio::runtime::Runtime,
    executor: AthenaExecutor,
    state: Arc<Mutex<SimQuery>>,
    statement: Statement,
}

impl Sim {
    fn new(poll: PollConfig, runs_for: Duration) -> Sim {
        std::env::set_var("AWS_EC2_METADATA_DISABLED", "true");
        let state = Arc::new(Mutex::new(SimQuery {
            runs_for,
            started: None,
            polls: 0,
        }));
        let executor = AthenaExecutor::new(
            sim_client(state.clone()),
            ExecutorConfig::default().poll(poll).no_timeout(),
        );
        let statement = TableName::new("analytics", "mcp_events")
            .drop_table()
            .if_exists()
            .build()
            .expect("statement");
        Sim {
            rt: paused_runtime(),
            executor,
            state,
            statement,
        }
    }

    /// (time to notice after the query finished, GetQueryExecution calls)
    fn run(&self) -> (Duration, u32) {
        self.rt.block_on(async {
            let t0 = Instant::now();
            self.executor
                .execute(&self.statement)
                .await
                .expect("simulated query succeeds");
            let total = t0.elapsed();
            let s = self.state.lock().expect("state");
            (total.saturating_sub(s.runs_for), s.polls)
        })
    }
}

const QUERY_TIMES: [Duration; 8] = [
    Duration::from_millis(300),
    Duration::from_millis(500),
    Duration::from_millis(1500),
    Duration::from_secs(5),
    Duration::from_secs(30),
    Duration::from_secs(60),
    Duration::from_secs(120),
    Duration::from_secs(600),
];

/// Runs the simulated query for T + k * 0.2 s, k = 0..10 (so results do not depend on T
/// happening to line up with a poll), returning (mean lateness, max lateness, mean calls).
fn sweep(poll: PollConfig, t: Duration) -> (Duration, Duration, f64) {
    let mut late_sum = Duration::ZERO;
    let mut late_max = Duration::ZERO;
    let mut calls = 0u32;
    const N: u32 = 10;
    for k in 0..N {
        let (late, c) = Sim::new(poll, t + Duration::from_millis(200) * k).run();
        late_sum += late;
        late_max = late_max.max(late);
        calls += c;
    }
    (late_sum / N, late_max, f64::from(calls) / f64::from(N))
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

fn polling(c: &mut Criterion) {
    let adaptive = PollConfig::default();
    let adaptive_1s = PollConfig::adaptive(Duration::from_millis(100), 1.5, Duration::from_secs(1));
    let fixed = PollConfig::fixed(Duration::from_secs(1));
    println!();
    println!("polling: query finishes after T + k*0.2 s, k = 0..10 (virtual clock)");
    println!("schedules: default adaptive = {adaptive:?}; adaptive capped at 1 s = {adaptive_1s:?}; fixed = 1 s");
    println!("| T | default adaptive: notice mean / max | calls | adaptive cap 1 s: notice mean / max | calls | fixed 1 s: notice mean / max | calls |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for t in QUERY_TIMES {
        let mut line = format!("| {t:?} |");
        for poll in [adaptive, adaptive_1s, fixed] {
            let (mean, max, calls) = sweep(poll, t);
            line.push_str(&format!(" {} / {} | {:.1} |", ms(mean), ms(max), calls));
        }
        println!("{line}");
    }
    let mut group = c.benchmark_group("poll_simulated_query");
    group.sample_size(10);
    for t in [Duration::from_secs(5), Duration::from_secs(120)] {
        for (name, poll) in [("adaptive", adaptive), ("fixed_1s", fixed)] {
            let sim = Sim::new(poll, t);
            group.bench_function(format!("{name}/T={}s", t.as_secs()), |b| {
                b.iter(|| black_box(sim.run()))
            });
        }
    }
    group.finish();
}

// ---------------------------------------------------------------- decoding ----------

#[derive(Debug)]
struct Event {
    event_id: String,
    tool_name: String,
    payload: Option<String>,
    latency_ms: i64,
    ok: bool,
}

impl FromRow for Event {
    fn from_row(row: &Row) -> iceberg_sql::Result<Self> {
        Ok(Event {
            event_id: row.try_get("event_id")?,
            tool_name: row.try_get("tool_name")?,
            payload: row.try_get("payload")?,
            latency_ms: row.try_get("latency_ms")?,
            ok: row.try_get("ok")?,
        })
    }

    fn from_row_owned(mut row: Row) -> iceberg_sql::Result<Self> {
        Ok(Event {
            event_id: row.take("event_id")?,
            tool_name: row.take("tool_name")?,
            payload: row.take("payload")?,
            latency_ms: row.take("latency_ms")?,
            ok: row.take("ok")?,
        })
    }
}

const PAGES: usize = 100;
const ROWS_PER_PAGE: usize = 1000;

fn datum(v: Option<String>) -> Datum {
    Datum::builder().set_var_char_value(v).build()
}

fn pages() -> Vec<ResultSet> {
    let names = ["event_id", "tool_name", "payload", "latency_ms", "ok"];
    let types = ["varchar", "varchar", "varchar", "bigint", "boolean"];
    let cols: Vec<ColumnInfo> = names
        .iter()
        .zip(types)
        .map(|(n, t)| {
            ColumnInfo::builder()
                .name(*n)
                .r#type(t)
                .build()
                .expect("column")
        })
        .collect();
    (0..PAGES)
        .map(|p| {
            let mut rows = Vec::with_capacity(ROWS_PER_PAGE + 1);
            if p == 0 {
                rows.push(
                    SdkRow::builder()
                        .set_data(Some(
                            names.iter().map(|n| datum(Some(n.to_string()))).collect(),
                        ))
                        .build(),
                );
            }
            for i in 0..ROWS_PER_PAGE {
                let n = p * ROWS_PER_PAGE + i;
                let payload = match n % 3 {
                    0 => None,
                    1 => Some(String::new()),
                    _ => Some(format!("{{\"args\":{{\"q\":\"select {n}\"}}}}")),
                };
                rows.push(
                    SdkRow::builder()
                        .set_data(Some(vec![
                            datum(Some(format!("evt-{n:08}"))),
                            datum(Some(["fetch", "query_data", "search"][n % 3].to_string())),
                            datum(payload),
                            datum(Some((n % 5000).to_string())),
                            datum(Some(
                                if n.is_multiple_of(7) { "false" } else { "true" }.to_string(),
                            )),
                        ]))
                        .build(),
                );
            }
            ResultSet::builder()
                .set_rows(Some(rows))
                .result_set_metadata(
                    ResultSetMetadata::builder()
                        .set_column_info(Some(cols.clone()))
                        .build(),
                )
                .build()
        })
        .collect()
}

/// What `AthenaExecutor::decode` does per page: rows, then `from_row_owned`.
fn decode_ours(pages: Vec<ResultSet>) -> Vec<Event> {
    let mut columns = None;
    let mut out = Vec::with_capacity(PAGES * ROWS_PER_PAGE);
    for (i, page) in pages.into_iter().enumerate() {
        for row in rows_from_result_set(page, &mut columns, i == 0) {
            out.push(Event::from_row_owned(row).expect("decodes"));
        }
    }
    out
}

/// The borrowed path (`from_row(&Row)`, which copies each string).
fn decode_ours_borrowed(pages: Vec<ResultSet>) -> Vec<Event> {
    let mut columns = None;
    let mut out = Vec::with_capacity(PAGES * ROWS_PER_PAGE);
    for (i, page) in pages.into_iter().enumerate() {
        for row in rows_from_result_set(page, &mut columns, i == 0) {
            out.push(Event::from_row(&row).expect("decodes"));
        }
    }
    out
}

/// The baseline: what one writes by hand against the SDK types, by column position.
fn decode_by_hand(pages: Vec<ResultSet>) -> Vec<Event> {
    let mut out = Vec::with_capacity(PAGES * ROWS_PER_PAGE);
    for (i, page) in pages.into_iter().enumerate() {
        let rows = page.rows.unwrap_or_default();
        for row in rows.into_iter().skip(usize::from(i == 0)) {
            let mut d = row
                .data
                .unwrap_or_default()
                .into_iter()
                .map(|d| d.var_char_value);
            let mut next = || d.next().flatten();
            out.push(Event {
                event_id: next().expect("event_id"),
                tool_name: next().expect("tool_name"),
                payload: next(),
                latency_ms: next().and_then(|s| s.parse().ok()).expect("latency_ms"),
                ok: next().map(|s| s == "true").expect("ok"),
            });
        }
    }
    out
}

fn decoding(c: &mut Criterion) {
    let input = pages();
    let ours = decode_ours(input.clone());
    let hand = decode_by_hand(input.clone());
    let borrowed = decode_ours_borrowed(input.clone());
    assert_eq!(borrowed.len(), ours.len());
    assert_eq!(ours.len(), PAGES * ROWS_PER_PAGE);
    assert_eq!(hand.len(), ours.len());
    assert!(ours.iter().zip(&hand).all(|(a, b)| a.event_id == b.event_id
        && a.tool_name == b.tool_name
        && a.payload == b.payload
        && a.latency_ms == b.latency_ms
        && a.ok == b.ok));
    assert_eq!(ours.iter().filter(|e| e.payload.is_none()).count(), 33_334);
    assert_eq!(
        ours.iter()
            .filter(|e| e.payload.as_deref() == Some(""))
            .count(),
        33_333
    );

    let mut group = c.benchmark_group("decode_100k_rows");
    group.sample_size(10);
    group.bench_function("ours_owned (rows_from_result_set + from_row_owned)", |b| {
        b.iter_batched(
            || input.clone(),
            |p| black_box(decode_ours(p)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("ours_borrowed (rows_from_result_set + from_row)", |b| {
        b.iter_batched(
            || input.clone(),
            |p| black_box(decode_ours_borrowed(p)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("hand_written_baseline", |b| {
        b.iter_batched(
            || input.clone(),
            |p| black_box(decode_by_hand(p)),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = polling, decoding
}
criterion_main!(benches);
