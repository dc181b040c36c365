use iceberg_sql::{Col, IcebergTable};

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/events/")]
pub struct Event {
    pub latency_ms: i64,
    pub status: String,
}

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/users/")]
pub struct User {
    pub status: String,
}

fn main() {
    // A column holds one Rust type...
    let _latency: Col<Event, String> = Event::LATENCY_MS;
    // ...and belongs to one table.
    let _status: Col<Event, String> = User::STATUS;
}
