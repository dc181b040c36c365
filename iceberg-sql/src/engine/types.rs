//! [`EngineType`]: a value's type as Athena's engine (Trino) sees it, precision included,
//! and how an Iceberg or Hive table column appears to it.

use std::fmt;

use crate::error::{Error, ErrorKind, Result};
use crate::types::IcebergType;
pub(crate) use crate::types::MAX_DECIMAL_PRECISION;
use iceberg_sql_rules::type_name::TypeName;

/// Largest fractional-second precision of `time` and `timestamp`, with or without time
/// zone (`TimestampType.MAX_PRECISION`).
pub(crate) const MAX_TIME_PRECISION: u8 = 12;
/// Precision of `timestamp`, `time` and `current_timestamp` written without one
/// (`TimestampType.DEFAULT_PRECISION`).
pub(crate) const DEFAULT_TIME_PRECISION: u8 = 3;
/// Longest bounded `varchar(n)` (`VarcharType.MAX_LENGTH`).
pub(crate) const MAX_VARCHAR_LENGTH: u32 = i32::MAX as u32 - 1;
/// Longest `char(n)` (`CharType.MAX_LENGTH`).
pub(crate) const MAX_CHAR_LENGTH: u32 = 65_536;
/// Precision Iceberg timestamps have in Trino's Iceberg connector (`TypeConverter`:
/// Iceberg `timestamp` is `timestamp(6)`, `timestamptz` is `timestamp(6) with time zone`).
pub(crate) const ICEBERG_TIMESTAMP_PRECISION: u8 = 6;
/// Precision of timestamps in Athena's Hive tables, CTAS and UNLOAD outputs: Athena runs
/// its Hive connector with `hive.timestamp-precision = MILLISECONDS` (AWS: "Timestamp
/// precision ... Hive tables", https://docs.aws.amazon.com/athena/latest/ug/engine-versions-reference-0003.html).
pub(crate) const HIVE_TIMESTAMP_PRECISION: u8 = 3;

/// A type of Trino, the engine of Athena engine v3, with its parameters.
///
/// The variants are Trino's standard types that the statements we build can produce or
/// read (`io.trino.spi.type.*` in trinodb/trino). `Display` prints Trino's own display
/// name (`Type.getDisplayName()`), the spelling its error messages use:
/// `timestamp(6) with time zone`, `decimal(10,2)`, `map(varchar, bigint)`,
/// `row(a integer, b varchar)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum EngineType {
    /// The type of the `NULL` literal (`UnknownType`): coerces to every type.
    Unknown,
    /// `boolean`
    Boolean,
    /// `tinyint` (8-bit)
    Tinyint,
    /// `smallint` (16-bit)
    Smallint,
    /// `integer` (32-bit)
    Integer,
    /// `bigint` (64-bit)
    Bigint,
    /// `real` (32-bit float)
    Real,
    /// `double` (64-bit float)
    Double,
    /// `decimal(precision, scale)`, precision 1..=38, scale 0..=precision.
    Decimal {
        /// Total digits.
        precision: u8,
        /// Digits after the point.
        scale: u8,
    },
    /// `varchar` (`None`: unbounded) or `varchar(n)`. A string literal `'abc'` is
    /// `varchar(3)`.
    Varchar(Option<u32>),
    /// `char(n)`
    Char(u32),
    /// `varbinary`
    Varbinary,
    /// `json`
    Json,
    /// `date`
    Date,
    /// `time(p)`
    Time(u8),
    /// `time(p) with time zone`
    TimeWithTimeZone(u8),
    /// `timestamp(p)`
    Timestamp(u8),
    /// `timestamp(p) with time zone`
    TimestampWithTimeZone(u8),
    /// `interval year to month` (`INTERVAL '1' MONTH`)
    IntervalYearToMonth,
    /// `interval day to second` (`INTERVAL '7' DAY`)
    IntervalDayToSecond,
    /// `array(T)`
    Array(Box<EngineType>),
    /// `map(K, V)`
    Map(Box<EngineType>, Box<EngineType>),
    /// `row(name T, ...)`; fields may be anonymous (`ROW(1, 'a')` is `row(integer, varchar(1))`).
    Row(Vec<RowField>),
}

/// One field of a [`EngineType::Row`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct RowField {
    /// The field name (Trino folds it to lower case), or `None` for an anonymous field.
    pub name: Option<String>,
    /// The field type.
    pub ty: EngineType,
}

impl RowField {
    /// A named field.
    pub fn named(name: impl Into<String>, ty: EngineType) -> Self {
        RowField {
            name: Some(name.into()),
            ty,
        }
    }

    /// An anonymous field.
    pub fn anonymous(ty: EngineType) -> Self {
        RowField { name: None, ty }
    }
}

/// Which connector a table column is read and written through. The same Iceberg type
/// is a different engine type in each (timestamps have another precision).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum TableFormat {
    /// An Iceberg table (Athena's Iceberg connector).
    Iceberg,
    /// A Hive table: the target of a Hive CTAS, and the files UNLOAD writes.
    Hive,
}

impl EngineType {
    /// `varchar` (unbounded).
    pub const VARCHAR: EngineType = EngineType::Varchar(None);

    /// `decimal(precision, scale)`.
    pub fn decimal(precision: u8, scale: u8) -> EngineType {
        EngineType::Decimal { precision, scale }
    }

    /// `varchar(n)`.
    pub fn varchar(n: u32) -> EngineType {
        EngineType::Varchar(Some(n))
    }

    /// `array(element)`.
    pub fn array(element: EngineType) -> EngineType {
        EngineType::Array(Box::new(element))
    }

    /// `map(key, value)`.
    pub fn map(key: EngineType, value: EngineType) -> EngineType {
        EngineType::Map(Box::new(key), Box::new(value))
    }

    /// `row(...)` of named fields.
    pub fn row<N: Into<String>>(fields: impl IntoIterator<Item = (N, EngineType)>) -> EngineType {
        EngineType::Row(
            fields
                .into_iter()
                .map(|(n, t)| RowField::named(n, t))
                .collect(),
        )
    }

    /// Trino's base name of the type (`StandardTypes`): `timestamp with time zone` for
    /// `timestamp(6) with time zone`, `decimal` for `decimal(10,2)`. Coercion rules
    /// (`TypeCoercion.coerceTypeBase`) are written in terms of it.
    pub fn base_name(&self) -> &'static str {
        match self {
            EngineType::Unknown => "unknown",
            EngineType::Boolean => "boolean",
            EngineType::Tinyint => "tinyint",
            EngineType::Smallint => "smallint",
            EngineType::Integer => "integer",
            EngineType::Bigint => "bigint",
            EngineType::Real => "real",
            EngineType::Double => "double",
            EngineType::Decimal { .. } => "decimal",
            EngineType::Varchar(_) => "varchar",
            EngineType::Char(_) => "char",
            EngineType::Varbinary => "varbinary",
            EngineType::Json => "json",
            EngineType::Date => "date",
            EngineType::Time(_) => "time",
            EngineType::TimeWithTimeZone(_) => "time with time zone",
            EngineType::Timestamp(_) => "timestamp",
            EngineType::TimestampWithTimeZone(_) => "timestamp with time zone",
            EngineType::IntervalYearToMonth => "interval year to month",
            EngineType::IntervalDayToSecond => "interval day to second",
            EngineType::Array(_) => "array",
            EngineType::Map(..) => "map",
            EngineType::Row(_) => "row",
        }
    }

    /// True for the exact and approximate numeric types.
    pub fn is_numeric(&self) -> bool {
        matches!(
            self,
            EngineType::Tinyint
                | EngineType::Smallint
                | EngineType::Integer
                | EngineType::Bigint
                | EngineType::Real
                | EngineType::Double
                | EngineType::Decimal { .. }
        )
    }

    /// True for `tinyint`, `smallint`, `integer` and `bigint`.
    pub fn is_integral(&self) -> bool {
        matches!(
            self,
            EngineType::Tinyint | EngineType::Smallint | EngineType::Integer | EngineType::Bigint
        )
    }

    /// True for `array`, `map` and `row`.
    pub fn is_structural(&self) -> bool {
        matches!(
            self,
            EngineType::Array(_) | EngineType::Map(..) | EngineType::Row(_)
        )
    }

    /// True when `pred` holds for this type or any type nested in it.
    pub fn any(&self, pred: &dyn Fn(&EngineType) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        match self {
            EngineType::Array(e) => e.any(pred),
            EngineType::Map(k, v) => k.any(pred) || v.any(pred),
            EngineType::Row(fields) => fields.iter().any(|f| f.ty.any(pred)),
            _ => false,
        }
    }

    /// The engine type of a table column of Iceberg type `ty`, read through `format`'s
    /// connector.
    ///
    /// Iceberg tables (Trino's `TypeConverter.toTrinoType`): `int` is `integer`, `long`
    /// `bigint`, `float` `real`, `string` `varchar`, `binary` `varbinary`, `timestamp`
    /// `timestamp(6)`, `timestamptz` `timestamp(6) with time zone`, `list` `array`,
    /// `struct` `row`. Hive tables have the same types with millisecond timestamps
    /// (`timestamp(3)`), and no `timestamp with time zone` at all (Trino's
    /// `HiveTypeTranslator`: "Unsupported Hive type").
    pub fn of_column(ty: &IcebergType, format: TableFormat) -> Result<EngineType> {
        use IcebergType as I;
        Ok(match ty {
            I::Boolean => EngineType::Boolean,
            I::Int => EngineType::Integer,
            I::Long => EngineType::Bigint,
            I::Float => EngineType::Real,
            I::Double => EngineType::Double,
            I::Decimal { precision, scale } => EngineType::decimal(*precision, *scale),
            I::Date => EngineType::Date,
            I::Timestamp => EngineType::Timestamp(match format {
                TableFormat::Iceberg => ICEBERG_TIMESTAMP_PRECISION,
                TableFormat::Hive => HIVE_TIMESTAMP_PRECISION,
            }),
            I::TimestampTz => match format {
                TableFormat::Iceberg => {
                    EngineType::TimestampWithTimeZone(ICEBERG_TIMESTAMP_PRECISION)
                }
                TableFormat::Hive => {
                    return Err(Error::new(
                        ErrorKind::InvalidType,
                        "a Hive table has no `timestamp with time zone` type",
                    )
                    .with_hint(
                        "store the instant as `timestamp` in UTC: CAST(x AT TIME ZONE 'UTC' AS timestamp(3))",
                    ))
                }
            },
            I::String => EngineType::VARCHAR,
            I::Binary => EngineType::Varbinary,
            I::List(e) => EngineType::array(EngineType::of_column(e, format)?),
            I::Map(k, v) => EngineType::map(
                EngineType::of_column(k, format)?,
                EngineType::of_column(v, format)?,
            ),
            I::Struct(fields) => EngineType::Row(
                fields
                    .iter()
                    .map(|f| Ok(RowField::named(&f.name, EngineType::of_column(&f.ty, format)?)))
                    .collect::<Result<_>>()?,
            ),
        })
    }

    /// Parses a Trino type name as Trino prints or accepts it: `integer` (or `int`),
    /// `decimal(10,2)`, `varchar`, `varchar(5)`, `timestamp(6) with time zone`,
    /// `timestamp` (= `timestamp(3)`), `array(varchar)`, `map(varchar, bigint)`,
    /// `row(a integer, "b c" varchar)`, `row(integer, varchar)`. Case-insensitive.
    pub fn parse(text: &str) -> Result<EngineType> {
        let bad = |what: &str, at: usize| {
            Error::new(
                ErrorKind::InvalidType,
                format!(
                    "`{}` is not a Trino type: {what} at byte {at}",
                    text.escape_debug()
                ),
            )
        };
        let name = iceberg_sql_rules::type_name::parse(text).map_err(|e| bad(&e.message, e.at))?;
        EngineType::of_name(&name).map_err(|what| bad(&what, 0))
    }

    /// The Trino type a type name in Trino's spelling stands for.
    fn of_name(t: &TypeName) -> std::result::Result<EngineType, String> {
        let word = t.name.as_str();
        if t.angle_brackets {
            return Err(format!("Trino writes `{word}(..)`, not `{word}<..>`"));
        }
        let small = |n: u64| u8::try_from(n).map_err(|_| format!("{n} is out of range"));
        let length = |n: u64| u32::try_from(n).map_err(|_| format!("{n} is out of range"));
        let elements = |n: usize| {
            if t.params.len() == n && t.numbers.is_empty() {
                t.params
                    .iter()
                    .map(EngineType::of_name)
                    .collect::<std::result::Result<Vec<_>, _>>()
            } else {
                Err(format!("`{word}` takes {n} element type(s)"))
            }
        };
        let zone = t.time_zone.unwrap_or(false);
        if t.time_zone.is_some() && !matches!(word, "time" | "timestamp") {
            return Err(format!("`{word}` has no time zone"));
        }
        if !matches!(word, "array" | "map" | "row") {
            let most = match word {
                "decimal" => 2,
                "varchar" | "char" | "time" | "timestamp" => 1,
                _ => 0,
            };
            if t.numbers.len() > most || !t.params.is_empty() || !t.fields.is_empty() {
                return Err(format!("unexpected parameters of `{word}`"));
            }
        }
        Ok(match word {
            "unknown" => EngineType::Unknown,
            "boolean" => EngineType::Boolean,
            "tinyint" => EngineType::Tinyint,
            "smallint" => EngineType::Smallint,
            "integer" | "int" => EngineType::Integer,
            "bigint" => EngineType::Bigint,
            "real" => EngineType::Real,
            "double" | "double precision" => EngineType::Double,
            "decimal" => match t.numbers[..] {
                [] => EngineType::decimal(MAX_DECIMAL_PRECISION, 0),
                [p] => EngineType::decimal(small(p)?, 0),
                [p, s, ..] => EngineType::decimal(small(p)?, small(s)?),
            },
            "varchar" => match t.numbers.first() {
                Some(n) => EngineType::varchar(length(*n)?),
                None => EngineType::VARCHAR,
            },
            "char" => EngineType::Char(t.numbers.first().map_or(Ok(1), |n| length(*n))?),
            "varbinary" => EngineType::Varbinary,
            "json" => EngineType::Json,
            "date" => EngineType::Date,
            "time" | "timestamp" => {
                let p = t
                    .numbers
                    .first()
                    .map_or(Ok(DEFAULT_TIME_PRECISION), |n| small(*n))?;
                match (word, zone) {
                    ("time", false) => EngineType::Time(p),
                    ("time", true) => EngineType::TimeWithTimeZone(p),
                    (_, false) => EngineType::Timestamp(p),
                    (_, true) => EngineType::TimestampWithTimeZone(p),
                }
            }
            "interval year to month" => EngineType::IntervalYearToMonth,
            "interval day to second" => EngineType::IntervalDayToSecond,
            "array" => EngineType::array(elements(1)?.remove(0)),
            "map" => {
                let mut kv = elements(2)?;
                let v = kv.remove(1);
                EngineType::map(kv.remove(0), v)
            }
            "row" if t.fields.is_empty() => return Err("row() needs at least one field".into()),
            "row" => EngineType::Row(
                t.fields
                    .iter()
                    .map(|f| {
                        let ty = EngineType::of_name(&f.ty)?;
                        Ok(match &f.name {
                            Some(n) => RowField::named(n, ty),
                            None => RowField::anonymous(ty),
                        })
                    })
                    .collect::<std::result::Result<_, String>>()?,
            ),
            _ => return Err("unknown type name".into()),
        })
    }

    /// Checks the parameters: decimal precision 1..=38 and scale <= precision, time
    /// precisions <= 12, `varchar(n)` and `char(n)` lengths, map keys comparable
    /// (Trino: "key type must be comparable").
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::new(ErrorKind::InvalidType, m));
        match self {
            EngineType::Decimal { precision, scale } => {
                if *precision == 0 || *precision > MAX_DECIMAL_PRECISION {
                    return bad(format!(
                        "{self}: DECIMAL precision must be in range [1, {MAX_DECIMAL_PRECISION}]"
                    ));
                }
                if scale > precision {
                    return bad(format!(
                        "{self}: DECIMAL scale must be in range [0, precision]"
                    ));
                }
                Ok(())
            }
            EngineType::Time(p)
            | EngineType::TimeWithTimeZone(p)
            | EngineType::Timestamp(p)
            | EngineType::TimestampWithTimeZone(p)
                if *p > MAX_TIME_PRECISION =>
            {
                bad(format!(
                    "{self}: precision must be in range [0, {MAX_TIME_PRECISION}]"
                ))
            }
            EngineType::Varchar(Some(n)) if *n > MAX_VARCHAR_LENGTH => {
                bad(format!("{self}: varchar length is too large"))
            }
            EngineType::Char(n) if *n > MAX_CHAR_LENGTH => bad(format!(
                "{self}: CHAR length must be in range [0, {MAX_CHAR_LENGTH}]"
            )),
            EngineType::Array(e) => e.check(),
            EngineType::Map(k, v) => {
                if !super::coercion::is_comparable(k) {
                    return bad(format!("{self}: map key type must be comparable, got {k}"));
                }
                k.check()?;
                v.check()
            }
            EngineType::Row(fields) => {
                if fields.is_empty() {
                    return bad("row() needs at least one field".to_string());
                }
                fields.iter().try_for_each(|f| f.ty.check())
            }
            _ => Ok(()),
        }
    }
}

impl fmt::Display for EngineType {
    /// Trino's display name (`Type.getDisplayName()`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineType::Decimal { precision, scale } => write!(f, "decimal({precision},{scale})"),
            EngineType::Varchar(None) => f.write_str("varchar"),
            EngineType::Varchar(Some(n)) => write!(f, "varchar({n})"),
            EngineType::Char(n) => write!(f, "char({n})"),
            EngineType::Time(p) => write!(f, "time({p})"),
            EngineType::TimeWithTimeZone(p) => write!(f, "time({p}) with time zone"),
            EngineType::Timestamp(p) => write!(f, "timestamp({p})"),
            EngineType::TimestampWithTimeZone(p) => write!(f, "timestamp({p}) with time zone"),
            EngineType::Array(e) => write!(f, "array({e})"),
            EngineType::Map(k, v) => write!(f, "map({k}, {v})"),
            EngineType::Row(fields) => {
                f.write_str("row(")?;
                for (i, field) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match &field.name {
                        Some(n) => write!(f, "{n} {}", field.ty)?,
                        None => write!(f, "{}", field.ty)?,
                    }
                }
                f.write_str(")")
            }
            other => f.write_str(other.base_name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_matches_trino() {
        let t = EngineType::row([
            ("a", EngineType::Integer),
            ("ts", EngineType::TimestampWithTimeZone(6)),
            (
                "m",
                EngineType::map(
                    EngineType::VARCHAR,
                    EngineType::array(EngineType::decimal(10, 2)),
                ),
            ),
        ]);
        assert_eq!(
            t.to_string(),
            "row(a integer, ts timestamp(6) with time zone, m map(varchar, array(decimal(10,2))))"
        );
        assert_eq!(EngineType::varchar(5).to_string(), "varchar(5)");
        assert_eq!(
            EngineType::IntervalDayToSecond.to_string(),
            "interval day to second"
        );
        assert_eq!(
            EngineType::Row(vec![
                RowField::anonymous(EngineType::Integer),
                RowField::anonymous(EngineType::varchar(1))
            ])
            .to_string(),
            "row(integer, varchar(1))"
        );
    }

    #[test]
    fn parse_round_trips_display() {
        for text in [
            "unknown",
            "boolean",
            "tinyint",
            "smallint",
            "integer",
            "bigint",
            "real",
            "double",
            "decimal(38,0)",
            "decimal(2,1)",
            "varchar",
            "varchar(19)",
            "char(3)",
            "varbinary",
            "json",
            "date",
            "time(3)",
            "time(6) with time zone",
            "timestamp(0)",
            "timestamp(6)",
            "timestamp(3) with time zone",
            "interval year to month",
            "interval day to second",
            "array(array(varchar))",
            "map(varchar, map(integer, bigint))",
            "row(a integer, b row(c timestamp(6) with time zone, d double))",
            "row(integer, varchar(1))",
            "array(row(contains_null boolean, contains_nan boolean, lower_bound varchar, upper_bound varchar))",
        ] {
            let t = EngineType::parse(text).unwrap();
            assert_eq!(t.to_string(), text);
        }
    }

    #[test]
    fn parse_accepts_trino_spellings() {
        let p = |s| EngineType::parse(s).unwrap();
        assert_eq!(p("INT"), EngineType::Integer);
        assert_eq!(p("timestamp"), EngineType::Timestamp(3));
        assert_eq!(
            p("TIMESTAMP WITH TIME ZONE"),
            EngineType::TimestampWithTimeZone(3)
        );
        assert_eq!(
            p("timestamp(6) without time zone"),
            EngineType::Timestamp(6)
        );
        assert_eq!(p("decimal"), EngineType::decimal(38, 0));
        assert_eq!(p("decimal(5)"), EngineType::decimal(5, 0));
        assert_eq!(p("double precision"), EngineType::Double);
        assert_eq!(
            p("row(\"a b\" integer, \"x\"\"y\" varchar)"),
            EngineType::row([("a b", EngineType::Integer), ("x\"y", EngineType::VARCHAR)])
        );
        assert_eq!(
            p("row(ts timestamp with time zone)"),
            EngineType::row([("ts", EngineType::TimestampWithTimeZone(3))])
        );
        assert_eq!(
            p("row(timestamp(6) with time zone, double)"),
            EngineType::Row(vec![
                RowField::anonymous(EngineType::TimestampWithTimeZone(6)),
                RowField::anonymous(EngineType::Double),
            ])
        );
        for bad in [
            "",
            "integr",
            "decimal(10,",
            "map(varchar)",
            "array(int) x",
            "row()",
        ] {
            assert!(EngineType::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn iceberg_columns_as_athena_exposes_them() {
        use IcebergType as I;
        let ice = |t: &I| EngineType::of_column(t, TableFormat::Iceberg).unwrap();
        let hive = |t: &I| EngineType::of_column(t, TableFormat::Hive);
        assert_eq!(ice(&I::Timestamp), EngineType::Timestamp(6));
        assert_eq!(ice(&I::TimestampTz), EngineType::TimestampWithTimeZone(6));
        assert_eq!(ice(&I::String), EngineType::VARCHAR);
        assert_eq!(ice(&I::Float), EngineType::Real);
        assert_eq!(ice(&I::Int), EngineType::Integer);
        assert_eq!(ice(&I::Long), EngineType::Bigint);
        assert_eq!(ice(&I::Binary), EngineType::Varbinary);
        assert_eq!(ice(&I::decimal(10, 2)), EngineType::decimal(10, 2));
        let nested = I::structure([
            ("tags", I::list(I::String)),
            ("seen", I::map(I::String, I::Timestamp)),
        ]);
        assert_eq!(
            ice(&nested).to_string(),
            "row(tags array(varchar), seen map(varchar, timestamp(6)))"
        );
        assert_eq!(
            hive(&nested).unwrap().to_string(),
            "row(tags array(varchar), seen map(varchar, timestamp(3)))"
        );
        assert_eq!(hive(&I::Timestamp).unwrap(), EngineType::Timestamp(3));
        assert_eq!(
            hive(&I::list(I::TimestampTz)).unwrap_err().kind(),
            ErrorKind::InvalidType
        );
    }

    #[test]
    fn parameters_are_checked() {
        assert!(EngineType::decimal(38, 38).check().is_ok());
        assert!(EngineType::decimal(39, 0).check().is_err());
        assert!(EngineType::decimal(0, 0).check().is_err());
        assert!(EngineType::decimal(5, 6).check().is_err());
        assert!(EngineType::Timestamp(12).check().is_ok());
        assert!(EngineType::Timestamp(13).check().is_err());
        assert!(EngineType::Char(0).check().is_ok());
        assert!(EngineType::Char(65_537).check().is_err());
        // Trino: "key type must be comparable" (MapType); every type modelled here is.
        assert!(EngineType::map(EngineType::Json, EngineType::Integer)
            .check()
            .is_ok());
        assert!(EngineType::map(
            EngineType::map(EngineType::Integer, EngineType::Integer),
            EngineType::Integer
        )
        .check()
        .is_ok());
    }
}
