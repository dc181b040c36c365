//! `INSERT INTO ... VALUES` from typed rows, in one statement or in batches that each
//! fit Athena's query size limit (and, optionally, a partition budget).

use std::collections::HashMap;

use super::context;
use super::partition::{KeyMaker, PartitionKey};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{TableDef, TableName};
use crate::record::IcebergTable;
use crate::render::SqlWriter;
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
/// [`MAX_QUERY_BYTES`] (or [`max_bytes`](Insert::max_bytes)) each, keeping row order and
/// every row exactly once.
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
///     fn from_row(_: &Row<'_>) -> Result<Self, Error> { unimplemented!() }
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
            table: self.table.clone(),
            max_bytes: self.max_bytes,
            partitions: self.partitions,
        }
    }
}

/// The rendered rows of one INSERT: every row's `(...)` text once, back to back.
struct RenderedRows {
    header: String,
    text: SqlWriter,
    ends: Vec<usize>,
    /// Each row's partition, numbered in order of first appearance (empty without a
    /// partition limit, or for an unpartitioned table).
    partition: Vec<u32>,
    /// How many distinct partitions the rows fall into.
    partitions: usize,
}

impl RenderedRows {
    fn row(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text.as_str()[start..self.ends[i]]
    }

    fn len_of(&self, rows: &[usize]) -> usize {
        let text: usize = rows.iter().map(|&i| self.row(i).len()).sum();
        self.header.len() + text + ROW_SEPARATOR.len() * rows.len().saturating_sub(1)
    }
}

impl<'a, T: IcebergTable> Insert<'a, T> {
    /// An INSERT of `rows` into `T`'s table.
    pub(crate) fn new(rows: &'a [T]) -> Self {
        Insert {
            rows,
            table: None,
            max_bytes: MAX_QUERY_BYTES,
            partitions: PartitionBudget::Target,
        }
    }

    /// Writes into another table with the same columns (e.g. a staging copy).
    pub fn into_table(mut self, name: TableName) -> Self {
        self.table = Some(name);
        self
    }

    /// Limits each statement to `bytes` (UTF-8) instead of Athena's 262,144; values
    /// above Athena's limit are lowered to it.
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes.min(MAX_QUERY_BYTES);
        self
    }

    /// Keeps each statement within `n` distinct partitions of the table's partition
    /// spec instead of the target's limit (Athena fails an INSERT that writes more than
    /// [`ATHENA_MAX_PARTITIONS`], the default there). A row's partition is computed as
    /// Iceberg does: identity, year/month/day/hour, Iceberg's Murmur3 bucket hash,
    /// truncate.
    pub fn max_partitions(mut self, n: usize) -> Self {
        self.partitions = PartitionBudget::AtMost(n.max(1));
        self
    }

    /// No partition limit, even where the target has one: statements are limited by
    /// size only and rows keep their input order (on Athena an INSERT that writes more
    /// than [`ATHENA_MAX_PARTITIONS`] partitions fails).
    pub fn any_partitions(mut self) -> Self {
        self.partitions = PartitionBudget::Any;
        self
    }

    /// The partition limit that applies in `dialect`.
    fn partition_limit(&self, dialect: Dialect) -> Option<usize> {
        match self.partitions {
            PartitionBudget::Target => dialect.max_partitions_per_insert(),
            PartitionBudget::AtMost(n) => Some(n),
            PartitionBudget::Any => None,
        }
    }

    /// Renders every row once, checking value count, NOT NULL and types; names the row
    /// (0-based index) in any error.
    fn render_rows(&self, dialect: Dialect, with_keys: bool) -> Result<RenderedRows> {
        let def: &TableDef = T::table_def();
        let name = self.table.as_ref().unwrap_or(def.name());
        name.check()?;
        let mut head = SqlWriter::new(StatementKind::Insert, dialect);
        head.push("INSERT INTO ").table_name(name).push(" (");
        for (i, c) in def.columns().iter().enumerate() {
            if i > 0 {
                head.push(", ");
            }
            head.ident(&c.name);
        }
        head.push(")\nVALUES\n  ");
        let header = head.as_str().to_string();

        let keys = if with_keys {
            Some(KeyMaker::new(def)?).filter(|k| !k.is_empty())
        } else {
            None
        };
        let mut arena =
            SqlWriter::with_capacity(StatementKind::Insert, dialect, self.rows.len() * 160);
        let mut ends = Vec::with_capacity(self.rows.len());
        let mut partition = Vec::with_capacity(if keys.is_some() { self.rows.len() } else { 0 });
        let mut numbers: HashMap<PartitionKey, u32> = HashMap::new();
        let columns = def.columns();
        for (r, row) in self.rows.iter().enumerate() {
            let values = row.to_values();
            if values.len() != columns.len() {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "row {r}: {} values for the {} columns of table `{}`",
                        values.len(),
                        columns.len(),
                        def.name()
                    ),
                ));
            }
            arena.push_char('(');
            for (i, (v, c)) in values.iter().zip(columns).enumerate() {
                if i > 0 {
                    arena.push(", ");
                }
                if matches!(v, Value::Null) && !c.nullable {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!(
                            "row {r}: column `{}` is NOT NULL but the value is NULL",
                            c.name
                        ),
                    ));
                }
                arena
                    .literal(v, &c.ty)
                    .map_err(|e| context(e, format_args!("row {r}, column `{}`", c.name)))?;
            }
            arena.push_char(')');
            ends.push(arena.len());
            if let Some(k) = &keys {
                let key = k
                    .key(&values)
                    .map_err(|e| context(e, format_args!("row {r}")))?;
                let next = numbers.len() as u32;
                partition.push(*numbers.entry(key).or_insert(next));
            }
        }
        Ok(RenderedRows {
            header,
            text: arena,
            ends,
            partition,
            partitions: numbers.len(),
        })
    }

    fn statement(
        &self,
        dialect: Dialect,
        rendered: &RenderedRows,
        rows: &[usize],
    ) -> Result<Statement> {
        let mut w = SqlWriter::with_capacity(StatementKind::Insert, dialect, rendered.len_of(rows));
        // The header and rows were rendered by writers of this same kind and dialect
        // (identifiers and literals escaped for the grammar); this only joins them.
        w.push(&rendered.header);
        for (n, &i) in rows.iter().enumerate() {
            if n > 0 {
                w.push(ROW_SEPARATOR);
            }
            w.push(rendered.row(i));
        }
        w.finish_insert_values(rendered.header.len())
    }

    fn empty_error() -> Error {
        Error::new(ErrorKind::InvalidValue, "an INSERT needs at least one row")
    }

    /// All rows in one statement for Athena. Errors when there are no rows, or when the
    /// text would exceed the size limit (use [`Insert::batches`]) or the partition budget.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// As [`Insert::build`], for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        if self.rows.is_empty() {
            return Err(Self::empty_error());
        }
        let limit = self.partition_limit(dialect);
        let rendered = self.render_rows(dialect, limit.is_some())?;
        let all: Vec<usize> = (0..self.rows.len()).collect();
        let len = rendered.len_of(&all);
        if len > self.max_bytes {
            return Err(Error::new(
                ErrorKind::QueryTooLong,
                format!(
                    "the INSERT of {} rows is {len} bytes; the limit is {} bytes per statement",
                    self.rows.len(),
                    self.max_bytes
                ),
            )
            .with_hint("use `.batches()` to split the rows into several statements"));
        }
        if let Some(n) = limit.filter(|&n| rendered.partitions > n) {
            return Err(Error::new(
                ErrorKind::InvalidPartition,
                format!(
                    "the rows fall into {} partitions; the limit is {n} per statement",
                    rendered.partitions
                ),
            )
            .with_hint("use `.batches()` to split the rows by partition (or `.any_partitions()` on an engine without the limit)"));
        }
        self.statement(dialect, &rendered, &all)
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
        if self.rows.is_empty() {
            return Ok(Vec::new());
        }
        let limit = self.partition_limit(dialect);
        let rendered = self.render_rows(dialect, limit.is_some())?;
        self.pack(&rendered, limit)?
            .into_iter()
            .map(|rows| {
                let s = self.statement(dialect, &rendered, &rows)?;
                Ok((rows, s))
            })
            .collect()
    }

    /// The batch texts [`Insert::batches`] would validate, without validating them.
    /// For benchmarks that separate rendering from validation; not a substitute for
    /// `batches()`.
    #[doc(hidden)]
    pub fn batch_texts_unvalidated(&self) -> Result<Vec<String>> {
        if self.rows.is_empty() {
            return Ok(Vec::new());
        }
        let dialect = Dialect::default();
        let limit = self.partition_limit(dialect);
        let rendered = self.render_rows(dialect, limit.is_some())?;
        Ok(self
            .pack(&rendered, limit)?
            .into_iter()
            .map(|rows| {
                let mut s = String::with_capacity(rendered.len_of(&rows));
                s.push_str(&rendered.header);
                for (n, &i) in rows.iter().enumerate() {
                    if n > 0 {
                        s.push_str(ROW_SEPARATOR);
                    }
                    s.push_str(rendered.row(i));
                }
                s
            })
            .collect())
    }

    /// The order rows are packed in: input order, or grouped by partition (partitions
    /// in order of first appearance, stable within each) when a limit applies.
    fn packing_order(rendered: &RenderedRows, n: usize) -> Vec<usize> {
        if rendered.partition.is_empty() {
            return (0..n).collect();
        }
        // A counting sort by partition number: stable, linear.
        let mut start = vec![0usize; rendered.partitions + 1];
        for &p in &rendered.partition {
            start[p as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut order = vec![0usize; n];
        for (i, &p) in rendered.partition.iter().enumerate() {
            order[start[p as usize]] = i;
            start[p as usize] += 1;
        }
        order
    }

    /// Greedy packing in [`Insert::packing_order`] under the byte and partition limits.
    fn pack(&self, rendered: &RenderedRows, limit: Option<usize>) -> Result<Vec<Vec<usize>>> {
        let n = self.rows.len();
        let fixed = rendered.header.len();
        let mut out = Vec::new();
        let mut batch: Vec<usize> = Vec::new();
        let mut len = fixed;
        let mut parts = 0usize;
        let limit = limit.filter(|_| !rendered.partition.is_empty());
        for i in Self::packing_order(rendered, n) {
            let row_len = rendered.row(i).len();
            if fixed + row_len > self.max_bytes {
                return Err(Error::new(
                    ErrorKind::QueryTooLong,
                    format!(
                        "row {i} alone renders to {row_len} bytes; with the INSERT header ({fixed} bytes) it exceeds the limit of {} bytes per statement",
                        self.max_bytes
                    ),
                )
                .with_hint("shorten the row's values, or load large values from S3 with INSERT ... SELECT"));
            }
            // Rows of one partition are adjacent in the packing order, so a new
            // partition starts where the partition number changes.
            let new_part = limit.is_some()
                && batch
                    .last()
                    .is_none_or(|&prev| rendered.partition[prev] != rendered.partition[i]);
            let full = limit.is_some_and(|max| new_part && parts >= max);
            if !batch.is_empty() && (len + ROW_SEPARATOR.len() + row_len > self.max_bytes || full) {
                out.push(std::mem::take(&mut batch));
                len = fixed;
                parts = 0;
            }
            if !batch.is_empty() {
                len += ROW_SEPARATOR.len();
            }
            len += row_len;
            if limit.is_some()
                && batch
                    .last()
                    .is_none_or(|&prev| rendered.partition[prev] != rendered.partition[i])
            {
                parts += 1;
            }
            batch.push(i);
        }
        out.push(batch);
        Ok(out)
    }
}
