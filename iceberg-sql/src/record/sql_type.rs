//! [`SqlType`]: a Rust type that maps to an Iceberg type, converts to and from
//! [`Value`], and reads one result cell.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, Utc};

use super::cell::{parse_cell_as, parse_timestamp, parse_timestamptz, NestedForm};
use crate::error::{Error, ErrorKind, Result};
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

    /// The type a typed `.cast::<T>()` converts to: the column's type but where a
    /// column stores the value in another type than the one that holds it.
    fn cast_type() -> IcebergType {
        Self::iceberg_type()
    }

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

    /// Reads one non-NULL result cell whose text is of Iceberg type `ty` (nested values
    /// written in `form`). The default parses the text into a [`Value`] and converts it
    /// with [`from_value`](Self::from_value); types that keep more than a `Value` holds
    /// (the offset of a `DateTime<FixedOffset>`) override it.
    fn from_cell(text: &str, ty: &IcebergType, form: NestedForm) -> Result<Self> {
        Self::from_value(parse_cell_as(text, ty, form)?)
    }

    /// [`from_cell`](Self::from_cell) for a cell the caller no longer needs: `String`
    /// moves the text instead of copying it.
    fn from_owned_cell(text: String, ty: &IcebergType, form: NestedForm) -> Result<Self> {
        Self::from_cell(&text, ty, form)
    }
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
        use iceberg_sql_rules::TypeKind as T;
        use SqlKind as K;
        let kind = match self {
            K::Boolean => T::Boolean,
            K::Int => T::Int,
            K::Long => T::Long,
            K::Float => T::Float,
            K::Double => T::Double,
            K::Decimal => T::Decimal,
            K::Date => T::Date,
            K::Timestamp => T::Timestamp,
            K::String => T::String,
            K::Binary => T::Binary,
            K::List | K::Map | K::Struct => T::Nested,
            K::Unknown => return true,
        };
        iceberg_sql_rules::transform_accepts(transform, kind)
    }
}

pub(crate) fn decode_mismatch(expected: &str, got: &Value) -> Error {
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
    NaiveDate => Date, IcebergType::Date, "date";
    NaiveDateTime => Timestamp, IcebergType::Timestamp, "timestamp";
    Vec<u8> => Binary, IcebergType::Binary, "binary";
}

/// `string`. A cell reads byte for byte, whatever the column's type (an `array` column
/// read into a `String` gives its text).
impl SqlType for String {
    fn iceberg_type() -> IcebergType {
        IcebergType::String
    }
    const KIND: SqlKind = SqlKind::String;
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::String(v) => Ok(v),
            other => Err(decode_mismatch("string", &other)),
        }
    }
    fn from_cell(text: &str, _: &IcebergType, _: NestedForm) -> Result<Self> {
        Ok(text.to_string())
    }
    fn from_owned_cell(text: String, _: &IcebergType, _: NestedForm) -> Result<Self> {
        Ok(text)
    }
}

/// `timestamptz`, keeping the offset the cell names (`+02:00`; a named zone resolves to
/// its offset at that instant with the `tz` feature). A zone-less `timestamp` cell
/// reads as UTC (Athena shows zone-less timestamps in UTC). Inside nested values the
/// offset is UTC: a [`Value`] holds the instant only.
impl SqlType for DateTime<FixedOffset> {
    fn iceberg_type() -> IcebergType {
        IcebergType::TimestampTz
    }
    const KIND: SqlKind = SqlKind::Timestamp;
    fn to_value(&self) -> Value {
        Value::TimestampTz(self.with_timezone(&Utc))
    }
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::TimestampTz(ts) => Ok(ts.fixed_offset()),
            Value::Timestamp(ts) => Ok(ts.and_utc().fixed_offset()),
            other => Err(decode_mismatch("timestamptz", &other)),
        }
    }
    fn from_cell(text: &str, ty: &IcebergType, form: NestedForm) -> Result<Self> {
        match ty {
            IcebergType::Timestamp | IcebergType::TimestampTz => {
                if let Some(ts) = parse_timestamp(text.trim()) {
                    return Ok(ts.and_utc().fixed_offset());
                }
                parse_timestamptz(text).map_err(|e| e.into_error(text, ty))
            }
            _ => Self::from_value(parse_cell_as(text, ty, form)?),
        }
    }
}

/// Stored as an Iceberg `timestamp` holding the UTC wall time: Athena cannot declare
/// `timestamptz` columns ("Only Iceberg `timestamp` (without time zone) is supported for
/// Athena Iceberg DDL statements like CREATE TABLE",
/// <https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-supported-data-types.html>).
/// Reads accept `timestamp` and `timestamptz` cells.
impl SqlType for DateTime<Utc> {
    fn iceberg_type() -> IcebergType {
        IcebergType::Timestamp
    }
    /// An instant: `timestamp(6) with time zone` (Spark's `timestamp`). A cast to the
    /// zone-less `timestamp(6)` would keep the wall clock of a text's or a value's own
    /// offset (`CAST('2026-01-01 00:00:00 +02:00' AS timestamp(6))` is midnight, not
    /// 22:00 UTC: <https://trino.io/docs/current/language/types.html#timestamp-with-time-zone>).
    fn cast_type() -> IcebergType {
        IcebergType::TimestampTz
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
    fn cast_type() -> IcebergType {
        T::cast_type()
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
    // A cell with text is never NULL: the inner type reads it (and may move it).
    fn from_cell(text: &str, ty: &IcebergType, form: NestedForm) -> Result<Self> {
        T::from_cell(text, ty, form).map(Some)
    }
    fn from_owned_cell(text: String, ty: &IcebergType, form: NestedForm) -> Result<Self> {
        T::from_owned_cell(text, ty, form).map(Some)
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
pub(crate) fn in_path(e: Error, step: &str) -> Error {
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
