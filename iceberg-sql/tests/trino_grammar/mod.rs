//! Trino's own SQL grammar as a second parser for tests: `scripts/trino_grammar.sh` sets
//! up trino-query-parser (Trino's ANTLR grammar, SqlBase.g4) and exports
//! `TRINO_GRAMMAR_PYTHON`; `scripts/trino_parse.py` is the driver run with it.
#![allow(dead_code)]

/// The interpreter with Trino's grammar installed, or `None` (the test prints SKIP) when
/// it is not set up; with `CI` set that is a failure.
pub fn python() -> Option<String> {
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

/// Runs `scripts/trino_parse.py` over `statements`: its report (one `index\terror` line
/// per statement the grammar refuses, else `parsed N`) and whether all parsed.
pub fn parse(python: &str, statements: &[String]) -> (String, bool) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/trino_parse.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run scripts/trino_parse.py");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(statements.join("\0").as_bytes())
        .expect("write statements");
    let out = child.wait_with_output().expect("trino_parse.py output");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
    )
}

/// The indices of the statements Trino's grammar refuses, with its message, from
/// [`parse`]'s report.
pub fn refused(report: &str) -> Vec<(usize, String)> {
    report
        .lines()
        .filter_map(|l| {
            let (i, e) = l.split_once('\t')?;
            Some((i.parse().ok()?, e.to_string()))
        })
        .collect()
}
