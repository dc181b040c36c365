//! Database and view statements (CREATE/DROP DATABASE, SHOW TABLES, DESCRIBE,
//! CREATE/DROP VIEW) in both dialects; the validator's shapes for them (hand-written
//! text accepted or refused per target) and the builders' refusals.

#[path = "query_common/mod.rs"]
mod common;

use std::sync::OnceLock;

use common::*;
use iceberg_sql::dsl::{count_all, param};
use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;
use iceberg_sql::validate::validate_sql;
use iceberg_sql::{Grammar, StatementKind as K};

const A: Dialect = Dialect::Athena;
const S: Dialect = Dialect::Spark;

/// A table with nested columns, to show that a view keeps their types.
struct Tagged;

impl Tagged {
    const ID: Col<Tagged, i64> = Col::new("id");
}

impl IcebergTable for Tagged {
    fn table_def() -> &'static TableDef {
        static D: OnceLock<TableDef> = OnceLock::new();
        D.get_or_init(|| {
            TableDef::builder("analytics", "tagged")
                .column(Column::new("id", IcebergType::Long))
                .column(Column::new("tags", IcebergType::list(IcebergType::String)))
                .column(Column::new(
                    "attrs",
                    IcebergType::map(IcebergType::String, IcebergType::String),
                ))
                .location("s3://my-datalake/iceberg/tagged/")
                .build()
                .unwrap()
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

#[test]
fn create_database() {
    let db = DatabaseName::new("analytics");
    insta::assert_snapshot!(
        "create_database",
        [
            both(|d| db.create_database().build_for(d)),
            both(|d| db.create_database().if_not_exists().build_for(d)),
            both(|d| db
                .create_database()
                .if_not_exists()
                .comment("MCP tool events, one table per stream")
                .location("s3://my-datalake/iceberg")
                .build_for(d)),
            // A reserved word is quoted in the grammar's own style.
            both(|d| DatabaseName::new("database").create_database().build_for(d)),
        ]
        .join("\n\n")
    );
}

#[test]
fn create_database_refusals() {
    let db = DatabaseName::new("analytics");
    let e = DatabaseName::new("Analytics")
        .create_database()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
    let e = db
        .create_database()
        .location("s3://my-datalake")
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation, "{e}");
    // The error names the location it is about (it said "table location").
    assert_eq!(
        e.message(),
        "database location `s3://my-datalake` is a bucket root; Athena needs a folder (VACUUM fails on a bucket root)"
    );
    // DDL string literals hold no quotes, backslashes or control characters.
    let quoted = db.create_database().comment("it's ours");
    for d in [A, S] {
        let e = quoted.build_for(d).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue, "{e}");
        assert!(e.message().contains("database comment"), "{e}");
    }
    // Glue stores a database description of at most 2048 characters
    // (`DatabaseInput.Description`, AWS Glue API reference).
    for d in [A, S] {
        let e = db
            .create_database()
            .comment("d".repeat(2049))
            .build_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue, "{e}");
        assert_eq!(
            e.message(),
            "database comment is 2049 characters long; the Glue Data Catalog, where Athena keeps it, stores at most 2048"
        );
        assert!(db
            .create_database()
            .comment("d".repeat(2048))
            .build_for(d)
            .is_ok());
    }
    // Glue stores a database location of at most 1024 characters
    // (`DatabaseInput.LocationUri`, AWS Glue API reference), counted as written: the
    // final `/` the builder adds counts.
    let at = |chars: usize| format!("s3://my-datalake/{}/", "d".repeat(chars - 18));
    assert_eq!(at(1024).len(), 1024);
    assert!(db.create_database().location(at(1024)).build().is_ok());
    let e = db
        .create_database()
        .location(at(1025).trim_end_matches('/'))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidLocation);
    assert_eq!(
        e.message(),
        format!(
            "database location `{}` is 1025 characters long; the Glue Data Catalog, where \
             Athena keeps it, stores at most 1024",
            at(1025)
        )
    );
    // Both problems at once.
    let e = DatabaseName::new("Bad Name")
        .create_database()
        .location("ftp://x")
        .build()
        .unwrap_err();
    assert_eq!(e.into_vec().len(), 2);
}

#[test]
fn drop_database() {
    let db = DatabaseName::new("scratch");
    insta::assert_snapshot!(
        "drop_database",
        [
            both(|d| db.drop_database().build_for(d)),
            both(|d| db.drop_database().if_exists().build_for(d)),
            db.drop_database()
                .if_exists()
                .cascade()
                .build()
                .unwrap()
                .to_string(),
        ]
        .join("\n\n")
    );
    let e = db.drop_database().cascade().build_for(S).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.message().contains("ignores CASCADE"), "{e}");
    assert!(e.hint().unwrap().contains("drop each table first"), "{e}");
}

#[test]
fn show_tables() {
    let db = DatabaseName::new("analytics");
    insta::assert_snapshot!(
        "show_tables",
        [
            both(|d| db.show_tables().build_for(d)),
            both(|d| db.show_tables().like("mcp_*").build_for(d)),
            both(|d| db.show_tables().like("mcp_events|audit_*").build_for(d)),
            both(|d| DatabaseName::new("default").show_tables().build_for(d)),
        ]
        .join("\n\n")
    );
    for bad in ["", "mcp_%", "mcp.*", "Mcp*", "a'b", &"x".repeat(256)] {
        let e = db.show_tables().like(bad).build().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue, "{bad:?}: {e}");
        assert!(e.hint().unwrap().contains("`*`"), "{e}");
    }
}

#[test]
fn describe() {
    insta::assert_snapshot!(
        "describe",
        [
            both(|d| McpEvent::table_def().name().describe().build_for(d)),
            both(|d| McpEvent::table_def()
                .name()
                .describe()
                .formatted()
                .build_for(d)),
            both(|d| TableName::new("analytics", "date").describe().build_for(d)),
        ]
        .join("\n\n")
    );
    let e = TableName::new("analytics", "Events")
        .describe()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
}

#[test]
fn create_and_drop_view() {
    let per_tool = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .expr_as(count_all(), "calls")
        .filter(McpEvent::STATUS.ne("deleted"))
        .group_by(McpEvent::TOOL_NAME)
        .order_by(McpEvent::TOOL_NAME, Order::Asc);
    let view = TableName::new("analytics", "calls_per_tool");
    // Nested columns keep their types in a view (no CAST(… AS JSON) as in a SELECT
    // whose rows are read back).
    let nested = Tagged::select();
    assert!(nested.build().unwrap().sql().contains("CAST(tags AS JSON)"));
    let nested_view = TableName::new("analytics", "tagged_v");
    insta::assert_snapshot!(
        "views",
        [
            both(|d| view.create_view(&per_tool).build_for(d)),
            both(|d| view.create_view(&per_tool).or_replace().build_for(d)),
            both(|d| nested_view.create_view(&nested).build_for(d)),
            both(|d| TableName::new("analytics", "first")
                .create_view(&Tagged::select().column(Tagged::ID))
                .build_for(d)),
            both(|d| view.drop_view().build_for(d)),
            both(|d| view.drop_view().if_exists().build_for(d)),
        ]
        .join("\n\n")
    );
}

#[test]
fn view_refusals() {
    // A view cannot hold execution parameters.
    let q = McpEvent::select()
        .column(McpEvent::EVENT_ID)
        .filter(McpEvent::TOOL_NAME.eq(param("query_data")));
    assert_eq!(q.build().unwrap().params(), ["'query_data'"]);
    let e = TableName::new("analytics", "v")
        .create_view(&q)
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DisallowedSyntax, "{e}");
    assert!(e.message().contains("`?` parameter in CREATE VIEW"), "{e}");
    // The SELECT's own checks still apply.
    let bad = McpEvent::select().into_table(TableName::new("analytics", "Staging"));
    assert!(TableName::new("analytics", "v")
        .create_view(&bad)
        .build()
        .is_err());
    let e = TableName::new("analytics", "V")
        .drop_view()
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
}

/// A view's columns are named once each: Trino's CREATE VIEW fails "Column name 'x'
/// specified more than once" or "Column name not specified at position N", and Spark
/// refuses a repeated name, so such a query is refused before it runs, on every target
/// that has views.
#[test]
fn a_view_needs_one_name_per_column() {
    let view = TableName::new("analytics", "v");
    let twice = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::TOOL_NAME);
    let alias_twice = McpEvent::select()
        .expr_as(McpEvent::EVENT_ID.count(), "n")
        .expr_as(McpEvent::SESSION_ID.count(), "n");
    let unnamed = McpEvent::select().expr(count_all());
    for d in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        let e = view.create_view(&twice).build_for(d).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidTable);
        assert_eq!(
            e.message(),
            "a view: Column name 'tool_name' specified more than once",
            "{d:?}"
        );
        assert!(e.to_string().contains("help: alias one of them"), "{e}");
        let e = view
            .create_view(&alias_twice)
            .or_replace()
            .build_for(d)
            .unwrap_err();
        assert_eq!(
            e.message(),
            "a view: Column name 'n' specified more than once"
        );
        let e = view.create_view(&unnamed).build_for(d).unwrap_err();
        assert_eq!(
            e.message(),
            "a view: output column 1 has no name (Athena: \"Column name not specified at position 1\")"
        );
        // The same queries still run as plain SELECTs.
        assert!(twice.build_for(d).is_ok());
    }
}

#[test]
fn every_new_kind_has_its_grammar() {
    for (kind, athena) in [
        (K::CreateDatabase, Grammar::HiveDdl),
        (K::DropDatabase, Grammar::HiveDdl),
        (K::ShowTables, Grammar::HiveDdl),
        (K::Describe, Grammar::HiveDdl),
        (K::CreateView, Grammar::TrinoDml),
        (K::DropView, Grammar::TrinoDml),
    ] {
        assert_eq!(A.grammar(kind), athena, "{kind:?}");
        assert_eq!(S.grammar(kind), Grammar::Spark, "{kind:?}");
    }
}

// ---- the validator on hand-written text ------------------------------------------------

#[track_caller]
fn accept(dialect: Dialect, kind: K, sql: &str) {
    if let Err(e) = validate_sql(sql, kind, dialect, 0) {
        panic!("expected {dialect:?} {kind:?} to accept:\n{sql}\n--- got ---\n{e}");
    }
}

#[track_caller]
fn reject(dialect: Dialect, kind: K, sql: &str, ek: ErrorKind, fragment: &str) -> Error {
    match validate_sql(sql, kind, dialect, 0) {
        Ok(()) => panic!("expected {dialect:?} {kind:?} to reject:\n{sql}"),
        Err(e) => {
            assert_eq!(e.kind(), ek, "wrong kind for {sql}:\n{e}");
            assert!(
                e.message().contains(fragment),
                "message for {sql}\n  {:?}\nlacks {fragment:?}",
                e.message()
            );
            assert!(e.location().is_some(), "no position for {sql}:\n{e}");
            e
        }
    }
}

/// The refusal says how to write it instead: its hint holds `fragment`.
#[track_caller]
fn hinted(e: &Error, fragment: &str) {
    let hint = e.hint().unwrap_or_else(|| panic!("no hint:\n{e}"));
    assert!(hint.contains(fragment), "hint {hint:?}\nlacks {fragment:?}");
}

#[test]
fn validator_database_statements() {
    use ErrorKind::{DisallowedSyntax as D, Syntax as X};
    accept(
        A,
        K::CreateDatabase,
        "CREATE DATABASE IF NOT EXISTS analytics COMMENT 'c' LOCATION 's3://b/p/'",
    );
    accept(
        S,
        K::CreateDatabase,
        "CREATE DATABASE analytics LOCATION 's3://b/p/' COMMENT 'c'",
    );
    let e = reject(
        A,
        K::CreateDatabase,
        "CREATE DATABASE analytics LOCATION 's3://b/p/' COMMENT 'c'",
        ErrorKind::Syntax,
        "expected the end of the statement, found `COMMENT`",
    );
    hinted(&e, "takes `COMMENT '…'` before `LOCATION '…'`");
    reject(
        A,
        K::CreateDatabase,
        "CREATE DATABASE a COMMENT 'x' COMMENT 'y'",
        X,
        "expected the end of the statement, found `COMMENT`",
    );
    reject(
        A,
        K::CreateDatabase,
        "CREATE DATABASE a WITH DBPROPERTIES ('k'='v')",
        X,
        "end of the statement",
    );
    reject(
        A,
        K::CreateDatabase,
        "CREATE DATABASE \"analytics\"",
        D,
        "double-quoted name",
    );
    reject(
        A,
        K::CreateDatabase,
        "CREATE DATABASE a COMMENT 'it\\s'",
        D,
        "backslash",
    );
    reject(
        A,
        K::CreateDatabase,
        "CREATE SCHEMA analytics",
        D,
        "expected a CREATE DATABASE",
    );
    reject(
        A,
        K::CreateDatabase,
        "DROP DATABASE analytics",
        D,
        "expected a CREATE DATABASE",
    );

    accept(
        A,
        K::DropDatabase,
        "DROP DATABASE IF EXISTS scratch CASCADE",
    );
    accept(S, K::DropDatabase, "DROP DATABASE scratch");
    reject(
        S,
        K::DropDatabase,
        "DROP DATABASE scratch CASCADE",
        D,
        "ignores CASCADE",
    );
    reject(
        A,
        K::DropDatabase,
        "DROP DATABASE scratch RESTRICT",
        ErrorKind::Syntax,
        "expected the end of the statement, found `RESTRICT`",
    );
    reject(
        A,
        K::DropDatabase,
        "DROP DATABASE a, b",
        ErrorKind::Syntax,
        "expected the end of the statement, found `,`",
    );
    reject(
        A,
        K::DropDatabase,
        "DROP SCHEMA scratch",
        D,
        "expected a DROP DATABASE",
    );
    reject(
        A,
        K::DropDatabase,
        "DROP TABLE scratch.t",
        D,
        "expected a DROP DATABASE",
    );

    accept(A, K::ShowTables, "SHOW TABLES IN analytics 'mcp_*'");
    accept(S, K::ShowTables, "SHOW TABLES IN analytics LIKE 'mcp_*'");
    let e = reject(
        A,
        K::ShowTables,
        "SHOW TABLES IN analytics LIKE 'mcp_*'",
        ErrorKind::Syntax,
        "expected the end of the statement, found `LIKE`",
    );
    hinted(&e, "as a bare string, without `LIKE`");
    reject(
        S,
        K::ShowTables,
        "SHOW TABLES IN analytics 'mcp_*'",
        D,
        "LIKE 'pattern'",
    );
    reject(A, K::ShowTables, "SHOW TABLES", D, "IN <database>");
    let e = reject(
        A,
        K::ShowTables,
        "SHOW TABLES FROM analytics",
        ErrorKind::Syntax,
        "expected the end of the statement, found `FROM`",
    );
    hinted(&e, "Athena writes `SHOW TABLES IN db`");
    reject(
        A,
        K::ShowTables,
        "SHOW EXTENDED TABLES IN analytics",
        ErrorKind::Syntax,
        "found `SHOW EXTENDED`",
    );
    reject(
        A,
        K::ShowTables,
        "SHOW VIEWS IN analytics",
        X,
        "found `SHOW VIEWS`",
    );

    accept(A, K::Describe, "DESCRIBE analytics.mcp_events");
    accept(A, K::Describe, "DESCRIBE FORMATTED analytics.`date`");
    accept(S, K::Describe, "DESCRIBE FORMATTED analytics.mcp_events");
    reject(
        A,
        K::Describe,
        "DESCRIBE EXTENDED analytics.mcp_events",
        ErrorKind::Syntax,
        "expected the end of the statement, found `analytics`",
    );
    reject(
        A,
        K::Describe,
        "DESCRIBE SELECT 1",
        ErrorKind::Syntax,
        "expected the end of the statement, found `1`",
    );
    reject(
        A,
        K::Describe,
        "DESCRIBE \"analytics\".t",
        D,
        "double-quoted name",
    );
}

#[test]
fn validator_view_statements() {
    use ErrorKind::DisallowedSyntax as D;
    accept(
        A,
        K::CreateView,
        "CREATE OR REPLACE VIEW analytics.v AS SELECT \"first\" FROM analytics.t",
    );
    accept(
        S,
        K::CreateView,
        "CREATE VIEW analytics.v AS SELECT `first` FROM analytics.t",
    );
    reject(
        A,
        K::CreateView,
        "CREATE VIEW analytics.`v` AS SELECT 1",
        D,
        "backticked name",
    );
    let e = reject(
        A,
        K::CreateView,
        "CREATE VIEW IF NOT EXISTS analytics.v AS SELECT 1",
        ErrorKind::Syntax,
        "expected `AS`, found `NOT`",
    );
    hinted(
        &e,
        "takes no `IF NOT EXISTS`: write `CREATE OR REPLACE VIEW",
    );
    let e = reject(
        A,
        K::CreateView,
        "CREATE VIEW analytics.v (a) AS SELECT 1",
        ErrorKind::Syntax,
        "expected `AS`, found `(`",
    );
    hinted(&e, "takes no column list");
    reject(
        A,
        K::CreateView,
        "CREATE MATERIALIZED VIEW analytics.v AS SELECT 1",
        ErrorKind::Syntax,
        "expected `TABLE`, `SCHEMA` or `[OR REPLACE] VIEW`, found `MATERIALIZED`",
    );
    let e = reject(
        A,
        K::CreateView,
        "CREATE VIEW analytics.v AS SELECT TOP 1 a FROM t",
        ErrorKind::Syntax,
        "expected the select list (`TOP` is not Trino's or Spark's), found `TOP`",
    );
    hinted(&e, "`SELECT TOP n` is SQL Server's");
    reject(
        A,
        K::CreateView,
        "CREATE TABLE analytics.v AS SELECT 1",
        D,
        "expected a CREATE VIEW",
    );

    accept(A, K::DropView, "DROP VIEW IF EXISTS analytics.v");
    accept(S, K::DropView, "DROP VIEW analytics.v");
    let e = reject(
        A,
        K::DropView,
        "DROP VIEW analytics.v CASCADE",
        ErrorKind::Syntax,
        "expected the end of the statement, found `CASCADE`",
    );
    hinted(&e, "Trino's DROP VIEW takes no `CASCADE`");
    reject(
        A,
        K::DropView,
        "DROP VIEW a.v, a.w",
        ErrorKind::Syntax,
        "expected the end of the statement, found `,`",
    );
    reject(
        A,
        K::DropView,
        "DROP TABLE analytics.v",
        D,
        "expected a DROP VIEW",
    );
}
