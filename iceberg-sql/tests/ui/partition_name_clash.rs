use iceberg_sql::IcebergTable;

// Iceberg names `day(ts)` `ts_day`, the name of a column: refused when the table is
// created, so refused here.
#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/events/",
    partition(day(ts), truncate(4, id), truncate(8, id))
)]
pub struct Event {
    pub id: String,
    pub ts: chrono::NaiveDateTime,
    pub ts_day: chrono::NaiveDate,
}

fn main() {}
