//! Athena on Amazon S3 Tables, for the tests' oracle: Athena's sqlparser dialects and
//! shapes, with the differences of `validate::dialects::athena_s3_tables` on sqlparser's
//! tree.

use super::athena::check_create_table_shape;
use super::{OracleSyntax, ParserDialect};
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;
use crate::validate::dialects::athena::AthenaSyntax;
use crate::validate::dialects::athena_s3_tables::{maintenance_refusal, AthenaS3TablesSyntax};
use crate::validate::dialects::{TableLocation, TargetSyntax};
use crate::validate::oracle::allow::{Ctx, Exempt};
use sqlparser::ast::{CreateTable, Statement};

impl OracleSyntax for AthenaS3TablesSyntax {
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

    fn check_maintenance(&self, ctx: &Ctx, _stmt: &Statement) -> Result<()> {
        Err(ctx.at_word(maintenance_refusal(ctx.kind), ctx.kind.name()))
    }

    fn check_unload(&self, ctx: &Ctx, stmt: &Statement, exempt: &mut Exempt) -> Result<()> {
        AthenaSyntax.check_unload(ctx, stmt, exempt)
    }
}
