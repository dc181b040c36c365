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

/// Our validator's verdict against sqlparser's reading on every entry of the corpus,
/// counted per statement kind: where both read a text (`both`), where sqlparser cannot
/// read a form we accept and the text passes through as listed (`listed`), where both
/// refuse (`neither`), and where ours refuses what sqlparser reads (`stricter`, by our
/// error kind): our validator holds each target to its engine's grammar and statement
/// shapes, sqlparser's stock dialects read more (another engine's syntax, a shape the
/// target does not run). Ours never accepts what sqlparser refuses outside the listed
/// forms (the test above). A change of any count is a change of either reading.
#[test]
fn the_two_readings_agree_on_the_corpus_as_counted() {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in fixture::entries() {
        let ours = validate_sql(&e.sql, e.kind, e.dialect, e.params);
        let theirs = read_with_sqlparser(&e.sql, e.kind, e.dialect);
        let class = match (&ours, &theirs) {
            (Ok(()), Ok(None)) => "both".to_string(),
            (Ok(()), Ok(Some(_))) => "listed".to_string(),
            (Ok(()), Err(_)) => "sqlparser refuses".to_string(),
            (Err(_), Ok(Some(_)) | Err(_)) => "neither".to_string(),
            (Err(err), Ok(None)) => format!("stricter {:?}", err.kind()),
        };
        *counts.entry(format!("{:?} {class}", e.kind)).or_default() += 1;
    }
    let table: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    assert_eq!(table.join("\n"), EXPECTED_CLASSES.trim());
}

/// The counts of [`the_two_readings_agree_on_the_corpus_as_counted`].
const EXPECTED_CLASSES: &str = "
AlterTable both 58
AlterTable listed 26
AlterTable neither 26
AlterTable stricter DisallowedSyntax 19
AlterTable stricter Syntax 7
CreateDatabase both 15
CreateDatabase listed 11
CreateDatabase neither 35
CreateDatabase stricter DisallowedSyntax 18
CreateDatabase stricter Syntax 1
CreateStagingTable both 3
CreateStagingTable listed 7
CreateStagingTable neither 29
CreateStagingTable stricter DisallowedSyntax 3
CreateStagingTable stricter Syntax 1
CreateTable both 32
CreateTable listed 34
CreateTable neither 40
CreateTable stricter DisallowedSyntax 19
CreateTable stricter Syntax 13
CreateTableAs both 26
CreateTableAs listed 7
CreateTableAs neither 33
CreateTableAs stricter DisallowedSyntax 13
CreateTableAs stricter Syntax 1
CreateView both 20
CreateView neither 18
CreateView stricter DisallowedSyntax 19
CreateView stricter Syntax 6
Delete both 66
Delete neither 19
Delete stricter DisallowedSyntax 16
Delete stricter Syntax 5
Describe both 12
Describe neither 9
Describe stricter DisallowedSyntax 19
Describe stricter Syntax 2
DropDatabase both 15
DropDatabase neither 10
DropDatabase stricter DisallowedSyntax 24
DropDatabase stricter Syntax 3
DropStagingTable both 10
DropStagingTable neither 6
DropStagingTable stricter DisallowedSyntax 14
DropTable both 62
DropTable neither 9
DropTable stricter DisallowedSyntax 20
DropTable stricter Syntax 1
DropView both 9
DropView neither 7
DropView stricter DisallowedSyntax 15
DropView stricter Syntax 2
Insert both 16
Insert listed 5
Insert neither 69
Insert stricter DisallowedSyntax 18
Insert stricter Syntax 8
Merge both 64
Merge listed 2
Merge neither 25
Merge stricter DisallowedSyntax 20
Merge stricter Syntax 10
Optimize both 14
Optimize listed 13
Optimize neither 40
Optimize stricter DisallowedSyntax 7
Optimize stricter Syntax 1
Select both 162
Select listed 13
Select neither 49
Select stricter DisallowedSyntax 38
Select stricter Syntax 82
ShowCreateTable both 7
ShowCreateTable neither 5
ShowCreateTable stricter DisallowedSyntax 10
ShowTables both 15
ShowTables listed 2
ShowTables neither 25
ShowTables stricter DisallowedSyntax 25
ShowTables stricter Syntax 7
Unload both 8
Unload neither 15
Unload stricter DisallowedSyntax 11
Unload stricter Syntax 3
Update both 67
Update neither 20
Update stricter DisallowedSyntax 17
Update stricter Syntax 5
Vacuum both 8
Vacuum listed 3
Vacuum neither 26
Vacuum stricter DisallowedSyntax 16
Vacuum stricter Syntax 2
";

/// Forms our validator refuses on purpose while sqlparser's stock dialect reads them:
/// the entry's SQL, and why (the grammar of the target it is refused in lacks the form).
const DELIBERATE: &[(&str, &str)] = &[
    (
        "SELECT x FROM t WHERE a IS TRUE AND b IS NOT FALSE AND c IS UNKNOWN",
        "Athena: Trino's `predicate` has `IS [NOT] NULL` and `IS [NOT] DISTINCT FROM` only \
         (SqlBase.g4); Spark's reads it",
    ),
    (
        "SELECT x FROM t WHERE y SIMILAR TO 'a%'",
        "Spark: its `predicate` has `LIKE`, `ILIKE`, `RLIKE` and no `SIMILAR TO` \
         (SqlBaseParser.g4)",
    ),
    (
        "SELECT x FROM t WHERE y = ANY (SELECT y FROM u)",
        "Spark: its `comparison` takes no quantifier (SqlBaseParser.g4); Trino's \
         `quantifiedComparison` reads it",
    ),
    (
        "SELECT array_agg(x ORDER BY y) FROM t",
        "Spark: its `functionCall` orders only in `WITHIN GROUP (…)` after the call \
         (SqlBaseParser.g4); Trino's reads it",
    ),
    (
        "SELECT ARRAY[1, 2, 3]",
        "Spark: it builds arrays with `array(…)`; `ARRAY[…]` is no constructor in \
         SqlBaseParser.g4 (a subscript takes one index)",
    ),
    (
        "SELECT ceil(x TO DAY), floor(y) FROM t",
        "Athena and Spark: neither grammar has `ceil(x TO unit)` (Trino's `functionCall`, \
         Spark's take expressions; sqlparser reads PostgreSQL's form)",
    ),
    (
        "SELECT position('a' IN x), substring(x FROM 1 FOR 2), trim(BOTH 'x' FROM y), overlay(x PLACING 'a' FROM 1) FROM t",
        "Athena: Trino's grammar has no `overlay(x PLACING …)` form (SqlBase.g4 \
         `primaryExpression`; it has `position`, `substring` and `trim`); Spark's reads all \
         four",
    ),
    (
        "SELECT x FROM t WHERE y = ALL (SELECT 1)",
        "Spark: its `comparison` takes no quantifier (SqlBaseParser.g4); Trino's \
         `quantifiedComparison` reads it",
    ),
    (
        "SELECT x FROM t OFFSET 5 LIMIT 10",
        "Spark's `queryOrganization` takes `(LIMIT …)? (OFFSET …)?` in that order \
         (SqlBaseParser.g4); sqlparser reads either order",
    ),
    (
        "SELECT x FROM t LEFT SEMI JOIN u ON t.a = u.a",
        "in Athena: Trino's `joinType` is `INNER? | LEFT OUTER? | RIGHT OUTER? | FULL OUTER?` \
         (SqlBase.g4), no semi join; sqlparser reads one in every dialect (Spark reads it)",
    ),
    (
        "SELECT a FROM t TABLESAMPLE BERNOULLI (10)",
        "in Spark: its `sample` is `TABLESAMPLE '(' sampleMethod? ')'` (SqlBaseParser.g4), no \
         BERNOULLI; sqlparser reads it in every dialect (Trino reads it)",
    ),
    (
        "SELECT * FROM TABLE(foo(1))",
        "in Spark: its `relationPrimary` has no `TABLE(…)` (a table-valued function is \
         called by name, `functionTable` in SqlBaseParser.g4); sqlparser reads it in every \
         dialect (Trino reads it)",
    ),
];

/// Each of [`DELIBERATE`] is in the corpus, and in the dialects where ours refuses it
/// at parse time sqlparser reads it (or it would belong with the forms both refuse).
#[test]
fn deliberately_stricter_forms_are_refused_by_ours_and_read_by_sqlparser() {
    let entries = fixture::entries();
    for (sql, why) in DELIBERATE {
        let mine: Vec<_> = entries.iter().filter(|e| e.sql == *sql).collect();
        assert!(!mine.is_empty(), "not in the corpus: {sql}");
        let mut stricter = 0;
        for e in mine {
            let Err(err) = validate_sql(&e.sql, e.kind, e.dialect, e.params) else {
                continue;
            };
            assert_eq!(err.kind(), ErrorKind::Syntax, "{} {sql}: {err}", e.header);
            let read = read_with_sqlparser(&e.sql, e.kind, e.dialect);
            assert!(
                matches!(read, Ok(None)),
                "{} {sql}: sqlparser does not read it ({read:?}); listed because {why}",
                e.header
            );
            stricter += 1;
        }
        assert!(stricter > 0, "no dialect refuses {sql}");
    }
}
