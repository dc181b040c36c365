use iceberg_sql::FromRow;

pub struct Point {
    pub x: f64,
}

#[derive(FromRow)]
pub struct Projection {
    pub id: String,
    pub center: Point,
    pub count: u64,
}

fn main() {}
