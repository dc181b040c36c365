//! Shared machinery for turning statement ASTs into SQL text.
//!
//! Each statement module renders itself for both dialects, side by side, through a
//! [`SqlWriter`]: the writer knows the statement's [`Grammar`] and so picks quoting,
//! type names and literal escaping; a renderer never decides them by hand.

use crate::dialect::{Dialect, Grammar};
use crate::error::Result;
use crate::model::TableName;
use crate::statement::{Statement, StatementKind};
use crate::types::IcebergType;
use crate::value::{self, Value};

/// A buffer of SQL text for one statement of a known kind and dialect.
#[derive(Debug)]
pub struct SqlWriter {
    sql: String,
    kind: StatementKind,
    dialect: Dialect,
    grammar: Grammar,
    params: Vec<String>,
}

impl SqlWriter {
    /// An empty statement of `kind` in `dialect`.
    pub fn new(kind: StatementKind, dialect: Dialect) -> Self {
        Self::with_capacity(kind, dialect, 256)
    }

    /// As [`SqlWriter::new`], reserving `capacity` bytes.
    pub fn with_capacity(kind: StatementKind, dialect: Dialect, capacity: usize) -> Self {
        SqlWriter {
            sql: String::with_capacity(capacity),
            kind,
            dialect,
            grammar: kind.grammar(dialect),
            params: Vec::new(),
        }
    }

    /// The dialect being written.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The grammar being written.
    pub fn grammar(&self) -> Grammar {
        self.grammar
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        &self.sql
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.sql.len()
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.sql.is_empty()
    }

    /// Appends SQL keywords or punctuation (never user input).
    pub fn push(&mut self, sql: &str) -> &mut Self {
        self.sql.push_str(sql);
        self
    }

    /// Appends one character of punctuation.
    pub fn push_char(&mut self, c: char) -> &mut Self {
        self.sql.push(c);
        self
    }

    /// Appends a name, quoted as the grammar requires.
    pub fn ident(&mut self, name: &str) -> &mut Self {
        crate::ident::write_ident(&mut self.sql, name, self.grammar);
        self
    }

    /// Appends `database.table`, each part quoted as needed.
    pub fn table_name(&mut self, name: &TableName) -> &mut Self {
        self.ident(&name.database).push_char('.').ident(&name.table)
    }

    /// Appends a type as the grammar spells it.
    pub fn ty(&mut self, ty: &IcebergType) -> &mut Self {
        ty.write_sql(&mut self.sql, self.grammar);
        self
    }

    /// Appends `value` as a literal of type `ty`.
    pub fn literal(&mut self, value: &Value, ty: &IcebergType) -> Result<&mut Self> {
        value::write_literal(&mut self.sql, value, ty, self.grammar)?;
        Ok(self)
    }

    /// Appends a DML string literal (any text; escaped for the grammar).
    pub fn string(&mut self, text: &str) -> &mut Self {
        value::write_string(&mut self.sql, text, self.grammar);
        self
    }

    /// Appends a DDL string literal; `what` names it in the error if the text has a
    /// quote, backslash or control character.
    pub fn ddl_string(&mut self, what: &str, text: &str) -> Result<&mut Self> {
        if self.grammar == Grammar::Spark && text.contains("${") {
            // DDL strings cannot hold escapes, and stock Spark would substitute `${var}`.
            return Err(crate::error::Error::new(
                crate::error::ErrorKind::InvalidValue,
                format!("{what} contains `${{`, which Spark replaces with a variable's value"),
            )
            .with_hint("remove the `${` sequence from the text"));
        }
        value::write_ddl_string(&mut self.sql, what, text)?;
        Ok(self)
    }

    /// Appends a `?` placeholder bound to `literal` (SQL literal text).
    pub fn placeholder(&mut self, literal: String) -> &mut Self {
        self.sql.push('?');
        self.params.push(literal);
        self
    }

    /// Validates the text and returns the [`Statement`].
    pub fn finish(self) -> Result<Statement> {
        Statement::validated(self.sql, self.kind, self.dialect, self.params)
    }
}
