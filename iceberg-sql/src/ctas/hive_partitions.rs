//! `ALTER TABLE … ADD IF NOT EXISTS PARTITION (…) LOCATION '…'`: registers in the Glue
//! catalog the partition folders of a Hive table whose files are already in S3 (a day's
//! Hive CTAS written to `…/dt=2026-10-01/`, files another job wrote), so that Athena
//! reads them (<https://docs.aws.amazon.com/athena/latest/ug/alter-table-add-partition.html>).
//!
//! `MSCK REPAIR TABLE` finds such folders by scanning the table's whole location, may
//! time out having added only some, silently skips values with a colon and column names
//! starting with an underscore
//! (<https://docs.aws.amazon.com/athena/latest/ug/msck-repair-table.html>); naming each
//! partition has none of these limits, so this crate writes `ADD PARTITION` only.

use iceberg_sql_rules::LocationHolds;

use super::parse_location;
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::model::TableName;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};
use crate::value::Value;

/// `ALTER TABLE t ADD IF NOT EXISTS PARTITION (k = v, …) [LOCATION '…'] …`: one
/// statement registering partitions of an Athena Hive table, such as the summary tables
/// a [`HiveCtas`](super::HiveCtas) creates. Athena only (Hive tables are Athena's).
///
/// Rules, from the AWS page above:
/// * `IF NOT EXISTS` is always written: a partition already registered with the same
///   definition is not an error, so running the statement again (a retry, a re-run of a
///   day) changes nothing.
/// * A value is quoted only when it is text ("Enclose partition_col_value in string
///   characters only if the data type of the column is a string"): non-negative
///   `i32`/`i64` values are written bare (Hive's partition values are constants, which
///   take no sign). A date is written as its `'YYYY-MM-DD'` text, the form Glue
///   stores every partition value in (`Values`, an array of UTF-8 strings:
///   <https://docs.aws.amazon.com/glue/latest/webapi/API_Partition.html>). Other types
///   (timestamps, decimals, floating point, nested) are refused: partition such tables
///   by a date or a text column.
/// * `LOCATION` is optional when the folder is the Hive-style `<table
///   location>/k=v/…` ([`partition`](Self::partition)); otherwise name it
///   ([`partition_at`](Self::partition_at)), an `s3://` folder. A folder whose last
///   segments are `k=v` folders of the partition's own columns must name the same values:
///   registering `dt=2026-10-02` at `…/dt=2026-10-01/` is refused.
/// * Every partition names the same columns in the same order (a Hive table has one list
///   of partition keys), each once; the same values twice are refused.
///
/// The statement does not know the table's columns: that the keys are its partition
/// columns, with these types, is checked by Athena when it runs.
///
/// ```
/// use chrono::NaiveDate;
/// use iceberg_sql::ctas::AddHivePartitions;
/// use iceberg_sql::prelude::*;
///
/// let day = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
/// let add = AddHivePartitions::new(TableName::new("analytics", "mcp_daily_hive"))
///     .partition_at([("dt", Value::Date(day))], "s3://my-datalake/hive/mcp_daily/dt=2026-10-01/")
///     .partition([("dt", Value::Date(day.succ_opt().unwrap()))]);
/// assert_eq!(add.build()?.sql(),
///     "ALTER TABLE analytics.mcp_daily_hive ADD IF NOT EXISTS\n  \
///      PARTITION (dt = '2026-10-01') LOCATION 's3://my-datalake/hive/mcp_daily/dt=2026-10-01/'\n  \
///      PARTITION (dt = '2026-10-02')");
///
/// // The folder of another day:
/// let wrong = AddHivePartitions::new(TableName::new("analytics", "mcp_daily_hive"))
///     .partition_at([("dt", Value::Date(day))], "s3://my-datalake/hive/mcp_daily/dt=2026-10-02/");
/// assert_eq!(wrong.build().unwrap_err().kind(), ErrorKind::InvalidLocation);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct AddHivePartitions {
    table: TableName,
    partitions: Vec<Partition>,
}

#[derive(Debug, Clone)]
struct Partition {
    values: Vec<(String, Value)>,
    location: Option<String>,
}

impl AddHivePartitions {
    /// Partitions of the Hive table `table`.
    pub fn new(table: TableName) -> Self {
        AddHivePartitions {
            table,
            partitions: Vec::new(),
        }
    }

    /// A partition in its Hive-style folder beneath the table's location
    /// (`<location>/k=v/…`), so without `LOCATION`.
    pub fn partition<'a>(mut self, values: impl IntoIterator<Item = (&'a str, Value)>) -> Self {
        self.partitions.push(Partition {
            values: collect(values),
            location: None,
        });
        self
    }

    /// A partition whose files are in the S3 folder `location`.
    pub fn partition_at<'a>(
        mut self,
        values: impl IntoIterator<Item = (&'a str, Value)>,
        location: impl Into<String>,
    ) -> Self {
        self.partitions.push(Partition {
            values: collect(values),
            location: Some(location.into()),
        });
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect` (only Athena has Hive
    /// tables: the other targets refuse).
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let rules = dialect.rules();
        if rules.check_hive_ctas().is_err() {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "ADD PARTITION registers the folders of a Hive table, and {} has no Hive tables",
                    rules.name()
                ),
            )
            .with_hint(
                "an Iceberg table keeps its partitions in its own metadata: write its rows with INSERT",
            ));
        }
        let mut errors = Vec::new();
        if let Err(e) = self.table.check() {
            errors.extend(e.into_vec());
        }
        if self.partitions.is_empty() {
            errors.push(
                Error::new(
                    ErrorKind::InvalidPartition,
                    "ADD PARTITION needs a partition",
                )
                .with_hint("add one with .partition([(\"dt\", value)])"),
            );
        }
        let first = self.partitions.first().map(keys).unwrap_or_default();
        let mut locations = Vec::with_capacity(self.partitions.len());
        for (i, p) in self.partitions.iter().enumerate() {
            errors.extend(check_values(p));
            if i > 0 && keys(p) != first {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidPartition,
                        format!(
                            "partition {} names the columns ({}) but the first names ({}): a Hive table has one list of partition columns",
                            i + 1,
                            keys(p).join(", "),
                            first.join(", ")
                        ),
                    )
                    .with_hint("give every partition the table's partition columns, in its order"),
                );
            }
            if self.partitions[..i].iter().any(|q| q.values == p.values) {
                errors.push(Error::new(
                    ErrorKind::InvalidPartition,
                    format!("partition {} repeats the values of an earlier one", i + 1),
                ));
            }
            match parse_location("a partition", &p.location, false, LocationHolds::Files) {
                Ok(Some(l)) => {
                    if let Err(e) = check_folder(&l, p) {
                        errors.push(e);
                    }
                    locations.push(Some(l));
                }
                Ok(None) => locations.push(None),
                Err(e) => {
                    errors.push(e);
                    locations.push(None);
                }
            }
        }
        Error::check_all(errors)?;

        let mut w = SqlWriter::new(StatementKind::AlterTable, dialect);
        w.push("ALTER TABLE ")
            .table_name(&self.table)
            .push(" ADD IF NOT EXISTS");
        for (p, location) in self.partitions.iter().zip(&locations) {
            w.push("\n  PARTITION (");
            w.comma_list(&p.values, |w, (k, v)| {
                w.ident(k).push(" = ");
                match v {
                    Value::String(s) => {
                        w.string(s);
                    }
                    Value::Date(d) => {
                        w.string(&d.to_string());
                    }
                    Value::Int(n) => {
                        w.push(&n.to_string());
                    }
                    Value::Long(n) => {
                        w.push(&n.to_string());
                    }
                    // Refused by `check_values`.
                    _ => {}
                }
            });
            w.push_char(')');
            if let Some(l) = location {
                w.push(" LOCATION ").string(l.as_str());
            }
        }
        w.finish()
    }
}

fn keys(p: &Partition) -> Vec<&str> {
    p.values.iter().map(|(k, _)| k.as_str()).collect()
}

fn collect<'a>(values: impl IntoIterator<Item = (&'a str, Value)>) -> Vec<(String, Value)> {
    values
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// The text a value has in a Hive partition folder name (`k=<text>`).
fn folder_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Date(d) => Some(d.to_string()),
        Value::Int(n) => Some(n.to_string()),
        Value::Long(n) => Some(n.to_string()),
        _ => None,
    }
}

fn check_values(p: &Partition) -> Vec<Error> {
    let mut errors = Vec::new();
    if p.values.is_empty() {
        errors.push(Error::new(
            ErrorKind::InvalidPartition,
            "a partition needs at least one column = value",
        ));
    }
    for (i, (k, v)) in p.values.iter().enumerate() {
        if p.values[..i].iter().any(|(e, _)| e.eq_ignore_ascii_case(k)) {
            errors.push(Error::new(
                ErrorKind::InvalidPartition,
                format!("partition column `{k}` is named twice"),
            ));
        }
        if matches!(v, Value::Int(n) if *n < 0) || matches!(v, Value::Long(n) if *n < 0) {
            errors.push(
                Error::new(
                    ErrorKind::InvalidValue,
                    format!("partition column `{k}`: a negative number; Hive's partition values are constants, which take no sign"),
                )
                .with_hint("partition by non-negative numbers, or by a text column"),
            );
        }
        if folder_text(v).is_none() {
            errors.push(
                Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "partition column `{k}`: a {} value; ADD PARTITION takes text, dates and whole numbers",
                        v.kind_name()
                    ),
                )
                .with_hint("partition the Hive table by a date or a text column (for a timestamp, its day: CAST(ts AS date))"),
            );
        }
    }
    errors
}

/// A location ending in `k=v/` folders of the partition's own columns must name its values.
fn check_folder(location: &crate::model::Location, p: &Partition) -> Result<()> {
    let text = location.as_str();
    for segment in text.trim_end_matches('/').rsplit('/') {
        let Some((column, value)) = segment.split_once('=') else {
            break;
        };
        let Some((k, v)) = p
            .values
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(column))
        else {
            break;
        };
        let want = folder_text(v).unwrap_or_default();
        if value != want {
            return Err(Error::new(
                ErrorKind::InvalidLocation,
                format!(
                    "the partition `{k}` = '{want}' is given the folder `{text}`, whose `{segment}` is another partition's"
                ),
            )
            .with_hint(format!("use the folder `{column}={want}/`, or leave LOCATION out for the Hive-style folder under the table")));
        }
    }
    Ok(())
}
