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

/// One change of a table's partition spec (partition evolution), as `ALTER TABLE`
/// writes it where the target has one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PartitionChange {
    Add(PartitionField),
    Drop(PartitionField),
    /// The first field replaced by the second.
    Replace(PartitionField, PartitionField),
}

impl PartitionChange {
    /// The word of Spark's form (`ADD`, `DROP`, `REPLACE` `PARTITION FIELD`) and the field
    /// it names first.
    pub(crate) fn verb_and_field(&self) -> (&'static str, &PartitionField) {
        match self {
            PartitionChange::Add(f) => ("ADD", f),
            PartitionChange::Drop(f) => ("DROP", f),
            PartitionChange::Replace(f, _) => ("REPLACE", f),
        }
    }
}

/// Which rules [`check_spec`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpecRules {
    /// No field twice, one time transform per column: true of any table's spec.
    Shape,
    /// The names Iceberg gives the fields when it creates the table (`ts_day`,
    /// `id_bucket`, `s_trunc`) unique and, except identity fields, no column's name.
    NewTableNames,
    /// Both.
    All,
}

/// Checks a partition spec as a whole (each field against its column's type is
/// [`PartitionField::check`]) by `rules`. `columns` are the table's column names (for
/// a CTAS, the SELECT's output names). Engines refuse to create the table otherwise:
/// Iceberg's `PartitionSpec.Builder` (apache/iceberg) on Athena, Trino and Spark alike.
/// A live table can hold fields named otherwise (partition evolution names a second
/// bucket `id_bucket_8`), so only statements that create a table check the names.
pub(crate) fn check_spec(
    spec: &[PartitionField],
    columns: &[&str],
    rules: SpecRules,
) -> Vec<Error> {
    use iceberg_sql_rules::SpecProblem as P;
    let fields: Vec<iceberg_sql_rules::SpecField<'_>> = spec
        .iter()
        .map(|p| iceberg_sql_rules::SpecField {
            source: &p.source,
            transform: p.transform.name(),
            arg: match p.transform {
                PartitionTransform::Bucket(n) | PartitionTransform::Truncate(n) => Some(n),
                _ => None,
            },
        })
        .collect();
    iceberg_sql_rules::check_partition_spec(&fields, columns)
        .into_iter()
        .filter(|(_, problem)| {
            let shape = matches!(problem, P::Twice(_) | P::RedundantTime(_));
            match rules {
                SpecRules::Shape => shape,
                SpecRules::NewTableNames => !shape,
                SpecRules::All => true,
            }
        })
        .map(|(i, problem)| {
            let p = &spec[i];
            match problem {
                P::Twice(_) => Error::new(
                    ErrorKind::InvalidPartition,
                    format!("partition `{p}` appears twice"),
                ),
                P::RedundantTime(j) => Error::new(
                    ErrorKind::InvalidPartition,
                    format!(
                        "partitions `{}` and `{p}` are redundant: Iceberg allows one time transform per column",
                        spec[j]
                    ),
                )
                .with_hint("keep the finest transform you need"),
                P::NameTaken { name, other } => Error::new(
                    ErrorKind::InvalidPartition,
                    format!(
                        "partitions `{}` and `{p}` would both be named `{name}`; Iceberg names a partition field after its column and transform, not the number, and refuses a name twice",
                        spec[other]
                    ),
                )
                .with_hint("keep one bucket (or truncate) width per column"),
                P::NameIsColumn(name) => Error::new(
                    ErrorKind::InvalidPartition,
                    format!(
                        "partition `{p}` would be named `{name}`, which is the name of a column; Iceberg refuses a partition field named like a column"
                    ),
                )
                .with_hint(format!("rename column `{name}`")),
            }
        })
        .collect()
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
