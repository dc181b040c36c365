//! End-to-end, a daily summary of `mcp_events` by CTAS, refreshed per day, and
//! the missing-days check), built on the crate:
//!
//! * the summary table is created by `IcebergCtas` (Spark form: `CREATE TABLE ... USING
//!   iceberg PARTITIONED BY (dt) ... AS SELECT`) from a typed aggregate `Select`
//!   (`count(*)`, `count(*) FILTER (WHERE ...)`, `avg`, `min`, `max`, `CAST(ts AS date)`);
//! * one day is refreshed with the crate's recipe [`DailyRefresh`] rendered for Spark:
//!   `DELETE` (that day) + `INSERT INTO ... SELECT` (that day's rows of the same
//!   aggregate query), run in the engine; run twice, the table is the same, and it
//!   equals the aggregate computed in Rust from the source rows;
//! * the recipe [`MissingDays`] (Spark: `array_except(sequence(...),
//!   collect_list(partition.dt))` over the `partitions` metadata table), decoded with
//!   `MissingDays::decode`, finds exactly the day with no data.
//!
//! The Athena CTAS (`CREATE TABLE ... WITH (...) AS`) is Athena-only: pinned as refused.

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use iceberg_sql::ctas::IcebergCtas;
use iceberg_sql::dsl::count_all;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{Order, Select};
use iceberg_sql::recipes::{DailyRefresh, MissingDays};
use iceberg_sql_tests::engine::{Engine, QueryResult};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts), bucket(16, user_id))
)]
pub struct McpEvent {
    pub event_id: String,
    pub session_id: String,
    pub tool_name: String,
    pub user_id: String,
    pub event_ts: NaiveDateTime,
    pub payload: Option<String>,
    pub status: String,
    pub latency_ms: i64,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    name = "mcp_daily_summary",
    location = "s3://my-datalake/materialized/mcp_daily_summary/",
    partition(dt)
)]
pub struct DailySummary {
    pub tool_name: String,
    pub status: String,
    pub call_count: i64,
    pub success_count: i64,
    pub avg_latency_ms: f64,
    pub min_latency_ms: i64,
    pub max_latency_ms: i64,
    pub dt: NaiveDate,
}

const TOOLS: [&str; 3] = ["query_data", "load_data", "get_snapshot"];
const STATUSES: [&str; 3] = ["success", "error", "timeout"];
const GAP_DAY: u32 = 4;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 9, d).unwrap()
}

/// Events on 2026-09-01 ..= 2026-09-07, none on the 4th.
fn events(range: std::ops::Range<usize>, only_day: Option<u32>) -> Vec<McpEvent> {
    range
        .map(|i| {
            let mut d = 1 + (i % 7) as u32;
            if d == GAP_DAY {
                d = 5;
            }
            let d = only_day.unwrap_or(d);
            McpEvent {
                event_id: format!("evt-{i:05}"),
                session_id: format!("sess-{}", i % 17),
                tool_name: TOOLS[i % 3].into(),
                user_id: format!("user-{}", i % 11),
                event_ts: day(d).and_hms_opt(0, 0, 0).unwrap()
                    + Duration::seconds((i * 7919 % 86_400) as i64),
                payload: None,
                status: STATUSES[(i / 3) % 3].into(),
                latency_ms: (i * 37 % 1000) as i64,
            }
        })
        .collect()
}

/// The summary, computed in Rust from the source rows, in table order.
fn expected(rows: &[McpEvent]) -> Vec<DailySummary> {
    let mut g: BTreeMap<(NaiveDate, String, String), Vec<i64>> = BTreeMap::new();
    for e in rows {
        g.entry((e.event_ts.date(), e.tool_name.clone(), e.status.clone()))
            .or_default()
            .push(e.latency_ms);
    }
    g.into_iter()
        .map(|((dt, tool_name, status), l)| DailySummary {
            success_count: if status == "success" {
                l.len() as i64
            } else {
                0
            },
            tool_name,
            status,
            call_count: l.len() as i64,
            avg_latency_ms: l.iter().sum::<i64>() as f64 / l.len() as f64,
            min_latency_ms: *l.iter().min().unwrap(),
            max_latency_ms: *l.iter().max().unwrap(),
            dt,
        })
        .collect()
}

/// The aggregate query, optionally for one day only.
fn summary_query(only: Option<NaiveDate>) -> Select<McpEvent> {
    let dt = McpEvent::EVENT_TS.cast::<NaiveDate>();
    let mut q = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::STATUS)
        .expr_as(count_all(), "call_count")
        .expr_as(
            count_all().filter(McpEvent::STATUS.eq("success")),
            "success_count",
        )
        .expr_as(McpEvent::LATENCY_MS.avg(), "avg_latency_ms")
        .expr_as(McpEvent::LATENCY_MS.min(), "min_latency_ms")
        .expr_as(McpEvent::LATENCY_MS.max(), "max_latency_ms")
        .expr_as(dt.clone(), "dt")
        .group_by(McpEvent::TOOL_NAME)
        .group_by(McpEvent::STATUS)
        .group_by(dt);
    if let Some(d) = only {
        let start = d.and_hms_opt(0, 0, 0).unwrap();
        q = q.filter(
            McpEvent::EVENT_TS
                .ge(start)
                .and(McpEvent::EVENT_TS.lt(start + Duration::days(1))),
        );
    }
    q
}

fn decode<T: FromRow>(r: &QueryResult) -> Vec<T> {
    r.rows
        .iter()
        .map(|c| T::from_row(&r.row(c)).expect("row decodes"))
        .collect()
}

fn read_summary(engine: &Engine) -> Vec<DailySummary> {
    let q = DailySummary::select()
        .order_by(DailySummary::DT, Order::Asc)
        .order_by(DailySummary::TOOL_NAME, Order::Asc)
        .order_by(DailySummary::STATUS, Order::Asc)
        .build_for(Dialect::Spark)
        .unwrap();
    decode(&engine.run(&q))
}

#[track_caller]
fn assert_summary(got: &[DailySummary], want: &[DailySummary]) {
    assert_eq!(got.len(), want.len(), "summary rows");
    for (g, w) in got.iter().zip(want) {
        let mut g2 = g.clone();
        assert!(
            (g.avg_latency_ms - w.avg_latency_ms).abs() < 1e-9,
            "{g:?} vs {w:?}"
        );
        g2.avg_latency_ms = w.avg_latency_ms;
        assert_eq!(&g2, w);
    }
}

/// The refresh recipe for one day, [`DailyRefresh`] for Spark: DELETE that day's
/// summary rows, then INSERT ... SELECT the aggregate of that day's events (the rows
/// never leave the engine).
fn refresh(engine: &Engine, d: NaiveDate) {
    let q = summary_query(Some(d));
    let steps = DailyRefresh::new(DailySummary::DT, d, &q)
        .build_for(Dialect::Spark)
        .unwrap();
    assert_eq!(steps.len(), 2);
    assert_eq!(
        steps[0].sql(),
        format!("DELETE FROM analytics.mcp_daily_summary\nWHERE dt = DATE '{d}'")
    );
    assert!(
        steps[1]
            .sql()
            .starts_with("INSERT INTO analytics.mcp_daily_summary (tool_name, status, call_count, success_count, avg_latency_ms, min_latency_ms, max_latency_ms, dt)\nSELECT "),
        "{}",
        steps[1].sql()
    );
    for s in &steps {
        assert_eq!(s.dialect(), Dialect::Spark);
        engine.run(s);
    }
}

/// The recipe [`MissingDays`] for Spark, run in the engine and decoded.
fn missing_days(engine: &Engine, from: NaiveDate, to: NaiveDate) -> Vec<NaiveDate> {
    let q = MissingDays::new(DailySummary::table_def(), "dt", from, to)
        .build_for(Dialect::Spark)
        .unwrap();
    assert!(q.sql().contains(".partitions"), "{}", q.sql());
    let r = engine.run(&q);
    assert_eq!(r.len(), 1, "one row: {:?}", r.rows);
    MissingDays::decode(&r.row(&r.rows[0])).expect("missing days decode")
}

#[test]
fn daily_summary_by_ctas_refreshes_idempotently_and_finds_the_gap() {
    let Some(engine) =
        Engine::get_or_skip("daily_summary_by_ctas_refreshes_idempotently_and_finds_the_gap")
    else {
        return;
    };
    let spark = Dialect::Spark;
    engine.run("CREATE NAMESPACE IF NOT EXISTS analytics");
    engine.run(
        McpEvent::table_def()
            .create_table()
            .build_for(spark)
            .unwrap(),
    );
    let mut source = events(0..700, None);
    engine.run(McpEvent::insert(&source).build_for(spark).unwrap());

    // CTAS: the Athena form is refused by Spark; the Spark form builds the table.
    let q = summary_query(None);
    let summary = DailySummary::table_def();
    let ctas = IcebergCtas::new(summary.name().clone(), &q).like(summary);
    let athena = ctas.build().unwrap();
    assert!(athena.sql().contains("WITH ("), "{}", athena.sql());
    let e = engine.expect_err(&athena);
    assert_eq!(e.class(), Some("PARSE_SYNTAX_ERROR"), "{e}");
    let ctas = ctas.build_for(spark).unwrap();
    engine.run(&ctas);
    let show = engine
        .run(format!("SHOW CREATE TABLE {}", summary.name()))
        .scalar()
        .unwrap()
        .to_string();
    assert!(show.contains("PARTITIONED BY (dt)"), "{show}");
    assert_summary(&read_summary(engine), &expected(&source));

    // Late events arrive for one day; refreshing that day twice gives the same table,
    // equal to the summary of all source rows; the other days are untouched.
    let late_day = day(2);
    let late = events(5000..5090, Some(2));
    engine.run(McpEvent::insert(&late).build_for(spark).unwrap());
    source.extend(late);
    let before_other: Vec<DailySummary> = read_summary(engine)
        .into_iter()
        .filter(|s| s.dt != late_day)
        .collect();
    refresh(engine, late_day);
    let once = read_summary(engine);
    refresh(engine, late_day);
    let twice = read_summary(engine);
    assert_eq!(once, twice, "the refresh is idempotent");
    assert_summary(&twice, &expected(&source));
    let other: Vec<DailySummary> = twice.into_iter().filter(|s| s.dt != late_day).collect();
    assert_eq!(other, before_other);

    // The missing-days check over the month's first week finds the gap and only it.
    assert_eq!(missing_days(engine, day(1), day(7)), [day(GAP_DAY)]);
    // Materializing the gap day (no events) leaves it missing; after events arrive and
    // the day is refreshed, nothing is missing.
    refresh(engine, day(GAP_DAY));
    assert_eq!(missing_days(engine, day(1), day(7)), [day(GAP_DAY)]);
    let gap_events = events(9000..9030, Some(GAP_DAY));
    engine.run(McpEvent::insert(&gap_events).build_for(spark).unwrap());
    source.extend(gap_events);
    refresh(engine, day(GAP_DAY));
    assert!(missing_days(engine, day(1), day(7)).is_empty());
    assert_summary(&read_summary(engine), &expected(&source));
}
