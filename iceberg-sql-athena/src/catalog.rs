//! What the catalog knows, read through Athena: a table's metadata tables
//! (`$snapshots`, `$history`, …), the tables and views of a database, a table's columns.

use futures::TryStreamExt;
use iceberg_sql::evolve::{parse_describe, Reader};
use iceberg_sql::query::{MetadataRow, SnapshotRow};
use iceberg_sql::record::Row;
use iceberg_sql::{DatabaseName, TableDef, TableName};

use crate::error::{Error, Result};
use crate::executor::AthenaExecutor;

impl AthenaExecutor {
    /// Every row of one of `table`'s Iceberg metadata tables, typed: `R` is
    /// [`SnapshotRow`], `HistoryRow`, `FileRow`, `ManifestRow`, `PartitionRow` or
    /// `RefRow` (`iceberg_sql::query`). Runs `table.metadata::<R>()`, which selects
    /// every column of `R` (nested ones as JSON). Knowing only the name, it cannot check
    /// the table: `PartitionRow` needs a partitioned table (an unpartitioned table's
    /// `$partitions` has no `partition` column); build
    /// `TableStatements::metadata::<R>()` and fetch it to have that checked.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("$history", |_| Plan::rows(ResultSet::select(
    /// #         &[("made_current_at", "timestamp(3) with time zone"), ("snapshot_id", "bigint"),
    /// #           ("parent_id", "bigint"), ("is_current_ancestor", "boolean")],
    /// #         vec![vec![Some("2026-01-01 12:00:00.000 UTC".into()), Some("1".into()), None, Some("true".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use iceberg_sql::query::HistoryRow;
    ///
    /// let table = TableName::new("analytics", "mcp_events");
    /// let history: Vec<HistoryRow> = executor.metadata(&table).await?;
    /// assert!(history[0].is_current_ancestor);
    /// # Ok(()) }
    /// ```
    pub async fn metadata<R: MetadataRow + Send + 'static>(
        &self,
        table: &TableName,
    ) -> Result<Vec<R>> {
        let select = table.metadata::<R>().build()?;
        self.fetch_all(&select).await
    }

    /// `table`'s snapshots (`$snapshots`), oldest first as Athena lists them:
    /// [`metadata::<SnapshotRow>`](Self::metadata).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("$snapshots", |_| Plan::rows(ResultSet::select(
    /// #         &[("committed_at", "timestamp(3) with time zone"), ("snapshot_id", "bigint"),
    /// #           ("parent_id", "bigint"), ("operation", "varchar"), ("manifest_list", "varchar"), ("summary", "json")],
    /// #         vec![vec![Some("2026-01-01 12:00:00.000 UTC".into()), Some("5789234567890123456".into()), None,
    /// #                   Some("append".into()), Some("s3://my-datalake/iceberg/mcp_events/metadata/snap-1.avro".into()),
    /// #                   Some(r#"{"added-records":"3"}"#.into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// let snapshots = executor.snapshots(&TableName::new("analytics", "mcp_events")).await?;
    /// let first = &snapshots[0];
    /// assert_eq!(first.operation.as_deref(), Some("append"));
    /// assert_eq!(first.summary.as_ref().unwrap()["added-records"], "3");
    /// // Time travel to it:
    /// let _as_of = Snapshot::Version(first.snapshot_id);
    /// # Ok(()) }
    /// ```
    pub async fn snapshots(&self, table: &TableName) -> Result<Vec<SnapshotRow>> {
        self.metadata::<SnapshotRow>(table).await
    }

    /// The names of the tables (and views) in `database`, as `SHOW TABLES IN database`
    /// lists them (one name per result row).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SHOW TABLES", |_| Plan::rows(ResultSet {
    /// #         columns: vec![("tab_name".into(), "varchar".into())],
    /// #         rows: vec![vec![Some("mcp_events".into())], vec![Some("mcp_users".into())]],
    /// #         header: false,
    /// #     }).statement_type("DDL").substatement("SHOW_TABLES")))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// let tables = executor.show_tables(&DatabaseName::new("analytics")).await?;
    /// assert_eq!(tables, ["mcp_events", "mcp_users"]);
    /// # Ok(()) }
    /// ```
    pub async fn show_tables(&self, database: &DatabaseName) -> Result<Vec<String>> {
        let show = database.show_tables().build()?;
        let rows: Vec<Row> = self.fetch_all(&show).await?;
        Ok(rows
            .into_iter()
            .filter_map(|r| r.into_cells().into_iter().next().flatten())
            .map(|name| name.trim().to_string())
            .collect())
    }

    /// The views of `database`, each read as a [`Reader`] of the tables it selects
    /// from, to check a schema change against
    /// ([`EvolutionPlan::check_readers`](iceberg_sql::evolve::EvolutionPlan::check_readers)).
    /// Runs `database.list_views()` (`information_schema.views`, by name) and reads
    /// each definition with our parser: a definition it cannot read is an error that
    /// names the view.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("information_schema.views", |_| Plan::rows(ResultSet::select(
    /// #         &[("table_name", "varchar"), ("view_definition", "varchar")],
    /// #         vec![vec![Some("payloads".into()),
    /// #                   Some("SELECT event_id, payload FROM analytics.mcp_events".into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// let views = executor.views(&DatabaseName::new("analytics")).await?;
    /// assert_eq!(views[0].view_name(), Some(&TableName::new("analytics", "payloads")));
    /// # Ok(()) }
    /// ```
    pub async fn views(&self, database: &DatabaseName) -> Result<Vec<Reader>> {
        let list = database.list_views().build()?;
        let rows: Vec<Row> = self.fetch_all(&list).await?;
        let mut views = Vec::with_capacity(rows.len());
        for row in rows {
            let mut cells = row.into_cells().into_iter();
            let name = cells.next().flatten().unwrap_or_default();
            let definition = cells.next().flatten().unwrap_or_default();
            let name = TableName::new(database.as_str(), name.trim());
            views.push(Reader::view(name, &definition)?);
        }
        Ok(views)
    }

    /// `table`'s live columns and partition spec, read with `DESCRIBE` and parsed by
    /// `iceberg_sql::evolve::parse_describe` (the table's location and properties are
    /// not part of it: [`live_definition`](Self::live_definition) reads the whole
    /// definition).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let lines = ["event_id\tstring\tULID", "event_ts\ttimestamp\t", "\t \t ",
    /// #     "# Partition Transforms\t \t ", "# field_name\tfield_transform\tcolumn_name",
    /// #     "event_ts_day\tday\tevent_ts"];
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("DESCRIBE", move |_| Plan::rows(ResultSet {
    /// #         columns: vec![("col_name".into(), "varchar".into())],
    /// #         rows: lines.iter().map(|l| vec![Some(l.to_string())]).collect(),
    /// #         header: false,
    /// #     }).statement_type("DDL").substatement("DESCRIBE_TABLE")))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// let live = executor.describe(&TableName::new("analytics", "mcp_events")).await?;
    /// assert_eq!(live.column("event_id").unwrap().ty, IcebergType::String);
    /// assert_eq!(live.partition_spec(), [PartitionField::new("event_ts", PartitionTransform::Day)]);
    /// # Ok(()) }
    /// ```
    pub async fn describe(&self, table: &TableName) -> Result<TableDef> {
        let describe = table.describe().build()?;
        let outcome = self.execute(&describe).await?;
        let rows: Vec<Row> = self.rows(&outcome).try_collect().await?;
        let text = text_of(&rows);
        parse_describe(&text, table).map_err(|e| Error::LiveDefinition {
            table: table.to_string(),
            query_id: outcome.query_id,
            text,
            source: Box::new(e),
        })
    }
}

/// The text of a DDL result (`SHOW CREATE TABLE`, `DESCRIBE`): one line per row; a
/// row's cells (one, in practice) joined with tabs, NULL as empty.
pub(crate) fn text_of(rows: &[Row]) -> String {
    let lines: Vec<String> = rows
        .iter()
        .map(|r| {
            r.cells()
                .iter()
                .map(|c| c.as_deref().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect();
    lines.join("\n")
}
