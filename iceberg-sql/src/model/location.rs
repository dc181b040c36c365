//! Table locations: an S3 folder, never a bucket root.

use std::fmt;

use iceberg_sql_rules::LocationHolds;

use crate::error::{Error, ErrorKind, Result};

/// Where a table's data and metadata live: `s3://bucket/folder/...`.
///
/// Athena requires an S3 folder; a table at a bucket root cannot be vacuumed
/// (`GENERIC_INTERNAL_ERROR: Path missing in file system location`). The text is used
/// inside a Hive DDL string literal, whose escaping is unverified, so quotes,
/// backslashes and control characters are refused.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location(String);

impl Location {
    /// Checks and wraps an S3 folder URI. A missing trailing `/` is added.
    ///
    /// ```
    /// use iceberg_sql::{Location, ErrorKind};
    /// assert_eq!(Location::parse("s3://lake/events").unwrap().as_str(), "s3://lake/events/");
    /// assert_eq!(Location::parse("s3://lake/").unwrap_err().kind(), ErrorKind::InvalidLocation);
    /// ```
    pub fn parse(uri: &str) -> Result<Location> {
        Location::parse_as("table location", uri)
    }

    /// As [`Location::parse`], with `what` naming the location in the error (a
    /// database's location, an UNLOAD destination).
    pub(crate) fn parse_as(what: &str, uri: &str) -> Result<Location> {
        Location::parse_with(
            what,
            uri,
            "Athena needs a folder (VACUUM fails on a bucket root)",
        )
    }

    /// As [`Location::parse_as`], with `bucket_root` saying why a bucket root is refused.
    pub(crate) fn parse_with(what: &str, uri: &str, bucket_root: &str) -> Result<Location> {
        let bad = |why: String| {
            Err(Error::new(
                ErrorKind::InvalidLocation,
                format!("{what} `{}` {why}", shown(uri)),
            )
            .with_hint("use an S3 folder such as `s3://my-bucket/iceberg/my_table/`"))
        };
        use iceberg_sql_rules::LocationProblem as P;
        match iceberg_sql_rules::check_location(uri) {
            Ok(()) => {}
            Err(P::BadChar(c)) => {
                return bad(format!(
                    "contains `{}`, which cannot be written safely in a DDL string literal",
                    shown(&c.to_string())
                ))
            }
            Err(P::NotS3) => return bad("is not an s3:// URI".into()),
            Err(P::NoBucket) => return bad("has no bucket name".into()),
            Err(P::BadBucket(bucket)) => {
                return bad(format!(
                    "has bucket name `{bucket}`; S3 bucket names are 3-63 characters of a-z, 0-9, '-' and '.'"
                ))
            }
            Err(P::BucketRoot) => return bad(format!("is a bucket root; {bucket_root}")),
            Err(P::EmptySegment) => return bad("has an empty path segment (`//`)".into()),
        }
        let mut s = uri.to_string();
        if !s.ends_with('/') {
            s.push('/');
        }
        Ok(Location(s))
    }

    /// Checks that what is written beneath this location (`holds`) can have S3 keys:
    /// `what` names the location in the error, as in [`Location::parse_as`].
    pub(crate) fn check_key_length(&self, what: &str, holds: LocationHolds) -> Result<()> {
        let Some((key_bytes, max)) = iceberg_sql_rules::location_key_too_long(&self.0, holds)
        else {
            return Ok(());
        };
        let beneath = match holds {
            LocationHolds::IcebergTable => {
                "Iceberg's metadata files (`metadata/00000-<uuid>.metadata.json`)"
            }
            LocationHolds::Files => "a file name",
        };
        Err(Error::new(
            ErrorKind::InvalidLocation,
            format!(
                "{what} `{}` has a key (the part after the bucket) of {key_bytes} bytes; S3 keys \
                 are at most {} bytes, which leaves no room beneath it for {beneath} (at most \
                 {max} bytes do)",
                self.0,
                iceberg_sql_rules::MAX_S3_KEY_BYTES
            ),
        )
        .with_hint(format!(
            "use a folder whose path after the bucket is at most {max} bytes"
        )))
    }

    /// The URI, always ending in `/`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<&str> for Location {
    type Error = Error;
    fn try_from(s: &str) -> Result<Self> {
        Location::parse(s)
    }
}

/// `text` as the user wrote it, with only its control characters escaped (`\t`,
/// `\u{0}`): a quote or a backslash is shown bare.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
