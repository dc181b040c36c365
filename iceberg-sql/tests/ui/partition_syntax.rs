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

// Iceberg reads a bucket count or truncate width as a 32-bit integer.
#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/wide/",
    partition(truncate(2147483648, user_id))
)]
pub struct Wide {
    pub user_id: String,
}

fn main() {}
