//! The allow-list: which parsed shapes each [`StatementKind`] may have for each target
//! and [`Grammar`].
//!
//! Two layers:
//!
//! * the top-level statement must be the variant the kind renders, with every
//!   clause sqlparser accepts for other engines left empty (`ON CONFLICT`, `RETURNING`,
//!   `OUTPUT`, Redshift `VACUUM` flags, ClickHouse `OPTIMIZE` options, …). Where targets
//!   write a kind differently (CREATE TABLE's clauses, OPTIMIZE and VACUUM, UNLOAD,
//!   `DROP … PURGE`) the target's part in [`super::dialects`] checks it;
//! * a pass over the whole tree ([`AstPass`]) refuses constructs the grammar lacks (`TOP`,
//!   `QUALIFY`, `::` casts, `LIMIT a, b`, `FOR SYSTEM_TIME`, MERGE `NOT MATCHED BY`, …),
//!   enforces its identifier quoting, and counts `?` placeholders; the forms and ranges
//!   the engines check after parsing (integer range, `X'…'` digits, row counts, type
//!   parameters) are asked of [`super::literals`].

use std::ops::ControlFlow;

use sqlparser::ast::{
    AlterTableOperation, Assignment, AssignmentTarget, CastKind, CreateTable, CreateTableOptions,
    DataType, DescribeAlias, Expr, FromTable, HiveDescribeFormat, HiveDistributionStyle,
    HiveIOFormat, Ident, LimitClause, MergeAction, MergeClauseKind, MergeInsertKind, ObjectName,
    ObjectType, Query, Select, SelectFlavor, SelectItem, SetExpr, ShowCreateObject,
    ShowStatementFilter, ShowStatementFilterPosition, ShowStatementInClause, Spanned, SqlOption,
    Statement, TableFactor, TableObject, TableVersion, Value, ValueWithSpan,
};
use sqlparser::tokenizer::Span;

use super::ast_pass::AstPass;
use super::dialects::OracleSyntax;
use super::{to_location, walk};
use crate::dialect::grammar::{is_reserved_in_dml, TRINO_CURRENT_VALUES, TRINO_DATE_TIME_VALUES};
use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result};
use crate::statement::StatementKind;
use crate::validate::dialects::FilterForm;
use crate::validate::literals::{self, Brackets, CallArgs, RowCount, TypeForm, Zone};
use crate::validate::located;

/// Checks a parsed statement against the allow-list for `kind` in `grammar`.
pub(in crate::validate) fn check(
    stmt: &Statement,
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<()> {
    let grammar = dialect.grammar(kind);
    let rules = dialect.rules();
    let create_table_shape_ok = match stmt {
        Statement::CreateTable(ct) => create_table_shape_ok(ct),
        _ => true,
    };
    let ctx = Ctx {
        sql,
        grammar,
        kind,
        engine: rules.name(),
        target: rules.oracle(),
        accepts_parameters: rules.accepts_parameters(kind),
        create_table_shape_ok,
    };
    let mut exempt = Exempt::default();
    check_top(&ctx, stmt, &mut exempt)?;
    let mut v = Checker {
        ctx: &ctx,
        exempt,
        placeholders: 0,
        first_extra: None,
        param_count,
        has_qmark: sql.contains('?'),
        in_where: Vec::new(),
        function_names: Exempt::default(),
    };
    if let ControlFlow::Break(e) = walk::statement(stmt, sql, &mut v) {
        return Err(e);
    }
    if v.placeholders != param_count {
        let loc = v.first_extra.and_then(|s| to_location(s.start));
        return Err(Error::new(
            ErrorKind::DisallowedSyntax,
            format!(
                "the {} text has {} `?` placeholder(s) but {} parameter(s) are bound; \
                 every `?` needs exactly one execution parameter",
                kind.name(),
                v.placeholders,
                param_count
            ),
        )
        .with_sql(sql, located(sql, loc)));
    }
    Ok(())
}

/// What every check needs to know about the statement being validated.
pub(crate) struct Ctx<'a> {
    /// The text.
    pub(in crate::validate) sql: &'a str,
    /// The grammar it is written in.
    pub(in crate::validate) grammar: Grammar,
    /// What it should do.
    pub(in crate::validate) kind: StatementKind,
    /// The target engine's name, for messages.
    engine: &'static str,
    /// The target's part of the allow-list.
    target: &'static dyn OracleSyntax,
    /// Whether the target takes `?` parameters for this kind.
    accepts_parameters: bool,
    /// For CREATE TABLE: whether every clause outside the ones we render is empty.
    create_table_shape_ok: bool,
}

impl Ctx<'_> {
    /// A refusal pointing at `span`.
    pub(in crate::validate) fn at_span(&self, msg: impl Into<String>, span: Span) -> Error {
        let loc = located(self.sql, to_location(span.start));
        Error::new(ErrorKind::DisallowedSyntax, msg).with_sql(self.sql, loc)
    }

    /// A refusal pointing at the first occurrence of `word` (for nodes without a span).
    pub(in crate::validate) fn at_word(&self, msg: impl Into<String>, word: &str) -> Error {
        let loc = located(self.sql, crate::validate::locate_word(self.sql, word));
        Error::new(ErrorKind::DisallowedSyntax, msg).with_sql(self.sql, loc)
    }

    /// The target engine's name (`Athena`, `Spark`).
    pub(in crate::validate) fn engine(&self) -> &'static str {
        self.engine
    }

    /// The statement's grammar as the target names it in messages.
    pub(in crate::validate) fn grammar_name(&self) -> &'static str {
        self.target.grammar_name(self.grammar)
    }
}

/// Names exempt from the quoting check because they are not names in the text: property
/// keys (`'table_type'`), the UNLOAD target. Kept by position in the text.
#[derive(Default)]
pub(crate) struct Exempt(Vec<(Span, String)>);

impl Exempt {
    /// Exempts `ident`.
    pub(in crate::validate) fn add(&mut self, ident: &Ident) {
        self.0.push((ident.span, ident.value.clone()));
    }

    /// Exempts every part of every key of `options` (`'key'='value'` lists).
    pub(in crate::validate) fn add_keys(&mut self, options: &[SqlOption]) {
        for opt in options {
            if let SqlOption::KeyValue { key, .. } = opt {
                for part in &key.0 {
                    if let Some(i) = part.as_ident() {
                        self.add(i);
                    }
                }
            }
        }
    }

    fn contains(&self, ident: &Ident) -> bool {
        self.0
            .iter()
            .any(|(span, value)| *span == ident.span && *value == ident.value)
    }
}

/// The first word of the text, upper-cased, naming what was found.
fn found_statement(sql: &str, stmt: &Statement) -> String {
    let word: String = sql
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '_')
        .collect::<String>()
        .to_ascii_uppercase();
    match stmt {
        Statement::CreateTable(ct) if ct.query.is_some() => "CREATE TABLE AS SELECT".into(),
        Statement::CreateTable(_) => "CREATE TABLE".into(),
        Statement::Drop { object_type, .. } => format!("DROP {object_type}"),
        _ if word.is_empty() => "another statement".into(),
        _ => word,
    }
}

/// The statement is not the one `ctx.kind` renders; `expected` says which it should be.
pub(in crate::validate) fn wrong_kind(ctx: &Ctx, stmt: &Statement, expected: &str) -> Error {
    let found = found_statement(ctx.sql, stmt);
    let loc = located(ctx.sql, None);
    Error::new(
        ErrorKind::DisallowedSyntax,
        format!(
            "expected {expected} statement (kind {}), found {found}",
            ctx.kind.name()
        ),
    )
    .with_sql(ctx.sql, loc)
}

pub(in crate::validate) fn object_span(name: &sqlparser::ast::ObjectName) -> Span {
    name.span()
}

// ---------------------------------------------------------------------------------
// Top level
// ---------------------------------------------------------------------------------

fn check_top(ctx: &Ctx, stmt: &Statement, exempt: &mut Exempt) -> Result<()> {
    use StatementKind as K;
    let g = ctx.grammar;
    match (ctx.kind, stmt) {
        (K::CreateTable, Statement::CreateTable(ct)) if ct.query.is_none() => {
            check_create_table(ctx, ct, exempt)
        }
        (K::CreateTable, _) => Err(wrong_kind(ctx, stmt, "a CREATE TABLE (no AS SELECT)")),
        (K::CreateTableAs, Statement::CreateTable(ct)) if ct.query.is_some() => {
            check_create_table(ctx, ct, exempt)
        }
        (K::CreateTableAs, _) => Err(wrong_kind(ctx, stmt, "a CREATE TABLE … AS SELECT")),
        (
            K::DropTable,
            Statement::Drop {
                object_type,
                names,
                cascade,
                restrict,
                purge,
                temporary,
                table,
                ..
            },
        ) if *object_type == ObjectType::Table => {
            if names.len() != 1 {
                return Err(ctx.at_word(
                    "DROP TABLE with several tables: drop one table per statement",
                    ",",
                ));
            }
            if *cascade || *restrict || *temporary || table.is_some() {
                return Err(ctx.at_span(
                    "DROP TABLE takes only [IF EXISTS] and the table name",
                    object_span(&names[0]),
                ));
            }
            if let (true, Some(refusal)) = (*purge, ctx.target.purge_refusal()) {
                return Err(ctx.at_word(refusal, "PURGE"));
            }
            Ok(())
        }
        (K::DropTable, _) => Err(wrong_kind(ctx, stmt, "a DROP TABLE")),
        (K::AlterTable, Statement::AlterTable(at)) => {
            // Built by our hook: only the operations it accepts reach here.
            for op in &at.operations {
                match op {
                    AlterTableOperation::SetTblProperties { table_properties } => {
                        exempt.add_keys(table_properties)
                    }
                    AlterTableOperation::ResetOptions { options } => {
                        for name in options {
                            for part in &name.0 {
                                if let Some(i) = part.as_ident() {
                                    exempt.add(i);
                                }
                            }
                        }
                    }
                    AlterTableOperation::RenameTable { .. } => {
                        if let Some(refusal) = ctx.target.rename_table_refusal() {
                            return Err(ctx.at_span(refusal, object_span(&at.name)));
                        }
                    }
                    _ => {}
                }
            }
            Ok(())
        }
        (K::AlterTable, _) => Err(wrong_kind(ctx, stmt, "an ALTER TABLE")),
        (K::Insert, Statement::Insert(ins)) => check_insert(ctx, ins),
        (K::Insert, _) => Err(wrong_kind(ctx, stmt, "an INSERT INTO")),
        (K::Update, Statement::Update(u)) => {
            let engine = ctx.engine();
            if u.from.is_some() {
                return Err(ctx.at_word(
                    format!("UPDATE … FROM: {engine} UPDATE takes one table; use MERGE INTO to update from another table"),
                    "FROM",
                ));
            }
            if u.returning.is_some() {
                return Err(returning(ctx));
            }
            if u.output.is_some()
                || u.or.is_some()
                || !u.order_by.is_empty()
                || u.limit.is_some()
                || u.on_cluster.is_some()
                || u.settings.is_some()
                || !u.optimizer_hints.is_empty()
                || !u.table.joins.is_empty()
            {
                return Err(ctx.at_span(
                    format!("UPDATE uses a clause {engine} does not accept: {engine} writes UPDATE t SET c = v, … [WHERE …]"),
                    u.table.relation.span(),
                ));
            }
            if !is_plain_table(&u.table.relation) {
                return Err(ctx.at_span(
                    format!("UPDATE target must be a table name: {engine} writes UPDATE t SET …"),
                    u.table.relation.span(),
                ));
            }
            column_names(ctx, "UPDATE … SET", u.assignments.iter().map(set_target))?;
            if g == Grammar::TrinoDml {
                if let TableFactor::Table { alias: Some(a), .. } = &u.table.relation {
                    return Err(ctx.at_span(
                        "UPDATE with a table alias: Athena (Trino) writes UPDATE t SET … without an alias",
                        a.name.span,
                    ));
                }
            }
            Ok(())
        }
        (K::Update, _) => Err(wrong_kind(ctx, stmt, "an UPDATE")),
        (K::Delete, Statement::Delete(d)) => {
            let engine = ctx.engine();
            if d.returning.is_some() {
                return Err(returning(ctx));
            }
            let single = match &d.from {
                FromTable::WithFromKeyword(t) => {
                    t.len() == 1 && t[0].joins.is_empty() && is_plain_table(&t[0].relation)
                }
                FromTable::WithoutKeyword(_) => false,
            };
            if !single
                || !d.tables.is_empty()
                || d.using.is_some()
                || d.output.is_some()
                || !d.order_by.is_empty()
                || d.limit.is_some()
                || d.on_cluster.is_some()
                || d.settings.is_some()
                || !d.optimizer_hints.is_empty()
            {
                return Err(ctx.at_span(
                    format!("DELETE uses a form {engine} does not accept: {engine} writes DELETE FROM t [WHERE …]"),
                    d.delete_token.0.span,
                ));
            }
            Ok(())
        }
        (K::Delete, _) => Err(wrong_kind(ctx, stmt, "a DELETE")),
        (K::Merge, Statement::Merge(m)) => check_merge(ctx, m),
        (K::Merge, _) => Err(wrong_kind(ctx, stmt, "a MERGE INTO")),
        (K::Select, Statement::Query(_)) => Ok(()),
        (K::Select, _) => Err(wrong_kind(ctx, stmt, "a SELECT")),
        (K::Unload, _) => ctx.target.check_unload(ctx, stmt, exempt),
        (K::Optimize | K::Vacuum, _) => ctx.target.check_maintenance(ctx, stmt),
        (
            K::ShowCreateTable,
            Statement::ShowCreate {
                obj_type: ShowCreateObject::Table,
                obj_name,
            },
        ) if obj_name.0.len() <= 2 => Ok(()),
        (K::ShowCreateTable, _) => Err(wrong_kind(ctx, stmt, "a SHOW CREATE TABLE")),
        // Built by our hook: only the clauses it accepts reach here.
        (K::CreateDatabase, Statement::CreateDatabase { .. }) => Ok(()),
        (K::CreateDatabase, _) => Err(wrong_kind(ctx, stmt, "a CREATE DATABASE")),
        (
            K::DropDatabase,
            Statement::Drop {
                object_type: ObjectType::Database,
                names,
                cascade,
                restrict,
                purge,
                temporary,
                table,
                ..
            },
        ) => {
            if names.len() != 1 || names[0].0.len() != 1 {
                return Err(ctx.at_word(
                    "DROP DATABASE takes one database name: drop one database per statement",
                    "DATABASE",
                ));
            }
            if *restrict || *purge || *temporary || table.is_some() {
                return Err(ctx.at_span(
                    "DROP DATABASE takes only [IF EXISTS], the name and [CASCADE]",
                    object_span(&names[0]),
                ));
            }
            if let (true, Some(refusal)) = (*cascade, ctx.target.drop_database_cascade_refusal()) {
                return Err(ctx.at_word(refusal, "CASCADE"));
            }
            Ok(())
        }
        (K::DropDatabase, _) => Err(wrong_kind(ctx, stmt, "a DROP DATABASE")),
        (
            K::ShowTables,
            Statement::ShowTables {
                terse,
                history,
                extended,
                full,
                external,
                show_options,
            },
        ) => {
            let in_one_database = show_options.show_in.as_ref().is_some_and(|i| {
                i.clause == ShowStatementInClause::IN
                    && i.parent_type.is_none()
                    && i.parent_name.as_ref().is_some_and(|n| n.0.len() == 1)
            });
            if *terse
                || *history
                || *extended
                || *full
                || *external
                || !in_one_database
                || show_options.starts_with.is_some()
                || show_options.limit.is_some()
                || show_options.limit_from.is_some()
            {
                return Err(ctx.at_word(
                    format!(
                        "SHOW TABLES takes IN <database> and a table-name filter only in what this \
                         crate writes for {}",
                        ctx.engine()
                    ),
                    "TABLES",
                ));
            }
            let filter =
                match &show_options.filter_position {
                    None => None,
                    Some(ShowStatementFilterPosition::Suffix(f)) => Some(f),
                    Some(ShowStatementFilterPosition::Infix(_)) => return Err(ctx.at_word(
                        "SHOW TABLES with its filter before IN: write SHOW TABLES IN db <filter>",
                        "TABLES",
                    )),
                };
            let Some(f) = filter else {
                return Ok(());
            };
            let form = match f {
                ShowStatementFilter::NoKeyword(_) => FilterForm::Bare,
                ShowStatementFilter::Like(_) => FilterForm::Like,
                _ => FilterForm::Other,
            };
            match ctx.target.show_tables_filter_problem(ctx.engine(), form, f) {
                Some(msg) => Err(ctx.at_word(msg, "TABLES")),
                None => Ok(()),
            }
        }
        (K::ShowTables, _) => Err(wrong_kind(ctx, stmt, "a SHOW TABLES")),
        (
            K::Describe,
            Statement::ExplainTable {
                describe_alias: DescribeAlias::Describe,
                hive_format,
                has_table_keyword: false,
                table_name,
            },
        ) if table_name.0.len() <= 2
            && matches!(hive_format, None | Some(HiveDescribeFormat::Formatted)) =>
        {
            Ok(())
        }
        (K::Describe, _) => Err(wrong_kind(ctx, stmt, "a DESCRIBE [FORMATTED] db.t")),
        (K::CreateView, Statement::CreateView(v)) => check_create_view(ctx, v),
        (K::CreateView, _) => Err(wrong_kind(ctx, stmt, "a CREATE VIEW … AS SELECT")),
        (
            K::DropView,
            Statement::Drop {
                object_type: ObjectType::View,
                names,
                cascade,
                restrict,
                purge,
                temporary,
                table,
                ..
            },
        ) => {
            if names.len() != 1 {
                return Err(ctx.at_word(
                    "DROP VIEW with several views: drop one view per statement",
                    ",",
                ));
            }
            if *cascade || *restrict || *purge || *temporary || table.is_some() {
                return Err(ctx.at_span(
                    "DROP VIEW takes only [IF EXISTS] and the view name",
                    object_span(&names[0]),
                ));
            }
            Ok(())
        }
        (K::DropView, _) => Err(wrong_kind(ctx, stmt, "a DROP VIEW")),
        (K::CreateStagingTable | K::DropStagingTable, _) => ctx.target.check_staging(ctx, stmt),
    }
}

/// A staging table's CREATE: columns, the Parquet format `format` accepts, a location,
/// and nothing else (the target checks EXTERNAL / TEMPORARY).
pub(in crate::validate) fn staging_shape(
    ct: &CreateTable,
    format: impl Fn(&HiveIOFormat) -> bool,
) -> bool {
    let Some(h) = &ct.hive_formats else {
        return false;
    };
    !ct.columns.is_empty()
        && h.row_format.is_none()
        && h.serde_properties.is_none()
        && h.location.is_some()
        && h.storage.as_ref().is_some_and(format)
        && other_clauses_absent(ct)
        && !ct.or_replace
        && !ct.if_not_exists
        && ct.query.is_none()
        && matches!(ct.table_options, CreateTableOptions::None)
        && ct.partition_by.is_none()
        && ct.comment.is_none()
        && ct.with_data.is_none()
}

/// `DROP <object> IF EXISTS name`: one name, no other option.
pub(in crate::validate) fn check_drop_staging(
    ctx: &Ctx,
    stmt: &Statement,
    object: ObjectType,
    expected: &str,
) -> Result<()> {
    match stmt {
        Statement::Drop {
            object_type,
            if_exists: true,
            names,
            cascade: false,
            restrict: false,
            purge: false,
            temporary: false,
            table: None,
            ..
        } if *object_type == object && names.len() == 1 => Ok(()),
        _ => Err(wrong_kind(ctx, stmt, &format!("{expected} <one name>"))),
    }
}

/// `CREATE [OR REPLACE] VIEW name AS query`: Athena's documented form; Spark accepts it
/// too. Every other clause sqlparser knows (column list, IF NOT EXISTS, options,
/// COMMENT, MATERIALIZED, TEMPORARY, …) is refused.
fn check_create_view(ctx: &Ctx, v: &sqlparser::ast::CreateView) -> Result<()> {
    let plain = !v.or_alter
        && !v.materialized
        && !v.secure
        && !v.if_not_exists
        && !v.temporary
        && !v.copy_grants
        && !v.with_no_schema_binding
        && v.columns.is_empty()
        && v.options == CreateTableOptions::None
        && v.cluster_by.is_empty()
        && v.comment.is_none()
        && v.to.is_none()
        && v.params.is_none();
    if !plain {
        return Err(ctx.at_span(
            format!(
                "CREATE VIEW uses a clause this crate does not write for {}: CREATE [OR REPLACE] VIEW v AS SELECT …",
                ctx.engine()
            ),
            object_span(&v.name),
        ));
    }
    Ok(())
}

/// A DML target: a table name (with an optional alias), no time travel or arguments.
fn is_plain_table(tf: &TableFactor) -> bool {
    matches!(
        tf,
        TableFactor::Table {
            args: None,
            version: None,
            sample: None,
            with_ordinality: false,
            ..
        }
    )
}

fn returning(ctx: &Ctx) -> Error {
    ctx.at_word(
        format!(
            "RETURNING is PostgreSQL syntax: {} DML returns no rows; run a SELECT afterwards",
            ctx.engine()
        ),
        "RETURNING",
    )
}

/// What every CREATE TABLE (and CTAS) must satisfy; the table clauses are the target's.
fn check_create_table(ctx: &Ctx, ct: &CreateTable, exempt: &mut Exempt) -> Result<()> {
    let name_span = object_span(&ct.name);
    if ct.external {
        return Err(ctx.at_word(
            "CREATE EXTERNAL TABLE: Iceberg tables are created with CREATE TABLE",
            "EXTERNAL",
        ));
    }
    if ct.or_replace {
        return Err(ctx.at_word(
            format!(
                "CREATE OR REPLACE TABLE is not accepted by {}: drop the table first",
                ctx.engine()
            ),
            "REPLACE",
        ));
    }
    if !ctx.create_table_shape_ok {
        return Err(ctx.at_span(
            format!(
                "CREATE TABLE uses a clause {} does not accept here ({}); see the documented shape for {}",
                ctx.engine(),
                ctx.grammar_name(),
                ctx.kind.name()
            ),
            name_span,
        ));
    }
    ctx.target.check_create_table(ctx, ct, exempt)
}

/// Everything other than the clauses a target renders (name, columns, partitioning,
/// storage, location, properties, query, comment, IF NOT EXISTS) must be absent.
pub(in crate::validate) fn create_table_shape_ok(ct: &CreateTable) -> bool {
    other_clauses_absent(ct) && !ct.or_replace && !ct.external && !ct.temporary
}

/// Whether every clause of a CREATE TABLE that no target writes is absent: the flags
/// false, the options `None`, the lists empty. One exhaustive destructure (no `..`),
/// so a sqlparser upgrade that adds a clause fails to compile here until it is placed.
/// The clauses some target writes are bound by name and left to the callers.
fn other_clauses_absent(ct: &CreateTable) -> bool {
    let CreateTable {
        // Written by some target, or refused with a message of their own by the callers.
        or_replace: _,
        temporary: _,
        external: _,
        if_not_exists: _,
        name: _,
        columns: _,
        hive_formats: _,
        table_options: _,
        query: _,
        comment: _,
        partition_by: _,
        with_data: _,
        // No target writes these.
        unlogged,
        dynamic,
        global,
        transient,
        volatile,
        iceberg,
        snapshot,
        constraints,
        hive_distribution,
        file_format,
        location,
        sqlite_table_options,
        like,
        clone,
        version,
        on_commit,
        on_cluster,
        primary_key,
        order_by,
        cluster_by,
        clustered_by,
        inherits,
        partition_of,
        for_values,
        copy_grants,
        enable_schema_evolution,
        change_tracking,
        data_retention_time_in_days,
        max_data_extension_time_in_days,
        default_ddl_collation,
        with_aggregation_policy,
        with_row_access_policy,
        with_storage_lifecycle_policy,
        with_tags,
        external_volume,
        with_connection,
        base_location,
        catalog,
        catalog_sync,
        storage_serialization_policy,
        target_lag,
        warehouse,
        refresh_mode,
        initialize,
        require_user,
        diststyle,
        distkey,
        sortkey,
        backup,
        multiset,
        fallback,
    } = ct;
    !(*unlogged
        || *dynamic
        || *transient
        || *volatile
        || *iceberg
        || *snapshot
        || *copy_grants
        || *require_user)
        && constraints.is_empty()
        && matches!(hive_distribution, HiveDistributionStyle::NONE)
        && !sqlite_table_options.leading_comma
        && sqlite_table_options.options.is_empty()
        && global.is_none()
        && file_format.is_none()
        && location.is_none()
        && like.is_none()
        && clone.is_none()
        && version.is_none()
        && on_commit.is_none()
        && on_cluster.is_none()
        && primary_key.is_none()
        && order_by.is_none()
        && cluster_by.is_none()
        && clustered_by.is_none()
        && inherits.is_none()
        && partition_of.is_none()
        && for_values.is_none()
        && enable_schema_evolution.is_none()
        && change_tracking.is_none()
        && data_retention_time_in_days.is_none()
        && max_data_extension_time_in_days.is_none()
        && default_ddl_collation.is_none()
        && with_aggregation_policy.is_none()
        && with_row_access_policy.is_none()
        && with_storage_lifecycle_policy.is_none()
        && with_tags.is_none()
        && external_volume.is_none()
        && with_connection.is_none()
        && base_location.is_none()
        && catalog.is_none()
        && catalog_sync.is_none()
        && storage_serialization_policy.is_none()
        && target_lag.is_none()
        && warehouse.is_none()
        && refresh_mode.is_none()
        && initialize.is_none()
        && diststyle.is_none()
        && distkey.is_none()
        && sortkey.is_none()
        && backup.is_none()
        && multiset.is_none()
        && fallback.is_none()
}

fn check_insert(ctx: &Ctx, ins: &sqlparser::ast::Insert) -> Result<()> {
    let engine = ctx.engine();
    if ins.on.is_some() {
        let word = if crate::validate::locate_word(ctx.sql, "CONFLICT").is_some() {
            "CONFLICT"
        } else {
            "DUPLICATE"
        };
        return Err(ctx.at_word(
            format!(
                "INSERT … ON CONFLICT / ON DUPLICATE KEY is not accepted by {engine}: \
                 INSERT has no upsert clause; use MERGE INTO for upserts"
            ),
            word,
        ));
    }
    if ins.returning.is_some() {
        return Err(returning(ctx));
    }
    if ins.overwrite {
        return Err(ctx.at_word(
            "INSERT OVERWRITE is not a statement this crate generates: write INSERT INTO",
            "OVERWRITE",
        ));
    }
    let plain = ins.into
        && matches!(ins.table, TableObject::TableName(_))
        && ins.table_alias.is_none()
        && ins.or.is_none()
        && !ins.ignore
        && !ins.by_name
        && ins.source.is_some()
        && ins.assignments.is_empty()
        && ins.partitioned.is_none()
        && ins.after_columns.is_empty()
        && ins.overriding.is_none()
        && !ins.has_table_keyword
        && ins.output.is_none()
        && !ins.replace_into
        && ins.priority.is_none()
        && ins.insert_alias.is_none()
        && ins.settings.is_none()
        && ins.format_clause.is_none()
        && ins.multi_table_insert_type.is_none()
        && ins.multi_table_into_clauses.is_empty()
        && ins.multi_table_when_clauses.is_empty()
        && ins.multi_table_else_clause.is_none()
        && ins.optimizer_hints.is_empty();
    if !plain {
        return Err(ctx.at_span(
            format!(
                "INSERT uses a form {engine} does not accept: {engine} writes INSERT INTO t [(cols)] VALUES … | SELECT …"
            ),
            ins.insert_token.0.span,
        ));
    }
    column_names(ctx, "an INSERT's column list", ins.columns.iter().map(Ok))?;
    if let (false, Some(SetExpr::Values(values))) = (
        ins.columns.is_empty(),
        ins.source.as_deref().map(|q| &*q.body),
    ) {
        for row in &values.rows {
            if row.len() != ins.columns.len() {
                let at = row.first().map_or(ins.insert_token.0.span, Spanned::span);
                return Err(ctx.at_span(
                    format!(
                        "a VALUES row has {} values for the {} columns of the INSERT",
                        row.len(),
                        ins.columns.len()
                    ),
                    at,
                ));
            }
        }
    }
    Ok(())
}

/// Whether `t` is a type as `grammar` spells it in a CAST (the spellings of
/// `dialect::grammar::types`, plus Trino's `json`).
fn written_type(t: &DataType, grammar: Grammar) -> bool {
    use sqlparser::ast::{ArrayElemTypeDef as A, ExactNumberInfo as N, MapBracketKind as M};
    use sqlparser::ast::{StructBracketKind as S, TimezoneInfo as Z};
    let inner = |t: &DataType| written_type(t, grammar);
    let decimal = |n: &N| matches!(n, N::PrecisionAndScale(..));
    if grammar == Grammar::Spark {
        match t {
            DataType::Boolean
            | DataType::Int(None)
            | DataType::BigInt(None)
            | DataType::Float(N::None)
            | DataType::Double(N::None)
            | DataType::Date
            | DataType::TimestampNtz(None)
            | DataType::Timestamp(None, Z::None)
            | DataType::String(None)
            | DataType::Binary(None) => true,
            DataType::Decimal(n) => decimal(n),
            DataType::Array(A::AngleBracket(e)) => inner(e),
            DataType::Map(k, v, M::AngleBrackets) => inner(k) && inner(v),
            DataType::Struct(fields, S::AngleBrackets) => fields
                .iter()
                .all(|f| f.field_name.is_some() && f.options.is_none() && inner(&f.field_type)),
            _ => false,
        }
    } else {
        match t {
            DataType::Boolean
            | DataType::Integer(None)
            | DataType::BigInt(None)
            | DataType::Real
            | DataType::Double(N::None)
            | DataType::Date
            | DataType::Timestamp(Some(6), Z::None | Z::WithTimeZone)
            | DataType::Varchar(None)
            | DataType::Varbinary(None)
            | DataType::JSON => true,
            DataType::Decimal(n) => decimal(n),
            DataType::Array(A::Parenthesis(e)) => inner(e),
            DataType::Map(k, v, M::Parentheses) => inner(k) && inner(v),
            DataType::Struct(fields, S::Parentheses) => fields
                .iter()
                .all(|f| f.field_name.is_some() && f.options.is_none() && inner(&f.field_type)),
            _ => false,
        }
    }
}

/// Trino grammar: each property of `WITH (name = value, …)` is named by an identifier
/// (SqlBase.g4, `property: identifier EQ propertyValue`); sqlparser reads `'key' = value`
/// too. (`WITH ()` is refused by the pre-pass: sqlparser reads it as no `WITH`.)
pub(crate) fn check_with_properties(ctx: &Ctx, opts: &[SqlOption], at: Span) -> Result<()> {
    for o in opts {
        let key = match o {
            SqlOption::KeyValue { key, .. } => key,
            other => {
                return Err(ctx.at_span(
                    format!(
                        "table property `{other}`: {} writes property = value",
                        ctx.engine()
                    ),
                    at,
                ))
            }
        };
        let named = key.0.len() == 1
            && key.0[0]
                .as_ident()
                .is_some_and(|k| matches!(k.quote_style, None | Some('"')));
        if !named {
            return Err(ctx.at_span(
                crate::validate::ddl_rules::property_key_refusal(ctx.engine(), key),
                key.span(),
            ));
        }
    }
    Ok(())
}

/// The target of one `SET` assignment, or the assignment itself when it sets a tuple.
fn set_target(a: &Assignment) -> std::result::Result<&ObjectName, &Assignment> {
    match &a.target {
        AssignmentTarget::ColumnName(name) => Ok(name),
        AssignmentTarget::Tuple(_) => Err(a),
    }
}

/// Trino grammar: the columns an INSERT lists and an UPDATE or MERGE sets are plain
/// names (`identifier` in SqlBase.g4's `columnAliases`, `update` and `mergeCase`), not
/// `t.c` nor `(a, b)`, which sqlparser reads.
fn column_names<'a>(
    ctx: &Ctx,
    what: &str,
    names: impl Iterator<Item = std::result::Result<&'a ObjectName, &'a Assignment>>,
) -> Result<()> {
    if ctx.grammar != Grammar::TrinoDml {
        return Ok(());
    }
    for name in names {
        let span = match name {
            Ok(n) if n.0.len() == 1 => continue,
            Ok(n) => n.span(),
            Err(a) => a.span(),
        };
        return Err(ctx.at_span(
            format!(
                "{what} names a column with a qualified name or a tuple: {} writes the column's \
                 own name (`c`, not `t.c` nor `(a, b)`)",
                ctx.engine()
            ),
            span,
        ));
    }
    Ok(())
}

fn check_merge(ctx: &Ctx, m: &sqlparser::ast::Merge) -> Result<()> {
    let engine = ctx.engine();
    if !m.into || m.output.is_some() || !m.optimizer_hints.is_empty() || !is_plain_table(&m.table) {
        return Err(ctx.at_span(
            format!("MERGE uses a form {engine} does not accept: write MERGE INTO t USING s ON … WHEN …"),
            m.merge_token.0.span,
        ));
    }
    if m.clauses.is_empty() && ctx.grammar == Grammar::TrinoDml {
        return Err(ctx.at_span(
            format!("MERGE without a WHEN clause: {engine} MERGE takes at least one WHEN [NOT] MATCHED … THEN …"),
            m.merge_token.0.span,
        ));
    }
    for c in &m.clauses {
        let trino = ctx.grammar != Grammar::Spark;
        match &c.action {
            MergeAction::Update(u) if trino => {
                if let sqlparser::ast::MergeUpdateKind::Set(assignments) = &u.kind {
                    column_names(
                        ctx,
                        "MERGE's UPDATE SET",
                        assignments.iter().map(set_target),
                    )?;
                }
            }
            MergeAction::Insert(i) if trino => {
                column_names(ctx, "MERGE's INSERT column list", i.columns.iter().map(Ok))?;
            }
            _ => {}
        }
        match c.clause_kind {
            MergeClauseKind::NotMatchedBySource | MergeClauseKind::NotMatchedByTarget if trino => {
                return Err(ctx.at_span(
                    format!(
                        "WHEN {} is not accepted by {engine} MERGE: {engine} accepts WHEN MATCHED [AND …] THEN \
                         UPDATE SET … | DELETE and WHEN NOT MATCHED [AND …] THEN INSERT …",
                        c.clause_kind
                    ),
                    c.when_token.0.span,
                ));
            }
            _ => {}
        }
        let bad_action = match &c.action {
            MergeAction::DoNothing { .. } => Some("DO NOTHING"),
            MergeAction::Insert(i) if matches!(i.kind, MergeInsertKind::Row) => Some("INSERT ROW"),
            MergeAction::Insert(i) if trino && matches!(i.kind, MergeInsertKind::Wildcard) => {
                Some("INSERT *")
            }
            MergeAction::Insert(i) if i.insert_predicate.is_some() => Some("INSERT … WHERE"),
            MergeAction::Update(u)
                if u.update_predicate.is_some() || u.delete_predicate.is_some() =>
            {
                Some("UPDATE … WHERE / DELETE WHERE")
            }
            MergeAction::Update(u)
                if trino && matches!(u.kind, sqlparser::ast::MergeUpdateKind::Wildcard) =>
            {
                Some("UPDATE SET *")
            }
            _ => None,
        };
        if let Some(what) = bad_action {
            return Err(ctx.at_span(
                format!(
                    "MERGE action {what} is not accepted by {engine}: use UPDATE SET c = v, …, DELETE or INSERT (cols) VALUES (…)"
                ),
                c.when_token.0.span,
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// The passes
// ---------------------------------------------------------------------------------

/// Reserved words that are values on their own in Trino's grammar (no brackets).
fn is_special_value_word(word: &str) -> bool {
    TRINO_CURRENT_VALUES.contains(&word) || TRINO_DATE_TIME_VALUES.contains(&word)
}

struct Checker<'a> {
    ctx: &'a Ctx<'a>,
    /// Idents allowed any quote style (TBLPROPERTIES keys, the UNLOAD target).
    exempt: Exempt,
    placeholders: usize,
    first_extra: Option<Span>,
    param_count: usize,
    /// Whether the text has a `?` at all (skips the WHERE bookkeeping when not).
    has_qmark: bool,
    /// Start positions of the `?` placeholders found inside WHERE clauses.
    in_where: Vec<(u64, u64)>,
    /// The names of the functions called so far: a reserved word may name a function
    /// (`trim(…)`, `listagg(…)`, `current_user`), where Trino's grammar has a rule for it.
    function_names: Exempt,
}

/// Collects the positions of `?` placeholders under a node.
struct QMarks<'a>(&'a mut Vec<(u64, u64)>);

impl AstPass for QMarks<'_> {
    fn value(&mut self, value: &ValueWithSpan) -> ControlFlow<Error> {
        if matches!(&value.value, Value::Placeholder(p) if p == "?") {
            self.0
                .push((value.span.start.line, value.span.start.column));
        }
        ControlFlow::Continue(())
    }
}

impl Checker<'_> {
    fn fail<T>(&self, msg: impl Into<String>, span: Span) -> ControlFlow<Error, T> {
        ControlFlow::Break(self.ctx.at_span(msg, span))
    }

    fn fail_word<T>(&self, msg: impl Into<String>, word: &str) -> ControlFlow<Error, T> {
        ControlFlow::Break(self.ctx.at_word(msg, word))
    }

    fn trino(&self) -> bool {
        self.ctx.grammar == Grammar::TrinoDml
    }

    /// Trino grammar: an inner or outer join has its criteria (`ON …` or `USING (…)`);
    /// sqlparser reads `a JOIN b` without them (SqlBase.g4, `joinRelation`).
    fn join_criteria(&self, s: &Select) -> ControlFlow<Error> {
        use sqlparser::ast::{JoinConstraint as C, JoinOperator as J};
        for join in s.from.iter().flat_map(|t| &t.joins) {
            let missing = matches!(
                &join.join_operator,
                J::Join(C::None)
                    | J::Inner(C::None)
                    | J::Left(C::None)
                    | J::LeftOuter(C::None)
                    | J::Right(C::None)
                    | J::RightOuter(C::None)
                    | J::FullOuter(C::None)
            );
            if missing {
                return self.fail(
                    format!(
                        "a JOIN without ON or USING: {} joins with JOIN t ON <condition> or \
                         JOIN t USING (c, …) (CROSS JOIN for every pair of rows)",
                        self.ctx.engine
                    ),
                    join.relation.span(),
                );
            }
        }
        ControlFlow::Continue(())
    }

    /// Trino grammar: a name written without quotes is not a word Trino reserves.
    /// sqlparser takes a keyword for a name wherever a name may stand (`SELECT select`,
    /// `FROM db.table`, `JOIN AS b`, `SELECT a, AS b`); Trino's grammar reads the keyword
    /// and refuses the text (<https://trino.io/docs/current/language/reserved.html>).
    fn unquoted_name(&self, ident: &Ident) -> ControlFlow<Error> {
        if !self.trino()
            || !is_reserved_in_dml(&ident.value)
            || self.function_names.contains(ident)
            || self.exempt.contains(ident)
        {
            return ControlFlow::Continue(());
        }
        let word = &ident.value;
        self.fail(
            format!(
                "`{word}` is a word {} reserves: as a name it is written in double quotes \
                 (\"{word}\"); or a name or keyword is missing before it",
                self.ctx.engine
            ),
            ident.span,
        )
    }
}

impl AstPass for Checker<'_> {
    fn ident(&mut self, ident: &Ident) -> ControlFlow<Error> {
        let Some(q) = ident.quote_style else {
            return self.unquoted_name(ident);
        };
        if self.exempt.contains(ident) {
            return ControlFlow::Continue(());
        }
        // Trino: "Zero-length delimited identifier not allowed" (SqlParser.java).
        if ident.value.is_empty() && matches!(q, '"' | '`') {
            return self.fail(
                format!("an empty quoted name {q}{q}: a name has at least one character"),
                ident.span,
            );
        }
        let g = self.ctx.grammar;
        if q == g.quote_char() {
            return ControlFlow::Continue(());
        }
        let name = &ident.value;
        let label = self.ctx.target.grammar_label(g);
        let msg = match (g, q) {
            (Grammar::HiveDdl, '"') => format!(
                "double-quoted name \"{name}\" in {label}: the Hive DDL parser quotes names with backticks (`{name}`)"
            ),
            (Grammar::TrinoDml, '`') => format!(
                "backticked name `{name}` in {label}: Trino quotes names with double quotes (\"{name}\")"
            ),
            (Grammar::Spark, '"') => format!(
                "double-quoted name \"{name}\" in {label}: Spark quotes names with backticks (`{name}`)"
            ),
            (_, '\'') => format!(
                "single-quoted '{name}' where {} expects a name",
                self.ctx.grammar_name()
            ),
            (_, other) => format!(
                "name {other}{name} quoted with `{other}`: {} quotes names with {}",
                self.ctx.grammar_name(),
                if g == Grammar::TrinoDml { "double quotes" } else { "backticks" }
            ),
        };
        self.fail(msg, ident.span)
    }

    fn value(&mut self, value: &ValueWithSpan) -> ControlFlow<Error> {
        let g = self.ctx.grammar;
        match &value.value {
            Value::Placeholder(p) if p == "?" => {
                if !self.ctx.accepts_parameters {
                    return self.fail(
                        format!(
                            "`?` parameter in {}: Athena accepts execution parameters only in SELECT, \
                             INSERT INTO, CREATE TABLE AS and UNLOAD; write the value as a literal",
                            self.ctx.kind.name()
                        ),
                        value.span,
                    );
                }
                let at = (value.span.start.line, value.span.start.column);
                if self.trino() && !self.in_where.contains(&at) {
                    return self.fail(
                        "`?` parameter outside a WHERE clause: Athena accepts execution parameters only \
                         in WHERE (`SELECT ? FROM t` and `VALUES (?)` are not supported); write the value as a literal",
                        value.span,
                    );
                }
                self.placeholders += 1;
                if self.placeholders == self.param_count + 1 {
                    self.first_extra = Some(value.span);
                }
                ControlFlow::Continue(())
            }
            Value::Placeholder(p) => self.fail(
                format!("placeholder `{p}`: execution parameters are positional `?` placeholders"),
                value.span,
            ),
            Value::Number(n, long) => {
                match literals::number_problem(n, *long, g) {
                    Some(msg) => self.fail(msg, value.span),
                    None => ControlFlow::Continue(()),
                }
            }
            Value::HexStringLiteral(hex) => match literals::binary_problem(hex, g) {
                Some(msg) => self.fail(msg, value.span),
                None => ControlFlow::Continue(()),
            },
            Value::Boolean(_) | Value::Null => ControlFlow::Continue(()),
            Value::SingleQuotedString(s) => {
                if g == Grammar::HiveDdl {
                    if let Some(msg) = crate::validate::ddl_rules::ddl_string_problem(s, "a DDL string literal") {
                        return self.fail(msg, value.span);
                    }
                }
                ControlFlow::Continue(())
            }
            Value::UnicodeStringLiteral(_) if g == Grammar::TrinoDml => ControlFlow::Continue(()),
            Value::DoubleQuotedString(_) => self.fail(
                format!(
                    "double-quoted string literal in {}: write string literals in single quotes",
                    self.ctx.grammar_name()
                ),
                value.span,
            ),
            other => self.fail(
                format!(
                    "literal {other} is not a {} literal form: write strings as '…' and binary as X'…'",
                    self.ctx.grammar_name()
                ),
                value.span,
            ),
        }
    }

    fn expr(&mut self, expr: &Expr) -> ControlFlow<Error> {
        let trino = self.trino();
        match expr {
            Expr::Function(f) => {
                for part in &f.name.0 {
                    if let Some(i) = part.as_ident() {
                        self.function_names.add(i);
                    }
                }
            }
            // `current_user`, `localtime`, …: Trino's grammar has a rule for each
            // (SqlBase.g4, `primaryExpression`); sqlparser reads them as names.
            Expr::Identifier(i)
                if i.quote_style.is_none()
                    && is_special_value_word(&i.value.to_ascii_lowercase()) =>
            {
                self.function_names.add(i)
            }
            _ => {}
        }
        if self.ctx.grammar != Grammar::HiveDdl {
            if let Some(operand) = predicate_as_value(expr, self.ctx.grammar) {
                // Neither the operand's text nor its span: both recurse through it, and
                // sqlparser builds `a IS NULL IS NULL …` as deep as it is long.
                return self.fail(
                    format!(
                        "{} stands where {} takes a value: the operands of a \
                         comparison, BETWEEN, IN, LIKE, IS [NOT] NULL, IS DISTINCT FROM and of the \
                         arithmetic operators are values; put the predicate in parentheses",
                        predicate_name(operand),
                        if self.trino() {
                            "Trino's grammar"
                        } else {
                            "Spark's grammar"
                        }
                    ),
                    leftmost_span(operand),
                );
            }
        }
        if trino {
            self.check_trino_expr(expr)?;
        } else if self.ctx.grammar == Grammar::Spark {
            self.check_spark_operator(expr)?;
        }
        match expr {
            Expr::TypedString(ts) => {
                let problem = match &ts.value.value {
                    Value::SingleQuotedString(v) | Value::UnicodeStringLiteral(v) => {
                        literals::typed_literal_problem(
                            &type_form(&ts.data_type),
                            &ts.data_type,
                            v,
                            self.ctx.grammar,
                        )
                    }
                    _ => Some(format!(
                        "typed literal `{expr}`: the value after {} is a '…' string",
                        ts.data_type
                    )),
                };
                if let Some(msg) = problem {
                    return self.fail(msg, expr.span());
                }
            }
            Expr::Cast {
                kind: CastKind::DoubleColon,
                ..
            } => {
                return self.fail(
                    format!(
                        "`::` cast is PostgreSQL syntax: {} writes CAST(x AS type)",
                        self.ctx.engine()
                    ),
                    expr.span(),
                )
            }
            Expr::Cast {
                kind: CastKind::SafeCast,
                ..
            } => {
                return self.fail(
                    "SAFE_CAST is BigQuery syntax: Athena writes TRY_CAST(x AS type)",
                    expr.span(),
                )
            }
            Expr::Cast {
                format: Some(_), ..
            } => return self.fail("CAST … FORMAT is not accepted", expr.span()),
            Expr::Cast { data_type, .. } if trino && hive_type_in_trino(data_type).is_some() => {
                if let Some(msg) = hive_type_in_trino(data_type) {
                    return self.fail(msg, expr.span());
                }
            }
            // INSERT casts only NULLs and literals, to the column types we declare.
            Expr::Cast { data_type, .. }
                if self.ctx.kind == StatementKind::Insert
                    && !written_type(data_type, self.ctx.grammar) =>
            {
                return self.fail(
                    format!(
                        "CAST to `{data_type}`: an INSERT here casts only to the column types {} spells \
                         (e.g. {})",
                        self.ctx.grammar_name(),
                        if trino { "varchar, bigint, row(a integer)" } else { "string, bigint, struct<a: int>" }
                    ),
                    expr.span(),
                )
            }
            Expr::Array(a) if !a.named => {
                return self.fail(
                    format!(
                        "bare array literal {expr}: {}",
                        if trino {
                            "Trino writes ARRAY[…]"
                        } else {
                            "Spark writes array(…)"
                        }
                    ),
                    expr.span(),
                )
            }
            Expr::Prior(_)
            | Expr::OuterJoin(_)
            | Expr::MatchAgainst { .. }
            | Expr::Dictionary(_)
            | Expr::Map(_) => {
                return self.fail(
                    format!("`{expr}` is not {} syntax", self.ctx.engine()),
                    expr.span(),
                )
            }
            Expr::ILike { .. } | Expr::RLike { .. } | Expr::SimilarTo { .. } if trino => {
                return self.fail(
                    format!(
                        "`{expr}`: Trino has no ILIKE/RLIKE/SIMILAR TO; use LIKE or regexp_like(x, pattern)"
                    ),
                    expr.span(),
                )
            }
            Expr::Struct { .. } if trino => {
                return self.fail(
                    "STRUCT(…) literal: Trino writes CAST(ROW(…) AS row(name type, …))",
                    expr.span(),
                )
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn data_type(&mut self, t: &DataType) -> ControlFlow<Error> {
        match literals::type_problem(&type_form(t), t, self.ctx.grammar) {
            // Types carry no position: point at the first word of its spelling.
            Some(msg) => {
                let text = t.to_string();
                let word = text
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .next()
                    .unwrap_or_default();
                self.fail_word(msg, word)
            }
            None => ControlFlow::Continue(()),
        }
    }

    fn query(&mut self, q: &Query) -> ControlFlow<Error> {
        let engine = self.ctx.engine();
        if self.ctx.grammar != Grammar::HiveDdl {
            self.check_row_counts(q)?;
        }
        match &q.limit_clause {
            Some(LimitClause::OffsetCommaLimit { offset, limit }) => {
                let fix = if self.trino() {
                    format!("OFFSET {offset} LIMIT {limit}")
                } else {
                    format!("LIMIT {limit} OFFSET {offset}")
                };
                return self.fail(
                    format!("`LIMIT {offset}, {limit}` is MySQL syntax: {engine} writes {fix}"),
                    offset.span(),
                );
            }
            Some(LimitClause::LimitOffset {
                limit,
                offset,
                limit_by,
            }) => {
                if !limit_by.is_empty() {
                    return self.fail_word("LIMIT … BY is ClickHouse syntax", "BY");
                }
                if let (Some(l), Some(o), true) = (limit, offset, self.trino()) {
                    let (ls, os) = (l.span().start, o.value.span().start);
                    if (ls.line, ls.column) < (os.line, os.column) && ls.line > 0 {
                        return self.fail(
                            "LIMIT before OFFSET: Trino requires OFFSET n before LIMIT m",
                            l.span(),
                        );
                    }
                }
            }
            None => {}
        }
        // Recursive CTEs came to Spark SQL in 4.0 (SPARK-24497); our Spark target is 3.5.
        if self.ctx.grammar == Grammar::Spark && q.with.as_ref().is_some_and(|w| w.recursive) {
            return self.fail_word(
                "WITH RECURSIVE is not Spark 3.5 syntax (recursive CTEs arrived in Spark 4.0): \
                 expand the hierarchy in the application or with a fixed number of self-joins",
                "RECURSIVE",
            );
        }
        if q.fetch.is_some() && !self.trino() {
            return self.fail_word("FETCH FIRST is not Spark syntax: use LIMIT", "FETCH");
        }
        if !q.locks.is_empty() {
            return self.fail_word(
                format!("FOR UPDATE/SHARE locks are not accepted by {engine}"),
                "FOR",
            );
        }
        if q.for_clause.is_some()
            || q.settings.is_some()
            || q.format_clause.is_some()
            || !q.pipe_operators.is_empty()
        {
            return self.fail(
                format!("the query uses a clause {engine} does not accept (FOR XML/JSON, SETTINGS, FORMAT, |>)"),
                q.span(),
            );
        }
        ControlFlow::Continue(())
    }

    fn select(&mut self, s: &Select) -> ControlFlow<Error> {
        self.check_select(s)?;
        if self.trino() {
            self.join_criteria(s)?;
        }
        if self.has_qmark && self.trino() {
            if let Some(w) = &s.selection {
                let _ = walk::expr(w, self.ctx.sql, &mut QMarks(&mut self.in_where));
            }
        }
        ControlFlow::Continue(())
    }

    fn table_factor(&mut self, tf: &TableFactor) -> ControlFlow<Error> {
        let engine = self.ctx.engine();
        let trino = self.trino();
        match tf {
            TableFactor::Table {
                name,
                args,
                with_hints,
                version,
                partitions,
                json_path,
                index_directives,
                ..
            } => {
                if !with_hints.is_empty()
                    || !partitions.is_empty()
                    || json_path.is_some()
                    || !index_directives.is_empty()
                {
                    return self.fail(
                        format!("table hints/partitions after {name} are not accepted by {engine}"),
                        object_span(name),
                    );
                }
                // Our dialect reads `UNNEST(array)` as a table function; Trino (and so
                // Athena) documents it for flattening arrays: `CROSS JOIN UNNEST(a) AS t (x)`.
                let is_unnest = name.0.len() == 1
                    && name.0[0].as_ident().is_some_and(|i| {
                        i.quote_style.is_none() && i.value.eq_ignore_ascii_case("unnest")
                    });
                if let (true, Some(_), Some(i)) = (is_unnest, args, name.0[0].as_ident()) {
                    self.function_names.add(i);
                }
                if args.is_some() && trino && !is_unnest {
                    return self.fail(
                        format!("{name}(…) as a table is not accepted by {engine}"),
                        object_span(name),
                    );
                }
                match version {
                    None
                    | Some(TableVersion::TimestampAsOf(_))
                    | Some(TableVersion::VersionAsOf(_)) => {}
                    Some(TableVersion::ForSystemTimeAsOf(_)) if !trino => {}
                    Some(v) => {
                        return self.fail(
                            format!(
                                "time travel `{v}` is not accepted by {engine}: write FOR TIMESTAMP AS OF \
                                 <timestamp> or FOR VERSION AS OF <snapshot id>"
                            ),
                            object_span(name),
                        )
                    }
                }
                ControlFlow::Continue(())
            }
            TableFactor::Derived { .. }
            | TableFactor::NestedJoin { .. }
            | TableFactor::TableFunction { .. } => ControlFlow::Continue(()),
            TableFactor::UNNEST { .. } if trino => ControlFlow::Continue(()),
            TableFactor::Pivot { .. } | TableFactor::Unpivot { .. } if !trino => {
                ControlFlow::Continue(())
            }
            other => self.fail(
                format!("table expression `{other}` is not accepted by {engine}"),
                other.span(),
            ),
        }
    }
}

impl Checker<'_> {
    /// Operators as Spark's grammar has them (`SqlBaseParser.g4` of apache/spark 3.5:
    /// `+ - * / % DIV & | ^ ||`, the comparisons `= == <=> <> != < <= > >=`, `AND`,
    /// `OR`, unary `- + ~ NOT !`); sqlparser also reads PostgreSQL's and MySQL's.
    fn check_spark_operator(&self, expr: &Expr) -> ControlFlow<Error> {
        use sqlparser::ast::{BinaryOperator as B, UnaryOperator as U};
        let ok = match expr {
            Expr::BinaryOp { op, .. } => matches!(
                op,
                B::Plus
                    | B::Minus
                    | B::Multiply
                    | B::Divide
                    | B::Modulo
                    | B::MyIntegerDivide
                    | B::BitwiseAnd
                    | B::BitwiseOr
                    | B::BitwiseXor
                    | B::StringConcat
                    | B::Eq
                    | B::Spaceship
                    | B::NotEq
                    | B::Gt
                    | B::Lt
                    | B::GtEq
                    | B::LtEq
                    | B::And
                    | B::Or
            ),
            Expr::UnaryOp { op, .. } => {
                matches!(op, U::Plus | U::Minus | U::Not | U::BitwiseNot | U::BangNot)
            }
            _ => true,
        };
        if ok {
            return ControlFlow::Continue(());
        }
        let op = match expr {
            Expr::BinaryOp { op, .. } => op.to_string(),
            Expr::UnaryOp { op, .. } => op.to_string(),
            _ => String::new(),
        };
        self.fail(
            format!(
                "operator `{op}` is not Spark's: Spark has + - * / % DIV & | ^ ||, the \
                 comparisons = == <=> <> != < <= > >=, AND, OR and NOT"
            ),
            expr.span(),
        )
    }

    /// Operators, intervals and the special date-time functions as Trino's grammar has
    /// them.
    fn check_trino_expr(&self, expr: &Expr) -> ControlFlow<Error> {
        use sqlparser::ast::{
            BinaryOperator as B, FunctionArg, FunctionArgExpr, FunctionArguments,
        };
        use sqlparser::ast::{DateTimeField as D, UnaryOperator as U};
        match expr {
            Expr::BinaryOp { op, .. }
                if !matches!(
                    op,
                    B::Plus
                        | B::Minus
                        | B::Multiply
                        | B::Divide
                        | B::Modulo
                        | B::StringConcat
                        | B::Gt
                        | B::Lt
                        | B::GtEq
                        | B::LtEq
                        | B::Eq
                        | B::NotEq
                        | B::And
                        | B::Or
                ) =>
            {
                self.fail(
                    format!(
                        "operator `{op}` is not Trino's: Trino has + - * / % ||, the comparisons \
                         = <> != < <= > >=, AND and OR (bitwise operations are functions: \
                         bitwise_and(x, y), …)"
                    ),
                    expr.span(),
                )
            }
            Expr::UnaryOp { op, .. } if !matches!(op, U::Plus | U::Minus | U::Not) => self.fail(
                format!("operator `{op}` is not Trino's: Trino's unary operators are + - and NOT"),
                expr.span(),
            ),
            Expr::Interval(i) => {
                let field = |f: &Option<D>| match f {
                    Some(D::Year) => Some(0),
                    Some(D::Month) => Some(1),
                    Some(D::Day) => Some(2),
                    Some(D::Hour) => Some(3),
                    Some(D::Minute) => Some(4),
                    Some(D::Second) => Some(5),
                    _ => None,
                };
                let from = field(&i.leading_field);
                let to = i.last_field.as_ref().map(|_| field(&i.last_field));
                let fields_ok = match (from, to) {
                    (Some(_), None) => true,
                    // YEAR TO MONTH, and DAY/HOUR/MINUTE TO a smaller day-time field.
                    (Some(0), Some(Some(1))) => true,
                    (Some(f), Some(Some(t))) => (2..5).contains(&f) && t > f,
                    _ => false,
                };
                let value = match i.value.as_ref() {
                    Expr::Value(v) => Some(&v.value),
                    Expr::UnaryOp {
                        op: U::Plus | U::Minus,
                        expr,
                    } => match expr.as_ref() {
                        Expr::Value(v) => Some(&v.value),
                        _ => None,
                    },
                    _ => None,
                };
                let value_ok = match value {
                    Some(Value::SingleQuotedString(s)) => {
                        crate::validate::literals::interval_value_ok(s, to.is_some())
                    }
                    _ => false,
                };
                if fields_ok
                    && value_ok
                    && i.leading_precision.is_none()
                    && i.fractional_seconds_precision.is_none()
                {
                    return ControlFlow::Continue(());
                }
                self.fail(
                    format!(
                        "interval `{expr}`: Trino writes INTERVAL [+|-] 'n' <field> [TO <field>], \
                         n a number in a string, the fields YEAR, MONTH, DAY, HOUR, MINUTE or \
                         SECOND (ranges YEAR TO MONTH or DAY … TO SECOND)"
                    ),
                    expr.span(),
                )
            }
            Expr::Function(f) if f.name.0.len() == 1 => {
                let Some(name) = f.name.0[0].as_ident().filter(|i| i.quote_style.is_none()) else {
                    return ControlFlow::Continue(());
                };
                let args = match &f.args {
                    FunctionArguments::None => CallArgs::None,
                    FunctionArguments::List(l) => match l.args.as_slice() {
                        [FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Value(v)))]
                            if l.duplicate_treatment.is_none() && l.clauses.is_empty() =>
                        {
                            match &v.value {
                                Value::Number(n, false) => {
                                    n.parse().map_or(CallArgs::Other, CallArgs::Precision)
                                }
                                _ => CallArgs::Other,
                            }
                        }
                        _ => CallArgs::Other,
                    },
                    FunctionArguments::Subquery(_) => CallArgs::Other,
                };
                match literals::special_date_time_problem(&name.value, args) {
                    Some(msg) => self.fail(msg, expr.span()),
                    None => ControlFlow::Continue(()),
                }
            }
            _ => ControlFlow::Continue(()),
        }
    }

    /// `LIMIT n`, `OFFSET n` and `FETCH FIRST n ROWS`: row counts as the grammar writes
    /// them (FETCH is Trino's only; the pre-pass checks the words around its count),
    /// `WITH TIES` after an `ORDER BY`.
    fn check_row_counts(&self, q: &Query) -> ControlFlow<Error> {
        let g = self.ctx.grammar;
        if let Some(LimitClause::LimitOffset { limit, offset, .. }) = &q.limit_clause {
            let counts = limit
                .iter()
                .map(|l| ("LIMIT", l))
                .chain(offset.iter().map(|o| ("OFFSET", &o.value)));
            for (clause, e) in counts {
                if let Some(msg) = literals::row_count_problem(clause, row_count(e), e, g) {
                    return self.fail(msg, e.span());
                }
            }
        }
        if let Some(f) = &q.fetch {
            if let Some(msg) = f
                .quantity
                .as_ref()
                .and_then(|n| literals::row_count_problem("FETCH FIRST", row_count(n), n, g))
            {
                return self.fail_word(msg, "FETCH");
            }
            if f.with_ties && q.order_by.is_none() {
                return self.fail_word(
                    "FETCH FIRST … WITH TIES needs an ORDER BY (ties are rows equal in the ordering)",
                    "TIES",
                );
            }
        }
        ControlFlow::Continue(())
    }

    fn check_select(&self, s: &Select) -> ControlFlow<Error> {
        let engine = self.ctx.engine();
        if s.top.is_some() {
            return self.fail_word(
                format!("SELECT TOP n is SQL Server syntax: {engine} writes SELECT … LIMIT n"),
                "TOP",
            );
        }
        if s.qualify.is_some() {
            return self.fail_word(
                format!(
                    "QUALIFY is not accepted by {engine}: filter the window function in an outer query, \
                     SELECT * FROM (SELECT …, row_number() OVER (…) AS rn FROM t) WHERE rn = 1"
                ),
                "QUALIFY",
            );
        }
        if s.into.is_some() {
            return self.fail_word(
                format!("SELECT … INTO is not accepted by {engine}: use CREATE TABLE … AS SELECT"),
                "INTO",
            );
        }
        if s.prewhere.is_some()
            || !s.connect_by.is_empty()
            || s.value_table_mode.is_some()
            || s.exclude.is_some()
            || s.select_modifiers.is_some()
            || !s.optimizer_hints.is_empty()
            || !matches!(s.flavor, SelectFlavor::Standard)
        {
            return self.fail(
                format!("the SELECT uses a clause {engine} does not accept"),
                s.select_token.0.span,
            );
        }
        if self.trino()
            && (!s.lateral_views.is_empty()
                || !s.cluster_by.is_empty()
                || !s.distribute_by.is_empty()
                || !s.sort_by.is_empty())
        {
            return self.fail(
                "LATERAL VIEW / CLUSTER BY / DISTRIBUTE BY / SORT BY are Hive/Spark syntax: \
                 Athena (Trino) uses CROSS JOIN UNNEST and ORDER BY",
                s.select_token.0.span,
            );
        }
        for item in &s.projection {
            let opts = match item {
                SelectItem::Wildcard(o) | SelectItem::QualifiedWildcard(_, o) => o,
                _ => continue,
            };
            if opts.opt_ilike.is_some()
                || opts.opt_exclude.is_some()
                || opts.opt_except.is_some()
                || opts.opt_replace.is_some()
                || opts.opt_rename.is_some()
                || opts.opt_alias.is_some()
            {
                return self.fail(
                    format!("`*` with EXCEPT/EXCLUDE/REPLACE/RENAME is not accepted by {engine}: list the columns"),
                    opts.wildcard_token.0.span,
                );
            }
        }
        ControlFlow::Continue(())
    }
}

/// A row count as `literals` reads it.
fn row_count(e: &Expr) -> RowCount<'_> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::Number(n, false) => RowCount::Integer(n),
            Value::Placeholder(p) if p == "?" => RowCount::Placeholder,
            _ => RowCount::Other,
        },
        _ => RowCount::Other,
    }
}

/// A type of sqlparser's tree as `literals` reads it: each variant under the name
/// sqlparser parses it from (`INT` and `INTEGER` stay apart, as the engines' rules have
/// them).
fn type_form(t: &DataType) -> TypeForm<'_> {
    use sqlparser::ast::TimezoneInfo as Z;
    use sqlparser::ast::{ArrayElemTypeDef as A, MapBracketKind as M, StructBracketKind as S};
    use sqlparser::ast::{CharacterLength as L, ExactNumberInfo as N, IntervalFields as F};
    let int = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let named = |name: &'static str, params: Vec<i64>| TypeForm::Named {
        name: name.into(),
        params,
        zone: Zone::None,
    };
    let opt =
        |name: &'static str, p: &Option<u64>| named(name, p.iter().map(|p| int(*p)).collect());
    let exact = |name: &'static str, n: &N| match *n {
        N::None => named(name, vec![]),
        N::Precision(p) => named(name, vec![int(p)]),
        N::PrecisionAndScale(p, s) => named(name, vec![int(p), s]),
    };
    let length = |name: &'static str, l: &Option<L>| match l {
        None => named(name, vec![]),
        Some(L::IntegerLength { length, unit: None }) => named(name, vec![int(*length)]),
        Some(_) => TypeForm::Other,
    };
    let zoned = |name: &'static str, p: &Option<u64>, z: &Z| {
        let zone = match z {
            Z::None => Zone::None,
            Z::WithTimeZone => Zone::With,
            Z::WithoutTimeZone => Zone::Without,
            _ => return TypeForm::Other,
        };
        TypeForm::Named {
            name: name.into(),
            params: p.iter().map(|p| int(*p)).collect(),
            zone,
        }
    };
    match t {
        DataType::Boolean => named("boolean", vec![]),
        DataType::TinyInt(p) => opt("tinyint", p),
        DataType::SmallInt(p) => opt("smallint", p),
        DataType::Int(p) => opt("int", p),
        DataType::Integer(p) => opt("integer", p),
        DataType::BigInt(p) => opt("bigint", p),
        DataType::Float(n) => exact("float", n),
        DataType::Real => named("real", vec![]),
        DataType::Double(n) => exact("double", n),
        DataType::DoublePrecision => named("double precision", vec![]),
        DataType::Decimal(n) => exact("decimal", n),
        DataType::Numeric(n) => exact("numeric", n),
        DataType::Dec(n) => exact("dec", n),
        DataType::Date => named("date", vec![]),
        DataType::Timestamp(p, z) => zoned("timestamp", p, z),
        DataType::Time(p, z) => zoned("time", p, z),
        DataType::TimestampNtz(p) => opt("timestamp_ntz", p),
        DataType::String(p) => opt("string", p),
        DataType::Binary(p) => opt("binary", p),
        DataType::Varbinary(None) => named("varbinary", vec![]),
        DataType::Varchar(l) => length("varchar", l),
        DataType::Char(l) => length("char", l),
        DataType::JSON => named("json", vec![]),
        DataType::Uuid => named("uuid", vec![]),
        DataType::Interval {
            fields: Some(F::YearToMonth),
            precision: None,
        } => named("interval year to month", vec![]),
        DataType::Interval {
            fields: Some(F::DayToSecond),
            precision: None,
        } => named("interval day to second", vec![]),
        DataType::Custom(name, modifiers) if modifiers.is_empty() && name.0.len() == 1 => {
            match name.0[0].as_ident() {
                Some(i) if i.quote_style.is_none() => TypeForm::Named {
                    name: i.value.to_ascii_lowercase().into(),
                    params: Vec::new(),
                    zone: Zone::None,
                },
                _ => TypeForm::Other,
            }
        }
        DataType::Array(A::AngleBracket(_)) => TypeForm::Array(Brackets::Angle),
        DataType::Array(A::Parenthesis(_)) => TypeForm::Array(Brackets::Parentheses),
        DataType::Map(_, _, M::AngleBrackets) => TypeForm::Map(Brackets::Angle),
        DataType::Map(_, _, M::Parentheses) => TypeForm::Map(Brackets::Parentheses),
        DataType::Struct(_, S::AngleBrackets) => TypeForm::Row(Brackets::Angle),
        DataType::Struct(_, S::Parentheses) => TypeForm::Row(Brackets::Parentheses),
        _ => TypeForm::Other,
    }
}

/// Hive-only type spellings inside a Trino `CAST`.
fn hive_type_in_trino(t: &DataType) -> Option<String> {
    match t {
        DataType::Array(sqlparser::ast::ArrayElemTypeDef::AngleBracket(_))
        | DataType::Map(_, _, sqlparser::ast::MapBracketKind::AngleBrackets)
        | DataType::Struct(_, sqlparser::ast::StructBracketKind::AngleBrackets) => Some(format!(
            "type `{t}` is Hive DDL spelling: Trino (Athena DML) writes array(T), map(K, V), row(name T, …)"
        )),
        DataType::String(_) => Some(
            "type `string` in Athena DML: Trino writes varchar (\"cast them to varchar instead\")"
                .to_string(),
        ),
        _ => None,
    }
}

/// The operand of `expr` that the grammar does not take there. Comparisons, `BETWEEN`,
/// `IN`, `LIKE`, `IS [NOT] NULL`, `IS DISTINCT FROM` and arithmetic take value
/// expressions; a predicate (`IS NULL`, `BETWEEN`, …), `NOT`, `AND` and `OR` are one
/// only in parentheses, and in Trino a comparison too (Trino's `SqlBase.g4`:
/// `predicate` and `valueExpression`; Spark's `SqlBaseParser.g4`, where a comparison is
/// a `valueExpression`). sqlparser chains `a IS NULL IS NULL` and `a = b <> c`.
fn predicate_as_value(expr: &Expr, grammar: Grammar) -> Option<&Expr> {
    use sqlparser::ast::{BinaryOperator as B, UnaryOperator as U};
    let comparisons_are_values = grammar == Grammar::Spark;
    let is_predicate = |e: &Expr| match e {
        Expr::BinaryOp { op, .. } => match op {
            B::And | B::Or => true,
            B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::Spaceship => {
                !comparisons_are_values
            }
            _ => false,
        },
        Expr::UnaryOp { op: U::Not, .. } => true,
        Expr::IsNull(_)
        | Expr::IsNotNull(_)
        | Expr::IsTrue(_)
        | Expr::IsNotTrue(_)
        | Expr::IsFalse(_)
        | Expr::IsNotFalse(_)
        | Expr::IsUnknown(_)
        | Expr::IsNotUnknown(_)
        | Expr::IsDistinctFrom(..)
        | Expr::IsNotDistinctFrom(..)
        | Expr::Between { .. }
        | Expr::In { .. }
        | Expr::Like { .. }
        | Expr::ILike { .. }
        | Expr::SimilarTo { .. }
        | Expr::RLike { .. }
        | Expr::AnyOp { .. }
        | Expr::AllOp { .. } => true,
        _ => false,
    };
    let operands: [Option<&Expr>; 3] = match expr {
        Expr::BinaryOp { left, op, right } if !matches!(op, B::And | B::Or) => {
            [Some(left), Some(right), None]
        }
        Expr::UnaryOp {
            op: U::Plus | U::Minus,
            expr,
        } => [Some(expr), None, None],
        Expr::IsNull(e) | Expr::IsNotNull(e) => [Some(e), None, None],
        Expr::IsDistinctFrom(a, b) | Expr::IsNotDistinctFrom(a, b) => [Some(a), Some(b), None],
        Expr::Between {
            expr, low, high, ..
        } => [Some(expr), Some(low), Some(high)],
        Expr::In { expr, .. } => [Some(expr), None, None],
        Expr::Like { expr, pattern, .. } => [Some(expr), Some(pattern), None],
        _ => return None,
    };
    operands.into_iter().flatten().find(|e| is_predicate(e))
}

/// What a predicate is called in a refusal.
fn predicate_name(e: &Expr) -> &'static str {
    match e {
        Expr::BinaryOp { .. } | Expr::AnyOp { .. } | Expr::AllOp { .. } => "a comparison",
        Expr::UnaryOp { .. } => "NOT",
        Expr::Between { .. } => "BETWEEN",
        Expr::In { .. } => "IN",
        Expr::Like { .. } | Expr::ILike { .. } | Expr::SimilarTo { .. } | Expr::RLike { .. } => {
            "LIKE"
        }
        Expr::IsDistinctFrom(..) | Expr::IsNotDistinctFrom(..) => "IS DISTINCT FROM",
        _ => "IS [NOT] NULL",
    }
}

/// The span of the leftmost leaf of `e`, found by a loop down its first operands (a
/// chain is as deep as it is long; `Spanned::span` would recurse through all of it).
fn leftmost_span(mut e: &Expr) -> Span {
    loop {
        e = match e {
            Expr::BinaryOp { left, .. } => left,
            Expr::IsNull(x)
            | Expr::IsNotNull(x)
            | Expr::IsTrue(x)
            | Expr::IsNotTrue(x)
            | Expr::IsFalse(x)
            | Expr::IsNotFalse(x)
            | Expr::IsUnknown(x)
            | Expr::IsNotUnknown(x)
            | Expr::IsDistinctFrom(x, _)
            | Expr::IsNotDistinctFrom(x, _) => x,
            Expr::Between { expr, .. }
            | Expr::In { expr, .. }
            | Expr::Like { expr, .. }
            | Expr::ILike { expr, .. }
            | Expr::SimilarTo { expr, .. }
            | Expr::RLike { expr, .. } => expr,
            Expr::AnyOp { left, .. } | Expr::AllOp { left, .. } => left,
            // `NOT x` and `-x` start before their operand.
            other => return other.span(),
        }
    }
}
