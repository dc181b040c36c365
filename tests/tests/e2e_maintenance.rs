//! End-to-end maintenance: many small INSERTs (one data file each per partition), then
//! compaction (`Optimize`, Spark: `CALL local.system.rewrite_data_files`) first of one
//! identity partition (`where =>`), then of the whole table, then snapshot expiry
//! (`Vacuum`, Spark: `CALL local.system.expire_snapshots`). The compactions pass the
//! Spark-only option `min-input-files = 1` (`Optimize::spark_option`), so every
//! partition they cover ends with exactly one data file, whatever its file count was.
//! The rows stay the same, the data-file count (typed `files` metadata rows) goes down
//! to one per partition, the old snapshots are gone and time travel to them fails.
//!
//! Athena's `OPTIMIZE ... REWRITE DATA USING BIN_PACK` and `VACUUM` are Athena-only
//! syntax: the test pins that Spark refuses them verbatim. The retention step of
//! `Vacuum::build_steps` (`ALTER TABLE ... SET TBLPROPERTIES`) does run verbatim.

use chrono::{Duration, NaiveDate, Utc};
use iceberg_sql::prelude::*;
use iceberg_sql::query::{FileRow, Order, Snapshot, SnapshotRow};
use iceberg_sql_tests::engine::{Engine, QueryResult};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "upkeep",
    name = "metrics",
    location = "s3://upkeep-bucket/iceberg/metrics/",
    partition(event_date, bucket(4, host))
)]
pub struct Metric {
    pub id: i64,
    pub host: String,
    pub event_date: NaiveDate,
    pub value: f64,
    pub label: Option<String>,
}

const INSERTS: usize = 12;

fn metric(i: usize) -> Metric {
    Metric {
        id: i as i64,
        host: format!("host-{}", i % 5),
        event_date: NaiveDate::from_ymd_opt(2026, 10, 1 + (i % 2) as u32).unwrap(),
        value: i as f64 * 1.5,
        label: (!i.is_multiple_of(4)).then(|| format!("m{i}")),
    }
}

fn read_all(engine: &Engine) -> Vec<Metric> {
    let q = Metric::select()
        .order_by(Metric::ID, Order::Asc)
        .build_for(Dialect::Spark)
        .unwrap();
    let r = engine.run(&q);
    r.rows
        .iter()
        .map(|c| Metric::from_row(&r.row(c)).unwrap())
        .collect()
}

fn data_files(engine: &Engine) -> Vec<FileRow> {
    let q = Metric::table_def()
        .name()
        .metadata::<FileRow>()
        .build_for(Dialect::Spark)
        .unwrap();
    let r = engine.run(&q);
    r.rows
        .iter()
        .map(|c| FileRow::from_row(&r.row(c)).unwrap())
        .filter(|f| f.content == 0)
        .collect()
}

/// Typed snapshot rows (the engine writes timestamptz cells as Athena does: `… UTC`).
fn snapshots(engine: &Engine) -> Vec<SnapshotRow> {
    let q = Metric::table_def()
        .name()
        .metadata::<SnapshotRow>()
        .order_by(SnapshotRow::COMMITTED_AT, Order::Asc)
        .build_for(Dialect::Spark)
        .unwrap();
    let r: QueryResult = engine.run(&q);
    r.rows
        .iter()
        .map(|c| SnapshotRow::from_row(&r.row(c)).unwrap())
        .collect()
}

#[test]
fn compaction_and_expiry_keep_rows_and_remove_files_and_snapshots() {
    let Some(engine) =
        Engine::get_or_skip("compaction_and_expiry_keep_rows_and_remove_files_and_snapshots")
    else {
        return;
    };
    let spark = Dialect::Spark;
    engine.run("CREATE NAMESPACE IF NOT EXISTS upkeep");
    let def = Metric::table_def();
    engine.run(def.create_table().build_for(spark).unwrap());

    // Many small inserts: each writes one file per (date, bucket) it touches.
    let mut model = Vec::new();
    for k in 0..INSERTS {
        let rows: Vec<Metric> = (k * 4..k * 4 + 4).map(metric).collect();
        engine.run(Metric::insert(&rows).build_for(spark).unwrap());
        model.extend(rows);
    }
    assert_eq!(read_all(engine), model);
    let files_before = data_files(engine);
    let snaps_before = snapshots(engine);
    assert_eq!(snaps_before.len(), INSERTS);
    assert!(
        files_before.len() >= 2 * INSERTS,
        "{} files",
        files_before.len()
    );

    // Athena's spellings are refused verbatim by Spark (they are Athena-only syntax).
    for athena in [
        def.optimize().build().unwrap(),
        def.vacuum().build().unwrap(),
    ] {
        let e = engine.expect_err(&athena);
        assert_eq!(e.class(), Some("PARSE_SYNTAX_ERROR"), "{e}");
    }

    // Spark's rewrite_data_files leaves a partition alone unless it has at least
    // `min-input-files` (default 5) small files; with the option at 1 every partition
    // the compaction covers is rewritten into one file, so the counts are exact.
    let per_dir = |fs: &[FileRow]| {
        let mut m = std::collections::BTreeMap::<String, usize>::new();
        for f in fs {
            *m.entry(f.file_path.rsplit_once('/').unwrap().0.to_string())
                .or_default() += 1;
        }
        m
    };
    let count =
        |r: &QueryResult, column: &str| -> usize { r.column(column)[0].unwrap().parse().unwrap() };
    let before_dirs = per_dir(&files_before);
    // Some partition has several files, and some fewer than the default 5: without the
    // option the latter would be left alone.
    assert!(before_dirs.values().any(|&n| n > 1), "{before_dirs:?}");
    assert!(before_dirs.values().any(|&n| n < 5), "{before_dirs:?}");

    // 1. Compact one identity partition (Spark: `where => 'event_date = DATE ...'`).
    let day1 = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let partial = def
        .optimize()
        .filter(Metric::EVENT_DATE.eq(day1))
        .spark_option("min-input-files", "1")
        .build_for(spark)
        .unwrap();
    assert!(
        partial
            .sql()
            .ends_with(", options => map('min-input-files', '1'))"),
        "{}",
        partial.sql()
    );
    let r = engine.run(&partial);
    assert_eq!(r.columns[0], "rewritten_data_files_count");
    let files_mid = data_files(engine);
    let mid_dirs = per_dir(&files_mid);
    assert_eq!(
        before_dirs.keys().collect::<Vec<_>>(),
        mid_dirs.keys().collect::<Vec<_>>()
    );
    let day1_dirs = before_dirs
        .keys()
        .filter(|d| d.contains("event_date=2026-10-01"))
        .count();
    assert!(day1_dirs > 0);
    for (dir, &n) in &before_dirs {
        if dir.contains("event_date=2026-10-01") {
            assert_eq!(mid_dirs[dir], 1, "{dir}: {n} files before, one after");
        } else {
            assert_eq!(mid_dirs[dir], n, "{dir}: the other day is untouched");
        }
    }
    assert_eq!(count(&r, "added_data_files_count"), day1_dirs);
    assert_eq!(
        files_before.len() - files_mid.len(),
        count(&r, "rewritten_data_files_count") - count(&r, "added_data_files_count")
    );
    assert_eq!(read_all(engine), model);

    // 2. Compact the whole table: every partition ends with exactly one data file.
    let compact = def
        .optimize()
        .spark_option("min-input-files", "1")
        .build_for(spark)
        .unwrap();
    let r = engine.run(&compact);
    let files_after = data_files(engine);
    let after_dirs = per_dir(&files_after);
    assert_eq!(
        before_dirs.keys().collect::<Vec<_>>(),
        after_dirs.keys().collect::<Vec<_>>()
    );
    assert!(after_dirs.values().all(|&n| n == 1), "{after_dirs:?}");
    assert_eq!(files_after.len(), before_dirs.len());
    assert!(files_after.len() < files_before.len());
    assert_eq!(
        files_mid.len() - files_after.len(),
        count(&r, "rewritten_data_files_count") - count(&r, "added_data_files_count")
    );
    assert_eq!(
        files_after.iter().map(|f| f.record_count).sum::<i64>(),
        model.len() as i64
    );
    assert_eq!(read_all(engine), model);
    let snaps_compacted = snapshots(engine);
    assert_eq!(snaps_compacted.len(), INSERTS + 2);
    assert_eq!(
        snaps_compacted.last().unwrap().operation.as_deref(),
        Some("replace")
    );

    // 3. Retention through table properties: the Athena step runs verbatim too.
    let steps = def.vacuum().retain_days(7).build_steps().unwrap();
    assert_eq!(steps.len(), 2);
    engine.run(&steps[0]);
    let props = engine.run(format!("SHOW TBLPROPERTIES {}", def.name()));
    assert!(
        props.rows_str().contains(&vec![
            Some("vacuum_max_snapshot_age_seconds"),
            Some("604800")
        ]),
        "{:?}",
        props.rows
    );
    let spark_steps = def.vacuum().retain_days(7).build_steps_for(spark).unwrap();
    for s in &spark_steps {
        engine.run(s);
    }

    // 4. Expire every snapshot but the current one.
    let expire = def
        .vacuum()
        .older_than(Utc::now() + Duration::seconds(1))
        .retain_last(1)
        .build_for(spark)
        .unwrap();
    assert!(
        expire.sql().contains("expire_snapshots"),
        "{}",
        expire.sql()
    );
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let r = engine.run(&expire);
    assert!(
        r.column("deleted_data_files_count")[0]
            .unwrap()
            .parse::<i64>()
            .unwrap()
            > 0
    );
    let snaps_after = snapshots(engine);
    assert_eq!(snaps_after.len(), 1);
    assert_eq!(
        snaps_after[0].snapshot_id,
        snaps_compacted.last().unwrap().snapshot_id
    );
    assert_eq!(read_all(engine), model);
    assert_eq!(data_files(engine), files_after);

    // Time travel to an expired snapshot now fails.
    let gone = Metric::select()
        .as_of(Snapshot::Version(snaps_before[0].snapshot_id))
        .build_for(spark)
        .unwrap();
    let e = engine.expect_err(&gone);
    assert!(
        e.message().contains("Cannot find snapshot") || e.message().contains("snapshot"),
        "{e}"
    );
    // The expired files are gone from the (s3-mapped) warehouse.
    for f in &files_before {
        if !files_after.iter().any(|a| a.file_path == f.file_path) {
            let local = engine
                .s3_root()
                .join(f.file_path.strip_prefix("s3://").unwrap());
            assert!(!local.exists(), "{} still exists", local.display());
        }
    }
}
