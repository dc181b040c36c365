//! `INSERT INTO ... VALUES` from typed rows, in one statement or in batches that each
//! fit Athena's query size limit (and, optionally, a partition budget).

use std::collections::HashSet;
use std::ops::Range;

use super::context;
use super::partition::{KeyMaker, PartitionKey};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{TableDef, TableName};
use crate::record::IcebergTable;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind, MAX_QUERY_BYTES};
use crate::value::Value;

/// Athena writes at most this many partitions per INSERT
/// (https://docs.aws.amazon.com/athena/latest/ug/ctas-insert-into.html).
pub const ATHENA_MAX_PARTITIONS: usize = 100;

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
    max_partitions: Option<usize>,
}

impl<'a, T> Clone for Insert<'a, T> {
    fn clone(&self) -> Self {
        Insert {
            rows: self.rows,
            table: self.table.clone(),
            max_bytes: self.max_bytes,
            max_partitions: self.max_partitions,
        }
    }
}

/// The rendered rows of one INSERT: every row's `(...)` text once, back to back.
struct RenderedRows {
    header: String,
    text: SqlWriter,
    ends: Vec<usize>,
    keys: Vec<PartitionKey>,
}

impl RenderedRows {
    fn row(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text.as_str()[start..self.ends[i]]
    }

    fn len_of(&self, rows: Range<usize>) -> usize {
        let n = rows.len();
        let start = if rows.start == 0 {
            0
        } else {
            self.ends[rows.start - 1]
        };
        self.header.len() + (self.ends[rows.end - 1] - start) + ROW_SEPARATOR.len() * (n - 1)
    }
}

impl<'a, T: IcebergTable> Insert<'a, T> {
    /// An INSERT of `rows` into `T`'s table.
    pub(crate) fn new(rows: &'a [T]) -> Self {
        Insert {
            rows,
            table: None,
            max_bytes: MAX_QUERY_BYTES,
            max_partitions: None,
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

    /// Keeps each batch within `n` distinct partitions of the table's partition spec
    /// (Athena fails an INSERT that writes more than [`ATHENA_MAX_PARTITIONS`]). A row's
    /// partition is computed as Iceberg does: identity, year/month/day/hour, Iceberg's
    /// Murmur3 bucket hash, truncate.
    pub fn max_partitions(mut self, n: usize) -> Self {
        self.max_partitions = Some(n.max(1));
        self
    }

    /// No partition budget: batches are limited by size only.
    pub fn any_partitions(mut self) -> Self {
        self.max_partitions = None;
        self
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
        let mut row_keys = Vec::with_capacity(if keys.is_some() { self.rows.len() } else { 0 });
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
                row_keys.push(
                    k.key(&values)
                        .map_err(|e| context(e, format_args!("row {r}")))?,
                );
            }
        }
        Ok(RenderedRows {
            header,
            text: arena,
            ends,
            keys: row_keys,
        })
    }

    fn statement(
        &self,
        dialect: Dialect,
        rendered: &RenderedRows,
        rows: Range<usize>,
    ) -> Result<Statement> {
        let mut w = SqlWriter::with_capacity(
            StatementKind::Insert,
            dialect,
            rendered.len_of(rows.clone()),
        );
        // The header and rows were rendered by writers of this same kind and dialect
        // (identifiers and literals escaped for the grammar); this only joins them.
        w.push(&rendered.header);
        for (n, i) in rows.enumerate() {
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
        let rendered = self.render_rows(dialect, self.max_partitions.is_some())?;
        let all = 0..self.rows.len();
        let len = rendered.len_of(all.clone());
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
        if let Some(n) = self.max_partitions {
            let distinct: HashSet<&PartitionKey> = rendered.keys.iter().collect();
            if distinct.len() > n {
                return Err(Error::new(
                    ErrorKind::InvalidPartition,
                    format!(
                        "the rows fall into {} partitions; the limit is {n} per statement",
                        distinct.len()
                    ),
                )
                .with_hint("use `.batches()` to split the rows by partition"));
            }
        }
        self.statement(dialect, &rendered, all)
    }

    /// Splits the rows into as few statements as a greedy, order-keeping packing
    /// allows: each at most `max_bytes` bytes (exact UTF-8 length) and, with
    /// [`max_partitions`](Insert::max_partitions), at most that many distinct
    /// partitions. Every row is in exactly one statement, in order. No rows give no
    /// statements. A row that cannot fit any statement on its own is an error naming
    /// the row (0-based index). Renders for Athena.
    pub fn batches(&self) -> Result<Vec<Statement>> {
        self.batches_for(Dialect::default())
    }

    /// As [`Insert::batches`], for `dialect`.
    pub fn batches_for(&self, dialect: Dialect) -> Result<Vec<Statement>> {
        if self.rows.is_empty() {
            return Ok(Vec::new());
        }
        let rendered = self.render_rows(dialect, self.max_partitions.is_some())?;
        self.pack(&rendered)?
            .into_iter()
            .map(|r| self.statement(dialect, &rendered, r))
            .collect()
    }

    /// The batch texts [`Insert::batches`] would validate, without validating them.
    /// For benchmarks that separate rendering from the sqlparser re-parse; not a
    /// substitute for `batches()`.
    #[doc(hidden)]
    pub fn batch_texts_unvalidated(&self) -> Result<Vec<String>> {
        if self.rows.is_empty() {
            return Ok(Vec::new());
        }
        let rendered = self.render_rows(Dialect::default(), self.max_partitions.is_some())?;
        Ok(self
            .pack(&rendered)?
            .into_iter()
            .map(|rows| {
                let mut s = String::with_capacity(rendered.len_of(rows.clone()));
                s.push_str(&rendered.header);
                for (n, i) in rows.enumerate() {
                    if n > 0 {
                        s.push_str(ROW_SEPARATOR);
                    }
                    s.push_str(rendered.row(i));
                }
                s
            })
            .collect())
    }

    /// Greedy packing in row order under the byte and partition budgets.
    fn pack(&self, rendered: &RenderedRows) -> Result<Vec<Range<usize>>> {
        let n = self.rows.len();
        let fixed = rendered.header.len();
        let mut out = Vec::new();
        let mut start = 0;
        let mut len = fixed;
        let mut parts: HashSet<&PartitionKey> = HashSet::new();
        let limit_parts = self.max_partitions.filter(|_| !rendered.keys.is_empty());
        for i in 0..n {
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
            let in_batch = i - start;
            let add = if in_batch == 0 {
                row_len
            } else {
                ROW_SEPARATOR.len() + row_len
            };
            let new_part = limit_parts.is_some_and(|max| {
                let k = &rendered.keys[i];
                !parts.contains(k) && parts.len() >= max
            });
            if in_batch > 0 && (len + add > self.max_bytes || new_part) {
                out.push(start..i);
                start = i;
                len = fixed + row_len;
                parts.clear();
            } else {
                len += add;
            }
            if limit_parts.is_some() {
                parts.insert(&rendered.keys[i]);
            }
        }
        out.push(start..n);
        Ok(out)
    }
}
