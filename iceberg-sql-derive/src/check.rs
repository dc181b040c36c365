//! Compile-time checks that mirror the runtime rules of `iceberg-sql` (the derive cannot
//! depend on it): Athena names, table properties, locations and DDL text. A unit test
//! in `tests.rs` compares the property rules with `TableProperty::parse`.

/// Longest name Athena accepts, in bytes.
pub const MAX_NAME_BYTES: usize = 255;

/// Why Athena would reject or change `name`, if it would, with a suggested name.
pub fn check_name(name: &str) -> Result<(), (String, Option<String>)> {
    if name.is_empty() {
        return Err(("is empty".into(), None));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err((
            format!(
                "is {} bytes long; Athena allows at most {MAX_NAME_BYTES}",
                name.len()
            ),
            None,
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))
    {
        let why = if bad.is_uppercase() {
            "contains upper case, which Athena folds to lower case".to_string()
        } else {
            format!("contains {bad:?}; Athena supports only a-z, 0-9 and _ in names")
        };
        return Err((why, Some(suggest_name(name))));
    }
    Ok(())
}

/// A lower-snake-case version of `name` with only `[a-z0-9_]` (same as
/// `iceberg_sql::ident::suggest_name`).
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

/// DDL string literals (comments, location) cannot hold `'`, `\` or control
/// characters (the Hive lexer's escaping is unverified).
pub fn check_ddl_text(text: &str) -> Result<(), String> {
    match text.chars().find(|c| *c == '\'' || *c == '\\' || c.is_control()) {
        Some(c) => Err(format!(
            "contains {c:?}; DDL string literals cannot hold quotes, backslashes or control characters"
        )),
        None => Ok(()),
    }
}

/// Same rules as `Location::parse`: an S3 folder, not a bucket root.
pub fn check_location(uri: &str) -> Result<(), String> {
    check_ddl_text(uri)?;
    let Some(rest) = uri.strip_prefix("s3://") else {
        return Err("must start with `s3://`".into());
    };
    let (bucket, path) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        return Err("has no bucket name".into());
    }
    if !bucket
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        || bucket.len() < 3
        || bucket.len() > 63
    {
        return Err(format!(
            "has bucket name `{bucket}`; S3 bucket names are 3-63 characters of a-z, 0-9, '-' and '.'"
        ));
    }
    if path.trim_matches('/').is_empty() {
        return Err(
            "is a bucket root; Athena needs a folder (VACUUM fails on a bucket root)".into(),
        );
    }
    if path.contains("//") {
        return Err("has an empty path segment (`//`)".into());
    }
    Ok(())
}

/// Athena's Iceberg table property keys (https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-creating-tables.html), in rendering order.
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

/// Checks one property, as `TableProperty::parse` does. Returns the normalised
/// format/compression name when the key is one of those.
pub fn check_property(key: &str, value: &str) -> Result<Option<String>, String> {
    let lower = value.to_ascii_lowercase();
    let number = |max: u64| -> Result<Option<String>, String> {
        match value.trim().parse::<u64>() {
            Ok(n) if n >= 1 && n <= max => Ok(None),
            Ok(_) if max == 49 => Err(format!(
                "`{key}` = {value} is out of range; Athena allows 1 to 49"
            )),
            Ok(0) => Err(format!(
                "`{key}` = {value} is out of range; Athena allows a positive integer"
            )),
            _ => Err(format!(
                "`{key}`: `{}` is not a positive integer in range",
                value.escape_debug()
            )),
        }
    };
    match key {
        "format" => match lower.as_str() {
            "parquet" | "orc" | "avro" => Ok(Some(lower)),
            _ => Err(format!(
                "`format`: `{}` is not an Iceberg file format; use parquet, orc or avro",
                value.escape_debug()
            )),
        },
        "write_compression" => match lower.as_str() {
            "gzip" | "snappy" | "zstd" | "lz4" | "zlib" | "none" => Ok(Some(lower)),
            "uncompressed" => Ok(Some("none".into())),
            _ => Err(format!(
                "`write_compression`: `{}` is not a codec Athena supports for Iceberg; use gzip, snappy, zstd, lz4, zlib or none (BZIP2 is not supported)",
                value.escape_debug()
            )),
        },
        "optimize_rewrite_data_file_threshold" | "optimize_rewrite_delete_file_threshold" => number(49),
        "vacuum_min_snapshots_to_keep" | "vacuum_max_metadata_files_to_keep" => number(u64::from(u32::MAX)),
        "vacuum_max_snapshot_age_seconds" => number(u64::MAX),
        "write_data_path_enabled" => match lower.as_str() {
            "true" | "false" => Ok(None),
            _ => Err(format!("`{key}`: `{}` is not true or false", value.escape_debug())),
        },
        "table_type" => Err("`table_type` is always 'ICEBERG' and is written for you; remove it".into()),
        "vacuum_max_snapshot_age_ms" => Err(
            "unknown table property `vacuum_max_snapshot_age_ms`; the property is `vacuum_max_snapshot_age_seconds`".into(),
        ),
        _ => Err(format!(
            "unknown table property `{}`: Athena rejects custom properties on Iceberg tables; it accepts only: {}",
            key.escape_debug(),
            PROPERTY_KEYS.join(", ")
        )),
    }
}

/// The codecs Athena accepts for a format (same page).
pub fn compressions(format: &str) -> &'static [&'static str] {
    match format {
        "orc" => &["lz4", "snappy", "zlib", "zstd", "none"],
        _ => &["gzip", "snappy", "zstd", "none"],
    }
}
