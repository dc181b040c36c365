//! `CREATE TABLE` for an Iceberg table.

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{FileFormat, PartitionField, PartitionTransform, TableDef, TableProperty};
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
///     table.create_table().dialect(Dialect::Spark).build()?.sql(),
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
    dialect: Dialect,
}

impl TableDef {
    /// Starts a `CREATE TABLE` for this table.
    pub fn create_table(&self) -> CreateTable<'_> {
        CreateTable {
            table: self,
            if_not_exists: false,
            dialect: Dialect::Athena,
        }
    }
}

impl<'a> CreateTable<'a> {
    /// Adds `IF NOT EXISTS`.
    pub fn if_not_exists(mut self) -> Self {
        self.if_not_exists = true;
        self
    }

    /// Renders for `dialect` (default: Athena).
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// Checks the table, renders and validates the statement.
    pub fn build(&self) -> Result<Statement> {
        let t = self.table;
        let mut errors = t.check().err().map(Error::into_vec).unwrap_or_default();
        if self.dialect == Dialect::Athena {
            for c in t.columns() {
                if let Err(e) = c.ty.check_declarable(&c.name) {
                    if e.kind() == ErrorKind::InvalidType && !errors.contains(&e) {
                        errors.push(e);
                    }
                }
            }
            if t.location().is_none() {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidLocation,
                        format!(
                            "table `{}` has no location; Athena's CREATE TABLE requires one",
                            t.name()
                        ),
                    )
                    .with_hint(
                        "set an S3 folder, e.g. .location(\"s3://my-bucket/iceberg/my_table/\")",
                    ),
                );
            }
        }
        Error::check_all(errors)?;

        let mut w = SqlWriter::new(StatementKind::CreateTable, self.dialect);
        w.push("CREATE TABLE ");
        if self.if_not_exists {
            w.push("IF NOT EXISTS ");
        }
        w.table_name(t.name()).push(" (");
        for (i, c) in t.columns().iter().enumerate() {
            w.push(if i == 0 { "\n  " } else { ",\n  " });
            w.ident(&c.name).push_char(' ').ty(&c.ty);
            if self.dialect == Dialect::Spark && !c.nullable {
                w.push(" NOT NULL");
            }
            if let Some(comment) = &c.comment {
                w.push(" COMMENT ");
                w.ddl_string(&format!("comment of column `{}`", c.name), comment)?;
            }
        }
        w.push("\n)");
        if self.dialect == Dialect::Spark {
            w.push("\nUSING iceberg");
        }
        if !t.partition_spec().is_empty() {
            w.push("\nPARTITIONED BY (");
            for (i, p) in t.partition_spec().iter().enumerate() {
                if i > 0 {
                    w.push(", ");
                }
                write_partition_field(&mut w, p);
            }
            w.push_char(')');
        }
        if self.dialect == Dialect::Spark {
            if let Some(comment) = t.comment() {
                w.push("\nCOMMENT ");
                w.ddl_string("table comment", comment)?;
            }
        }
        if let Some(loc) = t.location() {
            w.push("\nLOCATION ");
            w.ddl_string("location", loc.as_str())?;
        }
        w.push("\nTBLPROPERTIES (");
        let props = match self.dialect {
            Dialect::Athena => athena_properties(t),
            Dialect::Spark => spark_properties(t),
        };
        for (i, (k, v)) in props.iter().enumerate() {
            w.push(if i == 0 { "\n  " } else { ",\n  " });
            w.ddl_string("property key", k)?.push_char('=');
            w.ddl_string("property value", v)?;
        }
        w.push("\n)");
        w.finish()
    }
}

/// Athena DDL `day(ts)` / Spark `days(ts)`; `bucket(N, col)` and `truncate(W, col)` in
/// both (number first: this is DDL, not CTAS).
pub(crate) fn write_partition_field(w: &mut SqlWriter, p: &PartitionField) {
    let spark = w.dialect() == Dialect::Spark;
    let name = match p.transform {
        PartitionTransform::Identity => {
            w.ident(&p.source);
            return;
        }
        PartitionTransform::Year if spark => "years",
        PartitionTransform::Month if spark => "months",
        PartitionTransform::Day if spark => "days",
        PartitionTransform::Hour if spark => "hours",
        t => t.name(),
    };
    w.push(name).push_char('(');
    if let PartitionTransform::Bucket(n) | PartitionTransform::Truncate(n) = p.transform {
        w.push(&n.to_string()).push(", ");
    }
    w.ident(&p.source).push_char(')');
}

/// `'table_type'='ICEBERG'` first, then the typed properties under Athena's names.
fn athena_properties(t: &TableDef) -> Vec<(String, String)> {
    let mut v = vec![("table_type".to_string(), "ICEBERG".to_string())];
    v.extend(
        t.properties()
            .iter()
            .map(|p| (p.key().to_string(), p.value())),
    );
    v
}

/// Iceberg's own property names where Athena's have an equivalent; Athena-only keys
/// (optimize thresholds, write_data_path_enabled) are kept under their Athena name so
/// that Athena sees them if it later reads the table.
fn spark_properties(t: &TableDef) -> Vec<(String, String)> {
    let mut v = vec![("format-version".to_string(), "2".to_string())];
    let format = t.properties().format();
    for p in t.properties().iter() {
        v.push(spark_property(p, format));
    }
    v
}

/// One property under its Spark/Iceberg name and value (`format` is the table's file
/// format, which names the compression key). Shared with ALTER TABLE.
pub(crate) fn spark_property(p: &TableProperty, format: FileFormat) -> (String, String) {
    match *p {
        TableProperty::Format(f) => ("write.format.default".to_string(), f.as_str().to_string()),
        TableProperty::WriteCompression(c) => {
            let codec = match (format, c) {
                (FileFormat::Parquet | FileFormat::Avro, crate::model::Compression::None) => {
                    "uncompressed"
                }
                _ => c.as_str(),
            };
            (
                format!("write.{}.compression-codec", format.as_str()),
                codec.to_string(),
            )
        }
        TableProperty::VacuumMinSnapshotsToKeep(n) => (
            "history.expire.min-snapshots-to-keep".to_string(),
            n.to_string(),
        ),
        TableProperty::VacuumMaxSnapshotAgeSeconds(s) => (
            "history.expire.max-snapshot-age-ms".to_string(),
            s.saturating_mul(1000).to_string(),
        ),
        TableProperty::VacuumMaxMetadataFilesToKeep(n) => (
            "write.metadata.previous-versions-max".to_string(),
            n.to_string(),
        ),
        _ => (p.key().to_string(), p.value()),
    }
}
