//! CREATE TABLE's clauses on the parsed tree, with the target's rules (`dialects/`):
//! partition transforms, `TBLPROPERTIES` entries, column types and options. CREATE
//! TABLE in Hive's grammar (Athena) and Spark's, Spark's CTAS, the staging table's
//! CREATE, Trino's CREATE TABLE (the Iceberg connector's column types).

use super::pass::text_of;
use super::top::{syntax, wrong_kind, Name};
use super::Ctx;
use crate::dialect::Grammar;
use crate::error::Result;
use crate::validate::ddl_rules::{
    column_option_refusal, column_type_problem, ddl_string_problem, tblproperty_key_problem,
    tblproperty_value_problem, transform_problem, ColumnType, Transform, TransformArg,
    EXTERNAL_TABLE,
};
use crate::validate::dialects::athena::{is_iceberg_table_type, ICEBERG_TABLE_TYPE};
use crate::validate::dialects::trino::trino_column_type_problem;
use crate::validate::dialects::{Staging, TableLocation};
use crate::validate::parser::ast::{
    Brackets, ColumnDef, CreateObject, CreateTable, DataType, Expr, FunctionArgs, Literal,
    LiteralValue, Statement, TableClause, TimeZone,
};

/// A staged load's staging table over its Parquet files, as the target keeps it
/// (`Staging`): Athena's `CREATE EXTERNAL TABLE t (cols) STORED AS PARQUET LOCATION
/// '…'`, Spark's `CREATE TEMPORARY VIEW v (cols) USING parquet OPTIONS (path '…')`.
/// Only these clauses are read, in this order; the rest is a `Syntax` refusal.
pub(super) fn staging(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let staging = ctx.dialect.rules().syntax().staging();
    let (object, expected) = match &staging {
        Staging::ExternalTable => (
            CreateObject::ExternalTable,
            "a CREATE EXTERNAL TABLE … STORED AS PARQUET LOCATION '…'",
        ),
        Staging::TemporaryView => (
            CreateObject::TemporaryView,
            "a CREATE TEMPORARY VIEW v (…) USING parquet OPTIONS (path '…')",
        ),
        Staging::Refused { why, at } => {
            return Err(match at {
                Some(word) => ctx.at_word(why.as_str(), word),
                None => ctx.at_start(why.as_str()),
            })
        }
    };
    let Statement::CreateTable(ct) = stmt else {
        return Err(wrong_kind(ctx, stmt, expected));
    };
    if ct.object != object || ct.if_not_exists {
        return Err(wrong_kind(ctx, stmt, expected));
    }
    columns(ctx, &ct.columns)?;
    let spark = object == CreateObject::TemporaryView;
    let mut clauses = ct.clauses.iter();
    match (spark, clauses.next()) {
        (false, Some(TableClause::StoredAs(format))) => {
            if format.quote.is_some() || !format.value.eq_ignore_ascii_case("parquet") {
                return Err(syntax(
                    ctx,
                    "expected PARQUET (staged files are Parquet)",
                    format.span.start,
                ));
            }
        }
        (true, Some(TableClause::Using(format))) => {
            if format.quote.is_some() || !format.value.eq_ignore_ascii_case("parquet") {
                let shown = Name(std::slice::from_ref(format));
                return Err(ctx.at(
                    format!("USING {shown}: staged files are read with USING parquet"),
                    format.span.start,
                ));
            }
        }
        _ => return Err(not_staging_clauses(ctx, spark)),
    }
    match (spark, clauses.next(), clauses.next()) {
        (false, Some(TableClause::Location(l)), None) => {
            if let Some(msg) = l
                .single_quoted()
                .and_then(|s| ddl_string_problem(s, "LOCATION"))
            {
                return Err(ctx.at(msg, l.span.start));
            }
        }
        (true, Some(TableClause::Options(options)), None) => {
            let [(key, value)] = options.as_slice() else {
                let at = options.get(1).map_or(0, |(k, _)| k.span.start);
                return Err(syntax(ctx, "expected `)` (path is the only option)", at));
            };
            // `OPTIONS (path '…')`: Spark's grammar takes `path = '…'` too, the staging
            // shape does not (our tree keeps no `=`: it is found between key and value).
            let between = ctx.sql.get(key.span.end..value.span.start).unwrap_or("=");
            let plain_path = key.quote.is_none() && key.value.eq_ignore_ascii_case("path");
            if !plain_path || between.contains('=') || value.single_quoted().is_none() {
                return Err(syntax(
                    ctx,
                    "expected path 's3://…' (the only option)",
                    key.span.start,
                ));
            }
        }
        _ => return Err(not_staging_clauses(ctx, spark)),
    }
    if spark && ct.name.len() != 1 {
        return Err(wrong_kind(ctx, stmt, expected));
    }
    Ok(())
}

/// The refusal of a staging table's clauses other than its shape's.
fn not_staging_clauses(ctx: &Ctx, spark: bool) -> crate::error::Error {
    let (word, what) = if spark {
        ("using", "expected USING parquet OPTIONS (path '…')")
    } else {
        ("stored", "expected STORED AS PARQUET LOCATION '…'")
    };
    let at = super::find_word(ctx.sql, 0, word).unwrap_or(0);
    syntax(ctx, what, at)
}

/// Column definitions: each type one the grammar declares Iceberg columns with, each
/// option one its columns take.
pub(super) fn columns(ctx: &Ctx, cols: &[ColumnDef]) -> Result<()> {
    for c in cols {
        let rest = ctx.sql.get(c.name.span.end..).unwrap_or_default();
        let type_at = c.name.span.end + (rest.len() - rest.trim_start().len());
        column_type(ctx, &c.ty, type_at)?;
        if c.not_null && ctx.grammar != Grammar::Spark {
            let msg = column_option_refusal(&c.name.value, &"NOT NULL", ctx.grammar);
            return Err(ctx.at(msg, c.name.span.start));
        }
        if let (Some(l), Grammar::HiveDdl) = (&c.comment, ctx.grammar) {
            if let Some(msg) = l
                .single_quoted()
                .and_then(|s| ddl_string_problem(s, "a column COMMENT"))
            {
                return Err(ctx.at(msg, c.name.span.start));
            }
        }
    }
    Ok(())
}

/// A column's type, each node of it, as `ddl_rules::column_type_problem` reads it.
pub(super) fn column_type(ctx: &Ctx, t: &DataType, at: usize) -> Result<()> {
    let spark = ctx.grammar == Grammar::Spark;
    let form = match t {
        DataType::Array(inner, Brackets::Angle) => return column_type(ctx, inner, at),
        DataType::Map(k, v, Brackets::Angle) => {
            column_type(ctx, k, at)?;
            return column_type(ctx, v, at);
        }
        DataType::Row(fields, Brackets::Angle) => {
            return fields.iter().try_for_each(|f| column_type(ctx, &f.ty, at));
        }
        DataType::Named {
            name,
            params,
            time_zone,
        } => match (name.as_str(), params.len(), time_zone) {
            (
                "boolean" | "int" | "integer" | "bigint" | "float" | "double" | "date"
                | "timestamp" | "string" | "binary",
                0,
                TimeZone::None,
            ) => ColumnType::Iceberg,
            ("long", 0, TimeZone::None) if spark => ColumnType::Iceberg,
            ("decimal", 1 | 2, TimeZone::None) => ColumnType::Iceberg,
            ("timestamp_ntz", 0, TimeZone::None) => ColumnType::TimestampNtz,
            ("varchar" | "char" | "text", _, _) => ColumnType::Character,
            ("tinyint" | "smallint", _, _) => ColumnType::SmallInteger,
            ("timestamp", _, _) => ColumnType::TimestampWithParts,
            ("real", _, _) => ColumnType::Real,
            _ => ColumnType::Other,
        },
        _ => ColumnType::Other,
    };
    match column_type_problem(&super::pass::Shown(t), form, ctx.grammar) {
        Some(msg) => Err(ctx.at(msg, at)),
        None => Ok(()),
    }
}

/// Spark's `CREATE TABLE t USING iceberg [clauses] AS query`: the clauses it takes, each
/// checked, in the order written.
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
    spark_clauses(ctx, ct)
}

/// `CREATE TABLE t (cols) clauses` (no `AS SELECT`) in Hive's grammar (Athena),
/// Spark's or Trino's.
pub(super) fn create_table(ctx: &Ctx, stmt: &Statement) -> Result<()> {
    let expected = "a CREATE TABLE (no AS SELECT)";
    let Statement::CreateTable(ct) = stmt else {
        return Err(wrong_kind(ctx, stmt, expected));
    };
    match ctx.grammar {
        Grammar::HiveDdl if ct.object == CreateObject::ExternalTable => {
            let at = super::find_word(ctx.sql, 0, "external").unwrap_or(0);
            Err(ctx.at(EXTERNAL_TABLE, at))
        }
        _ if ct.object != CreateObject::Table || ct.query.is_some() => {
            Err(wrong_kind(ctx, stmt, expected))
        }
        Grammar::HiveDdl => hive_table(ctx, ct),
        Grammar::Spark => {
            columns(ctx, &ct.columns)?;
            spark_clauses(ctx, ct)?;
            if ct.columns.is_empty() {
                let at = ct.name.first().map_or(0, |i| i.span.start);
                return Err(ctx.at("CREATE TABLE needs a column list", at));
            }
            Ok(())
        }
        Grammar::TrinoDml => {
            for c in &ct.columns {
                let rest = ctx.sql.get(c.name.span.end..).unwrap_or_default();
                let type_at = c.name.span.end + (rest.len() - rest.trim_start().len());
                trino_column_type(ctx, &c.ty, type_at)?;
            }
            for clause in &ct.clauses {
                if let TableClause::With(props) = clause {
                    super::top::ctas_properties(ctx, props)?;
                }
            }
            Ok(())
        }
    }
}

/// A column's type in Trino's grammar, each node one of the Iceberg connector's.
pub(super) fn trino_column_type(ctx: &Ctx, t: &DataType, at: usize) -> Result<()> {
    let iceberg = match t {
        DataType::Array(inner, Brackets::Parentheses) => return trino_column_type(ctx, inner, at),
        DataType::Map(k, v, Brackets::Parentheses) => {
            trino_column_type(ctx, k, at)?;
            return trino_column_type(ctx, v, at);
        }
        DataType::Row(fields, Brackets::Parentheses) => {
            return fields
                .iter()
                .try_for_each(|f| trino_column_type(ctx, &f.ty, at));
        }
        DataType::Named {
            name,
            params,
            time_zone,
        } => matches!(
            (name.as_str(), params.as_slice(), time_zone),
            (
                "boolean"
                    | "int"
                    | "integer"
                    | "bigint"
                    | "real"
                    | "double"
                    | "date"
                    | "varchar"
                    | "varbinary",
                [],
                TimeZone::None,
            ) | ("decimal", [_] | [_, _], TimeZone::None)
                | ("timestamp", [6], TimeZone::None | TimeZone::With)
        ),
        _ => false,
    };
    match trino_column_type_problem(&super::pass::Shown(t), iceberg) {
        Some(msg) => Err(ctx.at(msg, at)),
        None => Ok(()),
    }
}

/// Athena's `CREATE TABLE t (cols) [PARTITIONED BY (…)] [LOCATION '…'] TBLPROPERTIES
/// ('table_type'='ICEBERG', …)`, the location as the target has it.
fn hive_table(ctx: &Ctx, ct: &CreateTable) -> Result<()> {
    columns(ctx, &ct.columns)?;
    let mut location = false;
    let mut iceberg = false;
    for clause in &ct.clauses {
        match clause {
            TableClause::PartitionedBy(fields) => partition_fields(ctx, fields)?,
            TableClause::Location(l) => {
                location = true;
                if let Some(msg) = l
                    .single_quoted()
                    .and_then(|s| ddl_string_problem(s, "LOCATION"))
                {
                    return Err(ctx.at(msg, l.span.start));
                }
            }
            TableClause::TblProperties(props) => {
                tblproperties(ctx, props)?;
                iceberg = props.iter().any(|(k, v)| {
                    k.single_quoted()
                        .zip(v.single_quoted())
                        .is_some_and(|(k, v)| is_iceberg_table_type(k, v))
                });
            }
            // No other clause is taken: TBLPROPERTIES is expected there.
            _ => {
                let at = super::find_word(ctx.sql, 0, "comment").unwrap_or(0);
                return Err(syntax(
                    ctx,
                    "expected TBLPROPERTIES ('table_type'='ICEBERG', …)",
                    at,
                ));
            }
        }
    }
    if !iceberg {
        return Err(ctx.at_word(ICEBERG_TABLE_TYPE, "TBLPROPERTIES"));
    }
    let name_at = ct.name.first().map_or(0, |i| i.span.start);
    match ctx.dialect.rules().syntax().table_location() {
        TableLocation::Required(refusal) if !location => Err(ctx.at(refusal, name_at)),
        TableLocation::Refused(refusal) if location => Err(ctx.at_word(refusal, "LOCATION")),
        _ => Ok(()),
    }
}

/// Spark's `USING iceberg` and table clauses, each checked, in the order written.
fn spark_clauses(ctx: &Ctx, ct: &CreateTable) -> Result<()> {
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
            // Not among the clauses taken: the statement stops there, before `AS`.
            TableClause::Options(_) | TableClause::StoredAs(_) | TableClause::With(_) => {
                let at = super::find_word(ctx.sql, 0, "options").unwrap_or(0);
                return Err(syntax(ctx, "expected `AS` or the end of the statement", at));
            }
        }
    }
    Ok(())
}

/// `PARTITIONED BY (…)`: each field a column or a transform the grammar has.
pub(super) fn partition_fields(ctx: &Ctx, fields: &[Expr]) -> Result<()> {
    for e in fields {
        let form = transform(e);
        let shown = Shown(ctx.sql, e);
        if let Some(msg) = transform_problem(&shown, &form, ctx.grammar) {
            return Err(ctx.at(msg, super::pass::expr_start(e)));
        }
    }
    Ok(())
}

/// A partition field's form, as `ddl_rules::transform_problem` reads it.
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
pub(super) fn tblproperties(ctx: &Ctx, props: &[(Literal, Literal)]) -> Result<()> {
    let text = |l: &Literal| ctx.sql.get(l.span.start..l.span.end).unwrap_or_default();
    for (key, value) in props {
        if let Some(msg) = tblproperty_key_problem(&text(key), key.single_quoted().is_some()) {
            return Err(ctx.at(msg, key.span.start));
        }
        if let Some(msg) =
            tblproperty_value_problem(&text(value), value.single_quoted(), ctx.grammar)
        {
            return Err(ctx.at(msg, value.span.start));
        }
    }
    Ok(())
}

/// A partition field as a message shows it: a name, a call on names and numbers.
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
