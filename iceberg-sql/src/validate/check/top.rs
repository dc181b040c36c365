//! The top of the statement: the variant its kind renders, and the statement-level
//! shape the target writes (what `allow.rs`'s `check_top` asks of sqlparser's tree; the
//! clauses of other engines it refuses there are outside our AST, refused by the parse).

use super::Ctx;
use crate::dialect::Grammar;
use crate::error::{Error, Result};
use crate::statement::StatementKind;
use crate::validate::parser::ast::{Expr, InsertSource, MergeAction, Statement};

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
                    let at = row.first().map_or(0, first_offset);
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
        (K::Merge, Statement::Merge(m)) => {
            if m.clauses.is_empty() && ctx.grammar == Grammar::TrinoDml {
                return Err(ctx.at(
                    format!(
                        "MERGE without a WHEN clause: {} MERGE takes at least one WHEN [NOT] \
                         MATCHED … THEN …",
                        ctx.engine()
                    ),
                    first_offset_of_text(ctx.sql),
                ));
            }
            let _ = m
                .clauses
                .iter()
                .map(|c| &c.action)
                .filter(|a| matches!(a, MergeAction::Delete));
            Ok(())
        }
        (K::Merge, _) => Err(wrong_kind(ctx, stmt, "a MERGE INTO")),
        _ => Err(wrong_kind(ctx, stmt, "another")),
    }
}

/// The byte offset of the first non-blank character of `sql`.
fn first_offset_of_text(sql: &str) -> usize {
    sql.len() - sql.trim_start().len()
}

/// The byte offset where `e`'s text starts.
pub(super) fn first_offset(e: &Expr) -> usize {
    super::pass::leftmost_offset(e)
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
        _ if word.is_empty() => "another statement".into(),
        _ => word,
    }
}

/// The statement is not the one `ctx.kind` renders; `expected` says which it should be
/// (the allow-list's message).
pub(super) fn wrong_kind(ctx: &Ctx, stmt: &Statement, expected: &str) -> Error {
    let found = found_statement(ctx, stmt);
    ctx.at_start(format!(
        "expected {expected} statement (kind {}), found {found}",
        ctx.kind.name()
    ))
}
