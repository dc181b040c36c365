//! End-to-end metadata rows on the engine: `$manifests` through `ManifestRow` (the columns
//! every engine has, the summaries left out), `$partitions` through `PartitionRow` of a
//! partitioned table, and the unpartitioned case: the engine's `partitions` table has
//! no `partition` column there (Iceberg's `PartitionsTable`, like Trino's), so the
//! record-type path refuses the whole row and a projection of the counts runs.

use chrono::NaiveDate;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{ManifestRow, PartitionRow};
use iceberg_sql_tests::engine::Engine;

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "metarows",
    name = "daily",
    location = "s3://metarows-bucket/iceberg/daily/",
    partition(event_date)
)]
pub struct Daily {
    pub id: i64,
    pub event_date: NaiveDate,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "metarows",
    name = "flat",
    location = "s3://metarows-bucket/iceberg/flat/"
)]
pub struct Flat {
    pub id: i64,
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 10, d).unwrap()
}

#[test]
fn manifest_and_partition_rows_decode_and_unpartitioned_tables_are_refused() {
    let Some(engine) = Engine::get_or_skip(
        "manifest_and_partition_rows_decode_and_unpartitioned_tables_are_refused",
    ) else {
        return;
    };
    let spark = Dialect::Spark;
    engine.run("CREATE NAMESPACE IF NOT EXISTS metarows");
    engine.run(Daily::table_def().create_table().build_for(spark).unwrap());
    engine.run(Flat::table_def().create_table().build_for(spark).unwrap());

    // Two inserts into the partitioned table: 3 rows on day 1, 2 on day 2.
    let first = [(1, 1), (2, 1), (3, 2)].map(|(id, d)| Daily {
        id,
        event_date: day(d),
    });
    let second = [(4, 1), (5, 2)].map(|(id, d)| Daily {
        id,
        event_date: day(d),
    });
    engine.run(Daily::insert(&first).build_for(spark).unwrap());
    engine.run(Daily::insert(&second).build_for(spark).unwrap());
    let flat: Vec<Flat> = (0..4).map(|id| Flat { id }).collect();
    engine.run(Flat::insert(&flat).build_for(spark).unwrap());

    // `$manifests`: one manifest per insert, each adding one file per day it touched.
    let r = engine.run(Daily::metadata::<ManifestRow>().build_for(spark).unwrap());
    let manifests: Vec<ManifestRow> = r
        .result_rows()
        .iter()
        .map(|row| ManifestRow::from_row(row).unwrap())
        .collect();
    assert_eq!(manifests.len(), 2);
    let added: i32 = manifests
        .iter()
        .map(|m| m.added_data_files_count.unwrap())
        .sum();
    assert_eq!(added, 4);
    assert!(manifests
        .iter()
        .all(|m| m.length > 0 && m.partition_spec_id == 0 && m.path.ends_with(".avro")));
    // Spark's table has no row counts: they come back NULL.
    assert!(manifests.iter().all(|m| m.added_rows_count.is_none()));

    // `$partitions` of the partitioned table: per-day counts.
    let r = engine.run(Daily::metadata::<PartitionRow>().build_for(spark).unwrap());
    let mut partitions: Vec<PartitionRow> = r
        .result_rows()
        .iter()
        .map(|row| PartitionRow::from_row(row).unwrap())
        .collect();
    partitions.sort_by(|a, b| a.partition.cmp(&b.partition));
    let counts: Vec<(&str, i64, i64)> = partitions
        .iter()
        .map(|p| (p.partition.as_str(), p.record_count, p.file_count))
        .collect();
    assert_eq!(
        counts,
        [
            (r#"{"event_date":"2026-10-01"}"#, 3, 2),
            (r#"{"event_date":"2026-10-02"}"#, 2, 2)
        ]
    );
    assert!(partitions.iter().all(|p| p.total_size.unwrap() > 0));

    // The unpartitioned table: the engine has no `partition` column ...
    let by_name = Flat::table_def()
        .name()
        .metadata::<PartitionRow>()
        .build_for(spark)
        .unwrap();
    let e = engine.expect_err(&by_name);
    assert!(e.message().contains("partition"), "{e:?}");
    // ... the record-type path refuses the whole row before it runs ...
    let refused = Flat::metadata::<PartitionRow>()
        .build_for(spark)
        .unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::UnknownColumn);
    // ... and the counts it has run.
    let q = Flat::metadata::<PartitionRow>()
        .column(PartitionRow::RECORD_COUNT)
        .column(PartitionRow::FILE_COUNT)
        .build_for(spark)
        .unwrap();
    let r = engine.run(&q);
    let rows: Vec<(i64, i64)> = r
        .result_rows()
        .iter()
        .map(|row| FromRow::from_row(row).unwrap())
        .collect();
    // One row, all four records; the file count follows the engine's write tasks.
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].0, 4);
    assert!((1..=4).contains(&rows[0].1), "{rows:?}");

    // A column Spark names differently, named explicitly: read under our name.
    let q = Flat::metadata::<PartitionRow>()
        .column(PartitionRow::RECORD_COUNT)
        .column(PartitionRow::TOTAL_SIZE)
        .build_for(spark)
        .unwrap();
    assert!(
        q.sql()
            .contains("total_data_file_size_in_bytes AS total_size"),
        "{q}"
    );
    let r = engine.run(&q);
    assert_eq!(r.columns, ["record_count", "total_size"]);
    let rows: Vec<(i64, Option<i64>)> = r
        .result_rows()
        .iter()
        .map(|row| FromRow::from_row(row).unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].0, 4);
    assert!(rows[0].1.unwrap() > 0, "{rows:?}");
}
