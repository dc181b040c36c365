//! Athena returns list/map/struct cells in a text form that cannot be parsed back
//! reliably (`[a, b]`, `{k=v}`), so a table SELECT whose rows come back to us lists the
//! columns and reads nested ones as `CAST(c AS JSON)`; statements that write (CTAS,
//! INSERT ... SELECT, UNLOAD) keep the real types, and Spark (whose rows the engine
//! returns losslessly) reads them as they are.

use std::collections::BTreeMap;

use iceberg_sql::ctas::IcebergCtas;
use iceberg_sql::prelude::*;

#[derive(IcebergTable, Debug, Clone, PartialEq, Default)]
pub struct Point {
    pub lat: f64,
    pub lon: f64,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(database = "lake", location = "s3://lake-bucket/places/")]
pub struct Place {
    pub id: i64,
    pub tags: Vec<String>,
    pub attrs: BTreeMap<String, String>,
    pub home: Option<Point>,
}

#[test]
fn athena_reads_nested_columns_as_json() {
    let all = Place::select().build().unwrap();
    assert_eq!(
        all.sql(),
        "SELECT id, CAST(tags AS JSON) AS tags, CAST(attrs AS JSON) AS attrs, \
         CAST(home AS JSON) AS home FROM lake.place"
    );
}

#[test]
fn spark_reads_nested_columns_as_they_are() {
    let all = Place::select().build_for(Dialect::Spark).unwrap();
    assert_eq!(all.sql(), "SELECT * FROM lake.place");
}

#[test]
fn writes_keep_nested_types() {
    let q = Place::select();
    let ctas = IcebergCtas::new(TableName::new("lake", "place_copy"), &q)
        .location("s3://lake-bucket/place_copy/")
        .build()
        .unwrap();
    assert!(
        ctas.sql().ends_with("AS\nSELECT * FROM lake.place"),
        "{ctas}"
    );
}
