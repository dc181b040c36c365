//! Athena's engine as a type system: what Trino (the engine of Athena engine v3) makes
//! of the SQL we write, so that a statement Athena would reject at run time, or run
//! with another meaning, can be refused (or fixed) when it is built.
//!
//! No SQL is rendered here and nothing depends on a builder: this is the data and the
//! rules, mirrored from Trino's source and AWS's documentation, each with its source.
//! The reference is trinodb/trino release 417 (May 2023), read
//! against current master where behaviour changed; where the readings differ, the rule
//! here is the one that holds on both.
//!
//! | module | what it answers |
//! |---|---|
//! | [`types`] | [`EngineType`](types::EngineType): Trino types with precision; how an Iceberg or Hive column appears to the engine |
//! | [`coercion`] | implicit coercion, common super types, comparison types, the store-assignment rule of INSERT / UPDATE / MERGE |
//! | [`casts`] | which explicit CASTs exist, which types cast to and from JSON |
//! | [`literals`] | the type of each literal we write; the date/time values a literal can hold |
//! | [`functions`] | result types of `current_timestamp` and friends, arithmetic, `date_trunc`, aggregates |
//! | [`targets`] | column types an Iceberg CTAS, a Hive CTAS and UNLOAD accept, and the CAST that fixes the others |
//! | [`system_tables`] | the Iceberg metadata tables and their columns for a given table |
//! | [`staging`] | what a staged load writes to Parquet for each type, so the Hive staging table reads it back exactly |

// Parts of the model no builder writes (Trino's tinyint, char and time types, metadata
// tables Athena does not document, a few lookups) are used only by the tests.
#![allow(dead_code)]

pub(crate) mod casts;
pub(crate) mod coercion;
pub(crate) mod functions;
pub(crate) mod literals;
pub(crate) mod staging;
pub(crate) mod system_tables;
pub(crate) mod targets;
pub(crate) mod types;
