use iceberg_sql::IcebergTable;

/// Types the macro cannot read from the syntax: checked through `SqlType::KIND`.
type Name = String;
type When = chrono::NaiveDateTime;

#[derive(IcebergTable)]
pub struct Point {
    pub lat: f64,
}

#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/places/",
    partition(day(name), loc, bucket(4, at), hour(at))
)]
pub struct Place {
    pub name: Name,
    pub loc: Point,
    pub at: When,
}

fn main() {}
