//! Apache Arrow record batches from result rows and from records (feature `arrow`).
//!
//! # Iceberg types in Arrow
//!
//! The mapping is exact (no value is rounded or reinterpreted) and follows the Iceberg
//! spec's Parquet/Arrow conventions (<https://iceberg.apache.org/spec/#parquet>), so the
//! same schema can be written to Parquet:
//!
//! | Iceberg | Arrow |
//! |---|---|
//! | boolean | `Boolean` |
//! | int | `Int32` |
//! | long | `Int64` |
//! | float | `Float32` |
//! | double | `Float64` |
//! | decimal(p, s) | `Decimal128(p, s)` (p ≤ 38 always fits 128 bits) |
//! | date | `Date32` (days since 1970-01-01) |
//! | timestamp | `Timestamp(Microsecond, None)` |
//! | timestamptz | `Timestamp(Microsecond, Some("UTC"))` |
//! | string | `Utf8` |
//! | binary | `Binary` |
//! | list\<T> | `List` of a field `element` (nullable) |
//! | map\<K, V> | `Map` of a non-null `key_value` struct: `key` (non-null), `value` (nullable); unsorted |
//! | struct\<a: T, ...> | `Struct` (every field nullable) |
//!
//! A column's nullability is the column's (`Column::nullable`; a result column's
//! `ColumnInfo.Nullable`, nullable when unknown). Nested fields are nullable: the table
//! model does not mark nested fields required.
//!
//! `Binary` (32-bit offsets) rather than `LargeBinary`: one batch holds one page of
//! results (at most 1,000 rows from `GetQueryResults`) or one write batch, far below
//! the 2 GiB a 32-bit offset allows, and `Binary` is what Parquet readers produce by
//! default. `Utf8` likewise.
//!
//! Timestamps carry microseconds (Iceberg's precision); a value with finer digits is an
//! error rather than a truncation.
//!
//! # Arrow schemas as tables
//!
//! [`columns`] and [`table_builder`] read the table above backwards, for records whose
//! schema is known only at run time; [`crate::evolve::evolve_from_schema`] plans the
//! changes an incoming schema asks of a live table. Besides the types of the table,
//! `LargeUtf8`, `LargeBinary` and `LargeList` read as `string`, `binary` and `list`,
//! and any time zone marks a `timestamptz`. A field's nullability is the column's;
//! nested fields read as nullable. A field id in `PARQUET:field_id` metadata must be an
//! integer, one per field. Refused, each with the field's path and the cast that fits:
//!
//! | Arrow | why | cast to |
//! |---|---|---|
//! | `Int8`, `Int16`, `UInt8`, `UInt16` | no Iceberg type of their own | `Int32` |
//! | `UInt32` | Iceberg integers are signed | `Int64` |
//! | `UInt64` | wider than `long` | `Int64` or `Decimal128(20, 0)` |
//! | `Float16` | no Iceberg type | `Float32` |
//! | `Date64` | milliseconds, not days | `Date32` |
//! | `Timestamp(Nanosecond, _)` | Iceberg v3 `timestamp_ns`; Athena tables are format v2 | `Timestamp(Microsecond, _)` |
//! | `Timestamp(Second / Millisecond, _)` | not Iceberg's precision | `Timestamp(Microsecond, _)` |
//! | `Time64(Microsecond)` | Iceberg `time`: Athena DDL cannot declare it | `Int64` or `Utf8` |
//! | `FixedSizeBinary(16)` tagged `arrow.uuid` | Iceberg `uuid`: Athena DDL cannot declare it | `Utf8` or `Binary` |
//! | `FixedSizeBinary(n)` | Iceberg `fixed(n)`: Athena DDL cannot declare it | `Binary` |
//! | `Dictionary(_, V)` | an encoding | `V` |
//! | `Utf8View`, `BinaryView`, `Union`, `Duration`, `Interval`, ... | no Iceberg type | a type of the table |

use std::sync::Arc;

mod from_schema;
pub use from_schema::{
    column, columns, field_id, iceberg_type, table_batch, table_builder, table_rows,
    EXTENSION_NAME_KEY, FIELD_ID_KEY, UUID_EXTENSION,
};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Decimal128Type, Float32Type, Float64Type, Int32Type, Int64Type,
    TimestampMicrosecondType,
};
use arrow_array::{
    Array, ArrayRef, BinaryArray, BooleanArray, Date32Array, Decimal128Array, Float32Array,
    Float64Array, Int32Array, Int64Array, ListArray, MapArray, RecordBatch, StringArray,
    StructArray, TimestampMicrosecondArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use chrono::{DateTime, NaiveDate};

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Column, TableDef};
use crate::record::{Columns, IcebergTable, Row};
use crate::types::IcebergType;
use crate::value::{Decimal, Value};

/// Name of a list's element field (Iceberg/Parquet convention).
pub const LIST_ELEMENT: &str = "element";
/// Name of a map's entries field.
pub const MAP_ENTRIES: &str = "key_value";
/// Name of a map entry's key field.
pub const MAP_KEY: &str = "key";
/// Name of a map entry's value field.
pub const MAP_VALUE: &str = "value";

fn arrow_error(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::InvalidValue, format!("{what}: {e}"))
}

/// The Arrow type of an Iceberg type (the table in the module docs).
///
/// ```
/// use arrow_schema::{DataType, TimeUnit};
/// use iceberg_sql::IcebergType as T;
/// assert_eq!(iceberg_sql::arrow::data_type(&T::TimestampTz),
///            DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())));
/// assert_eq!(iceberg_sql::arrow::data_type(&T::decimal(38, 9)), DataType::Decimal128(38, 9));
/// ```
pub fn data_type(ty: &IcebergType) -> DataType {
    use IcebergType as T;
    match ty {
        T::Boolean => DataType::Boolean,
        T::Int => DataType::Int32,
        T::Long => DataType::Int64,
        T::Float => DataType::Float32,
        T::Double => DataType::Float64,
        T::Decimal { precision, scale } => DataType::Decimal128(*precision, *scale as i8),
        T::Date => DataType::Date32,
        T::Timestamp => DataType::Timestamp(TimeUnit::Microsecond, None),
        T::TimestampTz => DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
        T::String => DataType::Utf8,
        T::Binary => DataType::Binary,
        T::List(elem) => DataType::List(Arc::new(Field::new(LIST_ELEMENT, data_type(elem), true))),
        T::Map(k, v) => DataType::Map(Arc::new(map_entries_field(k, v)), false),
        T::Struct(fields) => DataType::Struct(struct_fields(fields)),
    }
}

fn map_entries_field(k: &IcebergType, v: &IcebergType) -> Field {
    Field::new(
        MAP_ENTRIES,
        DataType::Struct(Fields::from(vec![
            Field::new(MAP_KEY, data_type(k), false),
            Field::new(MAP_VALUE, data_type(v), true),
        ])),
        false,
    )
}

fn struct_fields(fields: &[crate::types::StructField]) -> Fields {
    fields
        .iter()
        .map(|f| Field::new(&f.name, data_type(&f.ty), true))
        .collect()
}

/// The Arrow field of a column (its name, type and nullability).
pub fn field(column: &Column) -> Field {
    Field::new(&column.name, data_type(&column.ty), column.nullable)
}

/// The Arrow schema of `columns`, in order.
pub fn schema(columns: &[Column]) -> Schema {
    Schema::new(columns.iter().map(field).collect::<Vec<_>>())
}

/// The Arrow schema of a table: exactly its columns.
pub fn table_schema(table: &TableDef) -> Schema {
    schema(table.columns())
}

/// A batch of `rows` of values (each in `columns` order) under `columns`' exact schema.
///
/// ```
/// use iceberg_sql::{Column, IcebergType as T, Value};
/// let columns = [Column::new("id", T::Long).required(), Column::new("tags", T::list(T::String))];
/// let batch = iceberg_sql::arrow::values_to_batch(&columns, vec![
///     vec![Value::Long(1), Value::List(vec!["a".into(), Value::Null])],
///     vec![Value::Long(2), Value::Null],
/// ])?;
/// assert_eq!(batch.num_rows(), 2);
/// assert_eq!(iceberg_sql::arrow::batch_to_values(&batch)?[0][1],
///            Value::List(vec!["a".into(), Value::Null]));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn values_to_batch(
    columns: &[Column],
    rows: impl IntoIterator<Item = Vec<Value>>,
) -> Result<RecordBatch> {
    let mut by_column: Vec<Vec<Value>> = vec![Vec::new(); columns.len()];
    for (n, row) in rows.into_iter().enumerate() {
        if row.len() != columns.len() {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "row {n} has {} values; the schema has {} columns",
                    row.len(),
                    columns.len()
                ),
            ));
        }
        for (col, v) in by_column.iter_mut().zip(row) {
            col.push(v);
        }
    }
    batch(columns, by_column)
}

fn batch(columns: &[Column], by_column: Vec<Vec<Value>>) -> Result<RecordBatch> {
    let arrays = columns
        .iter()
        .zip(by_column)
        .map(|(c, values)| {
            array(&c.ty, values)
                .map_err(|e| Error::new(e.kind(), format!("column `{}`: {}", c.name, e.message())))
        })
        .collect::<Result<Vec<_>>>()?;
    RecordBatch::try_new(Arc::new(schema(columns)), arrays)
        .map_err(|e| arrow_error("the values do not fit the schema", e))
}

/// A batch of table records with the table's exact schema (what a Parquet writer for
/// the table needs).
pub fn records_to_batch<T: IcebergTable>(records: &[T]) -> Result<RecordBatch> {
    values_to_batch(
        T::table_def().columns(),
        records.iter().map(IcebergTable::to_values),
    )
}

/// A batch of result rows, each column typed by its Athena type name
/// ([`Columns::iceberg_type`](crate::record::Columns::iceberg_type)); a column of
/// another type (`json`, `time`, unknown) is `Utf8` holding the cell text. All rows
/// must share one column list (one result); an empty slice gives an empty batch with
/// no columns ([`result_batch`] keeps the schema of a result without rows).
pub fn rows_to_batch(rows: &[Row]) -> Result<RecordBatch> {
    match rows.first() {
        Some(first) => result_batch(first.columns(), rows),
        None => Ok(RecordBatch::new_empty(SchemaRef::new(Schema::empty()))),
    }
}

/// A batch of rows of the result whose columns are `columns` (as
/// [`rows_to_batch`], typed by each column's Athena type), with that schema even when
/// `rows` is empty: one page of a result, the first page of an empty one included.
///
/// ```
/// use std::sync::Arc;
/// use iceberg_sql::record::{ColumnMeta, Columns, Row};
///
/// let columns = Arc::new(Columns::new(vec![
///     ColumnMeta::new("n", "bigint"),
///     ColumnMeta::new("at", "timestamp(6)"),
/// ]));
/// let empty = iceberg_sql::arrow::result_batch(&columns, &[])?;
/// assert_eq!((empty.num_rows(), empty.num_columns()), (0, 2));
/// let rows = vec![Row::new(columns.clone(), vec![Some("7".into()), None])];
/// let batch = iceberg_sql::arrow::result_batch(&columns, &rows)?;
/// assert_eq!(batch.schema(), empty.schema());
/// assert_eq!(batch.num_rows(), 1);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn result_batch(columns: &Columns, rows: &[Row]) -> Result<RecordBatch> {
    let schema_columns: Vec<Column> = columns
        .as_slice()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let ty = columns
                .iceberg_type(i)
                .cloned()
                .unwrap_or(IcebergType::String);
            Column::new(&m.name, ty).nullable(m.nullable != Some(false))
        })
        .collect();
    let mut by_column: Vec<Vec<Value>> = vec![Vec::with_capacity(rows.len()); schema_columns.len()];
    for row in rows {
        if !std::ptr::eq(row.columns(), columns) && row.columns() != columns {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                "rows from different results cannot share one batch",
            ));
        }
        for (i, col) in by_column.iter_mut().enumerate() {
            col.push(row.value_at(i)?);
        }
    }
    batch(&schema_columns, by_column)
}

/// A batch of result rows read as `columns` (by name, each cell parsed as the column's
/// declared type): e.g. a table's columns, for a `SELECT` of the table.
pub fn rows_to_batch_as(rows: &[Row], columns: &[Column]) -> Result<RecordBatch> {
    let mut by_column: Vec<Vec<Value>> = vec![Vec::with_capacity(rows.len()); columns.len()];
    for row in rows {
        for (c, col) in columns.iter().zip(by_column.iter_mut()) {
            col.push(crate::record::decode_column::<ValueOf>(row, c)?.0);
        }
    }
    batch(columns, by_column)
}

/// A decoded value of whatever type the column declares (NULL included).
struct ValueOf(Value);

impl crate::record::SqlType for ValueOf {
    fn iceberg_type() -> IcebergType {
        IcebergType::String
    }
    const NULLABLE: bool = true;
    fn to_value(&self) -> Value {
        self.0.clone()
    }
    fn from_value(value: Value) -> Result<Self> {
        Ok(ValueOf(value))
    }
}

fn mismatch(ty: &IcebergType, v: &Value) -> Error {
    Error::new(
        ErrorKind::InvalidValue,
        format!(
            "a {} value does not fit type {}",
            v.kind_name(),
            ty.iceberg_name()
        ),
    )
}

fn epoch() -> NaiveDate {
    DateTime::UNIX_EPOCH.date_naive()
}

/// Microseconds since the epoch; digits below a microsecond are refused as the SQL
/// literal writers refuse them.
fn micros(ts: &chrono::NaiveDateTime) -> Result<i64> {
    crate::engine::literals::check_microseconds(ts, "timestamp")?;
    Ok(ts.and_utc().timestamp_micros())
}

macro_rules! primitive_array {
    ($values:expr, $ty:expr, $array:ty, $($pat:pat => $out:expr),+) => {{
        let out = $values
            .into_iter()
            .map(|v| match v {
                Value::Null => Ok(None),
                $($pat => Ok(Some($out)),)+
                other => Err(mismatch($ty, &other)),
            })
            .collect::<Result<Vec<_>>>()?;
        Arc::new(<$array>::from(out)) as ArrayRef
    }};
}

fn nulls_of(values: &[Value]) -> Option<NullBuffer> {
    values.iter().any(|v| matches!(v, Value::Null)).then(|| {
        NullBuffer::from(
            values
                .iter()
                .map(|v| !matches!(v, Value::Null))
                .collect::<Vec<_>>(),
        )
    })
}

/// One Arrow array of type [`data_type(ty)`](data_type) from values of `ty`.
fn array(ty: &IcebergType, values: Vec<Value>) -> Result<ArrayRef> {
    use IcebergType as T;
    Ok(match ty {
        T::Boolean => primitive_array!(values, ty, BooleanArray, Value::Boolean(b) => b),
        T::Int => primitive_array!(values, ty, Int32Array, Value::Int(i) => i),
        T::Long => {
            primitive_array!(values, ty, Int64Array, Value::Long(i) => i, Value::Int(i) => i64::from(i))
        }
        T::Float => primitive_array!(values, ty, Float32Array, Value::Float(f) => f),
        T::Double => {
            primitive_array!(values, ty, Float64Array, Value::Double(f) => f, Value::Float(f) => f64::from(f))
        }
        T::Date => primitive_array!(values, ty, Date32Array,
            Value::Date(d) => i32::try_from((d - epoch()).num_days()).unwrap_or(i32::MAX)),
        T::String => primitive_array!(values, ty, StringArray, Value::String(s) => s),
        T::Timestamp | T::TimestampTz => {
            let out = values
                .into_iter()
                .map(|v| match (&v, ty) {
                    (Value::Null, _) => Ok(None),
                    (Value::Timestamp(ts), T::Timestamp) => micros(ts).map(Some),
                    (Value::TimestampTz(ts), T::TimestampTz) => micros(&ts.naive_utc()).map(Some),
                    _ => Err(mismatch(ty, &v)),
                })
                .collect::<Result<Vec<_>>>()?;
            let a = TimestampMicrosecondArray::from(out);
            if matches!(ty, T::TimestampTz) {
                Arc::new(a.with_timezone("UTC"))
            } else {
                Arc::new(a)
            }
        }
        T::Decimal { precision, scale } => {
            let out = values
                .into_iter()
                .map(|v| match v {
                    Value::Null => Ok(None),
                    Value::Decimal(d) => d
                        .rescale(*scale)
                        .filter(|d| d.precision() <= u32::from(*precision))
                        .map(|d| Some(d.unscaled()))
                        .ok_or_else(|| {
                            Error::new(
                                ErrorKind::InvalidValue,
                                format!("decimal {d} does not fit decimal({precision},{scale}) without losing digits"),
                            )
                        }),
                    other => Err(mismatch(ty, &other)),
                })
                .collect::<Result<Vec<_>>>()?;
            Arc::new(
                Decimal128Array::from(out)
                    .with_precision_and_scale(*precision, *scale as i8)
                    .map_err(|e| arrow_error("decimal", e))?,
            )
        }
        T::Binary => {
            let out = values
                .iter()
                .map(|v| match v {
                    Value::Null => Ok(None),
                    Value::Binary(b) => Ok(Some(b.as_slice())),
                    other => Err(mismatch(ty, other)),
                })
                .collect::<Result<Vec<_>>>()?;
            Arc::new(BinaryArray::from(out))
        }
        T::List(elem) => {
            let nulls = nulls_of(&values);
            let mut lengths = Vec::with_capacity(values.len());
            let mut children = Vec::new();
            for v in values {
                match v {
                    Value::Null => lengths.push(0),
                    Value::List(items) => {
                        lengths.push(items.len());
                        children.extend(items);
                    }
                    other => return Err(mismatch(ty, &other)),
                }
            }
            let child = array(elem, children)?;
            Arc::new(
                ListArray::try_new(
                    Arc::new(Field::new(LIST_ELEMENT, data_type(elem), true)),
                    OffsetBuffer::from_lengths(lengths),
                    child,
                    nulls,
                )
                .map_err(|e| arrow_error("list", e))?,
            )
        }
        T::Map(kt, vt) => {
            let nulls = nulls_of(&values);
            let mut lengths = Vec::with_capacity(values.len());
            let (mut keys, mut vals) = (Vec::new(), Vec::new());
            for v in values {
                match v {
                    Value::Null => lengths.push(0),
                    Value::Map(entries) => {
                        lengths.push(entries.len());
                        for (k, v) in entries {
                            keys.push(k);
                            vals.push(v);
                        }
                    }
                    other => return Err(mismatch(ty, &other)),
                }
            }
            if keys.iter().any(|k| matches!(k, Value::Null)) {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    "a map key cannot be NULL",
                ));
            }
            let entries_field = map_entries_field(kt, vt);
            let DataType::Struct(entry_fields) = entries_field.data_type().clone() else {
                unreachable!("map entries are a struct");
            };
            let entries =
                StructArray::try_new(entry_fields, vec![array(kt, keys)?, array(vt, vals)?], None)
                    .map_err(|e| arrow_error("map entries", e))?;
            Arc::new(
                MapArray::try_new(
                    Arc::new(entries_field),
                    OffsetBuffer::from_lengths(lengths),
                    entries,
                    nulls,
                    false,
                )
                .map_err(|e| arrow_error("map", e))?,
            )
        }
        T::Struct(fields) => {
            let nulls = nulls_of(&values);
            let mut by_field: Vec<Vec<Value>> =
                vec![Vec::with_capacity(values.len()); fields.len()];
            for v in values {
                match v {
                    Value::Null => by_field.iter_mut().for_each(|f| f.push(Value::Null)),
                    Value::Struct(items) if items.len() == fields.len() => {
                        for (f, item) in by_field.iter_mut().zip(items) {
                            f.push(item);
                        }
                    }
                    other => return Err(mismatch(ty, &other)),
                }
            }
            let arrays = fields
                .iter()
                .zip(by_field)
                .map(|(f, vs)| array(&f.ty, vs))
                .collect::<Result<Vec<_>>>()?;
            Arc::new(
                StructArray::try_new(struct_fields(fields), arrays, nulls)
                    .map_err(|e| arrow_error("struct", e))?,
            )
        }
    })
}

// ---------------------------------------------------------------------------------------
// Back to values
// ---------------------------------------------------------------------------------------

/// The rows of a batch as values, by the Iceberg type of each Arrow column (the inverse
/// of [`values_to_batch`] for the types of the module table).
pub fn batch_to_values(batch: &RecordBatch) -> Result<Vec<Vec<Value>>> {
    let columns = batch
        .columns()
        .iter()
        .map(|a| {
            (0..a.len())
                .map(|i| value(a.as_ref(), i))
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((0..batch.num_rows())
        .map(|r| columns.iter().map(|c| c[r].clone()).collect())
        .collect())
}

fn value(a: &dyn Array, i: usize) -> Result<Value> {
    if a.is_null(i) {
        return Ok(Value::Null);
    }
    Ok(match a.data_type() {
        DataType::Boolean => Value::Boolean(a.as_boolean().value(i)),
        DataType::Int32 => Value::Int(a.as_primitive::<Int32Type>().value(i)),
        DataType::Int64 => Value::Long(a.as_primitive::<Int64Type>().value(i)),
        DataType::Float32 => Value::Float(a.as_primitive::<Float32Type>().value(i)),
        DataType::Float64 => Value::Double(a.as_primitive::<Float64Type>().value(i)),
        DataType::Decimal128(_, s) => Value::Decimal(Decimal::new(
            a.as_primitive::<Decimal128Type>().value(i),
            u8::try_from(*s).map_err(|_| arrow_error("decimal", "negative scale"))?,
        )),
        DataType::Date32 => Value::Date(
            epoch() + chrono::Duration::days(i64::from(a.as_primitive::<Date32Type>().value(i))),
        ),
        DataType::Timestamp(TimeUnit::Microsecond, tz) => {
            let us = a.as_primitive::<TimestampMicrosecondType>().value(i);
            let ts = DateTime::from_timestamp_micros(us)
                .ok_or_else(|| arrow_error("timestamp", "out of range"))?;
            if tz.is_some() {
                Value::TimestampTz(ts)
            } else {
                Value::Timestamp(ts.naive_utc())
            }
        }
        DataType::Utf8 => Value::String(a.as_string::<i32>().value(i).to_string()),
        DataType::Binary => Value::Binary(a.as_binary::<i32>().value(i).to_vec()),
        DataType::LargeUtf8 => Value::String(a.as_string::<i64>().value(i).to_string()),
        DataType::LargeBinary => Value::Binary(a.as_binary::<i64>().value(i).to_vec()),
        DataType::List(_) | DataType::LargeList(_) => {
            let items = match a.data_type() {
                DataType::List(_) => a.as_list::<i32>().value(i),
                _ => a.as_list::<i64>().value(i),
            };
            Value::List(
                (0..items.len())
                    .map(|j| value(items.as_ref(), j))
                    .collect::<Result<_>>()?,
            )
        }
        DataType::Map(..) => {
            let entries = a.as_map().value(i);
            let (k, v) = (entries.column(0), entries.column(1));
            Value::Map(
                (0..entries.len())
                    .map(|j| Ok((value(k.as_ref(), j)?, value(v.as_ref(), j)?)))
                    .collect::<Result<_>>()?,
            )
        }
        DataType::Struct(_) => {
            let s = a.as_struct();
            Value::Struct(
                s.columns()
                    .iter()
                    .map(|c| value(c.as_ref(), i))
                    .collect::<Result<_>>()?,
            )
        }
        other => {
            return Err(Error::new(
                ErrorKind::InvalidType,
                format!("Arrow type {other} is not one of the Iceberg mapping"),
            ))
        }
    })
}

// ---------------------------------------------------------------------------------------
// Staged form (for staged loads)
// ---------------------------------------------------------------------------------------

/// Checks that `batch` holds rows of `columns` (a table's columns, in order): the same
/// names, each column of its Arrow type ([`data_type`]; nested field names and a
/// `timestamptz` column's zone name may differ), no NULL in a required column.
pub fn check_batch(batch: &RecordBatch, columns: &[Column]) -> Result<()> {
    let schema = batch.schema();
    if schema.fields().len() != columns.len() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "the batch has {} columns; the table has {}",
                schema.fields().len(),
                columns.len()
            ),
        )
        .with_hint("build batches with iceberg_sql::arrow::table_schema(&table)"));
    }
    for ((f, c), a) in schema.fields().iter().zip(columns).zip(batch.columns()) {
        let want = data_type(&c.ty);
        let same = match (f.data_type(), &want) {
            (
                DataType::Timestamp(TimeUnit::Microsecond, Some(_)),
                DataType::Timestamp(_, Some(_)),
            ) => true,
            (got, want) => got.equals_datatype(want),
        };
        if f.name() != &c.name || !same {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "batch column `{}` of type {} does not fit column `{}` of type {} (Arrow {want})",
                    f.name(),
                    f.data_type(),
                    c.name,
                    c.ty.iceberg_name()
                ),
            )
            .with_hint("build batches with iceberg_sql::arrow::table_schema(&table)"));
        }
        if !c.nullable && a.null_count() > 0 {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "column `{}` is NOT NULL but the batch has {} NULLs in it",
                    c.name,
                    a.null_count()
                ),
            ));
        }
    }
    Ok(())
}

/// `batch` (rows of `columns`, checked with [`check_batch`]) in the form a staged load
/// writes to its Parquet files: each column of its
/// [`staging_type`](crate::load::staging_type) (timestamps as text with six fractional
/// digits, `+00:00` after a `timestamptz`; dates as days since 1970-01-01; nested
/// values element by element; every other array unchanged), and with `first_row`, a
/// last column [`ROW_COLUMN`](crate::load::ROW_COLUMN) numbering the rows from it.
///
/// ```
/// use arrow_array::{Array, StringArray};
/// use iceberg_sql::{Column, IcebergType as T, Value};
/// let ts = chrono::NaiveDate::from_ymd_opt(1, 1, 1).unwrap().and_hms_micro_opt(0, 0, 0, 7).unwrap();
/// let columns = [Column::new("ts", T::Timestamp)];
/// let batch = iceberg_sql::arrow::values_to_batch(&columns, vec![vec![Value::Timestamp(ts)], vec![Value::Null]])?;
/// let staged = iceberg_sql::arrow::staged_batch(&batch, &columns, Some(10))?;
/// let text = staged.column(0).as_any().downcast_ref::<StringArray>().unwrap();
/// assert_eq!(text.value(0), "0001-01-01 00:00:00.000007");
/// assert!(text.is_null(1));
/// assert_eq!(staged.schema().field(1).name(), "iceberg_sql_stage_row");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn staged_batch(
    batch: &RecordBatch,
    columns: &[Column],
    first_row: Option<i64>,
) -> Result<RecordBatch> {
    check_batch(batch, columns)?;
    let mut fields: Vec<Field> = Vec::with_capacity(columns.len() + 1);
    let mut arrays: Vec<ArrayRef> = Vec::with_capacity(columns.len() + 1);
    for (c, a) in columns.iter().zip(batch.columns()) {
        let staged = crate::load::staging_type(&c.ty);
        fields.push(Field::new(&c.name, data_type(&staged), true));
        arrays.push(staged_array(a, &c.ty)?);
    }
    if let Some(first) = first_row {
        let n = batch.num_rows() as i64;
        fields.push(Field::new(crate::load::ROW_COLUMN, DataType::Int64, true));
        arrays.push(Arc::new(Int64Array::from_iter_values(first..first + n)));
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)
        .map_err(|e| arrow_error("staged batch", e))
}

/// One array of `ty` (in [`data_type`]'s form) in its staged form.
fn staged_array(a: &ArrayRef, ty: &IcebergType) -> Result<ArrayRef> {
    use IcebergType as T;
    if !crate::engine::staging::needs_conversion(ty) {
        return Ok(a.clone());
    }
    Ok(match ty {
        T::Timestamp | T::TimestampTz => {
            let ts = a.as_primitive::<TimestampMicrosecondType>();
            let suffix = if matches!(ty, T::TimestampTz) {
                "+00:00"
            } else {
                ""
            };
            let mut out = arrow_array::builder::StringBuilder::with_capacity(
                ts.len(),
                ts.len() * (26 + suffix.len()),
            );
            let mut text = String::with_capacity(40);
            for v in ts.iter() {
                match v {
                    None => out.append_null(),
                    Some(us) => {
                        text.clear();
                        timestamp_text(&mut text, us)?;
                        text.push_str(suffix);
                        out.append_value(&text);
                    }
                }
            }
            Arc::new(out.finish())
        }
        T::Date => {
            let d = a.as_primitive::<Date32Type>();
            Arc::new(Int32Array::new(d.values().clone(), d.nulls().cloned()))
        }
        T::List(elem) => {
            let l = a.as_list::<i32>();
            let child = staged_array(l.values(), elem)?;
            Arc::new(
                ListArray::try_new(
                    Arc::new(Field::new(
                        LIST_ELEMENT,
                        data_type(&crate::load::staging_type(elem)),
                        true,
                    )),
                    l.offsets().clone(),
                    child,
                    l.nulls().cloned(),
                )
                .map_err(|e| arrow_error("list", e))?,
            )
        }
        T::Map(kt, vt) => {
            let m = a.as_map();
            let keys = staged_array(m.keys(), kt)?;
            let vals = staged_array(m.values(), vt)?;
            let entries_field = map_entries_field(
                &crate::load::staging_type(kt),
                &crate::load::staging_type(vt),
            );
            let DataType::Struct(entry_fields) = entries_field.data_type().clone() else {
                unreachable!("map entries are a struct");
            };
            let entries = StructArray::try_new(entry_fields, vec![keys, vals], None)
                .map_err(|e| arrow_error("map entries", e))?;
            Arc::new(
                MapArray::try_new(
                    Arc::new(entries_field),
                    m.offsets().clone(),
                    entries,
                    m.nulls().cloned(),
                    false,
                )
                .map_err(|e| arrow_error("map", e))?,
            )
        }
        T::Struct(fields) => {
            let s = a.as_struct();
            let children = fields
                .iter()
                .zip(s.columns())
                .map(|(f, c)| staged_array(c, &f.ty))
                .collect::<Result<Vec<_>>>()?;
            let staged = crate::load::staging_type(ty);
            let T::Struct(staged_fields) = &staged else {
                unreachable!("a struct stages as a struct");
            };
            Arc::new(
                StructArray::try_new(struct_fields(staged_fields), children, s.nulls().cloned())
                    .map_err(|e| arrow_error("struct", e))?,
            )
        }
        _ => a.clone(),
    })
}

/// `YYYY-MM-DD HH:MM:SS.ffffff` (proleptic Gregorian, UTC) of microseconds since the
/// epoch; years outside 0000-9999 get a sign and at least four digits (ISO 8601's
/// expanded form, which Trino and Spark both parse).
fn timestamp_text(out: &mut String, us: i64) -> Result<()> {
    use chrono::{Datelike, Timelike};
    let ts = DateTime::from_timestamp_micros(us)
        .ok_or_else(|| arrow_error("timestamp", format!("{us} µs is out of range")))?
        .naive_utc();
    let year = ts.year();
    if (0..=9999).contains(&year) {
        push_digits(out, year as u32, 4);
    } else {
        out.push_str(&format!("{year:+05}"));
    }
    out.push('-');
    push_digits(out, ts.month(), 2);
    out.push('-');
    push_digits(out, ts.day(), 2);
    out.push(' ');
    push_digits(out, ts.hour(), 2);
    out.push(':');
    push_digits(out, ts.minute(), 2);
    out.push(':');
    push_digits(out, ts.second(), 2);
    out.push('.');
    push_digits(out, ts.nanosecond() / 1000, 6);
    Ok(())
}

fn push_digits(out: &mut String, mut n: u32, width: usize) {
    let mut buf = [b'0'; 10];
    for i in (0..width).rev() {
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    // ASCII digits only.
    out.push_str(std::str::from_utf8(&buf[..width]).unwrap_or_default());
}
