//! `DROP TABLE`.

use crate::dialect::Dialect;
use crate::error::Result;
use crate::model::TableName;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `DROP TABLE [IF EXISTS]`. On Athena, dropping an Iceberg table also deletes
/// its data; Spark gets `PURGE` so that it does the same.
///
/// ```
/// use iceberg_sql::prelude::*;
/// let name = TableName::new("analytics", "mcp_events");
/// assert_eq!(name.drop_table().if_exists().build()?.sql(),
///            "DROP TABLE IF EXISTS analytics.mcp_events");
/// assert_eq!(name.drop_table().build_for(Dialect::Spark)?.sql(),
///            "DROP TABLE analytics.mcp_events PURGE");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct DropTable<'a> {
    name: &'a TableName,
    if_exists: bool,
}

impl TableName {
    /// Starts a `DROP TABLE` for this table.
    pub fn drop_table(&self) -> DropTable<'_> {
        DropTable {
            name: self,
            if_exists: false,
        }
    }
}

impl DropTable<'_> {
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
        let mut w = SqlWriter::new(StatementKind::DropTable, dialect);
        w.push("DROP TABLE ");
        if self.if_exists {
            w.push("IF EXISTS ");
        }
        w.table_name(self.name);
        if w.rules().drop_table_purges() {
            w.push(" PURGE");
        }
        w.finish()
    }
}
