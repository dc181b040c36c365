//! What the parser makes of Athena-only syntax: the hooks and the token pre-pass map it
//! onto sqlparser's nodes (checked here, since those nodes are not our public API).

use sqlparser::ast::{SetExpr, TableFactor, TableVersion};

use super::parse_statement;
use super::*;

const ATHENA_CREATE: &str = "CREATE TABLE IF NOT EXISTS analytics.mcp_events (
  event_id string COMMENT 'ULID',
  event_ts timestamp,
  price decimal(10,2),
  tags array<string>,
  attrs map<string,string>,
  loc struct<lat:double,lon:double>,
  `date` date
)
PARTITIONED BY (day(event_ts), bucket(16, user_id), truncate(4, name), category)
LOCATION 's3://my-datalake/iceberg/mcp_events/'
TBLPROPERTIES (
  'table_type'='ICEBERG',
  'format'='parquet',
  'write_compression'='snappy'
)";

#[test]
fn athena_create_table_transforms_land_in_partition_by() {
    let stmt = parse_statement(ATHENA_CREATE, StatementKind::CreateTable, Dialect::Athena).unwrap();
    let SqlStatement::CreateTable(ct) = stmt else {
        panic!()
    };
    let Some(p) = ct.partition_by.as_deref() else {
        panic!("no partition_by")
    };
    assert_eq!(
        p.to_string(),
        "(day(event_ts), bucket(16, user_id), truncate(4, name), category)"
    );
    assert_eq!(ct.columns.len(), 7);
    assert_eq!(
        ct.hive_formats.and_then(|h| h.location).as_deref(),
        Some("s3://my-datalake/iceberg/mcp_events/")
    );
}

#[test]
fn athena_time_travel_parses_to_table_versions() {
    let stmt = parse_statement(
        "SELECT * FROM db.a FOR VERSION AS OF 42 AS x JOIN db.b FOR TIMESTAMP AS OF (current_timestamp - INTERVAL '1' DAY) AS y ON x.k = y.k",
        StatementKind::Select,
        Dialect::Athena,
    )
    .unwrap();
    let SqlStatement::Query(q) = stmt else {
        panic!()
    };
    let SetExpr::Select(s) = q.body.as_ref() else {
        panic!()
    };
    let TableFactor::Table { version, .. } = &s.from[0].relation else {
        panic!()
    };
    assert!(
        matches!(version, Some(TableVersion::VersionAsOf(_))),
        "{version:?}"
    );
    let TableFactor::Table { version, .. } = &s.from[0].joins[0].relation else {
        panic!()
    };
    assert!(
        matches!(version, Some(TableVersion::TimestampAsOf(_))),
        "{version:?}"
    );
}

/// The CREATE TABLE shape check: the parsed Athena statement passes, and setting any one
/// clause no target writes (on the parsed tree, since most of them do not parse in our
/// grammars) makes it fail.
#[test]
fn create_table_shape_refuses_each_clause_no_target_writes() {
    use sqlparser::ast::{CreateTable, Ident, ObjectName, OnCommit};
    let stmt = parse_statement(ATHENA_CREATE, StatementKind::CreateTable, Dialect::Athena).unwrap();
    let SqlStatement::CreateTable(ct) = stmt else {
        panic!()
    };
    assert!(crate::validate::oracle::allow::create_table_shape_ok(&ct));
    let name = || ObjectName::from(vec![Ident::new("other")]);
    type SetClause = fn(&mut CreateTable, ObjectName);
    let mutations: Vec<(&str, SetClause)> = vec![
        ("OR REPLACE", |c, _| c.or_replace = true),
        ("EXTERNAL", |c, _| c.external = true),
        ("TEMPORARY", |c, _| c.temporary = true),
        ("UNLOGGED", |c, _| c.unlogged = true),
        ("TRANSIENT", |c, _| c.transient = true),
        ("ICEBERG", |c, _| c.iceberg = true),
        ("COPY GRANTS", |c, _| c.copy_grants = true),
        ("GLOBAL", |c, _| c.global = Some(true)),
        ("CLONE", |c, n| c.clone = Some(n)),
        ("PARTITION OF", |c, n| c.partition_of = Some(n)),
        ("INHERITS", |c, n| c.inherits = Some(vec![n])),
        ("WITH AGGREGATION POLICY", |c, n| {
            c.with_aggregation_policy = Some(n)
        }),
        ("ON COMMIT", |c, _| c.on_commit = Some(OnCommit::Drop)),
        ("ON CLUSTER", |c, _| c.on_cluster = Some(Ident::new("c"))),
        ("STORED AS (file_format)", |c, _| {
            c.file_format = Some(sqlparser::ast::FileFormat::PARQUET)
        }),
        ("LOCATION (Snowflake/Hive field)", |c, _| {
            c.location = Some("s3://b/".into())
        }),
        ("DATA_RETENTION_TIME_IN_DAYS", |c, _| {
            c.data_retention_time_in_days = Some(1)
        }),
        ("BACKUP", |c, _| c.backup = Some(true)),
        ("SQLite STRICT", |c, _| {
            c.sqlite_table_options.leading_comma = true
        }),
    ];
    for (clause, set) in mutations {
        let mut probe = ct.clone();
        set(&mut probe, name());
        assert!(
            !crate::validate::oracle::allow::create_table_shape_ok(&probe),
            "{clause} passed the shape check"
        );
    }
}
