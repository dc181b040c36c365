//! CREATE TABLE and DROP TABLE: exact SQL for every type, transform and property, in
//! both dialects, plus one negative test per table rule.

use iceberg_sql::prelude::*;
use iceberg_sql::{StructField, MAX_QUERY_BYTES};

/// The example `mcp_events` table, with one column of every type.
fn mcp_events() -> TableDef {
    TableDef::builder("analytics", "mcp_events")
        .column(
            Column::new("event_id", IcebergType::String)
                .required()
                .comment("ULID"),
        )
        .column(Column::new("session_id", IcebergType::String).required())
        .column(Column::new("tool_name", IcebergType::String).required())
        .column(Column::new("user_id", IcebergType::String).required())
        .column(Column::new("event_ts", IcebergType::Timestamp).required())
        .column(Column::new("payload", IcebergType::String))
        .column(Column::new("status", IcebergType::String).required())
        .column(Column::new("latency_ms", IcebergType::Long).required())
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .partition(PartitionField::new(
            "user_id",
            PartitionTransform::Bucket(16),
        ))
        .location("s3://my-datalake/iceberg/mcp_events/")
        .property_str("format", "parquet")
        .property_str("write_compression", "snappy")
        .property_str("optimize_rewrite_delete_file_threshold", "10")
        .build()
        .expect("the example table is valid")
}

/// One column of every Iceberg type, nested types included, and reserved-word names.
fn every_type() -> TableDef {
    let point = IcebergType::structure([("x", IcebergType::Double), ("y", IcebergType::Double)]);
    TableDef::builder("lake", "every_type")
        .column(Column::new("c_boolean", IcebergType::Boolean))
        .column(Column::new("c_int", IcebergType::Int))
        .column(Column::new("c_long", IcebergType::Long).required())
        .column(Column::new("c_float", IcebergType::Float))
        .column(Column::new("c_double", IcebergType::Double))
        .column(Column::new("c_decimal", IcebergType::decimal(38, 9)))
        .column(Column::new("c_date", IcebergType::Date))
        .column(Column::new("c_timestamp", IcebergType::Timestamp))
        .column(Column::new("c_string", IcebergType::String).comment("any text"))
        .column(Column::new("c_binary", IcebergType::Binary))
        .column(Column::new(
            "c_list",
            IcebergType::list(IcebergType::String),
        ))
        .column(Column::new(
            "c_map",
            IcebergType::map(IcebergType::String, IcebergType::Long),
        ))
        .column(Column::new("c_struct", point.clone()))
        .column(Column::new(
            "c_deep",
            IcebergType::list(IcebergType::map(
                IcebergType::String,
                IcebergType::Struct(vec![
                    StructField::new("points", IcebergType::list(point)),
                    StructField::new("date", IcebergType::Date),
                ]),
            )),
        ))
        .column(Column::new("date", IcebergType::Date))
        .column(Column::new("user", IcebergType::String))
        .column(Column::new("_hidden", IcebergType::Int))
        .location("s3://lake-bucket/every_type")
        .build()
        .expect("valid")
}

/// One partition field of every transform.
fn every_transform() -> TableDef {
    TableDef::builder("lake", "every_transform")
        .column(Column::new("ts", IcebergType::Timestamp))
        .column(Column::new("d", IcebergType::Date))
        .column(Column::new("m", IcebergType::Date))
        .column(Column::new("y", IcebergType::Timestamp))
        .column(Column::new("id", IcebergType::Long))
        .column(Column::new("name", IcebergType::String))
        .column(Column::new("amount", IcebergType::decimal(10, 2)))
        .column(Column::new("category", IcebergType::String))
        .partition(PartitionField::new("ts", PartitionTransform::Hour))
        .partition(PartitionField::new("d", PartitionTransform::Day))
        .partition(PartitionField::new("m", PartitionTransform::Month))
        .partition(PartitionField::new("y", PartitionTransform::Year))
        .partition(PartitionField::new("id", PartitionTransform::Bucket(16)))
        .partition(PartitionField::new("name", PartitionTransform::Truncate(4)))
        .partition(PartitionField::new("amount", PartitionTransform::Bucket(8)))
        .partition(PartitionField::identity("category"))
        .location("s3://lake-bucket/every_transform/")
        .build()
        .expect("valid")
}

/// Every property Athena accepts, on ORC so that an ORC-only codec is legal.
fn every_property() -> TableDef {
    TableDef::builder("lake", "every_property")
        .column(Column::new("id", IcebergType::Long))
        .property(TableProperty::Format(FileFormat::Orc))
        .property(TableProperty::WriteCompression(Compression::Zlib))
        .property(TableProperty::OptimizeRewriteDataFileThreshold(5))
        .property(TableProperty::OptimizeRewriteDeleteFileThreshold(49))
        .property(TableProperty::VacuumMinSnapshotsToKeep(5))
        .property(TableProperty::VacuumMaxSnapshotAgeSeconds(604_800))
        .property(TableProperty::VacuumMaxMetadataFilesToKeep(100))
        .property(TableProperty::WriteDataPathEnabled(false))
        .location("s3://lake-bucket/every_property/")
        .build()
        .expect("valid")
}

fn both(table: &TableDef) -> String {
    let athena = table.create_table().build().expect("athena");
    let spark = table
        .create_table()
        .if_not_exists()
        .build_for(Dialect::Spark)
        .expect("spark");
    assert_eq!(athena.kind(), StatementKind::CreateTable);
    format!("-- Athena\n{athena}\n\n-- Spark\n{spark}\n")
}

#[test]
fn create_mcp_events() {
    insta::assert_snapshot!(both(&mcp_events()));
}

#[test]
fn create_every_type() {
    insta::assert_snapshot!(both(&every_type()));
}

#[test]
fn create_every_transform() {
    insta::assert_snapshot!(both(&every_transform()));
}

#[test]
fn create_every_property() {
    insta::assert_snapshot!(both(&every_property()));
}

#[test]
fn create_if_not_exists_and_drop() {
    let t = mcp_events();
    let sql = [
        t.create_table().if_not_exists().build().unwrap().into_sql(),
        t.name().drop_table().build().unwrap().into_sql(),
        t.name()
            .drop_table()
            .if_exists()
            .build()
            .unwrap()
            .into_sql(),
        t.name()
            .drop_table()
            .if_exists()
            .build_for(Dialect::Spark)
            .unwrap()
            .into_sql(),
        TableName::new("analytics", "table")
            .drop_table()
            .build()
            .unwrap()
            .into_sql(),
        TableName::new("analytics", "table")
            .drop_table()
            .build_for(Dialect::Spark)
            .unwrap()
            .into_sql(),
    ];
    insta::assert_snapshot!(sql.join("\n"));
}

// ---- negative tests: one per rule -------------------------------------------------

fn one_column(name: &str, ty: IcebergType) -> TableDefBuilderExt {
    TableDefBuilderExt(
        TableDef::builder("analytics", "t")
            .column(Column::new(name, ty))
            .location("s3://bucket/t/"),
    )
}

/// Small wrapper so each negative test reads as one line.
struct TableDefBuilderExt(iceberg_sql::model::TableDefBuilder);

impl TableDefBuilderExt {
    fn err(self) -> Error {
        self.0.build().expect_err("must be rejected")
    }
    fn with(
        self,
        f: impl FnOnce(iceberg_sql::model::TableDefBuilder) -> iceberg_sql::model::TableDefBuilder,
    ) -> Self {
        TableDefBuilderExt(f(self.0))
    }
}

#[test]
fn upper_case_column_is_rejected_with_a_suggestion() {
    let e = one_column("eventTs", IcebergType::Timestamp).err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
    assert_eq!(
        e.message(),
        "column name `eventTs` contains upper case, which Athena folds to lower case"
    );
    assert_eq!(
        e.hint(),
        Some("use `event_ts` (with the derive: #[iceberg(rename = \"event_ts\")])")
    );
}

#[test]
fn special_characters_and_long_names_are_rejected() {
    let e = one_column("event-id", IcebergType::String).err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
    assert!(e.message().contains("contains '-'"), "{e}");
    let e = one_column(&"x".repeat(256), IcebergType::String).err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
    assert!(
        e.message()
            .contains("256 bytes long; Athena allows at most 255"),
        "{e}"
    );
    let e = TableDef::builder("Analytics", "t")
        .column(Column::new("a", IcebergType::Int))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
    assert!(e.message().starts_with("database name `Analytics`"), "{e}");
}

/// A column named `struct` (a word Spark does not reserve) partitioned on: Spark's text
/// quotes it, so the statement is written instead of being refused as a syntax error
/// by the validator, which read `PARTITIONED BY (struct)` as the start of a type.
#[test]
fn a_column_named_struct_is_quoted_in_spark() {
    let t = TableDef::builder("analytics", "t")
        .column(Column::new("struct", IcebergType::String))
        .partition(PartitionField::identity("struct"))
        .location("s3://lake-bucket/t/")
        .build()
        .unwrap();
    let spark = t.create_table().build_for(Dialect::Spark).unwrap();
    assert!(
        spark.sql().contains("PARTITIONED BY (`struct`)"),
        "{}",
        spark.sql()
    );
    let athena = t.create_table().build().unwrap();
    assert!(
        athena.sql().contains("PARTITIONED BY (struct)"),
        "{}",
        athena.sql()
    );
}

#[test]
fn reserved_word_where_the_statement_cannot_quote() {
    let t = TableDef::builder("analytics", "table")
        .column(Column::new("date", IcebergType::Date))
        .location("s3://bucket/t/")
        .build()
        .unwrap();
    // OPTIMIZE has no documented quoting, so a reserved table name must be refused.
    let e = t.optimize().build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnquotableIdentifier);
    assert!(
        e.message()
            .contains("Athena's OPTIMIZE statement has no documented way to quote names"),
        "{e}"
    );
    // Where the grammar can quote, the same word is quoted in that grammar's style.
    assert!(t
        .create_table()
        .build()
        .unwrap()
        .sql()
        .starts_with("CREATE TABLE analytics.`table` (\n  `date` date"));
    // A partitioning string is read with Trino's Iceberg connector's own pattern
    // (`PartitionFields.java`), not its SQL grammar: a reserved word is a plain name there.
    let p = TableDef::builder("analytics", "t")
        .column(Column::new("date", IcebergType::Date))
        .column(Column::new("trim", IcebergType::String))
        .column(Column::new("1c", IcebergType::String))
        .partition(PartitionField::identity("date"))
        .partition(PartitionField::new("trim", PartitionTransform::Truncate(4)))
        .build()
        .unwrap();
    assert_eq!(
        p.create_table().build_for(Dialect::Trino).unwrap().sql(),
        "CREATE TABLE analytics.t (\n  date date,\n  \"trim\" varchar,\n  \"1c\" varchar\n)\n\
         WITH (\n  partitioning = ARRAY['date', 'truncate(trim, 4)']\n)"
    );
    // A name with a digit first has no plain spelling there.
    let digit = TableDef::builder("analytics", "t")
        .column(Column::new("1c", IcebergType::String))
        .partition(PartitionField::identity("1c"))
        .build()
        .unwrap();
    let e = digit.create_table().build_for(Dialect::Trino).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnquotableIdentifier);
    assert_eq!(
        e.message(),
        "partition source `1c` cannot be written in a partitioning string (`partitioning = ARRAY['…']`): \
         Trino's Iceberg connector in Athena reads a column there only as [a-z_][a-z0-9_]*, with no quoting"
    );
}

#[test]
fn day_on_a_string_is_rejected() {
    let e = one_column("name", IcebergType::String)
        .with(|b| b.partition(PartitionField::new("name", PartitionTransform::Day)))
        .err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    assert_eq!(
        e.message(),
        "partition `day(name)`: day() cannot be applied to column `name` of type string; it takes date or timestamp"
    );
}

/// Iceberg reads a bucket count or truncate width as a 32-bit integer: a larger one is
/// refused (it was written, and the engine could not read it).
#[test]
fn partition_numbers_beyond_a_32_bit_integer_are_rejected() {
    let table = |t: PartitionTransform| {
        TableDef::builder("analytics", "t")
            .column(Column::new("id", IcebergType::Long))
            .partition(PartitionField::new("id", t))
            .location("s3://lake-bucket/t/")
            .build()
    };
    let max = i32::MAX.unsigned_abs();
    for t in [
        PartitionTransform::Bucket(max),
        PartitionTransform::Truncate(max),
    ] {
        assert!(table(t).is_ok());
    }
    let e = table(PartitionTransform::Bucket(max + 1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    assert_eq!(
        e.message(),
        "partition `bucket(2147483648, id)`: the number must be at most 2147483647 (Iceberg reads it as a 32-bit integer)"
    );
    let e = table(PartitionTransform::Truncate(u32::MAX)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
}

#[test]
fn bucket_on_a_double_is_rejected() {
    let e = one_column("score", IcebergType::Double)
        .with(|b| b.partition(PartitionField::new("score", PartitionTransform::Bucket(16))))
        .err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    assert!(
        e.message()
            .contains("bucket() cannot be applied to column `score` of type double"),
        "{e}"
    );
}

#[test]
fn other_partition_rules() {
    let e = one_column("d", IcebergType::Date)
        .with(|b| b.partition(PartitionField::new("d", PartitionTransform::Hour)))
        .err();
    assert!(e.message().contains("it takes timestamp"), "{e}");
    let e = one_column("d", IcebergType::Date)
        .with(|b| b.partition(PartitionField::identity("missing")))
        .err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    assert_eq!(
        e.message(),
        "partition `missing` names no column of table `analytics.t`"
    );
    let e = one_column("n", IcebergType::Long)
        .with(|b| b.partition(PartitionField::new("n", PartitionTransform::Bucket(0))))
        .err();
    assert!(e.message().contains("at least 1"), "{e}");
    let e = one_column("ts", IcebergType::Timestamp)
        .with(|b| {
            b.partition(PartitionField::new("ts", PartitionTransform::Day))
                .partition(PartitionField::new("ts", PartitionTransform::Hour))
        })
        .err();
    assert_eq!(
        e.message(),
        "partitions `day(ts)` and `hour(ts)` are redundant: Iceberg allows one time transform per column"
    );
    let e = one_column("s", IcebergType::structure([("a", IcebergType::Int)]))
        .with(|b| b.partition(PartitionField::identity("s")))
        .err();
    assert!(e.message().contains("it takes any primitive type"), "{e}");
}

/// Iceberg names each partition field of a new table after its column and transform
/// (`id_bucket`, `s_trunc`, `ts_day`: `PartitionSpec.Builder` in apache/iceberg) and
/// refuses a name twice or a name that is a column's. Spark 3.5 + Iceberg 1.10 refuses
/// `PARTITIONED BY (bucket(16, id), bucket(8, id))` ("Found duplicate column(s) in the
/// partitioning") and a `ts_day` column beside `days(ts)` ("Cannot create partition from
/// name that exists in schema: ts_day"); Trino's connector before release 451 refuses
/// both ("Unable to parse partitioning value"). A live table can hold such a spec (partition
/// evolution names a second bucket `id_bucket_8`), so the definition builds and only
/// CREATE TABLE refuses it.
#[test]
fn partition_field_names_a_new_table_cannot_have() {
    let table = |parts: &[PartitionField], extra: Option<&str>| {
        let mut b = TableDef::builder("analytics", "t")
            .column(Column::new("id", IcebergType::Long))
            .column(Column::new("s", IcebergType::String))
            .column(Column::new("ts", IcebergType::Timestamp))
            .location("s3://bucket/t/");
        if let Some(c) = extra {
            b = b.column(Column::new(c, IcebergType::Date));
        }
        for p in parts {
            b = b.partition(p.clone());
        }
        b.build().expect("a live table may have this spec")
    };
    let bucket = |n| PartitionField::new("id", PartitionTransform::Bucket(n));
    let truncate = |n| PartitionField::new("s", PartitionTransform::Truncate(n));
    let day = PartitionField::new("ts", PartitionTransform::Day);
    for d in [Dialect::Athena, Dialect::Spark, Dialect::Trino] {
        let e = table(&[bucket(16), bucket(8)], None)
            .create_table()
            .build_for(d)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidPartition);
        assert_eq!(
            e.message(),
            "partitions `bucket(16, id)` and `bucket(8, id)` would both be named `id_bucket`; \
             Iceberg names a partition field after its column and transform, not the number, \
             and refuses a name twice"
        );
        assert_eq!(
            e.hint(),
            Some("keep one bucket (or truncate) width per column")
        );
        let e = table(&[truncate(4), truncate(8)], None)
            .create_table()
            .build_for(d)
            .unwrap_err();
        assert!(e.message().contains("would both be named `s_trunc`"), "{e}");
        let e = table(std::slice::from_ref(&day), Some("ts_day"))
            .create_table()
            .build_for(d)
            .unwrap_err();
        assert_eq!(
            e.message(),
            "partition `day(ts)` would be named `ts_day`, which is the name of a column; \
             Iceberg refuses a partition field named like a column"
        );
        assert_eq!(e.hint(), Some("rename column `ts_day`"));
        // Distinct names: an identity field is named as its column, a bucket and a
        // truncate of one column get different suffixes.
        let ok = table(
            &[
                PartitionField::identity("s"),
                truncate(4),
                bucket(16),
                day.clone(),
            ],
            Some("ts_date"),
        );
        assert!(ok.create_table().build_for(d).is_ok(), "{d:?}");
    }
}

/// The Glue Data Catalog stores a column comment of at most 255 characters and a table
/// description of at most 2048 (AWS Glue API reference, `Column` and `TableInput`);
/// Athena's DDL fails with Glue's validation error beyond that.
#[test]
fn comments_longer_than_glue_stores_are_rejected() {
    let e = TableDef::builder("analytics", "t")
        .column(Column::new("x", IcebergType::Long).comment("c".repeat(256)))
        .location("s3://bucket/t/")
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert_eq!(
        e.message(),
        "comment of column `x` is 256 characters long; the Glue Data Catalog, where Athena keeps it, stores at most 255"
    );
    assert_eq!(e.hint(), Some("shorten it to 255 characters"));
    // Counted in UTF-16 units: 128 emoji are 256.
    assert!(TableDef::builder("analytics", "t")
        .column(Column::new("x", IcebergType::Long).comment("\u{1F600}".repeat(128)))
        .location("s3://bucket/t/")
        .build()
        .is_err());
    assert!(TableDef::builder("analytics", "t")
        .column(Column::new("x", IcebergType::Long).comment("é".repeat(255)))
        .location("s3://bucket/t/")
        .build()
        .is_ok());
    let e = TableDef::builder("analytics", "t")
        .column(Column::new("x", IcebergType::Long))
        .comment("t".repeat(2049))
        .location("s3://bucket/t/")
        .build()
        .unwrap_err();
    assert_eq!(
        e.message(),
        "table comment is 2049 characters long; the Glue Data Catalog, where Athena keeps it, stores at most 2048"
    );
}

#[test]
fn decimal_39_is_rejected() {
    let e = one_column("amount", IcebergType::decimal(39, 0)).err();
    assert_eq!(e.kind(), ErrorKind::InvalidType);
    assert_eq!(
        e.message(),
        "column `amount`: decimal(39,0) has precision 39; Athena allows 1 to 38"
    );
}

#[test]
fn timestamptz_is_readable_but_not_creatable_on_athena() {
    let t = one_column("ts", IcebergType::TimestampTz)
        .0
        .build()
        .expect("a live table may have it");
    let e = t.create_table().build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidType);
    assert!(
        e.message()
            .contains("timestamptz cannot be declared in Athena DDL"),
        "{e}"
    );
    // Spark can declare it (as Spark `timestamp`).
    assert!(t
        .create_table()
        .build_for(Dialect::Spark)
        .unwrap()
        .sql()
        .contains("ts timestamp\n"));
}

#[test]
fn unknown_property_is_rejected() {
    let e = one_column("a", IcebergType::Int)
        .with(|b| b.property_str("write.format.default", "parquet"))
        .err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    assert_eq!(
        e.message(),
        "unknown table property `write.format.default`: Athena rejects custom properties on Iceberg tables"
    );
    let e = one_column("a", IcebergType::Int)
        .with(|b| b.property_str("vacuum_max_snapshot_age_ms", "259200"))
        .err();
    assert_eq!(
        e.hint(),
        Some("the property is `vacuum_max_snapshot_age_seconds`")
    );
}

#[test]
fn out_of_range_property_is_rejected() {
    let e = one_column("a", IcebergType::Int)
        .with(|b| b.property_str("optimize_rewrite_data_file_threshold", "50"))
        .err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    assert_eq!(
        e.message(),
        "property `optimize_rewrite_data_file_threshold` = 50 is out of range; Athena allows 1 to 49"
    );
    let e = one_column("a", IcebergType::Int)
        .with(|b| b.property_str("vacuum_min_snapshots_to_keep", "-1"))
        .err();
    assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    let e = one_column("a", IcebergType::Int)
        .with(|b| b.property_str("write_compression", "lz4"))
        .err();
    assert_eq!(
        e.message(),
        "property `write_compression` = lz4 is not supported for parquet files"
    );
    let e = one_column("a", IcebergType::Int)
        .with(|b| b.property_str("write_compression", "bzip2"))
        .err();
    assert!(e.hint().unwrap().contains("BZIP2 is not supported"), "{e}");
}

#[test]
fn location_at_a_bucket_root_is_rejected() {
    for root in [
        "s3://my-datalake",
        "s3://my-datalake/",
        "s3://my-datalake//",
    ] {
        let e = Location::parse(root).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidLocation);
        assert!(e.message().contains("is a bucket root"), "{root}: {e}");
    }
    let e = Location::parse("/tmp/warehouse/t").unwrap_err();
    assert!(e.message().contains("is not an s3:// URI"), "{e}");
    let e = Location::parse("s3://bucket/it's").unwrap_err();
    assert!(e.message().contains("cannot be written safely"), "{e}");
    // Athena's CREATE TABLE requires a location.
    let t = TableDef::builder("a", "t")
        .column(Column::new("x", IcebergType::Int))
        .build()
        .unwrap();
    assert_eq!(
        t.create_table().build().unwrap_err().kind(),
        ErrorKind::InvalidLocation
    );
}

#[test]
fn text_too_long_for_the_query_limit_is_rejected() {
    let t = one_column("a", IcebergType::Int).0.build().unwrap();
    // Each comment within Glue's 255 characters, together over the query limit.
    let cols: Vec<Column> = (0..MAX_QUERY_BYTES / 255 + 1)
        .map(|i| Column::new(format!("c{i}"), IcebergType::Int).comment("x".repeat(255)))
        .collect();
    let big = TableDef::builder("analytics", "t")
        .columns(cols)
        .location("s3://bucket/t/")
        .build()
        .unwrap();
    let e = big.create_table().build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::QueryTooLong);
    assert!(
        e.message()
            .contains("Athena accepts at most 262144 bytes per query"),
        "{e}"
    );
    assert!(t.create_table().build().is_ok());
}

#[test]
fn ddl_comment_with_a_quote_is_rejected() {
    let e = TableDef::builder("analytics", "t")
        .column(Column::new("a", IcebergType::Int).comment("it's"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidValue);
    assert!(
        e.message().contains("comment of column `a` contains '\\''"),
        "{e}"
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let e = TableDef::builder("analytics", "t")
        .column(Column::new("Bad", IcebergType::Int))
        .column(Column::new("a", IcebergType::decimal(40, 2)))
        .column(Column::new("a", IcebergType::Int))
        .partition(PartitionField::new("a", PartitionTransform::Year))
        .property_str("colour", "blue")
        .location("s3://bucket")
        .build()
        .unwrap_err();
    let kinds: Vec<ErrorKind> = e.all().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        [
            ErrorKind::InvalidIdentifier,
            ErrorKind::InvalidType,
            ErrorKind::InvalidTable,
            ErrorKind::InvalidPartition,
            ErrorKind::InvalidProperty,
            ErrorKind::InvalidLocation,
        ]
    );
}

/// The type string the Glue Data Catalog stores for a column (`Column.Type`) in its
/// shortest spelling, written here independently of the crate: Hive names,
/// `struct<a:int,b:string>` without spaces.
fn glue_type(ty: &IcebergType) -> String {
    match ty {
        IcebergType::Long => "bigint".into(),
        IcebergType::String => "string".into(),
        IcebergType::Timestamp => "timestamp".into(),
        IcebergType::Decimal { precision, scale } => format!("decimal({precision},{scale})"),
        IcebergType::List(e) => format!("array<{}>", glue_type(e)),
        IcebergType::Map(k, v) => format!("map<{},{}>", glue_type(k), glue_type(v)),
        IcebergType::Struct(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .map(|f| format!("{}:{}", f.name, glue_type(&f.ty)))
                .collect();
            format!("struct<{}>", inner.join(","))
        }
        other => panic!("not used here: {other:?}"),
    }
}

/// A struct whose Glue type string is exactly `chars` characters long.
fn struct_of_glue_length(chars: usize) -> IcebergType {
    let field = |name: String| StructField::new(name, IcebergType::String);
    // `struct<` `>`, then `f00001:string` (13) per field and a comma between.
    let mut fields: Vec<StructField> = (0..(chars - 8) / 14)
        .map(|i| field(format!("f{i:05}")))
        .collect();
    let ty = IcebergType::Struct(fields.clone());
    let short = chars - glue_type(&ty).len();
    fields.push(field(format!("g{}", "x".repeat(short - "g:string,".len()))));
    let ty = IcebergType::Struct(fields);
    assert_eq!(glue_type(&ty).len(), chars);
    ty
}

/// Glue stores a column type of at most 131072 characters (AWS Glue API reference,
/// `Column.Type`): a wider struct fails Athena's CREATE TABLE and ADD COLUMNS in Glue, so
/// both are refused; Spark's catalog has no such limit.
#[test]
fn a_column_type_longer_than_glue_stores_is_refused_on_athena() {
    let at_limit = struct_of_glue_length(131_072);
    let beyond = struct_of_glue_length(131_073);
    let table = |ty: &IcebergType| {
        TableDef::builder("analytics", "wide")
            .column(Column::new("id", IcebergType::Long))
            .column(Column::new("payload", ty.clone()))
            .location("s3://bucket/wide/")
            .build()
            .expect("the model has no such limit")
    };
    // (No `unwrap_err`: an accepted statement would print 131 kB of SQL.)
    let refused = |r: Result<Statement, Error>| match r {
        Ok(_) => panic!("a type of 131073 characters was accepted"),
        Err(e) => e,
    };
    let message = "column `payload`: its type is 131073 characters long as the Glue Data \
                   Catalog stores it (`struct<name:type,...>`); Glue stores at most 131072 per column";

    let create = table(&at_limit).create_table().build();
    assert!(create.is_ok(), "{create:?}");
    let e = refused(table(&beyond).create_table().build());
    assert_eq!(e.kind(), ErrorKind::InvalidType);
    assert_eq!(e.message(), message);
    assert!(e.hint().is_some_and(|h| h.contains("several columns")));
    assert!(table(&beyond)
        .create_table()
        .build_for(Dialect::Spark)
        .is_ok());

    let narrow = TableDef::builder("analytics", "wide")
        .column(Column::new("id", IcebergType::Long))
        .location("s3://bucket/wide/")
        .build()
        .unwrap();
    let add = |ty: &IcebergType, d: Dialect| {
        narrow
            .alter()
            .add_columns([Column::new("payload", ty.clone())])
            .build_for(d)
    };
    assert!(add(&at_limit, Dialect::Athena).is_ok());
    let e = refused(add(&beyond, Dialect::Athena));
    assert_eq!(e.message(), message);
    assert!(add(&beyond, Dialect::Spark).is_ok());

    // Nested: the whole column's string counts, arrays and decimals included.
    let nested = IcebergType::list(IcebergType::structure([
        ("amount", IcebergType::decimal(38, 10)),
        ("at", IcebergType::Timestamp),
        (
            "tags",
            IcebergType::map(IcebergType::String, IcebergType::list(IcebergType::Long)),
        ),
        ("rest", beyond.clone()),
    ]));
    let e = refused(table(&nested).create_table().build());
    assert!(
        e.message().contains(&format!(
            "its type is {} characters long",
            glue_type(&nested).len()
        )),
        "{e}"
    );
}
