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
//! The verdicts were first recorded with the validator that walked the tree through
//! sqlparser's derived `Visit`; the allow-list walker must reproduce each one. An entry
//! whose verdict was deliberately made stricter (syntax of other engines that the old
//! pass let through) keeps the old verdict and the reason in a `=> was …` line.
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

use iceberg_sql::validate::{inspect, validate_sql};
use iceberg_sql::{Dialect, StatementKind};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/validate_verdicts.txt"
);

/// How many words of a refusal's message the fixture keeps.
const MESSAGE_WORDS: usize = 8;

struct Entry {
    header: String,
    dialect: Dialect,
    kind: StatementKind,
    params: usize,
    sql: String,
    verdict: String,
    inspection: String,
    was: Option<String>,
}

fn dialect(name: &str) -> Dialect {
    match name {
        "Athena" => Dialect::Athena,
        "Spark" => Dialect::Spark,
        "Trino" => Dialect::Trino,
        "AthenaS3Tables" => Dialect::AthenaS3Tables,
        other => panic!("unknown dialect {other:?} in the fixture"),
    }
}

fn kind(name: &str) -> StatementKind {
    use StatementKind as K;
    let all = [
        K::CreateTable,
        K::DropTable,
        K::AlterTable,
        K::CreateTableAs,
        K::Insert,
        K::Update,
        K::Delete,
        K::Merge,
        K::Select,
        K::Optimize,
        K::Vacuum,
        K::Unload,
        K::ShowCreateTable,
        K::CreateDatabase,
        K::DropDatabase,
        K::ShowTables,
        K::Describe,
        K::CreateView,
        K::DropView,
        K::CreateStagingTable,
        K::DropStagingTable,
    ];
    all.into_iter()
        .find(|k| format!("{k:?}") == name)
        .unwrap_or_else(|| panic!("unknown statement kind {name:?} in the fixture"))
}

fn parse(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for block in text.split("#### ").filter(|b| !b.is_empty()) {
        let (header, rest) = block.split_once('\n').expect("a header line");
        let mut words = header.split(' ');
        let (d, k, p) = (
            words.next().expect("dialect"),
            words.next().expect("kind"),
            words.next().expect("parameter count"),
        );
        let mut sql = Vec::new();
        let mut marks = Vec::new();
        for line in rest.strip_suffix('\n').unwrap_or(rest).split('\n') {
            match line.strip_prefix("=> ") {
                Some(mark) => marks.push(mark.to_string()),
                None => {
                    assert!(marks.is_empty(), "SQL after a verdict in entry {header}");
                    sql.push(line);
                }
            }
        }
        let verdict = marks.first().cloned().unwrap_or_default();
        let inspection = marks
            .iter()
            .find(|m| m.starts_with("inspect "))
            .cloned()
            .unwrap_or_default();
        let was = marks.iter().find(|m| m.starts_with("was ")).cloned();
        entries.push(Entry {
            header: header.to_string(),
            dialect: dialect(d),
            kind: kind(k),
            params: p.parse().expect("a parameter count"),
            sql: sql.join("\n"),
            verdict,
            inspection,
            was,
        });
    }
    entries
}

fn verdict(e: &Entry) -> String {
    match validate_sql(&e.sql, e.kind, e.dialect, e.params) {
        Ok(()) => "accept".to_string(),
        Err(err) => {
            let at = err
                .location()
                .map_or("-".to_string(), |l| format!("{}:{}", l.line, l.column));
            let words: Vec<&str> = err
                .message()
                .split_whitespace()
                .take(MESSAGE_WORDS)
                .collect();
            format!("refuse {:?} {at} {}", err.kind(), words.join(" "))
        }
    }
}

fn inspection(e: &Entry) -> String {
    match inspect(&e.sql, e.kind, e.dialect) {
        Ok(read) => {
            let names: Vec<String> = read
                .names()
                .iter()
                .map(|n| match n.quote {
                    Some(q) => format!("{q}{}", n.value),
                    None => n.value.clone(),
                })
                .collect();
            format!(
                "inspect names={names:?} strings={:?}",
                read.string_literals()
            )
        }
        Err(err) => format!("inspect refused {:?}", err.kind()),
    }
}

#[test]
fn every_entry_keeps_its_recorded_verdict() {
    let path = std::env::var("VALIDATE_VERDICTS").unwrap_or_else(|_| FIXTURE.to_string());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = parse(&text);
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
        if v != e.verdict || i != e.inspection {
            differ.push(format!(
                "#### {}\n{}\n  recorded: {}\n            {}\n  now:      {v}\n            {i}",
                e.header, e.sql, e.verdict, e.inspection
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
