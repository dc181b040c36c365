use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/events/",
    partition(day(ts), bucket(16, id), hour(ts), bucket(16, id), bucket(8, id))
)]
pub struct Event {
    pub id: String,
    pub ts: chrono::NaiveDateTime,
}

fn main() {}
