//! The table of other engines' forms (`super::super::foreign`): each form's tokens give
//! its hint where the parse stops among them, in the grammars it lists; a word that
//! only appears elsewhere, or quoted, gives none; the error keeps its kind and message.

use super::super::foreign::{find, hint, ForeignForm, Tok, FOREIGN_FORMS};
use super::{parse_statement, Rules};
use crate::dialect::Grammar;
use crate::error::ErrorKind;
use crate::validate::lexer::{self, Symbol};

const HIVE: Grammar = Grammar::HiveDdl;
const TRINO: Grammar = Grammar::TrinoDml;
const SPARK: Grammar = Grammar::Spark;

/// A statement of another engine in each form's grammar, refused where the form
/// stands: every form of the table has one at least.
const REFUSED: &[(Grammar, &str)] = &[
    (TRINO, "INSERT INTO t (a) VALUES (1) RETURNING a"),
    (SPARK, "INSERT INTO t SELECT x FROM s RETURNING a"),
    (TRINO, "DELETE FROM t WHERE a = 1 RETURNING *"),
    (TRINO, "INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO NOTHING"),
    (SPARK, "INSERT INTO t SELECT 1 ON CONFLICT (a) DO NOTHING"),
    (SPARK, "INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 2"),
    (TRINO, "SELECT TOP 1 a FROM t"),
    (SPARK, "SELECT TOP 1 a FROM t"),
    (TRINO, "SELECT DISTINCT ON (a) a, b FROM t"),
    (TRINO, "SELECT x::int FROM t"),
    (SPARK, "SELECT x::int FROM t"),
    (HIVE, "OPTIMIZE t REWRITE DATA USING BIN_PACK WHERE x::int = 1"),
    (TRINO, "SELECT a FROM t QUALIFY row_number() OVER (ORDER BY a) = 1"),
    (SPARK, "SELECT a FROM t WHERE a > 0 QUALIFY rn = 1"),
    (TRINO, "SELECT a FROM t LIMIT 1, 2"),
    (SPARK, "SELECT a FROM t LIMIT 1, 2"),
    (TRINO, "DELETE FROM t USING s WHERE t.a = s.a"),
    (SPARK, "DELETE FROM t USING s WHERE t.a = s.a"),
    (TRINO, "UPDATE t SET a = s.a FROM s WHERE t.k = s.k"),
    (SPARK, "UPDATE t SET a = s.a FROM s WHERE t.k = s.k"),
    (TRINO, "SELECT a FROM t WHERE b = $1"),
    (SPARK, "SELECT a FROM t WHERE b = $1"),
    (TRINO, "SELECT a FROM t WHERE b = ?1"),
    (TRINO, "SELECT a FROM t WHERE b = :b"),
    (SPARK, "SELECT a FROM t WHERE b IN (:b, :c)"),
    (TRINO, "SELECT a FROM t WHERE b = @b"),
    (TRINO, "INSERT OVERWRITE TABLE t SELECT 1"),
    (TRINO, "INSERT INTO TABLE t SELECT 1"),
    (
        TRINO,
        "MERGE INTO t USING s ON t.k = s.k WHEN NOT MATCHED BY SOURCE THEN DELETE",
    ),
    (
        TRINO,
        "MERGE INTO t USING s ON t.k = s.k WHEN NOT MATCHED BY TARGET THEN INSERT (k) VALUES (s.k)",
    ),
    (
        TRINO,
        "MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET *",
    ),
    (
        TRINO,
        "MERGE INTO t USING s ON t.k = s.k WHEN NOT MATCHED THEN INSERT *",
    ),
    (TRINO, "SELECT a FROM t SORT BY a"),
    (TRINO, "SELECT a FROM t DISTRIBUTE BY a"),
    (TRINO, "SELECT a FROM t CLUSTER BY a"),
    (TRINO, "SELECT 7 DIV 2"),
    (TRINO, "SELECT a FROM t WHERE a RLIKE 'x'"),
    (TRINO, "SELECT a regexp b FROM t"),
    (TRINO, "SELECT a FROM t WHERE a ILIKE 'x'"),
    (TRINO, "OPTIMIZE t REWRITE DATA USING BIN_PACK"),
    (TRINO, "VACUUM t"),
    (TRINO, "CREATE DATABASE a"),
    (TRINO, "DROP DATABASE a CASCADE"),
    (TRINO, "SHOW DATABASES"),
    (TRINO, "DROP TABLE a.t PURGE"),
    (TRINO, "DROP VIEW a.v CASCADE"),
    (TRINO, "CREATE VIEW IF NOT EXISTS a.v AS SELECT 1"),
    (TRINO, "CREATE OR REPLACE VIEW a.v (x) AS SELECT 1"),
    (TRINO, "CREATE TABLE a.t (x integer) USING iceberg"),
    (TRINO, "CREATE TABLE a.t (x integer) PARTITIONED BY (x)"),
    (TRINO, "CREATE TABLE a.t (x integer) TBLPROPERTIES ('k' = 'v')"),
    (TRINO, "CREATE TABLE a.t (x integer) LOCATION 's3://b/t/'"),
    (
        TRINO,
        "CREATE TABLE a.t WITH ('format' = 'PARQUET') AS SELECT 1 AS x",
    ),
    (TRINO, "ALTER TABLE a.t SET PROPERTIES 'format' = 'ORC'"),
    (TRINO, "SHOW TABLES IN a 'mcp_*'"),
    (TRINO, "SHOW TABLES FROM c.a 'mcp_*'"),
    (TRINO, "ALTER TABLE a.t SET TBLPROPERTIES ('format' = 'orc')"),
    (TRINO, "ALTER TABLE a.t UNSET TBLPROPERTIES ('format')"),
    (TRINO, "ALTER TABLE a.t CHANGE COLUMN x y varchar"),
    (TRINO, "ALTER TABLE a.t ADD COLUMNS (x varchar)"),
    (TRINO, "ALTER TABLE a.t ALTER COLUMN x TYPE bigint"),
    (TRINO, "ALTER TABLE a.t ADD PARTITION FIELD day(ts)"),
    (SPARK, "SELECT a FROM t FETCH FIRST 1 ROWS ONLY"),
    (SPARK, "VACUUM t"),
    (SPARK, "UNLOAD (SELECT 1) TO 's3://x/' WITH (format = 'PARQUET')"),
    (SPARK, "CREATE TABLE a.t (x int) USING iceberg WITH (format = 'PARQUET')"),
    (SPARK, "ALTER TABLE a.t SET PROPERTIES format = 'ORC'"),
    (SPARK, "ALTER TABLE a.t ALTER COLUMN x SET DATA TYPE bigint"),
    (SPARK, "ALTER TABLE a.t EXECUTE optimize"),
    (SPARK, "SELECT CAST(x AS array(int)) FROM t"),
    (
        HIVE,
        "CREATE TABLE a.t (x map(string, int)) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
    ),
    (HIVE, "ALTER TABLE t RENAME COLUMN a TO b"),
    (HIVE, "ALTER TABLE t ALTER COLUMN c TYPE bigint"),
    (HIVE, "ALTER TABLE t ADD COLUMN c int"),
    (HIVE, "ALTER TABLE t ADD PARTITION FIELD day(ts)"),
    (HIVE, "ALTER TABLE t REPLACE PARTITION FIELD a WITH day(ts)"),
    (HIVE, "ALTER TABLE t REPLACE COLUMNS (a int)"),
    (HIVE, "ALTER TABLE t SET PROPERTIES a = 1"),
    (HIVE, "VACUUM analytics.mcp_events RETAIN 7 DAYS"),
    (HIVE, "CREATE DATABASE a LOCATION 's3://b/p/' COMMENT 'c'"),
    (
        HIVE,
        "CREATE OR REPLACE TABLE a.t (x int) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
    ),
    (
        HIVE,
        "CREATE TABLE a.t (x int NOT NULL) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
    ),
    (HIVE, "SHOW TABLES IN analytics LIKE 'mcp_*'"),
    (HIVE, "SHOW TABLES FROM analytics"),
];

/// Texts refused where no form of the table stands: a word of a form quoted, or
/// elsewhere than at the failure, or in a statement or grammar the form is not listed
/// for.
const REFUSED_WITHOUT_A_HINT: &[(Grammar, &str)] = &[
    (TRINO, "DELETE FROM t WHERE a = 1 \"returning\" a"),
    (SPARK, "DELETE FROM t WHERE a = 1 `returning` a"),
    (TRINO, "INSERT INTO t SELECT \"returning\" FROM s WHERE"),
    (TRINO, "UPDATE t SET returning = 1 WHERE"),
    (TRINO, "SELECT a FROM t RETURNING a"),
    (TRINO, "SELECT qualify FROM t WHERE"),
    (TRINO, "SELECT a FROM t \"QUALIFY\" x y"),
    (TRINO, "SELECT a, b FROM t LIMIT 1 2"),
    (
        TRINO,
        "INSERT INTO t SELECT a FROM s WHERE a = 'ON CONFLICT' b",
    ),
    (SPARK, "SELECT a FROM t SORT BY"),
    (HIVE, "ALTER TABLE t \"RENAME\" COLUMN a TO b"),
    (
        TRINO,
        "MERGE INTO t USING s ON t.k = s.k WHEN NOT MATCHED BY x THEN DELETE",
    ),
    (TRINO, "CREATE TABLE a.t (x integer) WITH (format = )"),
    (TRINO, "UPDATE t SET a = (SELECT FROM s)"),
    (SPARK, "DELETE FROM t WHERE a IN (SELECT FROM s)"),
    (
        TRINO,
        "INSERT INTO t SELECT a FROM (SELECT a FROM s RETURNING a)",
    ),
];

fn parse_error(grammar: Grammar, sql: &str) -> crate::error::Error {
    match parse_statement(sql, Rules::of(grammar)) {
        Ok(_) => panic!("{grammar:?} reads {sql}"),
        Err(e) => e,
    }
}

#[test]
fn each_form_gives_its_hint_where_the_parse_stops_in_it() {
    let mut hit = vec![false; FOREIGN_FORMS.len()];
    let mut missed = Vec::new();
    for &(grammar, sql) in REFUSED {
        let e = parse_error(grammar, sql);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
        assert!(e.message().contains("does not parse: "), "{sql}: {e}");
        match FOREIGN_FORMS.iter().position(|f| Some(f.hint) == e.hint()) {
            Some(i) => hit[i] = true,
            None => missed.push(format!("{grammar:?} {sql}: no hint: {e}")),
        }
    }
    for (f, hit) in FOREIGN_FORMS.iter().zip(&hit) {
        if !hit {
            missed.push(format!("no refused text gives {:?}", f.hint));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

#[test]
fn a_word_of_a_form_elsewhere_or_quoted_gives_no_hint() {
    for &(grammar, sql) in REFUSED_WITHOUT_A_HINT {
        let e = parse_error(grammar, sql);
        assert_eq!(e.hint(), None, "{grammar:?} {sql}: {e}");
    }
}

#[test]
fn the_hint_leaves_the_kind_position_and_message() {
    let sql = "DELETE FROM t WHERE a = 1 RETURNING a";
    let e = parse_error(TRINO, sql);
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(
        e.message(),
        "Trino grammar does not parse: expected the end of the statement, found `RETURNING`"
    );
    let at = e.location().expect("a position");
    assert_eq!((at.line, at.column), (1, 27));
    assert!(e
        .hint()
        .is_some_and(|h| h.starts_with("`RETURNING` is PostgreSQL's")));
}

/// The text a form's token stands for (`choice` picks among alternatives).
fn spelled(t: &Tok, choice: usize) -> String {
    let symbol = |s: Symbol| match s {
        Symbol::DoubleColon => "::",
        Symbol::Comma => ",",
        Symbol::Mul => "*",
        Symbol::Eq => "=",
        Symbol::LParen => "(",
        Symbol::Colon => ":",
        Symbol::AtSign => "@",
        other => panic!("spell {other:?} in this test"),
    };
    match *t {
        Tok::Word(w) => w.to_string(),
        Tok::OneOf(ws) => ws[choice % ws.len()].to_string(),
        Tok::Sym(s) => symbol(s).to_string(),
        Tok::Syms(ss) => symbol(ss[choice % ss.len()]).to_string(),
        Tok::Str => "'s'".to_string(),
        Tok::Name => "db.t".to_string(),
        Tok::Placeholder(p) => format!("{p}1"),
        Tok::Any => "x".to_string(),
        Tok::Outside => String::new(),
    }
}

/// How many spellings a form's tokens have (the most alternatives of any).
fn choices(f: &ForeignForm) -> usize {
    f.statement
        .iter()
        .chain(f.form)
        .map(|t| match t {
            Tok::OneOf(ws) => ws.len(),
            _ => 1,
        })
        .max()
        .unwrap_or(1)
}

#[test]
fn each_forms_own_tokens_give_its_hint_at_each_of_them() {
    for f in FOREIGN_FORMS {
        for choice in 0..choices(f) {
            let statement: Vec<String> = f.statement.iter().map(|t| spelled(t, choice)).collect();
            let form: Vec<String> = f.form.iter().map(|t| spelled(t, choice)).collect();
            let head = statement.join(" ");
            let sql = format!("{head} {} ;", form.join(" "));
            for &grammar in f.grammars {
                let tokens: Vec<_> = lexer::lex(&sql, Rules::of(grammar).lexical)
                    .unwrap_or_else(|e| panic!("{sql}: {e:?}"))
                    .into_iter()
                    .filter(|t| !matches!(t.kind, lexer::Kind::Blank(_)))
                    .collect();
                // The form's first token: the first after the statement's words.
                let first = tokens.partition_point(|t| t.start <= head.len());
                // The last token is the `;` after the form.
                for at in first..tokens.len() - 1 {
                    assert_eq!(
                        find(&sql, &tokens, at, grammar).map(|g| g.hint),
                        Some(f.hint),
                        "{grammar:?} {sql:?} at token {at}"
                    );
                }
                assert_eq!(
                    hint(&sql, &tokens, tokens.len() - 1, grammar),
                    None,
                    "{sql}"
                );
                assert_eq!(hint(&sql, &tokens, tokens.len(), grammar), None, "{sql}");
            }
        }
    }
}

#[test]
fn forms_are_listed_in_their_grammars_only_with_one_hint_each() {
    let mut hints: Vec<_> = FOREIGN_FORMS.iter().map(|f| f.hint).collect();
    hints.sort_unstable();
    hints.dedup();
    assert_eq!(hints.len(), FOREIGN_FORMS.len(), "a hint is listed twice");
    // A form in another grammar than its own gives nothing: `RETAIN` after Athena's
    // VACUUM is Hive's entry; in Trino's grammar VACUUM itself is the foreign form.
    let e = parse_error(TRINO, "VACUUM t RETAIN 7 DAYS");
    assert!(
        e.hint()
            .is_some_and(|h| h.contains("ALTER TABLE t EXECUTE")),
        "{e}"
    );
    let e = parse_error(SPARK, "SELECT a FROM t LIMIT 1, 2");
    assert!(
        e.hint()
            .is_some_and(|h| h.contains("LIMIT count OFFSET skip")),
        "{e}"
    );
}
