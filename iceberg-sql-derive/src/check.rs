//! Compile-time checks: the rules `iceberg-sql` applies at run time, from the shared
//! `iceberg-sql-rules` crate, worded as the derive's errors.

use iceberg_sql_rules::{LocationProblem, NameProblem, PropertyProblem, PropertyValue};

pub use iceberg_sql_rules::{
    check_partition_spec, compressions, suggest_name, SpecField, SpecProblem,
};

/// Why Athena would reject or change `name`, if it would, with a suggested name.
pub fn check_name(name: &str) -> Result<(), (String, Option<String>)> {
    match iceberg_sql_rules::check_name(name) {
        Ok(()) => Ok(()),
        Err(NameProblem::Empty) => Err(("is empty".into(), None)),
        Err(NameProblem::TooLong(bytes)) => Err((
            format!(
                "is {bytes} bytes long; Athena allows at most {}",
                iceberg_sql_rules::MAX_NAME_BYTES
            ),
            None,
        )),
        Err(NameProblem::UpperCase) => Err((
            "contains upper case, which Athena folds to lower case".to_string(),
            Some(suggest_name(name)),
        )),
        Err(NameProblem::BadChar(bad)) => Err((
            format!("contains {bad:?}; Athena supports only a-z, 0-9 and _ in names"),
            Some(suggest_name(name)),
        )),
    }
}

/// `snake_case` of a Rust type name (`McpEvent` -> `mcp_event`).
pub fn snake_case(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if i > 0 && (prev_lower || (next_lower && chars[i - 1].is_uppercase())) {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A comment of `of`: a DDL string no longer than Glue stores.
pub fn check_comment(of: iceberg_sql_rules::CommentOf, text: &str) -> Result<(), String> {
    match iceberg_sql_rules::comment_problem(of, text) {
        None => Ok(()),
        Some(iceberg_sql_rules::CommentProblem::BadChar(_)) => check_ddl_text(text),
        Some(iceberg_sql_rules::CommentProblem::TooLong { chars, max }) => Err(format!(
            "is {chars} characters long; the Glue Data Catalog, where Athena keeps it, stores at most {max}"
        )),
    }
}

/// DDL string literals (comments, location) cannot hold `'`, `\` or control
/// characters.
pub fn check_ddl_text(text: &str) -> Result<(), String> {
    match iceberg_sql_rules::ddl_text_problem(text) {
        Some(c) => Err(format!(
            "contains {c:?}; DDL string literals cannot hold quotes, backslashes or control characters"
        )),
        None => Ok(()),
    }
}

/// An S3 folder, not a bucket root, with room beneath it for Iceberg's file keys.
pub fn check_location(uri: &str) -> Result<(), String> {
    match iceberg_sql_rules::check_location(uri) {
        Ok(()) => match iceberg_sql_rules::location_key_too_long(
            uri,
            iceberg_sql_rules::LocationHolds::IcebergTable,
        ) {
            None => Ok(()),
            Some((key_bytes, max)) => Err(format!(
                "has a key (the part after the bucket) of {key_bytes} bytes; S3 keys are at most \
                 {} bytes, which leaves no room beneath it for Iceberg's metadata files (at most \
                 {max} bytes do)",
                iceberg_sql_rules::MAX_S3_KEY_BYTES
            )),
        },
        Err(LocationProblem::BadChar(_)) => check_ddl_text(uri),
        Err(LocationProblem::NotS3) => Err("must start with `s3://`".into()),
        Err(LocationProblem::NoBucket) => Err("has no bucket name".into()),
        Err(LocationProblem::BadBucket(bucket)) => Err(format!(
            "has bucket name `{bucket}`; S3 bucket names are 3-63 characters of a-z, 0-9, '-' and '.'"
        )),
        Err(LocationProblem::BucketRoot) => Err(
            "is a bucket root; Athena needs a folder (VACUUM fails on a bucket root)".into(),
        ),
        Err(LocationProblem::EmptySegment) => Err("has an empty path segment (`//`)".into()),
    }
}

/// Checks one property. Returns the normalised format/compression name when the key is
/// one of those.
pub fn check_property(key: &str, value: &str) -> Result<Option<String>, String> {
    match iceberg_sql_rules::check_property(key, value) {
        Ok(PropertyValue::Format(name) | PropertyValue::Codec(name)) => Ok(Some(name.to_string())),
        Ok(_) => Ok(None),
        Err(PropertyProblem::NotAFormat) => Err(format!(
            "`format`: `{}` is not an Iceberg file format; use parquet, orc or avro",
            value.escape_debug()
        )),
        Err(PropertyProblem::NotACodec) => Err(format!(
            "`write_compression`: `{}` is not a codec Athena supports for Iceberg; use gzip, snappy, zstd, lz4, zlib or none (BZIP2 is not supported)",
            value.escape_debug()
        )),
        Err(PropertyProblem::OutOfRange(allowed)) => Err(format!(
            "`{key}` = {value} is out of range; Athena allows {allowed}"
        )),
        Err(PropertyProblem::NotANumber) => Err(format!(
            "`{key}`: `{}` is not a positive integer in range",
            value.escape_debug()
        )),
        Err(PropertyProblem::NotAFlag) => Err(format!(
            "`{key}`: `{}` is not true or false",
            value.escape_debug()
        )),
        Err(PropertyProblem::TableType) => {
            Err("`table_type` is always 'ICEBERG' and is written for you; remove it".into())
        }
        Err(PropertyProblem::SecondsNotMs) => Err(
            "unknown table property `vacuum_max_snapshot_age_ms`; the property is `vacuum_max_snapshot_age_seconds`".into(),
        ),
        Err(PropertyProblem::UnknownKey) => Err(format!(
            "unknown table property `{}`: Athena rejects custom properties on Iceberg tables; it accepts only: {}",
            key.escape_debug(),
            iceberg_sql_rules::PROPERTY_KEYS.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `#[iceberg(location = …)]` is an Iceberg table's: its key leaves room for the
    /// metadata files beneath it (the rule `iceberg_sql_rules::location_key_too_long`).
    #[test]
    fn a_location_key_too_long_for_iceberg_files_is_refused() {
        let uri = |n: usize| format!("s3://lake/{}/", "k".repeat(n));
        assert_eq!(check_location(&uri(958)), Ok(()));
        assert_eq!(
            check_location(&uri(959)),
            Err(
                "has a key (the part after the bucket) of 960 bytes; S3 keys are at most 1024 \
                 bytes, which leaves no room beneath it for Iceberg's metadata files (at most \
                 959 bytes do)"
                    .to_string()
            )
        );
    }
}
