use iceberg_sql::{Decimal, IcebergTable};

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/orders/")]
pub struct Order {
    pub amount: Decimal,
    pub history: Vec<Option<Decimal>>,
    #[iceberg(type = "decimal(39, 2)")]
    pub too_wide: Decimal,
    #[iceberg(type = "string")]
    pub count: i64,
    #[iceberg(type = "timestamptz")]
    pub at: chrono::NaiveDateTime,
    #[iceberg(type = "decimal(10 2)")]
    pub typo: Decimal,
}

fn main() {}
