//! A harness to count the instructions of the two validator pipelines on the statements
//! the per-statement benchmark builds (`bench_statements.txt`: `benches/src/lib.rs`'s
//! `statements::build` for each kind, as it returns them), under callgrind:
//! `scripts/validator-instructions.sh`. Ignored in the suite; it runs a pipeline N
//! times and asserts nothing but that each run accepts.

use super::validate;
use crate::dialect::Dialect;
use crate::statement::StatementKind;
use crate::validate::values::{validate_insert_values, validate_insert_values_oracle};

/// The statements, one per kind: (kind, SQL).
fn statements() -> Vec<(StatementKind, String)> {
    include_str!("bench_statements.txt")
        .split("#### ")
        .filter(|b| !b.is_empty())
        .map(|b| {
            let (header, sql) = b.split_once('\n').unwrap_or((b, ""));
            let kind = header.split(' ').nth(1).unwrap_or_default();
            let kind = crate::validate::tests::verdict_fixture::kind(kind);
            (kind, sql.trim_end().to_string())
        })
        .collect()
}

/// Validates `sql` as `build()` does (an INSERT's rows with the VALUES recognizer), with
/// the sqlparser pipeline (`new`: false) or ours.
fn run(kind: StatementKind, sql: &str, new: bool) -> crate::error::Result<()> {
    let d = Dialect::Athena;
    match (kind, new) {
        (StatementKind::Insert, _) => {
            // Where the INSERT builder's rows start: after its `VALUES` line.
            let rows_at = sql.find("VALUES\n  ").map_or(0, |i| i + "VALUES\n  ".len());
            if new {
                validate_insert_values(sql, rows_at, d)
            } else {
                validate_insert_values_oracle(sql, rows_at, d)
            }
        }
        (_, true) => validate(sql, kind, d, 0),
        (_, false) => crate::validate::oracle::validate_sql(sql, kind, d, 0),
    }
}

/// `VALIDATOR_INSTRUCTIONS="<kind> old|new <n>"`: validates the statement of that kind
/// `n` times.
#[test]
#[ignore = "a harness for scripts/validator-instructions.sh"]
fn validator_instructions() {
    let Ok(spec) = std::env::var("VALIDATOR_INSTRUCTIONS") else {
        return;
    };
    let mut words = spec.split(' ');
    let (kind, pipeline, n) = (
        words.next().unwrap_or_default(),
        words.next().unwrap_or_default(),
        words.next().and_then(|n| n.parse().ok()).unwrap_or(0usize),
    );
    let (kind, sql) = statements()
        .into_iter()
        .find(|(k, _)| format!("{k:?}") == kind)
        .unwrap_or_else(|| panic!("no statement of kind {kind}"));
    for _ in 0..n {
        std::hint::black_box(run(kind, std::hint::black_box(&sql), pipeline == "new"))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Both pipelines accept every statement of the harness.
#[test]
fn the_benchmark_statements_are_accepted_by_both_pipelines() {
    let all = statements();
    assert_eq!(all.len(), 6);
    for (kind, sql) in all {
        for new in [false, true] {
            if let Err(e) = run(kind, &sql, new) {
                panic!("{kind:?} (new: {new}): {e}\n{sql}");
            }
        }
    }
}
