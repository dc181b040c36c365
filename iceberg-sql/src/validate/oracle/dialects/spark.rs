//! Spark's half for the tests' oracle: the sqlparser dialect (backtick names,
//! backslash escapes, Spark type names, `USING iceberg`, `CALL
//! catalog.system.procedure(…)`) and its statement shapes on sqlparser's tree: `CREATE
//! TABLE … USING iceberg`, the procedures' calls, the staging view.

use super::{OracleSyntax, ParserDialect};
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;
use crate::validate::dialects::spark::SparkSyntax;
use crate::validate::dialects::{call_args_refusal, call_name_problem, TargetSyntax};
use crate::validate::lexer::Rules;
use crate::validate::oracle::allow::{
    check_drop_staging, object_span, staging_shape, wrong_kind, Ctx, Exempt,
};
use crate::validate::oracle::hooks::{self, Hooks, Refusals};
use crate::validate::stack::StackBudget;
use sqlparser::ast::{
    CreateTable, CreateTableOptions, DataType, Expr, FunctionArg, FunctionArguments, HiveIOFormat,
    ObjectType, Spanned, Statement,
};
use sqlparser::dialect::Dialect as SqlDialect;
use sqlparser::keywords::{self, Keyword};
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Span;

impl OracleSyntax for SparkSyntax {
    fn parser(&self, _grammar: Grammar, kind: StatementKind) -> Box<dyn ParserDialect> {
        Box::new(SparkDialect {
            staging: kind == StatementKind::CreateStagingTable,
            refusals: Refusals::default(),
            stack: StackBudget::default(),
        })
    }

    /// `CREATE TABLE t (…) USING iceberg …` or `CREATE TABLE t USING iceberg … AS SELECT`.
    fn check_create_table(&self, ctx: &Ctx, ct: &CreateTable, exempt: &mut Exempt) -> Result<()> {
        let name_span = object_span(&ct.name);
        match &ct.table_options {
            CreateTableOptions::TableProperties(props) => exempt.add_keys(props),
            CreateTableOptions::None => {}
            other => {
                return Err(ctx.at_span(
                    format!(
                        "table options written `{other}`: {} CTAS takes WITH (property = value, …)",
                        ctx.engine()
                    ),
                    name_span,
                ))
            }
        }
        if ct.with_data.is_some() {
            return Err(ctx.at_word(
                format!("WITH [NO] DATA is not accepted by {}", ctx.engine()),
                "DATA",
            ));
        }
        if !matches!(
            ct.hive_formats.as_ref().and_then(|h| h.storage.as_ref()),
            Some(HiveIOFormat::Using { .. })
        ) {
            return Err(ctx.at_span("Spark creates Iceberg tables with USING iceberg", name_span));
        }
        if ct.query.is_some() && !ct.columns.is_empty() {
            return Err(ctx.at_span(
                format!(
                    "CREATE TABLE … AS SELECT with a column list: {} takes the schema from the query",
                    ctx.engine()
                ),
                name_span,
            ));
        }
        if ct.query.is_none() && ct.columns.is_empty() {
            return Err(ctx.at_span("CREATE TABLE needs a column list", name_span));
        }
        Ok(())
    }

    /// `CALL <catalog>.system.rewrite_data_files(…)` / `expire_snapshots(…)`.
    fn check_maintenance(&self, ctx: &Ctx, stmt: &Statement) -> Result<()> {
        match stmt {
            Statement::Call(f) => check_call(ctx, f),
            _ => Err(wrong_kind(
                ctx,
                stmt,
                &self.maintenance().statement(ctx.kind),
            )),
        }
    }

    /// `CREATE TEMPORARY VIEW v (cols) USING parquet OPTIONS (path '…')` (the hook's
    /// shape) and `DROP VIEW IF EXISTS v`.
    fn check_staging(&self, ctx: &Ctx, stmt: &Statement) -> Result<()> {
        match (ctx.kind, stmt) {
            (StatementKind::CreateStagingTable, Statement::CreateTable(ct))
                if ct.temporary
                    && !ct.external
                    && ct.name.0.len() == 1
                    && staging_shape(
                        ct,
                        |f| matches!(f, HiveIOFormat::Using { format } if format.value.eq_ignore_ascii_case("parquet")),
                    ) =>
            {
                Ok(())
            }
            (StatementKind::CreateStagingTable, _) => Err(wrong_kind(
                ctx,
                stmt,
                "a CREATE TEMPORARY VIEW v (…) USING parquet OPTIONS (path '…')",
            )),
            (_, stmt) => {
                check_drop_staging(ctx, stmt, ObjectType::View, self.staging().drop_statement())
            }
        }
    }

    fn check_unload(&self, ctx: &Ctx, _stmt: &Statement, _exempt: &mut Exempt) -> Result<()> {
        let refusal = self.unload_refusal().unwrap_or_default();
        Err(ctx.at_span(refusal, Span::empty()))
    }
}

/// Spark 3.5 with the Iceberg SQL extensions: backtick identifiers, backslash escapes in
/// string literals, Spark type names (`timestamp_ntz`, `struct<a: int>`), `USING iceberg`
/// tables, `CALL catalog.system.procedure(…)`.
#[derive(Debug, Default)]
pub(crate) struct SparkDialect {
    /// Parsing a staged load's `CREATE TEMPORARY VIEW … USING parquet`.
    staging: bool,
    refusals: Refusals,
    stack: StackBudget,
}

impl ParserDialect for SparkDialect {
    fn refusals(&self) -> &Refusals {
        &self.refusals
    }

    fn stack(&self) -> &StackBudget {
        &self.stack
    }

    fn lexical_rules(&self) -> &'static Rules {
        &Rules::SPARK
    }
}

impl SqlDialect for SparkDialect {
    /// `x NOT NULL` is not `x IS NOT NULL` here (see [`super::no_postfix_not_null`]).
    fn get_next_precedence(&self, parser: &Parser) -> Option<Result<u8, ParserError>> {
        super::no_postfix_not_null(parser)
    }

    /// `FROM limit.t`: Spark's grammar (default, non-ANSI mode) takes its non-reserved
    /// keywords as names; a word our renderer quotes for Spark keeps sqlparser's reading
    /// (<https://spark.apache.org/docs/3.5.0/sql-ref-ansi-compliance.html#sql-keywords-optional-disabled-by-default>).
    fn is_table_factor(&self, kw: &Keyword, _parser: &mut Parser) -> bool {
        let word = format!("{kw:?}").to_ascii_lowercase();
        *kw == Keyword::NoKeyword
            || !Grammar::Spark.is_reserved(&word)
            || !keywords::RESERVED_FOR_TABLE_FACTOR.contains(kw)
    }

    /// sqlparser's own type parse, within the stack budget.
    fn parse_data_type(&self, _parser: &mut Parser) -> Option<Result<DataType, ParserError>> {
        self.stack.check().err().map(Err)
    }

    /// Literals and plain names without sqlparser's speculative data-type parse.
    fn parse_prefix(&self, parser: &mut Parser) -> Option<Result<Expr, ParserError>> {
        if let Err(e) = self.stack.check() {
            return Some(Err(e));
        }
        crate::validate::oracle::prefix::literal_or_name(self, parser)
    }

    fn is_identifier_start(&self, ch: char) -> bool {
        ch.is_ascii_alphabetic() || ch == '_'
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        ch.is_ascii_alphanumeric() || ch == '_'
    }

    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        ch == '`'
    }

    /// Aliases are names, never `'strings'`.
    fn supports_string_literal_column_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn supports_string_literal_table_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn identifier_quote_style(&self, _identifier: &str) -> Option<char> {
        Some('`')
    }

    /// Spark: `'it\'s'`, `'a\\b'`.
    fn supports_string_literal_backslash_escape(&self) -> bool {
        true
    }

    fn supports_filter_during_aggregation(&self) -> bool {
        true
    }

    fn supports_group_by_expr(&self) -> bool {
        true
    }

    /// `[FOR] TIMESTAMP|VERSION AS OF`.
    fn supports_table_versioning(&self) -> bool {
        true
    }

    fn supports_lambda_functions(&self) -> bool {
        true
    }

    /// `0x1F` is one number token (refused by the allow-list: our targets' grammars
    /// read it as an integer or, in Spark, as a name), never a `0x` binary string.
    fn supports_non_decimal_integer_literals(&self) -> bool {
        true
    }

    fn supports_struct_literal(&self) -> bool {
        true
    }

    fn supports_map_literal_with_angle_brackets(&self) -> bool {
        true
    }

    fn supports_create_table_using(&self) -> bool {
        true
    }

    /// `long` is `bigint`.
    fn supports_long_type_as_bigint(&self) -> bool {
        true
    }

    fn supports_values_as_table_factor(&self) -> bool {
        true
    }

    fn require_interval_qualifier(&self) -> bool {
        true
    }

    fn supports_limit_comma(&self) -> bool {
        true
    }

    /// Iceberg `CREATE TABLE … USING iceberg`, `ALTER TABLE` and `CREATE DATABASE`
    /// (sqlparser's own grammar for them differs).
    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
        let h = Hooks {
            grammar: Grammar::Spark,
            refusals: &self.refusals,
        };
        match hooks::first_keywords(parser) {
            (Keyword::CREATE, Keyword::TABLE) => Some(hooks::create_table(&h, parser)),
            (Keyword::CREATE, Keyword::DATABASE) => Some(hooks::create_database(&h, parser)),
            (Keyword::CREATE, Keyword::TEMPORARY) if self.staging => {
                Some(hooks::create_staging_table(&h, parser))
            }
            (Keyword::ALTER, Keyword::TABLE) => Some(hooks::alter_table(&h, parser)),
            _ => None,
        }
    }
}

/// Spark `CALL <catalog>.system.<procedure>(name => value, …)`.
fn check_call(ctx: &Ctx, f: &sqlparser::ast::Function) -> Result<()> {
    let parts: Vec<Option<&str>> = f
        .name
        .0
        .iter()
        .map(|p| p.as_ident().map(|i| i.value.as_str()))
        .collect();
    if let Some(msg) = call_name_problem(&f.name, &parts, ctx.kind) {
        return Err(ctx.at_span(msg, f.name.span()));
    }
    let args_ok = match &f.args {
        FunctionArguments::List(l) => {
            l.duplicate_treatment.is_none()
                && l.clauses.is_empty()
                && l.args
                    .iter()
                    .all(|a| matches!(a, FunctionArg::Named { .. }))
        }
        FunctionArguments::None => false,
        FunctionArguments::Subquery(_) => false,
    };
    if !args_ok
        || f.filter.is_some()
        || f.over.is_some()
        || f.null_treatment.is_some()
        || !f.within_group.is_empty()
    {
        return Err(ctx.at_span(call_args_refusal(ctx.kind), f.name.span()));
    }
    Ok(())
}
