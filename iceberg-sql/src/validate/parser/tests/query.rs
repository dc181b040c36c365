//! Queries, hand-written and built by the query builder.

use super::*;

/// Queries every grammar reads: each query form of our AST.
pub(super) const QUERIES: &[&str] = &[
        "SELECT 1",
        "SELECT *",
        "SELECT a, b AS c, d e FROM t",
        "SELECT t.* FROM db.t",
        "SELECT DISTINCT a FROM db.t AS x WHERE x.a > 1",
        "SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1",
        "SELECT a FROM t ORDER BY a DESC NULLS LAST, b ASC, c LIMIT 10",
        "SELECT a FROM t LIMIT ?",
        "WITH x AS (SELECT a FROM t), y AS (SELECT a FROM x) SELECT a FROM y",
        "SELECT s.a FROM t AS s JOIN u ON s.a = u.a LEFT JOIN v ON v.b = s.b",
        "SELECT * FROM t INNER JOIN u ON t.a = u.a RIGHT OUTER JOIN v ON v.a = t.a FULL JOIN w ON w.a = t.a",
        "SELECT * FROM t CROSS JOIN u",
        "SELECT * FROM t JOIN u USING (a) LEFT JOIN v USING (a, b)",
        "SELECT * FROM t, u WHERE t.a = u.a",
        "SELECT * FROM (SELECT a FROM t) AS sub",
        "SELECT * FROM (SELECT a FROM t) sub WHERE a IN (SELECT b FROM u)",
        "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a)",
        "SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u)",
        "SELECT (SELECT max(a) FROM u) + 1 AS m FROM t",
        "SELECT a FROM t WHERE a NOT IN (SELECT a FROM u) AND b = 1",
        "SELECT *, row_number() OVER (PARTITION BY a, b ORDER BY c DESC) AS rn FROM t",
        "SELECT sum(a) OVER () FROM t",
        "SELECT a FROM db.t FOR VERSION AS OF 5789234567890123456",
        "SELECT a FROM db.t FOR TIMESTAMP AS OF TIMESTAMP '2026-09-15 00:00:00 UTC' AS x",
        "SELECT a FROM t UNION SELECT a FROM u",
        "SELECT a FROM t UNION ALL SELECT b FROM u EXCEPT DISTINCT SELECT c FROM v INTERSECT SELECT d FROM w ORDER BY a LIMIT 3",
        "SELECT a FROM t INTERSECT ALL SELECT a FROM u INTERSECT SELECT a FROM x UNION DISTINCT SELECT a FROM v",
        "SELECT * FROM (SELECT a FROM t EXCEPT SELECT a FROM u) AS s WHERE a IN (SELECT b FROM v UNION SELECT c FROM w)",
        "WITH x AS (SELECT a FROM t UNION SELECT a FROM u) SELECT a FROM x EXCEPT ALL SELECT a FROM t",
        "SELECT a FROM t OFFSET 5",
        "SELECT a, b, count(*) FROM t GROUP BY GROUPING SETS ((a), (a, b), ())",
        "SELECT a, b FROM t GROUP BY ROLLUP (a, b), CUBE ((a, b), c)",
        "SELECT a FROM t GROUP BY a, GROUPING SETS (a, (b, c + 1))",
        "SELECT grouping(a), count(*) FROM t GROUP BY ROLLUP (a)",
        "SELECT * FROM t NATURAL JOIN u NATURAL LEFT OUTER JOIN v NATURAL FULL JOIN w",
        "SELECT * FROM t NATURAL INNER JOIN (SELECT a FROM u) AS s NATURAL RIGHT JOIN v",
        "SELECT x FROM LATERAL (SELECT 1 AS x) AS l",
        "SELECT sum(x) OVER w, rank() OVER (ORDER BY y) FROM t WINDOW w AS (PARTITION BY y), v AS (ORDER BY x DESC)",
        "SELECT a, count(*) OVER w FROM t GROUP BY a HAVING a > 1 WINDOW w AS ()",
        "SELECT x FROM t JOIN LATERAL (SELECT y FROM u WHERE u.a = t.a) AS l ON true",
        "SELECT x FROM t CROSS JOIN LATERAL (SELECT y FROM u WHERE u.a = t.a) l",
    ];

/// Row count clauses in the order each grammar takes them: Trino's `OFFSET n [ROW|ROWS]`
/// before `LIMIT` or `FETCH` (SqlBase.g4 `queryNoWith`), Spark's `LIMIT n OFFSET m`
/// (SqlBaseParser.g4 `queryOrganization`).
const ROW_COUNTS: &[(&str, Dialect)] = &[
    ("SELECT a FROM t OFFSET 1 ROW LIMIT 2", Dialect::Athena),
    ("SELECT a FROM t OFFSET ? ROWS", Dialect::Athena),
    (
        "SELECT a FROM t ORDER BY a OFFSET 2 ROWS FETCH NEXT 3 ROWS ONLY",
        Dialect::Athena,
    ),
    ("SELECT a FROM t FETCH FIRST ROW ONLY", Dialect::Athena),
    (
        "SELECT a FROM t ORDER BY a FETCH FIRST 2 ROWS WITH TIES",
        Dialect::Athena,
    ),
    (
        "SELECT a FROM t UNION SELECT b FROM u OFFSET 1 LIMIT 2",
        Dialect::Athena,
    ),
    ("SELECT a FROM t LIMIT 10 OFFSET 5", Dialect::Spark),
    (
        "SELECT a FROM t ORDER BY a LIMIT 1 OFFSET 5",
        Dialect::Spark,
    ),
];

/// Row count clauses in the other grammar's order or form: refused by ours, and by the
/// validator or on purpose (`DELIBERATE_STATEMENTS`).
const ROW_COUNTS_REFUSED: &[(&str, Dialect)] = &[
    ("SELECT a FROM t LIMIT 2 OFFSET 1", Dialect::Athena),
    (
        "SELECT a FROM t LIMIT 2 FETCH FIRST 1 ROWS ONLY",
        Dialect::Athena,
    ),
    ("SELECT a FROM t FETCH FIRST 1 ROWS", Dialect::Athena),
    ("SELECT a FROM t OFFSET 1 LIMIT 2", Dialect::Spark),
    ("SELECT a FROM t OFFSET 1 ROWS", Dialect::Spark),
    ("SELECT a FROM t FETCH FIRST 1 ROWS ONLY", Dialect::Spark),
];

/// The row count clauses of each grammar read as sqlparser reads them; the other
/// grammar's order refused.
#[test]
fn row_counts_in_each_grammar() {
    for (sql, dialect) in ROW_COUNTS {
        let rules = Rules::of(dialect.grammar(StatementKind::Select));
        assert_query_reads(sql, *dialect, rules);
        for variant in corruptions(sql, rules) {
            if let Err(e) = compare_query(&variant, *dialect, rules) {
                panic!("{e}");
            }
        }
    }
    // sqlparser's tree keeps no `LIMIT ALL` to compare: read, and accepted by both.
    let sql = "SELECT a FROM t LIMIT ALL OFFSET 5";
    let q = parse_query(sql, &Rules::SPARK).unwrap_or_else(|e| panic!("{sql}: {e}"));
    assert!(q.limit.is_some() && q.offset.is_some(), "{q:?}");
    crate::validate::oracle::validate_sql(sql, StatementKind::Select, Dialect::Spark, 0)
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    crate::validate::check::validate(sql, StatementKind::Select, Dialect::Spark, 0)
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    for (sql, dialect) in ROW_COUNTS_REFUSED {
        let rules = Rules::of(dialect.grammar(StatementKind::Select));
        let e = parse_query(sql, rules).expect_err(sql);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
        compare_query(sql, *dialect, rules).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// `INTERSECT` binds tighter than `UNION` and `EXCEPT`, which associate to the left.
#[test]
fn set_operations_nest_as_the_grammars_say() {
    let sql = "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT SELECT 4";
    for (_, rules) in GRAMMARS {
        let q = parse_query(sql, rules).unwrap_or_else(|e| panic!("{sql}: {e}"));
        let SetExpr::Operation {
            left, op, right, ..
        } = &q.body
        else {
            panic!("{q:?}");
        };
        assert_eq!(*op, SetOperator::Except, "{q:?}");
        assert!(matches!(**right, SetExpr::Select(_)), "{q:?}");
        let SetExpr::Operation {
            op, right: inner, ..
        } = &**left
        else {
            panic!("{q:?}");
        };
        assert_eq!(*op, SetOperator::Union, "{q:?}");
        assert!(
            matches!(
                **inner,
                SetExpr::Operation {
                    op: SetOperator::Intersect,
                    ..
                }
            ),
            "{q:?}"
        );
        assert_eq!(q.body.selects().len(), 4);
        // DuckDB's quantifier, which sqlparser reads in every dialect.
        for sql in [
            "SELECT a FROM t UNION BY NAME SELECT a FROM u",
            "SELECT a FROM t UNION ALL BY NAME SELECT a FROM u",
        ] {
            let e = parse_query(sql, rules).expect_err(sql);
            assert!(e.to_string().contains("`BY NAME` is not"), "{sql}: {e}");
        }
    }
}

/// Each query form, in both grammars, and corrupted.
#[test]
fn queries_agree_with_sqlparser() {
    for (dialect, rules) in GRAMMARS {
        for sql in QUERIES {
            assert_query_reads(sql, dialect, rules);
            for variant in corruptions(sql, rules) {
                if let Err(e) = compare_query(&variant, dialect, rules) {
                    panic!("{e}");
                }
            }
        }
    }
    for (sql, dialect) in [
        ("SELECT \"order\" FROM \"t\"", Dialect::Athena),
        ("SELECT `order` FROM `t`", Dialect::Spark),
        ("SELECT a FROM t VERSION AS OF 12", Dialect::Spark),
        (
            "SELECT a FROM t TIMESTAMP AS OF '2026-09-15 00:00:00' x",
            Dialect::Spark,
        ),
        ("SELECT * FROM t JOIN u", Dialect::Spark),
        (
            "SELECT * FROM t LEFT SEMI JOIN u ON t.a = u.a LEFT ANTI JOIN v USING (a) SEMI JOIN w",
            Dialect::Spark,
        ),
        (
            "SELECT * FROM t ANTI JOIN u NATURAL LEFT SEMI JOIN v",
            Dialect::Spark,
        ),
        ("SELECT a FROM t TABLESAMPLE BERNOULLI (10)", Dialect::Athena),
        (
            "SELECT * FROM TABLE(foo(1, 'a')) AS f JOIN t ON f.a = t.a",
            Dialect::Athena,
        ),
        (
            "SELECT t.a, u.x FROM t CROSS JOIN UNNEST(t.arr) AS u (x)",
            Dialect::Athena,
        ),
        (
            "SELECT * FROM t CROSS JOIN unnest(t.a, map(ARRAY['k'], ARRAY[1])) WITH ORDINALITY u (x, k, v, n)",
            Dialect::Athena,
        ),
        ("SELECT x FROM UNNEST(ARRAY[1, 2]) AS u (x)", Dialect::Trino),
        ("SELECT x FROM generate_series(1, 10)", Dialect::Spark),
        (
            "SELECT g.x, t.a FROM db.range(0, 10, 2) AS g (x) JOIN t ON g.x = t.a",
            Dialect::Spark,
        ),
        ("SELECT * FROM range() r, explode(array(1, 2)) e", Dialect::Spark),
        ("SELECT * FROM unnest(a) u", Dialect::Spark),
        ("SELECT x FROM t LATERAL VIEW explode(arr) e AS x", Dialect::Spark),
        (
            "SELECT * FROM t JOIN u ON t.a = u.a LATERAL VIEW OUTER posexplode(t.arr) e p, x \
             LATERAL VIEW explode(m) f k, v WHERE x > 1 GROUP BY k",
            Dialect::Spark,
        ),
        ("SELECT * FROM t LATERAL VIEW explode(arr) e", Dialect::Spark),
        ("SELECT * FROM UNNEST(ARRAY[1]) WITH ORDINALITY", Dialect::Athena),
        (
            "SELECT * FROM t LEFT JOIN UNNEST(t.arr) AS u (x) ON true",
            Dialect::Athena,
        ),
        ("SELECT a FROM t CLUSTER BY a, b + 1", Dialect::Spark),
        ("SELECT a, count(*) FROM t GROUP BY a CLUSTER BY a LIMIT 3", Dialect::Spark),
        (
            "SELECT a FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-09-15 00:00:00' AS x",
            Dialect::Spark,
        ),
        (
            "SELECT a FROM db.t AS x TABLESAMPLE SYSTEM (50.5) JOIN u TABLESAMPLE BERNOULLI (1 + 1) ON x.a = u.a",
            Dialect::Athena,
        ),
    ] {
        let rules = if dialect == Dialect::Spark {
            &Rules::SPARK
        } else {
            &Rules::TRINO
        };
        assert_query_reads(sql, dialect, rules);
    }
    for sql in [
        "SELECT * FROM t NATURAL CROSS JOIN u",
        "SELECT * FROM t NATURAL u",
        "SELECT * FROM lateral",
        "SELECT * FROM LATERAL t",
        "SELECT * FROM LATERAL (VALUES (1))",
        "SELECT a FROM t SYSTEM_TIME AS OF TIMESTAMP '2026-09-15 00:00:00'",
        "SELECT a FROM t FOR SYSTEM_VERSION AS OF 1",
        "SELECT sum(x) OVER w FROM t WINDOW w AS v",
        "SELECT sum(x) OVER (w ORDER BY y) FROM t WINDOW w AS (PARTITION BY y)",
        "SELECT a FROM t GROUP BY a HAVING count(*) > 1 CLUSTER BY a",
        "SELECT a FROM t CLUSTER BY a ORDER BY a",
        "SELECT a FROM t CLUSTER BY a HAVING count(*) > 1",
    ] {
        for (dialect, rules) in GRAMMARS {
            parse_query(sql, rules).expect_err(sql);
            compare_query(sql, dialect, rules).unwrap();
        }
    }
    for sql in [
        "SELECT a FROM t VERSION AS OF 12",
        "SELECT a FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-09-15 00:00:00 UTC'",
        "SELECT * FROM t JOIN u",
    ] {
        assert!(parse_query(sql, &Rules::TRINO).is_err(), "{sql}");
        compare_query(sql, Dialect::Athena, &Rules::TRINO).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, rng_seed: super::SOUP_SEED, .. ProptestConfig::default() })]

    /// SELECTs the query builder writes, with generated conditions, in each dialect:
    /// both parsers read the same tree.
    #[test]
    fn built_selects_agree(
        c in crate::validate::tests::expr_structure::cond(),
        spark in any::<bool>(),
        grouped in any::<bool>(),
        limit in 1u64..1000,
        desc in any::<bool>(),
    ) {
        use crate::expr::ExpressionMethods;
        use crate::query::Order;
        use crate::statement::{Filter, TableStatements};
        use crate::validate::tests::expr_structure::McpEvent;
        let (d, rules): (Dialect, &'static Rules) =
            if spark { (Dialect::Spark, &Rules::SPARK) } else { (Dialect::Athena, &Rules::TRINO) };
        let order = if desc { Order::Desc } else { Order::AscNullsFirst };
        let q = McpEvent::select().column(McpEvent::STATUS).filter(c);
        let q = if grouped {
            q.group_by(McpEvent::STATUS).order_by(McpEvent::STATUS, order)
        } else {
            q.expr_as(McpEvent::LATENCY_MS.sql_expr() * 2, "doubled")
                .order_by(McpEvent::LATENCY_MS, order)
        };
        let stmt = q.limit(limit).build_for(d).unwrap();
        let sql = stmt.sql();
        prop_assert!(parse_query(sql, rules).is_ok(), "{}", sql);
        prop_assert!(compare_query(sql, d, rules).is_ok(), "{}", compare_query(sql, d, rules).unwrap_err());
    }
}

/// Words and symbols for query soups.
const QUERY_SOUP: &[&str] = &[
    "SELECT",
    "a",
    "b",
    "t",
    "u.v",
    "*",
    "t.*",
    ",",
    "(",
    ")",
    "FROM",
    "WHERE",
    "GROUP BY",
    "HAVING",
    "ORDER BY",
    "LIMIT",
    "1",
    "=",
    "AND",
    "JOIN",
    "LEFT",
    "CROSS",
    "ON",
    "AS",
    "WITH",
    "USING",
    "DESC",
    "NULLS FIRST",
    "IN",
    "EXISTS",
    "NOT",
    "DISTINCT",
    "count(*)",
    "OVER",
    "FOR",
    "VERSION",
    "TIMESTAMP",
    "OF",
    "'x'",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, rng_seed: super::SOUP_SEED, .. ProptestConfig::default() })]

    /// Random query soups starting with SELECT: both parsers agree on each.
    #[test]
    fn query_soups_agree(
        picks in proptest::collection::vec(0..QUERY_SOUP.len(), 1..12),
        spark in any::<bool>(),
    ) {
        let body = picks.iter().map(|&i| QUERY_SOUP[i]).collect::<Vec<_>>().join(" ");
        let sql = format!("SELECT {body}");
        let (d, rules): (Dialect, &'static Rules) =
            if spark { (Dialect::Spark, &Rules::SPARK) } else { (Dialect::Athena, &Rules::TRINO) };
        prop_assert!(compare_query(&sql, d, rules).is_ok(), "{}", compare_query(&sql, d, rules).unwrap_err());
    }
}

/// A second table for the builder's joins.
struct Session;

impl Session {
    const EVENT_ID: crate::expr::Col<Session, String> = crate::expr::Col::new("event_id");
    const USER: crate::expr::Col<Session, String> = crate::expr::Col::new("user");
    const STATUS: crate::expr::Col<Session, String> = crate::expr::Col::new("session_status");
}

impl crate::record::IcebergTable for Session {
    fn table_def() -> &'static crate::TableDef {
        static DEF: std::sync::OnceLock<crate::TableDef> = std::sync::OnceLock::new();
        DEF.get_or_init(|| {
            crate::TableDef::builder("analytics", "sessions")
                .column(crate::Column::new("event_id", IcebergType::String))
                .column(crate::Column::new("user", IcebergType::String))
                .column(crate::Column::new("session_status", IcebergType::String))
                .build()
                .expect("a valid table")
        })
    }
    fn to_values(&self) -> Vec<Value> {
        Vec::new()
    }
}

/// Joins (`USING` for equal key names, `ON` otherwise), time travel and a quoted
/// reserved column, as the query builder writes them: both parsers read each alike.
#[test]
fn built_joins_and_time_travel_agree() {
    use crate::query::{JoinKind as Kind, Snapshot};
    use crate::statement::TableStatements;
    use crate::validate::tests::expr_structure::McpEvent;
    use chrono::TimeZone as _;
    let at = chrono::Utc.with_ymd_and_hms(2026, 9, 15, 12, 0, 0).unwrap();
    let queries = [
        McpEvent::select()
            .column(McpEvent::STATUS)
            .join(Kind::Inner, McpEvent::EVENT_ID, Session::EVENT_ID)
            .joined_column(Session::USER),
        McpEvent::select()
            .column(McpEvent::LATENCY_MS)
            .join(Kind::Left, McpEvent::STATUS, Session::STATUS)
            .joined_column(Session::STATUS),
        McpEvent::select()
            .column(McpEvent::STATUS)
            .as_of(Snapshot::Version(5_789_234_567_890_123_456)),
        McpEvent::select()
            .column(McpEvent::STATUS)
            .as_of(Snapshot::Timestamp(at)),
    ];
    for (dialect, rules) in GRAMMARS {
        let sqls: Vec<String> = queries
            .iter()
            .map(|q| {
                q.build_for(dialect)
                    .unwrap_or_else(|e| panic!("{e}"))
                    .sql()
                    .to_string()
            })
            .collect();
        assert!(sqls[0].contains(" USING ("), "{}", sqls[0]);
        assert!(sqls[1].contains(" ON "), "{}", sqls[1]);
        for sql in &sqls {
            assert_query_reads(sql, dialect, rules);
        }
    }
}

/// Metadata tables (`"db"."t$snapshots"` in Athena, `db.t.snapshots` in Spark), whole
/// rows and chosen columns, as the builder writes them.
#[test]
fn built_metadata_queries_agree() {
    use crate::query::{HistoryRow, ManifestRow, Order, SnapshotRow};
    let t = crate::TableName::new("analytics", "mcp_events");
    for (dialect, rules) in GRAMMARS {
        let sqls = [
            t.metadata::<SnapshotRow>().build_for(dialect),
            t.metadata::<HistoryRow>().build_for(dialect),
            t.metadata::<ManifestRow>().build_for(dialect),
            t.metadata::<SnapshotRow>()
                .column(SnapshotRow::SNAPSHOT_ID)
                .order_by(SnapshotRow::COMMITTED_AT, Order::Desc)
                .limit(20)
                .build_for(dialect),
        ];
        for stmt in sqls {
            let stmt = stmt.unwrap_or_else(|e| panic!("{e}"));
            assert_query_reads(stmt.sql(), dialect, rules);
        }
    }
}

/// A query nests exactly as deep in ours as in sqlparser before it is refused, through
/// brackets, CASTs, NOTs and calls.
#[test]
fn queries_nest_as_deep_as_in_sqlparser() {
    let forms: [(&str, &str); 4] = [
        ("(", ")"),
        ("CAST(", " AS bigint)"),
        ("NOT ", ""),
        ("f(", ")"),
    ];
    for (open, close) in forms {
        let sql = |n: usize| format!("SELECT 0 WHERE {}a{}", open.repeat(n), close.repeat(n));
        let ours = (100..200).find(|&n| parse_query(&sql(n), &Rules::TRINO).is_err());
        let theirs =
            (100..200).find(|&n| !matches!(theirs_query(&sql(n), Dialect::Athena), Ok(Ok(_))));
        assert!(ours.is_some(), "{open}");
        assert_eq!(ours, theirs, "{open}");
    }
}

/// Where ours refuses on purpose a `PIVOT` that sqlparser reads (it reads one after any
/// table factor, chained, with an alias, `DEFAULT ON NULL`, `ANY` or a subquery for its
/// values, any expression for its column): the text, and why. Spark 3.5's `fromClause`
/// is `FROM relation (',' relation)* lateralView* pivotClause? unpivotClause?`, with
/// `pivotClause`, `pivotColumn` and `pivotValue` (SqlBaseParser.g4) as ours reads them.
const PIVOT_REFUSED: &[(&str, &str)] = &[
    (
        "SELECT * FROM t PIVOT (sum(v) FOR k IN ('a')) AS p",
        "Spark's `fromClause` ends with the pivot: no alias after it",
    ),
    (
        "SELECT * FROM t PIVOT (sum(v) FOR k IN ('a')) PIVOT (max(v) FOR k IN ('b'))",
        "one `pivotClause?` per FROM clause",
    ),
    (
        "SELECT * FROM t PIVOT (sum(v) FOR k IN ('a')), u",
        "the relations come before the pivot, which takes the whole FROM clause",
    ),
    (
        "SELECT * FROM t PIVOT (sum(v) FOR k IN ('a')) JOIN u ON t.a = u.a",
        "joins are part of a `relation`, before the pivot",
    ),
    (
        "SELECT * FROM t JOIN u PIVOT (sum(v) FOR k IN ('a')) ON t.a = u.a",
        "a join's condition is part of its `relation`, before the pivot",
    ),
    (
        "SELECT * FROM t PIVOT (sum(v) FOR k IN ('a')) LATERAL VIEW explode(arr) e",
        "`lateralView*` comes before `pivotClause?`, and Spark's AstBuilder refuses the two \
         in one FROM clause (`NOT_ALLOWED_IN_FROM.LATERAL_WITH_PIVOT`)",
    ),
    (
        "SELECT * FROM t PIVOT (sum(v) FOR t.k IN ('a'))",
        "`pivotColumn` is a name or names in parentheses, unqualified",
    ),
    (
        "SELECT * FROM t PIVOT (sum(v) FOR k IN (ANY ORDER BY k))",
        "`pivotValue` is an expression (Snowflake's `ANY` is sqlparser's)",
    ),
    (
        "SELECT * FROM t PIVOT (sum(v) FOR k IN (SELECT k FROM u))",
        "`pivotValue`s are listed (Snowflake's subquery is sqlparser's)",
    ),
    (
        "SELECT * FROM t PIVOT (sum(v) FOR k IN ('a') DEFAULT ON NULL (0))",
        "no `DEFAULT ON NULL` (Snowflake's)",
    ),
];

/// Where ours reads a `PIVOT` that sqlparser refuses: the text, and why (Spark's grammar
/// reads it, see [`PIVOT_REFUSED`]).
const PIVOT_READ_BEYOND: &[(&str, &str)] = &[
    (
        "SELECT * FROM t PIVOT (sum(v) + 1 AS s FOR k IN ('a'))",
        "the aggregates are a `namedExpressionSeq`, any expressions (the analyzer asks for \
         aggregates); sqlparser reads only a call of a one-word name",
    ),
    (
        "SELECT * FROM t PIVOT (CAST(avg(v) AS DECIMAL(5, 2)) FOR k IN ('a'))",
        "the same: an aggregate inside another expression",
    ),
    (
        "SELECT * FROM t JOIN u ON t.a = u.a PIVOT (sum(v) FOR k IN ('a'))",
        "the pivot follows the FROM clause's relations, joins with their conditions \
         included; sqlparser reads it only right after a table factor",
    ),
];

/// Whether ours reads in `q` a pivot of a [`PIVOT_READ_BEYOND`] kind: an aggregate that
/// is no call of a one-word name, or a pivot after a join's condition.
fn pivot_beyond_sqlparser(q: &Query) -> bool {
    q.body.selects().iter().any(|s| {
        let Some(p) = &s.pivot else { return false };
        let no_call = p
            .aggregates
            .iter()
            .any(|(e, _)| !matches!(e, Expr::Function(f) if f.name.len() == 1));
        let after_condition = s.from.last().and_then(|t| t.joins.last()).is_some_and(|j| {
            matches!(
                j.constraint,
                JoinConstraint::On(_) | JoinConstraint::Using(_)
            )
        });
        no_call || after_condition
    })
}

/// Spark's `PIVOT`: both parsers read each form alike where sqlparser's reading is
/// Spark's, and the corruptions alike but for the listed differences; Trino's grammar
/// has none.
#[test]
fn spark_pivot_agrees_with_sqlparser() {
    let spark = &Rules::SPARK;
    for sql in [
        "SELECT x FROM t PIVOT (sum(v) FOR k IN ('a', 'b'))",
        "SELECT * FROM t PIVOT (sum(v) AS s, avg(w) a FOR (k, `j`) IN (('a', 1) AS a1, ('b', 2) b2)) \
         WHERE x > 1 ORDER BY x",
        "SELECT * FROM (SELECT k, v FROM u) s PIVOT (count(*) FOR k IN (1, 2 AS two)) GROUP BY x",
        "SELECT * FROM a, b JOIN c PIVOT (max(v) FOR k IN ('x'))",
        "SELECT * FROM range(10) PIVOT (`sum`(id) FOR id IN (1))",
    ] {
        assert_query_reads(sql, Dialect::Spark, spark);
        for variant in corruptions(sql, spark) {
            if let Err(e) = compare_query(&variant, Dialect::Spark, spark) {
                let beyond = theirs_query(&variant, Dialect::Spark).is_err()
                    && parse_query(&variant, spark).is_ok_and(|q| pivot_beyond_sqlparser(&q));
                assert!(beyond, "{e}");
            }
        }
        // Trino's grammar has no PIVOT: refused at parse time, as the validator refused
        // sqlparser's tree after the parse.
        let e = parse_query(sql, &Rules::TRINO).expect_err(sql);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{e}");
        // (Trino's joins take a condition and it has no table-valued function by name:
        // those are refused first.)
        if !sql.contains("JOIN") && !sql.contains("range(") {
            assert!(e.to_string().contains("`PIVOT` is Spark's"), "{e}");
        }
        compare_query(sql, Dialect::Athena, &Rules::TRINO).unwrap();
    }
    for (sql, _) in PIVOT_REFUSED {
        assert!(
            with_parsed(sql, StatementKind::Select, Dialect::Spark, |_| ()).is_ok(),
            "sqlparser should read {sql:?}"
        );
        let e = parse_query(sql, spark).expect_err(sql);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
        compare_query(sql, Dialect::Spark, spark).unwrap();
    }
    for (sql, _) in PIVOT_READ_BEYOND {
        assert!(
            with_parsed(sql, StatementKind::Select, Dialect::Spark, |_| ()).is_err(),
            "sqlparser should refuse {sql:?}"
        );
        let q = parse_query(sql, spark).expect(sql);
        assert!(pivot_beyond_sqlparser(&q), "{sql}");
    }
    // After `LATERAL VIEW`s neither reads a pivot (Spark's AstBuilder refuses the two
    // together).
    let sql = "SELECT * FROM t LATERAL VIEW explode(arr) e AS x PIVOT (sum(v) FOR k IN ('a'))";
    let e = parse_query(sql, spark).expect_err(sql);
    assert!(
        e.to_string()
            .contains("cannot be used together with `PIVOT`"),
        "{e}"
    );
    compare_query(sql, Dialect::Spark, spark).unwrap();
}

/// The tree of a `PIVOT`: aggregates and values with their aliases, the columns, after
/// the relations.
#[test]
fn a_pivot_is_read_into_its_tree() {
    let q = parse_query(
        "SELECT * FROM t JOIN u PIVOT (sum(v) s, count(*) FOR (k, j) IN ('a' AS x, 1 + 1, ('b', 2) y))",
        &Rules::SPARK,
    )
    .unwrap();
    let s = &q.body.selects()[0];
    assert_eq!(s.from.len(), 1);
    assert_eq!(s.from[0].joins.len(), 1);
    let p = s.pivot.as_deref().expect("a pivot");
    let name = |i: &Option<Ident>| i.as_ref().map(|i| i.value.clone());
    let aggregates: Vec<_> = p.aggregates.iter().map(|(e, a)| (e, name(a))).collect();
    assert!(
        matches!(aggregates[0], (Expr::Function(f), Some(ref a)) if f.name[0].value == "sum" && a == "s")
    );
    assert!(matches!(aggregates[1], (Expr::Function(f), None) if f.name[0].value == "count"));
    assert_eq!(aggregates.len(), 2);
    let columns: Vec<&str> = p.columns.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(columns, ["k", "j"]);
    let values: Vec<_> = p.values.iter().map(|(e, a)| (e, name(a))).collect();
    assert!(matches!(values[0], (Expr::Literal(_), Some(ref a)) if a == "x"));
    assert!(matches!(values[1], (Expr::Binary { .. }, None)));
    assert!(matches!(values[2], (Expr::Row(_), Some(ref a)) if a == "y"));
    // The pivot's span of names: `k` where it was written.
    let at = "SELECT * FROM t JOIN u PIVOT (sum(v) s, count(*) FOR (".len();
    assert_eq!(
        p.columns[0].span,
        Span {
            start: at,
            end: at + 1
        }
    );
    // Only one, last; none without `FROM`.
    assert!(parse_query("SELECT 1 PIVOT (sum(v) FOR k IN (1))", &Rules::SPARK).is_err());
}
