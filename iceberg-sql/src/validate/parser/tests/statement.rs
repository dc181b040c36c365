//! Statements: DML hand-written and built by the crate's builders, in both grammars,
//! and corrupted.

use super::*;
use crate::dml::MergeSource;
use crate::expr::{Col, ExpressionMethods};
use crate::record::IcebergTable;
use crate::statement::{Filter, TableStatements};
use crate::TableName;

/// Where our parser refuses on purpose statements sqlparser reads into nodes of our
/// AST, beyond the expression-level [`DELIBERATE`] list: a phrase of our error, and why.
pub(super) const DELIBERATE_STATEMENTS: &[(&str, &str)] = &[
    (
        "take no table alias",
        "sqlparser reads an alias after an UPDATE's or DELETE's table in every dialect; \
         Trino's grammar has none (`UPDATE qualifiedName SET`, `DELETE FROM qualifiedName`, \
         SqlBase.g4)",
    ),
    (
        "a MERGE needs at least one",
        "sqlparser reads a MERGE without `WHEN` clauses; Trino's grammar has `mergeCase+`, \
         and Spark's AstBuilder refuses it (`mergeStatementWithoutWhenClause`)",
    ),
    (
        "Spark's MERGE … INSERT names them",
        "sqlparser reads `INSERT VALUES (…)` without columns in a MERGE in every dialect; \
         Spark's `notMatchedAction` requires `'(' columns ')'` (or `*`), SqlBaseParser.g4",
    ),
    (
        "Spark takes the MATCHED clauses first",
        "sqlparser reads a MERGE's clauses in any order; Spark's grammar has \
         `matchedClause* notMatchedClause*` (SqlBaseParser.g4)",
    ),
    (
        "may leave out `AND …`",
        "sqlparser reads a clause after an unconditional one of its kind; Spark's AstBuilder \
         (`visitMergeIntoTable`) refuses it: only the last MATCHED or NOT MATCHED clause may \
         omit its condition",
    ),
    (
        "Spark's grammar takes `LIMIT n` before `OFFSET m`",
        "sqlparser reads `OFFSET n LIMIT m` in every dialect; Spark's `queryOrganization` \
         has `(LIMIT …)? (OFFSET …)?` in that order (SqlBaseParser.g4)",
    ),
    (
        "Trino's grammar takes either `LIMIT` or `FETCH`",
        "sqlparser reads `LIMIT n FETCH FIRST m ROWS ONLY`; Trino's `queryNoWith` has \
         `(LIMIT limitRowCount | FETCH …)?`, one or the other (SqlBase.g4)",
    ),
    (
        "`[LEFT] SEMI|ANTI JOIN` is Spark's",
        "sqlparser reads semi and anti joins in every dialect; Trino's `joinType` is \
         `INNER? | LEFT OUTER? | RIGHT OUTER? | FULL OUTER?` (SqlBase.g4)",
    ),
    (
        "`TABLESAMPLE BERNOULLI|SYSTEM` is Trino's",
        "sqlparser reads `TABLESAMPLE BERNOULLI (n)` in every dialect; Spark's `sample` is \
         `TABLESAMPLE '(' sampleMethod? ')'` (SqlBaseParser.g4)",
    ),
    (
        "has no `UPDATE SET *` after `NOT MATCHED BY SOURCE`",
        "sqlparser reads `WHEN NOT MATCHED BY SOURCE THEN UPDATE SET *`; Spark's \
         `notMatchedBySourceAction` is `DELETE | UPDATE SET assignmentList` (SqlBaseParser.g4)",
    ),
    (
        "after an `OFFSET`'s count is Trino's",
        "sqlparser reads `OFFSET n ROWS` in every dialect; Spark's `queryOrganization` has \
         `OFFSET offset=expression` (SqlBaseParser.g4)",
    ),
    (
        "`CLUSTER BY` comes last in Spark's",
        "sqlparser reads `CLUSTER BY` before `HAVING`, `WINDOW` and a query's `ORDER BY`; \
         Spark's `queryOrganization` takes it after them, and its AstBuilder refuses it with \
         `ORDER BY` (SqlBaseParser.g4)",
    ),
    (
        "`TABLE(f(…))` is Trino's",
        "sqlparser reads `TABLE(…)` as a relation in every dialect; Spark's `relationPrimary` \
         has none (its `functionTable` is `f(…)` by name, SqlBaseParser.g4)",
    ),
    (
        "expected a table function's call in `TABLE(…)`",
        "sqlparser reads any expression in `TABLE(…)`; Trino's `tableFunctionCall` is \
         `qualifiedName '(' … ')'` (SqlBase.g4)",
    ),
    (
        "expected a generator's call after `LATERAL VIEW`",
        "sqlparser reads any expression after `LATERAL VIEW`; Spark's `lateralView` is \
         `qualifiedName '(' … ')'` (SqlBaseParser.g4)",
    ),
];

/// Each [`DELIBERATE_STATEMENTS`] difference: sqlparser reads the statement, ours
/// refuses it with that phrase.
#[test]
fn deliberate_statement_differences() {
    let cases: [(&str, Dialect, &'static Rules, usize); 16] = [
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (1) \
             WHEN MATCHED THEN DELETE",
            Dialect::Spark,
            &Rules::SPARK,
            3,
        ),
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE \
             WHEN MATCHED AND s.a = 1 THEN UPDATE SET a = 1",
            Dialect::Spark,
            &Rules::SPARK,
            4,
        ),
        (
            "UPDATE db.t AS x SET a = 1",
            Dialect::Athena,
            &Rules::TRINO,
            0,
        ),
        (
            "DELETE FROM db.t x WHERE a = 1",
            Dialect::Athena,
            &Rules::TRINO,
            0,
        ),
        (
            "MERGE INTO t USING s ON t.id = s.id",
            Dialect::Spark,
            &Rules::SPARK,
            1,
        ),
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id)",
            Dialect::Spark,
            &Rules::SPARK,
            2,
        ),
        (
            "SELECT x FROM t OFFSET 5 LIMIT 10",
            Dialect::Spark,
            &Rules::SPARK,
            5,
        ),
        (
            "SELECT x FROM t LIMIT 2 FETCH FIRST 1 ROWS ONLY",
            Dialect::Athena,
            &Rules::TRINO,
            6,
        ),
        (
            "SELECT x FROM t LIMIT 2 OFFSET 1 ROWS",
            Dialect::Spark,
            &Rules::SPARK,
            10,
        ),
        (
            "SELECT a FROM t CLUSTER BY a ORDER BY a",
            Dialect::Spark,
            &Rules::SPARK,
            11,
        ),
        (
            "SELECT * FROM TABLE(foo(1))",
            Dialect::Spark,
            &Rules::SPARK,
            12,
        ),
        (
            "SELECT * FROM TABLE(1 + 1)",
            Dialect::Athena,
            &Rules::TRINO,
            13,
        ),
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN UPDATE SET *",
            Dialect::Spark,
            &Rules::SPARK,
            9,
        ),
        (
            "SELECT a FROM t TABLESAMPLE BERNOULLI (10)",
            Dialect::Spark,
            &Rules::SPARK,
            8,
        ),
        (
            "SELECT x FROM t LEFT SEMI JOIN u ON t.a = u.a",
            Dialect::Athena,
            &Rules::TRINO,
            7,
        ),
        (
            "SELECT * FROM t LATERAL VIEW 1 e",
            Dialect::Spark,
            &Rules::SPARK,
            DELIBERATE_STATEMENTS.len() - 1,
        ),
    ];
    let mut seen = vec![false; DELIBERATE_STATEMENTS.len()];
    for (sql, dialect, rules, why) in cases {
        let t = theirs_statement(sql, kind_of(sql), dialect);
        assert!(
            matches!(t, Ok(Ok(_))),
            "sqlparser should read {sql:?}: {t:?}"
        );
        let e = parse_statement(sql, rules).expect_err(sql);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{sql:?}: {e}");
        assert!(
            e.to_string().contains(DELIBERATE_STATEMENTS[why].0),
            "{sql:?}: {e}"
        );
        seen[why] = true;
    }
    assert!(
        seen.iter().all(|&s| s),
        "every listed difference has a case"
    );
}

/// What sqlparser made of the statement `sql` of `kind`, as ours.
pub(super) fn theirs_statement(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
) -> Result<Conv<Statement>, String> {
    with_parsed(sql, kind, dialect, |stmt| {
        Converter { sql, base: 0 }.statement(stmt)
    })
    .map_err(|e| e.to_string())
}

/// The statement kind the validator checks `sql` as (its first word).
fn kind_of(sql: &str) -> StatementKind {
    let first = sql
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    match first.as_str() {
        "INSERT" => StatementKind::Insert,
        "UPDATE" => StatementKind::Update,
        "DELETE" => StatementKind::Delete,
        "MERGE" => StatementKind::Merge,
        "OPTIMIZE" => StatementKind::Optimize,
        "UNLOAD" => StatementKind::Unload,
        "CREATE" => StatementKind::CreateTableAs,
        "CALL" => StatementKind::Optimize,
        "VACUUM" => StatementKind::Vacuum,
        _ => StatementKind::Select,
    }
}

/// `Ok` when both parsers agree on the statement `sql`.
fn compare_statement(sql: &str, dialect: Dialect, rules: &'static Rules) -> Result<(), String> {
    let kind = kind_of(sql);
    let ours = parse_statement(sql, rules);
    agreement(
        sql,
        dialect,
        kind,
        theirs_statement(sql, kind, dialect),
        &ours,
        statement_clause_word_as_name,
    )
}

/// [`clause_word_as_name`] for statements: the DML clause words too.
fn statement_clause_word_as_name(t: &Statement) -> bool {
    const DML_WORDS: &[&str] = &[
        "insert", "into", "values", "update", "set", "delete", "merge", "using", "when", "matched",
        "then",
    ];
    has_unquoted_name(t, CLAUSE_WORDS) || has_unquoted_name(t, DML_WORDS)
}

fn assert_statement_reads(sql: &str, dialect: Dialect, rules: &'static Rules) {
    if let Err(e) = compare_statement(sql, dialect, rules) {
        panic!("{e}");
    }
    assert!(
        parse_statement(sql, rules).is_ok(),
        "{sql:?} ({dialect:?}): {:?}",
        parse_statement(sql, rules)
    );
    assert!(
        matches!(theirs_statement(sql, kind_of(sql), dialect), Ok(Ok(_))),
        "{sql:?} ({dialect:?}): sqlparser {:?}",
        theirs_statement(sql, kind_of(sql), dialect)
    );
}

/// The statement and its corruptions: both parsers agree on each.
fn assert_agree_corrupted(sql: &str, dialect: Dialect, rules: &'static Rules) {
    assert_statement_reads(sql, dialect, rules);
    let failures: Vec<String> = corruptions(sql, rules)
        .iter()
        .filter_map(|v| compare_statement(v, dialect, rules).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} corruptions disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// DML every grammar reads: each statement form of our AST.
pub(super) const STATEMENTS: &[&str] = &[
    "INSERT INTO db.t (a, b) VALUES (1, 'x'), (2, NULL)",
    "INSERT INTO t VALUES (1)",
    "INSERT INTO db.t (a) SELECT a FROM u WHERE b = ?",
    "INSERT INTO t WITH x AS (SELECT a FROM u) SELECT a FROM x",
    "UPDATE db.t SET a = a + 1, b = CAST(NULL AS bigint) WHERE c IN ('x', 'y')",
    "UPDATE t SET a = 1",
    "DELETE FROM db.t WHERE a < 3 AND b IS NULL",
    "DELETE FROM t",
    "MERGE INTO db.t AS target USING db.s AS source ON target.id = source.id \
     WHEN MATCHED AND source.op = 'd' THEN DELETE \
     WHEN MATCHED THEN UPDATE SET v = source.v, w = 1 \
     WHEN NOT MATCHED THEN INSERT (id, v) VALUES (source.id, source.v)",
    "MERGE INTO t USING (SELECT id, v FROM s) AS src ON t.id = src.id \
     WHEN NOT MATCHED AND src.v > 0 THEN INSERT (id) VALUES (src.id)",
    "MERGE INTO t AS x USING (VALUES (1, 'a'), (2, NULL)) AS s (id, v) ON x.id = s.id \
     WHEN MATCHED THEN UPDATE SET v = s.v",
    "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS r (id, v) WHERE id > 1",
    "SELECT * FROM (VALUES (1)) r",
];

/// DML only Trino's grammar reads.
pub(super) const TRINO_ONLY_STATEMENTS: &[&str] = &[
    "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id)",
    "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id) \
     WHEN MATCHED AND s.a = 1 THEN DELETE WHEN MATCHED THEN UPDATE SET a = 1",
];

/// DML ours refuses in Trino's grammar on purpose (see `DELIBERATE`).
pub(super) const TRINO_REFUSED_STATEMENTS: &[&str] = &[
    "UPDATE db.t AS x SET a = 1",
    "DELETE FROM db.t x WHERE a = 1",
    "MERGE INTO t USING s ON t.id = s.id",
];

/// Each DML form, in both grammars, and corrupted.
#[test]
fn statements_agree_with_sqlparser() {
    for (dialect, rules) in GRAMMARS {
        for sql in STATEMENTS {
            assert_agree_corrupted(sql, dialect, rules);
        }
    }
}

/// Where the grammars differ on DML: Spark reads aliases on `UPDATE`/`DELETE` targets
/// and qualified `SET` targets, and requires a `MERGE` `INSERT`'s columns; Trino the
/// reverse.
#[test]
fn dml_grammar_differences() {
    let spark_only = [
        (
            "UPDATE db.t AS x SET x.a = 1 WHERE x.b = 2",
            "take no table alias",
        ),
        ("DELETE FROM db.t x WHERE x.a = 1", "take no table alias"),
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.v = s.v",
            "expected `=` (the column of a `SET` is one name in Trino), found `.`",
        ),
    ];
    for (sql, error) in spark_only {
        assert_statement_reads(sql, Dialect::Spark, &Rules::SPARK);
        let e = parse_statement(sql, &Rules::TRINO).unwrap_err();
        assert!(e.to_string().contains(error), "{e}");
        compare_statement(sql, Dialect::Athena, &Rules::TRINO).unwrap();
    }
    for sql in TRINO_ONLY_STATEMENTS {
        assert_statement_reads(sql, Dialect::Athena, &Rules::TRINO);
        parse_statement(sql, &Rules::SPARK).expect_err(sql);
        compare_statement(sql, Dialect::Spark, &Rules::SPARK).unwrap();
    }
    let trino_only = TRINO_ONLY_STATEMENTS[0];
    assert_statement_reads(trino_only, Dialect::Athena, &Rules::TRINO);
    let e = parse_statement(trino_only, &Rules::SPARK).unwrap_err();
    assert!(
        e.to_string()
            .contains("expected `(` and the columns to insert (Spark's MERGE … INSERT names them), found `VALUES`"),
        "{e}"
    );
    compare_statement(trino_only, Dialect::Spark, &Rules::SPARK).unwrap();
}

/// Spark's MERGE forms (SqlBaseParser.g4 `matchedAction`, `notMatchedClause`,
/// `notMatchedBySourceClause`): read in Spark as sqlparser reads them, refused in
/// Trino's grammar (`mergeCase` has none), which the validator refuses after the parse.
#[test]
fn spark_merge_forms() {
    for sql in [
        "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * \
         WHEN NOT MATCHED THEN INSERT *",
        "MERGE INTO t USING (SELECT id, v FROM u) AS s ON t.id = s.id \
         WHEN MATCHED AND s.v IS NULL THEN DELETE \
         WHEN NOT MATCHED BY TARGET THEN INSERT (id) VALUES (s.id) \
         WHEN NOT MATCHED BY SOURCE AND t.v > 1 THEN UPDATE SET v = 0 \
         WHEN NOT MATCHED BY SOURCE THEN DELETE",
    ] {
        assert_agree_corrupted(sql, Dialect::Spark, &Rules::SPARK);
        assert_statement_reads(sql, Dialect::Spark, &Rules::SPARK);
        parse_statement(sql, &Rules::TRINO).expect_err(sql);
        compare_statement(sql, Dialect::Athena, &Rules::TRINO).unwrap();
    }
    let Ok(Statement::Merge(m)) = parse_statement(
        "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE",
        &Rules::SPARK,
    ) else {
        panic!("BY SOURCE is read");
    };
    assert_eq!(m.clauses[0].by, NotMatchedBy::Source);
    assert!(!m.clauses[0].matched);
    for (sql, error) in [
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE \
             WHEN NOT MATCHED THEN INSERT *",
            "Spark takes the MATCHED clauses first, then NOT MATCHED, then NOT MATCHED BY",
        ),
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN DELETE \
             WHEN NOT MATCHED BY SOURCE THEN DELETE",
            "only the last MATCHED (or NOT MATCHED) clause",
        ),
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY SOURCE THEN INSERT *",
            "expected `UPDATE SET` or `DELETE`",
        ),
        (
            "MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY TARGET THEN DELETE",
            "expected `INSERT`",
        ),
    ] {
        let e = parse_statement(sql, &Rules::SPARK).expect_err(sql);
        assert!(e.to_string().contains(error), "{sql}: {e}");
        compare_statement(sql, Dialect::Spark, &Rules::SPARK).unwrap();
    }
}

/// A record of every value kind the insert builder writes.
struct Wide {
    values: Vec<Value>,
}

impl Wide {
    const ID: Col<Wide, i64> = Col::new("id");
    const NAME: Col<Wide, Option<String>> = Col::new("name");
}

impl IcebergTable for Wide {
    fn table_def() -> &'static crate::TableDef {
        static DEF: std::sync::OnceLock<crate::TableDef> = std::sync::OnceLock::new();
        DEF.get_or_init(|| {
            crate::TableDef::builder("lake", "wide")
                .column(crate::Column::new("id", IcebergType::Long).required())
                .column(crate::Column::new("name", IcebergType::String))
                .column(crate::Column::new(
                    "tags",
                    IcebergType::list(IcebergType::String),
                ))
                .column(crate::Column::new(
                    "attrs",
                    IcebergType::map(IcebergType::String, IcebergType::Int),
                ))
                .column(crate::Column::new(
                    "loc",
                    IcebergType::structure([
                        ("lat", IcebergType::Double),
                        ("label", IcebergType::String),
                    ]),
                ))
                .column(crate::Column::new("amount", IcebergType::decimal(10, 2)))
                .column(crate::Column::new("day", IcebergType::Date))
                .column(crate::Column::new("raw", IcebergType::Binary))
                .build()
                .expect("a valid table")
        })
    }
    fn to_values(&self) -> Vec<Value> {
        self.values.clone()
    }
}

fn wide_rows() -> [Wide; 2] {
    [
        Wide {
            values: vec![
                Value::Long(7),
                Value::from("O'Reilly \\ -- /* ?"),
                Value::List(vec!["a".into(), Value::Null]),
                Value::Map(vec![("k".into(), Value::Int(1))]),
                Value::Struct(vec![Value::Double(1.5), "x\\y".into()]),
                Value::Decimal(Decimal::parse("12.5").expect("a decimal")),
                Value::Date(chrono::NaiveDate::from_ymd_opt(2026, 10, 1).expect("a date")),
                Value::Binary(vec![0, 255]),
            ],
        },
        Wide {
            values: vec![
                Value::Long(8),
                Value::Null,
                Value::List(vec![]),
                Value::Map(vec![]),
                Value::Null,
                Value::Null,
                Value::Null,
                Value::Null,
            ],
        },
    ]
}

/// The DML the builders write, in each dialect: both parsers read each alike, and
/// agree on its corruptions.
#[test]
fn built_dml_agrees() {
    use crate::validate::tests::expr_structure::McpEvent;
    let rows = wide_rows();
    let staging = TableName::new("analytics", "mcp_events_staging");
    for (dialect, rules) in GRAMMARS {
        let select = McpEvent::select()
            .column(McpEvent::EVENT_ID)
            .column(McpEvent::STATUS)
            .filter(McpEvent::LATENCY_MS.gt(5))
            .build_for(dialect)
            .unwrap_or_else(|e| panic!("{e}"));
        let built = [
            Wide::insert(&rows).build_for(dialect),
            McpEvent::insert_from(&staging).build_for(dialect),
            McpEvent::insert_from(&staging)
                .filter(McpEvent::STATUS.eq(crate::dsl::param("x")))
                .build_for(dialect),
            McpEvent::update()
                .set(McpEvent::STATUS, "retried")
                .set(McpEvent::LATENCY_MS, McpEvent::LATENCY_MS + 10)
                .set_null(McpEvent::PAYLOAD)
                .filter(McpEvent::EVENT_ID.eq("evt-001"))
                .build_for(dialect),
            McpEvent::delete()
                .filter(McpEvent::PAYLOAD.is_null())
                .build_for(dialect),
            McpEvent::delete().all_rows().build_for(dialect),
            Wide::update()
                .set(Wide::NAME, "n")
                .filter(Wide::ID.eq(1))
                .build_for(dialect),
            McpEvent::merge_from(MergeSource::table(staging.clone()))
                .on_key(McpEvent::EVENT_ID)
                .when_matched_and(crate::dsl::source(McpEvent::STATUS).eq("deleted"))
                .delete()
                .when_matched()
                .update_all()
                .when_not_matched()
                .insert_all()
                .build_for(dialect),
            McpEvent::merge_from(MergeSource::table(staging.clone()))
                .on_key(McpEvent::EVENT_ID)
                .on_key(McpEvent::STATUS)
                .null_safe_keys()
                .dedup_source(McpEvent::LATENCY_MS)
                .when_matched()
                .update_all()
                .when_not_matched()
                .insert_all()
                .build_for(dialect),
            Wide::merge_from(MergeSource::rows(&rows))
                .on_key(Wide::ID)
                .when_matched_and(crate::dsl::target(Wide::NAME).is_null())
                .update(|u| u.set(Wide::NAME, crate::dsl::source(Wide::NAME)))
                .when_not_matched()
                .insert_all()
                .build_for(dialect),
            Wide::merge_from(MergeSource::rows(&rows))
                .on_key(Wide::ID)
                .dedup_source(Wide::ID)
                .when_matched()
                .delete()
                .build_for(dialect),
            McpEvent::merge_from(MergeSource::query(&select))
                .on_key(McpEvent::EVENT_ID)
                .when_not_matched()
                .insert_all()
                .build_for(dialect),
        ];
        for stmt in built {
            let stmt = stmt.unwrap_or_else(|e| panic!("{e}"));
            assert_agree_corrupted(stmt.sql(), dialect, rules);
        }
    }
}

/// The statement forms the module documentation lists as not read yet are refused, in
/// every grammar.
#[test]
fn statements_not_yet_read_are_refused() {
    for sql in [
        "INSERT OVERWRITE t SELECT 1",
        "INSERT INTO TABLE t VALUES (1)",
        "INSERT INTO t (SELECT 1)",
        "INSERT INTO t VALUES 1, 2",
        "UPDATE t SET a = u.a FROM u WHERE t.id = u.id",
        "DELETE FROM t USING u WHERE t.id = u.id",
        "MERGE INTO t USING s JOIN u ON s.id = u.id ON t.id = s.id WHEN MATCHED THEN DELETE",
        "CREATE TABLE IF NOT EXISTS t AS SELECT 1",
        "CREATE TABLE t (a) AS SELECT 1",
        "CREATE TABLE t AS (SELECT 1)",
        "CREATE TABLE t (a int) PARTITIONED BY (a int)",
        "CREATE TABLE t (a int) CLUSTERED BY (a) INTO 4 BUCKETS",
        "CREATE OR REPLACE TABLE t (a int) USING iceberg",
        "ALTER TABLE t CHANGE COLUMN a b int FIRST",
        "ALTER TABLE t ADD COLUMN a int FIRST",
        "CREATE DATABASE d WITH DBPROPERTIES ('k'='v')",
        "DROP TABLE t RESTRICT",
        "DROP SCHEMA s RESTRICT",
        "DESCRIBE EXTENDED t",
        "DESC t",
        "SHOW CREATE TABLE t AS SERDE",
        "CALL p(a := 1)",
    ] {
        for rules in [&Rules::HIVE_DDL, &Rules::TRINO, &Rules::SPARK] {
            let e = parse_statement(sql, rules).expect_err(sql);
            assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
        }
    }
    // Partition evolution is Spark's (Iceberg's SQL extensions); Hive's and Trino's
    // grammars have no such ALTER TABLE.
    for sql in [
        "ALTER TABLE t ADD PARTITION FIELD bucket(16, id)",
        "ALTER TABLE t DROP PARTITION FIELD days(ts)",
        "ALTER TABLE t REPLACE PARTITION FIELD days(ts) WITH hours(ts)",
    ] {
        for rules in [&Rules::HIVE_DDL, &Rules::TRINO] {
            let e = parse_statement(sql, rules).expect_err(sql);
            assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
        }
        parse_statement(sql, &Rules::SPARK).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    // A Hive-style partition, though, is Hive's alone.
    let sql = "ALTER TABLE t ADD IF NOT EXISTS PARTITION (dt = '2026-10-01') LOCATION 's3://b/t/dt=2026-10-01/'";
    parse_statement(sql, &Rules::HIVE_DDL).unwrap_or_else(|e| panic!("{sql}: {e}"));
    for rules in [&Rules::TRINO, &Rules::SPARK] {
        assert_eq!(
            parse_statement(sql, rules).expect_err(sql).kind(),
            ErrorKind::Syntax
        );
    }
    // Hive's bit operators and `<=>` in Athena's OPTIMIZE condition (the oracle
    // accepts them there).
    for op in ["a & 1 = 1", "a | 1 = 1", "a ^ 1 = 1", "~a = 1", "a <=> 1"] {
        let sql = format!("OPTIMIZE t REWRITE DATA USING BIN_PACK WHERE {op}");
        let e = parse_statement(&sql, &Rules::HIVE_DDL).expect_err(&sql);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{sql}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, rng_seed: super::SOUP_SEED, .. ProptestConfig::default() })]

    /// UPDATE, DELETE and INSERT … SELECT the builders write with generated conditions,
    /// in each dialect: both parsers read the same tree.
    #[test]
    fn built_dml_with_generated_conditions_agree(
        c in crate::validate::tests::expr_structure::cond(),
        spark in any::<bool>(),
        which in 0..3usize,
    ) {
        use crate::validate::tests::expr_structure::McpEvent;
        let (d, rules): (Dialect, &'static Rules) =
            if spark { (Dialect::Spark, &Rules::SPARK) } else { (Dialect::Athena, &Rules::TRINO) };
        let stmt = match which {
            0 => McpEvent::update()
                .set(McpEvent::LATENCY_MS, McpEvent::LATENCY_MS * 2)
                .filter(c)
                .build_for(d),
            1 => McpEvent::delete().filter(c).build_for(d),
            _ => McpEvent::insert_from(&TableName::new("analytics", "staging"))
                .filter(c)
                .build_for(d),
        }
        .unwrap();
        let sql = stmt.sql();
        prop_assert!(parse_statement(sql, rules).is_ok(), "{}", sql);
        prop_assert!(
            compare_statement(sql, d, rules).is_ok(),
            "{}",
            compare_statement(sql, d, rules).unwrap_err()
        );
    }
}

/// Words and symbols for DML soups.
const DML_SOUP: &[&str] = &[
    "INTO", "t", "s.a", "(", ")", ",", "=", "1", "'x'", "?", "VALUES", "SELECT", "FROM", "WHERE",
    "SET", "a", "AS", "USING", "ON", "WHEN", "NOT", "MATCHED", "AND", "THEN", "UPDATE", "DELETE",
    "INSERT", "*", "NULL",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, rng_seed: super::SOUP_SEED, .. ProptestConfig::default() })]

    /// Random soups after each DML keyword: both parsers agree on each.
    #[test]
    fn dml_soups_agree(
        head in 0..4usize,
        picks in proptest::collection::vec(0..DML_SOUP.len(), 1..14),
        spark in any::<bool>(),
    ) {
        let first = ["INSERT", "UPDATE", "DELETE", "MERGE"][head];
        let body = picks.iter().map(|&i| DML_SOUP[i]).collect::<Vec<_>>().join(" ");
        let sql = format!("{first} {body}");
        let (d, rules): (Dialect, &'static Rules) =
            if spark { (Dialect::Spark, &Rules::SPARK) } else { (Dialect::Athena, &Rules::TRINO) };
        prop_assert!(
            compare_statement(&sql, d, rules).is_ok(),
            "{}",
            compare_statement(&sql, d, rules).unwrap_err()
        );
    }
}

/// A marker for columns of [`partitioned`].
struct Part;

/// A table partitioned by identity on `day` and `name`.
fn partitioned() -> crate::TableDef {
    crate::TableDef::builder("lake", "parts")
        .column(crate::Column::new("id", IcebergType::Long))
        .column(crate::Column::new("day", IcebergType::Date))
        .column(crate::Column::new("name", IcebergType::String))
        .partition(crate::PartitionField::identity("day"))
        .partition(crate::PartitionField::identity("name"))
        .location("s3://lake/parts/")
        .build()
        .expect("a valid table")
}

/// Athena's OPTIMIZE and VACUUM, hand-written and as the builders write them (its DDL,
/// read with the Hive DDL rules as the validator does): both parsers read each alike,
/// and agree on the corruptions; the other grammars have neither statement.
#[test]
fn athena_maintenance_agrees() {
    let t = partitioned();
    let day: Col<Part, chrono::NaiveDate> = Col::new("day");
    let name: Col<Part, String> = Col::new("name");
    let first = chrono::NaiveDate::from_ymd_opt(2026, 10, 1).expect("a date");
    let built = [
        t.optimize().build_for(Dialect::Athena),
        t.optimize()
            .filter(day.ge(first))
            .filter(name.eq("c1"))
            .build_for(Dialect::Athena),
        t.vacuum().build_for(Dialect::Athena),
    ];
    let mut sqls: Vec<String> = built
        .into_iter()
        .map(|s| s.unwrap_or_else(|e| panic!("{e}")).sql().to_string())
        .collect();
    sqls.push("OPTIMIZE db.t REWRITE DATA USING BIN_PACK WHERE a = 1 OR b IN ('x')".into());
    sqls.push("VACUUM t".into());
    for sql in &sqls {
        assert_agree_corrupted(sql, Dialect::Athena, &Rules::HIVE_DDL);
        for rules in [&Rules::TRINO, &Rules::SPARK] {
            let e = parse_statement(sql, rules).expect_err(sql);
            assert!(e.to_string().contains("expected a statement"), "{e}");
        }
    }
}

/// Athena's UNLOAD, hand-written and as its builder writes it (read with the Trino
/// grammar's rules, as the validator reads it): both parsers read each alike, and agree
/// on the corruptions; Spark has no UNLOAD.
#[test]
fn athena_unload_agrees() {
    use crate::ctas::{Unload, UnloadFormat};
    use crate::validate::tests::expr_structure::McpEvent;
    use crate::Compression;
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::STATUS)
        .filter(McpEvent::LATENCY_MS.gt(100))
        .filter(McpEvent::STATUS.eq("it's"));
    let built = [
        Unload::new(&q, "s3://exports/a/")
            .format(UnloadFormat::Parquet)
            .compression(Compression::Snappy)
            .partitioned_by(["status"])
            .build(),
        Unload::new(&q, "s3://exports/json/")
            .format(UnloadFormat::Json)
            .build(),
    ];
    let mut sqls: Vec<String> = built
        .into_iter()
        .map(|s| s.unwrap_or_else(|e| panic!("{e}")).sql().to_string())
        .collect();
    sqls.push("UNLOAD (SELECT a FROM t) TO 's3://b/it''s/'".into());
    for sql in &sqls {
        assert_agree_corrupted(sql, Dialect::Athena, &Rules::TRINO);
        let e = parse_statement(sql, &Rules::SPARK).expect_err(sql);
        assert!(e.to_string().contains("expected a statement"), "{e}");
    }
}

/// CTAS every Trino grammar reads, hand-written.
pub(super) const TRINO_CTAS: &[&str] = &[
    "CREATE TABLE db.t WITH (format = 'PARQUET', partitioning = ARRAY['day(ts)', 'a'], \
     is_external = false, bucket_count = 8) AS SELECT a, CAST(ts AS timestamp(6)) AS ts FROM u",
    "CREATE TABLE t AS WITH x AS (SELECT 1 AS a) SELECT a FROM x",
    "CREATE TABLE db.t WITH (table_type = 'ICEBERG') AS SELECT * FROM u WITH NO DATA",
    "CREATE TABLE t AS SELECT 1 AS a WITH DATA",
];

/// Athena's CTAS (Iceberg and Hive), hand-written and as its builders write it (read
/// with the Trino grammar's rules, as the validator reads it): both parsers read each
/// alike, and agree on the corruptions.
#[test]
fn athena_ctas_agrees() {
    use crate::ctas::{HiveCtas, IcebergCtas};
    use crate::validate::tests::expr_structure::McpEvent;
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .column(McpEvent::STATUS)
        .filter(McpEvent::LATENCY_MS.gt(100));
    let built = [
        IcebergCtas::new(TableName::new("analytics", "daily"), &q)
            .location("s3://lake/iceberg/daily/")
            .partition(crate::PartitionField::new(
                "event_id",
                crate::PartitionTransform::Bucket(16),
            ))
            .partition(crate::PartitionField::identity("status"))
            .build(),
        HiveCtas::new(TableName::new("analytics", "parquet"), &q)
            .compression(crate::Compression::Snappy)
            .external_location("s3://lake/parquet/")
            .partitioned_by(["status"])
            .bucketed_by(["event_id"], 8)
            .build(),
    ];
    let mut sqls: Vec<String> = built
        .into_iter()
        .map(|s| s.unwrap_or_else(|e| panic!("{e}")).sql().to_string())
        .collect();
    sqls.extend(TRINO_CTAS.iter().map(|s| s.to_string()));
    for sql in &sqls {
        assert_agree_corrupted(sql, Dialect::Athena, &Rules::TRINO);
    }
}

/// Spark's CALLs of Iceberg's procedures, hand-written and as the OPTIMIZE and VACUUM
/// builders write them: both parsers read each alike, and agree on the corruptions; the
/// other grammars have no CALL.
#[test]
fn spark_call_agrees() {
    let t = partitioned();
    let day: Col<Part, chrono::NaiveDate> = Col::new("day");
    let first = chrono::NaiveDate::from_ymd_opt(2026, 10, 1).expect("a date");
    let built = [
        t.optimize().build_for(Dialect::Spark),
        t.optimize().filter(day.ge(first)).build_for(Dialect::Spark),
        t.vacuum().build_for(Dialect::Spark),
    ];
    let mut sqls: Vec<String> = built
        .into_iter()
        .map(|s| s.unwrap_or_else(|e| panic!("{e}")).sql().to_string())
        .collect();
    sqls.push(
        "CALL `local`.system.rewrite_data_files(table => 'db.t', options => map('a', '1'))".into(),
    );
    sqls.push("CALL c.system.expire_snapshots('db.t', TIMESTAMP '2026-09-24 00:00:00', 5)".into());
    for sql in &sqls {
        assert!(sql.starts_with("CALL "), "{sql}");
        assert_agree_corrupted(sql, Dialect::Spark, &Rules::SPARK);
        for rules in [&Rules::TRINO, &Rules::HIVE_DDL] {
            let e = parse_statement(sql, rules).expect_err(sql);
            assert!(e.to_string().contains("expected a statement"), "{e}");
        }
    }
}
