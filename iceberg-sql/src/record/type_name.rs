//! Type names as text: Iceberg's own (`list<string>`, `struct<lat: double>`), and the
//! names Athena puts in a result's column metadata (`varchar`, `decimal` with a separate
//! precision and scale, `timestamp(6) with time zone`, `array(varchar)`,
//! `row(lat double)`).
//!
//! Athena's `ColumnInfo.Type` is Trino's type name
//! (<https://docs.aws.amazon.com/athena/latest/APIReference/API_ColumnInfo.html>,
//! <https://trino.io/docs/current/language/types.html>); some result sources give the
//! base name only (`array`, `decimal`), others the full signature. Both are read here.

use std::str::FromStr;

use super::cell::NestedForm;
use crate::error::{Error, ErrorKind, Result};
use crate::types::{IcebergType, StructField, MAX_DECIMAL_PRECISION};

/// Parses a type name: Iceberg's (`long`, `timestamptz`, `decimal(10,2)`,
/// `list<string>`, `map<string, long>`, `struct<lat: double, tag: string>`) or Trino's
/// (`bigint`, `real`, `varchar(20)`, `varbinary`, `timestamp(6) with time zone`,
/// `array(varchar)`, `map(varchar, bigint)`, `row(lat double, tag varchar)`).
///
/// ```
/// use iceberg_sql::IcebergType as T;
/// let t: T = "map<string, list<decimal(38, 9)>>".parse()?;
/// assert_eq!(t, T::map(T::String, T::list(T::decimal(38, 9))));
/// let t: T = "row(at timestamp(3) with time zone, n integer)".parse()?;
/// assert_eq!(t, T::structure([("at", T::TimestampTz), ("n", T::Int)]));
/// assert!("json".parse::<T>().is_err());
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
impl FromStr for IcebergType {
    type Err = Error;

    fn from_str(text: &str) -> Result<IcebergType> {
        let mut p = TypeParser {
            s: text,
            i: 0,
            depth: 0,
        };
        let ty = p.ty()?;
        p.ws();
        if p.i != text.len() {
            return Err(p.bad("unexpected text after the type"));
        }
        Ok(ty)
    }
}

/// The Iceberg type of a result column from Athena's metadata: `type_name`
/// (`ColumnInfo.Type`) and, for a bare `decimal`, `ColumnInfo.Precision`/`Scale`.
/// `None` for types that are not Iceberg types (`json`, `time`, `uuid`, intervals) and
/// for nested types named without their element types (`array`): a cell of those is
/// read as its text.
pub(crate) fn athena_column_type(
    type_name: &str,
    precision: Option<u32>,
    scale: Option<u32>,
) -> Option<IcebergType> {
    let base = base_name(type_name);
    if base == "decimal" && !type_name.contains('(') {
        let p = precision
            .and_then(|p| u8::try_from(p).ok())
            .filter(|p| (1..=MAX_DECIMAL_PRECISION).contains(p))
            .unwrap_or(MAX_DECIMAL_PRECISION);
        let s = scale.and_then(|s| u8::try_from(s).ok()).unwrap_or(0).min(p);
        return Some(IcebergType::decimal(p, s));
    }
    type_name.parse().ok()
}

/// How a column of this type writes nested values: un-cast `array`/`map`/`row` columns
/// in Trino's native form, everything else (notably `json`) as JSON.
pub(crate) fn nested_form(type_name: &str) -> NestedForm {
    match base_name(type_name).as_str() {
        "array" | "map" | "row" => NestedForm::Native,
        _ => NestedForm::Json,
    }
}

fn base_name(type_name: &str) -> String {
    let end = type_name.find(['(', '<']).unwrap_or(type_name.len());
    type_name[..end].trim().to_ascii_lowercase()
}

struct TypeParser<'a> {
    s: &'a str,
    i: usize,
    depth: usize,
}

impl TypeParser<'_> {
    fn bad(&self, why: &str) -> Error {
        Error::new(
            ErrorKind::InvalidType,
            format!(
                "type `{}`: {why} (at byte {})",
                self.s.escape_debug(),
                self.i
            ),
        )
    }

    fn rest(&self) -> &str {
        &self.s[self.i..]
    }

    fn ws(&mut self) {
        let t = self.rest().trim_start();
        self.i = self.s.len() - t.len();
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        if self.rest().starts_with(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.bad(&format!("expected `{c}`")))
        }
    }

    fn word(&mut self) -> String {
        self.ws();
        let len = self
            .rest()
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(self.rest().len());
        let w = self.rest()[..len].to_ascii_lowercase();
        self.i += len;
        w
    }

    /// A field name: a word, or a double-quoted name (`""` is a quote).
    fn field_name(&mut self) -> Result<String> {
        self.ws();
        if !self.rest().starts_with('"') {
            let w = self.word();
            return if w.is_empty() {
                Err(self.bad("expected a field name"))
            } else {
                Ok(w)
            };
        }
        self.i += 1;
        let mut name = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                return Err(self.bad("unterminated quoted field name"));
            };
            self.i += c.len_utf8();
            if c == '"' {
                if self.rest().starts_with('"') {
                    self.i += 1;
                    name.push('"');
                } else {
                    return Ok(name);
                }
            } else {
                name.push(c);
            }
        }
    }

    fn number(&mut self) -> Result<u32> {
        self.ws();
        let len = self
            .rest()
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(self.rest().len());
        let n = self.rest()[..len]
            .parse()
            .map_err(|_| self.bad("expected a number"))?;
        self.i += len;
        Ok(n)
    }

    /// `(n)` after `varchar`, `timestamp`, ...: read and ignored.
    fn skip_length(&mut self) -> Result<()> {
        if self.eat('(') {
            self.number()?;
            self.expect(')')?;
        }
        Ok(())
    }

    /// `with time zone` after a timestamp.
    fn with_time_zone(&mut self) -> bool {
        let save = self.i;
        if self.word() == "with" && self.word() == "time" && self.word() == "zone" {
            true
        } else {
            self.i = save;
            false
        }
    }

    fn open(&mut self) -> Result<char> {
        if self.eat('<') {
            Ok('>')
        } else if self.eat('(') {
            Ok(')')
        } else {
            Err(self.bad("expected `<` or `(`"))
        }
    }

    fn ty(&mut self) -> Result<IcebergType> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(self.bad("nested too deeply"));
        }
        let name = self.word();
        let ty = match name.as_str() {
            "boolean" => IcebergType::Boolean,
            "int" | "integer" | "tinyint" | "smallint" => IcebergType::Int,
            "long" | "bigint" => IcebergType::Long,
            "float" | "real" => IcebergType::Float,
            "double" => IcebergType::Double,
            "date" => IcebergType::Date,
            "timestamptz" => IcebergType::TimestampTz,
            "timestamp" => {
                self.skip_length()?;
                if self.with_time_zone() {
                    IcebergType::TimestampTz
                } else {
                    IcebergType::Timestamp
                }
            }
            "string" => IcebergType::String,
            "varchar" | "char" => {
                self.skip_length()?;
                IcebergType::String
            }
            "binary" | "varbinary" => IcebergType::Binary,
            "decimal" => {
                let (p, s) = if self.eat('(') {
                    let p = self.number()?;
                    let s = if self.eat(',') { self.number()? } else { 0 };
                    self.expect(')')?;
                    (p, s)
                } else {
                    // Trino: `decimal` alone is decimal(38, 0).
                    (u32::from(MAX_DECIMAL_PRECISION), 0)
                };
                let p = u8::try_from(p)
                    .ok()
                    .filter(|p| (1..=MAX_DECIMAL_PRECISION).contains(p))
                    .ok_or_else(|| self.bad("decimal precision must be 1 to 38"))?;
                let s = u8::try_from(s)
                    .ok()
                    .filter(|s| *s <= p)
                    .ok_or_else(|| self.bad("decimal scale must be at most the precision"))?;
                IcebergType::decimal(p, s)
            }
            "list" | "array" => {
                let close = self.open()?;
                let e = self.ty()?;
                self.expect(close)?;
                IcebergType::list(e)
            }
            "map" => {
                let close = self.open()?;
                let k = self.ty()?;
                self.expect(',')?;
                let v = self.ty()?;
                self.expect(close)?;
                IcebergType::map(k, v)
            }
            "struct" | "row" => {
                let close = self.open()?;
                let mut fields = Vec::new();
                if !self.eat(close) {
                    loop {
                        let n = self.field_name()?;
                        self.eat(':');
                        let t = self.ty()?;
                        fields.push(StructField::new(n, t));
                        if self.eat(',') {
                            continue;
                        }
                        self.expect(close)?;
                        break;
                    }
                }
                IcebergType::Struct(fields)
            }
            "" => return Err(self.bad("expected a type name")),
            other => {
                return Err(self.bad(&format!("`{other}` is not an Iceberg type")));
            }
        };
        self.depth -= 1;
        Ok(ty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use IcebergType as T;

    #[test]
    fn athena_names() {
        for (name, want) in [
            ("varchar", Some(T::String)),
            ("varchar(20)", Some(T::String)),
            ("integer", Some(T::Int)),
            ("bigint", Some(T::Long)),
            ("real", Some(T::Float)),
            ("varbinary", Some(T::Binary)),
            ("timestamp", Some(T::Timestamp)),
            ("timestamp(3)", Some(T::Timestamp)),
            ("timestamp with time zone", Some(T::TimestampTz)),
            ("timestamp(6) with time zone", Some(T::TimestampTz)),
            ("decimal(38,9)", Some(T::decimal(38, 9))),
            ("array(varchar)", Some(T::list(T::String))),
            (
                "map(varchar, array(bigint))",
                Some(T::map(T::String, T::list(T::Long))),
            ),
            (
                r#"row("lat" double, tag varchar)"#,
                Some(T::structure([("lat", T::Double), ("tag", T::String)])),
            ),
            ("array", None),
            ("json", None),
            ("time", None),
            ("uuid", None),
        ] {
            assert_eq!(athena_column_type(name, None, None), want, "{name}");
        }
        assert_eq!(
            athena_column_type("decimal", Some(10), Some(2)),
            Some(T::decimal(10, 2))
        );
        assert_eq!(
            athena_column_type("decimal", None, None),
            Some(T::decimal(38, 0))
        );
        assert_eq!(nested_form("array(varchar)"), NestedForm::Native);
        assert_eq!(nested_form("row"), NestedForm::Native);
        assert_eq!(nested_form("json"), NestedForm::Json);
        assert_eq!(nested_form(""), NestedForm::Json);
    }

    #[test]
    fn iceberg_names_round_trip() {
        let ty = T::structure([
            ("a", T::list(T::map(T::Int, T::decimal(38, 38)))),
            ("b", T::TimestampTz),
            ("c", T::structure([("d", T::Binary)])),
        ]);
        assert_eq!(ty.iceberg_name().parse::<T>().unwrap(), ty);
        assert!("decimal(39,0)".parse::<T>().is_err());
        assert!("decimal(5,6)".parse::<T>().is_err());
        assert!("list<int".parse::<T>().is_err());
        assert!("int extra".parse::<T>().is_err());
    }
}
