//! [`StagingWriter`]: Arrow record batches of a table's rows to Parquet files under a
//! staging prefix of an object store, in their staged form, in bounded files, written
//! by several lanes at once.
//!
//! Each lane is a task owning one open Parquet file: it converts the batches it gets
//! to their staged form ([`iceberg_sql::arrow::staged_batch`]), encodes them (snappy
//! pages, row groups of [`WriterOptions::row_group_rows`]) and streams the encoded row
//! groups to the store as a multipart upload (object_store's `BufWriter`: one `put`
//! for a small file). When a file passes [`WriterOptions::max_file_bytes`] the lane
//! closes it and opens the next. An S3 object appears only when its upload completes,
//! so a reader never sees half a file; the load exposes the prefix only after
//! [`StagingWriter::finish`] (and checks that the prefix holds exactly these files).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use futures::StreamExt;
use object_store::buffered::BufWriter;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use parquet::arrow::async_writer::AsyncArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use iceberg_sql::Column;

use super::StagingError;

/// How the staging files are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub struct WriterOptions {
    /// A file is closed once its encoded size reaches this (default 128 MiB); files
    /// end at a row-group boundary, so they exceed it by less than one row group.
    pub max_file_bytes: u64,
    /// Rows per Parquet row group (default 131,072).
    pub row_group_rows: usize,
    /// Files written at once, one task each (default: the number of CPUs, at most 4).
    pub lanes: usize,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            max_file_bytes: 128 << 20,
            row_group_rows: 128 << 10,
            lanes: std::thread::available_parallelism()
                .map(|n| n.get().min(4))
                .unwrap_or(1),
        }
    }
}

impl WriterOptions {
    /// Sets [`max_file_bytes`](Self::max_file_bytes).
    pub fn max_file_bytes(mut self, bytes: u64) -> Self {
        self.max_file_bytes = bytes.max(1);
        self
    }

    /// Sets [`row_group_rows`](Self::row_group_rows).
    pub fn row_group_rows(mut self, rows: usize) -> Self {
        self.row_group_rows = rows.max(1);
        self
    }

    /// Sets [`lanes`](Self::lanes).
    pub fn lanes(mut self, lanes: usize) -> Self {
        self.lanes = lanes.max(1);
        self
    }
}

/// One staged file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StagedFile {
    /// Its path in the store.
    pub path: String,
    /// Rows in it.
    pub rows: u64,
    /// Its size in bytes.
    pub bytes: u64,
}

/// Counters shared by the lanes, for progress.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) rows: AtomicU64,
    pub(crate) bytes: AtomicU64,
    pub(crate) files: AtomicUsize,
}

type Lane = (
    mpsc::Sender<(RecordBatch, Option<i64>)>,
    JoinHandle<Result<Vec<StagedFile>, StagingError>>,
);

/// Writes a table's rows as staged Parquet files under `prefix`.
pub struct StagingWriter {
    columns: Arc<Vec<Column>>,
    row_numbers: bool,
    lanes: Vec<Lane>,
    next_lane: usize,
    next_row: i64,
    counters: Arc<Counters>,
}

impl std::fmt::Debug for StagingWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StagingWriter")
            .field("lanes", &self.lanes.len())
            .field("next_row", &self.next_row)
            .finish_non_exhaustive()
    }
}

impl StagingWriter {
    /// A writer of rows of `columns` (the table's) staged as `staged` (the plan's
    /// [`staged_columns`](iceberg_sql::load::LoadPlan::staged_columns)), with row
    /// numbers when `staged` ends with the row column. Must be called within a tokio
    /// runtime: the lanes are tasks.
    pub fn new(
        store: Arc<dyn ObjectStore>,
        prefix: Path,
        columns: &[Column],
        staged: &[Column],
        options: WriterOptions,
    ) -> Self {
        let row_numbers = staged.len() == columns.len() + 1;
        let schema: SchemaRef = Arc::new(iceberg_sql::arrow::schema(staged));
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(options.row_group_rows))
            .set_created_by(format!("iceberg-sql {}", env!("CARGO_PKG_VERSION")))
            .build();
        let columns = Arc::new(columns.to_vec());
        let counters = Arc::new(Counters::default());
        let lanes = (0..options.lanes.max(1))
            .map(|lane| {
                let (tx, rx) = mpsc::channel(2);
                let task = tokio::spawn(run_lane(LaneSetup {
                    lane,
                    store: store.clone(),
                    prefix: prefix.clone(),
                    schema: schema.clone(),
                    props: props.clone(),
                    columns: columns.clone(),
                    max_file_bytes: options.max_file_bytes,
                    counters: counters.clone(),
                    rx,
                }));
                (tx, task)
            })
            .collect();
        StagingWriter {
            columns,
            row_numbers,
            lanes,
            next_lane: 0,
            next_row: 0,
            counters,
        }
    }

    /// Writes `batch` (rows of the table's columns, checked here): it goes to the next
    /// lane, waiting while that lane is busy with earlier batches.
    pub async fn write(&mut self, batch: RecordBatch) -> Result<(), StagingError> {
        iceberg_sql::arrow::check_batch(&batch, &self.columns)
            .map_err(|e| StagingError::Batch(Box::new(e)))?;
        if batch.num_rows() == 0 {
            return Ok(());
        }
        if self.lanes.is_empty() {
            return Err(StagingError::Task(
                "the staging writer stopped at an earlier error".into(),
            ));
        }
        let first = self.row_numbers.then_some(self.next_row);
        self.next_row += batch.num_rows() as i64;
        let lane = self.next_lane % self.lanes.len();
        self.next_lane += 1;
        if self.lanes[lane].0.send((batch, first)).await.is_err() {
            // The lane stopped: its error comes out of its task.
            return Err(self.fail().await);
        }
        Ok(())
    }

    /// Rows handed to the writer so far.
    pub fn rows(&self) -> u64 {
        self.next_row as u64
    }

    /// Rows, bytes and files written so far (bytes: flushed to the store).
    pub fn written(&self) -> (u64, u64, usize) {
        (
            self.counters.rows.load(Ordering::Relaxed),
            self.counters.bytes.load(Ordering::Relaxed),
            self.counters.files.load(Ordering::Relaxed),
        )
    }

    /// Closes every file and returns them (by path).
    pub async fn finish(self) -> Result<Vec<StagedFile>, StagingError> {
        let mut files = Vec::new();
        let mut first_error = None;
        let tasks: Vec<_> = self
            .lanes
            .into_iter()
            .map(|(tx, task)| {
                drop(tx);
                task
            })
            .collect();
        for task in tasks {
            match task.await {
                Ok(Ok(f)) => files.extend(f),
                Ok(Err(e)) => {
                    first_error.get_or_insert(e);
                }
                Err(e) => {
                    first_error.get_or_insert(StagingError::Task(e.to_string()));
                }
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => {
                files.sort_by(|a, b| a.path.cmp(&b.path));
                Ok(files)
            }
        }
    }

    /// The error of the first lane that stopped (closing the others; the writer takes
    /// no more batches).
    async fn fail(&mut self) -> StagingError {
        let lanes = std::mem::take(&mut self.lanes);
        let closed = StagingWriter {
            columns: self.columns.clone(),
            row_numbers: self.row_numbers,
            lanes,
            next_lane: 0,
            next_row: self.next_row,
            counters: self.counters.clone(),
        };
        match closed.finish().await {
            Err(e) => e,
            Ok(_) => StagingError::Task("a staging lane stopped without an error".into()),
        }
    }
}

struct LaneSetup {
    lane: usize,
    store: Arc<dyn ObjectStore>,
    prefix: Path,
    schema: SchemaRef,
    props: WriterProperties,
    columns: Arc<Vec<Column>>,
    max_file_bytes: u64,
    counters: Arc<Counters>,
    rx: mpsc::Receiver<(RecordBatch, Option<i64>)>,
}

struct OpenFile {
    path: Path,
    writer: AsyncArrowWriter<BufWriter>,
    rows: u64,
    flushed: u64,
}

async fn run_lane(mut s: LaneSetup) -> Result<Vec<StagedFile>, StagingError> {
    let mut files = Vec::new();
    let mut open: Option<OpenFile> = None;
    let mut seq = 0usize;
    while let Some((batch, first_row)) = s.rx.recv().await {
        let staged = iceberg_sql::arrow::staged_batch(&batch, &s.columns, first_row)
            .map_err(|e| StagingError::Batch(Box::new(e)))?;
        if open.is_none() {
            let path = s
                .prefix
                .clone()
                .join(format!("part-{:02}-{seq:05}.parquet", s.lane));
            seq += 1;
            let writer = AsyncArrowWriter::try_new(
                BufWriter::new(s.store.clone(), path.clone()),
                s.schema.clone(),
                Some(s.props.clone()),
            )
            .map_err(StagingError::Parquet)?;
            open = Some(OpenFile {
                path,
                writer,
                rows: 0,
                flushed: 0,
            });
        }
        let Some(file) = open.as_mut() else {
            unreachable!("a file was just opened");
        };
        file.writer
            .write(&staged)
            .await
            .map_err(StagingError::Parquet)?;
        file.rows += staged.num_rows() as u64;
        s.counters
            .rows
            .fetch_add(staged.num_rows() as u64, Ordering::Relaxed);
        let written = file.writer.bytes_written() as u64;
        s.counters
            .bytes
            .fetch_add(written - file.flushed, Ordering::Relaxed);
        file.flushed = written;
        if written + file.writer.in_progress_size() as u64 >= s.max_file_bytes {
            if let Some(f) = open.take() {
                files.push(close(f, &s.counters).await?);
            }
        }
    }
    if let Some(f) = open.take() {
        files.push(close(f, &s.counters).await?);
    }
    Ok(files)
}

async fn close(f: OpenFile, counters: &Counters) -> Result<StagedFile, StagingError> {
    let OpenFile {
        path,
        mut writer,
        rows,
        flushed,
    } = f;
    writer.finish().await.map_err(StagingError::Parquet)?;
    let bytes = writer.bytes_written() as u64;
    counters
        .bytes
        .fetch_add(bytes.saturating_sub(flushed), Ordering::Relaxed);
    counters.files.fetch_add(1, Ordering::Relaxed);
    Ok(StagedFile {
        path: path.to_string(),
        rows,
        bytes,
    })
}

/// Deletes every object under `prefix`; returns how many.
pub(crate) async fn delete_prefix(
    store: &Arc<dyn ObjectStore>,
    prefix: &Path,
) -> Result<usize, StagingError> {
    let listed = store
        .list(Some(prefix))
        .map(|m| m.map(|m| m.location))
        .boxed();
    let mut deleted = store.delete_stream(listed);
    let mut n = 0;
    while let Some(r) = deleted.next().await {
        match r {
            Ok(_) => n += 1,
            Err(object_store::Error::NotFound { .. }) => {}
            Err(e) => return Err(StagingError::Store(e)),
        }
    }
    Ok(n)
}

/// Every object under `prefix` as `(path, size)`, sorted.
pub(crate) async fn list_prefix(
    store: &Arc<dyn ObjectStore>,
    prefix: &Path,
) -> Result<Vec<(String, u64)>, StagingError> {
    let mut out = Vec::new();
    let mut listed = store.list(Some(prefix));
    while let Some(m) = listed.next().await {
        let m = m.map_err(StagingError::Store)?;
        out.push((m.location.to_string(), m.size));
    }
    out.sort();
    Ok(out)
}

/// Deletes one object (absent is fine).
pub(crate) async fn delete_object(
    store: &Arc<dyn ObjectStore>,
    path: &Path,
) -> Result<(), StagingError> {
    match store.delete(path).await {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
        Err(e) => Err(StagingError::Store(e)),
    }
}

/// Deletes the folders (and markers) of the runs under `base` whose marker holds
/// `rows_sha256`: runs of the same rows, whose write is the one that settled. Returns
/// how many staged objects were deleted.
pub(crate) async fn sweep_runs(
    store: &Arc<dyn ObjectStore>,
    base: &Path,
    rows_sha256: &str,
) -> Result<usize, StagingError> {
    let listed = store
        .list_with_delimiter(Some(base))
        .await
        .map_err(StagingError::Store)?;
    let mut n = 0;
    for m in listed.objects {
        let Some(name) = m.location.filename() else {
            continue;
        };
        let Some(run) = name
            .strip_prefix("run-")
            .and_then(|r| r.strip_suffix(".staged"))
        else {
            continue;
        };
        let held = match store.get(&m.location).await {
            Ok(g) => g.bytes().await.map_err(StagingError::Store)?,
            Err(object_store::Error::NotFound { .. }) => continue,
            Err(e) => return Err(StagingError::Store(e)),
        };
        if held.as_ref() != rows_sha256.as_bytes() {
            continue;
        }
        n += delete_prefix(store, &base.clone().join(format!("run-{run}"))).await?;
        delete_object(store, &m.location).await?;
    }
    Ok(n)
}
