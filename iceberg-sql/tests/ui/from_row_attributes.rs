use iceberg_sql::FromRow;

#[derive(FromRow)]
#[iceberg(database = "analytics", rename_all = "camelCase", flavour = "x")]
pub struct Counts {
    #[iceberg(type = "decimal(10, 2)")]
    pub total: iceberg_sql::Decimal,
    #[iceberg(rename = "n")]
    pub calls: i64,
    #[iceberg(rename = "N")]
    pub again: i64,
    #[iceberg(colour = "red")]
    pub tool_name: String,
}

#[derive(FromRow)]
pub struct Pair(#[iceberg(rename = "a")] String, #[iceberg(skip)] i64);

#[derive(FromRow)]
pub struct AllSkipped {
    #[iceberg(skip)]
    pub note: String,
}

fn main() {}
