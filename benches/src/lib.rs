//! Workloads and baselines shared by the benchmarks in `benches/`.
//!
//! * [`McpEvent`]: the example table, with `#[derive(IcebergTable)]`, and synthetic
//!   rows ([`McpEvent::nth`]);
//! * [`statements`]: one statement of each kind, as `build()` returns it;
//! * [`sea`]: the same INSERT, UPDATE and DELETE with sea-query (and its derive);
//! * [`hand`]: a hand-written `write!` batcher with correct escaping;
//! * [`timing`]: interleaved rounds and medians.

use chrono::{NaiveDate, NaiveDateTime};
use iceberg_sql::dsl::source;
use iceberg_sql::prelude::*;

/// The example `analytics.mcp_events` table.
#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts), bucket(16, user_id))
)]
pub struct McpEvent {
    pub event_id: String,
    pub session_id: String,
    pub tool_name: String,
    pub user_id: String,
    pub event_ts: NaiveDateTime,
    pub payload: Option<String>,
    pub status: String,
    pub latency_ms: i64,
}

/// `y-m-d h:00:00`.
pub fn ts(y: i32, m: u32, d: u32, h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .and_then(|d| d.and_hms_opt(h, 0, 0))
        .expect("valid timestamp")
}

impl McpEvent {
    /// A synthetic row number `i`: short ids, one of 28 days, one of 97 users, a JSON
    /// payload with a `'` in it (NULL for every fifth row).
    pub fn nth(i: usize) -> McpEvent {
        McpEvent {
            event_id: format!("evt-{i:06}"),
            session_id: format!("sess-{:04}", i / 7),
            tool_name: ["query_data", "load_data", "correct_record"][i % 3].into(),
            user_id: format!("user-{}", i % 97),
            event_ts: ts(2026, 10, 1 + (i % 28) as u32, (i % 24) as u32),
            payload: (!i.is_multiple_of(5))
                .then(|| format!(r#"{{"query":"select {i}","note":"it's"}}"#)),
            status: if i.is_multiple_of(11) {
                "error"
            } else {
                "success"
            }
            .into(),
            latency_ms: (i as i64 * 37) % 5000,
        }
    }

    /// `n` synthetic rows.
    pub fn rows(n: usize) -> Vec<McpEvent> {
        (0..n).map(McpEvent::nth).collect()
    }
}

/// One statement of each kind, built as a user builds it.
pub mod statements {
    use super::*;

    /// The statement kinds measured per statement.
    pub const KINDS: [&str; 6] = [
        "create_table",
        "insert",
        "update",
        "delete",
        "merge",
        "select",
    ];

    /// Rows in the per-statement INSERT.
    pub const INSERT_ROWS: usize = 10;

    /// Builds (renders and validates) one statement of `kind`.
    pub fn build(kind: &str, rows: &[McpEvent]) -> Result<Statement, Error> {
        match kind {
            "create_table" => McpEvent::table_def().create_table().if_not_exists().build(),
            "insert" => McpEvent::insert(&rows[..INSERT_ROWS]).build(),
            "update" => McpEvent::update()
                .set(McpEvent::STATUS, "retried")
                .set(McpEvent::LATENCY_MS, 320)
                .filter(McpEvent::EVENT_ID.eq("evt-001"))
                .build(),
            "delete" => McpEvent::delete()
                .filter(
                    McpEvent::EVENT_TS
                        .lt(ts(2026, 9, 1, 0))
                        .and(McpEvent::STATUS.eq("error")),
                )
                .build(),
            "merge" => {
                let staging = TableName::new("analytics", "mcp_events_staging");
                McpEvent::merge_from(MergeSource::table(staging))
                    .on_key(McpEvent::EVENT_ID)
                    .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
                    .delete()
                    .when_matched()
                    .update_all()
                    .when_not_matched()
                    .insert_all()
                    .build()
            }
            "select" => McpEvent::select()
                .filter(
                    McpEvent::TOOL_NAME
                        .eq("query_data")
                        .and(McpEvent::LATENCY_MS.gt(100)),
                )
                .limit(100)
                .build(),
            other => panic!("unknown statement kind {other}"),
        }
    }

    /// A DELETE whose WHERE has `n` conditions joined by OR (for scaling), combined by
    /// `Cond::any_of` (a chain of `n` `.or(…)` calls nests `n` levels, refused past
    /// `MAX_EXPR_DEPTH`).
    pub fn delete_with_conditions(n: usize) -> Result<Statement, Error> {
        let cond =
            Cond::any_of((0..n).map(|i| McpEvent::EVENT_ID.eq(format!("evt-{i}")))).expect("n > 0");
        McpEvent::delete().filter(cond).build()
    }
}

/// The same statements with sea-query, inlining values as `to_string` does.
pub mod sea {
    use sea_query::{Expr, ExprTrait, Iden, PostgresQueryBuilder, Query};

    use super::McpEvent;

    /// The database, as a sea-query name.
    #[derive(Iden)]
    pub struct Analytics;

    /// The table and its columns, as sea-query names.
    #[derive(Iden, Clone, Copy)]
    pub enum McpEvents {
        Table,
        EventId,
        SessionId,
        ToolName,
        UserId,
        EventTs,
        Payload,
        Status,
        LatencyMs,
    }

    const COLUMNS: [McpEvents; 8] = [
        McpEvents::EventId,
        McpEvents::SessionId,
        McpEvents::ToolName,
        McpEvents::UserId,
        McpEvents::EventTs,
        McpEvents::Payload,
        McpEvents::Status,
        McpEvents::LatencyMs,
    ];

    /// `INSERT INTO analytics.mcp_events (…) VALUES …` of `rows`.
    pub fn insert(rows: &[McpEvent]) -> String {
        let mut q = Query::insert();
        q.into_table((Analytics, McpEvents::Table)).columns(COLUMNS);
        for r in rows {
            q.values_panic([
                r.event_id.clone().into(),
                r.session_id.clone().into(),
                r.tool_name.clone().into(),
                r.user_id.clone().into(),
                r.event_ts.into(),
                r.payload.clone().into(),
                r.status.clone().into(),
                r.latency_ms.into(),
            ]);
        }
        q.to_string(PostgresQueryBuilder)
    }

    /// The per-statement kinds sea-query can write.
    pub fn build(kind: &str, rows: &[McpEvent]) -> String {
        match kind {
            "insert" => insert(&rows[..super::statements::INSERT_ROWS]),
            "update" => Query::update()
                .table((Analytics, McpEvents::Table))
                .values([
                    (McpEvents::Status, "retried".into()),
                    (McpEvents::LatencyMs, 320i64.into()),
                ])
                .and_where(Expr::col(McpEvents::EventId).eq("evt-001"))
                .to_string(PostgresQueryBuilder),
            "delete" => Query::delete()
                .from_table((Analytics, McpEvents::Table))
                .and_where(Expr::col(McpEvents::EventTs).lt(super::ts(2026, 9, 1, 0)))
                .and_where(Expr::col(McpEvents::Status).eq("error"))
                .to_string(PostgresQueryBuilder),
            other => panic!("sea-query baseline has no {other}"),
        }
    }
}

/// A hand-written batcher: `write!` per row with correct escaping (`''`), greedy
/// packing by byte length, no checks. Its text is byte-identical to `batches()`'s.
pub mod hand {
    use std::fmt::Write as _;

    use super::McpEvent;

    const HEADER: &str = "INSERT INTO analytics.mcp_events (event_id, session_id, tool_name, user_id, event_ts, payload, status, latency_ms)\nVALUES\n  ";
    const SEP: &str = ",\n  ";

    fn quote(out: &mut String, s: &str) {
        out.push('\'');
        for (i, part) in s.split('\'').enumerate() {
            if i > 0 {
                out.push_str("''");
            }
            out.push_str(part);
        }
        out.push('\'');
    }

    /// Row texts packed greedily into statements of at most `max_bytes`.
    pub fn batches(rows: &[McpEvent], max_bytes: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut batch = String::with_capacity(max_bytes);
        batch.push_str(HEADER);
        let mut in_batch = 0;
        let mut row = String::with_capacity(512);
        for r in rows {
            row.clear();
            row.push('(');
            quote(&mut row, &r.event_id);
            row.push_str(", ");
            quote(&mut row, &r.session_id);
            row.push_str(", ");
            quote(&mut row, &r.tool_name);
            row.push_str(", ");
            quote(&mut row, &r.user_id);
            let _ = write!(
                row,
                ", TIMESTAMP '{}', ",
                r.event_ts.format("%Y-%m-%d %H:%M:%S%.6f")
            );
            match &r.payload {
                Some(p) => quote(&mut row, p),
                None => row.push_str("CAST(NULL AS varchar)"),
            }
            row.push_str(", ");
            quote(&mut row, &r.status);
            let _ = write!(row, ", {})", r.latency_ms);
            if in_batch > 0 && batch.len() + SEP.len() + row.len() > max_bytes {
                out.push(std::mem::replace(
                    &mut batch,
                    String::with_capacity(max_bytes),
                ));
                batch.push_str(HEADER);
                in_batch = 0;
            }
            if in_batch > 0 {
                batch.push_str(SEP);
            }
            batch.push_str(&row);
            in_batch += 1;
        }
        if in_batch > 0 {
            out.push(batch);
        }
        out
    }
}

/// Interleaved timing: every variant runs once per round, in turn, so load changes on
/// the machine hit all of them alike; medians over rounds.
pub mod timing {
    use std::time::{Duration, Instant};

    /// Time per call of `f`, over `iters` calls.
    pub fn per_call(iters: u32, mut f: impl FnMut()) -> Duration {
        let t0 = Instant::now();
        for _ in 0..iters {
            f();
        }
        t0.elapsed() / iters
    }

    /// The median of `xs` (sorted in place).
    pub fn median(xs: &mut [Duration]) -> Duration {
        xs.sort();
        let n = xs.len();
        if n % 2 == 1 {
            xs[n / 2]
        } else {
            (xs[n / 2 - 1] + xs[n / 2]) / 2
        }
    }

    /// Runs every variant once per round for `rounds` rounds (each call `iters` times)
    /// and returns each variant's median time per call.
    pub fn interleaved(
        rounds: usize,
        iters: u32,
        variants: &mut [&mut dyn FnMut()],
    ) -> Vec<Duration> {
        let mut times = vec![Vec::with_capacity(rounds); variants.len()];
        for _ in 0..rounds {
            for (v, f) in variants.iter_mut().enumerate() {
                times[v].push(per_call(iters, &mut **f));
            }
        }
        times.iter_mut().map(|t| median(t)).collect()
    }

    /// `d` in microseconds, for tables.
    pub fn us(d: Duration) -> f64 {
        d.as_secs_f64() * 1e6
    }
}
