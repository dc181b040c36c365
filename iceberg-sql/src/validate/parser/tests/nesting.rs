//! Nesting and chains: our parser's depth limit gives the sqlparser path's verdicts
//! (`validate::tests`'s `deep_nesting_*`, `nesting_beyond_the_limit_is_an_error_not_a_crash`,
//! `hostile_nesting_is_an_error_not_a_crash` and the longest chains), with its error kind
//! and hint, and no input overflows a 2 MiB stack in an unoptimised build.

use super::*;
use crate::validate::oracle::validate_sql;
use crate::validate::parser::Rules;
use crate::validate::tests::{
    deep_nesting_inputs, hostile_nesting_inputs, longest_chains, on_2_mib_thread,
};
use crate::validate::NESTING_HINT;

/// Our parser's reading of `sql` as a statement of `kind` in `dialect`'s grammar.
fn ours(sql: &str, kind: StatementKind, dialect: Dialect) -> crate::Result<Statement> {
    parse_statement(sql, Rules::of(dialect.grammar(kind)))
}

#[test]
fn deep_nesting_reads() {
    on_2_mib_thread(|| {
        for (sql, kind, dialect) in deep_nesting_inputs() {
            validate_sql(&sql, kind, dialect, 0).unwrap_or_else(|e| panic!("{e}"));
            let s = ours(&sql, kind, dialect).unwrap_or_else(|e| panic!("{e}"));
            assert!(fixture::is_of_kind(&s, kind), "{s:?}");
        }
    });
}

#[test]
fn nesting_beyond_the_limit_gives_the_same_verdicts() {
    on_2_mib_thread(|| {
        for depth in [40usize, 100, 126, 127, 128, 129, 1000, 20_000] {
            let sql = format!("SELECT {}1{}", "(".repeat(depth), ")".repeat(depth));
            let theirs = validate_sql(&sql, StatementKind::Select, Dialect::Athena, 0);
            let ours = ours(&sql, StatementKind::Select, Dialect::Athena);
            assert_eq!(ours.is_ok(), theirs.is_ok(), "depth {depth}: {theirs:?}");
            if let Err(e) = ours {
                assert_eq!(e.kind(), ErrorKind::Syntax, "depth {depth}");
                assert!(
                    e.message().contains("limit of 128 levels"),
                    "depth {depth}: {e}"
                );
                assert_eq!(e.hint(), Some(NESTING_HINT), "depth {depth}");
            }
        }
    });
}

#[test]
fn hostile_nesting_is_refused_as_the_sqlparser_path_refuses_it() {
    let inputs = hostile_nesting_inputs();
    on_2_mib_thread(|| {
        for (sql, kind, dialect) in &inputs {
            let at = &sql[..40];
            let theirs = validate_sql(sql, *kind, *dialect, 0).expect_err(at);
            let e = ours(sql, *kind, *dialect).expect_err(at);
            assert_eq!(e.kind(), theirs.kind(), "{at}: {e}");
            assert_eq!(e.kind(), ErrorKind::Syntax, "{at}: {e}");
            assert_eq!(e.hint(), Some(NESTING_HINT), "{at}: {e}");
            assert!(crate::validate::inspect::inspect(sql, *kind, *dialect).is_err());
        }
    });
}

#[test]
fn long_chains_read_and_drop_on_a_small_stack() {
    let links = |op: &str| format!("SELECT {} FROM t", vec!["a"; 10_000].join(op));
    on_2_mib_thread(|| {
        for op in [" OR ", " AND ", " + ", " || ", " * "] {
            let sql = links(op);
            for dialect in [Dialect::Athena, Dialect::Spark] {
                validate_sql(&sql, StatementKind::Select, dialect, 0)
                    .unwrap_or_else(|e| panic!("{op}: {e}"));
                ours(&sql, StatementKind::Select, dialect).unwrap_or_else(|e| panic!("{op}: {e}"));
                let read = crate::validate::inspect::inspect(&sql, StatementKind::Select, dialect)
                    .unwrap_or_else(|e| panic!("{op}: {e}"));
                assert_eq!(read.names().len(), 10_001, "{op}");
            }
        }
        // The longest chains the size limit admits: the sum reads, as it passes the
        // sqlparser path; the `IS NULL` chain is refused by both (one predicate per
        // value in Trino's grammar).
        let (sums, nulls) = longest_chains();
        ours(&sums, StatementKind::Select, Dialect::Athena).unwrap_or_else(|e| panic!("{e}"));
        let e = ours(&nulls, StatementKind::Select, Dialect::Athena).expect_err("IS NULL IS NULL");
        assert_eq!(e.kind(), ErrorKind::Syntax, "{e}");
    });
}

/// At the limit each form is read, as by the sqlparser path, one level more is refused.
/// Nested `CASE`s, `ARRAY`s and `NOT`s at the limit go past the caller's stack budget
/// (the `CASE`s take about 1.2 MiB), so they are read again on the big stack, to the
/// same verdict.
#[test]
fn the_limit_is_where_the_sqlparser_paths_limit_is() {
    type Nested = fn(usize) -> String;
    let forms: [(&str, Nested); 4] = [
        ("parentheses", |d| {
            format!("SELECT {}1{}", "(".repeat(d), ")".repeat(d))
        }),
        ("CASE", |d| {
            format!(
                "SELECT {}1{}",
                "CASE WHEN a THEN ".repeat(d),
                " END".repeat(d)
            )
        }),
        ("ARRAY", |d| {
            format!("SELECT {}1{}", "ARRAY[".repeat(d), "]".repeat(d))
        }),
        ("NOT", |d| format!("SELECT {}a", "NOT ".repeat(d))),
    ];
    on_2_mib_thread(|| {
        for (form, nested) in forms {
            let deepest = nested(125);
            validate_sql(&deepest, StatementKind::Select, Dialect::Athena, 0)
                .unwrap_or_else(|e| panic!("{form}: {e}"));
            ours(&deepest, StatementKind::Select, Dialect::Athena)
                .unwrap_or_else(|e| panic!("{form}: {e}"));
            let past = nested(126);
            let theirs =
                validate_sql(&past, StatementKind::Select, Dialect::Athena, 0).expect_err(form);
            let e = ours(&past, StatementKind::Select, Dialect::Athena).expect_err(form);
            assert_eq!(e.kind(), theirs.kind(), "{form}: {e}");
            assert_eq!(e.hint(), Some(NESTING_HINT), "{form}: {e}");
        }
    });
}

/// Other forms nested or chained 10,000 times (within the size limit): no overflow on a
/// 2 MiB stack, and ours reads what the sqlparser path reads and refuses what it
/// refuses (for chains that do not parse, or nesting past the limit).
#[test]
fn other_nested_and_chained_forms_get_the_same_verdicts() {
    let n = |s: &str, k: usize| s.repeat(k);
    let k = 10_000;
    let texts: Vec<(String, Dialect)> = vec![
        (
            format!("SELECT * FROM {}t{}", n("(", k), n(")", k)),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}1{}", n("f(", k), n(")", k)),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}1{}", n("CAST(", k), n(" AS integer)", k)),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}1{}", n("ROW(", k), n(")", k)),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}1{}", n("a[", k), n("]", k)),
            Dialect::Athena,
        ),
        (format!("SELECT a{}", n("[1]", k)), Dialect::Athena),
        (format!("SELECT (a){}", n(".b", k)), Dialect::Athena),
        (
            format!("SELECT a{}", n(" AT TIME ZONE 'UTC'", 10_000)),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}1{}", n("(SELECT ", k), n(")", k)),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}1", n("EXISTS (SELECT ", k)),
            Dialect::Athena,
        ),
        (
            format!("{}SELECT 1{}", n("WITH a AS (", k), n(")", k)),
            Dialect::Athena,
        ),
        (format!("SELECT {}1", n("+ ", k)), Dialect::Athena),
        (
            format!("SELECT a {}1{}", n("IN (", k), n(")", k)),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}1{}", n("struct(", k), n(")", k)),
            Dialect::Spark,
        ),
        (
            format!("SELECT {}1{}", n("array(", k), n(")", k)),
            Dialect::Spark,
        ),
        (
            format!("SELECT {}1{}", n("INTERVAL ", k), " DAY"),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}", vec!["a"; k].join(" = ")),
            Dialect::Spark,
        ),
        (
            format!("SELECT {}", vec!["a"; k].join(" BETWEEN 1 AND ")),
            Dialect::Athena,
        ),
        (
            format!("SELECT {}", vec!["a"; k].join(" LIKE ")),
            Dialect::Athena,
        ),
        (
            format!("SELECT * FROM t WHERE {}", vec!["a"; k].join(" OR ")),
            Dialect::Athena,
        ),
        (
            format!("SELECT * FROM t {}", n("JOIN t ON a ", k)),
            Dialect::Athena,
        ),
        (
            format!("SELECT * FROM {}t{}", n("(SELECT * FROM ", k), n(")", k)),
            Dialect::Spark,
        ),
        (
            format!(
                "MERGE INTO t USING {}s{} ON a WHEN MATCHED THEN DELETE",
                n("(SELECT * FROM ", k),
                n(")", k)
            ),
            Dialect::Athena,
        ),
    ];
    on_2_mib_thread(|| {
        for (sql, d) in &texts {
            let kind = if sql.starts_with("MERGE") {
                StatementKind::Merge
            } else {
                StatementKind::Select
            };
            assert!(
                sql.len() <= crate::statement::MAX_QUERY_BYTES,
                "{}",
                &sql[..30]
            );
            let theirs = validate_sql(sql, kind, *d, 0);
            match ours(sql, kind, *d) {
                Ok(_) => assert!(theirs.is_ok(), "{}: {theirs:?}", &sql[..30]),
                Err(e) => {
                    assert_eq!(e.kind(), ErrorKind::Syntax, "{}: {e}", &sql[..30]);
                    assert!(theirs.is_err(), "{}: ours refuses: {e}", &sql[..30]);
                }
            }
        }
    });
}
