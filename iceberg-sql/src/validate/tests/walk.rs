//! The oracle's walk (`oracle/walk/`) and its own refusals: syntax of other engines, refused at the node wherever it
//! sits, and the expression forms users of each target write, accepted.

use super::*;
use std::ops::ControlFlow;

use crate::error::SqlLocation;
use crate::validate::oracle::ast_pass::AstPass;
use crate::validate::oracle::walk;

const WALK_REFUSAL: &str = "is not SQL this crate writes for any target";

/// `sql` is refused by the walk, for `found`, at `line:column`.
#[track_caller]
fn refused_at(sql: &str, kind: StatementKind, dialect: Dialect, found: &str, at: (usize, usize)) {
    let e = err(sql, kind, dialect);
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax, "{e}");
    assert!(
        e.message().starts_with(found) && e.message().contains(WALK_REFUSAL),
        "message for {sql}: {}",
        e.message()
    );
    let (line, column) = at;
    assert_eq!(e.location(), Some(&SqlLocation { line, column }), "{e}");
    assert_eq!(e.sql(), Some(sql));
}

#[test]
fn other_engines_forms_are_refused_at_the_node() {
    use StatementKind as K;
    for d in [Dialect::Athena, Dialect::Spark] {
        refused_at(
            "SELECT CONVERT(x, int) FROM t",
            K::Select,
            d,
            "`CONVERT(…)`",
            (1, 16),
        );
        refused_at(
            "SELECT x FROM t WHERE y IN UNNEST(arr)",
            K::Select,
            d,
            "`IN UNNEST(…)`",
            (1, 23),
        );
        refused_at(
            "SELECT x FROM t ASOF JOIN u MATCH_CONDITION (t.ts >= u.ts) ON t.a = u.a",
            K::Select,
            d,
            "`ASOF JOIN`",
            (1, 27),
        );
    }
    refused_at(
        "SELECT x COLLATE \"C\" FROM t",
        K::Select,
        Dialect::Athena,
        "`COLLATE`",
        (1, 8),
    );
}

/// The walk's refusal says what was found, then how to write it in the targets' SQL;
/// the location is the node's.
#[test]
fn refusals_say_how_to_write_the_form_for_the_targets() {
    use StatementKind as K;
    let cases = [
        (
            "SELECT CONVERT(x, int) FROM t",
            "`CONVERT(…)`",
            "write `CAST(x AS type)`",
            (1, 16),
        ),
        (
            "SELECT x FROM t WHERE y IN UNNEST(arr)",
            "`IN UNNEST(…)`",
            "test membership with contains(arr, x) in Trino, array_contains(arr, x) in Spark",
            (1, 23),
        ),
        (
            "SELECT DISTINCT ON (a) a, b FROM t",
            "`DISTINCT ON (…)`",
            "keep one row per key with `row_number() OVER (PARTITION BY … ORDER BY …) = 1` in a subquery",
            (1, 1),
        ),
        (
            "SELECT x FROM t ASOF JOIN u MATCH_CONDITION (t.ts >= u.ts) ON t.a = u.a",
            "`ASOF JOIN`",
            "join on the key and `t.ts >= u.ts`, and keep the nearest row with \
             `row_number() OVER (PARTITION BY … ORDER BY u.ts DESC) = 1` in a subquery",
            (1, 27),
        ),
    ];
    for d in [Dialect::Athena, Dialect::Spark] {
        for (sql, found, fix, at) in cases {
            refused_at(sql, K::Select, d, found, at);
            let message = err(sql, K::Select, d).message().to_owned();
            assert!(
                message.ends_with(&format!("; {fix}")),
                "message for {sql} in {d:?}: {message}"
            );
        }
    }
}

/// No parser of ours reads a `{key: value}` dictionary (DuckDB's), but the walk must
/// still refuse it with the targets' map constructors: it walks whatever tree it is given.
#[test]
fn a_dictionary_parsed_by_another_engine_gets_the_map_constructors() {
    struct Nothing;
    impl AstPass for Nothing {}
    let sql = "SELECT {'a': 1} FROM t";
    let stmt = sqlparser::parser::Parser::parse_sql(&sqlparser::dialect::DuckDbDialect {}, sql)
        .expect("DuckDB parses a dictionary")
        .remove(0);
    let ControlFlow::Break(e) = walk::statement(&stmt, sql, &mut Nothing) else {
        panic!("the walk accepted a dictionary");
    };
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax, "{e}");
    assert!(
        e.message().starts_with("a `{key: value}` dictionary")
            && e.message().contains(WALK_REFUSAL)
            && e.message().ends_with(
                "; build a map with `MAP(ARRAY[k, …], ARRAY[v, …])` in Trino, `map(k, v, …)` in Spark"
            ),
        "{e}"
    );
    // sqlparser gives a dictionary no span, so the refusal points at the statement's start.
    assert_eq!(
        e.location(),
        Some(&SqlLocation { line: 1, column: 1 }),
        "{e}"
    );
}

#[test]
fn a_refused_node_deep_inside_accepted_ones_is_found() {
    use StatementKind as K;
    // In a CASE, in an IN subquery, in a scalar subquery's WHERE, in a function argument.
    let sql = "SELECT CASE WHEN a IN (SELECT b FROM u WHERE c = (SELECT max(d) FROM v\n\
               WHERE coalesce(e, CONVERT(f, int)) > 0)) THEN 1 END FROM t";
    refused_at(sql, K::Select, Dialect::Athena, "`CONVERT(…)`", (2, 27));
    // In a CTE's join, under a set operation.
    let sql = "WITH c AS (SELECT a FROM t UNION ALL SELECT a FROM u ASOF JOIN w MATCH_CONDITION (u.ts >= w.ts) ON true)\nSELECT * FROM c";
    refused_at(sql, K::Select, Dialect::Spark, "`ASOF JOIN`", (1, 64));
    // In a MERGE action's value, and in a window's PARTITION BY.
    let sql =
        "MERGE INTO t USING s ON t.id = s.id\nWHEN MATCHED THEN UPDATE SET v = CONVERT(s.v, int)";
    refused_at(sql, K::Merge, Dialect::Spark, "`CONVERT(…)`", (2, 42));
    let sql = "SELECT row_number() OVER (PARTITION BY x COLLATE \"C\") FROM t";
    refused_at(sql, K::Select, Dialect::Athena, "`COLLATE`", (1, 40));
    // In a CREATE TABLE AS query.
    let sql = "CREATE TABLE db.t WITH (table_type = 'ICEBERG', location = 's3://b/t/', is_external = false) AS\nSELECT a FROM u WHERE b IN UNNEST(c)";
    refused_at(
        sql,
        K::CreateTableAs,
        Dialect::Athena,
        "`IN UNNEST(…)`",
        (2, 23),
    );
}

#[test]
fn inspect_refuses_what_the_walk_refuses() {
    let e = crate::validate::oracle::inspect::inspect_oracle(
        "SELECT CONVERT(x, int) FROM t",
        StatementKind::Select,
        Dialect::Athena,
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert!(e.message().contains(WALK_REFUSAL), "{e}");
    // A statement none of our kinds renders, read without the top-level check.
    let e = crate::validate::oracle::inspect::inspect_oracle(
        "TRUNCATE TABLE t",
        StatementKind::Select,
        Dialect::Spark,
    )
    .unwrap_err();
    assert!(e.message().starts_with("this statement"), "{e}");
}

#[test]
fn expression_forms_users_write_pass() {
    use StatementKind as K;
    let both = [
        "SELECT CASE WHEN x > 1 THEN 'a' WHEN x IS NULL THEN 'b' ELSE 'c' END, CASE x WHEN 1 THEN 'a' END FROM t",
        "SELECT x FROM t WHERE y BETWEEN 1 AND 5 AND z NOT IN (SELECT z FROM u) AND w IN (1, 2)",
        "SELECT x FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a) AND y LIKE 'a!%' ESCAPE '!'",
        "SELECT x FROM t WHERE y IS NOT NULL AND z IS DISTINCT FROM w AND v IS NOT DISTINCT FROM u",
        "SELECT EXTRACT(YEAR FROM ts), ts AT TIME ZONE 'UTC', ts + INTERVAL '1' DAY FROM t",
        "SELECT row_number() OVER (PARTITION BY a ORDER BY b DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t",
        "SELECT transform(a, x -> x + 1), filter(a, (x) -> x > 0), a[1], r.f, m['k'] FROM t",
        "SELECT TRY_CAST(x AS bigint), CAST(y AS decimal(10,2)), ROW(1, 'a'), (1, 2), -x, NOT z, (x * (y + 1)) % 3 FROM t",
        "SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00', x || y FROM t",
        "SELECT a, b, count(*) FROM t GROUP BY GROUPING SETS ((a), (a, b), ())",
        "SELECT a, b, count(*) FROM t GROUP BY ROLLUP (a, b)",
        "SELECT a, b, count(*) FROM t GROUP BY CUBE (a, b)",
        "SELECT a, count(DISTINCT b) FILTER (WHERE c > 0) FROM t GROUP BY a HAVING count(*) > 1",
        "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (n, s)",
        "WITH c AS (SELECT a FROM t) SELECT a FROM c UNION ALL SELECT a FROM u EXCEPT SELECT a FROM v",
        "SELECT a FROM t LEFT JOIN u ON t.id = u.id FULL OUTER JOIN w USING (id) CROSS JOIN z",
    ];
    for d in [Dialect::Athena, Dialect::Spark] {
        for sql in both {
            ok(sql, K::Select, d);
        }
    }
    ok(
        "SELECT ARRAY[1, 2], t.a, u.x FROM t CROSS JOIN UNNEST(t.arr) AS u (x)",
        K::Select,
        Dialect::Athena,
    );
    ok(
        "SELECT array(1, 2), struct(1 AS a), x FROM t LATERAL VIEW explode(arr) e AS x",
        K::Select,
        Dialect::Spark,
    );
}

#[test]
fn with_recursive_is_refused_on_spark_only() {
    let sql = "WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT n FROM t";
    let e = crate::validate::oracle::validate_sql(sql, StatementKind::Select, Dialect::Spark, 0)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax);
    assert!(
        e.message()
            .starts_with("WITH RECURSIVE is not Spark 3.5 syntax"),
        "{e}"
    );
    let loc = e.location().expect("located");
    assert_eq!((loc.line, loc.column), (1, 6), "{e}");
    crate::validate::oracle::validate_sql(sql, StatementKind::Select, Dialect::Athena, 0)
        .expect("Trino writes WITH RECURSIVE");
}
