use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/events/", partitions(id), db = "x")]
pub struct Event {
    #[iceberg(renam = "event_id")]
    pub id: i64,
    #[iceberg(nullable, comment = "ok")]
    pub payload: Option<String>,
    #[iceberg(skip, skip)]
    pub cache: String,
}

fn main() {}
