//! `materialize_days` against the test server, whose engine here keeps the summary
//! table's days: `$partitions` (the missing-days query) answers from them, and the
//! day's `INSERT … SELECT` adds its day when it commits. Failures stop a run with
//! what was done; re-runs go on from the table and fill each day exactly once.
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use chrono::{Duration, NaiveDate, NaiveDateTime};
use common::ev::{config, server};
use iceberg_sql::dsl::count_all;
use iceberg_sql::prelude::*;
use iceberg_sql::query::Select;
use iceberg_sql_athena::{AthenaExecutor, CommitState, Error, FilledDay};
use iceberg_sql_test_server::{End, Failure, Plan, ResultSet, ScriptedEngine, ServerConfig};

#[derive(IcebergTable, Debug, Clone)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/"
)]
struct McpEvent {
    tool_name: String,
    event_ts: NaiveDateTime,
}

#[derive(IcebergTable, Debug, Clone)]
#[iceberg(
    database = "analytics",
    name = "mcp_daily_summary",
    location = "s3://my-datalake/iceberg/mcp_daily_summary/",
    partition(dt)
)]
struct Daily {
    tool_name: String,
    calls: i64,
    dt: NaiveDate,
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

/// How the summary's `INSERT` of a day ends, the first time it runs.
#[derive(Clone, Copy)]
enum FirstInsert {
    Fails,
    CommitsThenErrs,
}

/// The summary table as the engine sees it: its days, the commits per day, and the
/// scripted first INSERTs.
#[derive(Default)]
struct Summary {
    days: BTreeSet<NaiveDate>,
    commits: BTreeMap<NaiveDate, usize>,
    first: BTreeMap<NaiveDate, FirstInsert>,
    inserts: BTreeMap<NaiveDate, usize>,
}

fn day_of(sql: &str) -> Option<NaiveDate> {
    let at = sql.find(" AS dt")?;
    let lit = sql[..at].rsplit("DATE '").next()?;
    NaiveDate::parse_from_str(lit.trim_end_matches('\''), "%Y-%m-%d").ok()
}

/// An engine over `summary` for the range 1 to 6 October.
fn engine(summary: Arc<Mutex<Summary>>) -> ScriptedEngine {
    let s1 = summary.clone();
    ScriptedEngine::new()
        .on_contains("missing_days", move |_| {
            let s = s1.lock().unwrap();
            let missing: Vec<String> = (1..=6)
                .map(d)
                .filter(|day| !s.days.contains(day))
                .map(|day| format!("\"{day}\""))
                .collect();
            Plan::rows(ResultSet::select(
                &[("missing_days", "json")],
                vec![vec![Some(format!("[{}]", missing.join(",")))]],
            ))
        })
        .on(
            |sql| sql.starts_with("INSERT INTO analytics.mcp_daily_summary"),
            move |q| {
                let day = day_of(q.sql).expect("the INSERT selects its day");
                let mut s = summary.lock().unwrap();
                let n = s.inserts.entry(day).or_default();
                *n += 1;
                let first = (*n == 1).then(|| s.first.get(&day).copied()).flatten();
                let commit = |s: &mut Summary| {
                    s.days.insert(day);
                    *s.commits.entry(day).or_default() += 1;
                };
                match first {
                    Some(FirstInsert::Fails) => Plan::fail(Failure::user_data_error()),
                    Some(FirstInsert::CommitsThenErrs) => {
                        commit(&mut s);
                        Plan {
                            end: End::Fail {
                                failure: Failure::iceberg_commit_error(),
                                after_commit: true,
                            },
                            ..Plan::succeed()
                        }
                    }
                    None => {
                        commit(&mut s);
                        Plan::succeed().substatement("INSERT").update_count(3)
                    }
                }
            },
        )
}

async fn run(
    executor: &AthenaExecutor,
    seen: &mut Vec<NaiveDate>,
) -> iceberg_sql_athena::Result<Vec<NaiveDate>> {
    executor
        .materialize_days(Daily::DT, d(1), d(6), per_tool, |f: &FilledDay| {
            seen.push(f.day)
        })
        .await
        .map(|m| m.filled.iter().map(|f| f.day).collect())
}

#[tokio::test]
async fn a_failed_day_stops_the_run_with_what_was_done_and_a_re_run_goes_on() {
    let summary = Arc::new(Mutex::new(Summary::default()));
    {
        let mut s = summary.lock().unwrap();
        s.days.insert(d(1));
        s.first.insert(d(3), FirstInsert::Fails);
    }
    let server = server(ServerConfig::new().engine(engine(summary.clone()))).await;
    let executor = AthenaExecutor::new(server.client(), config());

    let mut seen = Vec::new();
    let err = run(&executor, &mut seen).await.unwrap_err();
    let Error::DaysIncomplete {
        filled,
        day,
        not_started,
        error,
    } = &err
    else {
        panic!("expected DaysIncomplete, got {err:?}");
    };
    assert_eq!(filled.iter().map(|f| f.day).collect::<Vec<_>>(), [d(2)]);
    assert_eq!(filled[0].rows, Some(3));
    assert_eq!(*day, d(3));
    assert_eq!(not_started, &[d(4), d(5), d(6)]);
    assert_eq!(error.commit_state(), CommitState::NotCommitted);
    assert_eq!(seen, [d(2)]);
    assert_eq!(
        err.to_string().lines().next().unwrap(),
        format!("daily materialization stopped at 2026-10-03 after filling 1 day (3 not started): {error}")
            .lines()
            .next()
            .unwrap()
    );

    // The same call again: day 2 is no longer missing, day 3 is.
    let filled = run(&executor, &mut seen).await.unwrap();
    assert_eq!(filled, [d(3), d(4), d(5), d(6)]);
    assert_eq!(seen, [d(2), d(3), d(4), d(5), d(6)]);
    {
        let s = summary.lock().unwrap();
        assert_eq!(s.days, (1..=6).map(d).collect());
        assert!(s.commits.values().all(|&n| n == 1), "{:?}", s.commits);
    }
    // Day 3's DELETE ran twice (before its failed INSERT, and in the re-run), the other
    // filled days' once each.
    let deletes = || {
        server
            .ledger()
            .executions_of("DELETE FROM analytics.mcp_daily_summary")
            .len()
    };
    assert_eq!(deletes(), 6);
    // Nothing left: a third run finds no day missing and runs nothing but the query.
    assert_eq!(
        run(&executor, &mut seen).await.unwrap(),
        Vec::<NaiveDate>::new()
    );
    assert_eq!(deletes(), 6);
    assert_eq!(server.ledger().executions_of("missing_days").len(), 3);
}

#[tokio::test]
async fn a_day_whose_insert_committed_but_reported_a_commit_error_is_written_once() {
    let summary = Arc::new(Mutex::new(Summary::default()));
    summary
        .lock()
        .unwrap()
        .first
        .insert(d(2), FirstInsert::CommitsThenErrs);
    let server = server(ServerConfig::new().engine(engine(summary.clone()))).await;
    let executor = AthenaExecutor::new(server.client(), config());

    // The executor cannot tell whether day 2's INSERT committed (Athena's commit error
    // is no proof either way), so it does not resubmit it: the run stops there.
    let mut seen = Vec::new();
    let err = run(&executor, &mut seen).await.unwrap_err();
    let Error::DaysIncomplete { day, error, .. } = &err else {
        panic!("expected DaysIncomplete, got {err:?}");
    };
    assert_eq!(*day, d(2));
    assert_eq!(error.commit_state(), CommitState::Unknown);
    assert_eq!(err.commit_state(), CommitState::Unknown);
    // The re-run reads the table: day 2 is there, so it is not written again.
    assert_eq!(
        run(&executor, &mut seen).await.unwrap(),
        [d(3), d(4), d(5), d(6)]
    );
    assert_eq!(seen, [d(1), d(3), d(4), d(5), d(6)]);
    let s = summary.lock().unwrap();
    assert_eq!(s.days, (1..=6).map(d).collect());
    assert_eq!(s.commits.values().copied().collect::<Vec<_>>(), [1; 6]);
    assert_eq!(s.inserts[&d(2)], 1, "day 2's INSERT was resubmitted");
}

#[tokio::test]
async fn a_query_the_builders_refuse_stops_before_its_day_runs() {
    let summary = Arc::new(Mutex::new(Summary::default()));
    let server = server(ServerConfig::new().engine(engine(summary.clone()))).await;
    let executor = AthenaExecutor::new(server.client(), config());
    // Day 4's query lacks the `calls` column the summary table has.
    let query = |day: NaiveDate| {
        if day == d(4) {
            McpEvent::select()
                .column(McpEvent::TOOL_NAME)
                .value_as(day, "dt")
        } else {
            per_tool(day)
        }
    };
    let err = executor
        .materialize_days(Daily::DT, d(1), d(6), query, |_| {})
        .await
        .unwrap_err();
    let Error::DaysIncomplete {
        filled, day, error, ..
    } = &err
    else {
        panic!("expected DaysIncomplete, got {err:?}");
    };
    assert_eq!(filled.len(), 3);
    assert_eq!(*day, d(4));
    assert!(matches!(**error, Error::Statement(_)), "{error:?}");
    assert!(error.to_string().contains("calls"), "{error}");
    assert!(server
        .ledger()
        .executions_of("DATE '2026-10-04'")
        .is_empty());
}
