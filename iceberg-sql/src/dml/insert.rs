//! `INSERT INTO ... VALUES` from typed rows, in one statement or in batches that each
//! fit Athena's query size limit (and, optionally, a partition budget).

use super::packing_order::{Cursor, PackingOrder};
use super::partition::{KeyMaker, KeyMap, PartitionKey};
use super::{context, write_row, InlineRows};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{TableDef, TableName};
use crate::record::IcebergTable;
use crate::render::{separated, SqlWriter};
use crate::statement::{Statement, StatementKind, MAX_QUERY_BYTES};
use crate::value::Value;

pub use crate::dialect::ATHENA_MAX_PARTITIONS;

const ROW_SEPARATOR: &str = ",\n  ";

/// Builds `INSERT INTO t (c1, ..., cn) VALUES (...), ...` for rows of `T`.
///
/// The column list is always explicit and every value is a literal of its column's
/// exact type (`TIMESTAMP '...'`, `CAST(NULL AS varchar)`), so Athena's by-position
/// matching cannot go wrong. [`build`](Insert::build) puts all rows in one statement;
/// [`batches`](Insert::batches) splits them into statements of at most
/// [`MAX_QUERY_BYTES`] (or [`max_bytes`](Insert::max_bytes)) each, holding
/// every row exactly once (grouped by partition where the target limits partitions per
/// statement, in input order otherwise).
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use std::sync::OnceLock;
/// struct Ev { id: String, ms: Option<i64> }
/// impl IcebergTable for Ev {
///     fn table_def() -> &'static TableDef {
///         static DEF: OnceLock<TableDef> = OnceLock::new();
///         DEF.get_or_init(|| TableDef::builder("analytics", "ev")
///             .column(Column::new("id", IcebergType::String).required())
///             .column(Column::new("ms", IcebergType::Long))
///             .build().unwrap())
///     }
///     fn to_values(&self) -> Vec<Value> { vec![self.id.clone().into(), self.ms.into()] }
/// }
/// let rows = [Ev { id: "O'Reilly".into(), ms: Some(5) }, Ev { id: "b".into(), ms: None }];
/// assert_eq!(
///     Ev::insert(&rows).build()?.sql(),
///     "INSERT INTO analytics.ev (id, ms)\nVALUES\n  ('O''Reilly', 5),\n  ('b', CAST(NULL AS bigint))"
/// );
/// assert_eq!(
///     Ev::insert(&rows).build_for(Dialect::Spark)?.sql(),
///     "INSERT INTO analytics.ev (id, ms)\nVALUES\n  ('O\\'Reilly', 5),\n  ('b', CAST(NULL AS bigint))"
/// );
/// let batches = Ev::insert(&rows).max_bytes(80).batches()?;
/// assert_eq!(batches.len(), 2);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct Insert<'a, T> {
    rows: &'a [T],
    settings: Settings,
}

/// What an [`Insert`] is told besides its rows.
#[derive(Debug, Clone)]
struct Settings {
    /// Another table with the same columns, instead of the record type's.
    table: Option<TableName>,
    max_bytes: usize,
    partitions: PartitionBudget,
}

/// How many distinct partitions one statement may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartitionBudget {
    /// The target's limit ([`Dialect::max_partitions_per_insert`]).
    Target,
    /// At most this many.
    AtMost(usize),
    /// No limit.
    Any,
}

impl<'a, T> Clone for Insert<'a, T> {
    fn clone(&self) -> Self {
        Insert {
            rows: self.rows,
            settings: self.settings.clone(),
        }
    }
}

impl<'a, T: IcebergTable> Insert<'a, T> {
    /// An INSERT of `rows` into `T`'s table.
    pub(crate) fn new(rows: &'a [T]) -> Self {
        Insert {
            rows,
            settings: Settings {
                table: None,
                max_bytes: MAX_QUERY_BYTES,
                partitions: PartitionBudget::Target,
            },
        }
    }

    /// The rows and settings without the record type, for the code that compiles once.
    fn plan(&self) -> Plan<'_, 'static> {
        Plan {
            def: T::table_def(),
            rows: &self.rows,
            settings: &self.settings,
        }
    }

    /// Writes into another table with the same columns (e.g. a staging copy).
    pub fn into_table(mut self, name: TableName) -> Self {
        self.settings.table = Some(name);
        self
    }

    /// Limits each statement to `bytes` (UTF-8) instead of Athena's 262,144; values
    /// above Athena's limit are lowered to it.
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.settings.max_bytes = bytes.min(MAX_QUERY_BYTES);
        self
    }

    /// Keeps each statement within `n` distinct partitions of the table's partition
    /// spec instead of the target's limit (Athena fails an INSERT that writes more than
    /// [`ATHENA_MAX_PARTITIONS`], the default there). A row's partition is computed as
    /// Iceberg does: identity, year/month/day/hour, Iceberg's Murmur3 bucket hash,
    /// truncate.
    pub fn max_partitions(mut self, n: usize) -> Self {
        self.settings.partitions = PartitionBudget::AtMost(n.max(1));
        self
    }

    /// No partition limit, even where the target has one: statements are limited by
    /// size only and rows keep their input order (on Athena an INSERT that writes more
    /// than [`ATHENA_MAX_PARTITIONS`] partitions fails).
    pub fn any_partitions(mut self) -> Self {
        self.settings.partitions = PartitionBudget::Any;
        self
    }

    /// All rows in one statement for Athena. Errors when there are no rows, or when the
    /// text would exceed the size limit (use [`Insert::batches`]) or the partition
    /// limit (Athena's, or [`max_partitions`](Insert::max_partitions)).
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// As [`Insert::build`], for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.plan().build_for(dialect)
    }

    /// Splits the rows into statements of at most `max_bytes` bytes (exact UTF-8
    /// length) each and, where a partition limit applies (the target's, Athena: 100,
    /// or [`max_partitions`](Insert::max_partitions)), of at most that many distinct
    /// partitions. Every row is in exactly one statement. Without a partition limit
    /// rows keep their input order; with one they are grouped by partition (partitions
    /// in order of first appearance, rows in input order within each), so that every
    /// statement but the last is full by size or by partitions. No rows give no
    /// statements. A row that cannot fit any statement on its own is an error naming
    /// the row (0-based index). Renders for Athena.
    pub fn batches(&self) -> Result<Vec<Statement>> {
        self.batches_for(Dialect::default())
    }

    /// As [`Insert::batches`], for `dialect`.
    pub fn batches_for(&self, dialect: Dialect) -> Result<Vec<Statement>> {
        // One pass over the rows (see `batches_with_rows_for`); `batch_iter` is the
        // path that keeps only one batch's text live.
        Ok(self
            .batches_with_rows_for(dialect)?
            .into_iter()
            .map(|(_, s)| s)
            .collect())
    }

    /// [`batches`](Insert::batches), each with the 0-based indices of the input rows it
    /// holds, in the order it holds them (so a caller can say which rows a committed
    /// batch wrote). With partition grouping a batch's rows need not be contiguous.
    pub fn batches_with_rows(&self) -> Result<Vec<(Vec<usize>, Statement)>> {
        self.batches_with_rows_for(Dialect::default())
    }

    /// As [`Insert::batches_with_rows`], for `dialect`.
    pub fn batches_with_rows_for(&self, dialect: Dialect) -> Result<Vec<(Vec<usize>, Statement)>> {
        self.plan().batches_with_rows_for(dialect)
    }

    /// The batches of [`batches_with_rows`](Insert::batches_with_rows), rendered and
    /// validated one at a time as the iterator is advanced, so that only one batch's
    /// text is held at once. After an error the iterator ends. Renders for Athena.
    ///
    /// Memory, beside the input rows: in input order (no partition limit, or
    /// [`any_partitions`](Insert::any_partitions)) one batch's text and the row being
    /// rendered, nothing per row, whatever the row count. Grouped by partition (the
    /// default on Athena), also the order of the rows and a small entry per distinct
    /// partition. The order holds each stretch of consecutive rows of a partition as
    /// the gap from the partition's previous row and its length: input sorted by
    /// partition costs nothing per row; rows of partitions taking turns cost one byte
    /// a row while a partition's rows are less than 64 apart, two while less than 8,192
    /// apart. It cannot be independent of the row count whatever the input: rows of a
    /// partition can be anywhere, and taking them together without reading the input
    /// again needs a record of where each row goes.
    /// The partition keys are computed twice (count, then place) so that no per-row
    /// partition number is held beside the order. The order is also what keeps every
    /// row in exactly one batch whatever `to_values` answers: each row is placed by
    /// one visit, and rows whose partitions changed between the two calls are refused
    /// before the first batch when their partitions' places no longer add up.
    pub fn batch_iter(&self) -> Result<BatchIter<'a, T>> {
        self.batch_iter_for(Dialect::default())
    }

    /// As [`Insert::batch_iter`], for `dialect`.
    pub fn batch_iter_for(&self, dialect: Dialect) -> Result<BatchIter<'a, T>> {
        Ok(BatchIter {
            rows: self.rows,
            batching: self.plan().batching_for(dialect)?,
        })
    }

    /// The batch texts [`Insert::batches`] would validate, without validating them.
    /// For benchmarks that separate rendering from validation (feature `bench-hooks`);
    /// not a substitute for `batches()`.
    #[cfg(feature = "bench-hooks")]
    #[doc(hidden)]
    pub fn batch_texts_unvalidated(&self) -> Result<Vec<String>> {
        self.plan().batch_texts_unvalidated()
    }
}

/// `INSERT INTO ... VALUES` of rows of values into a table known only at run time (a
/// [`TableDef`] built from data, e.g. `arrow::table_builder` with feature `arrow`): the same
/// checks, rendering and batching as [`Insert`], each row's values in the table's
/// column order.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::dml::ValuesInsert;
/// let table = TableDef::builder("analytics", "events")
///     .column(Column::new("id", IcebergType::Long).required())
///     .column(Column::new("name", IcebergType::String))
///     .location("s3://lake/events/")
///     .build()?;
/// let rows = vec![vec![Value::Long(1), "a".into()], vec![Value::Long(2), Value::Null]];
/// let sql = ValuesInsert::new(&table, &rows).build()?;
/// assert_eq!(sql.sql(), "INSERT INTO analytics.events (id, name)\nVALUES\n  (1, 'a'),\n  (2, CAST(NULL AS varchar))");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct ValuesInsert<'a> {
    def: &'a TableDef,
    rows: ValueRows<'a>,
    settings: Settings,
}

#[derive(Debug, Clone, Copy)]
struct ValueRows<'a>(&'a [Vec<Value>]);

impl InlineRows for ValueRows<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn values(&self, i: usize) -> Vec<Value> {
        self.0[i].clone()
    }
}

impl<'a> ValuesInsert<'a> {
    /// An insert of `rows` into `def`.
    pub fn new(def: &'a TableDef, rows: &'a [Vec<Value>]) -> Self {
        ValuesInsert {
            def,
            rows: ValueRows(rows),
            settings: Settings {
                table: None,
                max_bytes: MAX_QUERY_BYTES,
                partitions: PartitionBudget::Target,
            },
        }
    }

    fn plan(&self) -> Plan<'_, 'a> {
        Plan {
            def: self.def,
            rows: &self.rows,
            settings: &self.settings,
        }
    }

    /// As [`Insert::max_bytes`].
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.settings.max_bytes = bytes.min(MAX_QUERY_BYTES);
        self
    }

    /// As [`Insert::build`].
    pub fn build(&self) -> Result<Statement> {
        self.plan().build_for(Dialect::default())
    }

    /// As [`Insert::batches_with_rows_for`].
    pub fn batches_with_rows_for(&self, dialect: Dialect) -> Result<Vec<(Vec<usize>, Statement)>> {
        self.plan().batches_with_rows_for(dialect)
    }
}

/// An [`Insert`]'s rows and settings without the record type: every check, rendering
/// and packing works on this, so it compiles once, however many record types an
/// application inserts.
struct Plan<'p, 'd> {
    /// The record type's table definition.
    def: &'d TableDef,
    rows: &'p dyn InlineRows,
    settings: &'p Settings,
}

impl<'d> Plan<'_, 'd> {
    /// The partition limit that applies in `dialect`.
    fn partition_limit(&self, dialect: Dialect) -> Option<usize> {
        match self.settings.partitions {
            PartitionBudget::Target => dialect.max_partitions_per_insert(),
            PartitionBudget::AtMost(n) => Some(n),
            PartitionBudget::Any => None,
        }
    }

    /// `INSERT INTO t (c1, …, cn)\nVALUES\n  `, for `dialect`.
    fn header(&self, dialect: Dialect) -> Result<String> {
        let def = self.def;
        let name = self.settings.table.as_ref().unwrap_or(def.name());
        name.check()?;
        let mut head = SqlWriter::new(StatementKind::Insert, dialect);
        head.push("INSERT INTO ")
            .table_name(name)
            .push(" (")
            .idents(def.columns().iter().map(|c| c.name.as_str()))
            .push(")\nVALUES\n  ");
        Ok(head.as_str().to_string())
    }

    /// The rows grouped by partition for [`BatchIter`], each row's key computed twice
    /// (see [`PackingOrder::new`]) rather than held; `None` for an unpartitioned
    /// table.
    fn grouped_order(&self) -> Result<Option<PackingOrder>> {
        let Some(mut numbers) = PartitionNumbers::new(self.def)? else {
            return Ok(None);
        };
        PackingOrder::new(self.rows.len(), |r| numbers.number(r, &self.rows.values(r))).map(Some)
    }

    /// Every row rendered once, back to back, with its partition number when
    /// `partitioned` (one `to_values()` per row for both).
    fn rendered(&self, dialect: Dialect, partitioned: bool) -> Result<Rendered> {
        let mut numbers = if partitioned {
            PartitionNumbers::new(self.def)?
        } else {
            None
        };
        let mut of_row = Vec::with_capacity(if numbers.is_some() {
            self.rows.len()
        } else {
            0
        });
        let mut text =
            SqlWriter::with_capacity(StatementKind::Insert, dialect, self.rows.len() * 160);
        let mut ends = Vec::with_capacity(self.rows.len());
        for r in 0..self.rows.len() {
            let values = self.rows.values(r);
            write_row(&mut text, self.def, &values, ("row", r))?;
            ends.push(text.len());
            if let Some(n) = &mut numbers {
                of_row.push(n.number(r, &values)?);
            }
        }
        Ok(Rendered {
            text,
            ends,
            order: numbers
                .map(|_| PackingOrder::new(of_row.len(), |r| Ok(of_row[r])))
                .transpose()?,
        })
    }

    /// [`Insert::build_for`].
    fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        if self.rows.is_empty() {
            return Err(empty_error());
        }
        let limit = self.partition_limit(dialect);
        // Partitions are counted from the values each row is rendered from (one
        // `to_values()` per row).
        let mut numbers = match limit {
            Some(_) => PartitionNumbers::new(self.def)?,
            None => None,
        };
        let header = self.header(dialect)?;
        let mut w = SqlWriter::with_capacity(
            StatementKind::Insert,
            dialect,
            header.len() + self.rows.len() * 160,
        );
        w.push(&header);
        separated(&mut w, 0..self.rows.len(), ROW_SEPARATOR, |w, r| {
            let values = self.rows.values(r);
            if let Some(n) = &mut numbers {
                n.number(r, &values)?;
            }
            write_row(w, self.def, &values, ("row", r))
        })?;
        if let (Some(n), Some(count)) = (limit, numbers.map(|p| p.count())) {
            if count > n {
                return Err(Error::new(
                    ErrorKind::InvalidPartition,
                    format!("the rows fall into {count} partitions; the limit is {n} per statement"),
                )
                .with_hint("use `.batches()` to split the rows by partition (or `.any_partitions()` on an engine without the limit)"));
            }
        }
        if w.len() > self.settings.max_bytes {
            return Err(Error::new(
                ErrorKind::QueryTooLong,
                format!(
                    "the INSERT of {} rows is {} bytes; the limit is {} bytes per statement",
                    self.rows.len(),
                    w.len(),
                    self.settings.max_bytes
                ),
            )
            .with_hint(if self.rows.len() == 1 {
                // `batches()` cannot split one row.
                ONE_ROW_TOO_LONG
            } else {
                "use `.batches()` to split the rows into several statements"
            }));
        }
        let mut statement = w.finish_insert_values(header.len())?;
        let name = self.settings.table.as_ref().unwrap_or(self.def.name());
        statement.set_writes(name, Some(self.rows.len()));
        Ok(statement)
    }

    /// [`Insert::batches_with_rows_for`].
    fn batches_with_rows_for(&self, dialect: Dialect) -> Result<Vec<(Vec<usize>, Statement)>> {
        let mut batching = self.rendered_batching(dialect)?;
        std::iter::from_fn(|| batching.next_statement(self.rows)).collect()
    }

    /// The batching of every row rendered up front in one pass (their partitions from
    /// the same values), for callers that take every statement at once; `batch_iter`
    /// renders per batch.
    fn rendered_batching(&self, dialect: Dialect) -> Result<Batching<'d>> {
        let limit = self.partition_limit(dialect);
        let mut rendered = self.rendered(dialect, limit.is_some())?;
        let mut batching = self.batching(dialect, limit, rendered.order.take())?;
        batching.rendered = Some(rendered);
        Ok(batching)
    }

    /// The batching of [`Insert::batch_iter_for`].
    fn batching_for(&self, dialect: Dialect) -> Result<Batching<'d>> {
        let limit = self.partition_limit(dialect);
        let order = match limit {
            Some(_) => self.grouped_order()?,
            None => None,
        };
        self.batching(dialect, limit, order)
    }

    /// The batching of rows in `grouped` order (input order without one) under
    /// `limit`.
    fn batching(
        &self,
        dialect: Dialect,
        limit: Option<usize>,
        grouped: Option<PackingOrder>,
    ) -> Result<Batching<'d>> {
        Ok(Batching {
            def: self.def,
            table: self
                .settings
                .table
                .clone()
                .unwrap_or_else(|| self.def.name().clone()),
            dialect,
            header: if self.rows.is_empty() {
                String::new()
            } else {
                self.header(dialect)?
            },
            max_bytes: self.settings.max_bytes,
            limit: limit.filter(|_| grouped.is_some()),
            order: grouped.unwrap_or_default(),
            cursor: Cursor::default(),
            position: 0,
            rendered: None,
            scratch: SqlWriter::with_capacity(StatementKind::Insert, dialect, 512),
            pending: None,
            done: false,
        })
    }

    /// `Insert::batch_texts_unvalidated`.
    #[cfg(feature = "bench-hooks")]
    fn batch_texts_unvalidated(&self) -> Result<Vec<String>> {
        let mut batching = self.rendered_batching(Dialect::default())?;
        let mut out = Vec::new();
        while let Some(b) = batching.next_text(self.rows) {
            out.push(b?.1.into_unvalidated_text());
        }
        Ok(out)
    }
}

fn empty_error() -> Error {
    Error::new(ErrorKind::InvalidValue, "an INSERT needs at least one row")
}

/// All rows rendered, back to back (`ends[i]` is where row `i` ends), and their
/// order grouped by partition (when grouping).
struct Rendered {
    text: SqlWriter,
    ends: Vec<usize>,
    order: Option<PackingOrder>,
}

impl Rendered {
    fn row(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text.as_str()[start..self.ends[i]]
    }
}

/// Numbers rows' partitions in order of first appearance.
struct PartitionNumbers {
    keys: KeyMaker,
    numbers: KeyMap<u32>,
    /// The current row's key (one buffer for every row).
    key: PartitionKey,
}

impl PartitionNumbers {
    /// `None` for an unpartitioned table.
    fn new(def: &TableDef) -> Result<Option<Self>> {
        let keys = KeyMaker::new(def)?;
        Ok((!keys.is_empty()).then(|| PartitionNumbers {
            keys,
            numbers: KeyMap::default(),
            key: Vec::new(),
        }))
    }

    /// The number of row `r`'s partition, given its values.
    fn number(&mut self, r: usize, values: &[Value]) -> Result<u32> {
        self.keys
            .key_into(values, &mut self.key)
            .map_err(|e| context(e, format_args!("row {r}")))?;
        // Looked up by slice: the key is copied only for a partition not seen before.
        if let Some(&n) = self.numbers.get(self.key.as_slice()) {
            return Ok(n);
        }
        let n = self.numbers.len() as u32;
        self.numbers.insert(self.key.clone(), n);
        Ok(n)
    }

    /// How many partitions were numbered.
    fn count(&self) -> usize {
        self.numbers.len()
    }
}

/// The batches of an [`Insert`], one at a time: each item is the input rows a batch
/// holds (0-based indices, in its order) and its validated [`Statement`]. See
/// [`Insert::batch_iter`].
pub struct BatchIter<'a, T> {
    rows: &'a [T],
    batching: Batching<'static>,
}

/// A [`BatchIter`]'s state without the record type (its rows are handed in at each
/// step), so the packing compiles once.
struct Batching<'d> {
    /// The record type's table definition.
    def: &'d TableDef,
    /// The table written.
    table: TableName,
    dialect: Dialect,
    header: String,
    max_bytes: usize,
    limit: Option<usize>,
    /// Grouped by partition; empty: input order.
    order: PackingOrder,
    /// Where the batches are in `order`.
    cursor: Cursor,
    /// Every row already rendered (`batches()`); `None`: each row is rendered when
    /// its turn comes (`batch_iter()`).
    rendered: Option<Rendered>,
    /// How many rows were taken.
    position: usize,
    /// The row being placed, rendered on its own.
    scratch: SqlWriter,
    /// The row in `scratch` (and whether it starts a partition) did not fit the
    /// previous batch.
    pending: Option<(usize, bool)>,
    done: bool,
}

impl<T> std::fmt::Debug for BatchIter<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchIter")
            .field("dialect", &self.batching.dialect)
            .field("rows", &self.rows.len())
            .field("rows_left", &(self.rows.len() - self.batching.position))
            .finish()
    }
}

impl Batching<'_> {
    /// The next row of `rows` in packing order, rendered into `scratch`, and whether
    /// it starts a partition (when grouping).
    fn next_row(&mut self, rows: &dyn InlineRows) -> Option<Result<(usize, bool)>> {
        if let Some(p) = self.pending.take() {
            return Some(Ok(p));
        }
        let at = self.position;
        if at >= rows.len() {
            return None;
        }
        self.position += 1;
        let (r, starts) = if self.order.is_empty() {
            (at, false)
        } else {
            self.cursor.next(&self.order)?
        };
        if self.rendered.is_some() {
            return Some(Ok((r, starts)));
        }
        self.scratch.clear();
        Some(
            write_row(&mut self.scratch, self.def, &rows.values(r), ("row", r))
                .map(|()| (r, starts)),
        )
    }

    /// Row `r`'s text (the row just taken by [`BatchIter::next_row`]).
    fn row_text(&self, r: usize) -> &str {
        match &self.rendered {
            Some(all) => all.row(r),
            None => self.scratch.as_str(),
        }
    }

    /// The next batch's rows and text, before validation.
    fn next_text(&mut self, rows: &dyn InlineRows) -> Option<Result<(Vec<usize>, SqlWriter)>> {
        if self.done {
            return None;
        }
        let fixed = self.header.len();
        let mut batch = SqlWriter::with_capacity(StatementKind::Insert, self.dialect, 0);
        let mut held: Vec<usize> = Vec::new();
        let mut parts = 0usize;
        loop {
            let (r, starts_partition) = match self.next_row(rows) {
                None => break,
                Some(Ok(x)) => x,
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            let row_len = self.row_text(r).len();
            if fixed + row_len > self.max_bytes {
                self.done = true;
                return Some(Err(Error::new(
                    ErrorKind::QueryTooLong,
                    format!(
                        "row {r} alone renders to {row_len} bytes; with the INSERT header ({fixed} bytes) it exceeds the limit of {} bytes per statement",
                        self.max_bytes
                    ),
                )
                .with_hint(ONE_ROW_TOO_LONG)));
            }
            // Rows of one partition are adjacent in packing order.
            let new_part = self.limit.is_some() && (held.is_empty() || starts_partition);
            if !held.is_empty() {
                let too_long = batch.len() + ROW_SEPARATOR.len() + row_len > self.max_bytes;
                let too_many = self.limit.is_some_and(|max| new_part && parts >= max);
                if too_long || too_many {
                    self.pending = Some((r, starts_partition));
                    break;
                }
                batch.push(ROW_SEPARATOR);
            } else {
                batch = SqlWriter::with_capacity(
                    StatementKind::Insert,
                    self.dialect,
                    self.max_bytes
                        .min(fixed + row_len * (rows.len() - self.position + 1) + 64),
                );
                batch.push(&self.header);
            }
            batch.push(match &self.rendered {
                Some(all) => all.row(r),
                None => self.scratch.as_str(),
            });
            parts += usize::from(new_part);
            held.push(r);
        }
        if held.is_empty() {
            self.done = true;
            return None;
        }
        Some(Ok((held, batch)))
    }
}

impl<T: IcebergTable> Iterator for BatchIter<'_, T> {
    type Item = Result<(Vec<usize>, Statement)>;

    fn next(&mut self) -> Option<Self::Item> {
        self.batching.next_statement(&self.rows)
    }
}

impl Batching<'_> {
    /// The next batch of `rows`: its rows and its validated statement.
    fn next_statement(&mut self, rows: &dyn InlineRows) -> Option<Result<(Vec<usize>, Statement)>> {
        let (held, w) = match self.next_text(rows)? {
            Ok(x) => x,
            Err(e) => return Some(Err(e)),
        };
        // The header and rows were written by writers of this same kind and dialect
        // (names and literals escaped for the grammar); the batch only joins them.
        let out = w.finish_insert_values(self.header.len()).map(|mut s| {
            s.set_writes(&self.table, Some(held.len()));
            (held, s)
        });
        if out.is_err() {
            self.done = true;
        }
        Some(out)
    }
}

/// The way out for a row too long for any statement on its own.
const ONE_ROW_TOO_LONG: &str =
    "shorten the row's values, or load large values from S3 with INSERT ... SELECT";
