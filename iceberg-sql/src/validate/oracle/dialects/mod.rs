//! The oracle's half of each target (the other half, the plain values its checks
//! read, is `validate::dialects`): the sqlparser dialect it reads each grammar with,
//! and its checks on sqlparser's tree.
//!
//! The parser dialects are written by hand (no `derive_dialect!`) and keep their own
//! `TypeId`, so none of sqlparser's `dialect_of!(… | GenericDialect)` branches for other
//! engines apply. Each decides which statements go to which of the hooks
//! ([`super::hooks`]) and gives those hooks a fresh [`Refusals`] slot per parse.

pub(crate) mod athena;
pub(crate) mod athena_s3_tables;
pub(crate) mod spark;
pub(crate) mod trino;

use sqlparser::ast::{CreateTable, Statement};
use sqlparser::dialect::Dialect as SqlDialect;
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;

use super::allow::{Ctx, Exempt};
use super::hooks::Refusals;
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;
use crate::validate::dialects::{Staging, TargetSyntax};
use crate::validate::lexer::Rules;
use crate::validate::stack::StackBudget;

/// A sqlparser dialect whose hooks leave their refusals in a slot of their own and
/// check the parse's stack budget at every expression and data type.
pub(crate) trait ParserDialect: SqlDialect {
    /// The slot this parser's hooks leave a refusal in.
    fn refusals(&self) -> &Refusals;

    /// The stack budget of this parse.
    fn stack(&self) -> &StackBudget;

    /// The lexical rules this parser's grammar is read with (must agree with the
    /// sqlparser `Dialect` methods that decide tokens: the differential test checks).
    fn lexical_rules(&self) -> &'static Rules;
}

/// The oracle's part of one target: its sqlparser dialects and its checks on
/// sqlparser's tree, beside the plain values of [`TargetSyntax`].
pub(crate) trait OracleSyntax: TargetSyntax {
    /// A parser for statements of `kind` in `grammar` (with an empty refusal slot).
    fn parser(&self, grammar: Grammar, kind: StatementKind) -> Box<dyn ParserDialect>;

    /// The clauses of a CREATE TABLE or CTAS (the kind is `ctx.kind`); names that are
    /// not names (property keys) go into `exempt`.
    fn check_create_table(&self, ctx: &Ctx, ct: &CreateTable, exempt: &mut Exempt) -> Result<()>;

    /// The statement for compaction or snapshot expiry (kind `Optimize` or `Vacuum`).
    fn check_maintenance(&self, ctx: &Ctx, stmt: &Statement) -> Result<()>;

    /// `UNLOAD`, or its refusal where the engine has none.
    fn check_unload(&self, ctx: &Ctx, stmt: &Statement, exempt: &mut Exempt) -> Result<()>;

    /// A staged load's staging table: its creation over the staged files (kind
    /// `CreateStagingTable`) or its removal (`DropStagingTable`). Default: the
    /// refusal of a target without one.
    fn check_staging(&self, ctx: &Ctx, stmt: &Statement) -> Result<()> {
        let _ = stmt;
        match self.staging() {
            Staging::Refused { why, at } => Err(match at {
                Some(word) => ctx.at_word(why, word),
                None => ctx.at_span(why, sqlparser::tokenizer::Span::empty()),
            }),
            Staging::ExternalTable | Staging::TemporaryView => Ok(()),
        }
    }
}

/// The precedence of `NOT NULL` after a value outside a column definition: none, so the
/// value ends before it. sqlparser reads `x NOT NULL` as `x IS NOT NULL`; Trino's grammar
/// (SqlBase.g4, `predicate`: `IS NOT? NULL`) and Spark's (SqlBaseParser.g4, `predicate`:
/// `IS NOT? kind=NULL`) have no such postfix form, and refuse it. In a column definition
/// sqlparser gives it no precedence already, so `int NOT NULL` reads as before.
pub(crate) fn no_postfix_not_null(parser: &Parser) -> Option<Result<u8, ParserError>> {
    let is = |n: usize, k: Keyword| matches!(&parser.peek_nth_token_ref(n).token, Token::Word(w) if w.keyword == k);
    (is(0, Keyword::NOT) && is(1, Keyword::NULL)).then_some(Ok(0))
}
