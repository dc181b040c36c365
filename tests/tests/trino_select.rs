//! The analysts' SELECT forms as the crate writes them for Athena, run verbatim on Trino
//! 476 with Iceberg (Athena engine v3 is built on Trino): HAVING, DISTINCT, OFFSET, the
//! string functions, CASE and COALESCE, window functions and frames, CTEs and UNION ALL, raw
//! expressions, and
//! the daily summary of the CTAS patterns (count(*) FILTER (WHERE …), avg,
//! approx_percentile, GROUP BY) written with the builder. The rows read back are
//! compared with the answer computed in Rust, exactly.

use chrono::NaiveDate;
use iceberg_sql::dsl::{case_when, count_all, dense_rank, rank, raw, row_number};
use iceberg_sql::expr::{FrameBound, Window};
use iceberg_sql::prelude::*;
use iceberg_sql::query::{Cte, Order};
use iceberg_sql_tests::trino::{QueryResult, Trino};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "trino_select",
    name = "calls",
    location = "s3://trino-select/iceberg/calls/",
    partition(day)
)]
pub struct Call {
    pub id: i64,
    pub day: NaiveDate,
    pub tool: String,
    pub status: String,
    pub latency_ms: i64,
}

const TOOLS: &[&str] = &["ask", "fetch", "list", "ping"];

/// 44 calls over two days (11 a tool): tool `i % 4`, every third one an error, latency `10 * i`.
fn calls() -> Vec<Call> {
    (0..44)
        .map(|i: i64| Call {
            id: i,
            day: NaiveDate::from_ymd_opt(2026, 10, 1 + (i % 2) as u32).unwrap(),
            tool: TOOLS[(i % 4) as usize].to_string(),
            status: if i % 3 == 0 { "error" } else { "success" }.to_string(),
            latency_ms: 10 * i,
        })
        .collect()
}

fn decode<T: FromRow>(r: &QueryResult) -> Vec<T> {
    r.result_rows()
        .iter()
        .map(|row| T::from_row(row).unwrap_or_else(|e| panic!("row decodes: {e}\n{row:?}")))
        .collect()
}

/// Creates and loads the table once for the tests of this file (they run side by side).
fn setup(trino: &Trino) -> Vec<Call> {
    static LOADED: std::sync::OnceLock<Vec<Call>> = std::sync::OnceLock::new();
    LOADED.get_or_init(|| load(trino)).clone()
}

fn load(trino: &Trino) -> Vec<Call> {
    trino.ensure_bucket("trino-select");
    trino.ensure_schema("trino_select");
    let def = Call::table_def();
    trino.run(format!("DROP TABLE IF EXISTS {}", def.name()));
    trino.run(def.create_table().build_for(Dialect::Trino).unwrap());
    let rows = calls();
    trino.run(Call::insert(&rows).build().unwrap());
    rows
}

#[test]
fn analyst_select_forms_on_trino() {
    let Some(trino) = Trino::get_or_skip("analyst_select_forms_on_trino") else {
        return;
    };
    let rows = setup(trino);

    // HAVING: tools with more than 9 calls whose average latency is above 215 ms.
    let q = Call::select()
        .column(Call::TOOL)
        .expr_as(count_all(), "n")
        .group_by(Call::TOOL)
        .having(count_all().gt(9).and(Call::LATENCY_MS.avg().gt(215.0)))
        .order_by(Call::TOOL, Order::Asc)
        .build()
        .unwrap();
    let mut want: Vec<(String, i64)> = Vec::new();
    for t in TOOLS {
        let of: Vec<&Call> = rows.iter().filter(|c| c.tool == *t).collect();
        let avg = of.iter().map(|c| c.latency_ms as f64).sum::<f64>() / of.len() as f64;
        if of.len() > 9 && avg > 215.0 {
            want.push((t.to_string(), of.len() as i64));
        }
    }
    assert_eq!(want.len(), 2, "the data leaves some groups out: {want:?}");
    assert_eq!(decode::<(String, i64)>(&trino.run(&q)), want, "{q}");

    // DISTINCT.
    let q = Call::select()
        .distinct()
        .column(Call::TOOL)
        .column(Call::STATUS)
        .order_by(Call::TOOL, Order::Asc)
        .order_by(Call::STATUS, Order::Asc)
        .build()
        .unwrap();
    let mut want: Vec<(String, String)> = rows
        .iter()
        .map(|c| (c.tool.clone(), c.status.clone()))
        .collect();
    want.sort();
    want.dedup();
    assert_eq!(decode::<(String, String)>(&trino.run(&q)), want, "{q}");

    // OFFSET before LIMIT: the third page of 7 ids.
    let q = Call::select()
        .column(Call::ID)
        .order_by(Call::ID, Order::Desc)
        .offset(14)
        .limit(7)
        .build()
        .unwrap();
    let want: Vec<(i64,)> = (23..=29).rev().map(|i| (i,)).collect();
    assert_eq!(decode::<(i64,)>(&trino.run(&q)), want, "{q}");
}

/// The daily summary of the CTAS patterns, with the builder: per day and tool, the
/// calls, the successes and errors (count(*) FILTER), the average latency and its
/// median (approx_percentile: exact on this few distinct values, an odd number a group).
#[test]
fn daily_summary_with_the_builder_on_trino() {
    let Some(trino) = Trino::get_or_skip("daily_summary_with_the_builder_on_trino") else {
        return;
    };
    let rows = setup(trino);
    let q = Call::select()
        .column(Call::DAY)
        .column(Call::TOOL)
        .expr_as(count_all(), "calls")
        .expr_as(count_all().filter(Call::STATUS.eq("success")), "ok")
        .expr_as(count_all().filter(Call::STATUS.ne("success")), "errors")
        .expr_as(Call::LATENCY_MS.avg(), "avg_ms")
        .expr_as(Call::LATENCY_MS.approx_percentile(0.5), "p50_ms")
        .group_by(Call::DAY)
        .group_by(Call::TOOL)
        .order_by(Call::DAY, Order::Asc)
        .order_by(Call::TOOL, Order::Asc)
        .build()
        .unwrap();
    type Summary = (NaiveDate, String, i64, i64, i64, f64, i64);
    let got: Vec<Summary> = decode(&trino.run(&q));
    let mut want: Vec<Summary> = Vec::new();
    let mut keys: Vec<(NaiveDate, String)> = rows.iter().map(|c| (c.day, c.tool.clone())).collect();
    keys.sort();
    keys.dedup();
    for (day, tool) in keys {
        let of: Vec<&Call> = rows
            .iter()
            .filter(|c| c.day == day && c.tool == tool)
            .collect();
        let ok = of.iter().filter(|c| c.status == "success").count() as i64;
        let n = of.len() as i64;
        let avg = of.iter().map(|c| c.latency_ms as f64).sum::<f64>() / n as f64;
        let mut l: Vec<i64> = of.iter().map(|c| c.latency_ms).collect();
        l.sort();
        want.push((day, tool, n, ok, n - ok, avg, l[(l.len() - 1) / 2]));
    }
    assert_eq!(got.len(), want.len(), "{q}");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(
            (&g.0, &g.1, g.2, g.3, g.4),
            (&w.0, &w.1, w.2, w.3, w.4),
            "{q}"
        );
        assert!((g.5 - w.5).abs() < 1e-9, "avg {} vs {}", g.5, w.5);
        assert_eq!(g.6, w.6, "p50 of {}/{}", w.0, w.1);
    }
}

/// The string functions, CASE and COALESCE, per row, against the same computed in Rust.
#[test]
fn string_functions_case_and_coalesce_on_trino() {
    let Some(trino) = Trino::get_or_skip("string_functions_case_and_coalesce_on_trino") else {
        return;
    };
    let rows = setup(trino);
    let q = Call::select()
        .column(Call::ID)
        .expr_as(Call::TOOL.upper(), "up")
        .expr_as(Call::TOOL.concat("  ").trim().lower().length(), "len")
        .expr_as(
            Call::TOOL.substr(2, 2).concat("/").concat(Call::STATUS),
            "label",
        )
        .expr_as(Call::STATUS.replace("success", "ok"), "st")
        .expr_as(
            case_when(Call::LATENCY_MS.lt(100), "fast")
                .when(Call::LATENCY_MS.lt(300), "ok")
                .otherwise("slow"),
            "speed",
        )
        .expr_as(
            case_when(Call::STATUS.eq("error"), Call::TOOL)
                .end()
                .coalesce("none"),
            "failed",
        )
        .filter(Call::TOOL.regexp_like("^(a|l)"))
        .order_by(Call::ID, Order::Asc)
        .build()
        .unwrap();
    type Out = (i64, String, i64, String, String, String, String);
    let want: Vec<Out> = rows
        .iter()
        .filter(|c| c.tool.starts_with('a') || c.tool.starts_with('l'))
        .map(|c| {
            (
                c.id,
                c.tool.to_uppercase(),
                c.tool.len() as i64,
                format!("{}/{}", &c.tool[1..3], c.status),
                c.status.replace("success", "ok"),
                match c.latency_ms {
                    l if l < 100 => "fast",
                    l if l < 300 => "ok",
                    _ => "slow",
                }
                .to_string(),
                if c.status == "error" {
                    c.tool.clone()
                } else {
                    "none".to_string()
                },
            )
        })
        .collect();
    assert_eq!(want.len(), 22);
    assert_eq!(decode::<Out>(&trino.run(&q)), want, "{q}");
}

/// Window functions: per tool, newest first, the row number, rank and dense rank by
/// status, the previous and next latency, and the tool's total latency.
#[test]
fn window_functions_on_trino() {
    let Some(trino) = Trino::get_or_skip("window_functions_on_trino") else {
        return;
    };
    let rows = setup(trino);
    let newest = || {
        Window::new()
            .partition_by(Call::TOOL)
            .order_by_desc(Call::ID)
    };
    let by_status = || {
        Window::new()
            .partition_by(Call::TOOL)
            .order_by(Call::STATUS)
    };
    let q = Call::select()
        .column(Call::ID)
        .expr_as(row_number().over(newest()), "rn")
        .expr_as(rank().over(by_status()), "r")
        .expr_as(dense_rank().over(by_status()), "dr")
        .expr_as(Call::LATENCY_MS.lag(1).over(newest()), "prev_ms")
        .expr_as(Call::LATENCY_MS.lead(1).over(newest()), "next_ms")
        .expr_as(
            Call::LATENCY_MS
                .sum()
                .over(Window::new().partition_by(Call::TOOL)),
            "tool_ms",
        )
        .order_by(Call::ID, Order::Asc)
        .build()
        .unwrap();
    type Out = (i64, i64, i64, i64, Option<i64>, Option<i64>, i64);
    let mut want: Vec<Out> = Vec::new();
    for c in &rows {
        let mut same: Vec<&Call> = rows.iter().filter(|d| d.tool == c.tool).collect();
        same.sort_by_key(|d| std::cmp::Reverse(d.id));
        let at = same.iter().position(|d| d.id == c.id).unwrap();
        let errors = same.iter().filter(|d| d.status == "error").count() as i64;
        let (r, dr) = if c.status == "error" {
            (1, 1)
        } else {
            (errors + 1, if errors > 0 { 2 } else { 1 })
        };
        want.push((
            c.id,
            at as i64 + 1,
            r,
            dr,
            at.checked_sub(1).map(|p| same[p].latency_ms),
            same.get(at + 1).map(|d| d.latency_ms),
            same.iter().map(|d| d.latency_ms).sum(),
        ));
    }
    assert!(want.iter().any(|w| w.2 > 2), "rank has a gap somewhere");
    assert_eq!(decode::<Out>(&trino.run(&q)), want, "{q}");
}

/// The newest two calls of each tool, `rn` from a window in a CTE filtered outside it.
#[allow(dead_code)] // the declared columns of the CTE
#[derive(FromRow)]
struct Numbered {
    id: i64,
    tool: String,
    rn: i64,
}

impl Numbered {
    const ID: Col<Numbered, i64> = Col::new("id");
    const TOOL: Col<Numbered, String> = Col::new("tool");
    const RN: Col<Numbered, i64> = Col::new("rn");
}

/// One UNION ALL of errors and slow calls, tagged by a source number (an integer on
/// one side, a bigint on the other, `3000000000` being beyond an integer's range: the
/// union's column is a bigint).
#[allow(dead_code)] // the declared columns of the CTE
#[derive(FromRow)]
struct Flagged {
    id: i64,
    src: i64,
}

impl Flagged {
    const ID: Col<Flagged, i64> = Col::new("id");
    const SRC: Col<Flagged, i64> = Col::new("src");
}

/// WITH and UNION ALL: the "top N per group" pattern (a window function in a CTE, its
/// rows filtered by the outer query), and a union ordered and limited through a CTE.
#[test]
fn ctes_and_union_all_on_trino() {
    let Some(trino) = Trino::get_or_skip("ctes_and_union_all_on_trino") else {
        return;
    };
    let rows = setup(trino);
    let numbered = Cte::<Numbered>::new(
        "numbered",
        Call::select().column(Call::ID).column(Call::TOOL).expr_as(
            row_number().over(
                Window::new()
                    .partition_by(Call::TOOL)
                    .order_by_desc(Call::ID),
            ),
            "rn",
        ),
    );
    let q = numbered
        .select()
        .column(Numbered::TOOL)
        .column(Numbered::ID)
        .filter(Numbered::RN.le(2i64))
        .order_by(Numbered::TOOL, Order::Asc)
        .order_by(Numbered::ID, Order::Desc)
        .build()
        .unwrap();
    let mut want: Vec<(String, i64)> = Vec::new();
    for t in TOOLS {
        let mut ids: Vec<i64> = rows.iter().filter(|c| c.tool == *t).map(|c| c.id).collect();
        ids.sort_by_key(|i| std::cmp::Reverse(*i));
        want.extend(ids.into_iter().take(2).map(|i| (t.to_string(), i)));
    }
    assert_eq!(want.len(), 8);
    assert_eq!(decode::<(String, i64)>(&trino.run(&q)), want, "{q}");

    const BIG: i64 = 3_000_000_000;
    let flagged = Cte::<Flagged>::new(
        "flagged",
        Call::select()
            .column(Call::ID)
            .value_as(1i32, "src")
            .filter(Call::STATUS.eq("error"))
            .union_all(
                Call::select()
                    .column(Call::ID)
                    .value_as(BIG, "src")
                    .filter(Call::LATENCY_MS.gt(350)),
            ),
    );
    let q = flagged
        .select()
        .column(Flagged::ID)
        .column(Flagged::SRC)
        .order_by(Flagged::ID, Order::Desc)
        .order_by(Flagged::SRC, Order::Asc)
        .limit(6)
        .build()
        .unwrap();
    let mut want: Vec<(i64, i64)> = rows
        .iter()
        .filter(|c| c.status == "error")
        .map(|c| (c.id, 1))
        .chain(
            rows.iter()
                .filter(|c| c.latency_ms > 350)
                .map(|c| (c.id, BIG)),
        )
        .collect();
    want.sort_by_key(|(id, src)| (std::cmp::Reverse(*id), *src));
    want.truncate(6);
    assert!(
        want.windows(2).any(|w| w[0].0 == w[1].0),
        "an id in both: {want:?}"
    );
    assert_eq!(decode::<(i64, i64)>(&trino.run(&q)), want, "{q}");
}

/// Raw expressions for what the DSL lacks: an aggregate (`count_if`), a scalar function
/// (`bitwise_and`) in a filter beside typed conditions, a lambda.
#[test]
fn raw_expressions_on_trino() {
    let Some(trino) = Trino::get_or_skip("raw_expressions_on_trino") else {
        return;
    };
    let rows = setup(trino);
    let q = Call::select()
        .column(Call::TOOL)
        .expr_as(raw::<i64>("count_if(status = 'error')"), "errors")
        .expr_as(raw::<i64>("max_by(id, latency_ms)"), "slowest")
        .expr_as(
            raw::<i64>("cardinality(filter(array_agg(latency_ms), x -> x >= 200))"),
            "slow",
        )
        .filter(raw::<bool>("bitwise_and(id, 1) = 0"))
        .filter(Call::LATENCY_MS.lt(raw::<i64>("abs(-400)")))
        .group_by(Call::TOOL)
        .order_by(Call::TOOL, Order::Asc)
        .build()
        .unwrap();
    let mut want: Vec<(String, i64, i64, i64)> = Vec::new();
    for t in TOOLS {
        let of: Vec<&Call> = rows
            .iter()
            .filter(|c| c.tool == *t && c.id % 2 == 0 && c.latency_ms < 400)
            .collect();
        if of.is_empty() {
            continue;
        }
        let errors = of.iter().filter(|c| c.status == "error").count() as i64;
        let slowest = of.iter().max_by_key(|c| c.latency_ms).unwrap().id;
        let slow = of.iter().filter(|c| c.latency_ms >= 200).count() as i64;
        want.push((t.to_string(), errors, slowest, slow));
    }
    assert_eq!(want.len(), 2, "even ids fall on two tools: {want:?}");
    assert_eq!(
        decode::<(String, i64, i64, i64)>(&trino.run(&q)),
        want,
        "{q}"
    );
}

/// Window frames: a running total and a three-row sum per tool in id order (ROWS), and
/// the calls within 50 ms below each call's latency (RANGE over a numeric key).
#[test]
fn window_frames_on_trino() {
    let Some(trino) = Trino::get_or_skip("window_frames_on_trino") else {
        return;
    };
    let rows = setup(trino);
    let by_id = || Window::new().partition_by(Call::TOOL).order_by(Call::ID);
    let q = Call::select()
        .column(Call::ID)
        .expr_as(
            Call::LATENCY_MS
                .sum()
                .over(by_id().rows_between(FrameBound::UnboundedPreceding, FrameBound::CurrentRow)),
            "running",
        )
        .expr_as(
            Call::LATENCY_MS
                .sum()
                .over(by_id().rows_between(FrameBound::Preceding(1), FrameBound::Following(1))),
            "around",
        )
        .expr_as(
            count_all().over(
                Window::new()
                    .order_by(Call::LATENCY_MS)
                    .range_between(FrameBound::Preceding(50), FrameBound::CurrentRow),
            ),
            "near",
        )
        .order_by(Call::ID, Order::Asc)
        .build()
        .unwrap();
    let mut want: Vec<(i64, i64, i64, i64)> = Vec::new();
    for c in &rows {
        let mut same: Vec<&Call> = rows.iter().filter(|d| d.tool == c.tool).collect();
        same.sort_by_key(|d| d.id);
        let at = same.iter().position(|d| d.id == c.id).unwrap();
        let running = same[..=at].iter().map(|d| d.latency_ms).sum();
        let around = same[at.saturating_sub(1)..(at + 2).min(same.len())]
            .iter()
            .map(|d| d.latency_ms)
            .sum();
        let near = rows
            .iter()
            .filter(|d| d.latency_ms >= c.latency_ms - 50 && d.latency_ms <= c.latency_ms)
            .count() as i64;
        want.push((c.id, running, around, near));
    }
    assert_eq!(decode::<(i64, i64, i64, i64)>(&trino.run(&q)), want, "{q}");
}
