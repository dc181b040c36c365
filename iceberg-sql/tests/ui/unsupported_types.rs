use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/events/")]
pub struct Event {
    pub small: i16,
    pub count: u64,
    pub flags: Vec<u32>,
    pub initial: char,
    pub at: chrono::NaiveTime,
    pub by_zone: chrono::DateTime<chrono::FixedOffset>,
    pub name: &'static str,
    pub pair: (i64, i64),
}

fn main() {}
