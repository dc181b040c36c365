//! [`inspect`]: what the validator's parser read from a statement, as plain values
//! (`tree.rs` reads them from our parser's tree).
//!
//! `tests/validate_verdicts.rs` holds what it reads from every accepted statement of the
//! verdict corpus.

use crate::dialect::Dialect;
use crate::error::Result;
use crate::statement::StatementKind;

mod tree;

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

/// How one statement reads columns (read by `tree.rs` from our parser's tree), for the
/// checks of a schema change against its readers (`crate::evolve`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct References {
    /// Every column name in an expression, `USING` list or select list, in text order.
    pub(crate) columns: Vec<ColumnUse>,
    /// Every table named in a `FROM` or a join, with its alias.
    pub(crate) tables: Vec<TableUse>,
    /// Every `*` and `t.*` of a select list.
    pub(crate) wildcards: Vec<Wildcard>,
    /// What the statement is.
    pub(crate) shape: Shape,
}

/// The clause of a query a column name stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Clause {
    /// The select list.
    Select,
    /// `WHERE` or `HAVING`.
    Filter,
    /// A join's `ON` or `USING`.
    Join,
    /// `GROUP BY`.
    GroupBy,
    /// `ORDER BY`.
    OrderBy,
    /// Anywhere else (a window, an `UPDATE`'s `SET`, …).
    #[default]
    Other,
}

/// One column name as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ColumnUse {
    /// Its parts, unquoted: `["t", "c"]` for `t.c`.
    pub(crate) parts: Vec<String>,
    pub(crate) clause: Clause,
    /// The byte range of each part's token (quotes included).
    pub(crate) spans: Vec<(usize, usize)>,
    /// Whether it is read in the outermost query (see `Wildcard::top`).
    pub(crate) top: bool,
    /// Whether it is a whole item, without alias, of the outermost select list: the
    /// output column it names is the column's name.
    pub(crate) output: bool,
}

/// A table read, `name [AS alias]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TableUse {
    pub(crate) name: Vec<String>,
    pub(crate) alias: Option<String>,
}

/// A `*` (empty qualifier) or `t.*` of a select list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wildcard {
    pub(crate) qualifier: Vec<String>,
    /// In the outermost query: its columns are the statement's output.
    pub(crate) top: bool,
    /// The byte range of a bare `*`.
    pub(crate) at: Option<(usize, usize)>,
}

/// What kind of statement was read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `CREATE [OR REPLACE] VIEW name AS query`; `query_at` is where its query starts.
    View { name: Vec<String>, query_at: usize },
    /// `INSERT INTO table [(columns)] …`.
    Insert {
        table: Vec<String>,
        columns: Vec<String>,
    },
    /// A query.
    Query,
    /// Anything else.
    #[default]
    Other,
}

/// [`References`] of `sql`, read as one statement in the grammar `dialect` writes
/// queries in (a query, an `INSERT`, a `CREATE VIEW`).
pub(crate) fn references(sql: &str, dialect: Dialect) -> Result<References> {
    super::check_size(sql)?;
    let stmt = super::check::read(sql, dialect.grammar(StatementKind::Select), dialect)?;
    Ok(References::of_tree(&stmt, sql))
}
