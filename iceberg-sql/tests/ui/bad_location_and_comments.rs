use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://my-bucket", comment = "it's mine")]
pub struct Event {
    #[iceberg(comment = "C:\\temp")]
    pub id: i64,
}

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "/data/events/")]
pub struct Local {
    pub id: i64,
}

#[derive(IcebergTable)]
#[iceberg(location = "s3://lake/t/", partition(id))]
pub struct NoDatabase {
    pub id: i64,
}

fn main() {}
