//! Hostile and edge inputs through the validator `build()` runs (`validate_sql`): text
//! nesting far past the limit, the longest operator chains that fit the size limit,
//! wide expressions, and the refusals' classes and positions. Each runs on a 2 MiB
//! thread, as a caller's might be. Under the `sqlparser` feature every accepted input
//! is also read by sqlparser (`read_with_sqlparser`), on the same thread.

use iceberg_sql::error::SqlLocation;
use iceberg_sql::validate::validate_sql;
use iceberg_sql::{Dialect, Error, ErrorKind, StatementKind as K, MAX_QUERY_BYTES};

const A: Dialect = Dialect::Athena;
const S: Dialect = Dialect::Spark;

/// Runs `f` on a thread with a 2 MiB stack (Rust's default for spawned threads).
fn on_2_mib_thread(f: impl FnOnce() + Send) {
    std::thread::scope(|s| {
        let t = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn_scoped(s, f)
            .expect("a thread");
        if let Err(p) = t.join() {
            std::panic::resume_unwind(p);
        }
    });
}

#[track_caller]
fn ok(sql: &str, kind: K, dialect: Dialect) {
    if let Err(e) = validate_sql(sql, kind, dialect, 0) {
        panic!(
            "expected {dialect:?} {kind:?} to accept {:?}…, got:\n{e}",
            head(sql)
        );
    }
    #[cfg(feature = "sqlparser")]
    if let Err(e) = iceberg_sql::validate::read_with_sqlparser(sql, kind, dialect) {
        panic!("sqlparser refuses {:?}…:\n{e}", head(sql));
    }
}

#[track_caller]
fn err(sql: &str, kind: K, dialect: Dialect) -> Error {
    match validate_sql(sql, kind, dialect, 0) {
        Ok(()) => panic!("expected {dialect:?} {kind:?} to refuse {:?}…", head(sql)),
        Err(e) => e,
    }
}

fn head(sql: &str) -> &str {
    &sql[..sql.len().min(60)]
}

/// `CAST(ROW(CAST(ROW(…) AS row(…)), 'x') AS row(a row(…), b varchar))`, `depth` levels.
fn nested_trino_row(depth: usize) -> String {
    let mut v = "1.5E0".to_string();
    let mut t = "double".to_string();
    for _ in 0..depth {
        v = format!("CAST(ROW({v}, 'x') AS row(a {t}, b varchar))");
        t = format!("row(a {t}, b varchar)");
    }
    v
}

#[test]
fn text_nested_as_deep_as_the_builders_write_it_passes() {
    let row = nested_trino_row(12);
    let mut arr = "ARRAY[1]".to_string();
    let mut arr_t = "array(integer)".to_string();
    for _ in 0..12 {
        arr = format!("ARRAY[{arr}]");
        arr_t = format!("array({arr_t})");
    }
    let trino = format!("INSERT INTO db.t (a, b) VALUES ({row}, CAST({arr} AS {arr_t}))");
    let mut v = "1.5D".to_string();
    for _ in 0..12 {
        v = format!("named_struct('a', {v}, 'b', array(map('k', 'v')))");
    }
    let spark = format!("INSERT INTO db.t (a) VALUES ({v})");
    let mut t = "string".to_string();
    for i in 0..12 {
        t = if i % 2 == 0 {
            format!("struct<a:{t},b:int>")
        } else {
            format!("array<map<string,{t}>>")
        };
    }
    let hive = format!(
        "CREATE TABLE db.t (c {t}) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')"
    );
    on_2_mib_thread(|| {
        ok(&trino, K::Insert, A);
        ok(&spark, K::Insert, S);
        ok(&hive, K::CreateTable, A);
    });
}

#[test]
fn nesting_beyond_the_limit_is_a_syntax_error_not_a_crash() {
    let n = |s: &str, k: usize| s.repeat(k);
    let mut inputs: Vec<(String, K, Dialect)> = [
        format!("SELECT {}1{}", n("(", 100_000), n(")", 100_000)),
        format!("SELECT {}1{}", n("ARRAY[", 10_000), n("]", 10_000)),
        format!(
            "SELECT {}1{}",
            n("CASE WHEN a THEN ", 10_000),
            n(" END", 10_000)
        ),
        format!("SELECT {}a", n("NOT ", 50_000)),
        format!("SELECT {}1", n("- ", 100_000)),
        format!(
            "SELECT CAST(x AS {}integer{})",
            n("row(a ", 20_000),
            n(")", 20_000)
        ),
        format!(
            "SELECT * FROM {}db.t{}",
            n("(SELECT * FROM ", 10_000),
            n(")", 10_000)
        ),
        format!("SELECT transform(a, {}1)", n("x -> ", 40_000)),
    ]
    .into_iter()
    .map(|sql| (sql, K::Select, A))
    .collect();
    inputs.push((
        format!(
            "CREATE TABLE db.t (c {}int{}) LOCATION 's3://b/t/' TBLPROPERTIES ('table_type'='ICEBERG')",
            n("struct<a:", 20_000),
            n(">", 20_000)
        ),
        K::CreateTable,
        A,
    ));
    inputs.push((
        format!(
            "SELECT {}1{}",
            n("named_struct('a', ", 10_000),
            n(")", 10_000)
        ),
        K::Select,
        S,
    ));
    for depth in [200usize, 1000, 20_000] {
        inputs.push((
            format!("SELECT {}1{}", n("(", depth), n(")", depth)),
            K::Select,
            A,
        ));
    }
    on_2_mib_thread(|| {
        for (sql, kind, dialect) in &inputs {
            assert!(sql.len() <= MAX_QUERY_BYTES, "{}", head(sql));
            let e = err(sql, *kind, *dialect);
            assert_eq!(
                e.kind(),
                ErrorKind::Syntax,
                "{}: {}",
                head(sql),
                e.message()
            );
        }
        ok(
            &format!("SELECT {}1{}", n("(", 40), n(")", 40)),
            K::Select,
            A,
        );
    });
}

#[test]
fn the_longest_chains_that_fit_the_size_limit_are_checked_without_overflow() {
    let sums = format!("SELECT 1{}", "+1".repeat((MAX_QUERY_BYTES - 10) / 2));
    let nulls = format!("SELECT a{}", " IS NULL".repeat((MAX_QUERY_BYTES - 10) / 8));
    let ors = vec!["a"; 30_000].join(" OR ");
    let where_ors = format!("SELECT * FROM db.t WHERE {ors}");
    let casts = format!("SELECT a{}", "::int".repeat(40_000));
    on_2_mib_thread(|| {
        ok(&sums, K::Select, A);
        ok(&where_ors, K::Select, A);
        ok(
            &format!("SELECT {} AS s", vec!["1"; 5_000].join("+")),
            K::Select,
            S,
        );
        // One predicate per value in Trino's and Spark's grammars: refused at the second.
        for d in [A, S] {
            let e = err(&nulls, K::Select, d);
            assert!(
                e.message()
                    .contains("cannot follow another without parentheses"),
                "{}",
                e.message()
            );
            assert_eq!(e.location().map(|l| (l.line, l.column)), Some((1, 18)));
        }
        let e = err(&casts, K::Select, A);
        assert!(
            matches!(e.kind(), ErrorKind::DisallowedSyntax | ErrorKind::Syntax),
            "{}",
            e.message()
        );
        assert!(e.message().contains("::"), "{}", e.message());
        let e = err(&format!("{where_ors} OR"), K::Select, A);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{}", e.message());
        let e = err(&format!("{where_ors} AND"), K::Select, A);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{}", e.message());
    });
}

#[test]
fn wide_expressions_pass() {
    let ors: Vec<String> = (0..3000).map(|i| format!("a = {i}")).collect();
    let items: Vec<String> = (0..5000).map(|i| format!("'k{i}'")).collect();
    on_2_mib_thread(|| {
        ok(
            &format!("SELECT * FROM db.t WHERE {}", ors.join(" OR ")),
            K::Select,
            A,
        );
        ok(
            &format!("DELETE FROM db.t WHERE k IN ({})", items.join(", ")),
            K::Delete,
            A,
        );
    });
}

#[test]
fn refusals_carry_their_class_and_position() {
    let e = err("SELECT a\nFROM t t2 t3", K::Select, A);
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(
        e.location(),
        Some(&SqlLocation {
            line: 2,
            column: 11
        })
    );
    let shown = e.to_string();
    assert!(
        shown.contains("2 | FROM t t2 t3\n  |           ^"),
        "{shown}"
    );

    let e = err("VACUUM analytics.mcp_events RETAIN 7 DAYS", K::Vacuum, A);
    assert_eq!(
        e.location(),
        Some(&SqlLocation {
            line: 1,
            column: 29
        }),
        "{e}"
    );

    let e = err("  ", K::Select, A);
    assert_eq!(e.kind(), ErrorKind::Syntax);

    let e = err(
        &format!("SELECT '{}'", "x".repeat(MAX_QUERY_BYTES)),
        K::Select,
        A,
    );
    assert_eq!(e.kind(), ErrorKind::QueryTooLong);

    // A property key is quoted in TBLPROPERTIES.
    ok(
        "ALTER TABLE db.t SET TBLPROPERTIES ('write_compression'='zstd')",
        K::AlterTable,
        A,
    );
    let e = err(
        "ALTER TABLE db.t SET TBLPROPERTIES (write_compression='zstd')",
        K::AlterTable,
        A,
    );
    assert!(
        matches!(e.kind(), ErrorKind::DisallowedSyntax | ErrorKind::Syntax),
        "{e}"
    );

    // In Athena DDL, `array(string)` is not a type.
    let e = err(
        "ALTER TABLE db.t ADD COLUMNS (a array(string))",
        K::AlterTable,
        A,
    );
    assert_eq!(e.kind(), ErrorKind::Syntax);

    // A DML target is a table, not a time-travel read.
    err(
        "DELETE FROM db.t FOR VERSION AS OF 5 WHERE a = 1",
        K::Delete,
        A,
    );
    err(
        "MERGE INTO db.t FOR VERSION AS OF 5 AS target USING db.s AS source ON (target.k = source.k) WHEN MATCHED THEN DELETE",
        K::Merge,
        A,
    );

    // Quoted words are names, not time travel.
    ok(
        "SELECT \"for\", \"timestamp\" AS ts FROM db.t",
        K::Select,
        A,
    );
    ok("SELECT * FROM db.t VERSION AS OF 5", K::Select, S);
}
