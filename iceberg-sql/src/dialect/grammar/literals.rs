//! Literal spelling per grammar: a value is always written for a known column type, so
//! the text has exactly that type (`REAL '1.5'`, `CAST(NULL AS varchar)`,
//! `TIMESTAMP '... .000000'`).
//!
//! Strings are the only place user text enters the SQL: Trino doubles `'`; Spark escapes
//! `\` and `'` with a backslash (and the `{` of `${`, see [`write_string`]). No other
//! character can end a literal in either grammar.

use std::fmt::Write;

use chrono::Datelike;

use super::Grammar;
use crate::engine::literals::check_temporal_range;
use crate::error::{Error, ErrorKind, Result};
use crate::render::separated;
use crate::types::IcebergType;
use crate::value::{Decimal, Value};

fn mismatch(value: &Value, ty: &IcebergType) -> Error {
    Error::new(
        ErrorKind::InvalidValue,
        format!(
            "a {} value cannot be written to a column of type {}",
            value.kind_name(),
            ty.iceberg_name()
        ),
    )
}

/// Appends `value` as a literal of type `ty` in `grammar`.
pub(super) fn write_literal(
    out: &mut String,
    value: &Value,
    ty: &IcebergType,
    grammar: Grammar,
) -> Result<()> {
    use IcebergType as T;
    let spark = grammar == Grammar::Spark;
    match (value, ty) {
        (Value::Null, _) => {
            out.push_str("CAST(NULL AS ");
            write_cast_type(out, ty, grammar);
            out.push(')');
        }
        (Value::Boolean(b), T::Boolean) => out.push_str(if *b { "true" } else { "false" }),
        (Value::Int(i), T::Int) if *i == i32::MIN => {
            // `-2147483648` is the negation of a bigint literal; keep it an int.
            out.push_str(if spark {
                "CAST(-2147483648 AS INT)"
            } else {
                "CAST(-2147483648 AS integer)"
            })
        }
        (Value::Int(i), T::Int | T::Long) => push_int(out, i64::from(*i)),
        (Value::Long(i), T::Long) if *i == i64::MIN => out.push_str(if spark {
            "CAST('-9223372036854775808' AS BIGINT)"
        } else {
            "BIGINT '-9223372036854775808'"
        }),
        (Value::Long(i), T::Long) => push_int(out, *i),
        (Value::Float(f), T::Float) => write_float(out, f64::from(*f), &f.to_string(), true, spark),
        (Value::Float(f), T::Double) => {
            write_float(out, f64::from(*f), &f.to_string(), false, spark)
        }
        (Value::Double(f), T::Double) => write_float(out, *f, &f.to_string(), false, spark),
        (Value::Decimal(d), T::Decimal { precision, scale }) => {
            let Some(d2) = d
                .rescale(*scale)
                .filter(|d2| d2.precision() <= u32::from(*precision))
            else {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!("decimal {d} does not fit decimal({precision},{scale}) without losing digits"),
                ));
            };
            if spark {
                let _ = write!(out, "CAST('{d2}' AS DECIMAL({precision},{scale}))");
            } else {
                let _ = write!(out, "DECIMAL '{d2}'");
            }
        }
        (Value::Int(i), T::Decimal { .. }) => {
            return write_literal(
                out,
                &Value::Decimal(Decimal::new(i128::from(*i), 0)),
                ty,
                grammar,
            )
        }
        (Value::Long(i), T::Decimal { .. }) => {
            return write_literal(
                out,
                &Value::Decimal(Decimal::new(i128::from(*i), 0)),
                ty,
                grammar,
            )
        }
        (Value::Date(_), T::Date) | (Value::Timestamp(_) | Value::TimestampTz(_), _)
            if check_temporal_range(value).is_err() =>
        {
            return check_temporal_range(value);
        }
        (Value::Date(d), T::Date) => {
            out.push_str("DATE '");
            push_date(out, d);
            out.push('\'');
        }
        (Value::Timestamp(ts), T::Timestamp) => {
            out.push_str(if spark {
                "TIMESTAMP_NTZ '"
            } else {
                "TIMESTAMP '"
            });
            push_date_time(out, ts);
            out.push('\'');
        }
        // A `DateTime<Utc>` is stored as its UTC wall clock in a `timestamp` column, and
        // a zone-less value in a `timestamptz` column is the UTC instant: the same
        // instant either way.
        (Value::TimestampTz(ts), T::Timestamp) => {
            return write_literal(out, &Value::Timestamp(ts.naive_utc()), ty, grammar)
        }
        (Value::Timestamp(ts), T::TimestampTz) => {
            return write_literal(out, &Value::TimestampTz(ts.and_utc()), ty, grammar)
        }
        (Value::TimestampTz(ts), T::TimestampTz) => {
            out.push_str("TIMESTAMP '");
            push_date_time(out, &ts.naive_utc());
            out.push_str(if spark { "Z'" } else { " UTC'" });
        }
        (Value::String(s), T::String) => write_string(out, s, grammar),
        (Value::Binary(b), T::Binary) => {
            out.push_str("X'");
            for byte in b {
                let _ = write!(out, "{byte:02x}");
            }
            out.push('\'');
        }
        (Value::List(items), T::List(elem)) => {
            if items.is_empty() {
                out.push_str(if spark {
                    "CAST(array() AS "
                } else {
                    "CAST(ARRAY[] AS "
                });
                write_cast_type(out, ty, grammar);
                out.push(')');
            } else {
                out.push_str(if spark { "array(" } else { "ARRAY[" });
                separated(out, items, ", ", |out, v| {
                    write_literal(out, v, elem, grammar)
                })?;
                out.push(if spark { ')' } else { ']' });
            }
        }
        (Value::Map(entries), T::Map(kt, vt)) => {
            let mut keys = std::collections::HashSet::new();
            for (k, _) in entries {
                if matches!(k, Value::Null) {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        "a map key cannot be NULL",
                    ));
                }
                // Keys compare by value: 0.0 and -0.0 are one key to both engines
                // (Trino's DoubleType/RealType equality and hash; Spark normalizes
                // them), so they are compared as one here too. NaNs share a literal.
                let key = match k {
                    Value::Double(x) if *x == 0.0 => Value::Double(0.0).to_literal(kt, grammar),
                    Value::Float(x) if *x == 0.0 => Value::Float(0.0).to_literal(kt, grammar),
                    k => k.to_literal(kt, grammar),
                }?;
                if keys.contains(&key) {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!("a map value has the key {key} twice"),
                    )
                    .with_hint(
                        "keep one entry per key: Athena and Spark refuse duplicate map keys \
                         (0.0 and -0.0 are one key)",
                    ));
                }
                keys.insert(key);
            }
            if entries.is_empty() {
                out.push_str(if spark {
                    "CAST(map() AS "
                } else {
                    "CAST(MAP(ARRAY[], ARRAY[]) AS "
                });
                write_cast_type(out, ty, grammar);
                out.push(')');
            } else if spark {
                out.push_str("map(");
                separated(out, entries, ", ", |out, (k, v)| {
                    write_literal(out, k, kt, grammar)?;
                    out.push_str(", ");
                    write_literal(out, v, vt, grammar)
                })?;
                out.push(')');
            } else {
                out.push_str("MAP(ARRAY[");
                separated(out, entries, ", ", |out, (k, _)| {
                    write_literal(out, k, kt, grammar)
                })?;
                out.push_str("], ARRAY[");
                separated(out, entries, ", ", |out, (_, v)| {
                    write_literal(out, v, vt, grammar)
                })?;
                out.push_str("])");
            }
        }
        (Value::Struct(values), T::Struct(fields)) => {
            if values.len() != fields.len() {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "a struct value has {} fields, its type {} has {}",
                        values.len(),
                        ty.iceberg_name(),
                        fields.len()
                    ),
                ));
            }
            if spark {
                out.push_str("named_struct(");
                separated(out, values.iter().zip(fields), ", ", |out, (v, f)| {
                    write_string(out, &f.name, grammar);
                    out.push_str(", ");
                    write_literal(out, v, &f.ty, grammar)
                })?;
                out.push(')');
            } else {
                out.push_str("CAST(ROW(");
                separated(out, values.iter().zip(fields), ", ", |out, (v, f)| {
                    write_literal(out, v, &f.ty, grammar)
                })?;
                out.push_str(") AS ");
                write_cast_type(out, ty, grammar);
                out.push(')');
            }
        }
        _ => match value.exactly_as(ty) {
            Some(v) => return write_literal(out, &v, ty, grammar),
            None => return Err(mismatch(value, ty)),
        },
    }
    Ok(())
}

/// Appends the decimal digits of `i` (what `write!(out, "{i}")` writes, without the
/// formatting machinery: rows of numbers are the bulk of an INSERT).
fn push_int(out: &mut String, i: i64) {
    let mut buf = [0u8; 20];
    let mut n = i.unsigned_abs();
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        out.push('-');
    }
    for &b in &buf[at..] {
        out.push(char::from(b));
    }
}

/// Appends `n` as exactly `width` digits (`n` < 10^width).
fn push_digits(out: &mut String, n: u32, width: u32) {
    let mut div = 10u32.pow(width - 1);
    while div > 0 {
        out.push(char::from(b'0' + ((n / div) % 10) as u8));
        div /= 10;
    }
}

/// [`write_literal`] for a comparison's operand. A timestamp with digits below a
/// microsecond is written with nine fraction digits in Trino's grammar: Trino types
/// `TIMESTAMP '2024-01-01 00:00:00.123456789'` as `timestamp(9)` and compares a
/// `timestamp(6)` column with it at their common super type, the greater precision
/// (`TypeCoercion.getCommonSuperType`, trinodb/trino
/// `core/trino-main/src/main/java/io/trino/type/TypeCoercion.java`), which holds every
/// stored value exactly: `ts < v` means what it says. Spark's timestamps hold
/// microseconds only, so Spark keeps the refusal of [`write_literal`].
pub(super) fn write_compared_literal(
    out: &mut String,
    value: &Value,
    ty: &IcebergType,
    grammar: Grammar,
) -> Result<()> {
    use chrono::Timelike;
    let naive = match (value, ty) {
        (Value::Timestamp(ts), IcebergType::Timestamp | IcebergType::TimestampTz) => *ts,
        (Value::TimestampTz(ts), IcebergType::Timestamp | IcebergType::TimestampTz) => {
            ts.naive_utc()
        }
        _ => return write_literal(out, value, ty, grammar),
    };
    if naive.nanosecond().is_multiple_of(1_000) || grammar == Grammar::Spark {
        return write_literal(out, value, ty, grammar);
    }
    crate::engine::literals::check_date_time(&naive, "timestamp")?;
    out.push_str("TIMESTAMP '");
    push_date(out, &naive.date());
    out.push(' ');
    push_digits(out, naive.hour(), 2);
    out.push(':');
    push_digits(out, naive.minute(), 2);
    out.push(':');
    push_digits(out, naive.second(), 2);
    out.push('.');
    push_digits(out, naive.nanosecond(), 9);
    out.push_str(if *ty == IcebergType::TimestampTz {
        " UTC'"
    } else {
        "'"
    });
    Ok(())
}

/// `YYYY-MM-DD` (the year is checked to be 1 to 9999 first), as chrono's `%Y-%m-%d`.
fn push_date(out: &mut String, d: &chrono::NaiveDate) {
    push_digits(out, d.year() as u32, 4);
    out.push('-');
    push_digits(out, d.month(), 2);
    out.push('-');
    push_digits(out, d.day(), 2);
}

/// `YYYY-MM-DD HH:MM:SS.ffffff`, as chrono's `%Y-%m-%d %H:%M:%S%.6f` (a leap second
/// is second 60; digits below a microsecond were refused before, by
/// `check_temporal_range`).
fn push_date_time(out: &mut String, ts: &chrono::NaiveDateTime) {
    use chrono::Timelike;
    push_date(out, &ts.date());
    out.push(' ');
    push_digits(out, ts.hour(), 2);
    out.push(':');
    push_digits(out, ts.minute(), 2);
    out.push(':');
    let nanos = ts.nanosecond();
    push_digits(out, ts.second() + nanos / 1_000_000_000, 2);
    out.push('.');
    push_digits(out, nanos % 1_000_000_000 / 1_000, 6);
}

/// The type as written inside `CAST(... AS <type>)`: DML types for Athena (a CAST is
/// always Trino), Spark types for Spark.
fn write_cast_type(out: &mut String, ty: &IcebergType, grammar: Grammar) {
    match grammar {
        Grammar::Spark => Grammar::Spark.write_type(out, ty),
        Grammar::HiveDdl | Grammar::TrinoDml => Grammar::TrinoDml.write_type(out, ty),
    }
}

fn write_float(out: &mut String, v: f64, shortest: &str, real: bool, spark: bool) {
    if v.is_finite() {
        match (real, spark) {
            (true, false) => {
                let _ = write!(out, "REAL '{shortest}'");
            }
            (true, true) => {
                let _ = write!(out, "CAST('{shortest}' AS FLOAT)");
            }
            (false, _) => {
                // Scientific notation makes the literal a double in both Trino and Spark
                // (a bare `1.5` is a decimal).
                let s = format!("{v:e}").replace('e', "E");
                out.push_str(&s);
            }
        }
        return;
    }
    let name = if v.is_nan() {
        "NaN"
    } else if v > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    };
    match (spark, real) {
        (true, true) => {
            let _ = write!(out, "CAST('{name}' AS FLOAT)");
        }
        (true, false) => {
            let _ = write!(out, "CAST('{name}' AS DOUBLE)");
        }
        (false, _) => {
            let f = match name {
                "NaN" => "nan()",
                "Infinity" => "infinity()",
                _ => "-infinity()",
            };
            let t = if real { "real" } else { "double" };
            let _ = write!(out, "CAST({f} AS {t})");
        }
    }
}

/// Appends a DML string literal for `s`: `'...'` with `'` doubled (Trino) or with `\`
/// and `'` backslash-escaped, and the `{` of `${` escaped against Spark's variable
/// substitution (Spark). Any Rust string round-trips.
pub(super) fn write_string(out: &mut String, s: &str, grammar: Grammar) {
    if grammar == Grammar::TrinoDml && s.chars().any(char::is_control) {
        return write_unicode_string(out, s);
    }
    out.reserve(s.len() + 2);
    out.push('\'');
    match grammar {
        Grammar::Spark => {
            let mut prev = '\0';
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\'' => out.push_str("\\'"),
                    // Stock Spark (Glue, EMR) substitutes `${var}` in the SQL text before
                    // parsing, even inside literals; `$\{` is not a variable, and Spark's
                    // lexer reads `\{` as `{`.
                    '{' if prev == '$' => out.push_str("\\{"),
                    c => out.push(c),
                }
                prev = c;
            }
        }
        Grammar::TrinoDml | Grammar::HiveDdl => {
            // Every `'` doubled. A plain byte search: `'` is ASCII, and most values
            // have none, so this is one scan and one copy.
            let mut rest = s;
            while let Some(i) = rest.bytes().position(|b| b == b'\'') {
                out.push_str(&rest[..=i]);
                out.push('\'');
                rest = &rest[i + 1..];
            }
            out.push_str(rest);
        }
    }
    out.push('\'');
}

/// Appends text holding a control character (U+0000-U+001F, U+007F-U+009F: a NUL, a
/// tab, a newline, ...) as a Trino Unicode string literal, `U&'a\0009b'`: each control
/// character as `\` and four hex digits, `\` as `\\`, `'` doubled, every other character
/// as itself. Trino's grammar takes any character but `'` in a plain literal, but a raw
/// control character in the query text is at the mercy of every layer that carries or
/// shows it (a NUL ends C strings; CR and LF split log lines); the escaped form is
/// printable ASCII around the text's own characters, and Trino decodes it to the same
/// value (<https://trino.io/docs/current/language/types.html#varchar>: "Unicode
/// character string literals").
fn write_unicode_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 16);
    out.push_str("U&'");
    for c in s.chars() {
        match c {
            '\'' => out.push_str("''"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('\'');
}

/// Appends a DDL string literal (LOCATION, COMMENT, property values). The Hive lexer's
/// escaping is unverified, so text with `'`, `\` or control characters is refused; `what`
/// names the text in the error.
pub(super) fn write_ddl_string(
    out: &mut String,
    what: &str,
    s: &str,
    grammar: Grammar,
) -> Result<()> {
    if grammar == Grammar::Spark && s.contains("${") {
        // DDL strings cannot hold escapes, and stock Spark would substitute `${var}`.
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("{what} contains `${{`, which Spark replaces with a variable's value"),
        )
        .with_hint("remove the `${` sequence from the text"));
    }
    crate::model::check_ddl_text(what, s)?;
    out.push('\'');
    out.push_str(s);
    out.push('\'');
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, NaiveTime};

    use super::*;

    #[test]
    fn numbers_and_times_are_written_as_format_writes_them() {
        for i in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            123_456,
            i64::MAX,
            i64::MIN + 1,
            i64::MIN,
        ] {
            let mut s = String::new();
            push_int(&mut s, i);
            assert_eq!(s, i.to_string());
        }
        let times = [
            (0, 0, 0, 0),
            (23, 59, 59, 999_999_999),
            (12, 5, 7, 1_000),
            (23, 59, 59, 1_999_999_999),
        ];
        for (y, m, d) in [(1, 1, 1), (2026, 10, 1), (9999, 12, 31), (1969, 12, 31)] {
            let date = NaiveDate::from_ymd_opt(y, m, d).unwrap();
            let mut s = String::new();
            push_date(&mut s, &date);
            assert_eq!(s, date.format("%Y-%m-%d").to_string());
            for (h, mi, sec, nano) in times {
                let ts = date.and_time(NaiveTime::from_hms_nano_opt(h, mi, sec, nano).unwrap());
                let mut s = String::new();
                push_date_time(&mut s, &ts);
                assert_eq!(s, ts.format("%Y-%m-%d %H:%M:%S%.6f").to_string(), "{ts:?}");
            }
        }
    }
}
