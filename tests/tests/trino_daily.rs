//! The daily materialization driver's statements, Athena text run verbatim on Trino 476
//! with Iceberg, in the order `AthenaExecutor::materialize_days` runs them: the
//! missing-days query over `"db"."t$partitions"`, decoded, then for each missing day its
//! refresh (`DELETE` of the day, `INSERT INTO … SELECT`). The summary read back equals
//! the aggregate computed in Rust; a day without events stays missing; a second pass
//! fills nothing twice.

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use iceberg_sql::dsl::count_all;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{Order, Select};
use iceberg_sql::recipes::{DailyRefresh, MissingDays};
use iceberg_sql_tests::trino::{QueryResult, Trino};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "trino_daily",
    name = "mcp_events",
    location = "s3://trino-daily/iceberg/mcp_events/"
)]
pub struct McpEvent {
    pub event_id: String,
    pub tool_name: String,
    pub event_ts: NaiveDateTime,
}

#[derive(IcebergTable, Debug, Clone, PartialEq, PartialOrd)]
#[iceberg(
    database = "trino_daily",
    name = "mcp_daily_summary",
    location = "s3://trino-daily/iceberg/mcp_daily_summary/",
    partition(dt)
)]
pub struct Daily {
    pub dt: NaiveDate,
    pub tool_name: String,
    pub calls: i64,
}

fn d(n: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 10, n).unwrap()
}

fn per_tool(day: NaiveDate) -> Select<McpEvent> {
    let start = day.and_hms_opt(0, 0, 0).unwrap();
    McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .expr_as(count_all(), "calls")
        .value_as(day, "dt")
        .filter(
            McpEvent::EVENT_TS
                .ge(start)
                .and(McpEvent::EVENT_TS.lt(start + Duration::days(1))),
        )
        .group_by(McpEvent::TOOL_NAME)
}

/// Events on 1, 2 and 4 October (none on the 3rd), the last second of a
/// day included, so a day's bounds are tested.
fn events() -> Vec<McpEvent> {
    let tools = ["query_data", "list_tables", "describe"];
    let mut out = Vec::new();
    for (day, n) in [(1, 7), (2, 4), (4, 9)] {
        for i in 0..n {
            let ts = d(day).and_hms_opt(0, 0, 0).unwrap() + Duration::seconds(i * 10_799);
            out.push(McpEvent {
                event_id: format!("e-{day}-{i}"),
                tool_name: tools[i as usize % tools.len()].to_string(),
                event_ts: ts.min(d(day).and_hms_opt(23, 59, 59).unwrap()),
            });
        }
    }
    out
}

fn expected(events: &[McpEvent]) -> Vec<Daily> {
    let mut by: BTreeMap<(NaiveDate, String), i64> = BTreeMap::new();
    for e in events {
        *by.entry((e.event_ts.date(), e.tool_name.clone()))
            .or_default() += 1;
    }
    by.into_iter()
        .map(|((dt, tool_name), calls)| Daily {
            dt,
            tool_name,
            calls,
        })
        .collect()
}

fn decode<T: FromRow>(r: &QueryResult) -> Vec<T> {
    r.result_rows()
        .iter()
        .map(|row| T::from_row(row).unwrap_or_else(|e| panic!("row decodes: {e}\n{row:?}")))
        .collect()
}

fn missing(trino: &Trino) -> Vec<NaiveDate> {
    let q = MissingDays::new(Daily::table_def(), "dt", d(1), d(4))
        .build()
        .unwrap();
    assert!(q.sql().contains("\"mcp_daily_summary$partitions\""), "{q}");
    let r = trino.run(&q);
    assert_eq!(r.rows.len(), 1, "{r:?}");
    MissingDays::decode(&r.row(&r.rows[0])).expect("missing days decode")
}

/// One pass of the driver: the missing days, each refreshed; returns the days filled.
fn materialize(trino: &Trino) -> Vec<NaiveDate> {
    let days = missing(trino);
    for &day in &days {
        let q = per_tool(day);
        let steps = DailyRefresh::new(Daily::DT, day, &q).build().unwrap();
        assert_eq!(steps.len(), 2);
        for s in &steps {
            trino.run(s);
        }
    }
    days
}

fn summary(trino: &Trino) -> Vec<Daily> {
    let q = Daily::select()
        .order_by(Daily::DT, Order::Asc)
        .order_by(Daily::TOOL_NAME, Order::Asc)
        .build()
        .unwrap();
    decode(&trino.run(q))
}

#[test]
fn the_daily_materialization_statements_fill_each_missing_day_once_on_trino() {
    let Some(trino) = Trino::get_or_skip(
        "the_daily_materialization_statements_fill_each_missing_day_once_on_trino",
    ) else {
        return;
    };
    trino.ensure_bucket("trino-daily");
    trino.ensure_schema("trino_daily");
    for def in [McpEvent::table_def(), Daily::table_def()] {
        trino.run(format!("DROP TABLE IF EXISTS {}", def.name()));
        trino.run(def.create_table().build_for(Dialect::Trino).unwrap());
    }
    let mut events = events();
    trino.run(McpEvent::insert(&events).build().unwrap());

    // An empty summary lacks every day; the pass fills the three with events.
    assert_eq!(materialize(trino), (1..=4).map(d).collect::<Vec<_>>());
    assert_eq!(summary(trino), expected(&events));
    // A day without events wrote no partition, so it is still missing; a second pass
    // refreshes only it and writes nothing for the filled days.
    assert_eq!(materialize(trino), [d(3)]);
    assert_eq!(summary(trino), expected(&events));

    // Late events for the 3rd: the next pass fills it; the others keep their rows.
    let late = vec![McpEvent {
        event_id: "e-3-late".into(),
        tool_name: "describe".into(),
        event_ts: d(3).and_hms_opt(12, 0, 0).unwrap(),
    }];
    trino.run(McpEvent::insert(&late).build().unwrap());
    events.extend(late);
    assert_eq!(materialize(trino), [d(3)]);
    assert_eq!(missing(trino), Vec::<NaiveDate>::new());
    assert_eq!(summary(trino), expected(&events));
}
