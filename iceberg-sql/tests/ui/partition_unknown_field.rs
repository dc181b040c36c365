use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/events/",
    partition(day(event_time), bucket(16, user), skipped)
)]
pub struct Event {
    pub event_ts: chrono::NaiveDateTime,
    pub user_id: String,
    #[iceberg(skip)]
    pub skipped: i64,
}

fn main() {}
