//! Peak heap while batching 100,000 rows (a counting global allocator), beside the
//! size of the SQL produced and of one batch.
//!
//! Run: `cargo bench -p iceberg-sql-benches --bench memory`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use iceberg_sql::dml::partition::KeyMaker;
use iceberg_sql::dml::Insert;
use iceberg_sql::{IcebergTable, TableStatements, MAX_QUERY_BYTES};
use iceberg_sql_benches::McpEvent;

/// Counts the bytes live on the heap and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now =
                    LIVE.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size();
                PEAK.fetch_max(now, Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak heap above what was live before `f`, in bytes.
fn peak_during(f: impl FnOnce()) -> usize {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    f();
    PEAK.load(Relaxed) - before
}

fn mib(b: usize) -> String {
    format!("{:.2} MiB", b as f64 / (1 << 20) as f64)
}

fn main() {
    println!("| rows | input (heap) | SQL produced | `batches()` peak above input | peak / SQL | streamed, grouped (default): peak above input | / one batch | the same, input sorted by partition | / one batch | streamed, input order (`any_partitions()`): peak above input | / one batch |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in [10_000usize, 100_000, 300_000] {
        let mut rows = Vec::new();
        let input = peak_during(|| rows = McpEvent::rows(n));
        let mut sql = 0;
        let peak = peak_during(|| {
            let b = McpEvent::insert(&rows).batches().expect("batches");
            sql = b.iter().map(|s| s.sql().len()).sum();
            black_box(b);
        });
        let grouped = streamed_peak(McpEvent::insert(&rows));
        let plain = streamed_peak(McpEvent::insert(&rows).any_partitions());
        let rows = sorted_by_partition(rows);
        let sorted = streamed_peak(McpEvent::insert(&rows));
        let batch = |s: usize| format!("{:.2}", s as f64 / MAX_QUERY_BYTES as f64);
        println!(
            "| {n} | {} | {} | {} | {:.2} | {} | {} | {} | {} | {} | {} |",
            mib(input),
            mib(sql),
            mib(peak),
            peak as f64 / sql as f64,
            mib(grouped),
            batch(grouped),
            mib(sorted),
            batch(sorted),
            mib(plain),
            batch(plain),
        );
    }
}

/// Peak while taking the batches one at a time from `batch_iter()` and dropping each
/// (as an executor that runs them in turn does).
fn streamed_peak(insert: Insert<'_, McpEvent>) -> usize {
    peak_during(|| {
        for b in insert.batch_iter().expect("batches") {
            black_box(b.expect("batch"));
        }
    })
}

/// `rows` with the rows of each partition together (partitions in no particular order).
fn sorted_by_partition(rows: Vec<McpEvent>) -> Vec<McpEvent> {
    let keys = KeyMaker::new(McpEvent::table_def()).expect("partition spec");
    let mut keyed: Vec<(String, McpEvent)> = rows
        .into_iter()
        .map(|r| (format!("{:?}", keys.key(&r.to_values()).expect("key")), r))
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, r)| r).collect()
}
