use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(database = "analytics")]
pub enum Status {
    Ok,
    Failed,
}

#[derive(IcebergTable)]
#[iceberg(database = "analytics")]
pub struct Pair(i64, String);

#[derive(IcebergTable)]
#[iceberg(database = "analytics")]
pub struct Wrapper<T> {
    pub value: T,
}

#[derive(IcebergTable)]
#[iceberg(database = "analytics", rename_all = "camelCase")]
pub struct AllSkipped {
    #[iceberg(skip)]
    pub cache: String,
}

fn main() {}
