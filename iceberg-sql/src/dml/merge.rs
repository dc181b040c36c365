//! `MERGE INTO target USING source ON keys WHEN ...`.
//!
//! What Athena rejects is either unrepresentable here or an error from `build()`:
//!
//! * `UPDATE SET target.col = ...` (qualified SET targets): [`MergeUpdate::set`] takes a
//!   plain [`Col`], so a qualified target cannot be written.
//! * `INSERT` values or `WHEN NOT MATCHED AND` conditions that read the target:
//!   they take expressions of the [`Source`] scope, and [`target`](crate::dsl::target)
//!   builds [`Matched`]-scope expressions, which do not convert:
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # use iceberg_sql::dml::MergeSource;
//! # struct Ev;
//! # impl Ev { const STATUS: Col<Ev, String> = Col::new("status"); }
//! # impl IcebergTable for Ev {
//! #     fn table_def() -> &'static TableDef { unimplemented!() }
//! #     fn to_values(&self) -> Vec<Value> { unimplemented!() }
//! # }
//! let m = Ev::merge_from(MergeSource::table(TableName::new("a", "s")))
//!     .when_not_matched()
//!     .insert(|i| i.value(Ev::STATUS, target(Ev::STATUS))); // target in INSERT values
//! ```
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # use iceberg_sql::dml::MergeSource;
//! # struct Ev;
//! # impl Ev { const STATUS: Col<Ev, String> = Col::new("status"); }
//! # impl IcebergTable for Ev {
//! #     fn table_def() -> &'static TableDef { unimplemented!() }
//! #     fn to_values(&self) -> Vec<Value> { unimplemented!() }
//! # }
//! let m = Ev::merge_from(MergeSource::table(TableName::new("a", "s")))
//!     .when_matched()
//!     .update(|u| u.set(target(Ev::STATUS), source(Ev::STATUS))); // qualified SET target
//! ```
//!
//! * `WHEN NOT MATCHED BY SOURCE` / `BY TARGET` (not Athena syntax): there is no method
//!   for them:
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # use iceberg_sql::dml::MergeSource;
//! # struct Ev;
//! # impl Ev { const STATUS: Col<Ev, String> = Col::new("status"); }
//! # impl IcebergTable for Ev {
//! #     fn table_def() -> &'static TableDef { unimplemented!() }
//! #     fn to_values(&self) -> Vec<Value> { unimplemented!() }
//! # }
//! let m = Ev::merge_from(MergeSource::table(TableName::new("a", "s")))
//!     .when_not_matched_by_source()
//!     .delete();
//! ```
//!
//! * A clause after an unconditional clause of the same kind (it could never run):
//!   error from `build()`.
//! * Unqualified columns in conditions (ambiguous between target and source): the
//!   condition scopes do not accept plain columns, so they do not compile.

use std::borrow::Cow;
use std::marker::PhantomData;

use super::{check_row_expr, column, null_of, retype_literal, source_col, InlineRows};
use crate::dialect::typing::{AssignIn, Assigned, Checked, TypeScope, Written};
use crate::dialect::{Dialect, Grammar};
use crate::engine::types::EngineType;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{BinaryOp, Col, ColumnValue, Expr, IntoOperand, Matched, Scope, Source};
use crate::model::{Column, TableDef, TableName};
use crate::query::{Select, SelectBody, Usage};
use crate::record::{IcebergTable, SqlType};
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};
use crate::value::Value;

/// Name of the helper column of source de-duplication; a table may not have a column
/// of this name when [`Merge::dedup_source`] is used.
pub const DEDUP_COLUMN: &str = "merge_row_number";

/// Where MERGE reads its source rows from. The source always has the target's columns.
#[derive(Debug)]
pub enum MergeSource<'a, T> {
    /// Another table with `T`'s columns (e.g. a staging table).
    Table(TableName),
    /// Inline typed rows: `(VALUES ...) AS source (c1, ...)`.
    Rows(&'a [T]),
    /// A SELECT statement built by this crate (same dialect, no parameters) whose
    /// result has `T`'s columns, in order. A SELECT built to read rows back (one that
    /// reads nested columns as JSON text) is refused: use [`MergeSource::select`].
    Query(&'a Statement),
    /// A query described by a [`Select`](crate::query::Select) producing `T`'s columns by
    /// name: written for the MERGE's target with the values' own types, and its output
    /// checked against the target's columns.
    Select(SourceQuery<'a>),
}

/// A [`Select`](crate::query::Select) used as a MERGE source (see
/// [`MergeSource::select`]).
pub struct SourceQuery<'a> {
    query: &'a SelectBody,
}

impl std::fmt::Debug for SourceQuery<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SourceQuery")
    }
}

impl<'a, T> MergeSource<'a, T> {
    /// A query producing `T`'s columns by name (any order; aliases name expressions).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql::dml::MergeSource;
    /// # use std::sync::OnceLock;
    /// struct Ev;
    /// impl Ev {
    ///     const EVENT_ID: Col<Ev, String> = Col::new("event_id");
    ///     const TAGS: Col<Ev, Vec<String>> = Col::new("tags");
    /// }
    /// impl IcebergTable for Ev {
    ///     fn table_def() -> &'static TableDef {
    ///         static DEF: OnceLock<TableDef> = OnceLock::new();
    ///         DEF.get_or_init(|| TableDef::builder("analytics", "ev")
    ///             .column(Column::new("event_id", IcebergType::String).required())
    ///             .column(Column::new("tags", IcebergType::list(IcebergType::String)))
    ///             .build().unwrap())
    ///     }
    ///     fn to_values(&self) -> Vec<Value> { unimplemented!() }
    /// }
    /// let staged = Ev::select().into_table(TableName::new("analytics", "ev_staging"));
    /// let m = Ev::merge_from(MergeSource::select(&staged))
    ///     .on_key(Ev::EVENT_ID)
    ///     .when_matched().update_all()
    ///     .build()?;
    /// // The nested column keeps its type (a SELECT built to read rows back would read
    /// // it as JSON text, which Athena cannot store in an array column).
    /// assert_eq!(m.sql(), "MERGE INTO analytics.ev AS target\nUSING (\n  SELECT * FROM analytics.ev_staging\n) AS source\n\
    ///     ON target.event_id = source.event_id\nWHEN MATCHED THEN UPDATE SET tags = source.tags");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn select<S>(query: &'a Select<S>) -> Self {
        MergeSource::Select(SourceQuery {
            query: query.body(),
        })
    }

    /// Another table with `T`'s columns.
    pub fn table(name: TableName) -> Self {
        MergeSource::Table(name)
    }

    /// Inline typed rows.
    pub fn rows(rows: &'a [T]) -> Self {
        MergeSource::Rows(rows)
    }

    /// A built SELECT with `T`'s columns.
    pub fn query(select: &'a Statement) -> Self {
        MergeSource::Query(select)
    }
}

#[derive(Debug, Clone)]
enum MatchedAction {
    Delete,
    Update(Vec<(&'static str, Expr)>),
    UpdateAll,
}

#[derive(Debug, Clone)]
enum NotMatchedAction {
    Insert(Vec<(&'static str, Expr)>),
    InsertAll,
}

#[derive(Debug, Clone)]
enum Clause {
    Matched {
        cond: Option<Expr>,
        action: MatchedAction,
    },
    NotMatched {
        cond: Option<Expr>,
        action: NotMatchedAction,
    },
}

/// Builds `MERGE INTO t AS target USING ... AS source ON ... WHEN ...`.
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use iceberg_sql::dsl::source;
/// # use iceberg_sql::dml::MergeSource;
/// # use std::sync::OnceLock;
/// struct Ev;
/// impl Ev {
///     const EVENT_ID: Col<Ev, String> = Col::new("event_id");
///     const STATUS: Col<Ev, String> = Col::new("status");
/// }
/// impl IcebergTable for Ev {
///     fn table_def() -> &'static TableDef {
///         static DEF: OnceLock<TableDef> = OnceLock::new();
///         DEF.get_or_init(|| TableDef::builder("analytics", "mcp_events")
///             .column(Column::new("event_id", IcebergType::String).required())
///             .column(Column::new("status", IcebergType::String))
///             .build().unwrap())
///     }
///     fn to_values(&self) -> Vec<Value> { unimplemented!() }
/// }
/// let upsert = Ev::merge_from(MergeSource::table(TableName::new("analytics", "mcp_events_staging")))
///     .on_key(Ev::EVENT_ID)
///     .when_matched_and(source(Ev::STATUS).eq("deleted")).delete()
///     .when_matched().update_all()
///     .when_not_matched().insert_all();
/// assert_eq!(upsert.build()?.sql(),
///     "MERGE INTO analytics.mcp_events AS target\n\
///      USING analytics.mcp_events_staging AS source\n\
///      ON target.event_id = source.event_id\n\
///      WHEN MATCHED AND source.status = 'deleted' THEN DELETE\n\
///      WHEN MATCHED THEN UPDATE SET status = source.status\n\
///      WHEN NOT MATCHED THEN INSERT (event_id, status) VALUES (source.event_id, source.status)");
/// // A clause after an unconditional one of the same kind could never run:
/// let bad = Ev::merge_from(MergeSource::table(TableName::new("analytics", "s")))
///     .on_key(Ev::EVENT_ID)
///     .when_matched().delete()
///     .when_matched_and(source(Ev::STATUS).eq("x")).update_all();
/// assert!(bad.build().unwrap_err().message().contains("can never run"));
/// // The same upsert into a mirror table with the same columns:
/// let mirror = upsert.into_table(TableName::new("analytics", "mcp_events_mirror"));
/// assert!(mirror.build()?.sql().starts_with(
///     "MERGE INTO analytics.mcp_events_mirror AS target\n\
///      USING analytics.mcp_events_staging AS source\n"));
/// assert!(mirror.into_table(TableName::new("analytics", "Mirror")).build().is_err()); // name checked
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[must_use]
pub struct Merge<'a, T> {
    body: MergeBody<'a>,
    /// The inline source rows (empty for the other sources): the one part of the
    /// source that has the record type.
    rows: &'a [T],
}

/// A MERGE as [`Merge`] describes it, without its record type: every check and the
/// writing work on this, so they compile once, however many record types an
/// application merges into (the record type decides which columns and values the
/// builder methods accept).
struct MergeBody<'a> {
    /// The record type's table definition.
    def: &'static TableDef,
    table: Option<TableName>,
    source: UsingSource<'a>,
    keys: Vec<&'static str>,
    null_safe: bool,
    dedup: Option<&'static str>,
    clauses: Vec<Clause>,
}

/// [`MergeSource`] without its record type: inline rows are [`Merge`]'s own, handed
/// to the checks and the writer as [`InlineRows`].
enum UsingSource<'a> {
    Table(TableName),
    Rows,
    Query(&'a Statement),
    Select(SourceQuery<'a>),
}

impl<'a, T> std::fmt::Debug for Merge<'a, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Merge")
            .field("table", &self.body.table)
            .field("keys", &self.body.keys)
            .field("null_safe", &self.body.null_safe)
            .field("dedup", &self.body.dedup)
            .field("clauses", &self.body.clauses)
            .finish()
    }
}

/// A `WHEN MATCHED [AND cond]` clause waiting for its action.
#[must_use]
pub struct WhenMatched<'a, T> {
    merge: Merge<'a, T>,
    cond: Option<Expr>,
}

/// A `WHEN NOT MATCHED [AND cond]` clause waiting for its action.
#[must_use]
pub struct WhenNotMatched<'a, T> {
    merge: Merge<'a, T>,
    cond: Option<Expr>,
}

/// The assignments of a `WHEN MATCHED THEN UPDATE SET`: unqualified target columns on
/// the left, [`Matched`]-scope values (source, target, literals) on the right.
#[must_use]
pub struct MergeUpdate<T> {
    sets: Vec<(&'static str, Expr)>,
    _table: PhantomData<fn() -> T>,
}

/// The values of a `WHEN NOT MATCHED THEN INSERT`: target columns and [`Source`]-scope
/// values (source columns, literals; never the target).
#[must_use]
pub struct MergeInsert<T> {
    values: Vec<(&'static str, Expr)>,
    _table: PhantomData<fn() -> T>,
}

impl<T> MergeUpdate<T> {
    /// `col = value`.
    pub fn set<V: ColumnValue, R: IntoOperand<Matched<T>, V::Base>>(
        mut self,
        col: Col<T, V>,
        value: R,
    ) -> Self {
        self.sets.push((col.name(), value.into_operand()));
        self
    }

    /// `col = NULL` (nullable columns only).
    pub fn set_null<X: SqlType>(mut self, col: Col<T, Option<X>>) -> Self {
        self.sets.push((col.name(), null_of(&X::iceberg_type())));
        self
    }
}

impl<T> MergeInsert<T> {
    /// Inserts `value` into `col`.
    pub fn value<V: ColumnValue, R: IntoOperand<Source<T>, V::Base>>(
        mut self,
        col: Col<T, V>,
        value: R,
    ) -> Self {
        self.values.push((col.name(), value.into_operand()));
        self
    }
}

impl<'a, T: IcebergTable> WhenMatched<'a, T> {
    fn then(mut self, action: MatchedAction) -> Merge<'a, T> {
        self.merge.body.clauses.push(Clause::Matched {
            cond: self.cond,
            action,
        });
        self.merge
    }

    /// `THEN DELETE`
    pub fn delete(self) -> Merge<'a, T> {
        self.then(MatchedAction::Delete)
    }

    /// `THEN UPDATE SET c = source.c` for every column except the keys.
    pub fn update_all(self) -> Merge<'a, T> {
        self.then(MatchedAction::UpdateAll)
    }

    /// `THEN UPDATE SET ...` with the assignments `f` adds.
    pub fn update(self, f: impl FnOnce(MergeUpdate<T>) -> MergeUpdate<T>) -> Merge<'a, T> {
        let u = f(MergeUpdate {
            sets: Vec::new(),
            _table: PhantomData,
        });
        self.then(MatchedAction::Update(u.sets))
    }
}

impl<'a, T: IcebergTable> WhenNotMatched<'a, T> {
    fn then(mut self, action: NotMatchedAction) -> Merge<'a, T> {
        self.merge.body.clauses.push(Clause::NotMatched {
            cond: self.cond,
            action,
        });
        self.merge
    }

    /// `THEN INSERT (all columns) VALUES (source.c, ...)`.
    pub fn insert_all(self) -> Merge<'a, T> {
        self.then(NotMatchedAction::InsertAll)
    }

    /// `THEN INSERT (cols) VALUES (...)` with the values `f` adds; NOT NULL columns
    /// must get one.
    pub fn insert(self, f: impl FnOnce(MergeInsert<T>) -> MergeInsert<T>) -> Merge<'a, T> {
        let i = f(MergeInsert {
            values: Vec::new(),
            _table: PhantomData,
        });
        self.then(NotMatchedAction::Insert(i.values))
    }
}

impl<'a, T: IcebergTable> Merge<'a, T> {
    /// A MERGE into `T`'s table from `source`.
    pub(crate) fn new(source: MergeSource<'a, T>) -> Self {
        let mut rows: &[T] = &[];
        let source = match source {
            MergeSource::Table(name) => UsingSource::Table(name),
            MergeSource::Rows(inline) => {
                rows = inline;
                UsingSource::Rows
            }
            MergeSource::Query(statement) => UsingSource::Query(statement),
            MergeSource::Select(query) => UsingSource::Select(query),
        };
        Merge {
            body: MergeBody {
                def: T::table_def(),
                table: None,
                source,
                keys: Vec::new(),
                null_safe: false,
                dedup: None,
                clauses: Vec::new(),
            },
            rows,
        }
    }

    /// Merges into another table with the same columns (e.g. a mirror or staging copy)
    /// instead of `T`'s own.
    pub fn into_table(mut self, name: TableName) -> Self {
        self.body.table = Some(name);
        self
    }

    /// Matches target and source rows on `col` (call again for a compound key):
    /// `target.col = source.col`.
    pub fn on_key<V>(mut self, col: Col<T, V>) -> Self {
        self.body.keys.push(col.name());
        self
    }

    /// Matches keys NULL-safely: `target.k IS NOT DISTINCT FROM source.k`, so a NULL
    /// key matches a NULL key.
    pub fn null_safe_keys(mut self) -> Self {
        self.body.null_safe = true;
        self
    }

    /// De-duplicates the source on the key before matching (Athena fails a MERGE when
    /// one target row matches two source rows): of the source rows sharing a key, only
    /// the one with the greatest `order_by` value is used (`row_number() OVER
    /// (PARTITION BY keys ORDER BY order_by DESC) = 1`).
    pub fn dedup_source<V>(mut self, order_by: Col<T, V>) -> Self {
        self.body.dedup = Some(order_by.name());
        self
    }

    /// Starts `WHEN MATCHED THEN ...`.
    pub fn when_matched(self) -> WhenMatched<'a, T> {
        WhenMatched {
            merge: self,
            cond: None,
        }
    }

    /// Starts `WHEN MATCHED AND cond THEN ...`; `cond` may read [`source`] and
    /// [`target`] columns.
    ///
    /// [`source`]: crate::dsl::source
    /// [`target`]: crate::dsl::target
    pub fn when_matched_and<C: IntoOperand<Matched<T>, bool>>(self, cond: C) -> WhenMatched<'a, T> {
        WhenMatched {
            merge: self,
            cond: Some(cond.into_operand()),
        }
    }

    /// Starts `WHEN NOT MATCHED THEN INSERT ...`.
    pub fn when_not_matched(self) -> WhenNotMatched<'a, T> {
        WhenNotMatched {
            merge: self,
            cond: None,
        }
    }

    /// Starts `WHEN NOT MATCHED AND cond THEN INSERT ...`; `cond` may read only
    /// [`source`](crate::dsl::source) columns.
    pub fn when_not_matched_and<C: IntoOperand<Source<T>, bool>>(
        self,
        cond: C,
    ) -> WhenNotMatched<'a, T> {
        WhenNotMatched {
            merge: self,
            cond: Some(cond.into_operand()),
        }
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.body.build_for(dialect, &self.rows)
    }
}

impl MergeBody<'_> {
    /// The target table: the one given to [`Merge::into_table`], else the record
    /// type's.
    fn target_name(&self) -> &TableName {
        self.table.as_ref().unwrap_or(self.def.name())
    }

    /// The keys of inline source rows, known before the statement runs: a NULL key
    /// never matches with `=` (the row would be inserted again on every run, and
    /// never update its target row), and two rows with one key fail the MERGE when a
    /// target row has that key (Trino: "One MERGE target table row matched more than
    /// one source row") or are both inserted when none has it. Unless the keys match
    /// NULL-safely, or the source is de-duplicated, both are refused.
    fn check_row_keys(&self, rows: &dyn InlineRows, errors: &mut Vec<Error>) {
        let def = self.def;
        let keys: Vec<(&str, usize, &Column)> = self
            .keys
            .iter()
            .filter_map(|k| {
                let i = def.columns().iter().position(|c| c.name == *k)?;
                Some((*k, i, &def.columns()[i]))
            })
            .collect();
        if keys.len() != self.keys.len() {
            return; // an unknown key column is reported on its own
        }
        let mut seen: std::collections::HashMap<Vec<String>, usize> =
            std::collections::HashMap::new();
        for row in 0..rows.len() {
            let values = rows.values(row);
            let mut key = Vec::with_capacity(keys.len());
            for (name, i, column) in &keys {
                let Some(v) = values.get(*i) else { return };
                if matches!(v, Value::Null) && !self.null_safe {
                    errors.push(
                        Error::new(
                            ErrorKind::InvalidValue,
                            format!(
                                "inline row {row}: key column `{name}` is NULL; `target.{name} = source.{name}` never matches NULL, so the row would be inserted again on every run and never update a target row"
                            ),
                        )
                        .with_hint("call .null_safe_keys() to match NULL keys (IS NOT DISTINCT FROM), or give the row a key"),
                    );
                    return;
                }
                // A value that cannot be written is reported with the row's values.
                let Ok(text) = v.to_literal(&column.ty, Grammar::TrinoDml) else {
                    return;
                };
                key.push(text);
            }
            if self.dedup.is_some() {
                continue;
            }
            if let Some(first) = seen.insert(key, row) {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidValue,
                        format!(
                            "inline rows {first} and {row} have the same key; a target row may match only one source row (Athena fails the MERGE), and without one both rows would be inserted"
                        ),
                    )
                    .with_hint("keep one row per key, or call .dedup_source(order_by) to use the row with the greatest order_by value"),
                );
                return;
            }
        }
    }

    fn check(&self, dialect: Dialect, rows: &dyn InlineRows, errors: &mut Vec<Error>) {
        let def = self.def;
        let kind = StatementKind::Merge;
        if let Err(e) = self.target_name().check() {
            errors.extend(e.into_vec());
        }
        if self.keys.is_empty() {
            errors.push(
                Error::new(
                    ErrorKind::DisallowedSyntax,
                    "MERGE needs at least one key column",
                )
                .with_hint("add `.on_key(Table::KEY_COLUMN)`"),
            );
        }
        for (i, k) in self.keys.iter().enumerate() {
            if let Err(e) = column(def, k) {
                errors.push(e);
            }
            if self.keys[..i].contains(k) {
                errors.push(Error::new(
                    ErrorKind::DisallowedSyntax,
                    format!("MERGE key column `{k}` is given twice"),
                ));
            }
        }
        if let Some(d) = self.dedup {
            if let Err(e) =
                super::sort_column(def, d, "MERGE's source de-duplication (dedup_source)")
            {
                errors.push(e);
            }
            if def.column(DEDUP_COLUMN).is_some() {
                errors.push(Error::new(
                    ErrorKind::DisallowedSyntax,
                    format!("source de-duplication needs a helper column `{DEDUP_COLUMN}`, but the table has a column of that name"),
                ));
            }
        }
        match &self.source {
            UsingSource::Table(name) => {
                if let Err(e) = name.check() {
                    errors.extend(e.into_vec());
                }
            }
            UsingSource::Rows => {
                if rows.is_empty() {
                    errors.push(Error::new(
                        ErrorKind::InvalidValue,
                        "a MERGE from inline rows needs at least one row",
                    ));
                }
                self.check_row_keys(rows, errors);
            }
            UsingSource::Query(stmt) => {
                if stmt.kind() != StatementKind::Select {
                    errors.push(Error::new(
                        ErrorKind::DisallowedSyntax,
                        format!(
                            "a MERGE source query must be a SELECT, not {}",
                            stmt.kind().name()
                        ),
                    ));
                }
                if stmt.dialect() != dialect {
                    errors.push(Error::new(
                        ErrorKind::DisallowedSyntax,
                        format!(
                            "the MERGE source query was built for {:?}, the MERGE for {:?}",
                            stmt.dialect(),
                            dialect
                        ),
                    ));
                }
                if !stmt.params().is_empty() {
                    errors.push(Error::new(
                        ErrorKind::Unsupported,
                        "MERGE statements cannot take `?` parameters, and the source query has some",
                    ));
                }
                if stmt.reads_json() {
                    errors.push(
                        Error::new(
                            ErrorKind::TypeMismatch,
                            "the MERGE source query was built to read rows back: it reads nested columns as \
                             JSON text (CAST(c AS JSON)), which Athena cannot store in the target's nested \
                             columns (\"MERGE table column types don't match for MERGE case 0, SET expressions: \
                             Table: [array(varchar)], Expressions: [json]\")",
                        )
                        .with_hint(
                            "pass the query itself, MergeSource::select(&query), so that it is written with \
                             the columns' own types",
                        ),
                    );
                }
            }
            UsingSource::Select(_) => {}
        }
        if self.clauses.is_empty() {
            errors.push(Error::new(
                ErrorKind::DisallowedSyntax,
                "MERGE needs at least one WHEN clause",
            ));
        }
        let mut last_matched: Option<usize> = None;
        let mut last_not_matched: Option<usize> = None;
        for (i, clause) in self.clauses.iter().enumerate() {
            let n = i + 1;
            let (cond, seen, what) = match clause {
                Clause::Matched { cond, .. } => (cond, &mut last_matched, "WHEN MATCHED"),
                Clause::NotMatched { cond, .. } => {
                    (cond, &mut last_not_matched, "WHEN NOT MATCHED")
                }
            };
            if let Some(prev) = *seen {
                errors.push(
                    Error::new(
                        ErrorKind::DisallowedSyntax,
                        format!(
                            "clause {n} ({what}) can never run: clause {prev} is an unconditional {what} and matches first"
                        ),
                    )
                    .with_hint("put conditional clauses before the unconditional clause of the same kind"),
                );
            }
            if let Some(c) = cond {
                check_row_expr(dialect, kind, def, "a WHEN condition", c, errors);
            } else if seen.is_none() {
                *seen = Some(n);
            }
            match clause {
                Clause::Matched {
                    action: MatchedAction::Update(sets),
                    ..
                } => {
                    if sets.is_empty() {
                        errors.push(Error::new(
                            ErrorKind::DisallowedSyntax,
                            format!("clause {n}: UPDATE SET needs at least one assignment"),
                        ));
                    }
                    self.check_pairs(dialect, n, "UPDATE sets", sets, errors);
                }
                Clause::NotMatched {
                    action: NotMatchedAction::Insert(values),
                    ..
                } => {
                    if values.is_empty() {
                        errors.push(Error::new(
                            ErrorKind::DisallowedSyntax,
                            format!("clause {n}: INSERT needs at least one value"),
                        ));
                    }
                    self.check_pairs(dialect, n, "INSERT lists", values, errors);
                    for c in def.columns() {
                        if !c.nullable && !values.iter().any(|(k, _)| *k == c.name) {
                            errors.push(Error::new(
                                ErrorKind::InvalidValue,
                                format!(
                                    "clause {n}: column `{}` is NOT NULL but the INSERT gives it no value",
                                    c.name
                                ),
                            ));
                        }
                    }
                }
                Clause::Matched {
                    action: MatchedAction::UpdateAll,
                    ..
                } if def
                    .columns()
                    .iter()
                    .all(|c| self.keys.contains(&c.name.as_str())) =>
                {
                    errors.push(Error::new(
                        ErrorKind::DisallowedSyntax,
                        format!(
                            "clause {n}: update_all() has nothing to set: every column is a key"
                        ),
                    ));
                }
                _ => {}
            }
        }
    }

    fn check_pairs(
        &self,
        dialect: Dialect,
        n: usize,
        what: &str,
        pairs: &[(&'static str, Expr)],
        errors: &mut Vec<Error>,
    ) {
        let def = self.def;
        for (i, (name, value)) in pairs.iter().enumerate() {
            if let Err(e) = column(def, name) {
                errors.push(e);
            }
            if pairs[..i].iter().any(|(k, _)| k == name) {
                errors.push(Error::new(
                    ErrorKind::DisallowedSyntax,
                    format!("clause {n}: {what} column `{name}` twice"),
                ));
            }
            check_row_expr(
                dialect,
                StatementKind::Merge,
                def,
                "a MERGE value",
                value,
                errors,
            );
        }
    }

    /// [`Merge::build_for`]; `rows` are the inline source rows.
    fn build_for(&self, dialect: Dialect, rows: &dyn InlineRows) -> Result<Statement> {
        let mut errors = Vec::new();
        self.check(dialect, rows, &mut errors);
        Error::check_all(errors)?;
        let def = self.def;
        let rules = dialect.rules();

        // The source's columns: the table's own, or a query's output by name.
        let mut scope = TypeScope::of_def(def);
        if let UsingSource::Select(q) = &self.source {
            let outputs = q.query.output_types(rules, Usage::Rows)?;
            // `source.c` must name one column (Trino: "Column 'source.c' is ambiguous").
            let twice = outputs.iter().enumerate().find_map(|(i, (n, _))| {
                let n = n.as_deref()?;
                outputs[..i]
                    .iter()
                    .any(|(m, _)| m.as_deref() == Some(n))
                    .then_some(n)
            });
            if let Some(n) = twice {
                return Err(Error::new(
                    ErrorKind::InvalidTable,
                    format!(
                        "the MERGE source query produces `{n}` twice; `source.{n}` would be ambiguous (Athena: \"Column 'source.{n}' is ambiguous\")"
                    ),
                )
                .with_hint("project each column once"));
            }
            let missing: Vec<Error> = def
                .columns()
                .iter()
                .filter(|c| !outputs.iter().any(|(n, _)| n.as_deref() == Some(c.name.as_str())))
                .map(|c| {
                    Error::new(
                        ErrorKind::UnknownColumn,
                        format!("the MERGE source query does not produce column `{}` of `{}`", c.name, def.name()),
                    )
                    .with_hint("project every column of the target (give expressions aliases with .expr_as)")
                })
                .collect();
            Error::check_all(missing)?;
            let typed: Vec<(String, EngineType)> = outputs
                .into_iter()
                .filter_map(|(n, t)| Some((n?, t?)))
                .collect();
            if !typed.is_empty() {
                scope = scope.with_source(typed);
            }
        }

        // ON, the WHEN conditions and every clause's values, through the target's rules.
        let op = if self.null_safe {
            BinaryOp::IsNotDistinctFrom
        } else {
            BinaryOp::Eq
        };
        let mut on_expr: Option<Expr> = None;
        for k in &self.keys {
            let eq = Expr::binary(
                op,
                Expr::Column {
                    scope: Scope::Target,
                    name: k,
                },
                source_col(k),
            );
            on_expr = Expr::and_then(on_expr, eq);
        }
        let mut errors = Vec::new();
        fn keep<X>(errors: &mut Vec<Error>, r: Result<X>) -> Option<X> {
            match r {
                Ok(x) => Some(x),
                Err(e) => {
                    errors.extend(e.into_vec());
                    None
                }
            }
        }
        let on = on_expr.as_ref().and_then(|on| {
            keep(
                &mut errors,
                rules.check_condition(&scope, on, "The MERGE predicate"),
            )
        });
        let mut clauses = Vec::with_capacity(self.clauses.len());
        for (case, clause) in self.clauses.iter().enumerate() {
            let (matched, cond) = match clause {
                Clause::Matched { cond, .. } => (true, cond),
                Clause::NotMatched { cond, .. } => (false, cond),
            };
            let cond = cond.as_ref().and_then(|c| {
                keep(
                    &mut errors,
                    rules.check_condition(&scope, c, "a WHEN condition"),
                )
            });
            // Each value as the builder holds it (borrowed), or a source column.
            let pairs: Vec<(&str, Cow<'_, Expr>)> = match clause {
                Clause::Matched {
                    action: MatchedAction::Delete,
                    ..
                } => Vec::new(),
                Clause::Matched {
                    action: MatchedAction::Update(sets),
                    ..
                } => sets.iter().map(|(n, v)| (*n, self.typed(n, v))).collect(),
                Clause::Matched {
                    action: MatchedAction::UpdateAll,
                    ..
                } => def
                    .columns()
                    .iter()
                    .filter(|c| !self.keys.contains(&c.name.as_str()))
                    .map(|c| (c.name.as_str(), Cow::Owned(source_col(c.name.as_str()))))
                    .collect(),
                Clause::NotMatched {
                    action: NotMatchedAction::Insert(values),
                    ..
                } => values.iter().map(|(n, v)| (*n, self.typed(n, v))).collect(),
                Clause::NotMatched {
                    action: NotMatchedAction::InsertAll,
                    ..
                } => def
                    .columns()
                    .iter()
                    .map(|c| (c.name.as_str(), Cow::Owned(source_col(c.name.as_str()))))
                    .collect(),
            };
            let names: Vec<&str> = pairs.iter().map(|(n, _)| *n).collect();
            // `check` refused unknown columns above, so every pair has its column.
            let mut values: Vec<Assigned> = pairs
                .into_iter()
                .filter_map(|(n, v)| Some(Assigned::new(def.column(n)?, Written::Expr(v))))
                .collect();
            if !values.is_empty() {
                keep(
                    &mut errors,
                    rules.check_assignments(&scope, AssignIn::Merge { case }, &mut values),
                );
            }
            clauses.push((clause, matched, cond, names, values));
        }
        Error::check_all(errors)?;

        // Every column is named up to four times (SET, INSERT list and values, aliases):
        // room for the usual text up front, so the buffer is not reallocated midway.
        let capacity = 256 + 64 * def.columns().len();
        let mut w = SqlWriter::with_capacity(StatementKind::Merge, dialect, capacity);
        w.push("MERGE INTO ")
            .table_name(self.target_name())
            .push(" AS ")
            .ident("target");
        w.push("\nUSING ");
        self.render_source(&mut w, rows)?;
        w.push(" AS ").ident("source");
        // Inline rows carry the column names as aliases on the source itself where the
        // target allows it; otherwise `render_source` wraps them in a SELECT that does.
        if let UsingSource::Rows = self.source {
            if self.dedup.is_none() && w.rules().merge_source_column_aliases() {
                write_column_list(&mut w, def);
            }
        }
        w.push("\nON ");
        if let Some(on) = &on {
            on.write(&mut w)?;
        }
        for (clause, matched, cond, names, values) in &clauses {
            w.push(if *matched {
                "\nWHEN MATCHED"
            } else {
                "\nWHEN NOT MATCHED"
            });
            render_cond(&mut w, cond.as_ref())?;
            match clause {
                Clause::Matched {
                    action: MatchedAction::Delete,
                    ..
                } => {
                    w.push(" THEN DELETE");
                }
                Clause::Matched { .. } => {
                    w.push(" THEN UPDATE SET ");
                    w.try_comma_list(names.iter().zip(values), |w, (n, v)| {
                        w.ident(n).push(" = ");
                        v.value.write(w)
                    })?;
                }
                Clause::NotMatched { .. } => {
                    w.push(" THEN INSERT (")
                        .idents(names.iter().copied())
                        .push(") VALUES (")
                        .try_comma_list(values, |w, v| v.value.write(w))?
                        .push_char(')');
                }
            }
        }
        let mut statement = w.finish()?;
        statement.set_writes(self.target_name(), None);
        Ok(statement)
    }

    /// A literal value gets its column's exact type.
    fn typed<'e>(&self, name: &str, value: &'e Expr) -> Cow<'e, Expr> {
        match self.def.column(name) {
            Some(c) => retype_literal(value, &c.ty),
            None => Cow::Borrowed(value),
        }
    }

    fn render_rows(&self, w: &mut SqlWriter, rows: &dyn InlineRows, indent: &str) -> Result<()> {
        let def = self.def;
        w.push("(\n").push(indent).push("  VALUES");
        for r in 0..rows.len() {
            w.push(if r == 0 { "\n" } else { ",\n" });
            w.push(indent).push("    ");
            super::write_row(w, def, &rows.values(r), ("source row", r))?;
        }
        w.push_char('\n').push(indent).push_char(')');
        Ok(())
    }

    fn render_source(&self, w: &mut SqlWriter, rows: &dyn InlineRows) -> Result<()> {
        let def = self.def;
        let Some(order) = self.dedup else {
            match &self.source {
                UsingSource::Table(name) => {
                    w.table_name(name);
                }
                UsingSource::Rows if !w.rules().merge_source_column_aliases() => {
                    w.push("(\n  SELECT * FROM ");
                    self.render_rows(w, rows, "  ")?;
                    w.push(" AS ").ident("source_rows");
                    write_column_list(w, def);
                    w.push("\n)");
                }
                UsingSource::Rows => self.render_rows(w, rows, "")?,
                UsingSource::Query(stmt) => {
                    // A validated SELECT of the same dialect, built by this crate.
                    w.push("(\n  ").push(stmt.sql()).push("\n)");
                }
                UsingSource::Select(q) => {
                    w.push("(\n  ");
                    q.query.render_for(w, Usage::Rows)?;
                    w.push("\n)");
                }
            }
            return Ok(());
        };
        w.push("(\n  SELECT ")
            .idents(def.columns().iter().map(|c| c.name.as_str()))
            .push("\n  FROM (\n    SELECT *, row_number() OVER (PARTITION BY ")
            .idents(self.keys.iter().copied());
        w.push(" ORDER BY ")
            .ident(order)
            .push(" DESC) AS ")
            .ident(DEDUP_COLUMN);
        w.push("\n    FROM ");
        match &self.source {
            UsingSource::Table(name) => {
                w.table_name(name);
            }
            UsingSource::Rows => {
                self.render_rows(w, rows, "    ")?;
                w.push(" AS ").ident("source_rows");
                write_column_list(w, def);
            }
            UsingSource::Query(stmt) => {
                w.push("(\n      ")
                    .push(stmt.sql())
                    .push("\n    ) AS ")
                    .ident("source_query");
            }
            UsingSource::Select(q) => {
                w.push("(\n      ");
                q.query.render_for(w, Usage::Rows)?;
                w.push("\n    ) AS ").ident("source_query");
            }
        }
        w.push("\n  ) AS ").ident("ranked");
        w.push("\n  WHERE ").ident(DEDUP_COLUMN).push(" = 1\n)");
        Ok(())
    }
}

/// ` (c1, c2, ...)`: the table's columns as an alias list.
fn write_column_list(w: &mut SqlWriter, def: &crate::model::TableDef) {
    w.push(" (")
        .idents(def.columns().iter().map(|c| c.name.as_str()))
        .push_char(')');
}

fn render_cond(w: &mut SqlWriter, cond: Option<&Checked>) -> Result<()> {
    if let Some(c) = cond {
        w.push(" AND ");
        // Parenthesise an OR so that `AND a OR b` cannot be misread.
        let or = matches!(
            c.expr(),
            Some(Expr::Binary {
                op: BinaryOp::Or,
                ..
            })
        );
        if or {
            w.push_char('(');
        }
        c.write(w)?;
        if or {
            w.push_char(')');
        }
    }
    Ok(())
}
