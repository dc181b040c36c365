//! Bulk INSERT: 100,000 synthetic rows into statements of at most 262,144 bytes,
//! beside a hand-written `write!` batcher (same text, byte for byte) and sea-query's
//! `InsertStatement` rendering the same rows in the same batches. Interleaved rounds,
//! medians. Also how `batches()` scales with the number of rows.
//!
//! Run: `cargo bench -p iceberg-sql-benches --bench bulk`. For instruction counts under
//! callgrind, `bulk --instr VARIANT` (hand, default, plain, render, setup) runs one
//! variant once and nothing else.

use std::hint::black_box;
use std::time::Duration;

use iceberg_sql::{TableStatements, MAX_QUERY_BYTES};
use iceberg_sql_benches::timing::interleaved;
use iceberg_sql_benches::{hand, sea, McpEvent};

const ROWS: usize = 100_000;

fn rows_per_sec(d: Duration, rows: usize) -> f64 {
    rows as f64 / d.as_secs_f64()
}

/// `bulk --instr VARIANT`: one run of one variant and nothing else, for callgrind.
fn instr(variant: &str, rows: &[McpEvent]) {
    match variant {
        "hand" => drop(black_box(hand::batches(rows, MAX_QUERY_BYTES))),
        "default" => drop(black_box(
            McpEvent::insert(rows).batches().expect("batches"),
        )),
        "plain" => drop(black_box(
            McpEvent::insert(rows)
                .any_partitions()
                .batches()
                .expect("batches"),
        )),
        "render" => drop(black_box(
            McpEvent::insert(rows)
                .any_partitions()
                .batch_texts_unvalidated()
                .expect("texts"),
        )),
        "setup" => {}
        other => panic!("unknown variant {other}"),
    }
}

fn main() {
    let rows = McpEvent::rows(ROWS);
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("--instr") {
        instr(&args[1], &rows);
        return;
    }
    let theirs = hand::batches(&rows, MAX_QUERY_BYTES);
    let plain = McpEvent::insert(&rows).any_partitions();
    let ours: Vec<String> = plain
        .batches()
        .expect("batches")
        .into_iter()
        .map(|s| s.into_sql())
        .collect();
    assert_eq!(
        ours, theirs,
        "the hand-written batcher writes the same text"
    );
    let grouped = McpEvent::insert(&rows).batches().expect("batches");
    let bytes: usize = ours.iter().map(String::len).sum();
    let grouped_bytes: usize = grouped.iter().map(|s| s.sql().len()).sum();
    // sea-query renders the same rows in the same batches.
    let mut ranges = Vec::new();
    let mut start = 0;
    for b in &theirs {
        let n = b.matches("),\n  (").count() + 1;
        ranges.push(start..start + n);
        start += n;
    }
    assert_eq!(start, ROWS);
    println!(
        "bulk: {ROWS} rows -> {} statements, {bytes} bytes (partition-grouped default: {} statements, {grouped_bytes} bytes)\n",
        ours.len(),
        grouped.len()
    );

    let mut v_hand = || {
        black_box(hand::batches(black_box(&rows), MAX_QUERY_BYTES));
    };
    let mut v_default = || {
        black_box(
            McpEvent::insert(black_box(&rows))
                .batches()
                .expect("batches"),
        );
    };
    let mut v_plain = || {
        black_box(
            McpEvent::insert(black_box(&rows))
                .any_partitions()
                .batches()
                .expect("batches"),
        );
    };
    let mut v_render = || {
        black_box(
            McpEvent::insert(black_box(&rows))
                .any_partitions()
                .batch_texts_unvalidated()
                .expect("texts"),
        );
    };
    let mut v_sea = || {
        for r in &ranges {
            black_box(sea::insert(&rows[r.clone()]));
        }
    };
    let t = interleaved(
        9,
        1,
        &mut [
            &mut v_hand,
            &mut v_default,
            &mut v_plain,
            &mut v_render,
            &mut v_sea,
        ],
    );
    let hand_rps = rows_per_sec(t[0], ROWS);
    println!("| variant (100,000 rows, median of 9 interleaved rounds) | ms | rows/s | vs hand-written |");
    println!("|---|---:|---:|---:|");
    for (name, d) in [
        ("hand-written `write!` batcher (no checks)", t[0]),
        (
            "`batches()` (Athena default: partition-grouped, validated)",
            t[1],
        ),
        (
            "`any_partitions().batches()` (same text as the hand batcher, validated)",
            t[2],
        ),
        ("rendering only (`batch_texts_unvalidated`)", t[3]),
        ("sea-query `InsertStatement`, same rows and batches", t[4]),
    ] {
        let rps = rows_per_sec(d, ROWS);
        println!(
            "| {name} | {:.1} | {:.0} | {:.3} |",
            d.as_secs_f64() * 1e3,
            rps,
            rps / hand_rps
        );
    }
    println!(
        "\nsea-query / `batches()` time: {:.2}x; sea-query / `any_partitions().batches()`: {:.2}x",
        t[4].as_secs_f64() / t[1].as_secs_f64(),
        t[4].as_secs_f64() / t[2].as_secs_f64()
    );

    println!("\n## scaling in rows (`batches()`, median of 5 rounds)\n");
    println!("| rows | ms | µs per row |");
    println!("|---:|---:|---:|");
    for n in [1_000usize, 10_000, 100_000] {
        let r = &rows[..n];
        let mut f = || {
            black_box(McpEvent::insert(black_box(r)).batches().expect("batches"));
        };
        let t = interleaved(5, (100_000 / n) as u32, &mut [&mut f]);
        println!(
            "| {n} | {:.2} | {:.3} |",
            t[0].as_secs_f64() * 1e3,
            t[0].as_secs_f64() * 1e6 / n as f64
        );
    }
}
