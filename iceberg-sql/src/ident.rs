//! Identifier rules: what Athena accepts as a database, table or column name, and how
//! each grammar quotes a name that needs it.
//!
//! Athena folds names to lower case and supports only `[a-z0-9_]`, at most 255 bytes
//! (reference §3.5). We reject anything else instead of letting Athena change it.
//! Quoting is decided per grammar: a name is quoted when it is reserved in that grammar
//! or does not start with a letter.

use crate::dialect::Grammar;
use crate::error::{Error, ErrorKind, Result};

/// Longest name Athena accepts, in bytes.
pub const MAX_NAME_BYTES: usize = 255;

/// Words reserved by Athena's Hive DDL parser (AWS "Reserved keywords", DDL list).
pub const DDL_RESERVED: &[&str] = &[
    "all",
    "alter",
    "and",
    "array",
    "as",
    "authorization",
    "between",
    "bigint",
    "binary",
    "boolean",
    "both",
    "by",
    "case",
    "cashe",
    "cast",
    "char",
    "column",
    "commit",
    "conf",
    "constraint",
    "create",
    "cross",
    "cube",
    "current",
    "current_date",
    "current_timestamp",
    "cursor",
    "database",
    "date",
    "dayofweek",
    "decimal",
    "delete",
    "describe",
    "distinct",
    "div",
    "double",
    "drop",
    "else",
    "end",
    "exchange",
    "exists",
    "extended",
    "external",
    "extract",
    "false",
    "fetch",
    "float",
    "floor",
    "following",
    "for",
    "foreign",
    "from",
    "full",
    "function",
    "grant",
    "group",
    "grouping",
    "having",
    "if",
    "import",
    "in",
    "inner",
    "insert",
    "int",
    "integer",
    "intersect",
    "interval",
    "into",
    "is",
    "join",
    "lateral",
    "left",
    "less",
    "like",
    "local",
    "macro",
    "map",
    "more",
    "none",
    "not",
    "null",
    "numeric",
    "of",
    "on",
    "only",
    "or",
    "order",
    "out",
    "outer",
    "over",
    "partialscan",
    "partition",
    "percent",
    "preceding",
    "precision",
    "preserve",
    "primary",
    "procedure",
    "range",
    "reads",
    "reduce",
    "references",
    "regexp",
    "revoke",
    "right",
    "rlike",
    "rollback",
    "rollup",
    "row",
    "rows",
    "select",
    "set",
    "smallint",
    "start",
    "table",
    "tablesample",
    "then",
    "time",
    "timestamp",
    "to",
    "transform",
    "trigger",
    "true",
    "truncate",
    "unbounded",
    "union",
    "uniquejoin",
    "update",
    "user",
    "using",
    "utc_timestamp",
    "values",
    "varchar",
    "views",
    "when",
    "where",
    "window",
    "with",
];

/// Words reserved by Athena's Trino parser (AWS "Reserved keywords", SELECT/DML list).
pub const DML_RESERVED: &[&str] = &[
    "alter",
    "and",
    "as",
    "between",
    "by",
    "case",
    "cast",
    "constraint",
    "create",
    "cross",
    "cube",
    "current_catalog",
    "current_date",
    "current_path",
    "current_schema",
    "current_time",
    "current_timestamp",
    "current_user",
    "deallocate",
    "delete",
    "describe",
    "distinct",
    "drop",
    "else",
    "end",
    "escape",
    "except",
    "execute",
    "exists",
    "extract",
    "false",
    "first",
    "for",
    "from",
    "full",
    "group",
    "grouping",
    "having",
    "in",
    "inner",
    "insert",
    "intersect",
    "into",
    "is",
    "join",
    "json_array",
    "json_exists",
    "json_object",
    "json_query",
    "json_table",
    "json_value",
    "last",
    "left",
    "like",
    "listagg",
    "localtime",
    "localtimestamp",
    "natural",
    "normalize",
    "not",
    "null",
    "of",
    "on",
    "or",
    "order",
    "outer",
    "prepare",
    "recursive",
    "right",
    "rollup",
    "select",
    "skip",
    "table",
    "then",
    "trim",
    "true",
    "uescape",
    "union",
    "unnest",
    "using",
    "values",
    "when",
    "where",
    "with",
];

/// True when `word` (lower case) is reserved in Athena's DDL grammar.
pub fn is_ddl_reserved(word: &str) -> bool {
    DDL_RESERVED.contains(&word)
}

/// True when `word` (lower case) is reserved in Athena's DML grammar.
pub fn is_dml_reserved(word: &str) -> bool {
    DML_RESERVED.contains(&word)
}

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

/// True when `name` must be quoted in `grammar`: it is reserved there, or it does not
/// start with a letter (Athena: `_x` needs backticks in DDL, `1x` double quotes in DML).
pub fn needs_quotes(name: &str, grammar: Grammar) -> bool {
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !plain {
        return true;
    }
    match grammar {
        Grammar::HiveDdl => is_ddl_reserved(name),
        Grammar::TrinoDml => is_dml_reserved(name),
        // Spark's own reserved set depends on ANSI mode; quoting every word either
        // Athena list reserves is a safe superset.
        Grammar::Spark => is_ddl_reserved(name) || is_dml_reserved(name),
    }
}

/// Appends `name` to `out`, quoted as `grammar` requires.
///
/// Names are checked by [`check_name`] before they reach a renderer, so they never
/// contain a quote character; the doubling below is a second line of defence.
pub fn write_ident(out: &mut String, name: &str, grammar: Grammar) {
    if !needs_quotes(name, grammar) {
        out.push_str(name);
        return;
    }
    let q = match grammar {
        Grammar::HiveDdl | Grammar::Spark => '`',
        Grammar::TrinoDml => '"',
    };
    out.push(q);
    for c in name.chars() {
        if c == q {
            out.push(q);
        }
        out.push(c);
    }
    out.push(q);
}

/// Returns `name` quoted as `grammar` requires.
pub fn quote_ident(name: &str, grammar: Grammar) -> String {
    let mut s = String::with_capacity(name.len() + 2);
    write_ident(&mut s, name, grammar);
    s
}

/// For statements that cannot quote names at all (Athena's `OPTIMIZE`, the database
/// part of `VACUUM`): errors when `name` would need quotes.
pub fn require_unquoted(name: &str, statement: &str) -> Result<()> {
    if needs_quotes(name, Grammar::HiveDdl) || needs_quotes(name, Grammar::TrinoDml) {
        return Err(Error::new(
            ErrorKind::UnquotableIdentifier,
            format!(
                "`{name}` must be quoted (it is a reserved word or does not start with a letter), \
                 but Athena's {statement} statement has no documented way to quote names"
            ),
        )
        .with_hint(
            "rename the table or database to a plain name such as `t_".to_string() + name + "`",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_the_grammar() {
        // `date` is reserved in DDL only, `first` in DML only.
        assert_eq!(quote_ident("date", Grammar::HiveDdl), "`date`");
        assert_eq!(quote_ident("date", Grammar::TrinoDml), "date");
        assert_eq!(quote_ident("first", Grammar::HiveDdl), "first");
        assert_eq!(quote_ident("first", Grammar::TrinoDml), "\"first\"");
        assert_eq!(quote_ident("_x", Grammar::HiveDdl), "`_x`");
        assert_eq!(quote_ident("1x", Grammar::TrinoDml), "\"1x\"");
        assert_eq!(quote_ident("user", Grammar::Spark), "`user`");
    }

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

    #[test]
    fn reserved_lists_are_sorted_and_lower_case() {
        for list in [DDL_RESERVED, DML_RESERVED] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{:?}", list);
            assert!(list
                .iter()
                .all(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '_')));
        }
    }
}
