//! The validator's part for Athena on Amazon S3 Tables: Athena's shapes, with what AWS
//! documents as different for tables in a table bucket
//! (<https://docs.aws.amazon.com/athena/latest/ug/gdc-register-s3-table-bucket-cat.html>):
//! CREATE TABLE without LOCATION (S3 Tables chooses it), no `ALTER TABLE … RENAME`, no
//! OPTIMIZE or VACUUM (S3 runs compaction and snapshot expiry).

use super::athena::AthenaSyntax;
use super::{Maintenance, Staging, TableLocation, TargetSyntax};
use crate::statement::StatementKind;

/// AWS's page on S3 Tables in Athena, cited by every refusal.
const S3_TABLES_IN_ATHENA: &str =
    "https://docs.aws.amazon.com/athena/latest/ug/gdc-register-s3-table-bucket-cat.html";

/// Why `kind` (OPTIMIZE, VACUUM) is refused on S3 Tables.
pub(crate) fn maintenance_refusal(kind: StatementKind) -> String {
    format!(
        "{} is not supported on S3 Tables: Amazon S3 runs compaction and snapshot expiry \
         itself ({S3_TABLES_IN_ATHENA})",
        kind.name()
    )
}

/// Athena on S3 Tables' part of the validator.
pub(crate) struct AthenaS3TablesSyntax;

impl TargetSyntax for AthenaS3TablesSyntax {
    /// The table bucket chooses every table's location.
    fn table_location(&self) -> TableLocation {
        TableLocation::Refused(format!(
            "LOCATION in a CREATE TABLE on S3 Tables: the table bucket chooses every \
             table's location ({S3_TABLES_IN_ATHENA})"
        ))
    }

    fn rename_table_refusal(&self) -> Option<String> {
        Some(format!(
            "ALTER TABLE … RENAME TO is not supported on S3 Tables ({S3_TABLES_IN_ATHENA})"
        ))
    }

    fn purge_refusal(&self) -> Option<&'static str> {
        AthenaSyntax.purge_refusal()
    }

    fn maintenance(&self) -> Maintenance {
        Maintenance::Unsupported(maintenance_refusal)
    }

    /// Never built: the dialect refuses staged loads on S3 Tables.
    fn staging(&self) -> Staging {
        Staging::Refused {
            why: format!(
                "a staging table on S3 Tables: a table bucket holds Apache Iceberg tables only \
                 ({S3_TABLES_IN_ATHENA})"
            ),
            at: Some("TABLE"),
        }
    }
}
