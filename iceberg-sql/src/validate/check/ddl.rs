//! The DDL statements other than CREATE TABLE and ALTER TABLE, in the shapes the target
//! writes them, with the target's rules (`dialects/`).

use super::top::{syntax, wrong_kind, Name};
use super::{find_word, Ctx};
use crate::dialect::Grammar;
use crate::error::Result;
use crate::statement::StatementKind;
use crate::validate::ddl_rules::ddl_string_problem;
use crate::validate::dialects::trino::{like_escape_problem, schema_property_problem};
use crate::validate::dialects::{FilterForm, Staging};
use crate::validate::parser::ast::{DropObject, Expr, Ident, Property, Statement};

/// Checks a statement of one of the kinds of this module.
pub(super) fn check(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    use StatementKind as K;
    match ctx.kind {
        K::DropTable => drop_table(ctx, stmt),
        K::DropView => drop_view(ctx, stmt),
        K::DropDatabase => drop_database(ctx, stmt),
        K::DropStagingTable => drop_staging(ctx, stmt),
        K::CreateDatabase => create_database(ctx, stmt),
        K::CreateView => match stmt {
            // Its clauses other than OR REPLACE are outside our AST.
            Statement::CreateView { .. } => Ok(()),
            _ => Err(wrong_kind(ctx, stmt, "a CREATE VIEW … AS SELECT")),
        },
        K::ShowCreateTable => match stmt {
            Statement::ShowCreateTable { table } if table.len() <= 2 => Ok(()),
            _ => Err(wrong_kind(ctx, stmt, "a SHOW CREATE TABLE")),
        },
        K::Describe => match stmt {
            Statement::Describe { table, .. } if table.len() <= 2 => Ok(()),
            _ => Err(wrong_kind(ctx, stmt, "a DESCRIBE [FORMATTED] db.t")),
        },
        K::ShowTables => show_tables(ctx, stmt),
        _ => Err(wrong_kind(ctx, stmt, ctx.kind.name())),
    }
}

/// `DROP TABLE [IF EXISTS] t [PURGE]`, `PURGE` where the target has it.
fn drop_table(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    match stmt {
        Statement::Drop {
            object: DropObject::Table,
            purge,
            ..
        } => match (*purge, ctx.dialect.rules().syntax().purge_refusal()) {
            (true, Some(refusal)) => Err(ctx.at_word(refusal, "PURGE")),
            _ => Ok(()),
        },
        _ => Err(wrong_kind(ctx, stmt, "a DROP TABLE")),
    }
}

/// `DROP VIEW [IF EXISTS] v`.
fn drop_view(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    match stmt {
        Statement::Drop {
            object: DropObject::View,
            ..
        } => Ok(()),
        _ => Err(wrong_kind(ctx, stmt, "a DROP VIEW")),
    }
}

/// `DROP DATABASE [IF EXISTS] db [CASCADE]` (Trino: `DROP SCHEMA`): one name,
/// `CASCADE` where it drops the tables with their data.
fn drop_database(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let Statement::Drop {
        object,
        name,
        cascade,
        ..
    } = stmt
    else {
        return Err(wrong_kind(ctx, stmt, "a DROP DATABASE"));
    };
    let database = match object {
        DropObject::Database => database_word(ctx, false),
        DropObject::Schema => database_word(ctx, true),
        DropObject::Table | DropObject::View => false,
    };
    if !database {
        return Err(wrong_kind(ctx, stmt, "a DROP DATABASE"));
    }
    if name.len() != 1 {
        return Err(ctx.at_word(
            "DROP DATABASE takes one database name: drop one database per statement",
            "DATABASE",
        ));
    }
    match (
        *cascade,
        ctx.dialect.rules().syntax().drop_database_cascade_refusal(),
    ) {
        (true, Some(refusal)) => Err(ctx.at_word(refusal, "CASCADE")),
        _ => Ok(()),
    }
}

/// Whether a database is named as the grammar names it: `SCHEMA` in Trino's (its
/// grammar has no `DATABASE`), `DATABASE` in Hive's and Spark's (sqlparser reads their
/// `SCHEMA` as another object).
fn database_word(ctx: &Ctx, schema: bool) -> bool {
    schema == (ctx.grammar == Grammar::TrinoDml)
}

/// The staging table's `DROP … IF EXISTS name`, of the object the target stages in.
fn drop_staging(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let staging = ctx.dialect.rules().syntax().staging();
    let object = match &staging {
        Staging::ExternalTable => DropObject::Table,
        Staging::TemporaryView => DropObject::View,
        Staging::Refused { why, at } => {
            return Err(match at {
                Some(word) => ctx.at_word(why.as_str(), word),
                None => ctx.at_start(why.as_str()),
            })
        }
    };
    match stmt {
        Statement::Drop {
            object: o,
            if_exists: true,
            purge: false,
            cascade: false,
            ..
        } if *o == object => Ok(()),
        _ => Err(wrong_kind(
            ctx,
            stmt,
            &format!("{} <one name>", staging.drop_statement()),
        )),
    }
}

/// `CREATE DATABASE [IF NOT EXISTS] db [COMMENT '…'] [LOCATION '…']` (Hive, Spark),
/// `CREATE SCHEMA [IF NOT EXISTS] s [WITH (location = '…')]` (Trino).
fn create_database(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let Statement::CreateDatabase {
        schema,
        comment,
        location,
        with,
        ..
    } = stmt
    else {
        return Err(wrong_kind(ctx, stmt, "a CREATE DATABASE"));
    };
    if !database_word(ctx, *schema) {
        return Err(wrong_kind(ctx, stmt, "a CREATE DATABASE"));
    }
    if ctx.grammar == Grammar::HiveDdl {
        for (l, what) in [(comment, "database COMMENT"), (location, "LOCATION")] {
            if let Some(problem) = l
                .as_ref()
                .and_then(|l| l.single_quoted().and_then(|s| ddl_string_problem(s, what)))
            {
                let at = l.as_ref().map_or(0, |l| l.span.start);
                return Err(ctx.at(problem, at));
            }
        }
    }
    schema_properties(ctx, with)
}

/// Trino's `CREATE SCHEMA … WITH (location = '…')`: the Iceberg connector's one schema
/// property, its value a string (one property and a string; the rest is refused).
fn schema_properties(ctx: &Ctx, with: &[Property]) -> Result<()> {
    for (n, p) in with.iter().enumerate() {
        let shown = Name(std::slice::from_ref(&p.name));
        if let Some(msg) = schema_property_problem(&shown, p.name.quote.is_none(), &p.name.value) {
            return Err(ctx.at(msg, p.name.span.start));
        }
        let string = matches!(&p.value, Expr::Literal(l) if l.single_quoted().is_some());
        if !string {
            let at = super::pass::expr_start(&p.value);
            return Err(syntax(ctx, "expected the schema location as a string", at));
        }
        if n > 0 {
            return Err(syntax(ctx, "expected `)`", p.name.span.start));
        }
    }
    Ok(())
}

/// `SHOW TABLES IN db [filter]`: one database after `IN`, and the filter as the target
/// writes it (`dialects/`).
fn show_tables(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let Statement::ShowTables {
        database,
        pattern,
        like,
        escape,
    } = stmt
    else {
        return Err(wrong_kind(ctx, stmt, "a SHOW TABLES"));
    };
    let in_one_database = database
        .as_ref()
        .is_some_and(|db| db.len() == 1 && written_in(ctx.sql, db));
    if !in_one_database {
        return Err(ctx.at_word(
            format!(
                "SHOW TABLES takes IN <database> and a table-name filter only in what this \
                 crate writes for {}",
                ctx.engine()
            ),
            "TABLES",
        ));
    }
    let Some(pattern) = pattern else {
        return Ok(());
    };
    let form = if *like {
        FilterForm::Like
    } else {
        FilterForm::Bare
    };
    let text = ctx
        .sql
        .get(pattern.span.start..pattern.span.end)
        .unwrap_or_default();
    let shown = if *like {
        format!("LIKE {text}")
    } else {
        text.to_string()
    };
    let target = ctx.dialect.rules().syntax();
    if let Some(msg) = target.show_tables_filter_problem(ctx.engine(), form, &shown) {
        return Err(ctx.at_word(msg, "TABLES"));
    }
    // In Hive DDL the pattern is a string of Hive's lexer, like a LOCATION or COMMENT.
    if ctx.grammar == Grammar::HiveDdl {
        let value = pattern.single_quoted().unwrap_or_default();
        if let Some(msg) = ddl_string_problem(value, "the SHOW TABLES pattern") {
            return Err(ctx.at(msg, pattern.span.start));
        }
    }
    if let Some(e) = escape {
        let value = e.single_quoted().unwrap_or_default();
        if let Some(msg) = like_escape_problem(value) {
            let at = find_word(ctx.sql, pattern.span.end, "escape").unwrap_or(e.span.start);
            return Err(ctx.at(msg, at));
        }
    }
    Ok(())
}

/// Whether the database of `SHOW TABLES` follows `IN` (our tree keeps no `FROM`).
fn written_in(sql: &str, db: &[Ident]) -> bool {
    let start = db.first().map_or(0, |i| i.span.start);
    let before = sql.get(..start).unwrap_or_default().trim_end();
    before
        .rsplit(char::is_whitespace)
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("in"))
}
