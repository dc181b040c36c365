//! Trino's half for the tests' oracle: one sqlparser dialect (Trino's grammar) for every
//! statement, with hooks for the Iceberg connector's statement shapes: `CREATE TABLE …
//! [COMMENT '…'] [WITH (…)]` (CTAS too), `ALTER TABLE` with `ADD COLUMN`, `DROP COLUMN`,
//! `RENAME COLUMN`, `ALTER COLUMN … SET DATA TYPE`, `SET PROPERTIES`, `RENAME TO`, and
//! `ALTER TABLE … EXECUTE optimize | expire_snapshots`; `CREATE SCHEMA`, `DROP SCHEMA`,
//! `SHOW TABLES … LIKE`.
//!
//! Shapes from <https://trino.io/docs/current/sql/create-table.html>,
//! <https://trino.io/docs/current/sql/alter-table.html> and
//! <https://trino.io/docs/current/connector/iceberg.html>. The AST nodes they map onto:
//!
//! | input | AST |
//! |---|---|
//! | `WITH (k = v, …)` | `CreateTable::table_options = With([k = v])` |
//! | `COMMENT '…'` after the columns | checked, not kept |
//! | `SET PROPERTIES k = v, …` | `AlterTableOperation::SetTblProperties` |
//! | `EXECUTE optimize [(file_size_threshold => '…')] [WHERE p]` | `Statement::OptimizeTable { predicate: p, .. }` |
//! | `EXECUTE expire_snapshots[(retention_threshold => '…', retain_last => n)]` | `Statement::Vacuum` with every flag off |
//! | `EXECUTE remove_orphan_files[(retention_threshold => '…')]` | `Statement::Vacuum` with every flag off |
//! | `CREATE SCHEMA s [WITH (location = '…')]` | `Statement::CreateDatabase { location, .. }` |
//! | `DROP SCHEMA s [CASCADE]` | `Statement::Drop { object_type: Database, .. }` |
//! | `SHOW TABLES IN s LIKE 'p' [ESCAPE '\']` | `Statement::ShowTables` with a `Like(p)` filter |

use super::{OracleSyntax, ParserDialect};
use crate::dialect::grammar::is_reserved_in_dml;
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;
use crate::validate::dialects::trino::{
    like_escape_problem, schema_property_problem, trino_column_type_problem, TrinoSyntax,
};
use crate::validate::dialects::TargetSyntax;
use crate::validate::lexer::Rules;
use crate::validate::oracle::allow::{check_with_properties, object_span, wrong_kind, Ctx, Exempt};
use crate::validate::oracle::hooks::{self, here, kw, optimize_where, word_is, Hooks, Refusals};
use crate::validate::stack::StackBudget;
use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::helpers::stmt_create_table::CreateTableBuilder;
use sqlparser::ast::{
    AlterColumnOperation, AlterTable, AlterTableOperation, ArrayElemTypeDef, ColumnDef,
    ColumnOption, CreateTable, CreateTableOptions, DataType, ExactNumberInfo, Expr, Ident,
    MapBracketKind, ObjectName, ObjectType, RenameTableNameKind, ShowStatementFilter,
    ShowStatementFilterPosition, ShowStatementIn, ShowStatementInClause, ShowStatementOptions,
    SqlOption, Statement, StructBracketKind, TimezoneInfo, VacuumStatement,
};
use sqlparser::dialect::Dialect as SqlDialect;
use sqlparser::keywords::{self, Keyword};
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Location, Span, Token};

impl OracleSyntax for TrinoSyntax {
    fn parser(&self, _grammar: Grammar, _kind: StatementKind) -> Box<dyn ParserDialect> {
        Box::new(TrinoDialect::default())
    }

    /// `CREATE TABLE t (…) [WITH (…)]` or `CREATE TABLE t [WITH (…)] AS SELECT …`, with
    /// `partitioning = ARRAY['day(ts)', 'bucket(id, 16)', …]` in Trino's order.
    fn check_create_table(&self, ctx: &Ctx, ct: &CreateTable, exempt: &mut Exempt) -> Result<()> {
        let name_span = object_span(&ct.name);
        match &ct.table_options {
            CreateTableOptions::With(opts) => {
                exempt.add_keys(opts);
                check_with_properties(ctx, opts, name_span)?;
                super::athena::check_ctas_partitioning(ctx, opts)?;
            }
            CreateTableOptions::None => {}
            other => {
                return Err(ctx.at_span(
                    format!(
                        "table options written `{other}`: Trino takes WITH (property = value, …)"
                    ),
                    name_span,
                ))
            }
        }
        if ct.query.is_some() && !ct.columns.is_empty() {
            return Err(ctx.at_span(
                "CREATE TABLE … AS SELECT with a column list: Trino takes the schema from the query",
                name_span,
            ));
        }
        if ct.query.is_none() && ct.columns.is_empty() {
            return Err(ctx.at_span("CREATE TABLE needs a column list", name_span));
        }
        Ok(())
    }

    /// `ALTER TABLE t EXECUTE optimize …` / `… EXECUTE expire_snapshots(…)`.
    fn check_maintenance(&self, ctx: &Ctx, stmt: &Statement) -> Result<()> {
        match (ctx.kind, stmt) {
            (StatementKind::Optimize, Statement::OptimizeTable { .. }) => Ok(()),
            (StatementKind::Vacuum, Statement::Vacuum(_)) => Ok(()),
            (kind, _) => Err(wrong_kind(ctx, stmt, &self.maintenance().statement(kind))),
        }
    }

    fn check_unload(&self, ctx: &Ctx, _stmt: &Statement, _exempt: &mut Exempt) -> Result<()> {
        let refusal = self.unload_refusal().unwrap_or_default();
        Err(ctx.at_span(refusal, Span::empty()))
    }
}

/// Trino with the Iceberg connector: double-quoted names, `''` in strings, Trino type
/// names (`varchar`, `array(T)`, `row(a T)`), `WITH (…)` table properties and `ALTER
/// TABLE … EXECUTE`.
#[derive(Debug, Default)]
pub(crate) struct TrinoDialect {
    refusals: Refusals,
    stack: StackBudget,
}

impl ParserDialect for TrinoDialect {
    fn refusals(&self) -> &Refusals {
        &self.refusals
    }

    fn stack(&self) -> &StackBudget {
        &self.stack
    }

    fn lexical_rules(&self) -> &'static Rules {
        &Rules::TRINO
    }
}

impl SqlDialect for TrinoDialect {
    /// `x NOT NULL` is not `x IS NOT NULL` here (see [`super::no_postfix_not_null`]).
    fn get_next_precedence(&self, parser: &Parser) -> Option<Result<u8, ParserError>> {
        super::no_postfix_not_null(parser)
    }

    /// A keyword Trino does not reserve is a name where a name can stand: `interval`,
    /// `struct` (which sqlparser reserves for names by default) are names to Trino
    /// (<https://trino.io/docs/current/language/reserved.html>).
    fn is_reserved_for_identifier(&self, kw: Keyword) -> bool {
        kw != Keyword::NoKeyword && is_reserved_in_dml(&format!("{kw:?}").to_ascii_lowercase())
    }

    /// sqlparser's own expression parse, within the stack budget.
    fn parse_prefix(&self, _parser: &mut Parser) -> Option<Result<Expr, ParserError>> {
        self.stack.check().err().map(Err)
    }

    /// An implicit or `AS` alias is a name: a word Trino reserves (`true`, `null`,
    /// `case`) is not one unquoted (sqlparser's own list is shorter).
    fn is_column_alias(&self, kw: &Keyword, _parser: &mut Parser) -> bool {
        !keywords::RESERVED_FOR_COLUMN_ALIAS.contains(kw) && !self.is_reserved_for_identifier(*kw)
    }

    fn is_select_item_alias(&self, explicit: bool, kw: &Keyword, parser: &mut Parser) -> bool {
        (explicit && !self.is_reserved_for_identifier(*kw)) || self.is_column_alias(kw, parser)
    }

    fn is_identifier_start(&self, ch: char) -> bool {
        ch.is_ascii_alphabetic() || ch == '_'
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        ch.is_ascii_alphanumeric() || ch == '_'
    }

    /// Backticks open a name too, so the checker can say Trino wants double quotes.
    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        ch == '"' || ch == '`'
    }

    fn supports_string_literal_column_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn supports_string_literal_table_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn identifier_quote_style(&self, _identifier: &str) -> Option<char> {
        Some('"')
    }

    /// `'O''Reilly'`; a backslash is an ordinary character.
    fn supports_string_literal_backslash_escape(&self) -> bool {
        false
    }

    fn supports_unicode_string_literal(&self) -> bool {
        true
    }

    fn supports_filter_during_aggregation(&self) -> bool {
        true
    }

    fn supports_group_by_expr(&self) -> bool {
        true
    }

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

    fn require_interval_qualifier(&self) -> bool {
        true
    }

    /// Parsed only so the allow-list can reject MySQL's `LIMIT a, b` with a clear message.
    fn supports_limit_comma(&self) -> bool {
        true
    }

    fn supports_values_as_table_factor(&self) -> bool {
        true
    }

    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
        let h = Hooks {
            grammar: Grammar::TrinoDml,
            refusals: &self.refusals,
        };
        match hooks::first_keywords(parser) {
            (Keyword::CREATE, Keyword::TABLE) => Some(create_table(&h, parser)),
            (Keyword::ALTER, Keyword::TABLE) => Some(alter_table(&h, parser)),
            (Keyword::CREATE, Keyword::SCHEMA) => Some(create_schema(&h, parser)),
            (Keyword::DROP, Keyword::SCHEMA) => Some(drop_schema(parser)),
            (Keyword::SHOW, Keyword::TABLES) => Some(show_tables(&h, parser)),
            (verb @ (Keyword::CREATE | Keyword::DROP), Keyword::DATABASE) => Some(h.refuse(
                format!("{verb:?} DATABASE is Hive syntax: Trino writes {verb:?} SCHEMA"),
                here(parser),
            )),
            _ => None,
        }
    }

    fn parse_data_type(&self, parser: &mut Parser) -> Option<Result<DataType, ParserError>> {
        if let Err(e) = self.stack.check() {
            return Some(Err(e));
        }
        hooks::trino_paren_type(parser)
    }
}

/// `CREATE TABLE [IF NOT EXISTS] name [(cols)] [COMMENT '…'] [WITH (…)] [AS query]`.
/// `CREATE SCHEMA [IF NOT EXISTS] s [WITH (location = '…')]`, read as a CREATE DATABASE
/// with that location (the Iceberg connector's one schema property).
fn create_schema(h: &Hooks, p: &mut Parser) -> Result<Statement, ParserError> {
    p.expect_keywords(&[Keyword::CREATE, Keyword::SCHEMA])?;
    let if_not_exists = p.parse_keywords(&[Keyword::IF, Keyword::NOT, Keyword::EXISTS]);
    let db_name = p.parse_object_name(false)?;
    let mut location = None;
    if p.parse_keyword(Keyword::WITH) {
        p.expect_token(&Token::LParen)?;
        let start = here(p);
        let key = p.parse_identifier()?;
        if let Some(msg) = schema_property_problem(&key, key.quote_style.is_none(), &key.value) {
            return h.refuse(msg, start);
        }
        p.expect_token(&Token::Eq)?;
        location = Some(string(p, "the schema location")?);
        p.expect_token(&Token::RParen)?;
    }
    Ok(hooks::create_database_statement(
        db_name,
        if_not_exists,
        None,
        location,
    ))
}

/// `DROP SCHEMA [IF EXISTS] s [CASCADE | RESTRICT]`, read as a DROP DATABASE.
fn drop_schema(p: &mut Parser) -> Result<Statement, ParserError> {
    p.expect_keywords(&[Keyword::DROP, Keyword::SCHEMA])?;
    let if_exists = p.parse_keywords(&[Keyword::IF, Keyword::EXISTS]);
    let name = p.parse_object_name(false)?;
    let cascade = p.parse_keyword(Keyword::CASCADE);
    let restrict = !cascade && p.parse_keyword(Keyword::RESTRICT);
    Ok(Statement::Drop {
        object_type: ObjectType::Database,
        if_exists,
        names: vec![name],
        cascade,
        restrict,
        purge: false,
        temporary: false,
        table: None,
    })
}

/// `SHOW TABLES [FROM | IN s] [LIKE 'p' [ESCAPE '\']]`: the pattern is kept as a LIKE
/// filter; the only escape character this crate writes is `\`.
fn show_tables(h: &Hooks, p: &mut Parser) -> Result<Statement, ParserError> {
    p.expect_keywords(&[Keyword::SHOW, Keyword::TABLES])?;
    let show_in = match p.parse_one_of_keywords(&[Keyword::FROM, Keyword::IN]) {
        Some(k) => Some(ShowStatementIn {
            clause: if k == Keyword::IN {
                ShowStatementInClause::IN
            } else {
                ShowStatementInClause::FROM
            },
            parent_type: None,
            parent_name: Some(p.parse_object_name(false)?),
        }),
        None => None,
    };
    let mut filter_position = None;
    if p.parse_keyword(Keyword::LIKE) {
        let pattern = string(p, "the SHOW TABLES pattern")?;
        let start = here(p);
        if p.parse_keyword(Keyword::ESCAPE) {
            let escape = string(p, "the LIKE escape character")?;
            if let Some(msg) = like_escape_problem(&escape) {
                return h.refuse(msg, start);
            }
        }
        filter_position = Some(ShowStatementFilterPosition::Suffix(
            ShowStatementFilter::Like(pattern),
        ));
    }
    Ok(Statement::ShowTables {
        terse: false,
        history: false,
        extended: false,
        full: false,
        external: false,
        show_options: ShowStatementOptions {
            show_in,
            starts_with: None,
            limit: None,
            limit_from: None,
            filter_position,
        },
    })
}

fn create_table(h: &Hooks, p: &mut Parser) -> Result<Statement, ParserError> {
    p.expect_keywords(&[Keyword::CREATE, Keyword::TABLE])?;
    let if_not_exists = p.parse_keywords(&[Keyword::IF, Keyword::NOT, Keyword::EXISTS]);
    let name = p.parse_object_name(false)?;
    let columns = if p.consume_token(&Token::LParen) {
        let cols = p.parse_comma_separated(|p| column_def(h, p))?;
        p.expect_token(&Token::RParen)?;
        cols
    } else {
        Vec::new()
    };
    if p.parse_keyword(Keyword::COMMENT) {
        string(p, "a table COMMENT")?;
    }
    let table_options = if p.peek_keyword(Keyword::WITH) {
        CreateTableOptions::With(p.parse_options(Keyword::WITH)?)
    } else {
        CreateTableOptions::None
    };
    let query = if p.parse_keyword(Keyword::AS) {
        Some(p.parse_query()?)
    } else {
        None
    };
    Ok(Statement::CreateTable(
        CreateTableBuilder::new(name)
            .if_not_exists(if_not_exists)
            .columns(columns)
            .table_options(table_options)
            .query(query)
            .build(),
    ))
}

/// A `'single-quoted'` string.
fn string(p: &mut Parser, what: &str) -> Result<String, ParserError> {
    let tok = p.next_token();
    match tok.token {
        Token::SingleQuotedString(s) => Ok(s),
        _ => p.expected(&format!("{what} as a single-quoted string"), tok),
    }
}

/// `name type [NOT NULL] [COMMENT '…']`.
fn column_def(h: &Hooks, p: &mut Parser) -> Result<ColumnDef, ParserError> {
    let type_at = p.peek_nth_token_ref(1).span.start;
    let col = p.parse_column_def()?;
    check_type(h, &col.data_type, type_at)?;
    for opt in &col.options {
        let ok = opt.name.is_none()
            && matches!(opt.option, ColumnOption::Comment(_) | ColumnOption::NotNull);
        if !ok {
            return h.refuse(
                format_args!(
                    "column `{}` has the option `{opt}`: Trino Iceberg columns here take only NOT NULL \
                     and COMMENT '…'",
                    col.name.value
                ),
                col.name.span.start,
            );
        }
    }
    Ok(col)
}

/// The Iceberg connector's type names (its "Type mapping"); anything else is refused.
fn check_type(h: &Hooks, t: &DataType, loc: Location) -> Result<(), ParserError> {
    let ok = match t {
        DataType::Boolean
        | DataType::Int(None)
        | DataType::Integer(None)
        | DataType::BigInt(None)
        | DataType::Real
        | DataType::Double(ExactNumberInfo::None)
        | DataType::Decimal(
            ExactNumberInfo::PrecisionAndScale(..) | ExactNumberInfo::Precision(_),
        )
        | DataType::Date
        | DataType::Varchar(None)
        | DataType::Varbinary(None) => true,
        DataType::Timestamp(Some(6), TimezoneInfo::None | TimezoneInfo::WithTimeZone) => true,
        DataType::Array(ArrayElemTypeDef::Parenthesis(inner)) => {
            return check_type(h, inner, loc);
        }
        DataType::Map(k, v, MapBracketKind::Parentheses) => {
            check_type(h, k, loc)?;
            return check_type(h, v, loc);
        }
        DataType::Struct(fields, StructBracketKind::Parentheses) => {
            for f in fields {
                check_type(h, &f.field_type, loc)?;
            }
            return Ok(());
        }
        _ => false,
    };
    match trino_column_type_problem(t, ok) {
        Some(msg) => h.refuse(msg, loc),
        None => Ok(()),
    }
}

const TRINO_ALTERS: &str = "Trino ALTER TABLE here accepts ADD COLUMN, DROP COLUMN c, \
     RENAME COLUMN a TO b, ALTER COLUMN c SET DATA TYPE t, SET PROPERTIES k = v, RENAME TO and \
     EXECUTE optimize | expire_snapshots";

fn alter_table(h: &Hooks, p: &mut Parser) -> Result<Statement, ParserError> {
    p.expect_keywords(&[Keyword::ALTER, Keyword::TABLE])?;
    let name = p.parse_object_name(false)?;
    let at = here(p);
    let found = p.peek_token_ref().token.to_string();
    let operation = match (kw(p, 0), kw(p, 1)) {
        (Keyword::EXECUTE, _) => {
            p.advance_token();
            return execute(h, p, name);
        }
        (Keyword::ADD, Keyword::COLUMN) => {
            p.advance_token();
            p.advance_token();
            AlterTableOperation::AddColumn {
                column_keyword: true,
                if_not_exists: false,
                column_def: column_def(h, p)?,
                column_position: None,
            }
        }
        (Keyword::DROP, Keyword::COLUMN) => {
            p.advance_token();
            p.advance_token();
            AlterTableOperation::DropColumn {
                has_column_keyword: true,
                column_names: vec![p.parse_identifier()?],
                if_exists: false,
                drop_behavior: None,
            }
        }
        (Keyword::RENAME, Keyword::COLUMN) => {
            p.advance_token();
            p.advance_token();
            let old_column_name = p.parse_identifier()?;
            p.expect_keyword_is(Keyword::TO)?;
            AlterTableOperation::RenameColumn {
                old_column_name,
                new_column_name: p.parse_identifier()?,
            }
        }
        (Keyword::RENAME, Keyword::TO) => {
            p.advance_token();
            p.advance_token();
            AlterTableOperation::RenameTable {
                table_name: RenameTableNameKind::To(p.parse_object_name(false)?),
            }
        }
        (Keyword::ALTER, Keyword::COLUMN) => {
            p.advance_token();
            p.advance_token();
            let column_name = p.parse_identifier()?;
            p.expect_keywords(&[Keyword::SET, Keyword::DATA, Keyword::TYPE])?;
            let type_at = here(p);
            let data_type = p.parse_data_type()?;
            check_type(h, &data_type, type_at)?;
            AlterTableOperation::AlterColumn {
                column_name,
                op: AlterColumnOperation::SetDataType {
                    data_type,
                    using: None,
                    had_set: true,
                },
            }
        }
        (Keyword::SET, _) if word_is(p, 1, "PROPERTIES") => {
            p.advance_token();
            p.advance_token();
            let table_properties = p.parse_comma_separated(property)?;
            AlterTableOperation::SetTblProperties { table_properties }
        }
        (Keyword::SET | Keyword::UNSET, Keyword::TBLPROPERTIES) => {
            return h.refuse(
                format_args!(
                    "ALTER TABLE … {found} TBLPROPERTIES is Hive syntax: Trino writes SET PROPERTIES \
                     k = v (k = DEFAULT to remove one)"
                ),
                at,
            );
        }
        _ => return h.refuse(format_args!("ALTER TABLE … {found}: {TRINO_ALTERS}"), at),
    };
    let end_token = AttachedToken(p.get_current_token().clone());
    Ok(Statement::AlterTable(AlterTable {
        name,
        if_exists: false,
        only: false,
        operations: vec![operation],
        location: None,
        on_cluster: None,
        table_type: None,
        end_token,
    }))
}

/// `k = value` or `k = DEFAULT` in `SET PROPERTIES`.
fn property(p: &mut Parser) -> Result<SqlOption, ParserError> {
    let key = p.parse_identifier()?;
    p.expect_token(&Token::Eq)?;
    let value = if p.parse_keyword(Keyword::DEFAULT) {
        Expr::Identifier(Ident::new("DEFAULT"))
    } else {
        p.parse_expr()?
    };
    Ok(SqlOption::KeyValue {
        key: ObjectName::from(vec![key]),
        value,
    })
}

/// After `ALTER TABLE name EXECUTE`: `optimize [(file_size_threshold => '…')] [WHERE p]`,
/// `expire_snapshots[(retention_threshold => '…', retain_last => n)]` or
/// `remove_orphan_files[(retention_threshold => '…')]`.
fn execute(h: &Hooks, p: &mut Parser, name: ObjectName) -> Result<Statement, ParserError> {
    let at = here(p);
    let (optimize, allowed): (bool, &[&str]) = if word_is(p, 0, "optimize") {
        (true, &["file_size_threshold"])
    } else if word_is(p, 0, "expire_snapshots") {
        (false, &["retention_threshold", "retain_last"])
    } else if word_is(p, 0, "remove_orphan_files") {
        (false, &["retention_threshold"])
    } else {
        let found = p.peek_token_ref().token.to_string();
        return h.refuse(
            format_args!(
                "ALTER TABLE … EXECUTE {found}: the statements generated here are EXECUTE optimize, \
                 EXECUTE expire_snapshots and EXECUTE remove_orphan_files"
            ),
            at,
        );
    };
    p.advance_token();
    if p.consume_token(&Token::LParen) {
        p.parse_comma_separated(|p| {
            let arg = p.parse_identifier()?;
            if arg.quote_style.is_some() || !allowed.contains(&arg.value.as_str()) {
                return h.refuse(
                    format_args!(
                        "argument `{}`: this procedure takes {}",
                        arg.value,
                        allowed.join(", ")
                    ),
                    arg.span.start,
                );
            }
            p.expect_token(&Token::RArrow)?;
            let tok = p.next_token();
            match tok.token {
                Token::SingleQuotedString(_) if arg.value != "retain_last" => Ok(()),
                Token::Number(..) if arg.value == "retain_last" => Ok(()),
                _ => p.expected(&format!("a value for {}", arg.value), tok),
            }
        })?;
        p.expect_token(&Token::RParen)?;
    }
    if !optimize {
        return Ok(Statement::Vacuum(VacuumStatement {
            full: false,
            sort_only: false,
            delete_only: false,
            reindex: false,
            recluster: false,
            table_name: Some(name),
            threshold: None,
            boost: false,
        }));
    }
    optimize_where(p, name)
}
