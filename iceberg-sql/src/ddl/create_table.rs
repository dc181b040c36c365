//! `CREATE TABLE` for an Iceberg table.

use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::model::TableDef;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `CREATE TABLE` for a [`TableDef`].
///
/// Athena gets Hive DDL (backticks, Hive type names, `bucket(16, col)`, `LOCATION`,
/// `'table_type'='ICEBERG'`); Spark gets `USING iceberg`, `timestamp_ntz`, plural time
/// transforms (`days(ts)`) and Iceberg's own property names.
///
/// ```
/// use iceberg_sql::prelude::*;
/// let table = TableDef::builder("analytics", "events")
///     .column(Column::new("id", IcebergType::Long).required())
///     .column(Column::new("ts", IcebergType::Timestamp))
///     .partition(PartitionField::new("ts", PartitionTransform::Day))
///     .partition(PartitionField::new("id", PartitionTransform::Bucket(16)))
///     .location("s3://lake/events/")
///     .build()?;
/// assert_eq!(
///     table.create_table().build()?.sql(),
///     "CREATE TABLE analytics.events (\n  id bigint,\n  ts timestamp\n)\n\
///      PARTITIONED BY (day(ts), bucket(16, id))\n\
///      LOCATION 's3://lake/events/'\n\
///      TBLPROPERTIES (\n  'table_type'='ICEBERG'\n)"
/// );
/// assert_eq!(
///     table.create_table().build_for(Dialect::Spark)?.sql(),
///     "CREATE TABLE analytics.events (\n  id bigint NOT NULL,\n  ts timestamp_ntz\n)\n\
///      USING iceberg\n\
///      PARTITIONED BY (days(ts), bucket(16, id))\n\
///      LOCATION 's3://lake/events/'\n\
///      TBLPROPERTIES (\n  'format-version'='2'\n)"
/// );
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct CreateTable<'a> {
    table: &'a TableDef,
    if_not_exists: bool,
}

impl TableDef {
    /// Starts a `CREATE TABLE` for this table.
    pub fn create_table(&self) -> CreateTable<'_> {
        CreateTable {
            table: self,
            if_not_exists: false,
        }
    }
}

impl<'a> CreateTable<'a> {
    /// Adds `IF NOT EXISTS`.
    pub fn if_not_exists(mut self) -> Self {
        self.if_not_exists = true;
        self
    }

    /// Checks the table, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks the table, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let t = self.table;
        let rules = dialect.rules();
        let mut errors = t.check().err().map(Error::into_vec).unwrap_or_default();
        errors.extend(t.check_new_partition_names());
        rules.check_create_table(t, &mut errors);
        Error::check_all(errors)?;

        let mut w = SqlWriter::new(StatementKind::CreateTable, dialect);
        w.push("CREATE TABLE ");
        if self.if_not_exists {
            w.push("IF NOT EXISTS ");
        }
        w.table_name(t.name()).push(" (\n  ");
        w.list(t.columns(), ",\n  ", |w, c| {
            w.ident(&c.name).push_char(' ').ty(&c.ty);
            if rules.declares_not_null() && !c.nullable {
                w.push(" NOT NULL");
            }
            if let Some(comment) = &c.comment {
                w.push(" COMMENT ");
                w.ddl_string(&format!("comment of column `{}`", c.name), comment)?;
            }
            Ok(())
        })?;
        w.push("\n)");
        rules.write_table_clauses(&mut w, t)?;
        w.finish()
    }
}
