//! `DROP TABLE`.

use crate::dialect::Dialect;
use crate::error::Result;
use crate::model::{TableDef, TableName};
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `DROP TABLE [IF EXISTS]`. On Athena, dropping an Iceberg table also deletes
/// its data; Spark gets `PURGE` so that it does the same.
///
/// ```
/// use iceberg_sql::prelude::*;
/// let name = TableName::new("analytics", "mcp_events");
/// assert_eq!(DropTable::new(&name).if_exists().build()?.sql(),
///            "DROP TABLE IF EXISTS analytics.mcp_events");
/// assert_eq!(DropTable::new(&name).dialect(Dialect::Spark).build()?.sql(),
///            "DROP TABLE analytics.mcp_events PURGE");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct DropTable<'a> {
    name: &'a TableName,
    if_exists: bool,
    dialect: Dialect,
}

impl TableDef {
    /// Starts a `DROP TABLE` for this table.
    pub fn drop_table(&self) -> DropTable<'_> {
        DropTable::new(self.name())
    }
}

impl<'a> DropTable<'a> {
    /// `DROP TABLE name`.
    pub fn new(name: &'a TableName) -> Self {
        DropTable {
            name,
            if_exists: false,
            dialect: Dialect::Athena,
        }
    }

    /// Adds `IF EXISTS`.
    pub fn if_exists(mut self) -> Self {
        self.if_exists = true;
        self
    }

    /// Renders for `dialect` (default: Athena).
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// Checks the name, renders and validates the statement.
    pub fn build(&self) -> Result<Statement> {
        self.name.check()?;
        let mut w = SqlWriter::new(StatementKind::DropTable, self.dialect);
        w.push("DROP TABLE ");
        if self.if_exists {
            w.push("IF EXISTS ");
        }
        w.table_name(self.name);
        if self.dialect == Dialect::Spark {
            w.push(" PURGE");
        }
        w.finish()
    }
}
