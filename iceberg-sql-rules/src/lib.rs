//! The rules `iceberg-sql` checks when it builds a table definition and that
//! `#[derive(IcebergTable)]` checks at compile time: names, DDL text, locations, table
//! properties and partition transforms. One crate, so that the two cannot drift apart
//! (the derive cannot depend on `iceberg-sql`, which depends on it).
//!
//! Every check returns *what* is wrong as a value; the caller words the error (a
//! runtime [`iceberg_sql::Error`] with a hint, or a compile error on the offending
//! token).
//!
//! [`iceberg_sql::Error`]: https://docs.rs/iceberg-sql

#![warn(missing_docs)]

pub mod type_name;

// ---- names ---------------------------------------------------------------------------

/// Longest name Athena accepts, in bytes.
pub const MAX_NAME_BYTES: usize = 255;

/// Why Athena would reject or silently change a database, table or column name
/// (Athena folds names to lower case and supports only `[a-z0-9_]`, at most 255 bytes:
/// <https://docs.aws.amazon.com/athena/latest/ug/tables-databases-columns-names.html>).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameProblem {
    /// The name is empty.
    Empty,
    /// The name is this many bytes long.
    TooLong(usize),
    /// The name has upper case letters, which Athena folds to lower case.
    UpperCase,
    /// The name has this character, which Athena does not support in names.
    BadChar(char),
}

/// Checks that `name` is a name Athena stores unchanged: 1 to 255 bytes of `[a-z0-9_]`.
pub fn check_name(name: &str) -> Result<(), NameProblem> {
    if name.is_empty() {
        return Err(NameProblem::Empty);
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(NameProblem::TooLong(name.len()));
    }
    // The usual name is all `[a-z0-9_]`: one pass over its bytes (any other byte, UTF-8
    // included, goes to the search below, which names the offending character).
    if name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Ok(());
    }
    match name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))
    {
        Some(c) if c.is_uppercase() => Err(NameProblem::UpperCase),
        Some(c) => Err(NameProblem::BadChar(c)),
        None => Ok(()),
    }
}

/// A lower-snake-case version of `name` with only `[a-z0-9_]`, for hints
/// (`EventTs` -> `event_ts`).
pub fn suggest_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
            prev_lower = true;
        } else {
            if !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        "col".to_string()
    } else {
        trimmed.chars().take(MAX_NAME_BYTES).collect()
    }
}

// ---- DDL text ------------------------------------------------------------------------

/// The first character of `text` that a DDL string literal (comment, location,
/// property) cannot hold: a quote, a backslash or a control character. Athena's Hive
/// DDL lexer documents no escaping, so such text is refused rather than escaped.
pub fn ddl_text_problem(text: &str) -> Option<char> {
    text.chars()
        .find(|c| *c == '\'' || *c == '\\' || c.is_control())
}

/// The length of `text` as an AWS API length constraint ("Maximum length of 255") is
/// checked: in UTF-16 code units. The services are Java, whose string length that is;
/// the Smithy model's reading (Unicode scalar values) never counts more, so a text
/// within this count is within the limit on either reading.
pub fn aws_length(text: &str) -> usize {
    text.encode_utf16().count()
}

/// What a comment describes; the Glue Data Catalog, where Athena keeps it, stores each
/// kind in a field with its own length limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentOf {
    /// A column (Glue `Column.Comment`).
    Column,
    /// A table (Glue `TableInput.Description`).
    Table,
    /// A database (Glue `DatabaseInput.Description`).
    Database,
}

/// The longest comment Glue stores for `of`, in characters: 255 for a column, 2048 for a
/// table or a database (AWS Glue API reference: `Column`
/// <https://docs.aws.amazon.com/glue/latest/webapi/API_Column.html>, `TableInput`,
/// `DatabaseInput`). A longer one fails the DDL statement with Glue's validation error.
pub const fn max_comment_chars(of: CommentOf) -> usize {
    match of {
        CommentOf::Column => 255,
        CommentOf::Table | CommentOf::Database => 2048,
    }
}

/// The longest column type Glue stores, in characters: `Column.Type` is a string of at
/// most 131072 (AWS Glue API reference, `Column`
/// <https://docs.aws.amazon.com/glue/latest/webapi/API_Column.html>). Athena keeps every
/// column of a table in Glue, so a DDL statement declaring a longer type fails with
/// Glue's validation error.
pub const MAX_GLUE_COLUMN_TYPE_CHARS: usize = 131_072;

/// Why `text` cannot be a comment of `of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentProblem {
    /// A character DDL strings cannot hold ([`ddl_text_problem`]).
    BadChar(char),
    /// The comment is `chars` characters long, more than `max`. Characters are counted
    /// as UTF-16 code units (Glue's service is Java, whose string length that is), so a
    /// character outside the Basic Multilingual Plane counts twice: the count no reading
    /// of the limit exceeds.
    TooLong {
        /// The comment's length.
        chars: usize,
        /// The limit.
        max: usize,
    },
}

/// Checks `text` as a comment of `of`: a DDL string ([`ddl_text_problem`]) no longer
/// than [`max_comment_chars`].
pub fn comment_problem(of: CommentOf, text: &str) -> Option<CommentProblem> {
    if let Some(c) = ddl_text_problem(text) {
        return Some(CommentProblem::BadChar(c));
    }
    let chars = aws_length(text);
    let max = max_comment_chars(of);
    (chars > max).then_some(CommentProblem::TooLong { chars, max })
}

// ---- locations -----------------------------------------------------------------------

/// Why a table location is not an S3 folder Athena can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocationProblem {
    /// It has a character a DDL string literal cannot hold.
    BadChar(char),
    /// It does not start with `s3://`.
    NotS3,
    /// It has no bucket name.
    NoBucket,
    /// Its bucket name is not 3-63 characters of `a-z`, `0-9`, `-` and `.`.
    BadBucket(String),
    /// It is a bucket root: Athena needs a folder (VACUUM fails on a bucket root).
    BucketRoot,
    /// It has an empty path segment (`//`).
    EmptySegment,
}

/// Checks that `uri` is an S3 folder (`s3://bucket/folder/...`), never a bucket root.
pub fn check_location(uri: &str) -> Result<(), LocationProblem> {
    if let Some(c) = ddl_text_problem(uri) {
        return Err(LocationProblem::BadChar(c));
    }
    let Some(rest) = uri.strip_prefix("s3://") else {
        return Err(LocationProblem::NotS3);
    };
    let (bucket, path) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        return Err(LocationProblem::NoBucket);
    }
    if !bucket
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        || bucket.len() < 3
        || bucket.len() > 63
    {
        return Err(LocationProblem::BadBucket(bucket.to_string()));
    }
    if path.trim_matches('/').is_empty() {
        return Err(LocationProblem::BucketRoot);
    }
    if path.contains("//") {
        return Err(LocationProblem::EmptySegment);
    }
    Ok(())
}

/// The longest S3 object key: its UTF-8 encoding is at most 1,024 bytes (Amazon S3 User
/// Guide, "Naming Amazon S3 objects"
/// <https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html>).
pub const MAX_S3_KEY_BYTES: usize = 1024;

/// The bytes an Iceberg table's first metadata file adds to its location's key (after
/// the location's `/`): `metadata/00000-<36-character UUID>.metadata.json`. Trino's
/// Iceberg connector, which Athena engine v3 runs, names it so (trinodb/trino,
/// `plugin/trino-iceberg/.../catalog/AbstractIcebergTableOperations.java`,
/// `newTableMetadataFilePath`: `%05d-<uuid>` plus `.metadata.json`, in
/// `metadataFileLocation`'s `<location>/metadata/`), as does Iceberg's own library;
/// every later metadata, manifest and data file name is at least as long.
pub const ICEBERG_METADATA_FILE_KEY_BYTES: usize =
    "metadata/00000-".len() + 36 + ".metadata.json".len();

/// The longest database location Glue stores, in characters: `DatabaseInput.LocationUri`
/// is a string of at most 1024 (AWS Glue API reference, `DatabaseInput`
/// <https://docs.aws.amazon.com/glue/latest/webapi/API_DatabaseInput.html>), the whole
/// URI, `s3://` and bucket included.
pub const MAX_GLUE_DATABASE_LOCATION_CHARS: usize = 1024;

/// What is written beneath a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocationHolds {
    /// An Iceberg table: its metadata files at least ([`ICEBERG_METADATA_FILE_KEY_BYTES`]).
    IcebergTable,
    /// Data files of undocumented names (UNLOAD, a Hive CTAS): a name of one byte at least.
    Files,
}

/// When the objects written beneath `uri` (`s3://bucket/key/`) cannot have a key of at
/// most [`MAX_S3_KEY_BYTES`]: `Some((key_bytes, max_key_bytes))`, the location's key with
/// one trailing `/` and the longest key that leaves room for what it holds.
pub fn location_key_too_long(uri: &str, holds: LocationHolds) -> Option<(usize, usize)> {
    let rest = uri.strip_prefix("s3://")?;
    let (_, key) = rest.split_once('/')?;
    let key_bytes = key.trim_end_matches('/').len() + 1;
    let beneath = match holds {
        LocationHolds::IcebergTable => ICEBERG_METADATA_FILE_KEY_BYTES,
        LocationHolds::Files => 1,
    };
    let max = MAX_S3_KEY_BYTES - beneath;
    (key_bytes > max).then_some((key_bytes, max))
}

// ---- table properties ----------------------------------------------------------------

/// Every Iceberg table property key Athena accepts, in the order they are rendered
/// (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-creating-tables.html>).
pub const PROPERTY_KEYS: &[&str] = &[
    "format",
    "write_compression",
    "optimize_rewrite_data_file_threshold",
    "optimize_rewrite_delete_file_threshold",
    "vacuum_min_snapshots_to_keep",
    "vacuum_max_snapshot_age_seconds",
    "vacuum_max_metadata_files_to_keep",
    "write_data_path_enabled",
];

/// The file formats of `'format'`.
pub const FORMATS: &[&str] = &["parquet", "orc", "avro"];

/// The codecs of `'write_compression'` (`uncompressed` is read as `none`).
pub const CODECS: &[&str] = &["gzip", "snappy", "zstd", "lz4", "zlib", "none"];

/// The codecs Athena accepts for `format`, in rendering order.
pub fn compressions(format: &str) -> &'static [&'static str] {
    match format {
        "orc" => &["lz4", "snappy", "zlib", "zstd", "none"],
        _ => &["gzip", "snappy", "zstd", "none"],
    }
}

/// The checked value of a table property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropertyValue {
    /// A file format (one of [`FORMATS`]).
    Format(&'static str),
    /// A codec (one of [`CODECS`]).
    Codec(&'static str),
    /// A count or duration in its allowed range.
    Number(u64),
    /// A flag.
    Flag(bool),
}

/// Why a property key or value is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropertyProblem {
    /// Not one of [`PROPERTY_KEYS`]; Athena rejects custom properties on Iceberg tables.
    UnknownKey,
    /// `table_type`: always `'ICEBERG'`, written by the renderer.
    TableType,
    /// `vacuum_max_snapshot_age_ms`: the property is `vacuum_max_snapshot_age_seconds`.
    SecondsNotMs,
    /// Not a file format.
    NotAFormat,
    /// Not a codec Athena supports for Iceberg (BZIP2 is not).
    NotACodec,
    /// Not a positive integer that fits the property.
    NotANumber,
    /// A number outside the allowed range, described here (`"1 to 49"`).
    OutOfRange(&'static str),
    /// Not `true` or `false`.
    NotAFlag,
}

/// The most seconds `vacuum_max_snapshot_age_seconds` takes: Iceberg stores the age in
/// milliseconds as a 64-bit integer (about 292 million years).
pub const MAX_SNAPSHOT_AGE_SECONDS: u64 = i64::MAX.unsigned_abs() / 1000;

/// Checks one `key = value` property as written in TBLPROPERTIES (or a derive
/// attribute): the key, and the value's form and range.
pub fn check_property(key: &str, value: &str) -> Result<PropertyValue, PropertyProblem> {
    let lower = value.to_ascii_lowercase();
    // A positive integer of at most `max`; a larger one does not fit the property.
    let positive = |max: u64| match value.trim().parse::<u64>() {
        Ok(n) if n > max => Err(PropertyProblem::NotANumber),
        Ok(0) => Err(PropertyProblem::OutOfRange("a positive integer")),
        Ok(n) => Ok(PropertyValue::Number(n)),
        Err(_) => Err(PropertyProblem::NotANumber),
    };
    match key {
        "format" => FORMATS
            .iter()
            .find(|f| **f == lower)
            .map(|f| PropertyValue::Format(f))
            .ok_or(PropertyProblem::NotAFormat),
        "write_compression" => {
            let codec = if lower == "uncompressed" {
                "none"
            } else {
                &lower
            };
            CODECS
                .iter()
                .find(|c| **c == codec)
                .map(|c| PropertyValue::Codec(c))
                .ok_or(PropertyProblem::NotACodec)
        }
        "optimize_rewrite_data_file_threshold" | "optimize_rewrite_delete_file_threshold" => {
            match value.trim().parse::<u32>() {
                Ok(n) if (1..50).contains(&n) => Ok(PropertyValue::Number(u64::from(n))),
                Ok(_) => Err(PropertyProblem::OutOfRange("1 to 49")),
                Err(_) => Err(PropertyProblem::NotANumber),
            }
        }
        // Counts Iceberg reads as a Java `int` (`history.expire.min-snapshots-to-keep`,
        // `write.metadata.previous-versions-max`, `PropertyUtil.propertyAsInt`): a larger
        // number does not parse.
        "vacuum_min_snapshots_to_keep" | "vacuum_max_metadata_files_to_keep" => {
            match positive(u64::from(u32::MAX))? {
                PropertyValue::Number(n) if n > i32::MAX.unsigned_abs().into() => Err(
                    PropertyProblem::OutOfRange("1 to 2147483647 (a 32-bit integer)"),
                ),
                number => Ok(number),
            }
        }
        // Iceberg keeps the age in milliseconds as a 64-bit long
        // (`history.expire.max-snapshot-age-ms`, read with `PropertyUtil.propertyAsLong`
        // in apache/iceberg core/src/main/java/org/apache/iceberg/RemoveSnapshots.java):
        // more seconds than that do not convert.
        "vacuum_max_snapshot_age_seconds" => match positive(u64::MAX)? {
            PropertyValue::Number(n) if n > MAX_SNAPSHOT_AGE_SECONDS => {
                Err(PropertyProblem::OutOfRange(
                    "1 to 9223372036854775 (seconds whose milliseconds fit a 64-bit integer)",
                ))
            }
            number => Ok(number),
        },
        "write_data_path_enabled" => match lower.as_str() {
            "true" => Ok(PropertyValue::Flag(true)),
            "false" => Ok(PropertyValue::Flag(false)),
            _ => Err(PropertyProblem::NotAFlag),
        },
        "table_type" => Err(PropertyProblem::TableType),
        "vacuum_max_snapshot_age_ms" => Err(PropertyProblem::SecondsNotMs),
        _ => Err(PropertyProblem::UnknownKey),
    }
}

// ---- partition transforms ------------------------------------------------------------

/// The kind of a partition source column's type, as far as the transform rules care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// boolean
    Boolean,
    /// int
    Int,
    /// long
    Long,
    /// float
    Float,
    /// double
    Double,
    /// decimal(p, s)
    Decimal,
    /// date
    Date,
    /// timestamp (without zone)
    Timestamp,
    /// timestamptz
    TimestampTz,
    /// string
    String,
    /// binary
    Binary,
    /// list, map or struct
    Nested,
}

/// Whether partition transform `transform` (`identity`, `year`, `month`, `day`, `hour`,
/// `bucket`, `truncate`) takes a source column of kind `kind`, per the Iceberg spec's
/// "Partition Transforms" (<https://iceberg.apache.org/spec/#partition-transforms>).
/// Unknown transform names are accepted (their spelling is checked elsewhere).
pub const fn transform_accepts(transform: &str, kind: TypeKind) -> bool {
    use TypeKind as K;
    match transform.as_bytes() {
        b"identity" => !matches!(kind, K::Nested),
        b"year" | b"month" | b"day" => matches!(kind, K::Date | K::Timestamp | K::TimestampTz),
        b"hour" => matches!(kind, K::Timestamp | K::TimestampTz),
        b"bucket" => matches!(
            kind,
            K::Int
                | K::Long
                | K::Decimal
                | K::Date
                | K::Timestamp
                | K::TimestampTz
                | K::String
                | K::Binary
        ),
        b"truncate" => matches!(kind, K::Int | K::Long | K::Decimal | K::String | K::Binary),
        _ => true,
    }
}

/// The source types `transform` takes, for messages.
pub fn transform_takes(transform: &str) -> &'static str {
    match transform {
        "identity" => "any primitive type",
        "year" | "month" | "day" => "date or timestamp",
        "hour" => "timestamp",
        "bucket" => "int, long, decimal, date, timestamp, string or binary",
        _ => "int, long, decimal, string or binary",
    }
}

// ---- partition specs -----------------------------------------------------------------

/// One field of a partition spec: its source column, its transform (`identity`, `year`,
/// `month`, `day`, `hour`, `bucket`, `truncate`) and the transform's number, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecField<'a> {
    /// The source column.
    pub source: &'a str,
    /// The transform's name.
    pub transform: &'a str,
    /// `N` of `bucket(N, col)`, `W` of `truncate(W, col)`.
    pub arg: Option<u32>,
}

/// The name Iceberg gives a partition field when a table is created with it: the
/// source column for `identity`, otherwise the column and a suffix (`ts_day`,
/// `id_bucket`, `name_trunc`): the default names of `PartitionSpec.Builder`
/// (`api/src/main/java/org/apache/iceberg/PartitionSpec.java` in apache/iceberg), which
/// Spark's `PARTITIONED BY`, Trino's `partitioning` and Athena's DDL use, and under which
/// the `$partitions` table shows the field. The number of a bucket or truncate is not in
/// the name.
pub fn partition_field_name(source: &str, transform: &str) -> String {
    let suffix = match transform {
        "identity" => return source.to_string(),
        "truncate" => "trunc",
        other => other,
    };
    format!("{source}_{suffix}")
}

/// Why Iceberg refuses a field of a new table's partition spec (`PartitionSpec.Builder`
/// in apache/iceberg: `checkForRedundantPartitions` and `checkAndAddPartitionName`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecProblem {
    /// The same field comes earlier in the spec, at this index.
    Twice(usize),
    /// Another time transform (`year`, `month`, `day`, `hour`) of the same column comes
    /// earlier, at this index: "Cannot add redundant partition".
    RedundantTime(usize),
    /// The field's name (here) is the name of the earlier field at `other`: two buckets
    /// or two truncates of one column ("Cannot use partition name more than once").
    NameTaken {
        /// The name both fields get.
        name: String,
        /// Index of the earlier field.
        other: usize,
    },
    /// The field's name (here) is the name of a column: "Cannot create partition from
    /// name that exists in schema".
    NameIsColumn(String),
}

/// Checks a new table's partition spec against Iceberg's rules for a spec: no field
/// twice, one time transform per column, and every field's
/// [name](partition_field_name) distinct from the other fields' and, unless it is an
/// identity field, from every column name in `columns`. Returns each refused field's
/// index with why, in spec order; transforms against source types are checked by
/// [`transform_accepts`].
pub fn check_partition_spec(
    fields: &[SpecField<'_>],
    columns: &[&str],
) -> Vec<(usize, SpecProblem)> {
    let is_time = |t: &str| matches!(t, "year" | "month" | "day" | "hour");
    let names: Vec<String> = fields
        .iter()
        .map(|f| partition_field_name(f.source, f.transform))
        .collect();
    let mut problems = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let earlier = &fields[..i];
        let problem = if let Some(j) = earlier.iter().position(|e| e == f) {
            Some(SpecProblem::Twice(j))
        } else if let Some(j) = earlier
            .iter()
            .position(|e| e.source == f.source && is_time(e.transform) && is_time(f.transform))
        {
            Some(SpecProblem::RedundantTime(j))
        } else if f.transform != "identity" && columns.contains(&names[i].as_str()) {
            Some(SpecProblem::NameIsColumn(names[i].clone()))
        } else {
            names[..i]
                .iter()
                .position(|n| *n == names[i])
                .map(|j| SpecProblem::NameTaken {
                    name: names[i].clone(),
                    other: j,
                })
        };
        if let Some(p) = problem {
            problems.push((i, p));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(check_name("event_ts"), Ok(()));
        assert_eq!(check_name("EventTs"), Err(NameProblem::UpperCase));
        assert_eq!(check_name("a-b"), Err(NameProblem::BadChar('-')));
        assert_eq!(check_name(""), Err(NameProblem::Empty));
        assert_eq!(check_name(&"a".repeat(256)), Err(NameProblem::TooLong(256)));
        assert_eq!(check_name(&"a".repeat(255)), Ok(()));
        assert_eq!(suggest_name("EventTs"), "event_ts");
        assert_eq!(suggest_name("--"), "col");
    }

    #[test]
    fn location_keys_leave_room_for_what_is_written_beneath() {
        assert_eq!(ICEBERG_METADATA_FILE_KEY_BYTES, 65);
        let uri = |key: &str| format!("s3://lake/{key}");
        let k = |n: usize| "k".repeat(n);
        let iceberg = LocationHolds::IcebergTable;
        // The key is counted with one trailing `/`, written or not.
        assert_eq!(location_key_too_long(&uri(&k(958)), iceberg), None);
        assert_eq!(location_key_too_long(&uri(&(k(958) + "/")), iceberg), None);
        assert_eq!(
            location_key_too_long(&uri(&k(959)), iceberg),
            Some((960, 959))
        );
        // Bytes of UTF-8: 479 two-byte characters and the `/` are 959 bytes.
        assert_eq!(location_key_too_long(&uri(&"é".repeat(479)), iceberg), None);
        assert_eq!(
            location_key_too_long(&uri(&("é".repeat(479) + "a")), iceberg),
            Some((960, 959))
        );
        let files = LocationHolds::Files;
        assert_eq!(location_key_too_long(&uri(&k(1022)), files), None);
        assert_eq!(
            location_key_too_long(&uri(&k(1023)), files),
            Some((1024, 1023))
        );
        // Not an S3 folder: `check_location` reports it.
        assert_eq!(location_key_too_long("s3://lake", files), None);
    }

    #[test]
    fn locations() {
        assert_eq!(check_location("s3://lake/events/"), Ok(()));
        assert_eq!(
            check_location("s3://lake"),
            Err(LocationProblem::BucketRoot)
        );
        assert_eq!(check_location("/tmp/x"), Err(LocationProblem::NotS3));
        assert_eq!(check_location("s3:///f"), Err(LocationProblem::NoBucket));
        assert_eq!(
            check_location("s3://b/f/"),
            Err(LocationProblem::BadBucket("b".into()))
        );
        assert_eq!(
            check_location("s3://lake/it's/"),
            Err(LocationProblem::BadChar('\''))
        );
        assert_eq!(
            check_location("s3://lake/a//b"),
            Err(LocationProblem::EmptySegment)
        );
    }

    #[test]
    fn properties() {
        let p = check_property;
        assert_eq!(p("format", "PARQUET"), Ok(PropertyValue::Format("parquet")));
        assert_eq!(p("format", "csv"), Err(PropertyProblem::NotAFormat));
        assert_eq!(
            p("write_compression", "uncompressed"),
            Ok(PropertyValue::Codec("none"))
        );
        assert_eq!(
            p("write_compression", "bzip2"),
            Err(PropertyProblem::NotACodec)
        );
        assert_eq!(
            p("optimize_rewrite_delete_file_threshold", "50"),
            Err(PropertyProblem::OutOfRange("1 to 49"))
        );
        assert_eq!(
            p("vacuum_min_snapshots_to_keep", "0"),
            Err(PropertyProblem::OutOfRange("a positive integer"))
        );
        assert_eq!(
            p("vacuum_min_snapshots_to_keep", "4294967296"),
            Err(PropertyProblem::NotANumber)
        );
        assert_eq!(
            p("vacuum_max_metadata_files_to_keep", "2147483647"),
            Ok(PropertyValue::Number(2_147_483_647))
        );
        assert_eq!(
            p("vacuum_min_snapshots_to_keep", "2147483648"),
            Err(PropertyProblem::OutOfRange(
                "1 to 2147483647 (a 32-bit integer)"
            ))
        );
        assert_eq!(
            p("vacuum_max_snapshot_age_seconds", " 7 "),
            Ok(PropertyValue::Number(7))
        );
        assert_eq!(
            p("vacuum_max_snapshot_age_seconds", "9223372036854775"),
            Ok(PropertyValue::Number(MAX_SNAPSHOT_AGE_SECONDS))
        );
        assert_eq!(
            p("vacuum_max_snapshot_age_seconds", "9223372036854776"),
            Err(PropertyProblem::OutOfRange(
                "1 to 9223372036854775 (seconds whose milliseconds fit a 64-bit integer)"
            ))
        );
        assert_eq!(
            p("vacuum_max_snapshot_age_seconds", "18446744073709551616"),
            Err(PropertyProblem::NotANumber)
        );
        assert_eq!(
            p("write_data_path_enabled", "yes"),
            Err(PropertyProblem::NotAFlag)
        );
        assert_eq!(p("table_type", "iceberg"), Err(PropertyProblem::TableType));
        assert_eq!(
            p("write.format.default", "orc"),
            Err(PropertyProblem::UnknownKey)
        );
        assert!(compressions("orc").contains(&"lz4"));
        assert!(!compressions("parquet").contains(&"lz4"));
    }

    #[test]
    fn transforms() {
        assert!(transform_accepts("day", TypeKind::Timestamp));
        assert!(!transform_accepts("day", TypeKind::String));
        assert!(!transform_accepts("hour", TypeKind::Date));
        assert!(!transform_accepts("identity", TypeKind::Nested));
        assert!(transform_accepts("bucket", TypeKind::Binary));
        assert!(!transform_accepts("truncate", TypeKind::Timestamp));
    }

    #[test]
    fn partition_specs() {
        let f = |source, transform, arg| SpecField {
            source,
            transform,
            arg,
        };
        assert_eq!(partition_field_name("ts", "day"), "ts_day");
        assert_eq!(partition_field_name("id", "bucket"), "id_bucket");
        assert_eq!(partition_field_name("s", "truncate"), "s_trunc");
        assert_eq!(partition_field_name("s", "identity"), "s");
        let cols = ["id", "s", "ts", "ts_day"];
        assert_eq!(
            check_partition_spec(
                &[
                    f("id", "bucket", Some(16)),
                    f("s", "identity", None),
                    f("s", "truncate", Some(4)),
                    f("ts", "hour", None)
                ],
                &cols
            ),
            []
        );
        assert_eq!(
            check_partition_spec(
                &[
                    f("id", "bucket", Some(16)),
                    f("id", "bucket", Some(16)),
                    f("id", "bucket", Some(8)),
                    f("ts", "hour", None),
                    f("ts", "day", None),
                    f("s", "truncate", Some(4)),
                    f("s", "truncate", Some(8)),
                ],
                &["id", "s", "ts"]
            ),
            [
                (1, SpecProblem::Twice(0)),
                (
                    2,
                    SpecProblem::NameTaken {
                        name: "id_bucket".into(),
                        other: 0
                    }
                ),
                (4, SpecProblem::RedundantTime(3)),
                (
                    6,
                    SpecProblem::NameTaken {
                        name: "s_trunc".into(),
                        other: 5
                    }
                ),
            ]
        );
        assert_eq!(
            check_partition_spec(&[f("ts", "day", None)], &cols),
            [(0, SpecProblem::NameIsColumn("ts_day".into()))]
        );
    }

    #[test]
    fn comments() {
        assert_eq!(comment_problem(CommentOf::Column, &"a".repeat(255)), None);
        assert_eq!(
            comment_problem(CommentOf::Column, &"a".repeat(256)),
            Some(CommentProblem::TooLong {
                chars: 256,
                max: 255
            })
        );
        // One character outside the BMP is two UTF-16 units.
        assert_eq!(
            comment_problem(CommentOf::Column, &"\u{1F600}".repeat(128)),
            Some(CommentProblem::TooLong {
                chars: 256,
                max: 255
            })
        );
        assert_eq!(comment_problem(CommentOf::Table, &"é".repeat(2048)), None);
        assert_eq!(
            comment_problem(CommentOf::Database, &"a".repeat(2049)),
            Some(CommentProblem::TooLong {
                chars: 2049,
                max: 2048
            })
        );
        assert_eq!(
            comment_problem(CommentOf::Table, "it's"),
            Some(CommentProblem::BadChar('\''))
        );
    }
}
