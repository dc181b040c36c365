//! Reading results: `GetQueryResults` pages as [`Row`]s, decoded into your types
//! ([`FromRow`], serde, Arrow record batches), and a write's `UpdateCount`.

use std::sync::Arc;
use std::time::Duration;

use aws_sdk_athena::operation::get_query_results::GetQueryResultsOutput;
use aws_sdk_athena::Client;
use futures::stream::{self, Stream, StreamExt, TryStreamExt};
use iceberg_sql::record::{ColumnMeta, Columns, FromRow, Row};
use iceberg_sql::{Statement, StatementKind};
use tokio::time::Instant;

use crate::api_error::{api_error, Ctx};
use crate::config::Backoff;
use crate::error::{CommitState, Error, Result};
use crate::executor::AthenaExecutor;
use crate::outcome::QueryOutcome;

/// One `GetQueryResults` page: the result's columns (known from the first page on,
/// even when it has no rows) and the page's data rows.
pub(crate) struct Page {
    // Read only by the Arrow methods (a batch has a schema even without rows).
    #[cfg_attr(not(feature = "arrow"), allow(dead_code))]
    pub(crate) columns: Arc<Columns>,
    pub(crate) rows: Vec<Row>,
}

/// How `GetQueryResults` calls are made and retried.
#[derive(Clone)]
struct Reader {
    client: Client,
    id: String,
    backoff: Backoff,
    /// Throttled or failed calls are retried this long.
    retry_for: Duration,
}

impl Reader {
    /// One `GetQueryResults` call, retried on throttling and transient failures.
    async fn get(
        &self,
        max_results: i32,
        next_token: Option<String>,
    ) -> Result<GetQueryResultsOutput> {
        let started = Instant::now();
        let mut failures = 0u32;
        loop {
            let answer = self
                .client
                .get_query_results()
                .query_execution_id(&self.id)
                .max_results(max_results)
                .set_next_token(next_token.clone())
                .send()
                .await;
            let e = match answer {
                Ok(out) => return Ok(out),
                // The query succeeded before its results were read.
                Err(e) => api_error(
                    "GetQueryResults",
                    e,
                    Ctx::query(&self.id, CommitState::Committed),
                ),
            };
            failures += 1;
            let delay = self.backoff.delay(failures);
            if !e.is_retryable() || started.elapsed() + delay > self.retry_for {
                return Err(Error::Api(Box::new(e)));
            }
            tracing::debug!(query_id = %self.id, error = %e, failures, "GetQueryResults failed; reading the page again");
            tokio::time::sleep(delay).await;
        }
    }
}

/// Whether a successful statement wrote rows, so that Athena has an `UpdateCount` for
/// it: by kind for a built statement; for unchecked SQL by Athena's `StatementType`
/// (`DML`) and `SubstatementType`.
pub(crate) fn writes_rows(kind: Option<StatementKind>, outcome: &QueryOutcome) -> bool {
    match kind {
        Some(k) => matches!(
            k,
            StatementKind::Insert
                | StatementKind::Update
                | StatementKind::Delete
                | StatementKind::Merge
                | StatementKind::CreateTableAs
        ),
        None => {
            outcome.statement_type.as_deref() == Some("DML")
                && outcome.substatement_type.as_deref().is_some_and(|t| {
                    matches!(
                        t,
                        "INSERT" | "UPDATE" | "DELETE" | "MERGE" | "CREATE_TABLE_AS_SELECT"
                    )
                })
        }
    }
}

impl AthenaExecutor {
    fn reader(&self, query_id: &str) -> Reader {
        Reader {
            client: self.client().clone(),
            id: query_id.to_string(),
            backoff: self.config().api_backoff,
            // The timeout, or 5 minutes without one.
            retry_for: self.config().timeout.unwrap_or(Duration::from_secs(300)),
        }
    }

    /// `GetQueryResults.UpdateCount` of a finished write; `None` when Athena gives none
    /// or it cannot be read (the statement committed either way, so that is logged,
    /// not returned).
    pub(crate) async fn read_update_count(&self, query_id: &str) -> Option<u64> {
        match self.reader(query_id).get(1, None).await {
            Ok(out) => out.update_count.and_then(|n| u64::try_from(n).ok()),
            Err(e) => {
                tracing::warn!(query_id, error = %e, "could not read UpdateCount; rows_affected is unknown");
                None
            }
        }
    }

    /// The result pages of a finished query, one per `GetQueryResults` call
    /// (`page_size` rows), the header row of a `SELECT` dropped from the first.
    pub(crate) fn pages_by_id(
        &self,
        query_id: &str,
        has_header: bool,
    ) -> impl Stream<Item = Result<Page>> + Send + 'static {
        struct Pager {
            reader: Reader,
            page_size: i32,
            next_token: Option<String>,
            first: bool,
            done: bool,
            has_header: bool,
            columns: Option<Arc<Columns>>,
        }
        let pager = Pager {
            reader: self.reader(query_id),
            page_size: self.config().page_size.clamp(1, 1000),
            next_token: None,
            first: true,
            done: false,
            has_header,
            columns: None,
        };
        stream::try_unfold(pager, |mut p| async move {
            if p.done {
                return Ok::<_, Error>(None);
            }
            let out = p.reader.get(p.page_size, p.next_token.take()).await?;
            p.next_token = out.next_token;
            p.done = p.next_token.is_none();
            let result_set = out
                .result_set
                .unwrap_or_else(|| aws_sdk_athena::types::ResultSet::builder().build());
            let skip_header = p.first && p.has_header;
            p.first = false;
            let rows = rows_from_result_set(result_set, &mut p.columns, skip_header);
            let columns = p
                .columns
                .clone()
                .unwrap_or_else(|| Arc::new(Columns::new(Vec::new())));
            Ok(Some((Page { columns, rows }, p)))
        })
    }

    /// The rows of a finished query, page by page (`GetQueryResults`, `page_size` rows
    /// per call), as a stream. The header row of a `SELECT` is skipped (first page
    /// only). Throttled or failed pages are read again with backoff.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("mcp_events", |_| Plan::rows(ResultSet::select(
    /// #         &[("tool_name", "varchar"), ("payload", "varchar")],
    /// #         vec![vec![Some("query_data".into()), None], vec![Some("list".into()), Some("".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use futures::TryStreamExt;
    ///
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { tool_name: String, payload: Option<String> }
    ///
    /// let outcome = executor.execute(&McpEvent::select().build()?).await?;
    /// let rows: Vec<Row> = executor.rows(&outcome).try_collect().await?;
    /// assert_eq!(rows[0].get("tool_name"), Some(Some("query_data")));
    /// assert_eq!(rows[0].get("payload"), Some(None));      // NULL
    /// assert_eq!(rows[1].get("payload"), Some(Some("")));  // not NULL
    /// # Ok(()) }
    /// ```
    pub fn rows(&self, outcome: &QueryOutcome) -> impl Stream<Item = Result<Row>> + Send + 'static {
        self.rows_by_id(&outcome.query_id, outcome.has_header)
    }

    /// Like [`rows`](Self::rows) for a query id (a query started elsewhere, or
    /// before a restart); `has_header` says whether the first row of the first page
    /// holds column labels (true for `SELECT`, false for DDL, `SHOW` and `DESCRIBE`).
    ///
    /// ```
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SELECT", |_| Plan::rows(ResultSet::select(&[("n", "bigint")],
    /// #         vec![vec![Some("42".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// # let query_id = executor.execute_unchecked(&UncheckedSql::new("SELECT 42 AS n")?).await?.query_id;
    /// use futures::TryStreamExt;
    ///
    /// let rows: Vec<Row> = executor.rows_by_id(&query_id, true).try_collect().await?;
    /// assert_eq!(rows[0].try_get::<i64>("n")?, 42);
    /// # Ok(()) }
    /// ```
    pub fn rows_by_id(
        &self,
        query_id: &str,
        has_header: bool,
    ) -> impl Stream<Item = Result<Row>> + Send + 'static {
        self.pages_by_id(query_id, has_header)
            .map_ok(|page| stream::iter(page.rows.into_iter().map(Ok)))
            .try_flatten()
    }

    /// The rows of a finished query decoded into `T`: any [`FromRow`] type (a table
    /// record, a `#[derive(FromRow)]` projection, a tuple, [`Row`], a metadata-table
    /// row, or `Serde<T>` of any `Deserialize` type with the `serde` feature). A row
    /// that does not decode is [`Error::Decode`], naming the row and the column.
    ///
    /// ```
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SELECT", |_| Plan::rows(ResultSet::select(
    /// #         &[("tool_name", "varchar"), ("n", "bigint")],
    /// #         vec![vec![Some("query_data".into()), Some("7".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use futures::TryStreamExt;
    ///
    /// #[derive(FromRow, Debug, PartialEq)]
    /// struct ToolCount { tool_name: String, n: i64 }
    ///
    /// let sql = UncheckedSql::new(
    ///     "SELECT tool_name, count(*) AS n FROM analytics.mcp_events GROUP BY 1")?;
    /// let outcome = executor.execute_unchecked(&sql).await?;
    /// let counts: Vec<ToolCount> = executor.decode(&outcome).try_collect().await?;
    /// assert_eq!(counts, [ToolCount { tool_name: "query_data".into(), n: 7 }]);
    /// # Ok(()) }
    /// ```
    pub fn decode<T: FromRow + Send + 'static>(
        &self,
        outcome: &QueryOutcome,
    ) -> impl Stream<Item = Result<T>> + Send + 'static {
        let id = outcome.query_id.clone();
        self.rows(outcome).enumerate().map(move |(n, r)| {
            r.and_then(|row| {
                T::from_row_owned(row).map_err(|source| Error::Decode {
                    query_id: id.clone(),
                    row: n as u64,
                    source: Box::new(source),
                })
            })
        })
    }

    /// Runs `statement` and streams its rows decoded into `T` (any [`FromRow`] type),
    /// page by page as they are read: [`execute`](Self::execute), then
    /// [`decode`](Self::decode). `try_collect()` gives a `Vec<T>`
    /// ([`fetch_all`](Self::fetch_all) does just that).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("FROM analytics.mcp_events", |_| Plan::rows(ResultSet::select(
    /// #         &[("event_id", "varchar"), ("latency_ms", "bigint")],
    /// #         vec![vec![Some("e1".into()), Some("120".into())], vec![Some("e2".into()), Some("95".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use futures::{StreamExt, TryStreamExt};
    ///
    /// #[derive(IcebergTable, Debug, Clone, PartialEq)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, latency_ms: i64 }
    ///
    /// let slow = McpEvent::select().filter(McpEvent::LATENCY_MS.gt(50)).build()?;
    /// let mut events = std::pin::pin!(executor.fetch::<McpEvent>(&slow));
    /// while let Some(event) = events.next().await {
    ///     println!("{:?}", event?);
    /// }
    /// let all: Vec<McpEvent> = executor.fetch(&slow).try_collect().await?;
    /// assert_eq!(all[1], McpEvent { event_id: "e2".into(), latency_ms: 95 });
    /// # Ok(()) }
    /// ```
    pub fn fetch<T: FromRow + Send + 'static>(
        &self,
        statement: &Statement,
    ) -> impl Stream<Item = Result<T>> + Send + 'static {
        let this = self.clone();
        let statement = statement.clone();
        stream::once(async move {
            let outcome = this.execute(&statement).await?;
            Ok::<_, Error>(this.decode::<T>(&outcome))
        })
        .try_flatten()
    }

    /// Runs `statement` and collects its rows decoded into `T`:
    /// [`fetch`](Self::fetch) collected into a `Vec`.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("FROM analytics.mcp_events", |_| Plan::rows(ResultSet::select(
    /// #         &[("tool_name", "varchar"), ("calls", "bigint")],
    /// #         vec![vec![Some("query_data".into()), Some("2".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use iceberg_sql::dsl::count_all;
    ///
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, tool_name: String }
    ///
    /// let per_tool = McpEvent::select()
    ///     .column(McpEvent::TOOL_NAME)
    ///     .expr_as(count_all(), "calls")
    ///     .group_by(McpEvent::TOOL_NAME)
    ///     .build()?;
    /// let pairs: Vec<(String, i64)> = executor.fetch_all(&per_tool).await?;  // by position
    /// assert_eq!(pairs, [("query_data".to_string(), 2)]);
    /// # Ok(()) }
    /// ```
    pub async fn fetch_all<T: FromRow + Send + 'static>(
        &self,
        statement: &Statement,
    ) -> Result<Vec<T>> {
        let outcome = self.execute(statement).await?;
        self.decode::<T>(&outcome).try_collect().await
    }

    /// Runs `statement` and streams its rows as any `serde::Deserialize` type (core
    /// feature `serde`, forwarded by this crate's `serde`): structs match columns by
    /// name, tuples and sequences by position; see `iceberg_sql::record::serde`.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("snapshots", |_| Plan::rows(ResultSet::select(
    /// #         &[("snapshot_id", "bigint"), ("committed_at", "timestamp(6) with time zone")],
    /// #         vec![vec![Some("5789234567890123456".into()), Some("2026-01-01 12:00:00.000000 UTC".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use futures::TryStreamExt;
    /// use iceberg_sql::query::SnapshotRow;
    ///
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Snap { snapshot_id: i64, committed_at: chrono::DateTime<chrono::Utc> }
    ///
    /// let q = TableName::new("analytics", "mcp_events")
    ///     .metadata::<SnapshotRow>()
    ///     .column(SnapshotRow::SNAPSHOT_ID)
    ///     .column(SnapshotRow::COMMITTED_AT)
    ///     .build()?;
    /// let snaps: Vec<Snap> = executor.fetch_serde(&q).try_collect().await?;
    /// assert_eq!(snaps[0].snapshot_id, 5789234567890123456);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn fetch_serde<T>(
        &self,
        statement: &Statement,
    ) -> impl Stream<Item = Result<T>> + Send + 'static
    where
        T: Send + 'static,
        iceberg_sql::record::serde::Serde<T>: FromRow,
    {
        self.fetch::<iceberg_sql::record::serde::Serde<T>>(statement)
            .map_ok(|iceberg_sql::record::serde::Serde(t)| t)
    }

    /// The rows of a finished query as Arrow record batches, one per result page
    /// (feature `arrow`), each column typed by its Athena type with the mapping of
    /// `iceberg_sql::arrow` (`bigint` → `Int64`, `decimal(p,s)` → `Decimal128(p, s)`,
    /// `timestamp(6) with time zone` → `Timestamp(Microsecond, "UTC")`, …); `json` and
    /// types without an Iceberg counterpart are `Utf8` text. The first batch is there
    /// even for a result without rows, so the schema is known.
    ///
    /// ```
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SELECT", |_| Plan::rows(ResultSet::select(&[("day", "date"), ("n", "bigint")],
    /// #         vec![vec![Some("2026-01-01".into()), Some("3".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use futures::TryStreamExt;
    ///
    /// let sql = UncheckedSql::new(
    ///     "SELECT date(event_ts) AS day, count(*) AS n FROM analytics.mcp_events GROUP BY 1")?;
    /// let outcome = executor.execute_unchecked(&sql).await?;
    /// let batches: Vec<arrow_array::RecordBatch> = executor.arrow_batches(&outcome).try_collect().await?;
    /// assert_eq!(batches[0].schema().field(0).data_type(), &arrow_schema::DataType::Date32);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "arrow")]
    #[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
    pub fn arrow_batches(
        &self,
        outcome: &QueryOutcome,
    ) -> impl Stream<Item = Result<arrow_array::RecordBatch>> + Send + 'static {
        let id = outcome.query_id.clone();
        self.pages_by_id(&outcome.query_id, outcome.has_header)
            .and_then(move |page| {
                let batch = iceberg_sql::arrow::result_batch(&page.columns, &page.rows);
                futures::future::ready(batch.map_err(|e| batch_error(&id, e)))
            })
    }

    /// Runs `statement` and streams its rows as Arrow record batches, one per result
    /// page: [`execute`](Self::execute), then [`arrow_batches`](Self::arrow_batches)
    /// (feature `arrow`).
    ///
    /// A `SELECT` of a table reads nested columns as JSON text on Athena, so they arrive
    /// as `Utf8`; [`fetch_arrow_as`](Self::fetch_arrow_as) with the table's columns
    /// gives them their `List`/`Map`/`Struct` types.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("FROM analytics.mcp_events", |_| Plan::rows(ResultSet::select(
    /// #         &[("event_id", "varchar"), ("latency_ms", "bigint")],
    /// #         vec![vec![Some("e1".into()), Some("120".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use futures::TryStreamExt;
    ///
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, latency_ms: i64 }
    ///
    /// let select = McpEvent::select().build()?;
    /// let batches: Vec<_> = executor.fetch_arrow(&select).try_collect().await?;
    /// assert_eq!(batches[0].num_rows(), 1);
    /// assert_eq!(batches[0].schema().field(1).data_type(), &arrow_schema::DataType::Int64);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "arrow")]
    #[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
    pub fn fetch_arrow(
        &self,
        statement: &Statement,
    ) -> impl Stream<Item = Result<arrow_array::RecordBatch>> + Send + 'static {
        let this = self.clone();
        let statement = statement.clone();
        stream::once(async move {
            let outcome = this.execute(&statement).await?;
            Ok::<_, Error>(this.arrow_batches(&outcome))
        })
        .try_flatten()
    }

    /// Like [`fetch_arrow`](Self::fetch_arrow), each page read as `columns` (by name,
    /// each cell parsed as the column's declared type; feature `arrow`): with a
    /// table's columns, the batches have the table's exact Arrow schema, nested
    /// columns (read as JSON on Athena) included.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("FROM analytics.tagged", |_| Plan::rows(ResultSet::select(
    /// #         &[("id", "bigint"), ("tags", "json")],
    /// #         vec![vec![Some("1".into()), Some(r#"["a","b"]"#.into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use futures::TryStreamExt;
    ///
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "tagged",
    ///           location = "s3://my-datalake/iceberg/tagged/")]
    /// struct Tagged { id: i64, tags: Vec<String> }
    ///
    /// let select = Tagged::select().build()?; // SELECT id, CAST(tags AS JSON) AS tags ...
    /// let columns = Tagged::table_def().columns();
    /// let batches: Vec<_> = executor.fetch_arrow_as(&select, columns).try_collect().await?;
    /// assert_eq!(batches[0].schema(), iceberg_sql::arrow::table_schema(Tagged::table_def()).into());
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "arrow")]
    #[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
    pub fn fetch_arrow_as(
        &self,
        statement: &Statement,
        columns: &[iceberg_sql::Column],
    ) -> impl Stream<Item = Result<arrow_array::RecordBatch>> + Send + 'static {
        let this = self.clone();
        let statement = statement.clone();
        let columns = columns.to_vec();
        stream::once(async move {
            let outcome = this.execute(&statement).await?;
            let id = outcome.query_id.clone();
            let pages = this.pages_by_id(&outcome.query_id, outcome.has_header);
            Ok::<_, Error>(pages.and_then(move |page| {
                let batch = iceberg_sql::arrow::rows_to_batch_as(&page.rows, &columns);
                futures::future::ready(batch.map_err(|e| batch_error(&id, e)))
            }))
        })
        .try_flatten()
    }
}

/// A page that does not fit its Arrow schema: a decode error of the query (the
/// core's error names the column).
#[cfg(feature = "arrow")]
fn batch_error(query_id: &str, source: iceberg_sql::Error) -> Error {
    Error::Decode {
        query_id: query_id.to_string(),
        row: 0,
        source: Box::new(source),
    }
}

/// Turns one `GetQueryResults` page into [`Row`]s (moving the cell strings, no copies).
///
/// `columns` holds the result's columns: taken from this page's metadata when it is
/// `None` (the first page), reused otherwise. With `skip_header`, the first row (the
/// column labels Athena puts at the top of a `SELECT`'s first page) is dropped. This is
/// what [`AthenaExecutor::rows`] does per page; it is public for callers that page
/// themselves.
///
/// ```
/// use aws_sdk_athena::types::{ColumnInfo, Datum, ResultSet, ResultSetMetadata, Row as AthenaRow};
/// use iceberg_sql_athena::rows_from_result_set;
///
/// let page = ResultSet::builder()
///     .result_set_metadata(ResultSetMetadata::builder()
///         .column_info(ColumnInfo::builder().name("n").r#type("bigint").build()?)
///         .build())
///     .rows(AthenaRow::builder().data(Datum::builder().var_char_value("n").build()).build())
///     .rows(AthenaRow::builder().data(Datum::builder().var_char_value("7").build()).build())
///     .build();
/// let mut columns = None;
/// let rows = rows_from_result_set(page, &mut columns, true);
/// assert_eq!(rows.len(), 1);
/// assert_eq!(rows[0].try_get::<i64>("n")?, 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rows_from_result_set(
    result_set: aws_sdk_athena::types::ResultSet,
    columns: &mut Option<Arc<Columns>>,
    skip_header: bool,
) -> Vec<Row> {
    let cols = match columns {
        Some(c) => c.clone(),
        None => {
            let meta = result_set
                .result_set_metadata
                .and_then(|m| m.column_info)
                .unwrap_or_default()
                .into_iter()
                .map(|c| {
                    let nullable = c.nullable.as_ref().and_then(|n| match n.as_str() {
                        "NULLABLE" => Some(true),
                        "NOT_NULL" => Some(false),
                        _ => None,
                    });
                    // 0 means "not given" in the SDK's ColumnInfo.
                    let size = |n: i32| u32::try_from(n).ok().filter(|n| *n > 0);
                    ColumnMeta::new(c.name, c.r#type)
                        .with_nullable(nullable)
                        .with_precision_scale(size(c.precision), size(c.scale))
                })
                .collect();
            let c = Arc::new(Columns::new(meta));
            *columns = Some(c.clone());
            c
        }
    };
    let rows = result_set.rows.unwrap_or_default();
    let skip = usize::from(skip_header && !rows.is_empty());
    rows.into_iter()
        .skip(skip)
        .map(|r| {
            let cells = r
                .data
                .unwrap_or_default()
                .into_iter()
                .map(|d| d.var_char_value)
                .collect();
            Row::new(cols.clone(), cells)
        })
        .collect()
}
