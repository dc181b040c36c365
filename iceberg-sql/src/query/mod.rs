//! `SELECT`: projections, filters, aggregates, GROUP BY, ORDER BY, LIMIT, joins on typed
//! keys, time travel and Iceberg metadata tables
//! (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-table-data.html>).
//!
//! Time travel is typed ([`Snapshot`]) and goes right after the table name:
//! `FROM db.t FOR VERSION AS OF 5789234567890123456` or
//! `FROM db.t FOR TIMESTAMP AS OF TIMESTAMP '2026-09-15 00:00:00 UTC'` (always with an
//! explicit `UTC`: a zone-less literal means UTC in Athena but the session zone in Spark).
//! Both engines accept these spellings.
//!
//! Metadata tables: Athena `"db"."t$snapshots"`, Spark `db.t.snapshots`; see
//! [`metadata`] for the typed rows.

pub mod metadata;
mod with;

use std::marker::PhantomData;
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::dialect::typing::{Checked, TypeScope, Written};
use crate::dialect::{Dialect, DialectRules};
use crate::engine::literals::check_date_time;
use crate::engine::targets::OutputTarget;
use crate::engine::types::EngineType;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{ColumnValue, Expr, IntoOperand, Projectable, Scope};
use crate::ident::{check_name, NameRole};
use crate::model::{Column, TableDef, TableName};
use crate::record::{IcebergTable, SqlType};
use crate::render::SqlWriter;
use crate::statement::{Filter, Statement, StatementKind};
use crate::types::IcebergType;
use crate::Col;

pub use metadata::{
    FileRow, HistoryRow, ManifestRow, MetadataRow, MetadataTable, PartitionRow, RefRow, SnapshotRow,
};
pub use with::{Cte, Query, UnionAll};

/// A point in a table's history to read (`FOR ... AS OF`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Snapshot {
    /// `FOR VERSION AS OF <snapshot id>` (from `$snapshots` / `$history`).
    Version(i64),
    /// `FOR TIMESTAMP AS OF TIMESTAMP '... UTC'`.
    Timestamp(DateTime<Utc>),
}

/// Sort direction, with Athena's place for NULLs on every target.
///
/// Athena (Trino) sorts NULLs last in both directions unless told otherwise ("The
/// default null ordering is NULLS LAST, regardless of the ordering direction":
/// <https://trino.io/docs/current/sql/select.html#order-by-clause>). Spark sorts them
/// first in ascending order (<https://spark.apache.org/docs/3.5.0/sql-ref-syntax-qry-select-orderby.html>),
/// so with a `LIMIT` the same query would return other rows: a target whose default
/// differs gets the NULL order written out.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::query::Order;
/// # #[derive(IcebergTable)]
/// # #[iceberg(database = "db", name = "t", location = "s3://my-bucket/t/")]
/// # struct T { id: i64, score: Option<i64> }
/// let top = |o| T::select().column(T::ID).order_by(T::SCORE, o).limit(3);
/// assert_eq!(top(Order::Asc).build()?.sql(),
///            "SELECT id FROM db.t ORDER BY score ASC LIMIT 3");
/// assert_eq!(top(Order::Asc).build_for(Dialect::Spark)?.sql(),
///            "SELECT id FROM db.t ORDER BY score ASC NULLS LAST LIMIT 3");
/// assert_eq!(top(Order::DescNullsFirst).build()?.sql(),
///            "SELECT id FROM db.t ORDER BY score DESC NULLS FIRST LIMIT 3");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// Ascending, NULLs last (`ASC`; Spark: `ASC NULLS LAST`).
    Asc,
    /// Descending, NULLs last (`DESC`).
    Desc,
    /// Ascending, NULLs first (`ASC NULLS FIRST`).
    AscNullsFirst,
    /// Descending, NULLs first (`DESC NULLS FIRST`).
    DescNullsFirst,
}

impl Order {
    /// Writes the direction of a sort key (with its leading space), naming the NULL
    /// order only where the target's default is another.
    fn write(self, w: &mut SqlWriter) {
        let (descending, nulls_first) = match self {
            Order::Asc => (false, false),
            Order::Desc => (true, false),
            Order::AscNullsFirst => (false, true),
            Order::DescNullsFirst => (true, true),
        };
        w.push(if descending { " DESC" } else { " ASC" });
        if nulls_first != w.rules().sorts_nulls_first(descending) {
            w.push(if nulls_first {
                " NULLS FIRST"
            } else {
                " NULLS LAST"
            });
        }
    }
}

/// Join kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JoinKind {
    /// `JOIN`
    Inner,
    /// `LEFT JOIN`
    Left,
}

#[derive(Debug, Clone)]
enum Relation {
    Table(TableName),
    Metadata(TableName, MetadataTable),
    /// A CTE of the statement, by name.
    Cte(String),
}

#[derive(Debug, Clone)]
struct Join {
    kind: JoinKind,
    table: TableName,
    columns: Vec<Column>,
    left_key: &'static str,
    right_key: &'static str,
}

#[derive(Debug, Clone)]
enum Item {
    Expr(Expr, Option<String>),
    /// A column of a joined table (unqualified; checked unambiguous).
    Joined(usize, &'static str),
    /// A nested metadata column read as JSON text.
    Json(&'static str),
    /// A nested (list, map, struct) table column in the default projection of a SELECT
    /// whose rows come back to us: Athena returns such cells in a text form that cannot
    /// be parsed back reliably (`[a, b]`, `{k=v}`), so Athena reads it `CAST(c AS
    /// JSON)`; Spark (whose JSON output drops timestamp precision) reads it as is.
    Nested(String),
    /// A plain column of a metadata table (default projection).
    Name(String),
    /// The target's own expression for a metadata column (our static text) `AS` its name.
    Renamed(&'static str, String),
}

/// What a SELECT's rows are for, which decides how its projection is checked and
/// written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Usage {
    /// The rows come back to us: nested columns are read as JSON text where the target
    /// needs that to decode them.
    Read,
    /// A subquery whose rows feed another statement (MERGE source, INSERT … SELECT):
    /// values keep their types.
    Rows,
    /// The rows a CTAS or UNLOAD stores: each output column must be one the target can
    /// store.
    Output(OutputTarget),
}

/// What the output columns of a SELECT name, and so which names it must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputNames {
    /// The columns of a created relation (a CTAS table, a view): each must have a name,
    /// and no name may come twice. Trino checks both for CREATE TABLE AS and CREATE VIEW
    /// ("Column name not specified at position N", "Column name 'x' specified more than
    /// once": `validateColumns` in trinodb/trino,
    /// core/trino-main/src/main/java/io/trino/sql/analyzer/StatementAnalyzer.java), and
    /// Spark refuses duplicate names in both (`COLUMN_ALREADY_EXISTS`).
    Relation,
    /// The columns of the files an UNLOAD writes: no name may come twice. Athena's UNLOAD
    /// documentation does not say what a file schema with a repeated name becomes
    /// (<https://docs.aws.amazon.com/athena/latest/ug/unload.html>), so it is refused
    /// rather than guessed. An unnamed expression is left to Athena, as in a query's
    /// result.
    Files,
}

/// One projected column as the target's rules checked it.
#[derive(Debug, Clone)]
pub(crate) enum Projected {
    /// A value, written `value [AS alias]`.
    Value {
        /// The checked value.
        value: Checked<'static>,
        /// The alias written after it.
        alias: Option<String>,
        /// The output column's name, where known.
        name: Option<String>,
    },
    /// A nested column read as JSON text, `AS` its name.
    Json(String),
    /// The target's own expression for a metadata column (our static text) `AS` its name.
    Renamed(&'static str, String),
}

impl Projected {
    /// The output column's name, where known.
    pub(crate) fn name(&self) -> Option<&str> {
        match self {
            Projected::Value { name, .. } => name.as_deref(),
            Projected::Json(n) | Projected::Renamed(_, n) => Some(n),
        }
    }

    /// Its engine type, where the target's rules know it.
    pub(crate) fn ty(&self) -> Option<&EngineType> {
        match self {
            Projected::Value { value, .. } => value.ty(),
            Projected::Json(_) => Some(&EngineType::Json),
            Projected::Renamed(..) => None,
        }
    }

    /// The expression it writes, when it is a plain value.
    pub(crate) fn expr(&self) -> Option<&Expr> {
        match self {
            Projected::Value { value, .. } => value.expr(),
            _ => None,
        }
    }

    /// Replaces the value written (e.g. by the one an assignment check returned),
    /// keeping the output column's name.
    pub(crate) fn set_value(&mut self, checked: Checked<'static>) {
        if let Projected::Value { value, alias, name } = self {
            if checked.conversion().is_some() && alias.is_none() {
                *alias = name.clone();
            }
            *value = checked;
        }
    }

    fn write(&self, w: &mut SqlWriter) -> Result<()> {
        match self {
            Projected::Value { value, alias, .. } => {
                value.write(w)?;
                if let Some(a) = alias {
                    w.push(" AS ").ident(a);
                }
            }
            Projected::Json(name) => {
                let rules = w.rules();
                rules.write_to_json(w, &mut |w| {
                    w.ident(name);
                    Ok(())
                })?;
                w.push(" AS ").ident(name);
            }
            Projected::Renamed(expr, name) => {
                w.push(expr).push(" AS ").ident(name);
            }
        }
        Ok(())
    }
}

/// Builds a `SELECT` over table (or metadata row type) `S`.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::query::{Select, Snapshot, Order};
/// use iceberg_sql::dsl::count_all;
/// # #[derive(Debug)] struct McpEvent;
/// # impl McpEvent {
/// #     const TOOL_NAME: Col<McpEvent, String> = Col::new("tool_name");
/// # }
/// # impl IcebergTable for McpEvent {
/// #     fn table_def() -> &'static TableDef {
/// #         static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
/// #         T.get_or_init(|| TableDef::builder("analytics", "mcp_events")
/// #             .column(Column::new("tool_name", IcebergType::String))
/// #             .location("s3://my-datalake/iceberg/mcp_events/").build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { vec![] }
/// # }
/// let q = McpEvent::select()
///     .expr_as(count_all(), "event_count")
///     .column(McpEvent::TOOL_NAME)
///     .as_of(Snapshot::Version(5789234567890123456))
///     .group_by(McpEvent::TOOL_NAME)
///     .order_by(McpEvent::TOOL_NAME, Order::Asc)
///     .limit(10);
/// assert_eq!(
///     q.build()?.sql(),
///     "SELECT count(*) AS event_count, tool_name FROM analytics.mcp_events \
///      FOR VERSION AS OF 5789234567890123456 GROUP BY tool_name ORDER BY tool_name ASC LIMIT 10"
/// );
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[must_use]
pub struct Select<S> {
    body: SelectBody,
    _scope: PhantomData<fn() -> S>,
}

/// A SELECT as [`Select`] describes it, without its scope type: every check and the
/// writing work on this, so they compile once, whatever row types an application
/// selects (the scope type only decides which columns the builder methods accept).
#[derive(Clone)]
pub(crate) struct SelectBody {
    relation: Relation,
    columns: Vec<Column>,
    json_columns: &'static [&'static str],
    /// A metadata row type that is not every column of its table: list its columns
    /// instead of `SELECT *`.
    list_columns: bool,
    /// The table whose metadata table is read, when known: its columns are checked.
    metadata_of: Option<&'static TableDef>,
    items: Vec<Item>,
    filter: Option<Expr>,
    group_by: Vec<Expr>,
    having: Option<Expr>,
    distinct: bool,
    order_by: Vec<(Expr, Order)>,
    offset: Option<u64>,
    limit: Option<u64>,
    as_of: Option<Snapshot>,
    joins: Vec<Join>,
    /// The CTEs this query reads (each with the CTEs it reads), written in one `WITH`.
    ctes: Vec<Arc<with::CteDef>>,
}

impl<S> Clone for Select<S> {
    fn clone(&self) -> Self {
        Select {
            body: self.body.clone(),
            _scope: PhantomData,
        }
    }
}

// By hand: `#[derive]` would ask `S: Debug` of a scope type the builder never holds.
impl<S> std::fmt::Debug for Select<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.body.fmt(f)
    }
}

// Named `Select`, the type users hold (a CTAS or view shows its query the same way).
impl std::fmt::Debug for SelectBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Select")
            .field("relation", &self.relation)
            .field("columns", &self.columns)
            .field("json_columns", &self.json_columns)
            .field("list_columns", &self.list_columns)
            .field("metadata_of", &self.metadata_of)
            .field("items", &self.items)
            .field("filter", &self.filter)
            .field("group_by", &self.group_by)
            .field("having", &self.having)
            .field("distinct", &self.distinct)
            .field("order_by", &self.order_by)
            .field("offset", &self.offset)
            .field("limit", &self.limit)
            .field("as_of", &self.as_of)
            .field("joins", &self.joins)
            .field("ctes", &self.ctes)
            .finish()
    }
}

impl<T: IcebergTable> Select<T> {
    /// `SELECT ... FROM` the record type's table ([`TableStatements::select`](crate::TableStatements::select)).
    pub(crate) fn table() -> Self {
        Self::new(SelectBody::of_table(T::table_def()))
    }

    /// Reads another table with the same columns (e.g. a staging or mirror copy)
    /// instead of `T`'s own; typed columns, joins and time travel work as before.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::query::Select;
    /// # #[derive(Debug)] struct McpEvent;
    /// # impl McpEvent {
    /// #     const TOOL_NAME: Col<McpEvent, String> = Col::new("tool_name");
    /// # }
    /// # impl IcebergTable for McpEvent {
    /// #     fn table_def() -> &'static TableDef {
    /// #         static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
    /// #         T.get_or_init(|| TableDef::builder("analytics", "mcp_events")
    /// #             .column(Column::new("tool_name", IcebergType::String))
    /// #             .location("s3://my-datalake/iceberg/mcp_events/").build().unwrap())
    /// #     }
    /// #     fn to_values(&self) -> Vec<Value> { vec![] }
    /// # }
    /// let q = McpEvent::select()
    ///     .into_table(TableName::new("analytics", "mcp_events_staging"))
    ///     .column(McpEvent::TOOL_NAME)
    ///     .filter(McpEvent::TOOL_NAME.eq("query_data"));
    /// assert_eq!(q.build()?.sql(),
    ///     "SELECT tool_name FROM analytics.mcp_events_staging WHERE tool_name = 'query_data'");
    /// assert_eq!(q.build_for(Dialect::Spark)?.sql(),
    ///     "SELECT tool_name FROM analytics.mcp_events_staging WHERE tool_name = 'query_data'");
    /// let bad = McpEvent::select().into_table(TableName::new("analytics", "Staging"));
    /// assert!(bad.build().is_err()); // name checked
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn into_table(mut self, name: TableName) -> Self {
        self.body.relation = Relation::Table(name);
        self
    }
}

impl<R: MetadataRow> Select<R> {
    /// `SELECT ... FROM` metadata table `R::TABLE` of `table`
    /// ([`TableName::metadata`]).
    pub(crate) fn metadata(table: &TableName) -> Self {
        let mut select = Self::new(SelectBody::new(
            Relation::Metadata(table.clone(), R::TABLE),
            R::columns(),
            R::json_columns(),
        ));
        select.body.list_columns = !R::every_column();
        select
    }

    /// [`Select::metadata`] of `table`, whose definition tells which columns its
    /// metadata table has ([`TableStatements::metadata`](crate::TableStatements::metadata)).
    pub(crate) fn metadata_of(table: &'static TableDef) -> Self {
        let mut select = Self::metadata(table.name());
        select.body.metadata_of = Some(table);
        select
    }
}

fn scope_err(what: &str) -> Error {
    Error::new(
        ErrorKind::InvalidTable,
        format!("{what}: MERGE source/target columns cannot appear in a SELECT"),
    )
}

impl<S> Select<S> {
    fn new(body: SelectBody) -> Self {
        Select {
            body,
            _scope: PhantomData,
        }
    }

    /// Projects a column. A metadata table's nested column (`SnapshotRow::SUMMARY`) is
    /// read as JSON text, as the default projection reads it, so that it decodes.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::query::{Order, SnapshotRow};
    ///
    /// let q = TableName::new("analytics", "mcp_events")
    ///     .metadata::<SnapshotRow>()
    ///     .column(SnapshotRow::SNAPSHOT_ID)
    ///     .column(SnapshotRow::COMMITTED_AT)
    ///     .column(SnapshotRow::OPERATION)
    ///     .column(SnapshotRow::SUMMARY)
    ///     .order_by(SnapshotRow::COMMITTED_AT, Order::Desc)
    ///     .build()?;
    /// assert_eq!(q.sql(), "SELECT snapshot_id, committed_at, operation, \
    ///     CAST(summary AS JSON) AS summary FROM \"analytics\".\"mcp_events$snapshots\" \
    ///     ORDER BY committed_at DESC");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn column<V: Projectable>(mut self, column: Col<S, V>) -> Self {
        let name = column.name();
        let item = match self.body.json_columns.iter().find(|j| **j == name) {
            Some(j) => Item::Json(j),
            None => Item::Expr(Expr::column(name), None),
        };
        self.body.items.push(item);
        self
    }

    /// Projects an expression (a column, an aggregate, a literal ...).
    pub fn expr<V, E: IntoOperand<S, V>>(mut self, expr: E) -> Self {
        self.body.items.push(Item::Expr(expr.into_operand(), None));
        self
    }

    /// Projects an expression `AS alias`.
    pub fn expr_as<V, E: IntoOperand<S, V>>(mut self, expr: E, alias: &str) -> Self {
        self.body
            .items
            .push(Item::Expr(expr.into_operand(), Some(alias.to_string())));
        self
    }

    /// Projects a typed constant `AS alias` (e.g. the day a summary row is for).
    pub fn value_as<V: SqlType>(mut self, value: V, alias: &str) -> Self {
        self.body.items.push(Item::Expr(
            Expr::literal(value.to_value(), V::iceberg_type()),
            Some(alias.to_string()),
        ));
        self
    }

    /// Adds a `GROUP BY` expression.
    pub fn group_by<V, E: IntoOperand<S, V>>(mut self, expr: E) -> Self {
        self.body.group_by.push(expr.into_operand());
        self
    }

    /// Adds an `ORDER BY` expression.
    pub fn order_by<V, E: IntoOperand<S, V>>(mut self, expr: E, order: Order) -> Self {
        self.body.order_by.push((expr.into_operand(), order));
        self
    }

    /// `LIMIT n`.
    pub fn limit(mut self, n: u64) -> Self {
        self.body.limit = Some(n);
        self
    }

    /// `HAVING cond`: keeps the groups for which `cond` (over aggregates and grouped
    /// columns) is true. Several calls are joined with `AND`. A column read outside an
    /// aggregate must be in GROUP BY, as in the projection
    /// (<https://trino.io/docs/current/sql/select.html#having-clause>).
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::dsl::count_all;
    /// # #[derive(IcebergTable)]
    /// # #[iceberg(database = "db", name = "t", location = "s3://my-bucket/t/")]
    /// # struct T { tool: String, latency_ms: i64 }
    /// let busy = T::select()
    ///     .column(T::TOOL)
    ///     .expr_as(count_all(), "n")
    ///     .group_by(T::TOOL)
    ///     .having(count_all().gt(100).and(T::LATENCY_MS.avg().lt(250.0)));
    /// assert_eq!(busy.build()?.sql(),
    ///     "SELECT tool, count(*) AS n FROM db.t GROUP BY tool \
    ///      HAVING count(*) > 100 AND avg(latency_ms) < 2.5E2");
    /// // A column neither grouped nor aggregated is refused.
    /// let bad = T::select().column(T::TOOL).group_by(T::TOOL).having(T::LATENCY_MS.gt(1));
    /// assert!(bad.build().unwrap_err().message().contains("HAVING reads column `latency_ms`"));
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn having<C: IntoOperand<S, bool>>(mut self, cond: C) -> Self {
        self.body.having = Expr::and_then(self.body.having.take(), cond.into_operand());
        self
    }

    /// `SELECT DISTINCT`: each output row once
    /// (<https://trino.io/docs/current/sql/select.html#select-clause>).
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// # #[derive(IcebergTable)]
    /// # #[iceberg(database = "db", name = "t", location = "s3://my-bucket/t/")]
    /// # struct T { tool: String }
    /// assert_eq!(T::select().distinct().column(T::TOOL).build()?.sql(),
    ///            "SELECT DISTINCT tool FROM db.t");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn distinct(mut self) -> Self {
        self.body.distinct = true;
        self
    }

    /// `OFFSET n`: skips the first `n` rows of the ordered result. Trino writes it
    /// before `LIMIT` (<https://trino.io/docs/current/sql/select.html#offset-clause>),
    /// Spark after it (<https://spark.apache.org/docs/3.5.0/sql-ref-syntax-qry-select-offset.html>).
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::query::Order;
    /// # #[derive(IcebergTable)]
    /// # #[iceberg(database = "db", name = "t", location = "s3://my-bucket/t/")]
    /// # struct T { id: i64 }
    /// let page = T::select().column(T::ID).order_by(T::ID, Order::Asc).offset(20).limit(10);
    /// assert_eq!(page.build()?.sql(), "SELECT id FROM db.t ORDER BY id ASC OFFSET 20 LIMIT 10");
    /// assert_eq!(page.build_for(Dialect::Spark)?.sql(),
    ///            "SELECT id FROM db.t ORDER BY id ASC NULLS LAST LIMIT 10 OFFSET 20");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn offset(mut self, n: u64) -> Self {
        self.body.offset = Some(n);
        self
    }

    /// Reads the table as of `snapshot` (`FOR VERSION|TIMESTAMP AS OF`). Not for
    /// metadata tables.
    pub fn as_of(mut self, snapshot: Snapshot) -> Self {
        self.body.as_of = Some(snapshot);
        self
    }

    /// `[LEFT] JOIN` the table of `U` on `left_key = right_key` (typed: both keys hold
    /// the same Rust type). Equal key names render `USING (key)`; others
    /// `ON db.a.k1 = db.b.k2`. Project the other table's columns with
    /// [`Select::joined_column`]; every unqualified name must be unambiguous.
    pub fn join<U: IcebergTable, V: ColumnValue>(
        mut self,
        kind: JoinKind,
        left_key: Col<S, V>,
        right_key: Col<U, V>,
    ) -> Self {
        let def = U::table_def();
        self.body.joins.push(Join {
            kind,
            table: def.name().clone(),
            columns: def.columns().to_vec(),
            left_key: left_key.name(),
            right_key: right_key.name(),
        });
        self
    }

    /// Projects a column of the most recently joined table `U`.
    pub fn joined_column<U: IcebergTable, V>(mut self, column: Col<U, V>) -> Self {
        let i = self.body.joins.len().wrapping_sub(1);
        self.body.items.push(Item::Joined(i, column.name()));
        self
    }

    /// The description every check and writer works on.
    pub(crate) fn body(&self) -> &SelectBody {
        &self.body
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.body.build_for(dialect)
    }
}

impl SelectBody {
    fn new(relation: Relation, columns: Vec<Column>, json: &'static [&'static str]) -> Self {
        SelectBody {
            relation,
            columns,
            json_columns: json,
            list_columns: false,
            metadata_of: None,
            items: Vec::new(),
            filter: None,
            group_by: Vec::new(),
            having: None,
            distinct: false,
            order_by: Vec::new(),
            offset: None,
            limit: None,
            as_of: None,
            joins: Vec::new(),
            ctes: Vec::new(),
        }
    }

    /// Every column of `def`'s table.
    fn of_table(def: &TableDef) -> Self {
        Self::new(
            Relation::Table(def.name().clone()),
            def.columns().to_vec(),
            &[],
        )
    }

    /// The row type's columns that the metadata table of a known table lacks.
    fn unavailable_columns(&self) -> Result<Vec<String>> {
        match (&self.relation, self.metadata_of) {
            (Relation::Metadata(_, m), Some(def)) => {
                metadata::unavailable_columns(*m, &self.columns, def)
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The refusal of a whole-row read of a metadata table that lacks `unavailable`.
    fn unavailable_error(&self, unavailable: &[String]) -> Option<Error> {
        let Relation::Metadata(t, m) = &self.relation else {
            return None;
        };
        let first = unavailable.first()?;
        let why = if *m == MetadataTable::Partitions && first == "partition" {
            format!(
                "`{t}` is unpartitioned, and the `{}` metadata table of an unpartitioned \
                 table has no `partition` column",
                m.name()
            )
        } else {
            format!(
                "the `{}` metadata table of `{t}` has no column `{first}` on every engine",
                m.name()
            )
        };
        Some(
            Error::new(
                ErrorKind::UnknownColumn,
                format!("cannot read whole rows of `{t}${}`: {why}", m.name()),
            )
            .with_hint(
                "project the columns it has (e.g. `.column(PartitionRow::RECORD_COUNT)`) \
                 and decode them into a tuple or a `#[derive(FromRow)]` struct",
            ),
        )
    }

    fn check(&self) -> Result<()> {
        let mut errors = Vec::new();
        let unavailable = self.unavailable_columns()?;
        if self.items.is_empty() {
            if let Some(e) = self.unavailable_error(&unavailable) {
                errors.push(e);
            }
        }
        let known = |name: &str| {
            self.columns.iter().any(|c| c.name == name) && !unavailable.iter().any(|u| u == name)
        };
        let joined = |name: &str| {
            self.joins
                .iter()
                .filter(|j| j.columns.iter().any(|c| c.name == name))
                .count()
        };
        let shown = match &self.relation {
            Relation::Table(t) => t.to_string(),
            Relation::Metadata(t, m) => format!("{t}${}", m.name()),
            Relation::Cte(n) => format!("CTE {n}"),
        };
        let check_expr = |e: &Expr, errors: &mut Vec<Error>| {
            for (scope, name) in e.columns() {
                if scope != Scope::Table {
                    errors.push(scope_err(name));
                } else if !known(name) {
                    errors.push(Error::new(
                        ErrorKind::UnknownColumn,
                        format!("`{shown}` has no column `{name}`"),
                    ));
                } else if joined(name) > 0
                    && !self
                        .joins
                        .iter()
                        .any(|j| j.left_key == name && j.right_key == name)
                {
                    errors.push(
                        Error::new(
                            ErrorKind::InvalidTable,
                            format!("column `{name}` is ambiguous: both joined tables have it"),
                        )
                        .with_hint("join on it (USING), or project only one of them"),
                    );
                }
            }
        };
        for item in &self.items {
            match item {
                Item::Expr(e, alias) => {
                    check_expr(e, &mut errors);
                    if let Some(a) = alias {
                        if let Err(e) = check_name(a, NameRole::Column) {
                            errors.push(e);
                        }
                    }
                }
                Item::Joined(i, name) => match self.joins.get(*i) {
                    None => errors.push(Error::new(
                        ErrorKind::InvalidTable,
                        "joined_column() before any join()",
                    )),
                    Some(j) => {
                        if !j.columns.iter().any(|c| c.name == *name) {
                            errors.push(Error::new(
                                ErrorKind::UnknownColumn,
                                format!("`{}` has no column `{name}`", j.table),
                            ));
                        } else if known(name) && !(j.left_key == *name && j.right_key == *name) {
                            errors.push(Error::new(
                                ErrorKind::InvalidTable,
                                format!("column `{name}` is ambiguous: both joined tables have it"),
                            ));
                        }
                    }
                },
                // A metadata table's nested column projected by `column()`.
                Item::Json(name) if !known(name) => errors.push(Error::new(
                    ErrorKind::UnknownColumn,
                    format!("`{shown}` has no column `{name}`"),
                )),
                Item::Json(_) | Item::Name(_) | Item::Renamed(..) | Item::Nested(_) => {}
            }
        }
        if let Some(f) = &self.filter {
            check_expr(f, &mut errors);
            if f.contains_aggregate() {
                errors.push(
                    Error::new(
                        ErrorKind::DisallowedSyntax,
                        "an aggregate cannot appear in WHERE",
                    )
                    .with_hint("filter the aggregate's input with .filter() on the aggregate (FILTER (WHERE ...))"),
                );
            }
        }
        for g in &self.group_by {
            check_expr(g, &mut errors);
            if g.contains_aggregate() {
                errors.push(Error::new(
                    ErrorKind::DisallowedSyntax,
                    "an aggregate cannot appear in GROUP BY",
                ));
            }
        }
        for (o, _) in &self.order_by {
            check_expr(o, &mut errors);
        }
        if let Some(h) = &self.having {
            check_expr(h, &mut errors);
        }
        // Trino: "WHERE clause cannot contain aggregations, window functions or grouping
        // operations", and likewise GROUP BY and HAVING (`StatementAnalyzer`).
        let clauses = [
            ("WHERE", self.filter.as_slice()),
            ("GROUP BY", self.group_by.as_slice()),
            ("HAVING", self.having.as_slice()),
        ];
        for (clause, exprs) in clauses {
            if exprs.iter().any(Expr::contains_window) {
                errors.push(
                    Error::new(
                        ErrorKind::DisallowedSyntax,
                        format!("{clause} cannot contain window functions"),
                    )
                    .with_hint(
                        "project the window function with .expr_as(...) in a query of its own \
                         (a CTE) and filter the rows of that query",
                    ),
                );
            }
        }
        let nested = self
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Expr(e, _) => Some(e),
                _ => None,
            })
            .chain(self.filter.iter())
            .chain(self.group_by.iter())
            .chain(self.having.iter())
            .chain(self.order_by.iter().map(|(o, _)| o))
            .any(Expr::nests_aggregates);
        if nested {
            errors.push(
                Error::new(
                    ErrorKind::DisallowedSyntax,
                    "an aggregate cannot hold another aggregate in its argument or its FILTER",
                )
                .with_hint("aggregate in a query of its own and select from it"),
            );
        }
        for j in &self.joins {
            if !known(j.left_key) {
                errors.push(Error::new(
                    ErrorKind::UnknownColumn,
                    format!("`{shown}` has no column `{}`", j.left_key),
                ));
            }
            if !j.columns.iter().any(|c| c.name == j.right_key) {
                errors.push(Error::new(
                    ErrorKind::UnknownColumn,
                    format!("`{}` has no column `{}`", j.table, j.right_key),
                ));
            }
        }
        // When the query aggregates, every column read outside an aggregate, in the
        // projection and in ORDER BY, must be grouped.
        let aggregates = self
            .items
            .iter()
            .any(|i| matches!(i, Item::Expr(e, _) if e.contains_aggregate()))
            || self.order_by.iter().any(|(o, _)| o.contains_aggregate())
            || self.having.is_some();
        if aggregates || !self.group_by.is_empty() {
            if let Some(column) = self
                .having
                .as_ref()
                .and_then(|h| h.ungrouped_column(&self.group_by))
            {
                errors.push(
                    Error::new(
                        ErrorKind::DisallowedSyntax,
                        format!(
                            "HAVING reads column `{column}`, which is neither aggregated nor in GROUP BY"
                        ),
                    )
                    .with_hint("add it with .group_by(...), or filter on an aggregate of it"),
                );
            }
            for (o, _) in &self.order_by {
                if let Some(column) = o.ungrouped_column(&self.group_by) {
                    errors.push(
                        Error::new(
                            ErrorKind::DisallowedSyntax,
                            format!(
                                "ORDER BY reads column `{column}`, which is neither aggregated nor in GROUP BY"
                            ),
                        )
                        .with_hint("add it with .group_by(...), or order by an aggregate of it"),
                    );
                }
            }
            for item in &self.items {
                let ungrouped = match item {
                    Item::Expr(e, _) => e.ungrouped_column(&self.group_by).is_some(),
                    Item::Joined(_, name) => !self.group_by.contains(&Expr::column(name)),
                    Item::Nested(name) => !self
                        .group_by
                        .iter()
                        .any(|g| matches!(g, Expr::Column { name: n, .. } if *n == name.as_str())),
                    Item::Json(_) | Item::Name(_) | Item::Renamed(..) => false,
                };
                if ungrouped {
                    errors.push(
                        Error::new(
                            ErrorKind::DisallowedSyntax,
                            "a projected expression that is not an aggregate must be in GROUP BY",
                        )
                        .with_hint("add it with .group_by(...), or aggregate it"),
                    );
                }
            }
        }
        if let (Relation::Metadata(_, m), Some(_)) = (&self.relation, &self.as_of) {
            errors.push(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "time travel applies to the table's data, not to its ${} metadata table",
                    m.name()
                ),
            ));
        }
        // A leap second or a year outside 0001-9999 is no valid TIMESTAMP literal.
        if let Some(Snapshot::Timestamp(ts)) = &self.as_of {
            if let Err(e) = check_date_time(&ts.naive_utc(), "time travel timestamp") {
                errors.push(e);
            }
        }
        // Iceberg's snapshot ids are positive (a random UUID's bits with the sign
        // cleared: `SnapshotIdGeneratorUtil` in apache/iceberg); a negative one names no
        // snapshot, and `AS OF -1` is not a literal the grammars take there.
        if let Some(Snapshot::Version(id)) = self.as_of {
            if id < 0 {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidValue,
                        format!("time travel snapshot id {id} is negative; Iceberg snapshot ids are positive"),
                    )
                    .with_hint("use a snapshot_id from the table's $snapshots or $history metadata table"),
                );
            }
        }
        match &self.relation {
            Relation::Table(t) | Relation::Metadata(t, _) => {
                if let Err(e) = t.check() {
                    errors.extend(e.into_vec());
                }
            }
            Relation::Cte(n) if self.as_of.is_some() => errors.push(
                Error::new(
                    ErrorKind::Unsupported,
                    format!("time travel applies to a table, not to CTE `{n}`"),
                )
                .with_hint("read the table as of the snapshot in the CTE's query (.as_of on it)"),
            ),
            Relation::Cte(_) => {}
        }
        Error::check_all(errors)
    }

    /// The relations the query's column references resolve in.
    pub(crate) fn type_scope(&self) -> TypeScope<'_> {
        self.joins
            .iter()
            .fold(TypeScope::table(&self.columns), |scope, j| {
                scope.join(&j.columns)
            })
    }

    /// The projection as the target's rules check it for `usage`, in order. Nested
    /// columns of a default projection are read as JSON text when the rows come back to
    /// us and the target needs that; a CTAS or UNLOAD lists the columns when one of them
    /// must be converted for the target to store it.
    pub(crate) fn projections(
        &self,
        rules: &dyn DialectRules,
        usage: Usage,
    ) -> Result<Vec<Projected>> {
        self.check()?;
        let scope = self.type_scope();
        let json_nested = usage == Usage::Read && rules.nested_columns_as_json();
        let metadata = match &self.relation {
            Relation::Metadata(_, m) => Some(*m),
            Relation::Table(_) | Relation::Cte(_) => None,
        };
        let renamed = |column: &str| metadata.and_then(|m| rules.metadata_column(m, column));
        let any_renamed = self.columns.iter().any(|c| renamed(&c.name).is_some());
        if let Some(m) = metadata.filter(|_| any_renamed) {
            self.check_renamed_unused(rules, m)?;
        }
        // List a table's columns so that nested ones can be read as JSON.
        let nested_default =
            json_nested && metadata.is_none() && self.columns.iter().any(|c| !c.ty.is_primitive());
        let listed: Vec<Item>;
        let items = if !self.items.is_empty() {
            &self.items
        } else if nested_default {
            listed = self
                .columns
                .iter()
                .map(|c| {
                    if c.ty.is_primitive() {
                        Item::Name(c.name.clone())
                    } else {
                        Item::Nested(c.name.clone())
                    }
                })
                .collect();
            &listed
        } else if !self.json_columns.is_empty() || any_renamed || self.list_columns {
            listed = self
                .columns
                .iter()
                .map(|c| match self.json_columns.iter().find(|j| **j == c.name) {
                    Some(j) => Item::Json(j),
                    None => match renamed(&c.name) {
                        Some(e) => Item::Renamed(e, c.name.clone()),
                        None => Item::Name(c.name.clone()),
                    },
                })
                .collect();
            &listed
        } else {
            // `SELECT *`, unless an output column must be converted for the target.
            let Usage::Output(target) = usage else {
                return Ok(Vec::new());
            };
            let mut out = Vec::with_capacity(self.columns.len());
            let mut errors = Vec::new();
            for c in &self.columns {
                match rules.check_output(&scope, target, &c.name, Written::column(&c.name)) {
                    Ok(v) => out.push(Projected::Value {
                        alias: v.conversion().map(|_| c.name.clone()),
                        name: Some(c.name.clone()),
                        value: v.into_owned(),
                    }),
                    Err(e) => errors.push(e),
                }
            }
            Error::check_all(errors)?;
            if out
                .iter()
                .any(|p| matches!(p, Projected::Value { alias: Some(_), .. }))
            {
                return Ok(out);
            }
            return Ok(Vec::new());
        };
        let names = self.output_names();
        let mut out = Vec::with_capacity(items.len());
        let mut errors = Vec::new();
        // A plain column, checked for where the rows go; a converted one keeps its name.
        let plain_column = |column: &str| {
            let written = Written::column(column);
            let checked = match usage {
                Usage::Output(target) => rules.check_output(&scope, target, column, written),
                Usage::Read | Usage::Rows => Ok(Checked::plain(
                    written,
                    scope.column_type(Scope::Table, column),
                )),
            };
            checked
                .map(Checked::into_owned)
                .map(|value| Projected::Value {
                    alias: value.conversion().map(|_| column.to_string()),
                    name: Some(column.to_string()),
                    value,
                })
        };
        for (i, item) in items.iter().enumerate() {
            let name = if self.items.is_empty() {
                None
            } else {
                names.get(i).cloned().flatten()
            };
            let projected = match item {
                // A metadata column the target names differently: its expression
                // `AS` the name the row type reads.
                Item::Expr(
                    Expr::Column {
                        scope: Scope::Table,
                        name: column,
                    },
                    alias,
                ) if renamed(column).is_some() => {
                    let expr = renamed(column).unwrap_or(column);
                    let name = alias.clone().unwrap_or_else(|| column.to_string());
                    Ok(Projected::Renamed(expr, name))
                }
                Item::Expr(e, alias) => {
                    let checked = match usage {
                        Usage::Output(target) => rules.check_output(
                            &scope,
                            target,
                            name.as_deref().unwrap_or("_col"),
                            Written::expr(e),
                        ),
                        Usage::Read | Usage::Rows => rules.check_value(&scope, e),
                    };
                    checked.map(Checked::into_owned).map(|value| {
                        // A converted plain column keeps its name.
                        let alias = alias
                            .clone()
                            .or_else(|| value.conversion().and(name.clone()));
                        Projected::Value {
                            value,
                            alias,
                            name: name.clone(),
                        }
                    })
                }
                Item::Joined(_, column) => plain_column(column),
                Item::Name(column) => plain_column(column),
                Item::Nested(column) => {
                    let ty = self.output_type(column);
                    match ty.map(|t| rules.check_json_read(column, &t)) {
                        Some(Err(e)) => Err(e),
                        _ => Ok(Projected::Json(column.clone())),
                    }
                }
                Item::Json(column) => Ok(Projected::Json(column.to_string())),
                Item::Renamed(expr, column) => Ok(Projected::Renamed(expr, column.clone())),
            };
            match projected {
                Ok(p) => out.push(p),
                Err(e) => errors.extend(e.into_vec()),
            }
        }
        Error::check_all(errors)?;
        Ok(out)
    }

    /// Refuses a metadata column that the target names differently (or lacks) anywhere
    /// but as a plain projected column: in WHERE, GROUP BY, ORDER BY or inside a
    /// projected expression it would name a column the target's table does not have.
    fn check_renamed_unused(&self, rules: &dyn DialectRules, m: MetadataTable) -> Result<()> {
        let projected = self.items.iter().filter_map(|item| match item {
            Item::Expr(
                Expr::Column {
                    scope: Scope::Table,
                    ..
                },
                _,
            ) => None,
            Item::Expr(e, _) => Some(e),
            _ => None,
        });
        let used = self
            .filter
            .iter()
            .chain(&self.group_by)
            .chain(&self.having)
            .chain(self.order_by.iter().map(|(e, _)| e))
            .chain(projected);
        let mut errors = Vec::new();
        for e in used {
            for (scope, name) in e.columns() {
                let Some(written) = (scope == Scope::Table)
                    .then(|| rules.metadata_column(m, name))
                    .flatten()
                else {
                    continue;
                };
                errors.push(
                    Error::new(
                        ErrorKind::Unsupported,
                        format!(
                            "{}'s `{}` metadata table has no `{name}` column (this crate \
                             reads it as `{written}` there), so `{name}` can only be \
                             projected as a plain column, not used in a filter, grouping, \
                             ordering or expression",
                            rules.name(),
                            m.name()
                        ),
                    )
                    .with_hint(format!(
                        "project `{name}` and filter or sort the rows in Rust, or run the \
                         query on a target whose `{}` table has `{name}`",
                        m.name()
                    )),
                );
            }
        }
        Error::check_all(errors)
    }

    /// The output columns' names and engine types (where the target's rules know them),
    /// for `usage`.
    pub(crate) fn output_types(
        &self,
        rules: &dyn DialectRules,
        usage: Usage,
    ) -> Result<Vec<(Option<String>, Option<EngineType>)>> {
        let projected = self.projections(rules, usage)?;
        if projected.is_empty() {
            let scope = self.type_scope();
            return Ok(self
                .columns
                .iter()
                .map(|c| {
                    (
                        Some(c.name.clone()),
                        scope.column_type(Scope::Table, &c.name),
                    )
                })
                .collect());
        }
        Ok(projected
            .iter()
            .map(|p| (p.name().map(str::to_string), p.ty().cloned()))
            .collect())
    }

    /// Writes the query with `projected` (from [`Select::projections`]; empty for `*`):
    /// its filter, grouping and order checked by the target's rules.
    pub(crate) fn write_with(&self, w: &mut SqlWriter, projected: &[Projected]) -> Result<()> {
        self.write_ctes(w)?;
        self.write_select(w, projected)
    }

    /// [`SelectBody::write_with`] without the `WITH` clause of its CTEs.
    fn write_select<'s>(&'s self, w: &mut SqlWriter, projected: &[Projected]) -> Result<()> {
        let rules = w.rules();
        let scope = self.type_scope();
        let mut errors = Vec::new();
        let mut keep = |r: Result<Checked<'s>>| match r {
            Ok(c) => Some(c),
            Err(e) => {
                errors.extend(e.into_vec());
                None
            }
        };
        let filter = self
            .filter
            .as_ref()
            .and_then(|f| keep(rules.check_condition(&scope, f, "WHERE clause")));
        let group_by: Vec<Checked> = self
            .group_by
            .iter()
            .filter_map(|g| keep(rules.check_group_key(&scope, g)))
            .collect();
        let having = self
            .having
            .as_ref()
            .and_then(|h| keep(rules.check_condition(&scope, h, "HAVING clause")));
        let order_by: Vec<(Checked, Order)> = self
            .order_by
            .iter()
            .filter_map(|(o, dir)| keep(rules.check_sort_key(&scope, o)).map(|c| (c, *dir)))
            .collect();
        for j in &self.joins {
            let left = self.columns.iter().find(|c| c.name == j.left_key);
            let right = j.columns.iter().find(|c| c.name == j.right_key);
            if let (Some(l), Some(r)) = (left, right) {
                if let Err(e) = rules.check_join_keys((j.left_key, &l.ty), (j.right_key, &r.ty)) {
                    errors.push(e);
                }
            }
        }
        Error::check_all(errors)?;

        w.push("SELECT ");
        if self.distinct {
            w.push("DISTINCT ");
        }
        if projected.is_empty() {
            w.push_char('*');
        }
        w.try_comma_list(projected, |w, p| p.write(w))?;
        if projected.iter().any(|p| matches!(p, Projected::Json(_))) {
            w.mark_reads_json();
        }
        w.push(" FROM ");
        match &self.relation {
            Relation::Table(t) => {
                w.table_name(t);
            }
            Relation::Metadata(t, m) => rules.write_metadata_table(w, t, *m),
            Relation::Cte(n) => {
                w.ident(n);
            }
        }
        if let Some(s) = &self.as_of {
            rules.write_time_travel(w, s);
        }
        for j in &self.joins {
            w.push(match j.kind {
                JoinKind::Inner => " JOIN ",
                JoinKind::Left => " LEFT JOIN ",
            });
            w.table_name(&j.table);
            if j.left_key == j.right_key {
                w.push(" USING (").ident(j.left_key).push_char(')');
            } else {
                w.push(" ON ");
                match &self.relation {
                    Relation::Table(t) | Relation::Metadata(t, _) => w.table_name(t),
                    Relation::Cte(n) => w.ident(n),
                };
                w.push_char('.').ident(j.left_key).push(" = ");
                w.table_name(&j.table).push_char('.').ident(j.right_key);
            }
        }
        if let Some(f) = &filter {
            w.push(" WHERE ");
            f.write(w)?;
        }
        if !group_by.is_empty() {
            w.push(" GROUP BY ");
            w.try_comma_list(&group_by, |w, g| g.write(w))?;
        }
        if let Some(h) = &having {
            w.push(" HAVING ");
            h.write(w)?;
        }
        if !order_by.is_empty() {
            w.push(" ORDER BY ");
            w.try_comma_list(&order_by, |w, (o, dir)| {
                o.write(w)?;
                dir.write(w);
                Ok(())
            })?;
        }
        let offset_after_limit = w.rules().offset_after_limit();
        let offset = |w: &mut SqlWriter| {
            if let Some(n) = self.offset {
                w.push(" OFFSET ").push(&n.to_string());
            }
        };
        if !offset_after_limit {
            offset(w);
        }
        if let Some(n) = self.limit {
            w.rules().check_limit(n)?;
            w.push(" LIMIT ").push(&n.to_string());
        }
        if offset_after_limit {
            offset(w);
        }
        Ok(())
    }

    /// Writes the query for `usage` (checked by the writer's target rules).
    pub(crate) fn render_for(&self, w: &mut SqlWriter, usage: Usage) -> Result<()> {
        let projected = self.projections(w.rules(), usage)?;
        self.write_with(w, &projected)
    }

    /// The names of the projected columns, in order, where they are known (a column,
    /// an alias); `None` for an unnamed expression. Used to check CTAS partition order and the names of
    /// created relations.
    pub(crate) fn output_names(&self) -> Vec<Option<String>> {
        if self.items.is_empty() {
            return self.columns.iter().map(|c| Some(c.name.clone())).collect();
        }
        self.items
            .iter()
            .map(|i| match i {
                Item::Expr(_, Some(a)) => Some(a.clone()),
                Item::Expr(Expr::Column { name, .. }, None) => Some(name.to_string()),
                Item::Expr(..) => None,
                Item::Joined(_, n) | Item::Json(n) => Some(n.to_string()),
                Item::Name(n) | Item::Renamed(_, n) | Item::Nested(n) => Some(n.clone()),
            })
            .collect()
    }

    /// Why the output columns cannot be what `kind` writes (see [`OutputNames`]): an
    /// error per unnamed column where names are required, and per repeated name. `what`
    /// names the statement in the errors.
    pub(crate) fn check_output_names(&self, what: &str, kind: OutputNames) -> Vec<Error> {
        let names = self.output_names();
        let mut errors = Vec::new();
        for (i, n) in names.iter().enumerate() {
            match n {
                None if kind == OutputNames::Relation => errors.push(
                    Error::new(
                        ErrorKind::InvalidTable,
                        format!(
                            "{what}: output column {} has no name (Athena: \"Column name not specified at position {}\")",
                            i + 1,
                            i + 1
                        ),
                    )
                    .with_hint("give the expression a name with .expr_as(expr, \"column\")"),
                ),
                Some(n) if names[..i].iter().any(|m| m.as_deref() == Some(n.as_str())) => {
                    let message = match kind {
                        OutputNames::Relation => {
                            format!("{what}: Column name '{n}' specified more than once")
                        }
                        OutputNames::Files => format!(
                            "{what}: output column name '{n}' comes more than once; files whose schema repeats a name are not documented for UNLOAD, and what Athena writes then is unconfirmed"
                        ),
                    };
                    errors.push(
                        Error::new(ErrorKind::InvalidTable, message)
                            .with_hint("alias one of them to another name"),
                    );
                }
                None | Some(_) => {}
            }
        }
        errors
    }

    /// The output column types where known (plain columns), for CTAS checks.
    pub(crate) fn output_type(&self, name: &str) -> Option<IcebergType> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.ty.clone())
    }

    /// [`Select::build_for`].
    fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let mut w = SqlWriter::new(StatementKind::Select, dialect);
        self.render_for(&mut w, Usage::Read)?;
        w.finish()
    }
}

impl<S> Filter<S> for Select<S> {
    fn filter<C: IntoOperand<S, bool>>(mut self, cond: C) -> Self {
        self.body.filter = Expr::and_then(self.body.filter.take(), cond.into_operand());
        self
    }
}

impl TableName {
    /// `SELECT ... FROM` metadata table `R::TABLE` of this table: Athena
    /// `"db"."t$snapshots"`, Spark `db.t.snapshots`. Without a projection every column
    /// of `R` is listed, nested ones as JSON text, so rows decode with `R::from_row`.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::query::SnapshotRow;
    /// # #[derive(Debug)] struct McpEvent;
    /// # impl IcebergTable for McpEvent {
    /// #     fn table_def() -> &'static TableDef {
    /// #         static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
    /// #         T.get_or_init(|| TableDef::builder("analytics", "mcp_events")
    /// #             .column(Column::new("tool_name", IcebergType::String))
    /// #             .location("s3://my-datalake/iceberg/mcp_events/").build().unwrap())
    /// #     }
    /// #     fn to_values(&self) -> Vec<Value> { vec![] }
    /// # }
    /// assert_eq!(McpEvent::select().limit(1).build()?.sql(), "SELECT * FROM analytics.mcp_events LIMIT 1");
    /// let table = McpEvent::table_def();
    /// assert_eq!(table.name().metadata::<SnapshotRow>().build()?.sql(),
    ///     "SELECT committed_at, snapshot_id, parent_id, operation, manifest_list, \
    ///      CAST(summary AS JSON) AS summary FROM \"analytics\".\"mcp_events$snapshots\"");
    /// assert_eq!(table.optimize().build()?.sql(),
    ///     "OPTIMIZE analytics.mcp_events REWRITE DATA USING BIN_PACK");
    /// assert_eq!(table.vacuum().build()?.sql(), "VACUUM analytics.mcp_events");
    ///
    /// use iceberg_sql::query::Order;
    /// let t = TableName::new("analytics", "mcp_events");
    /// let q = t.metadata::<SnapshotRow>()
    ///     .column(SnapshotRow::SNAPSHOT_ID)
    ///     .column(SnapshotRow::COMMITTED_AT)
    ///     .order_by(SnapshotRow::COMMITTED_AT, Order::Desc)
    ///     .limit(20);
    /// assert_eq!(q.build()?.sql(),
    ///     "SELECT snapshot_id, committed_at FROM \"analytics\".\"mcp_events$snapshots\" \
    ///      ORDER BY committed_at DESC LIMIT 20");
    /// assert_eq!(q.build_for(Dialect::Spark)?.sql(),
    ///     "SELECT snapshot_id, committed_at FROM analytics.mcp_events.snapshots \
    ///      ORDER BY committed_at DESC LIMIT 20");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn metadata<R: MetadataRow>(&self) -> Select<R> {
        Select::metadata(self)
    }
}
