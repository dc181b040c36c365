//! Trino's own grammar (trino-query-parser: SqlBase.g4, set up by
//! `scripts/trino_grammar.sh`, which exports `TRINO_GRAMMAR_PYTHON`) on what ours reads
//! in Trino's grammar (expressions, queries, DML) and on what ours refuses there on
//! purpose.

use super::expr::{BOTH_GRAMMARS, TRINO_ONLY};
use super::query::QUERIES;
use super::statement::{STATEMENTS, TRINO_CTAS, TRINO_ONLY_STATEMENTS, TRINO_REFUSED_STATEMENTS};
use super::*;

// The integration tests' driver of Trino's grammar, shared rather than copied.
#[allow(dead_code)]
#[path = "../../../../tests/trino_grammar/driver.rs"]
mod driver;
use driver::python;

/// The indexes of `statements` Trino's grammar refuses.
fn refused(python: &str, statements: &[String]) -> Vec<usize> {
    let (report, _) = driver::parse(python, statements);
    driver::refused(&report)
        .into_iter()
        .map(|(i, _)| i)
        .collect()
}

/// Every expression and query ours reads in Trino's grammar, Trino's grammar reads; the
/// differences listed as deliberate for Trino are Trino's grammar's refusals (but the
/// legacy `array<T>`, which it still reads).
#[test]
fn trinos_grammar_agrees() {
    let Some(python) = python() else { return };
    let mut accepted: Vec<String> = BOTH_GRAMMARS
        .iter()
        .chain(TRINO_ONLY)
        .map(|e| {
            parse_expr(e, &Rules::TRINO).unwrap_or_else(|err| panic!("{e}: {err}"));
            format!("SELECT {e}")
        })
        .collect();
    accepted.extend(QUERIES.iter().map(|q| {
        parse_query(q, &Rules::TRINO).unwrap_or_else(|err| panic!("{q}: {err}"));
        q.to_string()
    }));
    accepted.extend(
        STATEMENTS
            .iter()
            .chain(TRINO_ONLY_STATEMENTS)
            .chain(TRINO_CTAS)
            .map(|s| {
                parse_statement(s, &Rules::TRINO).unwrap_or_else(|err| panic!("{s}: {err}"));
                s.to_string()
            }),
    );
    let bad = refused(&python, &accepted);
    assert!(
        bad.is_empty(),
        "Trino's grammar refuses {:?}",
        bad.iter().map(|&i| &accepted[i]).collect::<Vec<_>>()
    );

    let deliberate = [
        "a = b = c",
        "a IS NULL IS NULL",
        "a = b IS NULL",
        "a = NOT b",
        "a NOT NULL",
        "count(x) FILTER (",
        "CAST(x AS decimal(10, +2))",
        "s.? + 1",
        "INTERVAL a DAY",
    ];
    let statements: Vec<String> = deliberate
        .iter()
        .map(|e| {
            parse_expr(e, &Rules::TRINO).expect_err(e);
            format!("SELECT {e}")
        })
        .chain(TRINO_REFUSED_STATEMENTS.iter().map(|s| {
            parse_statement(s, &Rules::TRINO).expect_err(s);
            s.to_string()
        }))
        .collect();
    assert_eq!(
        refused(&python, &statements),
        (0..statements.len()).collect::<Vec<_>>()
    );
    assert!(refused(&python, &["SELECT CAST(x AS array<integer>)".to_string()]).is_empty());
}

/// Every statement on tables, views and databases of the verdict corpus that ours
/// reads in Trino's grammar (Athena's views and CTAS, the Trino target's DDL and its
/// `ALTER TABLE … EXECUTE`), and each hand-written one ours reads there, Trino's
/// grammar reads.
#[test]
fn trinos_grammar_reads_the_corpus_ddl() {
    let Some(python) = python() else { return };
    let statements: Vec<String> = super::fixture::entries()
        .into_iter()
        .filter(|e| {
            e.dialect.grammar(e.kind) == crate::dialect::Grammar::TrinoDml
                && (super::fixture::DDL_KINDS.contains(&e.kind)
                    || matches!(
                        e.kind,
                        StatementKind::CreateTableAs
                            | StatementKind::Optimize
                            | StatementKind::Vacuum
                    ))
                && parse_statement(&e.sql, &Rules::TRINO).is_ok()
        })
        .map(|e| e.sql)
        .collect();
    assert!(statements.len() > 40, "{} statements", statements.len());
    let mut statements = statements;
    // The hand-written forms ours reads in Trino's rules.
    statements.extend(
        super::ddl::DDL_CASES
            .iter()
            .filter(|(_, verdicts)| verdicts[1].is_none())
            .map(|(sql, _)| sql.to_string()),
    );
    let bad = refused(&python, &statements);
    assert!(
        bad.is_empty(),
        "Trino's grammar refuses {:?}",
        bad.iter().map(|&i| &statements[i]).collect::<Vec<_>>()
    );
}
