//! Rust records as table rows: the traits the derive implements.
//!
//! * [`SqlType`]: a Rust type that maps to an Iceberg type and converts to and from
//!   [`Value`].
//! * [`IcebergTable`]: a record struct that *is* a table: its static [`TableDef`], its
//!   values in column order (for INSERT and MERGE), and decoding from a result [`Row`].

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use crate::error::{Error, ErrorKind, Result};
use crate::model::TableDef;
use crate::types::IcebergType;
use crate::value::{Decimal, Value};

/// A Rust type that can be stored in an Iceberg column.
pub trait SqlType: Sized {
    /// The Iceberg type of a column of this Rust type.
    fn iceberg_type() -> IcebergType;

    /// Whether the column may be NULL (`Option<T>`).
    const NULLABLE: bool = false;

    /// The value to write.
    fn to_value(&self) -> Value;

    /// Converts a decoded value back. `Value::Null` is an error unless the type is
    /// nullable: a NULL is never read back as an empty string or zero.
    fn from_value(value: Value) -> Result<Self>;
}

fn decode_mismatch(expected: &str, got: &Value) -> Error {
    Error::new(
        ErrorKind::Decode,
        format!("expected a {expected} value, found {}", got.kind_name()),
    )
}

macro_rules! primitive_sql_type {
    ($($t:ty => $variant:ident, $iceberg:expr, $name:literal);* $(;)?) => {$(
        impl SqlType for $t {
            fn iceberg_type() -> IcebergType { $iceberg }
            fn to_value(&self) -> Value { Value::$variant(self.clone()) }
            fn from_value(value: Value) -> Result<Self> {
                match value {
                    Value::$variant(v) => Ok(v),
                    other => Err(decode_mismatch($name, &other)),
                }
            }
        }
    )*};
}

primitive_sql_type! {
    bool => Boolean, IcebergType::Boolean, "boolean";
    i32 => Int, IcebergType::Int, "int";
    i64 => Long, IcebergType::Long, "long";
    f32 => Float, IcebergType::Float, "float";
    f64 => Double, IcebergType::Double, "double";
    String => String, IcebergType::String, "string";
    NaiveDate => Date, IcebergType::Date, "date";
    NaiveDateTime => Timestamp, IcebergType::Timestamp, "timestamp";
    DateTime<Utc> => TimestampTz, IcebergType::TimestampTz, "timestamptz";
}

impl SqlType for Decimal {
    /// A bare `Decimal` has no declared precision; the derive requires an explicit
    /// `#[iceberg(type = "decimal(p, s)")]`. This default is the widest Athena allows.
    fn iceberg_type() -> IcebergType {
        IcebergType::decimal(38, 9)
    }
    fn to_value(&self) -> Value {
        Value::Decimal(*self)
    }
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Decimal(d) => Ok(d),
            other => Err(decode_mismatch("decimal", &other)),
        }
    }
}

impl<T: SqlType> SqlType for Option<T> {
    fn iceberg_type() -> IcebergType {
        T::iceberg_type()
    }
    const NULLABLE: bool = true;
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_value)
    }
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// One result row: column names and cells as the engine returned them (Athena returns
/// every cell as text; NULL is `None`, never `""`).
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    columns: &'a [String],
    cells: &'a [Option<String>],
}

impl<'a> Row<'a> {
    /// A row of `cells` under `columns` (same length).
    pub fn new(columns: &'a [String], cells: &'a [Option<String>]) -> Self {
        Row { columns, cells }
    }

    /// Column names.
    pub fn columns(&self) -> &'a [String] {
        self.columns
    }

    /// Cells, in column order.
    pub fn cells(&self) -> &'a [Option<String>] {
        self.cells
    }

    /// The cell of column `name`: `None` when there is no such column, `Some(None)` for
    /// NULL.
    pub fn get(&self, name: &str) -> Option<Option<&'a str>> {
        let i = self
            .columns
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))?;
        self.cells.get(i).map(|c| c.as_deref())
    }
}

/// A record struct that is an Iceberg table. Implemented by `#[derive(IcebergTable)]`.
pub trait IcebergTable: Sized {
    /// The table's definition (built once).
    fn table_def() -> &'static TableDef;

    /// This record's values, in column order.
    fn to_values(&self) -> Vec<Value>;

    /// Decodes a result row; errors name the column.
    fn from_row(row: &Row<'_>) -> Result<Self>;
}
