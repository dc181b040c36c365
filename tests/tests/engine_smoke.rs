//! Smoke tests for the real-engine harness (Spark 3.5.9 + Iceberg 1.10.2, JDBC/SQLite catalog).
//!
//! Run through `./scripts/test.sh` (or `source scripts/engine.sh` first). Without the engine
//! these tests print SKIP and pass, unless `CI` is set.

use iceberg_sql_tests::engine::{Engine, EngineError};

/// A Spark SQL string literal for hand-written statements, written by the crate's own
/// Spark string writer: Spark's lexer treats `\` as an escape character, does NOT read
/// `''` as an escaped quote (see `trino_style_doubled_quote_is_concatenation_in_spark`),
/// and substitutes `${var}` inside literals (see `raw_variable_syntax_is_substituted`).
fn spark_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    iceberg_sql::Grammar::Spark.write_string(&mut out, s);
    out
}

/// Why the Spark writer escapes `${`: stock Spark (and this engine, like Glue and EMR)
/// replaces `${name}` in the SQL text before parsing, even inside a string literal.
#[test]
fn raw_variable_syntax_is_substituted() {
    let Some(engine) = Engine::get_or_skip("raw_variable_syntax_is_substituted") else {
        return;
    };
    let raw = engine.run("SELECT '${not_a_var}|' AS s");
    assert_eq!(
        raw.scalar(),
        Some("|"),
        "Spark substituted the unknown variable with ''"
    );
    let escaped = engine.run(format!("SELECT {} AS s", spark_str("${not_a_var}|")));
    assert_eq!(escaped.scalar(), Some("${not_a_var}|"));
}

const HOSTILE: &[&str] = &[
    "it's",
    "'; DROP TABLE x; --",
    "a;b",
    "-- not a comment",
    "/* not a comment */ */",
    "line1\nline2\r\n\ttabbed",
    "zürich ✓ 😀 日本語",
    "C:\\path\\n (a backslash, then n)",
    "\"double\" `back`",
    "",
    "${not_a_var} ? :p $1",
];

#[test]
fn spark_partitioned_table_round_trips_hostile_strings() {
    let Some(engine) = Engine::get_or_skip("spark_partitioned_table_round_trips_hostile_strings")
    else {
        return;
    };
    let ns = engine.namespace("smoke");
    let t = ns.table("events");
    engine.run(format!(
        "CREATE TABLE {t} (id bigint, ts timestamp, s string) USING iceberg \
         PARTITIONED BY (days(ts), bucket(16, id)) TBLPROPERTIES ('format-version'='2')"
    ));

    let mut values: Vec<String> = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, s)| {
            format!(
                "({i}, TIMESTAMP '2024-01-0{} 03:04:05.123456', {})",
                i % 9 + 1,
                spark_str(s)
            )
        })
        .collect();
    let null_id = HOSTILE.len();
    values.push(format!("({null_id}, NULL, NULL)"));
    engine.run(format!("INSERT INTO {t} VALUES {}", values.join(",\n")));

    let r = engine.run(format!("SELECT id, s, ts FROM {t} ORDER BY id"));
    assert_eq!(r.columns, ["id", "s", "ts"]);
    assert_eq!(r.types, ["bigint", "string", "timestamp"]);
    assert_eq!(r.len(), HOSTILE.len() + 1);
    for (i, s) in HOSTILE.iter().enumerate() {
        let id = i.to_string();
        let ts = format!("2024-01-0{} 03:04:05.123456 UTC", i % 9 + 1);
        assert_eq!(
            r.rows_str()[i],
            [Some(id.as_str()), Some(*s), Some(ts.as_str())],
            "row {i}"
        );
    }
    // NULL stays NULL and "" stays "".
    assert_eq!(r.rows[null_id][1], None);
    assert_eq!(r.rows[null_id][2], None);
    let empty_id = HOSTILE.iter().position(|s| s.is_empty()).unwrap();
    assert_eq!(r.rows[empty_id][1], Some(String::new()));
    assert_eq!(
        engine
            .run(format!("SELECT count(*) FROM {t} WHERE s IS NULL"))
            .scalar_i64(),
        1
    );
    assert_eq!(
        engine
            .run(format!("SELECT count(*) FROM {t} WHERE s = ''"))
            .scalar_i64(),
        1
    );

    // Byte-exact lookup by value, and the partition spec really is days + bucket.
    let q = engine.run(format!(
        "SELECT id FROM {t} WHERE s = {}",
        spark_str(HOSTILE[1])
    ));
    assert_eq!(q.scalar(), Some("1"));
    let parts = engine.run(format!("SELECT partition FROM {t}.partitions"));
    assert!(
        parts.len() > 1,
        "expected several partitions, got {:?}",
        parts.rows
    );
    assert!(
        parts.rows[0][0].as_deref().unwrap().contains("ts_day"),
        "{:?}",
        parts.rows
    );

    // Metadata table: one snapshot per commit.
    assert_eq!(
        engine
            .run(format!("SELECT count(*) FROM {t}.snapshots"))
            .scalar_i64(),
        1
    );
    engine.run(format!(
        "INSERT INTO {t} VALUES (100, TIMESTAMP '2024-02-01 00:00:00', 'x')"
    ));
    let snaps = engine.run(format!(
        "SELECT snapshot_id, operation FROM {t}.snapshots ORDER BY committed_at"
    ));
    assert_eq!(snaps.column("operation"), [Some("append"), Some("append")]);
    let props = engine.run(format!("SHOW TBLPROPERTIES {t} ('format-version')"));
    assert_eq!(props.rows_str(), [[Some("format-version"), Some("2")]]);
}

#[test]
fn athena_ddl_and_dml_run_verbatim() {
    let Some(engine) = Engine::get_or_skip("athena_ddl_and_dml_run_verbatim") else {
        return;
    };
    let ns = engine.namespace("athena");
    let db = &ns.name;
    // Athena DDL (Hive-style): backticks, day()/bucket(), LOCATION on s3, table_type.
    engine.run(format!(
        "CREATE TABLE `{db}`.`mcp_events` (\n  `event_id` string,\n  `user_id` string,\n  \
         `event_ts` timestamp,\n  `payload` string,\n  `latency_ms` bigint)\n\
         PARTITIONED BY (day(`event_ts`), bucket(16, `user_id`))\n\
         LOCATION 's3://iceberg-sql-test-bucket/iceberg/{db}/mcp_events/'\n\
         TBLPROPERTIES ('table_type'='ICEBERG', 'format'='parquet', 'write_compression'='snappy')"
    ));
    // Athena DML (Trino-style): double-quoted identifiers, TIMESTAMP literal.
    engine.run(format!(
        "INSERT INTO \"{db}\".\"mcp_events\" (\"event_id\", \"user_id\", \"event_ts\", \"payload\", \"latency_ms\") \
         VALUES ('evt-001', 'u1', TIMESTAMP '2024-05-01 10:00:00.000000', NULL, 120), \
                ('evt-002', 'u2', TIMESTAMP '2024-05-02 23:59:59.999999', '', 7)"
    ));
    engine.run(format!(
        "UPDATE \"{db}\".\"mcp_events\" SET \"latency_ms\" = 320 WHERE \"event_id\" = 'evt-001'"
    ));
    let r = engine.run(format!(
        "SELECT \"event_id\", \"payload\", \"latency_ms\", \"event_ts\" FROM \"{db}\".\"mcp_events\" ORDER BY 1"
    ));
    assert_eq!(
        r.rows_str(),
        [
            [
                Some("evt-001"),
                None,
                Some("320"),
                Some("2024-05-01 10:00:00 UTC")
            ],
            [
                Some("evt-002"),
                Some(""),
                Some("7"),
                Some("2024-05-02 23:59:59.999999 UTC")
            ],
        ]
    );

    // The s3 location is kept in the table metadata and its files land under the local
    // s3 root of this engine (s3://bucket/key -> <dir>/s3/bucket/key).
    let files = engine.run(format!("SELECT file_path FROM {db}.mcp_events.files"));
    let prefix = format!("s3://iceberg-sql-test-bucket/iceberg/{db}/mcp_events/data/");
    assert!(!files.is_empty());
    for f in files.column("file_path") {
        let f = f.unwrap();
        assert!(f.starts_with(&prefix), "{f}");
        let local = engine.s3_root().join(f.strip_prefix("s3://").unwrap());
        assert!(local.is_file(), "{} missing", local.display());
    }
    assert_eq!(
        engine
            .run(format!("SELECT count(*) FROM {db}.mcp_events.snapshots"))
            .scalar_i64(),
        2
    );
    let props = engine.run(format!("SHOW TBLPROPERTIES {db}.mcp_events"));
    let props: Vec<_> = props.rows_str();
    assert!(
        props.contains(&vec![Some("table_type"), Some("ICEBERG")]),
        "{props:?}"
    );
    assert!(
        props.contains(&vec![Some("format-version"), Some("2")]),
        "{props:?}"
    );
}

#[test]
fn values_are_encoded_losslessly() {
    let Some(engine) = Engine::get_or_skip("values_are_encoded_losslessly") else {
        return;
    };
    let r = engine.run(
        "SELECT CAST(1.50 AS decimal(10,2)) AS d, X'00ff10' AS b, DATE '2024-02-29' AS dt, \
         CAST(0.1 AS double) AS f, CAST('NaN' AS double) AS nan, true AS t, \
         CAST(NULL AS string) AS n, '' AS e, array(1, NULL) AS a, map('k', 'v') AS m, \
         named_struct('x', 1, 'y', 'q\"') AS st, 9223372036854775807 AS big",
    );
    assert_eq!(
        r.rows_str(),
        [[
            Some("1.50"),
            Some("00ff10"),
            Some("2024-02-29"),
            Some("0.1"),
            Some("NaN"),
            Some("true"),
            None,
            Some(""),
            Some("[1, null]"),
            Some("{\"k\": \"v\"}"),
            Some("{\"x\": 1, \"y\": \"q\\\"\"}"),
            Some("9223372036854775807"),
        ]]
    );
    assert_eq!(r.types[0], "decimal(10,2)");
}

#[test]
fn engine_errors_carry_spark_error_classes() {
    let Some(engine) = Engine::get_or_skip("engine_errors_carry_spark_error_classes") else {
        return;
    };
    let e = engine.expect_err("SELECT * FROM no_such_ns.no_such_table");
    assert_eq!(e.class(), Some("TABLE_OR_VIEW_NOT_FOUND"), "{e}");
    let e = engine.expect_err("SELEC 1");
    assert_eq!(e.class(), Some("PARSE_SYNTAX_ERROR"), "{e}");
    // Two statements in one request are a parse error, as on Athena.
    let e = engine.expect_err("SELECT 1; SELECT 2");
    assert!(matches!(e, EngineError::Sql { .. }), "{e}");
    // Errors raised inside a Spark job report the inner error class, without stack frames.
    let e = engine.expect_err("SELECT sum(id + 9223372036854775000) FROM range(0, 1000, 1, 2)");
    assert_eq!(e.class(), Some("ARITHMETIC_OVERFLOW"), "{e}");
    assert!(!e.message().contains("\tat "), "{e}");
    // The engine is still usable after errors.
    assert_eq!(engine.run("SELECT 41 + 1").scalar(), Some("42"));
}

/// Pins a dialect difference the Spark renderer must respect: Trino/Athena escape a quote
/// by doubling it (`'O''Brien'`), but Spark reads `'O''Brien'` as two adjacent literals
/// and concatenates them. Spark needs `'O\'Brien'`.
#[test]
fn trino_style_doubled_quote_is_concatenation_in_spark() {
    let Some(engine) = Engine::get_or_skip("trino_style_doubled_quote_is_concatenation_in_spark")
    else {
        return;
    };
    assert_eq!(engine.run("SELECT 'O''Brien'").scalar(), Some("OBrien"));
    assert_eq!(engine.run("SELECT 'O\\'Brien'").scalar(), Some("O'Brien"));
    assert_eq!(
        engine
            .run(format!("SELECT {}", spark_str("a\\'b")))
            .scalar(),
        Some("a\\'b")
    );
}

/// Merge-on-read DML, then maintenance procedures, on a table at an `s3://` LOCATION: the
/// catalog (SQLite, WAL) and the s3 -> local mapping must survive procedure commits.
#[test]
fn dml_and_maintenance_on_s3_located_table() {
    let Some(engine) = Engine::get_or_skip("dml_and_maintenance_on_s3_located_table") else {
        return;
    };
    let ns = engine.namespace("maint");
    let db = &ns.name;
    engine.run(format!(
        "CREATE TABLE `{db}`.`t` (`id` bigint, `s` string, `ts` timestamp) PARTITIONED BY (day(`ts`)) \
         LOCATION 's3://iceberg-sql-test-bucket/{db}/t/' \
         TBLPROPERTIES ('table_type'='ICEBERG', 'write.delete.mode'='merge-on-read', \
         'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')"
    ));
    engine.run(format!(
        "INSERT INTO \"{db}\".\"t\" VALUES (1, 'a', TIMESTAMP '2024-01-01 00:00:00'), (2, 'b', TIMESTAMP '2024-01-02 00:00:00')"
    ));
    engine.run(format!(
        "INSERT INTO \"{db}\".\"t\" VALUES (3, 'c', TIMESTAMP '2024-01-01 00:00:00')"
    ));
    engine.run(format!(
        "UPDATE \"{db}\".\"t\" SET \"s\" = 'B' WHERE \"id\" = 2"
    ));
    engine.run(format!("DELETE FROM \"{db}\".\"t\" WHERE \"id\" = 1"));
    engine.run(format!(
        "MERGE INTO \"{db}\".\"t\" AS t USING (SELECT * FROM (VALUES (3, 'C', TIMESTAMP '2024-01-01 00:00:00'), \
         (4, 'd', TIMESTAMP '2024-01-03 00:00:00')) AS s(id, s, ts)) AS s ON t.id = s.id \
         WHEN MATCHED THEN UPDATE SET s = s.s WHEN NOT MATCHED THEN INSERT (id, s, ts) VALUES (s.id, s.s, s.ts)"
    ));
    let expected = [
        [Some("2"), Some("B")],
        [Some("3"), Some("C")],
        [Some("4"), Some("d")],
    ];
    assert_eq!(
        engine
            .run(format!("SELECT id, s FROM {db}.t ORDER BY id"))
            .rows_str(),
        expected
    );
    assert!(
        engine
            .run(format!("SELECT count(*) FROM {db}.t.delete_files"))
            .scalar_i64()
            > 0
    );
    let first = engine.run(format!(
        "SELECT snapshot_id FROM {db}.t.snapshots ORDER BY committed_at LIMIT 1"
    ));
    let first = first.scalar().unwrap().to_string();
    let old = engine.run(format!(
        "SELECT id FROM {db}.t FOR VERSION AS OF {first} ORDER BY id"
    ));
    assert_eq!(old.column("id"), [Some("1"), Some("2")]);

    engine.run(format!(
        "CALL local.system.rewrite_data_files(table => '{db}.t', options => map('min-input-files', '1'))"
    ));
    engine.run(format!(
        "CALL local.system.expire_snapshots(table => '{db}.t', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)"
    ));
    assert_eq!(
        engine
            .run(format!("SELECT count(*) FROM {db}.t.snapshots"))
            .scalar_i64(),
        1
    );
    assert_eq!(
        engine
            .run(format!("SELECT id, s FROM {db}.t ORDER BY id"))
            .rows_str(),
        expected
    );
    // A commit after the procedures still works (the catalog is not left locked).
    engine.run(format!(
        "INSERT INTO {db}.t VALUES (5, 'e', TIMESTAMP '2024-01-05 00:00:00')"
    ));
    engine.run(format!("DROP TABLE {db}.t PURGE"));
}
