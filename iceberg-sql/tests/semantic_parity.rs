//! A builder call means Athena's (Trino's) result on every target: the exact text each
//! target gets where an engine's own reading of the plain form would differ.
//!
//! The rows each form selects on the real Spark engine are checked by
//! `tests/tests/e2e_semantic_parity.rs`; here, the text, and (for the Trino-grammar
//! targets) that Trino's own parser reads it.

mod trino_grammar;

use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;

#[derive(IcebergTable, Debug, Clone)]
#[iceberg(
    database = "parity",
    name = "nums",
    location = "s3://parity-bucket/iceberg/nums/"
)]
pub struct Num {
    pub id: i64,
    pub score: Option<i64>,
}

const TARGETS: [Dialect; 3] = [Dialect::Athena, Dialect::Trino, Dialect::Spark];

/// `(target, text)` of `build(target)` for every target.
fn texts(build: impl Fn(Dialect) -> iceberg_sql::Result<Statement>) -> Vec<(Dialect, String)> {
    TARGETS
        .iter()
        .map(|&d| (d, build(d).expect("builds").sql().to_string()))
        .collect()
}

/// Each text Athena and Trino get parses in Trino's grammar.
fn trino_parses(statements: &[(Dialect, String)]) {
    let Some(python) = trino_grammar::python() else {
        return;
    };
    let trino: Vec<&str> = statements
        .iter()
        .filter(|(d, _)| *d != Dialect::Spark)
        .map(|(_, s)| s.as_str())
        .collect();
    assert!(!trino.is_empty());
    trino_grammar::assert_grammar_parses(&python, &trino);
}

/// Athena sorts NULLs last in both directions; Spark first when ascending. Spark gets
/// the NULL order written where its default differs; an explicit `NULLS FIRST` is
/// written for every target.
#[test]
fn null_order_is_athenas_on_every_target() {
    let top = |o: Order| {
        move |d| {
            Num::select()
                .column(Num::ID)
                .order_by(Num::SCORE, o)
                .limit(3)
                .build_for(d)
        }
    };
    let mut all = Vec::new();
    for (order, athena, spark) in [
        (Order::Asc, "ASC", "ASC NULLS LAST"),
        (Order::Desc, "DESC", "DESC"),
        (Order::AscNullsFirst, "ASC NULLS FIRST", "ASC"),
        (
            Order::DescNullsFirst,
            "DESC NULLS FIRST",
            "DESC NULLS FIRST",
        ),
    ] {
        let got = texts(top(order));
        let want = |dir: &str| format!("SELECT id FROM parity.nums ORDER BY score {dir} LIMIT 3");
        assert_eq!(
            got,
            vec![
                (Dialect::Athena, want(athena)),
                (Dialect::Trino, want(athena)),
                (Dialect::Spark, want(spark)),
            ],
            "{order:?}"
        );
        all.extend(got);
    }
    trino_parses(&all);
}
