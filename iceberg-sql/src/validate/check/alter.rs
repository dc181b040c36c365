//! ALTER TABLE on the parsed tree, with the target's rules (`dialects/`): each new or
//! changed column's type one the grammar
//! declares Iceberg columns with, its options, `TBLPROPERTIES` entries, Trino's
//! `EXECUTE` procedures (not an ALTER TABLE kind: maintenance), and `RENAME TO` where
//! the catalog has none (S3 Tables).

use super::create::{column_type, columns, tblproperties, trino_column_type};
use super::top::{execute, wrong_kind};
use super::Ctx;
use crate::dialect::Grammar;
use crate::error::Result;
use crate::validate::ddl_rules::ddl_string_problem;
use crate::validate::parser::ast::{AlterAction, Expr, Ident, Statement};

/// What an ALTER TABLE statement is refused as, when it is not one.
const EXPECTED: &str = "an ALTER TABLE";

/// Checks `ALTER TABLE t action` in the target's grammar.
pub(super) fn check(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let Statement::AlterTable { table, action } = stmt else {
        return Err(wrong_kind(ctx, stmt, EXPECTED));
    };
    let trino = ctx.grammar == Grammar::TrinoDml;
    match action {
        AlterAction::AddColumns(cols) => columns(ctx, cols)?,
        AlterAction::AddColumn(c) if trino => {
            trino_column_type(ctx, &c.ty, type_start(ctx, c.name.span.end))?
        }
        AlterAction::AddColumn(c) => columns(ctx, std::slice::from_ref(c))?,
        AlterAction::ChangeColumn {
            new, ty, comment, ..
        } => {
            column_type(ctx, ty, type_start(ctx, new.span.end))?;
            // Hive DDL strings: see `ddl_rules::ddl_string_problem`.
            if let (Some(l), Grammar::HiveDdl) = (comment, ctx.grammar) {
                if let Some(msg) = l
                    .single_quoted()
                    .and_then(|s| ddl_string_problem(s, "a column COMMENT"))
                {
                    return Err(ctx.at(msg, l.span.start));
                }
            }
        }
        AlterAction::AlterColumnType { column, ty } => {
            let at = type_after_the_word_type(ctx, column);
            if trino {
                trino_column_type(ctx, ty, at)?;
            } else {
                column_type(ctx, ty, at)?;
            }
        }
        AlterAction::SetTblProperties(props) => tblproperties(ctx, props)?,
        AlterAction::AddPartitionField(f) | AlterAction::DropPartitionField(f) => {
            super::create::partition_fields(ctx, std::slice::from_ref(f))?
        }
        AlterAction::ReplacePartitionField(old, new) => {
            super::create::partition_fields(ctx, &[old.clone(), new.clone()])?
        }
        AlterAction::AddPartitions { partitions, .. } => {
            // Hive DDL strings: see `ddl_rules::ddl_string_problem`.
            for p in partitions {
                let strings = p
                    .values
                    .iter()
                    .filter_map(|(_, v)| match v {
                        Expr::Literal(l) => l.single_quoted().map(|s| (s, l.span.start)),
                        _ => None,
                    })
                    .map(|(s, at)| (s, at, "a partition value"))
                    .chain(p.location.iter().filter_map(|l| {
                        l.single_quoted()
                            .map(|s| (s, l.span.start, "a partition LOCATION"))
                    }));
                for (text, at, what) in strings {
                    if let Some(msg) = ddl_string_problem(text, what) {
                        return Err(ctx.at(msg, at));
                    }
                }
            }
        }
        AlterAction::Execute {
            procedure,
            args,
            predicate,
        } => {
            // Checked as a procedure call, then refused as the maintenance statement it is.
            execute(ctx, procedure, args, predicate.as_ref())?;
            return Err(wrong_kind(ctx, stmt, EXPECTED));
        }
        AlterAction::DropColumn(_)
        | AlterAction::RenameColumn { .. }
        | AlterAction::UnsetTblProperties(_)
        | AlterAction::SetProperties(_) => {}
        AlterAction::RenameTo(_) => {
            if let Some(refusal) = ctx.dialect.rules().syntax().rename_table_refusal() {
                let at = table.first().map_or(0, |i| i.span.start);
                return Err(ctx.at(refusal, at));
            }
        }
    }
    Ok(())
}

/// The byte offset of the first token after `from` (a type after a column's name).
fn type_start(ctx: &Ctx, from: usize) -> usize {
    let rest = ctx.sql.get(from..).unwrap_or_default();
    from + (rest.len() - rest.trim_start().len())
}

/// Where the type of `ALTER [COLUMN] c [SET DATA] TYPE t` starts.
fn type_after_the_word_type(ctx: &Ctx, column: &Ident) -> usize {
    match super::find_word(ctx.sql, column.span.end, "type") {
        Some(at) => type_start(ctx, at + "type".len()),
        None => column.span.end,
    }
}
