#![allow(non_snake_case)]
use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(database = "Analytics", location = "s3://lake/events/")]
pub struct EventLog {
    pub userId: String,
    #[iceberg(rename = "event-ts")]
    pub event_ts: chrono::NaiveDateTime,
    #[iceberg(rename = "a_very_long_column_name_that_goes_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_x")]
    pub long: i64,
}

#[derive(IcebergTable)]
#[iceberg(database = "analytics", name = "Events", location = "s3://lake/events/")]
pub struct Renamed {
    pub id: i64,
}

fn main() {}
