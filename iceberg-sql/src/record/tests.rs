//! Cell parsing and row decoding, from Athena-format text.

use chrono::NaiveDate;

use super::*;
use crate::model::Column;
use crate::types::{IcebergType, StructField};
use crate::value::{Decimal, Value};

fn rt(v: Value, ty: &IcebergType) {
    let text = format_cell(&v, ty).expect("not null");
    let back = parse_cell(&text, ty).unwrap_or_else(|e| panic!("{text}: {e}"));
    // Debug text compares NaN equal to NaN.
    assert_eq!(format!("{back:?}"), format!("{v:?}"), "{text}");
}

#[test]
fn primitive_cells() {
    use IcebergType as T;
    assert_eq!(
        parse_cell("true", &T::Boolean).unwrap(),
        Value::Boolean(true)
    );
    assert!(parse_cell("1", &T::Boolean).is_err());
    assert!(parse_cell("", &T::Int).is_err());
    assert_eq!(
        parse_cell("", &T::String).unwrap(),
        Value::String(String::new())
    );
    assert_eq!(
        parse_cell("1.0E10", &T::Double).unwrap(),
        Value::Double(1e10)
    );
    assert!(parse_cell("NaN", &T::Double).unwrap() != Value::Double(0.0));
    assert_eq!(
        parse_cell("-Infinity", &T::Float).unwrap(),
        Value::Float(f32::NEG_INFINITY)
    );
    let d = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    for (text, nanos) in [
        ("2026-10-01 12:00:00", 0),
        ("2026-10-01 12:00:00.1", 100_000_000),
        ("2026-10-01 12:00:00.123", 123_000_000),
        ("2026-10-01 12:00:00.123456", 123_456_000),
        ("2026-10-01 12:00:00.123456789", 123_456_789),
        ("2026-10-01T12:00:00.123", 123_000_000),
    ] {
        let want = d.and_hms_nano_opt(12, 0, 0, nanos).unwrap();
        assert_eq!(
            parse_cell(text, &T::Timestamp).unwrap(),
            Value::Timestamp(want),
            "{text}"
        );
        let tz = format!("{} UTC", text);
        assert_eq!(
            parse_cell(&tz, &T::TimestampTz).unwrap(),
            Value::TimestampTz(want.and_utc()),
            "{tz}"
        );
    }
    assert_eq!(
        parse_cell("2026-10-01 14:00:00 +02:00", &T::TimestampTz).unwrap(),
        Value::TimestampTz(d.and_hms_opt(12, 0, 0).unwrap().and_utc())
    );
    assert!(parse_cell("2026-10-01 12:00:00", &T::TimestampTz).is_err());
    assert_eq!(
        parse_cell("00 ff 1a", &T::Binary).unwrap(),
        Value::Binary(vec![0, 255, 26])
    );
    assert_eq!(
        parse_cell("00ff1a", &T::Binary).unwrap(),
        Value::Binary(vec![0, 255, 26])
    );
    assert!(parse_cell("0", &T::Binary).is_err());
    assert_eq!(
        parse_cell("-12.50", &T::decimal(10, 2)).unwrap(),
        Value::Decimal(Decimal::new(-1250, 2))
    );
}

#[test]
fn nested_cells_are_json() {
    use IcebergType as T;
    let point = T::Struct(vec![
        StructField::new("lat", T::Double),
        StructField::new("tag", T::String),
    ]);
    let want = Value::Struct(vec![Value::Double(1.5), Value::Null]);
    assert_eq!(
        parse_cell(r#"{"lat":1.5,"tag":null}"#, &point).unwrap(),
        want
    );
    assert_eq!(parse_cell(r#"[1.5, null]"#, &point).unwrap(), want);
    let m = T::map(T::Int, T::decimal(38, 20));
    assert_eq!(
        parse_cell(r#"{"7": 12345678901234567.12345678901234567890}"#, &m).unwrap(),
        Value::Map(vec![(
            Value::Int(7),
            Value::Decimal(Decimal::parse("12345678901234567.12345678901234567890").unwrap())
        )])
    );
    let e = parse_cell(r#"[1, "x"]"#, &T::list(T::Int)).unwrap_err();
    assert_eq!(e.message(), "at `[1]`: `x` is not a int value");
    rt(
        Value::List(vec![Value::String("a\"\\\n\u{1}é😀".into()), Value::Null]),
        &T::list(T::String),
    );
    rt(
        Value::List(vec![
            Value::Double(f64::NAN),
            Value::Double(f64::INFINITY),
            Value::Double(-0.5),
        ]),
        &T::list(T::Double),
    );
    assert_eq!(
        parse_cell(r#"["\ud83d\ude00"]"#, &T::list(T::String)).unwrap(),
        Value::List(vec![Value::String("😀".into())])
    );
    rt(want, &point);
}

#[test]
fn decode_errors_name_the_column() {
    let row = Row::untyped(["n"], vec![Some("x".to_string())]);
    let e = decode_column::<i64>(&row, &Column::new("n", IcebergType::Long)).unwrap_err();
    assert_eq!(e.message(), "column `n`: `x` is not a long value");
    let row = Row::untyped(["n"], vec![None]);
    let e = decode_column::<String>(&row, &Column::new("n", IcebergType::String)).unwrap_err();
    assert_eq!(
        e.message(),
        "column `n`: expected a string value, found NULL"
    );
    assert!(e.hint().unwrap().contains("Option"));
    assert_eq!(
        decode_column::<Option<String>>(&row, &Column::new("n", IcebergType::String)).unwrap(),
        None
    );
    let e = decode_column::<i64>(&row, &Column::new("m", IcebergType::Long)).unwrap_err();
    assert_eq!(e.message(), "column `m` is not in the result");
}
