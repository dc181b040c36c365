//! The daily materialization driver: find the days a daily-summary Iceberg table lacks
//! and fill each one, in order, stopping at the first failure with what was done.
//!
//! The statements are the core crate's recipes: [`MissingDays`] (one query over the
//! table's `$partitions`) and [`DailyRefresh`] (`DELETE` of the day, then
//! `INSERT INTO … SELECT` of its rows). The driver keeps no state of its own: the
//! table is the state, so a re-run after a failure, a crash or a lost answer finds
//! exactly the days still missing and goes on from there.

use chrono::NaiveDate;
use futures::TryStreamExt;
use iceberg_sql::query::Select;
use iceberg_sql::recipes::{DailyRefresh, MissingDays};
use iceberg_sql::{Col, IcebergTable};

use crate::error::{Error, Result};
use crate::executor::AthenaExecutor;

/// One day the driver filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilledDay {
    /// The day.
    pub day: NaiveDate,
    /// The rows the day's `INSERT` wrote (Athena's `UpdateCount`), when Athena reported
    /// it. A day whose query produced no rows stays missing: the next run finds it again.
    pub rows: Option<u64>,
    /// The `DELETE` and `INSERT` executions, in order.
    pub query_ids: [String; 2],
}

/// What [`AthenaExecutor::materialize_days`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Materialized {
    /// The days the table lacked when the run began, in order.
    pub missing: Vec<NaiveDate>,
    /// The days filled, in order (all of `missing`).
    pub filled: Vec<FilledDay>,
}

impl Materialized {
    /// The days filled with no rows: their query found nothing, so they are still
    /// missing from the table's partitions.
    pub fn empty_days(&self) -> Vec<NaiveDate> {
        self.filled
            .iter()
            .filter(|d| d.rows == Some(0))
            .map(|d| d.day)
            .collect()
    }
}

impl AthenaExecutor {
    /// Fills every day from `from` to `to` (inclusive) that the daily-summary table `T`
    /// lacks: reads the missing days with [`MissingDays`] (the table must be
    /// partitioned by day on `day_column`), then for each one, oldest first, runs the
    /// [`DailyRefresh`] of `query_for(day)` (`DELETE` of the day, then `INSERT INTO …
    /// SELECT`) and calls `on_day` with what it wrote.
    ///
    /// **Resumable.** The first failure stops the run with
    /// [`Error::DaysIncomplete`]: the days filled, the day that failed and the days not
    /// started. Run it again with the same arguments: the days already filled are no
    /// longer missing, and the failed day is (its `INSERT` commits all of its rows or
    /// none, Iceberg commits being atomic), so each day is written once. A day whose
    /// `INSERT` failed with an unknown commit state is settled by the re-run too: if it
    /// committed, the day is present and skipped.
    ///
    /// **One run per table at a time.** Two concurrent runs can both find a day missing
    /// and both insert it; serialize runs on the table (one scheduler job per table).
    ///
    /// `query_for(day)` must produce exactly `T`'s columns by name and only rows of that
    /// day, as [`DailyRefresh::new`] says. A statement the builders refuse stops the run
    /// before that day (nothing of it runs) with [`Error::DaysIncomplete`] holding the
    /// builder's error.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("missing_days", |_| Plan::rows(ResultSet::select(&[("missing_days", "json")],
    /// #         vec![vec![Some(r#"["2026-10-02","2026-10-03"]"#.into())]]))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use chrono::{Duration, NaiveDate};
    /// use iceberg_sql::dsl::count_all;
    ///
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { tool_name: String, event_ts: chrono::NaiveDateTime }
    ///
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_daily_summary",
    ///           location = "s3://my-datalake/iceberg/mcp_daily_summary/", partition(dt))]
    /// struct Daily { tool_name: String, calls: i64, dt: NaiveDate }
    ///
    /// let per_tool = |day: NaiveDate| {
    ///     let start = day.and_hms_opt(0, 0, 0).unwrap();
    ///     McpEvent::select()
    ///         .column(McpEvent::TOOL_NAME)
    ///         .expr_as(count_all(), "calls")
    ///         .value_as(day, "dt")
    ///         .filter(McpEvent::EVENT_TS.ge(start).and(McpEvent::EVENT_TS.lt(start + Duration::days(1))))
    ///         .group_by(McpEvent::TOOL_NAME)
    /// };
    /// let d = |n| NaiveDate::from_ymd_opt(2026, 10, n).unwrap();
    /// let done = executor
    ///     .materialize_days(Daily::DT, d(1), d(3), per_tool, |f| println!("{} filled", f.day))
    ///     .await?;
    /// assert_eq!(done.missing, [d(2), d(3)]);
    /// assert_eq!(done.filled.len(), 2);
    /// # Ok(()) }
    /// ```
    pub async fn materialize_days<T, S>(
        &self,
        day_column: Col<T, NaiveDate>,
        from: NaiveDate,
        to: NaiveDate,
        mut query_for: impl FnMut(NaiveDate) -> Select<S>,
        mut on_day: impl FnMut(&FilledDay),
    ) -> Result<Materialized>
    where
        T: IcebergTable,
    {
        let missing = self
            .missing_days(T::table_def(), day_column.name(), from, to)
            .await?;
        let mut filled: Vec<FilledDay> = Vec::with_capacity(missing.len());
        for (i, &day) in missing.iter().enumerate() {
            let stop = |filled: Vec<FilledDay>, error: Error| Error::DaysIncomplete {
                filled,
                day,
                not_started: missing[i + 1..].to_vec(),
                error: Box::new(error),
            };
            let query = query_for(day);
            let steps = match DailyRefresh::new(day_column, day, &query).build() {
                Ok(steps) => steps,
                Err(e) => return Err(stop(filled, e.into())),
            };
            let mut query_ids = Vec::with_capacity(2);
            let mut rows = None;
            for step in &steps {
                match self.execute(step).await {
                    Ok(outcome) => {
                        rows = outcome.rows_affected;
                        query_ids.push(outcome.query_id);
                    }
                    Err(e) => return Err(stop(filled, e)),
                }
            }
            let Ok(query_ids) = <[String; 2]>::try_from(query_ids) else {
                return Err(stop(
                    filled,
                    Error::InvalidArgument(format!(
                        "the daily refresh of {day} built {} statements, not DELETE and INSERT",
                        steps.len()
                    )),
                ));
            };
            let day = FilledDay {
                day,
                rows,
                query_ids,
            };
            tracing::info!(day = %day.day, rows = ?day.rows, "daily materialization: day filled");
            on_day(&day);
            filled.push(day);
        }
        Ok(Materialized { missing, filled })
    }

    /// The days from `from` to `to` that `table` (partitioned by day on `column`) has
    /// no partition for: [`MissingDays`], run and decoded.
    async fn missing_days(
        &self,
        table: &iceberg_sql::TableDef,
        column: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<NaiveDate>> {
        let query = MissingDays::new(table, column, from, to).build()?;
        let outcome = self.execute(&query).await?;
        let rows: Vec<_> = self.rows(&outcome).try_collect().await?;
        match rows.as_slice() {
            [row] => Ok(MissingDays::decode(row)?),
            _ => Err(Error::Protocol {
                operation: "GetQueryResults",
                message: format!(
                    "the missing-days query {} returned {} rows, not one",
                    outcome.query_id,
                    rows.len()
                ),
            }),
        }
    }
}
