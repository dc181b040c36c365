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
use iceberg_sql_rules::type_name::TypeName;

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
        let name =
            iceberg_sql_rules::type_name::parse(text).map_err(|e| bad(text, &e.message, e.at))?;
        iceberg_type(text, &name, TRINO_BARE_DECIMAL)
    }
}

/// `decimal` without precision and scale: Trino's `decimal(38, 0)`.
const TRINO_BARE_DECIMAL: (u8, u8) = (MAX_DECIMAL_PRECISION, 0);

fn bad(text: &str, why: &str, at: usize) -> Error {
    Error::new(
        ErrorKind::InvalidType,
        format!("type `{}`: {why} (at byte {at})", text.escape_debug()),
    )
}

/// The Iceberg type a type name (Iceberg's, Hive's, Spark's or Trino's spelling) stands
/// for, `text` being the whole text for errors. A bare `decimal` is `bare_decimal`:
/// `decimal(38, 0)` on Trino, `decimal(10, 0)` in Hive DDL.
pub(crate) fn iceberg_type(
    text: &str,
    t: &TypeName,
    bare_decimal: (u8, u8),
) -> Result<IcebergType> {
    let word = t.name.as_str();
    let refuse = |why: String| bad(text, &why, 0);
    let elements = |n: usize| -> Result<Vec<IcebergType>> {
        if t.params.len() == n {
            t.params
                .iter()
                .map(|e| iceberg_type(text, e, bare_decimal))
                .collect()
        } else {
            Err(refuse(format!("`{word}` takes {n} element type(s)")))
        }
    };
    Ok(match word {
        "boolean" => IcebergType::Boolean,
        "int" | "integer" | "tinyint" | "smallint" => IcebergType::Int,
        "long" | "bigint" => IcebergType::Long,
        "float" | "real" => IcebergType::Float,
        "double" => IcebergType::Double,
        "date" => IcebergType::Date,
        "timestamptz" | "timestamp_ltz" => IcebergType::TimestampTz,
        "timestamp" if t.time_zone == Some(true) => IcebergType::TimestampTz,
        "timestamp" | "timestamp_ntz" => IcebergType::Timestamp,
        "string" | "varchar" | "char" => IcebergType::String,
        "binary" | "varbinary" => IcebergType::Binary,
        "decimal" | "numeric" => {
            let (p, s) = match t.numbers[..] {
                [] => (u64::from(bare_decimal.0), u64::from(bare_decimal.1)),
                [p] => (p, 0),
                [p, s] => (p, s),
                _ => return Err(refuse("a decimal takes a precision and a scale".into())),
            };
            let p = u8::try_from(p)
                .ok()
                .filter(|p| (1..=MAX_DECIMAL_PRECISION).contains(p))
                .ok_or_else(|| bad(text, "decimal precision must be 1 to 38", 0))?;
            let s = u8::try_from(s)
                .ok()
                .filter(|s| *s <= p)
                .ok_or_else(|| bad(text, "decimal scale must be at most the precision", 0))?;
            IcebergType::decimal(p, s)
        }
        "list" | "array" => IcebergType::list(elements(1)?.remove(0)),
        "map" => {
            let mut kv = elements(2)?;
            let v = kv.remove(1);
            IcebergType::map(kv.remove(0), v)
        }
        "struct" | "row" => IcebergType::Struct(
            t.fields
                .iter()
                .map(|f| match &f.name {
                    Some(n) => Ok(StructField::new(
                        n.clone(),
                        iceberg_type(text, &f.ty, bare_decimal)?,
                    )),
                    None => Err(refuse(
                        "a row field without a name has no Iceberg type".into(),
                    )),
                })
                .collect::<Result<_>>()?,
        ),
        other => return Err(refuse(format!("`{other}` is not an Iceberg type"))),
    })
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
