use iceberg_sql::prelude::*;

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/events/")]
pub struct Event {
    pub event_id: String,
    pub payload: Option<String>,
}

fn main() {
    // A nullable column takes the bare value (or set_null), not `Some(..)`.
    let _ = Event::update()
        .set(Event::PAYLOAD, Some("retried".to_string()))
        .filter(Event::EVENT_ID.eq("e1"))
        .build();
    // Nor does a comparison take `Some(..)`.
    let _ = Event::select().filter(Event::PAYLOAD.eq(Some("x"))).build();
}
