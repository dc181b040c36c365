//! Each target's part of the validator: the statement shapes in which targets differ
//! (CREATE TABLE clauses, OPTIMIZE and VACUUM, UNLOAD, `DROP TABLE … PURGE`, the `SHOW
//! TABLES` filter, `DROP DATABASE … CASCADE`), as plain values the checks read.
//!
//! A target's [`DialectRules`](crate::dialect::DialectRules) names its part here
//! (`syntax()`); a new target adds one file.

pub(crate) mod athena;
pub(crate) mod athena_s3_tables;
pub(crate) mod spark;
pub(crate) mod trino;

use crate::dialect::Grammar;
use crate::statement::StatementKind;

/// The validator's part of one target.
pub(crate) trait TargetSyntax: Sync {
    /// Why `ALTER TABLE … RENAME TO` is refused where the engine's grammar has it but
    /// its catalog does not (`None`: the engine renames tables).
    fn rename_table_refusal(&self) -> Option<String> {
        None
    }

    /// Why `DROP TABLE … PURGE` is refused (`None`: the engine has it).
    fn purge_refusal(&self) -> Option<&'static str>;

    /// How the target writes compaction and snapshot expiry. Default: Athena's
    /// statements.
    fn maintenance(&self) -> Maintenance {
        Maintenance::AthenaStatements
    }

    /// Why the target has no UNLOAD (`None`: it has Athena's). Default: Athena's.
    fn unload_refusal(&self) -> Option<&'static str> {
        None
    }

    /// What is wrong with the table-name filter of `SHOW TABLES IN db` (`shown`: the
    /// filter as written, for the message). Default: Athena's bare `'pattern'`.
    fn show_tables_filter_problem(
        &self,
        engine: &str,
        filter: FilterForm,
        shown: &dyn std::fmt::Display,
    ) -> Option<String> {
        athena::show_tables_filter_problem(engine, filter, shown)
    }

    /// Why `DROP DATABASE … CASCADE` is refused, where it does not drop the tables with
    /// their data. Default: Athena's, which does.
    fn drop_database_cascade_refusal(&self) -> Option<&'static str> {
        None
    }

    /// The name of `grammar` in this target's messages (Athena: "Athena DML (Trino
    /// grammar)"; a target that parses everything with Trino's grammar calls it Trino).
    fn grammar_name(&self, grammar: Grammar) -> &'static str {
        grammar.name()
    }

    /// The short name of `grammar` in quoting messages ("Athena DDL", "Athena DML").
    fn grammar_label(&self, grammar: Grammar) -> &'static str {
        match grammar {
            Grammar::HiveDdl => "Athena DDL",
            Grammar::TrinoDml => "Athena DML",
            Grammar::Spark => "Spark SQL",
        }
    }

    /// Whether one `;` may end a statement in Trino grammar. Trino's grammar takes one
    /// statement and the end of the text (SqlBase.g4, `singleStatement`); Athena
    /// takes a statement ended by one `;` too (clients such as dbt-athena send them).
    fn accepts_a_final_semicolon(&self) -> bool {
        true
    }

    /// Why `FOR SYSTEM_TIME|SYSTEM_VERSION AS OF` is refused in Trino grammar (it parses,
    /// so the reason is the engine's): completes "FOR SYSTEM_TIME AS OF is …".
    fn system_time_refusal(&self) -> &'static str {
        "Athena engine v2 syntax, removed in engine v3"
    }

    /// What a Hive DDL `CREATE TABLE` says of the table's location. Default: Athena's,
    /// which needs one.
    fn table_location(&self) -> TableLocation {
        TableLocation::Required(
            "Athena's CREATE TABLE for an Iceberg table needs LOCATION 's3://…/'",
        )
    }

    /// Where a staged load's staging table lives, or why the target has none.
    fn staging(&self) -> Staging;
}

/// What a target's Hive DDL `CREATE TABLE` says of the table's location.
pub(crate) enum TableLocation {
    /// `LOCATION '…'` is needed: the refusal of a table without one.
    Required(&'static str),
    /// The catalog chooses it: the refusal of a `LOCATION`.
    Refused(String),
}

/// Where a target keeps a staged load's staging table.
pub(crate) enum Staging {
    /// Athena: `CREATE EXTERNAL TABLE t (…) STORED AS PARQUET LOCATION '…'`, dropped
    /// with `DROP TABLE IF EXISTS t`.
    ExternalTable,
    /// Spark: `CREATE TEMPORARY VIEW v (…) USING parquet OPTIONS (path '…')`, dropped
    /// with `DROP VIEW IF EXISTS v`.
    TemporaryView,
    /// None: why, and the word the refusal points at (else the text's start).
    Refused {
        why: String,
        at: Option<&'static str>,
    },
}

impl Staging {
    /// The statement that drops the staging table, in a refusal of another.
    pub(crate) fn drop_statement(&self) -> &'static str {
        match self {
            Staging::TemporaryView => "a DROP VIEW IF EXISTS",
            _ => "a DROP TABLE IF EXISTS",
        }
    }
}

/// The form of a `SHOW TABLES` table-name filter.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum FilterForm {
    /// `'pattern'`
    Bare,
    /// `LIKE 'pattern'`
    Like,
}

/// How a target writes compaction (kind `Optimize`) and snapshot expiry (`Vacuum`).
#[derive(Clone, Copy)]
pub(crate) enum Maintenance {
    /// Athena's `OPTIMIZE t REWRITE DATA USING BIN_PACK [WHERE …]` and `VACUUM t`.
    AthenaStatements,
    /// Iceberg's procedures: `CALL <catalog>.system.rewrite_data_files(…)` and
    /// `… expire_snapshots(…)` (Spark).
    Procedures,
    /// `ALTER TABLE t EXECUTE optimize` and `… EXECUTE expire_snapshots(…)` (Trino).
    AlterTableExecute,
    /// None: the catalog runs them itself; the refusal for a kind.
    Unsupported(fn(StatementKind) -> String),
}

impl Maintenance {
    /// The statement kind `kind` is written as, in a refusal of another
    /// (`expected … statement`).
    pub(crate) fn statement(self, kind: StatementKind) -> String {
        let optimize = kind == StatementKind::Optimize;
        match self {
            Maintenance::AthenaStatements if optimize => {
                "an OPTIMIZE … REWRITE DATA USING BIN_PACK".into()
            }
            Maintenance::AthenaStatements => "a VACUUM".into(),
            Maintenance::Procedures => {
                format!("a CALL <catalog>.system.{}(…)", iceberg_procedure(kind))
            }
            Maintenance::AlterTableExecute if optimize => {
                "an ALTER TABLE … EXECUTE optimize".into()
            }
            Maintenance::AlterTableExecute => "an ALTER TABLE … EXECUTE expire_snapshots".into(),
            Maintenance::Unsupported(refusal) => refusal(kind),
        }
    }
}

/// The Iceberg procedure that does what `kind` asks for (Optimize: compaction, else
/// snapshot expiry).
pub(crate) fn iceberg_procedure(kind: StatementKind) -> &'static str {
    if kind == StatementKind::Optimize {
        "rewrite_data_files"
    } else {
        "expire_snapshots"
    }
}

/// A `CALL`'s procedure name for `kind` (`parts`: each part's name, `None` for one that
/// is not a plain identifier; `shown`: the name as written): `<catalog>.system.<procedure>`.
pub(crate) fn call_name_problem(
    shown: &dyn std::fmt::Display,
    parts: &[Option<&str>],
    kind: StatementKind,
) -> Option<String> {
    let procedure = iceberg_procedure(kind);
    let n = parts.len();
    let ok = n >= 2
        && parts.iter().all(Option::is_some)
        && parts[n - 1].is_some_and(|p| p.eq_ignore_ascii_case(procedure))
        && parts[n - 2].is_some_and(|p| p.eq_ignore_ascii_case("system"));
    (!ok).then(|| {
        format!(
            "CALL {shown}: kind {} runs the Iceberg procedure <catalog>.system.{procedure}(…)",
            kind.name()
        )
    })
}

/// A `CALL` whose arguments are not all named.
pub(crate) fn call_args_refusal(kind: StatementKind) -> String {
    format!(
        "CALL …system.{} takes named arguments only: (table => 'db.t', …)",
        iceberg_procedure(kind)
    )
}
