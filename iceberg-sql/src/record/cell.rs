//! Athena's text cells: parsing one cell into a [`Value`] of a known Iceberg type, and
//! the inverse.
//!
//! `GetQueryResults` returns every cell as text (a NULL is a datum without text, never
//! `""`). The spellings, per type, are those of Trino, Athena's engine
//! (<https://trino.io/docs/current/language/types.html>), and match what
//! `pyathena/converter.py` (<https://github.com/laughingman7743/PyAthena>) reads:
//!
//! | type | cell text |
//! |---|---|
//! | boolean | `true`, `false` |
//! | int, long | `-12` |
//! | float (`real`), double | `1.5`, `1.0E10`, `NaN`, `Infinity`, `-Infinity` |
//! | decimal(p, s) | `-12.50` (the column's scale; up to 38 digits) |
//! | date | `2026-01-01` |
//! | timestamp | `2026-01-01 12:00:00.123456` (0 to 9 fractional digits) |
//! | timestamptz | `2026-01-01 12:00:00.000 UTC`, `... America/New_York`, `... +02:00` |
//! | string | the text, byte for byte |
//! | binary (`varbinary`) | hex pairs separated by spaces: `00 ff 1a` |
//! | list, map, struct | `CAST(col AS JSON)`: JSON text; un-cast: `[1, 2]`, `{k=v}`, `{a=1, b=x}` |
//!
//! The un-cast (native) form of nested values does not quote strings, so a string
//! holding `, ` or `=` cannot be told apart from two values: it is read only when no
//! string is inside ([`NestedForm::Native`]); otherwise the error says to select
//! `CAST(col AS JSON)`.

use std::fmt::Write as _;

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, Utc};

use super::json::{self, Json};
use super::sql_type::in_path;
use crate::error::{Error, ErrorKind, Result};
use crate::types::IcebergType;
use crate::value::{Decimal, Value};

/// How a result column writes nested (list, map, struct) values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum NestedForm {
    /// JSON text, as `CAST(col AS JSON)` returns it (column type `json`). Also what a
    /// cell of unknown origin is assumed to hold.
    #[default]
    Json,
    /// Trino's own printing of an un-cast `array`/`map`/`row` column: `[1, 2]`,
    /// `{k=v}`, `{a=1, b=x}`. Strings are not quoted in it.
    Native,
}

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

/// Parses one non-NULL result cell into a value of type `ty`; nested values are read
/// as JSON ([`NestedForm::Json`]). See the module docs for each type's text.
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
    parse_cell_as(text, ty, NestedForm::Json)
}

/// [`parse_cell`], with the form nested values are written in.
///
/// ```
/// use iceberg_sql::record::{parse_cell_as, NestedForm};
/// use iceberg_sql::{IcebergType as T, Value};
/// let ty = T::map(T::Int, T::list(T::Double));
/// assert_eq!(parse_cell_as("{7=[1.5, -Infinity]}", &ty, NestedForm::Native).unwrap(),
///            Value::Map(vec![(Value::Int(7),
///                             Value::List(vec![Value::Double(1.5), Value::Double(f64::NEG_INFINITY)]))]));
/// // Strings are not quoted in the native form: refused, with the way out.
/// let e = parse_cell_as("[a, b]", &T::list(T::String), NestedForm::Native).unwrap_err();
/// assert!(e.hint().unwrap().contains("CAST(col AS JSON)"));
/// ```
pub fn parse_cell_as(text: &str, ty: &IcebergType, form: NestedForm) -> Result<Value> {
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
        // A zoned cell (a timestamptz column, or `AT TIME ZONE`) reads as its UTC wall
        // time, which is how Athena shows zone-less timestamps anyway.
        T::Timestamp => match parse_timestamp(text.trim()) {
            Some(ts) => Value::Timestamp(ts),
            None => Value::Timestamp(
                parse_timestamptz(text)
                    .map_err(|e| e.into_error(text, ty))?
                    .naive_utc(),
            ),
        },
        T::TimestampTz => Value::TimestampTz(
            parse_timestamptz(text)
                .map_err(|e| e.into_error(text, ty))?
                .with_timezone(&Utc),
        ),
        T::String => Value::String(text.to_string()),
        T::Binary => Value::Binary(parse_hex(text).ok_or_else(bad)?),
        T::List(_) | T::Map(..) | T::Struct(_) => match form {
            NestedForm::Json => {
                let json = json::parse(text).map_err(|why| {
                    Error::new(
                        ErrorKind::Decode,
                        format!("the {} cell is not valid JSON: {why}", ty.iceberg_name()),
                    )
                    .with_hint("read nested columns as `CAST(col AS JSON)`")
                })?;
                from_json(&json, ty)?
            }
            NestedForm::Native => parse_native(text, ty)?,
        },
    })
}

fn parse_float(text: &str) -> Option<f64> {
    let t = text.trim();
    // Rust accepts `NaN`, `inf`, `Infinity` (any case) and `1.0E10`; refuse empty text
    // explicitly.
    if t.is_empty() {
        return None;
    }
    t.parse::<f64>().ok()
}

/// `2026-01-01 12:00:00[.f{0,9}]` (or with `T`), or `2026-01-01 12:00`.
pub(crate) fn parse_timestamp(t: &str) -> Option<NaiveDateTime> {
    let t = t.replacen('T', " ", 1);
    NaiveDateTime::parse_from_str(&t, "%Y-%m-%d %H:%M:%S%.f")
        .or_else(|_| NaiveDateTime::parse_from_str(&t, "%Y-%m-%d %H:%M"))
        .ok()
}

/// Why a timestamptz cell could not be read.
pub(crate) enum ZoneError {
    /// Not `<timestamp> <zone>` at all.
    Malformed,
    /// A zone name this build cannot resolve.
    UnknownZone(String),
    /// A local time the zone skips or repeats (a DST change).
    #[cfg_attr(not(feature = "tz"), allow(dead_code))]
    NotUnique(String),
}

impl ZoneError {
    pub(crate) fn into_error(self, text: &str, ty: &IcebergType) -> Error {
        match self {
            ZoneError::Malformed => bad_cell(text, ty),
            ZoneError::UnknownZone(zone) => {
                let why = if cfg!(feature = "tz") {
                    "is not a time zone of the IANA database"
                } else {
                    "is a named time zone; resolving it needs the IANA database"
                };
                Error::new(
                    ErrorKind::Decode,
                    format!("timestamp `{}`: zone `{zone}` {why}", text.escape_debug()),
                )
                .with_hint(if cfg!(feature = "tz") {
                    "select the column as `col AT TIME ZONE 'UTC'`"
                } else {
                    "enable the `tz` feature of iceberg-sql, or select the column as `col AT TIME ZONE 'UTC'`"
                })
            }
            ZoneError::NotUnique(zone) => Error::new(
                ErrorKind::Decode,
                format!(
                    "timestamp `{}`: the local time is ambiguous or skipped in zone `{zone}` (a daylight-saving change), so the instant is unknown",
                    text.escape_debug()
                ),
            )
            .with_hint("select the column as `col AT TIME ZONE 'UTC'`"),
        }
    }
}

/// Zone names that are UTC under every version of the IANA database.
const UTC_NAMES: &[&str] = &[
    "UTC",
    "Z",
    "GMT",
    "UCT",
    "Zulu",
    "Universal",
    "Greenwich",
    "GMT0",
    "Etc/UTC",
    "Etc/GMT",
    "Etc/UCT",
    "Etc/Zulu",
    "Etc/Universal",
    "Etc/Greenwich",
    "Etc/GMT0",
    "Etc/GMT+0",
    "Etc/GMT-0",
];

/// A timestamptz cell: `<timestamp> UTC`, `<timestamp>Z`, `<timestamp> +02:00`, or
/// `<timestamp> <IANA zone>` (feature `tz`). Keeps the offset the text names.
pub(crate) fn parse_timestamptz(
    text: &str,
) -> std::result::Result<DateTime<FixedOffset>, ZoneError> {
    let t = text.trim();
    let utc = FixedOffset::east_opt(0).ok_or(ZoneError::Malformed)?;
    if let Some(local) = t.strip_suffix('Z').filter(|l| !l.ends_with(' ')) {
        if let Some(ts) = parse_timestamp(local) {
            return ts
                .and_local_timezone(utc)
                .single()
                .ok_or(ZoneError::Malformed);
        }
    }
    let (local, zone) = t.rsplit_once(' ').ok_or(ZoneError::Malformed)?;
    let local = parse_timestamp(local.trim_end()).ok_or(ZoneError::Malformed)?;
    let offset = if UTC_NAMES.iter().any(|n| n.eq_ignore_ascii_case(zone)) {
        utc
    } else if zone.starts_with(['+', '-']) {
        zone.parse::<FixedOffset>()
            .map_err(|_| ZoneError::Malformed)?
    } else {
        return named_zone(local, zone);
    };
    local
        .and_local_timezone(offset)
        .single()
        .ok_or(ZoneError::Malformed)
}

#[cfg(feature = "tz")]
fn named_zone(
    local: NaiveDateTime,
    zone: &str,
) -> std::result::Result<DateTime<FixedOffset>, ZoneError> {
    use chrono::{Offset as _, TimeZone as _};
    let tz: chrono_tz::Tz = zone
        .parse()
        .map_err(|_| ZoneError::UnknownZone(zone.to_string()))?;
    match tz.from_local_datetime(&local) {
        chrono::LocalResult::Single(dt) => {
            let offset = dt.offset().fix();
            Ok(dt.with_timezone(&offset))
        }
        _ => Err(ZoneError::NotUnique(zone.to_string())),
    }
}

#[cfg(not(feature = "tz"))]
fn named_zone(
    _local: NaiveDateTime,
    zone: &str,
) -> std::result::Result<DateTime<FixedOffset>, ZoneError> {
    Err(ZoneError::UnknownZone(zone.to_string()))
}

/// `00 ff 1a` (Athena's varbinary text) or `00ff1a`.
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

pub(crate) fn from_json(j: &Json, ty: &IcebergType) -> Result<Value> {
    use IcebergType as T;
    use Json as J;
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

// ---------------------------------------------------------------------------------------
// The native (un-cast) form of nested values
// ---------------------------------------------------------------------------------------

/// The path of the first string inside `ty` (`""` for `ty` itself), if any: the
/// native form cannot hold it unambiguously.
fn string_inside(ty: &IcebergType) -> Option<String> {
    use IcebergType as T;
    match ty {
        T::String => Some(String::new()),
        T::List(e) => string_inside(e).map(|p| format!("[]{p}")),
        T::Map(k, v) => string_inside(k)
            .map(|p| format!(".key{p}"))
            .or_else(|| string_inside(v).map(|p| format!(".value{p}"))),
        T::Struct(fields) => fields
            .iter()
            .find_map(|f| string_inside(&f.ty).map(|p| format!(".{}{p}", f.name))),
        _ => None,
    }
}

fn parse_native(text: &str, ty: &IcebergType) -> Result<Value> {
    if let Some(path) = string_inside(ty) {
        return Err(Error::new(
            ErrorKind::Decode,
            format!(
                "a {} cell in Athena's un-cast form cannot be read exactly: it does not quote the strings inside (at `{path}`), so `, ` or `=` in a string looks like a separator",
                ty.iceberg_name()
            ),
        )
        .with_hint("select the column as `CAST(col AS JSON)` (the SELECT builder does this for table columns)"));
    }
    let mut p = Native {
        s: text,
        i: 0,
        depth: 0,
    };
    let v = p.value(ty)?;
    p.ws();
    if p.i != text.len() {
        return Err(p.bad(ty));
    }
    Ok(v)
}

/// A reader for `[1, 2]`, `{k=v}`, `{a=1, b=2}` guided by the expected type. Leaves hold
/// no `,`, `=`, brackets or braces (strings are refused before), so a leaf ends at the
/// next of those.
struct Native<'a> {
    s: &'a str,
    i: usize,
    depth: usize,
}

impl Native<'_> {
    fn rest(&self) -> &str {
        &self.s[self.i..]
    }

    fn ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.i = self.s.len() - trimmed.len();
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        if self.rest().starts_with(c) {
            self.i += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn bad(&self, ty: &IcebergType) -> Error {
        let shown: String = self.s.chars().take(64).collect();
        Error::new(
            ErrorKind::Decode,
            format!(
                "`{}` is not a {} value in Athena's un-cast form (at byte {})",
                shown.escape_debug(),
                ty.iceberg_name(),
                self.i
            ),
        )
        .with_hint("select the column as `CAST(col AS JSON)`")
    }

    fn expect(&mut self, c: char, ty: &IcebergType) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.bad(ty))
        }
    }

    /// The text up to the next delimiter at this level, trimmed.
    fn leaf(&mut self, stops: &[char]) -> &str {
        self.ws();
        let start = self.i;
        let len = self.rest().find(stops).unwrap_or(self.rest().len());
        self.i += len;
        self.s[start..self.i].trim_end()
    }

    fn null_ahead(&self) -> bool {
        let r = self.rest().trim_start();
        r.strip_prefix("null").is_some_and(|after| {
            after
                .trim_start()
                .chars()
                .next()
                .is_none_or(|c| matches!(c, ',' | ']' | '}'))
        })
    }

    fn value(&mut self, ty: &IcebergType) -> Result<Value> {
        use IcebergType as T;
        self.ws();
        if self.null_ahead() {
            self.ws();
            self.i += 4;
            return Ok(Value::Null);
        }
        self.depth += 1;
        if self.depth > 128 {
            return Err(self.bad(ty));
        }
        let v = match ty {
            T::List(elem) => {
                self.expect('[', ty)?;
                let mut items = Vec::new();
                if !self.eat(']') {
                    loop {
                        let i = items.len();
                        items.push(
                            self.value(elem)
                                .map_err(|e| in_path(e, &format!("[{i}]")))?,
                        );
                        if self.eat(',') {
                            continue;
                        }
                        self.expect(']', ty)?;
                        break;
                    }
                }
                Value::List(items)
            }
            T::Map(kt, vt) => {
                self.expect('{', ty)?;
                let mut entries = Vec::new();
                if !self.eat('}') {
                    loop {
                        let key_text = self.leaf(&['=', ',', '}']).to_string();
                        let key = parse_cell(&key_text, kt).map_err(|e| in_path(e, ".key"))?;
                        self.expect('=', ty)?;
                        let value = self
                            .value(vt)
                            .map_err(|e| in_path(e, &format!("[{key_text}]")))?;
                        entries.push((key, value));
                        if self.eat(',') {
                            continue;
                        }
                        self.expect('}', ty)?;
                        break;
                    }
                }
                Value::Map(entries)
            }
            T::Struct(fields) => {
                self.expect('{', ty)?;
                let mut values = Vec::with_capacity(fields.len());
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        self.expect(',', ty)?;
                    }
                    // `{a=1, b=2}`; Trino writes `{1, 2}` for a row without field names.
                    self.ws();
                    let named = self.rest().get(..f.name.len() + 1).is_some_and(|h| {
                        h[..f.name.len()].eq_ignore_ascii_case(&f.name) && h.ends_with('=')
                    });
                    if named {
                        self.i += f.name.len() + 1;
                    }
                    values.push(
                        self.value(&f.ty)
                            .map_err(|e| in_path(e, &format!(".{}", f.name)))?,
                    );
                }
                self.expect('}', ty)?;
                Value::Struct(values)
            }
            leaf_ty => {
                let text = self.leaf(&[',', ']', '}']).to_string();
                parse_cell(&text, leaf_ty)?
            }
        };
        self.depth -= 1;
        Ok(v)
    }
}

// ---------------------------------------------------------------------------------------
// Formatting (the inverse, for tests and fakes)
// ---------------------------------------------------------------------------------------

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
