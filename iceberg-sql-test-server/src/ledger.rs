//! The ledger: every execution the server created, how it ended, which rows it
//! committed, and who stopped it. Tests count rows here, not in the client's report.

use std::collections::BTreeMap;

use sqlparser::ast::{Expr, SetExpr, Statement, TableObject, Value};
use sqlparser::dialect::GenericDialect;
use sqlparser::parser::Parser;

use crate::engine::State;

/// A committed row: the target table and the row's key (the key column's literal as
/// written in the SQL, or the whole row's text when no key column is configured).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowKey {
    /// `db.table`, as written after `INSERT INTO`.
    pub table: String,
    /// The key.
    pub key: String,
}

/// A `StopQueryExecution` that found the query still running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    /// Whether the query would have succeeded had it not been stopped.
    pub healthy: bool,
}

/// One execution.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecutionRecord {
    /// `QueryExecutionId`.
    pub id: String,
    /// The `ClientRequestToken` that created it.
    pub token: String,
    /// `QueryString`.
    pub sql: String,
    /// Its current state.
    pub state: State,
    /// Rows it committed (empty unless it committed).
    pub committed: Vec<RowKey>,
    /// Set when a stop found it running.
    pub stopped: Option<Stop>,
    /// `GetQueryExecution` calls that saw it.
    pub polls: u32,
}

/// Everything the server did, for assertions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ledger {
    /// Executions in creation order.
    pub executions: Vec<ExecutionRecord>,
}

impl Ledger {
    /// How many times each row was committed.
    pub fn row_counts(&self) -> BTreeMap<RowKey, usize> {
        let mut counts = BTreeMap::new();
        for e in &self.executions {
            for r in &e.committed {
                *counts.entry(r.clone()).or_insert(0) += 1;
            }
        }
        counts
    }

    /// Rows committed more than once, with their count.
    pub fn duplicates(&self) -> Vec<(RowKey, usize)> {
        self.row_counts()
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .collect()
    }

    /// Rows of `expected` never committed.
    pub fn missing<'a>(&self, expected: impl IntoIterator<Item = &'a RowKey>) -> Vec<RowKey> {
        let counts = self.row_counts();
        expected
            .into_iter()
            .filter(|k| !counts.contains_key(*k))
            .cloned()
            .collect()
    }

    /// Total rows committed (duplicates counted each time).
    pub fn rows_committed(&self) -> usize {
        self.executions.iter().map(|e| e.committed.len()).sum()
    }

    /// Stops that found a query running which would have succeeded.
    pub fn healthy_stops(&self) -> usize {
        self.executions
            .iter()
            .filter(|e| e.stopped.as_ref().is_some_and(|s| s.healthy))
            .count()
    }

    /// Executions whose SQL contains `needle`.
    pub fn executions_of(&self, needle: &str) -> Vec<&ExecutionRecord> {
        self.executions
            .iter()
            .filter(|e| e.sql.contains(needle))
            .collect()
    }
}

/// The rows an `INSERT INTO t [(cols)] VALUES (...), ...` writes, keyed by `key_column`
/// (or by the whole row's text). Any other statement writes no rows here.
///
/// sqlparser's generic dialect reads the Trino DML this project generates (string,
/// numeric, `TIMESTAMP '...'`, `CAST(NULL AS ...)` literals). A key is the literal as
/// written, with string quotes removed, so `'e-1'` and `e-1` in an assertion agree.
pub fn inserted_rows(sql: &str, key_column: Option<&str>) -> Vec<RowKey> {
    let Ok(statements) = Parser::parse_sql(&GenericDialect {}, sql) else {
        return Vec::new();
    };
    let Some(Statement::Insert(insert)) = statements.into_iter().next() else {
        return Vec::new();
    };
    let TableObject::TableName(name) = &insert.table else {
        return Vec::new();
    };
    let table = name.to_string();
    let Some(source) = &insert.source else {
        return Vec::new();
    };
    let SetExpr::Values(values) = source.body.as_ref() else {
        return Vec::new();
    };
    let key_index = key_column.and_then(|k| {
        insert
            .columns
            .iter()
            .position(|c| c.to_string().trim_matches('"').eq_ignore_ascii_case(k))
    });
    values
        .rows
        .iter()
        .map(|row| {
            let key = match key_index.and_then(|i| row.content.get(i)) {
                Some(e) => literal_text(e),
                None => row
                    .content
                    .iter()
                    .map(literal_text)
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            RowKey {
                table: table.clone(),
                key,
            }
        })
        .collect()
}

fn literal_text(e: &Expr) -> String {
    match e {
        Expr::Value(v) => match &v.value {
            // Text with control characters comes as Trino's `U&'…'`, decoded here.
            Value::SingleQuotedString(s) | Value::UnicodeStringLiteral(s) => s.clone(),
            other => other.to_string(),
        },
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_values_rows_are_keyed() {
        let sql = "INSERT INTO analytics.ev (event_id, n, ts)\nVALUES\n  ('e-1', 1, TIMESTAMP '2024-01-01 00:00:00'),\n  ('it''s', CAST(NULL AS bigint), NULL)";
        let rows = inserted_rows(sql, Some("event_id"));
        assert_eq!(
            rows,
            vec![
                RowKey {
                    table: "analytics.ev".into(),
                    key: "e-1".into()
                },
                RowKey {
                    table: "analytics.ev".into(),
                    key: "it's".into()
                },
            ]
        );
        let whole = inserted_rows(sql, None);
        assert_eq!(whole[1].key, "it's, CAST(NULL AS BIGINT), NULL");
        let tab = "INSERT INTO analytics.ev (event_id, n)\nVALUES\n  (U&'a\\0009b''\\\\', 1)";
        assert_eq!(inserted_rows(tab, Some("event_id"))[0].key, "a\tb'\\");
        assert!(inserted_rows("SELECT 1", Some("event_id")).is_empty());
        assert!(inserted_rows("not sql at all", None).is_empty());
    }

    #[test]
    fn ledger_counts_duplicates_and_missing() {
        let k = |s: &str| RowKey {
            table: "t".into(),
            key: s.into(),
        };
        let exec = |rows: Vec<RowKey>| ExecutionRecord {
            id: "q".into(),
            token: "t".into(),
            sql: String::new(),
            state: State::Succeeded,
            committed: rows,
            stopped: None,
            polls: 0,
        };
        let ledger = Ledger {
            executions: vec![exec(vec![k("a"), k("b")]), exec(vec![k("b")])],
        };
        assert_eq!(ledger.duplicates(), vec![(k("b"), 2)]);
        assert_eq!(ledger.missing(&[k("a"), k("c")]), vec![k("c")]);
        assert_eq!(ledger.rows_committed(), 3);
        assert_eq!(ledger.healthy_stops(), 0);
    }
}
