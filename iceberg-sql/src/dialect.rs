//! Target SQL dialects, and the grammar each statement kind is parsed by.

/// The engine a statement is rendered for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// Amazon Athena engine v3: Hive-style DDL, Trino-style DML.
    #[default]
    Athena,
    /// Apache Spark 3.5 with Iceberg's SQL extensions (Glue, EMR, local tests).
    Spark,
}

/// The parser a statement's text goes through. It decides quoting and literal rules:
/// nobody calling the API picks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grammar {
    /// Athena DDL (CREATE TABLE, ALTER, DROP, ...): backticks, Hive type names,
    /// string literals without escapes.
    HiveDdl,
    /// Athena DML and queries (SELECT, INSERT, UPDATE, DELETE, MERGE, CTAS, UNLOAD):
    /// double quotes, Trino type names, `''` inside strings.
    TrinoDml,
    /// Spark SQL: backticks, Spark type names, backslash escapes inside strings.
    Spark,
}
