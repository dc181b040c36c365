//! The table model: what a table is, independent of any SQL dialect.
//!
//! A [`TableDef`] is plain data (columns, partition spec, properties, location, name).
//! [`TableDef::builder`] checks it as a whole and reports every problem at once; the
//! derive macro emits the same value from a struct.

#[cfg(feature = "serde")]
mod json;
mod location;
mod partition;
mod properties;
mod table;

pub use location::Location;
pub(crate) use partition::PartitionChange;
pub(crate) use partition::{check_spec as check_partition_spec, SpecRules};
pub use partition::{PartitionField, PartitionTransform};
pub use properties::{Compression, FileFormat, TableProperties, TableProperty};
pub(crate) use table::{check_comment, check_ddl_text};
pub use table::{Column, DatabaseName, TableDef, TableDefBuilder, TableName};
