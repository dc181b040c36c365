//! [`Statement`]: validated SQL text ready to run.

use std::fmt;

use crate::dialect::Dialect;
use crate::error::Result;
use crate::expr::IntoOperand;
use crate::model::TableName;
use crate::render::SqlWriter;

mod entry;
mod kind;

pub use entry::TableStatements;
pub use kind::{StatementKind, MAX_QUERY_BYTES};

/// One SQL statement that has passed validation: its text, kind, dialect and the
/// `ExecutionParameters` for its `?` placeholders (each is SQL literal text).
///
/// The only way to get one is a builder's `build()`, so every `Statement` that exists
/// is valid for its dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    sql: String,
    kind: StatementKind,
    dialect: Dialect,
    params: Vec<String>,
    /// Whether nested columns are read as JSON text (a SELECT whose rows come back to
    /// us): such rows do not have the table's types.
    reads_json: bool,
    /// The table an INSERT, UPDATE, DELETE or MERGE writes.
    writes: Option<TableName>,
    /// The number of rows of an `INSERT ... VALUES`.
    inserted_rows: Option<u64>,
}

impl Statement {
    /// Validates `sql` as a statement of `kind` in `dialect` (size, one statement,
    /// parse, allowed shapes, placeholder count) and wraps it.
    pub(crate) fn validated(
        sql: String,
        kind: StatementKind,
        dialect: Dialect,
        params: Vec<String>,
    ) -> Result<Statement> {
        crate::validate::validate(&sql, kind, dialect, params.len())?;
        Statement::checked(sql, kind, dialect, params)
    }

    /// Wraps text a validator passed: every statement a builder returns comes through
    /// here. Under the `sqlparser` feature sqlparser reads the text too
    /// ([`read_with_sqlparser`](crate::validate::read_with_sqlparser)); under
    /// `statement-log` it is logged.
    fn checked(
        sql: String,
        kind: StatementKind,
        dialect: Dialect,
        params: Vec<String>,
    ) -> Result<Statement> {
        #[cfg(feature = "sqlparser")]
        crate::validate::read_with_sqlparser(&sql, kind, dialect)?;
        let stmt = Statement {
            sql,
            kind,
            dialect,
            params,
            reads_json: false,
            writes: None,
            inserted_rows: None,
        };
        #[cfg(feature = "statement-log")]
        crate::statement_log::record(&stmt);
        Ok(stmt)
    }

    pub(crate) fn set_reads_json(&mut self, reads_json: bool) {
        self.reads_json = reads_json;
    }

    /// Whether the statement reads nested columns back as JSON text.
    pub(crate) fn reads_json(&self) -> bool {
        self.reads_json
    }

    /// Records the table the statement writes, and for `INSERT ... VALUES` its rows.
    pub(crate) fn set_writes(&mut self, table: &TableName, inserted_rows: Option<usize>) {
        self.writes = Some(table.clone());
        self.inserted_rows = inserted_rows.map(|n| n as u64);
    }

    /// Validates `sql`, an `INSERT … VALUES` whose rows start at byte `rows_at`: the
    /// statement through its first row with the full validator, every row with the
    /// VALUES recognizer (see `validate::values`).
    pub(crate) fn validated_insert_values(
        sql: String,
        dialect: Dialect,
        rows_at: usize,
    ) -> Result<Statement> {
        crate::validate::validate_insert_values(&sql, rows_at, dialect)?;
        Statement::checked(sql, StatementKind::Insert, dialect, Vec::new())
    }

    /// The SQL text (no trailing semicolon).
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// What the statement does.
    pub fn kind(&self) -> StatementKind {
        self.kind
    }

    /// The dialect it was rendered for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// `ExecutionParameters`: one SQL literal per `?`, in order. Empty when the
    /// statement has no placeholders.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The table an `INSERT`, `UPDATE`, `DELETE` or `MERGE` writes (`None` for every
    /// other kind). An executor that cannot tell whether such a write committed reads
    /// this table's snapshots to settle it.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    ///
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String }
    ///
    /// let rows = [McpEvent { event_id: "e1".into() }, McpEvent { event_id: "e2".into() }];
    /// let insert = McpEvent::insert(&rows).build()?;
    /// assert_eq!(insert.writes(), Some(&TableName::new("analytics", "mcp_events")));
    /// assert_eq!(insert.inserted_rows(), Some(2));
    /// let read = McpEvent::select().build()?;
    /// assert_eq!(read.writes(), None);
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn writes(&self) -> Option<&TableName> {
        self.writes.as_ref()
    }

    /// How many rows an `INSERT ... VALUES` adds (`None` for every other statement,
    /// `INSERT ... SELECT` included).
    pub fn inserted_rows(&self) -> Option<u64> {
        self.inserted_rows
    }

    /// The SQL text, consuming the statement.
    pub fn into_sql(self) -> String {
        self.sql
    }
}

impl SqlWriter {
    /// For an `INSERT … VALUES` without placeholders whose rows start at byte
    /// `rows_at`: validates the statement through its first row with the full
    /// validator and every row with the VALUES recognizer, and returns the
    /// [`Statement`].
    pub(crate) fn finish_insert_values(self, rows_at: usize) -> Result<Statement> {
        let w = self.into_written()?;
        debug_assert!(w.kind == StatementKind::Insert && w.params.is_empty());
        if w.kind != StatementKind::Insert || !w.params.is_empty() {
            return Statement::validated(w.sql, w.kind, w.dialect, w.params);
        }
        Statement::validated_insert_values(w.sql, w.dialect, rows_at)
    }

    /// Validates the text and returns the [`Statement`].
    pub fn finish(self) -> Result<Statement> {
        let w = self.into_written()?;
        let mut s = Statement::validated(w.sql, w.kind, w.dialect, w.params)?;
        s.set_reads_json(w.reads_json);
        Ok(s)
    }
}

impl fmt::Display for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sql)
    }
}

impl AsRef<str> for Statement {
    fn as_ref(&self) -> &str {
        &self.sql
    }
}

/// Where the statements on a table's rows start: on the record type itself,
/// `McpEvent::insert(&rows)`, `McpEvent::update()`, `McpEvent::select()`. Implemented for
/// every [`IcebergTable`]; in the prelude.
///
/// A statement with a WHERE clause (UPDATE, DELETE, INSERT … SELECT, SELECT, OPTIMIZE):
/// `filter` adds a condition over scope `S`, and several are joined by AND (the part
/// sea-query's `ConditionalStatement` plays). In the prelude.
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use std::sync::OnceLock;
/// # struct Ev;
/// # impl Ev {
/// #     const ID: Col<Ev, i64> = Col::new("id");
/// #     const STATUS: Col<Ev, String> = Col::new("status");
/// # }
/// # impl IcebergTable for Ev {
/// #     fn table_def() -> &'static TableDef {
/// #         static DEF: OnceLock<TableDef> = OnceLock::new();
/// #         DEF.get_or_init(|| TableDef::builder("analytics", "ev")
/// #             .column(Column::new("id", IcebergType::Long))
/// #             .column(Column::new("status", IcebergType::String)).build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { unimplemented!() }
/// # }
/// let stale = Ev::delete().filter(Ev::STATUS.eq("stale")).filter(Ev::ID.lt(100));
/// assert_eq!(stale.build()?.sql(),
///            "DELETE FROM analytics.ev\nWHERE status = 'stale' AND id < 100");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub trait Filter<S>: Sized {
    /// Adds a WHERE condition (several are joined by AND).
    fn filter<C: IntoOperand<S, bool>>(self, cond: C) -> Self;
}
