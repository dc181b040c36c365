//! [`IcebergTable`]: a record struct that *is* a table.

use crate::model::TableDef;
use crate::value::Value;

/// A record struct that is an Iceberg table. Implemented by `#[derive(IcebergTable)]`
/// (see the `iceberg-sql-derive` crate for its attributes).
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::record::Columns;
///
/// #[derive(IcebergTable, Debug, PartialEq)]
/// #[iceberg(database = "analytics", location = "s3://lake/events/",
///           partition(day(ts)), properties(format = "parquet"))]
/// struct Event {
///     id: String,
///     ts: chrono::NaiveDateTime,
///     latency_ms: Option<i64>,
/// }
///
/// let def = Event::table_def();
/// assert_eq!(def.name().to_string(), "analytics.event");
/// let latency: Col<Event, Option<i64>> = Event::LATENCY_MS;
/// assert_eq!(latency.name(), "latency_ms");
///
/// // The derive also implements FromRow (by column name, with the declared types):
/// let columns = std::sync::Arc::new(Columns::of_table(def));
/// let cells = vec![Some("e1".to_string()), Some("2026-10-01 12:00:00.123".into()), None];
/// let event = Event::from_row(&Row::new(columns, cells))?;
/// assert_eq!(event.latency_ms, None);
/// assert_eq!(event.to_values()[2], Value::Null);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub trait IcebergTable: Sized {
    /// The table's definition (built once).
    fn table_def() -> &'static TableDef;

    /// This record's values, in column order.
    fn to_values(&self) -> Vec<Value>;
}
