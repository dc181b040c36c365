//! Staged loads: the statements that copy Parquet files staged under an S3 prefix into
//! an Iceberg table in one commit.
//!
//! `INSERT … VALUES` carries at most 262,144 bytes (about 1,650 rows of a typical table)
//! per query, so a million rows take some 600 queries, commits and snapshots. A staged
//! load writes the rows to Parquet files instead, exposes them as a staging table and
//! copies them with one statement:
//!
//! 1. [`LoadPlan::drop_staging`]: removes a staging table a crashed run of the same
//!    load left behind;
//! 2. the files are written (by a staging writer, e.g. `iceberg-sql-athena`'s, feature
//!    `staged-load`) under [`LoadPlan::location`], with the columns and types of
//!    [`LoadPlan::staged_columns`];
//! 3. [`LoadPlan::create_staging`]: only once every file is written, so a partly
//!    written prefix is never read;
//! 4. [`LoadPlan::write`]: `INSERT INTO target SELECT …` (append) or a `MERGE` on key
//!    columns (upsert), converting the staged values back to their exact types;
//! 5. [`LoadPlan::drop_staging`] again, and the files are deleted, on success and on
//!    every failure.
//!
//! The plan is pure SQL, built per [`Dialect`]: Athena stages through a Hive table
//! (`CREATE EXTERNAL TABLE … STORED AS PARQUET`), Spark through a temporary view.
//!
//! # What is staged as what
//!
//! Athena reads a Hive table's timestamps as `timestamp(3)` (microseconds would be
//! rounded away) and has no zoned timestamp in Hive tables, so [`staging_type`]
//! stages `timestamp` and `timestamptz` as text with all six fractional digits
//! (`2024-05-02 23:59:59.999999`, `…+00:00` for `timestamptz`) and the write CASTs
//! them back exactly; `date` is staged as `int` days since 1970-01-01 (Spark refuses
//! old Parquet dates from other writers); nested types are staged element by element.
//! Every other type is staged as itself: decimals keep precision and scale, strings
//! and binary their bytes, NULL stays NULL.
//!
//! # Names
//!
//! The staging table and its folder are named after the target table and the load id:
//! `iceberg_sql_stage_<load id, sanitized>_<16 hex digits of a hash of target and load
//! id>`, in the target's database (or [`StagedLoad::staging_database`]), and the
//! folder `<staging root><that name>/`. Two loads with different load ids never share
//! them; a run of the same load again uses the same ones, so its write statement is
//! the same text (which is what lets an executor recognise a write that already ran).
//! [`StagedLoad::folder`] puts the files elsewhere (the table name is unchanged).
//!
//! ```
//! use iceberg_sql::prelude::*;
//! use iceberg_sql::load::StagedLoad;
//!
//! let table = TableDef::builder("analytics", "events")
//!     .column(Column::new("event_id", IcebergType::String).required())
//!     .column(Column::new("event_ts", IcebergType::Timestamp))
//!     .location("s3://lake/iceberg/events/")
//!     .build()?;
//! let root = Location::parse("s3://lake/staging/")?;
//! let plan = StagedLoad::new(&table, "events-2024-05-01", root).build()?;
//! assert_eq!(plan.staging_table().to_string(),
//!            "analytics.iceberg_sql_stage_events_2024_05_01_35063115fce520d2");
//! assert_eq!(plan.create_staging().sql(),
//!     "CREATE EXTERNAL TABLE analytics.iceberg_sql_stage_events_2024_05_01_35063115fce520d2 (\n  \
//!        event_id string,\n  event_ts string\n)\nSTORED AS PARQUET\n\
//!      LOCATION 's3://lake/staging/iceberg_sql_stage_events_2024_05_01_35063115fce520d2/'");
//! assert_eq!(plan.write().sql(),
//!     "INSERT INTO analytics.events (event_id, event_ts)\n\
//!      SELECT event_id, CAST(event_ts AS timestamp(6)) AS event_ts\n\
//!      FROM analytics.iceberg_sql_stage_events_2024_05_01_35063115fce520d2");
//! # Ok::<(), iceberg_sql::Error>(())
//! ```

use std::fmt;

use crate::dialect::{Dialect, StagingSpec};
use crate::dml::DEDUP_COLUMN;
use crate::error::{Error, ErrorKind, Result};
use crate::ident::{check_name, NameRole};
use crate::model::{Column, Location, TableDef, TableName};
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};
use crate::types::IcebergType;

/// The staged column holding each row's position in the load's input (merges only):
/// of the rows sharing a key, the last one in the input wins.
pub const ROW_COLUMN: &str = "iceberg_sql_stage_row";

/// Prefix of every staging table name (to recognise one left behind).
pub const STAGING_TABLE_PREFIX: &str = "iceberg_sql_stage_";

/// The Iceberg type a value of type `ty` is written to the staging files as (see the
/// module docs); equal to `ty` for every type the staging table reads back exactly.
///
/// ```
/// use iceberg_sql::IcebergType as T;
/// use iceberg_sql::load::staging_type;
/// assert_eq!(staging_type(&T::Timestamp), T::String);
/// assert_eq!(staging_type(&T::Date), T::Int);
/// assert_eq!(staging_type(&T::list(T::TimestampTz)), T::list(T::String));
/// assert_eq!(staging_type(&T::decimal(38, 9)), T::decimal(38, 9));
/// ```
pub fn staging_type(ty: &IcebergType) -> IcebergType {
    crate::engine::staging::staging_type(ty)
}

/// How the staged rows go into the table.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadMode {
    /// `INSERT INTO … SELECT`: every staged row is added.
    Append,
    /// `MERGE … ON keys`: a staged row whose key matches a table row replaces it, the
    /// others are added. Staged rows sharing a key are de-duplicated first.
    Merge(MergeOn),
}

impl LoadMode {
    /// Upserts on `key` as well: an append becomes a merge on `key`, a merge gains
    /// `key` as its next key column (a compound key).
    ///
    /// ```
    /// use iceberg_sql::load::LoadMode;
    /// let mode = LoadMode::Append.merge_on("tenant").merge_on("event_id").dedup_by("event_ts");
    /// let LoadMode::Merge(m) = mode else { unreachable!() };
    /// assert_eq!(m.keys, ["tenant", "event_id"]);
    /// assert_eq!(m.order_by.as_deref(), Some("event_ts"));
    /// // dedup_by and null_safe_keys only qualify a merge:
    /// assert_eq!(LoadMode::Append.dedup_by("event_ts").null_safe_keys(), LoadMode::Append);
    /// ```
    #[must_use]
    pub fn merge_on(self, key: &str) -> Self {
        match self {
            LoadMode::Merge(mut m) => {
                m.keys.push(key.to_string());
                LoadMode::Merge(m)
            }
            LoadMode::Append => LoadMode::Merge(MergeOn {
                keys: vec![key.to_string()],
                order_by: None,
                null_safe: false,
            }),
        }
    }

    /// For a merge: of staged rows sharing a key, the one with the greatest `column`
    /// wins (ties: the later row of the input). Without it the later row wins. An
    /// append is returned unchanged.
    #[must_use]
    pub fn dedup_by(self, column: &str) -> Self {
        match self {
            LoadMode::Merge(mut m) => {
                m.order_by = Some(column.to_string());
                LoadMode::Merge(m)
            }
            append => append,
        }
    }

    /// For a merge: NULL keys match NULL keys (`IS NOT DISTINCT FROM`). An append is
    /// returned unchanged.
    #[must_use]
    pub fn null_safe_keys(self) -> Self {
        match self {
            LoadMode::Merge(mut m) => {
                m.null_safe = true;
                LoadMode::Merge(m)
            }
            append => append,
        }
    }
}

/// The key and de-duplication of a [`LoadMode::Merge`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeOn {
    /// Key columns, in order.
    pub keys: Vec<String>,
    /// Of staged rows sharing a key, the one with the greatest value of this column
    /// wins (ties: the later row of the input); `None`: the later row wins.
    pub order_by: Option<String>,
    /// Whether NULL keys match NULL keys (`IS NOT DISTINCT FROM`).
    pub null_safe: bool,
}

/// Builds a [`LoadPlan`]: the target table, a load id naming this load, and the S3
/// folder under which each load gets its own staging folder.
#[derive(Debug, Clone)]
#[must_use]
pub struct StagedLoad<'a> {
    table: &'a TableDef,
    load_id: String,
    root: Location,
    staging_database: Option<String>,
    folder: Option<Location>,
    mode: LoadMode,
}

impl<'a> StagedLoad<'a> {
    /// An append of load `load_id` into `table`, staged under `staging_root`.
    pub fn new(table: &'a TableDef, load_id: impl Into<String>, staging_root: Location) -> Self {
        StagedLoad {
            table,
            load_id: load_id.into(),
            root: staging_root,
            staging_database: None,
            folder: None,
            mode: LoadMode::Append,
        }
    }

    /// Sets the mode: [`LoadMode::Append`] (the default) or a merge built with
    /// [`LoadMode::merge_on`].
    pub fn mode(mut self, mode: LoadMode) -> Self {
        self.mode = mode;
        self
    }

    /// Creates the staging table in `database` instead of the target's.
    pub fn staging_database(mut self, database: impl Into<String>) -> Self {
        self.staging_database = Some(database.into());
        self
    }

    /// Stages the files under `folder` instead of `<staging root><staging table>/`
    /// (e.g. a folder of their own for each run of a load).
    pub fn folder(mut self, folder: Location) -> Self {
        self.folder = Some(folder);
        self
    }

    /// Builds the plan for Athena.
    pub fn build(&self) -> Result<LoadPlan> {
        self.build_for(Dialect::default())
    }

    /// Checks the load and builds its statements for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<LoadPlan> {
        let def = self.table;
        let mut errors = Vec::new();
        if self.load_id.trim().is_empty() {
            errors.push(
                Error::new(ErrorKind::InvalidValue, "the load id is empty")
                    .with_hint("name the load, e.g. after its input file or the job run"),
            );
        }
        let database = self
            .staging_database
            .clone()
            .unwrap_or_else(|| def.name().database.clone());
        if let Err(e) = check_name(&database, NameRole::Database) {
            errors.push(e);
        }
        for reserved in [ROW_COLUMN, DEDUP_COLUMN] {
            if def.column(reserved).is_some() {
                errors.push(Error::new(
                    ErrorKind::DisallowedSyntax,
                    format!(
                        "table `{}` has a column `{reserved}`, which a staged load uses for itself",
                        def.name()
                    ),
                ));
            }
        }
        if let LoadMode::Merge(m) = &self.mode {
            if m.keys.is_empty() {
                errors.push(Error::new(
                    ErrorKind::DisallowedSyntax,
                    "a merge needs at least one key column",
                ));
            }
            for (i, k) in m.keys.iter().enumerate() {
                if let Err(e) = crate::dml::column(def, k) {
                    errors.push(e);
                }
                if m.keys[..i].contains(k) {
                    errors.push(Error::new(
                        ErrorKind::DisallowedSyntax,
                        format!("merge key column `{k}` is given twice"),
                    ));
                }
            }
            if let Some(o) = &m.order_by {
                if let Err(e) =
                    crate::dml::sort_column(def, o, "the staged merge's de-duplication (dedup_by)")
                {
                    errors.push(e);
                }
            }
        }
        Error::check_all(errors)?;

        let staging_table = TableName::new(database, staging_table_name(def.name(), &self.load_id));
        let location = match &self.folder {
            Some(f) => f.clone(),
            None => Location::parse(&format!("{}{}/", self.root, staging_table.table))?,
        };
        let mut staged_columns: Vec<Column> = def
            .columns()
            .iter()
            .map(|c| Column::new(&c.name, staging_type(&c.ty)))
            .collect();
        if matches!(self.mode, LoadMode::Merge(_)) {
            staged_columns.push(Column::new(ROW_COLUMN, IcebergType::Long));
        }

        let rules = dialect.rules();
        let mut w = SqlWriter::new(StatementKind::CreateStagingTable, dialect);
        rules.write_create_staging(
            &mut w,
            &StagingSpec {
                table: &staging_table,
                columns: &staged_columns,
                location: &location,
            },
        )?;
        let create_staging = w.finish()?;
        let mut w = SqlWriter::new(StatementKind::DropStagingTable, dialect);
        rules.write_drop_staging(&mut w, &staging_table);
        let drop_staging = w.finish()?;
        let write = match &self.mode {
            LoadMode::Append => write_insert(def, &staging_table, dialect)?,
            LoadMode::Merge(m) => write_merge(def, &staging_table, m, dialect)?,
        };
        Ok(LoadPlan {
            target: def.name().clone(),
            dialect,
            load_id: self.load_id.clone(),
            mode: self.mode.clone(),
            staging_table,
            location,
            staged_columns,
            create_staging,
            write,
            drop_staging,
        })
    }
}

/// The statements of one staged load, and where and how its files are staged.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadPlan {
    target: TableName,
    dialect: Dialect,
    load_id: String,
    mode: LoadMode,
    staging_table: TableName,
    location: Location,
    staged_columns: Vec<Column>,
    create_staging: Statement,
    write: Statement,
    drop_staging: Statement,
}

impl LoadPlan {
    /// The table loaded.
    pub fn target(&self) -> &TableName {
        &self.target
    }

    /// The dialect the statements are written in.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The load id.
    pub fn load_id(&self) -> &str {
        &self.load_id
    }

    /// Append or merge.
    pub fn mode(&self) -> &LoadMode {
        &self.mode
    }

    /// The staging table (for Spark, a temporary view named by its `table` part).
    pub fn staging_table(&self) -> &TableName {
        &self.staging_table
    }

    /// The S3 folder the files go under; nothing else may be in it.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The columns of the staged files, in order, of their staging types: the table's
    /// columns, then [`ROW_COLUMN`] for a merge. Every column is nullable.
    pub fn staged_columns(&self) -> &[Column] {
        &self.staged_columns
    }

    /// Whether the files carry [`ROW_COLUMN`] (a merge).
    pub fn has_row_column(&self) -> bool {
        matches!(self.mode, LoadMode::Merge(_))
    }

    /// Exposes the staged files as the staging table; run it after every file is
    /// written.
    pub fn create_staging(&self) -> &Statement {
        &self.create_staging
    }

    /// The one statement that writes the table: `INSERT … SELECT` or `MERGE`.
    pub fn write(&self) -> &Statement {
        &self.write
    }

    /// Drops the staging table if it exists: before the load (what a crashed run of
    /// it left) and after it.
    pub fn drop_staging(&self) -> &Statement {
        &self.drop_staging
    }
}

impl fmt::Display for LoadPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{};\n\n-- files under {}\n\n{};\n\n{};\n\n{};",
            self.drop_staging, self.location, self.create_staging, self.write, self.drop_staging
        )
    }
}

/// `iceberg_sql_stage_<sanitized load id, at most 40 bytes>_<16 hex>`.
fn staging_table_name(target: &TableName, load_id: &str) -> String {
    let mut fragment = String::new();
    for c in load_id.chars() {
        let c = if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '_'
        };
        if !(c == '_' && (fragment.is_empty() || fragment.ends_with('_'))) {
            fragment.push(c);
        }
        if fragment.len() >= 40 {
            break;
        }
    }
    let fragment = fragment.trim_end_matches('_');
    let hash = fnv1a64(&[
        target.database.as_bytes(),
        target.table.as_bytes(),
        load_id.as_bytes(),
    ]);
    if fragment.is_empty() {
        format!("{STAGING_TABLE_PREFIX}{hash:016x}")
    } else {
        format!("{STAGING_TABLE_PREFIX}{fragment}_{hash:016x}")
    }
}

/// FNV-1a, 64 bits, over length-prefixed parts: stable across builds and platforms.
fn fnv1a64(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for p in parts {
        for b in (p.len() as u64).to_be_bytes() {
            eat(b);
        }
        for b in *p {
            eat(*b);
        }
    }
    h
}

/// `c`, or its conversion from the staged form `AS c`.
fn write_converted(w: &mut SqlWriter, c: &Column) -> Result<()> {
    if !crate::engine::staging::needs_conversion(&c.ty) {
        w.ident(&c.name);
        return Ok(());
    }
    let rules = w.rules();
    rules.write_unstaged(w, &c.ty, &mut |w| {
        w.ident(&c.name);
        Ok(())
    })?;
    w.push(" AS ").ident(&c.name);
    Ok(())
}

/// `SELECT <converted columns>[, row column]\nFROM <staging>`.
fn write_select_staged(
    w: &mut SqlWriter,
    def: &TableDef,
    staging: &TableName,
    row_column: bool,
    indent: &str,
) -> Result<()> {
    w.push("SELECT ");
    w.try_comma_list(def.columns(), write_converted)?;
    if row_column {
        w.push(", ").ident(ROW_COLUMN);
    }
    w.push("\n").push(indent).push("FROM ");
    let rules = w.rules();
    rules.write_staging_name(w, staging);
    Ok(())
}

fn write_insert(def: &TableDef, staging: &TableName, dialect: Dialect) -> Result<Statement> {
    let mut w = SqlWriter::new(StatementKind::Insert, dialect);
    w.push("INSERT INTO ")
        .table_name(def.name())
        .push(" (")
        .idents(def.columns().iter().map(|c| c.name.as_str()))
        .push(")\n");
    write_select_staged(&mut w, def, staging, false, "")?;
    let mut statement = w.finish()?;
    statement.set_writes(def.name(), None);
    Ok(statement)
}

/// `MERGE INTO t AS target USING (<latest staged row per key, converted>) AS source ON
/// keys WHEN MATCHED THEN UPDATE SET <non-key columns> WHEN NOT MATCHED THEN INSERT`.
fn write_merge(
    def: &TableDef,
    staging: &TableName,
    m: &MergeOn,
    dialect: Dialect,
) -> Result<Statement> {
    let columns: Vec<&str> = def.columns().iter().map(|c| c.name.as_str()).collect();
    let mut w = SqlWriter::new(StatementKind::Merge, dialect);
    w.push("MERGE INTO ")
        .table_name(def.name())
        .push(" AS ")
        .ident("target");
    w.push("\nUSING (\n  SELECT ")
        .idents(columns.iter().copied())
        .push("\n  FROM (\n    SELECT *, row_number() OVER (PARTITION BY ")
        .idents(m.keys.iter().map(String::as_str))
        .push(" ORDER BY ");
    if let Some(o) = &m.order_by {
        w.ident(o).push(" DESC, ");
    }
    w.ident(ROW_COLUMN)
        .push(" DESC) AS ")
        .ident(DEDUP_COLUMN)
        .push("\n    FROM (\n      ");
    write_select_staged(&mut w, def, staging, true, "      ")?;
    w.push("\n    ) AS ").ident("staged");
    w.push("\n  ) AS ").ident("ranked");
    w.push("\n  WHERE ").ident(DEDUP_COLUMN).push(" = 1\n) AS ");
    w.ident("source").push("\nON ");
    let op = if m.null_safe {
        " IS NOT DISTINCT FROM "
    } else {
        " = "
    };
    w.list(&m.keys, " AND ", |w, k| {
        w.ident("target")
            .push_char('.')
            .ident(k)
            .push(op)
            .ident("source")
            .push_char('.')
            .ident(k);
        Ok(())
    })?;
    let others: Vec<&str> = columns
        .iter()
        .copied()
        .filter(|c| !m.keys.iter().any(|k| k == c))
        .collect();
    if !others.is_empty() {
        w.push("\nWHEN MATCHED THEN UPDATE SET ");
        w.list(&others, ", ", |w, c| {
            w.ident(c)
                .push(" = ")
                .ident("source")
                .push_char('.')
                .ident(c);
            Ok(())
        })?;
    }
    w.push("\nWHEN NOT MATCHED THEN INSERT (")
        .idents(columns.iter().copied())
        .push(") VALUES (");
    w.list(&columns, ", ", |w, c| {
        w.ident("source").push_char('.').ident(c);
        Ok(())
    })?;
    w.push_char(')');
    let mut statement = w.finish()?;
    statement.set_writes(def.name(), None);
    Ok(statement)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staging_names_are_stable_and_distinct() {
        let t = TableName::new("analytics", "events");
        let a = staging_table_name(&t, "events-2024-05-01");
        assert_eq!(a, staging_table_name(&t, "events-2024-05-01"));
        assert!(a.starts_with("iceberg_sql_stage_events_2024_05_01_"), "{a}");
        // Sanitising maps both to the same fragment; the hash keeps them apart.
        assert_ne!(a, staging_table_name(&t, "events_2024_05_01"));
        assert_ne!(
            a,
            staging_table_name(&TableName::new("analytics", "other"), "events-2024-05-01")
        );
        let long = staging_table_name(&t, &"x".repeat(500));
        assert!(long.len() < 80, "{long}");
        assert_eq!(
            staging_table_name(&t, "***").len(),
            STAGING_TABLE_PREFIX.len() + 16
        );
        assert!(check_name(&a, NameRole::Table).is_ok());
    }
}
