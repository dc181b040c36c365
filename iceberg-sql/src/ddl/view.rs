//! Views: `CREATE [OR REPLACE] VIEW … AS SELECT` and `DROP VIEW`.
//!
//! Athena's views are Trino views: the statements are Trino text with double-quoted
//! names (<https://docs.aws.amazon.com/athena/latest/ug/create-view.html>,
//! <https://docs.aws.amazon.com/athena/latest/ug/drop-view.html>), and Trino writes them
//! the same way. On Spark they are views of the Iceberg catalog. Athena on S3 Tables has
//! no views; its target refuses both statements.

use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::model::TableName;
use crate::query::{OutputNames, Select, SelectBody, Usage};
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `CREATE [OR REPLACE] VIEW db.v AS SELECT …` from a SELECT builder.
///
/// The query is written as it is, nested columns with their own types (not read as
/// JSON, which a SELECT whose rows come back to us does), so the view has the columns
/// and types of the query. A view cannot hold `?` parameters; a query with
/// [`dsl::param`](crate::dsl::param) is refused, and so is one with an unnamed or a
/// repeated output column (the engines refuse both in a view).
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::dsl::count_all;
/// # #[derive(Debug)] struct McpEvent;
/// # impl McpEvent { const TOOL_NAME: Col<McpEvent, String> = Col::new("tool_name"); }
/// # impl IcebergTable for McpEvent {
/// #     fn table_def() -> &'static TableDef {
/// #         static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
/// #         T.get_or_init(|| TableDef::builder("analytics", "mcp_events")
/// #             .column(Column::new("tool_name", IcebergType::String))
/// #             .location("s3://my-datalake/iceberg/mcp_events/").build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { vec![] }
/// # }
/// let per_tool = McpEvent::select()
///     .column(McpEvent::TOOL_NAME)
///     .expr_as(count_all(), "calls")
///     .group_by(McpEvent::TOOL_NAME);
/// let view = TableName::new("analytics", "calls_per_tool");
/// assert_eq!(view.create_view(&per_tool).or_replace().build()?.sql(),
///     "CREATE OR REPLACE VIEW analytics.calls_per_tool AS\n\
///      SELECT tool_name, count(*) AS calls FROM analytics.mcp_events GROUP BY tool_name");
/// assert_eq!(TableName::new("analytics", "first").create_view(&per_tool).build()?.sql(),
///     "CREATE VIEW analytics.\"first\" AS\n\
///      SELECT tool_name, count(*) AS calls FROM analytics.mcp_events GROUP BY tool_name");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct CreateView<'a> {
    name: &'a TableName,
    query: &'a SelectBody,
    or_replace: bool,
}

/// Builds `DROP VIEW [IF EXISTS] db.v`.
///
/// ```
/// use iceberg_sql::prelude::*;
/// let view = TableName::new("analytics", "calls_per_tool");
/// assert_eq!(view.drop_view().if_exists().build()?.sql(),
///            "DROP VIEW IF EXISTS analytics.calls_per_tool");
/// assert_eq!(view.drop_view().build_for(Dialect::Spark)?.sql(),
///            "DROP VIEW analytics.calls_per_tool");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct DropView<'a> {
    name: &'a TableName,
    if_exists: bool,
}

impl TableName {
    /// Starts a `CREATE VIEW` named by this name, defined by `query`.
    pub fn create_view<'a, S>(&'a self, query: &'a Select<S>) -> CreateView<'a> {
        CreateView {
            name: self,
            query: query.body(),
            or_replace: false,
        }
    }

    /// Starts a `DROP VIEW` of the view with this name.
    pub fn drop_view(&self) -> DropView<'_> {
        DropView {
            name: self,
            if_exists: false,
        }
    }
}

impl CreateView<'_> {
    /// Adds `OR REPLACE`: an existing view gets the new definition.
    pub fn or_replace(mut self) -> Self {
        self.or_replace = true;
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.name.check()?;
        let mut w = SqlWriter::new(StatementKind::CreateView, dialect);
        w.rules().check_view_statement(StatementKind::CreateView)?;
        Error::check_all(
            self.query
                .check_output_names("a view", OutputNames::Relation),
        )?;
        w.push("CREATE ");
        if self.or_replace {
            w.push("OR REPLACE ");
        }
        w.push("VIEW ").table_name(self.name).push(" AS\n");
        // A view keeps its columns' types: no read-side conversions.
        self.query.render_for(&mut w, Usage::Rows)?;
        w.finish()
    }
}

impl DropView<'_> {
    /// Adds `IF EXISTS`.
    pub fn if_exists(mut self) -> Self {
        self.if_exists = true;
        self
    }

    /// Checks the name, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks the name, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.name.check()?;
        let mut w = SqlWriter::new(StatementKind::DropView, dialect);
        w.rules().check_view_statement(StatementKind::DropView)?;
        w.push("DROP VIEW ");
        if self.if_exists {
            w.push("IF EXISTS ");
        }
        w.table_name(self.name);
        w.finish()
    }
}
