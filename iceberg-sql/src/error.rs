//! The crate's one error type.
//!
//! Every failure has an [`ErrorKind`] (what class of rule was broken), a message that
//! says what was wrong and where, an optional hint that says how to fix it, and, for
//! errors found in generated SQL, the offending line with a caret under the position.

use std::borrow::Cow;
use std::fmt;

/// The class of rule an [`Error`] reports. Match on this, not on the message text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A database, table or column name Athena would reject or silently change.
    InvalidIdentifier,
    /// A name that must be quoted in a statement whose grammar cannot quote it.
    UnquotableIdentifier,
    /// A type Athena cannot declare (e.g. `decimal(39,0)`, `timestamptz` in DDL).
    InvalidType,
    /// A partition field that names no column, or a transform on a type it cannot take.
    InvalidPartition,
    /// A table property Athena does not accept, or a value out of its range.
    InvalidProperty,
    /// A table location that is not an S3 folder.
    InvalidLocation,
    /// A value that cannot be written as a literal of the column's type.
    InvalidValue,
    /// Types Athena's engine would refuse when it runs the statement (an assignment, a
    /// comparison, a function's argument, a CAST), or would convert with another
    /// meaning (rounding silently).
    TypeMismatch,
    /// A table definition that is inconsistent (no columns, duplicate names, ...).
    InvalidTable,
    /// A name that is not a column of the table (or query) a statement reads or writes.
    UnknownColumn,
    /// Query text longer than Athena's 262,144-byte limit.
    QueryTooLong,
    /// The generated text does not parse as exactly one statement of the expected shape.
    Syntax,
    /// A construct this statement kind does not allow: found in the generated text by the
    /// validator, or in the statement's description by its builder (an aggregate in
    /// WHERE, an UPDATE without WHERE or `all_rows()`, a MERGE clause that can never run).
    DisallowedSyntax,
    /// Something the chosen dialect cannot express.
    Unsupported,
    /// A result row that cannot be decoded into the requested type.
    Decode,
}

/// Where in generated SQL an error was found, for the caret display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqlLocation {
    /// 1-based line number in the SQL text.
    pub line: usize,
    /// 1-based column (in characters) in that line.
    pub column: usize,
}

/// The crate's error: what was wrong, where, and how to fix it.
///
/// Boxed inside so that `Result<T, Error>` stays one pointer wide on the happy path.
#[derive(Debug, Clone, PartialEq)]
pub struct Error(Box<Inner>);

#[derive(Debug, Clone, PartialEq)]
struct Inner {
    kind: ErrorKind,
    message: Cow<'static, str>,
    hint: Option<String>,
    sql: Option<(String, Option<SqlLocation>)>,
    more: Vec<Error>,
}

impl Error {
    /// A new error of `kind` with `message`.
    #[cold]
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error(Box::new(Inner {
            kind,
            message: Cow::Owned(message.into()),
            hint: None,
            sql: None,
            more: Vec::new(),
        }))
    }

    /// A new error of `kind` whose message is fixed text: nothing is allocated for it.
    #[cold]
    pub(crate) fn from_static(kind: ErrorKind, message: &'static str) -> Self {
        Error(Box::new(Inner {
            kind,
            message: Cow::Borrowed(message),
            hint: None,
            sql: None,
            more: Vec::new(),
        }))
    }

    /// Adds how to fix it.
    #[cold]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.0.hint = Some(hint.into());
        self
    }

    /// Attaches the SQL text (and position, if known) the error was found in.
    pub fn with_sql(mut self, sql: impl Into<String>, location: Option<SqlLocation>) -> Self {
        self.0.sql = Some((sql.into(), location));
        self
    }

    /// Folds several errors into one: the first is the headline, the rest follow it.
    /// Returns `None` for an empty list.
    pub fn combine(mut errors: Vec<Error>) -> Option<Error> {
        if errors.is_empty() {
            return None;
        }
        let mut first = errors.remove(0);
        first.0.more.extend(errors);
        Some(first)
    }

    /// This error's problems, then `other`'s, as one error.
    #[cold]
    pub(crate) fn and(mut self, other: Error) -> Error {
        self.0.more.extend(other.into_vec());
        self
    }

    /// Turns a list of problems into `Ok(())` when empty, or one combined error.
    pub fn check_all(errors: Vec<Error>) -> Result<(), Error> {
        match Error::combine(errors) {
            None => Ok(()),
            Some(e) => Err(e),
        }
    }

    /// The class of rule that was broken.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// What was wrong and where, without the hint or SQL excerpt.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// How to fix it, when there is a known fix.
    pub fn hint(&self) -> Option<&str> {
        self.0.hint.as_deref()
    }

    /// The SQL text the error was found in, if any.
    pub fn sql(&self) -> Option<&str> {
        self.0.sql.as_ref().map(|(s, _)| s.as_str())
    }

    /// The position in [`Error::sql`] the error points at, if known.
    pub fn location(&self) -> Option<&SqlLocation> {
        self.0.sql.as_ref().and_then(|(_, l)| l.as_ref())
    }

    /// Further problems found by the same check (all errors are reported at once).
    pub fn others(&self) -> &[Error] {
        &self.0.more
    }

    /// Splits this error into its problems, each without the others attached.
    pub fn into_vec(mut self) -> Vec<Error> {
        let more = std::mem::take(&mut self.0.more);
        let mut v = Vec::with_capacity(1 + more.len());
        v.push(self);
        v.extend(more);
        v
    }

    /// Every problem in this error: itself, then [`Error::others`].
    pub fn all(&self) -> impl Iterator<Item = &Error> {
        std::iter::once(self).chain(self.0.more.iter())
    }
}

/// Renders the SQL line at `loc` with a caret under the column.
fn write_caret(f: &mut fmt::Formatter<'_>, sql: &str, loc: &SqlLocation) -> fmt::Result {
    let Some(line) = sql.lines().nth(loc.line.saturating_sub(1)) else {
        return Ok(());
    };
    let gutter = loc.line.to_string();
    writeln!(f, "{} | {}", gutter, line)?;
    let pad: String = line
        .chars()
        .take(loc.column.saturating_sub(1))
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    write!(f, "{} | {}^", " ".repeat(gutter.len()), pad)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.message)?;
        if let Some((sql, loc)) = &self.0.sql {
            match loc {
                Some(loc) => {
                    writeln!(f, " (line {}, column {})", loc.line, loc.column)?;
                    write_caret(f, sql, loc)?;
                }
                None if sql.len() <= 400 => write!(f, "\n  in: {}", sql)?,
                None => {}
            }
        }
        if let Some(h) = &self.0.hint {
            write!(f, "\n  help: {}", h)?;
        }
        for e in &self.0.more {
            write!(f, "\nalso: {}", e)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// The crate's `Result`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_points_at_the_column() {
        let e = Error::new(ErrorKind::Syntax, "unexpected token `FROM`").with_sql(
            "SELECT a\nFROM FROM t",
            Some(SqlLocation { line: 2, column: 6 }),
        );
        assert_eq!(
            e.to_string(),
            "unexpected token `FROM` (line 2, column 6)\n2 | FROM FROM t\n  |      ^"
        );
    }

    #[test]
    fn combined_errors_list_every_problem() {
        let e = Error::combine(vec![
            Error::new(ErrorKind::InvalidIdentifier, "a"),
            Error::new(ErrorKind::InvalidType, "b").with_hint("c"),
        ])
        .unwrap();
        assert_eq!(e.kind(), ErrorKind::InvalidIdentifier);
        assert_eq!(e.all().count(), 2);
        assert_eq!(e.to_string(), "a\nalso: b\n  help: c");
    }
}
