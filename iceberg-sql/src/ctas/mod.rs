//! `CREATE TABLE ... AS SELECT` and `UNLOAD` (<https://docs.aws.amazon.com/athena/latest/ug/create-table-as.html>,
//! <https://docs.aws.amazon.com/athena/latest/ug/unload.html>).
//!
//! * [`IcebergCtas`]: Athena `WITH (table_type = 'ICEBERG', is_external = false,
//!   location = ..., partitioning = ARRAY['day(ts)', 'bucket(col, 16)'], ...)`: note the
//!   Trino argument order (column first) in `partitioning`, the opposite of DDL. Spark:
//!   `CREATE TABLE ... USING iceberg PARTITIONED BY (...) LOCATION ... TBLPROPERTIES
//!   (...) AS SELECT ...`.
//! * [`HiveCtas`]: Athena Hive Parquet tables (`format`, `parquet_compression`,
//!   `external_location`, `partitioned_by` with the partition columns last in the
//!   SELECT, `bucketed_by` + `bucket_count`). Athena only.
//! * [`Unload`]: `UNLOAD (SELECT ...) TO 's3://...' WITH (format, compression,
//!   partitioned_by)`. Athena only: Spark has no UNLOAD.
//! * [`AddHivePartitions`]: `ALTER TABLE ... ADD IF NOT EXISTS PARTITION (dt = '...')
//!   LOCATION '...'`, registering the partition folders of a Hive table (a day's Hive
//!   CTAS written to its own folder). Athena only.

use iceberg_sql_rules::LocationHolds;

mod hive_partitions;
pub use hive_partitions::AddHivePartitions;

use crate::dialect::{CtasSpec, Dialect, Grammar};
use crate::engine::targets::{hive_partition_type_ok, OutputTarget};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{
    check_partition_spec, Compression, FileFormat, Location, PartitionField, SpecRules, TableDef,
    TableName, TableProperties, TableProperty,
};
use crate::query::{OutputNames, Select, SelectBody, Usage};
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

fn check_output_tail(query: &SelectBody, cols: &[String], what: &str) -> Result<()> {
    if cols.is_empty() {
        return Ok(());
    }
    let names = query.output_names();
    let tail: Vec<Option<&str>> = names
        .iter()
        .rev()
        .take(cols.len())
        .rev()
        .map(|n| n.as_deref())
        .collect();
    let want: Vec<Option<&str>> = cols.iter().map(|c| Some(c.as_str())).collect();
    if names.len() < cols.len() || tail != want {
        let shown: Vec<String> = names
            .iter()
            .map(|n| n.clone().unwrap_or_else(|| "<unnamed>".into()))
            .collect();
        return Err(Error::new(
            ErrorKind::InvalidTable,
            format!(
                "{what}: the partition columns [{}] must be the last columns of the SELECT, in that order; the SELECT produces [{}]",
                cols.join(", "),
                shown.join(", ")
            ),
        )
        .with_hint("project the partition columns last (give expressions an alias with .expr_as)"));
    }
    Ok(())
}

fn check_outputs(query: &SelectBody, cols: &[String], what: &str) -> Vec<Error> {
    let names = query.output_names();
    cols.iter()
        .filter(|c| !names.iter().any(|n| n.as_deref() == Some(c.as_str())))
        .map(|c| {
            Error::new(
                ErrorKind::UnknownColumn,
                format!("{what}: `{c}` is not a column of the SELECT"),
            )
        })
        .collect()
}

fn parse_location(
    what: &str,
    text: &Option<String>,
    required: bool,
    holds: LocationHolds,
) -> Result<Option<Location>> {
    match text {
        Some(t) => {
            let what = format!("location of {what}");
            let location = Location::parse_as(&what, t)?;
            location.check_key_length(&what, holds)?;
            Ok(Some(location))
        }
        None if required => Err(Error::new(
            ErrorKind::InvalidLocation,
            format!("{what} needs a location"),
        )
        .with_hint("set an S3 folder with .location(\"s3://bucket/folder/\")")),
        None => Ok(None),
    }
}

/// A partitioned write (a Hive CTAS, an UNLOAD) puts each partition in a folder
/// `<column>=<value>/` beneath its location, as Hive lays partitions out
/// (<https://docs.aws.amazon.com/athena/latest/ug/partitions.html>). A location that is
/// itself such a folder of a partition column would put the files under
/// `dt=…/dt=…/`: refused, with the table root as the way out.
fn check_partition_folder(
    what: &str,
    location: &Location,
    partitioned_by: &[String],
) -> Result<()> {
    let text = location.as_str();
    let Some((parent, segment)) = text.trim_end_matches('/').rsplit_once('/') else {
        return Ok(());
    };
    let Some((column, _)) = segment.split_once('=') else {
        return Ok(());
    };
    let Some(column) = partitioned_by
        .iter()
        .find(|c| c.eq_ignore_ascii_case(column))
    else {
        return Ok(());
    };
    Err(Error::new(
        ErrorKind::InvalidLocation,
        format!(
            "{what} `{text}` ends in the partition folder `{segment}/`: Athena writes each value of partition column `{column}` into a folder `{column}=<value>/` beneath it, so the files would land under `{segment}/{column}=.../`"
        ),
    )
    .with_hint(format!(
        "point it at the table root, `{parent}/`, and select the partition value as column `{column}`"
    )))
}

/// `CREATE TABLE ... AS SELECT` producing an Iceberg table.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::ctas::IcebergCtas;
/// use iceberg_sql::query::SnapshotRow;
/// # use iceberg_sql::query::Select;
/// # #[derive(Debug)] struct Ev;
/// # impl Ev {
/// #     const EVENT_ID: Col<Ev, String> = Col::new("event_id");
/// #     const USER_ID: Col<Ev, String> = Col::new("user_id");
/// #     const EVENT_TS: Col<Ev, chrono::NaiveDateTime> = Col::new("event_ts");
/// # }
/// # impl IcebergTable for Ev {
/// #     fn table_def() -> &'static TableDef {
/// #         static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
/// #         T.get_or_init(|| TableDef::builder("analytics", "mcp_events_raw")
/// #             .column(Column::new("event_id", IcebergType::String))
/// #             .column(Column::new("user_id", IcebergType::String))
/// #             .column(Column::new("event_ts", IcebergType::Timestamp))
/// #             .location("s3://my-datalake/iceberg/raw/").build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { vec![] }
/// # }
/// let q = Ev::select().column(Ev::EVENT_ID).column(Ev::USER_ID).column(Ev::EVENT_TS);
/// let ctas = IcebergCtas::new(TableName::new("analytics", "mcp_daily"), &q)
///     .location("s3://my-datalake/iceberg/mcp_daily/")
///     .partition(PartitionField::new("event_ts", PartitionTransform::Day))
///     .partition(PartitionField::new("user_id", PartitionTransform::Bucket(16)))
///     .property(TableProperty::Format(FileFormat::Parquet))
///     .property(TableProperty::WriteCompression(Compression::Zstd));
/// assert_eq!(ctas.build()?.sql(),
///     "CREATE TABLE analytics.mcp_daily\nWITH (\n  table_type = 'ICEBERG',\n  is_external = false,\n  \
///      location = 's3://my-datalake/iceberg/mcp_daily/',\n  \
///      partitioning = ARRAY['day(event_ts)', 'bucket(user_id, 16)'],\n  format = 'PARQUET',\n  \
///      write_compression = 'ZSTD'\n) AS\nSELECT event_id, user_id, event_ts FROM analytics.mcp_events_raw");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct IcebergCtas<'q> {
    name: TableName,
    query: &'q SelectBody,
    location: Option<String>,
    partitioning: Vec<PartitionField>,
    properties: TableProperties,
    /// The table [`like`](Self::like) took its spec from, and that table's location.
    like: Option<(TableName, Option<Location>)>,
}

impl<'q> IcebergCtas<'q> {
    /// CTAS creating Iceberg table `name` from `query`.
    pub fn new<S>(name: TableName, query: &'q Select<S>) -> Self {
        IcebergCtas {
            name,
            query: query.body(),
            location: None,
            partitioning: Vec::new(),
            properties: TableProperties::new(),
            like: None,
        }
    }

    /// Takes the partition spec and properties of `def` (e.g. a record type's
    /// `table_def()`), replacing any set before, and its location only when this CTAS
    /// creates the table `def` names. Another table (a rebuild into `t_v2`) needs a
    /// folder of its own, set with [`location`](Self::location): `def`'s holds that
    /// table's files, and an Athena CTAS checks that its location is empty and never
    /// overwrites data
    /// (<https://docs.aws.amazon.com/athena/latest/ug/considerations-ctas.html>). The build
    /// refuses a missing location, and `def`'s.
    pub fn like(mut self, def: &TableDef) -> Self {
        if def.name() == &self.name {
            self.location = def.location().map(|l| l.as_str().to_string());
            self.like = None;
        } else {
            self.like = Some((def.name().clone(), def.location().cloned()));
        }
        self.partitioning = def.partition_spec().to_vec();
        self.properties = def.properties().clone();
        self
    }

    /// The table's S3 folder (required by Athena).
    pub fn location(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }

    /// Adds a partition field (rendered `'bucket(col, 16)'` in Athena).
    pub fn partition(mut self, field: PartitionField) -> Self {
        self.partitioning.push(field);
        self
    }

    /// Sets a table property. CTAS accepts format, write_compression, the optimize
    /// thresholds and vacuum_min_snapshots_to_keep / vacuum_max_snapshot_age_seconds.
    pub fn property(mut self, property: TableProperty) -> Self {
        self.properties.set(property);
        self
    }

    fn check(&self, dialect: Dialect) -> Result<Option<Location>> {
        let rules = dialect.rules();
        let mut errors = Vec::new();
        if let Err(e) = self.name.check() {
            errors.extend(e.into_vec());
        }
        let loc = match (&self.location, &self.like) {
            (None, Some((source, _))) if rules.ctas_requires_location() => {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidLocation,
                        format!(
                            "an Iceberg CTAS like `{source}` needs a location of its own: like() takes the partition spec and properties of `{source}`, not its location, which holds that table's files (an Athena CTAS writes only into an empty folder)"
                        ),
                    )
                    .with_hint(format!(
                        "set a new, empty S3 folder with .location(\"s3://bucket/folder/{}/\")",
                        self.name.table
                    )),
                );
                None
            }
            _ => match parse_location(
                "an Iceberg CTAS",
                &self.location,
                rules.ctas_requires_location(),
                LocationHolds::IcebergTable,
            ) {
                Ok(l) => l,
                Err(e) => {
                    errors.push(e);
                    None
                }
            },
        };
        if let (Some(l), Some((source, Some(source_loc)))) = (&loc, &self.like) {
            if l == source_loc {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidLocation,
                        format!(
                            "location of an Iceberg CTAS `{l}` is the location of `{source}`, which holds that table's files; an Athena CTAS writes only into an empty folder"
                        ),
                    )
                    .with_hint("set a new, empty S3 folder with .location(...)"),
                );
            }
        }
        if let Err(e) = self.properties.check() {
            errors.extend(e.into_vec());
        }
        for p in self.properties.iter() {
            if let TableProperty::VacuumMaxMetadataFilesToKeep(_)
            | TableProperty::WriteDataPathEnabled(_) = p
            {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidProperty,
                        format!("`{}` is not a CTAS property in Athena", p.key()),
                    )
                    .with_hint("set it after the CTAS with ALTER TABLE ... SET TBLPROPERTIES"),
                );
            }
        }
        errors.extend(
            self.query
                .check_output_names("an Iceberg CTAS", OutputNames::Relation),
        );
        let sources: Vec<String> = self.partitioning.iter().map(|p| p.source.clone()).collect();
        errors.extend(check_outputs(self.query, &sources, "partitioning"));
        let outputs = self.query.output_names();
        let names: Vec<&str> = outputs.iter().flatten().map(String::as_str).collect();
        errors.extend(check_partition_spec(
            &self.partitioning,
            &names,
            SpecRules::All,
        ));
        for p in &self.partitioning {
            if let Some(ty) = self.query.output_type(&p.source) {
                if let Err(e) = p.check(&ty) {
                    errors.push(e);
                }
            }
            if let Err(e) = rules.check_ctas_partition(p) {
                errors.push(e);
            }
        }
        Error::check_all(errors)?;
        Ok(loc)
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let loc = self.check(dialect)?;
        let mut w = SqlWriter::new(StatementKind::CreateTableAs, dialect);
        w.push("CREATE TABLE ").table_name(&self.name);
        let spec = CtasSpec {
            location: loc.as_ref(),
            partitioning: &self.partitioning,
            properties: &self.properties,
        };
        w.rules().write_ctas_clauses(&mut w, &spec)?;
        let target = match dialect {
            Dialect::Trino => OutputTarget::TrinoIcebergCtas,
            _ => OutputTarget::IcebergCtas,
        };
        self.query.render_for(&mut w, Usage::Output(target))?;
        w.finish()
    }
}

/// `CREATE TABLE ... AS SELECT` producing a Hive Parquet table (Athena only).
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::ctas::HiveCtas;
/// # use iceberg_sql::query::Select;
/// # #[derive(Debug)] struct Raw;
/// # impl Raw {
/// #     const EVENT_ID: Col<Raw, String> = Col::new("event_id");
/// #     const USER_ID: Col<Raw, String> = Col::new("user_id");
/// #     const EVENT_TS: Col<Raw, chrono::NaiveDateTime> = Col::new("event_ts");
/// # }
/// # impl IcebergTable for Raw {
/// #     fn table_def() -> &'static TableDef {
/// #         static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
/// #         T.get_or_init(|| TableDef::builder("analytics", "mcp_events_csv_raw")
/// #             .column(Column::new("event_id", IcebergType::String))
/// #             .column(Column::new("user_id", IcebergType::String))
/// #             .column(Column::new("event_ts", IcebergType::Timestamp))
/// #             .location("s3://raw-events/csv/").build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { vec![] }
/// # }
/// let q = Raw::select()
///     .column(Raw::EVENT_ID)
///     .column(Raw::USER_ID)
///     .expr_as(Raw::EVENT_TS.cast::<chrono::NaiveDate>(), "event_date");
/// let ctas = HiveCtas::new(TableName::new("analytics", "mcp_events_parquet"), &q)
///     .compression(Compression::Snappy)
///     .external_location("s3://my-datalake/events-parquet/")
///     .partitioned_by(["event_date"])
///     .bucketed_by(["user_id"], 64);
/// assert_eq!(ctas.build()?.sql(),
///     "CREATE TABLE analytics.mcp_events_parquet\nWITH (\n  format = 'PARQUET',\n  \
///      parquet_compression = 'SNAPPY',\n  external_location = 's3://my-datalake/events-parquet/',\n  \
///      partitioned_by = ARRAY['event_date'],\n  bucketed_by = ARRAY['user_id'],\n  bucket_count = 64\n) AS\n\
///      SELECT event_id, user_id, CAST(event_ts AS date) AS event_date FROM analytics.mcp_events_csv_raw");
/// // Partition columns must come last in the SELECT.
/// let bad = HiveCtas::new(TableName::new("analytics", "p"), &q).partitioned_by(["user_id"]);
/// assert_eq!(bad.build().unwrap_err().kind(), ErrorKind::InvalidTable);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct HiveCtas<'q> {
    name: TableName,
    query: &'q SelectBody,
    compression: Option<Compression>,
    external_location: Option<String>,
    partitioned_by: Vec<String>,
    bucketed_by: Vec<String>,
    bucket_count: Option<u32>,
}

impl<'q> HiveCtas<'q> {
    /// CTAS creating Hive Parquet table `name` from `query`.
    pub fn new<S>(name: TableName, query: &'q Select<S>) -> Self {
        HiveCtas {
            name,
            query: query.body(),
            compression: None,
            external_location: None,
            partitioned_by: Vec::new(),
            bucketed_by: Vec::new(),
            bucket_count: None,
        }
    }

    /// `parquet_compression` (Athena's default for Hive Parquet CTAS is GZIP).
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = Some(compression);
        self
    }

    /// `external_location`: an empty S3 folder, the table root, never one partition's
    /// `dt=<value>/` folder (otherwise the table goes under the query-results location).
    pub fn external_location(mut self, location: impl Into<String>) -> Self {
        self.external_location = Some(location.into());
        self
    }

    /// `partitioned_by`: these must be the last SELECT columns, in this order.
    pub fn partitioned_by<'a>(mut self, columns: impl IntoIterator<Item = &'a str>) -> Self {
        self.partitioned_by = columns.into_iter().map(str::to_string).collect();
        self
    }

    /// `bucketed_by` + `bucket_count`.
    pub fn bucketed_by<'a>(
        mut self,
        columns: impl IntoIterator<Item = &'a str>,
        count: u32,
    ) -> Self {
        self.bucketed_by = columns.into_iter().map(str::to_string).collect();
        self.bucket_count = Some(count);
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect` (Spark refuses: use
    /// [`IcebergCtas`]).
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        dialect.rules().check_hive_ctas()?;
        let mut errors = Vec::new();
        if let Err(e) = self.name.check() {
            errors.extend(e.into_vec());
        }
        let loc = match parse_location(
            "a Hive CTAS",
            &self.external_location,
            false,
            LocationHolds::Files,
        ) {
            Ok(l) => l,
            Err(e) => {
                errors.push(e);
                None
            }
        };
        if let Some(l) = &loc {
            if let Err(e) = check_partition_folder("external_location", l, &self.partitioned_by) {
                errors.push(e);
            }
        }
        if let Some(c @ (Compression::Lz4 | Compression::Zlib)) = self.compression {
            errors.push(
                Error::new(
                    ErrorKind::InvalidProperty,
                    format!("parquet_compression {} is an ORC codec", c.as_str()),
                )
                .with_hint("use SNAPPY, GZIP, ZSTD or NONE"),
            );
        }
        errors.extend(
            self.query
                .check_output_names("a Hive CTAS", OutputNames::Relation),
        );
        errors.extend(check_outputs(
            self.query,
            &self.partitioned_by,
            "partitioned_by",
        ));
        errors.extend(check_outputs(self.query, &self.bucketed_by, "bucketed_by"));
        if let Err(e) = check_output_tail(self.query, &self.partitioned_by, "partitioned_by") {
            errors.push(e);
        }
        for b in &self.bucketed_by {
            if self.partitioned_by.contains(b) {
                errors.push(Error::new(
                    ErrorKind::InvalidTable,
                    format!("`{b}` cannot be both a partition and a bucket column"),
                ));
            }
        }
        if !self.partitioned_by.is_empty() {
            let usage = Usage::Output(OutputTarget::HiveCtas);
            if let Ok(types) = self.query.output_types(dialect.rules(), usage) {
                for c in &self.partitioned_by {
                    let ty = types
                        .iter()
                        .find(|(name, _)| name.as_deref() == Some(c.as_str()))
                        .and_then(|(_, ty)| ty.as_ref());
                    if let Some(ty) = ty.filter(|t| !hive_partition_type_ok(t)) {
                        errors.push(
                            Error::new(
                                ErrorKind::InvalidTable,
                                format!(
                                    "partitioned_by: column `{c}` is of type {ty}; a Hive table is partitioned only by booleans, numbers, decimals, dates, timestamps and text"
                                ),
                            )
                            .with_hint("partition by another column, or leave it out of partitioned_by"),
                        );
                    }
                }
            }
        }
        // Trino's Hive connector refuses a table of partition columns only
        // (`HiveMetadata`: "Table contains only partition columns").
        let outputs = self.query.output_names().len();
        if !self.partitioned_by.is_empty() && self.partitioned_by.len() >= outputs {
            errors.push(
                Error::new(
                    ErrorKind::InvalidTable,
                    format!(
                        "partitioned_by: every column of the SELECT ([{}]) is a partition column; a Hive table needs at least one other column",
                        self.partitioned_by.join(", ")
                    ),
                )
                .with_hint("select a data column before the partition columns"),
            );
        }
        if let (true, Some(n)) = (self.bucketed_by.is_empty(), self.bucket_count) {
            errors.push(
                Error::new(
                    ErrorKind::InvalidProperty,
                    format!("bucket_count {n} is given without any bucketed_by column"),
                )
                .with_hint("name the columns to bucket by, or leave bucketing out"),
            );
        }
        match self.bucket_count {
            Some(0) => errors.push(Error::new(
                ErrorKind::InvalidProperty,
                "bucket_count must be at least 1",
            )),
            // `bucket_count` is an integer table property (`HiveTableProperties`): a larger
            // number is a bigint literal, which the property does not take.
            Some(n) if i32::try_from(n).is_err() => errors.push(Error::new(
                ErrorKind::InvalidProperty,
                format!(
                    "bucket_count {n} is more than 2147483647, the largest integer table property"
                ),
            )),
            _ => {}
        }
        for c in self.partitioned_by.iter().chain(&self.bucketed_by) {
            if Grammar::TrinoDml.needs_quotes(c) || Grammar::HiveDdl.needs_quotes(c) {
                errors.push(Error::new(
                    ErrorKind::UnquotableIdentifier,
                    format!("column `{c}` would need quotes inside a CTAS property string"),
                ));
            }
        }
        Error::check_all(errors)?;

        let mut w = SqlWriter::new(StatementKind::CreateTableAs, dialect);
        w.push("CREATE TABLE ").table_name(&self.name);
        w.push("\nWITH (\n  format = 'PARQUET'");
        if let Some(c) = self.compression {
            let name = match c {
                Compression::None => "NONE".to_string(),
                c => c.as_str().to_ascii_uppercase(),
            };
            w.push(",\n  parquet_compression = ").string(&name);
        }
        if let Some(l) = &loc {
            w.push(",\n  external_location = ").string(l.as_str());
        }
        write_array(&mut w, "partitioned_by", &self.partitioned_by);
        write_array(&mut w, "bucketed_by", &self.bucketed_by);
        if let (false, Some(n)) = (self.bucketed_by.is_empty(), self.bucket_count) {
            w.push(",\n  bucket_count = ").push(&n.to_string());
        }
        w.push("\n) AS\n");
        self.query
            .render_for(&mut w, Usage::Output(OutputTarget::HiveCtas))?;
        w.finish()
    }
}

fn write_array(w: &mut SqlWriter, key: &str, cols: &[String]) {
    if cols.is_empty() {
        return;
    }
    w.push(",\n  ").push(key).push(" = ");
    write_string_array(w, cols);
}

/// `ARRAY['a', 'b']`: Trino's array of names as strings (CTAS and UNLOAD properties).
fn write_string_array(w: &mut SqlWriter, items: &[String]) {
    w.push("ARRAY[")
        .comma_list(items, |w, c| {
            w.string(c);
        })
        .push_char(']');
}

/// Output format of an [`Unload`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnloadFormat {
    /// Parquet.
    Parquet,
    /// ORC.
    Orc,
    /// Avro (no compression option).
    Avro,
    /// JSON lines (gzip).
    Json,
    /// Text (gzip).
    Textfile,
}

impl UnloadFormat {
    fn name(self) -> &'static str {
        match self {
            UnloadFormat::Parquet => "PARQUET",
            UnloadFormat::Orc => "ORC",
            UnloadFormat::Avro => "AVRO",
            UnloadFormat::Json => "JSON",
            UnloadFormat::Textfile => "TEXTFILE",
        }
    }
}

impl From<FileFormat> for UnloadFormat {
    fn from(f: FileFormat) -> Self {
        match f {
            FileFormat::Parquet => UnloadFormat::Parquet,
            FileFormat::Orc => UnloadFormat::Orc,
            FileFormat::Avro => UnloadFormat::Avro,
        }
    }
}

/// `UNLOAD (SELECT ...) TO 's3://...' WITH (...)` (Athena only).
///
/// Each output column names a column of the files written, so a name may come only
/// once: a query that projects one twice (`SELECT a, a`, two expressions aliased alike)
/// is refused; alias them apart.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::ctas::{Unload, UnloadFormat};
/// # use iceberg_sql::query::Select;
/// # #[derive(Debug)] struct Ev;
/// # impl Ev {
/// #     const USER_ID: Col<Ev, String> = Col::new("user_id");
/// #     const STATUS: Col<Ev, String> = Col::new("status");
/// # }
/// # impl IcebergTable for Ev {
/// #     fn table_def() -> &'static TableDef {
/// #         static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
/// #         T.get_or_init(|| TableDef::builder("analytics", "mcp_events")
/// #             .column(Column::new("user_id", IcebergType::String))
/// #             .column(Column::new("status", IcebergType::String))
/// #             .location("s3://my-datalake/iceberg/mcp_events/").build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { vec![] }
/// # }
/// let q = Ev::select().column(Ev::USER_ID).column(Ev::STATUS)
///     .filter(Ev::USER_ID.eq("tenant-acme"));
/// let u = Unload::new(&q, "s3://customer-exports/acme/mcp-events-2026-09/")
///     .format(UnloadFormat::Parquet)
///     .compression(Compression::Snappy)
///     .partitioned_by(["status"]);
/// assert_eq!(u.build()?.sql(),
///     "UNLOAD (SELECT user_id, status FROM analytics.mcp_events WHERE user_id = 'tenant-acme') \
///      TO 's3://customer-exports/acme/mcp-events-2026-09/' \
///      WITH (format = 'PARQUET', compression = 'SNAPPY', partitioned_by = ARRAY['status'])");
/// assert_eq!(u.build_for(Dialect::Spark).unwrap_err().kind(), ErrorKind::Unsupported);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct Unload<'q> {
    query: &'q SelectBody,
    to: String,
    format: UnloadFormat,
    compression: Option<Compression>,
    partitioned_by: Vec<String>,
}

impl<'q> Unload<'q> {
    /// `UNLOAD (query) TO 'to'`, Parquet by default. `to` must be an empty S3 folder.
    pub fn new<S>(query: &'q Select<S>, to: impl Into<String>) -> Self {
        Unload {
            query: query.body(),
            to: to.into(),
            format: UnloadFormat::Parquet,
            compression: None,
            partitioned_by: Vec::new(),
        }
    }

    /// `format` (required by Athena; default Parquet).
    pub fn format(mut self, format: UnloadFormat) -> Self {
        self.format = format;
        self
    }

    /// `compression` (not for Avro).
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = Some(compression);
        self
    }

    /// `partitioned_by`: these must be the last SELECT columns, in this order.
    pub fn partitioned_by<'a>(mut self, columns: impl IntoIterator<Item = &'a str>) -> Self {
        self.partitioned_by = columns.into_iter().map(str::to_string).collect();
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect` (Spark refuses: it has
    /// no UNLOAD).
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        dialect.rules().check_unload()?;
        let mut errors = Vec::new();
        // "The TO destination must specify a location in Amazon S3 that has no data"
        // (<https://docs.aws.amazon.com/athena/latest/ug/unload.html>).
        let to = match Location::parse_with(
            "UNLOAD destination",
            &self.to,
            "UNLOAD writes into a folder that holds no data, and a bucket root holds the whole bucket",
        )
        .and_then(|l| {
            l.check_key_length("UNLOAD destination", LocationHolds::Files)?;
            check_partition_folder("UNLOAD destination", &l, &self.partitioned_by)?;
            Ok(l)
        }) {
            Ok(l) => Some(l),
            Err(e) => {
                errors.push(e);
                None
            }
        };
        if let Some(c) = self.compression {
            let ok = match self.format {
                UnloadFormat::Avro => false,
                UnloadFormat::Parquet => {
                    matches!(
                        c,
                        Compression::Gzip
                            | Compression::Snappy
                            | Compression::Zstd
                            | Compression::None
                    )
                }
                UnloadFormat::Orc => !matches!(c, Compression::Gzip),
                UnloadFormat::Json | UnloadFormat::Textfile => {
                    matches!(c, Compression::Gzip | Compression::Zstd | Compression::None)
                }
            };
            if !ok {
                errors.push(Error::new(
                    ErrorKind::InvalidProperty,
                    format!(
                        "UNLOAD compression {} does not apply to {}",
                        c.as_str(),
                        self.format.name()
                    ),
                ));
            }
        }
        errors.extend(
            self.query
                .check_output_names("an UNLOAD", OutputNames::Files),
        );
        errors.extend(check_outputs(
            self.query,
            &self.partitioned_by,
            "partitioned_by",
        ));
        if let Err(e) = check_output_tail(self.query, &self.partitioned_by, "partitioned_by") {
            errors.push(e);
        }
        Error::check_all(errors)?;
        let mut w = SqlWriter::new(StatementKind::Unload, dialect);
        w.push("UNLOAD (");
        self.query
            .render_for(&mut w, Usage::Output(OutputTarget::Unload))?;
        w.push(") TO ");
        if let Some(l) = &to {
            w.string(l.as_str());
        }
        w.push(" WITH (format = ").string(self.format.name());
        if let Some(c) = self.compression {
            let name = match c {
                Compression::None => "NONE".to_string(),
                c => c.as_str().to_ascii_uppercase(),
            };
            w.push(", compression = ").string(&name);
        }
        if !self.partitioned_by.is_empty() {
            w.push(", partitioned_by = ");
            write_string_array(&mut w, &self.partitioned_by);
        }
        w.push_char(')');
        w.finish()
    }
}
