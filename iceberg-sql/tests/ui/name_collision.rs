#![allow(non_snake_case)]
use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/events/", rename_all = "lowercase")]
pub struct Event {
    pub userid: String,
    pub userId: String,
    pub status: String,
    #[iceberg(rename = "status")]
    pub state: String,
}

fn main() {}
