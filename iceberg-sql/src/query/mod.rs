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

use std::marker::PhantomData;

use chrono::{DateTime, Utc};

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{ColumnValue, Expr, IntoOperand, Scope};
use crate::ident::{check_name, NameRole};
use crate::model::{Column, TableName};
use crate::record::{IcebergTable, SqlType};
use crate::render::SqlWriter;
use crate::statement::{Filter, Statement, StatementKind};
use crate::types::IcebergType;
use crate::Col;

pub use metadata::{
    FileRow, HistoryRow, ManifestRow, MetadataRow, MetadataTable, PartitionRow, RefRow, SnapshotRow,
};

/// A point in a table's history to read (`FOR ... AS OF`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Snapshot {
    /// `FOR VERSION AS OF <snapshot id>` (from `$snapshots` / `$history`).
    Version(i64),
    /// `FOR TIMESTAMP AS OF TIMESTAMP '... UTC'`.
    Timestamp(DateTime<Utc>),
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// `ASC`
    Asc,
    /// `DESC`
    Desc,
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
#[derive(Debug)]
#[must_use]
pub struct Select<S> {
    relation: Relation,
    columns: Vec<Column>,
    json_columns: &'static [&'static str],
    items: Vec<Item>,
    filter: Option<Expr>,
    group_by: Vec<Expr>,
    order_by: Vec<(Expr, Order)>,
    limit: Option<u64>,
    as_of: Option<Snapshot>,
    joins: Vec<Join>,
    _scope: PhantomData<fn() -> S>,
}

impl<S> Clone for Select<S> {
    fn clone(&self) -> Self {
        Select {
            relation: self.relation.clone(),
            columns: self.columns.clone(),
            json_columns: self.json_columns,
            items: self.items.clone(),
            filter: self.filter.clone(),
            group_by: self.group_by.clone(),
            order_by: self.order_by.clone(),
            limit: self.limit,
            as_of: self.as_of,
            joins: self.joins.clone(),
            _scope: PhantomData,
        }
    }
}

impl<T: IcebergTable> Select<T> {
    /// `SELECT ... FROM` the record type's table ([`TableStatements::select`](crate::TableStatements::select)).
    pub(crate) fn table() -> Self {
        let def = T::table_def();
        Self::new(
            Relation::Table(def.name().clone()),
            def.columns().to_vec(),
            &[],
        )
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
        self.relation = Relation::Table(name);
        self
    }
}

impl<R: MetadataRow> Select<R> {
    /// `SELECT ... FROM` metadata table `R::TABLE` of `table`
    /// ([`TableName::metadata`]).
    pub(crate) fn metadata(table: &TableName) -> Self {
        Self::new(
            Relation::Metadata(table.clone(), R::TABLE),
            R::columns(),
            R::json_columns(),
        )
    }
}

fn scope_err(what: &str) -> Error {
    Error::new(
        ErrorKind::InvalidTable,
        format!("{what}: MERGE source/target columns cannot appear in a SELECT"),
    )
}

impl<S> Select<S> {
    fn new(relation: Relation, columns: Vec<Column>, json: &'static [&'static str]) -> Self {
        Select {
            relation,
            columns,
            json_columns: json,
            items: Vec::new(),
            filter: None,
            group_by: Vec::new(),
            order_by: Vec::new(),
            limit: None,
            as_of: None,
            joins: Vec::new(),
            _scope: PhantomData,
        }
    }

    /// Projects a column.
    pub fn column<V: ColumnValue>(mut self, column: Col<S, V>) -> Self {
        self.items
            .push(Item::Expr(Expr::column(column.name()), None));
        self
    }

    /// Projects an expression (a column, an aggregate, a literal ...).
    pub fn expr<V, E: IntoOperand<S, V>>(mut self, expr: E) -> Self {
        self.items.push(Item::Expr(expr.into_operand(), None));
        self
    }

    /// Projects an expression `AS alias`.
    pub fn expr_as<V, E: IntoOperand<S, V>>(mut self, expr: E, alias: &str) -> Self {
        self.items
            .push(Item::Expr(expr.into_operand(), Some(alias.to_string())));
        self
    }

    /// Projects a typed constant `AS alias` (e.g. the day a summary row is for).
    pub fn value_as<V: SqlType>(mut self, value: V, alias: &str) -> Self {
        self.items.push(Item::Expr(
            Expr::literal(value.to_value(), V::iceberg_type()),
            Some(alias.to_string()),
        ));
        self
    }

    /// Adds a `GROUP BY` expression.
    pub fn group_by<V, E: IntoOperand<S, V>>(mut self, expr: E) -> Self {
        self.group_by.push(expr.into_operand());
        self
    }

    /// Adds an `ORDER BY` expression.
    pub fn order_by<V, E: IntoOperand<S, V>>(mut self, expr: E, order: Order) -> Self {
        self.order_by.push((expr.into_operand(), order));
        self
    }

    /// `LIMIT n`.
    pub fn limit(mut self, n: u64) -> Self {
        self.limit = Some(n);
        self
    }

    /// Reads the table as of `snapshot` (`FOR VERSION|TIMESTAMP AS OF`). Not for
    /// metadata tables.
    pub fn as_of(mut self, snapshot: Snapshot) -> Self {
        self.as_of = Some(snapshot);
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
        self.joins.push(Join {
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
        let i = self.joins.len().wrapping_sub(1);
        self.items.push(Item::Joined(i, column.name()));
        self
    }

    fn check(&self) -> Result<()> {
        let mut errors = Vec::new();
        let known = |name: &str| self.columns.iter().any(|c| c.name == name);
        let joined = |name: &str| {
            self.joins
                .iter()
                .filter(|j| j.columns.iter().any(|c| c.name == name))
                .count()
        };
        let shown = match &self.relation {
            Relation::Table(t) => t.to_string(),
            Relation::Metadata(t, m) => format!("{t}${}", m.name()),
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
        // Every plain projection must be grouped when the query aggregates.
        let aggregates = self
            .items
            .iter()
            .any(|i| matches!(i, Item::Expr(e, _) if e.contains_aggregate()));
        if aggregates || !self.group_by.is_empty() {
            for item in &self.items {
                let ungrouped = match item {
                    Item::Expr(e, _) => {
                        !e.contains_aggregate()
                            && !e.columns().is_empty()
                            && !self.group_by.contains(e)
                    }
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
        let (Relation::Table(t) | Relation::Metadata(t, _)) = &self.relation;
        if let Err(e) = t.check() {
            errors.extend(e.into_vec());
        }
        Error::check_all(errors)
    }

    /// Writes the query (checked) into `w`; used by CTAS, UNLOAD and INSERT ... SELECT,
    /// where nested columns keep their types.
    pub(crate) fn render_into(&self, w: &mut SqlWriter) -> Result<()> {
        self.render_query(w, false)
    }

    /// Writes the query; with `for_reading` (a SELECT whose rows come back to us),
    /// nested table columns are read as JSON text where the target needs that to decode
    /// them exactly.
    fn render_query(&self, w: &mut SqlWriter, for_reading: bool) -> Result<()> {
        self.check()?;
        let rules = w.rules();
        let json_nested = for_reading && rules.nested_columns_as_json();
        w.push("SELECT ");
        let json_items: Vec<Item>;
        let metadata = match &self.relation {
            Relation::Metadata(_, m) => Some(*m),
            Relation::Table(_) => None,
        };
        let renamed = |column: &str| metadata.and_then(|m| rules.metadata_column(m, column));
        let any_renamed = self.columns.iter().any(|c| renamed(&c.name).is_some());
        // List a table's columns so that nested ones can be read as JSON.
        let nested_default =
            json_nested && metadata.is_none() && self.columns.iter().any(|c| !c.ty.is_primitive());
        let items = if self.items.is_empty() && nested_default {
            json_items = self
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
            &json_items
        } else if self.items.is_empty() && (!self.json_columns.is_empty() || any_renamed) {
            json_items = self
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
            &json_items
        } else {
            &self.items
        };
        if items.is_empty() {
            w.push_char('*');
        }
        w.try_comma_list(items, |w, item| {
            match item {
                Item::Expr(e, alias) => {
                    e.render(w)?;
                    if let Some(a) = alias {
                        w.push(" AS ").ident(a);
                    }
                }
                Item::Joined(_, name) => {
                    w.ident(name);
                }
                Item::Name(name) => {
                    w.ident(name);
                }
                Item::Renamed(expr, name) => {
                    w.push(expr).push(" AS ").ident(name);
                }
                // Only listed when the target reads nested values as JSON.
                Item::Nested(name) => {
                    rules.write_to_json(w, &mut |w| {
                        w.ident(name);
                        Ok(())
                    })?;
                    w.push(" AS ").ident(name);
                }
                Item::Json(name) => {
                    rules.write_to_json(w, &mut |w| {
                        w.ident(name);
                        Ok(())
                    })?;
                    w.push(" AS ").ident(name);
                }
            }
            Ok(())
        })?;
        w.push(" FROM ");
        match &self.relation {
            Relation::Table(t) => {
                w.table_name(t);
            }
            Relation::Metadata(t, m) => rules.write_metadata_table(w, t, *m),
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
                let (Relation::Table(t) | Relation::Metadata(t, _)) = &self.relation;
                w.table_name(t);
                w.push_char('.').ident(j.left_key).push(" = ");
                w.table_name(&j.table).push_char('.').ident(j.right_key);
            }
        }
        if let Some(f) = &self.filter {
            w.push(" WHERE ");
            f.render(w)?;
        }
        if !self.group_by.is_empty() {
            w.push(" GROUP BY ");
            w.try_comma_list(&self.group_by, |w, g| g.render(w))?;
        }
        if !self.order_by.is_empty() {
            w.push(" ORDER BY ");
            w.try_comma_list(&self.order_by, |w, (o, dir)| {
                o.render(w)?;
                w.push(match dir {
                    Order::Asc => " ASC",
                    Order::Desc => " DESC",
                });
                Ok(())
            })?;
        }
        if let Some(n) = self.limit {
            w.push(" LIMIT ").push(&n.to_string());
        }
        Ok(())
    }

    /// The names of the projected columns, in order, where they are known (a column,
    /// an alias); `None` for an unnamed expression. Used to check CTAS partition order.
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

    /// The output column types where known (plain columns), for CTAS checks.
    pub(crate) fn output_type(&self, name: &str) -> Option<IcebergType> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.ty.clone())
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let mut w = SqlWriter::new(StatementKind::Select, dialect);
        self.render_query(&mut w, true)?;
        w.finish()
    }
}

impl<S> Filter<S> for Select<S> {
    fn filter<C: IntoOperand<S, bool>>(mut self, cond: C) -> Self {
        self.filter = Expr::and_then(self.filter.take(), cond.into_operand());
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
