//! Staged-load plans: the exact statements for Athena and Spark, append and merge,
//! every type that is staged as something else (timestamps, dates, nested values).

use iceberg_sql::load::{LoadMode, StagedLoad};
use iceberg_sql::prelude::*;
use iceberg_sql::IcebergType as T;

fn events() -> TableDef {
    TableDef::builder("analytics", "mcp_events")
        .column(Column::new("event_id", T::String).required())
        .column(Column::new("event_ts", T::Timestamp).required())
        .column(Column::new("seen_at", T::TimestampTz))
        .column(Column::new("day", T::Date))
        .column(Column::new("amount", T::decimal(38, 9)))
        .column(Column::new("payload", T::Binary))
        .column(Column::new("tags", T::list(T::String)))
        .column(Column::new("retries", T::list(T::Timestamp)))
        .column(Column::new("attrs", T::map(T::String, T::Date)))
        .column(Column::new("by_time", T::map(T::Timestamp, T::Long)))
        .column(Column::new(
            "origin",
            T::structure([
                ("at", T::TimestampTz),
                ("from", T::String),
                (
                    "hops",
                    T::list(T::structure([("ts", T::Timestamp), ("n", T::Int)])),
                ),
            ]),
        ))
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .location("s3://lake/iceberg/mcp_events/")
        .build()
        .unwrap()
}

fn root() -> Location {
    Location::parse("s3://lake/staging/").unwrap()
}

fn plan_text(load: &StagedLoad<'_>, dialect: Dialect) -> String {
    let plan = load.build_for(dialect).unwrap();
    format!(
        "-- staged columns: {}\n-- location: {}\n{plan}",
        plan.staged_columns()
            .iter()
            .map(|c| format!("{} {}", c.name, c.ty.iceberg_name()))
            .collect::<Vec<_>>()
            .join(", "),
        plan.location()
    )
}

#[test]
fn append_plans() {
    let t = events();
    let load = StagedLoad::new(&t, "events 2024-05-01 #7", root());
    insta::assert_snapshot!("append_athena", plan_text(&load, Dialect::Athena));
    insta::assert_snapshot!("append_spark", plan_text(&load, Dialect::Spark));
}

#[test]
fn merge_plans() {
    let t = events();
    let load = StagedLoad::new(&t, "events-2024-05-01", root())
        .merge_on("event_id")
        .dedup_by("event_ts");
    insta::assert_snapshot!("merge_athena", plan_text(&load, Dialect::Athena));
    insta::assert_snapshot!("merge_spark", plan_text(&load, Dialect::Spark));
    let null_safe = StagedLoad::new(&t, "x", root())
        .merge_on("event_id")
        .merge_on("day")
        .null_safe_keys()
        .build()
        .unwrap();
    assert_eq!(
        null_safe.mode(),
        &LoadMode::Merge(iceberg_sql::load::MergeOn {
            keys: vec!["event_id".into(), "day".into()],
            order_by: None,
            null_safe: true,
        })
    );
    assert!(null_safe.write().sql().contains(
        "ON target.event_id IS NOT DISTINCT FROM source.event_id AND target.day IS NOT DISTINCT FROM source.day"
    ), "{}", null_safe.write());
}

#[test]
fn merge_without_other_columns_only_inserts() {
    let t = TableDef::builder("analytics", "keys")
        .column(Column::new("id", T::Long).required())
        .location("s3://lake/iceberg/keys/")
        .build()
        .unwrap();
    let plan = StagedLoad::new(&t, "k", root())
        .merge_on("id")
        .build()
        .unwrap();
    assert!(
        !plan.write().sql().contains("WHEN MATCHED"),
        "{}",
        plan.write()
    );
    assert!(plan.has_row_column());
}

#[test]
fn refusals() {
    let t = events();
    let err = |load: StagedLoad<'_>| load.build().unwrap_err().to_string();
    assert!(err(StagedLoad::new(&t, " ", root())).contains("the load id is empty"));
    assert!(err(StagedLoad::new(&t, "x", root()).merge_on("nope"))
        .contains("`nope` is not a column of table `analytics.mcp_events`"));
    assert!(err(StagedLoad::new(&t, "x", root())
        .merge_on("event_id")
        .merge_on("event_id"))
    .contains("merge key column `event_id` is given twice"));
    assert!(err(StagedLoad::new(&t, "x", root())
        .merge_on("event_id")
        .dedup_by("zz"))
    .contains("`zz` is not a column"));
    // The merge's window orders by the column, and Trino orders no map.
    assert_eq!(
        err(StagedLoad::new(&t, "x", root())
            .merge_on("event_id")
            .dedup_by("attrs")),
        "the staged merge's de-duplication (dedup_by) orders by `attrs`, of type map(varchar, date): \
         Type map(varchar, date) is not orderable, and therefore cannot be used in ORDER BY\n  \
         help: order by a column of a number, text, date, timestamp or boolean type instead of `attrs`"
    );
    // Trino orders an array or row but fails the query on a NULL element or field.
    for by in ["tags", "origin"] {
        assert!(
            err(StagedLoad::new(&t, "x", root())
                .merge_on("event_id")
                .dedup_by(by))
            .contains("Trino fails the query when two"),
            "{by}"
        );
    }
    assert!(StagedLoad::new(&t, "x", root())
        .merge_on("event_id")
        .dedup_by("day")
        .build()
        .is_ok());
    assert!(
        err(StagedLoad::new(&t, "x", root()).staging_database("Bad-Db")).contains("database name")
    );
    let clash = TableDef::builder("analytics", "c")
        .column(Column::new("iceberg_sql_stage_row", T::Long))
        .location("s3://lake/iceberg/c/")
        .build()
        .unwrap();
    assert!(err(StagedLoad::new(&clash, "x", root()))
        .contains("has a column `iceberg_sql_stage_row`, which a staged load uses for itself"));
    // Another database for the staging table.
    let plan = StagedLoad::new(&t, "x", root())
        .staging_database("scratch")
        .build()
        .unwrap();
    assert_eq!(plan.staging_table().database, "scratch");
    assert!(
        plan.write()
            .sql()
            .contains("FROM scratch.iceberg_sql_stage_x_"),
        "{}",
        plan.write()
    );
}
