//! Every Iceberg type decoded from Athena-format result cells, through the one row
//! model: typed columns (Athena's `ColumnInfo` type names), a derived projection struct,
//! a tuple, dynamic values, and the un-cast nested forms.
//!
//! Cell spellings are Trino's (Athena engine v3), as `GetQueryResults` returns them:
//! varbinary as space-separated hex pairs, timestamptz with its zone, nested values as
//! JSON when selected with `CAST(col AS JSON)` and in Trino's own form otherwise.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, Utc};
use iceberg_sql::record::{ColumnMeta, Columns, NestedForm, Row};
use iceberg_sql::{Decimal, FromRow, IcebergTable, IcebergType as T, Value};

fn ts(text: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f").unwrap()
}

fn row(cols: &[(&str, &str)], cells: &[Option<&str>]) -> Row {
    let columns = Arc::new(Columns::new(
        cols.iter().map(|(n, t)| ColumnMeta::new(*n, *t)).collect(),
    ));
    Row::new(
        columns,
        cells.iter().map(|c| c.map(str::to_string)).collect(),
    )
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
struct Point {
    lat: f64,
    tag: Option<String>,
}

/// One field per Iceberg type, read by name from a `SELECT` with nested columns cast
/// to JSON.
#[derive(FromRow, Debug, PartialEq)]
struct EveryType {
    b: bool,
    i: i32,
    l: i64,
    f: f32,
    d: f64,
    dec: Decimal,
    day: NaiveDate,
    at: NaiveDateTime,
    at_tz: DateTime<Utc>,
    at_offset: DateTime<FixedOffset>,
    s: String,
    empty: String,
    nothing: Option<String>,
    bin: Vec<u8>,
    tags: Vec<Option<String>>,
    counts: BTreeMap<String, i64>,
    place: Point,
    #[iceberg(rename = "places")]
    more_places: Vec<Option<Point>>,
}

const COLUMNS: &[(&str, &str)] = &[
    ("b", "boolean"),
    ("i", "integer"),
    ("l", "bigint"),
    ("f", "real"),
    ("d", "double"),
    ("dec", "decimal"),
    ("day", "date"),
    ("at", "timestamp"),
    ("at_tz", "timestamp with time zone"),
    ("at_offset", "timestamp(6) with time zone"),
    ("s", "varchar"),
    ("empty", "varchar"),
    ("nothing", "varchar"),
    ("bin", "varbinary"),
    ("tags", "json"),
    ("counts", "json"),
    ("place", "json"),
    ("places", "json"),
];

fn cells() -> Vec<Option<&'static str>> {
    vec![
        Some("true"),
        Some("-2147483648"),
        Some("9223372036854775807"),
        Some("3.4028235E38"),
        Some("-Infinity"),
        Some("-12345678901234567890.123456789012345678"),
        Some("2026-01-01"),
        Some("2026-01-01 12:00:00.123456"),
        Some("2026-01-01 12:00:00.000 UTC"),
        Some("2026-07-01 14:30:00.250 +02:00"),
        Some("a'b\"c\\ é😀, x=y {z}"),
        Some(""),
        None,
        Some("00 ff 1a"),
        Some(r#"["a, b","=",null]"#),
        Some(r#"{"x":1,"y":-2}"#),
        Some(r#"{"lat":1.5,"tag":null}"#),
        Some(r#"[{"lat":-0.5,"tag":"n"},null]"#),
    ]
}

#[test]
fn every_type_from_athena_cells_into_a_projection_struct() {
    let r = row(COLUMNS, &cells());
    let e = EveryType::from_row(&r).unwrap_or_else(|e| panic!("{e}"));
    assert!(e.b);
    assert_eq!(e.i, i32::MIN);
    assert_eq!(e.l, i64::MAX);
    assert_eq!(e.f, f32::MAX);
    assert_eq!(e.d, f64::NEG_INFINITY);
    // 38 digits, scale kept.
    assert_eq!(
        e.dec,
        Decimal::new(-12345678901234567890123456789012345678, 18)
    );
    assert_eq!(
        e.dec.to_string(),
        "-12345678901234567890.123456789012345678"
    );
    assert_eq!(e.day, NaiveDate::from_ymd_opt(2026, 1, 1).unwrap());
    assert_eq!(e.at, ts("2026-01-01 12:00:00.123456"));
    assert_eq!(e.at_tz, ts("2026-01-01 12:00:00").and_utc());
    assert_eq!(e.at_offset.offset().local_minus_utc(), 7200);
    assert_eq!(
        e.at_offset.with_timezone(&Utc),
        ts("2026-07-01 12:30:00.250").and_utc()
    );
    assert_eq!(e.s, "a'b\"c\\ é😀, x=y {z}");
    assert_eq!(e.empty, "");
    assert_eq!(e.nothing, None);
    assert_eq!(e.bin, [0x00, 0xff, 0x1a]);
    assert_eq!(
        e.counts,
        BTreeMap::from([("x".into(), 1), ("y".into(), -2)])
    );
    assert_eq!(
        e.place,
        Point {
            lat: 1.5,
            tag: None
        }
    );
    assert_eq!(
        e.more_places,
        vec![
            Some(Point {
                lat: -0.5,
                tag: Some("n".into())
            }),
            None
        ]
    );
    // Owned decoding moves the cells and gives the same value.
    assert_eq!(EveryType::from_row_owned(r).unwrap(), e);
    // A list of strings keeps its `, ` and `=` inside JSON strings; NULL is not "".
    let t: Vec<Option<String>> = row(COLUMNS, &cells()).try_get("tags").unwrap();
    assert_eq!(t, [Some("a, b".into()), Some("=".into()), None]);
}

#[test]
fn expected_columns_list_the_projection() {
    let cols = EveryType::expected_columns().unwrap();
    assert_eq!(cols.len(), COLUMNS.len());
    assert_eq!(cols[17].name, "places");
    assert_eq!(cols[12].ty, T::String);
    assert!(cols[12].nullable && !cols[11].nullable);
    assert_eq!(<(i64, String)>::expected_columns(), None);
}

#[test]
fn every_column_error_is_reported_at_once() {
    let mut bad = cells();
    bad[1] = Some("1.5");
    bad[7] = Some("2026-13-01 00:00:00");
    bad[11] = None;
    let e = EveryType::from_row(&row(COLUMNS, &bad)).unwrap_err();
    assert_eq!(e.message(), "column `i`: `1.5` is not a int value");
    let others: Vec<&str> = e.others().iter().map(|o| o.message()).collect();
    assert_eq!(
        others,
        [
            "column `at`: `2026-13-01 00:00:00` is not a timestamp value",
            "column `empty`: expected a string value, found NULL",
        ]
    );
    let missing = row(&[("b", "boolean")], &[Some("true")]);
    let e = EveryType::from_row(&missing).unwrap_err();
    assert_eq!(e.message(), "column `i` is not in the result");
    assert_eq!(e.others().len(), COLUMNS.len() - 2);
}

#[test]
fn dynamic_values_follow_the_column_types() {
    let r = row(COLUMNS, &cells());
    let v = r.values().unwrap();
    assert_eq!(v[0], Value::Boolean(true));
    assert_eq!(v[3], Value::Float(f32::MAX));
    // `decimal` without parameters: Trino's decimal(38, 0); the text's scale is kept.
    assert_eq!(
        v[5],
        Value::Decimal(Decimal::parse("-12345678901234567890.123456789012345678").unwrap())
    );
    assert_eq!(
        v[8],
        Value::TimestampTz(ts("2026-01-01 12:00:00").and_utc())
    );
    assert_eq!(v[12], Value::Null);
    assert_eq!(v[13], Value::Binary(vec![0, 255, 26]));
    // `json` is not an Iceberg type: its text.
    assert_eq!(v[15], Value::String(r#"{"x":1,"y":-2}"#.into()));
    // A decimal column with Athena's precision and scale in the metadata.
    let columns = Arc::new(Columns::new(vec![
        ColumnMeta::new("cost", "decimal").with_precision_scale(Some(10), Some(2))
    ]));
    assert_eq!(columns.iceberg_type(0), Some(&T::decimal(10, 2)));
    let r = Row::new(columns, vec![Some("-0.50".into())]);
    assert_eq!(
        r.value("cost").unwrap(),
        Value::Decimal(Decimal::new(-50, 2))
    );
}

#[test]
fn doubles_in_every_spelling() {
    for (text, want) in [
        ("1.0E10", 1e10),
        ("-0.0", -0.0),
        ("4.9E-324", 4.9e-324),
        ("1.7976931348623157E308", f64::MAX),
        ("Infinity", f64::INFINITY),
        ("-Infinity", f64::NEG_INFINITY),
    ] {
        let r = row(&[("d", "double")], &[Some(text)]);
        assert_eq!(r.try_get::<f64>("d").unwrap(), want, "{text}");
    }
    let r = row(&[("d", "double")], &[Some("NaN")]);
    assert!(r.try_get::<f64>("d").unwrap().is_nan());
    let r = row(&[("d", "double")], &[Some("")]);
    assert!(
        r.try_get::<f64>("d").is_err(),
        "an empty cell is not a number"
    );
}

#[test]
fn timestamps_with_any_fraction_and_zone_spellings() {
    for (text, want) in [
        ("2026-01-01 12:00:00", "2026-01-01 12:00:00"),
        ("2026-01-01 12:00:00.1", "2026-01-01 12:00:00.1"),
        ("2026-01-01 12:00:00.123", "2026-01-01 12:00:00.123"),
        ("2026-01-01 12:00:00.123456", "2026-01-01 12:00:00.123456"),
    ] {
        let r = row(&[("t", "timestamp(6)")], &[Some(text)]);
        assert_eq!(r.try_get::<NaiveDateTime>("t").unwrap(), ts(want));
    }
    for (text, utc) in [
        ("2026-01-01 12:00:00.000 UTC", "2026-01-01 12:00:00"),
        ("2026-01-01 12:00:00.000 Z", "2026-01-01 12:00:00"),
        ("2026-01-01 12:00:00.000 Etc/UTC", "2026-01-01 12:00:00"),
        ("2026-01-01 12:00:00.000 -07:00", "2026-01-01 19:00:00"),
        ("2026-01-01 05:30:00.000 +05:30", "2026-01-01 00:00:00"),
    ] {
        let r = row(&[("t", "timestamp(3) with time zone")], &[Some(text)]);
        assert_eq!(
            r.try_get::<DateTime<Utc>>("t").unwrap(),
            ts(utc).and_utc(),
            "{text}"
        );
        assert_eq!(
            r.value("t").unwrap(),
            Value::TimestampTz(ts(utc).and_utc()),
            "{text}"
        );
    }
}

#[cfg(feature = "tz")]
#[test]
fn named_zones_resolve_with_the_iana_database() {
    for (text, utc, offset) in [
        // Winter (EST, -05:00) and summer (EDT, -04:00).
        (
            "2026-01-01 12:00:00.000 America/New_York",
            "2026-01-01 17:00:00",
            -5 * 3600,
        ),
        (
            "2026-07-01 12:00:00.000 America/New_York",
            "2026-07-01 16:00:00",
            -4 * 3600,
        ),
        (
            "2026-07-01 12:00:00.500 Asia/Kolkata",
            "2026-07-01 06:30:00.500",
            19800,
        ),
    ] {
        let r = row(&[("t", "timestamp(3) with time zone")], &[Some(text)]);
        let at: DateTime<FixedOffset> = r.try_get("t").unwrap();
        assert_eq!(at.with_timezone(&Utc), ts(utc).and_utc(), "{text}");
        assert_eq!(at.offset().local_minus_utc(), offset, "{text}");
    }
    // 01:30 happens twice on 2026-11-01 in New York: the text does not say which.
    let r = row(
        &[("t", "timestamp(3) with time zone")],
        &[Some("2026-11-01 01:30:00.000 America/New_York")],
    );
    let e = r.try_get::<DateTime<Utc>>("t").unwrap_err();
    assert!(e.message().contains("ambiguous or skipped"), "{e}");
    assert!(e.hint().unwrap().contains("AT TIME ZONE 'UTC'"));
    let r = row(
        &[("t", "timestamp(3) with time zone")],
        &[Some("2026-01-01 00:00:00.000 Mars/Olympus_Mons")],
    );
    assert!(r.try_get::<DateTime<Utc>>("t").is_err());
}

#[cfg(not(feature = "tz"))]
#[test]
fn named_zones_without_the_tz_feature_say_how_to_read_them() {
    let r = row(
        &[("t", "timestamp(3) with time zone")],
        &[Some("2026-01-01 12:00:00.000 America/New_York")],
    );
    let e = r.try_get::<DateTime<Utc>>("t").unwrap_err();
    assert!(e.message().contains("America/New_York"), "{e}");
    assert!(e.hint().unwrap().contains("`tz` feature"));
}

#[test]
fn binary_is_space_separated_hex() {
    let r = row(&[("b", "varbinary")], &[Some("de ad be ef 00")]);
    assert_eq!(
        r.try_get::<Vec<u8>>("b").unwrap(),
        [0xde, 0xad, 0xbe, 0xef, 0x00]
    );
    let r = row(&[("b", "varbinary")], &[Some("")]);
    assert_eq!(r.try_get::<Vec<u8>>("b").unwrap(), Vec::<u8>::new());
    let r = row(&[("b", "varbinary")], &[Some("0g")]);
    assert!(r.try_get::<Vec<u8>>("b").is_err());
}

#[test]
fn uncast_nested_columns_without_strings_decode() {
    let cols = [
        ("ids", "array(bigint)"),
        ("m", "map(integer, array(double))"),
        ("p", "row(lat double, n integer)"),
        ("ps", "array(row(lat double, n integer))"),
        ("days", "array(date)"),
        ("e", "array(integer)"),
    ];
    let r = row(
        &cols,
        &[
            Some("[1, -2, null]"),
            Some("{7=[1.5, NaN], 8=null}"),
            Some("{lat=1.5, n=null}"),
            Some("[{lat=-0.5, n=1}, null]"),
            Some("[2026-01-01, 2026-12-31]"),
            Some("[]"),
        ],
    );
    assert_eq!(
        r.try_get::<Vec<Option<i64>>>("ids").unwrap(),
        [Some(1), Some(-2), None]
    );
    let m: BTreeMap<i32, Option<Vec<f64>>> = r.try_get("m").unwrap();
    assert_eq!(m[&8], None);
    assert!(m[&7].as_ref().unwrap()[1].is_nan());
    let p = r.value("p").unwrap();
    assert_eq!(p, Value::Struct(vec![Value::Double(1.5), Value::Null]));
    assert_eq!(
        r.value("ps").unwrap(),
        Value::List(vec![
            Value::Struct(vec![Value::Double(-0.5), Value::Int(1)]),
            Value::Null
        ])
    );
    assert_eq!(r.try_get::<Vec<NaiveDate>>("days").unwrap().len(), 2);
    assert_eq!(r.try_get::<Vec<i32>>("e").unwrap(), Vec::<i32>::new());
}

#[test]
fn uncast_nested_columns_with_strings_are_refused_with_the_way_out() {
    // Trino prints `ARRAY['a, b', 'c']` as `[a, b, c]`: three values or two?
    let r = row(&[("tags", "array(varchar)")], &[Some("[a, b, c]")]);
    let e = r.try_get::<Vec<String>>("tags").unwrap_err();
    assert!(
        e.message().starts_with(
            "column `tags`: a list<string> cell in Athena's un-cast form cannot be read exactly"
        ),
        "{e}"
    );
    assert!(e.hint().unwrap().contains("CAST(col AS JSON)"));
    let r = row(
        &[("p", "row(lat double, name varchar)")],
        &[Some("{lat=1.0, name=x}")],
    );
    let e = r.value("p").unwrap_err();
    assert!(e.message().contains("at `.name`"), "{e}");
    // Read as JSON (the column type says `json`), the same values decode exactly.
    let r = row(&[("tags", "json")], &[Some(r#"["a, b","c"]"#)]);
    assert_eq!(r.try_get::<Vec<String>>("tags").unwrap(), ["a, b", "c"]);
    // The text itself stays readable as a String.
    let r = row(&[("tags", "array(varchar)")], &[Some("[a, b, c]")]);
    assert_eq!(r.try_get::<String>("tags").unwrap(), "[a, b, c]");
}

#[test]
fn tuples_read_by_position_and_check_the_width() {
    let r = row(
        &[
            ("tool_name", "varchar"),
            ("n", "bigint"),
            ("last", "varchar"),
        ],
        &[Some("fetch"), Some("3"), None],
    );
    let (tool, n, last) = <(String, i64, Option<String>)>::from_row(&r).unwrap();
    assert_eq!((tool.as_str(), n, last), ("fetch", 3, None));
    let e = <(String, i64)>::from_row(&r).unwrap_err();
    assert_eq!(
        e.message(),
        "the result has 3 columns; a tuple of 2 reads exactly 2, by position"
    );
    let e = <(String, String, String)>::from_row(&r).unwrap_err();
    assert_eq!(
        e.message(),
        "column `last`: expected a string value, found NULL"
    );
}

#[derive(FromRow, Debug, PartialEq)]
struct Counted(String, i64);

#[derive(FromRow, Debug, PartialEq)]
#[iceberg(rename_all = "snake_case")]
#[allow(non_snake_case)]
struct Renamed {
    toolName: String,
    #[iceberg(skip)]
    note: String,
}

#[test]
fn tuple_structs_and_renames() {
    let r = row(
        &[("a", "varchar"), ("n", "bigint")],
        &[Some("x"), Some("2")],
    );
    assert_eq!(Counted::from_row(&r).unwrap(), Counted("x".into(), 2));
    assert_eq!(Counted::from_row_owned(r).unwrap(), Counted("x".into(), 2));
    let r = row(&[("tool_name", "varchar")], &[Some("fetch")]);
    assert_eq!(
        Renamed::from_row(&r).unwrap(),
        Renamed {
            toolName: "fetch".into(),
            note: String::new()
        }
    );
    // Athena lowercases names: a result column `TOOL_NAME` still matches.
    let r = row(&[("TOOL_NAME", "varchar")], &[Some("fetch")]);
    assert!(Renamed::from_row(&r).is_ok());
}

#[test]
fn nested_form_is_chosen_by_the_column_type() {
    let ty = T::list(T::Int);
    assert_eq!(
        iceberg_sql::record::parse_cell_as("[1, 2]", &ty, NestedForm::Native).unwrap(),
        iceberg_sql::record::parse_cell("[1,2]", &ty).unwrap()
    );
    // Native text is not JSON: read under a `json` column it fails with the JSON error.
    let r = row(&[("p", "json")], &[Some("{lat=1.5}")]);
    let e = r
        .try_get::<Point>("p")
        .expect_err("native text in a json column");
    assert!(e.message().contains("not valid JSON"), "{e}");
}

#[test]
fn an_optional_zoned_timestamp_keeps_its_offset() {
    let r = row(
        &[
            ("t", "timestamp(3) with time zone"),
            ("u", "timestamp(3) with time zone"),
        ],
        &[Some("2026-07-01 14:30:00.000 +02:00"), None],
    );
    let t: Option<DateTime<FixedOffset>> = r.try_get("t").unwrap();
    assert_eq!(t.unwrap().offset().local_minus_utc(), 7200);
    let mut owned = r.clone();
    let t: Option<DateTime<FixedOffset>> = owned.take("t").unwrap();
    assert_eq!(t.unwrap().offset().local_minus_utc(), 7200);
    assert_eq!(
        r.try_get::<Option<DateTime<FixedOffset>>>("u").unwrap(),
        None
    );
}
