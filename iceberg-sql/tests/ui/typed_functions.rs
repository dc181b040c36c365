use iceberg_sql::expr::TimeUnit;
use iceberg_sql::prelude::*;

#[derive(IcebergTable)]
#[iceberg(database = "analytics", location = "s3://lake/events/")]
pub struct Event {
    pub raw_ts: String,
    pub latency_ms: i64,
}

fn main() {
    // The date functions take a date or a timestamp...
    let _ = Event::RAW_TS.date_add(TimeUnit::Day, 1);
    // ...the JSON ones JSON text or a JSON value...
    let _ = Event::LATENCY_MS.json_extract_scalar("$.a");
    // ...and json_format a JSON value only.
    let _ = Event::RAW_TS.json_format();
}
