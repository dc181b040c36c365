//! The derive checks names, properties and locations at compile time without depending
//! on `iceberg-sql` (it cannot: `iceberg-sql` depends on it). This test includes the
//! derive's rules by path and compares them with the runtime rules, so the two cannot
//! drift apart.

#[allow(dead_code)]
#[path = "../../iceberg-sql-derive/src/check.rs"]
mod check;

/// The derive's property rules must agree with the runtime's.
#[test]
fn property_rules_match_table_property_parse() {
    let keys = check::PROPERTY_KEYS.iter().copied().chain([
        "table_type",
        "vacuum_max_snapshot_age_ms",
        "write.format.default",
        "",
    ]);
    let values = [
        "",
        "0",
        "1",
        "10",
        "49",
        "50",
        "-1",
        " 7 ",
        "4294967295",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "true",
        "False",
        "yes",
        "parquet",
        "ORC",
        "avro",
        "csv",
        "gzip",
        "SNAPPY",
        "zstd",
        "lz4",
        "zlib",
        "none",
        "uncompressed",
        "bzip2",
        "deflate",
    ];
    for key in keys {
        for value in values {
            let ours = check::check_property(key, value).is_ok();
            let theirs = iceberg_sql::TableProperty::parse(key, value).is_ok();
            assert_eq!(ours, theirs, "{key} = {value:?}");
        }
    }
    // Compression against format.
    for format in ["parquet", "orc", "avro"] {
        for codec in ["gzip", "snappy", "zstd", "lz4", "zlib", "none"] {
            let ours = check::compressions(format).contains(&codec);
            let props: iceberg_sql::TableProperties = [
                iceberg_sql::TableProperty::parse("format", format).unwrap(),
                iceberg_sql::TableProperty::parse("write_compression", codec).unwrap(),
            ]
            .into_iter()
            .collect();
            assert_eq!(ours, props.check().is_ok(), "{format} + {codec}");
        }
    }
}

#[test]
fn names_match_the_runtime_rules() {
    use iceberg_sql::ident::{check_name, suggest_name, NameRole};
    for name in [
        "a",
        "event_ts",
        "EventTs",
        "a-b",
        "_x",
        "1x",
        "é",
        "",
        &"a".repeat(255),
        &"a".repeat(256),
    ] {
        assert_eq!(
            check::check_name(name).is_ok(),
            check_name(name, NameRole::Column).is_ok(),
            "{name}"
        );
        assert_eq!(check::suggest_name(name), suggest_name(name));
    }
}

#[test]
fn locations_match_the_runtime_rules() {
    for uri in [
        "s3://b/f/",
        "s3://b/f",
        "s3://b",
        "s3://b/",
        "s3:///f",
        "/tmp/x",
        "s3://b/it's/",
    ] {
        assert_eq!(
            check::check_location(uri).is_ok(),
            iceberg_sql::Location::parse(uri).is_ok(),
            "{uri}"
        );
    }
}
