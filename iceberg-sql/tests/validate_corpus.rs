//! The validation corpus: every SQL shape our renderers produce must pass
//! `validate_sql` for its kind and dialect, and every listed bad form must fail with
//! the stated error kind and a message that says what was found.

use iceberg_sql::error::SqlLocation;
use iceberg_sql::validate::{inspect, validate_sql};
use iceberg_sql::{Dialect, Error, ErrorKind, StatementKind as K};

const A: Dialect = Dialect::Athena;
const S: Dialect = Dialect::Spark;

#[track_caller]
fn accept(dialect: Dialect, kind: K, params: usize, sql: &str) {
    if let Err(e) = validate_sql(sql, kind, dialect, params) {
        panic!("expected {dialect:?} {kind:?} to accept:\n{sql}\n--- got ---\n{e}");
    }
}

#[track_caller]
fn reject(
    dialect: Dialect,
    kind: K,
    params: usize,
    sql: &str,
    ek: ErrorKind,
    fragment: &str,
) -> Error {
    match validate_sql(sql, kind, dialect, params) {
        Ok(()) => panic!("expected {dialect:?} {kind:?} to reject:\n{sql}"),
        Err(e) => {
            assert_eq!(e.kind(), ek, "wrong kind for {sql}:\n{e}");
            assert!(
                e.message().contains(fragment),
                "message for {sql}\n  {:?}\nlacks {fragment:?}",
                e.message()
            );
            assert_eq!(e.sql(), Some(sql), "the error carries the SQL");
            assert!(e.location().is_some(), "no position for {sql}:\n{e}");
            e
        }
    }
}

#[track_caller]
fn at(e: &Error, line: usize, column: usize) {
    assert_eq!(e.location(), Some(&SqlLocation { line, column }), "{e}");
    assert!(e.to_string().contains('^'), "caret missing:\n{e}");
}

/// The refusal says how to write it instead: its hint holds `fragment`.
#[track_caller]
fn hinted(e: &Error, fragment: &str) {
    let hint = e.hint().unwrap_or_else(|| panic!("no hint:\n{e}"));
    assert!(hint.contains(fragment), "hint {hint:?}\nlacks {fragment:?}");
}

/// The one string literal of `SELECT '<text>'`, as the parser read it.
fn select_string(sql: &str, dialect: Dialect) -> String {
    let read = inspect(sql, K::Select, dialect).unwrap_or_else(|e| panic!("{e}"));
    match read.string_literals() {
        [one] => one.clone(),
        other => panic!("expected one string literal, found {other:?}"),
    }
}

// =====================================================================================
// Athena DDL (Hive grammar)
// =====================================================================================

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
fn athena_create_table_full() {
    accept(A, K::CreateTable, 0, ATHENA_CREATE);
}

#[test]
fn athena_create_table_without_partitioning_or_if_not_exists() {
    accept(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE analytics.mcp_events (\n  event_id string,\n  latency_ms bigint,\n  ok boolean,\n  \
         f float,\n  b binary,\n  d date\n)\nLOCATION 's3://my-datalake/iceberg/mcp_events/'\n\
         TBLPROPERTIES (\n  'table_type'='ICEBERG'\n)",
    );
}

#[test]
fn athena_create_table_temporal_transforms() {
    accept(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (ts timestamp, d date) PARTITIONED BY (year(d), month(d), hour(ts)) \
         LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='iceberg')",
    );
}

#[test]
fn athena_drop_table() {
    accept(A, K::DropTable, 0, "DROP TABLE analytics.mcp_events");
}

#[test]
fn athena_drop_table_if_exists() {
    accept(
        A,
        K::DropTable,
        0,
        "DROP TABLE IF EXISTS analytics.mcp_events",
    );
}

#[test]
fn athena_alter_add_columns() {
    accept(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE analytics.mcp_events ADD COLUMNS (error_code string, retry_count int)",
    );
}

#[test]
fn athena_alter_add_nested_columns() {
    accept(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE db.t ADD COLUMNS (points array<struct<x: double, y: double>>)",
    );
}

#[test]
fn athena_alter_drop_column() {
    accept(A, K::AlterTable, 0, "ALTER TABLE db.t DROP COLUMN c");
}

#[test]
fn athena_alter_change_column() {
    accept(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE db.t CHANGE COLUMN payload tool_payload string",
    );
}

#[test]
fn athena_alter_change_column_with_comment() {
    accept(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE db.t CHANGE COLUMN payload tool_payload string COMMENT 'x'",
    );
}

#[test]
fn athena_alter_change_column_type_promotion() {
    accept(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE db.t CHANGE COLUMN n n bigint",
    );
}

#[test]
fn athena_alter_set_tblproperties() {
    accept(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE db.t SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='604800')",
    );
}

#[test]
fn athena_alter_unset_tblproperties() {
    accept(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE db.t UNSET TBLPROPERTIES ('write_compression')",
    );
}

#[test]
fn athena_optimize() {
    accept(
        A,
        K::Optimize,
        0,
        "OPTIMIZE analytics.mcp_events REWRITE DATA USING BIN_PACK",
    );
}

#[test]
fn athena_optimize_where() {
    accept(
        A,
        K::Optimize,
        0,
        "OPTIMIZE analytics.mcp_events REWRITE DATA USING BIN_PACK WHERE category = 'c1'",
    );
}

#[test]
fn athena_vacuum() {
    accept(A, K::Vacuum, 0, "VACUUM analytics.mcp_events");
}

#[test]
fn athena_vacuum_backticked_table() {
    accept(A, K::Vacuum, 0, "VACUUM analytics.`_mcp_events`");
}

// =====================================================================================
// Athena DML (Trino grammar)
// =====================================================================================

#[test]
fn athena_insert_values_every_literal_form() {
    accept(
        A,
        K::Insert,
        0,
        "INSERT INTO analytics.mcp_events (event_id, event_ts, price, tags, attrs, loc) VALUES \
         ('a''b', TIMESTAMP '2026-10-01 12:00:00.000000', DECIMAL '12.50', ARRAY['x'], \
          MAP(ARRAY['k'], ARRAY['v']), CAST(ROW(1.5E0, 2.5E0) AS row(lat double, lon double))), \
         (CAST(NULL AS varchar), REAL '1.5', CAST(nan() AS double), X'0a0b', DATE '2026-10-01', true), \
         (BIGINT '5', CAST(ARRAY[] AS array(varchar)), TIMESTAMP '2026-10-01 12:00:00.000000 UTC', \
          CAST(MAP(ARRAY['k'], ARRAY[1]) AS map(varchar, integer)), false, NULL)",
    );
}

#[test]
fn athena_insert_timestamp_types() {
    accept(
        A,
        K::Insert,
        0,
        "INSERT INTO db.t (a, b) VALUES (CAST('2026-10-01 12:00:00' AS timestamp(6)), \
         CAST(TIMESTAMP '2026-10-01 12:00:00 UTC' AS timestamp(6) with time zone))",
    );
}

#[test]
fn athena_insert_select_with_placeholder() {
    accept(
        A,
        K::Insert,
        1,
        "INSERT INTO db.t (a, b) SELECT a, b FROM db.s WHERE x = ?",
    );
}

#[test]
fn athena_update() {
    accept(
        A,
        K::Update,
        0,
        "UPDATE analytics.mcp_events SET status = 'retried', latency_ms = 320 WHERE event_id = 'evt-001'",
    );
}

#[test]
fn athena_delete() {
    accept(
        A,
        K::Delete,
        0,
        "DELETE FROM analytics.mcp_events WHERE user_id = 'user-123' AND event_ts < TIMESTAMP '2026-09-01 00:00:00.000000'",
    );
}

const MERGE_SUBQUERY: &str = "MERGE INTO analytics.mcp_events AS target USING (SELECT * FROM analytics.mcp_events_staging) AS source \
ON (target.event_id = source.event_id) \
WHEN MATCHED AND source.status = 'deleted' THEN DELETE \
WHEN MATCHED THEN UPDATE SET status = source.status, latency_ms = source.latency_ms \
WHEN NOT MATCHED THEN INSERT (event_id, status, latency_ms) VALUES (source.event_id, source.status, source.latency_ms)";

#[test]
fn athena_merge_subquery_source() {
    accept(A, K::Merge, 0, MERGE_SUBQUERY);
}

#[test]
fn athena_merge_table_source() {
    accept(
        A,
        K::Merge,
        0,
        "MERGE INTO analytics.mcp_events AS target USING analytics.staging AS source \
         ON (target.event_id = source.event_id) WHEN MATCHED THEN UPDATE SET status = source.status \
         WHEN NOT MATCHED THEN INSERT (event_id, status) VALUES (source.event_id, source.status)",
    );
}

#[test]
fn athena_merge_values_source() {
    accept(
        A,
        K::Merge,
        0,
        "MERGE INTO analytics.mcp_events AS target USING (VALUES ('a', 1), ('b', 2)) AS source (event_id, n) \
         ON (target.event_id = source.event_id) WHEN MATCHED THEN UPDATE SET n = source.n \
         WHEN NOT MATCHED THEN INSERT (event_id, n) VALUES (source.event_id, source.n)",
    );
}

#[test]
fn athena_merge_is_not_distinct_from() {
    accept(
        A,
        K::Merge,
        0,
        "MERGE INTO db.t AS target USING db.s AS source ON (target.k IS NOT DISTINCT FROM source.k) \
         WHEN MATCHED THEN DELETE",
    );
}

#[test]
fn athena_merge_dedup_source() {
    accept(
        A,
        K::Merge,
        0,
        "MERGE INTO db.t AS target USING (SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY event_id \
         ORDER BY event_ts DESC) AS rn FROM db.s) WHERE rn = 1) AS source ON (target.event_id = source.event_id) \
         WHEN MATCHED THEN UPDATE SET status = source.status \
         WHEN NOT MATCHED THEN INSERT (event_id, status) VALUES (source.event_id, source.status)",
    );
}

#[test]
fn athena_select_aggregates_with_version_travel() {
    accept(
        A,
        K::Select,
        0,
        "SELECT tool_name, count(*) AS n, count(*) FILTER (WHERE status = 'error') AS errors, \
         approx_percentile(latency_ms, 0.95) AS p95 FROM analytics.mcp_events FOR VERSION AS OF 5789234567890123456 AS e \
         WHERE date_trunc('day', event_ts) >= current_timestamp - INTERVAL '7' DAY GROUP BY tool_name \
         ORDER BY n DESC LIMIT 10",
    );
}

#[test]
fn athena_select_timestamp_travel() {
    accept(
        A,
        K::Select,
        0,
        "SELECT * FROM analytics.mcp_events FOR TIMESTAMP AS OF TIMESTAMP '2026-09-15 00:00:00.000000 UTC'",
    );
}

#[test]
fn athena_select_metadata_table() {
    accept(
        A,
        K::Select,
        0,
        "SELECT * FROM \"analytics\".\"mcp_events$snapshots\" ORDER BY committed_at DESC LIMIT 20",
    );
}

#[test]
fn athena_select_join() {
    accept(
        A,
        K::Select,
        0,
        "SELECT a.x, b.y FROM db.a AS a JOIN db.b AS b ON a.k = b.k LEFT JOIN db.c AS c ON c.k = a.k",
    );
}

#[test]
fn athena_select_predicates() {
    accept(
        A,
        K::Select,
        0,
        "SELECT CASE WHEN y IS NULL THEN 0 ELSE 1 END AS z, COALESCE(s, 'x') AS s2, CAST(v AS bigint) AS v2 \
         FROM db.t WHERE d BETWEEN 1 AND 5 AND s IN ('a', 'b') AND s LIKE 'x%' AND q IS NOT NULL \
         AND r IS DISTINCT FROM 3 AND r IS NOT DISTINCT FROM 4 AND NOT (w IS NULL) OFFSET 5 LIMIT 10",
    );
}

#[test]
fn athena_select_placeholders() {
    accept(
        A,
        K::Select,
        2,
        "SELECT * FROM db.t WHERE a = ? AND b IN (?)",
    );
}

#[test]
fn athena_ctas_iceberg() {
    accept(
        A,
        K::CreateTableAs,
        0,
        "CREATE TABLE analytics.mcp_daily WITH (table_type = 'ICEBERG', is_external = false, \
         location = 's3://my-datalake/iceberg/mcp_daily/', format = 'PARQUET', write_compression = 'ZSTD', \
         partitioning = ARRAY['day(event_ts)', 'bucket(user_id, 16)'], vacuum_max_snapshot_age_seconds = 604800) \
         AS SELECT event_id, user_id, CAST(event_ts AS timestamp(6)) AS event_ts FROM analytics.mcp_events_raw",
    );
}

#[test]
fn athena_ctas_with_no_data() {
    accept(
        A,
        K::CreateTableAs,
        0,
        "CREATE TABLE analytics.mcp_daily WITH (table_type = 'ICEBERG', is_external = false, \
         location = 's3://my-datalake/iceberg/mcp_daily/', partitioning = ARRAY['truncate(name, 4)', 'category']) \
         AS SELECT * FROM analytics.mcp_events WITH NO DATA",
    );
}

#[test]
fn athena_ctas_hive() {
    accept(
        A,
        K::CreateTableAs,
        0,
        "CREATE TABLE analytics.mcp_events_parquet WITH (format = 'PARQUET', parquet_compression = 'SNAPPY', \
         external_location = 's3://my-datalake/hive/mcp_events_parquet/', partitioned_by = ARRAY['event_date'], \
         bucketed_by = ARRAY['user_id'], bucket_count = 16) AS SELECT event_id, user_id, \
         CAST(event_ts AS date) AS event_date FROM analytics.mcp_events_csv_raw",
    );
}

#[test]
fn athena_unload() {
    accept(
        A,
        K::Unload,
        1,
        "UNLOAD (SELECT a, b FROM db.t WHERE d = ?) TO 's3://bucket/out/' WITH (format = 'PARQUET', \
         compression = 'SNAPPY', partitioned_by = ARRAY['d'])",
    );
}

#[test]
fn trino_strings_double_quotes_and_keep_backslashes() {
    assert_eq!(select_string("SELECT 'O''Reilly'", A), "O'Reilly");
    assert_eq!(select_string(r"SELECT 'a\b\'", A), r"a\b\");
}

// =====================================================================================
// Spark
// =====================================================================================

#[test]
fn spark_create_table_full() {
    accept(
        S,
        K::CreateTable,
        0,
        "CREATE TABLE IF NOT EXISTS analytics.mcp_events (
  event_id string NOT NULL COMMENT 'ULID',
  event_ts timestamp_ntz NOT NULL,
  loc struct<lat: double, lon: double>,
  attrs map<string, string>
)
USING iceberg
PARTITIONED BY (days(event_ts), bucket(16, user_id), truncate(4, name), years(d), months(d), hours(ts), category)
LOCATION 's3://my-datalake/iceberg/mcp_events/'
TBLPROPERTIES (
  'format-version'='2',
  'write.format.default'='parquet'
)",
    );
}

#[test]
fn spark_create_table_minimal() {
    accept(
        S,
        K::CreateTable,
        0,
        "CREATE TABLE analytics.mcp_events (\n  id bigint,\n  tags array<string>,\n  p decimal(10,2)\n)\nUSING iceberg",
    );
}

#[test]
fn spark_drop_table_purge() {
    accept(S, K::DropTable, 0, "DROP TABLE analytics.mcp_events PURGE");
}

#[test]
fn spark_drop_table_if_exists_purge() {
    accept(
        S,
        K::DropTable,
        0,
        "DROP TABLE IF EXISTS analytics.mcp_events PURGE",
    );
}

#[test]
fn spark_alter_add_columns() {
    accept(
        S,
        K::AlterTable,
        0,
        "ALTER TABLE db.t ADD COLUMNS (c string COMMENT 'x')",
    );
}

#[test]
fn spark_alter_drop_column() {
    accept(S, K::AlterTable, 0, "ALTER TABLE db.t DROP COLUMN c");
}

#[test]
fn spark_alter_rename_column() {
    accept(S, K::AlterTable, 0, "ALTER TABLE db.t RENAME COLUMN a TO b");
}

#[test]
fn spark_alter_column_type() {
    accept(
        S,
        K::AlterTable,
        0,
        "ALTER TABLE db.t ALTER COLUMN c TYPE bigint",
    );
}

#[test]
fn spark_alter_set_tblproperties() {
    accept(
        S,
        K::AlterTable,
        0,
        "ALTER TABLE db.t SET TBLPROPERTIES ('k'='v')",
    );
}

#[test]
fn spark_alter_unset_tblproperties() {
    accept(
        S,
        K::AlterTable,
        0,
        "ALTER TABLE db.t UNSET TBLPROPERTIES ('k')",
    );
}

#[test]
fn spark_insert_every_literal_form() {
    accept(
        S,
        K::Insert,
        0,
        r"INSERT INTO analytics.mcp_events (a, b, c, d, e, f, g, h, i, j, k) VALUES ('it\'s a \\ path', TIMESTAMP_NTZ '2026-10-01 12:00:00.000000', CAST('12.50' AS DECIMAL(10,2)), array('x'), map('k', 'v'), named_struct('lat', 1.5D, 'lon', 2.5D), CAST(NULL AS STRING), CAST('1.5' AS FLOAT), 1.5E0, 5L, X'0a0b'), ('x', TIMESTAMP '2026-10-01 12:00:00', NULL, array(), map(), NULL, NULL, NULL, NULL, NULL, NULL)",
    );
}

#[test]
fn spark_strings_use_backslash_escapes() {
    assert_eq!(
        select_string(r"SELECT 'it\'s a \\ path'", S),
        r"it's a \ path"
    );
}

#[test]
fn spark_update() {
    accept(
        S,
        K::Update,
        0,
        "UPDATE analytics.mcp_events SET status = 'retried', latency_ms = 320 WHERE event_id = 'evt-001'",
    );
}

#[test]
fn spark_delete() {
    accept(
        S,
        K::Delete,
        0,
        "DELETE FROM analytics.mcp_events WHERE user_id = 'user-123' AND event_ts < TIMESTAMP_NTZ '2026-09-01 00:00:00'",
    );
}

#[test]
fn spark_merge() {
    accept(S, K::Merge, 0, MERGE_SUBQUERY);
}

#[test]
fn spark_select_version_travel() {
    accept(
        S,
        K::Select,
        0,
        "SELECT * FROM analytics.mcp_events FOR VERSION AS OF 123",
    );
}

#[test]
fn spark_select_timestamp_travel() {
    accept(
        S,
        K::Select,
        0,
        "SELECT * FROM analytics.mcp_events FOR TIMESTAMP AS OF TIMESTAMP '2026-09-15 00:00:00'",
    );
}

#[test]
fn spark_select_metadata_table() {
    accept(
        S,
        K::Select,
        0,
        "SELECT * FROM analytics.mcp_events.snapshots ORDER BY committed_at DESC LIMIT 20",
    );
}

#[test]
fn spark_call_rewrite_data_files() {
    accept(
        S,
        K::Optimize,
        0,
        "CALL local.system.rewrite_data_files(table => 'analytics.mcp_events', options => map('min-input-files', '1'))",
    );
}

#[test]
fn spark_call_expire_snapshots() {
    accept(
        S,
        K::Vacuum,
        0,
        "CALL local.system.expire_snapshots(table => 'analytics.mcp_events', older_than => TIMESTAMP '2026-10-01 00:00:00', retain_last => 1)",
    );
}

#[test]
fn spark_ctas() {
    accept(
        S,
        K::CreateTableAs,
        0,
        "CREATE TABLE db.t USING iceberg PARTITIONED BY (days(event_ts)) LOCATION 's3://b/db/t/' \
         TBLPROPERTIES ('format-version'='2') AS SELECT * FROM db.s",
    );
}

// =====================================================================================
// Rejections
// =====================================================================================

#[test]
fn reject_two_statements() {
    let e = reject(
        A,
        K::Select,
        0,
        "SELECT 1; DROP TABLE t",
        ErrorKind::Syntax,
        "expected exactly one SQL statement, found a second one starting with `DROP`",
    );
    at(&e, 1, 11);
}

#[test]
fn reject_vacuum_retain() {
    let e = reject(
        A,
        K::Vacuum,
        0,
        "VACUUM analytics.mcp_events RETAIN 7 DAYS",
        ErrorKind::Syntax,
        "expected the end of the statement, found `RETAIN`",
    );
    hinted(&e, "Athena's VACUUM takes no options");
    at(&e, 1, 29);
}

#[test]
fn reject_athena_rename_column() {
    let e = reject(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE t RENAME COLUMN a TO b",
        ErrorKind::Syntax,
        "expected `ADD COLUMNS`, `ADD PARTITION`, `DROP COLUMN`, `CHANGE COLUMN`, `RENAME TO`, `SET TBLPROPERTIES` or `UNSET TBLPROPERTIES`, found `RENAME`",
    );
    hinted(
        &e,
        "rename with `ALTER TABLE t CHANGE COLUMN old_name new_name type`",
    );
}

#[test]
fn reject_athena_alter_column_type() {
    let e = reject(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE t ALTER COLUMN c TYPE bigint",
        ErrorKind::Syntax,
        "expected `ADD COLUMNS`, `ADD PARTITION`, `DROP COLUMN`, `CHANGE COLUMN`, `RENAME TO`, `SET TBLPROPERTIES` or `UNSET TBLPROPERTIES`, found `ALTER`",
    );
    hinted(
        &e,
        "change a column's type with `ALTER TABLE t CHANGE COLUMN c c new_type`",
    );
}

#[test]
fn reject_athena_add_partition_field() {
    let e = reject(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE t ADD PARTITION FIELD day(ts)",
        ErrorKind::Syntax,
        "expected `ADD COLUMNS`, `ADD PARTITION`, `DROP COLUMN`, `CHANGE COLUMN`, `RENAME TO`, `SET TBLPROPERTIES` or `UNSET TBLPROPERTIES`, found `ADD`",
    );
    hinted(&e, "Athena's DDL has no partition evolution");
}

#[test]
fn reject_athena_add_column_singular() {
    let e = reject(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE t ADD COLUMN c int",
        ErrorKind::Syntax,
        "expected `ADD COLUMNS`, `ADD PARTITION`, `DROP COLUMN`, `CHANGE COLUMN`, `RENAME TO`, `SET TBLPROPERTIES` or `UNSET TBLPROPERTIES`, found `ADD`",
    );
    hinted(
        &e,
        "Athena's DDL adds columns with `ADD COLUMNS (c type, …)`",
    );
}

#[test]
fn reject_spark_transform_in_athena_ddl() {
    let e = reject(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (ts timestamp) PARTITIONED BY (days(ts)) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        ErrorKind::DisallowedSyntax,
        "partition transform `days(ts)`: `days` is Spark's spelling",
    );
    at(&e, 1, 50);
}

#[test]
fn reject_athena_transform_in_spark() {
    reject(
        S,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (ts timestamp) USING iceberg PARTITIONED BY (day(ts))",
        ErrorKind::DisallowedSyntax,
        "`day` is Athena's spelling",
    );
}

#[test]
fn reject_bucket_column_first_in_ddl() {
    reject(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (id int) PARTITIONED BY (bucket(id, 16)) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        ErrorKind::DisallowedSyntax,
        "bucket takes the number first here",
    );
}

#[test]
fn reject_bucket_number_first_in_ctas() {
    reject(
        A,
        K::CreateTableAs,
        0,
        "CREATE TABLE db.t WITH (table_type = 'ICEBERG', is_external = false, location = 's3://b/t/', \
         partitioning = ARRAY['bucket(16, id)']) AS SELECT 1 AS id",
        ErrorKind::DisallowedSyntax,
        "CTAS partitioning entry 'bucket(16, id)'",
    );
}

#[test]
fn reject_for_system_time() {
    reject(
        A,
        K::Select,
        0,
        "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00 UTC'",
        ErrorKind::DisallowedSyntax,
        "FOR SYSTEM_TIME AS OF is Athena engine v2 syntax, removed in engine v3",
    );
}

#[test]
fn reject_time_travel_without_for() {
    reject(
        A,
        K::Select,
        0,
        "SELECT * FROM t VERSION AS OF 5",
        ErrorKind::DisallowedSyntax,
        "time travel written `VERSION AS OF` without FOR",
    );
}

#[test]
fn reject_merge_not_matched_by_source() {
    let e = reject(
        A,
        K::Merge,
        0,
        "MERGE INTO t USING s ON (t.k = s.k) WHEN NOT MATCHED BY SOURCE THEN DELETE",
        ErrorKind::Syntax,
        "expected `THEN`, found `BY`",
    );
    hinted(
        &e,
        "Trino's MERGE has no clause for target rows that match no source row",
    );
}

#[test]
fn reject_merge_not_matched_by_target() {
    let e = reject(
        A,
        K::Merge,
        0,
        "MERGE INTO t USING s ON (t.k = s.k) WHEN NOT MATCHED BY TARGET THEN INSERT (k) VALUES (s.k)",
        ErrorKind::Syntax,
        "expected `THEN`, found `BY`",
    );
    hinted(&e, "Trino writes without `BY TARGET`");
}

#[test]
fn reject_insert_on_conflict() {
    let e = reject(
        A,
        K::Insert,
        0,
        "INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO NOTHING",
        ErrorKind::Syntax,
        "expected the end of the statement, found `ON`",
    );
    hinted(
        &e,
        "`ON CONFLICT` is PostgreSQL's upsert: write it as `MERGE INTO",
    );
}

#[test]
fn reject_insert_returning() {
    let e = reject(
        A,
        K::Insert,
        0,
        "INSERT INTO t (a) VALUES (1) RETURNING a",
        ErrorKind::Syntax,
        "expected the end of the statement, found `RETURNING`",
    );
    hinted(&e, "`RETURNING` is PostgreSQL's");
}

#[test]
fn reject_delete_returning() {
    let e = reject(
        A,
        K::Delete,
        0,
        "DELETE FROM t WHERE a = 1 RETURNING a",
        ErrorKind::Syntax,
        "expected the end of the statement, found `RETURNING`",
    );
    hinted(&e, "read them back with a SELECT");
}

#[test]
fn reject_select_top() {
    let e = reject(
        A,
        K::Select,
        0,
        "SELECT TOP 1 a FROM t",
        ErrorKind::Syntax,
        "expected the select list (`TOP` is not Trino's or Spark's), found `TOP`",
    );
    hinted(&e, "`SELECT TOP n` is SQL Server's: write `LIMIT n`");
    at(&e, 1, 8);
}

#[test]
fn reject_double_colon_cast() {
    let e = reject(
        A,
        K::Select,
        0,
        "SELECT x::int FROM t",
        ErrorKind::Syntax,
        "expected the end of the statement, found `::`",
    );
    hinted(&e, "write `CAST(x AS type)`");
}

#[test]
fn reject_qualify() {
    let e = reject(
        A,
        K::Select,
        0,
        "SELECT a, row_number() OVER (PARTITION BY b ORDER BY c) AS rn FROM t QUALIFY rn = 1",
        ErrorKind::Syntax,
        "expected the end of the statement, found `QUALIFY`",
    );
    hinted(&e, "compute the window function in a subquery");
}

#[test]
fn reject_limit_comma() {
    let e = reject(
        A,
        K::Select,
        0,
        "SELECT a FROM t LIMIT 1, 2",
        ErrorKind::Syntax,
        "expected the end of the statement, found `,`",
    );
    hinted(&e, "Trino writes `OFFSET skip LIMIT count`");
}

#[test]
fn reject_limit_before_offset() {
    reject(
        A,
        K::Select,
        0,
        "SELECT a FROM t LIMIT 2 OFFSET 1",
        ErrorKind::Syntax,
        "`OFFSET` after `LIMIT`: Trino's grammar takes `OFFSET n` before `LIMIT m`",
    );
}

#[test]
fn reject_double_quoted_name_in_athena_ddl() {
    let e = reject(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE \"db\".\"t\" (a int) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        ErrorKind::DisallowedSyntax,
        "double-quoted name \"db\" in Athena DDL",
    );
    at(&e, 1, 14);
}

#[test]
fn reject_double_quoted_name_in_vacuum() {
    reject(
        A,
        K::Vacuum,
        0,
        "VACUUM \"db\".\"_t\"",
        ErrorKind::DisallowedSyntax,
        "double-quoted name \"db\" in Athena DDL",
    );
}

#[test]
fn reject_backticked_name_in_athena_dml() {
    reject(
        A,
        K::Select,
        0,
        "SELECT `a` FROM db.t",
        ErrorKind::DisallowedSyntax,
        "backticked name `a` in Athena DML",
    );
}

#[test]
fn reject_double_quoted_string_in_spark() {
    reject(
        S,
        K::Select,
        0,
        "SELECT \"a\" FROM db.t",
        ErrorKind::DisallowedSyntax,
        "double-quoted string literal in Spark SQL",
    );
}

#[test]
fn reject_wrong_kind() {
    let e = reject(
        A,
        K::Update,
        0,
        "DELETE FROM db.t WHERE a = 1",
        ErrorKind::DisallowedSyntax,
        "expected an UPDATE statement (kind UPDATE), found DELETE",
    );
    at(&e, 1, 1);
}

#[test]
fn reject_ctas_as_create_table() {
    reject(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE db.t WITH (format = 'PARQUET') AS SELECT 1 AS a",
        ErrorKind::Syntax,
        "expected `(`, found `WITH`",
    );
}

#[test]
fn reject_placeholder_count_mismatch() {
    reject(
        A,
        K::Select,
        2,
        "SELECT a FROM t WHERE b = ?",
        ErrorKind::DisallowedSyntax,
        "has 1 `?` placeholder(s) but 2 parameter(s) are bound",
    );
}

#[test]
fn reject_placeholder_without_parameters() {
    let e = reject(
        A,
        K::Select,
        0,
        "SELECT a FROM t WHERE b = ?",
        ErrorKind::DisallowedSyntax,
        "has 1 `?` placeholder(s) but 0 parameter(s) are bound",
    );
    at(&e, 1, 27);
}

#[test]
fn reject_placeholder_in_update() {
    let e = reject(
        A,
        K::Update,
        0,
        "UPDATE t SET a = 1 WHERE b = ?",
        ErrorKind::DisallowedSyntax,
        "`?` parameter in UPDATE",
    );
    at(&e, 1, 30);
}

#[test]
fn reject_other_placeholder_styles() {
    let e = reject(
        A,
        K::Select,
        1,
        "SELECT a FROM t WHERE b = $1",
        ErrorKind::Syntax,
        "the placeholder `$1`: our targets take only `?`",
    );
    hinted(&e, "`$1` parameters are PostgreSQL's: write `?`");
}

#[test]
fn reject_unterminated_string() {
    let e = reject(
        A,
        K::Select,
        0,
        "SELECT 'abc FROM t",
        ErrorKind::Syntax,
        "Unterminated string literal",
    );
    at(&e, 1, 8);
}

/// Injection text inside a correctly escaped literal is one literal.
#[test]
fn injection_text_escaped_is_one_literal() {
    let sql = "SELECT * FROM t WHERE a = 'a'' OR 1=1 --'";
    accept(A, K::Select, 0, sql);
    let read = inspect(sql, K::Select, A).unwrap();
    assert_eq!(read.string_literals(), ["a' OR 1=1 --"]);
}

/// The same text pasted without its closing quote cannot parse.
#[test]
fn reject_injection_text_unterminated() {
    reject(
        A,
        K::Select,
        0,
        "SELECT * FROM t WHERE a = 'a'' OR 1=1 --",
        ErrorKind::Syntax,
        "Unterminated string literal",
    );
}

/// A literal that ends early (quote not doubled) leaves a comment behind: refused.
#[test]
fn reject_string_literal_ending_early() {
    let e = reject(
        A,
        K::Select,
        0,
        "SELECT * FROM t WHERE a = 'a' OR 1=1 --'",
        ErrorKind::DisallowedSyntax,
        "a `--` comment in generated SQL",
    );
    at(&e, 1, 38);
}

/// Spark: injection text behind a backslash-escaped quote is one literal.
#[test]
fn spark_injection_text_escaped_is_one_literal() {
    let sql = r"SELECT 'x\' OR 1=1 --'";
    accept(S, K::Select, 0, sql);
    assert_eq!(select_string(sql, S), "x' OR 1=1 --");
}

/// Spark: a quote left unescaped ends the literal early and leaves a comment: refused.
#[test]
fn reject_spark_literal_ending_early() {
    reject(
        S,
        K::Delete,
        0,
        "DELETE FROM t WHERE a = 'x' OR 1=1 --'",
        ErrorKind::DisallowedSyntax,
        "a `--` comment in generated SQL",
    );
}

#[test]
fn reject_block_comment() {
    reject(
        A,
        K::Select,
        0,
        "SELECT * FROM t /* hi */",
        ErrorKind::DisallowedSyntax,
        "a `/*` comment in generated SQL",
    );
}

#[test]
fn reject_quote_in_ddl_string() {
    reject(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (a int) LOCATION 's3://b/it''s/' TBLPROPERTIES ('table_type'='ICEBERG')",
        ErrorKind::DisallowedSyntax,
        "LOCATION contains a single quote",
    );
}

#[test]
fn reject_not_null_in_athena_ddl() {
    let e = reject(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (a int NOT NULL) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        ErrorKind::Syntax,
        "expected `)`, found `NOT`",
    );
    hinted(&e, "leave out `NOT NULL`");
}

#[test]
fn reject_missing_iceberg_table_type() {
    reject(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (a int) LOCATION 's3://b/t/' TBLPROPERTIES ('format'='parquet')",
        ErrorKind::DisallowedSyntax,
        "TBLPROPERTIES ('table_type'='ICEBERG'",
    );
}

#[test]
fn reject_external_table() {
    reject(
        A,
        K::CreateTable,
        0,
        "CREATE EXTERNAL TABLE db.t (a int) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        ErrorKind::Syntax,
        "expected `STORED`, found `LOCATION`",
    );
}

#[test]
fn reject_drop_purge_in_athena() {
    reject(
        A,
        K::DropTable,
        0,
        "DROP TABLE db.t PURGE",
        ErrorKind::DisallowedSyntax,
        "DROP TABLE … PURGE is Spark syntax",
    );
}

#[test]
fn reject_optimize_without_bin_pack() {
    reject(
        A,
        K::Optimize,
        0,
        "OPTIMIZE db.t",
        ErrorKind::Syntax,
        "expected `REWRITE`, found the end of the text",
    );
}

#[test]
fn reject_hive_type_in_trino_cast() {
    reject(
        A,
        K::Insert,
        0,
        "INSERT INTO t (a) SELECT CAST(x AS array<string>) FROM s",
        ErrorKind::Syntax,
        "`array<…>`: Trino writes compound types in parentheses, `array(T)`, `map(K, V)`, `row(a T)`",
    );
}

#[test]
fn reject_unload_double_quoted_target() {
    reject(
        A,
        K::Unload,
        0,
        "UNLOAD (SELECT 1) TO \"s3://x/\" WITH (format = 'PARQUET')",
        ErrorKind::Syntax,
        "expected the location, a `'…'` string, found `\"s3://x/\"`",
    );
}

#[test]
fn reject_unload_in_spark() {
    let e = reject(
        S,
        K::Unload,
        0,
        "UNLOAD (SELECT 1) TO 's3://x/' WITH (format = 'PARQUET')",
        ErrorKind::Syntax,
        "expected a statement (`SELECT`, `INSERT`, `UPDATE`, `DELETE`, `MERGE`, `CREATE`, `ALTER`, `DROP`, `SHOW` or `DESCRIBE`), found `UNLOAD`",
    );
    hinted(
        &e,
        "Spark writes a query's rows to files with `INSERT OVERWRITE DIRECTORY",
    );
}

#[test]
fn reject_spark_wrong_procedure() {
    reject(
        S,
        K::Optimize,
        0,
        "CALL local.system.expire_snapshots(table => 'db.t')",
        ErrorKind::DisallowedSyntax,
        "runs the Iceberg procedure <catalog>.system.rewrite_data_files",
    );
}

#[test]
fn reject_spark_create_without_using_iceberg() {
    reject(
        S,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (a int) USING parquet",
        ErrorKind::DisallowedSyntax,
        "USING parquet: Iceberg tables are created with USING iceberg",
    );
}

#[test]
fn reject_delete_using() {
    let e = reject(
        A,
        K::Delete,
        0,
        "DELETE FROM t USING s WHERE t.a = s.a",
        ErrorKind::Syntax,
        "expected the end of the statement, found `USING`",
    );
    hinted(&e, "`DELETE … USING` is PostgreSQL's");
}

#[test]
fn reject_update_from() {
    let e = reject(
        A,
        K::Update,
        0,
        "UPDATE t SET a = s.a FROM s WHERE t.k = s.k",
        ErrorKind::Syntax,
        "expected the end of the statement, found `FROM`",
    );
    hinted(&e, "update from another with `MERGE INTO t USING s ON …");
}

#[test]
fn reject_trino_type_in_athena_ddl() {
    let e = reject(
        A,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (a varchar(10)) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
        ErrorKind::DisallowedSyntax,
        "is not an Athena Iceberg DDL type; use string",
    );
    at(&e, 1, 22);
}

#[test]
fn reject_timestamptz_in_athena_change_column() {
    reject(
        A,
        K::AlterTable,
        0,
        "ALTER TABLE db.t CHANGE COLUMN a a timestamp(6) with time zone",
        ErrorKind::DisallowedSyntax,
        "Athena Iceberg DDL declares only timestamp",
    );
}

#[test]
fn reject_non_iceberg_type_in_spark_ddl() {
    reject(
        S,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (a varchar(10)) USING iceberg",
        ErrorKind::DisallowedSyntax,
        "is not a Spark Iceberg column type; use string",
    );
}

#[test]
fn reject_spark_alter_column_to_unknown_type() {
    reject(
        S,
        K::AlterTable,
        0,
        "ALTER TABLE db.t ALTER COLUMN c TYPE tinyint",
        ErrorKind::DisallowedSyntax,
        "is not a Spark Iceberg column type; use int",
    );
}

#[test]
fn reject_placeholder_outside_where() {
    let e = reject(
        A,
        K::Insert,
        1,
        "INSERT INTO db.t (a) VALUES (?)",
        ErrorKind::DisallowedSyntax,
        "`?` parameter outside a WHERE clause",
    );
    at(&e, 1, 30);
    reject(
        A,
        K::Select,
        1,
        "SELECT ? FROM db.t",
        ErrorKind::DisallowedSyntax,
        "only in WHERE",
    );
}

#[test]
fn placeholders_in_nested_where_clauses() {
    accept(
        A,
        K::Select,
        2,
        "SELECT a FROM db.t WHERE b IN (SELECT b FROM db.s WHERE c = ?) AND d = ?",
    );
    accept(
        A,
        K::CreateTableAs,
        1,
        "CREATE TABLE db.t2 WITH (table_type = 'ICEBERG', is_external = false, location = 's3://b/t2/') \
         AS SELECT * FROM db.t WHERE d >= ?",
    );
}

#[test]
fn reject_spark_ctas_with_column_list() {
    reject(
        S,
        K::CreateTableAs,
        0,
        "CREATE TABLE db.t (a int) USING iceberg AS SELECT 1 AS a",
        ErrorKind::Syntax,
        "expected the end of the statement, found `AS`",
    );
}

#[test]
fn athena_accepts_unnest_but_no_other_table_function() {
    accept(
        A,
        K::Select,
        0,
        "SELECT d FROM UNNEST(sequence(DATE '2026-10-01', DATE '2026-10-03', INTERVAL '1' DAY)) AS t (d)",
    );
    accept(
        A,
        K::Select,
        0,
        "SELECT e.event_id, t.tag FROM analytics.mcp_events AS e CROSS JOIN UNNEST(e.tags) AS t (tag)",
    );
    reject(
        A,
        K::Select,
        0,
        "SELECT * FROM generate_series(1, 3)",
        ErrorKind::Syntax,
        "expected the end of the statement, found `(`",
    );
}

#[test]
fn staging_table_shapes() {
    let ok = |d, k, sql: &str| {
        iceberg_sql::validate::validate_sql(sql, k, d, 0).unwrap_or_else(|e| panic!("{sql}: {e}"))
    };
    ok(A, K::CreateStagingTable,
       "CREATE EXTERNAL TABLE db.s (a int, b array<string>) STORED AS PARQUET LOCATION 's3://b/s/'");
    ok(A, K::DropStagingTable, "DROP TABLE IF EXISTS db.s");
    ok(
        S,
        K::CreateStagingTable,
        "CREATE TEMPORARY VIEW s (a int, b array<string>) USING parquet OPTIONS (path 's3://b/s/')",
    );
    ok(S, K::DropStagingTable, "DROP VIEW IF EXISTS s");
    // Only these shapes.
    reject(
        A,
        K::CreateStagingTable,
        0,
        "CREATE EXTERNAL TABLE db.s (a int) STORED AS ORC LOCATION 's3://b/s/'",
        ErrorKind::Syntax,
        "PARQUET",
    );
    reject(
        A,
        K::CreateStagingTable,
        0,
        "CREATE TABLE db.s (a int) LOCATION 's3://b/s/' TBLPROPERTIES ('table_type'='ICEBERG')",
        ErrorKind::DisallowedSyntax,
        "expected a CREATE EXTERNAL TABLE … STORED AS PARQUET",
    );
    reject(
        A,
        K::DropStagingTable,
        0,
        "DROP TABLE db.s",
        ErrorKind::DisallowedSyntax,
        "DROP TABLE IF EXISTS",
    );
    reject(
        S,
        K::CreateStagingTable,
        0,
        "CREATE TEMPORARY VIEW s (a int) USING csv OPTIONS (path 's3://b/s/')",
        ErrorKind::DisallowedSyntax,
        "USING csv: staged files are read with USING parquet",
    );
    reject(
        S,
        K::DropStagingTable,
        0,
        "DROP TABLE IF EXISTS s",
        ErrorKind::DisallowedSyntax,
        "DROP VIEW IF EXISTS",
    );
    // EXTERNAL stays refused for Iceberg tables.
    reject(
        A,
        K::CreateTable,
        0,
        "CREATE EXTERNAL TABLE db.s (a int) STORED AS PARQUET LOCATION 's3://b/s/'",
        ErrorKind::DisallowedSyntax,
        "CREATE EXTERNAL TABLE",
    );
}

// ---------------------------------------------------------------------------------
// Literals, row counts and type parameters: what the engines refuse after parsing
// ---------------------------------------------------------------------------------

/// Literal forms and ranges both Trino-grammar targets accept; the refusals are in
/// `trino_literals.rs` (checked there against Trino's own grammar).
#[test]
fn trino_literals_within_their_ranges_are_accepted() {
    for d in [A, Dialect::Trino] {
        for sql in [
            "SELECT 9223372036854775807, -9223372036854775807, 0, 007",
            "SELECT 1234567890123456789012345678901234567.0, .5, 1., 1e5, 1.5E-3, .5e3, 1.e5",
            "SELECT X'', X'ab', X'AB CD', U&'\\0041'",
            "SELECT CAST(c AS decimal(38, 38)), CAST(c AS decimal(1, 0)), CAST(c AS varchar(0)) FROM t",
            "SELECT CAST(c AS char(65536)), CAST(c AS timestamp(12) with time zone), CAST(c AS time(0)) FROM t",
            "SELECT CAST(c AS array(row(a decimal(10, 2), b map(varchar, timestamp(3))))) FROM t",
            "SELECT CURRENT_TIMESTAMP, CURRENT_TIMESTAMP(12), LOCALTIMESTAMP(0), CURRENT_DATE",
            "SELECT DATE '2024-02-29', TIMESTAMP '2024-01-01 00:00:00.123456789012 UTC', DECIMAL '-12.50'",
            "SELECT BIGINT '-9223372036854775808', INTEGER '7', REAL '1.5e3', DOUBLE '-0.5'",
            "SELECT INTERVAL '1' DAY, INTERVAL -'2' HOUR, INTERVAL '1-2' YEAR TO MONTH, INTERVAL '1.5' SECOND",
            "SELECT INTERVAL '1 02:03:04.5' DAY TO SECOND, INTERVAL '02:03' HOUR TO MINUTE",
            "SELECT \"a\"\"b\" FROM t WHERE c <> 1 AND c != 2 OR c % 2 = 0 AND c || 'x' = 'y'",
            "SELECT c FROM t ORDER BY c OFFSET 1 ROWS LIMIT ALL",
            "SELECT c FROM t ORDER BY c OFFSET 0 ROW FETCH NEXT 9223372036854775807 ROWS WITH TIES",
            "SELECT c FROM t FETCH FIRST ROW ONLY",
        ] {
            accept(d, K::Select, 0, sql);
        }
    }
}

#[test]
fn trino_refusals_say_what_and_where() {
    let cases: &[(&str, &str, usize, usize)] = &[
        ("SELECT 1e", "a number directly followed by letters", 1, 8),
        ("SELECT c FROM t WHERE c = 1e5e5", "`1e5e5`", 1, 27),
        ("SELECT X'ABC'", "odd number of hexadecimal digits", 1, 8),
        ("SELECT X'0G'", "contains 'G'", 1, 8),
        ("SELECT 1, 9223372036854775808", "beyond bigint", 1, 11),
        ("SELECT 0x1F", "hexadecimal, octal or binary", 1, 8),
        (
            "SELECT c FROM t LIMIT -1",
            "LIMIT -1: Trino takes a row count",
            1,
            24,
        ),
        ("SELECT c FROM t LIMIT 1 + 1", "not an expression", 1, 23),
        ("SELECT c FROM t OFFSET 1.5", "OFFSET 1.5", 1, 24),
        (
            "SELECT c FROM t FETCH FIRST 50 PERCENT ROWS ONLY",
            "no PERCENT",
            1,
            17,
        ),
        (
            "SELECT c FROM t FETCH FIRST 1 ROWS",
            "FETCH FIRST|NEXT [n] ROW|ROWS ONLY",
            1,
            17,
        ),
        (
            "SELECT c FROM t FETCH 1 ROWS ONLY",
            "FETCH FIRST|NEXT",
            1,
            17,
        ),
        (
            "SELECT c FROM t FETCH FIRST 1 ROWS WITH TIES",
            "needs an ORDER BY",
            1,
            41,
        ),
        (
            "SELECT CAST(c AS decimal(39, 0)) FROM t",
            "precision is 1 to 38",
            1,
            18,
        ),
        (
            "SELECT CAST(c AS decimal(10, 11)) FROM t",
            "scale is 0 to its precision",
            1,
            18,
        ),
        (
            "SELECT CAST(c AS timestamp(13)) FROM t",
            "the precision is 0 to 12",
            1,
            18,
        ),
        (
            "SELECT CAST(c AS char(65537)) FROM t",
            "a char's length is 0 to 65536",
            1,
            18,
        ),
        ("SELECT CAST(c AS in) FROM t", "is not a Trino type", 1, 18),
        (
            "SELECT CURRENT_TIMESTAMP()",
            "precision p from 0 to 12",
            1,
            8,
        ),
        ("SELECT CURRENT_DATE(1)", "without parentheses", 1, 8),
        ("SELECT INTERVAL 'x' DAY", "n a number in a string", 1, 17),
        (
            "SELECT INTERVAL '1' HOUR TO DAY",
            "ranges YEAR TO MONTH",
            1,
            17,
        ),
        (
            "SELECT DATE '2024-13-01'",
            "a date is written yyyy-mm-dd",
            1,
            13,
        ),
        (
            "SELECT DATE '2024-01-01 10:00'",
            "a date is written yyyy-mm-dd",
            1,
            13,
        ),
        (
            "SELECT TIMESTAMP '2024-02-30 00:00:00'",
            "not a valid TIMESTAMP literal",
            1,
            18,
        ),
        ("SELECT DECIMAL 'abc'", "Invalid DECIMAL value", 1, 16),
        (
            "SELECT BIGINT '9223372036854775808'",
            "the value is not a BIGINT",
            1,
            15,
        ),
        ("SELECT REAL 'inf'", "the value is not a number", 1, 13),
        ("SELECT c FROM t WHERE c == 1", "`==`", 1, 25),
        ("SELECT \"\" FROM t", "an empty quoted name", 1, 8),
    ];
    for (sql, says, line, column) in cases {
        for d in [A, Dialect::Trino] {
            let e = reject(d, K::Select, 0, sql, ErrorKind::DisallowedSyntax, says);
            at(&e, *line, *column);
        }
    }
    // Refused by the parser (Trino's grammar has none of these forms).
    let at_parse: &[(&str, &str, usize, usize)] = &[
        (
            "SELECT 5L",
            "`5L`: a number with a type suffix is Spark syntax; write a plain number or a CAST",
            1,
            8,
        ),
        (
            "SELECT CAST(c AS integer array) FROM t",
            "expected `)`, found `array`",
            1,
            26,
        ),
        (
            "SELECT DATE 2024",
            "expected the end of the statement, found `2024`",
            1,
            13,
        ),
        (
            "SELECT INTERVAL '1' WEEK",
            "expected an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND), found `WEEK`",
            1,
            21,
        ),
        (
            "SELECT 1 & 2",
            "`&` is Spark's bitwise operator: Athena and Trino call bitwise_and(x, y)",
            1,
            10,
        ),
    ];
    for (sql, says, line, column) in at_parse {
        for d in [A, Dialect::Trino] {
            let e = reject(d, K::Select, 0, sql, ErrorKind::Syntax, says);
            at(&e, *line, *column);
        }
    }
}

/// The same kinds of literal in Spark SQL, from its lexer (SqlBaseLexer.g4: `EXPONENT`
/// needs digits, typed numbers `5L` `5S` `5Y` `1.5D` `1.5F` `1.5BD`, `X'…'` hex).
#[test]
fn spark_literals_follow_its_lexer() {
    for sql in [
        "SELECT 5L, 32767S, -127Y, 127Y, 1.5D, 1e5D, 2F, 1.5BD, 2BD, 1.e5, .5e3",
        "SELECT 9223372036854775808, 12345678901234567890123456789012345678",
        "SELECT X'ABC', X'', x'ab'",
        "SELECT CAST(c AS decimal(38, 0)), CAST(c AS varchar(10)), CAST(c AS char(1)) FROM t",
        "SELECT c FROM t LIMIT 2147483647",
    ] {
        accept(S, K::Select, 0, sql);
    }
    let cases: &[(&str, &str, usize, usize)] = &[
        ("SELECT 1e", "a number directly followed by letters", 1, 8),
        ("SELECT 1_000", "`1_000`", 1, 8),
        ("SELECT 0x1F", "hexadecimal, octal or binary", 1, 8),
        ("SELECT 1.5L", "suffix follows an integer only", 1, 8),
        ("SELECT 128Y", "beyond Y (tinyint)", 1, 8),
        ("SELECT 32768S", "beyond S (smallint)", 1, 8),
        ("SELECT 9223372036854775808L", "beyond L (bigint)", 1, 8),
        (
            "SELECT 123456789012345678901234567890123456789",
            "Value exceeds maximum precision",
            1,
            8,
        ),
        ("SELECT X'zz'", "contains 'z'", 1, 8),
        ("SELECT X'AB CD'", "contains ' '", 1, 8),
        (
            "SELECT c FROM t LIMIT -1",
            "LIMIT -1: Spark takes a row count",
            1,
            24,
        ),
        ("SELECT c FROM t LIMIT 2147483648", "beyond int", 1, 23),
        (
            "SELECT CAST(c AS decimal(39, 0)) FROM t",
            "precision is 1 to 38",
            1,
            18,
        ),
        (
            "SELECT CAST(c AS timestamp(3)) FROM t",
            "is not a Spark type",
            1,
            18,
        ),
        (
            "SELECT CAST(c AS varchar) FROM t",
            "is not a Spark type",
            1,
            18,
        ),
        ("SELECT `` FROM t", "an empty quoted name", 1, 8),
    ];
    for (sql, says, line, column) in cases {
        let e = reject(S, K::Select, 0, sql, ErrorKind::DisallowedSyntax, says);
        at(&e, *line, *column);
    }
}

/// Athena DDL types keep the decimal limits too (Hive's, the same 38).
#[test]
fn ddl_decimal_precision_is_at_most_38() {
    let sql = "CREATE TABLE db.t (d decimal(39,2)) LOCATION 's3://b/t/' \
               TBLPROPERTIES ('table_type'='ICEBERG')";
    reject(
        A,
        K::CreateTable,
        0,
        sql,
        ErrorKind::DisallowedSyntax,
        "precision is 1 to 38",
    );
    let sql = "CREATE TABLE db.t (d decimal(38,2)) LOCATION 's3://b/t/' \
               TBLPROPERTIES ('table_type'='ICEBERG')";
    accept(A, K::CreateTable, 0, sql);
    for (d, sql) in [
        (Dialect::Trino, "CREATE TABLE db.t (d decimal(39, 2))"),
        (S, "CREATE TABLE db.t (d decimal(39,2)) USING iceberg"),
    ] {
        reject(
            d,
            K::CreateTable,
            0,
            sql,
            ErrorKind::DisallowedSyntax,
            "precision is 1 to 38",
        );
    }
}

/// Spark's operators (SqlBaseParser.g4), and other engines' refused.
#[test]
fn spark_operators_are_sparks() {
    accept(
        S,
        K::Select,
        0,
        "SELECT 1 & 2, 1 | 2, 1 ^ 2, ~1, 1 == 2, 1 <=> 2, NOT true, 'a' || 'b', -1 % 2",
    );
    // A comparison is a value in Spark's grammar; a predicate is not.
    accept(
        S,
        K::Select,
        0,
        "SELECT a = b = c, (a IS NULL) IS NULL, a = b IS NULL FROM t",
    );
    for (sql, op) in [
        ("SELECT x FROM t WHERE y @> '{1}'", "found `@>`"),
        ("SELECT x->>'a' FROM t", "found `->>`"),
        (
            "SELECT a IS NULL IS NULL FROM t",
            "a comparison or predicate (IS, IN, BETWEEN, LIKE) cannot follow another",
        ),
        (
            "SELECT a = NOT b FROM t",
            "NOT inside a comparison or arithmetic",
        ),
    ] {
        reject(S, K::Select, 0, sql, ErrorKind::Syntax, op);
    }
}

/// Trino's comparisons and predicates take values: `a = b <> c` and `c = NOT x` are not
/// Trino grammar (sqlparser chains them); in parentheses they are.
#[test]
fn trino_predicates_take_values_not_predicates() {
    for d in [A, Dialect::Trino] {
        accept(
            d,
            K::Select,
            0,
            "SELECT c FROM t WHERE (c = 1) <> (d = 2) AND NOT c = 3",
        );
        accept(
            d,
            K::Select,
            0,
            "SELECT c FROM t WHERE c = (NOT d) OR -(1) BETWEEN 0 AND 2",
        );
        let chained = "a comparison or predicate (IS, IN, BETWEEN, LIKE) cannot follow another";
        let not = "NOT inside a comparison or arithmetic: parenthesise the condition";
        for (sql, says) in [
            ("SELECT c FROM t WHERE c = 1 <> 2", chained),
            ("SELECT c FROM t WHERE c = NOT d", not),
            ("SELECT c FROM t WHERE c = 1 BETWEEN 0 AND 2", chained),
            ("SELECT c FROM t WHERE c = d IS DISTINCT FROM 2", chained),
            ("SELECT -NOT d FROM t", not),
        ] {
            reject(d, K::Select, 0, sql, ErrorKind::Syntax, says);
        }
        // A word Trino reserves is no alias unquoted.
        reject(
            d,
            K::Select,
            0,
            "SELECT c true FROM t",
            ErrorKind::Syntax,
            "",
        );
        reject(
            d,
            K::Select,
            0,
            "SELECT c AS case FROM t",
            ErrorKind::Syntax,
            "",
        );
        accept(d, K::Select, 0, "SELECT c \"true\", c AS interval FROM t");
    }
}

/// Three forms sqlparser read as something else, which Trino's grammar (SqlBase.g4) and
/// Spark's (SqlBaseParser.g4) both refuse: `c NOT NULL` (read as `c IS NOT NULL`),
/// `FILTER (` without `WHERE` (dropped: read as no FILTER), and `s.?a` (read as the
/// name `s."?"`). Neighbours that mean what they say still pass.
#[test]
fn forms_sqlparser_misread_are_refused_in_every_dml_grammar() {
    for d in [A, S, Dialect::Trino] {
        for (sql, ek, says, column) in [
            (
                "SELECT c NOT NULL FROM t",
                ErrorKind::Syntax,
                "`x NOT NULL` is neither Trino's nor Spark's: write `x IS NOT NULL`",
                10,
            ),
            (
                "SELECT c FROM t WHERE c NOT NULL",
                ErrorKind::Syntax,
                "`x NOT NULL` is neither Trino's nor Spark's: write `x IS NOT NULL`",
                25,
            ),
            (
                "SELECT count(c) FILTER ( FROM t",
                ErrorKind::Syntax,
                "expected `WHERE` in `FILTER (WHERE …)`, found `FROM`",
                26,
            ),
            (
                "SELECT count(c) FILTER (d FROM t",
                ErrorKind::Syntax,
                "expected `WHERE` in `FILTER (WHERE …)`, found `d`",
                25,
            ),
            (
                "SELECT s.?a FROM t AS s",
                ErrorKind::DisallowedSyntax,
                "a `?` parameter after `.`",
                10,
            ),
        ] {
            let e = reject(d, K::Select, 0, sql, ek, says);
            at(&e, 1, column);
        }
        accept(
            d,
            K::Select,
            0,
            "SELECT count(c) FILTER (WHERE c IS NOT NULL) AS n, count(c) filter FROM t",
        );
        accept(d, K::Select, 0, "SELECT c FROM (SELECT 1 AS c) filter (c)");
        accept(
            d,
            K::Select,
            0,
            "SELECT c FROM t WHERE c NOT IN (1) AND c NOT LIKE 'x' AND c NOT BETWEEN 1 AND 2",
        );
    }
    accept(
        S,
        K::CreateTable,
        0,
        "CREATE TABLE db.t (c int NOT NULL, d string) USING iceberg",
    );
}
