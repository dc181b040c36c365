use iceberg_sql::IcebergTable;

#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/events/",
    properties(
        format = "orc",
        write_compression = "gzip",
        optimize_rewrite_delete_file_threshold = 50,
        vacuum_min_snapshots_to_keep = "0",
        write_data_path_enabled = "yes",
        table_type = "ICEBERG",
        write_target_data_file_size_bytes = "536870912",
    )
)]
pub struct Event {
    pub id: i64,
}

#[derive(IcebergTable)]
#[iceberg(
    database = "analytics",
    location = "s3://lake/other/",
    properties(format = "csv", write_compression = "bzip2")
)]
pub struct Other {
    pub id: i64,
}

fn main() {}
