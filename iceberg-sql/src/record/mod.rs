//! Rust records as table rows, and result rows as Rust values.
//!
//! * [`SqlType`]: a Rust type that maps to an Iceberg type, converts to and from
//!   [`Value`], and reads one result cell.
//! * [`IcebergTable`]: a record struct that *is* a table: its static [`TableDef`] and
//!   its values in column order (for INSERT and MERGE).
//! * [`Row`], [`Columns`], [`ColumnMeta`]: one result row, owning its text cells, under
//!   the result's column metadata (shared by all rows).
//! * [`FromRow`]: the one decoding trait. Table records (`#[derive(IcebergTable)]`),
//!   projection structs (`#[derive(FromRow)]`), tuples, [`Row`], the metadata-table rows
//!   and (feature `serde`) any `serde::Deserialize` type decode through it.
//! * [`parse_cell`] / [`format_cell`]: Athena's text form of a value of a given Iceberg
//!   type (the table in [`cell`]'s docs).
//!
//! # Rust types, Iceberg types and cells
//!
//! | Rust | Iceberg | Athena column type | cell text |
//! |---|---|---|---|
//! | `bool` | boolean | `boolean` | `true` |
//! | `i32` | int | `integer` | `-7` |
//! | `i64` | long | `bigint` | `-7` |
//! | `f32` | float | `real` | `1.5`, `NaN`, `-Infinity` |
//! | `f64` | double | `double` | `1.0E10`, `NaN`, `Infinity` |
//! | [`Decimal`], `rust_decimal::Decimal` (feature `decimal`) | decimal(p, s): the derive requires `#[iceberg(type = "decimal(p, s)")]` | `decimal` (precision and scale in the metadata) | `-12.50` |
//! | `chrono::NaiveDate` | date | `date` | `2026-01-01` |
//! | `chrono::NaiveDateTime` | timestamp | `timestamp(6)` | `2026-01-01 12:00:00.123456` |
//! | `chrono::DateTime<Utc>` | timestamp (Athena cannot declare timestamptz; stored as its UTC wall time); reads timestamptz cells too | | |
//! | `chrono::DateTime<FixedOffset>` | timestamptz (keeps the cell's offset) | `timestamp(6) with time zone` | `2026-01-01 12:00:00.000 UTC`, `... +02:00`, `... America/New_York` (feature `tz`) |
//! | `String` | string | `varchar` | the text, byte for byte |
//! | `Vec<u8>` | binary | `varbinary` | `00 ff 1a` |
//! | `Option<T>` | T, nullable (everything else is NOT NULL) | | NULL: no text |
//! | `Vec<T>` | list | `array(T)`, or `json` when cast | `[1,2]` (JSON) or `[1, 2]` |
//! | `HashMap<K, V>`, `BTreeMap<K, V>` | map | `map(K, V)` or `json` | `{"k":1}` or `{k=1}` |
//! | a struct with `#[derive(IcebergTable)]` | struct | `row(a T, ...)` or `json` | `{"a":1}` or `{a=1}` |
//!
//! `Vec<u8>` is binary, not a list: `u8` is deliberately not a [`SqlType`] (Iceberg has
//! no 8-bit integer), so `Vec<u8>` and `Vec<T: SqlType>` never overlap. A list of small
//! numbers is `Vec<i32>`.

pub mod cell;
mod json;
mod row;
mod sql_type;
mod table;
mod type_name;
pub(crate) use type_name::iceberg_type;

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod serde;

pub use cell::{format_cell, parse_cell, parse_cell_as, NestedForm};
pub use row::{decode_column, take_column, ColumnMeta, Columns, FromRow, Row};
pub use sql_type::{SqlKind, SqlType};
pub use table::IcebergTable;

#[cfg(doc)]
use crate::{model::TableDef, value::Decimal, value::Value};

/// Support for the derives' generated code; not a stable API.
#[doc(hidden)]
pub mod __private {
    use super::sql_type::{decode_mismatch, in_path};
    use super::SqlType;
    use crate::error::{Error, ErrorKind, Result};
    use crate::value::Value;

    /// Splits a struct value into its `n` field values (`type_name` for messages).
    pub fn struct_fields(value: Value, n: usize, type_name: &str) -> Result<Vec<Value>> {
        match value {
            Value::Struct(fields) if fields.len() == n => Ok(fields),
            Value::Struct(fields) => Err(Error::new(
                ErrorKind::Decode,
                format!(
                    "a struct value for `{type_name}` has {} fields, expected {n}",
                    fields.len()
                ),
            )),
            other => Err(decode_mismatch(&format!("struct ({type_name})"), &other)),
        }
    }

    /// Keeps a decoded column, or records its error and returns `None`.
    pub fn keep<T>(result: Result<T>, errors: &mut Vec<Error>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                errors.push(e);
                None
            }
        }
    }

    /// All column errors of a row as one error (the first is the headline).
    pub fn combine(errors: Vec<Error>) -> Error {
        Error::combine(errors)
            .unwrap_or_else(|| Error::new(ErrorKind::Decode, "the row could not be decoded"))
    }

    /// Checks that a row has exactly `n` columns (tuple structs read by position).
    pub fn arity(row: &super::Row, n: usize) -> Result<()> {
        super::row::check_arity(row, n)
    }

    /// Decodes one field of a struct value; errors name the field.
    pub fn struct_field<T: SqlType>(value: Value, field: &str) -> Result<T> {
        T::from_value(value).map_err(|e| in_path(e, &format!(".{field}")))
    }
}

#[cfg(test)]
mod tests;
