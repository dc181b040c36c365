//! Apache Spark 3.5 with Iceberg's SQL extensions (Glue, EMR, the local test engine):
//! what differs from Athena.
//!
//! Sources: Iceberg's Spark DDL and procedures pages
//! (<https://iceberg.apache.org/docs/latest/spark-ddl/>,
//! <https://iceberg.apache.org/docs/latest/spark-procedures/>), its table properties
//! (<https://iceberg.apache.org/docs/latest/configuration/>) and metadata tables
//! (<https://iceberg.apache.org/docs/latest/spark-queries/#inspecting-tables>).

use super::athena;
use super::spark_parity;
use super::typing::{normalize, AssignIn, Assigned, Checked, TypeScope, Written};
use super::{CtasSpec, DialectRules, Grammar, OptimizeSpec, StagingSpec, VacuumSpec, WriteFn};
use crate::engine::targets::OutputTarget;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::Expr;
use crate::ident::{check_name, NameRole};
use crate::model::{
    Column, Compression, DatabaseName, FileFormat, PartitionChange, PartitionField,
    PartitionTransform, TableDef, TableName, TableProperties, TableProperty,
};
use crate::query::MetadataTable;
use crate::render::SqlWriter;
use crate::statement::StatementKind;
use crate::types::IcebergType;
use crate::validate::dialects::spark::SparkSyntax;
use crate::validate::dialects::TargetSyntax;
use crate::value::Value;

/// Spark: Athena's defaults where the engines agree, these overrides where not.
pub(crate) struct Spark;

impl DialectRules for Spark {
    fn name(&self) -> &'static str {
        "Spark"
    }

    fn syntax(&self) -> &'static dyn TargetSyntax {
        &SparkSyntax
    }

    /// One parser for every statement.
    fn grammar(&self, _kind: StatementKind) -> Grammar {
        Grammar::Spark
    }

    /// Spark's LIKE escapes with `\` unless told otherwise: `\` before `%`, `_` or `\`
    /// makes that character literal, before anything else (or at the end) it fails the
    /// query (`Like`'s default `escapeChar` and `StringUtils.escapeLikeRegex` in
    /// apache/spark, sql/catalyst; <https://spark.apache.org/docs/3.5.0/sql-ref-syntax-qry-select-like.html>).
    fn like_default_escape(&self) -> Option<char> {
        Some('\\')
    }

    // Spark's type rules are lenient (it casts on assignment under its store-assignment
    // policy and coerces in comparisons), so values are written as they are; Trino's
    // refusals do not apply to Spark renderings.

    fn check_value<'e>(&self, scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
        as_is(scope, expr)
    }

    fn check_condition<'e>(
        &self,
        scope: &TypeScope<'_>,
        expr: &'e Expr,
        _clause: &str,
    ) -> Result<Checked<'e>> {
        as_is(scope, expr)
    }

    fn check_sort_key<'e>(&self, scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
        as_is(scope, expr)
    }

    fn check_group_key<'e>(&self, scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
        as_is(scope, expr)
    }

    fn check_join_keys(
        &self,
        _left: (&str, &IcebergType),
        _right: (&str, &IcebergType),
    ) -> Result<()> {
        Ok(())
    }

    fn check_assignments(
        &self,
        scope: &TypeScope<'_>,
        _into: AssignIn,
        pairs: &mut [Assigned<'_, '_>],
    ) -> Result<()> {
        for pair in pairs {
            pair.value = as_written(scope, pair.value.take_written())?;
        }
        Ok(())
    }

    fn check_output<'e>(
        &self,
        scope: &TypeScope<'_>,
        _target: OutputTarget,
        _name: &str,
        value: Written<'e>,
    ) -> Result<Checked<'e>> {
        as_written(scope, value)
    }

    // Spark widens the columns of a union under its own rules
    // (<https://spark.apache.org/docs/3.5.0/sql-ref-ansi-compliance.html#type-coercion>);
    // only the column count is checked.
    fn union_column_type(
        &self,
        _position: usize,
        _a: Option<&crate::engine::types::EngineType>,
        _b: Option<&crate::engine::types::EngineType>,
    ) -> Result<Option<crate::engine::types::EngineType>> {
        Ok(None)
    }

    fn check_row_value(&self, _value: &Value, _column: &Column) -> Result<()> {
        Ok(())
    }

    fn check_json_read(&self, _column: &str, _ty: &IcebergType) -> Result<()> {
        Ok(())
    }

    fn declares_not_null(&self) -> bool {
        true
    }

    fn check_create_table(&self, _table: &TableDef, _errors: &mut Vec<Error>) {}

    /// Spark declares `timestamp` (with time zone) columns, and `NOT NULL`: a required
    /// column is refused.
    fn check_added_columns(&self, columns: &[Column]) -> Result<()> {
        athena::refuse_required_added_columns(self.name(), columns)
    }

    /// `USING iceberg`, `PARTITIONED BY (days(ts), …)`, `COMMENT`, `LOCATION`, then
    /// `TBLPROPERTIES` with `'format-version'='2'` first and Iceberg's property names.
    fn write_table_clauses(&self, w: &mut SqlWriter, t: &TableDef) -> Result<()> {
        w.push("\nUSING iceberg");
        athena::write_partitioned_by(w, t.partition_spec(), write_partition_field);
        if let Some(comment) = t.comment() {
            w.push("\nCOMMENT ");
            w.ddl_string("table comment", comment)?;
        }
        if let Some(loc) = t.location() {
            w.push("\nLOCATION ");
            w.ddl_string("location", loc.as_str())?;
        }
        athena::write_tblproperties(w, &properties(t.properties()))
    }

    /// Athena's DROP TABLE deletes an Iceberg table's data; Spark's only with `PURGE`.
    fn drop_table_purges(&self) -> bool {
        true
    }

    /// Iceberg's Spark catalog ignores CASCADE: `SparkCatalog.dropNamespace` drops only
    /// an empty namespace and never a table's data
    /// (<https://github.com/apache/iceberg/blob/main/spark/v3.5/spark/src/main/java/org/apache/iceberg/spark/SparkCatalog.java>).
    fn check_drop_database_cascade(&self, database: &DatabaseName) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "DROP DATABASE {database} CASCADE on Spark: Iceberg's Spark catalog ignores CASCADE \
                 (it drops only an empty database and deletes no table data), so it cannot do what \
                 Athena's CASCADE does"
            ),
        )
        .with_hint(format!(
            "drop each table first (TableName::drop_table(), which writes DROP TABLE ... PURGE on \
             Spark), then DROP DATABASE {database}"
        )))
    }

    /// `SHOW TABLES IN db LIKE 'pattern'`
    /// (<https://spark.apache.org/docs/3.5.0/sql-ref-syntax-aux-show-tables.html>).
    fn write_show_tables_pattern(&self, w: &mut SqlWriter, pattern: &str) -> Result<()> {
        w.push(" LIKE ").string(pattern);
        Ok(())
    }

    fn write_rename_column(&self, w: &mut SqlWriter, from: &str, to: &str, _ty: &IcebergType) {
        w.push("RENAME COLUMN ").ident(from).push(" TO ").ident(to);
    }

    fn write_widen_column(&self, w: &mut SqlWriter, column: &str, to: &IcebergType) {
        w.push("ALTER COLUMN ").ident(column).push(" TYPE ").ty(to);
    }

    fn write_set_properties(
        &self,
        w: &mut SqlWriter,
        properties: &TableProperties,
        format: FileFormat,
    ) -> Result<()> {
        athena::write_set_properties(w, properties, format, property)
    }

    fn write_unset_properties(
        &self,
        w: &mut SqlWriter,
        keys: &[&'static str],
        format: FileFormat,
    ) -> Result<()> {
        athena::write_unset_properties(w, keys, format, property_key)
    }

    /// Iceberg's SQL extensions: `ADD PARTITION FIELD f`, `DROP PARTITION FIELD f`,
    /// `REPLACE PARTITION FIELD f WITH g`, each field in Spark's transform names
    /// (<https://iceberg.apache.org/docs/latest/spark-ddl/#alter-table--add-partition-field>).
    fn write_partition_spec_change(
        &self,
        w: &mut SqlWriter,
        change: &PartitionChange,
        _spec: &[PartitionField],
    ) -> Result<bool> {
        let (verb, field) = change.verb_and_field();
        w.push(verb).push(" PARTITION FIELD ");
        write_partition_field(w, field);
        if let PartitionChange::Replace(_, new) = change {
            w.push(" WITH ");
            write_partition_field(w, new);
        }
        Ok(true)
    }

    /// Spark has no limit on the partitions one INSERT writes.
    fn max_partitions_per_insert(&self) -> Option<usize> {
        None
    }

    /// Spark refuses column aliases on a MERGE source (`COLUMN_ALIASES_IS_NOT_ALLOWED`).
    fn merge_source_column_aliases(&self) -> bool {
        false
    }

    /// Spark's analyzer wants an `int` row count: a larger literal is a `bigint`, which it
    /// refuses (`INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE`, `checkLimitLikeClause` in
    /// apache/spark, sql/catalyst/.../analysis/CheckAnalysis.scala).
    fn check_limit(&self, rows: u64) -> Result<()> {
        athena::limit_at_most(
            self.name(),
            rows,
            i32::MAX.unsigned_abs().into(),
            "a 32-bit integer",
        )
    }

    /// Spark sorts NULLs first in ascending order and last in descending order
    /// (<https://spark.apache.org/docs/3.5.0/sql-ref-syntax-qry-select-orderby.html>).
    fn sorts_nulls_first(&self, descending: bool) -> bool {
        !descending
    }

    /// Spark writes `LIMIT m OFFSET n`
    /// (<https://spark.apache.org/docs/3.5.0/sql-ref-syntax-qry-select-offset.html>).
    fn offset_after_limit(&self) -> bool {
        true
    }

    /// Spark's `sequence` is limited only by its largest array (about 2^31 entries).
    fn max_sequence_entries(&self) -> Option<i64> {
        None
    }

    /// `db.t.snapshots`.
    fn write_metadata_table(&self, w: &mut SqlWriter, table: &TableName, m: MetadataTable) {
        w.table_name(table).push_char('.').push(m.name());
    }

    fn metadata_column(&self, m: MetadataTable, column: &str) -> Option<&'static str> {
        match (m, column) {
            // Spark's `manifests` table has no row counts.
            (
                MetadataTable::Manifests,
                "added_rows_count" | "existing_rows_count" | "deleted_rows_count",
            ) => Some("CAST(NULL AS bigint)"),
            (MetadataTable::Partitions, "total_size") => Some("total_data_file_size_in_bytes"),
            _ => None,
        }
    }

    /// Nested values come back as they are (Spark's JSON output would drop timestamp
    /// precision).
    fn nested_columns_as_json(&self) -> bool {
        false
    }

    fn write_to_json(&self, w: &mut SqlWriter, value: WriteFn<'_>) -> Result<()> {
        w.push("to_json(");
        value(w)?;
        w.push_char(')');
        Ok(())
    }

    /// `collect_list` is an empty array over no rows.
    fn write_array_agg(
        &self,
        w: &mut SqlWriter,
        _element: &IcebergType,
        value: WriteFn<'_>,
    ) -> Result<()> {
        w.push("collect_list(");
        value(w)?;
        w.push_char(')');
        Ok(())
    }

    /// The table goes into a string argument, where it cannot be quoted either; options
    /// must be plain text.
    fn check_optimize(&self, o: &OptimizeSpec<'_>) -> Result<()> {
        athena::require_plain_names("OPTIMIZE", o.table)?;
        check_options(o.options)
    }

    /// `CALL <catalog>.system.rewrite_data_files(table => 'db.t'[, where => '…']
    /// [, options => map(…)])`; the predicate is Spark SQL inside a string literal.
    fn write_optimize(&self, w: &mut SqlWriter, o: &OptimizeSpec<'_>) -> Result<()> {
        check_catalog(o.catalog)?;
        open_call(w, o.catalog, "rewrite_data_files", o.table);
        if let Some(f) = o.filter {
            // The predicate is Spark SQL inside a string literal.
            let mut pred = SqlWriter::new(StatementKind::Select, w.dialect());
            f.write(&mut pred)?;
            w.push(", where => ").string(pred.as_str());
        }
        if !o.options.is_empty() {
            // Keys and values are checked plain `[a-z0-9.-]` text (`check_options`).
            w.push(", options => map(")
                .comma_list(o.options, |w, (key, value)| {
                    w.string(key).push(", ").string(value);
                })
                .push_char(')');
        }
        w.push_char(')');
        Ok(())
    }

    /// `CALL <catalog>.system.expire_snapshots(table => 'db.t'[, older_than => …]
    /// [, retain_last => n])`.
    fn write_vacuum(
        &self,
        w: &mut SqlWriter,
        v: &VacuumSpec<'_>,
        retention_in_steps: bool,
    ) -> Result<()> {
        if v.retention.is_some() && !retention_in_steps {
            return Err(Error::new(
                ErrorKind::Unsupported,
                "a retention set through table properties needs two statements",
            )
            .with_hint("use .build_steps(), or .older_than(ts) / .retain_last(n) for one CALL"));
        }
        athena::require_plain_names("VACUUM", v.table)?;
        check_catalog(v.catalog)?;
        open_call(w, v.catalog, "expire_snapshots", v.table);
        if let Some(ts) = v.older_than {
            w.push(", older_than => ");
            w.literal(&Value::TimestampTz(ts), &IcebergType::TimestampTz)?;
        }
        if let Some(n) = v.retain_last {
            athena::check_retain_last(n)?;
            w.push(", retain_last => ").push(&n.to_string());
        }
        w.push_char(')');
        Ok(())
    }

    fn ctas_requires_location(&self) -> bool {
        false
    }

    fn check_ctas_partition(&self, _field: &PartitionField) -> Result<()> {
        Ok(())
    }

    /// `USING iceberg PARTITIONED BY (…) LOCATION '…' TBLPROPERTIES (…) AS`.
    fn write_ctas_clauses(&self, w: &mut SqlWriter, c: &CtasSpec<'_>) -> Result<()> {
        w.push("\nUSING iceberg");
        athena::write_partitioned_by(w, c.partitioning, write_partition_field);
        if let Some(l) = c.location {
            w.push("\nLOCATION ");
            w.ddl_string("location", l.as_str())?;
        }
        athena::write_tblproperties(w, &properties(c.properties))?;
        w.push("\nAS ");
        Ok(())
    }

    fn check_hive_ctas(&self) -> Result<()> {
        Err(Error::new(
            ErrorKind::Unsupported,
            "Hive-format CTAS is rendered for Athena only",
        )
        .with_hint("for Spark, create an Iceberg table with IcebergCtas"))
    }

    fn check_unload(&self) -> Result<()> {
        Err(
            Error::new(ErrorKind::Unsupported, "Spark has no UNLOAD statement").with_hint(
                "in Spark write files with INSERT OVERWRITE DIRECTORY '...' USING parquet SELECT ..., \
                 or create a table with IcebergCtas",
            ),
        )
    }

    /// `CREATE TEMPORARY VIEW v (cols) USING parquet OPTIONS (path 's3://…')`: a view
    /// over the files that lives only in this session, so it needs no catalog that
    /// accepts non-Iceberg tables and nothing is left in one if the session dies
    /// (<https://spark.apache.org/docs/latest/sql-ref-syntax-ddl-create-view.html>).
    /// Spark, like Hive, skips files whose names start with `_` or `.`.
    fn write_create_staging(&self, w: &mut SqlWriter, s: &StagingSpec<'_>) -> Result<()> {
        w.push("CREATE TEMPORARY VIEW ")
            .ident(&s.table.table)
            .push(" (\n  ");
        w.list(s.columns, ",\n  ", |w, c| {
            w.ident(&c.name).push_char(' ').ty(&c.ty);
            Ok(())
        })?;
        w.push("\n)\nUSING parquet\nOPTIONS (path ");
        w.ddl_string("location", s.location.as_str())?;
        w.push_char(')');
        Ok(())
    }

    fn write_drop_staging(&self, w: &mut SqlWriter, table: &TableName) {
        w.push("DROP VIEW IF EXISTS ").ident(&table.table);
    }

    /// A temporary view has a one-part name.
    fn write_staging_name(&self, w: &mut SqlWriter, table: &TableName) {
        w.ident(&table.table);
    }

    /// `date_from_unix_date(n)` (Spark 3.1+).
    fn write_date_from_days(&self, w: &mut SqlWriter, days: WriteFn<'_>) -> Result<()> {
        w.push("date_from_unix_date(");
        days(w)?;
        w.push_char(')');
        Ok(())
    }

    /// `named_struct('a', v1, 'b', v2)`.
    fn write_struct_value(
        &self,
        w: &mut SqlWriter,
        ty: &IcebergType,
        field: &mut dyn FnMut(&mut SqlWriter, usize) -> Result<()>,
    ) -> Result<()> {
        let IcebergType::Struct(fields) = ty else {
            return athena::write_struct_value(w, ty, field);
        };
        w.push("named_struct(");
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                w.push(", ");
            }
            w.string(&f.name).push(", ");
            field(w, i)?;
        }
        w.push_char(')');
        Ok(())
    }

    /// Spark prints Iceberg `timestamptz` as `timestamp`.
    fn live_type(&self, name: &str) -> Option<IcebergType> {
        (name == "timestamp").then_some(IcebergType::TimestampTz)
    }

    /// Iceberg's property names, mapped back to Athena's.
    fn live_property(&self, key: &str, value: &str) -> Result<Option<TableProperty>> {
        let k = key.to_ascii_lowercase();
        let p = match k.as_str() {
            "write.format.default" => TableProperty::Format(FileFormat::parse(value)?),
            "format" => match value.strip_prefix("iceberg/") {
                Some(f) => TableProperty::Format(FileFormat::parse(f)?),
                None => return Ok(None),
            },
            k if k.starts_with("write.") && k.ends_with(".compression-codec") => {
                TableProperty::WriteCompression(Compression::parse(value)?)
            }
            "history.expire.min-snapshots-to-keep" => {
                return TableProperty::parse("vacuum_min_snapshots_to_keep", value).map(Some)
            }
            "history.expire.max-snapshot-age-ms" => {
                let ms: u64 = value.trim().parse().map_err(|_| {
                    Error::new(
                        ErrorKind::InvalidProperty,
                        format!("`{key}` = `{}` is not a number", value.escape_debug()),
                    )
                })?;
                TableProperty::VacuumMaxSnapshotAgeSeconds(ms / 1000)
            }
            "write.metadata.previous-versions-max" => {
                return TableProperty::parse("vacuum_max_metadata_files_to_keep", value).map(Some)
            }
            _ => return athena::live_property(key, value),
        };
        Ok(Some(p))
    }
}

/// Spark's transforms are plural for time (`days(ts)`); `bucket(16, col)` and
/// `truncate(10, col)` take the number first, as in Athena's DDL.
fn write_partition_field(w: &mut SqlWriter, p: &PartitionField) {
    let name = match p.transform {
        PartitionTransform::Year => "years",
        PartitionTransform::Month => "months",
        PartitionTransform::Day => "days",
        PartitionTransform::Hour => "hours",
        t => t.name(),
    };
    athena::write_transform(w, p, name);
}

/// `'format-version'='2'`, then each property under Iceberg's name.
fn properties(props: &TableProperties) -> Vec<(String, String)> {
    let mut v = vec![("format-version".to_string(), "2".to_string())];
    let format = props.format();
    v.extend(props.iter().map(|p| property(p, format)));
    v
}

/// One property under its Iceberg name and value (`format` is the table's file format,
/// which names the compression key). Athena-only keys (optimize thresholds,
/// write_data_path_enabled) keep their Athena name, so that Athena sees them if it
/// later reads the table.
fn property(p: &TableProperty, format: FileFormat) -> (String, String) {
    match *p {
        TableProperty::Format(f) => ("write.format.default".to_string(), f.as_str().to_string()),
        TableProperty::WriteCompression(c) => {
            let codec = match (format, c) {
                (FileFormat::Parquet | FileFormat::Avro, Compression::None) => "uncompressed",
                _ => c.as_str(),
            };
            (
                format!("write.{}.compression-codec", format.as_str()),
                codec.to_string(),
            )
        }
        TableProperty::VacuumMinSnapshotsToKeep(n) => (
            "history.expire.min-snapshots-to-keep".to_string(),
            n.to_string(),
        ),
        TableProperty::VacuumMaxSnapshotAgeSeconds(s) => (
            "history.expire.max-snapshot-age-ms".to_string(),
            s.saturating_mul(1000).to_string(),
        ),
        TableProperty::VacuumMaxMetadataFilesToKeep(n) => (
            "write.metadata.previous-versions-max".to_string(),
            n.to_string(),
        ),
        _ => (p.key().to_string(), p.value()),
    }
}

/// The Iceberg name of an Athena property key.
fn property_key(key: &'static str, format: FileFormat) -> String {
    let sample = match key {
        "format" => TableProperty::Format(format),
        "write_compression" => TableProperty::WriteCompression(Compression::Zstd),
        "vacuum_min_snapshots_to_keep" => TableProperty::VacuumMinSnapshotsToKeep(1),
        "vacuum_max_snapshot_age_seconds" => TableProperty::VacuumMaxSnapshotAgeSeconds(1),
        "vacuum_max_metadata_files_to_keep" => TableProperty::VacuumMaxMetadataFilesToKeep(1),
        other => return other.to_string(),
    };
    property(&sample, format).0
}

fn check_catalog(catalog: &str) -> Result<()> {
    check_name(catalog, NameRole::Database)
        .map_err(|e| Error::new(e.kind(), format!("Spark catalog name: {}", e.message())))
}

/// Writes `CALL <catalog>.system.<procedure>(table => 'db.t'`; the caller closes it.
fn open_call(w: &mut SqlWriter, catalog: &str, procedure: &str, table: &TableName) {
    w.push("CALL ")
        .ident(catalog)
        .push(".system.")
        .push(procedure)
        .push("(table => ");
    w.string(&format!("{}.{}", table.database, table.table));
}

/// `rewrite_data_files` options: non-empty plain `[a-z0-9.-]` keys and values, each key
/// once; Iceberg checks the option itself when the procedure runs.
fn check_options(options: &[(String, String)]) -> Result<()> {
    let plain = |text: &str| {
        !text.is_empty()
            && text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
    };
    let mut errors = Vec::new();
    for (i, (key, value)) in options.iter().enumerate() {
        if !plain(key) {
            errors.push(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "rewrite_data_files option name {key:?} must be non-empty plain text: \
                     lower-case letters, digits, '.' and '-'"
                ),
            ));
        }
        if !plain(value) {
            errors.push(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "rewrite_data_files option `{key}`: value {value:?} must be non-empty plain text: \
                     lower-case letters, digits, '.' and '-'"
                ),
            ));
        }
        if options[..i].iter().any(|(k, _)| k == key) {
            errors.push(Error::new(
                ErrorKind::InvalidValue,
                format!("rewrite_data_files option `{key}` is given twice"),
            ));
        }
    }
    Error::check_all(errors)
}

/// A value under Spark's lenient rules: written as it is.
fn as_is<'e>(scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
    as_written(scope, Written::expr(expr))
}

/// `value` as it is (normalized, and where Spark's reading of it differs from Athena's,
/// rewritten to Athena's meaning: `spark_parity`), untyped. (An expression deeper than
/// any target writes is refused when it is written: see [`Expr::enter_level`].)
fn as_written<'e>(scope: &TypeScope<'_>, value: Written<'e>) -> Result<Checked<'e>> {
    Ok(match value {
        Written::Expr(e) => Checked::plain(
            Written::Expr(spark_parity::rewrite(scope, normalize(scope, e))),
            None,
        ),
        column => Checked::plain(column, None),
    })
}
