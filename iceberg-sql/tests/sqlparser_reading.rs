//! sqlparser's reading (feature `sqlparser`), a check independent of our validator: its
//! own tokenizer and parser in stock dialects. Over the verdict corpus
//! (`fixtures/validate_verdicts.txt`), every statement our validator accepts is read
//! by sqlparser or holds one of the listed forms it cannot read, and every form listed
//! is needed by some statement there. Every statement a builder returns in this
//! crate's and the workspace's tests passes the same reading, in `build()`.
#![cfg(feature = "sqlparser")]

use std::collections::BTreeMap;

use iceberg_sql::prelude::*;
use iceberg_sql::validate::{read_with_sqlparser, validate_sql, Inspection, SQLPARSER_GAPS};
use iceberg_sql::{Dialect, Error, ErrorKind, StatementKind};

#[path = "fixtures/verdicts.rs"]
mod fixture;

#[test]
fn every_statement_the_validator_accepts_is_read_by_sqlparser_or_holds_a_listed_form() {
    let mut refused = Vec::new();
    let mut read = 0;
    let mut through: BTreeMap<&str, usize> = BTreeMap::new();
    for e in fixture::entries() {
        if validate_sql(&e.sql, e.kind, e.dialect, e.params).is_err() {
            continue;
        }
        match read_with_sqlparser(&e.sql, e.kind, e.dialect) {
            Ok(None) => read += 1,
            Ok(Some(gap)) => *through.entry(gap.form).or_default() += 1,
            Err(err) => refused.push(format!("#### {}\n{}\n=> {err}", e.header, e.sql)),
        }
    }
    assert!(read > 600, "sqlparser read only {read} accepted statements");
    assert!(
        refused.is_empty(),
        "{} accepted statements sqlparser refuses:\n{}",
        refused.len(),
        refused.join("\n")
    );
    println!(
        "sqlparser read {read} accepted statements; passed through: {}",
        through.values().sum::<usize>()
    );
    for (form, n) in &through {
        println!("  {n:4}  {form}");
    }
    let unused: Vec<_> = SQLPARSER_GAPS
        .iter()
        .filter(|g| !through.contains_key(g.form))
        .map(|g| g.form)
        .collect();
    assert!(
        unused.is_empty(),
        "listed forms no accepted statement holds: {unused:?}"
    );
}

#[test]
fn a_text_sqlparser_refuses_is_refused_with_its_message_the_statement_and_the_way_out() {
    let sql = "SELECT a FROM t WHERE a IN ()";
    let err = read_with_sqlparser(sql, StatementKind::Select, Dialect::Athena).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Syntax);
    assert!(
        err.message().starts_with(
            "sqlparser 0.64 (GenericDialect, its own tokenizer) does not read this SELECT \
             statement that iceberg-sql's validator passed for Athena: Expected: an expression, found: )"
        ),
        "{err}"
    );
    assert_eq!(err.sql(), Some(sql));
    assert_eq!(
        err.location(),
        Some(&iceberg_sql::error::SqlLocation {
            line: 1,
            column: 29
        })
    );
    let hint = err.hint().unwrap_or_default();
    assert!(
        hint.contains("without the `sqlparser` feature") && hint.contains("SQLPARSER_GAPS"),
        "{hint}"
    );
    // sqlparser's tokenizer, not ours: an unterminated string in Spark's escapes.
    let err =
        read_with_sqlparser("SELECT 'a\\'", StatementKind::Select, Dialect::Spark).unwrap_err();
    assert!(
        err.message().contains("DatabricksDialect") && err.message().contains("Unterminated"),
        "{err}"
    );
    // Two statements are not one.
    let err = read_with_sqlparser("SELECT 1; SELECT 2", StatementKind::Select, Dialect::Trino)
        .unwrap_err();
    assert!(
        err.message()
            .ends_with("expected exactly one statement, read 2"),
        "{err}"
    );
}

/// A listed form passes only the grammars it is listed for: Trino's `array(T)` type is
/// Trino DML's; in a Hive DDL text sqlparser refuses it.
#[test]
fn a_listed_form_passes_only_its_grammars() {
    let trino = "SELECT CAST(NULL AS array(integer))";
    let gap = read_with_sqlparser(trino, StatementKind::Select, Dialect::Athena).expect("passes");
    assert!(
        gap.is_some_and(|g| g.form.starts_with("array(T)")),
        "{gap:?}"
    );
    let hive = "CREATE TABLE t (x array(int))";
    assert!(read_with_sqlparser(hive, StatementKind::CreateTable, Dialect::Athena).is_err());
}

/// Through a builder: `build()` runs the reading, and what it returns was read.
#[test]
fn build_runs_the_reading() {
    #[derive(IcebergTable, Debug, Clone)]
    #[iceberg(
        database = "analytics",
        name = "ev",
        location = "s3://my-datalake/iceberg/ev/"
    )]
    struct Ev {
        id: i64,
        tags: Vec<String>,
    }
    let built = Ev::select().filter(Ev::ID.eq(7)).build().expect("builds");
    let read = read_with_sqlparser(built.sql(), built.kind(), built.dialect()).expect("read");
    assert!(read.is_none(), "{read:?}");
    let ddl = Ev::table_def().create_table().build().expect("builds");
    let read = read_with_sqlparser(ddl.sql(), ddl.kind(), ddl.dialect()).expect("read");
    assert!(read.is_none(), "{read:?}\n{}", ddl.sql());
}
