//! CTAS (Iceberg, Hive Parquet), UNLOAD and the daily-summary recipe, in both dialects,
//! and a negative test per rule.

#[path = "query_common/mod.rs"]
mod common;

use chrono::NaiveDate;
use common::*;
use iceberg_sql::ctas::{AddHivePartitions, HiveCtas, IcebergCtas, Unload, UnloadFormat};
use iceberg_sql::dsl::count_all;
use iceberg_sql::prelude::*;
use iceberg_sql::query::Select;
use iceberg_sql::recipes::{DailyRefresh, MissingDays};

fn events() -> Select<McpEvent> {
    McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::USER_ID)
        .expr_as(
            McpEvent::EVENT_TS.cast::<chrono::NaiveDateTime>(),
            "event_ts",
        )
        .column(McpEvent::STATUS)
}

/// A daily summary query for one day, as typed code.
fn daily_summary(day: NaiveDate) -> Select<McpEvent> {
    let start = day.and_hms_opt(0, 0, 0).unwrap();
    McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::STATUS)
        .expr_as(count_all(), "call_count")
        .expr_as(
            count_all().filter(McpEvent::STATUS.eq("success")),
            "success_count",
        )
        .expr_as(
            count_all().filter(McpEvent::STATUS.ne("success")),
            "error_count",
        )
        .expr_as(McpEvent::LATENCY_MS.avg(), "avg_latency_ms")
        .expr_as(
            McpEvent::LATENCY_MS.approx_percentile(0.95),
            "p95_latency_ms",
        )
        .expr_as(
            McpEvent::LATENCY_MS.approx_percentile(0.99),
            "p99_latency_ms",
        )
        .value_as(day, "dt")
        .filter(McpEvent::EVENT_TS.ge(start))
        .filter(McpEvent::EVENT_TS.lt(start + chrono::Duration::days(1)))
        .group_by(McpEvent::TOOL_NAME)
        .group_by(McpEvent::STATUS)
}

#[test]
fn iceberg_ctas_with_every_property() {
    let q = events();
    let ctas = |d| {
        IcebergCtas::new(TableName::new("analytics", "mcp_daily"), &q)
            .location("s3://my-datalake/iceberg/mcp_daily/")
            .partition(PartitionField::new("event_ts", PartitionTransform::Day))
            .partition(PartitionField::new(
                "user_id",
                PartitionTransform::Bucket(16),
            ))
            .partition(PartitionField::new(
                "event_id",
                PartitionTransform::Truncate(4),
            ))
            .partition(PartitionField::identity("status"))
            .property(TableProperty::Format(FileFormat::Parquet))
            .property(TableProperty::WriteCompression(Compression::Zstd))
            .property(TableProperty::OptimizeRewriteDataFileThreshold(5))
            .property(TableProperty::OptimizeRewriteDeleteFileThreshold(2))
            .property(TableProperty::VacuumMaxSnapshotAgeSeconds(604_800))
            .property(TableProperty::VacuumMinSnapshotsToKeep(5))
            .build_for(d)
    };
    insta::assert_snapshot!("iceberg_ctas", both(ctas));
}

#[test]
fn iceberg_ctas_from_a_table_definition() {
    // The daily summary as an Iceberg table, not Hive partitions
    // registered by hand.
    let q = daily_summary(date(2026, 10, 1));
    insta::assert_snapshot!(
        "daily_summary_ctas",
        both(|d| {
            let def = DailySummary::table_def();
            IcebergCtas::new(def.name().clone(), &q)
                .like(def)
                .build_for(d)
        })
    );
}

#[test]
fn hive_parquet_ctas() {
    // A CSV-to-Parquet conversion, partition column last.
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::SESSION_ID)
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::USER_ID)
        .column(McpEvent::EVENT_TS)
        .column(McpEvent::STATUS)
        .column(McpEvent::LATENCY_MS)
        .expr_as(McpEvent::EVENT_TS.cast::<NaiveDate>(), "event_date")
        .filter(McpEvent::EVENT_TS.ge(ts(2026, 1, 1, 0)));
    let s = HiveCtas::new(TableName::new("analytics", "mcp_events_parquet"), &q)
        .compression(Compression::Snappy)
        .external_location("s3://my-datalake/events-parquet/")
        .partitioned_by(["event_date"])
        .bucketed_by(["user_id"], 64)
        .build()
        .unwrap();
    insta::assert_snapshot!("hive_ctas", s.sql());
}

#[test]
fn unload() {
    let q = McpEvent::select()
        .column(McpEvent::USER_ID)
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::EVENT_TS)
        .column(McpEvent::PAYLOAD)
        .column(McpEvent::STATUS)
        .filter(McpEvent::EVENT_TS.ge(ts(2026, 9, 1, 0)))
        .filter(McpEvent::USER_ID.eq("tenant-acme"));
    let u = Unload::new(&q, "s3://customer-exports/acme/mcp-events-2026-09/")
        .format(UnloadFormat::Parquet)
        .compression(Compression::Snappy)
        .partitioned_by(["status"]);
    let json = Unload::new(&q, "s3://customer-exports/acme/json/").format(UnloadFormat::Json);
    insta::assert_snapshot!(
        "unload",
        format!(
            "{}\n\n{}",
            u.build().unwrap().sql(),
            json.build().unwrap().sql()
        )
    );
}

#[test]
fn daily_refresh_recipe() {
    let day = date(2026, 10, 1);
    let q = daily_summary(day);
    insta::assert_snapshot!(
        "daily_refresh",
        both_steps(|d| DailyRefresh::new(DailySummary::DT, day, &q).build_for(d))
    );
}

#[test]
fn missing_days_recipe() {
    let t = DailySummary::table_def();
    let by_ts = McpEvent::table_def();
    insta::assert_snapshot!(
        "missing_days",
        both(|d| MissingDays::new(t, "dt", date(2026, 9, 1), date(2026, 9, 30)).build_for(d))
            + "\n\n"
            + &both(
                |d| MissingDays::new(by_ts, "event_ts", date(2026, 9, 1), date(2026, 9, 7))
                    .build_for(d)
            )
    );
}

#[test]
fn athena_ctas_partitioning_is_column_first() {
    let q = events();
    let partitioning = |column: &str, t| {
        let ctas = IcebergCtas::new(TableName::new("analytics", "x"), &q)
            .location("s3://bucket/x/")
            .partition(PartitionField::new(column, t))
            .build()
            .unwrap();
        let sql = ctas.sql();
        let start = sql.find("partitioning = ARRAY[").unwrap() + "partitioning = ARRAY[".len();
        let len = sql[start..].find(']').unwrap();
        sql[start..start + len].to_string()
    };
    assert_eq!(
        partitioning("user_id", PartitionTransform::Bucket(16)),
        "'bucket(user_id, 16)'"
    );
    assert_eq!(
        partitioning("user_id", PartitionTransform::Truncate(10)),
        "'truncate(user_id, 10)'"
    );
    assert_eq!(
        partitioning("event_ts", PartitionTransform::Hour),
        "'hour(event_ts)'"
    );
    assert_eq!(
        partitioning("status", PartitionTransform::Identity),
        "'status'"
    );
}

// ---- negative tests -------------------------------------------------------------

#[test]
fn iceberg_ctas_needs_a_location_in_athena() {
    let q = events();
    let e = IcebergCtas::new(TableName::new("analytics", "x"), &q)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    let e = IcebergCtas::new(TableName::new("analytics", "x"), &q)
        .location("s3://bucket/")
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
}

/// The rebuild the partition-evolution refusal recommends: a CTAS into `mcp_events_v2`
/// like `mcp_events`. It takes the spec and properties, never the source's location,
/// which holds the source's files (an Athena CTAS checks that its location is empty:
/// <https://docs.aws.amazon.com/athena/latest/ug/considerations-ctas.html>).
#[test]
fn a_ctas_like_another_table_needs_a_location_of_its_own() {
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::EVENT_TS);
    let source = McpEvent::table_def();
    let v2 = TableName::new("analytics", "mcp_events_v2");
    let e = IcebergCtas::new(v2.clone(), &q)
        .like(source)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    assert_eq!(
        e.to_string(),
        "an Iceberg CTAS like `analytics.mcp_events` needs a location of its own: like() takes \
         the partition spec and properties of `analytics.mcp_events`, not its location, which \
         holds that table's files (an Athena CTAS writes only into an empty folder)\n  help: set \
         a new, empty S3 folder with .location(\"s3://bucket/folder/mcp_events_v2/\")"
    );
    let e = IcebergCtas::new(v2.clone(), &q)
        .like(source)
        .location("s3://my-datalake/iceberg/mcp_events")
        .build()
        .unwrap_err();
    assert_eq!(
        e.message(),
        "location of an Iceberg CTAS `s3://my-datalake/iceberg/mcp_events/` is the location of \
         `analytics.mcp_events`, which holds that table's files; an Athena CTAS writes only \
         into an empty folder"
    );
    // Set before or after like(), a new folder is kept.
    for ctas in [
        IcebergCtas::new(v2.clone(), &q)
            .like(source)
            .location("s3://my-datalake/iceberg/mcp_events_v2/"),
        IcebergCtas::new(v2.clone(), &q)
            .location("s3://my-datalake/iceberg/mcp_events_v2/")
            .like(source),
    ] {
        assert_eq!(
            ctas.build().unwrap().sql(),
            "CREATE TABLE analytics.mcp_events_v2\nWITH (\n  table_type = 'ICEBERG',\n  \
             is_external = false,\n  location = 's3://my-datalake/iceberg/mcp_events_v2/',\n  \
             partitioning = ARRAY['day(event_ts)'],\n  format = 'PARQUET',\n  \
             write_compression = 'SNAPPY',\n  optimize_rewrite_delete_file_threshold = 10\n) AS\n\
             SELECT event_id, event_ts FROM analytics.mcp_events"
        );
    }
    // Spark places a table without LOCATION in its warehouse: no location is needed,
    // but the source's is still refused.
    let ctas = IcebergCtas::new(v2.clone(), &q).like(source);
    assert!(!ctas
        .build_for(Dialect::Spark)
        .unwrap()
        .sql()
        .contains("LOCATION"));
    let e = ctas
        .location("s3://my-datalake/iceberg/mcp_events/")
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
}

#[test]
fn iceberg_ctas_checks_partitioning_against_the_select() {
    let q = events();
    let e = IcebergCtas::new(TableName::new("analytics", "x"), &q)
        .location("s3://my-datalake/x/")
        .partition(PartitionField::new(
            "tool_name",
            PartitionTransform::Identity,
        ))
        .partition(PartitionField::new("status", PartitionTransform::Day))
        .build()
        .unwrap_err();
    assert_eq!(e.all().count(), 2, "{e}");
    assert!(
        e.message()
            .contains("`tool_name` is not a column of the SELECT"),
        "{e}"
    );
    assert_eq!(e.others()[0].kind(), ErrorKind::InvalidPartition);
}

#[test]
fn iceberg_ctas_refuses_properties_ctas_does_not_take() {
    let q = events();
    let e = IcebergCtas::new(TableName::new("analytics", "x"), &q)
        .location("s3://my-datalake/x/")
        .property(TableProperty::VacuumMaxMetadataFilesToKeep(10))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    assert!(e.hint().unwrap().contains("ALTER TABLE"), "{e}");
    let e = IcebergCtas::new(TableName::new("analytics", "x"), &q)
        .location("s3://my-datalake/x/")
        .property(TableProperty::Format(FileFormat::Orc))
        .property(TableProperty::WriteCompression(Compression::Gzip))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
}

/// The partitioning of an Iceberg CTAS is a new table's partition spec: the same rules
/// as CREATE TABLE (Trino's connector builds it with Iceberg's `PartitionSpec.Builder`,
/// `plugin/trino-iceberg/.../PartitionFields.java`), with the SELECT's output names as
/// the columns.
#[test]
fn iceberg_ctas_partitioning_is_a_valid_spec() {
    let q = McpEvent::select()
        .column(McpEvent::USER_ID)
        .column(McpEvent::EVENT_TS)
        .expr_as(
            McpEvent::EVENT_TS.cast::<chrono::NaiveDate>(),
            "event_ts_day",
        );
    let ctas = |parts: &[PartitionField], d| {
        let mut c = IcebergCtas::new(TableName::new("analytics", "x"), &q)
            .location("s3://my-datalake/iceberg/x/");
        for p in parts {
            c = c.partition(p.clone());
        }
        c.build_for(d)
    };
    let f = PartitionField::new;
    for d in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        let cases: [(&[PartitionField], &str); 4] = [
            (
                &[PartitionField::identity("user_id"), PartitionField::identity("user_id")],
                "partition `user_id` appears twice",
            ),
            (
                &[f("event_ts", PartitionTransform::Hour), f("event_ts", PartitionTransform::Month)],
                "partitions `hour(event_ts)` and `month(event_ts)` are redundant: Iceberg allows one time transform per column",
            ),
            (
                &[f("user_id", PartitionTransform::Bucket(16)), f("user_id", PartitionTransform::Bucket(8))],
                "partitions `bucket(16, user_id)` and `bucket(8, user_id)` would both be named `user_id_bucket`; \
                 Iceberg names a partition field after its column and transform, not the number, and refuses a name twice",
            ),
            (
                &[f("event_ts", PartitionTransform::Day)],
                "partition `day(event_ts)` would be named `event_ts_day`, which is the name of a column; \
                 Iceberg refuses a partition field named like a column",
            ),
        ];
        for (parts, message) in cases {
            let e = ctas(parts, d).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidPartition, "{d:?}");
            assert_eq!(e.message(), message, "{d:?}");
        }
        assert!(ctas(
            &[
                f("event_ts", PartitionTransform::Hour),
                f("user_id", PartitionTransform::Bucket(8))
            ],
            d
        )
        .is_ok());
    }
}

#[test]
fn hive_partition_columns_must_be_last() {
    let q = events();
    let e = HiveCtas::new(TableName::new("analytics", "x"), &q)
        .partitioned_by(["user_id"])
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable);
    assert!(
        e.message()
            .contains("must be the last columns of the SELECT"),
        "{e}"
    );
    assert!(
        e.message()
            .contains("[event_id, user_id, event_ts, status]"),
        "{e}"
    );
    // In the same order, too.
    let e = HiveCtas::new(TableName::new("analytics", "x"), &q)
        .partitioned_by(["status", "event_ts"])
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable);
    assert!(HiveCtas::new(TableName::new("analytics", "x"), &q)
        .partitioned_by(["event_ts", "status"])
        .build()
        .is_ok());
}

/// Athena writes each partition of a Hive CTAS or an UNLOAD into `<column>=<value>/`
/// beneath the location: a location that already is a folder of a partition column
/// would put the files under `dt=…/dt=…/`.
#[test]
fn a_partitioned_write_into_a_partition_folder_is_refused() {
    let day = date(2026, 10, 1);
    let q = daily_summary(day);
    let e = HiveCtas::new(TableName::new("analytics", "mcp_daily"), &q)
        .external_location("s3://my-datalake/summary/dt=2026-10-01/")
        .partitioned_by(["dt"])
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    assert_eq!(
        e.to_string(),
        "external_location `s3://my-datalake/summary/dt=2026-10-01/` ends in the partition \
         folder `dt=2026-10-01/`: Athena writes each value of partition column `dt` into a \
         folder `dt=<value>/` beneath it, so the files would land under \
         `dt=2026-10-01/dt=.../`\n  help: point it at the table root, \
         `s3://my-datalake/summary/`, and select the partition value as column `dt`"
    );
    let e = Unload::new(&q, "s3://my-datalake/summary/DT=2026-10-01")
        .partitioned_by(["dt"])
        .build()
        .unwrap_err();
    assert!(
        e.message()
            .starts_with("UNLOAD destination `s3://my-datalake/summary/DT=2026-10-01/` ends in the partition folder"),
        "{e}"
    );
    // The table root, a folder named for another column, and an unpartitioned write
    // into a `dt=` folder are fine.
    for (location, partitioned_by) in [
        ("s3://my-datalake/summary/", &["dt"][..]),
        ("s3://my-datalake/summary/region=eu/", &["dt"][..]),
        ("s3://my-datalake/summary/dt=2026-10-01/", &[][..]),
    ] {
        HiveCtas::new(TableName::new("analytics", "mcp_daily"), &q)
            .external_location(location)
            .partitioned_by(partitioned_by.iter().copied())
            .build()
            .unwrap();
        Unload::new(&q, location)
            .partitioned_by(partitioned_by.iter().copied())
            .build()
            .unwrap();
    }
}

#[test]
fn hive_bucketing_rules() {
    let q = events();
    let e = HiveCtas::new(TableName::new("analytics", "x"), &q)
        .partitioned_by(["status"])
        .bucketed_by(["status"], 0)
        .build()
        .unwrap_err();
    assert_eq!(e.all().count(), 2, "{e}");
    let e = HiveCtas::new(TableName::new("analytics", "x"), &q)
        .compression(Compression::Zlib)
        .build()
        .unwrap_err();
    assert!(e.message().contains("ORC codec"), "{e}");
    let e = HiveCtas::new(TableName::new("analytics", "x"), &q)
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
}

/// Trino's Hive connector refuses a table of partition columns only ("Table contains
/// only partition columns", `HiveMetadata`), takes `bucket_count` as an integer property
/// (`HiveTableProperties`) and bucketing only with both `bucketed_by` and
/// `bucket_count` ("bucketed_by and bucket_count must be specified together").
#[test]
fn hive_ctas_table_and_bucket_limits() {
    let q = McpEvent::select()
        .column(McpEvent::USER_ID)
        .column(McpEvent::STATUS);
    let name = || TableName::new("analytics", "x");
    let e = HiveCtas::new(name(), &q)
        .partitioned_by(["user_id", "status"])
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable);
    assert_eq!(
        e.message(),
        "partitioned_by: every column of the SELECT ([user_id, status]) is a partition column; \
         a Hive table needs at least one other column"
    );
    assert_eq!(
        e.hint(),
        Some("select a data column before the partition columns")
    );
    assert!(HiveCtas::new(name(), &q)
        .partitioned_by(["status"])
        .build()
        .is_ok());

    let e = HiveCtas::new(name(), &q)
        .bucketed_by(["user_id"], 3_000_000_000)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    assert_eq!(
        e.message(),
        "bucket_count 3000000000 is more than 2147483647, the largest integer table property"
    );
    assert!(HiveCtas::new(name(), &q)
        .bucketed_by(["user_id"], 2_147_483_647)
        .build()
        .is_ok());

    let e = HiveCtas::new(name(), &q)
        .bucketed_by([], 8)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    assert_eq!(
        e.message(),
        "bucket_count 8 is given without any bucketed_by column"
    );
}

#[derive(IcebergTable, Debug, Clone)]
#[iceberg(
    database = "analytics",
    name = "blobs",
    location = "s3://my-datalake/iceberg/blobs/"
)]
struct Blob {
    id: i64,
    kind: String,
    data: Vec<u8>,
    tags: Vec<String>,
}

/// Trino's Hive connector partitions only by booleans, numbers, decimals, dates,
/// timestamps and text (`HiveUtil.isValidPartitionType`: "Unsupported type [varbinary]
/// for partition").
#[test]
fn hive_ctas_partition_columns_have_partitionable_types() {
    // Every column: id, kind, data, tags.
    let q = Blob::select();
    let e = HiveCtas::new(TableName::new("analytics", "x"), &q)
        .partitioned_by(["data", "tags"])
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable);
    let all: Vec<&str> = e.all().map(|e| e.message()).collect();
    assert_eq!(
        all,
        [
            "partitioned_by: column `data` is of type varbinary; a Hive table is partitioned only by booleans, numbers, decimals, dates, timestamps and text",
            "partitioned_by: column `tags` is of type array(varchar); a Hive table is partitioned only by booleans, numbers, decimals, dates, timestamps and text",
        ]
    );
    let q = Blob::select().column(Blob::ID).column(Blob::KIND);
    assert!(HiveCtas::new(TableName::new("analytics", "x"), &q)
        .partitioned_by(["kind"])
        .build()
        .is_ok());
}

/// UNLOAD writes files whose schema would repeat a repeated output column name; what
/// Athena writes then is undocumented, so the query is refused with a way out. An
/// unnamed expression is left to Athena.
#[test]
fn unload_refuses_a_repeated_output_column_name() {
    let twice = McpEvent::select()
        .column(McpEvent::STATUS)
        .column(McpEvent::STATUS);
    let alias_twice = McpEvent::select()
        .expr_as(McpEvent::EVENT_ID.count(), "n")
        .expr_as(McpEvent::SESSION_ID.count(), "n");
    let column_and_alias = McpEvent::select()
        .column(McpEvent::USER_ID)
        .expr_as(McpEvent::STATUS, "user_id");
    for d in [Dialect::Athena, Dialect::AthenaS3Tables] {
        for (q, name) in [
            (&twice, "status"),
            (&alias_twice, "n"),
            (&column_and_alias, "user_id"),
        ] {
            let e = Unload::new(q, "s3://exports/x/").build_for(d).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidTable, "{d:?}");
            assert_eq!(
                e.message(),
                format!(
                    "an UNLOAD: output column name '{name}' comes more than once; files whose \
                     schema repeats a name are not documented for UNLOAD, and what Athena \
                     writes then is unconfirmed"
                ),
                "{d:?}"
            );
            assert_eq!(e.hint(), Some("alias one of them to another name"));
        }
        // Aliased apart, each runs.
        let apart = McpEvent::select()
            .column(McpEvent::STATUS)
            .expr_as(McpEvent::STATUS, "status_again");
        assert_eq!(
            Unload::new(&apart, "s3://exports/x/")
                .build_for(d)
                .unwrap()
                .sql(),
            "UNLOAD (SELECT status, status AS status_again FROM analytics.mcp_events) \
             TO 's3://exports/x/' WITH (format = 'PARQUET')"
        );
        let unnamed = McpEvent::select().expr(count_all());
        assert!(Unload::new(&unnamed, "s3://exports/x/")
            .build_for(d)
            .is_ok());
    }
}

#[test]
fn unload_rules() {
    let q = events();
    let e = Unload::new(&q, "s3://exports/x/")
        .build_for(Dialect::Spark)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.message(), "Spark has no UNLOAD statement");
    assert!(
        e.hint().unwrap().contains("INSERT OVERWRITE DIRECTORY"),
        "{e}"
    );
    let e = Unload::new(&q, "s3://exports/x/")
        .format(UnloadFormat::Avro)
        .compression(Compression::Snappy)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    let e = Unload::new(&q, "s3://exports/x/")
        .partitioned_by(["event_id"])
        .build()
        .unwrap_err();
    assert!(e.message().contains("must be the last columns"), "{e}");
    let e = Unload::new(&q, "/tmp/out").build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    assert_eq!(
        e.message(),
        "UNLOAD destination `/tmp/out` is not an s3:// URI"
    );
    let e = IcebergCtas::new(TableName::new("analytics", "copy"), &q)
        .location("s3://exports/it's/")
        .build()
        .unwrap_err();
    // The location as the user wrote it: no escape they never typed.
    assert_eq!(
        e.message(),
        "location of an Iceberg CTAS `s3://exports/it's/` contains `'`, which cannot be \
         written safely in a DDL string literal"
    );
    // A control character is shown escaped.
    let e = IcebergCtas::new(TableName::new("analytics", "copy"), &q)
        .location("s3://exports/a\tb/")
        .build()
        .unwrap_err();
    assert!(
        e.message()
            .starts_with("location of an Iceberg CTAS `s3://exports/a\\tb/` contains"),
        "{e}"
    );
    // UNLOAD refuses a bucket root for its own reason: no VACUUM is involved.
    let e = Unload::new(&q, "s3://exports/").build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    assert_eq!(
        e.message(),
        "UNLOAD destination `s3://exports/` is a bucket root; UNLOAD writes into a folder that \
         holds no data, and a bucket root holds the whole bucket"
    );
}

#[test]
fn recipe_rules() {
    let day = date(2026, 10, 1);
    // A query that misses summary columns.
    let q = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .value_as(day, "dt")
        .group_by(McpEvent::TOOL_NAME);
    let e = DailyRefresh::new(DailySummary::DT, day, &q)
        .build()
        .unwrap_err();
    assert!(
        e.message().contains("does not produce column `status`"),
        "{e}"
    );
    // A column produced twice would fail the INSERT after the DELETE had run (the day's
    // rows gone): refused before either is written.
    let e = DailyRefresh::new(
        DailySummary::DT,
        day,
        &daily_summary(day).expr_as(count_all(), "call_count"),
    )
    .build()
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable);
    assert_eq!(
        e.message(),
        "the refresh query produces `call_count` twice; the INSERT names each column once"
    );
    // Missing days need a day partition.
    let e = MissingDays::new(McpEvent::table_def(), "tool_name", day, day)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    let e = MissingDays::new(DailySummary::table_def(), "dt", day, date(2026, 9, 1))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    // Trino's sequence() makes at most 10,000 entries: a longer range fails on Athena,
    // so it is refused with the way out; Spark has no such limit.
    let long =
        |to: NaiveDate| MissingDays::new(DailySummary::table_def(), "dt", date(2000, 1, 1), to);
    let last = date(2000, 1, 1) + chrono::Days::new(9_999);
    assert!(long(last).build().is_ok());
    let e = long(last + chrono::Days::new(1)).build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert_eq!(
        e.message(),
        "the range 2000-01-01..=2027-05-19 has 10001 days; Athena's sequence() makes at most 10000"
    );
    assert_eq!(
        e.hint(),
        Some("split the range into parts of at most 10000 days")
    );
    assert!(long(last + chrono::Days::new(1))
        .build_for(Dialect::Spark)
        .is_ok());
}

/// S3 keys are at most 1024 bytes of UTF-8 (Amazon S3 User Guide, "Naming Amazon S3
/// objects"). Beneath an Iceberg table's location the first metadata file adds
/// `metadata/00000-<uuid>.metadata.json` (65 bytes), so the location's key (with its `/`)
/// holds at most 959 bytes; beneath an UNLOAD or Hive CTAS folder a file name needs one
/// byte at least, so at most 1023.
#[test]
fn locations_whose_keys_leave_no_room_for_the_files_beneath_are_refused() {
    // `s3://bucket/` then a key of `bytes` bytes, ending in `/` (`é` is two bytes).
    let uri = |bytes: usize, wide: bool| {
        let body = if wide {
            format!(
                "{}{}",
                "é".repeat((bytes - 1) / 2),
                "a".repeat((bytes - 1) % 2)
            )
        } else {
            "k".repeat(bytes - 1)
        };
        format!("s3://bucket/{body}/")
    };
    let table = |location: &str| {
        TableDef::builder("analytics", "t")
            .column(Column::new("id", IcebergType::Long))
            .location(location)
            .build()
    };
    assert!(table(&uri(959, false)).is_ok());
    let e = table(&uri(960, false)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    assert_eq!(
        e.message(),
        format!(
            "table location `{}` has a key (the part after the bucket) of 960 bytes; S3 keys are \
             at most 1024 bytes, which leaves no room beneath it for Iceberg's metadata files \
             (`metadata/00000-<uuid>.metadata.json`) (at most 959 bytes do)",
            uri(960, false)
        )
    );
    assert_eq!(
        e.hint(),
        Some("use a folder whose path after the bucket is at most 959 bytes")
    );
    // Counted in bytes of UTF-8, not characters; a missing final `/` counts as written.
    assert!(table(&uri(960, true)).is_err());
    assert!(table(&uri(959, true)).is_ok());
    assert!(table(uri(959, false).trim_end_matches('/')).is_ok());

    let q = events();
    let iceberg_ctas = |location: String| {
        IcebergCtas::new(TableName::new("analytics", "x"), &q)
            .location(location)
            .build()
    };
    assert!(iceberg_ctas(uri(959, false)).is_ok());
    let e = iceberg_ctas(uri(960, false)).unwrap_err();
    assert!(
        e.message()
            .starts_with("location of an Iceberg CTAS `s3://bucket/kkk"),
        "{e}"
    );
    assert!(e.message().contains("of 960 bytes"), "{e}");

    let hive_ctas = |location: String| {
        HiveCtas::new(TableName::new("analytics", "x"), &q)
            .external_location(location)
            .build()
    };
    assert!(hive_ctas(uri(1023, false)).is_ok());
    let e = hive_ctas(uri(1024, false)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    assert!(
        e.message().ends_with(
            "of 1024 bytes; S3 keys are at most 1024 bytes, which leaves no room beneath it \
             for a file name (at most 1023 bytes do)"
        ),
        "{e}"
    );

    assert!(Unload::new(&q, uri(1023, false)).build().is_ok());
    let e = Unload::new(&q, uri(1024, false)).build().unwrap_err();
    assert!(
        e.message()
            .starts_with("UNLOAD destination `s3://bucket/kkk"),
        "{e}"
    );
    assert!(e.message().contains("of 1024 bytes"), "{e}");
}

/// A query prints as the `Select` its user holds, alone and inside a CTAS or UNLOAD
/// (which keep only the query's description, not its scope type).
#[test]
fn queries_print_as_select() {
    let q = events();
    assert!(
        format!("{q:?}").starts_with("Select { relation: Table("),
        "{q:?}"
    );
    let ctas = IcebergCtas::new(TableName::new("analytics", "copy"), &q);
    assert!(
        format!("{ctas:?}").contains("query: Select { relation: "),
        "{ctas:?}"
    );
    let unload = Unload::new(&q, "s3://bucket/out/");
    assert!(
        format!("{unload:?}").contains("query: Select { relation: "),
        "{unload:?}"
    );
}

#[derive(Debug)]
struct Seen;
impl Seen {
    const ID: Col<Seen, i64> = Col::new("id");
    const SEEN_AT: Col<Seen, chrono::DateTime<chrono::Utc>> = Col::new("seen_at");
}
impl IcebergTable for Seen {
    fn table_def() -> &'static TableDef {
        static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
        T.get_or_init(|| {
            TableDef::builder("analytics", "seen")
                .column(Column::new("id", IcebergType::Long))
                .column(Column::new("seen_at", IcebergType::TimestampTz))
                .build()
                .expect("a valid table")
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

/// A `timestamp with time zone` column copied by CTAS: Trino's Iceberg connector stores
/// it as it is (`TypeConverter.toIcebergType` maps `timestamp(6) with time zone` to
/// Iceberg's `timestamptz`), so the Trino text has no CAST; Athena cannot create such a
/// column and writes the wall clock of the stored (UTC) value.
#[test]
fn iceberg_ctas_keeps_timestamptz_on_trino() {
    let q = Seen::select().column(Seen::ID).column(Seen::SEEN_AT);
    let ctas = |d| {
        IcebergCtas::new(TableName::new("analytics", "seen_copy"), &q)
            .location("s3://my-datalake/iceberg/seen_copy/")
            .build_for(d)
            .map(|s| s.sql().to_string())
    };
    let trino = ctas(Dialect::Trino).unwrap();
    assert_eq!(
        trino,
        "CREATE TABLE analytics.seen_copy\nWITH (\n  location = 's3://my-datalake/iceberg/seen_copy/'\n) AS\nSELECT id, seen_at FROM analytics.seen"
    );
    let athena = ctas(Dialect::Athena).unwrap();
    assert!(
        athena.ends_with("SELECT id, CAST(seen_at AS timestamp(6)) AS seen_at FROM analytics.seen"),
        "{athena}"
    );
}

/// Partitioning strings are read with the Iceberg connector's own name pattern
/// (`plugin/trino-iceberg/.../PartitionFields.java`), where `date` and `trim` are plain
/// names, though the SQL grammar reserves `trim` and Athena's DDL `date`.
#[test]
fn iceberg_ctas_partitions_on_reserved_words() {
    let q = Seen::select()
        .expr_as(Seen::SEEN_AT.cast::<chrono::NaiveDate>(), "date")
        .expr_as(Seen::ID, "trim");
    for d in [Dialect::Athena, Dialect::Trino] {
        let sql = IcebergCtas::new(TableName::new("analytics", "by_day"), &q)
            .location("s3://my-datalake/iceberg/by_day/")
            .partition(PartitionField::identity("date"))
            .partition(PartitionField::new("trim", PartitionTransform::Bucket(4)))
            .build_for(d)
            .unwrap();
        assert!(
            sql.sql()
                .contains("partitioning = ARRAY['date', 'bucket(trim, 4)']"),
            "{d:?}: {}",
            sql.sql()
        );
    }
}

// ---- ADD PARTITION: each rule of
// https://docs.aws.amazon.com/athena/latest/ug/alter-table-add-partition.html ----

fn hive_table() -> TableName {
    TableName::new("analytics", "mcp_daily_hive")
}

/// The synopsis: `ADD [IF NOT EXISTS] PARTITION (k = v, …) [LOCATION '…'] [PARTITION …]`,
/// always with IF NOT EXISTS ("Causes the error to be suppressed if a partition with the
/// same definition already exists"), so a re-run changes nothing; values quoted only for
/// text ("Enclose partition_col_value in string characters only if the data type of the
/// column is a string"), dates as Glue's text; LOCATION optional for Hive-style folders.
#[test]
fn add_partition_synopsis_and_value_quoting() {
    let day = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let s = AddHivePartitions::new(hive_table())
        .partition_at(
            [
                ("dt", Value::Date(day)),
                ("tool", Value::String("query data".into())),
                ("shard", Value::Int(7)),
                ("hour", Value::Long(23)),
            ],
            "s3://my-datalake/hive/mcp_daily/dt=2026-10-01/tool=query data/",
        )
        .partition([
            ("dt", Value::Date(day.succ_opt().unwrap())),
            ("tool", Value::String("date".into())),
            ("shard", Value::Int(0)),
            ("hour", Value::Long(0)),
        ])
        .build()
        .unwrap();
    assert_eq!(s.kind(), StatementKind::AlterTable);
    assert_eq!(
        s.sql(),
        "ALTER TABLE analytics.mcp_daily_hive ADD IF NOT EXISTS\n  \
         PARTITION (dt = '2026-10-01', tool = 'query data', shard = 7, hour = 23) \
         LOCATION 's3://my-datalake/hive/mcp_daily/dt=2026-10-01/tool=query data/'\n  \
         PARTITION (dt = '2026-10-02', tool = 'date', shard = 0, hour = 0)"
    );
    // A partition column named by a word Hive reserves is quoted.
    let s = AddHivePartitions::new(hive_table())
        .partition([("date", Value::Date(day))])
        .build()
        .unwrap();
    assert_eq!(
        s.sql(),
        "ALTER TABLE analytics.mcp_daily_hive ADD IF NOT EXISTS\n  PARTITION (`date` = '2026-10-01')"
    );
}

/// Only text, dates and whole numbers have a written form the page gives; the rest is
/// refused with the way out.
#[test]
fn add_partition_refuses_values_without_a_documented_form() {
    let ts = NaiveDate::from_ymd_opt(2026, 10, 1)
        .unwrap()
        .and_hms_opt(12, 0, 0)
        .unwrap();
    for v in [
        Value::Int(-1),
        Value::Long(i64::MIN),
        Value::Timestamp(ts),
        Value::Double(1.5),
        Value::Boolean(true),
        Value::Null,
    ] {
        let e = AddHivePartitions::new(hive_table())
            .partition([("dt", v.clone())])
            .build()
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue, "{v:?}: {e}");
        assert!(e.to_string().contains("partition column `dt`"), "{e}");
    }
}

/// The LOCATION is "the Amazon S3 path where the data files for that partition reside":
/// an `s3://` folder; a Hive-style folder of the partition's own columns must carry its
/// values.
#[test]
fn add_partition_locations() {
    let day = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let add = |loc: &str| {
        AddHivePartitions::new(hive_table())
            .partition_at([("dt", Value::Date(day))], loc)
            .build()
    };
    assert!(add("s3://lake/daily/dt=2026-10-01/").is_ok());
    assert!(add("s3://lake/daily/2026/10/01/").is_ok());
    let e = add("s3://lake/daily/dt=2026-10-02/").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    assert!(e.to_string().contains("`dt=2026-10-02`"), "{e}");
    assert!(e.to_string().contains("dt=2026-10-01/"), "{e}");
    for bad in ["s3a://lake/daily/", "/local/daily/", "lake/daily/"] {
        assert_eq!(
            add(bad).unwrap_err().kind(),
            ErrorKind::InvalidLocation,
            "{bad}"
        );
    }
    // Several levels: each must match.
    let e = AddHivePartitions::new(hive_table())
        .partition_at(
            [("year", Value::Int(2026)), ("month", Value::Int(10))],
            "s3://lake/daily/year=2026/month=11/",
        )
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("`month=11`"), "{e}");
}

/// One list of partition columns per table, each once; no partition twice; at least one.
#[test]
fn add_partition_shape() {
    let d = |n| Value::Date(NaiveDate::from_ymd_opt(2026, 10, n).unwrap());
    let e = AddHivePartitions::new(hive_table())
        .partition([("dt", d(1))])
        .partition([("day", d(2))])
        .build()
        .unwrap_err();
    assert!(
        e.to_string().contains("one list of partition columns"),
        "{e}"
    );
    let e = AddHivePartitions::new(hive_table())
        .partition([("dt", d(1))])
        .partition([("dt", d(1))])
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("repeats the values"), "{e}");
    let e = AddHivePartitions::new(hive_table())
        .partition([("dt", d(1)), ("DT", d(2))])
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("named twice"), "{e}");
    let e = AddHivePartitions::new(hive_table()).build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    let e = AddHivePartitions::new(hive_table())
        .partition(Vec::<(&str, Value)>::new())
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("at least one column"), "{e}");
}

/// Athena DDL strings go through its Hive lexer: a value with a quote, a backslash or a
/// control character is refused (by the validator, at the value).
#[test]
fn add_partition_text_values_go_through_the_hive_ddl_string_rules() {
    for v in ["it's", "a\\b", "tab\there"] {
        let e = AddHivePartitions::new(hive_table())
            .partition([("tool", Value::String(v.into()))])
            .build()
            .unwrap_err();
        assert!(
            e.to_string().contains("a partition value contains"),
            "{v}: {e}"
        );
    }
}

/// Hive tables are Athena's: every other target refuses, pointing at Iceberg's own
/// partitions.
#[test]
fn add_partition_is_athena_only() {
    let day = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    for d in [Dialect::Spark, Dialect::Trino, Dialect::AthenaS3Tables] {
        let e = AddHivePartitions::new(hive_table())
            .partition([("dt", Value::Date(day))])
            .build_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported, "{d:?}");
        assert!(e.to_string().contains("has no Hive tables"), "{d:?}: {e}");
    }
}
