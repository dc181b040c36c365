//! Rust records as table rows: the traits the derive implements, and the decoding of
//! Athena's text cells.
//!
//! * [`SqlType`]: a Rust type that maps to an Iceberg type and converts to and from
//!   [`Value`].
//! * [`IcebergTable`]: a record struct that *is* a table: its static [`TableDef`], its
//!   values in column order (for INSERT and MERGE), and decoding from a result [`Row`].
//! * [`parse_cell`] / [`format_cell`]: Athena's text form of a value of a given Iceberg
//!   type (`GetQueryResults` returns every cell as text; nested values are read as the
//!   JSON text of `CAST(col AS JSON)`).
//!
//! # Rust types and Iceberg types
//!
//! | Rust | Iceberg |
//! |---|---|
//! | `bool`, `i32`, `i64`, `f32`, `f64`, `String` | boolean, int, long, float, double, string |
//! | `Vec<u8>` | binary |
//! | `chrono::NaiveDate` | date |
//! | `chrono::NaiveDateTime`, `chrono::DateTime<Utc>` | timestamp (Athena cannot declare timestamptz; a `DateTime<Utc>` is stored as its UTC wall time) |
//! | [`Decimal`] | decimal(p, s): the derive requires `#[iceberg(type = "decimal(p, s)")]` |
//! | `Option<T>` | T, nullable (everything else is NOT NULL) |
//! | `Vec<T>` | list |
//! | `HashMap<K, V>`, `BTreeMap<K, V>` | map |
//! | a struct with `#[derive(IcebergTable)]` | struct |
//!
//! `Vec<u8>` is binary, not a list: `u8` is deliberately not a [`SqlType`] (Iceberg has
//! no 8-bit integer), so `Vec<u8>` and `Vec<T: SqlType>` never overlap. A list of small
//! numbers is `Vec<i32>`.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::hash::{BuildHasher, Hash};

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, Utc};

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Column, TableDef};
use crate::types::IcebergType;
use crate::value::{Decimal, Value};

/// A Rust type that can be stored in an Iceberg column.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored in an Iceberg column",
    label = "not an Iceberg column type",
    note = "derive `IcebergTable` on `{Self}` to store it as an Iceberg struct, or implement `iceberg_sql::SqlType` for it"
)]
pub trait SqlType: Sized {
    /// The Iceberg type of a column of this Rust type.
    fn iceberg_type() -> IcebergType;

    /// Whether the column may be NULL (`Option<T>`).
    const NULLABLE: bool = false;

    /// The kind of Iceberg type, known at compile time, so the derive can check
    /// partition transforms on fields whose type it cannot read from the syntax (type
    /// aliases, own types). `Unknown` (the default) defers the check to
    /// `TableDef::builder`.
    const KIND: SqlKind = SqlKind::Unknown;

    /// The value to write.
    fn to_value(&self) -> Value;

    /// Converts a decoded value back. `Value::Null` is an error unless the type is
    /// nullable: a NULL is never read back as an empty string or zero.
    fn from_value(value: Value) -> Result<Self>;
}

/// The kind of a [`SqlType`]'s Iceberg type, as a constant (see [`SqlType::KIND`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SqlKind {
    /// boolean
    Boolean,
    /// int
    Int,
    /// long
    Long,
    /// float
    Float,
    /// double
    Double,
    /// decimal(p, s)
    Decimal,
    /// date
    Date,
    /// timestamp
    Timestamp,
    /// string
    String,
    /// binary
    Binary,
    /// list
    List,
    /// map
    Map,
    /// struct
    Struct,
    /// Not declared; checked at run time.
    Unknown,
}

impl SqlKind {
    /// Whether partition transform `transform` (`"identity"`, `"year"`, `"month"`,
    /// `"day"`, `"hour"`, `"bucket"`, `"truncate"`) accepts a source column of this kind
    /// (the rules of [`crate::PartitionTransform::accepts`]). `Unknown` is accepted.
    pub const fn accepts(self, transform: &str) -> bool {
        use SqlKind as K;
        if matches!(self, K::Unknown) {
            return true;
        }
        match transform.as_bytes() {
            b"identity" => !matches!(self, K::List | K::Map | K::Struct),
            b"year" | b"month" | b"day" => matches!(self, K::Date | K::Timestamp),
            b"hour" => matches!(self, K::Timestamp),
            b"bucket" => matches!(
                self,
                K::Int | K::Long | K::Decimal | K::Date | K::Timestamp | K::String | K::Binary
            ),
            b"truncate" => matches!(self, K::Int | K::Long | K::Decimal | K::String | K::Binary),
            _ => true,
        }
    }
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
            const KIND: SqlKind = SqlKind::$variant;
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
    Vec<u8> => Binary, IcebergType::Binary, "binary";
}

/// Stored as an Iceberg `timestamp` holding the UTC wall time: Athena cannot declare
/// `timestamptz` columns (https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-supported-data-types.html).
/// Reads accept `timestamp` and `timestamptz`.
impl SqlType for DateTime<Utc> {
    fn iceberg_type() -> IcebergType {
        IcebergType::Timestamp
    }
    const KIND: SqlKind = SqlKind::Timestamp;
    fn to_value(&self) -> Value {
        Value::Timestamp(self.naive_utc())
    }
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Timestamp(ts) => Ok(ts.and_utc()),
            Value::TimestampTz(ts) => Ok(ts),
            other => Err(decode_mismatch("timestamp", &other)),
        }
    }
}

impl SqlType for Decimal {
    /// A bare `Decimal` has no declared precision; the derive requires an explicit
    /// `#[iceberg(type = "decimal(p, s)")]`. This default is the widest Athena allows.
    fn iceberg_type() -> IcebergType {
        IcebergType::decimal(38, 9)
    }
    const KIND: SqlKind = SqlKind::Decimal;
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
    const KIND: SqlKind = T::KIND;
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

/// `list<T>`. (`Vec<u8>` is binary, see the module docs.)
impl<T: SqlType> SqlType for Vec<T> {
    fn iceberg_type() -> IcebergType {
        IcebergType::list(T::iceberg_type())
    }
    const KIND: SqlKind = SqlKind::List;
    fn to_value(&self) -> Value {
        Value::List(self.iter().map(T::to_value).collect())
    }
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::List(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, v)| T::from_value(v).map_err(|e| in_path(e, &format!("[{i}]"))))
                .collect(),
            other => Err(decode_mismatch("list", &other)),
        }
    }
}

fn map_entries<K: SqlType, V: SqlType>(value: Value) -> Result<Vec<(K, V)>> {
    match value {
        Value::Map(entries) => entries
            .into_iter()
            .map(|(k, v)| {
                let k = K::from_value(k).map_err(|e| in_path(e, ".key"))?;
                let v = V::from_value(v).map_err(|e| in_path(e, ".value"))?;
                Ok((k, v))
            })
            .collect(),
        other => Err(decode_mismatch("map", &other)),
    }
}

/// `map<K, V>`; entries are written in the map's iteration order.
impl<K: SqlType + Eq + Hash, V: SqlType, S: BuildHasher + Default> SqlType for HashMap<K, V, S> {
    fn iceberg_type() -> IcebergType {
        IcebergType::map(K::iceberg_type(), V::iceberg_type())
    }
    const KIND: SqlKind = SqlKind::Map;
    fn to_value(&self) -> Value {
        Value::Map(
            self.iter()
                .map(|(k, v)| (k.to_value(), v.to_value()))
                .collect(),
        )
    }
    fn from_value(value: Value) -> Result<Self> {
        Ok(map_entries(value)?.into_iter().collect())
    }
}

/// `map<K, V>`; entries are written in key order.
impl<K: SqlType + Ord, V: SqlType> SqlType for BTreeMap<K, V> {
    fn iceberg_type() -> IcebergType {
        IcebergType::map(K::iceberg_type(), V::iceberg_type())
    }
    const KIND: SqlKind = SqlKind::Map;
    fn to_value(&self) -> Value {
        Value::Map(
            self.iter()
                .map(|(k, v)| (k.to_value(), v.to_value()))
                .collect(),
        )
    }
    fn from_value(value: Value) -> Result<Self> {
        Ok(map_entries(value)?.into_iter().collect())
    }
}

/// Prefixes a decode error's message with a nested position (`[2]`, `.key`, `.lat`).
fn in_path(e: Error, step: &str) -> Error {
    let msg = e.message();
    let rest = msg.strip_prefix("at `").and_then(|m| m.split_once("`: "));
    let message = match rest {
        Some((path, tail)) => format!("at `{step}{path}`: {tail}"),
        None => format!("at `{step}`: {msg}"),
    };
    let mut out = Error::new(e.kind(), message);
    if let Some(h) = e.hint() {
        out = out.with_hint(h.to_string());
    }
    out
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

/// A record struct that is an Iceberg table. Implemented by `#[derive(IcebergTable)]`
/// (see the `iceberg-sql-derive` crate for its attributes).
///
/// ```
/// use iceberg_sql::prelude::*;
///
/// #[derive(IcebergTable, Debug, PartialEq)]
/// #[iceberg(database = "analytics", location = "s3://lake/events/",
///           partition(day(ts)), properties(format = "parquet"))]
/// struct Event {
///     id: String,
///     ts: chrono::NaiveDateTime,
///     latency_ms: Option<i64>,
/// }
///
/// let def = Event::table_def();
/// assert_eq!(def.name().to_string(), "analytics.event");
/// let latency: Col<Event, Option<i64>> = Event::LATENCY_MS;
/// assert_eq!(latency.name(), "latency_ms");
///
/// let names: Vec<String> = def.columns().iter().map(|c| c.name.clone()).collect();
/// let cells = vec![Some("e1".to_string()), Some("2026-10-01 12:00:00.123".into()), None];
/// let event = Event::from_row(&Row::new(&names, &cells))?;
/// assert_eq!(event.latency_ms, None);
/// assert_eq!(event.to_values()[2], Value::Null);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub trait IcebergTable: Sized {
    /// The table's definition (built once).
    fn table_def() -> &'static TableDef;

    /// This record's values, in column order.
    fn to_values(&self) -> Vec<Value>;

    /// Decodes a result row; errors name the column.
    fn from_row(row: &Row<'_>) -> Result<Self>;
}

/// Decodes the cell of `column` in `row` as a `T`; every error names the column.
///
/// A missing column is an error; a NULL cell becomes `Value::Null`, which only an
/// `Option` accepts.
pub fn decode_column<T: SqlType>(row: &Row<'_>, column: &Column) -> Result<T> {
    let name = &column.name;
    let cell = row.get(name).ok_or_else(|| {
        Error::new(
            ErrorKind::Decode,
            format!("column `{name}` is not in the result"),
        )
        .with_hint("select every column of the table (or `SELECT *`)")
    })?;
    let value = match cell {
        None => Value::Null,
        Some(text) => parse_cell(text, &column.ty).map_err(|e| at_column(e, name))?,
    };
    T::from_value(value).map_err(|e| at_column(e, name))
}

fn at_column(e: Error, name: &str) -> Error {
    let msg = e.message();
    let message = match msg.strip_prefix("at `").and_then(|m| m.split_once("`: ")) {
        Some((path, tail)) => format!("column `{name}{path}`: {tail}"),
        None => format!("column `{name}`: {msg}"),
    };
    Error::new(ErrorKind::Decode, message)
}

/// Support for the derive's generated code; not a stable API.
#[doc(hidden)]
pub mod __private {
    use super::*;

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

    /// Decodes one field of a struct value; errors name the field.
    pub fn struct_field<T: SqlType>(value: Value, field: &str) -> Result<T> {
        T::from_value(value).map_err(|e| in_path(e, &format!(".{field}")))
    }
}

// ---------------------------------------------------------------------------------------
// Athena's text cells
// ---------------------------------------------------------------------------------------

fn bad_cell(text: &str, ty: &IcebergType) -> Error {
    let shown: String = text.chars().take(64).collect();
    Error::new(
        ErrorKind::Decode,
        format!(
            "`{}` is not a {} value",
            shown.escape_debug(),
            ty.iceberg_name()
        ),
    )
}

/// Parses one non-NULL result cell, as Athena's `GetQueryResults` returns it, into a
/// value of type `ty`.
///
/// * boolean `true`/`false`; int and long in decimal; float and double also `NaN`,
///   `Infinity`, `-Infinity` and exponents (`1.0E10`);
/// * decimal `-12.50`; date `2026-10-01`;
/// * timestamp `2026-10-01 12:00:00` with 0 to 9 fractional digits (`T` also
///   accepted); timestamptz the same followed by ` UTC` (or `Z`, or an offset such as
///   ` +02:00`);
/// * binary as hex, with or without spaces between bytes (`00 ff 1a` or `00ff1a`);
/// * list, map and struct as the JSON text of `CAST(col AS JSON)`: an array, an object,
///   and an object by field name or an array by position.
///
/// An empty cell is an empty string for `string` and an error for every other type: a
/// NULL arrives as a missing cell, never as `""`.
///
/// ```
/// use iceberg_sql::record::parse_cell;
/// use iceberg_sql::{IcebergType, Value};
/// assert_eq!(parse_cell("42", &IcebergType::Long).unwrap(), Value::Long(42));
/// assert!(parse_cell("", &IcebergType::Long).is_err());
/// let list = IcebergType::list(IcebergType::Int);
/// assert_eq!(parse_cell("[1,null]", &list).unwrap(),
///            Value::List(vec![Value::Int(1), Value::Null]));
/// ```
pub fn parse_cell(text: &str, ty: &IcebergType) -> Result<Value> {
    use IcebergType as T;
    let bad = || bad_cell(text, ty);
    Ok(match ty {
        T::Boolean => match text.trim() {
            t if t.eq_ignore_ascii_case("true") => Value::Boolean(true),
            t if t.eq_ignore_ascii_case("false") => Value::Boolean(false),
            _ => return Err(bad()),
        },
        T::Int => Value::Int(text.trim().parse().map_err(|_| bad())?),
        T::Long => Value::Long(text.trim().parse().map_err(|_| bad())?),
        T::Float => Value::Float(parse_float(text).ok_or_else(bad)? as f32),
        T::Double => Value::Double(parse_float(text).ok_or_else(bad)?),
        T::Decimal { .. } => Value::Decimal(Decimal::parse(text.trim()).map_err(|_| bad())?),
        T::Date => {
            Value::Date(NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| bad())?)
        }
        // A cell marked UTC (a timestamptz column written by another engine) reads as its
        // UTC wall time, which is how Athena shows zone-less timestamps anyway.
        T::Timestamp => Value::Timestamp(
            parse_timestamp(text.trim())
                .or_else(|| parse_timestamptz(text.trim()).map(|t| t.naive_utc()))
                .ok_or_else(bad)?,
        ),
        T::TimestampTz => Value::TimestampTz(parse_timestamptz(text.trim()).ok_or_else(bad)?),
        T::String => Value::String(text.to_string()),
        T::Binary => Value::Binary(parse_hex(text).ok_or_else(bad)?),
        T::List(_) | T::Map(..) | T::Struct(_) => {
            let json = json::parse(text).map_err(|why| {
                Error::new(
                    ErrorKind::Decode,
                    format!("the {} cell is not valid JSON: {why}", ty.iceberg_name()),
                )
                .with_hint("read nested columns as `CAST(col AS JSON)`")
            })?;
            from_json(&json, ty)?
        }
    })
}

fn parse_float(text: &str) -> Option<f64> {
    let t = text.trim();
    // Rust accepts `NaN`, `inf`, `Infinity` (any case) and `1.0E10`; refuse hex or
    // empty text explicitly.
    if t.is_empty() {
        return None;
    }
    t.parse::<f64>().ok()
}

fn parse_timestamp(t: &str) -> Option<NaiveDateTime> {
    let t = t.replacen('T', " ", 1);
    NaiveDateTime::parse_from_str(&t, "%Y-%m-%d %H:%M:%S%.f")
        .or_else(|_| NaiveDateTime::parse_from_str(&t, "%Y-%m-%d %H:%M"))
        .ok()
}

fn parse_timestamptz(t: &str) -> Option<DateTime<Utc>> {
    if let Some(local) = t.strip_suffix(" UTC").or_else(|| t.strip_suffix('Z')) {
        return parse_timestamp(local.trim_end()).map(|ts| ts.and_utc());
    }
    let (local, zone) = t.rsplit_once(' ')?;
    let offset: FixedOffset = zone.parse().ok()?;
    let ts = parse_timestamp(local)?;
    ts.and_local_timezone(offset)
        .single()
        .map(|d| d.with_timezone(&Utc))
}

fn parse_hex(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks(2)
        .map(|p| {
            let s = std::str::from_utf8(p).ok()?;
            u8::from_str_radix(s, 16).ok()
        })
        .collect()
}

fn from_json(j: &json::Json, ty: &IcebergType) -> Result<Value> {
    use json::Json as J;
    use IcebergType as T;
    let bad = || {
        Error::new(
            ErrorKind::Decode,
            format!("JSON {} is not a {} value", j.kind(), ty.iceberg_name()),
        )
    };
    Ok(match (j, ty) {
        (J::Null, _) => Value::Null,
        (J::Bool(b), T::Boolean) => Value::Boolean(*b),
        (J::Number(n), T::Int | T::Long | T::Float | T::Double | T::Decimal { .. }) => {
            parse_cell(n, ty)?
        }
        // Non-finite floats, and numbers some engines quote.
        (J::String(s), T::Float | T::Double | T::Decimal { .. } | T::Int | T::Long) => {
            parse_cell(s, ty)?
        }
        (
            J::String(s),
            T::Boolean | T::String | T::Date | T::Timestamp | T::TimestampTz | T::Binary,
        ) => parse_cell(s, ty)?,
        (J::Array(items), T::List(elem)) => Value::List(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| from_json(v, elem).map_err(|e| in_path(e, &format!("[{i}]"))))
                .collect::<Result<_>>()?,
        ),
        (J::Object(entries), T::Map(kt, vt)) => Value::Map(
            entries
                .iter()
                .map(|(k, v)| {
                    let key = parse_cell(k, kt).map_err(|e| in_path(e, ".key"))?;
                    let value = from_json(v, vt).map_err(|e| in_path(e, &format!("[{k}]")))?;
                    Ok((key, value))
                })
                .collect::<Result<_>>()?,
        ),
        // Some engines write maps as `[[k, v], ...]`.
        (J::Array(pairs), T::Map(kt, vt)) => Value::Map(
            pairs
                .iter()
                .map(|p| match p {
                    J::Array(kv) if kv.len() == 2 => {
                        Ok((from_json(&kv[0], kt)?, from_json(&kv[1], vt)?))
                    }
                    _ => Err(bad()),
                })
                .collect::<Result<_>>()?,
        ),
        (J::Object(entries), T::Struct(fields)) => {
            let mut out = Vec::with_capacity(fields.len());
            for f in fields {
                let v = entries
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(&f.name))
                    .map(|(_, v)| v);
                out.push(match v {
                    Some(v) => {
                        from_json(v, &f.ty).map_err(|e| in_path(e, &format!(".{}", f.name)))?
                    }
                    None => {
                        return Err(Error::new(
                            ErrorKind::Decode,
                            format!(
                                "at `.{}`: the field is missing from the JSON object",
                                f.name
                            ),
                        ))
                    }
                });
            }
            Value::Struct(out)
        }
        (J::Array(items), T::Struct(fields)) if items.len() == fields.len() => Value::Struct(
            items
                .iter()
                .zip(fields)
                .map(|(v, f)| from_json(v, &f.ty).map_err(|e| in_path(e, &format!(".{}", f.name))))
                .collect::<Result<_>>()?,
        ),
        _ => return Err(bad()),
    })
}

/// The text Athena returns for `value` in a column of type `ty` (`None` for NULL): the
/// inverse of [`parse_cell`], used to test decoding and to fake result sets.
///
/// Timestamps are written with 6 fractional digits (Iceberg keeps microseconds),
/// timestamptz with a ` UTC` suffix, binary as space-separated hex, and nested values
/// as JSON (a struct as an object by field name).
pub fn format_cell(value: &Value, ty: &IcebergType) -> Option<String> {
    match value {
        Value::Null => None,
        Value::List(_) | Value::Map(_) | Value::Struct(_) => {
            let mut s = String::new();
            write_json(&mut s, value, ty);
            Some(s)
        }
        // Athena prints a decimal with its column's scale (`12.50` in decimal(10,2)).
        Value::Decimal(d) => Some(primitive_text(&Value::Decimal(at_scale(*d, ty)))),
        v => Some(primitive_text(v)),
    }
}

fn at_scale(d: Decimal, ty: &IcebergType) -> Decimal {
    match ty {
        IcebergType::Decimal { scale, .. } => d.rescale(*scale).unwrap_or(d),
        _ => d,
    }
}

fn primitive_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Long(i) => i.to_string(),
        Value::Float(f) => float_text(f64::from(*f), f.to_string()),
        Value::Double(f) => float_text(*f, f.to_string()),
        Value::Decimal(d) => d.to_string(),
        Value::Date(d) => d.format("%Y-%m-%d").to_string(),
        Value::Timestamp(ts) => ts.format("%Y-%m-%d %H:%M:%S%.6f").to_string(),
        Value::TimestampTz(ts) => ts.format("%Y-%m-%d %H:%M:%S%.6f UTC").to_string(),
        Value::String(s) => s.clone(),
        Value::Binary(b) => {
            let mut s = String::with_capacity(b.len() * 3);
            for (i, byte) in b.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                let _ = write!(s, "{byte:02x}");
            }
            s
        }
        Value::List(_) | Value::Map(_) | Value::Struct(_) => String::new(),
    }
}

fn float_text(v: f64, shortest: String) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        shortest
    }
}

fn write_json(out: &mut String, v: &Value, ty: &IcebergType) {
    use IcebergType as T;
    match (v, ty) {
        (Value::Null, _) => out.push_str("null"),
        (Value::Decimal(d), _) => out.push_str(&primitive_text(&Value::Decimal(at_scale(*d, ty)))),
        (Value::Boolean(_) | Value::Int(_) | Value::Long(_), _) => out.push_str(&primitive_text(v)),
        (Value::Float(_) | Value::Double(_), _) => {
            let t = primitive_text(v);
            if t.parse::<f64>().is_ok_and(f64::is_finite) {
                out.push_str(&t);
            } else {
                json::write_string(out, &t);
            }
        }
        (Value::List(items), T::List(elem)) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, item, elem);
            }
            out.push(']');
        }
        (Value::Map(entries), T::Map(_, vt)) => {
            out.push('{');
            for (i, (k, val)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json::write_string(out, &primitive_text(k));
                out.push(':');
                write_json(out, val, vt);
            }
            out.push('}');
        }
        (Value::Struct(values), T::Struct(fields)) => {
            out.push('{');
            for (i, (val, f)) in values.iter().zip(fields).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json::write_string(out, &f.name);
                out.push(':');
                write_json(out, val, &f.ty);
            }
            out.push('}');
        }
        (v, _) => json::write_string(out, &primitive_text(v)),
    }
}

/// A small JSON reader that keeps numbers as their text, so decimals stay exact.
mod json {
    use std::fmt::Write as _;

    #[derive(Debug, Clone, PartialEq)]
    pub(super) enum Json {
        Null,
        Bool(bool),
        Number(String),
        String(String),
        Array(Vec<Json>),
        Object(Vec<(String, Json)>),
    }

    impl Json {
        pub(super) fn kind(&self) -> &'static str {
            match self {
                Json::Null => "null",
                Json::Bool(_) => "boolean",
                Json::Number(_) => "number",
                Json::String(_) => "string",
                Json::Array(_) => "array",
                Json::Object(_) => "object",
            }
        }
    }

    pub(super) fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
            depth: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("unexpected text at byte {}", p.i));
        }
        Ok(v)
    }

    struct Parser<'a> {
        s: &'a [u8],
        i: usize,
        depth: usize,
    }

    impl Parser<'_> {
        fn ws(&mut self) {
            while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            }
        }

        fn eat(&mut self, lit: &str) -> bool {
            if self.s[self.i..].starts_with(lit.as_bytes()) {
                self.i += lit.len();
                true
            } else {
                false
            }
        }

        fn value(&mut self) -> Result<Json, String> {
            self.ws();
            let Some(&c) = self.s.get(self.i) else {
                return Err("unexpected end of text".into());
            };
            match c {
                b'n' if self.eat("null") => Ok(Json::Null),
                b't' if self.eat("true") => Ok(Json::Bool(true)),
                b'f' if self.eat("false") => Ok(Json::Bool(false)),
                b'"' => self.string().map(Json::String),
                b'[' | b'{' => {
                    self.depth += 1;
                    if self.depth > 128 {
                        return Err("nested too deeply".into());
                    }
                    let v = if c == b'[' {
                        self.array()
                    } else {
                        self.object()
                    };
                    self.depth -= 1;
                    v
                }
                b'-' | b'0'..=b'9' => self.number(),
                _ => Err(format!("unexpected character at byte {}", self.i)),
            }
        }

        fn number(&mut self) -> Result<Json, String> {
            let start = self.i;
            while self.i < self.s.len()
                && matches!(
                    self.s[self.i],
                    b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                )
            {
                self.i += 1;
            }
            let t = std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?;
            Ok(Json::Number(t.to_string()))
        }

        fn array(&mut self) -> Result<Json, String> {
            self.i += 1;
            let mut items = Vec::new();
            self.ws();
            if self.eat("]") {
                return Ok(Json::Array(items));
            }
            loop {
                items.push(self.value()?);
                self.ws();
                if self.eat(",") {
                    continue;
                }
                if self.eat("]") {
                    return Ok(Json::Array(items));
                }
                return Err(format!("expected `,` or `]` at byte {}", self.i));
            }
        }

        fn object(&mut self) -> Result<Json, String> {
            self.i += 1;
            let mut entries = Vec::new();
            self.ws();
            if self.eat("}") {
                return Ok(Json::Object(entries));
            }
            loop {
                self.ws();
                if self.s.get(self.i) != Some(&b'"') {
                    return Err(format!("expected a key at byte {}", self.i));
                }
                let k = self.string()?;
                self.ws();
                if !self.eat(":") {
                    return Err(format!("expected `:` at byte {}", self.i));
                }
                let v = self.value()?;
                entries.push((k, v));
                self.ws();
                if self.eat(",") {
                    continue;
                }
                if self.eat("}") {
                    return Ok(Json::Object(entries));
                }
                return Err(format!("expected `,` or `}}` at byte {}", self.i));
            }
        }

        fn hex4(&mut self) -> Result<u32, String> {
            let h = self
                .s
                .get(self.i..self.i + 4)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("bad \\u escape at byte {}", self.i))?;
            self.i += 4;
            Ok(h)
        }

        fn string(&mut self) -> Result<String, String> {
            self.i += 1;
            let mut out = String::new();
            loop {
                let start = self.i;
                while self.i < self.s.len() && !matches!(self.s[self.i], b'"' | b'\\') {
                    self.i += 1;
                }
                out.push_str(
                    std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?,
                );
                match self.s.get(self.i) {
                    None => return Err("unterminated string".into()),
                    Some(b'"') => {
                        self.i += 1;
                        return Ok(out);
                    }
                    Some(_) => {
                        self.i += 1;
                        let Some(&e) = self.s.get(self.i) else {
                            return Err("unterminated string".into());
                        };
                        self.i += 1;
                        match e {
                            b'"' => out.push('"'),
                            b'\\' => out.push('\\'),
                            b'/' => out.push('/'),
                            b'b' => out.push('\u{8}'),
                            b'f' => out.push('\u{c}'),
                            b'n' => out.push('\n'),
                            b'r' => out.push('\r'),
                            b't' => out.push('\t'),
                            b'u' => {
                                let hi = self.hex4()?;
                                let code = if (0xD800..0xDC00).contains(&hi) && self.eat("\\u") {
                                    let lo = self.hex4()?;
                                    0x10000
                                        + ((hi - 0xD800) << 10)
                                        + (lo.wrapping_sub(0xDC00) & 0x3FF)
                                } else {
                                    hi
                                };
                                out.push(char::from_u32(code).ok_or("bad \\u escape")?);
                            }
                            _ => return Err(format!("bad escape at byte {}", self.i - 1)),
                        }
                    }
                }
            }
        }
    }

    pub(super) fn write_string(out: &mut String, s: &str) {
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }
}

/// `rust_decimal::Decimal` columns (feature `decimal`). Like the crate's own
/// [`Decimal`], a field must declare its precision: `#[iceberg(type = "decimal(10, 2)")]`.
/// `rust_decimal` holds at most 28 digits after the point and a 96-bit mantissa; wider
/// values are a decode error, never a silent rounding.
#[cfg(feature = "decimal")]
impl SqlType for rust_decimal::Decimal {
    fn iceberg_type() -> IcebergType {
        IcebergType::decimal(38, 9)
    }
    const KIND: SqlKind = SqlKind::Decimal;
    fn to_value(&self) -> Value {
        // rust_decimal's scale is at most 28, so it always fits a u8.
        Value::Decimal(Decimal::new(self.mantissa(), self.scale() as u8))
    }
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Decimal(d) => {
                rust_decimal::Decimal::try_from_i128_with_scale(d.unscaled(), u32::from(d.scale()))
                    .map_err(|e| {
                        Error::new(
                            ErrorKind::Decode,
                            format!("decimal {d} does not fit rust_decimal::Decimal: {e}"),
                        )
                    })
            }
            other => Err(decode_mismatch("decimal", &other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::StructField;

    fn rt(v: Value, ty: &IcebergType) {
        let text = format_cell(&v, ty).expect("not null");
        let back = parse_cell(&text, ty).unwrap_or_else(|e| panic!("{text}: {e}"));
        // Debug text compares NaN equal to NaN.
        assert_eq!(format!("{back:?}"), format!("{v:?}"), "{text}");
    }

    #[test]
    fn primitive_cells() {
        use IcebergType as T;
        assert_eq!(
            parse_cell("true", &T::Boolean).unwrap(),
            Value::Boolean(true)
        );
        assert!(parse_cell("1", &T::Boolean).is_err());
        assert!(parse_cell("", &T::Int).is_err());
        assert_eq!(
            parse_cell("", &T::String).unwrap(),
            Value::String(String::new())
        );
        assert_eq!(
            parse_cell("1.0E10", &T::Double).unwrap(),
            Value::Double(1e10)
        );
        assert!(parse_cell("NaN", &T::Double).unwrap() != Value::Double(0.0));
        assert_eq!(
            parse_cell("-Infinity", &T::Float).unwrap(),
            Value::Float(f32::NEG_INFINITY)
        );
        let d = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
        for (text, nanos) in [
            ("2026-10-01 12:00:00", 0),
            ("2026-10-01 12:00:00.1", 100_000_000),
            ("2026-10-01 12:00:00.123", 123_000_000),
            ("2026-10-01 12:00:00.123456", 123_456_000),
            ("2026-10-01 12:00:00.123456789", 123_456_789),
            ("2026-10-01T12:00:00.123", 123_000_000),
        ] {
            let want = d.and_hms_nano_opt(12, 0, 0, nanos).unwrap();
            assert_eq!(
                parse_cell(text, &T::Timestamp).unwrap(),
                Value::Timestamp(want),
                "{text}"
            );
            let tz = format!("{} UTC", text);
            assert_eq!(
                parse_cell(&tz, &T::TimestampTz).unwrap(),
                Value::TimestampTz(want.and_utc()),
                "{tz}"
            );
        }
        assert_eq!(
            parse_cell("2026-10-01 14:00:00 +02:00", &T::TimestampTz).unwrap(),
            Value::TimestampTz(d.and_hms_opt(12, 0, 0).unwrap().and_utc())
        );
        assert!(parse_cell("2026-10-01 12:00:00", &T::TimestampTz).is_err());
        assert_eq!(
            parse_cell("00 ff 1a", &T::Binary).unwrap(),
            Value::Binary(vec![0, 255, 26])
        );
        assert_eq!(
            parse_cell("00ff1a", &T::Binary).unwrap(),
            Value::Binary(vec![0, 255, 26])
        );
        assert!(parse_cell("0", &T::Binary).is_err());
        assert_eq!(
            parse_cell("-12.50", &T::decimal(10, 2)).unwrap(),
            Value::Decimal(Decimal::new(-1250, 2))
        );
    }

    #[test]
    fn nested_cells_are_json() {
        use IcebergType as T;
        let point = T::Struct(vec![
            StructField::new("lat", T::Double),
            StructField::new("tag", T::String),
        ]);
        let want = Value::Struct(vec![Value::Double(1.5), Value::Null]);
        assert_eq!(
            parse_cell(r#"{"lat":1.5,"tag":null}"#, &point).unwrap(),
            want
        );
        assert_eq!(parse_cell(r#"[1.5, null]"#, &point).unwrap(), want);
        let m = T::map(T::Int, T::decimal(38, 20));
        assert_eq!(
            parse_cell(r#"{"7": 12345678901234567.12345678901234567890}"#, &m).unwrap(),
            Value::Map(vec![(
                Value::Int(7),
                Value::Decimal(Decimal::parse("12345678901234567.12345678901234567890").unwrap())
            )])
        );
        let e = parse_cell(r#"[1, "x"]"#, &T::list(T::Int)).unwrap_err();
        assert_eq!(e.message(), "at `[1]`: `x` is not a int value");
        rt(
            Value::List(vec![Value::String("a\"\\\n\u{1}é😀".into()), Value::Null]),
            &T::list(T::String),
        );
        rt(
            Value::List(vec![
                Value::Double(f64::NAN),
                Value::Double(f64::INFINITY),
                Value::Double(-0.5),
            ]),
            &T::list(T::Double),
        );
        assert_eq!(
            parse_cell(r#"["\ud83d\ude00"]"#, &T::list(T::String)).unwrap(),
            Value::List(vec![Value::String("😀".into())])
        );
        rt(want, &point);
    }

    #[test]
    fn decode_errors_name_the_column() {
        let cols = vec!["n".to_string()];
        let cells = vec![Some("x".to_string())];
        let row = Row::new(&cols, &cells);
        let e = decode_column::<i64>(&row, &Column::new("n", IcebergType::Long)).unwrap_err();
        assert_eq!(e.message(), "column `n`: `x` is not a long value");
        let cells = vec![None];
        let row = Row::new(&cols, &cells);
        let e = decode_column::<String>(&row, &Column::new("n", IcebergType::String)).unwrap_err();
        assert_eq!(
            e.message(),
            "column `n`: expected a string value, found NULL"
        );
        assert_eq!(
            decode_column::<Option<String>>(&row, &Column::new("n", IcebergType::String)).unwrap(),
            None
        );
    }
}
