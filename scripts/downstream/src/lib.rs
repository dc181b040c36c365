//! A new user's app: a derived table, every statement kind, and the executor's
//! workflows in `async fn`s (whose futures must compile, be `Send`, and be spawnable).

use chrono::{NaiveDate, NaiveDateTime};
use iceberg_sql::ctas::{HiveCtas, IcebergCtas, Unload, UnloadFormat};
use iceberg_sql::dsl::{count_all, source};
use iceberg_sql::load::StagedLoad;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{Order, SnapshotRow};
use iceberg_sql_athena::{
    AppendOptions, AppendReport, AthenaExecutor, EnsureOptions, EnsureReport,
};

/// One MCP tool call.
#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts), bucket(16, user_id)),
    properties(format = "parquet", write_compression = "snappy")
)]
pub struct McpEvent {
    pub event_id: String,
    pub user_id: String,
    pub tool_name: String,
    pub event_ts: NaiveDateTime,
    pub payload: Option<String>,
    pub latency_ms: i64,
}

/// The same table with one more column.
#[derive(IcebergTable, Debug, Clone)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts), bucket(16, user_id)),
    properties(format = "parquet", write_compression = "snappy")
)]
pub struct McpEventV2 {
    pub event_id: String,
    pub user_id: String,
    pub tool_name: String,
    pub event_ts: NaiveDateTime,
    pub payload: Option<String>,
    pub latency_ms: i64,
    pub retries: Option<i32>,
}

pub fn ts(day: u32, hour: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 10, day)
        .and_then(|d| d.and_hms_opt(hour, 0, 0))
        .expect("a valid date")
}

pub fn events() -> Vec<McpEvent> {
    (0..3)
        .map(|i| McpEvent {
            event_id: format!("evt-{i}"),
            user_id: "user-1".into(),
            tool_name: "query_data".into(),
            event_ts: ts(1, 9 + i),
            payload: (i != 1).then(|| "it's ok".to_string()),
            latency_ms: 100 + i64::from(i),
        })
        .collect()
}

/// One statement (or more) of every kind the crate builds.
pub fn every_statement() -> Result<Vec<Statement>, Error> {
    let def = McpEvent::table_def();
    let rows = events();
    let db = DatabaseName::new("analytics");
    let view = TableName::new("analytics", "calls_per_tool");
    let q = McpEvent::select()
        .column(McpEvent::USER_ID)
        .column(McpEvent::EVENT_TS)
        .filter(McpEvent::EVENT_TS.ge(ts(1, 0)));
    let per_tool = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .expr_as(count_all(), "calls")
        .group_by(McpEvent::TOOL_NAME);
    let mut out = vec![
        db.create_database().if_not_exists().build()?,
        def.create_table().if_not_exists().build()?,
        def.alter()
            .add_columns([Column::new("region", IcebergType::String)])
            .build()?,
        IcebergCtas::new(TableName::new("analytics", "mcp_daily"), &q)
            .location("s3://my-datalake/iceberg/mcp_daily/")
            .partition(PartitionField::new("event_ts", PartitionTransform::Day))
            .build()?,
        HiveCtas::new(TableName::new("analytics", "mcp_parquet"), &q)
            .external_location("s3://my-datalake/mcp-parquet/")
            .build()?,
        Unload::new(&q, "s3://exports/acme/")
            .format(UnloadFormat::Parquet)
            .build()?,
        McpEvent::update()
            .set(McpEvent::LATENCY_MS, 320)
            .set(McpEvent::PAYLOAD, "retried")
            .filter(McpEvent::EVENT_ID.eq("evt-1"))
            .build()?,
        McpEvent::delete()
            .filter(McpEvent::EVENT_TS.lt(ts(1, 10)))
            .build()?,
        McpEvent::merge_from(MergeSource::table(TableName::new("analytics", "staging")))
            .on_key(McpEvent::EVENT_ID)
            .when_matched_and(source(McpEvent::TOOL_NAME).eq("deleted"))
            .delete()
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build()?,
        q.build()?,
        def.name()
            .metadata::<SnapshotRow>()
            .order_by(SnapshotRow::COMMITTED_AT, Order::Desc)
            .limit(5)
            .build()?,
        def.optimize().build()?,
        def.vacuum().build()?,
        def.name().show_create_table().build()?,
        def.name().describe().build()?,
        db.show_tables().like("mcp_*").build()?,
        view.create_view(&per_tool).or_replace().build()?,
        view.drop_view().if_exists().build()?,
        def.name().drop_table().build()?,
        db.drop_database().if_exists().build()?,
    ];
    out.extend(McpEvent::insert(&rows).batches()?);
    for step in evolve(def, McpEventV2::table_def(), EvolveOptions::new())?.steps {
        out.push(step.statement);
    }
    let plan = StagedLoad::new(def, "load-1", Location::parse("s3://my-datalake/staging/")?)
        .build()?;
    out.push(plan.create_staging().clone());
    out.push(plan.write().clone());
    out.push(plan.drop_staging().clone());
    Ok(out)
}

/// Creates the database and the table, or adds what the live table lacks.
pub async fn ensure(executor: &AthenaExecutor) -> Result<EnsureReport, iceberg_sql_athena::Error> {
    executor
        .ensure_table_for::<McpEvent>(EnsureOptions::new().create_database())
        .await
}

/// Appends rows exactly once per load id.
pub async fn load(
    executor: &AthenaExecutor,
    rows: &[McpEvent],
    load_id: &str,
) -> Result<AppendReport, iceberg_sql_athena::AppendError> {
    executor
        .append_rows(rows, AppendOptions::new(load_id), |_| {})
        .await
}

/// Reads the table back as records.
pub async fn read(executor: &AthenaExecutor) -> Result<Vec<McpEvent>, Box<dyn std::error::Error + Send + Sync>> {
    let select = McpEvent::select().build()?;
    Ok(executor.fetch_all(&select).await?)
}

/// The whole day in one future, as an app's job runner would spawn it.
pub async fn daily_job(
    executor: AthenaExecutor,
    rows: Vec<McpEvent>,
) -> Result<(usize, Vec<McpEvent>), Box<dyn std::error::Error + Send + Sync>> {
    let report = ensure(&executor).await?;
    load(&executor, &rows, "daily-2026-10-01").await?;
    let snapshots = executor.snapshots(McpEvent::table_def().name()).await?;
    let _ = snapshots;
    Ok((report.changes(), read(&executor).await?))
}

// An app nests its own async fns around the executor's (a handler, a job, a retry
// wrapper, ...): each level adds to the depth the compiler walks to lay out the
// outermost future, whose limit is 128 queries.
macro_rules! nested {
    ($($outer:ident => $inner:ident),* $(,)?) => {$(
        pub async fn $outer(
            executor: AthenaExecutor,
        ) -> Result<(usize, Vec<McpEvent>), Box<dyn std::error::Error + Send + Sync>> {
            $inner(executor).await
        }
    )*};
}

/// The innermost level of [`nested_8`].
pub async fn nested_0(
    executor: AthenaExecutor,
) -> Result<(usize, Vec<McpEvent>), Box<dyn std::error::Error + Send + Sync>> {
    daily_job(executor, events()).await
}

nested!(
    nested_1 => nested_0, nested_2 => nested_1, nested_3 => nested_2, nested_4 => nested_3,
    nested_5 => nested_4, nested_6 => nested_5, nested_7 => nested_6, nested_8 => nested_7,
);
