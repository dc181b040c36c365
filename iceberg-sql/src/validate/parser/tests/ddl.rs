//! The statements on tables, views and databases as the builders write them now, in
//! every dialect: ours reads each as a statement of its kind, into sqlparser's tree
//! where that converts, and agrees with the validator's verdict on its corruptions.

use super::fixture::{compare_trees, compare_verdict, rules_of};
use super::*;
use crate::expr::ExpressionMethods;
use crate::statement::{Filter, TableStatements};
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
            let rules = rules_of(dialect.grammar(kind));
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
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

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
