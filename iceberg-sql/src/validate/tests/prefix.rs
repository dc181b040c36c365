//! The prefix fast path (`validate/prefix.rs`) builds exactly the tree sqlparser's own
//! path builds, and fails exactly where it fails: every statement in the snapshot
//! corpus, and hand-written edge cases, parsed both ways.

use super::*;
use crate::validate::oracle::prefix::tests::OFF;

/// The tree (with spans) or the error, for `sql` parsed as `kind` in `dialect`.
fn outcome(sql: &str, kind: StatementKind, dialect: Dialect, fast: bool) -> String {
    OFF.with(|o| o.set(!fast));
    let out = match with_parsed(sql, kind, dialect, |s| format!("{s:?}")) {
        Ok(tree) => tree,
        Err(e) => format!("error: {e}"),
    };
    OFF.with(|o| o.set(false));
    out
}

fn same_both_ways(sql: &str) -> usize {
    let mut parsed = 0;
    for (dialect, kind) in [
        (Dialect::Athena, StatementKind::Select),
        (Dialect::Athena, StatementKind::CreateTable),
        (Dialect::Spark, StatementKind::Select),
    ] {
        let fast = outcome(sql, kind, dialect, true);
        let slow = outcome(sql, kind, dialect, false);
        assert_eq!(fast, slow, "{dialect:?} {kind:?}: {sql}");
        parsed += usize::from(!fast.starts_with("error: "));
    }
    parsed
}

/// The SQL blocks of every insta snapshot of the crate's tests.
fn snapshot_statements() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("snapshot directory") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("snapshot");
        // Header, `---`, body; the body has `-- athena` / `-- spark` sections or is one
        // statement.
        let body = text.splitn(3, "---\n").nth(2).unwrap_or("");
        let mut cur = String::new();
        for line in body.lines() {
            if line.starts_with("-- ") {
                if !cur.trim().is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
            } else {
                cur.push_str(line);
                cur.push('\n');
            }
        }
        if !cur.trim().is_empty() {
            out.push(cur);
        }
    }
    out
}

#[test]
fn the_snapshot_corpus_parses_the_same_with_and_without_the_fast_path() {
    let corpus = snapshot_statements();
    assert!(corpus.len() > 80, "found {} statements", corpus.len());
    let parsed: usize = corpus.iter().map(|s| same_both_ways(s.trim_end())).sum();
    assert!(parsed > 80, "only {parsed} of the corpus parsed at all");
}

#[test]
fn edge_cases_parse_the_same_with_and_without_the_fast_path() {
    for sql in [
        "SELECT a, b.c, 'x', 1, 1.5, -2, X'00ff', NULL, true, false, ? FROM t WHERE a = ?",
        "SELECT transform(xs, x -> x + 1), transform(xs, x int -> x) FROM t",
        "SELECT _utf8 'x', _a FROM t",
        "SELECT a.b.c, \"select\", `x`, a || 'b', a % 2, a <> b, a <= b, a >= b FROM t",
        "SELECT f(a), a[1], ARRAY[a, b], CAST(a AS varchar), DATE '2026-10-01' FROM t",
        "SELECT a b FROM t",
        "SELECT a FROM t WHERE a IS NULL AND b IN (1, 2) OR c BETWEEN 1 AND 2",
        "SELECT a FROM t WHERE a",
        "SELECT 'a' 'b' FROM t",
        "SELECT a",
        "SELECT 1 1",
        "SELECT a ->",
        "SELECT a -> b -> c",
        "SELECT true AS x, null AS y",
        "INSERT INTO t (a, b) VALUES ('x', 1), (NULL, -1), (TIMESTAMP '2026-10-01 00:00:00', 2)",
        "UPDATE t SET a = b, c = 'x' WHERE d = e",
        "SELECT a FROM t; SELECT b FROM t",
        "SELECT a FROM t WHERE a = 'unterminated",
        "CREATE TABLE t (a int) PARTITIONED BY (day(ts), bucket(16, id), truncate(10, s), c) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        "CREATE TABLE t (a int) PARTITIONED BY (bucket(id, 16), day(`ts`), `day`(ts), bucket(16L, id)) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        "CREATE TABLE t (a int) PARTITIONED BY (day(ts) x, bucket(16, id, 3), day(ts)(1)) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        "CREATE TABLE t (a int) USING iceberg PARTITIONED BY (days(ts), bucket(16, id), hours(ts))",
    ] {
        same_both_ways(sql);
    }
}
