//! How Trino types the literals we write, and which date/time values a literal can
//! hold on both engines.
//!
//! Sources (trinodb/trino, release 417): `ExpressionAnalyzer.visitLongLiteral`,
//! `visitDecimalLiteral` (`Decimals.parse`), `visitStringLiteral`,
//! `visitTimestampLiteral` (`io.trino.type.DateTimes`), `tree/LongLiteral` and
//! `parser/AstBuilder.visitArithmeticUnary` (a `-5` is the negation of the literal `5`).

use chrono::{Datelike, NaiveDateTime, Timelike};

use super::coercion::single_type;
use super::types::{EngineType, TableFormat, MAX_DECIMAL_PRECISION, MAX_TIME_PRECISION};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::TimeUnit;
use crate::types::IcebergType;
use crate::value::{Decimal, Value};

/// Years a DATE or TIMESTAMP literal may have here. Trino's literal parser takes any
/// signed year of four or more digits (`DateTimes.DATETIME_PATTERN`), but Spark's date
/// type is documented for "[0001-01-01, 9999-12-31]" (`DateType` in apache/spark),
/// statements are rendered for both engines, and chrono prints other years with a sign
/// (`+10000`): this range holds on every reading.
pub(crate) const SAFE_YEARS: std::ops::RangeInclusive<i32> = 1..=9999;

/// The type of an integer literal whose digits are `magnitude`: `integer` up to
/// 2,147,483,647, `bigint` up to 9,223,372,036,854,775,807, and beyond that Trino's
/// parser fails with "Invalid numeric literal". A minus sign negates the literal, so
/// `-2147483648` is a `bigint` and `-9223372036854775808` does not parse (write
/// `BIGINT '-9223372036854775808'`).
pub(crate) fn integer_literal_type(magnitude: u128) -> Result<EngineType> {
    if magnitude <= i32::MAX as u128 {
        Ok(EngineType::Integer)
    } else if magnitude <= i64::MAX as u128 {
        Ok(EngineType::Bigint)
    } else {
        Err(Error::new(
            ErrorKind::InvalidValue,
            format!("Invalid numeric literal: {magnitude}"),
        )
        .with_hint("write a bigint as BIGINT '...' or a larger number as DECIMAL '...'"))
    }
}

/// The type of a decimal literal `text` (bare `1.50` or inside `DECIMAL '1.50'`), as
/// `Decimals.parse` gives it: scale = digits after the point, precision = digits before
/// it without leading zeros plus the scale, at least 1. `1.5` is `decimal(2,1)`,
/// `0.05` is `decimal(2,2)`, `12.50` is `decimal(4,2)`. More than 38 digits: "Value
/// exceeds maximum precision".
///
/// A *bare* `1.5` is a decimal only while the session property
/// `parse_decimal_literals_as_double` is off (its default); under it `1.5` is a double.
/// Write `DECIMAL '1.5'` or `1.5E0`, never a bare `1.5`, so that both readings agree.
pub(crate) fn decimal_literal_type(text: &str) -> Result<EngineType> {
    let bad = || {
        Error::new(
            ErrorKind::InvalidValue,
            format!("Invalid DECIMAL value '{}'", text.escape_debug()),
        )
    };
    let body = text
        .strip_prefix('+')
        .or_else(|| text.strip_prefix('-'))
        .unwrap_or(text);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if int.is_empty() && frac.is_empty() {
        return Err(bad());
    }
    let significant = int.trim_start_matches('0').len();
    let scale = frac.len();
    let precision = (significant + scale).max(1);
    if precision > usize::from(MAX_DECIMAL_PRECISION) {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("decimal literal {text}: Value exceeds maximum precision"),
        ));
    }
    // Both fit in u8: at most 38.
    Ok(EngineType::decimal(precision as u8, scale as u8))
}

/// The type of the string literal `'s'`: `varchar(n)` with `n` its length in code points.
pub(crate) fn string_literal_type(s: &str) -> EngineType {
    EngineType::varchar(u32::try_from(char_count(s)).unwrap_or(u32::MAX))
}

/// `s.chars().count()`: the bytes that do not continue a character (`10xxxxxx`). One
/// branch-free pass, which for the usual short value costs less than the library's
/// general count.
fn char_count(s: &str) -> usize {
    s.len()
        - s.bytes()
            .filter(|&b| b & 0b1100_0000 == 0b1000_0000)
            .count()
}

/// The type of `TIMESTAMP 'text'` (`ExpressionAnalyzer.visitTimestampLiteral` with
/// `DateTimes.DATETIME_PATTERN`): `timestamp(p)` with `p` the number of fractional
/// digits, or `timestamp(p) with time zone` when a zone follows. Refuses what Trino
/// refuses with "'...' is not a valid TIMESTAMP literal": a date or time field out of
/// range, in particular a leap second (`23:59:60`, which Java's `LocalDateTime` cannot
/// hold), and more than 12 fractional digits. Zone names are checked only for their
/// shape (`UTC`, `+02:00`, `Europe/Berlin`).
pub(crate) fn timestamp_literal_type(text: &str) -> Result<EngineType> {
    if let Some(ty) = canonical_timestamp_type(text) {
        return Ok(ty);
    }
    let bad = |why: &str| {
        Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "'{}' is not a valid TIMESTAMP literal: {why}",
                text.escape_debug()
            ),
        ))
    };
    let mut rest = text;
    let take_digits = |rest: &mut &str, min: usize, max: usize| -> Option<u32> {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        if n < min || n > max {
            return None;
        }
        let (d, r) = rest.split_at(n);
        *rest = r;
        d.parse().ok()
    };
    let negative = rest.starts_with('-');
    rest = rest.strip_prefix(['-', '+']).unwrap_or(rest);
    let Some(year) = take_digits(&mut rest, 4, 9) else {
        return bad("the year needs at least four digits");
    };
    let year = if negative {
        -(year as i64)
    } else {
        year as i64
    };
    let field = |rest: &mut &str, sep: char, max_digits: usize| -> Option<u32> {
        *rest = rest.strip_prefix(sep)?;
        take_digits(rest, 1, max_digits)
    };
    let (Some(month), Some(day)) = (field(&mut rest, '-', 2), field(&mut rest, '-', 2)) else {
        return bad("expected yyyy-mm-dd");
    };
    let (mut hour, mut minute, mut second, mut precision) = (0, 0, 0, 0usize);
    if rest.starts_with(' ') && rest[1..].starts_with(|c: char| c.is_ascii_digit()) {
        rest = &rest[1..];
        let Some(h) = take_digits(&mut rest, 1, 2) else {
            return bad("expected an hour");
        };
        let Some(m) = field(&mut rest, ':', 2) else {
            return bad("expected hh:mm");
        };
        hour = h;
        minute = m;
        if rest.starts_with(':') {
            let Some(s) = field(&mut rest, ':', 2) else {
                return bad("expected seconds");
            };
            second = s;
            if let Some(r) = rest.strip_prefix('.') {
                precision = r.bytes().take_while(u8::is_ascii_digit).count();
                if precision == 0 {
                    return bad("expected fractional digits after the point");
                }
                rest = &r[precision..];
            }
        }
    }
    let zone = rest.trim_start();
    let in_range = (1..=12).contains(&month)
        && day >= 1
        && day <= days_in_month(year, month)
        && hour <= 23
        && minute <= 59
        && second <= 59;
    if !in_range {
        return bad(if second == 60 {
            "a leap second (second 60) does not exist in Trino"
        } else {
            "a field is out of range"
        });
    }
    if precision > usize::from(MAX_TIME_PRECISION) {
        return bad("more than 12 fractional digits");
    }
    let p = precision as u8;
    if zone.is_empty() {
        return Ok(EngineType::Timestamp(p));
    }
    if !is_zone_shape(zone) {
        return bad("unknown time zone");
    }
    Ok(EngineType::TimestampWithTimeZone(p))
}

/// The form this crate writes, `yyyy-mm-dd hh:mm:ss[.f…]` with valid fields, read
/// without the general scan (a batch of rows holds one per timestamp cell); `None`
/// for any other text, which [`timestamp_literal_type`] reads in full. A test holds
/// the two to one answer.
fn canonical_timestamp_type(text: &str) -> Option<EngineType> {
    let b = text.as_bytes();
    let fraction = match b.len() {
        19 => 0,
        n if n > 20 && b[19] == b'.' => n - 20,
        _ => return None,
    };
    if fraction > usize::from(MAX_TIME_PRECISION)
        || !b[20.min(b.len())..].iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let shape_ok = b[..19].iter().enumerate().all(|(i, c)| match i {
        4 | 7 => *c == b'-',
        10 => *c == b' ',
        13 | 16 => *c == b':',
        _ => c.is_ascii_digit(),
    });
    if !shape_ok {
        return None;
    }
    let n = |from: usize, to: usize| {
        b[from..to]
            .iter()
            .fold(0u32, |v, c| v * 10 + u32::from(c - b'0'))
    };
    let (year, month, day) = (i64::from(n(0, 4)), n(5, 7), n(8, 10));
    let valid = (1..=12).contains(&month)
        && day >= 1
        && day <= days_in_month(year, month)
        && n(11, 13) <= 23
        && n(14, 16) <= 59
        && n(17, 19) <= 59;
    valid.then_some(EngineType::Timestamp(fraction as u8))
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

/// `UTC`, `Z`, `+02:00`, `-0530`, `Europe/Berlin`, `America/Argentina/Buenos_Aires`.
fn is_zone_shape(zone: &str) -> bool {
    let offset = |s: &str| {
        let Some(body) = s.strip_prefix(['+', '-']) else {
            return false;
        };
        let digits: String = body.chars().filter(|c| *c != ':').collect();
        (digits.len() == 2 || digits.len() == 4) && digits.bytes().all(|b| b.is_ascii_digit())
    };
    offset(zone)
        || zone.split('/').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'+')
        }) && zone.starts_with(|c: char| c.is_ascii_alphabetic())
}

/// The type of `INTERVAL 'amount' unit`, or Trino's "Invalid INTERVAL YEAR value: ..."
/// (`DateTimeUtils.parseYearMonthInterval` / `parseDayTimeInterval`, release 417): the
/// amount is read into a Java `int` (at most 2,147,483,647), and a year interval is
/// counted in months (`IntervalYearMonth.toMonths`), so at most 178,956,970 years.
/// Quarter and week are not interval units.
pub(crate) fn interval_literal_type(amount: u32, unit: TimeUnit) -> Result<EngineType> {
    let invalid = |why: &str| {
        let name = format!("{unit:?}").to_uppercase();
        Err(Error::new(
            ErrorKind::InvalidValue,
            format!("Invalid INTERVAL {name} value: {amount} ({why})"),
        )
        .with_hint("Athena reads an interval's amount as a 32-bit integer: use a larger unit or a smaller amount"))
    };
    let max = match unit {
        TimeUnit::Year => i32::MAX as u32 / 12,
        TimeUnit::Quarter | TimeUnit::Week => {
            return invalid("not an interval unit in Trino; use months or days")
        }
        _ => i32::MAX as u32,
    };
    if amount > max {
        return invalid(&format!("at most {max}"));
    }
    Ok(match unit {
        TimeUnit::Year | TimeUnit::Month => EngineType::IntervalYearToMonth,
        _ => EngineType::IntervalDayToSecond,
    })
}

/// The engine type of the literal we write for `value` as a column of type `ty` in an
/// Athena statement (the Trino spelling of `value::write_literal`): `5` is `integer`
/// even for a bigint column, `DECIMAL '12.50'` is `decimal(4,2)` whatever the column's
/// precision, `'abc'` is `varchar(3)`, `TIMESTAMP '... .000000'` is `timestamp(6)`,
/// `CAST(NULL AS t)` and `CAST(ROW(...) AS t)` have exactly the column's type.
pub(crate) fn literal_type(value: &Value, ty: &IcebergType) -> Result<EngineType> {
    use IcebergType as T;
    let column = || EngineType::of_column(ty, TableFormat::Iceberg);
    let decimal = |d: Decimal| -> Result<EngineType> {
        let T::Decimal { precision, scale } = ty else {
            unreachable!("only called for decimal columns")
        };
        match d.rescale(*scale) {
            Some(d2) if d2.precision() <= u32::from(*precision) => {
                decimal_literal_type(&d2.to_string())
            }
            _ => Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "decimal {d} does not fit decimal({precision},{scale}) without losing digits"
                ),
            )),
        }
    };
    Ok(match (value, ty) {
        (Value::Null, _) => column()?,
        (Value::Boolean(_), T::Boolean) => EngineType::Boolean,
        // `CAST(-2147483648 AS integer)`; every other int is a bare integer literal.
        (Value::Int(_), T::Int) => EngineType::Integer,
        (Value::Int(i), T::Long) => integer_literal_type(u128::from(i.unsigned_abs()))?,
        // `BIGINT '-9223372036854775808'`.
        (Value::Long(i64::MIN), T::Long) => EngineType::Bigint,
        (Value::Long(i), T::Long) => integer_literal_type(u128::from(i.unsigned_abs()))?,
        (Value::Float(_), T::Float) => EngineType::Real,
        (Value::Float(_) | Value::Double(_), T::Double) => EngineType::Double,
        (Value::Decimal(d), T::Decimal { .. }) => decimal(*d)?,
        (Value::Int(i), T::Decimal { .. }) => decimal(Decimal::new(i128::from(*i), 0))?,
        (Value::Long(i), T::Decimal { .. }) => decimal(Decimal::new(i128::from(*i), 0))?,
        (Value::Date(_), T::Date) => EngineType::Date,
        // Nine digits for a value with digits below a microsecond (a comparison's operand,
        // `write_compared_literal`; everywhere else it is refused); the same instant in
        // the column's form (`write_literal`): UTC wall clock.
        (Value::Timestamp(t), T::Timestamp) => EngineType::Timestamp(fraction_digits(t)),
        (Value::TimestampTz(t), T::Timestamp) => {
            EngineType::Timestamp(fraction_digits(&t.naive_utc()))
        }
        (Value::TimestampTz(t), T::TimestampTz) => {
            EngineType::TimestampWithTimeZone(fraction_digits(&t.naive_utc()))
        }
        (Value::Timestamp(t), T::TimestampTz) => {
            EngineType::TimestampWithTimeZone(fraction_digits(t))
        }
        (Value::String(s), T::String) => string_literal_type(s),
        (Value::Binary(_), T::Binary) => EngineType::Varbinary,
        (Value::List(items), T::List(_)) if items.is_empty() => column()?,
        (Value::List(items), T::List(elem)) => {
            let types = items
                .iter()
                .map(|v| literal_type(v, elem))
                .collect::<Result<Vec<_>>>()?;
            EngineType::array(element_type("ARRAY elements", &types)?)
        }
        (Value::Map(entries), T::Map(..)) if entries.is_empty() => column()?,
        (Value::Map(entries), T::Map(kt, vt)) => {
            let keys = entries
                .iter()
                .map(|(k, _)| literal_type(k, kt))
                .collect::<Result<Vec<_>>>()?;
            let values = entries
                .iter()
                .map(|(_, v)| literal_type(v, vt))
                .collect::<Result<Vec<_>>>()?;
            EngineType::map(
                element_type("map keys", &keys)?,
                element_type("map values", &values)?,
            )
        }
        (Value::Struct(_), T::Struct(_)) => column()?,
        _ => {
            if let Some(v) = value.exactly_as(ty) {
                return literal_type(&v, ty);
            }
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "a {} value cannot be written to a column of type {}",
                    value.kind_name(),
                    ty.iceberg_name()
                ),
            ));
        }
    })
}

fn element_type(what: &str, types: &[EngineType]) -> Result<EngineType> {
    single_type(types).map_err(|e| {
        Error::new(
            ErrorKind::InvalidValue,
            format!(
                "{what} have no common type: {} and {}",
                e.so_far, e.offending
            ),
        )
    })
}

/// The fraction digits of the timestamp literal written for `ts`: 6, or 9 when it has
/// digits below a microsecond.
fn fraction_digits(ts: &NaiveDateTime) -> u8 {
    if ts.nanosecond().is_multiple_of(1_000) {
        6
    } else {
        9
    }
}

/// Checks that a date/time value can be written as a literal that means the same on
/// Athena and Spark: its year is in [`SAFE_YEARS`], it is not a leap second (chrono
/// represents `23:59:60` as a nanosecond count of a second or more; Trino refuses second
/// 60), and a timestamp has no digits below a microsecond ([`check_microseconds`]).
/// Looks inside lists, maps and structs.
pub(crate) fn check_temporal_range(value: &Value) -> Result<()> {
    match value {
        Value::Date(d) => check_year(d.year(), "date", d),
        Value::Timestamp(ts) => {
            check_date_time(ts, "timestamp")?;
            check_microseconds(ts, "timestamp")
        }
        Value::TimestampTz(ts) => {
            let ts = ts.naive_utc();
            check_date_time(&ts, "timestamptz")?;
            check_microseconds(&ts, "timestamptz")
        }
        Value::List(items) | Value::Struct(items) => {
            items.iter().try_for_each(check_temporal_range)
        }
        Value::Map(entries) => entries.iter().try_for_each(|(k, v)| {
            check_temporal_range(k)?;
            check_temporal_range(v)
        }),
        _ => Ok(()),
    }
}

/// [`check_temporal_range`] for one timestamp (also for `FOR TIMESTAMP AS OF`).
pub(crate) fn check_date_time(ts: &NaiveDateTime, what: &str) -> Result<()> {
    check_year(ts.year(), what, ts)?;
    if ts.nanosecond() >= 1_000_000_000 {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "{what} {} is a leap second; a TIMESTAMP literal cannot have second 60 \
                 (Trino: \"is not a valid TIMESTAMP literal\")",
                ts.format("%Y-%m-%d %H:%M:%S%.f")
            ),
        )
        .with_hint("use 23:59:59.999999, or the first instant of the next minute"));
    }
    Ok(())
}

/// Refuses a timestamp value with digits below a microsecond. Iceberg keeps
/// microseconds (`timestamp`, `timestamptz`: "microsecond precision",
/// <https://iceberg.apache.org/spec/#primitive-types>), so no literal of ours can carry
/// the value: cut to microseconds it would change what a filter means (`ts = v` would
/// match the stored `…123456` for a `v` of `…123456789`, `ts < v` would miss it), and
/// Trino rounds a longer literal when it stores it (`CAST` to `timestamp(6)` rounds
/// half up) while Spark reads microseconds only. The staged load's Arrow writer calls
/// this too (`arrow.rs`), so a row means the same on either path.
pub(crate) fn check_microseconds(ts: &NaiveDateTime, what: &str) -> Result<()> {
    if ts.nanosecond().is_multiple_of(1_000) {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidValue,
        format!(
            "{what} {} has digits below a microsecond, which Iceberg does not keep",
            ts.format("%Y-%m-%d %H:%M:%S%.9f")
        ),
    )
    .with_hint(
        "cut or round the value to microseconds first, e.g. `ts.trunc_subsecs(6)` or \
         `ts.round_subsecs(6)` (chrono::SubsecRound); `Utc::now()` has nanoseconds on Linux",
    ))
}

/// `shown` is formatted only for the error (this runs for every date/time literal).
fn check_year(year: i32, what: &str, shown: &dyn std::fmt::Display) -> Result<()> {
    if SAFE_YEARS.contains(&year) {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidValue,
        format!("{what} {shown} has year {year}, outside 0001-9999"),
    )
    .with_hint("SQL date/time literals on Athena and Spark cover years 0001 to 9999 only"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The canonical-form short path answers as the general reading does.
    #[test]
    fn canonical_timestamps_read_as_the_general_reading() {
        let general = |t: &str| {
            // The general reading alone: the short path is skipped by a leading `+`
            // (which the general reading takes as the year's sign).
            timestamp_literal_type(&format!("+{t}")).ok()
        };
        let mut texts = vec![
            "2026-01-01 00:00:00".to_string(),
            "2026-12-31 23:59:59.999999".into(),
            "2024-02-29 12:00:00.1".into(),
            "2023-02-29 12:00:00".into(),
            "2026-13-01 00:00:00".into(),
            "2026-00-10 00:00:00".into(),
            "2026-04-31 00:00:00".into(),
            "2026-01-01 24:00:00".into(),
            "2026-01-01 23:60:00".into(),
            "2026-01-01 23:59:60".into(),
            "0000-01-01 00:00:00".into(),
            "9999-12-31 23:59:59.123456789012".into(),
            "9999-12-31 23:59:59.1234567890123".into(),
            "2026-01-01 00:00:00.".into(),
            "2026-01-01 00:00:00.12a".into(),
            "2026-01-01T00:00:00".into(),
            "2026/01/01 00:00:00".into(),
            "2026-01-01 00:00:00 UTC".into(),
            "2026-1-01 00:00:00".into(),
        ];
        for y in [1, 4, 100, 1900, 2000, 2023, 2024] {
            for m in 1..=12 {
                for d in [1, 28, 29, 30, 31] {
                    texts.push(format!("{y:04}-{m:02}-{d:02} 01:02:03.004"));
                }
            }
        }
        for t in &texts {
            let fast = canonical_timestamp_type(t);
            if let Some(ty) = &fast {
                assert_eq!(Some(ty.clone()), general(t), "{t}");
            }
            assert_eq!(timestamp_literal_type(t).ok(), general(t), "{t}");
        }
        assert!(canonical_timestamp_type("2026-01-01 00:00:00.123456").is_some());
    }

    use crate::dialect::Grammar;
    use chrono::{NaiveDate, TimeZone, Utc};

    #[test]
    fn char_count_is_the_number_of_chars() {
        let mut text = String::new();
        for c in [
            'a',
            '\'',
            'é',
            '☃',
            '𝄞',
            '\u{7f}',
            '\u{80}',
            '\u{7ff}',
            '\u{800}',
            '\u{10ffff}',
        ] {
            for _ in 0..3 {
                text.push(c);
                // Every prefix that ends on a character boundary, and every suffix.
                for (i, _) in text.char_indices() {
                    assert_eq!(char_count(&text[..i]), text[..i].chars().count());
                    assert_eq!(char_count(&text[i..]), text[i..].chars().count());
                }
            }
        }
        assert_eq!(char_count(""), 0);
        assert_eq!(char_count(&"é☃x".repeat(100)), 300);
    }

    fn t(s: &str) -> EngineType {
        EngineType::parse(s).unwrap()
    }

    #[test]
    fn integer_literals() {
        assert_eq!(integer_literal_type(0).unwrap(), EngineType::Integer);
        assert_eq!(
            integer_literal_type(2_147_483_647).unwrap(),
            EngineType::Integer
        );
        assert_eq!(
            integer_literal_type(2_147_483_648).unwrap(),
            EngineType::Bigint
        );
        assert_eq!(
            integer_literal_type(i64::MAX as u128).unwrap(),
            EngineType::Bigint
        );
        let e = integer_literal_type(i64::MAX as u128 + 1).unwrap_err();
        assert_eq!(e.message(), "Invalid numeric literal: 9223372036854775808");
    }

    /// `TestDecimals.testParse` cases (core/trino-spi/src/test/java/io/trino/spi/type/
    /// TestDecimals.java, release 417).
    #[test]
    fn decimal_literals_follow_decimals_parse() {
        let cases = [
            ("0", 1, 0),
            ("0.", 1, 0),
            (".0", 1, 1),
            ("+0", 1, 0),
            ("-0", 1, 0),
            ("000", 1, 0),
            ("-0000000000000000000000000000", 1, 0),
            ("1.1", 2, 1),
            ("1.", 1, 0),
            ("-1.1", 2, 1),
            ("0001.1", 2, 1),
            ("-0001.1", 2, 1),
            ("0.1", 1, 1),
            (".1", 1, 1),
            ("-.1", 1, 1),
            ("000.1", 1, 1),
            ("12345678901234567", 17, 0),
            ("00012345678901234567", 17, 0),
            ("0.12345678901234567", 17, 17),
            ("12345678901234567890.123456789012345678", 38, 18),
            ("-00012345678901234567890.123456789012345678", 38, 18),
            ("0.12345678901234567890123456789012345678", 38, 38),
            ("-.12345678901234567890123456789012345678", 38, 38),
        ];
        for (text, p, s) in cases {
            assert_eq!(
                decimal_literal_type(text).unwrap(),
                EngineType::decimal(p, s),
                "{text}"
            );
        }
        // Ours: the texts `value.rs` writes.
        assert_eq!(decimal_literal_type("12.50").unwrap(), t("decimal(4,2)"));
        assert_eq!(decimal_literal_type("0.05").unwrap(), t("decimal(2,2)"));
        for bad in [
            "",
            ".",
            "1e5",
            "1.2.3",
            "abc",
            "123456789012345678901234567890123456789",
        ] {
            assert!(decimal_literal_type(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn string_literals_count_code_points() {
        assert_eq!(string_literal_type("abc"), t("varchar(3)"));
        assert_eq!(string_literal_type("é€😀"), t("varchar(3)"));
        assert_eq!(string_literal_type(""), t("varchar(0)"));
    }

    #[test]
    fn timestamp_literals_carry_their_precision() {
        let ok = [
            ("2020-01-02", "timestamp(0)"),
            ("2020-01-02 03:04", "timestamp(0)"),
            ("2020-01-02 03:04:05", "timestamp(0)"),
            ("2020-01-02 03:04:05.123", "timestamp(3)"),
            ("2026-10-01 12:00:01.000005", "timestamp(6)"),
            ("2020-01-02 03:04:05.123456789012", "timestamp(12)"),
            ("2020-02-29 00:00:00", "timestamp(0)"),
            (
                "2026-10-01 12:00:01.000005 UTC",
                "timestamp(6) with time zone",
            ),
            (
                "2020-01-02 03:04:05.123 Europe/Berlin",
                "timestamp(3) with time zone",
            ),
            ("2020-01-02 03:04:05 +02:00", "timestamp(0) with time zone"),
            ("2020-01-02 03:04:05UTC", "timestamp(0) with time zone"),
            ("12020-01-02 03:04:05", "timestamp(0)"),
        ];
        for (text, want) in ok {
            assert_eq!(timestamp_literal_type(text).unwrap(), t(want), "{text}");
        }
        for bad in [
            "2016-12-31 23:59:60",
            "2021-02-29 00:00:00",
            "2020-13-01 00:00:00",
            "2020-01-02 24:00:00",
            "2020-01-02 03:04:05.1234567890123",
            "20-01-02",
            "2021-06-06T23:38:46",
            "2020-01-02 03:04:05.",
        ] {
            assert!(timestamp_literal_type(bad).is_err(), "{bad}");
        }
    }

    /// The type of each literal we write, checked against the text `value.rs` renders
    /// for Trino, so that a change in the rendering shows up here.
    #[test]
    fn literal_types_match_the_rendered_text() {
        use IcebergType as I;
        let ts = NaiveDate::from_ymd_opt(2026, 10, 1)
            .unwrap()
            .and_hms_micro_opt(12, 0, 1, 5)
            .unwrap();
        let cases: Vec<(Value, IcebergType, &str, &str)> = vec![
            (true.into(), I::Boolean, "true", "boolean"),
            (7.into(), I::Int, "7", "integer"),
            (
                i32::MIN.into(),
                I::Int,
                "CAST(-2147483648 AS integer)",
                "integer",
            ),
            (7.into(), I::Long, "7", "integer"),
            (i32::MIN.into(), I::Long, "-2147483648", "bigint"),
            (5_000_000_000i64.into(), I::Long, "5000000000", "bigint"),
            (
                i64::MIN.into(),
                I::Long,
                "BIGINT '-9223372036854775808'",
                "bigint",
            ),
            (1.5f32.into(), I::Float, "REAL '1.5'", "real"),
            (0.1f64.into(), I::Double, "1E-1", "double"),
            (
                Decimal::parse("12.5").unwrap().into(),
                I::decimal(10, 2),
                "DECIMAL '12.50'",
                "decimal(4,2)",
            ),
            (
                Decimal::parse("-0.5").unwrap().into(),
                I::decimal(10, 2),
                "DECIMAL '-0.50'",
                "decimal(2,2)",
            ),
            (3.into(), I::decimal(5, 1), "DECIMAL '3.0'", "decimal(2,1)"),
            (ts.date().into(), I::Date, "DATE '2026-10-01'", "date"),
            (
                ts.into(),
                I::Timestamp,
                "TIMESTAMP '2026-10-01 12:00:01.000005'",
                "timestamp(6)",
            ),
            (
                ts.and_utc().into(),
                I::TimestampTz,
                "TIMESTAMP '2026-10-01 12:00:01.000005 UTC'",
                "timestamp(6) with time zone",
            ),
            ("O'Reilly".into(), I::String, "'O''Reilly'", "varchar(8)"),
            (
                Value::Binary(vec![0, 255]),
                I::Binary,
                "X'00ff'",
                "varbinary",
            ),
            (
                Value::Null,
                I::Timestamp,
                "CAST(NULL AS timestamp(6))",
                "timestamp(6)",
            ),
            (
                Value::List(vec!["a".into(), "bc".into()]),
                I::list(I::String),
                "ARRAY['a', 'bc']",
                "array(varchar(2))",
            ),
            (
                Value::List(vec!["a".into(), Value::Null]),
                I::list(I::String),
                "ARRAY['a', CAST(NULL AS varchar)]",
                "array(varchar)",
            ),
            (
                Value::List(vec![]),
                I::list(I::Long),
                "CAST(ARRAY[] AS array(bigint))",
                "array(bigint)",
            ),
            (
                Value::Map(vec![("k".into(), 1.into())]),
                I::map(I::String, I::Long),
                "MAP(ARRAY['k'], ARRAY[1])",
                "map(varchar(1), integer)",
            ),
            (
                Value::Struct(vec![1.5f64.into(), "x".into()]),
                I::structure([("lat", I::Double), ("name", I::String)]),
                "CAST(ROW(1.5E0, 'x') AS row(lat double, name varchar))",
                "row(lat double, name varchar)",
            ),
        ];
        for (value, ty, text, want) in cases {
            assert_eq!(
                value.to_literal(&ty, Grammar::TrinoDml).unwrap(),
                text,
                "rendering of {value:?}"
            );
            assert_eq!(
                literal_type(&value, &ty).unwrap(),
                t(want),
                "type of {text}"
            );
        }
        // The rendered TIMESTAMP and DECIMAL texts type the same way when parsed.
        assert_eq!(
            timestamp_literal_type("2026-10-01 12:00:01.000005").unwrap(),
            t("timestamp(6)")
        );
        assert!(literal_type(&Value::from("x"), &I::Long).is_err());
        assert!(
            literal_type(&Decimal::parse("1.234").unwrap().into(), &I::decimal(10, 2)).is_err()
        );
    }

    #[test]
    fn interval_literals() {
        assert_eq!(
            interval_literal_type(7, TimeUnit::Day).unwrap(),
            t("interval day to second")
        );
        assert_eq!(
            interval_literal_type(178_956_970, TimeUnit::Year).unwrap(),
            t("interval year to month")
        );
        assert_eq!(
            interval_literal_type(178_956_971, TimeUnit::Year)
                .unwrap_err()
                .message(),
            "Invalid INTERVAL YEAR value: 178956971 (at most 178956970)"
        );
        assert!(interval_literal_type(i32::MAX as u32, TimeUnit::Second).is_ok());
        assert!(interval_literal_type(i32::MAX as u32 + 1, TimeUnit::Month).is_err());
        assert!(interval_literal_type(1, TimeUnit::Week).is_err());
    }

    #[test]
    fn temporal_values_stay_in_range() {
        let leap = NaiveDate::from_ymd_opt(2016, 12, 31)
            .unwrap()
            .and_hms_milli_opt(23, 59, 59, 1_500)
            .unwrap();
        let e = check_temporal_range(&leap.into()).unwrap_err();
        assert!(e.message().contains("leap second"), "{}", e.message());
        let far = NaiveDate::from_ymd_opt(10_000, 1, 1).unwrap();
        let e = check_temporal_range(&far.into()).unwrap_err();
        assert_eq!(
            e.message(),
            "date +10000-01-01 has year 10000, outside 0001-9999"
        );
        let zero = NaiveDate::from_ymd_opt(0, 6, 1).unwrap();
        assert!(check_temporal_range(&zero.into()).is_err());
        let tz = Utc.with_ymd_and_hms(-5, 1, 1, 0, 0, 0).unwrap();
        assert!(check_temporal_range(&tz.into()).is_err());
        let nested = Value::List(vec![Value::Map(vec![("k".into(), far.into())])]);
        assert!(check_temporal_range(&nested).is_err());
        let fine = NaiveDate::from_ymd_opt(9999, 12, 31)
            .unwrap()
            .and_hms_micro_opt(23, 59, 59, 999_999)
            .unwrap();
        assert!(check_temporal_range(&fine.into()).is_ok());
        assert!(check_temporal_range(&NaiveDate::from_ymd_opt(1, 1, 1).unwrap().into()).is_ok());
        // One nanosecond past a microsecond, in a timestamp and (UTC) a timestamptz.
        let finer = fine.with_nanosecond(999_999_001).unwrap();
        let e = check_temporal_range(&finer.into()).unwrap_err();
        assert_eq!(
            e.message(),
            "timestamp 9999-12-31 23:59:59.999999001 has digits below a microsecond, \
             which Iceberg does not keep"
        );
        assert!(check_temporal_range(&finer.and_utc().into()).is_err());
        assert!(check_temporal_range(&Value::Struct(vec![finer.into()])).is_err());
    }
}
