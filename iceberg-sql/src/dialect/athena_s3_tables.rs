//! Amazon Athena on Amazon S3 Tables: Athena's engine and grammars, on Iceberg tables in
//! an S3 table bucket. What differs from Athena, from AWS's documentation:
//!
//! * **Names.** A table bucket is the catalog `s3tablescatalog/<table bucket>`, its
//!   namespaces are databases. Athena's DDL cannot name that catalog: it comes from the
//!   query's `QueryExecutionContext.Catalog`. So every statement of this target names
//!   `namespace.table`, and the executor runs it with that catalog (in
//!   `iceberg-sql-athena`, `ExecutorConfig::s3_tables(bucket)`; see
//!   [`Dialect::check_execution_catalog`](super::Dialect::check_execution_catalog)).
//!   DML could also name `"s3tablescatalog/<bucket>"."namespace"."table"`, but one form
//!   for every statement keeps a statement's meaning independent of its kind
//!   (<https://docs.aws.amazon.com/athena/latest/ug/gdc-register-s3-table-bucket-cat.html>).
//! * **CREATE TABLE** names no LOCATION: the table bucket chooses it. Table and
//!   namespace names follow S3 Tables' rules
//!   (<https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html>).
//! * **Maintenance.** Amazon S3 compacts and expires snapshots itself: OPTIMIZE and
//!   VACUUM are not supported, and the table properties that configure them
//!   (`optimize_*`, `vacuum_*`) would configure nothing, so they are refused
//!   (<https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-maintenance.html>).
//! * **Namespaces** are databases: `CREATE DATABASE` names no LOCATION (the table
//!   bucket chooses it) and follows the namespace name rules; `DROP DATABASE … CASCADE`
//!   is refused, since S3 Tables deletes only an empty namespace
//!   (<https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-namespace-delete.html>).
//! * **Not supported** on S3 Tables: `ALTER TABLE … RENAME`, `CREATE VIEW`, `ALTER
//!   DATABASE` (the crate writes no database changes; views are refused, DROP VIEW too,
//!   as there is no view to drop; the rename is refused by this target's validator
//!   part).

use super::athena;
use super::{CtasSpec, DialectRules, OptimizeSpec, StagingSpec, VacuumSpec};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{
    DatabaseName, FileFormat, Location, TableDef, TableName, TableProperties, TableProperty,
};
use crate::render::SqlWriter;
use crate::statement::StatementKind;
use crate::validate::dialects::athena_s3_tables::AthenaS3TablesSyntax;
use crate::validate::dialects::TargetSyntax;

/// AWS's page on S3 Tables in Athena.
const S3_TABLES_IN_ATHENA: &str =
    "https://docs.aws.amazon.com/athena/latest/ug/gdc-register-s3-table-bucket-cat.html";
/// AWS's page on S3 Tables maintenance.
const S3_TABLES_MAINTENANCE: &str =
    "https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-maintenance.html";
/// AWS's page on deleting a namespace.
const S3_TABLES_NAMESPACE_DELETE: &str =
    "https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-namespace-delete.html";
/// AWS's page on table bucket, namespace and table names.
const S3_TABLES_NAMING: &str =
    "https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html";

/// The prefix of every S3 Tables catalog name in Athena.
pub(super) const CATALOG_PREFIX: &str = "s3tablescatalog/";

/// Athena on S3 Tables: Athena's defaults, with these overrides.
pub(crate) struct AthenaS3Tables;

impl DialectRules for AthenaS3Tables {
    fn name(&self) -> &'static str {
        "Athena on S3 Tables"
    }

    fn syntax(&self) -> &'static dyn TargetSyntax {
        &AthenaS3TablesSyntax
    }

    /// Athena's type rules; no LOCATION; S3 Tables' name rules; no maintenance
    /// properties.
    fn check_create_table(&self, table: &TableDef, errors: &mut Vec<Error>) {
        let mut athena_errors = Vec::new();
        athena::check_create_table(table, &mut athena_errors);
        // Athena's only location rule is that there must be one; here there must not.
        athena_errors.retain(|e| e.kind() != ErrorKind::InvalidLocation);
        errors.extend(athena_errors);
        if let Some(l) = table.location() {
            errors.push(
                Error::new(
                    ErrorKind::InvalidLocation,
                    format!(
                        "table `{}` has the location {}, but a table bucket chooses the location \
                         of its tables; Athena's CREATE TABLE on S3 Tables names none ({S3_TABLES_IN_ATHENA})",
                        table.name(),
                        l.as_str()
                    ),
                )
                .with_hint("remove .location(...) from the definition built for S3 Tables"),
            );
        }
        if let Err(e) = check_names(table.name()) {
            errors.push(e);
        }
        for p in table.properties().iter() {
            if let Err(e) = check_property(p) {
                errors.push(e);
            }
        }
    }

    /// A namespace: S3 Tables' name rules, no LOCATION (the table bucket chooses it).
    fn write_create_database_clauses(
        &self,
        w: &mut SqlWriter,
        database: &DatabaseName,
        comment: Option<&str>,
        location: Option<&Location>,
    ) -> Result<()> {
        check_namespace(database.as_str())?;
        if let Some(l) = location {
            return Err(Error::new(
                ErrorKind::InvalidLocation,
                format!(
                    "namespace `{database}` with the location {}: a table bucket chooses the location \
                     of its namespaces and tables ({S3_TABLES_IN_ATHENA})",
                    l.as_str()
                ),
            )
            .with_hint("remove .location(...) for S3 Tables"));
        }
        athena::write_create_database_clauses(w, comment, None)
    }

    /// S3 Tables deletes a namespace only when it holds no tables.
    fn check_drop_database_cascade(&self, database: &DatabaseName) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "DROP DATABASE {database} CASCADE on S3 Tables: a namespace is deleted only when it \
                 holds no tables ({S3_TABLES_NAMESPACE_DELETE}), so CASCADE cannot drop its tables \
                 as Athena's does"
            ),
        )
        .with_hint(format!(
            "drop each table first (TableName::drop_table()), then DROP DATABASE {database}"
        )))
    }

    /// Athena does not create views on S3 Tables, so there is none to drop either.
    fn check_view_statement(&self, kind: StatementKind) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "{} on S3 Tables: Athena does not support CREATE VIEW in a table bucket's catalog \
                 ({S3_TABLES_IN_ATHENA}), so there are no views to write or drop",
                kind.name()
            ),
        )
        .with_hint("run the view's SELECT itself, built with .build_for(Dialect::AthenaS3Tables)"))
    }

    fn write_set_properties(
        &self,
        w: &mut SqlWriter,
        properties: &TableProperties,
        format: FileFormat,
    ) -> Result<()> {
        properties.iter().try_for_each(check_property)?;
        athena::write_set_properties(w, properties, format, athena::property)
    }

    fn check_optimize(&self, _o: &OptimizeSpec<'_>) -> Result<()> {
        Err(maintenance_refusal("OPTIMIZE", "compaction"))
    }

    fn write_optimize(&self, _w: &mut SqlWriter, _o: &OptimizeSpec<'_>) -> Result<()> {
        Err(maintenance_refusal("OPTIMIZE", "compaction"))
    }

    fn write_vacuum(
        &self,
        _w: &mut SqlWriter,
        _v: &VacuumSpec<'_>,
        _retention_in_steps: bool,
    ) -> Result<()> {
        Err(maintenance_refusal("VACUUM", "snapshot expiry"))
    }

    fn ctas_requires_location(&self) -> bool {
        false
    }

    /// Athena's clauses, without a location and without maintenance properties.
    fn write_ctas_clauses(&self, w: &mut SqlWriter, c: &CtasSpec<'_>) -> Result<()> {
        if let Some(l) = c.location {
            return Err(Error::new(
                ErrorKind::InvalidLocation,
                format!(
                    "a CTAS on S3 Tables names no location ({} given): the table bucket chooses it \
                     ({S3_TABLES_IN_ATHENA})",
                    l.as_str()
                ),
            )
            .with_hint("remove .location(...) for S3 Tables"));
        }
        c.properties.iter().try_for_each(check_property)?;
        athena::write_ctas_clauses(w, c)
    }

    fn check_hive_ctas(&self) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "a Hive-format CTAS creates a Hive table in a general purpose bucket; a table bucket \
                 holds Apache Iceberg tables only ({S3_TABLES_IN_ATHENA})"
            ),
        )
        .with_hint("use IcebergCtas (without a location) for S3 Tables"))
    }

    /// A staged load's external Parquet table is a Hive table, which a table bucket cannot
    /// hold: it holds Apache Iceberg tables only.
    fn write_create_staging(&self, _w: &mut SqlWriter, _s: &StagingSpec<'_>) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "a staged load needs an external Parquet table over the staged files; a table \
                 bucket holds Apache Iceberg tables only ({S3_TABLES_IN_ATHENA})"
            ),
        )
        .with_hint("load S3 Tables with insert(&rows).batches() (the executor's append_rows)"))
    }

    fn check_execution_catalog(&self, catalog: Option<&str>) -> Result<()> {
        let bucket = catalog.and_then(|c| c.strip_prefix(CATALOG_PREFIX));
        let Some(bucket) = bucket else {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "a statement for S3 Tables names `namespace.table`, which Athena finds only in the \
                     catalog `s3tablescatalog/<table bucket>`; this one would run in {} ({S3_TABLES_IN_ATHENA})",
                    catalog.map_or("Athena's default catalog".to_string(), |c| format!("`{c}`"))
                ),
            )
            .with_hint(
                "run it with the table bucket's catalog as QueryExecutionContext.Catalog \
                 (iceberg-sql-athena: ExecutorConfig::s3_tables(\"my-table-bucket\"))",
            ));
        };
        check_bucket(bucket)
    }
}

/// Refuses OPTIMIZE or VACUUM: Amazon S3 runs `what` for table buckets.
fn maintenance_refusal(statement: &str, what: &str) -> Error {
    Error::new(
        ErrorKind::Unsupported,
        format!(
            "{statement} is not supported on S3 Tables: Amazon S3 runs {what} for tables in a table \
             bucket ({S3_TABLES_IN_ATHENA}; {S3_TABLES_MAINTENANCE})"
        ),
    )
    .with_hint(
        "configure it on the table bucket or table with the S3 Tables maintenance API \
         (PutTableBucketMaintenanceConfiguration / PutTableMaintenanceConfiguration)",
    )
}

/// Refuses the table properties of Athena's OPTIMIZE and VACUUM, which do not run here.
fn check_property(p: &TableProperty) -> Result<()> {
    match p {
        TableProperty::OptimizeRewriteDataFileThreshold(_)
        | TableProperty::OptimizeRewriteDeleteFileThreshold(_)
        | TableProperty::VacuumMinSnapshotsToKeep(_)
        | TableProperty::VacuumMaxSnapshotAgeSeconds(_)
        | TableProperty::VacuumMaxMetadataFilesToKeep(_) => Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "table property `{}` configures Athena's OPTIMIZE or VACUUM, which do not run on S3 \
                 Tables: Amazon S3 compacts and expires snapshots itself ({S3_TABLES_MAINTENANCE})",
                p.key()
            ),
        )
        .with_hint(
            "leave it out for S3 Tables and set the maintenance settings with \
             PutTableMaintenanceConfiguration",
        )),
        _ => Ok(()),
    }
}

/// S3 Tables' rules for namespace and table names, beyond Athena's (lower case,
/// digits and `_`): they begin and end with a letter or digit, are at most 255
/// characters, and a namespace does not begin with `aws`.
fn check_names(name: &TableName) -> Result<()> {
    check_namespace(&name.database)?;
    check_name(&name.table, "table")
}

/// A namespace name: S3 Tables' rules ([`check_name`]), not beginning with `aws`.
fn check_namespace(namespace: &str) -> Result<()> {
    check_name(namespace, "namespace")?;
    if namespace.starts_with("aws") {
        return Err(Error::new(
            ErrorKind::InvalidIdentifier,
            format!(
                "namespace `{namespace}`: S3 Tables reserves the prefix `aws` ({S3_TABLES_NAMING})"
            ),
        ));
    }
    Ok(())
}

/// A namespace or table name (`role`): 1 to 255 characters, beginning and ending with a
/// letter or digit.
fn check_name(part: &str, role: &str) -> Result<()> {
    let edge_ok = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    if !edge_ok(part.chars().next()) || !edge_ok(part.chars().last()) || part.len() > 255 {
        return Err(Error::new(
            ErrorKind::InvalidIdentifier,
            format!(
                "{role} name `{part}`: S3 Tables names are 1 to 255 characters and begin and end \
                 with a letter or digit ({S3_TABLES_NAMING})"
            ),
        ));
    }
    Ok(())
}

/// A table bucket name: 3 to 63 lower-case letters, digits and `-`, beginning and ending
/// with a letter or digit.
fn check_bucket(bucket: &str) -> Result<()> {
    let chars_ok = bucket
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let edge_ok = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    if (3..=63).contains(&bucket.len())
        && chars_ok
        && edge_ok(bucket.chars().next())
        && edge_ok(bucket.chars().last())
    {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidValue,
        format!(
            "table bucket name `{bucket}`: 3 to 63 lower-case letters, digits and hyphens, beginning \
             and ending with a letter or digit ({S3_TABLES_NAMING})"
        ),
    ))
}

/// Refuses running a statement built for another Athena target in an S3 Tables catalog,
/// where its `database.table` names would find a namespace's table instead.
pub(super) fn refuse_s3_tables_catalog(engine: &str, catalog: Option<&str>) -> Result<()> {
    match catalog {
        Some(c) if c.starts_with(CATALOG_PREFIX) => Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "a statement built for {engine} would run in the S3 Tables catalog `{c}`, where its \
                 names find the table bucket's namespaces ({S3_TABLES_IN_ATHENA})"
            ),
        )
        .with_hint("build it with .build_for(Dialect::AthenaS3Tables)")),
        _ => Ok(()),
    }
}
