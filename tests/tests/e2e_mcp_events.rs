//! End-to-end, the example `mcp_events` table on the real engine (Spark 3.5 + Iceberg 1.10):
//! create (day(event_ts), bucket(16, user_id)), load 20,000 generated rows through
//! size-limited INSERT batches, correct_record (UPDATE), targeted DELETE, MERGE from a
//! staging table (twice) and from inline rows, time travel by version and by timestamp, and the
//! metadata tables decoded into their typed rows.
//!
//! Every statement is built by the crate. The main table runs the **Spark** rendering; a
//! mirror table (`mcp_events_athena`, same columns) runs the **Athena** rendering
//! verbatim (CREATE TABLE with LOCATION, INSERT, UPDATE, DELETE, MERGE, FOR VERSION /
//! TIMESTAMP AS OF). Athena doubles `'` inside string literals, which Spark reads as two
//! adjacent literals (concatenation), so the generated data is free of `'` and `\`; the
//! hostile-value scenario (`e2e_hostile_values.rs`) covers those in the Spark dialect.
//!
//! After every change the test checks the table against a Rust model of the rows: the
//! count plus a checksum per column computed in SQL (sum of `crc32` of the text columns,
//! sum of epoch micros, sums of the numbers, NULL and empty-string counts) against the
//! same sums computed in Rust, and at the end every row decoded with `McpEvent::from_row`.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc};
use iceberg_sql::dml::MergeSource;
use iceberg_sql::dsl::source;
use iceberg_sql::prelude::*;
use iceberg_sql::query::{FileRow, HistoryRow, Order, Snapshot, SnapshotRow};
use iceberg_sql_tests::engine::{Engine, QueryResult};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    name = "mcp_events",
    location = "s3://my-datalake/iceberg/mcp_events/",
    partition(day(event_ts), bucket(16, user_id)),
    properties(format = "parquet", write_compression = "snappy")
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

/// The same table for the Athena-verbatim run (the DML builders target `T`'s own table).
#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "analytics",
    name = "mcp_events_athena",
    location = "s3://my-datalake/iceberg/mcp_events_athena/",
    partition(day(event_ts), bucket(16, user_id)),
    properties(format = "parquet", write_compression = "snappy")
)]
pub struct McpEventAthena {
    pub event_id: String,
    pub session_id: String,
    pub tool_name: String,
    pub user_id: String,
    pub event_ts: NaiveDateTime,
    pub payload: Option<String>,
    pub status: String,
    pub latency_ms: i64,
}

impl From<&McpEvent> for McpEventAthena {
    fn from(e: &McpEvent) -> Self {
        McpEventAthena {
            event_id: e.event_id.clone(),
            session_id: e.session_id.clone(),
            tool_name: e.tool_name.clone(),
            user_id: e.user_id.clone(),
            event_ts: e.event_ts,
            payload: e.payload.clone(),
            status: e.status.clone(),
            latency_ms: e.latency_ms,
        }
    }
}

impl From<McpEventAthena> for McpEvent {
    fn from(e: McpEventAthena) -> Self {
        McpEvent {
            event_id: e.event_id,
            session_id: e.session_id,
            tool_name: e.tool_name,
            user_id: e.user_id,
            event_ts: e.event_ts,
            payload: e.payload,
            status: e.status,
            latency_ms: e.latency_ms,
        }
    }
}

const N_ROWS: usize = 20_000;
const N_ATHENA_ROWS: usize = 1_000;
/// Days of events: with bucket(16, user_id) every write touches DAYS * 16 partitions.
const DAYS: u64 = 2;
const TOOLS: [&str; 5] = [
    "query_data",
    "load_data",
    "correct_record",
    "get_snapshot",
    "list_tables",
];
const STATUSES: [&str; 4] = ["success", "success", "error", "timeout"];

/// splitmix64: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn base_ts() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 9, 28)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
}

/// Event `i`: DAYS days of timestamps with microseconds, 200 users, NULL and "" payloads,
/// non-ASCII text (no `'` or `\`, see the module docs).
fn event(i: usize, rng: &mut Rng) -> McpEvent {
    let r = rng.next();
    let micros = (r % (DAYS * 86_400 * 1_000_000)) as i64;
    let payload = match (r >> 20) % 13 {
        0 => None,
        1 => Some(String::new()),
        2 => Some(format!("{{\"note\":\"zürich ✓ 日本 #{i}\"}}")),
        _ => Some(format!(
            "{{\"query\":\"select * from t where id = {}\",\"rows\":{}}}",
            r % 997,
            (r >> 8) % 1000
        )),
    };
    McpEvent {
        event_id: format!("evt-{i:06}"),
        session_id: format!("sess-{:05}", (r >> 32) % 5_000),
        tool_name: TOOLS[((r >> 12) % 5) as usize].to_string(),
        user_id: format!("user-{:03}", (r >> 40) % 200),
        event_ts: base_ts() + Duration::microseconds(micros),
        payload,
        status: STATUSES[((r >> 16) % 4) as usize].to_string(),
        latency_ms: ((r >> 24) % 5_000) as i64,
    }
}

fn generate(n: usize, seed: u64) -> Vec<McpEvent> {
    let mut rng = Rng(seed);
    (0..n).map(|i| event(i, &mut rng)).collect()
}

// ---------------------------------------------------------------- checksums

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The SQL side of [`checksum`]: one row over `relation` (a table, a time-travel read, or
/// a built SELECT in parentheses).
fn checksum_sql(relation: &str) -> String {
    let s = |c: &str| format!("coalesce(sum(crc32({c})), 0), coalesce(sum(length({c})), 0)");
    format!(
        "SELECT count(*), {}, {}, {}, {}, \
         coalesce(sum(unix_micros(CAST(event_ts AS timestamp)) - {base}), 0), \
         count(payload), count_if(payload = ''), {}, {}, \
         coalesce(sum(latency_ms), 0), coalesce(sum(latency_ms * latency_ms), 0) FROM {relation}",
        s("event_id"),
        s("session_id"),
        s("tool_name"),
        s("user_id"),
        s("payload"),
        s("status"),
        base = base_ts().and_utc().timestamp_micros(),
    )
}

/// The same sums computed in Rust (string lengths in characters, as Spark's `length`).
fn checksum(rows: &[McpEvent]) -> Vec<i64> {
    let mut out = vec![0i64; 18];
    out[0] = rows.len() as i64;
    for e in rows {
        let mut k = 1;
        for s in [&e.event_id, &e.session_id, &e.tool_name, &e.user_id] {
            out[k] += i64::from(crc32(s.as_bytes()));
            out[k + 1] += s.chars().count() as i64;
            k += 2;
        }
        out[9] += e.event_ts.and_utc().timestamp_micros() - base_ts().and_utc().timestamp_micros();
        if let Some(p) = &e.payload {
            out[10] += 1;
            out[11] += i64::from(p.is_empty());
            out[12] += i64::from(crc32(p.as_bytes()));
            out[13] += p.chars().count() as i64;
        }
        out[14] += i64::from(crc32(e.status.as_bytes()));
        out[15] += e.status.chars().count() as i64;
        out[16] += e.latency_ms;
        out[17] += e.latency_ms * e.latency_ms;
    }
    out
}

#[track_caller]
fn assert_checksum(engine: &Engine, relation: &str, model: &[McpEvent], what: &str) {
    let r = timed(engine, checksum_sql(relation));
    let got: Vec<i64> = r.rows[0]
        .iter()
        .map(|c| {
            c.as_deref()
                .expect("checksum cell is NULL")
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(got, checksum(model), "checksum of {what} ({relation})");
}

/// Runs a statement; logs the slow ones (the suite has a wall-time budget).
#[track_caller]
fn timed<S: AsRef<str>>(engine: &Engine, sql: S) -> QueryResult {
    let t = std::time::Instant::now();
    let r = engine.run(sql.as_ref());
    let e = t.elapsed();
    if e.as_secs_f64() > 1.0 {
        let head: String = sql.as_ref().chars().take(70).collect();
        eprintln!("[mcp] {e:.1?} {}", head.replace('\n', " "));
    }
    r
}

fn decode<T: FromRow>(r: &QueryResult) -> Vec<T> {
    r.rows
        .iter()
        .map(|cells| T::from_row(&r.row(cells)).expect("row decodes"))
        .collect()
}

fn sorted(mut rows: Vec<McpEvent>) -> Vec<McpEvent> {
    rows.sort_by(|a, b| a.event_id.cmp(&b.event_id));
    rows
}

/// The current snapshot of `table`, from the typed `snapshots` rows (Spark rendering).
fn snapshots(engine: &Engine, table: &TableName) -> Vec<SnapshotRow> {
    let q = table
        .metadata::<SnapshotRow>()
        .order_by(SnapshotRow::COMMITTED_AT, Order::Asc)
        .build_for(Dialect::Spark)
        .unwrap();
    let r = timed(engine, &q);
    r.rows
        .iter()
        .map(|c| SnapshotRow::from_row(&r.row(c)).expect("snapshot row decodes"))
        .collect()
}

fn last_snapshot(engine: &Engine, table: &TableName) -> SnapshotRow {
    snapshots(engine, table).pop().expect("a snapshot")
}

// ---------------------------------------------------------------- the changes, in Rust

fn fix_target(rows: &[McpEvent]) -> String {
    rows[432].event_id.clone()
}

fn apply_fix(model: &mut [McpEvent], id: &str) -> usize {
    let mut n = 0;
    for e in model.iter_mut().filter(|e| e.event_id == id) {
        e.status = "retried".into();
        e.latency_ms = 320;
        n += 1;
    }
    n
}

/// The targeted DELETE: one user's events before the third day.
fn delete_cutoff() -> NaiveDateTime {
    base_ts() + Duration::hours(30)
}

fn apply_delete(model: &mut Vec<McpEvent>, user: &str) -> usize {
    let before = model.len();
    model.retain(|e| !(e.user_id == user && e.event_ts < delete_cutoff()));
    before - model.len()
}

/// Source rows for a MERGE: `deleted` for some existing ids, changed values for others,
/// and new events. Returns (source rows, expected table after the merge).
fn merge_case(model: &[McpEvent], first: usize, tag: &str) -> (Vec<McpEvent>, Vec<McpEvent>) {
    let mut src = Vec::new();
    for (k, i) in (first..first + 40).step_by(2).enumerate() {
        let mut e = model[i].clone();
        if k % 3 == 0 {
            e.status = "deleted".into();
        } else {
            e.status = format!("merged-{tag}");
            e.latency_ms += 1_000_000;
            e.payload = if k % 2 == 0 {
                None
            } else {
                Some(format!("{{\"merge\":\"{tag}\"}}"))
            };
            e.tool_name = "merge_tool".into();
        }
        src.push(e);
    }
    let mut rng = Rng(0xC0FFEE ^ first as u64);
    for j in 0..15 {
        let mut e = event(900_000 + first + j, &mut rng);
        e.event_id = format!("new-{tag}-{j:03}");
        src.push(e);
    }
    // Expected: DELETE when matched and source.status = 'deleted', UPDATE all when matched,
    // INSERT all when not matched.
    let by_id: BTreeMap<&str, &McpEvent> = src.iter().map(|e| (e.event_id.as_str(), e)).collect();
    let mut out: Vec<McpEvent> = Vec::new();
    for e in model {
        match by_id.get(e.event_id.as_str()) {
            Some(s) if s.status == "deleted" => {}
            Some(s) => out.push((*s).clone()),
            None => out.push(e.clone()),
        }
    }
    for s in &src {
        if !model.iter().any(|e| e.event_id == s.event_id) {
            out.push(s.clone());
        }
    }
    (src, sorted(out))
}

// ---------------------------------------------------------------- the test

#[test]
fn mcp_events_lifecycle_on_spark_and_athena_verbatim() {
    let Some(engine) = Engine::get_or_skip("mcp_events_lifecycle_on_spark_and_athena_verbatim")
    else {
        return;
    };
    let t0 = std::time::Instant::now();
    timed(engine, "CREATE NAMESPACE IF NOT EXISTS analytics");
    let spark = Dialect::Spark;
    let def = McpEvent::table_def();
    let name = def.name().clone();

    // --- create (Spark rendering: USING iceberg, days()/bucket(), s3 LOCATION)
    timed(
        engine,
        def.create_table().if_not_exists().build_for(spark).unwrap(),
    );
    let show = timed(engine, format!("SHOW CREATE TABLE {name}"));
    let show = show.scalar().unwrap();
    // Spark prints bucket(16, user_id) as a bucket spec.
    assert!(
        show.contains("PARTITIONED BY (days(event_ts))")
            && show.contains("CLUSTERED BY (user_id)\nINTO 16 BUCKETS"),
        "{show}"
    );

    // --- load: 20,000 rows through size-limited INSERT batches
    let generated = generate(N_ROWS, 0x5EED_0000);
    // Athena's own limit (262,144 bytes per statement) is the batch limit.
    let batches = McpEvent::insert(&generated).batches_for(spark).unwrap();
    assert!(batches.len() >= 10, "{} batches", batches.len());
    for b in &batches {
        assert!(b.sql().len() <= iceberg_sql::MAX_QUERY_BYTES);
        timed(engine, b);
    }
    let mut model = sorted(generated.clone());
    assert_checksum(engine, &name.to_string(), &model, "the loaded table");
    let mut versions = vec![(last_snapshot(engine, &name), model.clone())];
    eprintln!(
        "[mcp] loaded {} rows in {} batches at {:.1?}",
        N_ROWS,
        batches.len(),
        t0.elapsed()
    );

    // --- correct_record (UPDATE) changes exactly one row
    let target_id = fix_target(&generated);
    let fix = McpEvent::update()
        .set(McpEvent::STATUS, "retried")
        .set(McpEvent::LATENCY_MS, 320)
        .filter(McpEvent::EVENT_ID.eq(target_id.as_str()))
        .build_for(spark)
        .unwrap();
    timed(engine, &fix);
    assert_eq!(apply_fix(&mut model, &target_id), 1);
    let row = timed(
        engine,
        McpEvent::select()
            .filter(McpEvent::EVENT_ID.eq(target_id.as_str()))
            .build_for(spark)
            .unwrap(),
    );
    let fixed: Vec<McpEvent> = decode(&row);
    assert_eq!(fixed.len(), 1);
    assert_eq!(
        (fixed[0].status.as_str(), fixed[0].latency_ms),
        ("retried", 320)
    );
    assert_checksum(engine, &name.to_string(), &model, "after the UPDATE");
    versions.push((last_snapshot(engine, &name), model.clone()));

    // --- targeted DELETE: one user's events before the cutoff, nothing else
    let victim = generated[17].user_id.clone();
    let del = McpEvent::delete()
        .filter(
            McpEvent::USER_ID
                .eq(victim.as_str())
                .and(McpEvent::EVENT_TS.lt(delete_cutoff())),
        )
        .build_for(spark)
        .unwrap();
    timed(engine, &del);
    let deleted = apply_delete(&mut model, &victim);
    assert!(
        deleted > 10,
        "the DELETE should hit several rows, hit {deleted}"
    );
    let left = timed(
        engine,
        format!("SELECT count(*) FROM {name} WHERE user_id = '{victim}'"),
    );
    assert_eq!(
        left.scalar_i64(),
        model.iter().filter(|e| e.user_id == victim).count() as i64
    );
    assert_checksum(engine, &name.to_string(), &model, "after the DELETE");
    versions.push((last_snapshot(engine, &name), model.clone()));

    // --- MERGE from a staging table (created by the builder, filled by INSERT batches)
    let staging_def = def
        .renamed("analytics", "mcp_events_staging")
        .with_location(Location::parse("s3://my-datalake/iceberg/mcp_events_staging/").unwrap());
    timed(engine, staging_def.create_table().build_for(spark).unwrap());
    let (src, expected) = merge_case(&model, 100, "t");
    for b in McpEvent::insert(&src)
        .into_table(staging_def.name().clone())
        .batches_for(spark)
        .unwrap()
    {
        timed(engine, b);
    }
    let upsert = McpEvent::merge_from(MergeSource::table(staging_def.name().clone()))
        .on_key(McpEvent::EVENT_ID)
        .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
        .delete()
        .when_matched()
        .update_all()
        .when_not_matched()
        .insert_all()
        .build_for(spark)
        .unwrap();
    timed(engine, &upsert);
    model = expected;
    assert_checksum(
        engine,
        &name.to_string(),
        &model,
        "after the MERGE from a table",
    );
    versions.push((last_snapshot(engine, &name), model.clone()));

    // --- second MERGE, from another staging table, with explicit UPDATE SET / INSERT
    // values.
    let staging2 = def
        .renamed("analytics", "mcp_events_staging2")
        .with_location(Location::parse("s3://my-datalake/iceberg/mcp_events_staging2/").unwrap());
    timed(engine, staging2.create_table().build_for(spark).unwrap());
    let (src, expected) = merge_case(&model, 5_000, "v");
    timed(
        engine,
        McpEvent::insert(&src)
            .into_table(staging2.name().clone())
            .build_for(spark)
            .unwrap(),
    );
    let upsert = McpEvent::merge_from(MergeSource::table(staging2.name().clone()))
        .on_key(McpEvent::EVENT_ID)
        .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
        .delete()
        .when_matched()
        .update(|u| {
            u.set(McpEvent::STATUS, source(McpEvent::STATUS))
                .set(McpEvent::LATENCY_MS, source(McpEvent::LATENCY_MS))
                .set(McpEvent::PAYLOAD, source(McpEvent::PAYLOAD))
                .set(McpEvent::TOOL_NAME, source(McpEvent::TOOL_NAME))
        })
        .when_not_matched()
        .insert(|i| {
            i.value(McpEvent::EVENT_ID, source(McpEvent::EVENT_ID))
                .value(McpEvent::SESSION_ID, source(McpEvent::SESSION_ID))
                .value(McpEvent::TOOL_NAME, source(McpEvent::TOOL_NAME))
                .value(McpEvent::USER_ID, source(McpEvent::USER_ID))
                .value(McpEvent::EVENT_TS, source(McpEvent::EVENT_TS))
                .value(McpEvent::PAYLOAD, source(McpEvent::PAYLOAD))
                .value(McpEvent::STATUS, source(McpEvent::STATUS))
                .value(McpEvent::LATENCY_MS, source(McpEvent::LATENCY_MS))
        })
        .build_for(spark)
        .unwrap();
    timed(engine, &upsert);
    model = expected;
    assert_checksum(engine, &name.to_string(), &model, "after the second MERGE");
    versions.push((last_snapshot(engine, &name), model.clone()));
    timed(
        engine,
        staging2.name().drop_table().build_for(spark).unwrap(),
    );

    // --- third MERGE, from inline rows (`USING (SELECT * FROM (VALUES ...) AS
    // source_rows (cols)) AS source` in Spark).
    let (src, expected) = merge_case(&model, 9_000, "r");
    let upsert = McpEvent::merge_from(MergeSource::rows(&src))
        .on_key(McpEvent::EVENT_ID)
        .when_matched_and(source(McpEvent::STATUS).eq("deleted"))
        .delete()
        .when_matched()
        .update_all()
        .when_not_matched()
        .insert_all()
        .build_for(spark)
        .unwrap();
    timed(engine, &upsert);
    model = expected;
    // Every row, decoded through the derive, equals the model.
    let got: Vec<McpEvent> = decode(&timed(
        engine,
        McpEvent::select()
            .order_by(McpEvent::EVENT_ID, Order::Asc)
            .build_for(spark)
            .unwrap(),
    ));
    assert_eq!(got.len(), model.len());
    for (g, m) in got.iter().zip(&model) {
        assert_eq!(g, m);
    }
    versions.push((last_snapshot(engine, &name), model.clone()));
    eprintln!("[mcp] DML done at {:.1?}", t0.elapsed());

    // --- time travel: each version and each commit time reads the rows of that moment
    // (All these reads in one statement: `UNION ALL` of the checksums, in order.)
    let mut parts = Vec::new();
    let mut want = Vec::new();
    for (i, (snap, rows)) in versions.iter().enumerate() {
        for (j, s) in [
            Snapshot::Version(snap.snapshot_id),
            Snapshot::Timestamp(snap.committed_at),
        ]
        .into_iter()
        .enumerate()
        {
            let q = McpEvent::select().as_of(s).build_for(spark).unwrap();
            parts.push(format!(
                "SELECT {} AS k, * FROM ({})",
                2 * i + j,
                checksum_sql(&format!("({q})"))
            ));
            want.push(checksum(rows));
        }
    }
    let r = timed(engine, format!("{} ORDER BY k", parts.join(" UNION ALL ")));
    assert_eq!(r.len(), want.len());
    for (k, (row, w)) in r.rows.iter().zip(&want).enumerate() {
        let got: Vec<i64> = row[1..]
            .iter()
            .map(|c| c.as_deref().unwrap().parse().unwrap())
            .collect();
        let what = if k % 2 == 0 { "version" } else { "timestamp" };
        assert_eq!(&got, w, "time travel by {what} to change {}", k / 2);
    }
    // Just before the first UPDATE's commit, the corrected row is still the original.
    let before_fix = versions[1].0.committed_at - Duration::milliseconds(1);
    let q = McpEvent::select()
        .filter(McpEvent::EVENT_ID.eq(target_id.as_str()))
        .as_of(Snapshot::Timestamp(before_fix))
        .build_for(spark)
        .unwrap();
    let old: Vec<McpEvent> = decode(&timed(engine, &q));
    assert_eq!(
        old,
        generated
            .iter()
            .filter(|e| e.event_id == target_id)
            .cloned()
            .collect::<Vec<_>>()
    );

    // --- metadata tables: one snapshot per change, typed rows
    let snaps = snapshots(engine, &name);
    let n_changes = batches.len() + 5; // batches, UPDATE, DELETE, 3 MERGEs
    assert_eq!(snaps.len(), n_changes, "{snaps:#?}");
    let ops: Vec<&str> = snaps
        .iter()
        .map(|s| s.operation.as_deref().unwrap())
        .collect();
    assert!(
        ops[..batches.len()].iter().all(|o| *o == "append"),
        "{ops:?}"
    );
    assert!(
        ops[batches.len()..]
            .iter()
            .all(|o| *o == "overwrite" || *o == "delete"),
        "{ops:?}"
    );
    for w in snaps.windows(2) {
        assert_eq!(w[1].parent_id, Some(w[0].snapshot_id));
    }
    assert_eq!(snaps[0].parent_id, None);
    let added: i64 = snaps[..batches.len()]
        .iter()
        .map(|s| {
            s.summary.as_ref().unwrap()["added-records"]
                .parse::<i64>()
                .unwrap()
        })
        .sum();
    assert_eq!(added, N_ROWS as i64);
    let recorded: Vec<i64> = versions.iter().map(|(s, _)| s.snapshot_id).collect();
    assert_eq!(
        &snaps[batches.len() - 1..]
            .iter()
            .map(|s| s.snapshot_id)
            .collect::<Vec<_>>(),
        &recorded
    );

    let hq = name
        .metadata::<HistoryRow>()
        .order_by(HistoryRow::MADE_CURRENT_AT, Order::Asc)
        .build_for(spark)
        .unwrap();
    let hr = timed(engine, &hq);
    let history: Vec<HistoryRow> = hr
        .rows
        .iter()
        .map(|c| HistoryRow::from_row(&hr.row(c)).unwrap())
        .collect();
    assert_eq!(history.len(), n_changes);
    assert!(history.iter().all(|h| h.is_current_ancestor));
    assert_eq!(
        history.iter().map(|h| h.snapshot_id).collect::<Vec<_>>(),
        snaps.iter().map(|s| s.snapshot_id).collect::<Vec<_>>()
    );

    let fq = name.metadata::<FileRow>().build_for(spark).unwrap();
    let fr = timed(engine, &fq);
    let files: Vec<FileRow> = fr
        .rows
        .iter()
        .map(|c| FileRow::from_row(&fr.row(c)).unwrap())
        .collect();
    assert!(!files.is_empty());
    let data_rows: i64 = files
        .iter()
        .filter(|f| f.content == 0)
        .map(|f| f.record_count)
        .sum();
    let delete_rows: i64 = files
        .iter()
        .filter(|f| f.content != 0)
        .map(|f| f.record_count)
        .sum();
    assert_eq!(data_rows - delete_rows, model.len() as i64);
    assert!(files.iter().all(|f| f.file_format == "PARQUET"));
    assert!(files.iter().all(|f| f
        .file_path
        .starts_with("s3://my-datalake/iceberg/mcp_events/data/")));
    eprintln!("[mcp] spark part done at {:.1?}", t0.elapsed());

    athena_verbatim(engine, &generated[..N_ATHENA_ROWS]);
    eprintln!("[mcp] total {:.1?}", t0.elapsed());
}

/// Athena renders a NULL as `CAST(NULL AS varchar)`, which Spark refuses
/// (`DATATYPE_MISSING_SIZE`: its varchar needs a length), so the rows written verbatim
/// carry no NULL payloads.
fn no_nulls(rows: &[McpEvent]) -> Vec<McpEvent> {
    rows.iter()
        .cloned()
        .map(|mut e| {
            e.payload.get_or_insert_with(|| "-".into());
            e
        })
        .collect()
}

/// The same life, rendered for Athena and run verbatim on Spark.
fn athena_verbatim(engine: &Engine, generated: &[McpEvent]) {
    let generated = &no_nulls(generated)[..];
    let def = McpEventAthena::table_def();
    let name = def.name().clone();
    let read_all = || -> Vec<McpEvent> {
        let q = McpEventAthena::select()
            .order_by(McpEventAthena::EVENT_ID, Order::Asc)
            .build()
            .unwrap();
        decode::<McpEventAthena>(&timed(engine, &q))
            .into_iter()
            .map(McpEvent::from)
            .collect()
    };
    let current = |engine: &Engine| last_snapshot(engine, &name);

    timed(engine, def.create_table().build().unwrap());
    let rows: Vec<McpEventAthena> = generated.iter().map(McpEventAthena::from).collect();
    let batches = McpEventAthena::insert(&rows)
        .max_bytes(48 * 1024)
        .batches()
        .unwrap();
    assert!(batches.len() >= 3, "{} batches", batches.len());
    for b in &batches {
        timed(engine, b);
    }
    let mut model = sorted(generated.to_vec());
    assert_eq!(read_all(), model);
    let v_load = current(engine);

    let target_id = fix_target(generated);
    timed(
        engine,
        McpEventAthena::update()
            .set(McpEventAthena::STATUS, "retried")
            .set(McpEventAthena::LATENCY_MS, 320)
            .filter(McpEventAthena::EVENT_ID.eq(target_id.as_str()))
            .build()
            .unwrap(),
    );
    assert_eq!(apply_fix(&mut model, &target_id), 1);

    let victim = generated[17].user_id.clone();
    timed(
        engine,
        McpEventAthena::delete()
            .filter(
                McpEventAthena::USER_ID
                    .eq(victim.as_str())
                    .and(McpEventAthena::EVENT_TS.lt(delete_cutoff())),
            )
            .build()
            .unwrap(),
    );
    assert!(apply_delete(&mut model, &victim) > 0);
    assert_eq!(read_all(), model);
    let v_delete = current(engine);

    let (src, expected) = merge_case(&model, 100, "a");
    let (src, expected) = (no_nulls(&src), no_nulls(&expected));
    let src: Vec<McpEventAthena> = src.iter().map(McpEventAthena::from).collect();
    let staging = def
        .renamed("analytics", "mcp_events_athena_staging")
        .with_location(
            Location::parse("s3://my-datalake/iceberg/mcp_events_athena_staging/").unwrap(),
        );
    timed(engine, staging.create_table().build().unwrap());
    timed(
        engine,
        McpEventAthena::insert(&src)
            .into_table(staging.name().clone())
            .build()
            .unwrap(),
    );
    timed(
        engine,
        McpEventAthena::merge_from(MergeSource::table(staging.name().clone()))
            .on_key(McpEventAthena::EVENT_ID)
            .when_matched_and(source(McpEventAthena::STATUS).eq("deleted"))
            .delete()
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build()
            .unwrap(),
    );
    assert_eq!(read_all(), expected);

    // Time travel in the Athena spelling.
    for (snap, rows) in [
        (&v_load, sorted(generated.to_vec())),
        (&v_delete, model.clone()),
    ] {
        for s in [
            Snapshot::Version(snap.snapshot_id),
            Snapshot::Timestamp(snap.committed_at),
        ] {
            let q = McpEventAthena::select()
                .order_by(McpEventAthena::EVENT_ID, Order::Asc)
                .as_of(s)
                .build()
                .unwrap();
            let got: Vec<McpEvent> = decode::<McpEventAthena>(&timed(engine, &q))
                .into_iter()
                .map(McpEvent::from)
                .collect();
            assert_eq!(got, rows, "{}", q.sql());
        }
    }
    // One snapshot per change here too.
    let n = snapshots(engine, &name).len();
    assert_eq!(n, batches.len() + 3);

    // Inline rows as the MERGE source: Athena's `USING (VALUES ...) AS source (cols)` is
    // refused by Spark (column aliases on a MERGE source): pinned.
    let e = engine.expect_err(
        McpEventAthena::merge_from(MergeSource::rows(&src))
            .on_key(McpEventAthena::EVENT_ID)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build()
            .unwrap(),
    );
    assert_eq!(e.class(), Some("COLUMN_ALIASES_IS_NOT_ALLOWED"), "{e}");

    // Athena writes a NULL as `CAST(NULL AS varchar)`, which Spark refuses (its varchar
    // needs a length): pinned, and the reason the rows above carry no NULLs.
    let mut with_null = McpEventAthena::from(&generated[0]);
    with_null.event_id = "evt-null".into();
    with_null.payload = None;
    let e = engine.expect_err(McpEventAthena::insert(&[with_null]).build().unwrap());
    assert_eq!(e.class(), Some("DATATYPE_MISSING_SIZE"), "{e}");

    // DROP TABLE, verbatim.
    timed(engine, staging.name().drop_table().build().unwrap());
    let e = engine.expect_err(format!("SELECT count(*) FROM {}", staging.name()));
    assert_eq!(e.class(), Some("TABLE_OR_VIEW_NOT_FOUND"), "{e}");
    let _: DateTime<Utc> = v_load.committed_at;
}
