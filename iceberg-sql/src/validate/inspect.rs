//! [`inspect`]: what the validator's parser read from a statement, as plain values.
//!
//! `inspect_tree` reads the same from our own parser's tree (`tree.rs`): compiled
//! for tests, like the parser, until it replaces sqlparser on the `build()` path; its
//! tests hold it to [`inspect`] on the verdict corpus and the inspect tests' texts.

use std::ops::ControlFlow;

use sqlparser::ast::{Ident, Value, ValueWithSpan};

use super::ast_pass::AstPass;
use super::walk;

use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::statement::StatementKind;

#[cfg(test)]
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
    strings: Vec<String>,
    names: Vec<Name>,
}

impl Inspection {
    /// Every single-quoted string literal, unescaped as the grammar reads it.
    pub fn string_literals(&self) -> &[String] {
        &self.strings
    }

    /// Every name (tables, columns, aliases, property keys), unquoted.
    pub fn names(&self) -> &[Name] {
        &self.names
    }
}

/// Parses `sql` as one statement of `kind` with the parser `dialect` uses for it (the
/// hooks and refusals of [`validate_sql`](super::validate_sql), without its per-kind
/// and per-target checks, size and placeholder checks) and returns the string literals
/// and names it read: to check that a renderer's text reads back as what it meant.
/// Syntax that none of the targets writes (another engine's) is refused, as
/// `validate_sql` refuses it.
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
    super::with_parsed(sql, kind, dialect, |stmt| {
        let mut collect = Collect::default();
        match walk::statement(stmt, sql, &mut collect) {
            ControlFlow::Continue(()) => Ok(collect.0),
            // Syntax none of our targets writes: there is nothing to read back.
            ControlFlow::Break(e) => Err(e),
        }
    })?
}

/// [`inspect`] with our own parser (`super::parser`) in place of sqlparser: the token
/// pre-pass's refusals, the `;`s the target takes around the statement dropped, then
/// our parser in the grammar `dialect` gives `kind` (`check::read`), then what its tree
/// holds ([`Inspection::of_tree`]).
#[cfg(test)]
pub(crate) fn inspect_tree(sql: &str, kind: StatementKind, dialect: Dialect) -> Result<Inspection> {
    let stmt = super::check::read(sql, dialect.grammar(kind), dialect)?;
    Ok(Inspection::of_tree(&stmt))
}

#[derive(Default)]
struct Collect(Inspection);

impl AstPass for Collect {
    fn value(&mut self, value: &ValueWithSpan) -> ControlFlow<Error> {
        if let Value::SingleQuotedString(s) = &value.value {
            self.0.strings.push(s.clone());
        }
        ControlFlow::Continue(())
    }

    fn ident(&mut self, ident: &Ident) -> ControlFlow<Error> {
        self.0.names.push(Name {
            value: ident.value.clone(),
            quote: ident.quote_style,
        });
        ControlFlow::Continue(())
    }
}
