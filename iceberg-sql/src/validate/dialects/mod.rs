//! Each target's part of the validator: the sqlparser dialect it reads each grammar
//! with, and the statement shapes in which targets differ (CREATE TABLE clauses,
//! OPTIMIZE and VACUUM, UNLOAD, `DROP TABLE … PURGE`).
//!
//! The parser dialects are written by hand (no `derive_dialect!`) and keep their own
//! `TypeId`, so none of sqlparser's `dialect_of!(… | GenericDialect)` branches for other
//! engines apply. Each decides which statements go to which of our hooks
//! ([`super::hooks`]) and gives those hooks a fresh [`Refusals`] slot per parse.
//!
//! A target's [`DialectRules`](crate::dialect::DialectRules) names its part here
//! (`syntax()`); a new target adds one file.

pub(crate) mod athena;
pub(crate) mod spark;

use sqlparser::ast::{CreateTable, Statement};
use sqlparser::dialect::Dialect as SqlDialect;

use super::allow::{Ctx, Exempt};
use super::hooks::Refusals;
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;

/// A sqlparser dialect whose hooks leave their refusals in a slot of their own.
pub(crate) trait ParserDialect: SqlDialect {
    /// The slot this parser's hooks leave a refusal in.
    fn refusals(&self) -> &Refusals;
}

/// The validator's part of one target.
pub(crate) trait TargetSyntax: Sync {
    /// A parser for statements of `kind` in `grammar` (with an empty refusal slot).
    fn parser(&self, grammar: Grammar, kind: StatementKind) -> Box<dyn ParserDialect>;

    /// The clauses of a CREATE TABLE or CTAS (the kind is `ctx.kind`); names that are
    /// not names (property keys) go into `exempt`.
    fn check_create_table(&self, ctx: &Ctx, ct: &CreateTable, exempt: &mut Exempt) -> Result<()>;

    /// `DROP TABLE … PURGE`, refused where the engine lacks it.
    fn check_purge(&self, ctx: &Ctx) -> Result<()>;

    /// The statement for compaction or snapshot expiry (kind `Optimize` or `Vacuum`).
    fn check_maintenance(&self, ctx: &Ctx, stmt: &Statement) -> Result<()>;

    /// `UNLOAD`, or its refusal where the engine has none.
    fn check_unload(&self, ctx: &Ctx, stmt: &Statement, exempt: &mut Exempt) -> Result<()>;

    /// A staged load's staging table: its creation over the staged files (kind
    /// `CreateStagingTable`) or its removal (`DropStagingTable`).
    fn check_staging(&self, ctx: &Ctx, stmt: &Statement) -> Result<()>;
}
