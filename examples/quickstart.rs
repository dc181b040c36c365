//! Quickstart: define the seed's `mcp_events` table and print validated Athena and
//! Spark SQL for it.
//!
//! Run with `cargo run --example quickstart`.

use iceberg_sql::prelude::*;

fn main() -> Result<(), Error> {
    let table = TableDef::builder("analytics", "mcp_events")
        .column(Column::new("event_id", IcebergType::String).required().comment("ULID"))
        .column(Column::new("session_id", IcebergType::String).required())
        .column(Column::new("tool_name", IcebergType::String).required())
        .column(Column::new("user_id", IcebergType::String).required())
        .column(Column::new("event_ts", IcebergType::Timestamp).required())
        .column(Column::new("payload", IcebergType::String))
        .column(Column::new("status", IcebergType::String).required())
        .column(Column::new("latency_ms", IcebergType::Long).required())
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .partition(PartitionField::new("user_id", PartitionTransform::Bucket(16)))
        .location("s3://my-datalake/iceberg/mcp_events/")
        .property(TableProperty::Format(FileFormat::Parquet))
        .property(TableProperty::WriteCompression(Compression::Snappy))
        .property(TableProperty::OptimizeRewriteDeleteFileThreshold(10))
        .build()?;

    for dialect in [Dialect::Athena, Dialect::Spark] {
        println!("-- {dialect:?}");
        println!("{};\n", table.create_table().if_not_exists().dialect(dialect).build()?);
        println!("{};\n", table.drop_table().if_exists().dialect(dialect).build()?);
    }

    // Mistakes are errors that say what is wrong and how to fix it.
    let err = TableDef::builder("analytics", "bad")
        .column(Column::new("eventName", IcebergType::String))
        .column(Column::new("score", IcebergType::Double))
        .partition(PartitionField::new("score", PartitionTransform::Bucket(16)))
        .location("s3://my-datalake")
        .build()
        .unwrap_err();
    println!("-- a definition with three mistakes:\n{err}");
    Ok(())
}
