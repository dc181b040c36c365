//! The validator's verdict on a fixed corpus, entry by entry.
//!
//! `fixtures/validate_verdicts.txt` holds statement texts: a sample of what the
//! builders, the validator tests and the snapshot tests pass through `validate_sql`
//! (per dialect and kind), and corrupted or hostile variants (a second statement, a
//! stray quote, a string ended early, a comment, each refusal class of the allow-list,
//! and expression forms users write). Each entry records the verdict (accepted, or
//! refused with the error kind, position and the message's first words) and, for an
//! accepted entry, what [`inspect`] reads from it (names and string literals in text
//! order).
//!
//! The verdicts are our validator's. `tests/sqlparser_reading.rs` holds them to
//! sqlparser's own reading of each text (feature `sqlparser`). An entry whose verdict is
//! stricter than an earlier recording (syntax of other engines) keeps that verdict and
//! the reason in a `=> was …` line.
//!
//! Entry format:
//!
//! ```text
//! #### <Dialect> <StatementKind> <parameter count>
//! <the SQL, one or more lines>
//! => accept | => refuse <ErrorKind> <line>:<column> <first words of the message>
//! => inspect names=[…] strings=[…]            (accepted entries only)
//! [=> was <the recorded verdict> -- stricter: <why it is refused now>]
//! ```
//!
//! `VALIDATE_VERDICTS_BLESS=1` rewrites the verdict lines from the current validator
//! (review the diff before committing it); `VALIDATE_VERDICTS=<path>` reads another file.

use iceberg_sql::validate::{inspect, validate_sql, Inspection};
use iceberg_sql::{Dialect, Error, StatementKind};

#[path = "fixtures/verdicts.rs"]
mod fixture;

use fixture::Entry;

fn verdict(e: &Entry) -> String {
    fixture::verdict(validate_sql(&e.sql, e.kind, e.dialect, e.params))
}

fn inspection(e: &Entry) -> String {
    match inspect(&e.sql, e.kind, e.dialect) {
        Ok(read) => fixture::inspection(&read),
        Err(err) => format!("inspect refused {:?}", err.kind()),
    }
}

#[test]
fn every_entry_keeps_its_recorded_verdict() {
    let path = std::env::var("VALIDATE_VERDICTS").unwrap_or_else(|_| fixture::PATH.to_string());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = fixture::parse(&text);
    assert!(
        entries.len() > 1000,
        "the corpus lost entries: {}",
        entries.len()
    );
    let bless = std::env::var_os("VALIDATE_VERDICTS_BLESS").is_some();
    let mut out = String::new();
    let mut differ = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for e in &entries {
        let v = verdict(e);
        // What inspect reads back matters for text the validator accepts.
        let i = if v == "accept" {
            inspection(e)
        } else {
            String::new()
        };
        if v == "accept" {
            accepted += 1;
        } else {
            refused += 1;
        }
        if let Some(was) = &e.was {
            assert!(
                v.starts_with("refuse ") && was.contains(" -- stricter: "),
                "entry {} marks a stricter verdict but is {v}: {was}",
                e.header
            );
        }
        let recorded_inspection = e.inspection.clone().unwrap_or_default();
        if v != e.verdict || i != recorded_inspection {
            differ.push(format!(
                "#### {}\n{}\n  recorded: {}\n            {}\n  now:      {v}\n            {i}",
                e.header, e.sql, e.verdict, recorded_inspection
            ));
        }
        out.push_str(&format!("#### {}\n{}\n=> {v}\n", e.header, e.sql));
        if !i.is_empty() {
            out.push_str(&format!("=> {i}\n"));
        }
        if let Some(was) = &e.was {
            out.push_str(&format!("=> {was}\n"));
        }
    }
    assert!(
        accepted > 500 && refused > 200,
        "{accepted} accepted, {refused} refused"
    );
    if bless {
        std::fs::write(&path, out).unwrap_or_else(|e| panic!("{path}: {e}"));
        return;
    }
    assert!(
        differ.is_empty(),
        "{} of {} entries changed verdict:\n{}",
        differ.len(),
        entries.len(),
        differ[..differ.len().min(20)].join("\n\n")
    );
}
