//! Athena's half for the tests' oracle: the sqlparser dialect for both of its grammars
//! (Hive DDL and Trino DML, one type switched by `ddl`), and its statement shapes on
//! sqlparser's tree: Hive `CREATE TABLE … TBLPROPERTIES ('table_type'='ICEBERG')`, CTAS
//! `WITH (…)`, `OPTIMIZE … REWRITE DATA USING BIN_PACK`, `VACUUM`, `UNLOAD`, the
//! staging table's `CREATE EXTERNAL TABLE`.

use super::{OracleSyntax, ParserDialect};
use crate::dialect::grammar::is_reserved_in_dml;
use crate::dialect::grammar::HIVE_DDL_RESERVED;
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;
use crate::validate::dialects::athena::{
    ctas_partitioning_entry_problem, is_iceberg_table_type, AthenaSyntax, CTAS_PARTITIONING_ARRAY,
    ICEBERG_TABLE_TYPE,
};
use crate::validate::dialects::{TableLocation, TargetSyntax};
use crate::validate::lexer::Rules;
use crate::validate::oracle::allow::{
    check_drop_staging, check_with_properties, object_span, staging_shape, wrong_kind, Ctx, Exempt,
};
use crate::validate::oracle::hooks::{self, Hooks, Refusals};
use crate::validate::stack::StackBudget;
use sqlparser::ast::Spanned;
use sqlparser::ast::{
    CreateTable, CreateTableOptions, DataType, Expr, FileFormat, HiveIOFormat, ObjectType,
    SqlOption, Statement, Value,
};
use sqlparser::dialect::Dialect as SqlDialect;
use sqlparser::keywords::{self, Keyword};
use sqlparser::parser::{Parser, ParserError};

impl OracleSyntax for AthenaSyntax {
    fn parser(&self, grammar: Grammar, kind: StatementKind) -> Box<dyn ParserDialect> {
        Box::new(AthenaDialect {
            ddl: grammar == Grammar::HiveDdl,
            staging: kind == StatementKind::CreateStagingTable,
            refusals: Refusals::default(),
            stack: StackBudget::default(),
        })
    }

    /// Hive DDL `CREATE TABLE … LOCATION '…'` with `'table_type'='ICEBERG'`, or a Trino
    /// CTAS `CREATE TABLE t WITH (…) AS SELECT …`.
    fn check_create_table(&self, ctx: &Ctx, ct: &CreateTable, exempt: &mut Exempt) -> Result<()> {
        check_create_table_shape(ctx, ct, exempt)?;
        let has_location = ct
            .hive_formats
            .as_ref()
            .is_some_and(|h| h.location.is_some());
        match self.table_location() {
            TableLocation::Required(refusal)
                if ctx.grammar == Grammar::HiveDdl && !has_location =>
            {
                Err(ctx.at_span(refusal, object_span(&ct.name)))
            }
            _ => Ok(()),
        }
    }

    /// `OPTIMIZE t REWRITE DATA USING BIN_PACK [WHERE …]` and `VACUUM t`, no options.
    fn check_maintenance(&self, ctx: &Ctx, stmt: &Statement) -> Result<()> {
        match (ctx.kind, stmt) {
            (
                StatementKind::Optimize,
                Statement::OptimizeTable {
                    has_table_keyword,
                    on_cluster,
                    partition,
                    include_final,
                    deduplicate,
                    zorder,
                    name,
                    ..
                },
            ) => {
                if *has_table_keyword
                    || on_cluster.is_some()
                    || partition.is_some()
                    || *include_final
                    || deduplicate.is_some()
                    || zorder.is_some()
                {
                    return Err(ctx.at_span(
                        "OPTIMIZE uses options Athena lacks: Athena writes OPTIMIZE t REWRITE DATA USING BIN_PACK [WHERE …]",
                        object_span(name),
                    ));
                }
                Ok(())
            }
            (StatementKind::Vacuum, Statement::Vacuum(v)) => {
                if v.full
                    || v.sort_only
                    || v.delete_only
                    || v.reindex
                    || v.recluster
                    || v.threshold.is_some()
                    || v.boost
                    || v.table_name.is_none()
                {
                    return Err(ctx.at_word(
                        "VACUUM takes no options in Athena: write VACUUM t and set retention with the \
                         vacuum_* table properties",
                        "VACUUM",
                    ));
                }
                Ok(())
            }
            (kind, _) => Err(wrong_kind(ctx, stmt, &self.maintenance().statement(kind))),
        }
    }

    /// `CREATE EXTERNAL TABLE t (cols) STORED AS PARQUET LOCATION '…'` (the hook's
    /// shape) and `DROP TABLE IF EXISTS t`.
    fn check_staging(&self, ctx: &Ctx, stmt: &Statement) -> Result<()> {
        match (ctx.kind, stmt) {
            (StatementKind::CreateStagingTable, Statement::CreateTable(ct))
                if ct.external
                    && !ct.temporary
                    && staging_shape(ct, |f| {
                        matches!(
                            f,
                            HiveIOFormat::FileFormat {
                                format: FileFormat::PARQUET
                            }
                        )
                    }) =>
            {
                Ok(())
            }
            (StatementKind::CreateStagingTable, _) => Err(wrong_kind(
                ctx,
                stmt,
                "a CREATE EXTERNAL TABLE … STORED AS PARQUET LOCATION '…'",
            )),
            (_, stmt) => check_drop_staging(
                ctx,
                stmt,
                ObjectType::Table,
                self.staging().drop_statement(),
            ),
        }
    }

    /// `UNLOAD (SELECT …) TO 's3://…' WITH (…)`.
    fn check_unload(&self, ctx: &Ctx, stmt: &Statement, exempt: &mut Exempt) -> Result<()> {
        let Statement::Unload {
            query,
            query_text,
            to,
            auth,
            with: _,
            options,
        } = stmt
        else {
            return Err(wrong_kind(ctx, stmt, "an UNLOAD"));
        };
        if query.is_none() || query_text.is_some() || auth.is_some() || !options.is_empty() {
            return Err(ctx.at_span(
                "UNLOAD takes (SELECT …) TO 's3://…' WITH (…) and nothing else in Athena",
                to.span,
            ));
        }
        if to.quote_style != Some('\'') {
            return Err(ctx.at_span(
                "UNLOAD target must be a single-quoted S3 URI: TO 's3://bucket/prefix/'",
                to.span,
            ));
        }
        exempt.add(to);
        Ok(())
    }
}

/// Athena engine v3. One type for both of Athena's grammars: `ddl` switches the
/// statement hooks (Hive DDL shapes) and the data type hook (Trino `array(T)` types,
/// DML only). Quoting is checked after the parse (see `validate::allow`), so both `"` and
/// backtick open a delimited identifier here and the checker can say which one the
/// statement's grammar wants.
#[derive(Debug, Default)]
pub(crate) struct AthenaDialect {
    /// `true` for [`Grammar::HiveDdl`], `false` for [`Grammar::TrinoDml`].
    ddl: bool,
    /// Parsing a staged load's `CREATE EXTERNAL TABLE` (refused for every other kind).
    staging: bool,
    refusals: Refusals,
    stack: StackBudget,
}

impl ParserDialect for AthenaDialect {
    fn refusals(&self) -> &Refusals {
        &self.refusals
    }

    fn stack(&self) -> &StackBudget {
        &self.stack
    }

    fn lexical_rules(&self) -> &'static Rules {
        if self.ddl {
            &Rules::HIVE_DDL
        } else {
            &Rules::TRINO
        }
    }
}

impl AthenaDialect {
    /// Whether `kw` is reserved in the statement's grammar, so that it cannot be a name
    /// unquoted. sqlparser's own list is not Athena's: Trino parses `limit`, `interval`
    /// or `all` as names (they are not in its reserved list,
    /// https://trino.io/docs/current/language/reserved.html), while `trim` and
    /// `current_time` are reserved there; Hive DDL reserves its own set
    /// (https://docs.aws.amazon.com/athena/latest/ug/reserved-words.html).
    fn reserves(&self, kw: Keyword) -> bool {
        if kw == Keyword::NoKeyword {
            return false;
        }
        let word = format!("{kw:?}").to_ascii_lowercase();
        if self.ddl {
            HIVE_DDL_RESERVED.contains(&word.as_str())
        } else {
            is_reserved_in_dml(&word)
        }
    }
}

impl SqlDialect for AthenaDialect {
    /// `x NOT NULL` is not `x IS NOT NULL` here (see [`super::no_postfix_not_null`]).
    fn get_next_precedence(&self, parser: &Parser) -> Option<Result<u8, ParserError>> {
        super::no_postfix_not_null(parser)
    }

    /// A keyword the grammar does not reserve is a name where a name can stand.
    fn is_reserved_for_identifier(&self, kw: Keyword) -> bool {
        self.reserves(kw)
    }

    /// `FROM limit.t`: a table name may be any word the grammar does not reserve (a
    /// reserved one keeps sqlparser's reading: `UNNEST(…)`, `LATERAL`, …).
    fn is_table_factor(&self, kw: &Keyword, _parser: &mut Parser) -> bool {
        !self.reserves(*kw) || !keywords::RESERVED_FOR_TABLE_FACTOR.contains(kw)
    }

    /// Literals and plain names without sqlparser's speculative data-type parse.
    fn parse_prefix(&self, parser: &mut Parser) -> Option<Result<Expr, ParserError>> {
        if let Err(e) = self.stack.check() {
            return Some(Err(e));
        }
        crate::validate::oracle::prefix::literal_or_name(self, parser)
    }

    /// An implicit or `AS` alias is a name: in Trino grammar a word Trino reserves
    /// (`true`, `null`, `case`) is not one unquoted (sqlparser's own list is shorter).
    fn is_column_alias(&self, kw: &Keyword, _parser: &mut Parser) -> bool {
        !keywords::RESERVED_FOR_COLUMN_ALIAS.contains(kw) && (self.ddl || !self.reserves(*kw))
    }

    fn is_select_item_alias(&self, explicit: bool, kw: &Keyword, parser: &mut Parser) -> bool {
        (explicit && (self.ddl || !self.reserves(*kw))) || self.is_column_alias(kw, parser)
    }

    fn is_identifier_start(&self, ch: char) -> bool {
        ch.is_ascii_alphabetic() || ch == '_'
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        ch.is_ascii_alphanumeric() || ch == '_'
    }

    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        ch == '"' || ch == '`'
    }

    /// Aliases are names, never `'strings'`.
    fn supports_string_literal_column_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn supports_string_literal_table_alias(&self, _explicit: bool) -> bool {
        false
    }

    fn identifier_quote_style(&self, _identifier: &str) -> Option<char> {
        Some(if self.ddl { '`' } else { '"' })
    }

    /// Trino: `'O''Reilly'`; a backslash is an ordinary character.
    fn supports_string_literal_backslash_escape(&self) -> bool {
        false
    }

    /// Trino `U&'\0041'` (otherwise it would parse as `U & '\0041'`).
    fn supports_unicode_string_literal(&self) -> bool {
        !self.ddl
    }

    /// `count(*) FILTER (WHERE …)`.
    fn supports_filter_during_aggregation(&self) -> bool {
        true
    }

    /// `ROLLUP`, `CUBE`, `GROUPING SETS`.
    fn supports_group_by_expr(&self) -> bool {
        true
    }

    /// `FOR TIMESTAMP|VERSION AS OF` (after `to_sqlparser::adapt` removes `FOR`).
    fn supports_table_versioning(&self) -> bool {
        true
    }

    /// Trino lambdas: `transform(xs, x -> x + 1)`.
    fn supports_lambda_functions(&self) -> bool {
        true
    }

    /// `0x1F` is one number token (refused by the allow-list: our targets' grammars
    /// read it as an integer or, in Spark, as a name), never a `0x` binary string.
    fn supports_non_decimal_integer_literals(&self) -> bool {
        true
    }

    /// Hive `struct<a:int>` column types (DDL).
    fn supports_struct_literal(&self) -> bool {
        true
    }

    /// Hive `map<k,v>` column types (DDL).
    fn supports_map_literal_with_angle_brackets(&self) -> bool {
        true
    }

    /// `INTERVAL '7' DAY`, never a bare `INTERVAL '7'`.
    fn require_interval_qualifier(&self) -> bool {
        true
    }

    /// Parsed only so the allow-list can reject MySQL's `LIMIT a, b` with a clear message.
    fn supports_limit_comma(&self) -> bool {
        true
    }

    /// `MERGE … USING (VALUES (…), (…)) AS source (a, b)`.
    fn supports_values_as_table_factor(&self) -> bool {
        true
    }

    /// Hive DDL: Iceberg CREATE TABLE and ALTER TABLE, CREATE DATABASE, OPTIMIZE and
    /// VACUUM (sqlparser has no grammar for them); `CREATE EXTERNAL TABLE` is refused.
    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
        if !self.ddl {
            return None;
        }
        let h = Hooks {
            grammar: Grammar::HiveDdl,
            refusals: &self.refusals,
        };
        match hooks::first_keywords(parser) {
            (Keyword::CREATE, Keyword::TABLE) => Some(hooks::create_table(&h, parser)),
            (Keyword::CREATE, Keyword::EXTERNAL) if self.staging => {
                Some(hooks::create_staging_table(&h, parser))
            }
            (Keyword::CREATE, Keyword::EXTERNAL) => Some(hooks::create_external_table(&h, parser)),
            (Keyword::CREATE, Keyword::DATABASE) => Some(hooks::create_database(&h, parser)),
            (Keyword::ALTER, Keyword::TABLE) => Some(hooks::alter_table(&h, parser)),
            (Keyword::OPTIMIZE, _) => Some(hooks::optimize(&h, parser)),
            (Keyword::VACUUM, _) => Some(hooks::vacuum(&h, parser)),
            _ => None,
        }
    }

    fn parse_data_type(&self, parser: &mut Parser) -> Option<Result<DataType, ParserError>> {
        if let Err(e) = self.stack.check() {
            return Some(Err(e));
        }
        if self.ddl {
            None
        } else {
            hooks::trino_paren_type(parser)
        }
    }
}

/// The Hive `CREATE TABLE` or Trino CTAS shape both Athena targets share; whether a
/// LOCATION is needed is each target's decision.
pub(super) fn check_create_table_shape(
    ctx: &Ctx,
    ct: &CreateTable,
    exempt: &mut Exempt,
) -> Result<()> {
    let name_span = object_span(&ct.name);
    if ctx.grammar == Grammar::HiveDdl {
        let CreateTableOptions::TableProperties(props) = &ct.table_options else {
            return Err(ctx.at_span(
                "Athena creates an Iceberg table only with TBLPROPERTIES ('table_type'='ICEBERG', …)",
                name_span,
            ));
        };
        exempt.add_keys(props);
        if !has_iceberg_table_type(props) {
            return Err(ctx.at_word(ICEBERG_TABLE_TYPE, "TBLPROPERTIES"));
        }
        if ct.with_data.is_some() {
            return Err(ctx.at_word(
                format!("WITH [NO] DATA is not accepted by {}", ctx.engine()),
                "DATA",
            ));
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
        return Ok(());
    }
    match &ct.table_options {
        CreateTableOptions::With(_) | CreateTableOptions::None => {}
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
    if !ct.columns.is_empty() || ct.hive_formats.is_some() || ct.partition_by.is_some() {
        return Err(ctx.at_span(
            "Athena CTAS takes CREATE TABLE t WITH (…) AS SELECT …: no column list, LOCATION or PARTITIONED BY \
             (use the location and partitioning properties)",
            name_span,
        ));
    }
    if let CreateTableOptions::With(opts) = &ct.table_options {
        check_with_properties(ctx, opts, name_span)?;
        check_ctas_partitioning(ctx, opts)?;
    }
    Ok(())
}

fn has_iceberg_table_type(props: &[SqlOption]) -> bool {
    props.iter().any(|o| match o {
        SqlOption::KeyValue { key, value } => {
            let key = match key.0.as_slice() {
                [k] => k.as_ident().map(|k| k.value.as_str()),
                _ => None,
            };
            let value = match value {
                Expr::Value(v) => match &v.value {
                    Value::SingleQuotedString(s) => Some(s.as_str()),
                    _ => None,
                },
                _ => None,
            };
            key.zip(value)
                .is_some_and(|(k, v)| is_iceberg_table_type(k, v))
        }
        _ => false,
    })
}

/// CTAS `partitioning = ARRAY['day(ts)', 'bucket(col, 16)', 'col']`: Trino order.
pub(super) fn check_ctas_partitioning(ctx: &Ctx, opts: &[SqlOption]) -> Result<()> {
    for o in opts {
        let SqlOption::KeyValue { key, value } = o else {
            continue;
        };
        let is_partitioning = key.0.len() == 1
            && key.0[0]
                .as_ident()
                .is_some_and(|k| k.value.eq_ignore_ascii_case("partitioning"));
        if !is_partitioning {
            continue;
        }
        let Expr::Array(arr) = value else {
            return Err(ctx.at_span(CTAS_PARTITIONING_ARRAY, value.span()));
        };
        for e in &arr.elem {
            let string = match e {
                Expr::Value(v) => match &v.value {
                    Value::SingleQuotedString(s) => Some(s.as_str()),
                    _ => None,
                },
                _ => None,
            };
            if let Some(msg) = ctas_partitioning_entry_problem(e, string) {
                return Err(ctx.at_span(msg, e.span()));
            }
        }
    }
    Ok(())
}
