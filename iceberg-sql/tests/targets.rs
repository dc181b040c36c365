//! Every statement kind in every target: one corpus of builder calls, rendered for each
//! [`Dialect`]. Each entry is the SQL the target writes (validated by its part of the
//! validator, since every `Statement` is) or the target's refusal with its reason.
//!
//! The corpus calls the builders exactly as an application does; a target changes only
//! the `Dialect` passed to `build_for`. The matrix snapshot lists, per target and entry,
//! whether it renders or is refused.

mod dml_support;
mod trino_grammar;

use chrono::{NaiveDate, TimeZone, Utc};
use dml_support::{ts, McpEvent};
use iceberg_sql::ctas::{HiveCtas, IcebergCtas, Unload, UnloadFormat};
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::{count_all, source};
use iceberg_sql::model::TableDefBuilder;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{Order, SnapshotRow};
use iceberg_sql::{Grammar, Result};

/// Every target this crate renders for, with its snapshot name.
const TARGETS: [(Dialect, &str); 4] = [
    (Dialect::Athena, "athena"),
    (Dialect::Spark, "spark"),
    (Dialect::Trino, "trino"),
    (Dialect::AthenaS3Tables, "athena_s3_tables"),
];

/// One corpus entry: a label, and the statements the builder returns for a target.
type Entry = (&'static str, Result<Vec<Statement>>);

fn one(s: Result<Statement>) -> Result<Vec<Statement>> {
    s.map(|s| vec![s])
}

fn staging() -> TableName {
    TableName::new("analytics", "mcp_events_staging")
}

/// The identity partition column of the `tool_stats` table below.
struct ToolStats;
const DAY: Col<ToolStats, NaiveDate> = Col::new("day");

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("valid date")
}

/// A small table partitioned by its `day`, with no location.
fn tool_stats_anywhere() -> TableDefBuilder {
    TableDef::builder("analytics", "tool_stats")
        .column(Column::new("tool_name", IcebergType::String).required())
        .column(Column::new("day", IcebergType::Date))
        .column(Column::new("calls", IcebergType::Int))
        .partition(PartitionField::identity("day"))
}

/// [`tool_stats_anywhere`] in an S3 folder.
fn tool_stats() -> TableDefBuilder {
    tool_stats_anywhere().location("s3://my-datalake/iceberg/tool_stats/")
}

/// [`tool_stats`] with `props`.
fn with_properties(props: &[TableProperty]) -> TableDef {
    let mut b = tool_stats();
    for p in props {
        b = b.property(*p);
    }
    b.build().expect("valid table")
}

fn corpus(d: Dialect) -> Vec<Entry> {
    let t = McpEvent::table_def();
    let rows = [McpEvent::example()];
    let q = McpEvent::select()
        .column(McpEvent::USER_ID)
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::EVENT_TS)
        .column(McpEvent::STATUS)
        .filter(McpEvent::EVENT_TS.ge(ts(2026, 9, 1, 0)));
    let db = DatabaseName::new("analytics");
    let view = TableName::new("analytics", "calls_per_tool");
    let per_tool = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .expr_as(count_all(), "calls")
        .filter(McpEvent::STATUS.eq("ok"))
        .group_by(McpEvent::TOOL_NAME);
    let shared = [
        TableProperty::Format(FileFormat::Parquet),
        TableProperty::WriteCompression(Compression::Zstd),
        TableProperty::VacuumMaxMetadataFilesToKeep(10),
    ];
    vec![
        ("create table", one(t.create_table().build_for(d))),
        (
            "create table without a location",
            one(tool_stats_anywhere()
                .property(TableProperty::Format(FileFormat::Parquet))
                .build()
                .expect("valid table")
                .create_table()
                .build_for(d)),
        ),
        (
            "create table with shared properties",
            one(with_properties(&shared).create_table().build_for(d)),
        ),
        (
            "create table with a comment",
            one(tool_stats()
                .comment("calls per tool and day")
                .build()
                .expect("valid table")
                .create_table()
                .build_for(d)),
        ),
        (
            "create table with an OPTIMIZE property",
            one(
                with_properties(&[TableProperty::OptimizeRewriteDataFileThreshold(5)])
                    .create_table()
                    .build_for(d),
            ),
        ),
        ("drop table", one(t.name().drop_table().build_for(d))),
        (
            "add one column",
            one(t
                .alter()
                .add_columns([Column::new("region", IcebergType::String)])
                .build_for(d)),
        ),
        (
            "add two columns",
            one(t
                .alter()
                .add_columns([
                    Column::new("region", IcebergType::String),
                    Column::new("cost", IcebergType::Double),
                ])
                .build_for(d)),
        ),
        (
            "drop column",
            one(t.alter().drop_column("payload").build_for(d)),
        ),
        (
            "rename column",
            one(t.alter().rename_column("payload", "body").build_for(d)),
        ),
        (
            "widen column",
            one(with_properties(&[])
                .alter()
                .widen_column("calls", IcebergType::Long)
                .build_for(d)),
        ),
        (
            "set format",
            one(t
                .alter()
                .set_property(TableProperty::Format(FileFormat::Orc))
                .build_for(d)),
        ),
        (
            "set compression",
            one(t
                .alter()
                .set_property(TableProperty::WriteCompression(Compression::Snappy))
                .build_for(d)),
        ),
        (
            "unset metadata files to keep",
            one(t
                .alter()
                .unset_properties(["vacuum_max_metadata_files_to_keep"])
                .build_for(d)),
        ),
        (
            "rename table",
            one(t
                .alter()
                .rename_table(TableName::new("analytics", "mcp_events_v2"))
                .build_for(d)),
        ),
        (
            "add partition field",
            one(t
                .alter()
                .add_partition_field(PartitionField::identity("status"))
                .build_for(d)),
        ),
        (
            "iceberg ctas without a location",
            one(
                IcebergCtas::new(TableName::new("analytics", "mcp_daily"), &q)
                    .partition(PartitionField::new("event_ts", PartitionTransform::Day))
                    .property(TableProperty::Format(FileFormat::Parquet))
                    .build_for(d),
            ),
        ),
        (
            "iceberg ctas",
            one(
                IcebergCtas::new(TableName::new("analytics", "mcp_daily"), &q)
                    .location("s3://my-datalake/iceberg/mcp_daily/")
                    .partition(PartitionField::new("event_ts", PartitionTransform::Day))
                    .partition(PartitionField::new(
                        "user_id",
                        PartitionTransform::Bucket(16),
                    ))
                    .property(TableProperty::Format(FileFormat::Parquet))
                    .build_for(d),
            ),
        ),
        (
            "hive ctas",
            one(
                HiveCtas::new(TableName::new("analytics", "mcp_parquet"), &q)
                    .external_location("s3://my-datalake/mcp-parquet/")
                    .build_for(d),
            ),
        ),
        (
            "unload",
            one(Unload::new(&q, "s3://exports/acme/")
                .format(UnloadFormat::Parquet)
                .build_for(d)),
        ),
        ("insert", one(McpEvent::insert(&rows).build_for(d))),
        (
            "update",
            one(McpEvent::update()
                .set(McpEvent::STATUS, "retried")
                .filter(McpEvent::EVENT_ID.eq("evt-001"))
                .build_for(d)),
        ),
        (
            "delete",
            one(McpEvent::delete()
                .filter(McpEvent::EVENT_TS.lt(ts(2026, 9, 1, 0)))
                .build_for(d)),
        ),
        (
            "merge from a table",
            one(McpEvent::merge_from(MergeSource::table(staging()))
                .on_key(McpEvent::EVENT_ID)
                .when_matched()
                .update(|u| u.set(McpEvent::STATUS, source(McpEvent::STATUS)))
                .when_not_matched()
                .insert_all()
                .build_for(d)),
        ),
        (
            "merge rows",
            one(McpEvent::merge_from(MergeSource::rows(&rows))
                .on_key(McpEvent::EVENT_ID)
                .when_not_matched()
                .insert_all()
                .build_for(d)),
        ),
        ("select", one(q.build_for(d))),
        (
            "time travel to a version",
            one(McpEvent::select()
                .column(McpEvent::EVENT_ID)
                .as_of(Snapshot::Version(5_789_234_567_890_123_456))
                .build_for(d)),
        ),
        (
            "time travel to a timestamp",
            one(McpEvent::select()
                .column(McpEvent::EVENT_ID)
                .as_of(Snapshot::Timestamp(
                    Utc.with_ymd_and_hms(2026, 9, 1, 12, 0, 0).unwrap(),
                ))
                .build_for(d)),
        ),
        (
            "snapshots metadata table",
            one(t
                .name()
                .metadata::<SnapshotRow>()
                .column(SnapshotRow::SNAPSHOT_ID)
                .column(SnapshotRow::COMMITTED_AT)
                .order_by(SnapshotRow::COMMITTED_AT, Order::Desc)
                .limit(5)
                .build_for(d)),
        ),
        ("optimize", one(t.optimize().build_for(d))),
        (
            "optimize where",
            one(with_properties(&[])
                .optimize()
                .filter(DAY.ge(date(2026, 9, 1)))
                .build_for(d)),
        ),
        ("vacuum", one(t.vacuum().build_for(d))),
        (
            "vacuum keeping 7 days (steps)",
            t.vacuum().retain_days(7).build_steps_for(d),
        ),
        (
            "vacuum keeping 7 days and 3 snapshots",
            one(t
                .vacuum()
                .retention(VacuumRetention::days(7).min_snapshots_to_keep(3))
                .build_for(d)),
        ),
        (
            "vacuum older than a timestamp",
            one(t
                .vacuum()
                .older_than(Utc.with_ymd_and_hms(2026, 9, 1, 0, 0, 0).unwrap())
                .build_for(d)),
        ),
        (
            "show create table",
            one(t.name().show_create_table().build_for(d)),
        ),
        ("describe", one(t.name().describe().build_for(d))),
        (
            "describe formatted",
            one(t.name().describe().formatted().build_for(d)),
        ),
        (
            "create database",
            one(db.create_database().if_not_exists().build_for(d)),
        ),
        (
            "create database with a location",
            one(db
                .create_database()
                .location("s3://my-datalake/iceberg/")
                .build_for(d)),
        ),
        (
            "create database with a comment",
            one(db.create_database().comment("MCP tool events").build_for(d)),
        ),
        (
            "create database with a reserved namespace prefix",
            one(DatabaseName::new("aws_events")
                .create_database()
                .build_for(d)),
        ),
        (
            "drop database",
            one(db.drop_database().if_exists().build_for(d)),
        ),
        (
            "drop database cascade",
            one(db.drop_database().cascade().build_for(d)),
        ),
        ("show tables", one(db.show_tables().build_for(d))),
        (
            "show tables like a pattern",
            one(db.show_tables().like("mcp_*").build_for(d)),
        ),
        (
            "show tables like alternatives",
            one(db.show_tables().like("mcp_*|audit_*").build_for(d)),
        ),
        ("create view", one(view.create_view(&per_tool).build_for(d))),
        (
            "create or replace view",
            one(view.create_view(&per_tool).or_replace().build_for(d)),
        ),
        ("drop view", one(view.drop_view().if_exists().build_for(d))),
    ]
}

fn render(d: Dialect) -> String {
    let mut out = String::new();
    for (label, result) in corpus(d) {
        match result {
            Ok(statements) => {
                out.push_str(&format!("-- {label}\n"));
                for s in statements {
                    assert_eq!(s.dialect(), d);
                    out.push_str(s.sql());
                    out.push('\n');
                }
            }
            Err(e) => {
                out.push_str(&format!("-- {label}: REFUSED ({:?})\n", e.kind()));
                out.push_str(&format!("{e}\n"));
            }
        }
        out.push('\n');
    }
    out
}

#[test]
fn every_statement_kind_in_every_target() {
    for (d, name) in TARGETS {
        insta::assert_snapshot!(format!("target_{name}"), render(d));
    }
}

/// Which entries each target renders and which it refuses, side by side.
#[test]
fn matrix() {
    let columns: Vec<Vec<Entry>> = TARGETS.iter().map(|(d, _)| corpus(*d)).collect();
    let mut out = String::from("| statement |");
    for (_, name) in TARGETS {
        out.push_str(&format!(" {name} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(TARGETS.len()));
    out.push('\n');
    for i in 0..columns[0].len() {
        out.push_str(&format!("| {} |", columns[0][i].0));
        for c in &columns {
            out.push_str(match &c[i].1 {
                Ok(_) => " SQL |",
                Err(_) => " refused |",
            });
        }
        out.push('\n');
    }
    insta::assert_snapshot!("target_matrix", out);
}

/// Trino's own grammar (an independent parser: the real engines in this repository are
/// Spark, which cannot run Trino SQL) accepts every statement the Trino target writes,
/// and every statement Athena writes in Trino grammar except UNLOAD (Athena's own).
#[test]
fn trino_grammar_parses_every_trino_statement() {
    let Some(python) = trino_grammar::python() else {
        return;
    };
    let mut statements = Vec::new();
    for d in [Dialect::Trino, Dialect::Athena, Dialect::AthenaS3Tables] {
        for (_, result) in corpus(d) {
            for s in result.into_iter().flatten() {
                if d.grammar(s.kind()) == Grammar::TrinoDml && s.kind() != StatementKind::Unload {
                    statements.push(s.sql().to_string());
                }
            }
        }
    }
    // LIKE as written for Trino's engines: no escape unless ESCAPE names one (kept out
    // of the corpus, whose snapshots stay as they are).
    for d in [Dialect::Trino, Dialect::Athena] {
        for cond in [
            McpEvent::TOOL_NAME.like(r"C:\%"),
            McpEvent::TOOL_NAME.not_like_escape("100!%%", '!'),
            McpEvent::TOOL_NAME.like_escape(McpEvent::STATUS, '\''),
        ] {
            let select = McpEvent::select().column(McpEvent::EVENT_ID).filter(cond);
            statements.push(select.build_for(d).expect("a LIKE").sql().to_string());
        }
    }
    assert!(statements.len() > 40, "{} statements", statements.len());
    let (report, ok) = trino_grammar::parse(&python, &statements);
    let failures: Vec<String> = trino_grammar::refused(&report)
        .into_iter()
        .map(|(i, e)| format!("{e}\n  in: {}", statements[i]))
        .collect();
    assert!(ok, "Trino's grammar refuses:\n{}", failures.join("\n"));
    assert_eq!(report.trim(), format!("parsed {}", statements.len()));

    // The check can fail: Athena's Hive DDL is not Trino SQL.
    let hive = McpEvent::table_def()
        .create_table()
        .build()
        .expect("athena ddl");
    let (_, ok) = trino_grammar::parse(&python, &[hive.sql().to_string()]);
    assert!(!ok, "Trino's grammar accepted Hive DDL:\n{}", hive.sql());
}

/// A column named by a word Trino does not reserve but sqlparser reads as a keyword
/// (`interval`) is written unquoted for Trino, as for Athena, and the Trino target's
/// validator reads it as a name (it refused every query on such a column as a syntax
/// error). Trino's own grammar parses these statements (see above).
#[test]
fn words_trino_does_not_reserve_are_names_for_the_trino_target() {
    use iceberg_sql::validate::validate_sql;
    for sql in [
        "SELECT interval, id FROM db.t WHERE interval = 'a' ORDER BY interval ASC",
        "SELECT interval, sum(n) AS total FROM db.t GROUP BY interval",
        "CREATE VIEW db.v AS\nSELECT interval, id FROM db.t",
    ] {
        let kind = if sql.starts_with("CREATE") {
            StatementKind::CreateView
        } else {
            StatementKind::Select
        };
        for d in [Dialect::Athena, Dialect::Trino] {
            validate_sql(sql, kind, d, 0).unwrap_or_else(|e| panic!("{d:?}: {e}"));
        }
    }
    // A word Trino reserves is still refused unquoted.
    assert!(validate_sql(
        "SELECT trim FROM db.t",
        StatementKind::Select,
        Dialect::Trino,
        0
    )
    .is_err());
}

/// Each new target's validator part refuses what its engine lacks, with the reason.
#[test]
fn validator_parts_refuse_what_their_engine_lacks() {
    use iceberg_sql::validate::validate_sql;
    use StatementKind as K;
    // Every refusal is checked; the test lists all that miss.
    let missed = std::cell::RefCell::new(Vec::new());
    let refused = |sql: &str, kind: K, d: Dialect, says: &str| match validate_sql(sql, kind, d, 0) {
        Ok(()) => missed.borrow_mut().push(format!("{sql}: accepted")),
        Err(e) if !e.to_string().contains(says) => missed
            .borrow_mut()
            .push(format!("{sql}: lacks {says:?}: {e}")),
        Err(_) => {}
    };
    // Where the refusal is another engine's form, the hint says what to write instead.
    let hinted = |sql: &str, kind: K, d: Dialect, says: &str| match validate_sql(sql, kind, d, 0) {
        Ok(()) => missed.borrow_mut().push(format!("{sql}: accepted")),
        Err(e) if !e.hint().is_some_and(|h| h.contains(says)) => missed
            .borrow_mut()
            .push(format!("{sql}: the hint lacks {says:?}: {e}")),
        Err(_) => {}
    };
    let t = Dialect::Trino;
    refused(
        "ALTER TABLE a.t SET TBLPROPERTIES ('format'='orc')",
        K::AlterTable,
        t,
        "SET PROPERTIES",
    );
    hinted(
        "ALTER TABLE a.t SET TBLPROPERTIES ('format'='orc')",
        K::AlterTable,
        t,
        "Trino writes `SET PROPERTIES name = value`",
    );
    refused(
        "ALTER TABLE a.t CHANGE COLUMN x y varchar",
        K::AlterTable,
        t,
        "`RENAME COLUMN`, `ALTER COLUMN`, `RENAME TO`, `SET PROPERTIES` or `EXECUTE`, found `CHANGE`",
    );
    hinted(
        "ALTER TABLE a.t CHANGE COLUMN x y varchar",
        K::AlterTable,
        t,
        "Trino renames a column with `RENAME COLUMN a TO b`",
    );
    refused(
        "CREATE TABLE a.t (x string)",
        K::CreateTable,
        t,
        "Trino accepts",
    );
    refused("SELECT `x` FROM a.t", K::Select, t, "double quotes");
    refused("DROP TABLE a.t PURGE", K::DropTable, t, "PURGE");
    hinted(
        "DROP TABLE a.t PURGE",
        K::DropTable,
        t,
        "Trino's DROP TABLE takes none",
    );
    refused(
        "ALTER TABLE a.t EXECUTE drop_extended_stats",
        K::Vacuum,
        t,
        "EXECUTE optimize, EXECUTE expire_snapshots and EXECUTE remove_orphan_files",
    );
    refused(
        "ALTER TABLE a.t EXECUTE expire_snapshots(older_than => '7d')",
        K::Vacuum,
        t,
        "retention_threshold",
    );
    refused(
        "OPTIMIZE a.t REWRITE DATA USING BIN_PACK",
        K::Optimize,
        t,
        "Trino does not parse",
    );
    hinted(
        "OPTIMIZE a.t REWRITE DATA USING BIN_PACK",
        K::Optimize,
        t,
        "Trino compacts with `ALTER TABLE t EXECUTE optimize`",
    );
    refused(
        "CREATE DATABASE a",
        K::CreateDatabase,
        t,
        "expected `TABLE`, `SCHEMA` or `[OR REPLACE] VIEW`, found `DATABASE`",
    );
    hinted(
        "CREATE DATABASE a",
        K::CreateDatabase,
        t,
        "write `CREATE SCHEMA",
    );
    refused(
        "DROP DATABASE a CASCADE",
        K::DropDatabase,
        t,
        "expected `TABLE`, `VIEW` or `SCHEMA`, found `DATABASE`",
    );
    hinted(
        "DROP DATABASE a CASCADE",
        K::DropDatabase,
        t,
        "write `DROP SCHEMA",
    );
    refused(
        "CREATE SCHEMA a WITH (owner = 'x')",
        K::CreateDatabase,
        t,
        "takes WITH (location",
    );
    refused(
        "SHOW TABLES IN a 'mcp_*'",
        K::ShowTables,
        t,
        "expected the end of the statement",
    );
    hinted(
        "SHOW TABLES IN a 'mcp_*'",
        K::ShowTables,
        t,
        "Trino takes the pattern after `LIKE`",
    );
    refused(
        "SHOW TABLES IN a LIKE 'mcp!_%' ESCAPE '!'",
        K::ShowTables,
        t,
        "escapes with",
    );
    for ok in [
        "CREATE SCHEMA IF NOT EXISTS a WITH (location = 's3://b/a/')",
        "DROP SCHEMA IF EXISTS a CASCADE",
        "SHOW TABLES IN a LIKE 'mcp\\_%' ESCAPE '\\'",
    ] {
        let kind = match &ok[..4] {
            "CREA" => K::CreateDatabase,
            "DROP" => K::DropDatabase,
            _ => K::ShowTables,
        };
        validate_sql(ok, kind, t, 0).expect(ok);
    }
    validate_sql(
        "CREATE TABLE a.t (x varchar NOT NULL, y row(z integer)) COMMENT 'c' WITH (format = 'ORC')",
        K::CreateTable,
        t,
        0,
    )
    .expect("Trino DDL");

    let s3 = Dialect::AthenaS3Tables;
    refused(
        "CREATE TABLE a.t (x string) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        K::CreateTable,
        s3,
        "table bucket chooses",
    );
    refused(
        "ALTER TABLE a.t RENAME TO a.u",
        K::AlterTable,
        s3,
        "not supported on S3 Tables",
    );
    refused("VACUUM a.t", K::Vacuum, s3, "Amazon S3 runs compaction");
    refused(
        "OPTIMIZE a.t REWRITE DATA USING BIN_PACK",
        K::Optimize,
        s3,
        "Amazon S3 runs",
    );
    refused(
        "CREATE TABLE a.t (x string) TBLPROPERTIES ('table_type'='ICEBERG')",
        K::CreateTable,
        Dialect::Athena,
        "needs LOCATION",
    );
    let missed = missed.into_inner();
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}
