//! Staged loads (feature `staged-load`): a table's rows written as Parquet files under
//! an S3 prefix, exposed as a staging table, and copied into the Iceberg table with one
//! `INSERT … SELECT` (or `MERGE` on keys): one query, one commit, one snapshot, however
//! many rows.
//!
//! ```no_run
//! use iceberg_sql::prelude::*;
//! use iceberg_sql_athena::staged::{LoadOptions, Staging};
//! # async fn run<T: IcebergTable + Sync>(executor: iceberg_sql_athena::AthenaExecutor, rows: Vec<T>) -> Result<(), Box<dyn std::error::Error>> {
//! let staging = Staging::s3_from_env(Location::parse("s3://my-datalake/staging/")?)?;
//! let report = executor
//!     .load_rows(&rows, LoadOptions::new("events-2024-05-01", staging), |p| println!("{p}"))
//!     .await?;
//! println!("{} rows in {} files, one commit: {}", report.rows, report.files.len(),
//!          report.write.as_ref().map_or("", |o| o.query_id.as_str()));
//! # Ok(()) }
//! ```
//!
//! The parts: the plan ([`iceberg_sql::load::LoadPlan`], its statements in the
//! target's dialect), the [`StagingWriter`] (Arrow to Parquet to an object store), and
//! the driver ([`run_load`]) that runs the plan's statements through a [`LoadRunner`]:
//! the [`AthenaExecutor`] in production, another engine in tests.
//!
//! # Safety of a load
//!
//! * **A write is bound to its rows.** While staging, the rows are hashed in input
//!   order, each value by its SQL literal ([`LoadReport::rows_sha256`]; the same however
//!   they are batched or staged). The staging table is named after the load id and that
//!   digest, and the write runs with a `ClientRequestToken` derived from both
//!   ([`write_token`]). A run of the same rows again sends the same text with the same
//!   token, and Athena answers with the execution that already ran ("If another
//!   StartQueryExecution request is received, the same response is returned and another
//!   query is not created",
//!   <https://docs.aws.amazon.com/athena/latest/APIReference/API_StartQueryExecution.html>).
//!   Other rows under the same load id (the next day's data under a fixed id) are another
//!   write, run once. Assumption: Athena remembers the token for longer than the gap
//!   between runs (AWS does not document how long);
//!   [`LoadOptions::skip_committed`] with the earlier report does not depend on it.
//! * **Each run stages into a folder of its own** (`<load folder>run-<random id>/`),
//!   beside a marker `run-<id>.staged` holding the digest of its rows. The staging
//!   table is created only after every file is complete and the folder holds exactly
//!   the files this run wrote (names and sizes), so a write never reads a partial
//!   folder nor another run's late files. Two runs of the same rows at once share one
//!   write (the same token); if the second replaces the table before the first write
//!   is planned, that write reads the second folder, which is complete and holds the
//!   same rows.
//! * **Nothing is deleted under a write that may still run.** Preparing removes
//!   nothing. A run deletes its own files after its write's outcome is known (committed
//!   or not committed); while it is unknown (a timeout whose stop did not take, a lost
//!   answer) the staging table and files are kept ([`LoadReport::staging_kept`]) and
//!   the error says so: run the load again with the same rows, it finds the write by
//!   its token, waits for it, and then removes every run folder whose marker holds
//!   those rows. A dropped load future deletes its files only if its write was not
//!   sent. A folder without a marker (a run that stopped while staging) is never read
//!   and is left for the operator.
//! * **At most 100 partitions per write** on Athena ("Athena limits the number of
//!   partitions that a CTAS or INSERT INTO query can create to 100",
//!   <https://docs.aws.amazon.com/athena/latest/ug/ctas-insert-into.html>): the rows'
//!   partitions are counted by the table's partition spec; [`AthenaExecutor::load_rows`]
//!   counts them before anything is staged, streamed input as each batch arrives,
//!   before that batch is staged and before any write. Past the limit the load is
//!   refused ([`StagingError::TooManyPartitions`], with the way out).

mod writer;

pub use writer::{StagedFile, StagingWriter, WriterOptions};

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use futures::future::BoxFuture;
use futures::stream::{self, BoxStream, Stream, StreamExt};
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use tracing::Instrument;

use iceberg_sql::dml::PartitionCounter;
use iceberg_sql::load::{LoadMode, LoadPlan, StagedLoad};
use iceberg_sql::{
    Column, Grammar, IcebergTable, IcebergType, Location, Statement, TableDef, TableName, Value,
};
use sha2::{Digest, Sha256};

use crate::error::CommitState;
use crate::executor::{AthenaExecutor, ExecuteOptions};
use crate::lifecycle::EnsureOptions;
use crate::outcome::QueryOutcome;

/// A boxed error from a source, a runner or the store.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why staging failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StagingError {
    /// A batch does not fit the table (names, types, NULL in a required column).
    #[error("{0}")]
    Batch(Box<iceberg_sql::Error>),
    /// The Parquet encoder failed.
    #[error("parquet: {0}")]
    Parquet(#[source] parquet::errors::ParquetError),
    /// The object store failed.
    #[error("object store: {0}")]
    Store(#[source] object_store::Error),
    /// A writer task failed.
    #[error("staging task: {0}")]
    Task(String),
    /// The staging location or store does not fit.
    #[error("{0}")]
    Config(String),
    /// The prefix holds objects this run did not write.
    #[error("the staging prefix {prefix} holds objects this load did not write ({found:?}); it is not exposed")]
    ForeignObjects {
        /// The prefix.
        prefix: String,
        /// What was listed that the load did not write, or did not find.
        found: Vec<String>,
    },
    /// The rows fall into more partitions than one write may create.
    #[error("the rows of this load fall into more than {limit} partitions of {table}, and Athena creates at most {limit} partitions per INSERT (https://docs.aws.amazon.com/athena/latest/ug/ctas-insert-into.html); nothing was written. Split the input into loads of at most {limit} partitions each (each under its own load id), or append it with AthenaExecutor::append_rows, which keeps every INSERT within the limit")]
    TooManyPartitions {
        /// The table.
        table: String,
        /// The limit.
        limit: usize,
    },
    /// The rows' source failed.
    #[error("the rows' source failed: {0}")]
    Input(BoxError),
}

/// Where a load's files go: an object store for the bucket of `root`, and the S3
/// folder under which each load gets its own folder.
#[derive(Clone)]
pub struct Staging {
    store: Arc<dyn ObjectStore>,
    root: Location,
}

impl fmt::Debug for Staging {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Staging")
            .field("store", &self.store.to_string())
            .field("root", &self.root)
            .finish()
    }
}

impl Staging {
    /// `store` holds the objects of `root`'s bucket, by key (`s3://bucket/a/b` is
    /// `a/b` in it): an `AmazonS3` for that bucket in production, a `LocalFileSystem`
    /// rooted at a directory standing for the bucket, or an `InMemory` store in tests.
    pub fn new(store: Arc<dyn ObjectStore>, root: Location) -> Self {
        Staging { store, root }
    }

    /// An S3 store for `root`'s bucket from the environment (`AWS_ACCESS_KEY_ID`,
    /// `AWS_REGION`, `AWS_ENDPOINT`, web identity, ECS and EC2 instance credentials:
    /// object_store's `AmazonS3Builder::from_env`).
    pub fn s3_from_env(root: Location) -> Result<Self, StagingError> {
        let bucket = bucket_of(&root)?;
        let store = object_store::aws::AmazonS3Builder::from_env()
            .with_bucket_name(bucket)
            .build()
            .map_err(StagingError::Store)?;
        Ok(Staging::new(Arc::new(store), root))
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn ObjectStore> {
        &self.store
    }

    /// The root folder.
    pub fn root(&self) -> &Location {
        &self.root
    }

    /// The store path of `location` (a folder in the root's bucket).
    pub fn path_of(&self, location: &Location) -> Result<Path, StagingError> {
        let bucket = bucket_of(&self.root)?;
        let head = format!("s3://{bucket}/");
        let key = location.as_str().strip_prefix(&head).ok_or_else(|| {
            StagingError::Config(format!(
                "{location} is not in bucket {bucket} of the staging store"
            ))
        })?;
        Path::parse(key.trim_end_matches('/'))
            .map_err(|e| StagingError::Config(format!("staging path {key}: {e}")))
    }
}

fn bucket_of(root: &Location) -> Result<String, StagingError> {
    root.as_str()
        .strip_prefix("s3://")
        .and_then(|r| r.split('/').next())
        .filter(|b| !b.is_empty())
        .map(str::to_string)
        .ok_or_else(|| StagingError::Config(format!("{root} names no bucket")))
}

/// How to run a staged load.
#[derive(Debug, Clone)]
#[must_use]
pub struct LoadOptions {
    load_id: String,
    staging: Staging,
    mode: LoadMode,
    staging_database: Option<String>,
    writer: WriterOptions,
    batch_rows: usize,
    ensure: Option<EnsureOptions>,
    skip: Option<LoadReport>,
}

impl LoadOptions {
    /// An append named `load_id` (pass the same id to run the same load again),
    /// staged through `staging`.
    pub fn new(load_id: impl Into<String>, staging: Staging) -> Self {
        LoadOptions {
            load_id: load_id.into(),
            staging,
            mode: LoadMode::Append,
            staging_database: None,
            writer: WriterOptions::default(),
            batch_rows: 8192,
            ensure: None,
            skip: None,
        }
    }

    /// Upserts on `key` (call again for a compound key): a staged row whose key
    /// matches a table row replaces it; of staged rows sharing a key the last wins
    /// ([`LoadMode::merge_on`]).
    pub fn merge_on(mut self, key: &str) -> Self {
        self.mode = self.mode.merge_on(key);
        self
    }

    /// For a merge: of staged rows sharing a key, the greatest `column` wins (ties:
    /// the later row; [`LoadMode::dedup_by`]).
    pub fn dedup_by(mut self, column: &str) -> Self {
        self.mode = self.mode.dedup_by(column);
        self
    }

    /// For a merge: NULL keys match NULL keys ([`LoadMode::null_safe_keys`]).
    pub fn null_safe_keys(mut self) -> Self {
        self.mode = self.mode.null_safe_keys();
        self
    }

    /// Creates the staging table in `database` instead of the target's.
    pub fn staging_database(mut self, database: impl Into<String>) -> Self {
        self.staging_database = Some(database.into());
        self
    }

    /// File size, row groups, parallel files.
    pub fn writer(mut self, writer: WriterOptions) -> Self {
        self.writer = writer;
        self
    }

    /// Rows per Arrow batch when loading records (default 8,192).
    pub fn batch_rows(mut self, rows: usize) -> Self {
        self.batch_rows = rows.max(1);
        self
    }

    /// Ensures the table first ([`AthenaExecutor::ensure_table`]: create it, or evolve
    /// it to the definition as these options allow).
    pub fn ensure_table(mut self, options: EnsureOptions) -> Self {
        self.ensure = Some(options);
        self
    }

    /// Does nothing but clean up if `report` (of an earlier run of the same load) says
    /// the write committed: a resume that does not depend on Athena remembering the
    /// write's token.
    pub fn skip_committed(mut self, report: &LoadReport) -> Self {
        self.skip = Some(report.clone());
        self
    }

    /// The load id.
    pub fn load_id(&self) -> &str {
        &self.load_id
    }

    /// The plan of one run's rows (digest `rows_sha256`) staged under `folder`.
    fn content_plan(
        &self,
        table: &TableDef,
        dialect: iceberg_sql::Dialect,
        rows_sha256: &str,
        folder: &Location,
    ) -> iceberg_sql::Result<LoadPlan> {
        let mut load = StagedLoad::new(
            table,
            content_id(&self.load_id, rows_sha256),
            self.staging.root.clone(),
        )
        .mode(self.mode.clone())
        .folder(folder.clone());
        if let Some(db) = &self.staging_database {
            load = load.staging_database(db.clone());
        }
        load.build_for(dialect)
    }

    /// The plan of this load into `table` for `dialect` by its load id: its folder
    /// holds each run's folder (`run-<id>/`) and marker; each run's statements are
    /// named after the load id and the digest of its rows.
    pub fn plan(
        &self,
        table: &TableDef,
        dialect: iceberg_sql::Dialect,
    ) -> iceberg_sql::Result<LoadPlan> {
        let mut load = StagedLoad::new(table, self.load_id.clone(), self.staging.root.clone())
            .mode(self.mode.clone());
        if let Some(db) = &self.staging_database {
            load = load.staging_database(db.clone());
        }
        load.build_for(dialect)
    }
}

/// Where a load is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LoadStep {
    /// Ensuring the table, removing what a crashed run of the load left.
    Preparing,
    /// Writing the Parquet files.
    Staging,
    /// Creating the staging table over the files.
    Exposing,
    /// Running the write (`INSERT … SELECT` / `MERGE`).
    Writing,
    /// Dropping the staging table, deleting the files.
    CleaningUp,
    /// Finished.
    Done,
}

impl fmt::Display for LoadStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LoadStep::Preparing => "preparing",
            LoadStep::Staging => "staging",
            LoadStep::Exposing => "exposing the staged files",
            LoadStep::Writing => "writing the table",
            LoadStep::CleaningUp => "cleaning up",
            LoadStep::Done => "done",
        })
    }
}

/// Progress of a load: reported at each step, and after each batch staged.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadProgress {
    /// The step.
    pub step: LoadStep,
    /// Rows staged so far (encoded into files).
    pub rows: u64,
    /// Bytes written to the store so far.
    pub bytes: u64,
    /// Files completed so far.
    pub files: usize,
    /// The write's query id, once known.
    pub query_id: Option<String>,
}

impl fmt::Display for LoadProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} rows, {} bytes, {} files staged",
            self.step, self.rows, self.bytes, self.files
        )?;
        if let Some(q) = &self.query_id {
            write!(f, "; write {q}")?;
        }
        Ok(())
    }
}

/// What a load did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LoadReport {
    /// The load id.
    pub load_id: String,
    /// The table loaded.
    pub target: TableName,
    /// The staging table (a temporary view on Spark).
    pub staging_table: TableName,
    /// The staging folder.
    pub location: Location,
    /// Rows staged.
    pub rows: u64,
    /// Bytes staged.
    pub bytes: u64,
    /// The staged files.
    pub files: Vec<StagedFile>,
    /// SHA-256 of the rows in input order (hex): with the load id, it names the
    /// staging table and the write's token.
    pub rows_sha256: String,
    /// Whether the write committed.
    pub commit_state: CommitState,
    /// The write's outcome (on Athena).
    pub write: Option<QueryOutcome>,
    /// The write's token.
    pub write_token: String,
    /// Objects deleted by the cleanup (and before staging).
    pub objects_deleted: usize,
    /// Whether the staging table was dropped at the end.
    pub staging_dropped: bool,
    /// Whether the staging table and files were kept because the write may still be
    /// running (its outcome is unknown): a re-run of the same rows finds the write by
    /// its token, waits for its outcome, and then removes them.
    pub staging_kept: bool,
    /// Time spent staging (from the first batch to the last file closed).
    pub staging_time: Duration,
    /// Time spent in the write statement.
    pub write_time: Duration,
}

/// A load that did not finish: which step failed, what was done (the write's commit
/// state in particular), and why. Run the same load again (same load id, same rows)
/// to finish it: nothing is written twice.
#[derive(Debug, thiserror::Error)]
#[error("staged load {load_id} stopped while {step} (write {commit}): {source}{kept}{also}",
    load_id = report.load_id,
    commit = commit_text(report.commit_state),
    kept = if report.staging_kept { KEPT } else { "" },
    also = cleanup_error.as_ref().map(|e| format!("; cleanup also failed: {e}")).unwrap_or_default())]
#[non_exhaustive]
pub struct LoadError {
    /// The step that failed.
    pub step: LoadStep,
    /// What was done.
    pub report: LoadReport,
    /// Why.
    #[source]
    pub source: BoxError,
    /// The cleanup's own failure, when a failure's cleanup failed too (the staging
    /// table or files are left; the next run of the load removes them).
    pub cleanup_error: Option<BoxError>,
}

const KEPT: &str = "; the staging table and files are kept, since the write may still be running: run the load again with the same rows to settle it (the re-run finds the write by its token, waits for it, and then removes them)";

fn commit_text(c: CommitState) -> &'static str {
    match c {
        CommitState::Committed => "committed",
        CommitState::NotCommitted => "not committed",
        CommitState::Unknown => "commit unknown",
    }
}

/// A statement's failure, as a [`LoadRunner`] reports it.
#[derive(Debug)]
pub struct RunFailure {
    /// Whether it committed anyway.
    pub commit_state: CommitState,
    /// Why it failed.
    pub error: BoxError,
}

/// What runs a load's statements.
pub trait LoadRunner: Sync {
    /// Runs `statement`. For the load's write `token` is set: the same for every run
    /// of the same load, so the runner can recognise a write that already ran.
    fn run<'a>(
        &'a self,
        statement: &'a Statement,
        token: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Option<QueryOutcome>, RunFailure>>;
}

impl LoadRunner for AthenaExecutor {
    fn run<'a>(
        &'a self,
        statement: &'a Statement,
        token: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Option<QueryOutcome>, RunFailure>> {
        Box::pin(async move {
            let mut options = ExecuteOptions::new();
            if let Some(t) = token {
                options = options.client_request_token(t);
            }
            self.execute_with(statement, options)
                .await
                .map(Some)
                .map_err(|e| RunFailure {
                    commit_state: e.commit_state(),
                    error: Box::new(e),
                })
        })
    }
}

/// The token of the write of load `load_id` into `target` of the rows whose digest is
/// `rows_sha256` ([`LoadReport::rows_sha256`]): 64 hex digits, stable across runs,
/// builds and platforms.
pub fn write_token(target: &TableName, load_id: &str, rows_sha256: &str) -> String {
    crate::token::staged_write_token(
        &target.database,
        &target.table,
        &content_id(load_id, rows_sha256),
    )
}

/// The id a run's statements are built under: the load id and the digest of its rows,
/// so the staging table (and with it the write's text) is the same for the same rows
/// and differs for other rows.
fn content_id(load_id: &str, rows_sha256: &str) -> String {
    format!("{load_id}_{rows_sha256}")
}

/// SHA-256 of a load's rows in input order, each value by its SQL literal: the same
/// for the same rows however they are batched or staged.
struct RowDigest {
    hash: Sha256,
    types: Vec<IcebergType>,
    grammar: Grammar,
}

impl RowDigest {
    fn new(columns: &[Column]) -> Self {
        RowDigest {
            hash: Sha256::new(),
            types: columns.iter().map(|c| c.ty.clone()).collect(),
            grammar: iceberg_sql::Dialect::Athena.grammar(iceberg_sql::StatementKind::Insert),
        }
    }

    fn add(&mut self, rows: &[Vec<Value>]) {
        for row in rows {
            self.hash.update([b'r']);
            for (v, ty) in row.iter().zip(&self.types) {
                let text = v
                    .to_literal(ty, self.grammar)
                    .unwrap_or_else(|_| format!("{v:?}"));
                self.hash.update((text.len() as u64).to_be_bytes());
                self.hash.update(text.as_bytes());
            }
        }
    }

    fn finish(self) -> String {
        self.hash
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The distinct partitions of a load's rows, refused past the dialect's limit per
/// INSERT (Athena: "Athena limits the number of partitions that a CTAS or INSERT INTO
/// query can create to 100",
/// <https://docs.aws.amazon.com/athena/latest/ug/ctas-insert-into.html>).
struct PartitionCount {
    partitions: PartitionCounter,
    limit: Option<usize>,
    table: TableName,
}

impl PartitionCount {
    fn new(table: &TableDef, dialect: iceberg_sql::Dialect) -> Result<Self, StagingError> {
        let partitions =
            PartitionCounter::new(table).map_err(|e| StagingError::Batch(Box::new(e)))?;
        let limit = dialect
            .max_partitions_per_insert()
            .filter(|_| !partitions.is_unpartitioned());
        Ok(PartitionCount {
            partitions,
            limit,
            table: table.name().clone(),
        })
    }

    fn add(&mut self, rows: &[Vec<Value>]) -> Result<(), StagingError> {
        let Some(limit) = self.limit else {
            return Ok(());
        };
        for row in rows {
            let seen = self
                .partitions
                .add(row)
                .map_err(|e| StagingError::Batch(Box::new(e)))?;
            if seen > limit {
                return Err(StagingError::TooManyPartitions {
                    table: self.table.to_string(),
                    limit,
                });
            }
        }
        Ok(())
    }
}

/// Runs a staged load of `batches` (rows of `table`) through `runner`, with the
/// statements of `dialect`: prepare, stage, expose, write, clean up (also after any
/// failure, but never under a write that may still run). See the [module docs](self).
pub async fn run_load<S, E>(
    runner: &(impl LoadRunner + ?Sized),
    table: &TableDef,
    options: &LoadOptions,
    dialect: iceberg_sql::Dialect,
    batches: S,
    progress: &mut (dyn FnMut(&LoadProgress) + Send),
) -> Result<LoadReport, LoadError>
where
    S: Stream<Item = Result<RecordBatch, E>> + Send,
    E: Into<BoxError>,
{
    let shared = Arc::new(Mutex::new(Leftovers::default()));
    run_input(
        runner,
        table,
        options,
        dialect,
        input_batches(batches),
        progress,
        &shared,
    )
    .await
}

/// The input of a load, boxed: the driver below compiles once, whatever stream (and
/// so whatever record type) a caller loads from.
type InputBatches<'a> = BoxStream<'a, Result<RecordBatch, BoxError>>;

fn input_batches<'a, S, E>(batches: S) -> InputBatches<'a>
where
    S: Stream<Item = Result<RecordBatch, E>> + Send + 'a,
    E: Into<BoxError>,
{
    batches.map(|b| b.map_err(Into::into)).boxed()
}

/// What a run has left in the store and the catalog, for the drop guard.
#[derive(Default)]
struct Leftovers {
    store: Option<Arc<dyn ObjectStore>>,
    folder: Option<Path>,
    marker: Option<Path>,
    drop_staging: Option<Statement>,
    /// The write was sent: from then on only its settled outcome allows a cleanup.
    write_sent: bool,
}

/// The store paths of a run: its folder and its marker (`run-<id>.staged`, beside the
/// folder, holding the digest of the rows staged in it).
fn run_paths(base: &Path, run: &str) -> (Path, Path) {
    (
        base.clone().join(format!("run-{run}")),
        base.clone().join(format!("run-{run}.staged")),
    )
}

/// [`run_load`] of boxed input.
async fn run_input(
    runner: &(impl LoadRunner + ?Sized),
    table: &TableDef,
    options: &LoadOptions,
    dialect: iceberg_sql::Dialect,
    batches: InputBatches<'_>,
    progress: &mut (dyn FnMut(&LoadProgress) + Send),
    shared: &Arc<Mutex<Leftovers>>,
) -> Result<LoadReport, LoadError> {
    let base = match options.plan(table, dialect) {
        Ok(p) => p,
        Err(e) => return Err(not_started(options, table, Box::new(e))),
    };
    let run = format!("{:016x}", crate::token::random_u64());
    let folder = match Location::parse(&format!("{}run-{run}/", base.location())) {
        Ok(f) => f,
        Err(e) => return Err(not_started(options, table, Box::new(e))),
    };
    let span = tracing::info_span!(
        "staged_load",
        load_id = base.load_id(),
        target = %base.target(),
        run = %run,
        rows = tracing::field::Empty,
        files = tracing::field::Empty,
        bytes = tracing::field::Empty,
    );
    let mut report = not_started(options, table, "".into()).report;
    report.staging_table = base.staging_table().clone();
    report.location = folder.clone();
    Driver {
        runner,
        table,
        options,
        dialect,
        base: &base,
        run,
        folder,
        content: None,
        created: false,
        report,
        progress,
        shared: shared.clone(),
    }
    .run(batches)
    .instrument(span)
    .await
}

struct Driver<'a, R: ?Sized> {
    runner: &'a R,
    table: &'a TableDef,
    options: &'a LoadOptions,
    dialect: iceberg_sql::Dialect,
    /// The plan by load id alone: its folder holds every run's folder and marker.
    base: &'a LoadPlan,
    run: String,
    folder: Location,
    /// The plan of this run's rows (named after the load id and their digest).
    content: Option<LoadPlan>,
    created: bool,
    report: LoadReport,
    progress: &'a mut (dyn FnMut(&LoadProgress) + Send),
    shared: Arc<Mutex<Leftovers>>,
}

impl<'a, R: LoadRunner + ?Sized> Driver<'a, R> {
    fn tell(&mut self, step: LoadStep) {
        let p = LoadProgress {
            step,
            rows: self.report.rows,
            bytes: self.report.bytes,
            files: self.report.files.len(),
            query_id: self.report.write.as_ref().map(|o| o.query_id.clone()),
        };
        (self.progress)(&p);
    }

    fn leftovers(&self) -> std::sync::MutexGuard<'_, Leftovers> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    async fn run(mut self, batches: InputBatches<'_>) -> Result<LoadReport, LoadError> {
        let paths = self
            .staging()
            .path_of(self.base.location())
            .map(|base| (run_paths(&base, &self.run), base));
        let ((folder, marker), base) = match paths {
            Ok(p) => p,
            Err(e) => return Err(self.failed(LoadStep::Preparing, Box::new(e), None)),
        };
        {
            let store = self.staging().store().clone();
            let mut l = self.leftovers();
            l.store = Some(store);
            l.folder = Some(folder.clone());
            l.marker = Some(marker.clone());
        }
        let outcome = self.steps(&folder, &marker, batches).await;
        let sent = self.leftovers().write_sent;
        if let Err((step, e)) = outcome {
            if sent && self.report.commit_state == CommitState::Unknown {
                // The write may still be running and reading the files: nothing is
                // removed until its outcome is known (a re-run of the same rows finds
                // it by its token, waits for it, and then removes them).
                self.report.staging_kept = true;
                tracing::warn!(folder = %self.folder, "the write's outcome is unknown; its staging is kept");
                return Err(self.failed(step, e, None));
            }
            self.tell(LoadStep::CleaningUp);
            let cleanup = self.cleanup(&base, &folder, &marker, false).await;
            return Err(self.failed(step, e, cleanup.err()));
        }
        self.tell(LoadStep::CleaningUp);
        match self.cleanup(&base, &folder, &marker, true).await {
            Ok(()) => {
                self.tell(LoadStep::Done);
                tracing::info!(
                    rows = self.report.rows,
                    files = self.report.files.len(),
                    bytes = self.report.bytes,
                    "staged load done"
                );
                Ok(self.report)
            }
            Err(e) => Err(self.failed(LoadStep::CleaningUp, e, None)),
        }
    }

    fn staging(&self) -> &'a Staging {
        &self.options.staging
    }

    fn failed(
        self,
        step: LoadStep,
        source: BoxError,
        cleanup_error: Option<BoxError>,
    ) -> LoadError {
        tracing::warn!(%step, error = %source, commit = ?self.report.commit_state, "staged load failed");
        LoadError {
            step,
            report: self.report,
            source,
            cleanup_error,
        }
    }

    async fn steps(
        &mut self,
        folder: &Path,
        marker: &Path,
        mut batches: InputBatches<'_>,
    ) -> Result<(), (LoadStep, BoxError)> {
        let at = |step: LoadStep| move |e: BoxError| (step, e);
        let boxed = |step: LoadStep| move |e: StagingError| (step, Box::new(e) as BoxError);
        // 1. Nothing is removed here: what an earlier run left may be under its write,
        //    still running; a run removes its own files, and those of earlier runs of
        //    the same rows once their write is settled.
        self.tell(LoadStep::Preparing);
        let columns = self.table.columns();
        let mut partitions =
            PartitionCount::new(self.table, self.dialect).map_err(boxed(LoadStep::Preparing))?;

        // 2. Stage, into this run's own folder.
        self.tell(LoadStep::Staging);
        let started = Instant::now();
        let store = self.staging().store().clone();
        let mut w = StagingWriter::new(
            store.clone(),
            folder.clone(),
            columns,
            self.base.staged_columns(),
            self.options.writer,
        );
        let mut digest = RowDigest::new(columns);
        let staged: Result<(), StagingError> = async {
            while let Some(batch) = batches.next().await {
                let batch = batch.map_err(StagingError::Input)?;
                let batch = iceberg_sql::arrow::table_batch(batch, self.table)
                    .map_err(|e| StagingError::Batch(Box::new(e)))?;
                iceberg_sql::arrow::batch_to_values(&batch)
                    .map_err(|e| StagingError::Batch(Box::new(e)))
                    .and_then(|rows| {
                        partitions.add(&rows)?;
                        digest.add(&rows);
                        Ok(())
                    })?;
                w.write(batch).await?;
                let (rows, bytes, files) = w.written();
                let p = LoadProgress {
                    step: LoadStep::Staging,
                    rows,
                    bytes,
                    files,
                    query_id: None,
                };
                (self.progress)(&p);
            }
            Ok(())
        }
        .await;
        let files = match staged {
            Ok(()) => w.finish().await,
            // Close the lanes (their uploads are aborted), keep the first error.
            Err(e) => {
                let _ = w.finish().await;
                Err(e)
            }
        }
        .map_err(boxed(LoadStep::Staging))?;
        self.report.rows = files.iter().map(|f| f.rows).sum();
        self.report.bytes = files.iter().map(|f| f.bytes).sum();
        self.report.files = files;
        self.report.staging_time = started.elapsed();
        let span = tracing::Span::current();
        span.record("rows", self.report.rows);
        span.record("files", self.report.files.len());
        span.record("bytes", self.report.bytes);
        tracing::info!(
            rows = self.report.rows,
            files = self.report.files.len(),
            bytes = self.report.bytes,
            ms = self.report.staging_time.as_millis() as u64,
            "staged"
        );

        // 3. Expose: only a folder holding exactly the files written, under a table
        //    named after the rows.
        let listed = writer::list_prefix(&store, folder)
            .await
            .map_err(boxed(LoadStep::Exposing))?;
        let wrote: Vec<(String, u64)> = self
            .report
            .files
            .iter()
            .map(|f| (f.path.clone(), f.bytes))
            .collect();
        if listed != wrote {
            let found = listed
                .iter()
                .filter(|x| !wrote.contains(x))
                .chain(wrote.iter().filter(|x| !listed.contains(x)))
                .map(|(p, n)| format!("{p} ({n} bytes)"))
                .collect();
            return Err((
                LoadStep::Exposing,
                Box::new(StagingError::ForeignObjects {
                    prefix: folder.to_string(),
                    found,
                }),
            ));
        }
        let rows_sha256 = digest.finish();
        self.report.write_token =
            write_token(self.base.target(), self.base.load_id(), &rows_sha256);
        self.report.rows_sha256 = rows_sha256.clone();
        store
            .put(marker, rows_sha256.clone().into_bytes().into())
            .await
            .map_err(|e| {
                (
                    LoadStep::Exposing,
                    Box::new(StagingError::Store(e)) as BoxError,
                )
            })?;
        let content = self
            .options
            .content_plan(self.table, self.dialect, &rows_sha256, &self.folder)
            .map_err(|e| (LoadStep::Exposing, Box::new(e) as BoxError))?;
        self.report.staging_table = content.staging_table().clone();
        let (drop_staging, create, write) = (
            content.drop_staging().clone(),
            content.create_staging().clone(),
            content.write().clone(),
        );
        self.content = Some(content);
        self.leftovers().drop_staging = Some(drop_staging.clone());
        self.tell(LoadStep::Exposing);
        // A table of this name left by an earlier run of the same rows is replaced: a
        // write that read it has its location already, and these files hold the same
        // rows.
        self.statement(drop_staging)
            .await
            .map_err(at(LoadStep::Exposing))?;
        self.created = true;
        self.statement(create)
            .await
            .map_err(at(LoadStep::Exposing))?;

        // 4. Write, once.
        self.tell(LoadStep::Writing);
        let started = Instant::now();
        let token = self.report.write_token.clone();
        self.leftovers().write_sent = true;
        let runner = self.runner;
        let result = runner.run(&write, Some(&token)).await;
        self.report.write_time = started.elapsed();
        match result {
            Ok(outcome) => {
                self.report.commit_state = CommitState::Committed;
                self.report.write = outcome;
                Ok(())
            }
            Err(f) => {
                self.report.commit_state = f.commit_state;
                Err((LoadStep::Writing, f.error))
            }
        }
    }

    /// Runs `s`. The future borrows the runner, not the driver: the driver holds the
    /// caller's progress callback, which is `Send` but need not be `Sync`, and a
    /// borrow of it held across an await would make the whole load future not `Send`.
    fn statement(
        &self,
        s: Statement,
    ) -> impl std::future::Future<Output = Result<(), BoxError>> + 'a {
        let runner = self.runner;
        async move { runner.run(&s, None).await.map(drop).map_err(|f| f.error) }
    }

    /// Drops the staging table and deletes this run's files and marker; after a write
    /// that committed (`settled`), also the folders of earlier runs of the same rows,
    /// whose writes are that one. Everything is tried.
    async fn cleanup(
        &mut self,
        base: &Path,
        folder: &Path,
        marker: &Path,
        settled: bool,
    ) -> Result<(), BoxError> {
        let drop_staging = self
            .content
            .as_ref()
            .filter(|_| self.created)
            .map(|p| p.drop_staging().clone());
        let dropped = match drop_staging {
            Some(s) => self.statement(s).await,
            None => Ok(()),
        };
        self.report.staging_dropped = dropped.is_ok();
        let store = self.staging().store().clone();
        let mut deleted = writer::delete_prefix(&store, folder).await;
        if let Ok(n) = deleted {
            // The marker is bookkeeping, not counted as a staged object.
            deleted = writer::delete_object(&store, marker).await.map(|()| n);
        }
        if settled && !self.report.rows_sha256.is_empty() {
            let swept = writer::sweep_runs(&store, base, &self.report.rows_sha256).await;
            deleted = match (deleted, swept) {
                (Ok(a), Ok(b)) => Ok(a + b),
                (Err(e), _) | (_, Err(e)) => Err(e),
            };
        }
        let done = match (dropped, deleted) {
            (Ok(()), Ok(n)) => {
                self.report.objects_deleted += n;
                Ok(())
            }
            (Err(e), Ok(n)) => {
                self.report.objects_deleted += n;
                Err(e)
            }
            (_, Err(e)) => Err(Box::new(e) as BoxError),
        };
        if done.is_ok() {
            *self.leftovers() = Leftovers::default();
        }
        done
    }
}

impl AthenaExecutor {
    /// Loads `rows` into `T`'s table as one staged load (see the [`staged`](self)
    /// module): Parquet files, one `INSERT … SELECT` or `MERGE`, cleanup on every path.
    /// The rows' partitions are counted before anything is staged.
    pub async fn load_rows<T: IcebergTable + Sync>(
        &self,
        rows: &[T],
        options: LoadOptions,
        progress: impl FnMut(&LoadProgress) + Send,
    ) -> Result<LoadReport, LoadError> {
        let table = T::table_def();
        let counted = PartitionCount::new(table, iceberg_sql::Dialect::Athena)
            .and_then(|mut c| rows.iter().try_for_each(|r| c.add(&[r.to_values()])));
        if let Err(e) = counted {
            return Err(not_started(&options, table, Box::new(e)));
        }
        let n = options.batch_rows;
        let batches = stream::iter(rows.chunks(n)).map(iceberg_sql::arrow::records_to_batch);
        self.load_batches(table, batches, options, progress).await
    }

    /// Loads the records of `rows` (any iterator; constant memory: `batch_rows` records
    /// at a time) into `T`'s table.
    pub async fn load_iter<T: IcebergTable + Send, I>(
        &self,
        rows: I,
        options: LoadOptions,
        progress: impl FnMut(&LoadProgress) + Send,
    ) -> Result<LoadReport, LoadError>
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: Send,
    {
        let n = options.batch_rows;
        let mut rows = rows.into_iter();
        let batches = stream::iter(std::iter::from_fn(move || {
            let chunk: Vec<T> = rows.by_ref().take(n).collect();
            (!chunk.is_empty()).then(|| iceberg_sql::arrow::records_to_batch(&chunk))
        }));
        self.load_batches(T::table_def(), batches, options, progress)
            .await
    }

    /// Loads the records of a stream (constant memory) into `T`'s table; an `Err` item
    /// stops the load (and cleans up).
    pub async fn load_stream<T, E, S>(
        &self,
        rows: S,
        options: LoadOptions,
        progress: impl FnMut(&LoadProgress) + Send,
    ) -> Result<LoadReport, LoadError>
    where
        T: IcebergTable + Send,
        E: Into<BoxError> + Send,
        S: Stream<Item = Result<T, E>> + Send,
    {
        let n = options.batch_rows;
        let batches = rows.chunks(n).map(|chunk| {
            let chunk = chunk
                .into_iter()
                .collect::<Result<Vec<T>, E>>()
                .map_err(Into::into)?;
            iceberg_sql::arrow::records_to_batch(&chunk).map_err(|e| Box::new(e) as BoxError)
        });
        self.load_batches(T::table_def(), batches, options, progress)
            .await
    }

    /// Loads Arrow record batches into `table`: batches of `table`'s schema
    /// ([`iceberg_sql::arrow::table_schema`]) as they are, others (the schema the table
    /// was built from, with `LargeUtf8` or its own field order) read by field name
    /// ([`iceberg_sql::arrow::table_batch`]).
    pub async fn load_batches<S, E>(
        &self,
        table: &TableDef,
        batches: S,
        options: LoadOptions,
        mut progress: impl FnMut(&LoadProgress) + Send,
    ) -> Result<LoadReport, LoadError>
    where
        S: Stream<Item = Result<RecordBatch, E>> + Send,
        E: Into<BoxError>,
    {
        self.load_input(table, input_batches(batches), options, &mut progress)
            .await
    }

    /// [`AthenaExecutor::load_batches`] of boxed input, compiled once.
    async fn load_input(
        &self,
        table: &TableDef,
        batches: InputBatches<'_>,
        options: LoadOptions,
        progress: &mut (dyn FnMut(&LoadProgress) + Send),
    ) -> Result<LoadReport, LoadError> {
        if let Some(earlier) = &options.skip {
            if earlier.commit_state == CommitState::Committed
                && earlier.load_id == options.load_id
                && earlier.target == *table.name()
            {
                tracing::info!(
                    load_id = %options.load_id,
                    "the load committed in an earlier run; cleaning up only"
                );
                return self
                    .cleanup_only(table, &options, earlier.clone(), progress)
                    .await;
            }
        }
        if let Some(ensure) = &options.ensure {
            // Boxed: the ensure future is deep, and inlined here it passes the
            // compiler's default type-layout depth in a caller's async fn.
            if let Err(e) = Box::pin(self.ensure_table(table, *ensure)).await {
                return Err(not_started(&options, table, Box::new(e)));
            }
        }
        let guard = CleanupOnDrop::new(self);
        let result = run_input(
            self,
            table,
            &options,
            iceberg_sql::Dialect::Athena,
            batches,
            progress,
            &guard.leftovers,
        )
        .await;
        guard.disarm();
        result
    }

    /// After a committed run: drops its staging table and deletes the files of every
    /// run of the same rows.
    async fn cleanup_only(
        &self,
        table: &TableDef,
        options: &LoadOptions,
        mut earlier: LoadReport,
        progress: &mut (dyn FnMut(&LoadProgress) + Send),
    ) -> Result<LoadReport, LoadError> {
        let fail = |report: &LoadReport, e: BoxError| LoadError {
            step: LoadStep::CleaningUp,
            report: report.clone(),
            source: e,
            cleanup_error: None,
        };
        let tell = |progress: &mut (dyn FnMut(&LoadProgress) + Send), step, r: &LoadReport| {
            progress(&LoadProgress {
                step,
                rows: r.rows,
                bytes: r.bytes,
                files: r.files.len(),
                query_id: r.write.as_ref().map(|o| o.query_id.clone()),
            })
        };
        tell(progress, LoadStep::CleaningUp, &earlier);
        let base = options
            .plan(table, iceberg_sql::Dialect::Athena)
            .map_err(|e| Box::new(e) as BoxError)
            .and_then(|p| {
                options
                    .staging
                    .path_of(p.location())
                    .map_err(|e| Box::new(e) as BoxError)
            });
        let base = match base {
            Ok(b) => b,
            Err(e) => return Err(fail(&earlier, e)),
        };
        let content = options.content_plan(
            table,
            iceberg_sql::Dialect::Athena,
            &earlier.rows_sha256,
            &earlier.location,
        );
        let dropped = match content {
            Ok(p) => self
                .execute(p.drop_staging())
                .await
                .map(drop)
                .map_err(|e| Box::new(e) as BoxError),
            Err(e) => Err(Box::new(e) as BoxError),
        };
        earlier.staging_dropped = dropped.is_ok();
        let store = options.staging.store();
        let own = options.staging.path_of(&earlier.location);
        let deleted = match own {
            Ok(folder) => writer::delete_prefix(store, &folder).await,
            Err(e) => Err(e),
        };
        let swept = writer::sweep_runs(store, &base, &earlier.rows_sha256).await;
        match (dropped, deleted, swept) {
            (Ok(()), Ok(a), Ok(b)) => {
                earlier.objects_deleted += a + b;
                tell(progress, LoadStep::Done, &earlier);
                Ok(earlier)
            }
            (Err(e), _, _) => Err(fail(&earlier, e)),
            (_, Err(e), _) | (_, _, Err(e)) => Err(fail(&earlier, Box::new(e))),
        }
    }
}

/// A load refused before anything ran.
fn not_started(options: &LoadOptions, table: &TableDef, source: BoxError) -> LoadError {
    LoadError {
        step: LoadStep::Preparing,
        report: LoadReport {
            load_id: options.load_id.clone(),
            target: table.name().clone(),
            staging_table: table.name().clone(),
            location: options.staging.root.clone(),
            rows: 0,
            bytes: 0,
            files: Vec::new(),
            rows_sha256: String::new(),
            commit_state: CommitState::NotCommitted,
            write: None,
            write_token: String::new(),
            objects_deleted: 0,
            staging_dropped: false,
            staging_kept: false,
            staging_time: Duration::ZERO,
            write_time: Duration::ZERO,
        },
        source,
        cleanup_error: None,
    }
}

/// If the load's future is dropped before its cleanup ran, a task on the current
/// runtime drops the staging table and deletes this run's files, unless the write was
/// sent: then they are kept (the write may still be running and reading them; a
/// re-run of the same rows settles it and removes them).
struct CleanupOnDrop {
    executor: Option<AthenaExecutor>,
    leftovers: Arc<Mutex<Leftovers>>,
}

impl CleanupOnDrop {
    fn new(executor: &AthenaExecutor) -> Self {
        CleanupOnDrop {
            executor: Some(executor.clone()),
            leftovers: Arc::default(),
        }
    }

    fn disarm(mut self) {
        self.executor = None;
    }
}

impl Drop for CleanupOnDrop {
    fn drop(&mut self) {
        let Some(executor) = self.executor.take() else {
            return;
        };
        let left = std::mem::take(&mut *self.leftovers.lock().unwrap_or_else(|e| e.into_inner()));
        if left.write_sent {
            tracing::warn!(
                folder = ?left.folder,
                "staged load dropped after its write was sent; its staging is kept for a re-run of the same rows to settle"
            );
            return;
        }
        let Some(store) = left.store else {
            return;
        };
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                tracing::warn!("staged load dropped before its cleanup; cleaning up in a task");
                handle.spawn(async move {
                    if let Some(drop_staging) = left.drop_staging {
                        if let Err(e) = executor.execute(&drop_staging).await {
                            tracing::warn!(error = %e, "dropping the staging table failed");
                        }
                    }
                    for (path, folder) in [(left.folder, true), (left.marker, false)] {
                        let Some(path) = path else { continue };
                        let done = if folder {
                            writer::delete_prefix(&store, &path).await.map(drop)
                        } else {
                            writer::delete_object(&store, &path).await
                        };
                        if let Err(e) = done {
                            tracing::warn!(error = %e, "deleting the staged files failed");
                        }
                    }
                });
            }
            Err(_) => tracing::warn!(
                "staged load dropped outside a tokio runtime: its staging files are left (never read by any write)"
            ),
        }
    }
}

/// Batches of a stream of boxed errors (for [`run_load`] callers with infallible input).
pub fn infallible(
    batches: impl IntoIterator<Item = RecordBatch> + Send + 'static,
) -> BoxStream<'static, Result<RecordBatch, BoxError>>
where
    <Vec<RecordBatch> as IntoIterator>::IntoIter: Send,
{
    let v: Vec<RecordBatch> = batches.into_iter().collect();
    stream::iter(v.into_iter().map(Ok)).boxed()
}
