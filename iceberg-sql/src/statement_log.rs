//! A log of every statement `build()` returns, for this repository's test suite (the
//! `statement-log` feature; off by default, and nothing is written unless the
//! environment names a directory).
//!
//! With `ICEBERG_SQL_STATEMENT_LOG=<dir>` set, each process appends one JSON line per
//! statement to `<dir>/<pid>.jsonl`: `{"dialect", "grammar", "kind", "params", "sql"}`
//! (`params`: how many `?` parameters it binds).
//! `scripts/test.sh` sets it and, after the tests, has parsers independent of ours
//! read every logged statement: Trino's own grammar the Trino-grammar ones and Spark's
//! parser the Spark ones (`scripts/reparse_statement_log.py`). So a statement shape that
//! only some test builds is checked too, not only the shapes of a fixed corpus.

use std::fs::File;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use crate::statement::Statement;

/// The environment variable naming the log directory.
pub const LOG_DIR_VAR: &str = "ICEBERG_SQL_STATEMENT_LOG";

/// This process's log file, opened on first use (`None`: not logging, or it could not
/// be opened; logging never makes a `build()` fail).
fn log_file() -> Option<&'static Mutex<File>> {
    static FILE: OnceLock<Option<Mutex<File>>> = OnceLock::new();
    FILE.get_or_init(|| {
        let dir = std::env::var_os(LOG_DIR_VAR)?;
        let path = std::path::Path::new(&dir).join(format!("{}.jsonl", std::process::id()));
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
            .map(Mutex::new)
    })
    .as_ref()
}

/// Appends `stmt` to the log, if one is configured. Written in pieces, straight to the
/// file: a copy of the statement would change what the memory tests measure.
pub(crate) fn record(stmt: &Statement) {
    let Some(file) = log_file() else { return };
    let Ok(mut f) = file.lock() else { return };
    let dialect = stmt.dialect();
    let kind = stmt.kind();
    // The whole line under the lock, so the lines of parallel tests do not interleave.
    let _ = write!(
        f,
        "{{\"dialect\":\"{dialect:?}\",\"grammar\":\"{:?}\",\"kind\":\"{kind:?}\",\"params\":{},\"sql\":\"",
        dialect.grammar(kind),
        stmt.params().len()
    )
    .and_then(|()| write_json_body(&mut *f, stmt.sql()))
    .and_then(|()| f.write_all(b"\"}\n"));
}

/// `s` escaped as the inside of a JSON string: runs that need no escape are written as
/// they are.
fn write_json_body(out: &mut impl Write, s: &str) -> std::io::Result<()> {
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'"' || b == b'\\' || b < 0x20 {
            out.write_all(&bytes[run..i])?;
            match b {
                b'"' => out.write_all(b"\\\"")?,
                b'\\' => out.write_all(b"\\\\")?,
                _ => write!(out, "\\u{b:04x}")?,
            }
            run = i + 1;
        }
    }
    out.write_all(&bytes[run..])
}
