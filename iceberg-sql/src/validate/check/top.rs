//! The top of the statement: the variant its kind renders, and the statement-level
//! shape the target writes (clauses of other engines are outside our AST, refused by
//! the parse).

use super::pass::expr_start;
use super::Ctx;
use crate::error::{Error, ErrorKind, Result};
use crate::statement::StatementKind;
use crate::validate::ddl_rules::property_key_refusal;
use crate::validate::dialects::athena::{ctas_partitioning_entry_problem, CTAS_PARTITIONING_ARRAY};
use crate::validate::dialects::{call_args_refusal, call_name_problem, Maintenance};
use crate::validate::parser::ast::{
    AlterAction, DropObject, Expr, Ident, InsertSource, Literal, LiteralValue, Property, Statement,
    StringForm,
};

/// Checks that `stmt` is the statement `ctx.kind` renders, in the target's shape.
pub(super) fn check(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    use StatementKind as K;
    match (ctx.kind, stmt) {
        (K::Select, Statement::Query(_)) => Ok(()),
        (K::Select, _) => Err(wrong_kind(ctx, stmt, "a SELECT")),
        (K::Insert, Statement::Insert(ins)) => {
            let InsertSource::Values(rows) = &ins.source else {
                return Ok(());
            };
            if ins.columns.is_empty() {
                return Ok(());
            }
            for row in rows {
                if row.len() != ins.columns.len() {
                    let at = row.first().map_or(0, expr_start);
                    return Err(ctx.at(
                        format!(
                            "a VALUES row has {} values for the {} columns of the INSERT",
                            row.len(),
                            ins.columns.len()
                        ),
                        at,
                    ));
                }
            }
            Ok(())
        }
        (K::Insert, _) => Err(wrong_kind(ctx, stmt, "an INSERT INTO")),
        (K::Update, Statement::Update(_)) => Ok(()),
        (K::Update, _) => Err(wrong_kind(ctx, stmt, "an UPDATE")),
        (K::Delete, Statement::Delete(_)) => Ok(()),
        (K::Delete, _) => Err(wrong_kind(ctx, stmt, "a DELETE")),
        // A MERGE without a WHEN clause does not parse (`mergeCase+` in Trino's grammar).
        (K::Merge, Statement::Merge(_)) => Ok(()),
        (K::Merge, _) => Err(wrong_kind(ctx, stmt, "a MERGE INTO")),
        (K::Optimize | K::Vacuum, _) => maintenance(ctx, stmt),
        (K::Unload, _) => unload(ctx, stmt),
        (K::CreateTableAs, Statement::CreateTableAs { with, .. }) => ctas_properties(ctx, with),
        // Spark's CTAS (`CREATE TABLE t USING iceberg … AS SELECT`).
        (K::CreateTableAs, Statement::CreateTable(_)) => super::create::spark_ctas(ctx, stmt),
        (K::CreateTableAs, _) => Err(wrong_kind(ctx, stmt, "a CREATE TABLE … AS SELECT")),
        // Our parser reads these since it learnt the DDL; their checks (CREATE TABLE's
        // clauses and column types per target, ALTER TABLE's actions, …) are not
        // written yet: never accept one.
        (
            K::DropTable
            | K::ShowCreateTable
            | K::CreateDatabase
            | K::DropDatabase
            | K::ShowTables
            | K::Describe
            | K::CreateView
            | K::DropView
            | K::DropStagingTable,
            _,
        ) => super::ddl::check(ctx, stmt),
        (K::CreateStagingTable, _) => super::create::staging(ctx, stmt),
        (K::CreateTable, _) => super::create::create_table(ctx, stmt),
        (K::AlterTable, _) => super::alter::check(ctx, stmt),
    }
}

/// Compaction and snapshot expiry, as the target writes them.
fn maintenance(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let kind = ctx.kind;
    let form = ctx.dialect.rules().syntax().maintenance();
    match (form, stmt) {
        (Maintenance::Unsupported(refusal), _) => Err(ctx.at_word(refusal(kind), kind.name())),
        (Maintenance::AthenaStatements, Statement::Optimize { .. })
            if kind == StatementKind::Optimize =>
        {
            Ok(())
        }
        (Maintenance::AthenaStatements, Statement::Vacuum { .. })
            if kind == StatementKind::Vacuum =>
        {
            Ok(())
        }
        (
            Maintenance::AlterTableExecute,
            Statement::AlterTable {
                action:
                    AlterAction::Execute {
                        procedure,
                        args,
                        predicate,
                    },
                ..
            },
        ) => {
            let optimize = execute(ctx, procedure, args, predicate.as_ref())?;
            if optimize == (kind == StatementKind::Optimize) {
                Ok(())
            } else {
                Err(wrong_kind(ctx, stmt, &form.statement(kind)))
            }
        }
        (Maintenance::Procedures, Statement::Call { procedure, args }) => {
            let parts: Vec<Option<&str>> =
                procedure.iter().map(|i| Some(i.value.as_str())).collect();
            let at = procedure.first().map_or(0, |i| i.span.start);
            if let Some(msg) = call_name_problem(&Name(procedure), &parts, kind) {
                return Err(ctx.at(msg, at));
            }
            if args.is_empty() || args.iter().any(|(name, _)| name.is_none()) {
                return Err(ctx.at(call_args_refusal(kind), at));
            }
            Ok(())
        }
        _ => Err(wrong_kind(ctx, stmt, &form.statement(kind))),
    }
}

/// Trino's `ALTER TABLE … EXECUTE procedure(args) [WHERE …]`, checked: one
/// of the procedures generated here (`optimize`; `expire_snapshots` and
/// `remove_orphan_files`, the steps of a snapshot expiry), its named arguments with their literal
/// values, `WHERE` after `optimize` only. Whether it is `optimize`.
pub(super) fn execute(
    ctx: &Ctx,
    procedure: &Ident,
    args: &[(Option<Ident>, Expr)],
    predicate: Option<&Expr>,
) -> Result<bool> {
    let optimize = procedure.quote.is_none() && procedure.value.eq_ignore_ascii_case("optimize");
    let expire = procedure.quote.is_none()
        && (procedure.value.eq_ignore_ascii_case("expire_snapshots")
            || procedure.value.eq_ignore_ascii_case("remove_orphan_files"));
    let orphans =
        procedure.quote.is_none() && procedure.value.eq_ignore_ascii_case("remove_orphan_files");
    if !optimize && !expire {
        return Err(ctx.at(
            format!(
                "ALTER TABLE … EXECUTE {}: the statements generated here are EXECUTE \
                 optimize, EXECUTE expire_snapshots and EXECUTE remove_orphan_files",
                Name(std::slice::from_ref(procedure))
            ),
            procedure.span.start,
        ));
    }
    let allowed: &[&str] = if optimize {
        &["file_size_threshold"]
    } else if orphans {
        &["retention_threshold"]
    } else {
        &["retention_threshold", "retain_last"]
    };
    for (name, value) in args {
        let Some(name) = name else {
            return Err(syntax(ctx, "expected a named argument", expr_start(value)));
        };
        if name.quote.is_some() || !allowed.contains(&name.value.as_str()) {
            return Err(ctx.at(
                format!(
                    "argument `{}`: this procedure takes {}",
                    name.value,
                    allowed.join(", ")
                ),
                name.span.start,
            ));
        }
        let number = name.value == "retain_last";
        let ok = match value {
            Expr::Literal(Literal {
                value: LiteralValue::Number { long: false, .. },
                ..
            }) => number,
            Expr::Literal(Literal {
                value:
                    LiteralValue::String {
                        form: StringForm::Single,
                        ..
                    },
                ..
            }) => !number,
            _ => false,
        };
        if !ok {
            let what = format!("expected a value for {}", name.value);
            return Err(syntax(ctx, &what, expr_start(value)));
        }
    }
    if let (Some(p), false) = (predicate, optimize) {
        return Err(syntax(
            ctx,
            "expected the end of the statement",
            expr_start(p),
        ));
    }
    Ok(optimize)
}

/// A text the grammar does not read, at byte offset `at`.
pub(super) fn syntax(ctx: &Ctx, what: &str, at: usize) -> Error {
    let located = ctx.at("", at).location().cloned();
    Error::new(
        ErrorKind::Syntax,
        format!("{} does not parse: {what}", ctx.grammar_name()),
    )
    .with_sql(ctx.sql, located)
}

/// Athena's `UNLOAD (query) TO 's3://…' WITH (…)`, or the target's refusal.
fn unload(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    if let Some(refusal) = ctx.dialect.rules().syntax().unload_refusal() {
        return Err(ctx.at_start(refusal));
    }
    let Statement::Unload { to, .. } = stmt else {
        return Err(wrong_kind(ctx, stmt, "an UNLOAD"));
    };
    match to {
        Literal {
            value:
                LiteralValue::String {
                    form: StringForm::Single,
                    ..
                },
            ..
        } => Ok(()),
        _ => Err(ctx.at(
            "UNLOAD target must be a single-quoted S3 URI: TO 's3://bucket/prefix/'",
            to.span.start,
        )),
    }
}

/// A Trino CTAS's `WITH (name = value, …)`: each named by a plain or double-quoted
/// name, `partitioning` an `ARRAY['transform', …]` in CTAS order.
pub(super) fn ctas_properties(ctx: &Ctx, with: &[Property]) -> Result<()> {
    for p in with {
        if !matches!(p.name.quote, None | Some('"')) {
            let shown = Name(std::slice::from_ref(&p.name));
            return Err(ctx.at(
                property_key_refusal(ctx.engine(), &shown),
                p.name.span.start,
            ));
        }
    }
    for p in with {
        if !p.name.value.eq_ignore_ascii_case("partitioning") {
            continue;
        }
        let Expr::Array(entries) = &p.value else {
            return Err(ctx.at(CTAS_PARTITIONING_ARRAY, expr_start(&p.value)));
        };
        for e in entries {
            let string = match e {
                Expr::Literal(Literal {
                    value:
                        LiteralValue::String {
                            form: StringForm::Single,
                            value,
                        },
                    ..
                }) => Some(value.as_str()),
                _ => None,
            };
            let at = expr_start(e);
            let shown = super::pass::text_of(ctx.sql, e);
            if let Some(msg) = ctas_partitioning_entry_problem(&shown, string) {
                return Err(ctx.at(msg, at));
            }
        }
    }
    Ok(())
}

/// A dotted name as written (quotes included), for messages.
pub(super) struct Name<'a>(pub(super) &'a [Ident]);

impl std::fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (n, part) in self.0.iter().enumerate() {
            if n > 0 {
                f.write_str(".")?;
            }
            match part.quote {
                Some(q) => {
                    let doubled = part.value.replace(q, &format!("{q}{q}"));
                    write!(f, "{q}{doubled}{q}")?
                }
                None => f.write_str(&part.value)?,
            }
        }
        Ok(())
    }
}

/// The first word of the text, upper-cased, naming what was found.
fn found_statement(ctx: &Ctx, stmt: &Statement) -> String {
    let word: String = ctx
        .sql
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '_')
        .collect::<String>()
        .to_ascii_uppercase();
    match stmt {
        Statement::CreateTableAs { .. } => "CREATE TABLE AS SELECT".into(),
        Statement::CreateTable(ct) if ct.query.is_some() => "CREATE TABLE AS SELECT".into(),
        Statement::CreateTable(_) => "CREATE TABLE".into(),
        Statement::Drop { object, .. } => format!(
            "DROP {}",
            match object {
                DropObject::Table => "TABLE",
                DropObject::View => "VIEW",
                DropObject::Database => "DATABASE",
                DropObject::Schema => "SCHEMA",
            }
        ),
        _ if word.is_empty() => "another statement".into(),
        _ => word,
    }
}

/// The statement is not the one `ctx.kind` renders; `expected` says which it should be.
pub(super) fn wrong_kind(ctx: &Ctx, stmt: &Statement, expected: &str) -> Error {
    let found = found_statement(ctx, stmt);
    ctx.at_start(format!(
        "expected {expected} statement (kind {}), found {found}",
        ctx.kind.name()
    ))
}
