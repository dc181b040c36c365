//! End-to-end, a loader (an Iceberg "destination": create the table if missing, append,
//! evolve the schema when the incoming records gain a field), built on the crate: the
//! loader reads the live definition from Spark's `SHOW CREATE TABLE`, plans with
//! `evolve`, applies the plan, then appends through INSERT batches. Two derived structs
//! are v1 and v2 of the same table; nothing is lost across the change.

use chrono::{NaiveDate, NaiveDateTime};
use iceberg_sql::evolve::{evolve_for, parse_show_create_table, Change, EvolveOptions};
use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;
use iceberg_sql_tests::engine::Engine;

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "lake",
    name = "readings",
    location = "s3://destination-bucket/lake.db/readings/",
    partition(day(ts))
)]
pub struct ReadingV1 {
    pub sensor_id: String,
    pub ts: NaiveDateTime,
    pub value: f64,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "lake",
    name = "readings",
    location = "s3://destination-bucket/lake.db/readings/",
    partition(day(ts))
)]
pub struct ReadingV2 {
    pub sensor_id: String,
    pub ts: NaiveDateTime,
    pub value: f64,
    pub unit: Option<String>,
    pub quality: Option<i32>,
}

/// What one `load` call did.
#[derive(Debug, PartialEq)]
struct Loaded {
    created: bool,
    changes: Vec<Change>,
    statements: usize,
}

/// The destination: create if missing, else evolve to `T`'s definition, then append.
fn load<T: IcebergTable>(engine: &Engine, rows: &[T]) -> Loaded {
    let spark = Dialect::Spark;
    let def = T::table_def();
    let name = def.name();
    engine.run(format!("CREATE NAMESPACE IF NOT EXISTS {}", name.database));
    let mut out = Loaded {
        created: false,
        changes: Vec::new(),
        statements: 0,
    };
    match engine.sql(format!("SHOW CREATE TABLE {name}")) {
        Ok(r) => {
            let live = parse_show_create_table(r.scalar().unwrap(), spark).unwrap();
            let plan = evolve_for(&live, def, EvolveOptions::new(), spark)
                .unwrap_or_else(|e| panic!("cannot evolve {name}: {e}"));
            for step in &plan.steps {
                engine.run(&step.statement);
                out.changes.push(step.change.clone());
            }
        }
        Err(e) if e.class() == Some("TABLE_OR_VIEW_NOT_FOUND") => {
            engine.run(def.create_table().if_not_exists().build_for(spark).unwrap());
            out.created = true;
        }
        Err(e) => panic!("{e}"),
    }
    let batches = T::insert(rows)
        .max_bytes(4 * 1024)
        .batches_for(spark)
        .unwrap();
    for b in &batches {
        engine.run(b);
    }
    out.statements = batches.len();
    out
}

fn ts(i: usize) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 10, 1 + (i % 3) as u32)
        .unwrap()
        .and_hms_opt((i % 24) as u32, (i % 60) as u32, 0)
        .unwrap()
}

fn v1(range: std::ops::Range<usize>) -> Vec<ReadingV1> {
    range
        .map(|i| ReadingV1 {
            sensor_id: format!("s-{}", i % 7),
            ts: ts(i),
            value: i as f64 / 4.0,
        })
        .collect()
}

fn v2(range: std::ops::Range<usize>) -> Vec<ReadingV2> {
    range
        .map(|i| ReadingV2 {
            sensor_id: format!("s-{}", i % 7),
            ts: ts(i),
            value: i as f64 / 4.0,
            unit: (i % 3 != 0).then(|| "°C".to_string()),
            quality: (i % 2 == 0).then_some(i as i32),
        })
        .collect()
}

fn read_all(engine: &Engine) -> Vec<ReadingV2> {
    let q = ReadingV2::select()
        .order_by(ReadingV2::VALUE, Order::Asc)
        .build_for(Dialect::Spark)
        .unwrap();
    let r = engine.run(&q);
    r.rows
        .iter()
        .map(|c| ReadingV2::from_row(&r.row(c)).unwrap())
        .collect()
}

#[test]
fn destination_creates_appends_and_evolves_without_losing_rows() {
    let Some(engine) =
        Engine::get_or_skip("destination_creates_appends_and_evolves_without_losing_rows")
    else {
        return;
    };
    // 1. First load with v1: the table is created.
    let a = v1(0..120);
    let r = load(engine, &a);
    assert!(r.created && r.changes.is_empty(), "{r:?}");
    assert!(r.statements >= 2, "{r:?}");

    // 2. Second load with v1: plain append, no DDL.
    let b = v1(120..200);
    let r = load(engine, &b);
    assert!(!r.created && r.changes.is_empty(), "{r:?}");

    // 3. The records gain two fields: the loader adds them (one ADD COLUMNS), then appends.
    let c = v2(200..300);
    let r = load(engine, &c);
    assert!(!r.created, "{r:?}");
    assert_eq!(
        r.changes,
        [Change::AddColumns(vec!["unit".into(), "quality".into()])]
    );

    // 4. Again with v2: nothing to evolve.
    let d = v2(300..340);
    let r = load(engine, &d);
    assert!(!r.created && r.changes.is_empty(), "{r:?}");

    // Nothing lost: every v1 row reads back with NULL in the new fields, every v2 row as
    // written, and the live definition is v2's.
    let widen = |x: &ReadingV1| ReadingV2 {
        sensor_id: x.sensor_id.clone(),
        ts: x.ts,
        value: x.value,
        unit: None,
        quality: None,
    };
    let want: Vec<ReadingV2> = a
        .iter()
        .chain(&b)
        .map(widen)
        .chain(c.iter().cloned())
        .chain(d.iter().cloned())
        .collect();
    assert_eq!(read_all(engine), want);
    let live = parse_show_create_table(
        engine
            .run(format!(
                "SHOW CREATE TABLE {}",
                ReadingV2::table_def().name()
            ))
            .scalar()
            .unwrap(),
        Dialect::Spark,
    )
    .unwrap();
    let names: Vec<&str> = live.columns().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["sensor_id", "ts", "value", "unit", "quality"]);
    let appends = engine
        .run(format!(
            "SELECT count(*) FROM {}.snapshots WHERE operation = 'append'",
            ReadingV2::table_def().name()
        ))
        .scalar_i64();
    assert!(appends >= 4);
}
