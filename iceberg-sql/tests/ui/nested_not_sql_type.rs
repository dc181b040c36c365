use iceberg_sql::IcebergTable;

pub struct Point {
    pub x: f64,
}

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/shapes/")]
pub struct Shape {
    pub center: Point,
}

fn main() {}
