//! The two-column table the executor's fault and staged-load tests write, its rows, and
//! an executor configuration with short polls, retries and backoff so the tests run in
//! milliseconds.
use std::sync::OnceLock;
use std::time::Duration;

use iceberg_sql::prelude::*;
use iceberg_sql_athena::{Backoff, ExecutorConfig, PollConfig, RetryPolicy};
use iceberg_sql_test_server::{Op, RowKey, ServerConfig, TestServer};

/// `analytics.ev`: a required key and a nullable number.
#[derive(Debug, Clone, PartialEq)]
pub struct Ev {
    pub event_id: String,
    pub n: i64,
}

impl IcebergTable for Ev {
    fn table_def() -> &'static TableDef {
        static DEF: OnceLock<TableDef> = OnceLock::new();
        DEF.get_or_init(|| ev_def("ev"))
    }
    fn to_values(&self) -> Vec<Value> {
        vec![Value::String(self.event_id.clone()), Value::Long(self.n)]
    }
}

/// `analytics.<name>` with `Ev`'s two columns, at `s3://lake/<name>/`.
pub fn ev_def(name: &str) -> TableDef {
    TableDef::builder("analytics", name)
        .column(Column::new("event_id", IcebergType::String).required())
        .column(Column::new("n", IcebergType::Long))
        .location(format!("s3://lake/{name}/"))
        .build()
        .unwrap()
}

/// `n` rows with keys `e-0000`, `e-0001`, … (four digits at least: the fault tests name rows in their scripts).
pub fn rows(n: usize) -> Vec<Ev> {
    (0..n)
        .map(|i| Ev {
            event_id: format!("e-{i:04}"),
            n: i as i64,
        })
        .collect()
}

/// The test server's ledger keys of `rows` (table `analytics.ev`, key `event_id`).
pub fn keys(rows: &[Ev]) -> Vec<RowKey> {
    rows.iter()
        .map(|r| RowKey {
            table: "analytics.ev".into(),
            key: r.event_id.clone(),
        })
        .collect()
}

/// Polls every 2 ms, resubmits twice with 5 to 20 ms between, backs off 2 to 20 ms on
/// API errors, gives up after 20 s.
pub fn fast_config() -> ExecutorConfig {
    ExecutorConfig::default()
        .poll(PollConfig::fixed(Duration::from_millis(2)))
        .retry(RetryPolicy {
            max_resubmits: 2,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(20),
        })
        .api_backoff(Backoff {
            initial: Duration::from_millis(2),
            max: Duration::from_millis(20),
        })
        .timeout(Duration::from_secs(20))
}

/// [`fast_config`] that awaits a stopped query's final state for up to 2 s.
pub fn config() -> ExecutorConfig {
    fast_config().stop_grace(Duration::from_secs(2))
}

/// The test server with `config`, keyed by `event_id`.
pub async fn server(config: ServerConfig) -> TestServer {
    TestServer::start(config.row_key("event_id")).await.unwrap()
}

/// The tokens of the starts whose text contains `needle` (the executor's own
/// `$snapshots` reads are starts too).
pub fn start_tokens(s: &TestServer, needle: &str) -> Vec<String> {
    s.bodies(Op::StartQueryExecution)
        .iter()
        .filter(|b| b["QueryString"].as_str().unwrap_or("").contains(needle))
        .map(|b| b["ClientRequestToken"].as_str().unwrap_or("").to_string())
        .collect()
}
