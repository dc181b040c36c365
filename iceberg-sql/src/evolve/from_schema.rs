//! Evolution asked by data: the live table against the Arrow schema of incoming records.

use arrow_schema::Schema;

use super::{evolve_for, EvolutionPlan, EvolveOptions};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::model::TableDef;

/// The table `live` becomes to hold records of `incoming`: each live column with the
/// type of the incoming field of its name (the live nullability and comment kept), then
/// the incoming fields it lacks, in their order, as nullable columns. A live column the
/// records lack stays when it is nullable (its cells are NULL); a required one is an
/// error. Incoming fields are read with [`crate::arrow::columns`].
pub fn schema_target(live: &TableDef, incoming: &Schema) -> Result<TableDef> {
    let fields = crate::arrow::columns(incoming)?;
    let mut errors = Vec::new();
    let mut columns = Vec::with_capacity(live.columns().len() + fields.len());
    for c in live.columns() {
        match fields.iter().find(|f| f.name == c.name) {
            Some(f) => {
                let mut c = c.clone();
                c.ty = f.ty.clone();
                columns.push(c);
            }
            None if c.nullable => columns.push(c.clone()),
            None => errors.push(
                Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "column `{}` of `{}` is required, and the incoming records have no field `{}`",
                        c.name,
                        live.name(),
                        c.name
                    ),
                )
                .with_hint(format!(
                    "add the field `{}` to the records, or make the column nullable",
                    c.name
                )),
            ),
        }
    }
    for f in fields {
        if live.column(&f.name).is_none() {
            let mut f = f;
            f.nullable = true;
            columns.push(f);
        }
    }
    Error::check_all(errors)?;
    let target = live.with_columns(columns);
    target.check()?;
    Ok(target)
}

/// The plan that lets `live` hold records of `incoming` ([`schema_target`]): a new field
/// is an `ADD COLUMNS`, a legal widening (`int` to `bigint`, `float` to `double`, a
/// decimal's precision up at the same scale) a type change; any other type change
/// (narrowing, another type, a scale change, a nested change) is refused, as
/// [`evolve`](super::evolve) refuses it, with the way out. Properties are not compared.
///
/// ```
/// use arrow_schema::{DataType, Field, Schema};
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::evolve::evolve_from_schema;
/// let live = TableDef::builder("analytics", "events")
///     .column(Column::new("id", IcebergType::Long).required())
///     .column(Column::new("n", IcebergType::Int))
///     .location("s3://lake/events/")
///     .build()?;
/// let incoming = Schema::new(vec![
///     Field::new("id", DataType::Int64, false),
///     Field::new("n", DataType::Int64, true),
///     Field::new("source", DataType::Utf8, true),
/// ]);
/// let plan = evolve_from_schema(&live, &incoming, Dialect::Athena)?;
/// let sql: Vec<&str> = plan.statements().map(|s| s.sql()).collect();
/// assert_eq!(sql, [
///     "ALTER TABLE analytics.events CHANGE COLUMN n n bigint",
///     "ALTER TABLE analytics.events ADD COLUMNS (source string)",
/// ]);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn evolve_from_schema(
    live: &TableDef,
    incoming: &Schema,
    dialect: Dialect,
) -> Result<EvolutionPlan> {
    let target = schema_target(live, incoming)?;
    evolve_for(
        live,
        &target,
        EvolveOptions::new().sync_properties(false),
        dialect,
    )
}
