//! End-to-end on Spark: the renderings the type model and the name rules changed, run
//! in the engine.
//!
//! * a table in a database named `limit`, with columns named like keywords (`interval`,
//!   `all`, `current_role`, `trim`, identity-partitioned on `trim`) and a table comment:
//!   CREATE TABLE, INSERT, UPDATE, DELETE and SELECT quote what must be quoted and run;
//! * a `DateTime<Utc>` column compared with and assigned `DateTime<Utc>` values and the
//!   clock (`Free::at_utc`): the stored value is the UTC wall clock;
//! * a MERGE whose source is a built `Select` (`MergeSource::select`) of a table with a
//!   nested column: the nested value keeps its type.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::{current_timestamp, days};
use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;
use iceberg_sql_tests::engine::Engine;

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "limit",
    name = "keywords",
    location = "s3://names-bucket/iceberg/keywords/",
    comment = "columns named like SQL keywords",
    partition(trim)
)]
pub struct Keywords {
    pub id: i64,
    pub interval: i64,
    pub all: String,
    pub current_role: String,
    pub trim: String,
    pub seen: DateTime<Utc>,
    pub tags: Vec<String>,
    pub day: NaiveDate,
}

fn at(h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, h, 30, 15).unwrap()
}

fn row(id: i64) -> Keywords {
    Keywords {
        id,
        interval: id * 10,
        all: format!("all-{id}"),
        current_role: format!("role-{id}"),
        trim: if id % 2 == 0 { "even" } else { "odd" }.to_string(),
        seen: at(id as u32),
        tags: vec![format!("t{id}"), "x".to_string()],
        day: NaiveDate::from_ymd_opt(2026, 3, 1).unwrap(),
    }
}

fn read(engine: &Engine) -> Vec<Keywords> {
    let q = Keywords::select()
        .order_by(Keywords::ID, Order::Asc)
        .build_for(Dialect::Spark)
        .unwrap();
    let r = engine.run(&q);
    r.result_rows()
        .iter()
        .map(|row| Keywords::from_row(row).unwrap())
        .collect()
}

#[test]
fn keyword_names_utc_values_and_typed_merge_sources_run_on_spark() {
    let Some(engine) =
        Engine::get_or_skip("keyword_names_utc_values_and_typed_merge_sources_run_on_spark")
    else {
        return;
    };
    let spark = Dialect::Spark;
    let def = Keywords::table_def();
    engine.run("CREATE NAMESPACE IF NOT EXISTS `limit`");
    let create = def.create_table().build_for(spark).unwrap();
    assert!(create
        .sql()
        .contains("COMMENT 'columns named like SQL keywords'"));
    engine.run(&create);
    let rows: Vec<Keywords> = (1..=4).map(row).collect();
    engine.run(Keywords::insert(&rows).build_for(spark).unwrap());
    assert_eq!(read(engine), rows);

    // UPDATE of keyword-named columns and of the UTC column, by a UTC filter.
    let update = Keywords::update()
        .set(Keywords::CURRENT_ROLE, "admin")
        .set(Keywords::SEEN, at(20))
        .filter(
            Keywords::TRIM
                .eq("even")
                .and(Keywords::SEEN.lt(at(3)))
                .and(Keywords::INTERVAL.gt(5i64)),
        )
        .build_for(spark)
        .unwrap();
    engine.run(&update);
    let mut expected = rows.clone();
    expected[1].current_role = "admin".into();
    expected[1].seen = at(20);
    assert_eq!(read(engine), expected);

    // The clock as a UTC instant: every stored value (2026) is in the past.
    let recent = Keywords::select()
        .filter(Keywords::SEEN.gt((current_timestamp() - days(1)).at_utc()))
        .build_for(spark)
        .unwrap();
    assert!(engine.run(&recent).rows.is_empty());

    // MERGE from a built SELECT of a staging table: the nested column keeps its type.
    let staging = TableName::new("limit", "keywords_staging");
    engine.run(
        "CREATE TABLE `limit`.keywords_staging USING iceberg AS SELECT * FROM `limit`.keywords WHERE id <= 2",
    );
    engine
        .run("UPDATE `limit`.keywords_staging SET tags = array('merged'), `all` = 'from-staging'");
    let staged = Keywords::select().into_table(staging);
    let merge = Keywords::merge_from(MergeSource::select(&staged))
        .on_key(Keywords::ID)
        .when_matched()
        .update_all()
        .build_for(spark)
        .unwrap();
    engine.run(&merge);
    for k in &mut expected[..2] {
        k.tags = vec!["merged".into()];
        k.all = "from-staging".into();
    }
    assert_eq!(read(engine), expected);

    // DELETE by a keyword-named partition column.
    engine.run(
        Keywords::delete()
            .filter(Keywords::TRIM.eq("odd").and(Keywords::ALL.ne("x")))
            .build_for(spark)
            .unwrap(),
    );
    let left: Vec<i64> = read(engine).iter().map(|k| k.id).collect();
    assert_eq!(left, [2, 4]);
}

/// Iceberg names a new table's partition fields after their column and transform
/// (`id_bucket`, `s_trunc`, `ts_day`) and refuses a name twice or a column's name: the
/// specs CREATE TABLE refuses for that reason are refused by Spark too, and distinct
/// names (an identity and a truncate of one column, a `ts_date` column beside
/// `days(ts)`) run. A column added or renamed later cannot take a field's name either.
#[test]
fn partition_field_names_spark_refuses_are_refused_before_spark() {
    let Some(engine) =
        Engine::get_or_skip("partition_field_names_spark_refuses_are_refused_before_spark")
    else {
        return;
    };
    let ns = engine.namespace("partition_names");
    let def = |name: &str, parts: &[PartitionField], extra: &str| {
        let mut b = TableDef::builder(ns.to_string(), name)
            .column(Column::new("id", IcebergType::Long))
            .column(Column::new("s", IcebergType::String))
            .column(Column::new("ts", IcebergType::Timestamp))
            .column(Column::new(extra, IcebergType::Date))
            .location(format!("s3://names-bucket/iceberg/{ns}/{name}/"));
        for p in parts {
            b = b.partition(p.clone());
        }
        b.build().unwrap()
    };
    let f = PartitionField::new;
    let refused = [
        (
            "two_buckets",
            vec![
                f("id", PartitionTransform::Bucket(16)),
                f("id", PartitionTransform::Bucket(8)),
            ],
            "d",
            "bucket(16, id), bucket(8, id)",
            "Found duplicate column(s) in the partitioning",
        ),
        (
            "two_truncates",
            vec![
                f("s", PartitionTransform::Truncate(4)),
                f("s", PartitionTransform::Truncate(8)),
            ],
            "d",
            "truncate(4, s), truncate(8, s)",
            "Found duplicate column(s) in the partitioning",
        ),
        (
            "day_named_like_a_column",
            vec![f("ts", PartitionTransform::Day)],
            "ts_day",
            "days(ts)",
            "Cannot create partition from name that exists in schema: ts_day",
        ),
    ];
    for (name, parts, extra, spark_spec, spark_error) in refused {
        let table = def(name, &parts, extra);
        let e = table.create_table().build_for(Dialect::Spark).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidPartition, "{name}: {e}");
        let by_hand = format!(
            "CREATE TABLE {} (id bigint, s string, ts timestamp_ntz, {extra} date) USING iceberg PARTITIONED BY ({spark_spec})",
            ns.table(name)
        );
        let spark = engine.expect_err(&by_hand);
        assert!(
            spark.message().contains(spark_error),
            "{name}: {}",
            spark.message()
        );
    }
    let ok = def(
        "distinct_names",
        &[
            PartitionField::identity("s"),
            f("s", PartitionTransform::Truncate(4)),
            f("id", PartitionTransform::Bucket(16)),
            f("ts", PartitionTransform::Day),
        ],
        "ts_date",
    );
    engine.run(ok.create_table().build_for(Dialect::Spark).unwrap());
    let fields = engine.run(format!(
        "SELECT partition FROM {}.partitions",
        ns.table("distinct_names")
    ));
    assert_eq!(
        fields.types,
        ["struct<s:string,s_trunc:string,id_bucket:int,ts_day:date>"]
    );

    // A column named like a partition field cannot be added or renamed to afterwards.
    let e = ok
        .alter()
        .add_columns([Column::new("ts_day", IcebergType::Date)])
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable, "{e}");
    for by_hand in [
        format!(
            "ALTER TABLE {} ADD COLUMN ts_day date",
            ns.table("distinct_names")
        ),
        format!(
            "ALTER TABLE {} RENAME COLUMN ts_date TO id_bucket",
            ns.table("distinct_names")
        ),
    ] {
        let spark = engine.expect_err(&by_hand);
        assert!(
            spark.message().contains(
                "Cannot create identity partition sourced from different field in schema"
            ),
            "{}",
            spark.message()
        );
    }
}
