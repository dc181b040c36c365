//! Every keyword in every name position, through our whole pipeline
//! (`check::validate`) against the oracle's (`validate_sql`): a table, an alias, a
//! column, a function, in queries and the DML, for Athena (Trino's grammar), Trino
//! and Spark.
//!
//! The words are sqlparser's whole keyword list (`sqlparser::keywords::ALL_KEYWORDS`),
//! the words the oracle may read as something other than a name, with the words
//! Trino's SqlBase.g4 reserves (`dialect::grammar`'s reserved words) that it lacks; Spark's keywords
//! are among them. Accept ⇔ accept, except the
//! differences listed in [`deliberate`], each with its reason; a listed difference
//! that no text shows any more fails the test, so the list cannot go stale.

use std::collections::BTreeMap;

use super::super::query::NOT_A_COLUMN_ALIAS;
use crate::dialect::grammar::{is_reserved_in_dml, TRINO_417_RESERVED, TRINO_LATER_RESERVED};
use crate::dialect::{Dialect, Grammar};
use crate::statement::StatementKind;

/// Where a word is put, `{w}`.
const POSITIONS: &[(StatementKind, &str)] = {
    use StatementKind::*;
    &[
        (Select, "SELECT a FROM {w}"),
        (Select, "SELECT a FROM {w} WHERE a = 1"),
        (Select, "SELECT a FROM {w} VERSION AS OF 1"),
        (Select, "SELECT a FROM {w} FOR VERSION AS OF 1"),
        (Select, "SELECT a FROM {w} JOIN u ON a = b"),
        (Select, "SELECT a FROM {w}.t"),
        (Select, "SELECT a FROM db.{w}"),
        (Select, "SELECT a FROM t {w}"),
        (Select, "SELECT a FROM t {w} WHERE a = 1"),
        (Select, "SELECT a FROM t {w} JOIN u ON a = b"),
        (Select, "SELECT a FROM t AS {w}"),
        (Select, "SELECT a FROM t JOIN u {w} ON a = b"),
        (Select, "SELECT {w} FROM t"),
        (Select, "SELECT {w}, a FROM t"),
        (Select, "SELECT a, {w} FROM t"),
        (Select, "SELECT a {w} FROM t"),
        (Select, "SELECT a AS {w} FROM t"),
        (Select, "SELECT t.{w} FROM t"),
        (Select, "SELECT {w}.a FROM t"),
        (Select, "SELECT a FROM t WHERE {w} = 1"),
        (Select, "SELECT a FROM t WHERE a = {w}"),
        (Select, "SELECT a FROM t WHERE {w} IS NULL"),
        (Select, "SELECT a FROM t WHERE a = {w} + 1"),
        (Select, "SELECT a FROM t GROUP BY {w}"),
        (Select, "SELECT a FROM t GROUP BY {w}, a"),
        (Select, "SELECT a FROM t GROUP BY {w} * x (a, b)"),
        (Select, "SELECT a FROM t GROUP BY {w}[1]"),
        (Select, "SELECT a FROM t ORDER BY {w}"),
        (Select, "SELECT {w}(a) FROM t"),
        (Select, "SELECT {w}() FROM t"),
        (Select, "SELECT a, {w}(a) FROM t"),
        (Select, "SELECT a FROM t WHERE {w}(a) = 1"),
        (Update, "UPDATE {w} SET a = 1"),
        (Update, "UPDATE t SET {w} = 1"),
        (Update, "UPDATE t SET a = {w}"),
        (Delete, "DELETE FROM {w} WHERE a = 1"),
        (Delete, "DELETE FROM t WHERE {w} = 1"),
        (Insert, "INSERT INTO {w} (a) VALUES (1)"),
        (Insert, "INSERT INTO {w}.t (a) VALUES (1)"),
        (Insert, "INSERT INTO t ({w}) VALUES (1)"),
    ]
};

/// The texts each pipeline is given: the dialects whose statements our parser reads
/// in Trino's grammar or Spark's.
const DIALECTS: [Dialect; 3] = [Dialect::Athena, Dialect::Trino, Dialect::Spark];

/// Why the pipelines' verdicts on a word differ on purpose, with how many texts show
/// each (the test fails when a count changes: review the new texts, then the count).
const WHY: &[(&str, usize)] = &[
    // The Trino target's sqlparser dialect keeps sqlparser's own list of words that are
    // no table (`RESERVED_FOR_TABLE_FACTOR`); Trino's grammar has `LIMIT` among its
    // `nonReserved` words (SqlBase.g4), the Athena target's reading (dialects/athena.rs)
    // takes it as a table, and our renderers write it unquoted for both targets.
    (LIMIT_TABLE, 6),
    (NON_RESERVED_NAME, 11),
    (RESERVED_FUNCTION, 562),
    (NO_STRUCT, 5),
    (SPARK_RESERVED, 84),
    (ENDS_SELECT_LIST, 103),
    (JOIN_WORDS, 10),
    (SPARK_NO_ARRAY_BRACKETS, 1),
    (CONVERT, 12),
    (SELECT_ALL, 3),
    (SPARK_CLAUSE_WORD_TABLE, 8),
    (INSERT_WITH, 1),
    (NOT_IN_COMPARISON, 1),
];

/// Where ours accepts: Trino's grammar reads every word of its `nonReserved` rule
/// (SqlBase.g4) as a name, where sqlparser takes some for a clause (`OFFSET`, `VIEW`,
/// `RETURNING` in a select list; `LOCAL` after `INSERT INTO`, `REPLACE` after `UPDATE`).
const NON_RESERVED_NAME: &str =
    "a word Trino's grammar does not reserve is a name (SqlBase.g4 nonReserved)";
const LIMIT_TABLE: &str = "`limit` is a table name in Trino's grammar (SqlBase.g4 nonReserved)";
const RESERVED_FUNCTION: &str = "a word Trino reserves is no function name unquoted (SqlBase.g4: \
     a function's name is a `qualifiedName` of `identifier`s)";
const NO_STRUCT: &str = "Trino has no `struct(…)`; it builds rows with ROW(…)";
const SPARK_RESERVED: &str = "the four words our parser reserves in Spark text (`spark_reserved`)";
const ENDS_SELECT_LIST: &str = "a word that ends a select list starts no select item unquoted";
const JOIN_WORDS: &str = "sqlparser reads `t ANTI|SEMI JOIN` and `t GLOBAL` as joins; ours \
     reads no such join but Spark's semi and anti joins, and no alias of those words";
const SPARK_NO_ARRAY_BRACKETS: &str =
    "`ARRAY[…]` is Trino's constructor, refused on purpose in Spark text";
const CONVERT: &str = "`CONVERT(…)` is no SQL this crate writes (check/pass.rs)";
const SELECT_ALL: &str = "`SELECT ALL` is not read yet";
const SPARK_CLAUSE_WORD_TABLE: &str =
    "a clause word Spark's target quotes is no table name unquoted";
const INSERT_WITH: &str = "`(WITH` after INSERT's table starts a query";
const NOT_IN_COMPARISON: &str = "NOT inside a comparison is refused on purpose (parenthesise it)";

/// Why the pipelines' verdicts on `w` in `template` differ on purpose, if they do.
/// `ours_accepts`: our pipeline accepts what the oracle refuses (else the reverse).
fn deliberate(d: Dialect, template: &str, w: &str, ours_accepts: bool) -> Option<&'static str> {
    let trino = d != Dialect::Spark;
    let call = template.contains("{w}(");
    if ours_accepts {
        let table = template.contains(" {w}")
            && !template.contains("t {w}")
            && !template.contains("AS {w}");
        let starts_item = template.starts_with("SELECT {w} ")
            || template.starts_with("SELECT {w},")
            || template.starts_with("SELECT a, {w}");
        let dml_table =
            template.starts_with("INSERT INTO {w}") || template.starts_with("UPDATE {w}");
        if trino && !Grammar::TrinoDml.is_reserved(w) && (starts_item || dml_table) {
            return Some(NON_RESERVED_NAME);
        }
        return (d == Dialect::Trino && w == "limit" && !Grammar::TrinoDml.is_reserved(w) && table)
            .then_some(LIMIT_TABLE);
    }
    let starts_item = template.starts_with("SELECT {w} ")
        || template.starts_with("SELECT {w},")
        || template.starts_with("SELECT a, {w}");
    let why = [
        (trino && call && is_reserved_in_dml(w), RESERVED_FUNCTION),
        (trino && call && w == "struct", NO_STRUCT),
        (
            !trino && ["exists", "interval", "struct", "trim"].contains(&w),
            SPARK_RESERVED,
        ),
        (
            NOT_A_COLUMN_ALIAS.contains(&w) && starts_item,
            ENDS_SELECT_LIST,
        ),
        (
            ["anti", "semi", "global"].contains(&w) && template.contains("t {w}"),
            JOIN_WORDS,
        ),
        (
            !trino && w == "array" && template.contains("{w}["),
            SPARK_NO_ARRAY_BRACKETS,
        ),
        (call && w == "convert", CONVERT),
        (
            call && w == "all" && template.starts_with("SELECT {w}"),
            SELECT_ALL,
        ),
        (
            !trino
                && template.starts_with("INSERT INTO {w}")
                && ["having", "into", "on", "where"].contains(&w),
            SPARK_CLAUSE_WORD_TABLE,
        ),
        (
            !trino && template == "INSERT INTO t ({w}) VALUES (1)" && w == "with",
            INSERT_WITH,
        ),
        (
            !trino && template == "SELECT a FROM t WHERE a = {w}" && w == "not",
            NOT_IN_COMPARISON,
        ),
    ];
    why.into_iter()
        .find(|(holds, _)| *holds)
        .map(|(_, reason)| reason)
}

/// sqlparser's keywords that are words (not `END-EXEC`), and the words Trino reserves
/// that it lacks (`listagg`, `json_query`, …), in lower case.
fn words() -> Vec<String> {
    let mut words: Vec<String> = sqlparser::keywords::ALL_KEYWORDS
        .iter()
        .map(|k| k.to_ascii_lowercase())
        .chain(TRINO_417_RESERVED.iter().map(|w| w.to_string()))
        .chain(TRINO_LATER_RESERVED.iter().map(|w| w.to_string()))
        .filter(|w| w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .collect();
    words.sort();
    words.dedup();
    words
}

fn verdict(r: crate::error::Result<()>) -> String {
    match r {
        Ok(()) => "accept".into(),
        Err(e) => format!("refuse {:?} {}", e.kind(), e.message()),
    }
}

#[test]
fn every_keyword_in_every_name_position_is_judged_alike() {
    let mut differ = Vec::new();
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for d in DIALECTS {
        for w in words() {
            for &(kind, template) in POSITIONS {
                let sql = template.replace("{w}", &w);
                let old = verdict(crate::validate::oracle::validate_sql(&sql, kind, d, 0));
                let new = verdict(crate::validate::check::validate(&sql, kind, d, 0));
                let ours_accepts = new == "accept";
                if (old == "accept") == ours_accepts {
                    continue;
                }
                match deliberate(d, template, &w, ours_accepts) {
                    Some(reason) => *reasons.entry(reason).or_default() += 1,
                    None => differ.push(format!("{d:?} {sql}\n  old: {old}\n  new: {new}")),
                }
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} texts differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    let expected: BTreeMap<&str, usize> = WHY.iter().copied().collect();
    assert_eq!(reasons, expected);
}

/// The texts a differential fuzz found that our pipeline accepted and the oracle
/// refused: our parser read a keyword as a name there.
#[test]
fn keywords_read_as_names_by_mistake_are_refused() {
    for (d, sql, message) in [
        (
            Dialect::Spark,
            "SELECT a FROM FOR VERSION AS OF 1",
            "Spark SQL does not parse: expected a table name before `FOR VERSION|TIMESTAMP \
             AS OF` (quote a table named `for`)",
        ),
        (
            Dialect::Spark,
            "SELECT a FROM t GROUP BY ROLLUP*X (a, b)",
            "Spark SQL does not parse: expected `(` and the columns of `ROLLUP|CUBE (…)`, \
             found `*`",
        ),
        (
            Dialect::Athena,
            "SELECT a FROM a at WHERE a = 1",
            "Athena DML (Trino grammar) does not parse: expected the end of the statement, \
             found `at`",
        ),
    ] {
        let err =
            crate::validate::check::validate(sql, StatementKind::Select, d, 0).expect_err(sql);
        assert_eq!(err.kind(), crate::error::ErrorKind::Syntax, "{sql}");
        assert_eq!(err.message(), message, "{sql}");
        assert!(crate::validate::oracle::validate_sql(sql, StatementKind::Select, d, 0).is_err());
    }
}

/// Forms our parser once read too freely, refused by the parser itself: a field or
/// subscript of a predicate, a predicate as a subscript, more after `GROUP BY ALL`,
/// a subscript of `ROLLUP (…)` in `GROUP BY`.
#[test]
fn the_parser_refuses_what_it_once_read_too_freely() {
    use super::{parse_statement, Rules};
    for (rules, sql, message) in [
        (
            &Rules::TRINO,
            "SELECT a FROM t WHERE a IS NOT NULL.x",
            "Trino grammar does not parse: a field or subscript of an operator's result \
             without parentheses",
        ),
        (
            &Rules::SPARK,
            "SELECT a FROM t WHERE m['k' < a] = 1",
            "Spark SQL does not parse: a predicate as a subscript without parentheses",
        ),
        (
            &Rules::SPARK,
            "SELECT a FROM t GROUP BY ALL[x]",
            "Spark SQL does not parse: expected the end of `GROUP BY ALL`, found `[` (`ALL` \
             is the whole clause; quote a column named `all`)",
        ),
        (
            &Rules::TRINO,
            "SELECT a FROM t GROUP BY ALL, a",
            "Trino grammar does not parse: expected the end of `GROUP BY ALL`, found `,` \
             (`ALL` is the whole clause; quote a column named `all`)",
        ),
        (
            &Rules::SPARK,
            "SELECT a FROM t GROUP BY rollup(a)[1]",
            "Spark SQL does not parse: expected the end of the statement, found `[`",
        ),
        (
            &Rules::SPARK,
            "SELECT a FROM t GROUP BY cube",
            "Spark SQL does not parse: expected `(` and the columns of `ROLLUP|CUBE (…)`, \
             found the end of the text",
        ),
    ] {
        let err = parse_statement(sql, rules).expect_err(sql);
        assert_eq!(err.kind(), crate::error::ErrorKind::Syntax, "{sql}");
        assert_eq!(err.message(), message, "{sql}");
    }
    // Outside GROUP BY, Spark's `rollup(…)` is a call like any other.
    assert!(parse_statement("SELECT a FROM t WHERE rollup(a)[1] = 1", &Rules::SPARK).is_ok());
}

/// `ALL`, `ANY` or `SOME` starting a comparison's right operand: refused by the parser
/// but for Trino's quantified comparison with a subquery.
#[test]
fn quantified_comparisons_are_refused_by_the_parser() {
    use super::{parse_statement, Rules};
    let spark = "quantified comparisons (`x = ANY (SELECT …)`) are not in this grammar: \
                 write `x IN (SELECT …)` or `EXISTS (SELECT …)`";
    let trino = "a comparison with ALL, ANY or SOME takes a subquery: `x = ANY (SELECT …)`";
    for (rules, sql, why) in [
        (
            &Rules::SPARK,
            "SELECT a FROM t WHERE a = ANY (SELECT b FROM u)",
            spark,
        ),
        (&Rules::SPARK, "SELECT a FROM t WHERE a < all(b)", spark),
        (&Rules::SPARK, "SELECT a FROM t WHERE a <> some[1]", spark),
        (&Rules::TRINO, "SELECT a FROM t WHERE a = SOME (b)", trino),
        (&Rules::TRINO, "SELECT a FROM t WHERE a < all(b, c)", trino),
    ] {
        let err = parse_statement(sql, rules).expect_err(sql);
        let message = format!("{} does not parse: {why}", rules.name);
        assert_eq!(err.message(), message, "{sql}");
    }
    assert!(parse_statement(
        "SELECT a FROM t WHERE a = SOME (SELECT b FROM u)",
        &Rules::TRINO
    )
    .is_ok());
    // A name's first part may be one of the words.
    assert!(parse_statement("SELECT a FROM t WHERE a = any.b", &Rules::SPARK).is_ok());
}
