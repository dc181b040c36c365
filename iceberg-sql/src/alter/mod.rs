//! `ALTER TABLE` for Iceberg tables: add, drop, rename and widen columns, set and unset
//! table properties (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-evolving-table-schema.html>).
//!
//! Every operation is one statement (Athena drops one column per statement and runs one
//! statement per API call). The two dialects differ where the engines do:
//!
//! | operation | Athena (Hive DDL) | Spark (Iceberg extensions) |
//! |---|---|---|
//! | rename | `CHANGE COLUMN old new <current type>` | `RENAME COLUMN old TO new` |
//! | widen | `CHANGE COLUMN c c bigint` | `ALTER COLUMN c TYPE bigint` |
//! | properties | Athena keys | Iceberg keys (`write.format.default`, ...) |
//! | partition evolution | not supported: an error naming the CTAS rebuild | not generated (same error) |
//!
//! Trino writes partition evolution as `SET PROPERTIES partitioning = ARRAY[…]`, the
//! whole new spec.
//!
//! Only Iceberg's legal promotions are accepted: `int -> bigint`, `float -> double`, and
//! `decimal(P,S) -> decimal(P',S)` with `P' > P`.

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::ident::{check_name, NameRole};
use crate::model::{
    Column, FileFormat, PartitionChange, PartitionField, PartitionTransform, TableDef, TableName,
    TableProperties, TableProperty,
};
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};
use crate::types::IcebergType;

/// Whether Iceberg (and so Athena's `CHANGE COLUMN`) can change a column of type `from`
/// to type `to` in place: `int -> long`, `float -> double`, or a decimal with the same
/// scale and a larger precision. The same type is not a promotion.
///
/// ```
/// use iceberg_sql::alter::is_legal_promotion;
/// use iceberg_sql::IcebergType as T;
/// assert!(is_legal_promotion(&T::Int, &T::Long));
/// assert!(is_legal_promotion(&T::decimal(10, 2), &T::decimal(12, 2)));
/// assert!(!is_legal_promotion(&T::Long, &T::Int));
/// assert!(!is_legal_promotion(&T::decimal(10, 2), &T::decimal(12, 3)));
/// ```
pub fn is_legal_promotion(from: &IcebergType, to: &IcebergType) -> bool {
    use IcebergType as T;
    match (from, to) {
        (T::Int, T::Long) | (T::Float, T::Double) => true,
        (
            T::Decimal {
                precision: p1,
                scale: s1,
            },
            T::Decimal {
                precision: p2,
                scale: s2,
            },
        ) => s1 == s2 && p2 > p1,
        _ => false,
    }
}

/// The error for a type change Iceberg cannot make in place, with the way out.
pub(crate) fn illegal_type_change(
    table: &TableName,
    column: &str,
    from: &IcebergType,
    to: &IcebergType,
) -> Error {
    let why = match (from, to) {
        (IcebergType::Decimal { scale: s1, .. }, IcebergType::Decimal { scale: s2, .. })
            if s1 != s2 =>
        {
            "a decimal's scale can never change".to_string()
        }
        (
            IcebergType::Decimal { precision: p1, .. },
            IcebergType::Decimal { precision: p2, .. },
        ) if p2 < p1 => "a decimal's precision can only grow".to_string(),
        (IcebergType::Long, IcebergType::Int) | (IcebergType::Double, IcebergType::Float) => {
            "that is narrowing; only widening is allowed".to_string()
        }
        _ => "it is not one of Iceberg's promotions".to_string(),
    };
    Error::new(
        ErrorKind::InvalidType,
        format!(
            "column `{column}` of `{table}` cannot change from {} to {} in place: {why} \
             (Athena allows only int -> bigint, float -> double, and decimal(P,S) -> decimal(P',S) with P' > P)",
            from.iceberg_name(),
            to.iceberg_name()
        ),
    )
    .with_hint(format!(
        "add a new column of the new type, copy with UPDATE {table} SET new = CAST({column} AS ...), \
         drop `{column}` and rename the new column (four statements, not atomic); \
         or rebuild the table with CTAS into a new table and rename it"
    ))
}

/// One `ALTER TABLE` operation with everything it needs to render resolved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum AlterOp {
    AddColumns(Vec<Column>),
    DropColumn(String),
    Rename {
        from: String,
        to: String,
        ty: IcebergType,
    },
    Widen {
        column: String,
        to: IcebergType,
    },
    SetProperties {
        properties: TableProperties,
        format: FileFormat,
    },
    UnsetProperties {
        keys: Vec<&'static str>,
        format: FileFormat,
    },
    /// A partition field added, dropped or replaced, with the whole spec after the change.
    Partitioning(PartitionChange, Vec<PartitionField>),
    RenameTable(TableName),
}

/// Renders and validates one operation on `table`.
pub(crate) fn render(table: &TableName, op: &AlterOp, dialect: Dialect) -> Result<Statement> {
    table.check()?;
    let rules = dialect.rules();
    let mut w = SqlWriter::new(StatementKind::AlterTable, dialect);
    w.push("ALTER TABLE ").table_name(table).push_char(' ');
    match op {
        AlterOp::AddColumns(cols) => {
            rules.check_added_columns(cols)?;
            rules.write_add_columns(&mut w, cols)?;
        }
        AlterOp::DropColumn(c) => {
            w.push("DROP COLUMN ").ident(c);
        }
        AlterOp::Rename { from, to, ty } => rules.write_rename_column(&mut w, from, to, ty),
        AlterOp::Widen { column, to } => rules.write_widen_column(&mut w, column, to),
        AlterOp::SetProperties { properties, format } => {
            properties.check()?;
            if properties.is_empty() {
                return Err(Error::new(
                    ErrorKind::InvalidProperty,
                    "SET TBLPROPERTIES needs at least one property",
                ));
            }
            rules.write_set_properties(&mut w, properties, *format)?;
        }
        AlterOp::UnsetProperties { keys, format } => {
            if keys.is_empty() {
                return Err(Error::new(
                    ErrorKind::InvalidProperty,
                    "UNSET TBLPROPERTIES needs at least one property",
                ));
            }
            rules.write_unset_properties(&mut w, keys, *format)?;
        }
        AlterOp::RenameTable(to) => {
            to.check()?;
            w.push("RENAME TO ").table_name(to);
        }
        AlterOp::Partitioning(change, spec) => {
            if !rules.write_partition_spec_change(&mut w, change, spec)? {
                return Err(partition_evolution_unsupported(table, change, dialect));
            }
        }
    }
    w.finish()
}

/// Every property key Athena accepts (from the typed properties, so the list cannot
/// drift from [`TableProperty`]).
pub(crate) fn property_keys() -> Vec<&'static str> {
    use crate::model::Compression;
    [
        TableProperty::Format(FileFormat::Parquet),
        TableProperty::WriteCompression(Compression::Zstd),
        TableProperty::OptimizeRewriteDataFileThreshold(1),
        TableProperty::OptimizeRewriteDeleteFileThreshold(1),
        TableProperty::VacuumMinSnapshotsToKeep(1),
        TableProperty::VacuumMaxSnapshotAgeSeconds(1),
        TableProperty::VacuumMaxMetadataFilesToKeep(1),
        TableProperty::WriteDataPathEnabled(false),
    ]
    .iter()
    .map(|p| p.key())
    .collect()
}

/// Partition evolution is refused: Athena has none; Spark has it (`ADD/DROP PARTITION
/// FIELD`), but it is not among the statements this crate generates (the validator
/// refuses it). The error says what to do instead.
pub(crate) fn partition_evolution_unsupported(
    table: &TableName,
    change: &PartitionChange,
    dialect: Dialect,
) -> Error {
    let (verb, field) = change.verb_and_field();
    let message = dialect
        .rules()
        .partition_evolution_refusal(table, verb, field);
    Error::new(ErrorKind::Unsupported, message).with_hint(format!(
        "rebuild the table with the new spec: CTAS `CREATE TABLE {table}_v2 WITH (table_type = 'ICEBERG', \
         is_external = false, location = '...', partitioning = ARRAY[...]) AS SELECT * FROM {table}` \
         (iceberg_sql::ctas::IcebergCtas), then DROP the old table and ALTER TABLE {table}_v2 RENAME TO {t}; \
         or build this change for Dialect::Spark (Iceberg's SQL extensions) or Dialect::Trino and run it there",
        t = table.table
    ))
}

/// Builds one `ALTER TABLE` statement for a [`TableDef`] (the live table: renames and
/// checks use its current columns and types).
///
/// ```
/// use iceberg_sql::prelude::*;
/// let t = TableDef::builder("analytics", "mcp_events")
///     .column(Column::new("payload", IcebergType::String))
///     .column(Column::new("retry_count", IcebergType::Int))
///     .location("s3://my-datalake/iceberg/mcp_events/")
///     .build()?;
/// assert_eq!(
///     t.alter().rename_column("payload", "tool_payload").build()?.sql(),
///     "ALTER TABLE analytics.mcp_events CHANGE COLUMN payload tool_payload string"
/// );
/// assert_eq!(
///     t.alter().rename_column("payload", "tool_payload").build_for(Dialect::Spark)?.sql(),
///     "ALTER TABLE analytics.mcp_events RENAME COLUMN payload TO tool_payload"
/// );
/// assert_eq!(
///     t.alter().widen_column("retry_count", IcebergType::Long).build()?.sql(),
///     "ALTER TABLE analytics.mcp_events CHANGE COLUMN retry_count retry_count bigint"
/// );
/// assert_eq!(
///     t.alter().widen_column("retry_count", IcebergType::Long).build_for(Dialect::Spark)?.sql(),
///     "ALTER TABLE analytics.mcp_events ALTER COLUMN retry_count TYPE bigint"
/// );
/// assert_eq!(
///     t.alter().add_columns([Column::new("error_code", IcebergType::String)]).build()?.sql(),
///     "ALTER TABLE analytics.mcp_events ADD COLUMNS (error_code string)"
/// );
/// assert_eq!(
///     t.alter().drop_column("payload").build()?.sql(),
///     "ALTER TABLE analytics.mcp_events DROP COLUMN payload"
/// );
/// assert_eq!(
///     t.alter().set_property(TableProperty::VacuumMaxSnapshotAgeSeconds(604800)).build()?.sql(),
///     "ALTER TABLE analytics.mcp_events SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='604800')"
/// );
/// assert_eq!(
///     t.alter().unset_properties(["vacuum_min_snapshots_to_keep"]).build()?.sql(),
///     "ALTER TABLE analytics.mcp_events UNSET TBLPROPERTIES ('vacuum_min_snapshots_to_keep')"
/// );
/// // Widening the wrong way is refused with the way out.
/// let err = t.alter().widen_column("retry_count", IcebergType::String).build().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidType);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct AlterTableBuilder<'a> {
    table: &'a TableDef,
}

/// One `ALTER TABLE` operation, ready to render for a dialect (see [`AlterTableBuilder`]).
#[derive(Debug, Clone)]
#[must_use]
pub struct AlterTable<'a> {
    table: &'a TableDef,
    op: std::result::Result<AlterOp, Error>,
}

impl TableDef {
    /// Starts an `ALTER TABLE` on this (live) table.
    pub fn alter(&self) -> AlterTableBuilder<'_> {
        AlterTableBuilder { table: self }
    }
}

impl<'a> AlterTableBuilder<'a> {
    fn op(&self, op: Result<AlterOp>) -> AlterTable<'a> {
        AlterTable {
            table: self.table,
            op,
        }
    }

    fn existing(&self, name: &str) -> Result<&'a Column> {
        self.table.column(name).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownColumn,
                format!("table `{}` has no column `{name}`", self.table.name()),
            )
        })
    }

    /// Iceberg rebuilds the partition spec against every new schema and refuses a column
    /// named like a partition field other than the column's own identity field ("Cannot
    /// create identity partition sourced from different field in schema: ts_day", from
    /// `PartitionSpec.Builder` in apache/iceberg; Spark 3.5 + Iceberg 1.10 fails `ADD
    /// COLUMN ts_day` and `RENAME COLUMN x TO ts_day` on a table partitioned by `days(ts)`
    /// with it). The fields are named as Iceberg names them when a table is created.
    fn not_a_partition_field_name(&self, name: &str) -> Result<()> {
        let taken = self.table.partition_spec().iter().find(|p| {
            p.transform != PartitionTransform::Identity
                && iceberg_sql_rules::partition_field_name(&p.source, p.transform.name()) == name
        });
        match taken {
            None => Ok(()),
            Some(p) => Err(Error::new(
                ErrorKind::InvalidTable,
                format!(
                    "column name `{name}` is the name of partition field `{p}` of `{}`; Iceberg refuses a column named like a partition field",
                    self.table.name()
                ),
            )
            .with_hint("choose another column name")),
        }
    }

    /// `ADD COLUMNS (...)`: new columns, appended at the end, nullable. Targets whose DDL
    /// declares `NOT NULL` (Spark, Trino) refuse a [`required`](Column::required) one:
    /// Iceberg cannot add a required column to a table with rows. On Athena "required"
    /// is a contract of the typed API only, and the column is added nullable.
    pub fn add_columns(&self, columns: impl IntoIterator<Item = Column>) -> AlterTable<'a> {
        let cols: Vec<Column> = columns.into_iter().collect();
        let check = || -> Result<AlterOp> {
            let mut errors = Vec::new();
            if cols.is_empty() {
                errors.push(Error::new(
                    ErrorKind::InvalidTable,
                    "ADD COLUMNS needs at least one column",
                ));
            }
            let mut seen = std::collections::HashSet::new();
            for c in &cols {
                if let Err(e) = check_name(&c.name, NameRole::Column) {
                    errors.push(e);
                }
                if self.table.column(&c.name).is_some() || !seen.insert(c.name.as_str()) {
                    errors.push(Error::new(
                        ErrorKind::InvalidTable,
                        format!(
                            "table `{}` already has a column `{}`",
                            self.table.name(),
                            c.name
                        ),
                    ));
                }
                if let Err(e) = self.not_a_partition_field_name(&c.name) {
                    errors.push(e);
                }
                if let Err(e) = c.ty.check(&c.name, false) {
                    errors.push(e);
                }
                if let Some(comment) = &c.comment {
                    if let Err(e) = crate::model::check_comment(
                        &format!("comment of column `{}`", c.name),
                        iceberg_sql_rules::CommentOf::Column,
                        comment,
                    ) {
                        errors.push(e);
                    }
                }
            }
            Error::check_all(errors)?;
            Ok(AlterOp::AddColumns(cols.clone()))
        };
        self.op(check())
    }

    /// `DROP COLUMN c`. A partition source column cannot be dropped.
    pub fn drop_column(&self, column: &str) -> AlterTable<'a> {
        let check = || -> Result<AlterOp> {
            self.existing(column)?;
            if let Some(p) = self
                .table
                .partition_spec()
                .iter()
                .find(|p| p.source == column)
            {
                return Err(Error::new(
                    ErrorKind::InvalidTable,
                    format!(
                        "column `{column}` is the source of partition field `{p}` of `{}` and cannot be dropped",
                        self.table.name()
                    ),
                )
                .with_hint("rebuild the table without that partition field (CTAS) first"));
            }
            if self.table.columns().len() == 1 {
                return Err(Error::new(
                    ErrorKind::InvalidTable,
                    format!("`{column}` is the only column of `{}`", self.table.name()),
                ));
            }
            Ok(AlterOp::DropColumn(column.to_string()))
        };
        self.op(check())
    }

    /// Renames a column: Athena `CHANGE COLUMN old new <current type>`, Spark
    /// `RENAME COLUMN old TO new`.
    pub fn rename_column(&self, from: &str, to: &str) -> AlterTable<'a> {
        let check = || -> Result<AlterOp> {
            let c = self.existing(from)?;
            check_name(to, NameRole::Column)?;
            self.not_a_partition_field_name(to)?;
            if self.table.column(to).is_some() {
                return Err(Error::new(
                    ErrorKind::InvalidTable,
                    format!("table `{}` already has a column `{to}`", self.table.name()),
                ));
            }
            Ok(AlterOp::Rename {
                from: from.to_string(),
                to: to.to_string(),
                ty: c.ty.clone(),
            })
        };
        self.op(check())
    }

    /// Widens a column's type: Athena `CHANGE COLUMN c c <type>`, Spark
    /// `ALTER COLUMN c TYPE <type>`. Only [`is_legal_promotion`]s are accepted.
    pub fn widen_column(&self, column: &str, to: IcebergType) -> AlterTable<'a> {
        let check = || -> Result<AlterOp> {
            let c = self.existing(column)?;
            if c.ty == to {
                return Err(Error::new(
                    ErrorKind::InvalidType,
                    format!(
                        "column `{column}` of `{}` already has type {}; there is nothing to change",
                        self.table.name(),
                        to.iceberg_name()
                    ),
                ));
            }
            if !is_legal_promotion(&c.ty, &to) {
                return Err(illegal_type_change(self.table.name(), column, &c.ty, &to));
            }
            to.check(column, false)?;
            Ok(AlterOp::Widen {
                column: column.to_string(),
                to,
            })
        };
        self.op(check())
    }

    /// `RENAME TO db.new_name` (Iceberg tables only in Athena; may move the table to
    /// another database). The last step of a CTAS rebuild.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// let t = TableDef::builder("analytics", "mcp_events_v2")
    ///     .column(Column::new("event_id", IcebergType::String))
    ///     .location("s3://my-datalake/iceberg/mcp_events_v2/").build()?;
    /// assert_eq!(
    ///     t.alter().rename_table(TableName::new("analytics", "mcp_events")).build()?.sql(),
    ///     "ALTER TABLE analytics.mcp_events_v2 RENAME TO analytics.mcp_events"
    /// );
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn rename_table(&self, to: TableName) -> AlterTable<'a> {
        let check = || -> Result<AlterOp> {
            to.check()?;
            if &to == self.table.name() {
                return Err(Error::new(
                    ErrorKind::InvalidTable,
                    format!("`{to}` is already the table's name"),
                ));
            }
            Ok(AlterOp::RenameTable(to.clone()))
        };
        self.op(check())
    }

    /// `SET TBLPROPERTIES (...)` with typed properties (Spark: Iceberg's names).
    pub fn set_properties(&self, properties: TableProperties) -> AlterTable<'a> {
        self.op(Ok(AlterOp::SetProperties {
            format: self.format_after(&properties),
            properties,
        }))
    }

    /// `SET TBLPROPERTIES` with one property.
    pub fn set_property(&self, property: TableProperty) -> AlterTable<'a> {
        self.set_properties(TableProperties::new().with(property))
    }

    /// `UNSET TBLPROPERTIES ('key', ...)`; keys are Athena's (e.g.
    /// `vacuum_min_snapshots_to_keep`).
    pub fn unset_properties<'k>(&self, keys: impl IntoIterator<Item = &'k str>) -> AlterTable<'a> {
        let check = || -> Result<AlterOp> {
            let mut out = Vec::new();
            let mut errors = Vec::new();
            for k in keys {
                match property_keys().into_iter().find(|x| *x == k) {
                    Some(known) => out.push(known),
                    None => errors.push(
                        Error::new(
                            ErrorKind::InvalidProperty,
                            format!("unknown table property `{}`", k.escape_debug()),
                        )
                        .with_hint(format!(
                            "Athena accepts only: {}",
                            property_keys().join(", ")
                        )),
                    ),
                }
            }
            Error::check_all(errors)?;
            Ok(AlterOp::UnsetProperties {
                keys: out,
                format: self.table.properties().format(),
            })
        };
        self.op(check())
    }

    /// Adds a partition field. Trino writes the whole new spec, `SET PROPERTIES
    /// partitioning = ARRAY[…]` (the Iceberg connector's "Partitioned tables"); Spark
    /// `ADD PARTITION FIELD days(ts)` (Iceberg's SQL extensions,
    /// <https://iceberg.apache.org/docs/latest/spark-ddl/#alter-table--add-partition-field>).
    /// Athena has no partition evolution: there `build()` fails with the CTAS rebuild as
    /// the way out. Rows already written keep their old layout; new rows get the new one.
    pub fn add_partition_field(&self, field: PartitionField) -> AlterTable<'a> {
        let check = || -> Result<AlterOp> {
            let c = self.existing(&field.source)?;
            field.check(&c.ty)?;
            let mut spec = self.table.partition_spec().to_vec();
            spec.push(field.clone());
            Ok(AlterOp::Partitioning(
                PartitionChange::Add(field.clone()),
                spec,
            ))
        };
        self.op(check())
    }

    /// Drops a partition field (Spark: `DROP PARTITION FIELD`); refused on Athena like
    /// [`AlterTableBuilder::add_partition_field`].
    pub fn drop_partition_field(&self, field: PartitionField) -> AlterTable<'a> {
        let check = || -> Result<AlterOp> {
            let spec = self.spec_without(&field)?;
            Ok(AlterOp::Partitioning(
                PartitionChange::Drop(field.clone()),
                spec,
            ))
        };
        self.op(check())
    }

    /// Replaces partition field `old` with `new` in one change (Spark: `REPLACE PARTITION
    /// FIELD old WITH new`; Trino: the new spec), e.g. `day(ts)` with `hour(ts)`; refused
    /// on Athena like [`AlterTableBuilder::add_partition_field`].
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// let t = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("ts", IcebergType::Timestamp))
    ///     .partition(PartitionField::new("ts", PartitionTransform::Day))
    ///     .location("s3://my-datalake/iceberg/mcp_events/")
    ///     .build()?;
    /// let hourly = t.alter().replace_partition_field(
    ///     PartitionField::new("ts", PartitionTransform::Day),
    ///     PartitionField::new("ts", PartitionTransform::Hour),
    /// );
    /// assert_eq!(hourly.build_for(Dialect::Spark)?.sql(),
    ///     "ALTER TABLE analytics.mcp_events REPLACE PARTITION FIELD days(ts) WITH hours(ts)");
    /// assert_eq!(hourly.build_for(Dialect::Trino)?.sql(),
    ///     "ALTER TABLE analytics.mcp_events SET PROPERTIES partitioning = ARRAY['hour(ts)']");
    /// assert_eq!(hourly.build().unwrap_err().kind(), ErrorKind::Unsupported);
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn replace_partition_field(
        &self,
        old: PartitionField,
        new: PartitionField,
    ) -> AlterTable<'a> {
        let check = || -> Result<AlterOp> {
            let c = self.existing(&new.source)?;
            new.check(&c.ty)?;
            let mut spec = self.spec_without(&old)?;
            let at = self
                .table
                .partition_spec()
                .iter()
                .position(|f| *f == old)
                .unwrap_or(spec.len());
            spec.insert(at, new.clone());
            Ok(AlterOp::Partitioning(
                PartitionChange::Replace(old.clone(), new.clone()),
                spec,
            ))
        };
        self.op(check())
    }

    /// The current spec without `field`, which it must have.
    fn spec_without(&self, field: &PartitionField) -> Result<Vec<PartitionField>> {
        if !self.table.partition_spec().contains(field) {
            return Err(Error::new(
                ErrorKind::InvalidPartition,
                format!("`{}` has no partition field `{field}`", self.table.name()),
            ));
        }
        Ok(self
            .table
            .partition_spec()
            .iter()
            .filter(|f| *f != field)
            .cloned()
            .collect())
    }

    fn format_after(&self, properties: &TableProperties) -> FileFormat {
        properties
            .iter()
            .find_map(|p| match p {
                TableProperty::Format(f) => Some(*f),
                _ => None,
            })
            .unwrap_or_else(|| self.table.properties().format())
    }
}

impl AlterTable<'_> {
    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let op = self.op.clone()?;
        render(self.table.name(), &op, dialect)
    }
}
