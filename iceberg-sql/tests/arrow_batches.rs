//! Feature `arrow`: the Iceberg -> Arrow mapping, and round trips: records -> batch ->
//! values, Athena result rows -> batch -> values.
#![cfg(feature = "arrow")]

use std::collections::BTreeMap;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, TimeUnit};
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use iceberg_sql::arrow::{
    batch_to_values, data_type, records_to_batch, rows_to_batch, rows_to_batch_as, table_schema,
    values_to_batch,
};
use iceberg_sql::prelude::*;
use iceberg_sql::record::{format_cell, ColumnMeta, Columns};
use iceberg_sql::{Decimal, IcebergType as T};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
struct Point {
    lat: f64,
    tag: Option<String>,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(database = "analytics", location = "s3://lake/every/")]
struct Every {
    b: bool,
    i: i32,
    l: i64,
    f: f32,
    d: f64,
    #[iceberg(type = "decimal(38, 9)")]
    dec: Decimal,
    day: NaiveDate,
    at: NaiveDateTime,
    s: String,
    bin: Vec<u8>,
    tags: Vec<Option<String>>,
    counts: BTreeMap<String, i64>,
    place: Point,
    places: Vec<Point>,
    maybe: Option<i64>,
}

fn record(n: i64) -> Every {
    let at = NaiveDate::from_ymd_opt(2026, 1, 1)
        .unwrap()
        .and_hms_micro_opt(12, 0, 0, 123_456)
        .unwrap();
    Every {
        b: n % 2 == 0,
        i: i32::MIN + n as i32,
        l: i64::MAX - n,
        f: 1.5,
        d: if n == 1 { f64::NAN } else { -0.25 },
        dec: Decimal::parse("-12345678901234567890123456789.123456789").unwrap(),
        day: NaiveDate::from_ymd_opt(1969, 12, 31).unwrap(),
        at,
        s: "a'b\"c é😀".into(),
        bin: vec![0, 255, n as u8],
        tags: vec![Some("x".into()), None],
        counts: BTreeMap::from([("k".into(), n)]),
        place: Point {
            lat: 1.5,
            tag: None,
        },
        places: vec![],
        maybe: (n > 0).then_some(n),
    }
}

#[test]
fn the_mapping_is_exact() {
    let schema = table_schema(Every::table_def());
    let types: Vec<&DataType> = schema.fields().iter().map(|f| f.data_type()).collect();
    let point = Fields::from(vec![
        Field::new("lat", DataType::Float64, true),
        Field::new("tag", DataType::Utf8, true),
    ]);
    assert_eq!(
        types,
        [
            &DataType::Boolean,
            &DataType::Int32,
            &DataType::Int64,
            &DataType::Float32,
            &DataType::Float64,
            &DataType::Decimal128(38, 9),
            &DataType::Date32,
            &DataType::Timestamp(TimeUnit::Microsecond, None),
            &DataType::Utf8,
            &DataType::Binary,
            &DataType::List(Arc::new(Field::new("element", DataType::Utf8, true))),
            &DataType::Map(
                Arc::new(Field::new(
                    "key_value",
                    DataType::Struct(Fields::from(vec![
                        Field::new("key", DataType::Utf8, false),
                        Field::new("value", DataType::Int64, true),
                    ])),
                    false
                )),
                false
            ),
            &DataType::Struct(point.clone()),
            &DataType::List(Arc::new(Field::new(
                "element",
                DataType::Struct(point),
                true
            ))),
            &DataType::Int64,
        ]
    );
    // Nullability is the column's: only `maybe` is an Option.
    let nullable: Vec<bool> = schema.fields().iter().map(|f| f.is_nullable()).collect();
    assert_eq!(nullable.iter().filter(|n| **n).count(), 1);
    assert!(nullable[14]);
    assert_eq!(
        data_type(&T::TimestampTz),
        DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
    );
}

#[test]
fn records_round_trip_through_a_batch() {
    let records: Vec<Every> = (0..3).map(record).collect();
    let batch = records_to_batch(&records).unwrap();
    assert_eq!(batch.num_rows(), 3);
    assert_eq!(batch.schema().as_ref(), &table_schema(Every::table_def()));
    let back = batch_to_values(&batch).unwrap();
    for (r, values) in records.iter().zip(&back) {
        // Debug text compares NaN equal to NaN.
        assert_eq!(format!("{values:?}"), format!("{:?}", r.to_values()));
    }
}

#[test]
fn athena_result_rows_become_a_batch() {
    // What GetQueryResults returns for `SELECT *` of the table through the SELECT
    // builder: nested columns cast to JSON.
    let def = Every::table_def();
    let columns = Arc::new(Columns::of_table(def));
    let records: Vec<Every> = (0..4).map(record).collect();
    let rows: Vec<Row> = records
        .iter()
        .map(|r| {
            let cells = r
                .to_values()
                .iter()
                .zip(def.columns())
                .map(|(v, c)| format_cell(v, &c.ty))
                .collect();
            Row::new(columns.clone(), cells)
        })
        .collect();
    // Read as the table's columns: the exact schema, the same values.
    let batch = rows_to_batch_as(&rows, def.columns()).unwrap();
    assert_eq!(batch.schema().as_ref(), &table_schema(def));
    let back = batch_to_values(&batch).unwrap();
    for (r, values) in records.iter().zip(&back) {
        assert_eq!(format!("{values:?}"), format!("{:?}", r.to_values()));
    }
    // Read by the result's own column types: primitives typed, `json` columns as text.
    let dynamic = rows_to_batch(&rows).unwrap();
    let schema = dynamic.schema();
    assert_eq!(schema.field(5).data_type(), &DataType::Decimal128(38, 9));
    assert_eq!(
        schema.field(7).data_type(),
        &DataType::Timestamp(TimeUnit::Microsecond, None)
    );
    assert_eq!(schema.field(10).data_type(), &DataType::Utf8);
    assert!(!schema.field(0).is_nullable() && schema.field(14).is_nullable());
}

#[test]
fn timestamptz_and_uncast_nested_result_columns() {
    let columns = Arc::new(Columns::new(vec![
        ColumnMeta::new("at", "timestamp(3) with time zone"),
        ColumnMeta::new("ids", "array(bigint)"),
        ColumnMeta::new("cost", "decimal").with_precision_scale(Some(10), Some(2)),
    ]));
    let rows = vec![
        Row::new(
            columns.clone(),
            vec![
                Some("2026-01-01 07:00:00.000 -05:00".into()),
                Some("[1, null]".into()),
                Some("12.50".into()),
            ],
        ),
        Row::new(columns, vec![None, None, Some("-0.01".into())]),
    ];
    let batch = rows_to_batch(&rows).unwrap();
    assert_eq!(
        batch.schema().field(0).data_type(),
        &DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
    );
    assert_eq!(
        batch.schema().field(2).data_type(),
        &DataType::Decimal128(10, 2)
    );
    let back = batch_to_values(&batch).unwrap();
    let noon: DateTime<Utc> = "2026-01-01T12:00:00Z".parse().unwrap();
    assert_eq!(back[0][0], Value::TimestampTz(noon));
    assert_eq!(back[0][1], Value::List(vec![Value::Long(1), Value::Null]));
    assert_eq!(back[1][2], Value::Decimal(Decimal::new(-1, 2)));
    assert_eq!(back[1][0], Value::Null);
}

#[test]
fn values_that_do_not_fit_are_refused() {
    let cols = [Column::new("d", T::decimal(4, 2)).required()];
    let e = values_to_batch(&cols, vec![vec![Value::Decimal(Decimal::new(12345, 3))]]).unwrap_err();
    assert_eq!(
        e.message(),
        "column `d`: decimal 12.345 does not fit decimal(4,2) without losing digits"
    );
    let e = values_to_batch(&cols, vec![vec![Value::Null]]).unwrap_err();
    assert!(e.message().contains("non-nullable"), "{e}");
    let cols = [Column::new("t", T::Timestamp)];
    let nanos = NaiveDate::from_ymd_opt(2026, 1, 1)
        .unwrap()
        .and_hms_nano_opt(0, 0, 0, 1)
        .unwrap();
    let e = values_to_batch(&cols, vec![vec![Value::Timestamp(nanos)]]).unwrap_err();
    assert!(e.message().contains("below a microsecond"), "{e}");
    let cols = [Column::new("m", T::map(T::String, T::Int))];
    let e = values_to_batch(
        &cols,
        vec![vec![Value::Map(vec![(Value::Null, Value::Int(1))])]],
    )
    .unwrap_err();
    assert!(e.message().contains("map key cannot be NULL"), "{e}");
}
