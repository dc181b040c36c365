//! Every statement the test suite's builders returned, read again by the oracle (the
//! sqlparser pipeline, independent of our parser): the statement log
//! (`crate::statement_log`) that `scripts/test.sh` keeps during the run. Each was
//! accepted by the validator when it was built, so each must be accepted here too. Run
//! by `scripts/test.sh` after the suite (`--ignored`); without a log it fails when `CI`
//! is set.

use std::collections::BTreeSet;

use super::validate_sql as validate;
use crate::statement_log::LOG_DIR_VAR;
use crate::validate::tests::verdict_fixture::{dialect, kind};

/// One logged statement: dialect, kind and parameter count as logged, and the SQL.
type Logged = (String, String, usize, String);

/// The distinct statements of the log files in `dir`.
fn read_log(dir: &std::path::Path) -> BTreeSet<Logged> {
    let mut out = BTreeSet::new();
    let files = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for f in files.flatten() {
        let path = f.path();
        if path.extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            // The last line of a test process that died while writing it is cut short.
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let field = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            let params = v["params"].as_u64().unwrap_or_default() as usize;
            out.insert((field("dialect"), field("kind"), params, field("sql")));
        }
    }
    out
}

/// Texts this pipeline refuses though the statement is right: a text of one of
/// `dialects` holding `needle` is refused for `reason`, while Trino's grammar or Spark's
/// parser (the suite's re-parse of every logged statement of their grammar), or the tests
/// of its AWS page, read it.
const SQLPARSER_GAPS: &[(&[&str], &str, &str)] = &[
    (
        &["Athena", "Trino"],
        "INSERT INTO local.",
        "sqlparser reads `local` after INSERT INTO as a keyword; LOCAL is one of the nonReserved words of Trino's SqlBase.g4, a schema name there",
    ),
    (
        &["Athena"],
        " ADD IF NOT EXISTS\n  PARTITION (",
        "this pipeline's ALTER TABLE hook reads Athena's column and property forms only; ADD PARTITION is held to its AWS page by iceberg-sql/tests/ctas_statements.rs",
    ),
    (
        &["Spark"],
        " PARTITION FIELD ",
        "this pipeline's Spark ALTER TABLE hook has no partition evolution; Spark's parser with Iceberg's SQL extensions reads it",
    ),
];

/// The logged statements in `dir` this pipeline refuses, each with its refusal (those
/// [`SQLPARSER_GAPS`] explains apart), and how many distinct statements the log holds.
fn refused_in(dir: &std::path::Path) -> (usize, Vec<String>, Vec<String>) {
    let logged = read_log(dir);
    let (mut refused, mut explained) = (Vec::new(), Vec::new());
    for (d, k, params, sql) in &logged {
        let Err(e) = validate(sql, kind(k), dialect(d), *params) else {
            continue;
        };
        let gap = SQLPARSER_GAPS
            .iter()
            .find(|(dialects, needle, _)| dialects.contains(&d.as_str()) && sql.contains(needle));
        match gap {
            Some((_, _, reason)) => explained.push(format!("{d} {k}: {reason}")),
            None => refused.push(format!("#### {d} {k} {params}\n{sql}\n=> {e}")),
        }
    }
    (logged.len(), refused, explained)
}

#[test]
#[ignore = "run by scripts/test.sh after the suite, over the statement log it keeps"]
fn every_statement_the_suite_built_is_accepted() {
    let Some(dir) = std::env::var_os(LOG_DIR_VAR) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{LOG_DIR_VAR} is not set: run scripts/test.sh"
        );
        eprintln!("SKIP: {LOG_DIR_VAR} is not set");
        return;
    };
    let (logged, refused, explained) = refused_in(std::path::Path::new(&dir));
    assert!(logged > 0, "the statement log in {dir:?} is empty");
    println!(
        "sqlparser's pipeline (the oracle) read {logged} distinct logged statements: {} refused, {} more where sqlparser differs from Trino's grammar",
        refused.len(),
        explained.len()
    );
    for e in &explained {
        println!("  {e}");
    }
    assert!(
        refused.is_empty(),
        "{} of {logged} statements the builders returned are refused by sqlparser's pipeline:\n{}",
        refused.len(),
        refused.join("\n")
    );
}

/// The reader on a log of its own: a line cut short is skipped, a repeated statement
/// read once, and a statement this pipeline refuses is reported.
#[test]
fn a_refused_logged_statement_is_reported() {
    let dir = std::env::temp_dir().join(format!("iceberg-sql-logged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let good = r#"{"dialect":"Athena","grammar":"TrinoDml","kind":"Select","params":1,"sql":"SELECT a FROM t WHERE b = ?"}"#;
    let bad = r#"{"dialect":"Trino","grammar":"TrinoDml","kind":"Delete","params":0,"sql":"DELETE FROM t WHERE a = 'x' -- '"}"#;
    let gap = r#"{"dialect":"Trino","grammar":"TrinoDml","kind":"Insert","params":0,"sql":"INSERT INTO local.t (a) VALUES (1)"}"#;
    let text = format!("{good}\n{good}\n{bad}\n{gap}\n{{\"dialect\":\"Ath");
    std::fs::write(dir.join("1.jsonl"), text).expect("the log is written");
    let (logged, refused, explained) = refused_in(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(logged, 3);
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].contains("comment"), "{}", refused[0]);
    assert_eq!(explained.len(), 1, "{explained:?}");
}
