//! Partition-aware batching by default: on Athena every INSERT batch writes at most
//! 100 partitions (`ICEBERG_TOO_MANY_OPEN_PARTITIONS` otherwise), rows are grouped by
//! partition so batches stay full, and every row is written exactly once.
//!
//! Workload: 10,000 synthetic events on `day(event_ts), bucket(16, user_id)` (28 days x
//! 16 buckets = 448 partitions). Before grouping, the default wrote 448 partitions per
//! statement, and `max_partitions(100)` in input order needed 92 statements of ~16 KB.

#[path = "dml_support/mod.rs"]
mod dml_support;

use std::collections::HashSet;

use dml_support::McpEvent;
use iceberg_sql::dml::partition::{KeyMaker, PartitionKey};
use iceberg_sql::dml::ATHENA_MAX_PARTITIONS;
use iceberg_sql::prelude::*;
use iceberg_sql::MAX_QUERY_BYTES;

fn events() -> Vec<McpEvent> {
    (0..10_000).map(McpEvent::nth).collect()
}

fn key(rows: &[McpEvent], i: usize) -> PartitionKey {
    KeyMaker::new(McpEvent::table_def())
        .unwrap()
        .key(&rows[i].to_values())
        .unwrap()
}

/// The text of the rows of `held`, in that order, as one statement.
fn text_of(rows: &[McpEvent], held: &[usize], dialect: Dialect) -> String {
    let subset: Vec<McpEvent> = held.iter().map(|&i| rows[i].clone()).collect();
    McpEvent::insert(&subset)
        .any_partitions()
        .build_for(dialect)
        .unwrap()
        .into_sql()
}

#[test]
fn athena_batches_keep_to_100_partitions_hold_every_row_once_and_are_full() {
    let rows = events();
    let batches = McpEvent::insert(&rows).batches_with_rows().unwrap();
    // Full batches: as many as the bytes need (the same count as without any limit).
    let unlimited = McpEvent::insert(&rows).any_partitions().batches().unwrap();
    assert_eq!(batches.len(), unlimited.len());
    assert_eq!(batches.len(), 6);
    let mut seen = Vec::new();
    let mut before: Option<PartitionKey> = None;
    let mut finished: HashSet<PartitionKey> = HashSet::new();
    for (n, (held, stmt)) in batches.iter().enumerate() {
        let parts: HashSet<PartitionKey> = held.iter().map(|&i| key(&rows, i)).collect();
        assert!(
            parts.len() <= ATHENA_MAX_PARTITIONS,
            "batch {n}: {} partitions",
            parts.len()
        );
        assert!(stmt.sql().len() <= MAX_QUERY_BYTES);
        // The statement holds exactly these rows, in this order.
        assert_eq!(stmt.sql(), text_of(&rows, held, Dialect::Athena));
        // Rows of a partition are adjacent: a partition once left is never seen again,
        // and within it rows keep their input order.
        for w in held.windows(2) {
            if key(&rows, w[0]) == key(&rows, w[1]) {
                assert!(w[0] < w[1]);
            }
        }
        for &i in held {
            let k = key(&rows, i);
            if before.as_ref() != Some(&k) {
                assert!(!finished.contains(&k), "partition {k:?} split apart");
                if let Some(b) = before.take() {
                    finished.insert(b);
                }
                before = Some(k);
            }
        }
        // Full: the next batch's first row would not have fitted (size or partitions).
        if let Some((next, _)) = batches.get(n + 1) {
            let one = text_of(&rows, &next[..1], Dialect::Athena);
            let row_len = one.len() - (one.find("VALUES\n  ").unwrap() + "VALUES\n  ".len());
            let len_with_next = stmt.sql().len() + ",\n  ".len() + row_len;
            let parts_with_next = parts.len() + usize::from(!parts.contains(&key(&rows, next[0])));
            assert!(
                len_with_next > MAX_QUERY_BYTES || parts_with_next > ATHENA_MAX_PARTITIONS,
                "batch {n} could have taken another row"
            );
        }
        seen.extend(held.iter().copied());
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..rows.len()).collect::<Vec<_>>());
}

#[test]
fn a_small_partition_limit_gives_full_batches_too() {
    let rows = events();
    let batches = McpEvent::insert(&rows)
        .max_partitions(10)
        .batches_with_rows()
        .unwrap();
    let all: HashSet<PartitionKey> = (0..rows.len()).map(|i| key(&rows, i)).collect();
    // Every batch but the last holds exactly 10 partitions (none is split by size here
    // unless it must be).
    assert_eq!(batches.len(), all.len().div_ceil(10).max(6));
    let total: usize = batches.iter().map(|(held, _)| held.len()).sum();
    assert_eq!(total, rows.len());
}

#[test]
fn spark_has_no_partition_limit_and_keeps_input_order() {
    let rows = events();
    let batches = McpEvent::insert(&rows)
        .batches_with_rows_for(Dialect::Spark)
        .unwrap();
    let mut next = 0;
    for (held, stmt) in &batches {
        assert_eq!(held, &(next..next + held.len()).collect::<Vec<_>>());
        next += held.len();
        assert_eq!(stmt.sql(), text_of(&rows, held, Dialect::Spark));
    }
    assert_eq!(next, rows.len());
}

#[test]
fn opting_out_keeps_input_order_on_athena() {
    let rows = events();
    let batches = McpEvent::insert(&rows)
        .any_partitions()
        .batches_with_rows()
        .unwrap();
    let flat: Vec<usize> = batches
        .iter()
        .flat_map(|(h, _)| h.iter().copied())
        .collect();
    assert_eq!(flat, (0..rows.len()).collect::<Vec<_>>());
}

#[test]
fn build_refuses_more_partitions_than_athena_writes() {
    let rows = events();
    let e = McpEvent::insert(&rows[..500]).build().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
    assert!(
        e.message().contains("the limit is 100 per statement"),
        "{e}"
    );
    assert!(McpEvent::insert(&rows[..500])
        .build_for(Dialect::Spark)
        .is_ok());
    assert!(McpEvent::insert(&rows[..500])
        .any_partitions()
        .build()
        .is_ok());
}

#[test]
fn the_iterator_yields_the_same_batches() {
    let rows = events();
    for dialect in [Dialect::Athena, Dialect::Spark] {
        let all = McpEvent::insert(&rows)
            .batches_with_rows_for(dialect)
            .unwrap();
        let one_by_one: Vec<_> = McpEvent::insert(&rows)
            .batch_iter_for(dialect)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(all, one_by_one);
    }
    // After an error the iterator ends.
    let mut bad = rows[..3].to_vec();
    bad[1].payload = Some("x".repeat(300_000));
    let mut it = McpEvent::insert(&bad)
        .any_partitions()
        .batch_iter()
        .unwrap();
    assert!(it.next().unwrap().is_err());
    assert!(it.next().is_none());
}

/// A record whose `to_values()` answers `key(n)` on its `n`th call (from 0): its
/// partition can change between calls, as a buggy record type's could.
struct Changing {
    calls: std::cell::Cell<i64>,
    key: fn(i64) -> i64,
}

impl Changing {
    fn new(key: fn(i64) -> i64) -> Self {
        Changing {
            calls: 0.into(),
            key,
        }
    }
}

impl IcebergTable for Changing {
    fn table_def() -> &'static TableDef {
        static DEF: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
        DEF.get_or_init(|| {
            TableDef::builder("analytics", "changing")
                .column(Column::new("k", IcebergType::Long))
                .partition(PartitionField::identity("k"))
                .build()
                .unwrap()
        })
    }
    fn to_values(&self) -> Vec<Value> {
        let n = self.calls.get();
        self.calls.set(n + 1);
        vec![Value::Long((self.key)(n))]
    }
}

#[test]
fn streaming_refuses_rows_whose_partition_changes_between_calls() {
    // The streamed grouping computes each key twice (count, then place); a row that
    // answers differently is refused, never placed twice or dropped. Here each row
    // moves to a partition of its own on every call.
    let rows = [Changing::new(|n| n), Changing::new(|n| n)];
    let err = Changing::insert(&rows).batch_iter().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidPartition);
    assert!(err.message().contains("row 0"), "{err}");
}

#[test]
fn streaming_places_every_row_once_even_when_partitions_swap_between_calls() {
    // Each row is placed by one visit into a slot counted for its partition: rows that
    // trade partitions between the count and the placement (row 0 answers 0, 1, 0, …;
    // row 1 answers 1, 0, 1, …) fill each other's slots, and each is still in exactly
    // one batch.
    let rows = [Changing::new(|n| n % 2), Changing::new(|n| (n + 1) % 2)];
    let mut held: Vec<usize> = Vec::new();
    for batch in Changing::insert(&rows).batch_iter().unwrap() {
        held.extend(batch.unwrap().0);
    }
    held.sort_unstable();
    assert_eq!(held, [0, 1]);
}
