//! Spark's part of the validator, as plain values the checks read (`check/`):
//! `DROP TABLE … PURGE` accepted, maintenance through Iceberg's procedures (`CALL
//! catalog.system.procedure(…)`), `SHOW TABLES IN db LIKE 'pattern'`, the staging table
//! as a temporary view; no UNLOAD and no `DROP DATABASE … CASCADE`.

use super::{FilterForm, Maintenance, Staging, TargetSyntax};

/// Spark's part of the validator.
pub(crate) struct SparkSyntax;

impl TargetSyntax for SparkSyntax {
    /// Spark's DROP TABLE deletes an Iceberg table's data only with PURGE.
    fn purge_refusal(&self) -> Option<&'static str> {
        None
    }

    fn maintenance(&self) -> Maintenance {
        Maintenance::Procedures
    }

    fn unload_refusal(&self) -> Option<&'static str> {
        Some("UNLOAD is Athena-only; Spark has no UNLOAD statement")
    }

    fn staging(&self) -> Staging {
        Staging::TemporaryView
    }

    /// `SHOW TABLES IN db LIKE 'pattern'`.
    fn show_tables_filter_problem(
        &self,
        _engine: &str,
        filter: FilterForm,
        shown: &dyn std::fmt::Display,
    ) -> Option<String> {
        (filter != FilterForm::Like).then(|| {
            format!("SHOW TABLES filter `{shown}`: Spark writes SHOW TABLES IN db LIKE 'pattern'")
        })
    }

    /// Iceberg's Spark catalog ignores CASCADE (see the dialect's rules).
    fn drop_database_cascade_refusal(&self) -> Option<&'static str> {
        Some(
            "DROP DATABASE … CASCADE on Spark: Iceberg's Spark catalog ignores CASCADE and deletes \
             no table data; drop each table (DROP TABLE … PURGE), then the database",
        )
    }
}
