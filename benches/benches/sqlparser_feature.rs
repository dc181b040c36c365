//! What iceberg-sql's `sqlparser` feature costs per statement, in one run: `build()`
//! with the feature (render, our validator, sqlparser's reading) beside what `build()`
//! does without it (render, then our validator on the text), and sqlparser's reading
//! alone, in interleaved rounds (medians).
//!
//! Run: `cargo bench -p iceberg-sql-benches --features sqlparser --bench sqlparser_feature`.

use std::hint::black_box;

use iceberg_sql::render::text_without_validation;
use iceberg_sql::validate::{read_with_sqlparser, validate_sql};
use iceberg_sql_benches::statements::{self, KINDS};
use iceberg_sql_benches::timing::{interleaved, us};
use iceberg_sql_benches::McpEvent;

fn main() {
    let rows = McpEvent::rows(1000);
    println!(
        "## the `sqlparser` feature per statement (median of 31 interleaved rounds, µs per call)\n"
    );
    println!(
        "| kind | bytes | build() without | build() with | sqlparser's reading | with / without |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for kind in KINDS {
        let stmt = statements::build(kind, &rows).expect("builds");
        let (sql, k, d, params) = (
            stmt.sql().to_string(),
            stmt.kind(),
            stmt.dialect(),
            stmt.params().len(),
        );
        // Without the feature: the same render, then the validator `build()` runs.
        let mut without = || {
            let text = text_without_validation(|| {
                let _ = statements::build(kind, &rows);
            })
            .expect("one text");
            validate_sql(&text, k, d, params).expect("valid");
            black_box(text);
        };
        let mut with = || {
            black_box(statements::build(kind, &rows).expect("builds"));
        };
        let mut read = || {
            read_with_sqlparser(black_box(&sql), k, d).expect("sqlparser reads it");
        };
        let t = interleaved(31, 200, &mut [&mut without, &mut with, &mut read]);
        println!(
            "| {kind} | {} | {:.2} | {:.2} | {:.2} | **{:.2}** |",
            sql.len(),
            us(t[0]),
            us(t[1]),
            us(t[2]),
            us(t[1]) / us(t[0]),
        );
    }
}
