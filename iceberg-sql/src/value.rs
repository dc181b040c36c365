//! SQL values: [`Value`] (any Iceberg value, or NULL) and the exact [`Decimal`].
//!
//! How a value is spelled as a literal belongs to the grammar it is written in (see
//! [`Grammar`](crate::Grammar), which adds [`Value::to_literal`]).

use std::fmt;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};

use crate::error::{Error, ErrorKind, Result};
use crate::types::IcebergType;

/// An exact decimal number: `unscaled * 10^-scale`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decimal {
    unscaled: i128,
    scale: u8,
}

impl Decimal {
    /// `unscaled * 10^-scale`, e.g. `Decimal::new(1250, 2)` is 12.50.
    pub fn new(unscaled: i128, scale: u8) -> Self {
        Decimal { unscaled, scale }
    }

    /// Parses `-123.4500` style text (no exponent, at most 38 digits).
    pub fn parse(text: &str) -> Result<Decimal> {
        let bad = || {
            Error::new(
                ErrorKind::InvalidValue,
                format!("`{}` is not a decimal number", text.escape_debug()),
            )
        };
        let (neg, body) = match text.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        if int.is_empty() && frac.is_empty()
            || !int.bytes().all(|b| b.is_ascii_digit())
            || !frac.bytes().all(|b| b.is_ascii_digit())
            || int.len() + frac.len() > 38
        {
            return Err(bad());
        }
        let digits = format!("{int}{frac}");
        let unscaled: i128 = if digits.is_empty() {
            0
        } else {
            digits.parse().map_err(|_| bad())?
        };
        Ok(Decimal {
            unscaled: if neg { -unscaled } else { unscaled },
            scale: frac.len() as u8,
        })
    }

    /// The unscaled integer.
    pub fn unscaled(&self) -> i128 {
        self.unscaled
    }

    /// Digits after the point.
    pub fn scale(&self) -> u8 {
        self.scale
    }

    /// The same number with `scale` digits after the point, if that loses nothing.
    pub fn rescale(&self, scale: u8) -> Option<Decimal> {
        if scale >= self.scale {
            let factor = 10i128.checked_pow(u32::from(scale - self.scale))?;
            Some(Decimal {
                unscaled: self.unscaled.checked_mul(factor)?,
                scale,
            })
        } else {
            let factor = 10i128.checked_pow(u32::from(self.scale - scale))?;
            (self.unscaled % factor == 0).then(|| Decimal {
                unscaled: self.unscaled / factor,
                scale,
            })
        }
    }

    /// Number of significant digits (at least 1).
    pub fn precision(&self) -> u32 {
        let mut n = self.unscaled.unsigned_abs();
        let mut d = 1;
        while n >= 10 {
            n /= 10;
            d += 1;
        }
        d.max(u32::from(self.scale))
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.unscaled.unsigned_abs().to_string();
        let sign = if self.unscaled < 0 { "-" } else { "" };
        let scale = usize::from(self.scale);
        if scale == 0 {
            return write!(f, "{sign}{digits}");
        }
        let padded = format!("{digits:0>width$}", width = scale + 1);
        let (i, fr) = padded.split_at(padded.len() - scale);
        write!(f, "{sign}{i}.{fr}")
    }
}

impl std::str::FromStr for Decimal {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Decimal::parse(s)
    }
}

/// A value of some Iceberg type, or NULL.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// boolean
    Boolean(bool),
    /// int
    Int(i32),
    /// long
    Long(i64),
    /// float
    Float(f32),
    /// double
    Double(f64),
    /// decimal
    Decimal(Decimal),
    /// date
    Date(NaiveDate),
    /// timestamp (no zone; Iceberg keeps microseconds: a value with digits below a
    /// microsecond is refused when it is written into SQL or Arrow)
    Timestamp(NaiveDateTime),
    /// timestamptz (rendered in UTC)
    TimestampTz(DateTime<Utc>),
    /// string
    String(String),
    /// binary
    Binary(Vec<u8>),
    /// list
    List(Vec<Value>),
    /// map, as key/value pairs in order
    Map(Vec<(Value, Value)>),
    /// struct, field values in the struct type's order
    Struct(Vec<Value>),
}

impl Value {
    /// A short name of the value's kind, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Boolean(_) => "boolean",
            Value::Int(_) => "int",
            Value::Long(_) => "long",
            Value::Float(_) => "float",
            Value::Double(_) => "double",
            Value::Decimal(_) => "decimal",
            Value::Date(_) => "date",
            Value::Timestamp(_) => "timestamp",
            Value::TimestampTz(_) => "timestamptz",
            Value::String(_) => "string",
            Value::Binary(_) => "binary",
            Value::List(_) => "list",
            Value::Map(_) => "map",
            Value::Struct(_) => "struct",
        }
    }

    /// This value as a value of column type `ty`'s own kind, when the conversion keeps
    /// it exactly: an integer into a `real` or `double` that holds it, a `double` into a
    /// `real` that holds it, a decimal into a float whose shortest form is the same
    /// number, a float into a decimal (its shortest form; the decimal column then checks
    /// the digits fit), a date into a timestamp (midnight, UTC). Trino's INSERT, UPDATE
    /// and MERGE take all of these and convert them with a cast (also when the cast
    /// rounds); here a value that would change is refused instead. `None` when there is
    /// no exact conversion (also for the kinds a column takes as they are).
    pub(crate) fn exactly_as(&self, ty: &IcebergType) -> Option<Value> {
        use IcebergType as T;
        let decimal_eq = |a: &Decimal, b: &Decimal| {
            let s = a.scale().max(b.scale());
            matches!((a.rescale(s), b.rescale(s)), (Some(x), Some(y)) if x == y)
        };
        match (self, ty) {
            (Value::Int(i), T::Float) => {
                let f = *i as f32;
                (f64::from(f) == f64::from(*i)).then_some(Value::Float(f))
            }
            (Value::Int(i), T::Double) => Some(Value::Double(f64::from(*i))),
            (Value::Long(i), T::Int) => i32::try_from(*i).ok().map(Value::Int),
            (Value::Long(i), T::Float) => {
                let f = *i as f32;
                (f.is_finite() && f as f64 as i128 == i128::from(*i)).then_some(Value::Float(f))
            }
            (Value::Long(i), T::Double) => {
                let f = *i as f64;
                (f.is_finite() && f as i128 == i128::from(*i)).then_some(Value::Double(f))
            }
            (Value::Double(f), T::Float) => {
                let g = *f as f32;
                (f.is_nan() || f64::from(g) == *f).then_some(Value::Float(g))
            }
            (Value::Decimal(d), T::Double) => {
                let f: f64 = d.to_string().parse().ok()?;
                let back = Decimal::parse(&f.to_string()).ok()?;
                (f.is_finite() && decimal_eq(&back, d)).then_some(Value::Double(f))
            }
            (Value::Decimal(d), T::Float) => {
                let f: f32 = d.to_string().parse().ok()?;
                let back = Decimal::parse(&f.to_string()).ok()?;
                (f.is_finite() && decimal_eq(&back, d)).then_some(Value::Float(f))
            }
            (Value::Float(f), T::Decimal { .. }) if f.is_finite() => {
                Decimal::parse(&f.to_string()).ok().map(Value::Decimal)
            }
            (Value::Double(f), T::Decimal { .. }) if f.is_finite() => {
                Decimal::parse(&f.to_string()).ok().map(Value::Decimal)
            }
            (Value::Date(d), T::Timestamp) => Some(Value::Timestamp(d.and_time(NaiveTime::MIN))),
            (Value::Date(d), T::TimestampTz) => {
                Some(Value::TimestampTz(d.and_time(NaiveTime::MIN).and_utc()))
            }
            _ => None,
        }
    }
}

macro_rules! value_from {
    ($($t:ty => $v:ident),* $(,)?) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Value { Value::$v(x.into()) }
        }
    )*};
}

value_from! {
    bool => Boolean, i32 => Int, i64 => Long, f32 => Float, f64 => Double,
    Decimal => Decimal, NaiveDate => Date, NaiveDateTime => Timestamp,
    DateTime<Utc> => TimestampTz, String => String, &str => String,
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(x: Option<T>) -> Value {
        x.map_or(Value::Null, Into::into)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Grammar;
    use crate::types::StructField;

    fn trino(v: Value, t: &IcebergType) -> String {
        v.to_literal(t, Grammar::TrinoDml).unwrap()
    }
    fn spark(v: Value, t: &IcebergType) -> String {
        v.to_literal(t, Grammar::Spark).unwrap()
    }

    /// A map cannot hold one key twice (the engines fail the statement); 0.0 and -0.0
    /// are one key to them (Trino's DoubleType equality and hash), and so to us.
    #[test]
    fn map_keys_that_are_equal_values_are_refused() {
        let ty = IcebergType::map(IcebergType::Double, IcebergType::Long);
        let map =
            |a: f64, b: f64| Value::Map(vec![(a.into(), 1i64.into()), (b.into(), 2i64.into())]);
        assert_eq!(
            trino(map(0.5, -0.5), &ty),
            "MAP(ARRAY[5E-1, -5E-1], ARRAY[1, 2])"
        );
        for grammar in [Grammar::TrinoDml, Grammar::Spark] {
            let e = map(0.0, -0.0).to_literal(&ty, grammar).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidValue);
            assert_eq!(e.message(), "a map value has the key 0E0 twice");
            assert!(map(f64::NAN, -f64::NAN).to_literal(&ty, grammar).is_err());
            let real = IcebergType::map(IcebergType::Float, IcebergType::Long);
            let e = Value::Map(vec![
                (0.0f32.into(), 1i64.into()),
                ((-0.0f32).into(), 2i64.into()),
            ])
            .to_literal(&real, grammar)
            .unwrap_err();
            assert!(e.message().starts_with("a map value has the key "), "{e}");
        }
    }

    #[test]
    fn every_type_has_a_literal() {
        use IcebergType as T;
        let ts = NaiveDate::from_ymd_opt(2026, 10, 1)
            .unwrap()
            .and_hms_micro_opt(12, 0, 1, 5)
            .unwrap();
        assert_eq!(trino(true.into(), &T::Boolean), "true");
        assert_eq!(trino(7.into(), &T::Int), "7");
        assert_eq!(
            trino(i32::MIN.into(), &T::Int),
            "CAST(-2147483648 AS integer)"
        );
        assert_eq!(
            trino(i64::MIN.into(), &T::Long),
            "BIGINT '-9223372036854775808'"
        );
        assert_eq!(trino(1.5f32.into(), &T::Float), "REAL '1.5'");
        assert_eq!(spark(1.5f32.into(), &T::Float), "CAST('1.5' AS FLOAT)");
        assert_eq!(trino(0.1f64.into(), &T::Double), "1E-1");
        assert_eq!(trino(f64::NAN.into(), &T::Double), "CAST(nan() AS double)");
        assert_eq!(
            spark(f64::NEG_INFINITY.into(), &T::Double),
            "CAST('-Infinity' AS DOUBLE)"
        );
        let dec = T::decimal(10, 2);
        assert_eq!(
            trino(Decimal::parse("12.5").unwrap().into(), &dec),
            "DECIMAL '12.50'"
        );
        assert_eq!(
            spark(Decimal::parse("-0.5").unwrap().into(), &dec),
            "CAST('-0.50' AS DECIMAL(10,2))"
        );
        assert!(Value::from(Decimal::parse("1.234").unwrap())
            .to_literal(&dec, Grammar::TrinoDml)
            .is_err());
        assert_eq!(trino(ts.date().into(), &T::Date), "DATE '2026-10-01'");
        assert_eq!(
            trino(ts.into(), &T::Timestamp),
            "TIMESTAMP '2026-10-01 12:00:01.000005'"
        );
        assert_eq!(
            spark(ts.into(), &T::Timestamp),
            "TIMESTAMP_NTZ '2026-10-01 12:00:01.000005'"
        );
        assert_eq!(
            trino(ts.and_utc().into(), &T::TimestampTz),
            "TIMESTAMP '2026-10-01 12:00:01.000005 UTC'"
        );
        assert_eq!(trino(Value::Binary(vec![0, 255]), &T::Binary), "X'00ff'");
        let list = T::list(T::String);
        assert_eq!(
            trino(Value::List(vec!["a".into(), Value::Null]), &list),
            "ARRAY['a', CAST(NULL AS varchar)]"
        );
        assert_eq!(
            trino(Value::List(vec![]), &list),
            "CAST(ARRAY[] AS array(varchar))"
        );
        assert_eq!(
            spark(Value::List(vec![]), &list),
            "CAST(array() AS array<string>)"
        );
        let map = T::map(T::String, T::Int);
        let m = Value::Map(vec![("k".into(), 1.into())]);
        assert_eq!(trino(m.clone(), &map), "MAP(ARRAY['k'], ARRAY[1])");
        assert_eq!(spark(m, &map), "map('k', 1)");
        let st = T::Struct(vec![
            StructField::new("lat", T::Double),
            StructField::new("name", T::String),
        ]);
        let s = Value::Struct(vec![1.5f64.into(), "x".into()]);
        assert_eq!(
            trino(s.clone(), &st),
            "CAST(ROW(1.5E0, 'x') AS row(lat double, name varchar))"
        );
        assert_eq!(spark(s, &st), "named_struct('lat', 1.5E0, 'name', 'x')");
    }

    #[test]
    fn wrong_kinds_are_refused() {
        let e = Value::from("x")
            .to_literal(&IcebergType::Long, Grammar::TrinoDml)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        assert_eq!(
            e.message(),
            "a string value cannot be written to a column of type long"
        );
        let dup = Value::Map(vec![("k".into(), 1.into()), ("k".into(), 2.into())]);
        assert!(dup
            .to_literal(
                &IcebergType::map(IcebergType::String, IcebergType::Int),
                Grammar::TrinoDml
            )
            .is_err());
    }

    #[test]
    fn strings_cannot_end_early() {
        let s = "a'b\\c'';--\n/*\u{2019}";
        assert_eq!(
            trino(s.into(), &IcebergType::String),
            "U&'a''b\\\\c'''';--\\000A/*\u{2019}'"
        );
        assert_eq!(
            trino("a'b\\c'';--/*".into(), &IcebergType::String),
            "'a''b\\c'''';--/*'"
        );
        assert_eq!(
            spark(s.into(), &IcebergType::String),
            "'a\\'b\\\\c\\'\\';--\n/*\u{2019}'"
        );
    }

    #[test]
    fn spark_literals_escape_variable_syntax() {
        assert_eq!(
            spark("${x} $y {z} $${".into(), &IcebergType::String),
            r"'$\{x} $y {z} $$\{'"
        );
        assert_eq!(trino("${x}".into(), &IcebergType::String), "'${x}'");
    }

    #[test]
    fn decimals_parse_and_print() {
        for s in [
            "0",
            "-1.50",
            "123456789012345678901234567890.12345678",
            ".5",
            "-0.001",
        ] {
            let d = Decimal::parse(s).unwrap();
            assert_eq!(Decimal::parse(&d.to_string()).unwrap(), d);
        }
        assert_eq!(Decimal::parse(".5").unwrap().to_string(), "0.5");
        assert!(Decimal::parse("1e5").is_err());
        assert!(Decimal::parse("").is_err());
    }
}
