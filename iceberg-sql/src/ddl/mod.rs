//! DDL: tables (CREATE, DROP, SHOW CREATE TABLE, DESCRIBE), databases (CREATE, DROP,
//! SHOW TABLES) and views (CREATE, DROP).

mod create_table;
mod database;
mod describe;
mod drop_table;
mod show_create_table;
mod view;

pub use create_table::CreateTable;
pub use database::{CreateDatabase, DropDatabase, ListViews, ShowTables};
pub use describe::Describe;
pub use drop_table::DropTable;
pub use show_create_table::ShowCreateTable;
pub use view::{CreateView, DropView};
