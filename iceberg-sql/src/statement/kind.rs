//! [`StatementKind`]: what a statement does, the first thing a target and the
//! validator ask of it.

/// Athena's limit on the UTF-8 length of one query string.
pub const MAX_QUERY_BYTES: usize = 262_144;

/// What a statement does. With the target it decides the statement's grammar, and which
/// SQL shapes the validator allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StatementKind {
    /// `CREATE TABLE` (DDL).
    CreateTable,
    /// `DROP TABLE`.
    DropTable,
    /// `ALTER TABLE` (add, drop, change column; set/unset properties).
    AlterTable,
    /// `CREATE TABLE ... AS SELECT`.
    CreateTableAs,
    /// `INSERT INTO`.
    Insert,
    /// `UPDATE`.
    Update,
    /// `DELETE FROM`.
    Delete,
    /// `MERGE INTO`.
    Merge,
    /// `SELECT` (including time travel and metadata tables).
    Select,
    /// `OPTIMIZE ... REWRITE DATA USING BIN_PACK` (Spark: `CALL ...rewrite_data_files`).
    Optimize,
    /// `VACUUM` (Spark: `CALL ...expire_snapshots`).
    Vacuum,
    /// `UNLOAD (...) TO ...`.
    Unload,
    /// `SHOW CREATE TABLE` (reads a live definition for schema evolution).
    ShowCreateTable,
    /// `CREATE DATABASE`.
    CreateDatabase,
    /// `DROP DATABASE`.
    DropDatabase,
    /// `SHOW TABLES IN db`.
    ShowTables,
    /// `DESCRIBE db.t` (columns and partitioning of a live table).
    Describe,
    /// `CREATE [OR REPLACE] VIEW ... AS SELECT`.
    CreateView,
    /// `DROP VIEW`.
    DropView,
    /// The table a staged load reads its Parquet files through (Athena: `CREATE
    /// EXTERNAL TABLE … STORED AS PARQUET LOCATION`; Spark: `CREATE TEMPORARY VIEW …
    /// USING parquet`); see [`load`](crate::load).
    CreateStagingTable,
    /// Drops a staged load's staging table (Athena: `DROP TABLE IF EXISTS`; Spark:
    /// `DROP VIEW IF EXISTS`).
    DropStagingTable,
}

impl StatementKind {
    /// A short upper-case name for messages (`CREATE TABLE`, `MERGE`, ...).
    pub fn name(self) -> &'static str {
        match self {
            StatementKind::CreateTable => "CREATE TABLE",
            StatementKind::DropTable => "DROP TABLE",
            StatementKind::AlterTable => "ALTER TABLE",
            StatementKind::CreateTableAs => "CREATE TABLE AS",
            StatementKind::Insert => "INSERT",
            StatementKind::Update => "UPDATE",
            StatementKind::Delete => "DELETE",
            StatementKind::Merge => "MERGE",
            StatementKind::Select => "SELECT",
            StatementKind::Optimize => "OPTIMIZE",
            StatementKind::Vacuum => "VACUUM",
            StatementKind::Unload => "UNLOAD",
            StatementKind::ShowCreateTable => "SHOW CREATE TABLE",
            StatementKind::CreateDatabase => "CREATE DATABASE",
            StatementKind::DropDatabase => "DROP DATABASE",
            StatementKind::ShowTables => "SHOW TABLES",
            StatementKind::Describe => "DESCRIBE",
            StatementKind::CreateView => "CREATE VIEW",
            StatementKind::DropView => "DROP VIEW",
            StatementKind::CreateStagingTable => "CREATE STAGING TABLE",
            StatementKind::DropStagingTable => "DROP STAGING TABLE",
        }
    }
}
