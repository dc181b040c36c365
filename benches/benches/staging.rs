//! The staging writer of a staged load: synthetic rows (default 1,000,000) as Arrow
//! record batches of the table's form, written by [`StagingWriter`] as snappy Parquet
//! (row groups of 131,072 rows, files of at most 128 MiB, the defaults) to a local
//! directory through object_store. Measured with one lane (one file at a time, as
//! pyarrow's `write_table` writes) and with the default lanes (one per CPU, at most 4).
//! Also the step before it: the rows (`McpEvent` structs) into those record batches.
//!
//! pyarrow writing the same rows is `scripts/staging_bench.py`, which reads the files
//! this bench leaves in `DIR/lanes-1`; `scripts/staging-bench.sh` runs both and prints
//! one table. This bench alone:
//! `cargo bench -p iceberg-sql-benches --bench staging -- [--rows N] [--rounds R] [--dir DIR]`.
//! Besides its text it prints one `RESULT` line per measure for the script.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use iceberg_sql::{Dialect, IcebergTable, Location};
use iceberg_sql_athena::staged::{LoadOptions, StagedFile, Staging, StagingWriter, WriterOptions};
use iceberg_sql_benches::McpEvent;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::ObjectStore;

/// Rows per record batch: what `load_rows` hands the writer by default.
const BATCH_ROWS: usize = 8192;

struct Args {
    rows: usize,
    rounds: usize,
    dir: std::path::PathBuf,
}

fn args() -> Args {
    let mut a = Args {
        rows: 1_000_000,
        rounds: 5,
        dir: std::env::temp_dir().join("iceberg-sql-staging-bench"),
    };
    let mut it = std::env::args().skip(1).filter(|a| a != "--bench");
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--rows" => a.rows = value.parse().expect("--rows N"),
            "--rounds" => a.rounds = value.parse().expect("--rounds R"),
            "--dir" => a.dir = value.into(),
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

/// Writes `batches` with `options` into `dir` (emptied first); the time from creating
/// the writer to its last file closed.
fn write_once(
    rt: &tokio::runtime::Runtime,
    dir: &std::path::Path,
    batches: &[RecordBatch],
    options: WriterOptions,
) -> (Duration, Vec<StagedFile>) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("create the output directory");
    let store: Arc<dyn ObjectStore> =
        Arc::new(LocalFileSystem::new_with_prefix(dir).expect("local store"));
    let staging = Staging::new(
        store.clone(),
        Location::parse("s3://bench-bucket/staging/").expect("location"),
    );
    let table = McpEvent::table_def();
    let plan = LoadOptions::new("staging-bench", staging)
        .plan(table, Dialect::Athena)
        .expect("plan");
    rt.block_on(async {
        let start = Instant::now();
        let mut writer = StagingWriter::new(
            store,
            Path::from("files"),
            table.columns(),
            plan.staged_columns(),
            options,
        );
        for b in batches {
            writer.write(b.clone()).await.expect("write");
        }
        let files = writer.finish().await.expect("finish");
        (start.elapsed(), files)
    })
}

fn main() {
    let a = args();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let rows = McpEvent::rows(a.rows);

    // The rows into record batches of the table's form.
    let mut arrow_times = Vec::new();
    let mut batches = Vec::new();
    for _ in 0..a.rounds {
        let start = Instant::now();
        batches = rows
            .chunks(BATCH_ROWS)
            .map(|c| iceberg_sql::arrow::records_to_batch(c).expect("batch"))
            .collect();
        arrow_times.push(start.elapsed());
    }
    drop(rows);
    let to_arrow = median(arrow_times);

    let default_lanes = WriterOptions::default().lanes;
    let mut variants = vec![(1usize, Vec::new(), Vec::new())];
    if default_lanes > 1 {
        variants.push((default_lanes, Vec::new(), Vec::new()));
    }
    // Interleaved rounds: each round writes once with every lane count.
    for _ in 0..a.rounds {
        for (lanes, times, files) in variants.iter_mut() {
            let dir = a.dir.join(format!("lanes-{lanes}"));
            let (t, f) = write_once(&rt, &dir, &batches, WriterOptions::default().lanes(*lanes));
            times.push(t);
            *files = f;
        }
    }

    println!(
        "staging writer: {} synthetic mcp_events rows, {} record batches of {BATCH_ROWS} rows, \
         snappy, row groups of {} rows, median of {} rounds",
        a.rows,
        batches.len(),
        WriterOptions::default().row_group_rows,
        a.rounds
    );
    println!(
        "  structs -> Arrow (records_to_batch): {:>8.3} s  {:>12.0} rows/s",
        to_arrow.as_secs_f64(),
        a.rows as f64 / to_arrow.as_secs_f64()
    );
    println!(
        "RESULT name=to_arrow rows={} seconds={:.6} files=0 bytes=0",
        a.rows,
        to_arrow.as_secs_f64()
    );
    for (lanes, times, files) in &variants {
        let t = median(times.clone());
        let rows: u64 = files.iter().map(|f| f.rows).sum();
        let bytes: u64 = files.iter().map(|f| f.bytes).sum();
        assert_eq!(rows, a.rows as u64, "every row staged");
        println!(
            "  StagingWriter, {lanes} lane(s):        {:>8.3} s  {:>12.0} rows/s  {} file(s), {:.1} MB",
            t.as_secs_f64(),
            a.rows as f64 / t.as_secs_f64(),
            files.len(),
            bytes as f64 / 1e6
        );
        println!(
            "RESULT name=ours-lanes-{lanes} rows={rows} seconds={:.6} files={} bytes={bytes}",
            t.as_secs_f64(),
            files.len()
        );
    }
}
