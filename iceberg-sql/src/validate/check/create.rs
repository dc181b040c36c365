//! CREATE TABLE's clauses on our parser's tree, as the CREATE TABLE hook (`hooks.rs`)
//! and the target's part (`dialects/`) check them on sqlparser's, with the same rules
//! (partition transforms, `TBLPROPERTIES` entries). Written so far: Spark's CTAS.

use super::pass::text_of;
use super::top::{syntax, wrong_kind, Name};
use super::Ctx;
use crate::error::Result;
use crate::validate::hooks::{
    tblproperty_key_problem, tblproperty_value_problem, transform_problem, Transform, TransformArg,
};
use crate::validate::parser::ast::{
    CreateObject, CreateTable, Expr, FunctionArgs, Literal, LiteralValue, Statement, StringForm,
    TableClause,
};

/// Spark's `CREATE TABLE t USING iceberg [clauses] AS query`: the clauses the hook
/// reads, each checked as it checks them, in the order written.
pub(super) fn spark_ctas(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let Statement::CreateTable(
        ct @ CreateTable {
            object: CreateObject::Table,
            query: Some(_),
            ..
        },
    ) = stmt
    else {
        return Err(wrong_kind(ctx, stmt, "a CREATE TABLE … AS SELECT"));
    };
    for clause in &ct.clauses {
        match clause {
            TableClause::Using(format) => {
                if format.quote.is_some() || !format.value.eq_ignore_ascii_case("iceberg") {
                    let shown = Name(std::slice::from_ref(format));
                    return Err(ctx.at(
                        format!("USING {shown}: Iceberg tables are created with USING iceberg"),
                        format.span.start,
                    ));
                }
            }
            TableClause::PartitionedBy(fields) => partition_fields(ctx, fields)?,
            TableClause::TblProperties(props) => tblproperties(ctx, props)?,
            TableClause::Comment(_) | TableClause::Location(_) => {}
            // Not among the clauses the hook reads: it stops there, before `AS`.
            TableClause::Options(_) | TableClause::StoredAs(_) | TableClause::With(_) => {
                let at = super::find_word(ctx.sql, 0, "options").unwrap_or(0);
                return Err(syntax(ctx, "expected `AS` or the end of the statement", at));
            }
        }
    }
    Ok(())
}

/// `PARTITIONED BY (…)`: each field a column or a transform the grammar has.
fn partition_fields(ctx: &Ctx, fields: &[Expr]) -> Result<()> {
    for e in fields {
        let form = transform(e);
        let shown = Shown(ctx.sql, e);
        if let Some(msg) = transform_problem(&shown, &form, ctx.grammar) {
            return Err(ctx.at(msg, super::pass::expr_start(e)));
        }
    }
    Ok(())
}

/// A partition field's form, as `hooks::transform_problem` reads it.
fn transform(e: &Expr) -> Transform<'_> {
    fn arg(x: &Expr) -> TransformArg<'_> {
        match x {
            Expr::Name(parts) if parts.len() == 1 => TransformArg::Column,
            Expr::Literal(Literal {
                value: LiteralValue::Number { text, long: false },
                ..
            }) => TransformArg::Integer(text),
            _ => TransformArg::Other,
        }
    }
    match e {
        Expr::Name(parts) if parts.len() == 1 => Transform::Column,
        Expr::Function(f) => {
            let name = match f.name.as_slice() {
                [part] if part.quote.is_none() => Some(part.value.as_str()),
                _ => None,
            };
            let args = match &f.args {
                FunctionArgs::List {
                    distinct: false,
                    args,
                } if f.filter.is_none() && f.over.is_none() => Some(args.iter().map(arg).collect()),
                _ => None,
            };
            Transform::Call { name, args }
        }
        _ => Transform::Other,
    }
}

/// `TBLPROPERTIES ('key'='value', …)`: single-quoted keys and values.
fn tblproperties(ctx: &Ctx, props: &[(Literal, Literal)]) -> Result<()> {
    fn single(l: &Literal) -> Option<&str> {
        match &l.value {
            LiteralValue::String {
                form: StringForm::Single,
                value,
            } => Some(value),
            _ => None,
        }
    }
    let text = |l: &Literal| ctx.sql.get(l.span.start..l.span.end).unwrap_or_default();
    for (key, value) in props {
        if let Some(msg) = tblproperty_key_problem(&text(key), single(key).is_some()) {
            return Err(ctx.at(msg, key.span.start));
        }
        if let Some(msg) = tblproperty_value_problem(&text(value), single(value), ctx.grammar) {
            return Err(ctx.at(msg, value.span.start));
        }
    }
    Ok(())
}

/// A partition field as sqlparser shows it: a name, a call on names and numbers.
struct Shown<'a>(&'a str, &'a Expr);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Expr::Name(parts) => write!(f, "{}", Name(parts)),
            Expr::Literal(l) => f.write_str(self.0.get(l.span.start..l.span.end).unwrap_or("")),
            Expr::Function(call) => {
                write!(f, "{}(", Name(&call.name))?;
                if let FunctionArgs::List { args, .. } = &call.args {
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{}", Shown(self.0, a))?;
                    }
                }
                f.write_str(")")
            }
            other => f.write_str(text_of(self.0, other)),
        }
    }
}
