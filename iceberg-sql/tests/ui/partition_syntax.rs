use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/events/",
    partition(bucket(user_id, 16), days(ts), bucket(0, user_id), truncate(4, user_id))
)]
pub struct Event {
    pub user_id: String,
    pub ts: chrono::NaiveDateTime,
}

fn main() {}
