//! struct -> to_values -> Athena-style cell text -> from_row -> the same struct, for
//! every supported type, nested types and NULLs included.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use iceberg_sql::prelude::*;
use iceberg_sql::record::{format_cell, parse_cell};
use iceberg_sql::{Decimal, StructField};

/// A nested struct type (no database: not a table).
#[derive(IcebergTable, Debug, Clone, PartialEq, Default)]
pub struct Point {
    pub lat: f64,
    pub lon: f64,
    pub label: Option<String>,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
pub struct Place {
    pub name: String,
    pub points: Vec<Point>,
    #[iceberg(rename = "tags_by_key")]
    pub tags: BTreeMap<String, Option<i64>>,
    pub home: Option<Point>,
    #[iceberg(type = "decimal(12, 4)")]
    pub area: Decimal,
    #[iceberg(skip)]
    pub cache: Vec<String>,
}

impl Default for Place {
    fn default() -> Self {
        Place {
            name: String::new(),
            points: Vec::new(),
            tags: BTreeMap::new(),
            home: None,
            area: Decimal::new(0, 4),
            cache: Vec::new(),
        }
    }
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "lake",
    location = "s3://lake/every_type/",
    partition(region, month(day), truncate(4, c_string), hour(c_ts))
)]
pub struct EveryType {
    pub c_bool: bool,
    pub c_int: i32,
    pub c_long: i64,
    pub c_float: f32,
    pub c_double: f64,
    pub c_string: String,
    pub c_binary: Vec<u8>,
    pub day: NaiveDate,
    pub c_ts: NaiveDateTime,
    pub c_utc: DateTime<Utc>,
    #[iceberg(type = "decimal(10, 2)", comment = "in EUR")]
    pub c_decimal: Decimal,
    pub region: String,
    pub o_bool: Option<bool>,
    pub o_int: Option<i32>,
    pub o_long: Option<i64>,
    pub o_float: Option<f32>,
    pub o_double: Option<f64>,
    pub o_string: Option<String>,
    pub o_binary: Option<Vec<u8>>,
    pub o_date: Option<NaiveDate>,
    pub o_ts: Option<NaiveDateTime>,
    #[iceberg(type = "decimal(38, 10)")]
    pub o_decimal: Option<Decimal>,
    pub l_int: Vec<i32>,
    pub l_opt: Vec<Option<String>>,
    pub l_nested: Vec<Vec<i64>>,
    #[iceberg(type = "array<decimal(5, 1)>")]
    pub l_decimal: Vec<Decimal>,
    pub m_hash: HashMap<String, f64>,
    pub m_btree: BTreeMap<i32, Vec<String>>,
    pub o_map: Option<BTreeMap<String, String>>,
    pub place: Place,
    pub o_place: Option<Place>,
    pub places: Vec<Place>,
    #[iceberg(skip)]
    pub not_stored: u64,
}

fn ts(micros: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 10, 1)
        .unwrap()
        .and_hms_micro_opt(12, 34, 56, micros)
        .unwrap()
}

fn full() -> EveryType {
    let point = |lat: f64, label: Option<&str>| Point {
        lat,
        lon: -lat / 3.0,
        label: label.map(Into::into),
    };
    let place = Place {
        name: "quay \"7\" \\ ü 😀".into(),
        points: vec![point(1.5, Some("")), point(f64::MAX, None)],
        tags: [("a".to_string(), Some(1)), ("b".to_string(), None)].into(),
        home: Some(point(-0.0, Some("home"))),
        area: Decimal::parse("-1234.5678").unwrap(),
        cache: vec![],
    };
    EveryType {
        c_bool: true,
        c_int: i32::MIN,
        c_long: i64::MAX,
        c_float: 1.1,
        c_double: 1e300,
        c_string: "it's \"x\"\n\ttab, 'quoted' \\ back".into(),
        c_binary: vec![0, 1, 0x7f, 0x80, 0xff],
        day: NaiveDate::from_ymd_opt(1, 1, 1).unwrap(),
        c_ts: ts(123_456),
        c_utc: ts(1).and_utc(),
        c_decimal: Decimal::parse("-12345678.90").unwrap(),
        region: "eu".into(),
        o_bool: Some(false),
        o_int: Some(0),
        o_long: Some(-1),
        o_float: Some(f32::NEG_INFINITY),
        o_double: Some(-0.000123),
        o_string: Some(String::new()),
        o_binary: Some(vec![]),
        o_date: Some(NaiveDate::from_ymd_opt(9999, 12, 31).unwrap()),
        o_ts: Some(ts(0)),
        o_decimal: Some(Decimal::parse("0.0000000001").unwrap()),
        l_int: vec![1, -2, 3],
        l_opt: vec![Some("".into()), None, Some("null".into())],
        l_nested: vec![vec![], vec![i64::MIN, 0]],
        l_decimal: vec![
            Decimal::parse("1.5").unwrap(),
            Decimal::parse("-9999.9").unwrap(),
        ],
        m_hash: [("k\"ey".to_string(), 2.5)].into(),
        m_btree: [(1, vec!["x".to_string()]), (-7, vec![])].into(),
        o_map: Some(BTreeMap::new()),
        place: place.clone(),
        o_place: Some(Place {
            home: None,
            points: vec![],
            ..place.clone()
        }),
        places: vec![place.clone(), Place::default()],
        not_stored: 0,
    }
}

fn nulls() -> EveryType {
    EveryType {
        o_bool: None,
        o_int: None,
        o_long: None,
        o_float: None,
        o_double: None,
        o_string: None,
        o_binary: None,
        o_date: None,
        o_ts: None,
        o_decimal: None,
        o_map: None,
        o_place: None,
        c_string: String::new(),
        c_binary: vec![],
        c_float: f32::NAN,
        c_double: f64::NAN,
        l_int: vec![],
        places: vec![],
        ..full()
    }
}

/// What Athena would return for this record: column names and text cells.
fn to_row(r: &EveryType) -> (Vec<String>, Vec<Option<String>>) {
    let def = EveryType::table_def();
    let names = def.columns().iter().map(|c| c.name.clone()).collect();
    let cells = r
        .to_values()
        .iter()
        .zip(def.columns())
        .map(|(v, c)| format_cell(v, &c.ty))
        .collect();
    (names, cells)
}

fn round_trip(r: &EveryType) -> EveryType {
    let (names, cells) = to_row(r);
    EveryType::from_row(&Row::untyped(names.clone(), cells.clone()))
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_type_round_trips() {
    let r = full();
    assert_eq!(round_trip(&r), r);
}

#[test]
fn nulls_and_empties_round_trip() {
    let r = nulls();
    let back = round_trip(&r);
    // NaN != NaN: compare those separately.
    assert!(back.c_float.is_nan() && back.c_double.is_nan());
    let fix = |mut x: EveryType| {
        x.c_float = 0.0;
        x.c_double = 0.0;
        x
    };
    assert_eq!(fix(back.clone()), fix(r));
    assert_eq!(back.o_string, None);
    assert_eq!(back.c_string, "");
    assert_eq!(back.o_int, None);
    assert_eq!(back.o_binary, None);
    assert_eq!(back.l_opt, vec![Some("".into()), None, Some("null".into())]);
}

#[test]
fn a_null_is_never_read_as_empty_or_zero() {
    let (names, cells) = to_row(&nulls());
    for (i, name) in names.iter().enumerate() {
        let col = EveryType::table_def().column(name).unwrap();
        if col.nullable {
            assert_eq!(cells[i], None, "{name}");
            continue;
        }
        let mut bad = cells.clone();
        bad[i] = None;
        let e = EveryType::from_row(&Row::untyped(names.clone(), bad.clone())).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Decode);
        assert!(
            e.message().starts_with(&format!("column `{name}`")),
            "{name}: {e}"
        );
    }
    // Every failing column is reported, not only the first.
    let mut bad = cells.clone();
    let i = names.iter().position(|n| n == "c_int").unwrap();
    let j = names.iter().position(|n| n == "day").unwrap();
    bad[i] = Some("1.5".into());
    bad[j] = None;
    let e = EveryType::from_row(&Row::untyped(names.clone(), bad.clone())).unwrap_err();
    let all: Vec<&str> = e.all().map(|e| e.message()).collect();
    assert_eq!(
        all,
        [
            "column `c_int`: `1.5` is not a int value",
            "column `day`: expected a date value, found NULL"
        ]
    );
    // Empty text is "" for strings, and an error everywhere else.
    for c in EveryType::table_def().columns() {
        let r = parse_cell("", &c.ty);
        match c.ty {
            IcebergType::String => assert_eq!(r.unwrap(), Value::String(String::new())),
            IcebergType::Binary => assert_eq!(r.unwrap(), Value::Binary(vec![])),
            _ => assert!(r.is_err(), "{}: {r:?}", c.name),
        }
    }
}

#[test]
fn nested_errors_name_the_path() {
    let (names, mut cells) = to_row(&full());
    let i = names.iter().position(|n| n == "place").unwrap();
    cells[i] = Some(
        r#"{"name":"x","points":[{"lat":1,"lon":"oops","label":null}],"tags_by_key":{},"home":null,"area":1}"#
            .into(),
    );
    let e = EveryType::from_row(&Row::untyped(names.clone(), cells.clone())).unwrap_err();
    assert_eq!(
        e.message(),
        "column `place.points[0].lon`: `oops` is not a double value"
    );
    // ROW may also arrive as a JSON array, by position.
    cells[i] = Some(r#"["x",[[1,2,"a"]],{"k":3},null,"0.5"]"#.into());
    let back = EveryType::from_row(&Row::untyped(names.clone(), cells.clone())).unwrap();
    assert_eq!(back.place.points[0].label.as_deref(), Some("a"));
    assert_eq!(back.place.tags["k"], Some(3));
    assert_eq!(back.place.area, Decimal::parse("0.5").unwrap());
}

#[test]
fn the_schema_follows_the_struct() {
    let def = EveryType::table_def();
    let col = |n: &str| def.column(n).unwrap();
    assert_eq!(col("c_binary").ty, IcebergType::Binary);
    assert_eq!(col("c_utc").ty, IcebergType::Timestamp);
    assert_eq!(col("c_decimal").ty, IcebergType::decimal(10, 2));
    assert_eq!(col("c_decimal").comment.as_deref(), Some("in EUR"));
    assert!(!col("c_int").nullable && col("o_int").nullable);
    assert_eq!(
        col("l_decimal").ty,
        IcebergType::list(IcebergType::decimal(5, 1))
    );
    let point = IcebergType::Struct(vec![
        StructField::new("lat", IcebergType::Double),
        StructField::new("lon", IcebergType::Double),
        StructField::new("label", IcebergType::String),
    ]);
    assert_eq!(
        col("place").ty,
        IcebergType::Struct(vec![
            StructField::new("name", IcebergType::String),
            StructField::new("points", IcebergType::list(point.clone())),
            StructField::new(
                "tags_by_key",
                IcebergType::map(IcebergType::String, IcebergType::Long)
            ),
            StructField::new("home", point),
            StructField::new("area", IcebergType::decimal(12, 4)),
        ])
    );
    assert!(def.column("not_stored").is_none());
    assert_eq!(def.columns().len(), 32);
    let create = def.create_table().build().unwrap();
    assert!(create
        .sql()
        .contains("PARTITIONED BY (region, month(day), truncate(4, c_string), hour(c_ts))"));
    // The INSERT path: every value renders as a literal of its column's type.
    for (v, c) in full().to_values().iter().zip(def.columns()) {
        v.to_literal(&c.ty, iceberg_sql::Grammar::TrinoDml)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        v.to_literal(&c.ty, iceberg_sql::Grammar::Spark)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
    }
}

#[test]
fn decimals_come_back_at_the_column_scale() {
    // Athena prints a decimal(10,2) value 12.5 as `12.50`.
    let ty = IcebergType::decimal(10, 2);
    let text = format_cell(&Value::Decimal(Decimal::parse("12.5").unwrap()), &ty).unwrap();
    assert_eq!(text, "12.50");
    assert_eq!(
        parse_cell(&text, &ty).unwrap(),
        Value::Decimal(Decimal::new(1250, 2))
    );
}
