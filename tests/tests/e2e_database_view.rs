//! End-to-end: the database and view statements (CREATE/DROP DATABASE, SHOW TABLES,
//! DESCRIBE, CREATE/DROP VIEW) built for Spark run on the engine and do what they say:
//! the database exists (once), its tables are listed and filtered, DESCRIBE lists the
//! columns, a view returns its query's rows with the query's column types, and a
//! database with tables is dropped only after them. Spark's `DROP DATABASE … CASCADE`
//! is shown to keep the tables (the reason the builder refuses CASCADE for Spark).

use iceberg_sql::dsl::count_all;
use iceberg_sql::prelude::*;
use iceberg_sql::query::Order;
use iceberg_sql_tests::engine::Engine;

const SPARK: Dialect = Dialect::Spark;

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "e2e_dbview",
    name = "events",
    location = "s3://dbview-bucket/iceberg/events/"
)]
pub struct Event {
    pub id: i64,
    pub tool_name: String,
    pub tags: Vec<String>,
}

fn events() -> Vec<Event> {
    let e = |id, tool: &str, tags: &[&str]| Event {
        id,
        tool_name: tool.into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
    };
    vec![
        e(1, "query_data", &["a"]),
        e(2, "query_data", &[]),
        e(3, "list_tables", &["b", "c"]),
    ]
}

fn names(engine: &Engine, show: &Statement) -> Vec<String> {
    let r = engine.run(show);
    let i = r
        .column_index("tableName")
        .expect("Spark's SHOW TABLES column");
    let mut v: Vec<String> = r.rows.iter().filter_map(|row| row[i].clone()).collect();
    v.sort();
    v
}

#[test]
fn database_and_view_statements_run_on_the_engine() {
    let Some(engine) = Engine::get_or_skip("database_and_view_statements_run_on_the_engine") else {
        return;
    };
    let db = DatabaseName::new("e2e_dbview");
    // A database left by an earlier run of this binary's engine (none in a fresh one).
    let _ = engine.sql(format!(
        "DROP TABLE IF EXISTS {} PURGE",
        Event::table_def().name()
    ));
    engine.run(db.drop_database().if_exists().build_for(SPARK).unwrap());

    // CREATE DATABASE: once; IF NOT EXISTS makes a second one a no-op.
    let create = db
        .create_database()
        .comment("end-to-end database")
        .location("s3://dbview-bucket/iceberg/");
    engine.run(create.build_for(SPARK).unwrap());
    let again = engine
        .sql(create.build_for(SPARK).unwrap())
        .expect_err("a second CREATE DATABASE without IF NOT EXISTS fails");
    assert!(again.to_string().contains("already exists"), "{again}");
    engine.run(create.if_not_exists().build_for(SPARK).unwrap());
    let described = engine.run(format!("DESCRIBE NAMESPACE EXTENDED {db}"));
    let text = format!("{:?}", described.rows);
    assert!(text.contains("end-to-end database"), "{text}");
    assert!(text.contains("s3://dbview-bucket/iceberg"), "{text}");

    // A table in it, with rows.
    engine.run(Event::table_def().create_table().build_for(SPARK).unwrap());
    let rows = events();
    for b in Event::insert(&rows).batches_for(SPARK).unwrap() {
        engine.run(b);
    }

    // SHOW TABLES, with and without a pattern.
    let show = |pattern: Option<&str>| {
        let s = db.show_tables();
        match pattern {
            Some(p) => s.like(p).build_for(SPARK).unwrap(),
            None => s.build_for(SPARK).unwrap(),
        }
    };
    assert_eq!(names(engine, &show(None)), ["events"]);
    assert_eq!(names(engine, &show(Some("ev*"))), ["events"]);
    assert_eq!(names(engine, &show(Some("audit_*|events"))), ["events"]);
    assert!(names(engine, &show(Some("zz*"))).is_empty());

    // DESCRIBE lists the columns with their types.
    let d = engine.run(
        Event::table_def()
            .name()
            .describe()
            .build_for(SPARK)
            .unwrap(),
    );
    let cols: Vec<(Option<&str>, Option<&str>)> = d
        .rows
        .iter()
        .take(3)
        .map(|r| (r[0].as_deref(), r[1].as_deref()))
        .collect();
    assert_eq!(
        cols,
        [
            (Some("id"), Some("bigint")),
            (Some("tool_name"), Some("string")),
            (Some("tags"), Some("array<string>")),
        ]
    );
    let formatted = engine.run(
        Event::table_def()
            .name()
            .describe()
            .formatted()
            .build_for(SPARK)
            .unwrap(),
    );
    assert!(
        format!("{:?}", formatted.rows).contains("s3://dbview-bucket/iceberg/events"),
        "{formatted:?}"
    );

    // A view over an aggregate returns the query's rows; OR REPLACE changes it.
    let view = TableName::new("e2e_dbview", "calls_per_tool");
    let per_tool = Event::select()
        .column(Event::TOOL_NAME)
        .expr_as(count_all(), "calls")
        .group_by(Event::TOOL_NAME);
    engine.run(view.create_view(&per_tool).build_for(SPARK).unwrap());
    let read = format!("SELECT tool_name, calls FROM {view} ORDER BY tool_name");
    assert_eq!(
        engine.run(&read).rows_str(),
        [
            [Some("list_tables"), Some("1")],
            [Some("query_data"), Some("2")]
        ]
    );
    let only_query_data = per_tool.filter(Event::TOOL_NAME.eq("query_data"));
    let err = engine
        .sql(view.create_view(&only_query_data).build_for(SPARK).unwrap())
        .expect_err("CREATE VIEW on an existing view fails without OR REPLACE");
    assert!(err.to_string().contains("already exists"), "{err}");
    engine.run(
        view.create_view(&only_query_data)
            .or_replace()
            .build_for(SPARK)
            .unwrap(),
    );
    assert_eq!(
        engine.run(&read).rows_str(),
        [[Some("query_data"), Some("2")]]
    );

    // A view of the whole table keeps the nested column's type (no JSON text).
    let whole = TableName::new("e2e_dbview", "events_v");
    engine.run(
        whole
            .create_view(&Event::select())
            .build_for(SPARK)
            .unwrap(),
    );
    let r = engine.run(format!("SELECT * FROM {whole} ORDER BY id"));
    assert_eq!(r.types, ["bigint", "string", "array<string>"]);
    let by_view: Vec<Event> = r
        .result_rows()
        .iter()
        .map(|row| Event::from_row(row).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(by_view, rows);
    let ordered = Event::select().order_by(Event::ID, Order::Desc).limit(1);
    let latest = TableName::new("e2e_dbview", "latest_event");
    engine.run(latest.create_view(&ordered).build_for(SPARK).unwrap());
    assert_eq!(
        engine.run(format!("SELECT id FROM {latest}")).scalar(),
        Some("3")
    );

    // DROP VIEW, then IF EXISTS on a missing view.
    for v in [&view, &whole, &latest] {
        engine.run(v.drop_view().build_for(SPARK).unwrap());
    }
    assert!(engine
        .sql(view.drop_view().build_for(SPARK).unwrap())
        .is_err());
    engine.run(view.drop_view().if_exists().build_for(SPARK).unwrap());

    // A database with a table is not dropped without CASCADE, and Spark's CASCADE
    // (hand-written: the builder refuses it for Spark) keeps the table and its rows.
    assert!(engine
        .sql(db.drop_database().build_for(SPARK).unwrap())
        .is_err());
    let _ = engine.sql(format!("DROP DATABASE {db} CASCADE"));
    assert_eq!(
        engine
            .run(format!(
                "SELECT count(*) FROM {}",
                Event::table_def().name()
            ))
            .scalar(),
        Some("3"),
        "Spark's DROP DATABASE ... CASCADE left the table and its data"
    );
    assert!(db.drop_database().cascade().build_for(SPARK).is_err());

    // Tables first (PURGE on Spark), then the database.
    engine.run(
        Event::table_def()
            .name()
            .drop_table()
            .build_for(SPARK)
            .unwrap(),
    );
    engine.run(db.drop_database().build_for(SPARK).unwrap());
    engine.run(db.drop_database().if_exists().build_for(SPARK).unwrap());
    assert!(engine
        .sql(db.show_tables().build_for(SPARK).unwrap())
        .is_err());
}
