use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/events/",
    partition(day(user_id), hour(day), bucket(8, ok), truncate(4, ts), tags)
)]
pub struct Event {
    pub user_id: String,
    pub day: chrono::NaiveDate,
    pub ts: chrono::NaiveDateTime,
    pub ok: bool,
    pub tags: Vec<String>,
}

fn main() {}
