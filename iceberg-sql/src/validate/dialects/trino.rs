//! Trino's part of the validator (Trino's grammar for every statement): the Iceberg
//! connector's statement shapes, as plain values the checks read (`check/`): `CREATE
//! TABLE … [COMMENT '…'] [WITH (…)]` (CTAS too), `ALTER TABLE` with `ADD COLUMN`, `DROP
//! COLUMN`, `RENAME COLUMN`, `ALTER COLUMN … SET DATA TYPE`, `SET PROPERTIES`, `RENAME
//! TO`, and `ALTER TABLE … EXECUTE optimize | expire_snapshots | remove_orphan_files`; `CREATE SCHEMA`, `DROP
//! SCHEMA`, `SHOW TABLES … LIKE`; no `DROP TABLE … PURGE`, no `UNLOAD`.
//!
//! Shapes from <https://trino.io/docs/current/sql/create-table.html>,
//! <https://trino.io/docs/current/sql/alter-table.html> and
//! <https://trino.io/docs/current/connector/iceberg.html>.

use super::{FilterForm, Maintenance, Staging, TargetSyntax};
use crate::dialect::Grammar;

/// Trino's part of the validator.
pub(crate) struct TrinoSyntax;

impl TargetSyntax for TrinoSyntax {
    fn purge_refusal(&self) -> Option<&'static str> {
        Some(
            "DROP TABLE … PURGE is Spark syntax: Trino's DROP TABLE on an Iceberg table deletes \
             its data; write DROP TABLE [IF EXISTS] t",
        )
    }

    fn maintenance(&self) -> Maintenance {
        Maintenance::AlterTableExecute
    }

    fn unload_refusal(&self) -> Option<&'static str> {
        Some("UNLOAD is Athena-only; Trino has no UNLOAD statement")
    }

    /// Never built: the dialect refuses staged loads on Trino.
    fn staging(&self) -> Staging {
        Staging::Refused {
            why: "a staging table on Trino: the Iceberg connector creates Iceberg tables only"
                .into(),
            at: None,
        }
    }

    /// `SHOW TABLES IN s LIKE 'pattern'` (SQL LIKE).
    fn show_tables_filter_problem(
        &self,
        _engine: &str,
        filter: FilterForm,
        shown: &dyn std::fmt::Display,
    ) -> Option<String> {
        (filter != FilterForm::Like).then(|| {
            format!("SHOW TABLES filter `{shown}`: Trino writes SHOW TABLES IN s LIKE 'pattern'")
        })
    }

    fn grammar_name(&self, _grammar: Grammar) -> &'static str {
        "Trino"
    }

    fn grammar_label(&self, _grammar: Grammar) -> &'static str {
        "Trino SQL"
    }

    fn system_time_refusal(&self) -> &'static str {
        "not Trino syntax (Trino writes FOR VERSION AS OF / FOR TIMESTAMP AS OF)"
    }

    /// Trino parses one statement without a terminating `;` (SqlBase.g4,
    /// `singleStatement: statement EOF`); its CLI strips the `;`, its server does not.
    fn accepts_a_final_semicolon(&self) -> bool {
        false
    }
}

/// A `CREATE SCHEMA … WITH (key = …)` key other than `location`, the Iceberg
/// connector's one schema property (`shown`: the key as written; `plain`: unquoted).
pub(crate) fn schema_property_problem(
    shown: &dyn std::fmt::Display,
    plain: bool,
    key: &str,
) -> Option<String> {
    (!plain || !key.eq_ignore_ascii_case("location")).then(|| {
        format!(
            "schema property `{shown}`: the Iceberg connector's CREATE SCHEMA takes WITH (location = '…')"
        )
    })
}

/// A `LIKE … ESCAPE` character other than the only one this crate writes, `\`.
pub(crate) fn like_escape_problem(escape: &str) -> Option<String> {
    (escape != "\\").then(|| format!("LIKE … ESCAPE '{escape}': this crate escapes with '\\' only"))
}

const TRINO_TYPES: &str = "boolean, integer, bigint, real, double, decimal(p, s), date, \
     timestamp(6), timestamp(6) with time zone, varchar, varbinary, array(T), map(K, V) and \
     row(name T, …)";

/// A column type node (`shown`) that is not one of the Iceberg connector's (`iceberg`:
/// whether it is).
pub(crate) fn trino_column_type_problem(
    shown: &dyn std::fmt::Display,
    iceberg: bool,
) -> Option<String> {
    (!iceberg).then(|| {
        format!("type `{shown}` is not a Trino Iceberg column type; Trino accepts {TRINO_TYPES}")
    })
}
