//! Table columns from an Arrow schema: the inverse of [`data_type`](super::data_type),
//! for a destination that learns its records' schema at run time.

use arrow_schema::{DataType, Field, Schema, TimeUnit};

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Column, TableDefBuilder};
use crate::types::{IcebergType, StructField};

/// Field metadata key of an Iceberg field id (as Parquet's Arrow reader and writer spell it).
pub const FIELD_ID_KEY: &str = "PARQUET:field_id";
/// Field metadata key of an Arrow extension type's name.
pub const EXTENSION_NAME_KEY: &str = "ARROW:extension:name";
/// The canonical Arrow extension name of a UUID (`FixedSizeBinary(16)`).
pub const UUID_EXTENSION: &str = "arrow.uuid";

fn refuse(path: &str, what: &str, way_out: &str) -> Error {
    Error::new(
        ErrorKind::InvalidType,
        format!("field `{path}`: {what}; the table model has no Iceberg type for it"),
    )
    .with_hint(way_out.to_string())
}

/// The Iceberg type of an Arrow field (`path` names it in errors: `a.b`, `tags[]`,
/// `attrs.key`). `LargeUtf8`, `LargeBinary` and `LargeList` read as `string`, `binary`
/// and `list`; nested fields become nullable (the table model does not mark nested
/// fields required). Every other type outside the module table is refused with the
/// Arrow cast that makes it fit.
///
/// ```
/// use arrow_schema::{DataType, Field, TimeUnit};
/// use iceberg_sql::IcebergType as T;
/// let f = Field::new("ts", DataType::Timestamp(TimeUnit::Microsecond, Some("+00:00".into())), true);
/// assert_eq!(iceberg_sql::arrow::iceberg_type(&f, "ts")?, T::TimestampTz);
/// let f = Field::new("n", DataType::UInt64, true);
/// let err = iceberg_sql::arrow::iceberg_type(&f, "n").unwrap_err();
/// assert!(err.to_string().contains("field `n`: UInt64"), "{err}");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn iceberg_type(field: &Field, path: &str) -> Result<IcebergType> {
    use IcebergType as T;
    let extension = field.metadata().get(EXTENSION_NAME_KEY).map(String::as_str);
    Ok(match field.data_type() {
        DataType::Boolean => T::Boolean,
        DataType::Int32 => T::Int,
        DataType::Int64 => T::Long,
        DataType::Float32 => T::Float,
        DataType::Float64 => T::Double,
        DataType::Decimal128(p, s) => {
            let scale = u8::try_from(*s).map_err(|_| {
                refuse(
                    path,
                    &format!("Decimal128({p}, {s}) has a negative scale"),
                    "cast to a Decimal128 with a scale of 0 or more",
                )
            })?;
            T::decimal(*p, scale)
        }
        DataType::Date32 => T::Date,
        DataType::Timestamp(TimeUnit::Microsecond, None) => T::Timestamp,
        DataType::Timestamp(TimeUnit::Microsecond, Some(_)) => T::TimestampTz,
        DataType::Timestamp(unit @ (TimeUnit::Nanosecond | TimeUnit::Millisecond | TimeUnit::Second), tz) => {
            let target = if tz.is_some() {
                "Timestamp(Microsecond, Some(\"UTC\"))"
            } else {
                "Timestamp(Microsecond, None)"
            };
            let what = if matches!(unit, TimeUnit::Nanosecond) {
                format!(
                    "{} is Iceberg v3's timestamp_ns, which a format-version 2 table cannot hold",
                    field.data_type()
                )
            } else {
                format!("{} is not microseconds, Iceberg's timestamp precision", field.data_type())
            };
            return Err(refuse(path, &what, &format!("cast the column to {target}")));
        }
        DataType::Utf8 | DataType::LargeUtf8 => T::String,
        DataType::Binary | DataType::LargeBinary => T::Binary,
        DataType::FixedSizeBinary(16) if extension == Some(UUID_EXTENSION) => {
            return Err(refuse(
                path,
                "FixedSizeBinary(16) tagged arrow.uuid is Iceberg's uuid, which Athena DDL cannot declare",
                "cast the column to Utf8 (the UUID's text) or Binary",
            ))
        }
        DataType::FixedSizeBinary(n) => {
            return Err(refuse(
                path,
                &format!("FixedSizeBinary({n}) is Iceberg's fixed({n}), which Athena DDL cannot declare"),
                "cast the column to Binary",
            ))
        }
        DataType::Time32(_) | DataType::Time64(_) => {
            return Err(refuse(
                path,
                &format!(
                    "{} is a time of day (Iceberg's time), which Athena DDL cannot declare",
                    field.data_type()
                ),
                "cast the column to Int64 (microseconds since midnight) or Utf8 (`HH:MM:SS.ffffff`)",
            ))
        }
        DataType::List(element) | DataType::LargeList(element) => {
            T::list(iceberg_type(element, &format!("{path}[]"))?)
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                return Err(refuse(
                    path,
                    "a Map whose entries are not a struct",
                    "build the map with arrow's MapBuilder",
                ));
            };
            if kv.len() != 2 {
                return Err(refuse(
                    path,
                    &format!("a Map whose entries have {} fields, not key and value", kv.len()),
                    "build the map with arrow's MapBuilder",
                ));
            }
            T::map(
                iceberg_type(&kv[0], &format!("{path}.key"))?,
                iceberg_type(&kv[1], &format!("{path}.value"))?,
            )
        }
        DataType::Struct(fields) => T::Struct(
            fields
                .iter()
                .map(|f| {
                    Ok(StructField::new(
                        f.name(),
                        iceberg_type(f, &format!("{path}.{}", f.name()))?,
                    ))
                })
                .collect::<Result<_>>()?,
        ),
        DataType::Int8 | DataType::Int16 | DataType::UInt8 | DataType::UInt16 => {
            return Err(refuse(
                path,
                &format!("{} has no Iceberg type of its own", field.data_type()),
                "cast the column to Int32",
            ))
        }
        DataType::UInt32 => {
            return Err(refuse(
                path,
                "UInt32 has no Iceberg type (Iceberg integers are signed)",
                "cast the column to Int64",
            ))
        }
        DataType::UInt64 => {
            return Err(refuse(
                path,
                "UInt64 has no Iceberg type (Iceberg integers are signed 64-bit at most)",
                "cast the column to Int64 if every value is below 2^63, else to Decimal128(20, 0)",
            ))
        }
        DataType::Float16 => {
            return Err(refuse(path, "Float16 has no Iceberg type", "cast the column to Float32"))
        }
        DataType::Date64 => {
            return Err(refuse(
                path,
                "Date64 (milliseconds) is not Iceberg's date (days)",
                "cast the column to Date32",
            ))
        }
        DataType::Dictionary(_, value) => {
            return Err(refuse(
                path,
                &format!("a dictionary-encoded column ({} values) is an encoding, not a type", value),
                &format!("unpack it (arrow's cast to {value})"),
            ))
        }
        DataType::Utf8View | DataType::BinaryView => {
            return Err(refuse(
                path,
                &format!("{} is a view layout", field.data_type()),
                "cast the column to Utf8 or Binary",
            ))
        }
        other => {
            return Err(refuse(
                path,
                &format!("{other}"),
                "cast the column to one of the types in the iceberg_sql::arrow mapping table",
            ))
        }
    })
}

/// The Iceberg field id in a field's metadata ([`FIELD_ID_KEY`]), if it has one.
pub fn field_id(field: &Field) -> Result<Option<i32>> {
    match field.metadata().get(FIELD_ID_KEY) {
        None => Ok(None),
        Some(text) => text.parse::<i32>().map(Some).map_err(|e| {
            Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "field `{}`: {FIELD_ID_KEY} `{text}` is not an integer: {e}",
                    field.name()
                ),
            )
            .with_hint("field ids are 32-bit integers; remove the key or set a valid id")
        }),
    }
}

/// The table column of a top-level Arrow field: its name, [`iceberg_type`] and
/// nullability.
pub fn column(field: &Field) -> Result<Column> {
    field_id(field)?;
    let mut column = Column::new(field.name(), iceberg_type(field, field.name())?);
    column.nullable = field.is_nullable();
    Ok(column)
}

/// The table columns of an Arrow schema, in order; every refused field is listed in
/// one error, as are two top-level fields with one field id.
pub fn columns(schema: &Schema) -> Result<Vec<Column>> {
    let mut errors = Vec::new();
    let mut out = Vec::with_capacity(schema.fields().len());
    let mut ids: Vec<(i32, &str)> = Vec::new();
    for f in schema.fields() {
        match field_id(f) {
            Ok(Some(id)) => {
                if let Some((_, other)) = ids.iter().find(|(i, _)| *i == id) {
                    errors.push(
                        Error::new(
                            ErrorKind::InvalidValue,
                            format!(
                                "fields `{other}` and `{}` have the same field id {id}",
                                f.name()
                            ),
                        )
                        .with_hint("give each field its own id, or none"),
                    );
                }
                ids.push((id, f.name()));
            }
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
        match column(f) {
            Ok(c) => out.push(c),
            Err(e) => errors.push(e),
        }
    }
    Error::check_all(errors)?;
    Ok(out)
}

/// A table definition of `database.table` with the columns of `schema` ([`columns`]);
/// set its location, partitions and properties, then `build()` it.
///
/// ```
/// use std::sync::Arc;
/// use arrow_schema::{DataType, Field, Schema, TimeUnit};
/// let schema = Schema::new(vec![
///     Field::new("event_id", DataType::Utf8, false),
///     Field::new("at", DataType::Timestamp(TimeUnit::Microsecond, None), false),
///     Field::new("tags", DataType::new_list(DataType::LargeUtf8, true), true),
/// ]);
/// let table = iceberg_sql::arrow::table_builder("analytics", "events", &schema)?
///     .location("s3://my-datalake/iceberg/events/")
///     .build()?;
/// assert_eq!(table.column("tags").unwrap().ty.iceberg_name(), "list<string>");
/// // And back: large variants become their 32-bit-offset forms.
/// let back = iceberg_sql::arrow::table_schema(&table);
/// assert!(matches!(back.field(2).data_type(),
///                  DataType::List(e) if e.data_type() == &DataType::Utf8));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn table_builder(
    database: impl Into<String>,
    table: impl Into<String>,
    schema: &Schema,
) -> Result<TableDefBuilder> {
    Ok(crate::model::TableDef::builder(database, table).columns(columns(schema)?))
}

/// The rows of `batch` as values in `table`'s column order, its columns matched by
/// name: a table column the batch lacks is NULL in every row (an error when the column
/// is required), and a batch column the table lacks is an error that says to evolve the
/// table first ([`crate::evolve::evolve_from_schema`]). Values are checked against the
/// column types when a statement renders them.
pub fn table_rows(
    batch: &arrow_array::RecordBatch,
    table: &crate::model::TableDef,
) -> Result<Vec<Vec<crate::value::Value>>> {
    let schema = batch.schema();
    let mut errors = Vec::new();
    for f in schema.fields() {
        if table.column(f.name()).is_none() {
            errors.push(
                Error::new(
                    ErrorKind::UnknownColumn,
                    format!(
                        "the batch has a field `{}` that `{}` lacks",
                        f.name(),
                        table.name()
                    ),
                )
                .with_hint("evolve the table to the batch's schema first (evolve_from_schema)"),
            );
        }
    }
    let mut sources = Vec::with_capacity(table.columns().len());
    for c in table.columns() {
        match schema.index_of(&c.name) {
            Ok(i) => sources.push(Some(i)),
            Err(_) if c.nullable => sources.push(None),
            Err(_) => errors.push(
                Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "column `{}` of `{}` is required and the batch has no field of its name",
                        c.name,
                        table.name()
                    ),
                )
                .with_hint(format!("add the field `{}` to the batch", c.name)),
            ),
        }
    }
    Error::check_all(errors)?;
    let values = super::batch_to_values(batch)?;
    Ok(values
        .into_iter()
        .map(|row| {
            sources
                .iter()
                .map(|s| match s {
                    Some(i) => row[*i].clone(),
                    None => crate::value::Value::Null,
                })
                .collect()
        })
        .collect())
}

/// `batch` in `table`'s own Arrow schema ([`super::table_schema`]), the form a staged
/// load writes: as it is when it has that schema, else its rows read as [`table_rows`]
/// reads them (by name; `LargeUtf8`, `LargeBinary`, `LargeList` and a column order of
/// the batch's own are taken) and built again.
pub fn table_batch(
    batch: arrow_array::RecordBatch,
    table: &crate::model::TableDef,
) -> Result<arrow_array::RecordBatch> {
    if super::check_batch(&batch, table.columns()).is_ok() {
        return Ok(batch);
    }
    super::values_to_batch(table.columns(), table_rows(&batch, table)?)
}
