//! Staged loads against the test server with the staging files in a local directory
//! standing for the bucket: an engine whose writes read the staged files as Athena
//! does, and the check that every row committed exactly once.
use std::collections::BTreeMap;
use std::path::{Path as FsPath, PathBuf};
use std::sync::{Arc, Mutex};

use arrow_array::{Array, StringArray};
use iceberg_sql::prelude::*;
use iceberg_sql_athena::staged::Staging;
use iceberg_sql_test_server::{Plan, ScriptedEngine, State, TestServer};
use object_store::local::LocalFileSystem;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::ev::Ev;

/// A fresh directory standing for bucket `lake`.
pub fn bucket_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("iceberg-sql-staged-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn staging(dir: &FsPath) -> Staging {
    let store = LocalFileSystem::new_with_prefix(dir).unwrap();
    Staging::new(
        Arc::new(store),
        Location::parse("s3://lake/staging/").unwrap(),
    )
}

/// Every file under `dir`, recursively.
pub fn files_under(dir: &FsPath) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The `event_id`s in the Parquet files under `dir`.
pub fn staged_ids(dir: &FsPath) -> Vec<String> {
    let mut ids = Vec::new();
    for f in files_under(dir) {
        if f.extension().is_none_or(|e| e != "parquet") {
            continue;
        }
        let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&f).unwrap())
            .unwrap()
            .build()
            .unwrap();
        for batch in reader {
            let batch = batch.unwrap();
            let col = batch
                .column_by_name("event_id")
                .unwrap()
                .as_any()
                .downcast_ref::<StringArray>()
                .unwrap();
            ids.extend((0..col.len()).map(|i| col.value(i).to_string()));
        }
    }
    ids
}

/// The rows each committed write put into the table, by execution id.
pub type Written = Arc<Mutex<BTreeMap<String, Vec<String>>>>;

/// The catalog of staging tables: name to folder (under the bucket directory).
pub type Catalog = Arc<Mutex<BTreeMap<String, PathBuf>>>;

/// The word after `keyword` in `sql`.
pub fn word_after<'s>(sql: &'s str, keyword: &str) -> Option<&'s str> {
    let at = sql.rfind(keyword)? + keyword.len();
    sql[at..].split_whitespace().next()
}

/// An engine whose writes (`INSERT INTO analytics.ev` / `MERGE INTO analytics.ev`) read
/// the staged files as Athena does: the staging table's folder is looked up when the
/// write is submitted, and the files in it are read when the write finishes (files
/// deleted meanwhile are not read, files added meanwhile are). `write` decides each
/// write's plan from its run number.
pub fn engine(
    dir: &FsPath,
    written: &Written,
    mut write: impl FnMut(usize) -> Plan + Send + 'static,
) -> ScriptedEngine {
    let catalog = Catalog::default();
    let reads: Arc<Mutex<BTreeMap<String, PathBuf>>> = Arc::default();
    let (c1, c2, r1, r2) = (catalog.clone(), catalog.clone(), reads.clone(), reads);
    let bucket = dir.to_path_buf();
    let written = written.clone();
    ScriptedEngine::new()
        .on(
            |sql| {
                sql.starts_with("INSERT INTO analytics.ev")
                    || sql.starts_with("MERGE INTO analytics.ev")
            },
            move |q| {
                let table = word_after(q.sql, "FROM ")
                    .or_else(|| word_after(q.sql, "USING ("))
                    .map(|t| t.trim_end_matches(')').to_string());
                let folder = table.and_then(|t| c1.lock().unwrap().get(&t).cloned());
                if let Some(f) = folder {
                    r1.lock().unwrap().insert(q.id.to_string(), f);
                }
                write(q.earlier_runs)
            },
        )
        .on_finish(move |f| {
            if f.sql.starts_with("CREATE EXTERNAL TABLE") && f.state == State::Succeeded {
                let name = word_after(f.sql, "CREATE EXTERNAL TABLE ").unwrap_or_default();
                let location = f
                    .sql
                    .rsplit("LOCATION 's3://lake/")
                    .next()
                    .unwrap_or_default();
                let folder = bucket.join(location.trim_end_matches(['\'', '/']));
                c2.lock().unwrap().insert(name.to_string(), folder);
            }
            if f.committed {
                if let Some(folder) = reads_folder(&r2, f.id) {
                    written
                        .lock()
                        .unwrap()
                        .insert(f.id.to_string(), staged_ids(&folder));
                }
            }
        })
}

pub fn reads_folder(reads: &Mutex<BTreeMap<String, PathBuf>>, id: &str) -> Option<PathBuf> {
    reads.lock().unwrap().get(id).cloned()
}

/// Each row of `expected` committed exactly once, counting only executions that
/// committed in the server's ledger.
pub fn assert_exactly_once(s: &TestServer, written: &Written, expected: &[Ev]) {
    s.settle();
    let ledger = s.ledger();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let written = written.lock().unwrap();
    for e in &ledger.executions {
        if e.state == State::Succeeded || e.state == State::Failed {
            if let Some(ids) = written.get(&e.id) {
                for id in ids {
                    *counts.entry(id.clone()).or_default() += 1;
                }
            }
        }
    }
    let want: BTreeMap<String, usize> = expected.iter().map(|r| (r.event_id.clone(), 1)).collect();
    assert_eq!(counts.len(), want.len(), "distinct rows committed");
    assert!(
        counts == want,
        "every row exactly once: {} rows committed more than once",
        counts.values().filter(|&&n| n > 1).count()
    );
}
