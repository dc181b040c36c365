//! [`inspect`] held to [`inspect_oracle`]: the recorded inspection of every accepted entry
//! of the verdict corpus (`tests/fixtures/validate_verdicts.txt`), and the cases of the
//! inspect tests.

use proptest::prelude::*;

use super::{inspect, Inspection};
use crate::dialect::Dialect;
use crate::statement::StatementKind;
use crate::validate::oracle::inspect::inspect_oracle;
use crate::validate::tests::verdict_fixture;

/// The accepted entries of the corpus: dialect, kind, SQL and the recorded inspection.
fn recorded() -> Vec<(Dialect, StatementKind, String, String)> {
    verdict_fixture::entries()
        .into_iter()
        .filter_map(|e| Some((e.dialect, e.kind, e.sql, e.inspection?)))
        .collect()
}

#[test]
fn every_accepted_entry_reads_as_recorded() {
    let entries = recorded();
    assert!(entries.len() > 800, "{} entries", entries.len());
    let mut wrong = Vec::new();
    // The fixture records the validator's own verdicts: whatever it accepts, `inspect`
    // reads.
    for (dialect, kind, sql, want) in &entries {
        let got = match inspect(sql, *kind, *dialect) {
            Ok(read) => verdict_fixture::inspection(&read),
            Err(e) => format!("refused: {e}"),
        };
        if &got != want {
            wrong.push(format!(
                "{dialect:?} {kind:?}\n{sql}\n  want {want}\n  got  {got}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        entries.len(),
        wrong.join("\n")
    );
}

/// Both readings of `sql`: the same inspection, or both refused.
#[track_caller]
fn same(sql: &str, kind: StatementKind, dialect: Dialect) -> Option<Inspection> {
    match (
        inspect_oracle(sql, kind, dialect),
        inspect(sql, kind, dialect),
    ) {
        (Ok(theirs), Ok(ours)) => {
            assert_eq!(ours, theirs, "{sql}");
            Some(ours)
        }
        (Err(_), Err(_)) => None,
        (theirs, ours) => {
            panic!("{sql} ({dialect:?} {kind:?}):\n  sqlparser: {theirs:?}\n  ours: {ours:?}")
        }
    }
}

/// The `;`s a target takes around the statement are read past, as `inspect` reads them:
/// one final `;` in Athena's grammars, any number before and after in Hive's and
/// Spark's; Trino takes none.
#[test]
fn semicolons_around_the_statement_are_read_past() {
    use Dialect::{Athena, Spark, Trino};
    use StatementKind::{Describe, Select};
    for (sql, kind, dialect, read) in [
        ("SELECT 'a' FROM t;", Select, Athena, true),
        ("SELECT 'a' FROM t ; ", Select, Athena, true),
        (";SELECT 'a' FROM t", Select, Athena, false),
        ("SELECT 'a' FROM t;;", Select, Athena, false),
        (";; SELECT 'a' FROM t ;;", Select, Spark, true),
        ("; DESCRIBE db.t ;", Describe, Athena, true),
        ("SELECT 'a' FROM t;", Select, Trino, false),
        ("SELECT 'a' FROM t; SELECT 'b' FROM u", Select, Spark, false),
    ] {
        let got = same(sql, kind, dialect);
        assert_eq!(got.is_some(), read, "{sql} ({dialect:?})");
        if let (Some(i), Select) = (got, kind) {
            assert_eq!(i.string_literals(), ["a"], "{sql}");
        }
    }
}

/// The texts the other inspect tests read (the public doc example, `validate_corpus`'s
/// literals and injections), read the same.
#[test]
fn the_inspect_tests_texts_read_the_same() {
    use Dialect::{Athena, Spark};
    use StatementKind::Select;
    let read = same("SELECT 'O''Reilly' FROM \"select\"", Select, Athena).expect("read");
    assert_eq!(read.string_literals(), ["O'Reilly"]);
    assert_eq!(read.names()[0].value, "select");
    assert_eq!(read.names()[0].quote, Some('"'));
    for (sql, dialect, want) in [
        ("SELECT 'O''Reilly'", Athena, "O'Reilly"),
        (r"SELECT 'a\b\'", Athena, r"a\b\"),
        (r"SELECT 'it\'s a \\ path'", Spark, r"it's a \ path"),
        (
            "SELECT * FROM t WHERE a = 'a'' OR 1=1 --'",
            Athena,
            "a' OR 1=1 --",
        ),
        (r"SELECT 'x\' OR 1=1 --'", Spark, "x' OR 1=1 --"),
    ] {
        let read = same(sql, Select, dialect).expect("read");
        assert_eq!(read.string_literals(), [want], "{sql}");
    }
    // Refused by both: an unterminated literal, and a second statement. (Not
    // `validate::tests::walk`'s `CONVERT(x, int)`: our parser reads it as a call, as
    // Trino's grammar does; that no target has the function is the allow-list's check.)
    assert!(same("SELECT 'abc FROM t", Select, Athena).is_none());
    assert!(same("SELECT a FROM t; SELECT b FROM u", Select, Athena).is_none());
}

fn hostile() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-z'\\\\;\"`\\-/*\n\r\t \u{2019}\u{0}${}]{0,40}",
        Just("${var} $${x} ${system:user.name}".to_string()),
        Just("'; DROP TABLE t; --".to_string()),
        Just("\\'".to_string()),
        Just("a''b\\\\'".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `properties.rs`'s round trip: any string written as a literal reads back as
    /// itself, the same through both parsers.
    #[test]
    fn any_string_literal_reads_the_same(s in hostile()) {
        for dialect in [Dialect::Athena, Dialect::Spark] {
            let mut sql = String::from("SELECT ");
            dialect.grammar(StatementKind::Select).write_string(&mut sql, &s);
            let read = same(&sql, StatementKind::Select, dialect);
            prop_assert_eq!(read.map(|r| r.string_literals().to_vec()), Some(vec![s.clone()]));
        }
    }

    /// `properties.rs`'s names: a name the builders take reads the same in a
    /// `DROP TABLE` and as a column of a `CREATE TABLE`, through both parsers.
    #[test]
    fn any_name_reads_the_same(name in prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9_$`\"' .\\-]{0,12}",
        proptest::sample::select(crate::dialect::grammar::HIVE_DDL_RESERVED).prop_map(str::to_string),
        proptest::sample::select(crate::dialect::grammar::TRINO_DML_RESERVED).prop_map(str::to_string),
    ]) {
        use crate::prelude::*;
        let table = TableName::new("db", name.clone());
        let Ok(athena) = table.drop_table().build() else {
            return Ok(());
        };
        let spark = table.drop_table().build_for(Dialect::Spark).expect("Spark takes what Athena takes");
        for stmt in [athena, spark] {
            let read = same(stmt.sql(), StatementKind::DropTable, stmt.dialect()).expect("read");
            let parts: Vec<&str> = read.names().iter().map(|n| n.value.as_str()).collect();
            prop_assert_eq!(parts, vec!["db", name.as_str()], "{}", stmt.sql());
        }
        let t = TableDef::builder("db", "t")
            .column(Column::new(name.clone(), IcebergType::Int))
            .location("s3://bucket/t/")
            .build()
            .expect("a table of one column");
        for dialect in [Dialect::Athena, Dialect::Spark] {
            let stmt = t.create_table().build_for(dialect).expect("its CREATE TABLE");
            let read = same(stmt.sql(), StatementKind::CreateTable, dialect).expect("read");
            prop_assert_eq!(&read.names()[2].value, &name, "{}", stmt.sql());
        }
    }
}

/// The expression forms read since the first milestone hold their names and strings
/// where sqlparser's tree does: a window frame's offsets, Spark's `ILIKE`, `RLIKE`,
/// `IS TRUE`.
#[test]
fn later_expression_forms_read_the_same() {
    use Dialect::{Athena, Spark};
    use StatementKind::Select;
    for (sql, dialect) in [
        (
            "SELECT sum(x) OVER (ORDER BY y ROWS BETWEEN \"n\" PRECEDING AND CURRENT ROW) FROM t",
            Athena,
        ),
        (
            "SELECT avg(x) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND CURRENT ROW) FROM t",
            Athena,
        ),
        (
            "SELECT a FROM t WHERE b ILIKE 'x%' ESCAPE '!' AND c RLIKE d AND e IS NOT TRUE",
            Spark,
        ),
    ] {
        let read = same(sql, Select, dialect).expect("read");
        assert!(!read.names().is_empty(), "{sql}");
    }
}

/// Trino's `UNNEST(…)`: sqlparser's tree (a table function named `UNNEST`) lists the
/// word and the alias before the arrays, out of text order; ours lists them so too.
#[test]
fn unnest_lists_its_word_and_alias_before_its_arrays() {
    use StatementKind::Select;
    let names =
        |i: &Inspection| -> Vec<String> { i.names().iter().map(|n| n.value.clone()).collect() };
    let sql = "SELECT t.a, u.x FROM t CROSS JOIN UNNEST(t.arr) AS u (x)";
    let read = same(sql, Select, Dialect::Athena).expect("read");
    assert_eq!(
        names(&read),
        ["t", "a", "u", "x", "t", "UNNEST", "u", "x", "t", "arr"]
    );
    let sql =
        "SELECT n FROM unnest(ARRAY['a'], ARRAY[\"b\"]) WITH ORDINALITY AS \"u\" (k, v, n) WHERE k = 'c'";
    let read = same(sql, Select, Dialect::Trino).expect("read");
    assert_eq!(names(&read), ["n", "unnest", "u", "k", "v", "n", "b", "k"]);
    assert_eq!(read.names()[2].quote, Some('"'));
    assert_eq!(read.string_literals(), ["a", "c"]);
}

/// Spark's table-valued functions: sqlparser's tree (a table with arguments) lists the
/// alias and its columns before the arguments; ours lists them so too.
#[test]
fn a_table_valued_function_lists_its_alias_before_its_arguments() {
    let sql = "SELECT g.x FROM db.f(1, 'a', y) AS g (`x`)";
    let read = same(sql, StatementKind::Select, Dialect::Spark).expect("read");
    let names: Vec<&str> = read.names().iter().map(|n| n.value.as_str()).collect();
    assert_eq!(names, ["g", "x", "db", "f", "g", "x", "y"]);
    assert_eq!(read.names()[5].quote, Some('`'));
    assert_eq!(read.string_literals(), ["a"]);
}

/// Spark's `LATERAL VIEW`: its call, name and columns, in text order.
#[test]
fn a_lateral_view_reads_the_same() {
    let sql = "SELECT k FROM t LATERAL VIEW OUTER explode(map('a', y)) e AS k, `v` WHERE v = 'b'";
    let read = same(sql, StatementKind::Select, Dialect::Spark).expect("read");
    let names: Vec<&str> = read.names().iter().map(|n| n.value.as_str()).collect();
    assert_eq!(names[names.len() - 5..], ["y", "e", "k", "v", "v"]);
    assert_eq!(read.string_literals(), ["a", "b"]);
}

/// Spark's `PIVOT`: its aggregates, columns and values with their aliases, in text
/// order.
#[test]
fn a_pivot_reads_the_same() {
    let sql =
        "SELECT * FROM t PIVOT (sum(v) AS s, max(`w`) FOR (k, j) IN (('a', 1) AS a1, 'b' b2)) \
               WHERE x = 'c'";
    let read = same(sql, StatementKind::Select, Dialect::Spark).expect("read");
    let names: Vec<&str> = read.names().iter().map(|n| n.value.as_str()).collect();
    assert_eq!(
        names[names.len() - 9..],
        ["v", "s", "max", "w", "k", "j", "a1", "b2", "x"]
    );
    assert_eq!(read.string_literals(), ["a", "b", "c"]);
}
