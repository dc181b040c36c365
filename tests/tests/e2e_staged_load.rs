//! End-to-end: the staged load (Parquet files written by the athena crate's staging
//! writer, a staging view over them, one `INSERT … SELECT` or `MERGE`) on the Spark +
//! Iceberg engine, with the staging files in the engine's mapped `s3://` directory.
//!
//! * The same rows (extreme and hostile values in every type, nested values with
//!   timestamps inside) loaded staged and through `INSERT … VALUES` batches read back
//!   identical, cell for cell, with one commit for the staged load.
//! * A larger staged load: every row once (count, distinct ids, sums over the ids and
//!   the microseconds of the timestamps), one snapshot; a merge of the same rows again
//!   adds none.
//! * A failure of the write: nothing committed, the staging files deleted.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeDelta, Utc};
use futures::future::BoxFuture;
use iceberg_sql::prelude::*;
use iceberg_sql::Decimal;
use iceberg_sql_athena::staged::{
    infallible, run_load, LoadOptions, LoadReport, LoadRunner, LoadStep, RunFailure, Staging,
};
use iceberg_sql_athena::{CommitState, QueryOutcome};
use iceberg_sql_tests::engine::Engine;
use object_store::local::LocalFileSystem;

const DB: &str = "staged";
const BUCKET: &str = "staged-bucket";

/// Runs a load's statements on the engine. `fail_write`: the write fails before it runs.
struct Spark {
    engine: &'static Engine,
    fail_write: bool,
    /// Statements run, for the benchmark's figures.
    statements: AtomicUsize,
}

impl LoadRunner for Spark {
    fn run<'a>(
        &'a self,
        statement: &'a Statement,
        token: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Option<QueryOutcome>, RunFailure>> {
        Box::pin(async move {
            self.statements.fetch_add(1, Ordering::Relaxed);
            if token.is_some() && self.fail_write {
                return Err(RunFailure {
                    commit_state: CommitState::NotCommitted,
                    error: "injected: the write was refused".into(),
                });
            }
            self.engine
                .exec(statement)
                .map(|_| None)
                .map_err(|e| RunFailure {
                    commit_state: if token.is_some() {
                        CommitState::Unknown
                    } else {
                        CommitState::NotCommitted
                    },
                    error: Box::new(e),
                })
        })
    }
}

fn columns() -> Vec<Column> {
    use IcebergType as T;
    vec![
        Column::new("id", T::Long).required(),
        Column::new("key", T::String),
        Column::new("ts", T::Timestamp),
        Column::new("tstz", T::TimestampTz),
        Column::new("day", T::Date),
        Column::new("amount", T::decimal(38, 9)),
        Column::new("payload", T::Binary),
        Column::new("score", T::Double),
        Column::new("tags", T::list(T::String)),
        Column::new("times", T::list(T::Timestamp)),
        Column::new("attrs", T::map(T::String, T::String)),
        Column::new(
            "note",
            T::structure([("at", T::TimestampTz), ("body", T::String)]),
        ),
    ]
}

fn table(name: &str) -> TableDef {
    let mut b = TableDef::builder(DB, name).location(format!("s3://{BUCKET}/iceberg/{name}/"));
    for c in columns() {
        b = b.column(c);
    }
    b.build().unwrap()
}

/// A row of [`columns`] held as values, for a table chosen at run time.
#[derive(Debug, Clone)]
struct Row(Vec<Value>);

/// The comparison table of the INSERT ... VALUES path.
#[derive(Debug, Clone)]
struct ValuesRow(Vec<Value>);

/// The INSERT ... VALUES comparison beside the large staged load (run when
/// `ICEBERG_SQL_VALUES_SECONDS` is set).
#[derive(Debug, Clone)]
struct BigValuesRow(Vec<Value>);

impl IcebergTable for BigValuesRow {
    fn table_def() -> &'static TableDef {
        static DEF: OnceLock<TableDef> = OnceLock::new();
        DEF.get_or_init(|| table("big_values"))
    }
    fn to_values(&self) -> Vec<Value> {
        self.0.clone()
    }
}

impl IcebergTable for ValuesRow {
    fn table_def() -> &'static TableDef {
        static DEF: OnceLock<TableDef> = OnceLock::new();
        DEF.get_or_init(|| table("by_values"))
    }
    fn to_values(&self) -> Vec<Value> {
        self.0.clone()
    }
}

const HOSTILE: &[&str] = &[
    "it's",
    "''",
    "\\",
    "ends with a backslash \\",
    "'); DELETE FROM staged.by_values WHERE ('1'='1",
    "-- not a comment",
    "line1\nline2\r\nline3\ttab",
    "${not_a_var} ?",
    "ünïcødé ✓ 🦀 \u{200b}",
    "",
    " ",
];

fn dt(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32, us: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, mo, d)
        .unwrap()
        .and_hms_micro_opt(h, mi, s, us)
        .unwrap()
}

/// Extreme timestamps first (year 1, year 9999, around the epoch, microseconds), then
/// a steady walk.
fn ts_of(i: usize) -> NaiveDateTime {
    match i {
        0 => dt(1, 1, 1, 0, 0, 0, 0),
        1 => dt(9999, 12, 31, 23, 59, 59, 999_999),
        2 => dt(1969, 12, 31, 23, 59, 59, 999_999),
        3 => dt(1970, 1, 1, 0, 0, 0, 1),
        4 => dt(1582, 10, 4, 12, 0, 0, 123_456),
        _ => dt(2024, 5, 1, 0, 0, 0, 0) + TimeDelta::microseconds(i as i64 * 1_000_003),
    }
}

fn row(i: usize) -> Row {
    let h = HOSTILE[i % HOSTILE.len()];
    let ts = ts_of(i);
    let tstz: DateTime<Utc> = DateTime::from_naive_utc_and_offset(ts_of(i + 1), Utc);
    let day = ts.date();
    let amount = match i {
        0 => Decimal::new(10i128.pow(38) - 1, 9),
        1 => Decimal::new(-(10i128.pow(38) - 1), 9),
        2 => Decimal::new(1, 9),
        _ => Decimal::new(i as i128 * 1_000_000_007 - 500_000_000_000, 9),
    };
    let null_every = |n: usize, v: Value| if i % n == n - 1 { Value::Null } else { v };
    Row(vec![
        Value::Long(i as i64),
        null_every(13, Value::String(format!("{h}{i}"))),
        null_every(11, Value::Timestamp(ts)),
        null_every(7, Value::TimestampTz(tstz)),
        null_every(17, Value::Date(day)),
        null_every(19, Value::Decimal(amount)),
        match i % 5 {
            0 => Value::Binary(Vec::new()),
            4 => Value::Null,
            _ => Value::Binary(vec![0, 0xff, (i % 256) as u8, b'\'']),
        },
        Value::Double(i as f64 / 3.0),
        match i % 4 {
            0 => Value::List(vec![
                Value::String(h.into()),
                Value::Null,
                Value::String(String::new()),
            ]),
            1 => Value::List(Vec::new()),
            2 => Value::Null,
            _ => Value::List(vec![Value::String(format!("t{i}"))]),
        },
        match i % 3 {
            0 => Value::List(vec![Value::Timestamp(ts), Value::Null]),
            1 => Value::Null,
            _ => Value::List(vec![Value::Timestamp(ts_of(i + 2))]),
        },
        match i % 3 {
            0 => Value::Map(vec![
                (Value::String("k".into()), Value::String(h.into())),
                (Value::String("empty".into()), Value::String(String::new())),
                (Value::String("null".into()), Value::Null),
            ]),
            1 => Value::Map(Vec::new()),
            _ => Value::Null,
        },
        match i % 4 {
            0 => Value::Struct(vec![Value::TimestampTz(tstz), Value::String(h.into())]),
            1 => Value::Struct(vec![Value::Null, Value::Null]),
            2 => Value::Null,
            _ => Value::Struct(vec![Value::TimestampTz(tstz), Value::Null]),
        },
    ])
}

/// The staging folder of one test: the tests of this binary run at the same time, and each
/// checks that its own folder is left empty.
fn staging(engine: &Engine, folder: &str) -> Staging {
    let dir: PathBuf = engine.s3_root().join(BUCKET);
    std::fs::create_dir_all(&dir).unwrap();
    Staging::new(
        Arc::new(LocalFileSystem::new_with_prefix(&dir).unwrap()),
        Location::parse(&format!("s3://{BUCKET}/staging/{folder}/")).unwrap(),
    )
}

fn staged_files_left(engine: &Engine, folder: &str) -> Vec<PathBuf> {
    fn walk(d: &std::path::Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                walk(&e.path(), out);
            } else {
                out.push(e.path());
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &engine.s3_root().join(BUCKET).join("staging").join(folder),
        &mut out,
    );
    out
}

async fn load(
    engine: &'static Engine,
    table: &TableDef,
    options: LoadOptions,
    rows: &[Row],
    fail_write: bool,
) -> Result<LoadReport, iceberg_sql_athena::staged::LoadError> {
    let plan = options.plan(table, Dialect::Spark).unwrap();
    let spark = Spark {
        engine,
        fail_write,
        statements: AtomicUsize::new(0),
    };
    let report = run_load(
        &spark,
        table,
        &options,
        Dialect::Spark,
        infallible(
            rows.chunks(4096)
                .map(|c| {
                    iceberg_sql::arrow::values_to_batch(&columns(), c.iter().map(|r| r.0.clone()))
                        .unwrap()
                })
                .collect::<Vec<_>>(),
        ),
        &mut |_| {},
    )
    .await;
    eprintln!(
        "load {}: {} statements run",
        plan.load_id(),
        spark.statements.load(Ordering::Relaxed)
    );
    report
}

fn create(engine: &Engine, def: &TableDef) {
    engine.ensure_namespace(DB);
    engine.run(def.create_table().build_for(Dialect::Spark).unwrap());
}

fn snapshots(engine: &Engine, table: &str) -> i64 {
    engine
        .run(format!("SELECT count(*) FROM {DB}.{table}.snapshots"))
        .scalar_i64()
}

/// Every column in one hash per row (maps as their entries: Spark does not hash maps),
/// timestamps as their exact microseconds.
fn checksum(engine: &Engine, table: &str) -> (i64, String) {
    let r = engine.run(format!(
        "SELECT count(*), CAST(sum(CAST(xxhash64(id, key, ts, tstz, day, amount, payload, \
         score, tags, times, map_entries(attrs), note) AS decimal(38,0))) AS string) \
         FROM {DB}.{table}"
    ));
    let row = &r.rows[0];
    (
        row[0].as_deref().unwrap().parse().unwrap(),
        row[1].clone().unwrap_or_default(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staged_and_values_loads_read_back_identical() {
    let Some(engine) = Engine::get_or_skip("staged_and_values_loads_read_back_identical") else {
        return;
    };
    let rows: Vec<Row> = (0..3000).map(row).collect();
    let staged_def = table("by_staging");
    create(engine, &staged_def);
    create(engine, ValuesRow::table_def());

    let started = Instant::now();
    let report = load(
        engine,
        &staged_def,
        LoadOptions::new("compare-1", staging(engine, "compare")),
        &rows,
        false,
    )
    .await
    .expect("staged load");
    let staged_time = started.elapsed();
    assert_eq!(report.rows, 3000);
    assert_eq!(report.commit_state, CommitState::Committed);
    assert!(
        staged_files_left(engine, "compare").is_empty(),
        "staging files deleted"
    );

    let started = Instant::now();
    let values: Vec<ValuesRow> = rows.iter().map(|r| ValuesRow(r.0.clone())).collect();
    let inserts = ValuesRow::insert(&values)
        .batches_for(Dialect::Spark)
        .unwrap();
    for b in &inserts {
        engine.run(b);
    }
    let values_time = started.elapsed();
    eprintln!(
        "3,000 rows: staged {:.1} s (1 write), INSERT VALUES {:.1} s ({} statements)",
        staged_time.as_secs_f64(),
        values_time.as_secs_f64(),
        inserts.len()
    );

    assert_eq!(snapshots(engine, "by_staging"), 1, "one commit");
    assert_eq!(snapshots(engine, "by_values"), inserts.len() as i64);
    let a = engine.run(format!("SELECT * FROM {DB}.by_staging ORDER BY id"));
    let b = engine.run(format!("SELECT * FROM {DB}.by_values ORDER BY id"));
    assert_eq!(a.rows.len(), 3000);
    for (x, y) in a.rows.iter().zip(&b.rows) {
        assert_eq!(x, y, "a row differs between the two loads");
    }
    assert_eq!(
        checksum(engine, "by_staging"),
        checksum(engine, "by_values")
    );
    // The extremes, as the engine reads them.
    let ts = a.column("ts");
    assert_eq!(ts[0], Some("0001-01-01T00:00:00"));
    assert_eq!(ts[1], Some("9999-12-31T23:59:59.999999"));
    assert_eq!(ts[3], Some("1970-01-01T00:00:00.000001"));
    assert_eq!(ts[4], Some("1582-10-04T12:00:00.123456"));
    let amount = a.column("amount");
    assert_eq!(amount[0], Some("99999999999999999999999999999.999999999"));
    assert_eq!(amount[2], Some("0.000000001"));
    let key = a.column("key");
    assert_eq!(key[12], None, "NULL stays NULL");
    assert_eq!(key[9], Some("9"), "empty string + id");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_staged_load_commits_every_row_once_and_a_merge_adds_none() {
    let Some(engine) = Engine::get_or_skip("a_large_staged_load_commits_every_row_once") else {
        return;
    };
    let n: usize = std::env::var("ICEBERG_SQL_STAGED_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50_000);
    let def = table("big");
    create(engine, &def);
    let rows: Vec<Row> = (0..n).map(row).collect();
    let started = Instant::now();
    let report = load(
        engine,
        &def,
        LoadOptions::new("big-1", staging(engine, "big")),
        &rows,
        false,
    )
    .await
    .expect("staged load");
    let total = started.elapsed();
    let data_files = engine
        .run(format!("SELECT count(*) FROM {DB}.big.files"))
        .scalar_i64();
    eprintln!(
        "{n} rows staged in {:.1} s ({} files, {} bytes), written in {:.1} s, total {:.1} s; \
         table: {} snapshot(s), {data_files} data file(s)",
        report.staging_time.as_secs_f64(),
        report.files.len(),
        report.bytes,
        report.write_time.as_secs_f64(),
        total.as_secs_f64(),
        snapshots(engine, "big"),
    );
    assert_eq!(report.rows, n as u64);

    let expect_ids: i128 = (0..n as i128).sum();
    let expect_us: i128 = rows
        .iter()
        .filter_map(|r| match &r.0[2] {
            Value::Timestamp(t) => Some(t.and_utc().timestamp_micros() as i128),
            _ => None,
        })
        .sum();
    let aggregates = |engine: &Engine| {
        engine
            .run(format!(
                "SELECT count(*), count(DISTINCT id), CAST(sum(CAST(id AS decimal(38,0))) AS string), \
                 CAST(sum(CAST(unix_micros(CAST(ts AS timestamp)) AS decimal(38,0))) AS string) \
                 FROM {DB}.big"
            ))
            .rows[0]
            .clone()
    };
    let want = vec![
        Some(n.to_string()),
        Some(n.to_string()),
        Some(expect_ids.to_string()),
        Some(expect_us.to_string()),
    ];
    assert_eq!(
        aggregates(engine),
        want,
        "every row once, microseconds kept"
    );
    assert_eq!(snapshots(engine, "big"), 1, "one commit");
    assert!(staged_files_left(engine, "big").is_empty());

    // The same rows merged on their key: no row added.
    load(
        engine,
        &def,
        LoadOptions::new("big-2", staging(engine, "big")).merge_on("id"),
        &rows,
        false,
    )
    .await
    .expect("merge");
    assert_eq!(
        aggregates(engine),
        want,
        "a merge of the same rows adds none"
    );
    assert_eq!(snapshots(engine, "big"), 2);

    // A failed write: nothing committed, nothing left.
    let err = load(
        engine,
        &def,
        LoadOptions::new("big-3", staging(engine, "big")),
        &rows[..100],
        true,
    )
    .await
    .unwrap_err();
    assert_eq!(err.step, LoadStep::Writing);
    assert_eq!(err.report.commit_state, CommitState::NotCommitted);
    assert!(staged_files_left(engine, "big").is_empty());
    assert_eq!(aggregates(engine), want);
    assert_eq!(snapshots(engine, "big"), 2);
    let gone = engine.expect_err(format!("SELECT 1 FROM {}", err.report.staging_table.table));
    assert_eq!(
        gone.class(),
        Some("TABLE_OR_VIEW_NOT_FOUND"),
        "no staging view left"
    );
    // The INSERT ... VALUES comparison, for the benchmark: the same rows in batches of
    // at most 262,144 bytes, as many as run within the time budget.
    let Some(budget) = std::env::var("ICEBERG_SQL_VALUES_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    else {
        return;
    };
    create(engine, BigValuesRow::table_def());
    let values: Vec<BigValuesRow> = rows.iter().map(|r| BigValuesRow(r.0.clone())).collect();
    let inserts = BigValuesRow::insert(&values)
        .batches_for(Dialect::Spark)
        .unwrap();
    let started = Instant::now();
    let mut ran = 0;
    for b in &inserts {
        if started.elapsed().as_secs_f64() >= budget {
            break;
        }
        engine.run(b);
        ran += 1;
    }
    let took = started.elapsed().as_secs_f64();
    let loaded = engine
        .run(format!("SELECT count(*) FROM {DB}.big_values"))
        .scalar_i64();
    let data_files = engine
        .run(format!("SELECT count(*) FROM {DB}.big_values.files"))
        .scalar_i64();
    eprintln!(
        "INSERT VALUES: {loaded} rows in {took:.1} s ({:.0} rows/s), {ran} of {} statements, \
         {} snapshot(s), {data_files} data file(s); all {n} rows at this rate: {:.0} s \
         (extrapolated)",
        loaded as f64 / took,
        inserts.len(),
        snapshots(engine, "big_values"),
        n as f64 * took / loaded as f64,
    );
    assert_eq!(
        snapshots(engine, "big_values"),
        ran as i64,
        "one commit per statement"
    );
}
