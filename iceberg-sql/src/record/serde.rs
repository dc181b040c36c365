//! Rows into any `serde::Deserialize` type (feature `serde`).
//!
//! A row reads as a map from column name to cell (structs match fields by name), or as
//! a sequence of cells (tuples, `Vec`s, tuple structs match by position). A row with
//! one column also reads as that column's value. Each cell:
//!
//! * NULL is `None` for an `Option` and unit (`serde_json::Value::Null`) otherwise,
//!   never `""`;
//! * numbers and booleans are parsed from the text for the type the target asks for
//!   (`NaN`/`Infinity` included); a decimal reads as its exact text where the target
//!   takes a string (`rust_decimal` does), or as a number;
//! * strings are the text, byte for byte; binary (`00 ff`) reads as bytes, or as a
//!   sequence of numbers where the target takes anything;
//! * date, timestamp and timestamptz cells are given in ISO 8601 / RFC 3339 form
//!   (`2026-01-01T12:00:00.123456`, `...Z`), which `chrono`'s serde support reads;
//! * list, map and struct cells (JSON from `CAST(col AS JSON)`, or Athena's un-cast
//!   form when the column's type says so) read as sequences and maps, struct fields by
//!   name; a `json` column reads the same way;
//! * where a target takes anything (`serde_json::Value`), the column's Athena type
//!   decides; a column of unknown type gives its text.
//!
//! ```
//! use std::sync::Arc;
//! use iceberg_sql::record::{serde::Serde, ColumnMeta, Columns, FromRow, Row};
//!
//! #[derive(serde::Deserialize, Debug, PartialEq)]
//! struct Event { id: String, tags: Vec<String>, at: chrono::NaiveDateTime, note: Option<String> }
//!
//! let columns = Arc::new(Columns::new(vec![
//!     ColumnMeta::new("id", "varchar"),
//!     ColumnMeta::new("tags", "json"),
//!     ColumnMeta::new("at", "timestamp(6)"),
//!     ColumnMeta::new("note", "varchar"),
//! ]));
//! let row = Row::new(columns, vec![
//!     Some("e1".into()), Some(r#"["a","b"]"#.into()), Some("2026-01-01 12:00:00.5".into()), None,
//! ]);
//! let Serde(event) = Serde::<Event>::from_row(&row)?;
//! assert_eq!(event.tags, ["a", "b"]);
//! assert_eq!(event.note, None);
//! let (id, _, _, _): (String, serde_json::Value, String, Option<String>) =
//!     iceberg_sql::record::serde::from_row(&row)?;
//! assert_eq!(id, "e1");
//! # Ok::<(), iceberg_sql::Error>(())
//! ```

use std::fmt;

use chrono::SecondsFormat;
use serde::de::{self, DeserializeOwned, Deserializer as _, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::cell::{parse_cell_as, NestedForm};
use super::json::{self, Json};
use super::row::{FromRow, Row};
use crate::error::{Error, ErrorKind, Result};
use crate::types::IcebergType;
use crate::value::Value;

/// Decodes `row` into any `serde::Deserialize` type (see the module docs).
pub fn from_row<T: DeserializeOwned>(row: &Row) -> Result<T> {
    T::deserialize(RowDe { row }).map_err(|e| e.0)
}

/// Any `serde::Deserialize` type as a [`FromRow`] type, so it decodes wherever rows are
/// decoded (e.g. the executor's `decode::<Serde<T>>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Serde<T>(pub T);

impl<T: DeserializeOwned> FromRow for Serde<T> {
    fn from_row(row: &Row) -> Result<Self> {
        from_row(row).map(Serde)
    }
}

/// serde's error type: the crate's [`Error`].
#[derive(Debug)]
struct DeError(Error);

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        DeError(Error::new(ErrorKind::Decode, msg.to_string()))
    }
}

fn decode_err(msg: String) -> DeError {
    DeError(Error::new(ErrorKind::Decode, msg))
}

type DeResult<T> = std::result::Result<T, DeError>;

// ---------------------------------------------------------------------------------------
// The row
// ---------------------------------------------------------------------------------------

struct RowDe<'a> {
    row: &'a Row,
}

impl<'a> RowDe<'a> {
    fn width(&self) -> usize {
        self.row.columns().len().max(self.row.cells().len())
    }

    fn cell(&self, index: usize) -> CellDe<'a> {
        let columns = self.row.columns();
        CellDe {
            row: self.row,
            index,
            text: self.row.get_at(index).flatten(),
            ty: columns.iceberg_type(index),
            form: columns.nested_form(index),
        }
    }

    fn single(self) -> DeResult<CellDe<'a>> {
        if self.width() == 1 {
            Ok(self.cell(0))
        } else {
            Err(decode_err(format!(
                "a row of {} columns cannot be read as one value; read it into a struct, a map or a tuple",
                self.width()
            )))
        }
    }
}

macro_rules! to_single_cell {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
            self.single()?.$method(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for RowDe<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        visitor.visit_map(RowMap { de: self, next: 0 })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> DeResult<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        visitor.visit_seq(RowSeq { de: self, next: 0 })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> DeResult<V::Value> {
        if len != self.width() {
            return Err(decode_err(format!(
                "the result has {} columns; a tuple of {len} reads exactly {len}, by position",
                self.width()
            )));
        }
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> DeResult<V::Value> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> DeResult<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> DeResult<V::Value> {
        self.single()?.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        visitor.visit_unit()
    }

    to_single_cell! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32
        deserialize_f64 deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_option deserialize_unit deserialize_identifier
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> DeResult<V::Value> {
        visitor.visit_unit()
    }
}

struct RowMap<'a> {
    de: RowDe<'a>,
    next: usize,
}

impl<'de> de::MapAccess<'de> for RowMap<'_> {
    type Error = DeError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> DeResult<Option<K::Value>> {
        if self.next >= self.de.width() {
            return Ok(None);
        }
        let name = self
            .de
            .row
            .columns()
            .get(self.next)
            .map_or_else(|| format!("_{}", self.next), |m| m.name.clone());
        seed.deserialize(name.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> DeResult<V::Value> {
        let cell = self.de.cell(self.next);
        self.next += 1;
        seed.deserialize(cell)
    }
}

struct RowSeq<'a> {
    de: RowDe<'a>,
    next: usize,
}

impl<'de> de::SeqAccess<'de> for RowSeq<'_> {
    type Error = DeError;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> DeResult<Option<T::Value>> {
        if self.next >= self.de.width() {
            return Ok(None);
        }
        let cell = self.de.cell(self.next);
        self.next += 1;
        seed.deserialize(cell).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.de.width() - self.next)
    }
}

// ---------------------------------------------------------------------------------------
// One cell
// ---------------------------------------------------------------------------------------

struct CellDe<'a> {
    row: &'a Row,
    index: usize,
    text: Option<&'a str>,
    /// The column's Iceberg type, when its type name is one.
    ty: Option<&'a IcebergType>,
    form: NestedForm,
}

impl CellDe<'_> {
    fn column(&self) -> String {
        self.row
            .columns()
            .get(self.index)
            .map_or_else(|| format!("#{}", self.index), |m| m.name.clone())
    }

    fn at_column(&self, e: Error) -> DeError {
        decode_err(format!("column `{}`: {}", self.column(), e.message()))
    }

    fn text(&self, what: &str) -> DeResult<&str> {
        self.text.ok_or_else(|| {
            decode_err(format!(
                "column `{}` is NULL; read it into an Option (expected {what})",
                self.column()
            ))
        })
    }

    fn bad(&self, text: &str, what: &str) -> DeError {
        let shown: String = text.chars().take(64).collect();
        decode_err(format!(
            "column `{}`: `{}` is not {what}",
            self.column(),
            shown.escape_debug()
        ))
    }

    /// The cell as a value of the column's type (`None` when the type is unknown).
    fn value(&self) -> DeResult<Option<(Value, &IcebergType)>> {
        let (Some(text), Some(ty)) = (self.text, self.ty) else {
            return Ok(None);
        };
        let v = parse_cell_as(text, ty, self.form).map_err(|e| self.at_column(e))?;
        Ok(Some((v, ty)))
    }

    /// For nested targets: the column's value, or the text read as JSON.
    fn nested<'de, V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        let text = self.text("a nested value")?;
        match self.ty {
            Some(IcebergType::Binary) => match self.value()? {
                Some((value, ty)) => ValueDe { value, ty }.deserialize_any(visitor),
                None => Err(self.bad(text, "binary")),
            },
            Some(ty) if !ty.is_primitive() => match self.value()? {
                Some((value, ty)) => ValueDe { value, ty }.deserialize_any(visitor),
                None => Err(self.bad(text, &ty.iceberg_name())),
            },
            _ => {
                let j = json::parse(text).map_err(|why| {
                    decode_err(format!(
                        "column `{}`: not JSON ({why}); select nested columns as `CAST(col AS JSON)`",
                        self.column()
                    ))
                })?;
                JsonDe(j)
                    .deserialize_any(visitor)
                    .map_err(|e| decode_err(format!("column `{}`: {e}", self.column())))
            }
        }
    }
}

macro_rules! parse_number {
    ($($method:ident => $t:ty, $visit:ident, $what:literal;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
            let text = self.text($what)?;
            let n: $t = text.trim().parse().map_err(|_| self.bad(text, $what))?;
            visitor.$visit(n)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for CellDe<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        match (self.text, self.ty) {
            (None, _) => visitor.visit_unit(),
            (Some(text), None) => visitor.visit_str(text),
            (Some(text), Some(_)) => match self.value()? {
                Some((value, ty)) => ValueDe { value, ty }.deserialize_any(visitor),
                None => visitor.visit_str(text),
            },
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        if self.text.is_none() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        let text = self.text("a boolean")?;
        match text.trim() {
            t if t.eq_ignore_ascii_case("true") => visitor.visit_bool(true),
            t if t.eq_ignore_ascii_case("false") => visitor.visit_bool(false),
            _ => Err(self.bad(text, "a boolean")),
        }
    }

    parse_number! {
        deserialize_i8 => i8, visit_i8, "an 8-bit integer";
        deserialize_i16 => i16, visit_i16, "a 16-bit integer";
        deserialize_i32 => i32, visit_i32, "a 32-bit integer";
        deserialize_i64 => i64, visit_i64, "a 64-bit integer";
        deserialize_i128 => i128, visit_i128, "an integer";
        deserialize_u8 => u8, visit_u8, "an unsigned 8-bit integer";
        deserialize_u16 => u16, visit_u16, "an unsigned 16-bit integer";
        deserialize_u32 => u32, visit_u32, "an unsigned 32-bit integer";
        deserialize_u64 => u64, visit_u64, "an unsigned 64-bit integer";
        deserialize_u128 => u128, visit_u128, "an unsigned integer";
        deserialize_f32 => f32, visit_f32, "a float";
        deserialize_f64 => f64, visit_f64, "a double";
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        // Dates and times in ISO 8601 form, so chrono's Deserialize reads them.
        match self.ty {
            Some(IcebergType::Timestamp | IcebergType::TimestampTz | IcebergType::Date) => {
                let text = self.text("a date or time")?;
                match self.value()? {
                    Some((v, _)) => visitor.visit_string(iso_text(&v)),
                    None => Err(self.bad(text, "a date or time")),
                }
            }
            _ => visitor.visit_str(self.text("a string")?),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        let text = self.text("binary")?;
        match parse_cell_as(text, &IcebergType::Binary, self.form) {
            Ok(Value::Binary(b)) => visitor.visit_byte_buf(b),
            _ => Err(self.bad(text, "binary (hex pairs)")),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> DeResult<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> DeResult<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.nested(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> DeResult<V::Value> {
        self.nested(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> DeResult<V::Value> {
        self.nested(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.nested(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> DeResult<V::Value> {
        self.nested(visitor)
    }

    /// Unit variants by name (`status` cells into an enum).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> DeResult<V::Value> {
        let text = self.text("an enum variant")?.to_string();
        visitor
            .visit_enum(text.into_deserializer())
            .map_err(|e: de::value::Error| decode_err(format!("column `{}`: {e}", self.column())))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        visitor.visit_unit()
    }
}

/// A date or time value as ISO 8601 / RFC 3339 text.
fn iso_text(v: &Value) -> String {
    match v {
        Value::Date(d) => d.format("%Y-%m-%d").to_string(),
        Value::Timestamp(ts) => ts.format("%Y-%m-%dT%H:%M:%S%.f").to_string(),
        Value::TimestampTz(ts) => ts.to_rfc3339_opts(SecondsFormat::AutoSi, true),
        other => format!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Decoded values (nested cells of a known type)
// ---------------------------------------------------------------------------------------

struct ValueDe<'t> {
    value: Value,
    ty: &'t IcebergType,
}

impl<'de> de::Deserializer<'de> for ValueDe<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        match (self.value, self.ty) {
            (Value::Null, _) => visitor.visit_unit(),
            (Value::Boolean(b), _) => visitor.visit_bool(b),
            (Value::Int(i), _) => visitor.visit_i32(i),
            (Value::Long(i), _) => visitor.visit_i64(i),
            (Value::Float(f), _) => visitor.visit_f32(f),
            (Value::Double(f), _) => visitor.visit_f64(f),
            (Value::Decimal(d), _) => visitor.visit_string(d.to_string()),
            (v @ (Value::Date(_) | Value::Timestamp(_) | Value::TimestampTz(_)), _) => {
                visitor.visit_string(iso_text(&v))
            }
            (Value::String(s), _) => visitor.visit_string(s),
            // As a sequence of bytes: what `Vec<u8>` and `serde_json::Value` accept
            // (a `bytes` hint gets a byte buffer).
            (Value::Binary(b), _) => {
                visitor.visit_seq(de::value::SeqDeserializer::<_, DeError>::new(b.into_iter()))
            }
            (Value::List(items), IcebergType::List(elem)) => {
                visitor.visit_seq(de::value::SeqDeserializer::new(
                    items.into_iter().map(|value| ValueDe { value, ty: elem }),
                ))
            }
            (Value::Map(entries), IcebergType::Map(kt, vt)) => {
                visitor.visit_map(de::value::MapDeserializer::new(entries.into_iter().map(
                    |(k, v)| (ValueDe { value: k, ty: kt }, ValueDe { value: v, ty: vt }),
                )))
            }
            (Value::Struct(values), IcebergType::Struct(fields)) => {
                visitor.visit_map(de::value::MapDeserializer::new(
                    values
                        .into_iter()
                        .zip(fields)
                        .map(|(value, f)| (f.name.clone(), ValueDe { value, ty: &f.ty })),
                ))
            }
            (v, ty) => Err(decode_err(format!(
                "a {} value does not fit type {}",
                v.kind_name(),
                ty.iceberg_name()
            ))),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        if self.value == Value::Null {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        match &self.value {
            Value::Decimal(d) => visitor.visit_f64(d.to_string().parse().unwrap_or(f64::NAN)),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        match self.value {
            Value::Binary(b) => visitor.visit_byte_buf(b),
            value => ValueDe { value, ty: self.ty }.deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> DeResult<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> DeResult<V::Value> {
        match self.value {
            Value::String(s) => visitor
                .visit_enum(s.into_deserializer())
                .map_err(|e: de::value::Error| decode_err(e.to_string())),
            other => Err(decode_err(format!(
                "a {} value is not an enum variant name",
                other.kind_name()
            ))),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, DeError> for ValueDe<'_> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

// ---------------------------------------------------------------------------------------
// JSON text of unknown type (`json` columns)
// ---------------------------------------------------------------------------------------

struct JsonDe(Json);

impl<'de> de::Deserializer<'de> for JsonDe {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        match self.0 {
            Json::Null => visitor.visit_unit(),
            Json::Bool(b) => visitor.visit_bool(b),
            Json::Number(n) => {
                if let Ok(i) = n.parse::<i64>() {
                    visitor.visit_i64(i)
                } else if let Ok(u) = n.parse::<u64>() {
                    visitor.visit_u64(u)
                } else {
                    let f: f64 = n
                        .parse()
                        .map_err(|_| decode_err(format!("`{n}` is not a JSON number")))?;
                    visitor.visit_f64(f)
                }
            }
            Json::String(s) => visitor.visit_string(s),
            Json::Array(items) => visitor.visit_seq(de::value::SeqDeserializer::new(
                items.into_iter().map(JsonDe),
            )),
            Json::Object(entries) => visitor.visit_map(de::value::MapDeserializer::new(
                entries.into_iter().map(|(k, v)| (k, JsonDe(v))),
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        if self.0 == Json::Null {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// A number where a string is wanted keeps its exact text (decimals).
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        match self.0 {
            Json::Number(n) => visitor.visit_string(n),
            other => JsonDe(other).deserialize_any(visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_str(visitor)
    }

    /// Non-finite doubles are JSON strings (`"NaN"`, `"Infinity"`); some engines quote
    /// every float.
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        match self.0 {
            Json::String(s) => match s.trim().parse::<f64>() {
                Ok(f) if !s.trim().is_empty() => visitor.visit_f64(f),
                _ => Err(decode_err(format!(
                    "`{}` is not a number",
                    s.escape_debug()
                ))),
            },
            other => JsonDe(other).deserialize_any(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> DeResult<V::Value> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> DeResult<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> DeResult<V::Value> {
        match self.0 {
            Json::String(s) => visitor
                .visit_enum(s.into_deserializer())
                .map_err(|e: de::value::Error| decode_err(e.to_string())),
            other => Err(decode_err(format!(
                "JSON {} is not an enum variant name",
                other.kind()
            ))),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, DeError> for JsonDe {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}
