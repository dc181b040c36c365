//! ALTER TABLE: every form in both dialects, and a negative test per rule.

#[path = "query_common/mod.rs"]
mod common;

use common::*;
use iceberg_sql::alter::{is_legal_promotion, AlterTable};
use iceberg_sql::prelude::*;
use iceberg_sql::IcebergType as T;

fn t() -> &'static TableDef {
    McpEvent::table_def()
}

fn numeric_table() -> TableDef {
    TableDef::builder("analytics", "metrics")
        .column(Column::new("i", T::Int))
        .column(Column::new("l", T::Long))
        .column(Column::new("f", T::Float))
        .column(Column::new("d", T::Double))
        .column(Column::new("amount", T::decimal(10, 2)))
        .column(Column::new("s", T::String))
        .column(Column::new("dt", T::Date))
        .column(Column::new("ts", T::Timestamp))
        .location("s3://my-datalake/iceberg/metrics/")
        .build()
        .unwrap()
}

#[test]
fn add_columns() {
    insta::assert_snapshot!(
        "add_columns",
        both(|d| t()
            .alter()
            .add_columns([
                Column::new("error_code", T::String).comment("upstream code"),
                Column::new("date", T::Date),
                Column::new("point", T::structure([("x", T::Double), ("y", T::Double)])),
                Column::new("tags", T::list(T::String)),
            ])
            .build_for(d))
    );
}

/// A required column cannot be added where the target declares NOT NULL (Iceberg refuses
/// a required column on a table with rows); it was written nullable, unlike the
/// definition. On Athena, whose DDL declares no nullability, it is added nullable.
#[test]
fn a_required_column_is_added_only_where_nullability_is_not_declared() {
    let add = |d: Dialect| {
        t().alter()
            .add_columns([
                Column::new("region", T::String),
                Column::new("tenant", T::String).required(),
            ])
            .build_for(d)
    };
    for d in [Dialect::Spark, Dialect::Trino] {
        let e = add(d).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        assert_eq!(
            e.message(),
            format!(
                "new column `tenant` is required; Iceberg cannot add a required column to a table with data, and {} would declare it NOT NULL",
                d.name()
            )
        );
        assert_eq!(
            e.hint(),
            Some("add it as nullable (Option<T> in the record), backfill with UPDATE, or rebuild by CTAS")
        );
    }
    assert_eq!(
        add(Dialect::Athena).unwrap().sql(),
        "ALTER TABLE analytics.mcp_events ADD COLUMNS (region string, tenant string)"
    );
}

#[test]
fn drop_column() {
    insta::assert_snapshot!(
        "drop_column",
        both(|d| t().alter().drop_column("latency_ms").build_for(d))
    );
}

#[test]
fn rename_column() {
    insta::assert_snapshot!(
        "rename_column",
        both(|d| t()
            .alter()
            .rename_column("payload", "tool_payload")
            .build_for(d))
    );
}

#[test]
fn every_legal_widening() {
    let m = numeric_table();
    let mut out = String::new();
    for (c, to) in [
        ("i", T::Long),
        ("f", T::Double),
        ("amount", T::decimal(12, 2)),
        ("amount", T::decimal(38, 2)),
    ] {
        out.push_str(&both(|d| {
            m.alter().widen_column(c, to.clone()).build_for(d)
        }));
        out.push_str("\n\n");
    }
    insta::assert_snapshot!("widen_columns", out);
}

#[test]
fn set_and_unset_properties() {
    let props = TableProperties::new()
        .with(TableProperty::WriteCompression(Compression::Zstd))
        .with(TableProperty::OptimizeRewriteDataFileThreshold(10))
        .with(TableProperty::VacuumMinSnapshotsToKeep(5))
        .with(TableProperty::VacuumMaxSnapshotAgeSeconds(604_800))
        .with(TableProperty::VacuumMaxMetadataFilesToKeep(50));
    insta::assert_snapshot!(
        "set_properties",
        both(|d| t().alter().set_properties(props.clone()).build_for(d))
    );
    insta::assert_snapshot!(
        "unset_properties",
        both(|d| t()
            .alter()
            .unset_properties(["vacuum_min_snapshots_to_keep", "write_compression"])
            .build_for(d))
    );
}

#[test]
fn partition_evolution_is_refused_with_the_ctas_rebuild() {
    let f = PartitionField::new("user_id", PartitionTransform::Bucket(16));
    let day = PartitionField::new("event_ts", PartitionTransform::Day);
    let hour = PartitionField::new("event_ts", PartitionTransform::Hour);
    for d in [Dialect::Athena, Dialect::AthenaS3Tables] {
        for e in [
            t().alter()
                .add_partition_field(f.clone())
                .build_for(d)
                .unwrap_err(),
            t().alter()
                .drop_partition_field(day.clone())
                .build_for(d)
                .unwrap_err(),
            t().alter()
                .replace_partition_field(day.clone(), hour.clone())
                .build_for(d)
                .unwrap_err(),
        ] {
            assert_eq!(e.kind(), ErrorKind::Unsupported);
            assert!(e.hint().unwrap().contains("CTAS"), "{e}");
            assert!(e.hint().unwrap().contains("RENAME TO mcp_events"), "{e}");
        }
    }
    let e = t()
        .alter()
        .add_partition_field(f.clone())
        .build()
        .unwrap_err();
    assert!(
        e.message().contains("Athena has no partition evolution"),
        "{e}"
    );
    // Spark has it through Iceberg's SQL extensions, one field at a time.
    let spark = |a: AlterTable<'_>| a.build_for(Dialect::Spark).unwrap().sql().to_string();
    assert_eq!(
        spark(t().alter().add_partition_field(f.clone())),
        "ALTER TABLE analytics.mcp_events ADD PARTITION FIELD bucket(16, user_id)"
    );
    assert_eq!(
        spark(t().alter().drop_partition_field(day.clone())),
        "ALTER TABLE analytics.mcp_events DROP PARTITION FIELD days(event_ts)"
    );
    assert_eq!(
        spark(t().alter().replace_partition_field(day.clone(), hour.clone())),
        "ALTER TABLE analytics.mcp_events REPLACE PARTITION FIELD days(event_ts) WITH hours(event_ts)"
    );
    // Trino has partition evolution: the whole new spec, in its partitioning strings.
    assert_eq!(
        t().alter()
            .replace_partition_field(day.clone(), hour)
            .build_for(Dialect::Trino)
            .unwrap()
            .sql(),
        "ALTER TABLE analytics.mcp_events SET PROPERTIES partitioning = ARRAY['hour(event_ts)']"
    );
    assert_eq!(
        t().alter()
            .add_partition_field(f)
            .build_for(Dialect::Trino)
            .unwrap()
            .sql(),
        "ALTER TABLE analytics.mcp_events SET PROPERTIES partitioning = ARRAY['day(event_ts)', 'bucket(user_id, 16)']"
    );
    assert_eq!(
        t().alter()
            .drop_partition_field(day)
            .build_for(Dialect::Trino)
            .unwrap()
            .sql(),
        "ALTER TABLE analytics.mcp_events SET PROPERTIES partitioning = ARRAY[]"
    );
    // The field is checked first: a transform on the wrong type, or a missing field.
    let e = t()
        .alter()
        .add_partition_field(PartitionField::new("status", PartitionTransform::Day))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    let e = t()
        .alter()
        .drop_partition_field(PartitionField::identity("status"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
}

#[test]
fn reserved_names_are_quoted_per_grammar() {
    let m = numeric_table();
    let s = both(|d| m.alter().rename_column("dt", "date").build_for(d));
    assert!(s.contains("CHANGE COLUMN dt `date` date"), "{s}");
    assert!(s.contains("RENAME COLUMN dt TO `date`"), "{s}");
}

// ---- promotion rules --------------------------------------------------------------

#[test]
fn promotion_table() {
    let legal = [
        (T::Int, T::Long),
        (T::Float, T::Double),
        (T::decimal(10, 2), T::decimal(11, 2)),
        (T::decimal(1, 0), T::decimal(38, 0)),
    ];
    for (a, b) in &legal {
        assert!(is_legal_promotion(a, b), "{a:?} -> {b:?}");
    }
    let illegal = [
        (T::Long, T::Int),
        (T::Double, T::Float),
        (T::Int, T::Double),
        (T::Int, T::String),
        (T::Long, T::String),
        (T::String, T::Long),
        (T::Float, T::Long),
        (T::decimal(10, 2), T::decimal(9, 2)),
        (T::decimal(10, 2), T::decimal(12, 3)),
        (T::decimal(10, 2), T::decimal(10, 2)),
        (T::Int, T::decimal(20, 0)),
        (T::Date, T::Timestamp),
        (T::Timestamp, T::TimestampTz),
        (T::Int, T::Int),
        (T::list(T::Int), T::list(T::Long)),
    ];
    for (a, b) in &illegal {
        assert!(!is_legal_promotion(a, b), "{a:?} -> {b:?}");
    }
}

// ---- negative tests -------------------------------------------------------------

#[test]
fn widening_the_wrong_way_is_refused() {
    let m = numeric_table();
    for (c, to, why) in [
        ("l", T::Int, "narrowing"),
        ("d", T::Float, "narrowing"),
        ("amount", T::decimal(12, 3), "scale can never change"),
        ("amount", T::decimal(8, 2), "precision can only grow"),
        ("i", T::String, "not one of Iceberg's promotions"),
        ("s", T::Long, "not one of Iceberg's promotions"),
        ("dt", T::Timestamp, "not one of Iceberg's promotions"),
    ] {
        let e = m.alter().widen_column(c, to).build().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidType, "{c}");
        assert!(e.message().contains(why), "{e}");
        assert!(e.message().contains("in place"), "{e}");
        assert!(e.hint().unwrap().contains("CTAS"), "{e}");
    }
}

#[test]
fn same_type_is_nothing_to_change() {
    let e = t()
        .alter()
        .widen_column("latency_ms", T::Long)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidType);
    assert!(e.message().contains("already has type long"), "{e}");
}

#[test]
fn column_existence_is_checked() {
    let e = t().alter().drop_column("nope").build().unwrap_err();
    assert_eq!(
        e.message(),
        "table `analytics.mcp_events` has no column `nope`"
    );
    let e = t()
        .alter()
        .rename_column("payload", "status")
        .build()
        .unwrap_err();
    assert!(e.message().contains("already has a column `status`"), "{e}");
    let e = t()
        .alter()
        .add_columns([Column::new("status", T::String)])
        .build()
        .unwrap_err();
    assert!(e.message().contains("already has a column `status`"), "{e}");
    let e = t()
        .alter()
        .rename_column("payload", "ToolPayload")
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
}

#[test]
fn dropping_a_partition_source_is_refused() {
    let e = t().alter().drop_column("event_ts").build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable);
    assert!(
        e.message()
            .contains("source of partition field `day(event_ts)`"),
        "{e}"
    );
}

#[test]
fn unknown_property_keys_are_refused() {
    let e = t()
        .alter()
        .unset_properties(["vacuum_max_snapshot_age_ms"])
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    assert!(
        e.hint()
            .unwrap()
            .contains("vacuum_max_snapshot_age_seconds"),
        "{e}"
    );
    let e = t()
        .alter()
        .set_property(TableProperty::OptimizeRewriteDataFileThreshold(50))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    let e = t()
        .alter()
        .set_property(TableProperty::WriteCompression(Compression::Lz4))
        .build()
        .unwrap_err();
    assert!(e.message().contains("not supported for parquet"), "{e}");
}

#[test]
fn ddl_comment_text_is_checked() {
    let e = t()
        .alter()
        .add_columns([Column::new("x", T::String).comment("it's")])
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    // Glue stores a column comment of at most 255 characters.
    let e = t()
        .alter()
        .add_columns([Column::new("x", T::String).comment("c".repeat(256))])
        .build()
        .unwrap_err();
    assert_eq!(
        e.message(),
        "comment of column `x` is 256 characters long; the Glue Data Catalog, where Athena keeps it, stores at most 255"
    );
}

#[test]
fn rename_table() {
    insta::assert_snapshot!(
        "rename_table",
        both(|d| t()
            .alter()
            .rename_table(TableName::new("archive", "mcp_events_2026"))
            .build_for(d))
    );
    let e = t()
        .alter()
        .rename_table(TableName::new("analytics", "mcp_events"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidTable);
    let e = t()
        .alter()
        .rename_table(TableName::new("analytics", "Events"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
}

/// Iceberg rebuilds the partition spec against each new schema and refuses a column
/// named like a partition field (`event_ts_day` of `day(event_ts)`): Spark 3.5 + Iceberg
/// 1.10 fails `ADD COLUMN` and `RENAME COLUMN` to such a name with "Cannot create
/// identity partition sourced from different field in schema".
#[test]
fn a_column_cannot_take_a_partition_fields_name() {
    for d in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        let e = t()
            .alter()
            .add_columns([Column::new("event_ts_day", T::Date)])
            .build_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidTable, "{d:?}");
        assert_eq!(
            e.message(),
            "column name `event_ts_day` is the name of partition field `day(event_ts)` of \
             `analytics.mcp_events`; Iceberg refuses a column named like a partition field"
        );
        assert_eq!(e.hint(), Some("choose another column name"));
        let e = t()
            .alter()
            .rename_column("status", "event_ts_day")
            .build_for(d)
            .unwrap_err();
        assert!(
            e.message()
                .starts_with("column name `event_ts_day` is the name of partition field"),
            "{e}"
        );
        assert!(t()
            .alter()
            .add_columns([Column::new("event_day", T::Date)])
            .build_for(d)
            .is_ok());
    }
}
