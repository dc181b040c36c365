//! End-to-end: values of every Iceberg type the engine can hold, written through the
//! builders (Spark dialect), read back as result cells and decoded through the one row
//! model: the derived table record, a `#[derive(FromRow)]` projection of an ad-hoc
//! aggregate, tuples, dynamic values, serde, and Arrow batches. NULL stays apart from
//! `""` everywhere.
//!
//! The engine writes cells as Athena does where the two agree (see
//! `tests/engine/iceberg_sql_server.py`): decimals with their scale, `NaN`/`Infinity`,
//! timestamptz as `... UTC`; binary is hex without spaces and timestamps use `T`, both
//! of which the cell parser also reads.

use std::collections::BTreeMap;

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, Utc};
use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;
use iceberg_sql::Decimal;
use iceberg_sql_tests::engine::{Engine, QueryResult};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
pub struct Point {
    pub lat: f64,
    pub tag: Option<String>,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "rowmodel",
    name = "every_type",
    location = "s3://rowmodel-bucket/iceberg/every_type/"
)]
pub struct EveryType {
    pub id: i64,
    pub b: bool,
    pub i: i32,
    pub f: f32,
    pub d: f64,
    #[iceberg(type = "decimal(38, 9)")]
    pub dec: Decimal,
    pub day: NaiveDate,
    pub at: NaiveDateTime,
    pub s: String,
    pub note: Option<String>,
    pub bin: Vec<u8>,
    pub tags: Vec<Option<String>>,
    pub counts: BTreeMap<String, i64>,
    pub place: Point,
    pub places: Option<Vec<Point>>,
}

fn model() -> Vec<EveryType> {
    let at = |us: u32| {
        NaiveDate::from_ymd_opt(2026, 1, 1)
            .unwrap()
            .and_hms_micro_opt(12, 0, 0, us)
            .unwrap()
    };
    vec![
        EveryType {
            id: 1,
            b: true,
            i: i32::MIN,
            f: 1.5,
            d: f64::INFINITY,
            dec: Decimal::parse("-12345678901234567890123456789.123456789").unwrap(),
            day: NaiveDate::from_ymd_opt(1969, 12, 31).unwrap(),
            at: at(123_456),
            s: "a, b=c {d} [e] 'f' \"g\" \\ é😀".into(),
            note: None,
            bin: vec![0x00, 0xff, 0x1a],
            tags: vec![Some("x, y".into()), None, Some(String::new())],
            counts: BTreeMap::from([("k=1".into(), i64::MAX), ("".into(), -1)]),
            place: Point {
                lat: -0.5,
                tag: None,
            },
            places: Some(vec![Point {
                lat: 2.25,
                tag: Some("p".into()),
            }]),
        },
        EveryType {
            id: 2,
            b: false,
            i: i32::MAX,
            f: -0.25,
            d: -1e300,
            dec: Decimal::parse("0.000000001").unwrap(),
            day: NaiveDate::from_ymd_opt(2026, 12, 31).unwrap(),
            at: at(0),
            s: String::new(),
            note: Some(String::new()),
            bin: vec![],
            tags: vec![],
            counts: BTreeMap::new(),
            place: Point {
                lat: 0.0,
                tag: Some("null".into()),
            },
            places: None,
        },
    ]
}

fn select_all(engine: &Engine) -> QueryResult {
    let q = EveryType::select()
        .order_by(EveryType::ID, Order::Asc)
        .build_for(Dialect::Spark)
        .unwrap();
    engine.run(&q)
}

fn setup(engine: &Engine) -> Vec<EveryType> {
    let spark = Dialect::Spark;
    engine.run("CREATE NAMESPACE IF NOT EXISTS rowmodel");
    engine.run("DROP TABLE IF EXISTS rowmodel.every_type");
    let def = EveryType::table_def();
    engine.run(def.create_table().build_for(spark).unwrap());
    let rows = model();
    for b in EveryType::insert(&rows).batches_for(spark).unwrap() {
        engine.run(b);
    }
    rows
}

#[test]
fn every_type_reads_back_through_the_row_model() {
    let Some(engine) = Engine::get_or_skip("every_type_reads_back_through_the_row_model") else {
        return;
    };
    let want = setup(engine);
    let r = select_all(engine);
    let rows = r.result_rows();

    // The derived table record, by column name with the declared types; borrowed and
    // owned decoding agree.
    let got: Vec<EveryType> = rows
        .iter()
        .map(|row| EveryType::from_row(row).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(got, want);
    let owned: Vec<EveryType> = rows
        .iter()
        .cloned()
        .map(|row| EveryType::from_row_owned(row).unwrap())
        .collect();
    assert_eq!(owned, want);

    // NULL and "" stay apart in the raw cells too.
    let note = r.column_index("note").unwrap();
    assert_eq!(r.rows[0][note], None);
    assert_eq!(r.rows[1][note].as_deref(), Some(""));

    // Single columns, by name into any SqlType.
    assert_eq!(rows[0].try_get::<f64>("d").unwrap(), f64::INFINITY);
    assert_eq!(
        rows[0].try_get::<Decimal>("dec").unwrap().to_string(),
        "-12345678901234567890123456789.123456789"
    );
    assert_eq!(rows[0].try_get::<Vec<u8>>("bin").unwrap(), [0, 255, 26]);
    assert_eq!(
        rows[1].try_get::<Option<Vec<Point>>>("places").unwrap(),
        None
    );

    projections_tuples_serde_and_arrow_read_the_same_results(engine, &want);
}

/// An ad-hoc aggregate: no table type describes it.
#[derive(FromRow, Debug, PartialEq)]
struct ByFlag {
    b: bool,
    #[iceberg(rename = "n")]
    rows: i64,
    max_dec: Decimal,
    first_note: Option<String>,
}

/// Part of the test above (one table, one setup).
fn projections_tuples_serde_and_arrow_read_the_same_results(engine: &Engine, want: &[EveryType]) {
    let agg = engine.run(
        "SELECT b, count(*) AS n, max(dec) AS max_dec, min(note) AS first_note \
         FROM rowmodel.every_type GROUP BY b ORDER BY b",
    );
    let rows = agg.result_rows();
    let by_flag: Vec<ByFlag> = rows.iter().map(|r| ByFlag::from_row(r).unwrap()).collect();
    assert_eq!(
        by_flag,
        [
            ByFlag {
                b: false,
                rows: 1,
                max_dec: Decimal::parse("0.000000001").unwrap(),
                first_note: Some(String::new()),
            },
            ByFlag {
                b: true,
                rows: 1,
                max_dec: Decimal::parse("-12345678901234567890123456789.123456789").unwrap(),
                first_note: None,
            },
        ]
    );
    assert_eq!(
        ByFlag::expected_columns()
            .unwrap()
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        ["b", "n", "max_dec", "first_note"]
    );
    // The same rows by position.
    let tuples: Vec<(bool, i64, Decimal, Option<String>)> =
        rows.iter().map(|r| FromRow::from_row(r).unwrap()).collect();
    assert_eq!(tuples[1].3, None);
    assert_eq!(tuples[0].3.as_deref(), Some(""));

    // serde: a type of the caller's, nested columns from their JSON text.
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Slim {
        id: i64,
        s: String,
        note: Option<String>,
        at: NaiveDateTime,
        tags: Vec<Option<String>>,
        counts: BTreeMap<String, i64>,
        place: SlimPoint,
    }
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct SlimPoint {
        lat: f64,
        tag: Option<String>,
    }
    let all = select_all(engine).result_rows();
    let slim: Vec<Slim> = all
        .iter()
        .map(|r| iceberg_sql::record::serde::from_row(r).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(slim.len(), want.len());
    for (s, w) in slim.iter().zip(want) {
        assert_eq!(s.id, w.id);
        assert_eq!(s.s, w.s);
        assert_eq!(s.note, w.note);
        assert_eq!(s.tags, w.tags);
        assert_eq!(s.counts, w.counts);
        assert_eq!(s.place.lat, w.place.lat);
        assert_eq!(s.place.tag, w.place.tag);
    }

    // Arrow: the rows read as the table's columns give the table's exact schema and
    // the same values the records hold.
    let def = EveryType::table_def();
    let batch = iceberg_sql::arrow::rows_to_batch_as(&all, def.columns()).unwrap();
    assert_eq!(
        batch.schema().as_ref(),
        &iceberg_sql::arrow::table_schema(def)
    );
    let values = iceberg_sql::arrow::batch_to_values(&batch).unwrap();
    assert_eq!(values.len(), want.len());
    for (v, w) in values.iter().zip(want) {
        assert_eq!(v, &w.to_values());
    }
    let from_records = iceberg_sql::arrow::records_to_batch(want).unwrap();
    assert_eq!(from_records, batch);
}

#[test]
fn timestamptz_cells_from_the_engine_decode_as_instants() {
    let Some(engine) = Engine::get_or_skip("timestamptz_cells_from_the_engine_decode_as_instants")
    else {
        return;
    };
    engine.run("CREATE NAMESPACE IF NOT EXISTS rowmodel");
    engine.run("DROP TABLE IF EXISTS rowmodel.instants");
    // Spark's `timestamp` is Iceberg's timestamptz (Athena cannot create one; it reads
    // them, printed with their zone).
    engine.run("CREATE TABLE rowmodel.instants (id int, at timestamp) USING iceberg");
    engine.run(
        "INSERT INTO rowmodel.instants VALUES \
         (1, TIMESTAMP '2026-01-01 12:00:00.123456+00:00'), \
         (2, TIMESTAMP '2026-07-01 09:30:00-04:00'), (3, NULL)",
    );
    let r = engine.run("SELECT id, at FROM rowmodel.instants ORDER BY id");
    assert_eq!(
        r.rows[0][1].as_deref(),
        Some("2026-01-01 12:00:00.123456 UTC")
    );
    let rows = r.result_rows();
    let utc = |s: &str| s.parse::<DateTime<Utc>>().unwrap();
    let got: Vec<(i32, Option<DateTime<Utc>>)> =
        rows.iter().map(|r| FromRow::from_row(r).unwrap()).collect();
    assert_eq!(
        got,
        [
            (1, Some(utc("2026-01-01T12:00:00.123456Z"))),
            (2, Some(utc("2026-07-01T13:30:00Z"))),
            (3, None)
        ]
    );
    let fixed: DateTime<FixedOffset> = rows[1].try_get("at").unwrap();
    assert_eq!(fixed, utc("2026-07-01T13:30:00Z"));
    // Read dynamically as a timestamptz column (Athena's type name for it).
    let typed = iceberg_sql::record::Row::new(
        std::sync::Arc::new(iceberg_sql::record::Columns::new(vec![
            iceberg_sql::record::ColumnMeta::new("id", "integer"),
            iceberg_sql::record::ColumnMeta::new("at", "timestamp(6) with time zone"),
        ])),
        r.rows[0].clone(),
    );
    assert_eq!(
        typed.value("at").unwrap(),
        Value::TimestampTz(utc("2026-01-01T12:00:00.123456Z"))
    );
}
