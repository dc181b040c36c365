//! Trino's Iceberg connector (Trino itself, Amazon EMR's Trino, Starburst): what differs
//! from Athena.
//!
//! Trino reads every statement with one grammar, its own: the Trino spellings Athena uses
//! for DML (double quotes, `varchar`, `''` in strings) also spell its DDL. The rest follows
//! Trino's documentation:
//!
//! * the connector (table properties, `ALTER TABLE … EXECUTE`, metadata tables, time
//!   travel, `NOT NULL`): <https://trino.io/docs/current/connector/iceberg.html>;
//! * the statements: <https://trino.io/docs/current/sql/create-table.html>,
//!   <https://trino.io/docs/current/sql/create-table-as.html>,
//!   <https://trino.io/docs/current/sql/alter-table.html>;
//! * databases are schemas: <https://trino.io/docs/current/sql/create-schema.html>,
//!   <https://trino.io/docs/current/sql/drop-schema.html>,
//!   <https://trino.io/docs/current/sql/show-tables.html>. `DROP SCHEMA … CASCADE`
//!   drops the schema's views and tables, each as DROP TABLE does, data included
//!   (`IcebergMetadata.dropSchema` in trinodb/trino,
//!   `plugin/trino-iceberg/src/main/java/io/trino/plugin/iceberg/IcebergMetadata.java`):
//!   Athena's meaning, so it is written as asked.
//!
//! What Trino cannot express is refused with the reason: Athena's own table properties
//! (OPTIMIZE and VACUUM settings), `UNLOAD` and Hive-format CTAS, Spark's procedure
//! options, and snapshot expiry before a fixed timestamp.

use super::athena;
use super::{CtasSpec, DialectRules, Grammar, OptimizeSpec, StagingSpec, VacuumSpec};
use crate::error::{Error, ErrorKind, Result};
use crate::maintenance::VacuumRetention;
use crate::model::{
    Column, Compression, DatabaseName, FileFormat, Location, PartitionChange, PartitionField,
    TableDef, TableProperties, TableProperty,
};
use crate::render::SqlWriter;
use crate::statement::StatementKind;
use crate::types::IcebergType;
use crate::validate::dialects::trino::TrinoSyntax;
use crate::validate::dialects::TargetSyntax;

/// The Iceberg connector's documentation, cited by every refusal.
const CONNECTOR_DOCS: &str = "https://trino.io/docs/current/connector/iceberg.html";

/// The change that added the table property `max_previous_versions`, after Trino 476.
const MAX_PREVIOUS_VERSIONS: &str = "https://github.com/trinodb/trino/pull/27717";

/// Trino: Athena's defaults where the engines agree, these overrides where not.
pub(crate) struct Trino;

impl DialectRules for Trino {
    fn name(&self) -> &'static str {
        "Trino"
    }

    fn syntax(&self) -> &'static dyn TargetSyntax {
        &TrinoSyntax
    }

    /// One parser, Trino's, for every statement.
    fn grammar(&self, _kind: StatementKind) -> Grammar {
        Grammar::TrinoDml
    }

    /// The connector enforces `NOT NULL` on writes.
    fn declares_not_null(&self) -> bool {
        true
    }

    /// Every Iceberg type is declarable (`timestamp(6) with time zone` too) and the
    /// location is optional (the schema's location is the default); Athena's own table
    /// properties have no Trino counterpart.
    fn check_create_table(&self, table: &TableDef, errors: &mut Vec<Error>) {
        for p in table.properties().iter() {
            if let Err(e) = property(p, Use::Create) {
                errors.push(e);
            }
        }
        for p in table.partition_spec() {
            if let Err(e) = athena::trino_partitioning(p) {
                errors.push(e);
            }
        }
    }

    /// `COMMENT '…'`, then `WITH (format = …, partitioning = ARRAY['day(ts)',
    /// 'bucket(id, 16)'], location = …)` (no `WITH` when there is nothing to say).
    fn write_table_clauses(&self, w: &mut SqlWriter, t: &TableDef) -> Result<()> {
        if let Some(comment) = t.comment() {
            w.push("\nCOMMENT ");
            w.ddl_string("table comment", comment)?;
        }
        let mut entries = Vec::new();
        for p in t.properties().iter() {
            entries.push(property(p, Use::Create)?);
        }
        if !t.partition_spec().is_empty() {
            entries.push(partitioning(t.partition_spec())?);
        }
        if let Some(l) = t.location() {
            entries.push(("location", Val::Str(l.as_str().to_string())));
        }
        write_with(w, &entries, "\nWITH (\n  ", ",\n  ", "\n)")?;
        Ok(())
    }

    /// Trino's grammar names every Iceberg type, `timestamp(6) with time zone` included,
    /// and declares `NOT NULL`: a required column is refused.
    fn check_added_columns(&self, columns: &[Column]) -> Result<()> {
        athena::refuse_required_added_columns(self.name(), columns)
    }

    /// `CREATE SCHEMA` / `DROP SCHEMA`: Trino has no `DATABASE` keyword.
    fn database_keyword(&self) -> &'static str {
        "SCHEMA"
    }

    /// `WITH (location = '…')`, the Iceberg connector's schema property. Trino's CREATE
    /// SCHEMA has no comment.
    fn write_create_database_clauses(
        &self,
        w: &mut SqlWriter,
        database: &DatabaseName,
        comment: Option<&str>,
        location: Option<&Location>,
    ) -> Result<()> {
        if comment.is_some() {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "CREATE SCHEMA {database} with a comment: Trino's CREATE SCHEMA takes no comment \
                     and Trino has no COMMENT ON SCHEMA (https://trino.io/docs/current/sql/create-schema.html)"
                ),
            )
            .with_hint("leave out .comment(...) for Trino"));
        }
        if let Some(l) = location {
            write_with(
                w,
                &[("location", Val::Str(l.as_str().to_string()))],
                "\nWITH (",
                ", ",
                ")",
            )?;
        }
        Ok(())
    }

    /// `SHOW TABLES IN s LIKE 'p' ESCAPE '\'`: Trino's filter is SQL LIKE
    /// (<https://trino.io/docs/current/sql/show-tables.html>), so `*` becomes `%` and
    /// `_`, a LIKE wildcard, is escaped; LIKE has no alternatives, so `|` is refused.
    fn write_show_tables_pattern(&self, w: &mut SqlWriter, pattern: &str) -> Result<()> {
        if pattern.contains('|') {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "SHOW TABLES pattern `{pattern}` on Trino: Trino's SHOW TABLES filters with one SQL \
                     LIKE pattern, which has no `|` between alternatives \
                     (https://trino.io/docs/current/sql/show-tables.html)"
                ),
            )
            .with_hint("run one SHOW TABLES per alternative"));
        }
        let like: String = pattern
            .chars()
            .flat_map(|c| match c {
                '*' => vec!['%'],
                '_' => vec!['\\', '_'],
                c => vec![c],
            })
            .collect();
        w.push(" LIKE ").string(&like);
        if like.contains('\\') {
            w.push(" ESCAPE ").string("\\");
        }
        Ok(())
    }

    /// Trino's `DESCRIBE t` lists the columns; it has no `FORMATTED`.
    fn check_describe_formatted(&self) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            "DESCRIBE FORMATTED is Hive syntax: Trino's DESCRIBE lists the columns only \
             (https://trino.io/docs/current/sql/describe.html)",
        )
        .with_hint(
            "use DESCRIBE without .formatted(), or SHOW CREATE TABLE for the location and properties",
        ))
    }

    /// One column per statement: `ADD COLUMN c type [COMMENT '…']`.
    fn columns_per_add(&self) -> Option<usize> {
        Some(1)
    }

    fn write_add_columns(&self, w: &mut SqlWriter, columns: &[Column]) -> Result<()> {
        let [c] = columns else {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "Trino's ALTER TABLE adds one column per statement ({} given)",
                    columns.len()
                ),
            )
            .with_hint(
                "call .add_columns([...]) once per column; the evolution planner (evolve_for) \
                 already writes one statement per new column for Trino",
            ));
        };
        w.push("ADD COLUMN ")
            .ident(&c.name)
            .push_char(' ')
            .ty(&c.ty);
        athena::write_column_comment(w, c)
    }

    fn write_rename_column(&self, w: &mut SqlWriter, from: &str, to: &str, _ty: &IcebergType) {
        w.push("RENAME COLUMN ").ident(from).push(" TO ").ident(to);
    }

    /// `ALTER COLUMN c SET DATA TYPE t`: the connector widens int, real and decimal.
    fn write_widen_column(&self, w: &mut SqlWriter, column: &str, to: &IcebergType) {
        w.push("ALTER COLUMN ")
            .ident(column)
            .push(" SET DATA TYPE ")
            .ty(to);
    }

    /// `SET PROPERTIES k = v, …` with the properties Trino can change after creation.
    fn write_set_properties(
        &self,
        w: &mut SqlWriter,
        properties: &TableProperties,
        _format: FileFormat,
    ) -> Result<()> {
        let mut entries = Vec::new();
        for p in properties.iter() {
            entries.push(property(p, Use::Alter)?);
        }
        write_with(w, &entries, "SET PROPERTIES ", ", ", "")?;
        Ok(())
    }

    /// `SET PROPERTIES partitioning = ARRAY[…]`: the whole new spec (Trino's Iceberg
    /// connector, "Partitioned tables": the table keeps the data written under the old
    /// spec).
    fn write_partition_spec_change(
        &self,
        w: &mut SqlWriter,
        _change: &PartitionChange,
        spec: &[PartitionField],
    ) -> Result<bool> {
        write_with(w, &[partitioning(spec)?], "SET PROPERTIES ", ", ", "")?;
        Ok(true)
    }

    /// `SET PROPERTIES k = DEFAULT, …` (Trino's way to remove a property).
    fn write_unset_properties(
        &self,
        w: &mut SqlWriter,
        keys: &[&'static str],
        format: FileFormat,
    ) -> Result<()> {
        let mut entries = Vec::new();
        for key in keys {
            // The Trino name (or the refusal) comes from `property`, asked with any value
            // of the key's property.
            let sample = match *key {
                "format" => TableProperty::Format(format),
                "write_compression" => TableProperty::WriteCompression(Compression::Zstd),
                "vacuum_max_metadata_files_to_keep" => {
                    TableProperty::VacuumMaxMetadataFilesToKeep(1)
                }
                "optimize_rewrite_data_file_threshold" => {
                    TableProperty::OptimizeRewriteDataFileThreshold(1)
                }
                "optimize_rewrite_delete_file_threshold" => {
                    TableProperty::OptimizeRewriteDeleteFileThreshold(1)
                }
                "vacuum_min_snapshots_to_keep" => TableProperty::VacuumMinSnapshotsToKeep(1),
                "vacuum_max_snapshot_age_seconds" => TableProperty::VacuumMaxSnapshotAgeSeconds(1),
                "write_data_path_enabled" => TableProperty::WriteDataPathEnabled(false),
                other => {
                    return Err(Error::new(
                        ErrorKind::InvalidProperty,
                        format!("no typed table property is named `{other}`"),
                    ))
                }
            };
            let (k, _) = property(&sample, Use::Alter)?;
            entries.push((k, Val::Raw("DEFAULT".to_string())));
        }
        write_with(w, &entries, "SET PROPERTIES ", ", ", "")?;
        Ok(())
    }

    /// Trino's `optimize` takes only `file_size_threshold`, which this crate does not
    /// write; Spark's `rewrite_data_files` options have no meaning here.
    fn check_optimize(&self, o: &OptimizeSpec<'_>) -> Result<()> {
        o.table.check()?;
        if let Some((key, _)) = o.options.first() {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "Trino's optimize takes no `{key}` (an option of Spark's rewrite_data_files \
                     procedure); its only argument is file_size_threshold ({CONNECTOR_DOCS}#optimize)"
                ),
            )
            .with_hint("keep .spark_option(...) for the Spark dialect"));
        }
        Ok(())
    }

    /// `ALTER TABLE t EXECUTE optimize [WHERE …]`.
    fn write_optimize(&self, w: &mut SqlWriter, o: &OptimizeSpec<'_>) -> Result<()> {
        w.push("ALTER TABLE ")
            .table_name(o.table)
            .push(" EXECUTE optimize");
        if let Some(f) = o.filter {
            w.push(" WHERE ");
            f.write(w)?;
        }
        Ok(())
    }

    /// `ALTER TABLE t EXECUTE expire_snapshots[(retention_threshold => '7d')]`: the
    /// retention is the procedure's argument, not table properties. Trino 476's procedure
    /// takes no other argument (<https://trino.io/docs/476/connector/iceberg.html#expire-snapshots>;
    /// `retain_last` came in a later release, <https://github.com/trinodb/trino/pull/27362>)
    /// and always keeps the current snapshot (Iceberg's `RemoveSnapshots`, whose
    /// `history.expire.min-snapshots-to-keep` defaults to 1): a count of 1 to keep is
    /// what it does anyway and is left out; a larger one is refused.
    fn write_vacuum(
        &self,
        w: &mut SqlWriter,
        v: &VacuumSpec<'_>,
        _retention_in_steps: bool,
    ) -> Result<()> {
        v.table.check()?;
        if v.older_than.is_some() {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "Trino's expire_snapshots takes a retention relative to when it runs \
                     (retention_threshold => '7d'), not a timestamp ({CONNECTOR_DOCS}#expire-snapshots)"
                ),
            )
            .with_hint("use .retain_days(n) or .retention(VacuumRetention::seconds(n))"));
        }
        let retention = v.retention.copied().unwrap_or_default();
        if retention.max_metadata_files_to_keep.is_some() {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "Trino 476 has no setting for the number of metadata files to keep:                      expire_snapshots takes no such argument ({CONNECTOR_DOCS}#expire-snapshots),                      and the table property max_previous_versions came in a later release                      ({MAX_PREVIOUS_VERSIONS})"
                ),
            )
            .with_hint(
                "leave max_metadata_files_to_keep out of the retention built for Trino (Iceberg                  then keeps its default of 100, write.metadata.previous-versions-max), or run the                  vacuum from Athena",
            ));
        }
        let retain_last = match (retention.min_snapshots_to_keep, v.retain_last) {
            (Some(a), Some(b)) if a != b => {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "two numbers of snapshots to keep ({a} from the retention, {b} from \
                         retain_last); Trino's expire_snapshots takes one retain_last"
                    ),
                ))
            }
            (a, b) => a.or(b),
        };
        if let Some(n) = retain_last {
            athena::check_retain_last(n)?;
            if n > 1 {
                return Err(Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "the vacuum of {} asks to keep the last {n} snapshots (retain_last or \
                         min_snapshots_to_keep), and Trino 476's expire_snapshots takes no such \
                         argument: only retention_threshold, keeping the current snapshot \
                         (https://trino.io/docs/476/connector/iceberg.html#expire-snapshots)",
                        v.table
                    ),
                )
                .with_hint(
                    "keep snapshots by age only (.retain_days(n) or \
                     .retention(VacuumRetention::seconds(n))), or run the vacuum on Spark \
                     (build_for(Dialect::Spark): its expire_snapshots takes retain_last) or \
                     Athena (build_steps(): vacuum_min_snapshots_to_keep)",
                ));
            }
        }
        w.push("ALTER TABLE ")
            .table_name(v.table)
            .push(" EXECUTE expire_snapshots");
        if let Some(secs) = retention.max_snapshot_age_seconds {
            write_args(w, &[("retention_threshold", Val::Str(duration(secs)))]);
        }
        Ok(())
    }

    /// Trino 476 has no table property of the retention: the snapshots' age and number
    /// are `expire_snapshots` arguments, the number of metadata files is refused there.
    fn vacuum_step_properties(&self, _retention: &VacuumRetention) -> TableProperties {
        TableProperties::new()
    }

    /// `ALTER TABLE t EXECUTE remove_orphan_files[(retention_threshold => '7d')]`: files
    /// no snapshot references, older than the snapshots' retention (Athena's VACUUM
    /// removes those older than `vacuum_max_snapshot_age_seconds`; without it Trino's
    /// default retention, 7 days: {CONNECTOR_DOCS}#remove-orphan-files).
    fn write_orphan_removal(&self, w: &mut SqlWriter, v: &VacuumSpec<'_>) -> Result<bool> {
        v.table.check()?;
        w.push("ALTER TABLE ")
            .table_name(v.table)
            .push(" EXECUTE remove_orphan_files");
        let age = v.retention.and_then(|r| r.max_snapshot_age_seconds);
        if let Some(secs) = age {
            write_args(w, &[("retention_threshold", Val::Str(duration(secs)))]);
        }
        Ok(true)
    }

    fn ctas_requires_location(&self) -> bool {
        false
    }

    /// `WITH (format = …, location = …, partitioning = ARRAY[…]) AS` (no `WITH` when
    /// there is nothing to say).
    fn write_ctas_clauses(&self, w: &mut SqlWriter, c: &CtasSpec<'_>) -> Result<()> {
        let mut entries = Vec::new();
        for p in c.properties.iter() {
            entries.push(property(p, Use::Create)?);
        }
        if let Some(l) = c.location {
            entries.push(("location", Val::Str(l.as_str().to_string())));
        }
        if !c.partitioning.is_empty() {
            entries.push(partitioning(c.partitioning)?);
        }
        write_with(w, &entries, "\nWITH (\n  ", ",\n  ", "\n)")?;
        w.push(if entries.is_empty() {
            "\nAS\n"
        } else {
            " AS\n"
        });
        Ok(())
    }

    fn check_hive_ctas(&self) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            "a Hive-format CTAS (external_location, partitioned_by, bucketed_by) is Athena's Hive table; \
             Trino's Iceberg connector creates Iceberg tables",
        )
        .with_hint("use IcebergCtas, which Trino writes as CREATE TABLE … WITH (format = …) AS SELECT …"))
    }

    /// A staged load reads its Parquet files through an external table, which the Iceberg
    /// connector cannot create: it creates Iceberg tables only
    /// (<https://trino.io/docs/current/connector/iceberg.html>).
    fn write_create_staging(&self, _w: &mut SqlWriter, _s: &StagingSpec<'_>) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            "a staged load needs an external Parquet table over the staged files; Trino's Iceberg \
             connector creates Iceberg tables only (https://trino.io/docs/current/connector/iceberg.html)",
        )
        .with_hint("load with insert(&rows).batches() for Trino, or stage through Athena"))
    }

    fn check_unload(&self) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            "Trino has no UNLOAD statement (UNLOAD is Athena's; https://trino.io/docs/current/sql.html lists none)",
        )
        .with_hint(
            "write the files with IcebergCtas (CREATE TABLE … WITH (format = 'PARQUET', location = '…') AS SELECT …)",
        ))
    }
}

/// A value in a `WITH (…)` list or a procedure's arguments.
enum Val {
    /// A string literal.
    Str(String),
    /// SQL text: a number, `DEFAULT`, `ARRAY['…', …]` built from checked parts.
    Raw(String),
    /// `ARRAY['a', 'b']`.
    Array(Vec<String>),
}

/// Where a property is written: Trino changes fewer properties than it creates with.
#[derive(Clone, Copy, PartialEq)]
enum Use {
    Create,
    Alter,
}

/// Writes `open k = v sep k = v close`, or nothing for no entries.
fn write_with(
    w: &mut SqlWriter,
    entries: &[(&str, Val)],
    open: &str,
    sep: &str,
    close: &str,
) -> Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    w.push(open);
    w.list(entries, sep, |w, (key, value)| {
        w.push(key).push(" = ");
        write_val(w, value);
        Ok(())
    })?;
    w.push(close);
    Ok(())
}

/// `(name => value, …)`, or nothing for no arguments.
fn write_args(w: &mut SqlWriter, args: &[(&str, Val)]) {
    if args.is_empty() {
        return;
    }
    w.push_char('(')
        .comma_list(args, |w, (name, value)| {
            w.push(name).push(" => ");
            write_val(w, value);
        })
        .push_char(')');
}

fn write_val(w: &mut SqlWriter, value: &Val) {
    match value {
        Val::Str(s) => {
            w.string(s);
        }
        Val::Raw(s) => {
            w.push(s);
        }
        Val::Array(items) => {
            w.push("ARRAY[")
                .comma_list(items, |w, s| {
                    w.string(s);
                })
                .push_char(']');
        }
    }
}

/// `partitioning = ARRAY['day(ts)', 'bucket(id, 16)']`: Trino's transform strings, column
/// first (the connector's "Partitioned tables").
fn partitioning(spec: &[PartitionField]) -> Result<(&'static str, Val)> {
    let items = spec
        .iter()
        .map(athena::trino_partitioning)
        .collect::<Result<Vec<_>>>()?;
    Ok(("partitioning", Val::Array(items)))
}

/// A Trino duration (`7d`, `36h`, `90m`, `45s`): the largest unit that is exact.
fn duration(secs: u64) -> String {
    match secs {
        s if s > 0 && s % 86_400 == 0 => format!("{}d", s / 86_400),
        s if s > 0 && s % 3_600 == 0 => format!("{}h", s / 3_600),
        s if s > 0 && s % 60 == 0 => format!("{}m", s / 60),
        s => format!("{s}s"),
    }
}

/// One of our (Athena's) typed properties as the Trino table property with the same
/// effect, or why there is none.
///
/// | Athena | Trino |
/// |---|---|
/// | `format` | `format` (`'PARQUET'`, `'ORC'`, `'AVRO'`) |
/// | `write_compression` | none in Trino 476, the release the Trino target writes for (`compression_codec` came in 477): refused |
/// | `vacuum_max_metadata_files_to_keep` | none in Trino 476 (`max_previous_versions` came later, <https://github.com/trinodb/trino/pull/27717>): refused |
/// | `optimize_rewrite_*`, `vacuum_min_snapshots_to_keep`, `vacuum_max_snapshot_age_seconds`, `write_data_path_enabled` | none: refused |
fn property(p: &TableProperty, at: Use) -> Result<(&'static str, Val)> {
    let unsupported = |why: String, hint: &str| {
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "table property `{}`: {why} ({CONNECTOR_DOCS}#table-properties)",
                p.key()
            ),
        )
        .with_hint(hint.to_string()))
    };
    match *p {
        TableProperty::Format(f) => Ok(("format", Val::Str(f.as_str().to_ascii_uppercase()))),
        TableProperty::WriteCompression(_) if at == Use::Alter => unsupported(
            "Trino sets compression_codec only when it creates a table; ALTER TABLE … SET PROPERTIES \
             cannot change it"
                .into(),
            "set the codec in the CREATE TABLE (or CTAS) for Trino, or change it from Athena with \
             ALTER TABLE … SET TBLPROPERTIES",
        ),
        TableProperty::WriteCompression(_) => unsupported(
            "Trino 476 has no table property for the codec: compression_codec came in Trino 477; \
             476 writes with the catalog's iceberg.compression-codec (ZSTD by default)"
                .into(),
            "leave write_compression out of the definition built for Trino, or set \
             iceberg.compression-codec in the catalog",
        ),
        TableProperty::VacuumMaxMetadataFilesToKeep(_) => unsupported(
            format!(
                "Trino 476 has no table property for the number of metadata files to keep \
                 (max_previous_versions came in a later release, {MAX_PREVIOUS_VERSIONS})"
            ),
            "leave it out of the definition built for Trino (Iceberg then keeps its default of \
             100, write.metadata.previous-versions-max), or set it from Athena with ALTER TABLE … \
             SET TBLPROPERTIES",
        ),
        TableProperty::OptimizeRewriteDataFileThreshold(_)
        | TableProperty::OptimizeRewriteDeleteFileThreshold(_) => unsupported(
            "this is a setting of Athena's OPTIMIZE; Trino's Iceberg connector has no such table property \
             (its optimize takes file_size_threshold as an argument)"
                .into(),
            "leave it out of the definition built for Trino, or set it from Athena with \
             ALTER TABLE … SET TBLPROPERTIES",
        ),
        TableProperty::VacuumMinSnapshotsToKeep(_) | TableProperty::VacuumMaxSnapshotAgeSeconds(_) => {
            unsupported(
                "this is a setting of Athena's VACUUM; Trino has no such table property: its \
                 expire_snapshots takes the retention as arguments"
                    .into(),
                "leave it out of the definition built for Trino and expire with \
                 vacuum().retention(...).build_for(Dialect::Trino) (ALTER TABLE … EXECUTE \
                 expire_snapshots(retention_threshold => …))",
            )
        }
        TableProperty::WriteDataPathEnabled(_) => unsupported(
            "an Athena table property with no Trino counterpart".into(),
            "leave it out of the definition built for Trino",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::duration;

    #[test]
    fn durations_use_the_largest_exact_unit() {
        assert_eq!(duration(604_800), "7d");
        assert_eq!(duration(7_200), "2h");
        assert_eq!(duration(90 * 60), "90m");
        assert_eq!(duration(45), "45s");
        assert_eq!(duration(0), "0s");
    }
}
