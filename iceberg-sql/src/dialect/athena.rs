//! Amazon Athena engine v3: the reference target. The [`DialectRules`] default methods
//! call the functions here.
//!
//! Athena parses DDL (CREATE/ALTER/DROP TABLE, OPTIMIZE, VACUUM, SHOW CREATE TABLE)
//! with a Hive parser and DML, queries, CTAS and UNLOAD with Trino's
//! (<https://docs.aws.amazon.com/athena/latest/ug/ddl-sql-reference.html>, and the
//! Iceberg pages under <https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg.html>).

use chrono::Timelike;

use super::{CtasSpec, DialectRules, Grammar, OptimizeSpec, StagingSpec, VacuumSpec, WriteFn};
use crate::engine::staging::needs_conversion;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{
    Column, FileFormat, Location, PartitionField, PartitionTransform, TableDef, TableName,
    TableProperties, TableProperty,
};
use crate::query::{MetadataTable, Snapshot};
use crate::render::SqlWriter;
use crate::statement::StatementKind;
use crate::types::IcebergType;
use crate::validate::dialects::athena::AthenaSyntax;
use crate::validate::dialects::TargetSyntax;

/// Athena: every default of [`DialectRules`].
pub(crate) struct Athena;

impl DialectRules for Athena {
    fn name(&self) -> &'static str {
        "Athena"
    }

    fn syntax(&self) -> &'static dyn TargetSyntax {
        &AthenaSyntax
    }
}

/// DDL goes through the Hive parser (including `CREATE DATABASE`, `DROP DATABASE`,
/// `SHOW TABLES` and `DESCRIBE`: <https://docs.aws.amazon.com/athena/latest/ug/ddl-reference.html>),
/// everything else through Trino's. Views are Trino views: their statements are Trino
/// text, with double-quoted names
/// (<https://docs.aws.amazon.com/athena/latest/ug/views.html>).
pub(super) fn grammar(kind: StatementKind) -> Grammar {
    match kind {
        StatementKind::CreateTable
        | StatementKind::DropTable
        | StatementKind::AlterTable
        | StatementKind::Optimize
        | StatementKind::Vacuum
        | StatementKind::ShowCreateTable
        | StatementKind::CreateDatabase
        | StatementKind::DropDatabase
        | StatementKind::ShowTables
        | StatementKind::Describe
        | StatementKind::CreateStagingTable
        | StatementKind::DropStagingTable => Grammar::HiveDdl,
        StatementKind::CreateTableAs
        | StatementKind::Insert
        | StatementKind::Update
        | StatementKind::Delete
        | StatementKind::Merge
        | StatementKind::Select
        | StatementKind::Unload
        | StatementKind::CreateView
        | StatementKind::DropView => Grammar::TrinoDml,
    }
}

/// Athena documents `ExecutionParameters` for SELECT, INSERT INTO, CTAS and UNLOAD
/// (<https://docs.aws.amazon.com/athena/latest/ug/querying-with-prepared-statements.html>).
pub(super) fn accepts_parameters(kind: StatementKind) -> bool {
    matches!(
        kind,
        StatementKind::Select
            | StatementKind::Insert
            | StatementKind::CreateTableAs
            | StatementKind::Unload
    )
}

pub(super) fn write_table_name(w: &mut SqlWriter, name: &TableName) {
    w.ident(&name.database).push_char('.').ident(&name.table);
}

// ---- CREATE TABLE ------------------------------------------------------------------

/// Athena's DDL declares no `timestamptz` column and needs a location; Athena keeps
/// the columns in the Glue Data Catalog, which stores a column type of limited length.
pub(super) fn check_create_table(t: &TableDef, errors: &mut Vec<Error>) {
    for c in t.columns() {
        let checks = [
            c.ty.check_declarable(&c.name),
            c.ty.check_glue_type_length(&c.name),
        ];
        for e in checks.into_iter().filter_map(|r| r.err()) {
            if e.kind() == ErrorKind::InvalidType && !errors.contains(&e) {
                errors.push(e);
            }
        }
    }
    if t.location().is_none() {
        errors.push(
            Error::new(
                ErrorKind::InvalidLocation,
                format!(
                    "table `{}` has no location; Athena's CREATE TABLE requires one",
                    t.name()
                ),
            )
            .with_hint("set an S3 folder, e.g. .location(\"s3://my-bucket/iceberg/my_table/\")"),
        );
    }
}

/// For targets whose DDL declares `NOT NULL`: a required column cannot be added to a
/// table that has rows (Iceberg's schema update refuses it: "Incompatible change:
/// cannot add required column", `SchemaUpdate.addRequiredColumn` in apache/iceberg), and
/// writing it nullable would leave the live table unlike the definition.
pub(super) fn refuse_required_added_columns(engine: &str, columns: &[Column]) -> Result<()> {
    let errors = columns
        .iter()
        .filter(|c| !c.nullable)
        .map(|c| {
            Error::new(
                ErrorKind::Unsupported,
                format!(
                    "new column `{}` is required; Iceberg cannot add a required column to a table with data, and {engine} would declare it NOT NULL",
                    c.name
                ),
            )
            .with_hint("add it as nullable (Option<T> in the record), backfill with UPDATE, or rebuild by CTAS")
        })
        .collect();
    Error::check_all(errors)
}

/// `PARTITIONED BY (day(ts), bucket(16, id))`, `LOCATION`, then `TBLPROPERTIES` with
/// `'table_type'='ICEBERG'` first. Athena documents no table comment for Iceberg tables,
/// so none is written.
/// Athena's DDL declares no `timestamptz` column
/// (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-supported-data-types.html>),
/// and Glue stores a column type of limited length.
pub(super) fn check_added_columns(columns: &[crate::model::Column]) -> Result<()> {
    let errors = columns
        .iter()
        .flat_map(|c| {
            [
                c.ty.check_declarable(&c.name).err(),
                c.ty.check_glue_type_length(&c.name).err(),
            ]
        })
        .flatten()
        .collect();
    Error::check_all(errors)
}

pub(super) fn write_table_clauses(w: &mut SqlWriter, t: &TableDef) -> Result<()> {
    write_partitioned_by(w, t.partition_spec(), write_partition_field);
    if let Some(loc) = t.location() {
        w.push("\nLOCATION ");
        w.ddl_string("location", loc.as_str())?;
    }
    let mut props = vec![("table_type".to_string(), "ICEBERG".to_string())];
    let format = t.properties().format();
    props.extend(t.properties().iter().map(|p| property(p, format)));
    write_tblproperties(w, &props)
}

/// `\nPARTITIONED BY (f1, f2)` when there is a partition spec, each field written by
/// `field`.
pub(super) fn write_partitioned_by(
    w: &mut SqlWriter,
    spec: &[PartitionField],
    field: fn(&mut SqlWriter, &PartitionField),
) {
    if spec.is_empty() {
        return;
    }
    w.push("\nPARTITIONED BY (")
        .comma_list(spec, field)
        .push_char(')');
}

/// Hive DDL transforms: `day(ts)`, and the number first in `bucket(16, col)` and
/// `truncate(10, col)`.
pub(super) fn write_partition_field(w: &mut SqlWriter, p: &PartitionField) {
    write_transform(w, p, p.transform.name());
}

/// `name(col)`, `name(N, col)` or the bare column for identity.
pub(super) fn write_transform(w: &mut SqlWriter, p: &PartitionField, name: &str) {
    if p.transform == PartitionTransform::Identity {
        w.ident(&p.source);
        return;
    }
    w.push(name).push_char('(');
    if let PartitionTransform::Bucket(n) | PartitionTransform::Truncate(n) = p.transform {
        w.push(&n.to_string()).push(", ");
    }
    w.ident(&p.source).push_char(')');
}

/// `\nTBLPROPERTIES (\n  'k'='v',\n  …\n)`.
pub(super) fn write_tblproperties(w: &mut SqlWriter, props: &[(String, String)]) -> Result<()> {
    w.push("\nTBLPROPERTIES (");
    if !props.is_empty() {
        w.push("\n  ");
    }
    w.list(props, ",\n  ", |w, (k, v)| {
        w.ddl_string("property key", k)?.push_char('=');
        w.ddl_string("property value", v)?;
        Ok(())
    })?;
    w.push("\n)");
    Ok(())
}

/// A property under Athena's own key and value.
pub(super) fn property(p: &TableProperty, _format: FileFormat) -> (String, String) {
    (p.key().to_string(), p.value())
}

/// A property key as Athena names it (its own).
pub(super) fn property_key(key: &'static str, _format: FileFormat) -> String {
    key.to_string()
}

// ---- databases ---------------------------------------------------------------------

/// `COMMENT '…'` then `LOCATION '…'`, each on its own line
/// (<https://docs.aws.amazon.com/athena/latest/ug/create-database.html>).
pub(super) fn write_create_database_clauses(
    w: &mut SqlWriter,
    comment: Option<&str>,
    location: Option<&Location>,
) -> Result<()> {
    if let Some(comment) = comment {
        w.push("\nCOMMENT ");
        w.ddl_string("database comment", comment)?;
    }
    if let Some(location) = location {
        w.push("\nLOCATION ");
        w.ddl_string("location", location.as_str())?;
    }
    Ok(())
}

/// `SHOW TABLES IN db 'pattern'`: Athena's filter is a bare string after the database
/// (<https://docs.aws.amazon.com/athena/latest/ug/show-tables.html>).
pub(super) fn write_show_tables_pattern(w: &mut SqlWriter, pattern: &str) -> Result<()> {
    w.push_char(' ');
    w.ddl_string("SHOW TABLES pattern", pattern)?;
    Ok(())
}

// ---- ALTER TABLE -------------------------------------------------------------------

/// `ADD COLUMNS (c type [COMMENT '…'], …)`: any number of new columns in one statement.
pub(super) fn write_add_columns(w: &mut SqlWriter, columns: &[Column]) -> Result<()> {
    w.push("ADD COLUMNS (");
    w.try_comma_list(columns, |w, c| {
        w.ident(&c.name).push_char(' ').ty(&c.ty);
        write_column_comment(w, c)
    })?;
    w.push_char(')');
    Ok(())
}

/// ` COMMENT '…'` after a column definition, if the column has one.
pub(super) fn write_column_comment(w: &mut SqlWriter, c: &Column) -> Result<()> {
    if let Some(comment) = &c.comment {
        w.push(" COMMENT ");
        w.ddl_string(&format!("comment of column `{}`", c.name), comment)?;
    }
    Ok(())
}

/// `CHANGE COLUMN old new <current type>`: Athena renames through CHANGE COLUMN.
pub(super) fn write_rename_column(w: &mut SqlWriter, from: &str, to: &str, ty: &IcebergType) {
    w.push("CHANGE COLUMN ")
        .ident(from)
        .push_char(' ')
        .ident(to)
        .push_char(' ')
        .ty(ty);
}

/// `CHANGE COLUMN c c <new type>`.
pub(super) fn write_widen_column(w: &mut SqlWriter, column: &str, to: &IcebergType) {
    w.push("CHANGE COLUMN ")
        .ident(column)
        .push_char(' ')
        .ident(column)
        .push_char(' ')
        .ty(to);
}

/// `SET TBLPROPERTIES ('k'='v', …)`, each property named by `name`.
pub(super) fn write_set_properties(
    w: &mut SqlWriter,
    properties: &TableProperties,
    format: FileFormat,
    name: fn(&TableProperty, FileFormat) -> (String, String),
) -> Result<()> {
    w.push("SET TBLPROPERTIES (");
    w.try_comma_list(properties.iter(), |w, p| {
        let (k, v) = name(p, format);
        w.ddl_string("property key", &k)?.push_char('=');
        w.ddl_string("property value", &v)?;
        Ok(())
    })?;
    w.push_char(')');
    Ok(())
}

/// `UNSET TBLPROPERTIES ('k', …)`, each key named by `name`.
pub(super) fn write_unset_properties(
    w: &mut SqlWriter,
    keys: &[&'static str],
    format: FileFormat,
    name: fn(&'static str, FileFormat) -> String,
) -> Result<()> {
    w.push("UNSET TBLPROPERTIES (");
    w.try_comma_list(keys, |w, k| {
        w.ddl_string("property key", &name(k, format))?;
        Ok(())
    })?;
    w.push_char(')');
    Ok(())
}

pub(super) fn partition_evolution_refusal(
    table: &TableName,
    verb: &str,
    field: &PartitionField,
) -> String {
    format!(
        "Athena cannot change the partition spec of `{table}` (ALTER TABLE ... {verb} PARTITION FIELD {field} \
         is a Spark Iceberg extension; Athena has no partition evolution)"
    )
}

// ---- SELECT ------------------------------------------------------------------------

/// `retain_last => n` of an `expire_snapshots` procedure (Spark's, Trino's): at least
/// one snapshot, and a count the procedure's `int` parameter holds (Iceberg's Spark
/// procedure declares `retain_last` as `IntegerType`: ExpireSnapshotsProcedure.java in
/// apache/iceberg).
pub(super) fn check_retain_last(n: u32) -> Result<()> {
    if n == 0 {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            "retain_last must be at least 1",
        ));
    }
    if i32::try_from(n).is_err() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("retain_last {n} is more than the procedure's 32-bit argument holds (at most 2147483647)"),
        )
        .with_hint("keep at most 2147483647 snapshots"));
    }
    Ok(())
}

/// Trino reads a `LIMIT` row count as a 64-bit `long` and fails a larger one with
/// "Invalid numeric literal" (`LongLiteral` in trinodb/trino,
/// core/trino-parser/src/main/java/io/trino/sql/tree/LongLiteral.java).
pub(super) fn check_limit(engine: &str, rows: u64) -> Result<()> {
    limit_at_most(engine, rows, i64::MAX.unsigned_abs(), "a 64-bit integer")
}

/// Refuses `LIMIT rows` above `max`, the most `engine` reads (`width` says why).
pub(super) fn limit_at_most(engine: &str, rows: u64, max: u64, width: &str) -> Result<()> {
    if rows <= max {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidValue,
        format!(
            "LIMIT {rows} is more than {engine} reads: the row count is at most {max} ({width})"
        ),
    )
    .with_hint(format!(
        "use .limit(n) with n <= {max}, or leave .limit(...) out to read every row"
    )))
}

/// `FOR VERSION AS OF <id>` or `FOR TIMESTAMP AS OF TIMESTAMP '… UTC'` (always with an
/// explicit `UTC`: a zone-less literal means UTC in Athena but the session zone in
/// Spark, which accepts the same spellings).
pub(super) fn write_time_travel(w: &mut SqlWriter, snapshot: &Snapshot) {
    match snapshot {
        Snapshot::Version(id) => {
            w.push(" FOR VERSION AS OF ").push(&id.to_string());
        }
        Snapshot::Timestamp(ts) => {
            // A chrono value, never user text: digits, '-', ':', ' ' and '.'. The range
            // (years 0001-9999, no leap second) is checked when the query is built.
            let mut text = ts.format("%Y-%m-%d %H:%M:%S").to_string();
            if ts.nanosecond() % 1_000_000_000 != 0 {
                text.push_str(&ts.format("%.6f").to_string());
            }
            w.push(" FOR TIMESTAMP AS OF TIMESTAMP '")
                .push(&text)
                .push(" UTC'");
        }
    }
}

/// `"db"."t$snapshots"`: the `$` needs quotes, and the whole `t$name` is one name.
pub(super) fn write_metadata_table(w: &mut SqlWriter, t: &TableName, m: MetadataTable) {
    // Names are checked [a-z0-9_], so quoting by hand is safe.
    w.push_char('"')
        .push(&t.database)
        .push("\".\"")
        .push(&t.table)
        .push_char('$')
        .push(m.name())
        .push_char('"');
}

/// `CAST(x AS JSON)`: Athena returns nested values as text that cannot be parsed back
/// reliably (`[a, b]`, `{k=v}`); their JSON text decodes exactly.
pub(super) fn write_to_json(w: &mut SqlWriter, value: WriteFn<'_>) -> Result<()> {
    w.push("CAST(");
    value(w)?;
    w.push(" AS JSON)");
    Ok(())
}

/// `coalesce(array_agg(x), CAST(ARRAY[] AS array(T)))`: Trino's `array_agg` is NULL
/// over no rows.
pub(super) fn write_array_agg(
    w: &mut SqlWriter,
    element: &IcebergType,
    value: WriteFn<'_>,
) -> Result<()> {
    w.push("coalesce(array_agg(");
    value(w)?;
    w.push("), CAST(ARRAY[] AS ")
        .ty(&IcebergType::list(element.clone()))
        .push("))");
    Ok(())
}

// ---- OPTIMIZE / VACUUM -------------------------------------------------------------

/// For statements that cannot quote names at all (Athena's `OPTIMIZE`, `VACUUM`, a
/// Spark procedure's table argument): errors when `name` would need quotes in either of
/// Athena's grammars.
pub(super) fn require_plain_name(name: &str, statement: &str) -> Result<()> {
    if Grammar::HiveDdl.needs_quotes(name) || Grammar::TrinoDml.needs_quotes(name) {
        return Err(Error::new(
            ErrorKind::UnquotableIdentifier,
            format!(
                "`{name}` must be quoted (it is a reserved word or does not start with a letter), \
                 but Athena's {statement} statement has no documented way to quote names"
            ),
        )
        .with_hint(
            "rename it to a plain name such as `t_".to_string()
                + name
                + "` (ALTER TABLE … RENAME TO for a table, CHANGE COLUMN for a column)",
        ));
    }
    Ok(())
}

/// Both parts of `name`, for a statement that cannot quote them.
pub(super) fn require_plain_names(statement: &str, name: &TableName) -> Result<()> {
    name.check()?;
    require_plain_name(&name.database, statement)?;
    require_plain_name(&name.table, statement)
}

/// Athena's OPTIMIZE takes no options: its rewrite thresholds are table properties.
pub(super) fn check_optimize(o: &OptimizeSpec<'_>) -> Result<()> {
    require_plain_names("OPTIMIZE", o.table)?;
    if let Some((key, _)) = o.options.first() {
        return Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "Athena's OPTIMIZE takes no options (`{key}` is an option of Spark's \
                 rewrite_data_files procedure); its rewrite thresholds are the optimize_* \
                 table properties"
            ),
        )
        .with_hint(
            "set optimize_rewrite_data_file_threshold, optimize_rewrite_delete_file_threshold, \
             optimize_rewrite_min_data_file_size_bytes or optimize_rewrite_max_data_file_size_bytes \
             with ALTER TABLE ... SET TBLPROPERTIES, or keep .spark_option(...) for the Spark dialect",
        ));
    }
    Ok(())
}

/// `OPTIMIZE db.t REWRITE DATA USING BIN_PACK [WHERE …]`
/// (<https://docs.aws.amazon.com/athena/latest/ug/optimize-statement.html>).
pub(super) fn write_optimize(w: &mut SqlWriter, o: &OptimizeSpec<'_>) -> Result<()> {
    w.push("OPTIMIZE ")
        .table_name(o.table)
        .push(" REWRITE DATA USING BIN_PACK");
    if let Some(f) = o.filter {
        // The WHERE names partition columns, and OPTIMIZE cannot quote them either.
        for (_, column) in f.expr().map(|e| e.columns()).unwrap_or_default() {
            require_plain_name(column, "OPTIMIZE")?;
        }
        w.push(" WHERE ");
        f.write(w)?;
    }
    Ok(())
}

/// `VACUUM db.t`, which takes no options: retention comes from the `vacuum_*` table
/// properties (<https://docs.aws.amazon.com/athena/latest/ug/vacuum-statement.html>).
pub(super) fn write_vacuum(
    w: &mut SqlWriter,
    v: &VacuumSpec<'_>,
    retention_in_steps: bool,
) -> Result<()> {
    let name = v.table;
    require_plain_names("VACUUM", name)?;
    if v.older_than.is_some() || v.retain_last.is_some() {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "Athena's VACUUM takes no options (older_than / retain_last are Spark's expire_snapshots arguments)",
        )
        .with_hint(
            "set retention with .retention(VacuumRetention::days(n).min_snapshots_to_keep(k)) and \
             run the two statements from .build_steps(): ALTER TABLE ... SET TBLPROPERTIES \
             ('vacuum_max_snapshot_age_seconds'=..., 'vacuum_min_snapshots_to_keep'=...), then VACUUM",
        ));
    }
    if let (Some(r), false) = (v.retention, retention_in_steps) {
        // Athena's default `vacuum_max_snapshot_age_seconds` is 432000 (5 days).
        let secs = r.max_snapshot_age_seconds.unwrap_or(432_000);
        return Err(Error::new(
            ErrorKind::Unsupported,
            "Athena's VACUUM has no RETAIN clause (`VACUUM t RETAIN n DAYS` is Delta Lake syntax); \
             retention comes from the table's vacuum_* properties",
        )
        .with_hint(format!(
            "use .build_steps() to get two statements: ALTER TABLE {name} SET TBLPROPERTIES \
             ('vacuum_max_snapshot_age_seconds'='{secs}'), then VACUUM {name}"
        )));
    }
    w.push("VACUUM ").table_name(name);
    Ok(())
}

// ---- CTAS --------------------------------------------------------------------------

/// The Trino (CTAS) spelling of a partition field, `'day(ts)'`, `'bucket(col, 16)'`,
/// `'truncate(col, 10)'`, `'col'`: column first, then the number, the opposite of
/// DDL (<https://docs.aws.amazon.com/athena/latest/ug/create-table-as.html>).
///
/// Trino's Iceberg connector reads the column in that string with a plain pattern, not
/// its SQL grammar (`plugin/trino-iceberg/src/main/java/io/trino/plugin/iceberg/PartitionFields.java`):
/// release 417, on which Athena engine v3 is built, takes `[a-z_][a-z0-9_]*` and no
/// quotes, so a reserved word (`date`, `trim`) is a name there; a name with a digit
/// first cannot be written (later releases read it quoted, Athena documents no quoting).
pub(super) fn trino_partitioning(p: &PartitionField) -> Result<String> {
    let plain = p
        .source
        .chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_lowercase())
        && p.source
            .chars()
            .all(|c| c == '_' || c.is_ascii_lowercase() || c.is_ascii_digit());
    if !plain {
        return Err(Error::new(
            ErrorKind::UnquotableIdentifier,
            format!(
                "partition source `{}` cannot be written in a partitioning string (`partitioning = ARRAY['…']`): Trino's Iceberg connector in Athena reads a column there only as [a-z_][a-z0-9_]*, with no quoting",
                p.source
            ),
        )
        .with_hint("partition on a column named with lower-case letters, digits and `_` (not a digit first); in a CTAS, alias the column to one in the SELECT"));
    }
    let source = &p.source;
    Ok(match p.transform {
        PartitionTransform::Identity => source.clone(),
        PartitionTransform::Bucket(n) | PartitionTransform::Truncate(n) => {
            format!("{}({source}, {n})", p.transform.name())
        }
        t => format!("{}({source})", t.name()),
    })
}

/// `WITH (table_type = 'ICEBERG', is_external = false, location = '…',
/// partitioning = ARRAY['day(ts)', …], format = 'PARQUET', …) AS`.
pub(super) fn write_ctas_clauses(w: &mut SqlWriter, c: &CtasSpec<'_>) -> Result<()> {
    w.push("\nWITH (\n  table_type = 'ICEBERG',\n  is_external = false");
    if let Some(l) = c.location {
        w.push(",\n  location = ").string(l.as_str());
    }
    if !c.partitioning.is_empty() {
        w.push(",\n  partitioning = ARRAY[");
        w.try_comma_list(c.partitioning, |w, p| {
            w.string(&trino_partitioning(p)?);
            Ok(())
        })?;
        w.push_char(']');
    }
    for p in c.properties.iter() {
        w.push(",\n  ").push(p.key()).push(" = ");
        match p {
            TableProperty::Format(f) => {
                w.string(&f.as_str().to_ascii_uppercase());
            }
            TableProperty::WriteCompression(c) => {
                w.string(&c.as_str().to_ascii_uppercase());
            }
            _ => {
                w.push(&p.value());
            }
        }
    }
    w.push("\n) AS\n");
    Ok(())
}

// ---- staged loads ------------------------------------------------------------------

/// `CREATE EXTERNAL TABLE db.t (cols) STORED AS PARQUET LOCATION 's3://…'`: a Hive
/// table over the staged files
/// (<https://docs.aws.amazon.com/athena/latest/ug/create-table.html>). Athena reads
/// Parquet columns by name, and ignores objects whose names start with `_` or `.`.
pub(super) fn write_create_staging(w: &mut SqlWriter, s: &StagingSpec<'_>) -> Result<()> {
    w.push("CREATE EXTERNAL TABLE ")
        .table_name(s.table)
        .push(" (\n  ");
    w.list(s.columns, ",\n  ", |w, c| {
        w.ident(&c.name).push_char(' ').ty(&c.ty);
        Ok(())
    })?;
    w.push("\n)\nSTORED AS PARQUET\nLOCATION ");
    w.ddl_string("location", s.location.as_str())?;
    Ok(())
}

/// `DROP TABLE IF EXISTS db.t`: for a Hive (external) table Athena drops the metadata
/// only; the staged files are deleted by the load itself.
pub(super) fn write_drop_staging(w: &mut SqlWriter, table: &TableName) {
    w.push("DROP TABLE IF EXISTS ").table_name(table);
}

/// The value of `ty` from its staged form: timestamps CAST from their text (exact: all
/// six fractional digits are in the text), dates from their day count, nested values
/// element by element (`transform`, `transform_keys`, `transform_values`, a rebuilt
/// row that stays NULL when the staged row is NULL). `depth` names lambda variables.
pub(super) fn write_unstaged(
    w: &mut SqlWriter,
    ty: &IcebergType,
    value: WriteFn<'_>,
    depth: usize,
) -> Result<()> {
    use IcebergType as T;
    if !needs_conversion(ty) {
        return value(w);
    }
    let rules = w.rules();
    match ty {
        T::Timestamp | T::TimestampTz => {
            w.push("CAST(");
            value(w)?;
            w.push(" AS ").ty(ty).push_char(')');
            Ok(())
        }
        T::Date => rules.write_date_from_days(w, value),
        T::List(element) => {
            let x = format!("x{depth}");
            w.push("transform(");
            value(w)?;
            w.push(", ").push(&x).push(" -> ");
            write_unstaged(
                w,
                element,
                &mut |w| {
                    w.push(&x);
                    Ok(())
                },
                depth + 1,
            )?;
            w.push_char(')');
            Ok(())
        }
        T::Map(key, val) => {
            let (k, v) = (format!("k{depth}"), format!("v{depth}"));
            let lambda = |w: &mut SqlWriter| {
                w.push(", (").push(&k).push(", ").push(&v).push(") -> ");
            };
            let convert_values = needs_conversion(val);
            if convert_values {
                w.push("transform_values(");
            }
            if needs_conversion(key) {
                w.push("transform_keys(");
                value(w)?;
                lambda(w);
                write_unstaged(
                    w,
                    key,
                    &mut |w| {
                        w.push(&k);
                        Ok(())
                    },
                    depth + 1,
                )?;
                w.push_char(')');
            } else {
                value(w)?;
            }
            if convert_values {
                lambda(w);
                write_unstaged(
                    w,
                    val,
                    &mut |w| {
                        w.push(&v);
                        Ok(())
                    },
                    depth + 1,
                )?;
                w.push_char(')');
            }
            Ok(())
        }
        T::Struct(fields) => {
            w.push("CASE WHEN ");
            value(w)?;
            w.push(" IS NULL THEN NULL ELSE ");
            rules.write_struct_value(w, ty, &mut |w, i| {
                let f = &fields[i];
                write_unstaged(
                    w,
                    &f.ty,
                    &mut |w| {
                        value(w)?;
                        w.push_char('.').ident(&f.name);
                        Ok(())
                    },
                    depth + 1,
                )
            })?;
            w.push(" END");
            Ok(())
        }
        _ => value(w),
    }
}

/// `date_add('day', n, DATE '1970-01-01')`: day arithmetic on the proleptic Gregorian
/// calendar (Trino's `date_add` on ISO chronology), exact for every date.
pub(super) fn write_date_from_days(w: &mut SqlWriter, days: WriteFn<'_>) -> Result<()> {
    w.push("date_add('day', ");
    days(w)?;
    w.push(", DATE '1970-01-01')");
    Ok(())
}

/// `CAST(ROW(v1, v2) AS row(a T1, b T2))`: Trino's row constructor has anonymous
/// fields; the CAST names them.
pub(super) fn write_struct_value(
    w: &mut SqlWriter,
    ty: &IcebergType,
    field: &mut dyn FnMut(&mut SqlWriter, usize) -> Result<()>,
) -> Result<()> {
    let IcebergType::Struct(fields) = ty else {
        return Err(Error::new(
            ErrorKind::InvalidType,
            format!("a struct value of type {}", ty.iceberg_name()),
        ));
    };
    w.push("CAST(ROW(");
    for i in 0..fields.len() {
        if i > 0 {
            w.push(", ");
        }
        field(w, i)?;
    }
    w.push(") AS ").ty(ty).push_char(')');
    Ok(())
}

// ---- reading live definitions ------------------------------------------------------

/// Athena's own property keys; the rest (table_type, engine bookkeeping) do not matter.
pub(super) fn live_property(key: &str, value: &str) -> Result<Option<TableProperty>> {
    let k = key.to_ascii_lowercase();
    match k.as_str() {
        "format"
        | "write_compression"
        | "optimize_rewrite_data_file_threshold"
        | "optimize_rewrite_delete_file_threshold"
        | "vacuum_min_snapshots_to_keep"
        | "vacuum_max_snapshot_age_seconds"
        | "vacuum_max_metadata_files_to_keep"
        | "write_data_path_enabled" => TableProperty::parse(&k, value).map(Some),
        _ => Ok(None),
    }
}
