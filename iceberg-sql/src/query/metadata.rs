//! Iceberg metadata tables and typed rows for their documented columns.
//!
//! Athena names them `"db"."t$snapshots"`; Spark `db.t.snapshots`. The column sets are
//! the Trino connector's (<https://trino.io/docs/current/connector/iceberg.html#metadata-tables>;
//! Athena's page lists only the table names: <https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-table-metadata.html>): scalar
//! columns are typed; maps decode into `BTreeMap`s; nested `row(...)` columns whose shape
//! depends on the table (`$partitions.partition`) are read as their JSON text.
//!
//! The row types name only columns every Athena engine v3 has. Athena does not say
//! which Trino release it runs, and Trino renamed or added metadata columns since
//! release 417: `$manifests.partitions` became `partition_summaries` in November 2024
//! (<https://github.com/trinodb/trino/pull/24103>), so [`ManifestRow`] reads neither.
//! `$partitions` has a `partition` column only for a partitioned table, in Trino
//! (`plugin/trino-iceberg/src/main/java/io/trino/plugin/iceberg/system/PartitionsTable.java`,
//! <https://github.com/trinodb/trino>) and in Iceberg's Spark tables
//! (`core/src/main/java/org/apache/iceberg/PartitionsTable.java`,
//! <https://github.com/apache/iceberg>): [`PartitionRow`] needs a partitioned table.
//!
//! A [`Select`](super::Select) over a metadata table with no explicit projection lists
//! every column of the row type, nested ones as `CAST(col AS JSON)` (Spark:
//! `to_json(col)`), so its result rows decode with [`FromRow::from_row`].

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::engine::system_tables::{Availability, SystemTable};
use crate::error::Result;
use crate::expr::Col;
use crate::model::{Column, TableDef};
use crate::record::{decode_column, FromRow, Row};
use crate::types::IcebergType;

/// One of Iceberg's metadata tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetadataTable {
    /// `$snapshots`: one row per snapshot.
    Snapshots,
    /// `$history`: when each snapshot became current.
    History,
    /// `$files`: the current snapshot's data and delete files.
    Files,
    /// `$manifests`: the current snapshot's manifests.
    Manifests,
    /// `$partitions`: per-partition counts of the current snapshot.
    Partitions,
    /// `$refs`: branches and tags.
    Refs,
}

impl MetadataTable {
    /// The suffix name: `snapshots`, `history`, ...
    pub fn name(self) -> &'static str {
        match self {
            MetadataTable::Snapshots => "snapshots",
            MetadataTable::History => "history",
            MetadataTable::Files => "files",
            MetadataTable::Manifests => "manifests",
            MetadataTable::Partitions => "partitions",
            MetadataTable::Refs => "refs",
        }
    }
}

/// The names among `columns` that metadata table `m` of `table` does not have on every
/// engine (e.g. `partition` of an unpartitioned table's `$partitions`).
pub(crate) fn unavailable_columns(
    m: MetadataTable,
    columns: &[Column],
    table: &TableDef,
) -> Result<Vec<String>> {
    let system = match m {
        MetadataTable::Snapshots => SystemTable::Snapshots,
        MetadataTable::History => SystemTable::History,
        MetadataTable::Files => SystemTable::Files,
        MetadataTable::Manifests => SystemTable::Manifests,
        MetadataTable::Partitions => SystemTable::Partitions,
        MetadataTable::Refs => SystemTable::Refs,
    };
    let has = system.columns(table)?;
    Ok(columns
        .iter()
        .filter(|c| {
            !has.iter()
                .any(|h| h.name == c.name && h.availability == Availability::Stable)
        })
        .map(|c| c.name.clone())
        .collect())
}

/// A typed row of a metadata table. It decodes through [`FromRow`], like every result
/// type.
pub trait MetadataRow: FromRow {
    /// Which metadata table the row comes from.
    const TABLE: MetadataTable;

    /// The columns, in order, with the types they decode from. Nested columns that
    /// are read as JSON text have type `string` here and are listed in
    /// [`MetadataRow::json_columns`].
    fn columns() -> Vec<Column>;

    /// Columns selected as `CAST(col AS JSON)` (Spark: `to_json(col)`).
    fn json_columns() -> &'static [&'static str] {
        &[]
    }

    /// Whether [`MetadataRow::columns`] are every column the metadata table has on every
    /// engine, so that `SELECT *` reads exactly them; `false` lists them by name.
    fn every_column() -> bool {
        true
    }
}

fn col(name: &str, ty: IcebergType) -> Column {
    Column::new(name, ty)
}

fn get<T: crate::record::SqlType>(row: &Row, cols: &[Column], i: usize) -> Result<T> {
    decode_column(row, &cols[i])
}

fn str_map() -> IcebergType {
    IcebergType::map(IcebergType::String, IcebergType::String)
}

fn int_long_map() -> IcebergType {
    IcebergType::map(IcebergType::Int, IcebergType::Long)
}

fn int_str_map() -> IcebergType {
    IcebergType::map(IcebergType::Int, IcebergType::String)
}

/// A row of `$snapshots`.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotRow {
    /// When the snapshot was committed.
    pub committed_at: DateTime<Utc>,
    /// The snapshot id (for `FOR VERSION AS OF`).
    pub snapshot_id: i64,
    /// The parent snapshot, if any.
    pub parent_id: Option<i64>,
    /// `append`, `replace`, `overwrite` or `delete`.
    pub operation: Option<String>,
    /// The manifest list file.
    pub manifest_list: Option<String>,
    /// Summary counters (`added-records`, ...).
    pub summary: Option<BTreeMap<String, String>>,
}

impl SnapshotRow {
    /// `committed_at`
    pub const COMMITTED_AT: Col<SnapshotRow, DateTime<Utc>> = Col::new("committed_at");
    /// `snapshot_id`
    pub const SNAPSHOT_ID: Col<SnapshotRow, i64> = Col::new("snapshot_id");
    /// `parent_id`
    pub const PARENT_ID: Col<SnapshotRow, Option<i64>> = Col::new("parent_id");
    /// `operation`
    pub const OPERATION: Col<SnapshotRow, Option<String>> = Col::new("operation");
    /// `manifest_list`
    pub const MANIFEST_LIST: Col<SnapshotRow, Option<String>> = Col::new("manifest_list");
    /// `summary` (a `map(varchar, varchar)`, read as JSON text)
    pub const SUMMARY: Col<SnapshotRow, Option<BTreeMap<String, String>>> = Col::new("summary");
}

impl MetadataRow for SnapshotRow {
    const TABLE: MetadataTable = MetadataTable::Snapshots;
    fn columns() -> Vec<Column> {
        vec![
            col("committed_at", IcebergType::TimestampTz),
            col("snapshot_id", IcebergType::Long),
            col("parent_id", IcebergType::Long),
            col("operation", IcebergType::String),
            col("manifest_list", IcebergType::String),
            col("summary", str_map()),
        ]
    }
    fn json_columns() -> &'static [&'static str] {
        &["summary"]
    }
}

impl FromRow for SnapshotRow {
    fn from_row(row: &Row) -> Result<Self> {
        let c = Self::columns();
        Ok(SnapshotRow {
            committed_at: get(row, &c, 0)?,
            snapshot_id: get(row, &c, 1)?,
            parent_id: get(row, &c, 2)?,
            operation: get(row, &c, 3)?,
            manifest_list: get(row, &c, 4)?,
            summary: get(row, &c, 5)?,
        })
    }
    fn expected_columns() -> Option<Vec<Column>> {
        Some(Self::columns())
    }
}

/// A row of `$history`.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryRow {
    /// When the snapshot became current.
    pub made_current_at: DateTime<Utc>,
    /// The snapshot id.
    pub snapshot_id: i64,
    /// Its parent, if any.
    pub parent_id: Option<i64>,
    /// Whether it is an ancestor of the current snapshot.
    pub is_current_ancestor: bool,
}

impl HistoryRow {
    /// `made_current_at`
    pub const MADE_CURRENT_AT: Col<HistoryRow, DateTime<Utc>> = Col::new("made_current_at");
    /// `snapshot_id`
    pub const SNAPSHOT_ID: Col<HistoryRow, i64> = Col::new("snapshot_id");
    /// `parent_id`
    pub const PARENT_ID: Col<HistoryRow, Option<i64>> = Col::new("parent_id");
    /// `is_current_ancestor`
    pub const IS_CURRENT_ANCESTOR: Col<HistoryRow, bool> = Col::new("is_current_ancestor");
}

impl MetadataRow for HistoryRow {
    const TABLE: MetadataTable = MetadataTable::History;
    fn columns() -> Vec<Column> {
        vec![
            col("made_current_at", IcebergType::TimestampTz),
            col("snapshot_id", IcebergType::Long),
            col("parent_id", IcebergType::Long),
            col("is_current_ancestor", IcebergType::Boolean),
        ]
    }
}

impl FromRow for HistoryRow {
    fn from_row(row: &Row) -> Result<Self> {
        let c = Self::columns();
        Ok(HistoryRow {
            made_current_at: get(row, &c, 0)?,
            snapshot_id: get(row, &c, 1)?,
            parent_id: get(row, &c, 2)?,
            is_current_ancestor: get(row, &c, 3)?,
        })
    }
    fn expected_columns() -> Option<Vec<Column>> {
        Some(Self::columns())
    }
}

/// A row of `$files`.
#[derive(Debug, Clone, PartialEq)]
pub struct FileRow {
    /// 0 = data, 1 = position deletes, 2 = equality deletes.
    pub content: i32,
    /// The file's path.
    pub file_path: String,
    /// `PARQUET`, `ORC` or `AVRO`.
    pub file_format: String,
    /// Rows in the file.
    pub record_count: i64,
    /// File size.
    pub file_size_in_bytes: i64,
    /// Bytes per column id.
    pub column_sizes: Option<BTreeMap<i32, i64>>,
    /// Values per column id.
    pub value_counts: Option<BTreeMap<i32, i64>>,
    /// NULLs per column id.
    pub null_value_counts: Option<BTreeMap<i32, i64>>,
    /// NaNs per column id.
    pub nan_value_counts: Option<BTreeMap<i32, i64>>,
    /// Lower bounds per column id (as text).
    pub lower_bounds: Option<BTreeMap<i32, String>>,
    /// Upper bounds per column id (as text).
    pub upper_bounds: Option<BTreeMap<i32, String>>,
    /// Split offsets.
    pub split_offsets: Option<Vec<i64>>,
    /// Equality field ids (equality delete files).
    pub equality_ids: Option<Vec<i32>>,
}

impl FileRow {
    /// `content`
    pub const CONTENT: Col<FileRow, i32> = Col::new("content");
    /// `file_path`
    pub const FILE_PATH: Col<FileRow, String> = Col::new("file_path");
    /// `file_format`
    pub const FILE_FORMAT: Col<FileRow, String> = Col::new("file_format");
    /// `record_count`
    pub const RECORD_COUNT: Col<FileRow, i64> = Col::new("record_count");
    /// `file_size_in_bytes`
    pub const FILE_SIZE_IN_BYTES: Col<FileRow, i64> = Col::new("file_size_in_bytes");
}

impl MetadataRow for FileRow {
    const TABLE: MetadataTable = MetadataTable::Files;
    fn columns() -> Vec<Column> {
        vec![
            col("content", IcebergType::Int),
            col("file_path", IcebergType::String),
            col("file_format", IcebergType::String),
            col("record_count", IcebergType::Long),
            col("file_size_in_bytes", IcebergType::Long),
            col("column_sizes", int_long_map()),
            col("value_counts", int_long_map()),
            col("null_value_counts", int_long_map()),
            col("nan_value_counts", int_long_map()),
            col("lower_bounds", int_str_map()),
            col("upper_bounds", int_str_map()),
            col("split_offsets", IcebergType::list(IcebergType::Long)),
            col("equality_ids", IcebergType::list(IcebergType::Int)),
        ]
    }
    fn json_columns() -> &'static [&'static str] {
        &[
            "column_sizes",
            "value_counts",
            "null_value_counts",
            "nan_value_counts",
            "lower_bounds",
            "upper_bounds",
            "split_offsets",
            "equality_ids",
        ]
    }
}

impl FromRow for FileRow {
    fn from_row(row: &Row) -> Result<Self> {
        let c = Self::columns();
        Ok(FileRow {
            content: get(row, &c, 0)?,
            file_path: get(row, &c, 1)?,
            file_format: get(row, &c, 2)?,
            record_count: get(row, &c, 3)?,
            file_size_in_bytes: get(row, &c, 4)?,
            column_sizes: get(row, &c, 5)?,
            value_counts: get(row, &c, 6)?,
            null_value_counts: get(row, &c, 7)?,
            nan_value_counts: get(row, &c, 8)?,
            lower_bounds: get(row, &c, 9)?,
            upper_bounds: get(row, &c, 10)?,
            split_offsets: get(row, &c, 11)?,
            equality_ids: get(row, &c, 12)?,
        })
    }
    fn expected_columns() -> Option<Vec<Column>> {
        Some(Self::columns())
    }
}

/// A row of `$manifests`: the columns every Athena engine v3 has.
///
/// It leaves out the per-partition summaries: Trino renamed the column `partitions` to
/// `partition_summaries` in November 2024 (<https://github.com/trinodb/trino/pull/24103>),
/// and Athena does not say which release its engine runs, so neither name is safe. The
/// columns are listed by name, since newer releases add others (`content`,
/// <https://github.com/trinodb/trino/pull/27975>).
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestRow {
    /// The manifest file.
    pub path: String,
    /// Its length in bytes.
    pub length: i64,
    /// The partition spec it was written with.
    pub partition_spec_id: i32,
    /// The snapshot that added it.
    pub added_snapshot_id: Option<i64>,
    /// Data files added.
    pub added_data_files_count: Option<i32>,
    /// Rows added.
    pub added_rows_count: Option<i64>,
    /// Existing data files.
    pub existing_data_files_count: Option<i32>,
    /// Existing rows.
    pub existing_rows_count: Option<i64>,
    /// Deleted data files.
    pub deleted_data_files_count: Option<i32>,
    /// Deleted rows.
    pub deleted_rows_count: Option<i64>,
}

impl ManifestRow {
    /// `path`
    pub const PATH: Col<ManifestRow, String> = Col::new("path");
    /// `length`
    pub const LENGTH: Col<ManifestRow, i64> = Col::new("length");
    /// `partition_spec_id`
    pub const PARTITION_SPEC_ID: Col<ManifestRow, i32> = Col::new("partition_spec_id");
    /// `added_snapshot_id`
    pub const ADDED_SNAPSHOT_ID: Col<ManifestRow, Option<i64>> = Col::new("added_snapshot_id");
}

impl MetadataRow for ManifestRow {
    const TABLE: MetadataTable = MetadataTable::Manifests;
    fn columns() -> Vec<Column> {
        vec![
            col("path", IcebergType::String),
            col("length", IcebergType::Long),
            col("partition_spec_id", IcebergType::Int),
            col("added_snapshot_id", IcebergType::Long),
            col("added_data_files_count", IcebergType::Int),
            col("added_rows_count", IcebergType::Long),
            col("existing_data_files_count", IcebergType::Int),
            col("existing_rows_count", IcebergType::Long),
            col("deleted_data_files_count", IcebergType::Int),
            col("deleted_rows_count", IcebergType::Long),
        ]
    }
    fn every_column() -> bool {
        false
    }
}

impl FromRow for ManifestRow {
    fn from_row(row: &Row) -> Result<Self> {
        let c = Self::columns();
        Ok(ManifestRow {
            path: get(row, &c, 0)?,
            length: get(row, &c, 1)?,
            partition_spec_id: get(row, &c, 2)?,
            added_snapshot_id: get(row, &c, 3)?,
            added_data_files_count: get(row, &c, 4)?,
            added_rows_count: get(row, &c, 5)?,
            existing_data_files_count: get(row, &c, 6)?,
            existing_rows_count: get(row, &c, 7)?,
            deleted_data_files_count: get(row, &c, 8)?,
            deleted_rows_count: get(row, &c, 9)?,
        })
    }
    fn expected_columns() -> Option<Vec<Column>> {
        Some(Self::columns())
    }
}

/// A row of `$partitions` of a partitioned table.
///
/// An unpartitioned table's `$partitions` has no `partition` column (Trino:
/// `Column 'partition' cannot be resolved`). Read through the table's record type
/// ([`TableStatements::metadata`](crate::TableStatements::metadata)), a select of this
/// row over an unpartitioned table is refused when it is built; read through
/// [`TableName::metadata`](crate::TableName::metadata), which knows only the name, the
/// table must be partitioned.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionRow {
    /// The partition tuple as JSON text, e.g. `{"event_date":"2026-10-01"}`.
    pub partition: String,
    /// Rows in the partition.
    pub record_count: i64,
    /// Data files in the partition.
    pub file_count: i64,
    /// Total data file size (Trino; absent in some engines).
    pub total_size: Option<i64>,
}

impl PartitionRow {
    /// `record_count`
    pub const RECORD_COUNT: Col<PartitionRow, i64> = Col::new("record_count");
    /// `file_count`
    pub const FILE_COUNT: Col<PartitionRow, i64> = Col::new("file_count");
    /// `total_size`
    pub const TOTAL_SIZE: Col<PartitionRow, Option<i64>> = Col::new("total_size");
}

impl MetadataRow for PartitionRow {
    const TABLE: MetadataTable = MetadataTable::Partitions;
    fn columns() -> Vec<Column> {
        vec![
            col("partition", IcebergType::String),
            col("record_count", IcebergType::Long),
            col("file_count", IcebergType::Long),
            col("total_size", IcebergType::Long),
        ]
    }
    fn json_columns() -> &'static [&'static str] {
        &["partition"]
    }
}

impl FromRow for PartitionRow {
    fn from_row(row: &Row) -> Result<Self> {
        let c = Self::columns();
        Ok(PartitionRow {
            partition: get(row, &c, 0)?,
            record_count: get(row, &c, 1)?,
            file_count: get(row, &c, 2)?,
            total_size: get(row, &c, 3)?,
        })
    }
    fn expected_columns() -> Option<Vec<Column>> {
        Some(Self::columns())
    }
}

/// A row of `$refs`.
#[derive(Debug, Clone, PartialEq)]
pub struct RefRow {
    /// Branch or tag name (`main`, ...).
    pub name: String,
    /// `BRANCH` or `TAG`.
    pub r#type: String,
    /// The snapshot it points at.
    pub snapshot_id: i64,
    /// Maximum reference age.
    pub max_reference_age_in_ms: Option<i64>,
    /// Minimum snapshots to keep (branches).
    pub min_snapshots_to_keep: Option<i32>,
    /// Maximum snapshot age (branches).
    pub max_snapshot_age_in_ms: Option<i64>,
}

impl RefRow {
    /// `name`
    pub const NAME: Col<RefRow, String> = Col::new("name");
    /// `type`
    pub const TYPE: Col<RefRow, String> = Col::new("type");
    /// `snapshot_id`
    pub const SNAPSHOT_ID: Col<RefRow, i64> = Col::new("snapshot_id");
}

impl MetadataRow for RefRow {
    const TABLE: MetadataTable = MetadataTable::Refs;
    fn columns() -> Vec<Column> {
        vec![
            col("name", IcebergType::String),
            col("type", IcebergType::String),
            col("snapshot_id", IcebergType::Long),
            col("max_reference_age_in_ms", IcebergType::Long),
            col("min_snapshots_to_keep", IcebergType::Int),
            col("max_snapshot_age_in_ms", IcebergType::Long),
        ]
    }
}

impl FromRow for RefRow {
    fn from_row(row: &Row) -> Result<Self> {
        let c = Self::columns();
        Ok(RefRow {
            name: get(row, &c, 0)?,
            r#type: get(row, &c, 1)?,
            snapshot_id: get(row, &c, 2)?,
            max_reference_age_in_ms: get(row, &c, 3)?,
            min_snapshots_to_keep: get(row, &c, 4)?,
            max_snapshot_age_in_ms: get(row, &c, 5)?,
        })
    }
    fn expected_columns() -> Option<Vec<Column>> {
        Some(Self::columns())
    }
}
