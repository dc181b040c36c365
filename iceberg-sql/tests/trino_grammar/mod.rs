//! Trino's own SQL grammar as a second parser for tests: `scripts/trino_grammar.sh` sets
//! up trino-query-parser (Trino's ANTLR grammar, SqlBase.g4) and exports
//! `TRINO_GRAMMAR_PYTHON`; `scripts/trino_parse.py` is the driver run with it.
//!
//! [`differential`] runs a corpus through our validator and Trino's grammar and says
//! where they disagree.
#![allow(dead_code)]

use std::collections::HashMap;

use iceberg_sql::validate::validate_sql;
use iceberg_sql::{Dialect, Grammar, StatementKind};

mod driver;
pub use driver::{parse, python, refused};

/// The targets whose statements of the DML kinds are Trino grammar (Athena's DDL is
/// Hive's, and its UNLOAD its own).
pub const TRINO_TARGETS: [Dialect; 2] = [Dialect::Trino, Dialect::Athena];

/// One statement of a corpus: the kind it is validated as, and its text.
pub struct Case {
    pub kind: StatementKind,
    pub sql: String,
}

/// What the validator said of each case for each target.
pub struct Verdicts {
    /// Target and text of every acceptance.
    pub accepted: Vec<(Dialect, String)>,
    /// Target, text and message of every refusal.
    pub refused: Vec<(Dialect, String, String)>,
}

/// Runs every case through `validate_sql` for each of `targets` that writes its kind in
/// Trino grammar (Athena writes its DDL in Hive's, which is not compared).
pub fn verdicts(cases: &[Case], targets: &[Dialect]) -> Verdicts {
    let mut v = Verdicts {
        accepted: Vec::new(),
        refused: Vec::new(),
    };
    for case in cases {
        for &d in targets {
            if d.grammar(case.kind) != Grammar::TrinoDml {
                continue;
            }
            match validate_sql(&case.sql, case.kind, d, 0) {
                Ok(()) => v.accepted.push((d, case.sql.clone())),
                Err(e) => v
                    .refused
                    .push((d, case.sql.clone(), e.message().to_string())),
            }
        }
    }
    v
}

/// Checks `verdicts` of `cases` against Trino's grammar: fails with every text we
/// accept that the grammar refuses, and prints (for `--nocapture`) the texts the grammar
/// parses and we refuse, which is allowed (we may be stricter). The grammar must refuse
/// some of the corpus and accept some, or the check proves nothing.
pub fn assert_accepted_parse(python: &str, cases: &[Case], verdicts: &Verdicts) {
    let mut texts: Vec<String> = cases.iter().map(|c| c.sql.clone()).collect();
    // Athena takes a statement ended by one `;` (Trino's grammar does not): what Athena
    // accepts is checked without it.
    let checked = |d: &Dialect, sql: &str| -> String {
        match (d, sql.trim_end().strip_suffix(';')) {
            (Dialect::Athena, Some(stmt)) => stmt.to_string(),
            _ => sql.to_string(),
        }
    };
    for (d, sql) in &verdicts.accepted {
        let c = checked(d, sql);
        if &c != sql {
            texts.push(c);
        }
    }
    let (report, _) = parse(python, &texts);
    let trino_refuses: HashMap<usize, String> = refused(&report).into_iter().collect();
    let index: HashMap<&str, usize> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    let refusal = |sql: &str| index.get(sql).and_then(|i| trino_refuses.get(i));
    assert!(
        !trino_refuses.is_empty() && trino_refuses.len() < texts.len(),
        "the grammar should refuse some of the corpus and accept some:\n{report}"
    );

    let wrong: Vec<String> = verdicts
        .accepted
        .iter()
        .filter_map(|(d, sql)| {
            let e = refusal(&checked(d, sql))?;
            Some(format!(
                "{d:?} accepts, Trino refuses: {sql:?}\n  Trino: {e}"
            ))
        })
        .collect();

    let mut stricter: Vec<&str> = verdicts
        .refused
        .iter()
        .filter(|(_, sql, _)| refusal(sql).is_none())
        .map(|(_, sql, _)| sql.as_str())
        .collect();
    stricter.dedup();
    eprintln!(
        "{} texts Trino's grammar parses and we refuse (allowed):",
        stricter.len()
    );
    for s in &stricter {
        eprintln!("  {s:?}");
    }

    assert!(
        wrong.is_empty(),
        "{} texts we accept are not Trino grammar:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Texts Trino's grammar accepts and Trino then refuses (when it builds the syntax tree
/// or analyses it): every one is refused by each Trino-grammar target, with a message
/// that contains the rule's words and a position. Each entry is (kind, text, words).
pub fn assert_refused_beyond_the_grammar(rules: &[(StatementKind, &str, &str)]) {
    let mut missed = Vec::new();
    for &(kind, sql, says) in rules {
        for d in TRINO_TARGETS
            .into_iter()
            .filter(|d| d.grammar(kind) == Grammar::TrinoDml)
        {
            match validate_sql(sql, kind, d, 0) {
                Ok(()) => missed.push(format!("{d:?} accepts: {sql:?}")),
                Err(e) if !e.message().contains(says) => missed.push(format!(
                    "{d:?} refuses {sql:?} without saying {says:?}: {}",
                    e.message()
                )),
                Err(e) if e.location().is_none() => {
                    missed.push(format!("{d:?} refuses {sql:?} without a position: {e}"))
                }
                Err(_) => {}
            }
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// The texts of a beyond-the-grammar list parse in Trino's grammar (else they belong to
/// the differential corpus, which checks them already).
pub fn assert_grammar_parses(python: &str, texts: &[&str]) {
    let texts: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
    let (report, ok) = parse(python, &texts);
    assert!(
        ok,
        "these belong to the differential corpus: Trino's grammar refuses them already:\n{report}"
    );
}
