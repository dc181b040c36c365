//! The driver of Trino's grammar (`scripts/trino_parse.py`, run with the interpreter
//! `scripts/trino_grammar.sh` exports as `TRINO_GRAMMAR_PYTHON`): std only, so that the
//! library's own unit tests (`validate::parser`) include this file too.

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

/// `s` as a JSON string (the driver reads a JSON array, so any text survives: NUL,
/// newlines, an empty statement).
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
    // The driver either refuses some statements or counts them all.
    assert!(
        !out.status.success() || report.trim() == format!("parsed {}", statements.len()),
        "trino_parse.py did not read the statements as sent:\n{report}"
    );
    (report, out.status.success())
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
