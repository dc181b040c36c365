//! `SHOW CREATE TABLE`: how a live table's definition is read back.

use crate::dialect::Dialect;
use crate::error::Result;
use crate::model::TableName;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `SHOW CREATE TABLE db.t`. Its one-column result, joined with newlines, is
/// what `evolve::parse_show_create_table` reads into a live `TableDef`.
///
/// ```
/// use iceberg_sql::prelude::*;
/// let name = TableName::new("analytics", "mcp_events");
/// assert_eq!(name.show_create_table().build()?.sql(), "SHOW CREATE TABLE analytics.mcp_events");
/// assert_eq!(TableName::new("analytics", "table").show_create_table().build()?.sql(),
///            "SHOW CREATE TABLE analytics.`table`");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct ShowCreateTable<'a> {
    name: &'a TableName,
}

impl TableName {
    /// Starts a `SHOW CREATE TABLE` for this table.
    pub fn show_create_table(&self) -> ShowCreateTable<'_> {
        ShowCreateTable { name: self }
    }
}

impl ShowCreateTable<'_> {
    /// Checks the name, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks the name, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.name.check()?;
        let mut w = SqlWriter::new(StatementKind::ShowCreateTable, dialect);
        w.push("SHOW CREATE TABLE ").table_name(self.name);
        w.finish()
    }
}
