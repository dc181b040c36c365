//! Table DDL: CREATE TABLE and DROP TABLE.

mod create_table;
mod drop_table;

pub use create_table::CreateTable;
pub use drop_table::DropTable;

pub(crate) use create_table::{spark_property, write_partition_field};
