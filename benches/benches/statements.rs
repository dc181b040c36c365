//! Per statement: `build()` (render + validate) beside a bare sqlparser parse of the
//! same text, and rendering alone beside sea-query, in interleaved rounds (medians).
//! Also how `build()` scales with the number of conditions.
//!
//! Run: `cargo bench -p iceberg-sql-benches --bench statements`.
//! For instruction counts under callgrind (`scripts/bench-instructions.sh`):
//! `statements --instr KIND VARIANT N` runs one variant N times and nothing else
//! (VARIANT: build, parse, render, sea, or harness: the render variant's measurement
//! without a statement).

use std::hint::black_box;

use iceberg_sql::render::{measurement_overhead, text_without_validation};
use iceberg_sql_benches::statements::{self, KINDS};
use iceberg_sql_benches::timing::{interleaved, us};
use iceberg_sql_benches::{sea, McpEvent};
use sqlparser::dialect::GenericDialect;
use sqlparser::parser::Parser;

/// The text the bare parse reads: the statement itself, except that no stock
/// sqlparser dialect reads Iceberg partition transforms, so for CREATE TABLE they are
/// reduced to their source columns (`PARTITIONED BY (event_ts, user_id)`: a few bytes
/// shorter, so the ratio errs against us).
fn baseline_text(sql: &str) -> String {
    let text = sql.replace("day(event_ts), bucket(16, user_id)", "event_ts, user_id");
    Parser::parse_sql(&GenericDialect {}, &text)
        .expect("sqlparser's GenericDialect reads the text");
    text
}

fn render_only(kind: &str, rows: &[McpEvent]) -> String {
    text_without_validation(|| {
        let _ = statements::build(kind, rows);
    })
    .expect("one text")
}

fn run_variant(kind: &str, variant: &str, rows: &[McpEvent], sql: &str) {
    match variant {
        "build" => {
            black_box(statements::build(kind, rows).expect("builds"));
        }
        "parse" => {
            black_box(Parser::parse_sql(&GenericDialect {}, sql).expect("parses"));
        }
        "render" => {
            black_box(render_only(kind, rows));
        }
        "sea" => {
            black_box(sea::build(kind, rows));
        }
        // What "render" pays for its measurement alone (no statement rendered).
        "harness" => {
            black_box(measurement_overhead());
        }
        other => panic!("unknown variant {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let rows = McpEvent::rows(1000);
    if args.first().map(String::as_str) == Some("--instr") {
        let (kind, variant) = (&args[1], &args[2]);
        let n: usize = args[3].parse().expect("N");
        let built = statements::build(kind, &rows).expect("builds").into_sql();
        let sql = if variant == "parse" {
            baseline_text(&built)
        } else {
            built
        };
        for _ in 0..n {
            run_variant(kind, variant, &rows, &sql);
        }
        return;
    }

    println!("## per statement (median of 31 interleaved rounds, µs per call)\n");
    println!("| kind | bytes | build() | sqlparser parse | build / parse | render only | sea-query | render / sea-query |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for kind in KINDS {
        let sql = statements::build(kind, &rows).expect("builds").into_sql();
        assert_eq!(
            render_only(kind, &rows),
            sql,
            "render-only text is build()'s text"
        );
        let base = baseline_text(&sql);
        let has_sea = matches!(kind, "insert" | "update" | "delete");
        let mut b = || run_variant(kind, "build", &rows, &sql);
        let mut p = || run_variant(kind, "parse", &rows, &base);
        let mut r = || run_variant(kind, "render", &rows, &sql);
        let mut s = || {
            if has_sea {
                run_variant(kind, "sea", &rows, &sql)
            }
        };
        let t = interleaved(31, 200, &mut [&mut b, &mut p, &mut r, &mut s]);
        let sea = if has_sea {
            format!("{:.2} | {:.2}", us(t[3]), us(t[2]) / us(t[3]))
        } else {
            "— | —".into()
        };
        println!(
            "| {kind} | {} | {:.2} | {:.2} | **{:.2}** | {:.2} | {sea} |",
            sql.len(),
            us(t[0]),
            us(t[1]),
            us(t[0]) / us(t[1]),
            us(t[2]),
        );
    }

    println!("\n## scaling: DELETE … WHERE with n OR-ed conditions (median of 11 rounds)\n");
    println!("| conditions | bytes | build() µs | µs per condition |");
    println!("|---:|---:|---:|---:|");
    for n in [10usize, 100, 1000, 4000] {
        let bytes = statements::delete_with_conditions(n)
            .expect("builds")
            .sql()
            .len();
        let iters = (20_000 / n).max(2) as u32;
        let mut b = || {
            black_box(statements::delete_with_conditions(n).expect("builds"));
        };
        let t = interleaved(11, iters, &mut [&mut b]);
        println!(
            "| {n} | {bytes} | {:.1} | {:.3} |",
            us(t[0]),
            us(t[0]) / n as f64
        );
    }
}
