//! [`SqlWriter`]: the text of one statement under construction.

use std::fmt;

use crate::dialect::{Dialect, DialectRules, Grammar};
use crate::error::Result;
use crate::model::TableName;
use crate::statement::{Statement, StatementKind};
use crate::types::IcebergType;
use crate::value::Value;

/// A buffer of SQL text for one statement of a known kind and target. The statement's
/// [`Grammar`] (chosen by the target for the kind) spells names, types and literals.
pub struct SqlWriter {
    sql: String,
    kind: StatementKind,
    dialect: Dialect,
    rules: &'static dyn DialectRules,
    grammar: Grammar,
    params: Vec<String>,
    reads_json: bool,
}

impl fmt::Debug for SqlWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqlWriter")
            .field("sql", &self.sql)
            .field("kind", &self.kind)
            .field("dialect", &self.dialect)
            .field("grammar", &self.grammar)
            .field("params", &self.params)
            .finish()
    }
}

impl SqlWriter {
    /// An empty statement of `kind` in `dialect`.
    pub fn new(kind: StatementKind, dialect: Dialect) -> Self {
        Self::with_capacity(kind, dialect, 256)
    }

    /// As [`SqlWriter::new`], reserving `capacity` bytes.
    pub fn with_capacity(kind: StatementKind, dialect: Dialect, capacity: usize) -> Self {
        let rules = dialect.rules();
        SqlWriter {
            sql: String::with_capacity(capacity),
            kind,
            dialect,
            rules,
            grammar: rules.grammar(kind),
            params: Vec::new(),
            reads_json: false,
        }
    }

    /// The target being written for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The target's rules, for builders' hooks.
    pub(crate) fn rules(&self) -> &'static dyn DialectRules {
        self.rules
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

    /// Empties the text (keeping its allocation), for a writer reused per row.
    pub(crate) fn clear(&mut self) {
        self.sql.clear();
    }

    /// The text without validation: only for measuring rendering on its own
    /// (`Insert::batch_texts_unvalidated`); never becomes a [`Statement`].
    #[cfg(feature = "bench-hooks")]
    pub(crate) fn into_unvalidated_text(self) -> String {
        self.sql
    }

    /// Appends SQL keywords or punctuation (never user input).
    // Inlined into the builders (generic, so compiled in the caller's crate): every
    // statement makes several of these calls.
    #[inline]
    pub fn push(&mut self, sql: &str) -> &mut Self {
        self.sql.push_str(sql);
        self
    }

    /// Appends one character of punctuation.
    #[inline]
    pub fn push_char(&mut self, c: char) -> &mut Self {
        self.sql.push(c);
        self
    }

    /// Appends a name, quoted as the grammar requires.
    pub fn ident(&mut self, name: &str) -> &mut Self {
        self.grammar.write_ident(&mut self.sql, name);
        self
    }

    /// Appends a table reference, as the target writes one (`database.table`, each
    /// part quoted as needed).
    pub fn table_name(&mut self, name: &TableName) -> &mut Self {
        let rules = self.rules;
        rules.write_table_name(self, name);
        self
    }

    /// Appends a type as the grammar spells it.
    pub fn ty(&mut self, ty: &IcebergType) -> &mut Self {
        self.grammar.write_type(&mut self.sql, ty);
        self
    }

    /// Appends `value` as a literal of type `ty`.
    pub fn literal(&mut self, value: &Value, ty: &IcebergType) -> Result<&mut Self> {
        self.grammar.write_literal(&mut self.sql, value, ty)?;
        Ok(self)
    }

    /// Appends `value` as a comparison's operand (`Grammar::write_compared_literal`).
    pub(crate) fn compared_literal(
        &mut self,
        value: &Value,
        ty: &IcebergType,
    ) -> Result<&mut Self> {
        self.grammar
            .write_compared_literal(&mut self.sql, value, ty)?;
        Ok(self)
    }

    /// Appends a DML string literal (any text; escaped for the grammar).
    pub fn string(&mut self, text: &str) -> &mut Self {
        self.grammar.write_string(&mut self.sql, text);
        self
    }

    /// Appends a DDL string literal; `what` names it in the error if the grammar cannot
    /// hold the text (a quote, backslash or control character; `${` in Spark).
    pub fn ddl_string(&mut self, what: &str, text: &str) -> Result<&mut Self> {
        self.grammar.write_ddl_string(&mut self.sql, what, text)?;
        Ok(self)
    }

    /// Appends a `?` placeholder bound to `literal` (SQL literal text).
    pub fn placeholder(&mut self, literal: String) -> &mut Self {
        self.sql.push('?');
        self.params.push(literal);
        self
    }

    /// Notes that the statement reads nested values back as JSON text
    /// (`CAST(c AS JSON)`): its rows are for decoding, not for another statement.
    pub(crate) fn mark_reads_json(&mut self) {
        self.reads_json = true;
    }

    /// For an `INSERT … VALUES` without placeholders whose rows start at byte
    /// `rows_at`: validates the statement through its first row with the full
    /// validator and every row with the VALUES recognizer, and returns the
    /// [`Statement`].
    pub(crate) fn finish_insert_values(self, rows_at: usize) -> Result<Statement> {
        debug_assert!(self.kind == StatementKind::Insert && self.params.is_empty());
        let sql = super::measure::keep_if_measuring(self.sql)?;
        if self.kind != StatementKind::Insert || !self.params.is_empty() {
            return Statement::validated(sql, self.kind, self.dialect, self.params);
        }
        Statement::validated_insert_values(sql, self.dialect, rows_at)
    }

    /// Validates the text and returns the [`Statement`].
    pub fn finish(self) -> Result<Statement> {
        let sql = super::measure::keep_if_measuring(self.sql)?;
        let mut s = Statement::validated(sql, self.kind, self.dialect, self.params)?;
        s.set_reads_json(self.reads_json);
        Ok(s)
    }
}
