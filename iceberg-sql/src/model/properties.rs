//! Typed Iceberg table properties: exactly the keys and values Athena accepts
//! (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-creating-tables.html>). Athena rejects unknown keys, so
//! there is no escape hatch.

use std::fmt;

use iceberg_sql_rules::{PropertyProblem, PropertyValue};

use crate::error::{Error, ErrorKind, Result};

/// Data file format (`'format'`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// Parquet (Athena's default).
    Parquet,
    /// ORC.
    Orc,
    /// Avro.
    Avro,
}

impl FileFormat {
    /// Lower-case name as written in TBLPROPERTIES.
    pub fn as_str(self) -> &'static str {
        match self {
            FileFormat::Parquet => "parquet",
            FileFormat::Orc => "orc",
            FileFormat::Avro => "avro",
        }
    }

    /// Parses a format name, case-insensitively.
    pub fn parse(s: &str) -> Result<FileFormat> {
        match iceberg_sql_rules::check_property("format", s) {
            Ok(PropertyValue::Format(name)) => Self::named(name),
            _ => Err(Error::new(
                ErrorKind::InvalidProperty,
                format!(
                    "property `format`: `{}` is not an Iceberg file format",
                    s.escape_debug()
                ),
            )
            .with_hint("use parquet, orc or avro")),
        }
    }

    /// The format called `name` (one of the rules' format names).
    fn named(name: &str) -> Result<FileFormat> {
        [FileFormat::Parquet, FileFormat::Orc, FileFormat::Avro]
            .into_iter()
            .find(|f| f.as_str() == name)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidProperty,
                    format!("unknown file format `{name}`"),
                )
            })
    }

    /// The codecs Athena accepts for this format.
    pub fn compressions(self) -> Vec<Compression> {
        iceberg_sql_rules::compressions(self.as_str())
            .iter()
            .filter_map(|c| Compression::named(c).ok())
            .collect()
    }
}

/// Data file compression (`'write_compression'`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// GZIP (Parquet, Avro).
    Gzip,
    /// Snappy (all formats).
    Snappy,
    /// ZSTD (all formats; Athena's default).
    Zstd,
    /// LZ4 (ORC only).
    Lz4,
    /// ZLIB (ORC only).
    Zlib,
    /// No compression.
    None,
}

impl Compression {
    /// Lower-case name as written in TBLPROPERTIES.
    pub fn as_str(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Snappy => "snappy",
            Compression::Zstd => "zstd",
            Compression::Lz4 => "lz4",
            Compression::Zlib => "zlib",
            Compression::None => "none",
        }
    }

    /// Parses a codec name, case-insensitively (`uncompressed` means none).
    pub fn parse(s: &str) -> Result<Compression> {
        match iceberg_sql_rules::check_property("write_compression", s) {
            Ok(PropertyValue::Codec(name)) => Self::named(name),
            _ => Err(Error::new(
                ErrorKind::InvalidProperty,
                format!(
                    "property `write_compression`: `{}` is not a codec Athena supports for Iceberg",
                    s.escape_debug()
                ),
            )
            .with_hint(
                "use gzip, snappy, zstd, lz4, zlib or none (BZIP2 is not supported for Iceberg)",
            )),
        }
    }

    /// The codec called `name` (one of the rules' codec names).
    fn named(name: &str) -> Result<Compression> {
        use Compression::*;
        [Gzip, Snappy, Zstd, Lz4, Zlib, None]
            .into_iter()
            .find(|c| c.as_str() == name)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidProperty,
                    format!("unknown codec `{name}`"),
                )
            })
    }
}

/// One Athena Iceberg table property with a typed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableProperty {
    /// `'format'`
    Format(FileFormat),
    /// `'write_compression'`; must suit the format.
    WriteCompression(Compression),
    /// `'optimize_rewrite_data_file_threshold'`: 1..=49.
    OptimizeRewriteDataFileThreshold(u32),
    /// `'optimize_rewrite_delete_file_threshold'`: 1..=49.
    OptimizeRewriteDeleteFileThreshold(u32),
    /// `'vacuum_min_snapshots_to_keep'`: 1 to 2,147,483,647 (a Java `int` to Iceberg).
    VacuumMinSnapshotsToKeep(u32),
    /// `'vacuum_max_snapshot_age_seconds'`: 1 to 9,223,372,036,854,775 (Iceberg keeps the age in
    /// milliseconds as a 64-bit integer).
    VacuumMaxSnapshotAgeSeconds(u64),
    /// `'vacuum_max_metadata_files_to_keep'`: 1 to 2,147,483,647 (a Java `int` to Iceberg).
    VacuumMaxMetadataFilesToKeep(u32),
    /// `'write_data_path_enabled'`.
    WriteDataPathEnabled(bool),
}

/// Every key Athena accepts, in the order we render them.
pub use iceberg_sql_rules::PROPERTY_KEYS;

impl TableProperty {
    /// The property key as Athena spells it.
    pub fn key(&self) -> &'static str {
        PROPERTY_KEYS[self.rank()]
    }

    fn rank(&self) -> usize {
        match self {
            TableProperty::Format(_) => 0,
            TableProperty::WriteCompression(_) => 1,
            TableProperty::OptimizeRewriteDataFileThreshold(_) => 2,
            TableProperty::OptimizeRewriteDeleteFileThreshold(_) => 3,
            TableProperty::VacuumMinSnapshotsToKeep(_) => 4,
            TableProperty::VacuumMaxSnapshotAgeSeconds(_) => 5,
            TableProperty::VacuumMaxMetadataFilesToKeep(_) => 6,
            TableProperty::WriteDataPathEnabled(_) => 7,
        }
    }

    /// The value as written inside the quotes.
    pub fn value(&self) -> String {
        match self {
            TableProperty::Format(f) => f.as_str().to_string(),
            TableProperty::WriteCompression(c) => c.as_str().to_string(),
            TableProperty::OptimizeRewriteDataFileThreshold(n)
            | TableProperty::OptimizeRewriteDeleteFileThreshold(n)
            | TableProperty::VacuumMinSnapshotsToKeep(n)
            | TableProperty::VacuumMaxMetadataFilesToKeep(n) => n.to_string(),
            TableProperty::VacuumMaxSnapshotAgeSeconds(n) => n.to_string(),
            TableProperty::WriteDataPathEnabled(b) => b.to_string(),
        }
    }

    /// Parses a `key = value` pair as written in TBLPROPERTIES (or a derive attribute),
    /// checking the key and the value's range.
    ///
    /// ```
    /// use iceberg_sql::{TableProperty, ErrorKind};
    /// assert!(TableProperty::parse("optimize_rewrite_delete_file_threshold", "10").is_ok());
    /// let e = TableProperty::parse("optimize_rewrite_delete_file_threshold", "50").unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::InvalidProperty);
    /// assert_eq!(TableProperty::parse("write.format.default", "parquet").unwrap_err().kind(),
    ///            ErrorKind::InvalidProperty);
    /// ```
    pub fn parse(key: &str, value: &str) -> Result<TableProperty> {
        let checked = iceberg_sql_rules::check_property(key, value)
            .map_err(|problem| property_error(key, value, problem))?;
        let number = |n: u64| {
            u32::try_from(n).map_err(|_| property_error(key, value, PropertyProblem::NotANumber))
        };
        Ok(match (key, checked) {
            ("format", PropertyValue::Format(f)) => TableProperty::Format(FileFormat::named(f)?),
            ("write_compression", PropertyValue::Codec(c)) => {
                TableProperty::WriteCompression(Compression::named(c)?)
            }
            ("optimize_rewrite_data_file_threshold", PropertyValue::Number(n)) => {
                TableProperty::OptimizeRewriteDataFileThreshold(number(n)?)
            }
            ("optimize_rewrite_delete_file_threshold", PropertyValue::Number(n)) => {
                TableProperty::OptimizeRewriteDeleteFileThreshold(number(n)?)
            }
            ("vacuum_min_snapshots_to_keep", PropertyValue::Number(n)) => {
                TableProperty::VacuumMinSnapshotsToKeep(number(n)?)
            }
            ("vacuum_max_snapshot_age_seconds", PropertyValue::Number(n)) => {
                TableProperty::VacuumMaxSnapshotAgeSeconds(n)
            }
            ("vacuum_max_metadata_files_to_keep", PropertyValue::Number(n)) => {
                TableProperty::VacuumMaxMetadataFilesToKeep(number(n)?)
            }
            ("write_data_path_enabled", PropertyValue::Flag(b)) => {
                TableProperty::WriteDataPathEnabled(b)
            }
            _ => return Err(property_error(key, value, PropertyProblem::UnknownKey)),
        })
    }

    /// Checks the value's range (the rules [`TableProperty::parse`] applies).
    pub fn check(&self) -> Result<()> {
        let value = self.value();
        iceberg_sql_rules::check_property(self.key(), &value)
            .map(drop)
            .map_err(|problem| property_error(self.key(), &value, problem))
    }
}

/// The error for a refused `key = value`.
fn property_error(key: &str, value: &str, problem: PropertyProblem) -> Error {
    let e = |message: String| Error::new(ErrorKind::InvalidProperty, message);
    match problem {
        PropertyProblem::NotAFormat => match FileFormat::parse(value) {
            Err(err) => err,
            Ok(_) => e(format!(
                "property `{key}`: `{}` is not a file format",
                value.escape_debug()
            )),
        },
        PropertyProblem::NotACodec => match Compression::parse(value) {
            Err(err) => err,
            Ok(_) => e(format!(
                "property `{key}`: `{}` is not a codec",
                value.escape_debug()
            )),
        },
        PropertyProblem::NotANumber => e(format!(
            "property `{key}`: `{}` is not a positive integer in range",
            value.escape_debug()
        )),
        PropertyProblem::OutOfRange(allowed) => e(format!(
            "property `{key}` = {} is out of range; Athena allows {allowed}",
            value.trim()
        )),
        PropertyProblem::NotAFlag => e(format!(
            "property `{key}`: `{}` is not true or false",
            value.escape_debug()
        )),
        PropertyProblem::TableType => {
            e("property `table_type` is always 'ICEBERG' and is written for you".to_string())
        }
        PropertyProblem::SecondsNotMs | PropertyProblem::UnknownKey => e(format!(
            "unknown table property `{}`: Athena rejects custom properties on Iceberg tables",
            key.escape_debug()
        ))
        .with_hint(if problem == PropertyProblem::SecondsNotMs {
            "the property is `vacuum_max_snapshot_age_seconds`".to_string()
        } else {
            format!("Athena accepts only: {}", PROPERTY_KEYS.join(", "))
        }),
    }
}

/// A table's properties: at most one value per key, kept in Athena's key order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TableProperties {
    items: Vec<TableProperty>,
}

impl TableProperties {
    /// No properties (Athena's defaults apply).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `property`, replacing any earlier value for the same key.
    pub fn set(&mut self, property: TableProperty) -> &mut Self {
        match self
            .items
            .binary_search_by_key(&property.rank(), |p| p.rank())
        {
            Ok(i) => self.items[i] = property,
            Err(i) => self.items.insert(i, property),
        }
        self
    }

    /// Builder form of [`TableProperties::set`].
    pub fn with(mut self, property: TableProperty) -> Self {
        self.set(property);
        self
    }

    /// Removes the property with `key`; returns whether one was set.
    pub fn remove(&mut self, key: &str) -> bool {
        let before = self.items.len();
        self.items.retain(|p| p.key() != key);
        before != self.items.len()
    }

    /// The properties, in key order.
    pub fn iter(&self) -> impl Iterator<Item = &TableProperty> {
        self.items.iter()
    }

    /// True when no property is set.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The file format (Athena's default is Parquet).
    pub fn format(&self) -> FileFormat {
        self.items
            .iter()
            .find_map(|p| match p {
                TableProperty::Format(f) => Some(*f),
                _ => None,
            })
            .unwrap_or(FileFormat::Parquet)
    }

    /// Checks every value's range and that the compression suits the format.
    pub fn check(&self) -> Result<()> {
        let mut errors: Vec<Error> = self.items.iter().filter_map(|p| p.check().err()).collect();
        let format = self.format();
        for p in &self.items {
            if let TableProperty::WriteCompression(c) = p {
                if !format.compressions().contains(c) {
                    let allowed: Vec<&str> =
                        format.compressions().iter().map(|c| c.as_str()).collect();
                    errors.push(
                        Error::new(
                            ErrorKind::InvalidProperty,
                            format!(
                                "property `write_compression` = {} is not supported for {} files",
                                c.as_str(),
                                format.as_str()
                            ),
                        )
                        .with_hint(format!(
                            "for {} use one of: {}",
                            format.as_str(),
                            allowed.join(", ")
                        )),
                    );
                }
            }
        }
        Error::check_all(errors)
    }
}

impl fmt::Display for TableProperty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'='{}'", self.key(), self.value())
    }
}

impl FromIterator<TableProperty> for TableProperties {
    fn from_iter<I: IntoIterator<Item = TableProperty>>(iter: I) -> Self {
        let mut props = TableProperties::new();
        for p in iter {
            props.set(p);
        }
        props
    }
}
