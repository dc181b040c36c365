//! Table DDL: CREATE TABLE, DROP TABLE and SHOW CREATE TABLE.

mod create_table;
mod drop_table;
mod show_create_table;

pub use create_table::CreateTable;
pub use drop_table::DropTable;
pub use show_create_table::ShowCreateTable;
