//! What `Insert::batch_iter()` holds while it streams batches, measured by a counting
//! global allocator (this test binary's own, which is why it is a file of its own with
//! a single test: the counter sees every thread of the binary).
//!
//! In input order the peak above the input rows is one batch and the row being
//! rendered, whatever the row count: below twice the largest batch at 10,000 rows and
//! at 200,000. Grouped by partition (Athena's default) the order of the rows adds the
//! stretches of consecutive rows of each partition: two bytes a row for these 448
//! partitions taking turns, nothing per row when the input is sorted by partition.
//!
//! Under the `sqlparser` feature each batch's text is also read by sqlparser, whose
//! syntax tree of a batch is live until the batch is returned: about 60 times the text
//! (measured: 15.5 MB for a 262,106-byte batch), so "one batch" is [`BATCH_COPIES`]
//! batches' length there; the peak still does not grow with the row count.

#[path = "dml_support/mod.rs"]
mod dml_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use dml_support::McpEvent;
use iceberg_sql::dml::partition::KeyMaker;
use iceberg_sql::dml::Insert;
use iceberg_sql::prelude::*;

/// Counts the bytes live on the heap and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is passed on to `System` unchanged; only the counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

/// How many times a batch's length one batch holds while it is built and checked.
const BATCH_COPIES: usize = if cfg!(feature = "sqlparser") { 80 } else { 2 };

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What streaming `insert`'s batches cost: the peak heap above what was live before,
/// the largest batch's length, and every row index the batches held, in order.
fn stream(insert: &Insert<'_, McpEvent>, rows: usize) -> (usize, usize, Vec<bool>, usize) {
    // Allocated before measuring, so that the record of rows seen is not counted.
    let mut seen = vec![false; rows];
    let mut repeated = 0;
    let mut largest = 0;
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    for batch in insert.batch_iter().expect("batches") {
        let (held, statement) = batch.expect("batch");
        largest = largest.max(statement.sql().len());
        for r in held {
            repeated += usize::from(seen[r]);
            seen[r] = true;
        }
    }
    (PEAK.load(Relaxed) - before, largest, seen, repeated)
}

#[test]
fn streamed_batches_hold_one_batch_whatever_the_row_count() {
    for n in [10_000usize, 200_000] {
        let rows: Vec<McpEvent> = (0..n).map(McpEvent::nth).collect();

        let (peak, largest, seen, repeated) = stream(&McpEvent::insert(&rows).any_partitions(), n);
        assert!(
            seen.iter().all(|s| *s) && repeated == 0,
            "every row exactly once"
        );
        assert!(
            peak < BATCH_COPIES * largest,
            "{n} rows in input order: peak {peak} bytes above the input, largest batch {largest}"
        );

        let (peak, largest, seen, repeated) = stream(&McpEvent::insert(&rows), n);
        assert!(
            seen.iter().all(|s| *s) && repeated == 0,
            "every row exactly once"
        );
        // 448 partitions taking turns, a row of each less than 16,384 rows apart: two
        // bytes a row; the partitions' keys and counts are a few tens of KiB.
        let bound = BATCH_COPIES * largest + 2 * n + 64 * 1024;
        assert!(
            peak < bound,
            "{n} rows grouped by partition: peak {peak} bytes above the input, bound {bound}"
        );

        // The same rows sorted by partition: one stretch per partition, nothing per row.
        let keys = KeyMaker::new(McpEvent::table_def()).unwrap();
        // Keys have no order of their own; any order that puts equal keys together.
        let mut sorted: Vec<(String, McpEvent)> = rows
            .into_iter()
            .map(|r| (format!("{:?}", keys.key(&r.to_values()).unwrap()), r))
            .collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        let rows: Vec<McpEvent> = sorted.into_iter().map(|(_, r)| r).collect();
        let (peak, largest, seen, repeated) = stream(&McpEvent::insert(&rows), n);
        assert!(
            seen.iter().all(|s| *s) && repeated == 0,
            "every row exactly once"
        );
        let bound = BATCH_COPIES * largest + 64 * 1024;
        assert!(
            peak < bound,
            "{n} rows sorted by partition: peak {peak} bytes above the input, bound {bound}"
        );
    }
}
