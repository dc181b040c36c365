//! The Iceberg connector's metadata tables (`"db"."t$snapshots"`, ...) and their
//! columns, per table.
//!
//! Sources: trinodb/trino `plugin/trino-iceberg/src/main/java/io/trino/plugin/iceberg/`
//! `SnapshotsTable`, `HistoryTable`, `ManifestsTable`, `PartitionTable`, `FilesTable`,
//! `RefsTable`, `PropertiesTable` at release 417, and `system/*Table.java` in current
//! master for what was added since (the trinodb/trino pull request is named per column).
//! Athena documents six of them (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-table-metadata.html>):
//! `$files`, `$manifests`, `$history`, `$partitions`, `$snapshots`, `$refs`. Athena does
//! not say which Trino release its engine tracks, so a column is safe to name only when
//! it exists both in release 417 and in master ([`Availability::Stable`]).

use super::types::{EngineType, RowField, TableFormat};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{PartitionTransform, TableDef};

/// A metadata table of an Iceberg table in Trino's Iceberg connector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum SystemTable {
    /// `$snapshots`
    Snapshots,
    /// `$history`
    History,
    /// `$manifests`
    Manifests,
    /// `$all_manifests` (https://github.com/trinodb/trino/pull/24330, after 417)
    AllManifests,
    /// `$partitions`
    Partitions,
    /// `$files`
    Files,
    /// `$entries` (https://github.com/trinodb/trino/pull/24172, after 417)
    Entries,
    /// `$all_entries` (https://github.com/trinodb/trino/pull/24543, after 417)
    AllEntries,
    /// `$refs`
    Refs,
    /// `$properties`
    Properties,
    /// `$metadata_log_entries` (https://github.com/trinodb/trino/pull/20410, after 417)
    MetadataLogEntries,
}

/// Whether a table or column can be named on every Trino release Athena may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Availability {
    /// In release 417 and in current master.
    Stable,
    /// Added after release 417, by the trinodb/trino pull request at this URL.
    AddedLater(&'static str),
    /// In release 417, renamed or removed since, by the pull request at this URL.
    RemovedLater(&'static str),
}

/// One column of a metadata table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SystemColumn {
    /// Column name.
    pub name: String,
    /// Its engine type.
    pub ty: EngineType,
    /// On which releases it exists.
    pub availability: Availability,
}

impl SystemTable {
    /// Every metadata table of Trino's Iceberg connector.
    pub const ALL: [SystemTable; 11] = [
        SystemTable::Snapshots,
        SystemTable::History,
        SystemTable::Manifests,
        SystemTable::AllManifests,
        SystemTable::Partitions,
        SystemTable::Files,
        SystemTable::Entries,
        SystemTable::AllEntries,
        SystemTable::Refs,
        SystemTable::Properties,
        SystemTable::MetadataLogEntries,
    ];

    /// The name after `$`.
    pub fn suffix(self) -> &'static str {
        match self {
            SystemTable::Snapshots => "snapshots",
            SystemTable::History => "history",
            SystemTable::Manifests => "manifests",
            SystemTable::AllManifests => "all_manifests",
            SystemTable::Partitions => "partitions",
            SystemTable::Files => "files",
            SystemTable::Entries => "entries",
            SystemTable::AllEntries => "all_entries",
            SystemTable::Refs => "refs",
            SystemTable::Properties => "properties",
            SystemTable::MetadataLogEntries => "metadata_log_entries",
        }
    }

    /// Whether the table exists on every release (see [`Availability`]).
    pub fn availability(self) -> Availability {
        match self {
            SystemTable::AllManifests => {
                Availability::AddedLater("https://github.com/trinodb/trino/pull/24330")
            }
            SystemTable::Entries => {
                Availability::AddedLater("https://github.com/trinodb/trino/pull/24172")
            }
            SystemTable::AllEntries => {
                Availability::AddedLater("https://github.com/trinodb/trino/pull/24543")
            }
            SystemTable::MetadataLogEntries => {
                Availability::AddedLater("https://github.com/trinodb/trino/pull/20410")
            }
            _ => Availability::Stable,
        }
    }

    /// Whether AWS's Athena documentation lists the table.
    pub fn documented_by_athena(self) -> bool {
        matches!(
            self,
            SystemTable::Files
                | SystemTable::Manifests
                | SystemTable::History
                | SystemTable::Partitions
                | SystemTable::Snapshots
                | SystemTable::Refs
        )
    }

    /// The columns of this metadata table of `table`, in order, including those that
    /// exist only on some releases. `$partitions`, `$files` and `$entries` depend on the
    /// table: a `partition` row only for a partitioned table, a `data` row of column
    /// metrics only when it has a non-partition primitive column.
    pub fn columns(self, table: &TableDef) -> Result<Vec<SystemColumn>> {
        use Availability::*;
        use EngineType as E;
        let col = |name: &str, ty: EngineType, availability| SystemColumn {
            name: name.to_string(),
            ty,
            availability,
        };
        let int_long = || E::map(E::Integer, E::Bigint);
        let int_text = || E::map(E::Integer, E::VARCHAR);
        let summaries = || {
            E::array(E::row([
                ("contains_null", E::Boolean),
                ("contains_nan", E::Boolean),
                ("lower_bound", E::VARCHAR),
                ("upper_bound", E::VARCHAR),
            ]))
        };
        let partition = partition_row(table)?;
        Ok(match self {
            SystemTable::Snapshots => vec![
                col("committed_at", E::TimestampWithTimeZone(3), Stable),
                col("snapshot_id", E::Bigint, Stable),
                col("parent_id", E::Bigint, Stable),
                col("operation", E::VARCHAR, Stable),
                col("manifest_list", E::VARCHAR, Stable),
                col("summary", E::map(E::VARCHAR, E::VARCHAR), Stable),
            ],
            SystemTable::History => vec![
                col("made_current_at", E::TimestampWithTimeZone(3), Stable),
                col("snapshot_id", E::Bigint, Stable),
                col("parent_id", E::Bigint, Stable),
                col("is_current_ancestor", E::Boolean, Stable),
            ],
            SystemTable::Manifests => vec![
                col(
                    "content",
                    E::Integer,
                    AddedLater("https://github.com/trinodb/trino/pull/27975"),
                ),
                col("path", E::VARCHAR, Stable),
                col("length", E::Bigint, Stable),
                col("partition_spec_id", E::Integer, Stable),
                col("added_snapshot_id", E::Bigint, Stable),
                col("added_data_files_count", E::Integer, Stable),
                col("added_rows_count", E::Bigint, Stable),
                col("existing_data_files_count", E::Integer, Stable),
                col("existing_rows_count", E::Bigint, Stable),
                col("deleted_data_files_count", E::Integer, Stable),
                col("deleted_rows_count", E::Bigint, Stable),
                col(
                    "partitions",
                    summaries(),
                    RemovedLater("https://github.com/trinodb/trino/pull/24103"),
                ),
                col(
                    "partition_summaries",
                    summaries(),
                    AddedLater("https://github.com/trinodb/trino/pull/24103"),
                ),
            ],
            SystemTable::AllManifests => {
                let a = AddedLater("https://github.com/trinodb/trino/pull/24330");
                vec![
                    col(
                        "content",
                        E::Integer,
                        AddedLater("https://github.com/trinodb/trino/pull/27975"),
                    ),
                    col("path", E::VARCHAR, a),
                    col("length", E::Bigint, a),
                    col("partition_spec_id", E::Integer, a),
                    col("added_snapshot_id", E::Bigint, a),
                    col("added_data_files_count", E::Integer, a),
                    col("existing_data_files_count", E::Integer, a),
                    col("deleted_data_files_count", E::Integer, a),
                    col("added_delete_files_count", E::Integer, a),
                    col("existing_delete_files_count", E::Integer, a),
                    col("deleted_delete_files_count", E::Integer, a),
                    col("partition_summaries", summaries(), a),
                    col("reference_snapshot_id", E::Bigint, a),
                ]
            }
            SystemTable::Partitions => {
                let mut v = Vec::new();
                if let Some(p) = &partition {
                    v.push(col("partition", p.clone(), Stable));
                }
                v.push(col("record_count", E::Bigint, Stable));
                v.push(col("file_count", E::Bigint, Stable));
                v.push(col("total_size", E::Bigint, Stable));
                if let Some(d) = data_metrics_row(table)? {
                    v.push(col("data", d, Stable));
                }
                v
            }
            SystemTable::Files => {
                let later = AddedLater("https://github.com/trinodb/trino/pull/24102");
                let mut v = vec![
                    col("content", E::Integer, Stable),
                    col("file_path", E::VARCHAR, Stable),
                    col("file_format", E::VARCHAR, Stable),
                    col("spec_id", E::Integer, later),
                ];
                if let Some(p) = &partition {
                    v.push(col("partition", p.clone(), later));
                }
                v.extend([
                    col("record_count", E::Bigint, Stable),
                    col("file_size_in_bytes", E::Bigint, Stable),
                    col("column_sizes", int_long(), Stable),
                    col("value_counts", int_long(), Stable),
                    col("null_value_counts", int_long(), Stable),
                    col("nan_value_counts", int_long(), Stable),
                    col("lower_bounds", int_text(), Stable),
                    col("upper_bounds", int_text(), Stable),
                    col("key_metadata", E::Varbinary, Stable),
                    col("split_offsets", E::array(E::Bigint), Stable),
                    col("equality_ids", E::array(E::Integer), Stable),
                    col("sort_order_id", E::Integer, later),
                    col("readable_metrics", E::Json, later),
                ]);
                v
            }
            SystemTable::Entries | SystemTable::AllEntries => {
                let a = self.availability();
                let mut data_file = vec![
                    RowField::named("content", E::Integer),
                    RowField::named("file_path", E::VARCHAR),
                    RowField::named("file_format", E::VARCHAR),
                    RowField::named("spec_id", E::Integer),
                ];
                if let Some(p) = &partition {
                    data_file.push(RowField::named("partition", p.clone()));
                }
                data_file.extend([
                    RowField::named("record_count", E::Bigint),
                    RowField::named("file_size_in_bytes", E::Bigint),
                    RowField::named("column_sizes", int_long()),
                    RowField::named("value_counts", int_long()),
                    RowField::named("null_value_counts", int_long()),
                    RowField::named("nan_value_counts", int_long()),
                    RowField::named("lower_bounds", int_text()),
                    RowField::named("upper_bounds", int_text()),
                    RowField::named("key_metadata", E::Varbinary),
                    RowField::named("split_offsets", E::array(E::Bigint)),
                    RowField::named("equality_ids", E::array(E::Integer)),
                    RowField::named("sort_order_id", E::Integer),
                ]);
                vec![
                    col("status", E::Integer, a),
                    col("snapshot_id", E::Bigint, a),
                    col("sequence_number", E::Bigint, a),
                    col("file_sequence_number", E::Bigint, a),
                    col("data_file", E::Row(data_file), a),
                    col("readable_metrics", E::Json, a),
                ]
            }
            SystemTable::Refs => vec![
                col("name", E::VARCHAR, Stable),
                col("type", E::VARCHAR, Stable),
                col("snapshot_id", E::Bigint, Stable),
                col("max_reference_age_in_ms", E::Bigint, Stable),
                col("min_snapshots_to_keep", E::Integer, Stable),
                col("max_snapshot_age_in_ms", E::Bigint, Stable),
            ],
            SystemTable::Properties => vec![
                col("key", E::VARCHAR, Stable),
                col("value", E::VARCHAR, Stable),
            ],
            SystemTable::MetadataLogEntries => {
                let a = self.availability();
                vec![
                    col("timestamp", E::TimestampWithTimeZone(3), a),
                    col("file", E::VARCHAR, a),
                    col("latest_snapshot_id", E::Bigint, a),
                    col("latest_schema_id", E::Integer, a),
                    col("latest_sequence_number", E::Bigint, a),
                ]
            }
        })
    }
}

/// The `partition` row of `$partitions`/`$files`/`$entries`: one field per partition
/// field, named as Iceberg names it by default (`dt`, `event_ts_day`, `user_id_bucket`,
/// `name_trunc`, `ts_year`, `ts_month`, `ts_hour`), typed by the transform's result
/// (identity and truncate: the source type; bucket, year, month, hour: `integer`; day:
/// `date`, per Iceberg's `transforms/Days.getResultType`). `None` for an unpartitioned
/// table. Trino lists the fields of every partition spec the table ever had
/// (`getAllPartitionFields`); a [`TableDef`] knows only the current one.
pub(crate) fn partition_row(table: &TableDef) -> Result<Option<EngineType>> {
    let spec = table.partition_spec();
    if spec.is_empty() {
        return Ok(None);
    }
    let mut fields = Vec::with_capacity(spec.len());
    for p in spec {
        let Some(source) = table.column(&p.source) else {
            return Err(Error::new(
                ErrorKind::InvalidPartition,
                format!(
                    "partition field `{}` names no column of `{}`",
                    p.source,
                    table.name()
                ),
            ));
        };
        let source_type = EngineType::of_column(&source.ty, TableFormat::Iceberg)?;
        let name = iceberg_sql_rules::partition_field_name(&p.source, p.transform.name());
        let ty = match p.transform {
            PartitionTransform::Identity | PartitionTransform::Truncate(_) => source_type,
            PartitionTransform::Day => EngineType::Date,
            PartitionTransform::Bucket(_)
            | PartitionTransform::Year
            | PartitionTransform::Month
            | PartitionTransform::Hour => EngineType::Integer,
        };
        fields.push(RowField::named(name, ty));
    }
    Ok(Some(EngineType::Row(fields)))
}

/// The `data` row of `$partitions`: per top-level primitive column that is not an
/// identity partition source, `row(min T, max T, null_count bigint, nan_count bigint)`
/// (`PartitionTable.getMetricsColumnType`). `None` when no column qualifies.
fn data_metrics_row(table: &TableDef) -> Result<Option<EngineType>> {
    let identity: Vec<&str> = table
        .partition_spec()
        .iter()
        .filter(|p| p.transform == PartitionTransform::Identity)
        .map(|p| p.source.as_str())
        .collect();
    let mut fields = Vec::new();
    for c in table.columns() {
        if !c.ty.is_primitive() || identity.contains(&c.name.as_str()) {
            continue;
        }
        let t = EngineType::of_column(&c.ty, TableFormat::Iceberg)?;
        fields.push(RowField::named(
            &c.name,
            EngineType::row([
                ("min", t.clone()),
                ("max", t),
                ("null_count", EngineType::Bigint),
                ("nan_count", EngineType::Bigint),
            ]),
        ));
    }
    Ok((!fields.is_empty()).then_some(EngineType::Row(fields)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Column, PartitionField};
    use crate::types::IcebergType;

    fn events() -> TableDef {
        TableDef::builder("analytics", "mcp_events")
            .column(Column::new("event_id", IcebergType::String).required())
            .column(Column::new("user_id", IcebergType::String))
            .column(Column::new("event_ts", IcebergType::Timestamp))
            .column(Column::new("dt", IcebergType::Date))
            .column(Column::new("tags", IcebergType::list(IcebergType::String)))
            .partition(PartitionField::new("event_ts", PartitionTransform::Day))
            .partition(PartitionField::new(
                "user_id",
                PartitionTransform::Bucket(16),
            ))
            .partition(PartitionField::identity("dt"))
            .location("s3://my-datalake/iceberg/mcp_events/")
            .build()
            .unwrap()
    }

    fn plain() -> TableDef {
        TableDef::builder("analytics", "plain")
            .column(Column::new("tags", IcebergType::list(IcebergType::String)))
            .location("s3://my-datalake/iceberg/plain/")
            .build()
            .unwrap()
    }

    fn names(cols: &[SystemColumn], only_stable: bool) -> Vec<&str> {
        cols.iter()
            .filter(|c| !only_stable || c.availability == Availability::Stable)
            .map(|c| c.name.as_str())
            .collect()
    }

    #[test]
    fn partitions_depend_on_the_table() {
        let cols = SystemTable::Partitions.columns(&events()).unwrap();
        assert_eq!(
            names(&cols, false),
            [
                "partition",
                "record_count",
                "file_count",
                "total_size",
                "data"
            ]
        );
        assert_eq!(
            cols[0].ty.to_string(),
            "row(event_ts_day date, user_id_bucket integer, dt date)"
        );
        // `dt` is an identity source: no metrics; `tags` is not primitive.
        assert_eq!(
            cols[4].ty.to_string(),
            "row(event_id row(min varchar, max varchar, null_count bigint, nan_count bigint), \
             user_id row(min varchar, max varchar, null_count bigint, nan_count bigint), \
             event_ts row(min timestamp(6), max timestamp(6), null_count bigint, nan_count bigint))"
        );
        // Unpartitioned, no primitive column: neither `partition` nor `data`.
        let cols = SystemTable::Partitions.columns(&plain()).unwrap();
        assert_eq!(
            names(&cols, false),
            ["record_count", "file_count", "total_size"]
        );
    }

    #[test]
    fn stable_columns_are_those_of_every_release() {
        let t = events();
        let manifests = SystemTable::Manifests.columns(&t).unwrap();
        assert_eq!(
            names(&manifests, true),
            [
                "path",
                "length",
                "partition_spec_id",
                "added_snapshot_id",
                "added_data_files_count",
                "added_rows_count",
                "existing_data_files_count",
                "existing_rows_count",
                "deleted_data_files_count",
                "deleted_rows_count"
            ]
        );
        let files = SystemTable::Files.columns(&t).unwrap();
        assert_eq!(
            names(&files, true),
            [
                "content",
                "file_path",
                "file_format",
                "record_count",
                "file_size_in_bytes",
                "column_sizes",
                "value_counts",
                "null_value_counts",
                "nan_value_counts",
                "lower_bounds",
                "upper_bounds",
                "key_metadata",
                "split_offsets",
                "equality_ids"
            ]
        );
        assert!(names(&SystemTable::Files.columns(&plain()).unwrap(), false)
            .iter()
            .all(|n| *n != "partition"));
        assert_eq!(
            names(&SystemTable::Snapshots.columns(&t).unwrap(), true),
            [
                "committed_at",
                "snapshot_id",
                "parent_id",
                "operation",
                "manifest_list",
                "summary"
            ]
        );
        assert_eq!(
            names(&SystemTable::History.columns(&t).unwrap(), true),
            [
                "made_current_at",
                "snapshot_id",
                "parent_id",
                "is_current_ancestor"
            ]
        );
        assert_eq!(
            names(&SystemTable::Refs.columns(&t).unwrap(), true),
            [
                "name",
                "type",
                "snapshot_id",
                "max_reference_age_in_ms",
                "min_snapshots_to_keep",
                "max_snapshot_age_in_ms"
            ]
        );
        for table in SystemTable::ALL {
            let cols = table.columns(&t).unwrap();
            assert!(!cols.is_empty(), "{}", table.suffix());
            if table.availability() != Availability::Stable {
                assert!(
                    cols.iter().all(|c| c.availability != Availability::Stable),
                    "{}",
                    table.suffix()
                );
            }
        }
    }

    #[test]
    fn athena_documents_six_tables() {
        let documented: Vec<&str> = SystemTable::ALL
            .iter()
            .filter(|t| t.documented_by_athena())
            .map(|t| t.suffix())
            .collect();
        assert_eq!(
            documented,
            [
                "snapshots",
                "history",
                "manifests",
                "partitions",
                "files",
                "refs"
            ]
        );
        assert!(SystemTable::ALL
            .iter()
            .filter(|t| t.documented_by_athena())
            .all(|t| t.availability() == Availability::Stable));
    }
}
