//! Identifier rules: what Athena accepts as a database, table or column name.
//!
//! Athena folds names to lower case and supports only `[a-z0-9_]`, at most 255 bytes
//! (<https://docs.aws.amazon.com/athena/latest/ug/tables-databases-columns-names.html>).
//! We reject anything else instead of letting Athena change it. How a name is quoted
//! is the statement's grammar's decision ([`Grammar`](crate::Grammar)).

use crate::error::{Error, ErrorKind, Result};

/// Longest name Athena accepts, in bytes.
pub const MAX_NAME_BYTES: usize = 255;

/// What a name is, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameRole {
    /// A database (Glue schema) name.
    Database,
    /// A table name.
    Table,
    /// A column or struct field name.
    Column,
}

impl NameRole {
    fn as_str(self) -> &'static str {
        match self {
            NameRole::Database => "database",
            NameRole::Table => "table",
            NameRole::Column => "column",
        }
    }
}

/// Checks that `name` is a name Athena stores unchanged: 1 to 255 bytes of `[a-z0-9_]`.
///
/// ```
/// use iceberg_sql::ident::{check_name, NameRole};
/// assert!(check_name("event_ts", NameRole::Column).is_ok());
/// let err = check_name("EventTs", NameRole::Column).unwrap_err();
/// assert!(err.message().contains("upper case"));
/// ```
pub fn check_name(name: &str, role: NameRole) -> Result<()> {
    let what = role.as_str();
    if name.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidIdentifier,
            format!("{what} name is empty"),
        ));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidIdentifier,
            format!(
                "{what} name `{}…` is {} bytes long; Athena allows at most {MAX_NAME_BYTES}",
                name.chars().take(32).collect::<String>(),
                name.len()
            ),
        )
        .with_hint("use a shorter name (with the derive: #[iceberg(rename = \"...\")])"));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))
    {
        let suggestion = suggest_name(name);
        let reason = if bad.is_uppercase() {
            "contains upper case, which Athena folds to lower case".to_string()
        } else {
            format!("contains {bad:?}; Athena supports only a-z, 0-9 and _ in names")
        };
        return Err(Error::new(
            ErrorKind::InvalidIdentifier,
            format!("{what} name `{}` {reason}", name.escape_debug()),
        )
        .with_hint(format!(
            "use `{suggestion}` (with the derive: #[iceberg(rename = \"{suggestion}\")])"
        )));
    }
    Ok(())
}

/// A lower-snake-case version of `name` with only `[a-z0-9_]`, for hints.
pub fn suggest_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
            prev_lower = true;
        } else {
            if !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        "col".to_string()
    } else {
        trimmed.chars().take(MAX_NAME_BYTES).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(
            check_name("Event", NameRole::Column).unwrap_err().kind(),
            ErrorKind::InvalidIdentifier
        );
        assert!(check_name("a-b", NameRole::Table)
            .unwrap_err()
            .message()
            .contains("'-'"));
        assert!(check_name(&"a".repeat(256), NameRole::Column).is_err());
        assert!(check_name(&"a".repeat(255), NameRole::Column).is_ok());
        assert_eq!(suggest_name("EventTs"), "event_ts");
    }
}
