//! The statements on tables, views and databases as the builders write them now, in
//! every dialect: ours reads each as a statement of its kind, into sqlparser's tree
//! where that converts, and agrees with the validator's verdict on its corruptions.

use super::fixture::{compare_trees, compare_verdict};
use super::*;
use crate::expr::ExpressionMethods;
use crate::statement::{Filter, TableStatements};
use crate::validate::parser::Rules;
use crate::{Column, DatabaseName, PartitionField, PartitionTransform, TableDef, TableName};

/// Every dialect.
const DIALECTS: [Dialect; 4] = [
    Dialect::Athena,
    Dialect::AthenaS3Tables,
    Dialect::Spark,
    Dialect::Trino,
];

/// A partitioned table of nested and parameterized types.
fn table() -> TableDef {
    TableDef::builder("lake", "events")
        .column(Column::new("id", IcebergType::Long).required())
        .column(Column::new("ts", IcebergType::Timestamp))
        .column(Column::new("name", IcebergType::String))
        .column(Column::new("amount", IcebergType::decimal(10, 2)))
        .column(Column::new(
            "tags",
            IcebergType::map(IcebergType::String, IcebergType::list(IcebergType::Int)),
        ))
        .column(Column::new(
            "loc",
            IcebergType::structure([("lat", IcebergType::Double), ("from", IcebergType::String)]),
        ))
        .partition(PartitionField::new("ts", PartitionTransform::Day))
        .partition(PartitionField::new("id", PartitionTransform::Bucket(16)))
        .partition(PartitionField::new("name", PartitionTransform::Truncate(4)))
        .location("s3://lake/events/")
        .build()
        .expect("a valid table")
}

/// The builders' DDL for `dialect` (what it refuses to write is left out).
fn built(dialect: Dialect) -> Vec<crate::Statement> {
    use crate::validate::tests::expr_structure::McpEvent;
    let t = table();
    let name = TableName::new("lake", "events");
    let db = DatabaseName::new("lake");
    let select = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .filter(McpEvent::LATENCY_MS.gt(5));
    let alter = t.alter();
    let all = [
        t.create_table().build_for(dialect),
        t.create_table().if_not_exists().build_for(dialect),
        alter
            .add_columns([
                Column::new("region", IcebergType::String),
                Column::new("cost", IcebergType::decimal(12, 2)),
            ])
            .build_for(dialect),
        alter
            .add_columns([Column::new("region", IcebergType::String)])
            .build_for(dialect),
        alter.drop_column("loc").build_for(dialect),
        alter.rename_column("name", "label").build_for(dialect),
        alter
            .widen_column("amount", IcebergType::decimal(12, 2))
            .build_for(dialect),
        alter
            .rename_table(TableName::new("lake", "events_v2"))
            .build_for(dialect),
        alter
            .unset_properties(["write_compression"])
            .build_for(dialect),
        name.drop_table().build_for(dialect),
        name.drop_table().if_exists().build_for(dialect),
        name.show_create_table().build_for(dialect),
        name.describe().build_for(dialect),
        name.describe().formatted().build_for(dialect),
        name.create_view(&select).build_for(dialect),
        name.create_view(&select).or_replace().build_for(dialect),
        name.drop_view().if_exists().build_for(dialect),
        db.create_database()
            .if_not_exists()
            .comment("events")
            .location("s3://lake/db/")
            .build_for(dialect),
        db.create_database().build_for(dialect),
        db.create_database()
            .location("s3://lake/db/")
            .build_for(dialect),
        db.drop_database().if_exists().cascade().build_for(dialect),
        db.show_tables().build_for(dialect),
        db.show_tables().like("ev*").build_for(dialect),
    ];
    let mut out: Vec<crate::Statement> = all.into_iter().filter_map(|s| s.ok()).collect();
    let staging = crate::Location::parse("s3://lake/staging/").expect("a location");
    if let Ok(plan) = crate::load::StagedLoad::new(&t, "load-1", staging).build_for(dialect) {
        out.push(plan.create_staging().clone());
        out.push(plan.drop_staging().clone());
    }
    out
}

/// Each built statement, in every dialect: read as its kind (into sqlparser's tree
/// where that converts), and its corruptions judged as the validator judges them.
#[test]
fn built_ddl_agrees() {
    let mut failures = Vec::new();
    let mut kinds = std::collections::HashSet::new();
    for dialect in DIALECTS {
        for stmt in built(dialect) {
            let (sql, kind) = (stmt.sql(), stmt.kind());
            kinds.insert(format!("{kind:?}"));
            let rules = Rules::of(dialect.grammar(kind));
            match parse_statement(sql, rules) {
                Ok(s) if super::fixture::is_of_kind(&s, kind) => {}
                other => failures.push(format!("{sql:?} ({dialect:?} {kind:?}): {other:?}")),
            }
            for v in std::iter::once(sql.to_string()).chain(corruptions(sql, rules)) {
                let outcome = compare_verdict(&v, dialect, kind)
                    .and_then(|()| compare_trees(&v, dialect, kind).map(|_| ()));
                if let Err(f) = outcome {
                    failures.push(f);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(kinds.len() >= 12, "kinds built: {kinds:?}");
}

/// Statement openers for DDL soups, with the kind each is checked as.
const DDL_HEADS: &[(&str, StatementKind)] = &[
    ("CREATE TABLE", StatementKind::CreateTable),
    ("CREATE TABLE", StatementKind::CreateTableAs),
    ("CREATE EXTERNAL TABLE", StatementKind::CreateStagingTable),
    ("CREATE TEMPORARY VIEW", StatementKind::CreateStagingTable),
    ("ALTER TABLE db.t", StatementKind::AlterTable),
    ("DROP TABLE", StatementKind::DropTable),
    ("DROP", StatementKind::DropDatabase),
    ("CREATE", StatementKind::CreateDatabase),
    ("CREATE", StatementKind::CreateView),
    ("SHOW TABLES", StatementKind::ShowTables),
    ("SHOW CREATE TABLE", StatementKind::ShowCreateTable),
    ("DESCRIBE", StatementKind::Describe),
];

/// Words and symbols for DDL soups.
const DDL_SOUP: &[&str] = &[
    "t",
    "db.t",
    "(",
    ")",
    ",",
    "a",
    "int",
    "string",
    "array<int>",
    "map(varchar, int)",
    "COMMENT",
    "'x'",
    "'s3://b/t/'",
    "LOCATION",
    "TBLPROPERTIES",
    "=",
    "USING",
    "iceberg",
    "PARTITIONED",
    "BY",
    "day(a)",
    "bucket(16, a)",
    "STORED",
    "AS",
    "PARQUET",
    "IF",
    "NOT",
    "EXISTS",
    "WITH",
    "ADD",
    "COLUMNS",
    "COLUMN",
    "DROP",
    "CHANGE",
    "RENAME",
    "TO",
    "SET",
    "UNSET",
    "IN",
    "LIKE",
    "CASCADE",
    "PURGE",
    "FORMATTED",
    "SELECT 1",
    "NULL",
    "TYPE",
    "DATABASE",
    "SCHEMA",
    "VIEW",
    "OPTIONS",
    "path",
    "PROPERTIES",
    "OR",
    "REPLACE",
    "?",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, rng_seed: super::SOUP_SEED, .. ProptestConfig::default() })]

    /// Random soups after each DDL opener, in each dialect: ours agrees with the
    /// validator's verdict on each.
    #[test]
    fn ddl_soups_agree(
        head in 0..DDL_HEADS.len(),
        picks in proptest::collection::vec(0..DDL_SOUP.len(), 1..12),
        dialect in 0..DIALECTS.len(),
    ) {
        let (first, kind) = DDL_HEADS[head];
        let body = picks.iter().map(|&i| DDL_SOUP[i]).collect::<Vec<_>>().join(" ");
        let sql = format!("{first} {body}");
        let outcome = compare_verdict(&sql, DIALECTS[dialect], kind)
            .and_then(|()| compare_trees(&sql, DIALECTS[dialect], kind).map(|_| ()));
        prop_assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
    }
}

/// What ours makes of a text in Hive's, Trino's and Spark's rules (`None`: read;
/// `Some(phrase)`: refused with an error holding the phrase).
pub(super) type Verdicts = [Option<&'static str>; 3];

/// Where the grammars' DDL differ: each text, and its [`Verdicts`].
pub(super) const DDL_CASES: &[(&str, Verdicts)] = &[
        (
            "DESCRIBE formatted",
            [Some("expected a name"), Some("`DESCRIBE FORMATTED` is Hive's"), Some("expected a name")],
        ),
        (
            "ALTER TABLE t CHANGE COLUMN a b int COMMENT 'x'",
            [None, Some("found `CHANGE`"), Some("found `CHANGE`")],
        ),
        (
            "ALTER TABLE t ADD COLUMNS (a int, b string)",
            [None, Some("found `ADD`"), None],
        ),
        (
            "ALTER TABLE t ADD COLUMN a int NOT NULL",
            [Some("found `ADD`"), None, None],
        ),
        (
            "ALTER TABLE t ALTER COLUMN a TYPE bigint",
            [Some("found `ALTER`"), Some("expected `SET`, found `TYPE`"), None],
        ),
        (
            "ALTER TABLE t ALTER COLUMN a SET DATA TYPE bigint",
            [Some("found `ALTER`"), None, Some("expected `TYPE`, found `SET`")],
        ),
        (
            "ALTER TABLE t SET PROPERTIES format = 'ORC', max_previous_versions = DEFAULT",
            [Some("found `SET`"), None, Some("found `SET`")],
        ),
        (
            "ALTER TABLE t SET TBLPROPERTIES ('k'='v')",
            [None, Some("found `SET`"), None],
        ),
        (
            "ALTER TABLE t EXECUTE optimize(file_size_threshold => '10MB') WHERE d > 1",
            [Some("found `EXECUTE`"), None, Some("found `EXECUTE`")],
        ),
        (
            "CREATE TABLE t (a int) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
            [None, Some("found `LOCATION`"), Some("expected `USING iceberg`")],
        ),
        (
            "CREATE TABLE t (a int) LOCATION 's3://b/t/'",
            [Some("expected `TBLPROPERTIES ('table_type'='ICEBERG', …)`"), Some("found `LOCATION`"), Some("expected `USING iceberg`")],
        ),
        (
            "CREATE TABLE t (a int) LOCATION 's3://b/t/' PARTITIONED BY (a) TBLPROPERTIES ('k'='v')",
            [Some("found `PARTITIONED`"), Some("found `LOCATION`"), Some("expected `USING iceberg`")],
        ),
        (
            "CREATE TABLE t (a int) TBLPROPERTIES ('k'='v') LOCATION 's3://b/t/' USING iceberg",
            [Some("found `LOCATION`"), Some("found `TBLPROPERTIES`"), None],
        ),
        (
            "CREATE TABLE t (a int) USING iceberg LOCATION 's3://a/' LOCATION 's3://b/'",
            [Some("found `USING`"), Some("found `USING`"), Some("a clause given twice")],
        ),
        (
            "CREATE TABLE t (a int) USING iceberg AS SELECT 1",
            [Some("found `USING`"), Some("found `USING`"), Some("expected the end of the statement, found `AS`")],
        ),
        (
            "CREATE TABLE t USING iceberg PARTITIONED BY (days(ts), bucket(16, id)) AS SELECT ts, id FROM u",
            [Some("expected `(`"), Some("expected `AS`"), None],
        ),
        (
            "CREATE TABLE t (a int) USING iceberg PARTITIONED BY (a + 1)",
            [Some("found `USING`"), Some("found `USING`"), Some("expected a partition field")],
        ),
        (
            "CREATE TABLE t (a int NOT NULL COMMENT 'x') COMMENT 'y' WITH (format = 'ORC')",
            [Some("found `NOT`"), None, Some("expected `USING iceberg`")],
        ),
        (
            "CREATE EXTERNAL TABLE s (a int) STORED AS PARQUET LOCATION 's3://b/s/'",
            [None, Some("found `EXTERNAL`"), Some("found `EXTERNAL`")],
        ),
        (
            "CREATE EXTERNAL TABLE s (a int) LOCATION 's3://b/s/'",
            [Some("expected `STORED`"), Some("found `EXTERNAL`"), Some("found `EXTERNAL`")],
        ),
        (
            "CREATE TEMPORARY VIEW s (a int) USING parquet OPTIONS (path 's3://b/s/')",
            [Some("found `TEMPORARY`"), Some("found `TEMPORARY`"), None],
        ),
        (
            "CREATE DATABASE d COMMENT 'c' LOCATION 's3://b/d/'",
            [None, Some("found `DATABASE`"), None],
        ),
        (
            "CREATE DATABASE d LOCATION 's3://b/d/' COMMENT 'c'",
            [Some("expected the end of the statement, found `COMMENT`"), Some("found `DATABASE`"), None],
        ),
        (
            "CREATE DATABASE d COMMENT 'c' COMMENT 'd'",
            [Some("expected the end of the statement, found `COMMENT`"), Some("found `DATABASE`"), Some("a clause given twice")],
        ),
        (
            "CREATE SCHEMA IF NOT EXISTS s WITH (location = 's3://b/s/')",
            [Some("expected the end of the statement, found `WITH`"), None, Some("expected the end of the statement, found `WITH`")],
        ),
        (
            "CREATE OR REPLACE VIEW v AS SELECT a FROM t",
            [Some("found `OR`"), None, None],
        ),
        (
            "CREATE VIEW v AS (SELECT a FROM t)",
            [Some("found `VIEW`"), Some("expected a query"), Some("expected a query")],
        ),
        ("DROP TABLE IF EXISTS t PURGE", [None, Some("expected the end of the statement, found `PURGE`"), None]),
        ("DROP VIEW IF EXISTS v", [Some("found `VIEW`"), None, None]),
        ("DROP DATABASE IF EXISTS d CASCADE", [None, Some("found `DATABASE`"), None]),
        ("DROP SCHEMA IF EXISTS d CASCADE", [None, None, None]),
        ("SHOW TABLES IN db 'a*|b*'", [None, Some("expected the end of the statement, found `'a*|b*'`"), None]),
        (
            "SHOW TABLES IN db LIKE 'a*'",
            [Some("expected the end of the statement, found `LIKE`"), None, None],
        ),
        (
            r"SHOW TABLES IN db LIKE 'a\_%' ESCAPE '\'",
            [Some("found `LIKE`"), None, Some("Unterminated string literal")],
        ),
        ("SHOW CREATE TABLE db.t", [None, None, None]),
        (
            "DESCRIBE FORMATTED db.t",
            [None, Some("`DESCRIBE FORMATTED` is Hive's"), None],
        ),
];

/// Each of [`DDL_CASES`] in each grammar's rules.
#[test]
fn ddl_grammar_differences() {
    for (sql, verdicts) in DDL_CASES {
        for (rules, verdict) in [&Rules::HIVE_DDL, &Rules::TRINO, &Rules::SPARK]
            .into_iter()
            .zip(verdicts)
        {
            let ours = parse_statement(sql, rules);
            match (verdict, &ours) {
                (None, Ok(_)) => {}
                (Some(phrase), Err(e)) if e.to_string().contains(phrase) => {
                    assert_eq!(e.kind(), ErrorKind::Syntax, "{sql} ({}): {e}", rules.name);
                }
                _ => panic!("{sql} ({}): expected {verdict:?}, got {ours:?}", rules.name),
            }
        }
    }
}
