//! What a staged load writes to Parquet for each Iceberg type, and why: the staging
//! table is a Hive table, and Athena reads Hive tables with less precision than the
//! Iceberg table has.
//!
//! A staged load writes Parquet files, exposes them as a Hive-format table
//! (`CREATE EXTERNAL TABLE … STORED AS PARQUET`), and copies them into the Iceberg
//! table with `INSERT INTO … SELECT`. Each staging column is read through Athena's Hive
//! connector ([`TableFormat::Hive`]), the target column written through its Iceberg
//! connector ([`TableFormat::Iceberg`]). Where the two engine types differ, a value
//! staged as itself would change on the way:
//!
//! * `timestamp` / `timestamptz`: the Hive connector reads timestamps as `timestamp(3)`
//!   (Athena runs it with `hive.timestamp-precision = MILLISECONDS`), so microseconds
//!   would be rounded away, and it has no `timestamp with time zone` at all. They are
//!   staged as text with all six fractional digits and CAST back: Trino's varchar to
//!   `timestamp(6)` cast parses the digits exactly
//!   (<https://trino.io/docs/current/functions/conversion.html>).
//! * `date`: read exactly by Athena, but Spark refuses Parquet dates before 1582-10-15
//!   from files it did not write itself (`spark.sql.parquet.datetimeRebaseModeInRead`
//!   defaults to `EXCEPTION`, <https://spark.apache.org/docs/latest/sql-migration-guide.html>),
//!   so dates are staged as `int` days since 1970-01-01 and added back to the epoch date.
//!   One staging rule serves every engine.
//! * everything else is read as the same engine type it is written as, and is staged
//!   as itself (decimals keep precision and scale, strings and binary their bytes).
//!
//! Nested types are staged element by element (`array<timestamp>` as `array<string>`)
//! and converted back with `transform`, `transform_keys` / `transform_values` and a
//! rebuilt row (the dialect layer writes the expressions).

use super::types::{EngineType, TableFormat};
use crate::types::{IcebergType, StructField};

/// The Iceberg type a value of type `ty` is staged as.
pub(crate) fn staging_type(ty: &IcebergType) -> IcebergType {
    use IcebergType as T;
    match ty {
        T::Timestamp | T::TimestampTz => T::String,
        T::Date => T::Int,
        T::List(e) => T::list(staging_type(e)),
        T::Map(k, v) => T::map(staging_type(k), staging_type(v)),
        T::Struct(fields) => T::Struct(
            fields
                .iter()
                .map(|f| StructField::new(f.name.clone(), staging_type(&f.ty)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether a value of type `ty` is staged as something else and must be converted back
/// when it is read from the staging table.
pub(crate) fn needs_conversion(ty: &IcebergType) -> bool {
    staging_type(ty) != *ty
}

/// Whether the Hive connector reads a column of `ty` staged as itself with the engine
/// type the Iceberg column has (so no value can change on the way).
pub(crate) fn read_back_exactly(ty: &IcebergType) -> bool {
    match (
        EngineType::of_column(ty, TableFormat::Hive),
        EngineType::of_column(ty, TableFormat::Iceberg),
    ) {
        (Ok(hive), Ok(iceberg)) => hive == iceberg,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::casts::can_cast;
    use super::*;
    use IcebergType as T;

    fn every_type() -> Vec<IcebergType> {
        let scalars = vec![
            T::Boolean,
            T::Int,
            T::Long,
            T::Float,
            T::Double,
            T::decimal(38, 9),
            T::decimal(9, 0),
            T::Date,
            T::Timestamp,
            T::TimestampTz,
            T::String,
            T::Binary,
        ];
        let mut all = scalars.clone();
        for s in &scalars {
            all.push(T::list(s.clone()));
            all.push(T::map(T::String, s.clone()));
            all.push(T::structure([("a", s.clone()), ("b", T::list(s.clone()))]));
        }
        all.push(T::map(
            T::Timestamp,
            T::list(T::structure([("t", T::TimestampTz)])),
        ));
        all
    }

    /// The proof behind the staging rule: staged as itself, every type whose Hive read
    /// differs from its Iceberg type would change (timestamps lose microseconds); the
    /// staging type of every type is read exactly, and where it differs, the engine has
    /// an exact way back (a CAST from varchar for timestamps, day arithmetic for dates).
    #[test]
    fn every_staged_type_reads_back_exactly() {
        assert!(!read_back_exactly(&T::Timestamp), "timestamp(3) in Hive");
        assert!(!read_back_exactly(&T::TimestampTz), "no zone in Hive");
        assert!(!read_back_exactly(&T::list(T::Timestamp)));
        assert_eq!(
            EngineType::of_column(&T::Timestamp, TableFormat::Hive).unwrap(),
            EngineType::Timestamp(3)
        );
        for ty in every_type() {
            let staged = staging_type(&ty);
            assert!(
                read_back_exactly(&staged),
                "{ty:?} staged as {staged:?} is not read back exactly"
            );
            assert_eq!(needs_conversion(&ty), staged != ty);
            if !needs_conversion(&ty) {
                assert!(read_back_exactly(&ty), "{ty:?} is staged as itself");
            }
        }
        // The conversions back: varchar to timestamp(6) [with time zone] is a CAST the
        // engine has; dates come back by adding days to the epoch date.
        for target in [
            EngineType::Timestamp(6),
            EngineType::TimestampWithTimeZone(6),
        ] {
            assert!(can_cast(&EngineType::VARCHAR, &target), "{target}");
        }
        assert_eq!(staging_type(&T::Date), T::Int);
        assert_eq!(
            staging_type(&T::structure([("ts", T::Timestamp), ("n", T::Long)])),
            T::structure([("ts", T::String), ("n", T::Long)])
        );
    }
}
