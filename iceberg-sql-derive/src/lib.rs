//! `#[derive(IcebergTable)]` for [`iceberg-sql`](https://docs.rs/iceberg-sql): a record
//! struct becomes an Iceberg table with typed columns.
//!
//! Use it through `iceberg_sql` (the `derive` feature, on by default):
//!
//! ```ignore
//! use iceberg_sql::prelude::*;
//!
//! #[derive(IcebergTable)]
//! #[iceberg(database = "analytics", location = "s3://my-datalake/iceberg/mcp_events/",
//!           partition(day(event_ts), bucket(16, user_id)),
//!           properties(format = "parquet", write_compression = "snappy"))]
//! pub struct McpEvent {
//!     pub event_id: String,
//!     pub user_id: String,
//!     pub event_ts: chrono::NaiveDateTime,
//!     pub payload: Option<String>,
//!     #[iceberg(type = "decimal(10, 2)")]
//!     pub cost: iceberg_sql::Decimal,
//!     pub latency_ms: i64,
//! }
//! ```
//!
//! # What it generates
//!
//! * `impl IcebergTable`: `table_def()` returns a `&'static TableDef`, built once with
//!   `TableDef::builder` (no SQL is rendered by the macro); `to_values()` gives the
//!   record's values in column order. Only for structs with `database = "..."`.
//! * `impl FromRow` (for tables): decodes a result row by column name, each cell read
//!   as the column's declared type, with every column's error reported at once.
//! * `impl SqlType` as an Iceberg `struct`, so the struct can be a field of another
//!   derived struct (at any depth). A struct without `database` is only a struct type.
//! * One typed column handle per column: `McpEvent::LATENCY_MS: Col<McpEvent, i64>`
//!   (the field name in SCREAMING_SNAKE_CASE).
//!
//! # Container attributes: `#[iceberg(...)]` on the struct
//!
//! | key | meaning |
//! |---|---|
//! | `database = "analytics"` | the database; makes the struct a table |
//! | `name = "mcp_events"` | table name; default: snake_case of the struct name |
//! | `location = "s3://bucket/folder/"` | S3 folder (not a bucket root) |
//! | `partition(day(ts), bucket(16, id), truncate(4, name), year(d), month(d), hour(ts), region)` | partition spec; a bare name is identity. The number comes first, as in Athena DDL |
//! | `properties(format = "parquet", write_compression = "snappy", optimize_rewrite_delete_file_threshold = 10, ...)` | Athena's Iceberg table properties, checked like `TableProperty::parse` |
//! | `comment = "..."` | table comment |
//! | `rename_all = "snake_case"` or `"lowercase"` | column names from field names |
//! | `crate = "path::to::iceberg_sql"` | where `iceberg_sql` is when it is re-exported or renamed |
//!
//! # Field attributes
//!
//! | key | meaning |
//! |---|---|
//! | `rename = "col"` | column name |
//! | `comment = "..."` | column comment |
//! | `type = "decimal(10, 2)"` | declared Iceberg type; required for `Decimal` (also inside `Vec`/maps: `type = "array<decimal(10, 2)>"`) |
//! | `skip` | not a column; `Default::default()` when reading rows |
//! | `renamed_from = "old"` | the column's earlier name, for schema evolution (`Column::renamed_from`) |
//!
//! # Types
//!
//! `bool`, `i32`, `i64`, `f32`, `f64`, `String`, `Vec<u8>` (binary), `chrono::NaiveDate`,
//! `NaiveDateTime` and `DateTime<Utc>` (timestamp), `iceberg_sql::Decimal` (with
//! `type = "decimal(p, s)"`), `Option<T>` (nullable; every other column is NOT NULL),
//! `Vec<T>` (list), `HashMap`/`BTreeMap<K, V>` (map), and derived structs (struct).
//! `i8`, `i16`, `u8`, `u16`, `u32`, `u64`, `u128`, `usize`, `char`, `&str`, time and
//! uuid types are compile errors that name the field and the fix.
//!
//! # Compile-time checks
//!
//! Partition on an unknown field; duplicate or redundant partition fields; partition
//! fields Iceberg would name alike (`bucket(16, id)` and `bucket(8, id)`: both `id_bucket`)
//! or like a column (`day(ts)` beside a field `ts_day`); a transform on a field of the wrong type; names
//! Athena would fold or reject (upper case, characters outside `[a-z0-9_]`, more than
//! 255 bytes), with a suggested `rename`; two fields that map to the same column;
//! unknown attribute keys; bad property values and compression/format mismatches;
//! locations and comments Athena DDL cannot hold; unsupported types; `Decimal` without
//! precision. All errors are reported at once, each on the offending token.

mod attr;
mod check;
mod expand;
mod from_row;
mod ty;

#[cfg(test)]
mod tests;

use proc_macro::TokenStream;

/// Derives `iceberg_sql::IcebergTable`, `iceberg_sql::SqlType` and typed column
/// handles for a struct. See the [crate docs](crate) for the attributes.
#[proc_macro_derive(IcebergTable, attributes(iceberg))]
pub fn derive_iceberg_table(input: TokenStream) -> TokenStream {
    expand_inner(input.into()).into()
}

/// The derive on `proc_macro2` tokens (used by the expansion snapshot test).
fn expand_inner(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    match syn::parse2::<syn::DeriveInput>(input) {
        Ok(input) => expand::derive(input).unwrap_or_else(syn::Error::into_compile_error),
        Err(e) => e.into_compile_error(),
    }
}

/// Derives `iceberg_sql::FromRow` for a projection struct: the result of any SELECT
/// (aggregates, joins, a few columns), decoded without declaring a table.
///
/// * Named fields read the column of the same name (`#[iceberg(rename = "n")]`,
///   container `#[iceberg(rename_all = "snake_case")]`), each cell as the field's Rust
///   type (any `SqlType`: `Option<T>` for NULLs, `Vec<T>`, maps, derived structs read
///   from `CAST(col AS JSON)`); every column's error is reported at once.
///   `#[iceberg(skip)]` fields get `Default::default()`.
/// * Tuple structs read by position; the result must have exactly as many columns.
/// * `FromRow::expected_columns()` lists the columns (by name) and the types they are
///   read as, so a caller can check a SELECT's columns before running it.
///
/// A struct with `#[derive(IcebergTable)]` and a database already implements
/// `FromRow`; do not derive both.
///
/// ```ignore
/// #[derive(FromRow)]
/// struct ToolCount {
///     tool_name: String,
///     #[iceberg(rename = "n")]
///     calls: i64,
///     last_error: Option<String>,
/// }
/// ```
#[proc_macro_derive(FromRow, attributes(iceberg))]
pub fn derive_from_row(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => from_row::derive(input)
            .unwrap_or_else(syn::Error::into_compile_error)
            .into(),
        Err(e) => e.into_compile_error().into(),
    }
}
