//! [`inspect`]: what the validator's parser read from a statement, as plain values
//! (`tree.rs` reads them from our parser's tree).
//!
//! The tests read the same from sqlparser's tree (`oracle::inspect`) and hold the two
//! to each other on the verdict corpus and the inspect tests' texts.

use crate::dialect::Dialect;
use crate::error::Result;
use crate::statement::StatementKind;

mod tree;

#[cfg(test)]
mod tests;

/// A name as the parser read it: its text without quotes, and the quote it had.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Name {
    /// The name, unquoted (doubled quote characters read as one).
    pub value: String,
    /// The quote character around it in the text, if any (`'` for a property key).
    pub quote: Option<char>,
}

/// What the parser read from one statement, in text order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inspection {
    pub(in crate::validate) strings: Vec<String>,
    pub(in crate::validate) names: Vec<Name>,
}

impl Inspection {
    /// Every single-quoted string literal (Trino's `U&'…'` too), unescaped as the grammar
    /// reads it.
    pub fn string_literals(&self) -> &[String] {
        &self.strings
    }

    /// Every name (tables, columns, aliases, property keys), unquoted.
    pub fn names(&self) -> &[Name] {
        &self.names
    }
}

/// Parses `sql` as one statement of `kind` with the parser `dialect` uses for it (the
/// token pre-pass and the grammar of [`validate_sql`](super::validate_sql), without
/// its per-kind and per-target checks, size and placeholder checks) and returns the
/// string literals and names it read: to check that a renderer's text reads back as
/// what it meant. Syntax that none of the targets writes (another engine's) is refused,
/// as `validate_sql` refuses it.
///
/// ```
/// use iceberg_sql::{Dialect, StatementKind};
/// use iceberg_sql::validate::inspect;
///
/// let read = inspect("SELECT 'O''Reilly' FROM \"select\"", StatementKind::Select, Dialect::Athena)?;
/// assert_eq!(read.string_literals(), ["O'Reilly"]);
/// assert_eq!(read.names()[0].value, "select");
/// assert_eq!(read.names()[0].quote, Some('"'));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn inspect(sql: &str, kind: StatementKind, dialect: Dialect) -> Result<Inspection> {
    let stmt = super::check::read(sql, dialect.grammar(kind), dialect)?;
    Ok(Inspection::of_tree(&stmt))
}
