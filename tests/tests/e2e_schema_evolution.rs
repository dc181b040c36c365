//! End-to-end schema evolution on the real engine. The live definition is read back by
//! parsing Spark's `SHOW CREATE TABLE`; the planner (`evolve`) turns it into the v2
//! struct's definition: rename (`renamed_from`), widen int -> bigint and float -> double,
//! add columns, drop a column. Old rows read NULL in the new columns and keep their
//! values under the new names and types; time travel to before the change still reads
//! the old schema; an illegal change is refused by the planner before anything reaches
//! the engine.
//!
//! The Athena rendering of the plan runs verbatim on a mirror table where Spark accepts
//! it (`CHANGE COLUMN c c bigint`, `ADD COLUMNS`, `DROP COLUMN`); Athena's rename
//! (`CHANGE COLUMN old new type`) is pinned as refused by Spark.

use chrono::{NaiveDate, NaiveDateTime};
use iceberg_sql::evolve::{evolve, evolve_for, parse_show_create_table, Change, EvolveOptions};
use iceberg_sql::prelude::*;
use iceberg_sql::query::{Order, Snapshot};
use iceberg_sql_tests::engine::{Engine, QueryResult};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "evo",
    name = "orders",
    location = "s3://evo-bucket/iceberg/orders/",
    partition(day(created_at))
)]
pub struct OrderV1 {
    pub id: i64,
    pub created_at: NaiveDateTime,
    pub qty: i32,
    pub price: f32,
    pub note: Option<String>,
    pub legacy: Option<String>,
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "evo",
    name = "orders",
    location = "s3://evo-bucket/iceberg/orders/",
    partition(day(created_at))
)]
pub struct OrderV2 {
    pub id: i64,
    pub created_at: NaiveDateTime,
    pub qty: i64,
    pub price: f64,
    #[iceberg(renamed_from = "note")]
    pub remark: Option<String>,
    pub discount: Option<f64>,
    pub channel: Option<String>,
}

/// An illegal next step: bigint -> int (narrowing) and double -> string.
#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "evo",
    name = "orders",
    location = "s3://evo-bucket/iceberg/orders/",
    partition(day(created_at))
)]
pub struct OrderBad {
    pub id: i64,
    pub created_at: NaiveDateTime,
    pub qty: i32,
    pub price: String,
    pub remark: Option<String>,
    pub discount: Option<f64>,
    pub channel: Option<String>,
}

fn ts(d: u32, h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 10, d)
        .unwrap()
        .and_hms_opt(h, 0, 0)
        .unwrap()
}

fn v1_rows() -> Vec<OrderV1> {
    (0..6)
        .map(|i| OrderV1 {
            id: i,
            created_at: ts(1 + (i % 2) as u32, i as u32),
            qty: 2_000_000_000 + i as i32,
            price: 0.25 + i as f32, // exact in f32 and f64
            note: Some(format!("note {i}")),
            legacy: Some(format!("legacy {i}")),
        })
        .collect()
}

fn decode<T: FromRow>(r: &QueryResult) -> Vec<T> {
    r.rows
        .iter()
        .map(|c| T::from_row(&r.row(c)).expect("row decodes"))
        .collect()
}

fn show_create(engine: &Engine, table: &str) -> String {
    engine
        .run(format!("SHOW CREATE TABLE {table}"))
        .scalar()
        .unwrap()
        .to_string()
}

fn current_snapshot(engine: &Engine, table: &str) -> i64 {
    engine
        .run(format!(
            "SELECT snapshot_id FROM {table}.snapshots ORDER BY committed_at DESC LIMIT 1"
        ))
        .scalar_i64()
}

#[test]
fn planned_evolution_applies_to_a_live_table() {
    let Some(engine) = Engine::get_or_skip("planned_evolution_applies_to_a_live_table") else {
        return;
    };
    let spark = Dialect::Spark;
    engine.run("CREATE NAMESPACE IF NOT EXISTS evo");
    let v1 = OrderV1::table_def();
    let t = v1.name().to_string();
    engine.run(v1.create_table().build_for(spark).unwrap());
    let old = v1_rows();
    engine.run(OrderV1::insert(&old).build_for(spark).unwrap());
    let before_change = current_snapshot(engine, &t);

    // The live definition, parsed from the engine's own SHOW CREATE TABLE.
    let text = show_create(engine, &t);
    let live = parse_show_create_table(&text, spark)
        .unwrap_or_else(|e| panic!("cannot parse Spark's SHOW CREATE TABLE: {e}\n{text}"));
    assert_eq!(live.name(), v1.name());
    let cols = |d: &TableDef| -> Vec<(String, IcebergType)> {
        d.columns()
            .iter()
            .map(|c| (c.name.clone(), c.ty.clone()))
            .collect()
    };
    assert_eq!(cols(&live), cols(v1));
    assert_eq!(live.partition_spec(), v1.partition_spec());

    // The plan: rename, widen x2, add, drop; each step a legal Spark ALTER.
    let options = EvolveOptions::new().allow_drops();
    let plan = evolve_for(&live, OrderV2::table_def(), options, spark).unwrap();
    let changes: Vec<&Change> = plan.steps.iter().map(|s| &s.change).collect();
    assert!(changes.contains(&&Change::RenameColumn {
        from: "note".into(),
        to: "remark".into()
    }));
    assert!(changes.contains(&&Change::WidenColumn {
        column: "qty".into(),
        from: IcebergType::Int,
        to: IcebergType::Long
    }));
    assert!(changes.contains(&&Change::WidenColumn {
        column: "price".into(),
        from: IcebergType::Float,
        to: IcebergType::Double
    }));
    assert!(changes.contains(&&Change::AddColumns(vec![
        "discount".into(),
        "channel".into()
    ])));
    assert!(changes.contains(&&Change::DropColumn("legacy".into())));
    assert!(plan.is_breaking());
    for s in plan.statements() {
        engine.run(s);
    }

    // Old rows under the new schema: same values, new names and types, NULL in new columns.
    let d = engine.run(format!("DESCRIBE TABLE {t}"));
    let described: Vec<(&str, &str)> = d
        .rows
        .iter()
        .take_while(|r| {
            r[0].as_deref()
                .is_some_and(|n| !n.is_empty() && !n.starts_with('#'))
        })
        .map(|r| (r[0].as_deref().unwrap(), r[1].as_deref().unwrap()))
        .collect();
    assert_eq!(
        described,
        [
            ("id", "bigint"),
            ("created_at", "timestamp_ntz"),
            ("qty", "bigint"),
            ("price", "double"),
            ("remark", "string"),
            ("discount", "double"),
            ("channel", "string"),
        ]
    );
    let all = OrderV2::select()
        .order_by(OrderV2::ID, Order::Asc)
        .build_for(spark)
        .unwrap();
    let got: Vec<OrderV2> = decode(&engine.run(&all));
    let want: Vec<OrderV2> = old
        .iter()
        .map(|o| OrderV2 {
            id: o.id,
            created_at: o.created_at,
            qty: i64::from(o.qty),
            price: f64::from(o.price),
            remark: o.note.clone(),
            discount: None,
            channel: None,
        })
        .collect();
    assert_eq!(got, want);

    // New rows use the new columns, including values only the wide types can hold.
    let new = vec![OrderV2 {
        id: 100,
        created_at: ts(3, 12),
        qty: 9_000_000_000,
        price: 0.1,
        remark: None,
        discount: Some(0.5),
        channel: Some("web".into()),
    }];
    engine.run(OrderV2::insert(&new).build_for(spark).unwrap());
    let got: Vec<OrderV2> = decode(&engine.run(&all));
    assert_eq!(got, [want.clone(), new.clone()].concat());

    // Re-planning against the evolved live table finds nothing to do.
    let live2 = parse_show_create_table(&show_create(engine, &t), spark).unwrap();
    let again = evolve_for(&live2, OrderV2::table_def(), options, spark).unwrap();
    assert!(again.is_empty(), "{again}");

    // Time travel to before the change reads the old schema and the old values.
    let q = OrderV1::select()
        .order_by(OrderV1::ID, Order::Asc)
        .as_of(Snapshot::Version(before_change))
        .build_for(spark)
        .unwrap();
    let r = engine.run(&q);
    assert_eq!(
        r.columns,
        ["id", "created_at", "qty", "price", "note", "legacy"]
    );
    assert_eq!(r.types[2..4], ["int", "float"]);
    assert_eq!(decode::<OrderV1>(&r), old);

    // An illegal change is refused by the planner, listing both problems, and nothing
    // reaches the engine: the definition and the snapshot are unchanged.
    let text_before = show_create(engine, &t);
    let snap_before = current_snapshot(engine, &t);
    let err = evolve_for(&live2, OrderBad::table_def(), options, spark).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidType, "{err}");
    let all_msgs: Vec<String> = err
        .into_vec()
        .iter()
        .map(|e| e.message().to_string())
        .collect();
    assert!(all_msgs.iter().any(|m| m.contains("`qty`")), "{all_msgs:?}");
    assert!(
        all_msgs.iter().any(|m| m.contains("`price`")),
        "{all_msgs:?}"
    );
    assert_eq!(show_create(engine, &t), text_before);
    assert_eq!(current_snapshot(engine, &t), snap_before);
    // ... and the engine itself would indeed have refused the narrowing.
    let e = engine.expect_err(format!("ALTER TABLE {t} ALTER COLUMN qty TYPE int"));
    assert_eq!(e.class(), Some("NOT_SUPPORTED_CHANGE_COLUMN"), "{e}");
}

/// The Athena rendering of a plan on a mirror table: verbatim where Spark accepts it.
#[test]
fn athena_plan_runs_verbatim_except_the_rename() {
    let Some(engine) = Engine::get_or_skip("athena_plan_runs_verbatim_except_the_rename") else {
        return;
    };
    engine.run("CREATE NAMESPACE IF NOT EXISTS evo");
    let loc = |s: &str| Location::parse(&format!("s3://evo-bucket/iceberg/{s}/")).unwrap();
    let v1 = OrderV1::table_def()
        .renamed("evo", "orders_athena")
        .with_location(loc("orders_athena"));
    let v2 = OrderV2::table_def()
        .renamed("evo", "orders_athena")
        .with_location(loc("orders_athena"));
    let t = v1.name().to_string();
    engine.run(v1.create_table().build().unwrap()); // Athena DDL, verbatim
    let old = v1_rows();
    // Rows in the Spark rendering: Athena's `REAL '0.25'` float literal is not Spark
    // syntax (UNSUPPORTED_TYPED_LITERAL), pinned here.
    let athena_insert = OrderV1::insert(&old)
        .into_table(v1.name().clone())
        .build()
        .unwrap();
    let e = engine.expect_err(&athena_insert);
    assert_eq!(e.class(), Some("UNSUPPORTED_TYPED_LITERAL"), "{e}");
    engine.run(
        OrderV1::insert(&old)
            .into_table(v1.name().clone())
            .build_for(Dialect::Spark)
            .unwrap(),
    );

    // Athena's DDL cannot declare NOT NULL and the live table is the one we created:
    // plan from the definition itself.
    let plan = evolve(&v1, &v2, EvolveOptions::new().allow_drops()).unwrap();
    let mut refused = Vec::new();
    for step in &plan.steps {
        match (&step.change, engine.sql(&step.statement)) {
            (Change::RenameColumn { from, to }, Err(e)) => {
                // `CHANGE COLUMN note remark string`: Spark wants RENAME COLUMN.
                refused.push(step.statement.sql().to_string());
                assert!(e.message().contains("RENAME COLUMN"), "{e}");
                let spark = v1
                    .alter()
                    .rename_column(from, to)
                    .build_for(Dialect::Spark)
                    .unwrap();
                engine.run(&spark);
            }
            (_, Ok(_)) => {}
            (c, Err(e)) => panic!("Athena step {c} was refused verbatim: {e}"),
        }
    }
    assert_eq!(refused.len(), 1, "{refused:?}");
    let d = engine.run(format!("DESCRIBE TABLE {t}"));
    let described: Vec<(&str, &str)> = d
        .rows
        .iter()
        .take_while(|r| {
            r[0].as_deref()
                .is_some_and(|n| !n.is_empty() && !n.starts_with('#'))
        })
        .map(|r| (r[0].as_deref().unwrap(), r[1].as_deref().unwrap()))
        .collect();
    assert_eq!(
        described,
        [
            ("id", "bigint"),
            ("created_at", "timestamp"),
            ("qty", "bigint"),
            ("price", "double"),
            ("remark", "string"),
            ("discount", "double"),
            ("channel", "string"),
        ]
    );
    let r = engine.run(format!(
        "SELECT id, qty, price, remark, discount, channel FROM {t} ORDER BY id"
    ));
    for (row, o) in r.rows.iter().zip(&old) {
        assert_eq!(
            row,
            &vec![
                Some(o.id.to_string()),
                Some(o.qty.to_string()),
                Some(f64::from(o.price).to_string()),
                o.note.clone(),
                None,
                None
            ]
        );
    }
}

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "evo",
    name = "bucketed",
    location = "s3://evo-bucket/iceberg/bucketed/",
    partition(day(ts), bucket(16, user_id))
)]
pub struct Bucketed {
    pub user_id: String,
    pub ts: NaiveDateTime,
}

/// Spark prints `bucket(16, user_id)` in SHOW CREATE TABLE as `CLUSTERED BY (user_id)
/// INTO 16 BUCKETS`; the parsed live definition must keep the bucket field, or `evolve`
/// (Spark) would plan an `ADD PARTITION FIELD` the table already has.
#[test]
fn spark_show_create_table_keeps_the_bucket_partition_field() {
    let Some(engine) =
        Engine::get_or_skip("spark_show_create_table_keeps_the_bucket_partition_field")
    else {
        return;
    };
    engine.run("CREATE NAMESPACE IF NOT EXISTS evo");
    let def = Bucketed::table_def();
    engine.run(def.create_table().build_for(Dialect::Spark).unwrap());
    let text = show_create(engine, &def.name().to_string());
    assert!(text.contains("INTO 16 BUCKETS"), "{text}");
    let live = parse_show_create_table(&text, Dialect::Spark).unwrap();
    assert_eq!(live.partition_spec(), def.partition_spec(), "{text}");
    let plan = evolve_for(&live, def, EvolveOptions::new(), Dialect::Spark).unwrap();
    assert!(plan.is_empty(), "{plan}");
}

#[derive(IcebergTable, Debug, Clone, PartialEq, PartialOrd)]
#[iceberg(
    database = "evo",
    name = "events_pe",
    location = "s3://evo-bucket/iceberg/events_pe/",
    partition(day(ts))
)]
pub struct EventPe {
    pub id: i64,
    pub ts: NaiveDateTime,
}

/// Partition evolution on Spark (Iceberg's SQL extensions): `ADD`, `REPLACE` and `DROP
/// PARTITION FIELD` as the crate builds them, with rows written under each spec. Every
/// row reads back; the data files carry four specs; the engine's own `SHOW CREATE TABLE`
/// shows the last spec, which the crate reads back as the definition's.
#[test]
fn spark_partition_evolution_adds_replaces_and_drops_fields() {
    let Some(engine) =
        Engine::get_or_skip("spark_partition_evolution_adds_replaces_and_drops_fields")
    else {
        return;
    };
    let spark = Dialect::Spark;
    engine.run("CREATE NAMESPACE IF NOT EXISTS evo");
    let mut def = EventPe::table_def().clone();
    let t = def.name().to_string();
    engine.run(format!("DROP TABLE IF EXISTS {t}"));
    engine.run(def.create_table().build_for(spark).unwrap());
    let day = PartitionField::new("ts", PartitionTransform::Day);
    let hour = PartitionField::new("ts", PartitionTransform::Hour);
    let bucket = PartitionField::new("id", PartitionTransform::Bucket(4));

    let mut model = Vec::new();
    let mut write = |engine: &Engine, from: i64| {
        let rows: Vec<EventPe> = (from..from + 5)
            .map(|i| EventPe {
                id: i,
                ts: ts(1 + (i % 3) as u32, (i % 24) as u32),
            })
            .collect();
        engine.run(EventPe::insert(&rows).build_for(spark).unwrap());
        model.extend(rows);
    };
    write(engine, 0);
    let steps = [
        def.alter().add_partition_field(bucket.clone()),
        def.alter()
            .replace_partition_field(day.clone(), hour.clone()),
    ];
    let mut sqls = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let s = step.build_for(spark).unwrap();
        sqls.push(s.sql().to_string());
        engine.run(&s);
        write(engine, 10 * (i as i64 + 1));
    }
    // The spec after both, for the last step's checks.
    def = TableDef::builder("evo", "events_pe")
        .column(Column::new("id", IcebergType::Long).required())
        .column(Column::new("ts", IcebergType::Timestamp).required())
        .partition(hour.clone())
        .partition(bucket.clone())
        .location("s3://evo-bucket/iceberg/events_pe/")
        .build()
        .unwrap();
    let drop = def
        .alter()
        .drop_partition_field(bucket.clone())
        .build_for(spark)
        .unwrap();
    sqls.push(drop.sql().to_string());
    engine.run(&drop);
    write(engine, 30);
    assert_eq!(
        sqls,
        [
            "ALTER TABLE evo.events_pe ADD PARTITION FIELD bucket(4, id)",
            "ALTER TABLE evo.events_pe REPLACE PARTITION FIELD days(ts) WITH hours(ts)",
            "ALTER TABLE evo.events_pe DROP PARTITION FIELD bucket(4, id)",
        ]
    );

    let read = EventPe::select()
        .order_by(EventPe::ID, Order::Asc)
        .build_for(spark)
        .unwrap();
    assert_eq!(decode::<EventPe>(&engine.run(&read)), model);
    let specs = engine.run(format!(
        "SELECT DISTINCT spec_id FROM {t}.files ORDER BY spec_id"
    ));
    assert_eq!(
        specs.column("spec_id"),
        [Some("0"), Some("1"), Some("2"), Some("3")]
    );
    let text = show_create(engine, &t);
    let live = parse_show_create_table(&text, spark).unwrap();
    assert_eq!(live.partition_spec(), [hour], "{text}");
}
