//! The catalog's memory of commits: each committed write adds one Iceberg snapshot to
//! its table, with the operation and the `added-records` counter Iceberg's snapshot
//! summary carries, stamped with the server's (Athena's) clock. `SELECT … FROM
//! "db"."t$snapshots"` is answered from it.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlparser::ast::{FromTable, ObjectName, Statement, TableFactor, TableObject};
use sqlparser::dialect::GenericDialect;
use sqlparser::parser::Parser;

use crate::engine::ResultSet;

/// One snapshot of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotRecord {
    /// `snapshot_id`.
    pub snapshot_id: i64,
    /// `parent_id`.
    pub parent_id: Option<i64>,
    /// `committed_at`, on the server's clock.
    pub committed_at: SystemTime,
    /// `append` (INSERT), `overwrite` (UPDATE, MERGE) or `delete` (DELETE).
    pub operation: &'static str,
    /// `summary['added-records']`.
    pub added_records: u64,
    /// The execution that committed it.
    pub query_id: String,
}

/// Every table's snapshots, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshots {
    by_table: BTreeMap<String, Vec<SnapshotRecord>>,
    next_id: i64,
}

/// `db.table`, lower case and unquoted.
fn normalized(name: &ObjectName) -> String {
    name.0
        .iter()
        .map(|p| p.to_string().trim_matches('"').to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(".")
}

/// The table an `INSERT`, `UPDATE`, `DELETE` or `MERGE` writes, and the snapshot
/// operation its commit records.
pub fn written_table(sql: &str) -> Option<(String, &'static str)> {
    let statement = Parser::parse_sql(&GenericDialect {}, sql)
        .ok()?
        .into_iter()
        .next()?;
    let table_of = |t: &TableFactor| match t {
        TableFactor::Table { name, .. } => Some(normalized(name)),
        _ => None,
    };
    match statement {
        Statement::Insert(insert) => match &insert.table {
            TableObject::TableName(name) => Some((normalized(name), "append")),
            _ => None,
        },
        Statement::Update(update) => table_of(&update.table.relation).map(|t| (t, "overwrite")),
        Statement::Delete(delete) => {
            let tables = match &delete.from {
                FromTable::WithFromKeyword(t) | FromTable::WithoutKeyword(t) => t,
            };
            tables
                .first()
                .and_then(|t| table_of(&t.relation))
                .map(|t| (t, "delete"))
        }
        Statement::Merge(merge) => table_of(&merge.table).map(|t| (t, "overwrite")),
        _ => None,
    }
}

/// The table whose `$snapshots` a query reads: `"db"."t$snapshots"` (quotes optional).
pub fn snapshots_query_table(sql: &str) -> Option<String> {
    fn split_ident(s: &str) -> (&str, &str) {
        let start = s
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        s.split_at(start)
    }
    let before = &sql[..sql.find("$snapshots")?];
    let (rest, table) = split_ident(before);
    let rest = rest.strip_suffix('"').unwrap_or(rest).strip_suffix('.')?;
    let (_, db) = split_ident(rest.strip_suffix('"').unwrap_or(rest));
    (!db.is_empty() && !table.is_empty())
        .then(|| format!("{}.{}", db.to_ascii_lowercase(), table.to_ascii_lowercase()))
}

/// `2026-01-02 03:04:05.678 UTC`: how Athena prints a `timestamp(3) with time zone`.
pub fn athena_timestamp(t: SystemTime) -> String {
    let ms = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{:03} UTC",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `civil_from_days`, <https://howardhinnant.github.io/date_algorithms.html>).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

impl Snapshots {
    /// Records a commit of `table` by `query_id` at `at`.
    pub(crate) fn commit(
        &mut self,
        table: String,
        operation: &'static str,
        added_records: u64,
        query_id: &str,
        at: SystemTime,
    ) {
        self.next_id += 1;
        let snapshot_id = 7_000_000_000_000_000_000 + self.next_id;
        let list = self.by_table.entry(table).or_default();
        let parent_id = list.last().map(|s| s.snapshot_id);
        list.push(SnapshotRecord {
            snapshot_id,
            parent_id,
            committed_at: at,
            operation,
            added_records,
            query_id: query_id.to_string(),
        });
    }

    /// The snapshots of `table` (`db.t`), oldest first.
    pub fn of(&self, table: &str) -> &[SnapshotRecord] {
        self.by_table.get(table).map_or(&[], Vec::as_slice)
    }

    /// `$snapshots` of `table` as a result set (every snapshot: the caller filters).
    pub(crate) fn result(&self, table: &str) -> ResultSet {
        ResultSet::select(
            &[
                ("committed_at", "timestamp(3) with time zone"),
                ("snapshot_id", "bigint"),
                ("parent_id", "bigint"),
                ("operation", "varchar"),
                ("manifest_list", "varchar"),
                ("summary", "json"),
            ],
            self.of(table)
                .iter()
                .map(|s| {
                    vec![
                        Some(athena_timestamp(s.committed_at)),
                        Some(s.snapshot_id.to_string()),
                        s.parent_id.map(|p| p.to_string()),
                        Some(s.operation.to_string()),
                        Some(format!(
                            "s3://test-server/{table}/metadata/snap-{}.avro",
                            s.snapshot_id
                        )),
                        Some(format!(
                            "{{\"added-records\":\"{}\",\"trino_query_id\":\"{}\"}}",
                            s.added_records, s.query_id
                        )),
                    ]
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn written_tables_and_their_operations() {
        assert_eq!(
            written_table("INSERT INTO \"analytics\".\"ev\" (a) VALUES (1)"),
            Some(("analytics.ev".into(), "append"))
        );
        assert_eq!(
            written_table("UPDATE analytics.ev SET a = 1 WHERE b = 2"),
            Some(("analytics.ev".into(), "overwrite"))
        );
        assert_eq!(
            written_table("DELETE FROM analytics.ev WHERE b = 2"),
            Some(("analytics.ev".into(), "delete"))
        );
        assert_eq!(
            written_table("MERGE INTO analytics.ev AS target USING analytics.s AS source ON target.a = source.a WHEN MATCHED THEN DELETE"),
            Some(("analytics.ev".into(), "overwrite"))
        );
        assert_eq!(written_table("SELECT 1"), None);
    }

    #[test]
    fn snapshots_queries_name_their_table() {
        assert_eq!(
            snapshots_query_table("SELECT * FROM \"analytics\".\"ev$snapshots\" WHERE x"),
            Some("analytics.ev".into())
        );
        assert_eq!(
            snapshots_query_table("SELECT * FROM analytics.\"ev$snapshots\""),
            Some("analytics.ev".into())
        );
        assert_eq!(snapshots_query_table("SELECT 1"), None);
    }

    #[test]
    fn timestamps_print_as_athena_does() {
        let t = UNIX_EPOCH + Duration::from_millis(1_767_323_045_678);
        assert_eq!(athena_timestamp(t), "2026-01-02 03:04:05.678 UTC");
        assert_eq!(athena_timestamp(UNIX_EPOCH), "1970-01-01 00:00:00.000 UTC");
    }
}
