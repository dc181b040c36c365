//! `DESCRIBE`: a live table's columns and partitioning as the engine reports them.

use crate::dialect::Dialect;
use crate::error::Result;
use crate::model::TableName;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `DESCRIBE [FORMATTED] db.t` (never `DESCRIBE TABLE db.t`, which Athena reads as
/// a table named `table`: <https://docs.aws.amazon.com/athena/latest/ug/describe-table.html>).
///
/// On Athena each result row is one line of tab-separated text; joined with newlines
/// they are what [`evolve::parse_describe`](crate::evolve::parse_describe) reads into a
/// [`TableDef`](crate::TableDef) (with `formatted()`, including the location and the
/// table properties).
///
/// ```
/// use iceberg_sql::prelude::*;
/// let name = TableName::new("analytics", "mcp_events");
/// assert_eq!(name.describe().build()?.sql(), "DESCRIBE analytics.mcp_events");
/// assert_eq!(name.describe().formatted().build()?.sql(), "DESCRIBE FORMATTED analytics.mcp_events");
/// assert_eq!(TableName::new("analytics", "date").describe().build()?.sql(),
///            "DESCRIBE analytics.`date`");
/// assert_eq!(name.describe().build_for(Dialect::Spark)?.sql(), "DESCRIBE analytics.mcp_events");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Describe<'a> {
    name: &'a TableName,
    formatted: bool,
}

impl TableName {
    /// Starts a `DESCRIBE` of this table.
    pub fn describe(&self) -> Describe<'_> {
        Describe {
            name: self,
            formatted: false,
        }
    }
}

impl Describe<'_> {
    /// Adds `FORMATTED`: the location and table properties as well.
    pub fn formatted(mut self) -> Self {
        self.formatted = true;
        self
    }

    /// Checks the name, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks the name, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.name.check()?;
        let mut w = SqlWriter::new(StatementKind::Describe, dialect);
        w.push("DESCRIBE ");
        if self.formatted {
            w.rules().check_describe_formatted()?;
            w.push("FORMATTED ");
        }
        w.table_name(self.name);
        w.finish()
    }
}
