//! Parser hooks for the statement shapes sqlparser has no grammar for: Iceberg
//! `CREATE TABLE … PARTITIONED BY (transforms)`, `ALTER TABLE … ADD COLUMNS (…)` /
//! `UNSET TBLPROPERTIES (…)`, Athena `OPTIMIZE … REWRITE DATA USING BIN_PACK` and
//! `VACUUM`, plus Trino's parenthesised `array(T)` / `map(K, V)` / `row(a T, …)` types.
//!
//! Results are mapped onto existing AST nodes (sqlparser has no custom statement), so
//! their `Display` is **not** the input text; we only validate, never render:
//!
//! | input | AST |
//! |---|---|
//! | `PARTITIONED BY (day(ts), bucket(16, id), c)` | `CreateTable::partition_by = Some(Expr::Tuple([day(ts), bucket(16, id), c]))` |
//! | `LOCATION '…'`, Spark `USING iceberg` | `CreateTable::hive_formats` (`location`, `storage = Using`) |
//! | `TBLPROPERTIES ('k'='v')` | `CreateTable::table_options = TableProperties([k = 'v'])` |
//! | `ADD COLUMNS (a int, b string)` | one `AlterTableOperation::AddColumn` per column (`column_keyword: false`) |
//! | `UNSET TBLPROPERTIES ('k')` | `AlterTableOperation::ResetOptions { options: ['k'] }` |
//! | `CHANGE [COLUMN] a b int [COMMENT 'x']` | `AlterTableOperation::ChangeColumn` |
//! | `OPTIMIZE t REWRITE DATA USING BIN_PACK [WHERE p]` | `Statement::OptimizeTable { predicate: p, .. }` |
//! | `VACUUM t` | `Statement::Vacuum` with every flag off |
//! | `CREATE DATABASE d [COMMENT 'c'] [LOCATION 'l']` | `Statement::CreateDatabase { comment, location, .. }` |
//! | `row(a double, b int)` | `DataType::Struct(fields, StructBracketKind::Parentheses)` |
//!
//! A hook that sees syntax the engine lacks records a [`Refusal`] (message and
//! position) in its [`Refusals`] slot and stops the parser with an error; the pipeline
//! turns that refusal into [`crate::ErrorKind::DisallowedSyntax`] instead of a parse
//! error. Which statements a target's parser hands to which hook is decided in
//! `super::dialects`.

use std::cell::RefCell;
use std::fmt::Display;

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::helpers::stmt_create_table::CreateTableBuilder;
use sqlparser::ast::{
    AlterColumnOperation, AlterTable, AlterTableOperation, ArrayElemTypeDef, ColumnDef,
    ColumnOption, CommentDef, CreateTableOptions, DataType, ExactNumberInfo, Expr, FunctionArg,
    FunctionArgExpr, FunctionArguments, HiveFormat, HiveIOFormat, Ident, MapBracketKind,
    MySQLColumnPosition, ObjectName, RenameTableNameKind, SqlOption, Statement, StructBracketKind,
    StructField, TimezoneInfo, VacuumStatement, Value,
};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Location, Token};

use crate::dialect::Grammar;
use crate::validate::ddl_rules::{
    column_option_refusal, column_type_problem, ddl_string_problem, tblproperty_key_problem,
    tblproperty_value_problem, transform_problem, ColumnType, Transform, TransformArg,
    EXTERNAL_TABLE,
};

/// Syntax a hook refuses because the engine does not accept it (rather than text that
/// does not parse): what was found and what to write instead, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// What was refused and what the engine accepts instead.
    pub(in crate::validate) message: String,
    /// Where in the text.
    pub(in crate::validate) location: Location,
    /// The parser error the hook stopped the parse with.
    error: String,
}

/// Where a parse's hooks leave their refusal. sqlparser only carries errors as text, so
/// a refusing hook also returns a parser error to stop the parse; the pipeline then asks
/// the slot whether the error it got is that refusal (an error from elsewhere, e.g. a
/// branch sqlparser tried and abandoned, is not).
#[derive(Debug, Default)]
pub(crate) struct Refusals(RefCell<Option<Refusal>>);

impl Refusals {
    /// The refusal that produced the parser error `error`, if any.
    pub(in crate::validate) fn take_for(&self, error: &ParserError) -> Option<Refusal> {
        let text = error.to_string();
        let mut slot = self.0.borrow_mut();
        match slot.take() {
            Some(r) if text.contains(&r.error) => Some(r),
            other => {
                *slot = other;
                None
            }
        }
    }
}

/// What every hook needs: the grammar being parsed and the slot for its refusal.
pub(in crate::validate) struct Hooks<'a> {
    pub(in crate::validate) grammar: Grammar,
    pub(in crate::validate) refusals: &'a Refusals,
}

impl Hooks<'_> {
    /// Refuses syntax the engine does not accept, pointing at `loc`.
    pub(in crate::validate) fn refuse<T>(
        &self,
        msg: impl Display,
        loc: Location,
    ) -> Result<T, ParserError> {
        let message = msg.to_string();
        let error = format!("{message}{loc}");
        *self.refusals.0.borrow_mut() = Some(Refusal {
            message,
            location: loc,
            error: error.clone(),
        });
        Err(ParserError::ParserError(error))
    }
}

/// The keyword of the `n`th next non-whitespace token (`NoKeyword` if it is not an
/// unquoted keyword).
pub(in crate::validate) fn kw(p: &Parser, n: usize) -> Keyword {
    match &p.peek_nth_token_ref(n).token {
        Token::Word(w) if w.quote_style.is_none() => w.keyword,
        _ => Keyword::NoKeyword,
    }
}

/// Whether the `n`th next token is the unquoted word `s` (any case).
pub(in crate::validate) fn word_is(p: &Parser, n: usize, s: &str) -> bool {
    matches!(&p.peek_nth_token_ref(n).token,
        Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(s))
}

pub(in crate::validate) fn here(p: &Parser) -> Location {
    p.peek_token_ref().span.start
}

/// Consumes the unquoted words `words` in order, or fails naming `what`.
fn expect_words(p: &mut Parser, words: &[&str], what: &str) -> Result<(), ParserError> {
    for w in words {
        if word_is(p, 0, w) {
            p.advance_token();
        } else {
            return p.expected_ref(what, p.peek_token_ref());
        }
    }
    Ok(())
}

/// A `'single-quoted'` string literal (no other string forms).
pub(in crate::validate) fn quoted_string(
    h: &Hooks,
    p: &mut Parser,
    what: &str,
) -> Result<String, ParserError> {
    let tok = p.next_token();
    match tok.token {
        Token::SingleQuotedString(s) => {
            if h.grammar == Grammar::HiveDdl {
                check_ddl_string(h, &s, what, tok.span.start)?;
            }
            Ok(s)
        }
        _ => p.expected(&format!("{what} as a single-quoted string"), tok),
    }
}

/// Hive DDL strings: the Hive lexer's escaping is unverified on Athena, so `'`, `\` and
/// control characters are refused outright.
pub(in crate::validate) fn check_ddl_string(
    h: &Hooks,
    s: &str,
    what: &str,
    loc: Location,
) -> Result<(), ParserError> {
    match ddl_string_problem(s, what) {
        Some(msg) => h.refuse(msg, loc),
        None => Ok(()),
    }
}

/// Athena refuses `CREATE EXTERNAL TABLE` for Iceberg tables.
pub(in crate::validate) fn create_external_table(
    h: &Hooks,
    p: &mut Parser,
) -> Result<Statement, ParserError> {
    h.refuse(EXTERNAL_TABLE, p.peek_nth_token_ref(1).span.start)
}

/// A staged load's staging table, in one of two shapes:
///
/// * Athena (Hive DDL): `CREATE EXTERNAL TABLE name (cols) STORED AS PARQUET LOCATION 's'`;
/// * Spark: `CREATE TEMPORARY VIEW name (cols) USING parquet OPTIONS (path 's')`.
///
/// Mapped onto a `CreateTable` with `external` (Athena) or `temporary` (Spark) set,
/// the format in `hive_formats.storage` and the path in `hive_formats.location`.
pub(in crate::validate) fn create_staging_table(
    h: &Hooks,
    p: &mut Parser,
) -> Result<Statement, ParserError> {
    let spark = h.grammar == Grammar::Spark;
    p.expect_keyword_is(Keyword::CREATE)?;
    if spark {
        p.expect_keywords(&[Keyword::TEMPORARY, Keyword::VIEW])?;
    } else {
        p.expect_keywords(&[Keyword::EXTERNAL, Keyword::TABLE])?;
    }
    let name = p.parse_object_name(false)?;
    p.expect_token(&Token::LParen)?;
    let columns = p.parse_comma_separated(|p| column_def(h, p))?;
    p.expect_token(&Token::RParen)?;
    let storage = if spark {
        p.expect_keyword_is(Keyword::USING)?;
        let format = p.parse_identifier()?;
        if !format.value.eq_ignore_ascii_case("parquet") || format.quote_style.is_some() {
            return h.refuse(
                format_args!("USING {format}: staged files are read with USING parquet"),
                format.span.start,
            );
        }
        HiveIOFormat::Using { format }
    } else {
        p.expect_keywords(&[Keyword::STORED, Keyword::AS])?;
        expect_words(p, &["PARQUET"], "PARQUET (staged files are Parquet)")?;
        HiveIOFormat::FileFormat {
            format: sqlparser::ast::FileFormat::PARQUET,
        }
    };
    let location = if spark {
        p.expect_keyword_is(Keyword::OPTIONS)?;
        p.expect_token(&Token::LParen)?;
        expect_words(p, &["path"], "path 's3://…' (the only option)")?;
        let path = quoted_string(h, p, "the staging path")?;
        p.expect_token(&Token::RParen)?;
        path
    } else {
        p.expect_keyword_is(Keyword::LOCATION)?;
        quoted_string(h, p, "LOCATION")?
    };
    Ok(Statement::CreateTable(
        CreateTableBuilder::new(name)
            .external(!spark)
            .temporary(spark)
            .columns(columns)
            .hive_formats(Some(HiveFormat {
                row_format: None,
                serde_properties: None,
                storage: Some(storage),
                location: Some(location),
            }))
            .build(),
    ))
}

/// The keywords of the next two tokens, for a parser's statement dispatch.
pub(in crate::validate) fn first_keywords(p: &Parser) -> (Keyword, Keyword) {
    (kw(p, 0), kw(p, 1))
}

// ---------------------------------------------------------------------------------
// CREATE TABLE
// ---------------------------------------------------------------------------------

/// Athena: `CREATE TABLE [IF NOT EXISTS] name (cols) [PARTITIONED BY (transforms)]
/// [LOCATION 's'] TBLPROPERTIES (…)`, clauses in that order.
///
/// Spark: `CREATE TABLE [IF NOT EXISTS] name [(cols)] USING iceberg
/// [PARTITIONED BY (…)] [COMMENT 's'] [LOCATION 's'] [TBLPROPERTIES (…)] [AS query]`,
/// clauses in any order, each at most once.
pub(in crate::validate) fn create_table(
    h: &Hooks,
    p: &mut Parser,
) -> Result<Statement, ParserError> {
    p.expect_keywords(&[Keyword::CREATE, Keyword::TABLE])?;
    let if_not_exists = p.parse_keywords(&[Keyword::IF, Keyword::NOT, Keyword::EXISTS]);
    let name = p.parse_object_name(false)?;

    let columns = if h.grammar == Grammar::HiveDdl || p.peek_token_ref().token == Token::LParen {
        p.expect_token(&Token::LParen)?;
        let cols = p.parse_comma_separated(|p| column_def(h, p))?;
        p.expect_token(&Token::RParen)?;
        cols
    } else {
        Vec::new()
    };

    let mut partition_by = None;
    let mut location = None;
    let mut properties = Vec::new();
    let mut using = None;
    let mut comment = None;
    let mut query = None;

    if h.grammar == Grammar::HiveDdl {
        if p.parse_keywords(&[Keyword::PARTITIONED, Keyword::BY]) {
            partition_by = Some(partition_transforms(h, p)?);
        }
        // Whether the target needs a LOCATION is its part's decision
        // (`TargetSyntax::check_create_table`): Amazon S3 Tables chooses it.
        if p.parse_keyword(Keyword::LOCATION) {
            location = Some(quoted_string(h, p, "LOCATION")?);
        }
        if !p.peek_keyword(Keyword::TBLPROPERTIES) {
            return p.expected_ref(
                "TBLPROPERTIES ('table_type'='ICEBERG', …)",
                p.peek_token_ref(),
            );
        }
        properties = table_properties(h, p)?;
    } else {
        loop {
            let start = here(p);
            if p.parse_keyword(Keyword::USING) {
                once(using.is_some(), "USING", start)?;
                let format = p.parse_identifier()?;
                if !format.value.eq_ignore_ascii_case("iceberg") || format.quote_style.is_some() {
                    return h.refuse(
                        format_args!(
                            "USING {format}: Iceberg tables are created with USING iceberg"
                        ),
                        format.span.start,
                    );
                }
                using = Some(format);
            } else if p.parse_keywords(&[Keyword::PARTITIONED, Keyword::BY]) {
                once(partition_by.is_some(), "PARTITIONED BY", start)?;
                partition_by = Some(partition_transforms(h, p)?);
            } else if p.parse_keyword(Keyword::LOCATION) {
                once(location.is_some(), "LOCATION", start)?;
                location = Some(quoted_string(h, p, "LOCATION")?);
            } else if p.parse_keyword(Keyword::COMMENT) {
                once(comment.is_some(), "COMMENT", start)?;
                comment = Some(CommentDef::WithoutEq(quoted_string(h, p, "COMMENT")?));
            } else if p.peek_keyword(Keyword::TBLPROPERTIES) {
                once(!properties.is_empty(), "TBLPROPERTIES", start)?;
                properties = table_properties(h, p)?;
            } else {
                break;
            }
        }
        if using.is_none() {
            return p.expected_ref("USING iceberg", p.peek_token_ref());
        }
        if p.parse_keyword(Keyword::AS) {
            query = Some(p.parse_query()?);
        }
    }

    let hive_formats = (location.is_some() || using.is_some()).then(|| HiveFormat {
        row_format: None,
        serde_properties: None,
        storage: using.map(|format| HiveIOFormat::Using { format }),
        location,
    });
    let table_options = if properties.is_empty() {
        CreateTableOptions::None
    } else {
        CreateTableOptions::TableProperties(properties)
    };
    Ok(Statement::CreateTable(
        CreateTableBuilder::new(name)
            .if_not_exists(if_not_exists)
            .columns(columns)
            .partition_by(partition_by.map(Box::new))
            .hive_formats(hive_formats)
            .table_options(table_options)
            .comment_after_column_def(comment)
            .query(query)
            .build(),
    ))
}

fn once(seen: bool, clause: &str, loc: Location) -> Result<(), ParserError> {
    if seen {
        return Err(ParserError::ParserError(format!(
            "{clause} given twice{loc}"
        )));
    }
    Ok(())
}

/// A column definition: `name type [COMMENT 's']` (Spark also `[NOT NULL]`).
fn column_def(h: &Hooks, p: &mut Parser) -> Result<ColumnDef, ParserError> {
    let type_at = p.peek_nth_token_ref(1).span.start;
    let col = p.parse_column_def()?;
    check_column_type(h, &col.data_type, type_at)?;
    for opt in &col.options {
        let ok = opt.name.is_none()
            && match &opt.option {
                ColumnOption::Comment(_) => true,
                ColumnOption::NotNull => h.grammar == Grammar::Spark,
                _ => false,
            };
        if !ok {
            return h.refuse(
                column_option_refusal(&col.name.value, opt, h.grammar),
                col.name.span.start,
            );
        }
        if let ColumnOption::Comment(c) = &opt.option {
            if h.grammar == Grammar::HiveDdl {
                check_ddl_string(h, c, "a column COMMENT", col.name.span.start)?;
            }
        }
    }
    Ok(col)
}

/// `TBLPROPERTIES ('k'='v', …)`: keys and values single-quoted strings.
fn table_properties(h: &Hooks, p: &mut Parser) -> Result<Vec<SqlOption>, ParserError> {
    let props = p.parse_options(Keyword::TBLPROPERTIES)?;
    check_properties(h, &props)?;
    Ok(props)
}

fn check_properties(h: &Hooks, props: &[SqlOption]) -> Result<(), ParserError> {
    for opt in props {
        let SqlOption::KeyValue { key, value } = opt else {
            return Err(ParserError::ParserError(format!(
                "TBLPROPERTIES entries are 'key'='value', found `{opt}`"
            )));
        };
        let key_ok = key.0.len() == 1
            && key.0[0]
                .as_ident()
                .is_some_and(|i| i.quote_style == Some('\''));
        let loc = key
            .0
            .first()
            .and_then(|k| k.as_ident())
            .map(|i| i.span.start)
            .unwrap_or(Location { line: 0, column: 0 });
        if let Some(msg) = tblproperty_key_problem(key, key_ok) {
            return h.refuse(msg, loc);
        }
        let (string, at) = match value {
            Expr::Value(v) => match &v.value {
                Value::SingleQuotedString(s) => (Some(s.as_str()), v.span.start),
                _ => (None, v.span.start),
            },
            _ => (None, loc),
        };
        if let Some(msg) = tblproperty_value_problem(value, string, h.grammar) {
            return h.refuse(msg, at);
        }
    }
    Ok(())
}

/// `(t1, t2, …)` after `PARTITIONED BY`, returned as one `Expr::Tuple`.
fn partition_transforms(h: &Hooks, p: &mut Parser) -> Result<Expr, ParserError> {
    p.expect_token(&Token::LParen)?;
    let items = p.parse_comma_separated(|p| {
        let start = here(p);
        let e = match super::prefix::partition_transform(p) {
            Some(e) => e,
            None => p.parse_expr()?,
        };
        check_transform(h, &e, start)?;
        Ok(e)
    })?;
    p.expect_token(&Token::RParen)?;
    Ok(Expr::Tuple(items))
}

/// One partition transform: `col` | temporal(col) | bucket|truncate(<int>, col).
fn check_transform(h: &Hooks, e: &Expr, loc: Location) -> Result<(), ParserError> {
    fn arg(x: &Expr) -> TransformArg<'_> {
        match x {
            Expr::Identifier(_) => TransformArg::Column,
            Expr::Value(v) => match &v.value {
                Value::Number(n, false) => TransformArg::Integer(n),
                _ => TransformArg::Other,
            },
            _ => TransformArg::Other,
        }
    }
    let form = match e {
        Expr::Identifier(_) => Transform::Column,
        Expr::Function(f) => {
            let name = match f.name.0.as_slice() {
                [part] => part
                    .as_ident()
                    .filter(|i| i.quote_style.is_none())
                    .map(|i| i.value.as_str()),
                _ => None,
            };
            let args = match &f.args {
                FunctionArguments::List(l)
                    if l.duplicate_treatment.is_none()
                        && l.clauses.is_empty()
                        && f.filter.is_none()
                        && f.over.is_none()
                        && f.null_treatment.is_none()
                        && f.within_group.is_empty()
                        && matches!(f.parameters, FunctionArguments::None) =>
                {
                    Some(
                        l.args
                            .iter()
                            .map(|a| match a {
                                FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) => arg(x),
                                _ => TransformArg::Named,
                            })
                            .collect(),
                    )
                }
                _ => None,
            };
            Transform::Call { name, args }
        }
        _ => Transform::Other,
    };
    match transform_problem(e, &form, h.grammar) {
        Some(msg) => h.refuse(msg, loc),
        None => Ok(()),
    }
}

/// Iceberg column types in the grammar's spelling (Hive for Athena DDL, Spark for
/// Spark); anything else is refused.
fn check_column_type(h: &Hooks, t: &DataType, loc: Location) -> Result<(), ParserError> {
    let spark = h.grammar == Grammar::Spark;
    let form = match t {
        DataType::Boolean
        | DataType::Int(None)
        | DataType::Integer(None)
        | DataType::BigInt(None)
        | DataType::Float(ExactNumberInfo::None)
        | DataType::Double(ExactNumberInfo::None)
        | DataType::Decimal(
            ExactNumberInfo::PrecisionAndScale(..) | ExactNumberInfo::Precision(_),
        )
        | DataType::Date
        | DataType::Timestamp(None, TimezoneInfo::None)
        | DataType::String(None)
        | DataType::Binary(None) => ColumnType::Iceberg,
        DataType::TimestampNtz(None) => ColumnType::TimestampNtz,
        DataType::Array(ArrayElemTypeDef::AngleBracket(inner)) => {
            return check_column_type(h, inner, loc);
        }
        DataType::Map(k, v, MapBracketKind::AngleBrackets) => {
            check_column_type(h, k, loc)?;
            return check_column_type(h, v, loc);
        }
        DataType::Struct(fields, StructBracketKind::AngleBrackets) => {
            for f in fields {
                if f.field_name.is_none() || f.options.is_some() {
                    return h.refuse(
                        format_args!("struct field `{f}`: write struct<name:type,…>"),
                        loc,
                    );
                }
                check_column_type(h, &f.field_type, loc)?;
            }
            return Ok(());
        }
        DataType::Varchar(_) | DataType::Char(_) | DataType::Text => ColumnType::Character,
        DataType::TinyInt(_) | DataType::SmallInt(_) => ColumnType::SmallInteger,
        DataType::Timestamp(..) if !spark => ColumnType::TimestampWithParts,
        DataType::Real => ColumnType::Real,
        _ => ColumnType::Other,
    };
    match column_type_problem(t, form, h.grammar) {
        Some(msg) => h.refuse(msg, loc),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------
// ALTER TABLE
// ---------------------------------------------------------------------------------

const HIVE_ALTERS: &str = "Athena ALTER TABLE accepts ADD COLUMNS (…), DROP COLUMN c, \
     CHANGE [COLUMN] old new type [COMMENT '…'], SET TBLPROPERTIES (…), \
     UNSET TBLPROPERTIES (…) and RENAME TO";
const SPARK_ALTERS: &str = "Spark ALTER TABLE here accepts ADD COLUMN[S], DROP COLUMN c, \
     RENAME COLUMN a TO b, ALTER COLUMN c TYPE t, SET TBLPROPERTIES (…), \
     UNSET TBLPROPERTIES (…) and RENAME TO";

pub(in crate::validate) fn alter_table(
    h: &Hooks,
    p: &mut Parser,
) -> Result<Statement, ParserError> {
    let spark = h.grammar == Grammar::Spark;
    let accepted = if spark { SPARK_ALTERS } else { HIVE_ALTERS };
    p.expect_keywords(&[Keyword::ALTER, Keyword::TABLE])?;
    let name = p.parse_object_name(false)?;
    let at = here(p);
    let found = p.peek_token_ref().token.to_string();
    let operations = match (kw(p, 0), kw(p, 1)) {
        (Keyword::ADD, Keyword::COLUMNS) => {
            p.advance_token();
            p.advance_token();
            p.expect_token(&Token::LParen)?;
            let cols = p.parse_comma_separated(|p| column_def(h, p))?;
            p.expect_token(&Token::RParen)?;
            cols.into_iter()
                .map(|column_def| AlterTableOperation::AddColumn {
                    column_keyword: false,
                    if_not_exists: false,
                    column_def,
                    column_position: None,
                })
                .collect()
        }
        (Keyword::ADD, Keyword::COLUMN) if spark => {
            p.advance_token();
            p.advance_token();
            let column_def = column_def(h, p)?;
            vec![AlterTableOperation::AddColumn {
                column_keyword: true,
                if_not_exists: false,
                column_def,
                column_position: None,
            }]
        }
        (Keyword::ADD | Keyword::DROP | Keyword::REPLACE, Keyword::PARTITION) => {
            let what = if spark {
                "partition evolution (ADD/DROP/REPLACE PARTITION FIELD) is not a statement this crate generates"
            } else {
                "Athena has no partition evolution (ADD/DROP/REPLACE PARTITION FIELD is Spark syntax); \
                 run it in Spark or rebuild the table with the new PARTITIONED BY"
            };
            return h.refuse(format_args!("ALTER TABLE … {found} PARTITION: {what}"), at);
        }
        (Keyword::DROP, Keyword::COLUMN) => {
            p.advance_token();
            p.advance_token();
            let col = p.parse_identifier()?;
            vec![AlterTableOperation::DropColumn {
                has_column_keyword: true,
                column_names: vec![col],
                if_exists: false,
                drop_behavior: None,
            }]
        }
        (Keyword::CHANGE, _) if !spark => {
            p.advance_token();
            let _ = p.parse_keyword(Keyword::COLUMN);
            let old_name = p.parse_identifier()?;
            let new_name = p.parse_identifier()?;
            let type_at = here(p);
            let data_type = p.parse_data_type()?;
            check_column_type(h, &data_type, type_at)?;
            let mut options = Vec::new();
            if p.parse_keyword(Keyword::COMMENT) {
                options.push(ColumnOption::Comment(quoted_string(
                    h,
                    p,
                    "a column COMMENT",
                )?));
            }
            let column_position = if p.parse_keyword(Keyword::FIRST) {
                Some(MySQLColumnPosition::First)
            } else if p.parse_keyword(Keyword::AFTER) {
                Some(MySQLColumnPosition::After(p.parse_identifier()?))
            } else {
                None
            };
            vec![AlterTableOperation::ChangeColumn {
                old_name,
                new_name,
                data_type,
                options,
                column_position,
            }]
        }
        (Keyword::RENAME, Keyword::COLUMN) if spark => {
            p.advance_token();
            p.advance_token();
            let old_column_name = p.parse_identifier()?;
            p.expect_keyword_is(Keyword::TO)?;
            let new_column_name = p.parse_identifier()?;
            vec![AlterTableOperation::RenameColumn {
                old_column_name,
                new_column_name,
            }]
        }
        (Keyword::RENAME, Keyword::COLUMN) => {
            return h.refuse(
                "ALTER TABLE … RENAME COLUMN is not Athena DDL; rename with \
                 ALTER TABLE t CHANGE COLUMN old_name new_name <current type>",
                at,
            );
        }
        (Keyword::RENAME, Keyword::TO) => {
            p.advance_token();
            p.advance_token();
            let new_name = p.parse_object_name(false)?;
            vec![AlterTableOperation::RenameTable {
                table_name: RenameTableNameKind::To(new_name),
            }]
        }
        (Keyword::ALTER, _) if spark => {
            p.advance_token();
            let _ = p.parse_keyword(Keyword::COLUMN);
            let column_name = p.parse_identifier()?;
            p.expect_keyword_is(Keyword::TYPE)?;
            let type_at = here(p);
            let data_type = p.parse_data_type()?;
            check_column_type(h, &data_type, type_at)?;
            vec![AlterTableOperation::AlterColumn {
                column_name,
                op: AlterColumnOperation::SetDataType {
                    data_type,
                    using: None,
                    had_set: false,
                },
            }]
        }
        (Keyword::ALTER, _) => {
            return h.refuse(
                "ALTER TABLE … ALTER COLUMN is not Athena DDL; change a column's type with \
                 ALTER TABLE t CHANGE COLUMN c c <new type>",
                at,
            );
        }
        (Keyword::SET, Keyword::TBLPROPERTIES) => {
            p.advance_token();
            let table_properties = table_properties(h, p)?;
            if table_properties.is_empty() {
                return p.expected_ref("a property", p.peek_token_ref());
            }
            vec![AlterTableOperation::SetTblProperties { table_properties }]
        }
        (Keyword::UNSET, Keyword::TBLPROPERTIES) => {
            p.advance_token();
            p.advance_token();
            p.expect_token(&Token::LParen)?;
            let keys = p.parse_comma_separated(|p| {
                let tok = p.next_token();
                match tok.token {
                    Token::SingleQuotedString(s) => {
                        let mut ident = Ident::with_quote('\'', s);
                        ident.span = tok.span;
                        Ok(ObjectName::from(vec![ident]))
                    }
                    _ => p.expected("a property name as a single-quoted string", tok),
                }
            })?;
            p.expect_token(&Token::RParen)?;
            vec![AlterTableOperation::ResetOptions { options: keys }]
        }
        _ => {
            return h.refuse(format_args!("ALTER TABLE … {found}: {accepted}"), at);
        }
    };
    let end_token = AttachedToken(p.get_current_token().clone());
    Ok(Statement::AlterTable(AlterTable {
        name,
        if_exists: false,
        only: false,
        operations,
        location: None,
        on_cluster: None,
        table_type: None,
        end_token,
    }))
}

// ---------------------------------------------------------------------------------
// CREATE DATABASE
// ---------------------------------------------------------------------------------

/// `CREATE DATABASE [IF NOT EXISTS] name [COMMENT 's'] [LOCATION 's']`: Hive DDL in
/// that order, Spark in any order (each clause once). sqlparser's own grammar for it
/// has no COMMENT before LOCATION; `WITH DBPROPERTIES` is neither generated nor
/// parsed.
pub(in crate::validate) fn create_database(
    h: &Hooks,
    p: &mut Parser,
) -> Result<Statement, ParserError> {
    p.expect_keywords(&[Keyword::CREATE, Keyword::DATABASE])?;
    let if_not_exists = p.parse_keywords(&[Keyword::IF, Keyword::NOT, Keyword::EXISTS]);
    let db_name = p.parse_object_name(false)?;
    let mut comment = None;
    let mut location = None;
    loop {
        let start = here(p);
        if p.parse_keyword(Keyword::COMMENT) {
            once(comment.is_some(), "COMMENT", start)?;
            if h.grammar == Grammar::HiveDdl && location.is_some() {
                return h.refuse(
                    "COMMENT after LOCATION: Athena writes CREATE DATABASE db [COMMENT '…'] [LOCATION '…']",
                    start,
                );
            }
            comment = Some(quoted_string(h, p, "database COMMENT")?);
        } else if p.parse_keyword(Keyword::LOCATION) {
            once(location.is_some(), "LOCATION", start)?;
            location = Some(quoted_string(h, p, "LOCATION")?);
        } else {
            break;
        }
    }
    Ok(create_database_statement(
        db_name,
        if_not_exists,
        comment,
        location,
    ))
}

/// The AST of a `CREATE DATABASE` with these clauses (every other option off).
pub(crate) fn create_database_statement(
    db_name: ObjectName,
    if_not_exists: bool,
    comment: Option<String>,
    location: Option<String>,
) -> Statement {
    Statement::CreateDatabase {
        db_name,
        if_not_exists,
        location,
        managed_location: None,
        or_replace: false,
        transient: false,
        clone: None,
        data_retention_time_in_days: None,
        max_data_extension_time_in_days: None,
        external_volume: None,
        catalog: None,
        replace_invalid_characters: None,
        default_ddl_collation: None,
        storage_serialization_policy: None,
        comment,
        default_charset: None,
        default_collation: None,
        catalog_sync: None,
        catalog_sync_namespace_mode: None,
        catalog_sync_namespace_flatten_delimiter: None,
        with_tags: None,
        with_contacts: None,
    }
}

// ---------------------------------------------------------------------------------
// OPTIMIZE / VACUUM (Athena)
// ---------------------------------------------------------------------------------

/// `OPTIMIZE name REWRITE DATA USING BIN_PACK [WHERE predicate]`.
pub(in crate::validate) fn optimize(h: &Hooks, p: &mut Parser) -> Result<Statement, ParserError> {
    p.advance_token();
    if p.peek_keyword(Keyword::TABLE) {
        return h.refuse(
            "OPTIMIZE TABLE is not Athena syntax; write OPTIMIZE t REWRITE DATA USING BIN_PACK [WHERE …]",
            here(p),
        );
    }
    let name = p.parse_object_name(false)?;
    expect_words(
        p,
        &["REWRITE", "DATA", "USING", "BIN_PACK"],
        "REWRITE DATA USING BIN_PACK (Athena's only OPTIMIZE form)",
    )?;
    optimize_where(p, name)
}

/// The rest of an OPTIMIZE after its fixed words, `[WHERE predicate]`, as the statement
/// every target's OPTIMIZE maps onto (the allow-list then checks the predicate).
pub(in crate::validate) fn optimize_where(
    p: &mut Parser,
    name: ObjectName,
) -> Result<Statement, ParserError> {
    let predicate = if p.parse_keyword(Keyword::WHERE) {
        Some(p.parse_expr()?)
    } else {
        None
    };
    Ok(Statement::OptimizeTable {
        name,
        has_table_keyword: false,
        on_cluster: None,
        partition: None,
        include_final: false,
        deduplicate: None,
        predicate,
        zorder: None,
    })
}

/// `VACUUM name`, nothing else.
pub(in crate::validate) fn vacuum(h: &Hooks, p: &mut Parser) -> Result<Statement, ParserError> {
    p.advance_token();
    let name = p.parse_object_name(false)?;
    let next = p.peek_token_ref();
    if !matches!(next.token, Token::EOF | Token::SemiColon) {
        return h.refuse(
            format_args!(
                "VACUUM takes no options in Athena, found `{}`; retention comes from the table \
                 properties: ALTER TABLE t SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='…', \
                 'vacuum_min_snapshots_to_keep'='…'), then VACUUM t",
                next.token
            ),
            next.span.start,
        );
    }
    Ok(Statement::Vacuum(VacuumStatement {
        full: false,
        sort_only: false,
        delete_only: false,
        reindex: false,
        recluster: false,
        table_name: Some(name),
        threshold: None,
        boost: false,
    }))
}

// ---------------------------------------------------------------------------------
// Trino types
// ---------------------------------------------------------------------------------

/// Trino `array(T)`, `map(K, V)`, `row(name T, …)`; `None` for anything else.
pub(in crate::validate) fn trino_paren_type(
    p: &mut Parser,
) -> Option<Result<DataType, ParserError>> {
    if p.peek_nth_token_ref(1).token != Token::LParen {
        return None;
    }
    let which = if word_is(p, 0, "array") {
        0
    } else if word_is(p, 0, "map") {
        1
    } else if word_is(p, 0, "row") {
        2
    } else {
        return None;
    };
    Some(trino_paren_type_inner(p, which))
}

fn trino_paren_type_inner(p: &mut Parser, which: u8) -> Result<DataType, ParserError> {
    p.advance_token();
    p.expect_token(&Token::LParen)?;
    let ty = match which {
        0 => DataType::Array(ArrayElemTypeDef::Parenthesis(Box::new(
            p.parse_data_type()?,
        ))),
        1 => {
            let k = p.parse_data_type()?;
            p.expect_token(&Token::Comma)?;
            let v = p.parse_data_type()?;
            DataType::Map(Box::new(k), Box::new(v), MapBracketKind::Parentheses)
        }
        _ => {
            let fields = p.parse_comma_separated(|p| {
                let field_name = p.parse_identifier()?;
                let field_type = p.parse_data_type()?;
                Ok(StructField {
                    field_name: Some(field_name),
                    field_type,
                    options: None,
                })
            })?;
            DataType::Struct(fields, StructBracketKind::Parentheses)
        }
    };
    p.expect_token(&Token::RParen)?;
    Ok(ty)
}
