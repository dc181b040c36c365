//! The validator's part for Athena on Amazon S3 Tables: Athena's parsers and shapes,
//! with what AWS documents as different for tables in a table bucket
//! (<https://docs.aws.amazon.com/athena/latest/ug/gdc-register-s3-table-bucket-cat.html>):
//! CREATE TABLE without LOCATION (S3 Tables chooses it), no `ALTER TABLE … RENAME`, no
//! OPTIMIZE or VACUUM (S3 runs compaction and snapshot expiry).

use sqlparser::ast::{CreateTable, Statement};

use super::athena::{check_create_table_shape, AthenaSyntax};
use super::{Maintenance, ParserDialect, Staging, TableLocation, TargetSyntax};
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;
use crate::validate::allow::{Ctx, Exempt};

/// AWS's page on S3 Tables in Athena, cited by every refusal.
const S3_TABLES_IN_ATHENA: &str =
    "https://docs.aws.amazon.com/athena/latest/ug/gdc-register-s3-table-bucket-cat.html";

/// Why `kind` (OPTIMIZE, VACUUM) is refused on S3 Tables.
fn maintenance_refusal(kind: StatementKind) -> String {
    format!(
        "{} is not supported on S3 Tables: Amazon S3 runs compaction and snapshot expiry \
         itself ({S3_TABLES_IN_ATHENA})",
        kind.name()
    )
}

/// Athena on S3 Tables' allow-list part.
pub(crate) struct AthenaS3TablesSyntax;

impl TargetSyntax for AthenaS3TablesSyntax {
    fn parser(&self, grammar: Grammar, kind: StatementKind) -> Box<dyn ParserDialect> {
        AthenaSyntax.parser(grammar, kind)
    }

    /// Athena's shapes; a CREATE TABLE names no LOCATION.
    fn check_create_table(&self, ctx: &Ctx, ct: &CreateTable, exempt: &mut Exempt) -> Result<()> {
        check_create_table_shape(ctx, ct, exempt)?;
        let has_location = ct
            .hive_formats
            .as_ref()
            .is_some_and(|h| h.location.is_some());
        match self.table_location() {
            TableLocation::Refused(refusal) if has_location => {
                Err(ctx.at_word(refusal, "LOCATION"))
            }
            _ => Ok(()),
        }
    }

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

    fn check_maintenance(&self, ctx: &Ctx, _stmt: &Statement) -> Result<()> {
        Err(ctx.at_word(maintenance_refusal(ctx.kind), ctx.kind.name()))
    }

    fn maintenance(&self) -> Maintenance {
        Maintenance::Unsupported(maintenance_refusal)
    }

    fn check_unload(&self, ctx: &Ctx, stmt: &Statement, exempt: &mut Exempt) -> Result<()> {
        AthenaSyntax.check_unload(ctx, stmt, exempt)
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
