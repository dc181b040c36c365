//! Table lifecycle helpers on [`AthenaExecutor`]: bring a table to its desired
//! definition (create, or read the live one and evolve it) and maintain it (OPTIMIZE,
//! vacuum retention, VACUUM). Appends live in `append.rs`, staged loads in `staged/`.

use std::fmt;

use futures::TryStreamExt;
use iceberg_sql::evolve::{
    evolve, parse_show_create_table, Change, EvolutionPlan, EvolutionStep, EvolveOptions,
};
use iceberg_sql::maintenance::VacuumRetention;
use iceberg_sql::record::Row;
use iceberg_sql::{Dialect, IcebergTable, Statement, StatementKind, TableDef, TableName};

use crate::catalog::text_of;
use crate::error::{Error, QueryError, Result};
use crate::executor::AthenaExecutor;
use crate::outcome::{QueryOutcome, QueryStats, Run};

/// What [`AthenaExecutor::ensure_table`] may do to an existing table.
///
/// Default: run only non-breaking steps (new columns, changed table properties); refuse
/// a plan with renames, type promotions or drops before running any of it; never
/// create the database.
///
/// ```
/// use iceberg_sql_athena::EnsureOptions;
/// // A first deployment into a new account: create the database if it is missing.
/// let first_run = EnsureOptions::new().create_database();
/// // A release that renames a column (`Column::renamed_from`).
/// let rename = EnsureOptions::new().allow_breaking();
/// # let _ = (first_run, rename);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct EnsureOptions {
    allow_breaking: bool,
    allow_drops: bool,
    sync_properties: bool,
    create_database: bool,
}

impl Default for EnsureOptions {
    fn default() -> Self {
        EnsureOptions {
            allow_breaking: false,
            allow_drops: false,
            sync_properties: true,
            create_database: false,
        }
    }
}

impl EnsureOptions {
    /// Non-breaking steps only; no drops; table properties synced; the database must
    /// exist.
    pub fn new() -> Self {
        Self::default()
    }

    /// When the table is missing, first run `CREATE DATABASE IF NOT EXISTS` for its
    /// database (without a location or comment: tables carry their own location), so
    /// that a new account needs nothing created by hand.
    pub fn create_database(mut self) -> Self {
        self.create_database = true;
        self
    }

    /// Also run breaking steps: renames (`Column::renamed_from`) and legal type
    /// promotions (`int -> bigint`, `float -> double`, decimal precision up).
    pub fn allow_breaking(mut self) -> Self {
        self.allow_breaking = true;
        self
    }

    /// Drop live columns the desired definition no longer has (and run those drops;
    /// this is the permission for them, `allow_breaking` is not needed as well).
    /// Without it, such columns make the planner refuse (`Error::Statement`).
    pub fn allow_drops(mut self) -> Self {
        self.allow_drops = true;
        self
    }

    /// Whether to set desired table properties the live table lacks or has with
    /// another value (default: yes). Properties are never unset.
    pub fn sync_properties(mut self, sync: bool) -> Self {
        self.sync_properties = sync;
        self
    }

    fn evolve_options(&self) -> EvolveOptions {
        let o = EvolveOptions::new().sync_properties(self.sync_properties);
        if self.allow_drops {
            o.allow_drops()
        } else {
            o
        }
    }

    fn permits(&self, step: &EvolutionStep) -> bool {
        !step.breaking
            || self.allow_breaking
            || (self.allow_drops && matches!(step.change, Change::DropColumn(_)))
    }
}

/// What [`AthenaExecutor::ensure_table`] did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EnsureReport {
    /// `SHOW CREATE TABLE` failed with table-not-found (or database-not-found);
    /// `CREATE TABLE IF NOT EXISTS` ran, after `CREATE DATABASE IF NOT EXISTS` when
    /// [`EnsureOptions::create_database`] asked for it.
    Created {
        /// The `SHOW CREATE TABLE` failure that said the table is missing.
        not_found: Box<QueryError>,
        /// The `CREATE DATABASE IF NOT EXISTS` execution, when asked for.
        database: Option<Box<QueryOutcome>>,
        /// The `CREATE TABLE IF NOT EXISTS` execution.
        create: QueryOutcome,
    },
    /// The live definition differed: the plan's statements ran, in order, once each.
    Evolved {
        /// The `SHOW CREATE TABLE` execution.
        show: QueryOutcome,
        /// The live definition before the change, as parsed.
        live: Box<TableDef>,
        /// The plan that ran.
        plan: EvolutionPlan,
        /// One execution per plan step, in order.
        steps: Vec<QueryOutcome>,
    },
    /// Live and desired agree; nothing but `SHOW CREATE TABLE` ran.
    Unchanged {
        /// The `SHOW CREATE TABLE` execution.
        show: QueryOutcome,
        /// The live definition, as parsed.
        live: Box<TableDef>,
    },
}

impl EnsureReport {
    /// Whether the table was created.
    pub fn is_created(&self) -> bool {
        matches!(self, EnsureReport::Created { .. })
    }

    /// Whether nothing had to change.
    pub fn is_unchanged(&self) -> bool {
        matches!(self, EnsureReport::Unchanged { .. })
    }

    /// Statements run to change the table: 1 for a create (2 with the database), the
    /// plan's step count for an evolution, 0 when unchanged (`SHOW CREATE TABLE` is not
    /// counted).
    pub fn changes(&self) -> usize {
        match self {
            EnsureReport::Created { database, .. } => 1 + usize::from(database.is_some()),
            EnsureReport::Evolved { steps, .. } => steps.len(),
            EnsureReport::Unchanged { .. } => 0,
        }
    }

    /// Every execution, in the order it ran (including `SHOW CREATE TABLE` when it
    /// succeeded).
    pub fn outcomes(&self) -> Vec<&QueryOutcome> {
        match self {
            EnsureReport::Created {
                database, create, ..
            } => database
                .as_deref()
                .into_iter()
                .chain(std::iter::once(create))
                .collect(),
            EnsureReport::Evolved { show, steps, .. } => {
                std::iter::once(show).chain(steps.iter()).collect()
            }
            EnsureReport::Unchanged { show, .. } => vec![show],
        }
    }

    /// The statistics of every execution, summed (all runs of each).
    pub fn total_stats(&self) -> QueryStats {
        let mut total = QueryStats::default();
        for o in self.outcomes() {
            total.add(&o.total_stats);
        }
        total
    }
}

impl fmt::Display for EnsureReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnsureReport::Created {
                database, create, ..
            } => {
                if let Some(db) = database {
                    write!(f, "database ensured (query {}), ", db.query_id)?;
                }
                write!(f, "created (query {})", create.query_id)
            }
            EnsureReport::Evolved { steps, plan, .. } => {
                let n = steps.len();
                write!(
                    f,
                    "evolved with {n} step{}:\n{plan}",
                    if n == 1 { "" } else { "s" }
                )
            }
            EnsureReport::Unchanged { .. } => f.write_str("unchanged"),
        }
    }
}

/// What [`AthenaExecutor::maintain_table`] / [`maintain_def`](AthenaExecutor::maintain_def)
/// run besides OPTIMIZE and VACUUM.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[must_use]
pub struct MaintenanceOptions {
    retention: Option<VacuumRetention>,
}

impl MaintenanceOptions {
    /// OPTIMIZE then VACUUM, with the table's current retention.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keep snapshots for `days` days: before VACUUM, set
    /// `vacuum_max_snapshot_age_seconds` (Athena's VACUUM has no RETAIN clause).
    pub fn retain_days(self, days: u32) -> Self {
        let r = self.retention.unwrap_or_default();
        self.retention(VacuumRetention {
            max_snapshot_age_seconds: Some(u64::from(days) * 86_400),
            ..r
        })
    }

    /// Any retention the `vacuum_*` table properties carry, set (`ALTER TABLE ... SET
    /// TBLPROPERTIES`) between OPTIMIZE and VACUUM.
    pub fn retention(mut self, retention: VacuumRetention) -> Self {
        self.retention = Some(retention);
        self
    }
}

/// What [`AthenaExecutor::maintain`] and friends did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MaintenanceReport {
    /// The OPTIMIZE statement's outcome (its `runs` lists every re-run).
    pub optimize: QueryOutcome,
    /// The `ALTER TABLE ... SET TBLPROPERTIES` that set the vacuum retention, when one
    /// was asked for.
    pub retention: Option<QueryOutcome>,
    /// The VACUUM statement's outcome.
    pub vacuum: QueryOutcome,
}

impl MaintenanceReport {
    /// Every execution, in the order it ran (each with all its runs).
    pub fn outcomes(&self) -> Vec<&QueryOutcome> {
        std::iter::once(&self.optimize)
            .chain(self.retention.iter())
            .chain(std::iter::once(&self.vacuum))
            .collect()
    }

    /// The statistics of every run of every step, summed.
    pub fn total_stats(&self) -> QueryStats {
        let mut total = QueryStats::default();
        for o in self.outcomes() {
            total.add(&o.total_stats);
        }
        total
    }
}

/// One line: each step with its number of runs and last query id, then the bytes
/// scanned and the estimated cost of all runs.
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use iceberg_sql_athena::*;
/// # use iceberg_sql_test_server::{Failure, ScriptedEngine, ServerConfig, TestServer};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
/// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
/// #     .more_runs_needed("OPTIMIZE", 2, Failure::optimize_more_runs_needed()))).await?;
/// # let executor = AthenaExecutor::new(server.client(),
/// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
/// let table = TableDef::builder("analytics", "mcp_events")
///     .column(Column::new("event_id", IcebergType::String))
///     .location("s3://my-datalake/iceberg/mcp_events/")
///     .build()?;
/// let report = executor.maintain_def(&table, MaintenanceOptions::new().retain_days(7)).await?;
/// let line = report.to_string();
/// assert!(line.starts_with("OPTIMIZE 3 runs (last query "), "{line}");
/// assert!(line.contains(", retention set (query "), "{line}");
/// assert!(line.contains(", VACUUM 1 run (last query "), "{line}");
/// assert!(line.ends_with("0 bytes scanned, est. $0.000000"), "{line}");
/// # Ok(()) }
/// ```
impl fmt::Display for MaintenanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let runs = |o: &QueryOutcome| {
            let n = o.attempts();
            format!(
                "{n} run{} (last query {})",
                if n == 1 { "" } else { "s" },
                o.query_id
            )
        };
        write!(f, "OPTIMIZE {}", runs(&self.optimize))?;
        if let Some(r) = &self.retention {
            write!(f, ", retention set (query {})", r.query_id)?;
        }
        let total = self.total_stats();
        write!(
            f,
            ", VACUUM {}; {} bytes scanned, est. ${:.6}",
            runs(&self.vacuum),
            total.data_scanned_bytes,
            total.cost_usd
        )
    }
}

impl AthenaExecutor {
    /// Runs `SHOW CREATE TABLE name` and parses its text into the live definition.
    ///
    /// [`LiveDefinition::Missing`] when Athena answers that the table or its database
    /// does not exist (see [`QueryError::is_table_not_found`] and
    /// [`QueryError::is_database_not_found`]), with the failure for reporting. Other failures (e.g. `UNSUPPORTED` for a table with properties Athena
    /// cannot print) are errors.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SHOW CREATE TABLE", |_| Plan::fail(Failure::new(2, 1000, false,
    /// #         "FAILED: SemanticException [Error 10072]: Database does not exist: analytics"))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// match executor.live_definition(&TableName::new("analytics", "mcp_events")).await? {
    ///     LiveDefinition::Present { def, .. } => println!("{} columns", def.columns().len()),
    ///     LiveDefinition::Missing(why) => {
    ///         assert!(why.is_database_not_found());
    ///         println!("not there yet: {}", why.reason.as_deref().unwrap_or_default());
    ///     }
    ///     _ => {}
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn live_definition(&self, name: &TableName) -> Result<LiveDefinition> {
        let show = name.show_create_table().build()?;
        let outcome = match self.execute(&show).await {
            Ok(o) => o,
            Err(Error::Failed(qe)) if qe.is_table_not_found() || qe.is_database_not_found() => {
                return Ok(LiveDefinition::Missing(qe));
            }
            Err(e) => return Err(e),
        };
        let rows: Vec<Row> = self.rows(&outcome).try_collect().await?;
        let text = text_of(&rows);
        match parse_show_create_table(&text, Dialect::Athena) {
            Ok(def) => Ok(LiveDefinition::Present {
                def: Box::new(def),
                text,
                show: Box::new(outcome),
            }),
            Err(e) => Err(Error::LiveDefinition {
                table: name.to_string(),
                query_id: outcome.query_id,
                text,
                source: Box::new(e),
            }),
        }
    }

    /// Brings the table to `desired`.
    ///
    /// 1. `SHOW CREATE TABLE` ([`live_definition`](Self::live_definition)). If Athena
    ///    says the table (or its database) does not exist: `CREATE DATABASE IF NOT
    ///    EXISTS` when [`EnsureOptions::create_database`] asks for it, then `CREATE
    ///    TABLE IF NOT EXISTS` from `desired`, [`EnsureReport::Created`]. A missing
    ///    database without `create_database()` is the `SHOW CREATE TABLE` failure,
    ///    [`Error::Failed`].
    /// 2. Otherwise the result rows are joined into the DDL text, parsed
    ///    (`iceberg_sql::evolve::parse_show_create_table`, Athena dialect) and planned
    ///    with `iceberg_sql::evolve::evolve(&live, desired, ..)`. Changes Athena cannot
    ///    make in place are refused by the planner ([`Error::Statement`], every change
    ///    listed); nothing runs.
    /// 3. A plan with breaking steps that `options` does not allow is refused
    ///    ([`Error::BreakingChange`]); nothing runs.
    /// 4. The plan's statements run in order, each once (a statement is resubmitted
    ///    only after a retryable `FAILED` that committed nothing). The first failure
    ///    stops the run and is returned; the steps before it are committed, and calling
    ///    `ensure_table` again plans only what is still missing.
    ///
    /// Two callers racing on a missing table both see "not found"; `IF NOT EXISTS`
    /// makes the second create a no-op.
    ///
    /// On a new account (here the test server answers as Athena does when the
    /// database is missing), `create_database()` creates the database first:
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SHOW CREATE TABLE", |_| Plan::fail(Failure::new(2, 1000, false,
    /// #         "FAILED: SemanticException [Error 10072]: Database does not exist: analytics"))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// let table = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("event_id", IcebergType::String).required())
    ///     .column(Column::new("tool_name", IcebergType::String))
    ///     .location("s3://my-datalake/iceberg/mcp_events/")
    ///     .build()?;
    /// let report = executor.ensure_table(&table, EnsureOptions::new().create_database()).await?;
    /// assert!(report.is_created());
    /// let ran: Vec<&str> = report.outcomes().iter().map(|o| o.sql.as_str()).collect();
    /// assert_eq!(ran[0], "CREATE DATABASE IF NOT EXISTS analytics");
    /// assert!(ran[1].starts_with("CREATE TABLE IF NOT EXISTS analytics.mcp_events"));
    /// println!("{report}");
    /// # Ok(()) }
    /// ```
    pub async fn ensure_table(
        &self,
        desired: &TableDef,
        options: EnsureOptions,
    ) -> Result<EnsureReport> {
        let name = desired.name();
        let (live, show) = match self.live_definition(name).await? {
            LiveDefinition::Missing(not_found)
                if not_found.is_database_not_found() && !options.create_database =>
            {
                // Nothing can be created in a missing database; say so as Athena did.
                return Err(Error::Failed(not_found));
            }
            LiveDefinition::Missing(not_found) => {
                tracing::info!(table = %name, reason = ?not_found.reason, "table not found; creating it");
                let database = if options.create_database {
                    let db = name
                        .database_name()
                        .create_database()
                        .if_not_exists()
                        .build()?;
                    Some(Box::new(self.execute(&db).await?))
                } else {
                    None
                };
                let create = desired.create_table().if_not_exists().build()?;
                let create = self.execute(&create).await?;
                return Ok(EnsureReport::Created {
                    not_found,
                    database,
                    create,
                });
            }
            LiveDefinition::Present { def, show, .. } => (def, *show),
        };
        let plan = evolve(&live, desired, options.evolve_options())?;
        if plan.is_empty() {
            tracing::info!(table = %name, "table is up to date");
            return Ok(EnsureReport::Unchanged { show, live });
        }
        let steps = self.run_plan(&plan, |s| options.permits(s)).await?;
        Ok(EnsureReport::Evolved {
            show,
            live,
            plan,
            steps,
        })
    }

    /// [`ensure_table`](Self::ensure_table) for `T`'s table (`T::table_def()`).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SHOW CREATE TABLE", |_| Plan::fail(Failure::new(2, 1110, false,
    /// #         "TABLE_NOT_FOUND: Table not found analytics.mcp_events"))))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, tool_name: String }
    ///
    /// let report = executor.ensure_table_for::<McpEvent>(EnsureOptions::new()).await?;
    /// assert_eq!(report.changes(), 1); // CREATE TABLE IF NOT EXISTS
    /// # Ok(()) }
    /// ```
    pub async fn ensure_table_for<T: IcebergTable>(
        &self,
        options: EnsureOptions,
    ) -> Result<EnsureReport> {
        self.ensure_table(T::table_def(), options).await
    }

    /// Runs a `CREATE TABLE IF NOT EXISTS` statement (checked to be one), without
    /// reading the live definition.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, tool_name: String }
    ///
    /// let create = McpEvent::table_def().create_table().if_not_exists().build()?;
    /// executor.create_if_missing(&create).await?;
    /// // Anything else is refused before it is sent.
    /// let plain = McpEvent::table_def().create_table().build()?;
    /// assert!(executor.create_if_missing(&plain).await.is_err());
    /// # Ok(()) }
    /// ```
    pub async fn create_if_missing(&self, create: &Statement) -> Result<QueryOutcome> {
        let head: String = create
            .sql()
            .chars()
            .take(64)
            .collect::<String>()
            .to_ascii_uppercase();
        if create.kind() != StatementKind::CreateTable || !head.contains("IF NOT EXISTS") {
            return Err(Error::InvalidArgument(format!(
                "create_if_missing needs a CREATE TABLE IF NOT EXISTS statement, got {}: {}",
                create.kind().name(),
                crate::error::excerpt(create.sql())
            )));
        }
        self.execute(create).await
    }

    /// Runs an evolution plan (from `iceberg_sql::evolve::evolve(live, desired, ..)`),
    /// one statement per step, in order. A plan with breaking steps (drops, renames,
    /// type changes) is refused unless `allow_breaking` ([`Error::BreakingChange`]);
    /// nothing is run then. Stops at the first failing step.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use iceberg_sql::evolve::{evolve, EvolveOptions};
    ///
    /// let v1 = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("event_id", IcebergType::String).required())
    ///     .location("s3://my-datalake/iceberg/mcp_events/")
    ///     .build()?;
    /// let v2 = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("event_id", IcebergType::String).required())
    ///     .column(Column::new("latency_ms", IcebergType::Long))
    ///     .location("s3://my-datalake/iceberg/mcp_events/")
    ///     .build()?;
    /// let plan = evolve(&v1, &v2, EvolveOptions::new())?;
    /// let outcomes = executor.apply_evolution(&plan, false).await?;
    /// assert_eq!(outcomes.len(), 1);
    /// assert!(outcomes[0].sql.starts_with("ALTER TABLE analytics.mcp_events ADD COLUMNS"));
    /// # Ok(()) }
    /// ```
    pub async fn apply_evolution(
        &self,
        plan: &EvolutionPlan,
        allow_breaking: bool,
    ) -> Result<Vec<QueryOutcome>> {
        self.run_plan(plan, |s| allow_breaking || !s.breaking).await
    }

    async fn run_plan(
        &self,
        plan: &EvolutionPlan,
        permits: impl Fn(&EvolutionStep) -> bool,
    ) -> Result<Vec<QueryOutcome>> {
        let refused: Vec<String> = plan
            .steps
            .iter()
            .filter(|s| !permits(s))
            .map(|s| s.change.to_string())
            .collect();
        if !refused.is_empty() {
            return Err(Error::BreakingChange {
                plan: Box::new(plan.clone()),
                refused,
            });
        }
        let mut outcomes = Vec::with_capacity(plan.steps.len());
        for step in &plan.steps {
            tracing::info!(change = %step.change, breaking = step.breaking, "evolution step");
            outcomes.push(self.execute(&step.statement).await?);
        }
        Ok(outcomes)
    }

    /// Maintenance of `table`: `OPTIMIZE ... REWRITE DATA USING BIN_PACK` until done;
    /// with a retention in `options`, `ALTER TABLE ... SET TBLPROPERTIES
    /// ('vacuum_max_snapshot_age_seconds'=...)` once; then `VACUUM` until done.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// let table = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("event_id", IcebergType::String))
    ///     .location("s3://my-datalake/iceberg/mcp_events/")
    ///     .build()?;
    /// let report = executor.maintain_def(&table, MaintenanceOptions::new()).await?;
    /// assert!(report.retention.is_none());
    /// println!("{report}");
    /// # Ok(()) }
    /// ```
    pub async fn maintain_def(
        &self,
        table: &TableDef,
        options: MaintenanceOptions,
    ) -> Result<MaintenanceReport> {
        let optimize = table.optimize().build()?;
        let mut vacuum = table.vacuum();
        if let Some(r) = options.retention {
            vacuum = vacuum.retention(r);
        }
        let vacuum_steps = vacuum.build_steps()?;
        self.maintain_steps(&optimize, &vacuum_steps).await
    }

    /// [`maintain_def`](Self::maintain_def) for `T`'s table.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, tool_name: String }
    ///
    /// let report = executor.maintain_table::<McpEvent>(MaintenanceOptions::new().retain_days(7)).await?;
    /// assert!(report.retention.is_some());
    /// # Ok(()) }
    /// ```
    pub async fn maintain_table<T: IcebergTable>(
        &self,
        options: MaintenanceOptions,
    ) -> Result<MaintenanceReport> {
        self.maintain_def(T::table_def(), options).await
    }

    /// Table maintenance: runs `optimize` until Athena stops answering
    /// `ICEBERG_OPTIMIZE_MORE_RUNS_NEEDED` (bounded), then `vacuum` likewise. Each run
    /// has the executor's timeout, each statement's runs together the
    /// `maintenance_deadline`. A failure after some runs completed is
    /// [`Error::MaintenanceIncomplete`] listing them (OPTIMIZE's, the retention's,
    /// VACUUM's).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .more_runs_needed("OPTIMIZE", 1, Failure::optimize_more_runs_needed()))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, tool_name: String }
    ///
    /// let optimize = McpEvent::table_def().optimize().build()?;
    /// let vacuum = McpEvent::table_def().vacuum().build()?;
    /// let report = executor.maintain(&optimize, &vacuum).await?;
    /// assert_eq!(report.optimize.attempts(), 2); // MORE_RUNS_NEEDED once
    /// # Ok(()) }
    /// ```
    pub async fn maintain(
        &self,
        optimize: &Statement,
        vacuum: &Statement,
    ) -> Result<MaintenanceReport> {
        self.maintain_steps(optimize, std::slice::from_ref(vacuum))
            .await
    }

    /// Like [`maintain`](Self::maintain) with the vacuum as `Vacuum::build_steps()`
    /// returns it: an optional `ALTER TABLE ... SET TBLPROPERTIES` (run once after
    /// OPTIMIZE), then the `VACUUM` (run until done).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, tool_name: String }
    ///
    /// let optimize = McpEvent::table_def().optimize().build()?;
    /// let vacuum = McpEvent::table_def().vacuum().retain_days(7).build_steps()?;
    /// assert_eq!(vacuum.len(), 2); // ALTER TABLE ... SET TBLPROPERTIES, VACUUM
    /// let report = executor.maintain_steps(&optimize, &vacuum).await?;
    /// assert_eq!(report.outcomes().len(), 3);
    /// # Ok(()) }
    /// ```
    pub async fn maintain_steps(
        &self,
        optimize: &Statement,
        vacuum_steps: &[Statement],
    ) -> Result<MaintenanceReport> {
        let (alter, vacuum) = match vacuum_steps {
            [v] => (None, v),
            [a, v] if a.kind() == StatementKind::AlterTable => (Some(a), v),
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "maintain needs the vacuum as [VACUUM] or [ALTER TABLE, VACUUM], got [{}]",
                    vacuum_steps
                        .iter()
                        .map(|s| s.kind().name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
        };
        if optimize.kind() != StatementKind::Optimize || vacuum.kind() != StatementKind::Vacuum {
            return Err(Error::InvalidArgument(format!(
                "maintain needs an OPTIMIZE and a VACUUM statement, got {} and {}",
                optimize.kind().name(),
                vacuum.kind().name()
            )));
        }
        // Each step's completed runs are kept, so a failure says what was done.
        let mut completed: Vec<Run> = Vec::new();
        let fail = |completed: &mut Vec<Run>, e: Error| -> Error {
            match e {
                Error::MaintenanceIncomplete {
                    completed: runs,
                    error,
                } => {
                    completed.extend(runs);
                    Error::MaintenanceIncomplete {
                        completed: std::mem::take(completed),
                        error,
                    }
                }
                e if completed.is_empty() => e,
                e => Error::MaintenanceIncomplete {
                    completed: std::mem::take(completed),
                    error: Box::new(e),
                },
            }
        };
        let optimize = match self.execute(optimize).await {
            Ok(o) => o,
            Err(e) => return Err(fail(&mut completed, e)),
        };
        completed.extend(optimize.runs.iter().cloned());
        let retention = match alter {
            Some(a) => match self.execute(a).await {
                Ok(o) => {
                    completed.extend(o.runs.iter().cloned());
                    Some(o)
                }
                Err(e) => return Err(fail(&mut completed, e)),
            },
            None => None,
        };
        let vacuum = match self.execute(vacuum).await {
            Ok(o) => o,
            Err(e) => return Err(fail(&mut completed, e)),
        };
        Ok(MaintenanceReport {
            optimize,
            retention,
            vacuum,
        })
    }
}

/// What [`AthenaExecutor::live_definition`] found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LiveDefinition {
    /// `SHOW CREATE TABLE` failed with table-not-found or database-not-found.
    Missing(Box<QueryError>),
    /// The table exists.
    Present {
        /// Its definition, parsed.
        def: Box<TableDef>,
        /// The `SHOW CREATE TABLE` text it was parsed from.
        text: String,
        /// The `SHOW CREATE TABLE` execution.
        show: Box<QueryOutcome>,
    },
}
