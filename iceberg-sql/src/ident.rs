//! Identifier rules: what Athena accepts as a database, table or column name.
//!
//! Athena folds names to lower case and supports only `[a-z0-9_]`, at most 255 bytes
//! (<https://docs.aws.amazon.com/athena/latest/ug/tables-databases-columns-names.html>).
//! We reject anything else instead of letting Athena change it. How a name is quoted
//! is the statement's grammar's decision ([`Grammar`](crate::Grammar)).

use crate::error::{Error, ErrorKind, Result};

pub use iceberg_sql_rules::{suggest_name, MAX_NAME_BYTES};

use iceberg_sql_rules::NameProblem;

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
    let problem = match iceberg_sql_rules::check_name(name) {
        Ok(()) => return Ok(()),
        Err(p) => p,
    };
    let reason = match problem {
        NameProblem::Empty => {
            return Err(Error::new(
                ErrorKind::InvalidIdentifier,
                format!("{what} name is empty"),
            ))
        }
        NameProblem::TooLong(bytes) => {
            return Err(Error::new(
                ErrorKind::InvalidIdentifier,
                format!(
                "{what} name `{}…` is {bytes} bytes long; Athena allows at most {MAX_NAME_BYTES}",
                name.chars().take(32).collect::<String>(),
            ),
            )
            .with_hint("use a shorter name (with the derive: #[iceberg(rename = \"...\")])"))
        }
        NameProblem::UpperCase => {
            "contains upper case, which Athena folds to lower case".to_string()
        }
        NameProblem::BadChar(bad) => {
            format!("contains {bad:?}; Athena supports only a-z, 0-9 and _ in names")
        }
    };
    let suggestion = suggest_name(name);
    Err(Error::new(
        ErrorKind::InvalidIdentifier,
        format!("{what} name `{}` {reason}", name.escape_debug()),
    )
    .with_hint(format!(
        "use `{suggestion}` (with the derive: #[iceberg(rename = \"{suggestion}\")])"
    )))
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
