//! Athena's part of the validator, for both of its grammars (Hive DDL and Trino DML):
//! its statement shapes as plain values the checks read (`check/`): Hive `CREATE TABLE
//! … TBLPROPERTIES ('table_type'='ICEBERG')` with a LOCATION, CTAS `WITH (…)` and its
//! `partitioning` entries, `SHOW TABLES IN db 'pattern'`, the staging table as an
//! external table; no `DROP TABLE … PURGE`.

use super::{FilterForm, Staging, TargetSyntax};

/// Athena's part of the validator.
pub(crate) struct AthenaSyntax;

impl TargetSyntax for AthenaSyntax {
    fn purge_refusal(&self) -> Option<&'static str> {
        Some(
            "DROP TABLE … PURGE is Spark syntax: Athena's DROP TABLE on an Iceberg table \
             always deletes the data; write DROP TABLE [IF EXISTS] t",
        )
    }

    fn staging(&self) -> Staging {
        Staging::ExternalTable
    }
}

/// `SHOW TABLES IN db 'pattern'`: a bare single-quoted pattern, no LIKE
/// (<https://docs.aws.amazon.com/athena/latest/ug/show-tables.html>).
pub(crate) fn show_tables_filter_problem(
    engine: &str,
    filter: FilterForm,
    shown: &dyn std::fmt::Display,
) -> Option<String> {
    (filter != FilterForm::Bare).then(|| {
        format!(
            "SHOW TABLES filter `{shown}`: {engine} writes the pattern as a bare string, SHOW TABLES IN db 'pattern'"
        )
    })
}

/// Whether a `TBLPROPERTIES` entry (its key's name, its string value) makes the table
/// Iceberg's: `'table_type'='ICEBERG'`, in any letter case.
pub(crate) fn is_iceberg_table_type(key: &str, value: &str) -> bool {
    key.eq_ignore_ascii_case("table_type") && value.eq_ignore_ascii_case("iceberg")
}

/// The refusal of a Hive DDL `CREATE TABLE` that is not Iceberg's.
pub(crate) const ICEBERG_TABLE_TYPE: &str =
    "Athena creates an Iceberg table only with TBLPROPERTIES ('table_type'='ICEBERG', …)";

/// The refusal of a CTAS `partitioning` property that is not an array.
pub(crate) const CTAS_PARTITIONING_ARRAY: &str = "CTAS partitioning takes ARRAY['transform', …]";

/// One entry of a CTAS `partitioning = ARRAY[…]` (`shown`: as written; `string`: its
/// value when it is a `'…'` string): a column or a transform, column first.
pub(crate) fn ctas_partitioning_entry_problem(
    shown: &dyn std::fmt::Display,
    string: Option<&str>,
) -> Option<String> {
    (!string.is_some_and(ctas_transform_ok)).then(|| {
        format!(
            "CTAS partitioning entry {shown}: Athena CTAS accepts 'col', 'year(col)', 'month(col)', \
             'day(col)', 'hour(col)', 'bucket(col, N)' or 'truncate(col, L)' (column first, \
             unlike CREATE TABLE's bucket(N, col))"
        )
    })
}

fn is_plain_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn ctas_transform_ok(s: &str) -> bool {
    let s = s.trim();
    if is_plain_ident(s) {
        return true;
    }
    let Some((name, rest)) = s.split_once('(') else {
        return false;
    };
    let Some(args) = rest.strip_suffix(')') else {
        return false;
    };
    let args: Vec<&str> = args.split(',').map(str::trim).collect();
    match (name.trim().to_ascii_lowercase().as_str(), args.as_slice()) {
        ("year" | "month" | "day" | "hour", [col]) => is_plain_ident(col),
        ("bucket" | "truncate", [col, n]) => {
            is_plain_ident(col) && n.parse::<u32>().is_ok_and(|n| n > 0)
        }
        _ => false,
    }
}
