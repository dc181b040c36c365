use iceberg_sql::FromRow;

#[derive(FromRow)]
pub enum Answer {
    Yes,
    No,
}

#[derive(FromRow)]
pub struct Nothing;

#[derive(FromRow)]
pub struct Generic<T> {
    pub value: T,
}

fn main() {}
