//! What the engines refuse after their grammar has accepted the text: the forms and
//! ranges of literals, row counts and type parameters. A grammar reads these more
//! leniently than its engine (any number after `LIMIT`, any digits in `X'…'`, any
//! precision in `decimal(p, s)`), so the checks ask here for each literal, row count
//! and type they meet. Each function returns what is wrong (a sentence that says
//! what was found and how to write it), or `None`.
//!
//! Trino's rules and their sources (trinodb/trino):
//!
//! | what | rule | source |
//! |---|---|---|
//! | integer literal | decimal digits (this crate: no `0x`, `0o`, `0b`, `_`), at most 2^63 - 1 | `core/trino-parser/…/tree/LongLiteral.java` |
//! | decimal literal | at most 38 significant digits | `core/trino-spi/…/type/Decimals.java` |
//! | `X'…'` | hexadecimal digits (spaces ignored), an even number | `core/trino-parser/…/tree/BinaryLiteral.java` |
//! | `LIMIT`, `OFFSET`, `FETCH FIRST` | an integer literal or `?` (`LIMIT ALL`) | `SqlBase.g4` (`rowCount`) |
//! | `decimal(p, s)` | 1 ≤ p ≤ 38, 0 ≤ s ≤ p | `core/trino-spi/…/type/DecimalType.java` |
//! | `varchar(n)` | 0 ≤ n < 2^31 - 1 | `core/trino-spi/…/type/VarcharType.java` |
//! | `char(n)` | 0 ≤ n ≤ 65536 | `core/trino-spi/…/type/CharType.java` |
//! | `timestamp(p)`, `time(p)` (with or without time zone), `current_timestamp(p)` | 0 ≤ p ≤ 12 | `core/trino-spi/…/type/TimestampType.java` (`MAX_PRECISION`) |
//! | `T array[n]` | refused | `core/trino-parser/…/parser/AstBuilder.java` (`visitArrayType`) |
//! | type names | Trino's (`StandardTypes`), in its grammar's spelling (`array(T)`, `row(a T)`) | `core/trino-spi/…/type/StandardTypes.java` |
//! | `TIMESTAMP '…'`, `DATE '…'`, `DECIMAL '…'`, `BIGINT '…'`, `REAL '…'` | a value of the type | `core/trino-main/…/sql/analyzer/ExpressionAnalyzer.java` (read as in `engine::literals`) |
//! | `INTERVAL '…' f [TO f]` | a number in a string; YEAR TO MONTH or day-time ranges | `SqlBase.g4` (`interval`), `core/trino-main/…/util/DateTimeUtils.java` |
//! | `current_timestamp(p)` | p in 0 to 12, no `()` | `SqlBase.g4` (`specialDateTimeFunction`) |
//!
//! Spark's, from `SqlBaseLexer.g4` and `AstBuilder.scala` of apache/spark 3.5: `5L`,
//! `5S`, `5Y` are integers within bigint, smallint and tinyint (`L`, `S`, `Y` after
//! digits only); a decimal literal (`1.5`, `1.5BD`, an integer beyond bigint) has at
//! most 38 digits; `X'…'` holds hexadecimal digits only (an odd count is padded);
//! `LIMIT` takes a non-negative int; type names are `visitPrimitiveDataType`'s (no
//! `timestamp(p)`, `char(n)` and `varchar(n)` with their length); `decimal(p, s)` as
//! Trino's.

use std::borrow::Cow;
use std::fmt::Display;

use crate::dialect::Grammar;
use crate::engine::literals::{decimal_literal_type, timestamp_literal_type};
use crate::engine::types::{
    EngineType, MAX_CHAR_LENGTH, MAX_DECIMAL_PRECISION, MAX_TIME_PRECISION, MAX_VARCHAR_LENGTH,
};

/// A number as sqlparser read it (`long`: a trailing `L`), in `grammar`. A sign before
/// it is an operator (`-5` negates the literal `5`), so its magnitude is checked.
pub(super) fn number_problem(text: &str, long: bool, grammar: Grammar) -> Option<String> {
    // (`0x`, `0X`, `0o`, `0b` …, without a lowercased copy: every number of a batch
    // comes here.)
    let prefixed =
        matches!(text.as_bytes(), [b'0', p, ..] if matches!(p | 0x20, b'x' | b'o' | b'b'));
    if prefixed {
        return Some(format!(
            "integer literal `{text}` in hexadecimal, octal or binary: write it in decimal digits"
        ));
    }
    if grammar == Grammar::Spark {
        return spark_number_problem(text, long);
    }
    if long {
        return Some(format!(
            "number `{text}L`: the `L` suffix is Spark syntax; {} writes the number alone \
             (an integer literal is a bigint when it does not fit an integer)",
            grammar.name()
        ));
    }
    if grammar != Grammar::TrinoDml {
        return None;
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return integer_problem(text, "bigint", i64::MAX as u128);
    }
    decimal_digits_problem(text, grammar)
}

/// A decimal literal (`1.5`; in Spark also an integer beyond bigint, and `1.5BD`) has at
/// most 38 digits (Trino's `Decimals.parse`, see `engine::literals`); a literal with an
/// exponent is a double.
fn decimal_digits_problem(text: &str, grammar: Grammar) -> Option<String> {
    if text.contains(['e', 'E']) {
        return None;
    }
    decimal_literal_type(text).err().map(|e| {
        format!(
            "{}: a {} decimal has at most {MAX_DECIMAL_PRECISION} digits; write it as a double \
             (`{text}e0`) or round it",
            e.message(),
            if grammar == Grammar::Spark {
                "Spark"
            } else {
                "Trino"
            }
        )
    })
}

/// `digits` as an integer literal of type `ty` whose largest value is `max`.
fn integer_problem(digits: &str, ty: &str, max: u128) -> Option<String> {
    let fits = digits
        .trim_start_matches('0')
        .parse::<u128>()
        .map_or(digits.trim_start_matches('0').is_empty(), |v| v <= max);
    (!fits).then(|| {
        format!(
            "integer literal `{digits}` is beyond {ty} (at most {max}): write a decimal literal \
             (`{digits}.0`) or a smaller number"
        )
    })
}

/// Spark's typed numbers: `5L`, `5S`, `5Y` within their types; `1.5D`, `1.5F`, `1.5BD`.
fn spark_number_problem(text: &str, long: bool) -> Option<String> {
    let upper = text.to_ascii_uppercase();
    let (body, int_type) = if long {
        (text, Some(("L (bigint)", i64::MAX as u128)))
    } else if let Some(b) = upper.strip_suffix('L') {
        (&text[..b.len()], Some(("L (bigint)", i64::MAX as u128)))
    } else if let Some(b) = upper.strip_suffix('S') {
        (&text[..b.len()], Some(("S (smallint)", i16::MAX as u128)))
    } else if let Some(b) = upper.strip_suffix('Y') {
        (&text[..b.len()], Some(("Y (tinyint)", i8::MAX as u128)))
    } else {
        (text, None)
    };
    let Some((suffix, max)) = int_type else {
        let upper_body = upper.strip_suffix("BD").unwrap_or(&upper);
        if upper_body.ends_with(['D', 'F']) {
            return None;
        }
        return decimal_digits_problem(&text[..upper_body.len()], Grammar::Spark);
    };
    if !body.bytes().all(|b| b.is_ascii_digit()) {
        return Some(format!(
            "number `{text}`: Spark's {suffix} suffix follows an integer only"
        ));
    }
    integer_problem(body, suffix, max)
}

/// The digits of a binary literal `X'…'`, in `grammar`.
pub(super) fn binary_problem(hex: &str, grammar: Grammar) -> Option<String> {
    let spark = grammar == Grammar::Spark;
    let digits: String = if spark {
        hex.to_string()
    } else {
        hex.chars().filter(|c| !c.is_whitespace()).collect()
    };
    if let Some(c) = digits.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Some(format!(
            "binary literal X'{hex}' contains {c:?}: it holds hexadecimal digits only (0-9, A-F)"
        ));
    }
    (!spark && digits.len() % 2 == 1).then(|| {
        format!(
            "binary literal X'{hex}' has an odd number of hexadecimal digits: Trino needs an even \
             number, two per byte (write X'0{digits}')"
        )
    })
}

/// A row count as written after `LIMIT`, `OFFSET` or `FETCH FIRST`.
pub(super) enum RowCount<'a> {
    /// An integer literal: its digits.
    Integer(&'a str),
    /// A `?` placeholder.
    Placeholder,
    /// Anything else (an expression, a number with a fraction or a suffix).
    Other,
}

/// A row count after `LIMIT`, `OFFSET` or `FETCH FIRST` (`shown`: its text): in Trino's
/// grammar an integer literal within bigint, or `?`; in Spark's an integer literal
/// within int (Spark takes an expression but its analyser wants a non-negative int: "The
/// limit expression must be integer type", "… must be equal to or greater than 0").
pub(super) fn row_count_problem(
    clause: &str,
    count: RowCount,
    shown: &dyn Display,
    grammar: Grammar,
) -> Option<String> {
    let spark = grammar == Grammar::Spark;
    match count {
        RowCount::Integer(n) if n.bytes().all(|b| b.is_ascii_digit()) => {
            return if spark {
                integer_problem(n, "int", i32::MAX as u128)
            } else {
                integer_problem(n, "bigint", i64::MAX as u128)
            };
        }
        RowCount::Placeholder if !spark => return None,
        _ => {}
    }
    Some(format!(
        "{clause} {shown}: {} takes a row count written as a non-negative integer literal{} here, \
         not an expression",
        if spark { "Spark" } else { "Trino" },
        if spark { "" } else { " (or ?)" }
    ))
}

/// Which brackets hold a compound type's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Brackets {
    /// Trino's `array(T)`, `map(K, V)`, `row(a T)`.
    Parentheses,
    /// Hive's and Spark's `array<T>`, `map<K, V>`, `struct<a: T>`.
    Angle,
}

/// A `timestamp` or `time` type's zone clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Zone {
    None,
    With,
    Without,
}

/// A type as written, as the rules here read it (each parser's tree is read into
/// this; the types inside a compound type are checked one by one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum TypeForm<'a> {
    /// A type named by words: the name in lower case, its words one space apart
    /// (`integer`, `double precision`, `interval year to month`), its numeric
    /// parameters (`decimal(10, 2)`: `[10, 2]`) and the zone clause of a `timestamp`
    /// or `time`.
    Named {
        name: Cow<'a, str>,
        params: Vec<i64>,
        zone: Zone,
    },
    Array(Brackets),
    Map(Brackets),
    /// `row(…)` / `struct<…>`.
    Row(Brackets),
}

impl TypeForm<'_> {
    /// The name and parameters of a named type without a zone clause.
    fn named(&self) -> Option<(&str, &[i64])> {
        match self {
            TypeForm::Named {
                name,
                params,
                zone: Zone::None,
            } => Some((name, params)),
            _ => None,
        }
    }
}

/// A type as written (`shown`: its text for messages), this node only (the walk
/// visits the types inside it), in `grammar`: the parameter ranges everywhere, and in
/// Trino grammar the type names Trino has.
pub(super) fn type_problem(t: &TypeForm, shown: &dyn Display, grammar: Grammar) -> Option<String> {
    if let Some(msg) = decimal_problem(t, shown) {
        return Some(msg);
    }
    match grammar {
        Grammar::TrinoDml => trino_type_problem(t, shown),
        Grammar::Spark => spark_type_problem(t, shown),
        // Hive DDL column types are checked with the DDL rules (`ddl_rules`).
        Grammar::HiveDdl => None,
    }
}

/// Spark's type names (`visitPrimitiveDataType` in Spark's `AstBuilder.scala`): a
/// parameter only where the type takes one (`timestamp(3)` is refused there),
/// `char(n)` and `varchar(n)` with their length.
fn spark_type_problem(t: &TypeForm, shown: &dyn Display) -> Option<String> {
    const PLAIN: &[&str] = &[
        "boolean",
        "tinyint",
        "smallint",
        "int",
        "integer",
        "bigint",
        "float",
        "real",
        "double",
        "date",
        "timestamp",
        "timestamp_ntz",
        "string",
        "binary",
    ];
    let ok = match t {
        TypeForm::Array(Brackets::Angle)
        | TypeForm::Map(Brackets::Angle)
        | TypeForm::Row(Brackets::Angle) => true,
        _ => match t.named() {
            Some((name, [])) => PLAIN.contains(&name) || is_decimal(name),
            Some(("char" | "varchar", [_])) => true,
            Some((name, _)) => is_decimal(name),
            None => false,
        },
    };
    (!ok).then(|| {
        format!(
            "type `{shown}` is not a Spark type as this crate writes it: Spark's are boolean, tinyint, \
             smallint, int, bigint, float, double, decimal(p, s), date, timestamp, timestamp_ntz, \
             string, char(n), varchar(n), binary, array<T>, map<K, V> and struct<name: T, …>"
        )
    })
}

/// The names of the decimal type.
fn is_decimal(name: &str) -> bool {
    matches!(name, "decimal" | "numeric" | "dec")
}

fn decimal_problem(t: &TypeForm, shown: &dyn Display) -> Option<String> {
    match t.named()? {
        (name, [p]) if is_decimal(name) => precision_scale_problem(shown, *p as u64, 0),
        (name, [p, s]) if is_decimal(name) => precision_scale_problem(shown, *p as u64, *s),
        _ => None,
    }
}

/// `decimal(p, s)` (`t` names it in the message).
pub(super) fn precision_scale_problem(t: impl Display, p: u64, s: i64) -> Option<String> {
    if p == 0 || p > u64::from(MAX_DECIMAL_PRECISION) {
        return Some(format!(
            "type `{t}`: a decimal's precision is 1 to {MAX_DECIMAL_PRECISION}"
        ));
    }
    (s < 0 || s as u64 > p)
        .then(|| format!("type `{t}`: a decimal's scale is 0 to its precision ({p})"))
}

/// Trino's type names (the type signatures of `core/trino-spi/…/type/StandardTypes.java`
/// this crate has use for) in the spelling of its grammar, with their parameter ranges.
fn trino_type_problem(t: &TypeForm, shown: &dyn Display) -> Option<String> {
    const PLAIN: &[&str] = &[
        "boolean",
        "tinyint",
        "smallint",
        "int",
        "integer",
        "bigint",
        "real",
        "double",
        "double precision",
        "varchar",
        "char",
        "varbinary",
        "date",
        "json",
        "uuid",
        "interval year to month",
        "interval day to second",
        "ipaddress",
        "hyperloglog",
        "p4hyperloglog",
        "tdigest",
    ];
    let within = |what: &str, n: i64, low: u64, high: u64| {
        (n < 0 || (n as u64) < low || n as u64 > high)
            .then(|| format!("type `{shown}`: {what} is {low} to {high} in Trino"))
    };
    let refused = || {
        Some(format!(
            "type `{shown}` is not a Trino type as this crate writes it: Trino's are boolean, tinyint, \
             smallint, integer, bigint, real, double, decimal(p, s), varchar[(n)], char[(n)], \
             varbinary, date, time[(p)], timestamp[(p)] [with time zone], interval year to month, \
             interval day to second, json, uuid, ipaddress, array(T), map(K, V) and row(name T, …)"
        ))
    };
    match t {
        TypeForm::Array(Brackets::Parentheses)
        | TypeForm::Map(Brackets::Parentheses)
        | TypeForm::Row(Brackets::Parentheses) => None,
        TypeForm::Named { name, params, zone } => match (name.as_ref(), params.as_slice()) {
            ("timestamp" | "time", []) => None,
            ("timestamp" | "time", [p]) => {
                within("the precision", *p, 0, MAX_TIME_PRECISION.into())
            }
            _ if *zone != Zone::None => refused(),
            ("varchar", [n]) => within("a varchar's length", *n, 0, MAX_VARCHAR_LENGTH.into()),
            ("char", [n]) => within("a char's length", *n, 0, MAX_CHAR_LENGTH.into()),
            ("decimal", _) => None,
            (name, []) if PLAIN.contains(&name) => None,
            _ => refused(),
        },
        _ => refused(),
    }
}

/// The arguments of a call to one of Trino's special date-time functions.
pub(super) enum CallArgs {
    /// No parentheses: `CURRENT_TIMESTAMP`.
    None,
    /// One integer literal: `CURRENT_TIMESTAMP(3)`.
    Precision(u64),
    /// Anything else: `CURRENT_TIMESTAMP()`, `CURRENT_TIMESTAMP(x)`, ….
    Other,
}

/// `CURRENT_TIMESTAMP`, `LOCALTIMESTAMP`, `CURRENT_TIME`, `LOCALTIME` take an optional
/// precision `(p)`, an integer 0 to 12; `CURRENT_DATE` takes none (Trino's
/// `specialDateTimeFunction`).
pub(super) fn special_date_time_problem(name: &str, args: CallArgs) -> Option<String> {
    let takes_precision = [
        "current_timestamp",
        "localtimestamp",
        "current_time",
        "localtime",
    ]
    .iter()
    .any(|n| name.eq_ignore_ascii_case(n));
    if !takes_precision && !name.eq_ignore_ascii_case("current_date") {
        return None;
    }
    match args {
        CallArgs::None => None,
        CallArgs::Precision(p) if takes_precision && p <= MAX_TIME_PRECISION.into() => None,
        _ if takes_precision => Some(format!(
            "{name}(…): Trino writes {name} or {name}(p) with a precision p from 0 to {MAX_TIME_PRECISION}"
        )),
        _ => Some(format!("{name}(…): Trino writes {name} without parentheses")),
    }
}

/// The value of a typed literal `T '…'` in Trino's grammar (`shown`: the type's text),
/// for the types whose literals Trino parses when it analyses the statement ("'…' is not
/// a valid TIMESTAMP literal", "Invalid DECIMAL value", a failed cast of the string):
/// TIMESTAMP and DATE (as `engine::literals` reads them), DECIMAL, the integer types and
/// REAL / DOUBLE.
pub(super) fn typed_literal_problem(
    t: &TypeForm,
    shown: &dyn Display,
    value: &str,
    grammar: Grammar,
) -> Option<String> {
    if grammar != Grammar::TrinoDml {
        return None;
    }
    let shown_value = value.escape_debug();
    let integer = |ty: &str, min: i128, max: i128| {
        let ok = value
            .strip_prefix('+')
            .unwrap_or(value)
            .parse::<i128>()
            .is_ok_and(|v| (min..=max).contains(&v));
        (!ok).then(|| {
            format!(
                "{ty} '{shown_value}': the value is not a {ty} (an integer from {min} to {max})"
            )
        })
    };
    if let TypeForm::Named { name, params, .. } = t {
        if name == "timestamp" && params.is_empty() {
            return timestamp_literal_type(value)
                .err()
                .map(|e| e.message().to_string());
        }
    }
    let Some((name, [])) = t.named() else {
        return None;
    };
    match name {
        "date" => {
            let date_only = matches!(timestamp_literal_type(value), Ok(EngineType::Timestamp(0)))
                && !value.contains([' ', ':']);
            (!date_only)
                .then(|| format!("DATE '{shown_value}': a date is written yyyy-mm-dd, a valid day"))
        }
        "decimal" => decimal_literal_type(value)
            .err()
            .map(|e| e.message().to_string()),
        "bigint" => integer("BIGINT", i64::MIN.into(), i64::MAX.into()),
        "integer" | "int" => integer("INTEGER", i32::MIN.into(), i32::MAX.into()),
        "smallint" => integer("SMALLINT", i16::MIN.into(), i16::MAX.into()),
        "tinyint" => integer("TINYINT", i8::MIN.into(), i8::MAX.into()),
        "real" | "double" | "double precision" => {
            let numeric = !value.is_empty()
                && value
                    .bytes()
                    .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
                && value.parse::<f64>().is_ok();
            (!numeric).then(|| {
                format!(
                    "{shown} '{shown_value}': the value is not a number (write digits, `.` and an exponent)"
                )
            })
        }
        _ => None,
    }
}

/// An interval's value as Trino reads it: a number for one field (a fraction for
/// SECOND), digits with `-`, ` `, `:` and `.` between them for a range.
pub(crate) fn interval_value_ok(s: &str, range: bool) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    if !body.starts_with(|c: char| c.is_ascii_digit())
        || !body.ends_with(|c: char| c.is_ascii_digit())
    {
        return false;
    }
    if range {
        return body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | ' ' | ':' | '.'));
    }
    let (int, frac) = body.split_once('.').unwrap_or((body, "0"));
    !frac.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
}
