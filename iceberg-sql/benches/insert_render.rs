//! INSERT rendering: 100,000 seed-shaped `mcp_events` rows into batches of at most
//! 262,144 bytes, beside a hand-written `write!` formatter of the same text.
//!
//! * `baseline_write_fmt`: the f-string way, in Rust: `write!` per row with `''`
//!   doubling, greedy packing by length. No checks at all.
//! * `render_batches`: `Insert::batch_texts_unvalidated()`: typed values, column types,
//!   NOT NULL checks, exact-size packing; no sqlparser re-parse.
//! * `batches_validated`: `Insert::batches()`: the above plus the validator's
//!   sqlparser re-parse and allow-list of every batch (what users call).
//!
//! Run: `cargo bench -p iceberg-sql --bench insert_render`.

#[path = "../tests/dml_support/mod.rs"]
mod dml_support;

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dml_support::McpEvent;
use iceberg_sql::{TableStatements, MAX_QUERY_BYTES};

const ROWS: usize = 100_000;
const HEADER: &str = "INSERT INTO analytics.mcp_events (event_id, session_id, tool_name, user_id, event_ts, payload, status, latency_ms)\nVALUES\n  ";
const SEP: &str = ",\n  ";

fn quote(out: &mut String, s: &str) {
    out.push('\'');
    for (i, part) in s.split('\'').enumerate() {
        if i > 0 {
            out.push_str("''");
        }
        out.push_str(part);
    }
    out.push('\'');
}

/// The hand-written formatter: same text as the crate renders, no checks.
fn baseline(rows: &[McpEvent]) -> Vec<String> {
    let mut out = Vec::new();
    let mut batch = String::with_capacity(MAX_QUERY_BYTES);
    batch.push_str(HEADER);
    let mut in_batch = 0;
    let mut row = String::with_capacity(512);
    for r in rows {
        row.clear();
        row.push('(');
        quote(&mut row, &r.event_id);
        row.push_str(", ");
        quote(&mut row, &r.session_id);
        row.push_str(", ");
        quote(&mut row, &r.tool_name);
        row.push_str(", ");
        quote(&mut row, &r.user_id);
        let _ = write!(
            row,
            ", TIMESTAMP '{}', ",
            r.event_ts.format("%Y-%m-%d %H:%M:%S%.6f")
        );
        match &r.payload {
            Some(p) => quote(&mut row, p),
            None => row.push_str("CAST(NULL AS varchar)"),
        }
        row.push_str(", ");
        quote(&mut row, &r.status);
        let _ = write!(row, ", {})", r.latency_ms);
        if in_batch > 0 && batch.len() + SEP.len() + row.len() > MAX_QUERY_BYTES {
            out.push(std::mem::replace(
                &mut batch,
                String::with_capacity(MAX_QUERY_BYTES),
            ));
            batch.push_str(HEADER);
            in_batch = 0;
        }
        if in_batch > 0 {
            batch.push_str(SEP);
        }
        batch.push_str(&row);
        in_batch += 1;
    }
    if in_batch > 0 {
        out.push(batch);
    }
    out
}

fn bench(c: &mut Criterion) {
    let rows: Vec<McpEvent> = (0..ROWS).map(McpEvent::nth).collect();
    let ours = McpEvent::insert(&rows).batch_texts_unvalidated().unwrap();
    let theirs = baseline(&rows);
    assert_eq!(ours, theirs, "the baseline must produce the same text");
    let validated = McpEvent::insert(&rows).batches().unwrap();
    assert_eq!(validated.len(), ours.len());
    let bytes: usize = ours.iter().map(String::len).sum();
    eprintln!(
        "insert_render: {ROWS} rows -> {} batches, {bytes} bytes of SQL",
        ours.len()
    );

    let mut g = c.benchmark_group("insert_render");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.bench_function("baseline_write_fmt", |b| {
        b.iter(|| black_box(baseline(black_box(&rows))))
    });
    g.bench_function("render_batches", |b| {
        b.iter(|| {
            black_box(
                McpEvent::insert(black_box(&rows))
                    .batch_texts_unvalidated()
                    .unwrap(),
            )
        })
    });
    g.bench_function("batches_validated", |b| {
        b.iter(|| black_box(McpEvent::insert(black_box(&rows)).batches().unwrap()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
