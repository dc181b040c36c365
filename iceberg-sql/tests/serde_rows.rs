//! Feature `serde`: result rows into `serde::Deserialize` types, and `TableDef` as
//! JSON (its documented shape, and back).
#![cfg(feature = "serde")]

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use iceberg_sql::prelude::*;
use iceberg_sql::record::serde::{from_row, Serde};
use iceberg_sql::record::{ColumnMeta, Columns};
use serde::Deserialize;

fn row(cols: &[(&str, &str)], cells: &[Option<&str>]) -> Row {
    let columns = Arc::new(Columns::new(
        cols.iter().map(|(n, t)| ColumnMeta::new(*n, *t)).collect(),
    ));
    Row::new(
        columns,
        cells.iter().map(|c| c.map(str::to_string)).collect(),
    )
}

#[derive(Deserialize, Debug, PartialEq)]
struct Point {
    lat: f64,
    tag: Option<String>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Status {
    Ok,
    Retried,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Event {
    id: String,
    n: i64,
    ratio: f32,
    ok: bool,
    status: Status,
    cost: String, // a decimal as its exact text
    day: NaiveDate,
    at: NaiveDateTime,
    at_tz: DateTime<Utc>,
    note: Option<String>,
    empty: String,
    #[serde(with = "serde_bytes_as_vec")]
    bin: Vec<u8>,
    tags: Vec<String>,
    counts: BTreeMap<String, i64>,
    place: Point,
    ids: Vec<i64>,
    bin_seq: Vec<u8>,
}

/// `Vec<u8>` through `deserialize_bytes` (what `serde_bytes` does).
mod serde_bytes_as_vec {
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
        }
        d.deserialize_byte_buf(V)
    }
}

const COLUMNS: &[(&str, &str)] = &[
    ("id", "varchar"),
    ("n", "bigint"),
    ("ratio", "real"),
    ("ok", "boolean"),
    ("status", "varchar"),
    ("cost", "decimal(38,9)"),
    ("day", "date"),
    ("at", "timestamp(6)"),
    ("at_tz", "timestamp(3) with time zone"),
    ("note", "varchar"),
    ("empty", "varchar"),
    ("bin", "varbinary"),
    ("tags", "json"),
    ("counts", "json"),
    ("place", "json"),
    ("ids", "array(bigint)"),
    ("bin_seq", "varbinary"),
];

fn cells() -> Vec<Option<&'static str>> {
    vec![
        Some("e1"),
        Some("-7"),
        Some("NaN"),
        Some("false"),
        Some("retried"),
        Some("12345678901234567890123456789.123456789"),
        Some("2026-01-01"),
        Some("2026-01-01 12:00:00.5"),
        Some("2026-01-01 07:00:00.000 -05:00"),
        None,
        Some(""),
        Some("00 01 ff"),
        Some(r#"["a, b","c=d"]"#),
        Some(r#"{"x":1}"#),
        Some(r#"{"lat":1.5,"tag":null}"#),
        Some("[1, 2]"),
        Some("0a 0b"),
    ]
}

#[test]
fn a_row_into_a_serde_struct_by_name() {
    let r = row(COLUMNS, &cells());
    let Serde(e) = Serde::<Event>::from_row(&r).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(e.id, "e1");
    assert_eq!(e.n, -7);
    assert!(e.ratio.is_nan());
    assert!(!e.ok);
    assert_eq!(e.status, Status::Retried);
    assert_eq!(e.cost, "12345678901234567890123456789.123456789");
    assert_eq!(e.day, NaiveDate::from_ymd_opt(2026, 1, 1).unwrap());
    assert_eq!(e.at.to_string(), "2026-01-01 12:00:00.500");
    assert_eq!(e.at_tz.to_rfc3339(), "2026-01-01T12:00:00+00:00");
    assert_eq!(e.note, None);
    assert_eq!(e.empty, "");
    assert_eq!(e.bin, [0, 1, 255]);
    assert_eq!(e.tags, ["a, b", "c=d"]);
    assert_eq!(e.counts["x"], 1);
    assert_eq!(
        e.place,
        Point {
            lat: 1.5,
            tag: None
        }
    );
    assert_eq!(e.ids, [1, 2]);
    assert_eq!(e.bin_seq, [10, 11]);
}

#[test]
fn tuples_sequences_and_single_values() {
    let r = row(
        &[("tool", "varchar"), ("n", "bigint"), ("note", "varchar")],
        &[Some("fetch"), Some("3"), None],
    );
    let t: (String, i64, Option<String>) = from_row(&r).unwrap();
    assert_eq!(t, ("fetch".into(), 3, None));
    let v: Vec<Option<String>> = from_row(&r).unwrap();
    assert_eq!(v, [Some("fetch".into()), Some("3".into()), None]);
    let e = from_row::<(String, i64)>(&r).unwrap_err();
    assert!(e.message().contains("tuple of 2"), "{e}");
    // NULL is not "".
    let e = from_row::<(String, i64, String)>(&r).unwrap_err();
    assert!(e.message().contains("column `note` is NULL"), "{e}");
    let count = row(&[("_col0", "bigint")], &[Some("42")]);
    assert_eq!(from_row::<i64>(&count).unwrap(), 42);
}

#[test]
fn any_value_follows_the_column_types() {
    let r = row(COLUMNS, &cells());
    let v: serde_json::Value = from_row(&r).unwrap();
    assert_eq!(v["n"], serde_json::json!(-7));
    assert_eq!(v["ok"], serde_json::json!(false));
    assert_eq!(
        v["cost"],
        serde_json::json!("12345678901234567890123456789.123456789")
    );
    assert_eq!(v["at"], serde_json::json!("2026-01-01T12:00:00.500"));
    assert_eq!(v["at_tz"], serde_json::json!("2026-01-01T12:00:00Z"));
    assert_eq!(v["note"], serde_json::Value::Null);
    assert_eq!(v["ids"], serde_json::json!([1, 2]));
    assert_eq!(v["bin"], serde_json::json!([0, 1, 255]));
    // A `json` column is not typed: its text.
    assert_eq!(v["tags"], serde_json::json!(r#"["a, b","c=d"]"#));
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts), bucket(16, user_id)),
    properties(format = "parquet", write_compression = "zstd"),
    comment = "MCP tool calls"
)]
struct McpEvent {
    event_id: String,
    user_id: String,
    event_ts: NaiveDateTime,
    tags: Vec<String>,
    #[iceberg(type = "map<string, decimal(10,2)>", comment = "per currency")]
    costs: BTreeMap<String, iceberg_sql::Decimal>,
    #[iceberg(renamed_from = "payload_text")]
    payload: Option<String>,
}

#[test]
fn table_def_json_shape_and_round_trip() {
    let def = McpEvent::table_def();
    let json = serde_json::to_value(def).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "database": "analytics",
            "name": "mcp_events",
            "columns": [
                {"name": "event_id", "type": "string", "required": true},
                {"name": "user_id", "type": "string", "required": true},
                {"name": "event_ts", "type": "timestamp", "required": true},
                {"name": "tags", "type": "list<string>", "required": true},
                {"name": "costs", "type": "map<string, decimal(10,2)>", "required": true,
                 "comment": "per currency"},
                {"name": "payload", "type": "string", "renamed_from": "payload_text"}
            ],
            "partition": [
                {"source": "event_ts", "transform": "day"},
                {"source": "user_id", "transform": "bucket[16]"}
            ],
            "location": "s3://my-datalake/iceberg/mcp_events/",
            "properties": {"format": "parquet", "write_compression": "zstd"},
            "comment": "MCP tool calls"
        })
    );
    let back: TableDef = serde_json::from_value(json).unwrap();
    assert_eq!(&back, def);
    // The same DDL comes out of the definition read back.
    assert_eq!(
        back.create_table().build().unwrap().sql(),
        def.create_table().build().unwrap().sql()
    );
}

#[test]
fn table_def_json_is_checked_when_read() {
    let minimal: TableDef = serde_json::from_str(
        r#"{"database":"a","name":"t","columns":[{"name":"id","type":"struct<x: int, y: list<timestamptz>>"}]}"#,
    )
    .unwrap();
    assert_eq!(
        minimal.columns()[0].ty,
        IcebergType::structure([
            ("x", IcebergType::Int),
            ("y", IcebergType::list(IcebergType::TimestampTz))
        ])
    );
    for (json, why) in [
        (
            r#"{"database":"a","name":"t","columns":[{"name":"id","type":"uuid"}]}"#,
            "`uuid` is not an Iceberg type",
        ),
        (
            r#"{"database":"a","name":"t","columns":[{"name":"ID","type":"int"}]}"#,
            "upper case",
        ),
        (
            r#"{"database":"a","name":"t","columns":[{"name":"id","type":"int"}],"partition":[{"source":"id","transform":"bucket[x]"}]}"#,
            "not a partition transform",
        ),
        (
            r#"{"database":"a","name":"t","columns":[{"name":"id","type":"int"}],"partition":[{"source":"id","transform":"hour"}]}"#,
            "hour",
        ),
        (
            r#"{"database":"a","name":"t","columns":[],"colour":"red"}"#,
            "unknown field `colour`",
        ),
        (
            r#"{"database":"a","name":"t","columns":[{"name":"id","type":"int"}],"location":"s3://bucket"}"#,
            "bucket root",
        ),
    ] {
        let e = serde_json::from_str::<TableDef>(json).unwrap_err();
        assert!(e.to_string().contains(why), "{json}: {e}");
    }
}

#[test]
fn json_strings_holding_non_finite_doubles() {
    let r = row(
        &[("place", "json")],
        &[Some(r#"{"lat":"-Infinity","tag":"x"}"#)],
    );
    let p: Point = from_row::<(Point,)>(&r).unwrap().0;
    assert_eq!(p.lat, f64::NEG_INFINITY);
    let r = row(&[("place", "json")], &[Some(r#"{"lat":"abc","tag":"x"}"#)]);
    let e = from_row::<(Point,)>(&r).unwrap_err();
    assert!(e.message().contains("`abc` is not a number"), "{e}");
}

/// The example of the documented JSON shape (on `TableDef`'s `Serialize` impl) reads.
#[test]
fn the_documented_table_def_json_reads() {
    let doc = r#"{
      "database": "analytics",
      "name": "mcp_events",
      "columns": [
        {"name": "event_id", "type": "string", "required": true},
        {"name": "event_ts", "type": "timestamp", "required": true},
        {"name": "tags", "type": "list<string>"},
        {"name": "cost", "type": "decimal(10,2)", "comment": "USD", "renamed_from": "price"}
      ],
      "partition": [
        {"source": "event_ts", "transform": "day"},
        {"source": "event_id", "transform": "bucket[16]"}
      ],
      "location": "s3://my-datalake/iceberg/mcp_events/",
      "properties": {"format": "parquet", "write_compression": "snappy"},
      "comment": "MCP tool calls"
    }"#;
    let def: TableDef = serde_json::from_str(doc).unwrap();
    assert_eq!(def.columns()[3].ty, IcebergType::decimal(10, 2));
    assert_eq!(def.columns()[3].renamed_from.as_deref(), Some("price"));
    assert_eq!(
        def.partition_spec()[1].transform,
        PartitionTransform::Bucket(16)
    );
    let again: TableDef = serde_json::from_value(serde_json::to_value(&def).unwrap()).unwrap();
    assert_eq!(again, def);
}
