//! Trino's own grammar (trino-query-parser: SqlBase.g4, set up by
//! `scripts/trino_grammar.sh`, which exports `TRINO_GRAMMAR_PYTHON`) on what ours reads
//! in Trino's grammar (expressions, queries, DML) and on what ours refuses there on
//! purpose.

use super::expr::{BOTH_GRAMMARS, TRINO_ONLY};
use super::query::QUERIES;
use super::statement::{STATEMENTS, TRINO_CTAS, TRINO_ONLY_STATEMENTS, TRINO_REFUSED_STATEMENTS};
use super::*;

/// The interpreter with Trino's grammar, or `None` (SKIP) when it is not set up; with
/// `CI` set that is a failure.
fn python() -> Option<String> {
    if let Some(p) = std::env::var_os("TRINO_GRAMMAR_PYTHON") {
        return Some(p.to_string_lossy().into_owned());
    }
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false");
    assert!(
        !ci,
        "CI is set but TRINO_GRAMMAR_PYTHON is not: run `source scripts/trino_grammar.sh && ensure_trino_grammar`"
    );
    eprintln!("SKIP: TRINO_GRAMMAR_PYTHON not set (scripts/trino_grammar.sh sets it up)");
    None
}

/// `s` as a JSON string.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The indexes of `statements` Trino's grammar refuses (`scripts/trino_parse.py`).
fn refused(python: &str, statements: &[String]) -> Vec<usize> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/trino_parse.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run scripts/trino_parse.py");
    let json = format!(
        "[{}]",
        statements
            .iter()
            .map(|s| json_string(s))
            .collect::<Vec<_>>()
            .join(",")
    );
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(json.as_bytes())
        .expect("write statements");
    let out = child.wait_with_output().expect("trino_parse.py output");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        assert_eq!(report.trim(), format!("parsed {}", statements.len()));
        return Vec::new();
    }
    report
        .lines()
        .filter_map(|l| l.split('\t').next()?.parse().ok())
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
