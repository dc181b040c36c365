//! [`Statement`]: validated SQL text ready to run.

use std::fmt;

use crate::dialect::Dialect;
use crate::error::Result;

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
        }
    }
}

/// One SQL statement that has passed validation: its text, kind, dialect and the
/// `ExecutionParameters` for its `?` placeholders (each is SQL literal text).
///
/// The only way to get one is a builder's `build()`, so every `Statement` that exists
/// is valid for its dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    sql: String,
    kind: StatementKind,
    dialect: Dialect,
    params: Vec<String>,
}

impl Statement {
    /// Validates `sql` as a statement of `kind` in `dialect` (size, one statement,
    /// parse, allowed shapes, placeholder count) and wraps it.
    pub(crate) fn validated(
        sql: String,
        kind: StatementKind,
        dialect: Dialect,
        params: Vec<String>,
    ) -> Result<Statement> {
        crate::validate::validate(&sql, kind, dialect, params.len())?;
        Ok(Statement {
            sql,
            kind,
            dialect,
            params,
        })
    }

    /// The SQL text (no trailing semicolon).
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// What the statement does.
    pub fn kind(&self) -> StatementKind {
        self.kind
    }

    /// The dialect it was rendered for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// `ExecutionParameters`: one SQL literal per `?`, in order. Empty when the
    /// statement has no placeholders.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The SQL text, consuming the statement.
    pub fn into_sql(self) -> String {
        self.sql
    }
}

impl fmt::Display for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sql)
    }
}

impl AsRef<str> for Statement {
    fn as_ref(&self) -> &str {
        &self.sql
    }
}
