//! Partition transforms and their source-type rules (Iceberg spec, "Partition Transforms":
//! <https://iceberg.apache.org/spec/#partition-transforms>).

use std::fmt;

use crate::error::{Error, ErrorKind, Result};
use crate::types::IcebergType;

/// How a partition value is derived from its source column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartitionTransform {
    /// The column's own value.
    Identity,
    /// Years since 1970 (`year(ts)`).
    Year,
    /// Months since 1970-01 (`month(ts)`).
    Month,
    /// Days since 1970-01-01 (`day(ts)`).
    Day,
    /// Hours since 1970-01-01 00:00 (`hour(ts)`).
    Hour,
    /// Hash into N buckets (`bucket(N, col)`); 1 <= N <= 2,147,483,647.
    Bucket(u32),
    /// Truncate to width W (`truncate(W, col)`); 1 <= W <= 2,147,483,647.
    Truncate(u32),
}

impl PartitionTransform {
    /// The transform's name as Athena DDL writes it.
    pub fn name(self) -> &'static str {
        match self {
            PartitionTransform::Identity => "identity",
            PartitionTransform::Year => "year",
            PartitionTransform::Month => "month",
            PartitionTransform::Day => "day",
            PartitionTransform::Hour => "hour",
            PartitionTransform::Bucket(_) => "bucket",
            PartitionTransform::Truncate(_) => "truncate",
        }
    }

    /// True for year, month, day and hour.
    pub fn is_time(self) -> bool {
        matches!(
            self,
            PartitionTransform::Year
                | PartitionTransform::Month
                | PartitionTransform::Day
                | PartitionTransform::Hour
        )
    }

    /// Whether the transform accepts a source column of type `ty` (the Iceberg spec's
    /// rules, shared with the derive).
    pub fn accepts(self, ty: &IcebergType) -> bool {
        use iceberg_sql_rules::TypeKind as K;
        use IcebergType as T;
        let kind = match ty {
            T::Boolean => K::Boolean,
            T::Int => K::Int,
            T::Long => K::Long,
            T::Float => K::Float,
            T::Double => K::Double,
            T::Decimal { .. } => K::Decimal,
            T::Date => K::Date,
            T::Timestamp => K::Timestamp,
            T::TimestampTz => K::TimestampTz,
            T::String => K::String,
            T::Binary => K::Binary,
            T::List(_) | T::Map(..) | T::Struct(_) => K::Nested,
        };
        iceberg_sql_rules::transform_accepts(self.name(), kind)
    }

    /// The source types this transform accepts, for messages.
    pub fn accepted_types(self) -> &'static str {
        iceberg_sql_rules::transform_takes(self.name())
    }
}

/// One field of a partition spec: a transform applied to a source column.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PartitionField {
    /// The source column's name.
    pub source: String,
    /// The transform.
    pub transform: PartitionTransform,
}

impl PartitionField {
    /// `transform(source)`.
    pub fn new(source: impl Into<String>, transform: PartitionTransform) -> Self {
        PartitionField {
            source: source.into(),
            transform,
        }
    }

    /// Identity partition on `source`.
    pub fn identity(source: impl Into<String>) -> Self {
        Self::new(source, PartitionTransform::Identity)
    }

    /// Checks this field against its source column's type.
    pub fn check(&self, source_type: &IcebergType) -> Result<()> {
        match self.transform {
            PartitionTransform::Bucket(0) | PartitionTransform::Truncate(0) => {
                return Err(Error::new(
                    ErrorKind::InvalidPartition,
                    format!("partition `{self}`: the number must be at least 1"),
                ));
            }
            // Iceberg's transforms take the number as a Java `int` (`Transforms.bucket(int)`,
            // `Transforms.truncate(int)` in apache/iceberg api/.../transforms/Transforms.java).
            PartitionTransform::Bucket(n) | PartitionTransform::Truncate(n)
                if i32::try_from(n).is_err() =>
            {
                return Err(Error::new(
                    ErrorKind::InvalidPartition,
                    format!(
                        "partition `{self}`: the number must be at most 2147483647 (Iceberg reads it as a 32-bit integer)"
                    ),
                ));
            }
            _ => {}
        }
        if !self.transform.accepts(source_type) {
            return Err(Error::new(
                ErrorKind::InvalidPartition,
                format!(
                    "partition `{self}`: {}() cannot be applied to column `{}` of type {}; it takes {}",
                    self.transform.name(),
                    self.source,
                    source_type.iceberg_name(),
                    self.transform.accepted_types()
                ),
            )
            .with_hint(match self.transform {
                PartitionTransform::Bucket(_) | PartitionTransform::Truncate(_) => {
                    "partition on another column, or use identity partitioning".to_string()
                }
                _ => "partition a date or timestamp column, or use bucket()/truncate()/identity"
                    .to_string(),
            }));
        }
        Ok(())
    }
}

/// Athena DDL form: `day(ts)`, `bucket(16, id)`, bare name for identity.
impl fmt::Display for PartitionField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.transform {
            PartitionTransform::Identity => write!(f, "{}", self.source),
            PartitionTransform::Bucket(n) | PartitionTransform::Truncate(n) => {
                write!(f, "{}({n}, {})", self.transform.name(), self.source)
            }
            t => write!(f, "{}({})", t.name(), self.source),
        }
    }
}
