//! Snapshots of every DML statement form, in both dialects. Every snapshot comes from a
//! `Statement`, so it has passed validation (sqlparser re-parse + allow-list).

mod dml_support;

use dml_support::{ts, McpEvent, Nested};
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::{
    case_when, count_all, current_date, current_timestamp, days, hours, lit, param, source, target,
};
use iceberg_sql::prelude::*;
use iceberg_sql::{Decimal, Result};

fn both(name: &str, build: impl Fn(Dialect) -> Result<Statement>) {
    for (d, suffix) in [(Dialect::Athena, "athena"), (Dialect::Spark, "spark")] {
        let stmt = build(d).unwrap_or_else(|e| panic!("{name} ({suffix}): {e}"));
        assert_eq!(stmt.dialect(), d);
        let mut text = stmt.sql().to_string();
        if !stmt.params().is_empty() {
            text.push_str("\n-- params: ");
            text.push_str(&stmt.params().join(" | "));
        }
        insta::assert_snapshot!(format!("dml_{name}_{suffix}"), text);
    }
}

fn staging() -> TableName {
    TableName::new("analytics", "mcp_events_staging")
}

#[test]
fn insert_example_row() {
    let rows = [McpEvent::example()];
    both("insert_example", |d| McpEvent::insert(&rows).build_for(d));
}

#[test]
fn insert_hostile_and_null_values() {
    let mut a = McpEvent::example();
    a.payload =
        Some("it's a \\ back'slash; -- not a comment /* nor this */\nnew line \u{2019}".into());
    let mut b = McpEvent::nth(5);
    b.payload = None;
    let rows = [a, b];
    both("insert_hostile", |d| McpEvent::insert(&rows).build_for(d));
}

#[test]
fn insert_batches_small_limit() {
    let rows: Vec<McpEvent> = (0..5).map(McpEvent::nth).collect();
    for (d, suffix) in [(Dialect::Athena, "athena"), (Dialect::Spark, "spark")] {
        let batches = McpEvent::insert(&rows)
            .max_bytes(700)
            .batches_for(d)
            .unwrap();
        assert!(batches.len() > 1);
        let all: Vec<&str> = batches.iter().map(|s| s.sql()).collect();
        insta::assert_snapshot!(
            format!("dml_insert_batches_all_{suffix}"),
            all.join("\n---- next batch ----\n")
        );
    }
}

#[test]
fn insert_nested_values() {
    let rows = [
        Nested {
            values: vec![
                Value::Long(7),
                Value::from("O'Reilly"),
                Value::List(vec!["a".into(), Value::Null]),
                Value::Map(vec![("k".into(), Value::Int(1))]),
                Value::Struct(vec![Value::Double(1.5), "x\\y".into()]),
                Value::Decimal(Decimal::parse("12.5").unwrap()),
                Value::Date(chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap()),
                Value::Binary(vec![0, 255]),
            ],
        },
        Nested {
            values: vec![
                Value::Long(8),
                Value::Null,
                Value::List(vec![]),
                Value::Map(vec![]),
                Value::Null,
                Value::Null,
                Value::Null,
                Value::Null,
            ],
        },
    ];
    both("insert_nested", |d| Nested::insert(&rows).build_for(d));
}

#[test]
fn insert_select_all_columns_and_subset_with_param() {
    both("insert_select_all", |d| {
        McpEvent::insert_from(&staging()).build_for(d)
    });
    both("insert_select_param", |d| {
        McpEvent::insert_from(&staging())
            .filter(McpEvent::TOOL_NAME.eq(param("query_data")))
            .filter(McpEvent::EVENT_TS.ge(param(ts(2026, 10, 1, 0))))
            .build_for(d)
    });
}

#[test]
fn update_example() {
    both("update_example", |d| {
        McpEvent::update()
            .set(McpEvent::STATUS, "retried")
            .set(McpEvent::LATENCY_MS, 320)
            .filter(McpEvent::EVENT_ID.eq("evt-001"))
            .build_for(d)
    });
}

#[test]
fn update_with_expressions() {
    both("update_expressions", |d| {
        McpEvent::update()
            .set(McpEvent::LATENCY_MS, McpEvent::LATENCY_MS + 10)
            .set_null(McpEvent::PAYLOAD)
            .set(
                McpEvent::STATUS,
                case_when(McpEvent::LATENCY_MS.gt(1000), "slow").otherwise(McpEvent::STATUS),
            )
            .filter(
                McpEvent::TOOL_NAME
                    .is_in(["query_data", "load_data"])
                    .or(McpEvent::PAYLOAD.is_null())
                    .and(McpEvent::EVENT_TS.lt(current_timestamp() - days(7))),
            )
            .build_for(d)
    });
}

#[test]
fn delete_example() {
    both("delete_example", |d| {
        McpEvent::delete()
            .filter(McpEvent::USER_ID.eq("user-123"))
            .filter(McpEvent::EVENT_TS.lt(ts(2026, 9, 1, 0)))
            .build_for(d)
    });
}

#[test]
fn delete_expressions_and_all_rows() {
    both("delete_expressions", |d| {
        McpEvent::delete()
            .filter(
                McpEvent::EVENT_TS
                    .date_trunc(TimeUnit::Day)
                    .between(lit(ts(2026, 9, 1, 0)) - days(1), ts(2026, 9, 30, 0))
                    .and(McpEvent::PAYLOAD.coalesce("").like("%secret%"))
                    .and(McpEvent::STATUS.is_distinct_from("ok"))
                    .and(McpEvent::LATENCY_MS.cast::<f64>().ge(1.5e3))
                    .and(McpEvent::USER_ID.not_in(Vec::<&str>::new()))
                    .and(McpEvent::PAYLOAD.is_not_null().not()),
            )
            .build_for(d)
    });
    both("delete_all_rows", |d| {
        McpEvent::delete().all_rows().build_for(d)
    });
}

#[test]
fn merge_example() {
    // The example MERGE: conditional delete, update, insert (the example's `tool_payload`
    // is this table's `payload`).
    both("merge_example", |d| {
        McpEvent::merge_from(MergeSource::table(staging()))
            .on_key(McpEvent::EVENT_ID)
            .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
            .delete()
            .when_matched()
            .update(|u| {
                u.set(McpEvent::STATUS, source(McpEvent::STATUS))
                    .set(McpEvent::LATENCY_MS, source(McpEvent::LATENCY_MS))
                    .set(McpEvent::PAYLOAD, source(McpEvent::PAYLOAD))
            })
            .when_not_matched()
            .insert_all()
            .build_for(d)
    });
}

#[test]
fn merge_helpers_update_all_insert_all() {
    both("merge_all", |d| {
        McpEvent::merge_from(MergeSource::table(staging()))
            .on_key(McpEvent::EVENT_ID)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build_for(d)
    });
}

#[test]
fn merge_inline_rows() {
    let rows = [McpEvent::example(), McpEvent::nth(5)];
    both("merge_rows", |d| {
        McpEvent::merge_from(MergeSource::rows(&rows))
            .on_key(McpEvent::EVENT_ID)
            .when_matched_and(
                target(McpEvent::LATENCY_MS)
                    .lt(source(McpEvent::LATENCY_MS))
                    .or(source(McpEvent::STATUS).eq("retried")),
            )
            .update(|u| {
                u.set(
                    McpEvent::LATENCY_MS,
                    target(McpEvent::LATENCY_MS) + source(McpEvent::LATENCY_MS),
                )
                .set(McpEvent::STATUS, "merged")
            })
            .when_not_matched_and(source(McpEvent::STATUS).ne("deleted"))
            .insert(|i| {
                i.value(McpEvent::EVENT_ID, source(McpEvent::EVENT_ID))
                    .value(McpEvent::SESSION_ID, source(McpEvent::SESSION_ID))
                    .value(McpEvent::TOOL_NAME, source(McpEvent::TOOL_NAME))
                    .value(McpEvent::USER_ID, source(McpEvent::USER_ID))
                    .value(McpEvent::EVENT_TS, source(McpEvent::EVENT_TS))
                    .value(McpEvent::STATUS, "new")
                    .value(McpEvent::LATENCY_MS, 0)
            })
            .build_for(d)
    });
}

#[test]
fn merge_null_safe_dedup() {
    both("merge_dedup_table", |d| {
        McpEvent::merge_from(MergeSource::table(staging()))
            .on_key(McpEvent::EVENT_ID)
            .on_key(McpEvent::USER_ID)
            .null_safe_keys()
            .dedup_source(McpEvent::EVENT_TS)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build_for(d)
    });
    let rows = [McpEvent::example(), McpEvent::example()];
    both("merge_dedup_rows", |d| {
        McpEvent::merge_from(MergeSource::rows(&rows))
            .on_key(McpEvent::EVENT_ID)
            .dedup_source(McpEvent::EVENT_TS)
            .when_matched()
            .delete()
            .build_for(d)
    });
}

#[test]
fn expressions_render_in_both_dialects() {
    let e = McpEvent::STATUS
        .eq("it's")
        .and(McpEvent::LATENCY_MS.between(1, 2))
        .or((McpEvent::LATENCY_MS - (McpEvent::LATENCY_MS % 7))
            .ne(0)
            .not());
    assert_eq!(
        e.to_sql(Dialect::Athena).unwrap(),
        "status = 'it''s' AND latency_ms BETWEEN 1 AND 2 OR NOT (latency_ms - latency_ms % 7 <> 0)"
    );
    assert_eq!(
        e.to_sql(Dialect::Spark).unwrap(),
        "status = 'it\\'s' AND latency_ms BETWEEN 1 AND 2 OR NOT (latency_ms - latency_ms % 7 <> 0)"
    );
    let agg = count_all::<McpEvent>().filter(McpEvent::STATUS.ne("success"));
    assert_eq!(
        agg.to_sql(Dialect::Athena).unwrap(),
        "count(*) FILTER (WHERE status <> 'success')"
    );
    assert_eq!(
        McpEvent::LATENCY_MS
            .approx_percentile(0.95)
            .to_sql(Dialect::Athena)
            .unwrap(),
        "approx_percentile(latency_ms, 0.95)"
    );
    assert_eq!(
        McpEvent::EVENT_TS
            .cast::<chrono::NaiveDateTime>()
            .to_sql(Dialect::Athena)
            .unwrap(),
        "CAST(event_ts AS timestamp(6))"
    );
    assert_eq!(
        (McpEvent::LATENCY_MS - (0 - 5))
            .to_sql(Dialect::Athena)
            .unwrap(),
        "latency_ms - -5"
    );
    assert_eq!(
        (McpEvent::EVENT_TS - hours(36))
            .date_trunc(TimeUnit::Month)
            .to_sql(Dialect::Athena)
            .unwrap(),
        "date_trunc('month', event_ts - INTERVAL '36' HOUR)"
    );
    assert_eq!(
        McpEvent::EVENT_TS
            .date_trunc(TimeUnit::Day)
            .eq(current_date().cast::<chrono::NaiveDateTime>())
            .to_sql(Dialect::Spark)
            .unwrap(),
        "date_trunc('day', event_ts) = CAST(current_date() AS timestamp_ntz)"
    );
    assert_eq!(
        (-(McpEvent::LATENCY_MS.sql_expr() * -1))
            .to_sql(Dialect::Athena)
            .unwrap(),
        "-(latency_ms * -1)"
    );
}

#[test]
fn merge_from_a_select_query() {
    both("merge_query", |d| {
        let q = McpEvent::select()
            .column(McpEvent::EVENT_ID)
            .column(McpEvent::SESSION_ID)
            .column(McpEvent::TOOL_NAME)
            .column(McpEvent::USER_ID)
            .column(McpEvent::EVENT_TS)
            .column(McpEvent::PAYLOAD)
            .column(McpEvent::STATUS)
            .column(McpEvent::LATENCY_MS)
            .filter(McpEvent::EVENT_TS.ge(current_timestamp() - days(1)))
            .build_for(d)?;
        McpEvent::merge_from(MergeSource::query(&q))
            .on_key(McpEvent::EVENT_ID)
            .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
            .delete()
            .when_not_matched()
            .insert_all()
            .build_for(d)
    });
    both("merge_query_dedup", |d| {
        let q = McpEvent::select()
            .column(McpEvent::EVENT_ID)
            .column(McpEvent::SESSION_ID)
            .column(McpEvent::TOOL_NAME)
            .column(McpEvent::USER_ID)
            .column(McpEvent::EVENT_TS)
            .column(McpEvent::PAYLOAD)
            .column(McpEvent::STATUS)
            .column(McpEvent::LATENCY_MS)
            .build_for(d)?;
        McpEvent::merge_from(MergeSource::query(&q))
            .on_key(McpEvent::EVENT_ID)
            .dedup_source(McpEvent::EVENT_TS)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build_for(d)
    });
}
