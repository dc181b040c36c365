//! The Trino target's text (`build_for(Dialect::Trino)`) on Trino 476 with Iceberg:
//! CREATE TABLE with partitioning strings on words the SQL grammar reserves (`date`,
//! `trim`), columns named with Trino's non-reserved words (`offset`, `view`,
//! `returning`), INSERT, a CTAS that keeps a `timestamp(6) with time zone` column,
//! UPDATE, DELETE, MERGE with a de-duplicated source, `ALTER TABLE … EXECUTE optimize`,
//! partition evolution (`SET PROPERTIES partitioning = ARRAY[…]`), DROP TABLE; column
//! widening, views and snapshot expiry; each effect read back. Trino's own verdict on a
//! window ordered by a map, which the crate refuses for `dedup_source`, is checked raw.
//! A schema change checked against the views over the table: views read back from
//! `information_schema.views`, the ones a rename and a drop break flagged (and broken on
//! Trino), the proposed rewrites keeping the views' rows after the rename (one over
//! `SELECT *`, written out). A table built from an Arrow schema, loaded from record
//! batches and read back as one; one evolved with its changing Arrow schema (a new
//! field, two widenings), the incompatible changes refused.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use iceberg_sql::ctas::IcebergCtas;
use iceberg_sql::dml::MergeSource;
use iceberg_sql::evolve::{evolve_for, Change, EvolveOptions, Reader};
use iceberg_sql::prelude::*;
use iceberg_sql_tests::trino::Trino;

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "trino_target",
    name = "words",
    location = "s3://trino-target/iceberg/words/",
    partition(date, truncate(4, trim))
)]
pub struct Words {
    pub id: i64,
    pub offset: i64,
    pub view: String,
    pub returning: Option<String>,
    pub date: NaiveDate,
    pub trim: String,
    pub attrs: BTreeMap<String, String>,
    pub seen_at: DateTime<Utc>,
}

/// A table with a `timestamp with time zone` column, which the Trino target declares
/// (the derive, for Athena, does not).
#[derive(Debug)]
struct Seen;
impl Seen {
    const ID: Col<Seen, i64> = Col::new("id");
    const SEEN_AT: Col<Seen, DateTime<Utc>> = Col::new("seen_at");
}
impl IcebergTable for Seen {
    fn table_def() -> &'static TableDef {
        static T: std::sync::OnceLock<TableDef> = std::sync::OnceLock::new();
        T.get_or_init(|| {
            TableDef::builder("trino_target", "seen")
                .column(Column::new("id", IcebergType::Long))
                .column(Column::new("seen_at", IcebergType::TimestampTz))
                .location("s3://trino-target/iceberg/seen/")
                .build()
                .expect("a valid table")
        })
    }
    fn to_values(&self) -> Vec<Value> {
        vec![]
    }
}

fn row(i: i64) -> Words {
    let day = NaiveDate::from_ymd_opt(2024, 1, 1 + (i % 3) as u32).unwrap();
    Words {
        id: i,
        offset: i * 10,
        view: format!("v{i}"),
        returning: (i % 2 == 0).then(|| format!("r{i}")),
        date: day,
        trim: format!("trim{i}"),
        attrs: BTreeMap::from([(format!("k{i}"), format!("a{i}"))]),
        seen_at: day.and_hms_opt(12, 0, i as u32).unwrap().and_utc(),
    }
}

fn ids_and_views(trino: &Trino) -> Vec<(i64, String)> {
    let q = Words::select()
        .column(Words::ID)
        .column(Words::VIEW)
        .order_by(Words::ID, iceberg_sql::query::Order::Asc)
        .build_for(Dialect::Trino)
        .unwrap();
    trino
        .run(&q)
        .rows
        .into_iter()
        .map(|r| {
            (
                r[0].as_deref().unwrap().parse().unwrap(),
                r[1].clone().unwrap(),
            )
        })
        .collect()
}

#[test]
fn trino_target_statements_run_on_trino() {
    let Some(trino) = Trino::get_or_skip("trino_target_statements_run_on_trino") else {
        return;
    };
    trino.ensure_bucket("trino-target");
    trino.ensure_schema("trino_target");
    let def = Words::table_def();
    trino.run("DROP TABLE IF EXISTS trino_target.words_copy");
    trino.run("DROP TABLE IF EXISTS trino_target.seen");
    trino.run(format!("DROP TABLE IF EXISTS {}", def.name()));

    // CREATE TABLE: the partitioning strings name `date` and `trim` bare.
    let create = def.create_table().build_for(Dialect::Trino).unwrap();
    assert!(
        create
            .sql()
            .contains("partitioning = ARRAY['date', 'truncate(trim, 4)']"),
        "{create}"
    );
    trino.run(&create);
    let shown = trino.run(format!("SHOW CREATE TABLE {}", def.name()));
    let shown = shown.scalar().unwrap();
    assert!(
        shown.contains("partitioning = ARRAY['date','truncate(trim, 4)']"),
        "{shown}"
    );

    // INSERT, read back.
    let rows: Vec<Words> = (1..=6).map(row).collect();
    trino.run(Words::insert(&rows).build_for(Dialect::Trino).unwrap());
    let expected: Vec<(i64, String)> = rows.iter().map(|r| (r.id, r.view.clone())).collect();
    assert_eq!(ids_and_views(trino), expected);
    let offsets = trino.run(
        Words::select()
            .column(Words::OFFSET)
            .filter(Words::RETURNING.eq("r4"))
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    assert_eq!(offsets.scalar_i64(), 40);

    // CTAS keeps `timestamp(6) with time zone`.
    trino.run("DROP TABLE IF EXISTS trino_target.seen");
    trino.run(
        Seen::table_def()
            .create_table()
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    trino.run(
        "INSERT INTO trino_target.seen VALUES (1, TIMESTAMP '2024-01-02 12:00:01 UTC'), \
         (2, TIMESTAMP '2024-01-02 14:00:01 +02:00')",
    );
    let q = Seen::select().column(Seen::ID).column(Seen::SEEN_AT);
    let ctas = IcebergCtas::new(TableName::new("trino_target", "words_copy"), &q)
        .location("s3://trino-target/iceberg/words_copy/")
        .build_for(Dialect::Trino)
        .unwrap();
    trino.run(&ctas);
    let ty = trino.run(
        "SELECT data_type FROM information_schema.columns \
         WHERE table_schema = 'trino_target' AND table_name = 'words_copy' AND column_name = 'seen_at'",
    );
    assert_eq!(ty.scalar(), Some("timestamp(6) with time zone"));
    let copied = trino.run("SELECT count(*) FROM trino_target.words_copy WHERE seen_at = TIMESTAMP '2024-01-02 12:00:01 UTC'");
    assert_eq!(copied.scalar_i64(), 2);

    // UPDATE and DELETE.
    trino.run(
        Words::update()
            .set(Words::VIEW, "changed")
            .filter(Words::OFFSET.eq(20))
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    trino.run(
        Words::delete()
            .filter(Words::ID.eq(6))
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    let mut model = expected.clone();
    model[1].1 = "changed".into();
    model.pop();
    assert_eq!(ids_and_views(trino), model);

    // MERGE with a de-duplicated source: of two source rows for id 1, the later date wins.
    let mut a = row(1);
    a.view = "older".into();
    a.date = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
    let mut b = row(1);
    b.view = "newer".into();
    b.date = NaiveDate::from_ymd_opt(2024, 1, 3).unwrap();
    let mut c = row(7);
    c.view = "inserted".into();
    let src = [a, b, c];
    trino.run(
        Words::merge_from(MergeSource::rows(&src))
            .on_key(Words::ID)
            .dedup_source(Words::DATE)
            .when_matched()
            .update_all()
            .when_not_matched()
            .insert_all()
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    model[0].1 = "newer".into();
    model.push((7, "inserted".into()));
    assert_eq!(ids_and_views(trino), model);

    // A window ordered by a map: Trino refuses it, and so does the crate.
    let e = trino.expect_err(format!(
        "SELECT row_number() OVER (PARTITION BY id ORDER BY attrs DESC) FROM {}",
        def.name()
    ));
    assert_eq!(e.name(), Some("TYPE_MISMATCH"), "{e}");
    assert!(e.message().contains("is not orderable"), "{}", e.message());
    let refused = Words::merge_from(MergeSource::rows(&src))
        .on_key(Words::ID)
        .dedup_source(Words::ATTRS)
        .when_matched()
        .update_all()
        .build_for(Dialect::Trino)
        .unwrap_err();
    assert!(refused.message().contains("is not orderable"), "{refused}");

    // ALTER TABLE … EXECUTE optimize keeps the rows.
    let optimize = def.optimize().build_for(Dialect::Trino).unwrap();
    assert!(optimize.sql().contains("EXECUTE optimize"), "{optimize}");
    trino.run(&optimize);
    assert_eq!(ids_and_views(trino), model);

    // Partition evolution: the new spec, in Trino's partitioning strings.
    let added = PartitionField::new("offset", PartitionTransform::Bucket(2));
    trino.run(
        def.alter()
            .add_partition_field(added)
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    let shown = trino.run(format!("SHOW CREATE TABLE {}", def.name()));
    let shown = shown.scalar().unwrap();
    assert!(
        shown.contains("partitioning = ARRAY['date','truncate(trim, 4)','bucket(offset, 2)']"),
        "{shown}"
    );
    // The new spec is computed from the `TableDef` given, the live table's definition:
    // dropping `date` from `def` (which has no `bucket(offset, 2)`) writes the rest.
    trino.run(
        def.alter()
            .drop_partition_field(PartitionField::identity("date"))
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    let shown = trino.run(format!("SHOW CREATE TABLE {}", def.name()));
    let shown = shown.scalar().unwrap();
    assert!(
        shown.contains("partitioning = ARRAY['truncate(trim, 4)']"),
        "{shown}"
    );
    assert_eq!(ids_and_views(trino), model);

    // DROP TABLE.
    trino.run(def.name().drop_table().build_for(Dialect::Trino).unwrap());
    let left = trino.run(
        "SELECT count(*) FROM information_schema.tables \
         WHERE table_schema = 'trino_target' AND table_name = 'words'",
    );
    assert_eq!(left.scalar_i64(), 0);
}

#[test]
fn views_flagged_by_a_plan_and_kept_by_its_rewrite_on_trino() {
    let Some(trino) =
        Trino::get_or_skip("views_flagged_by_a_plan_and_kept_by_its_rewrite_on_trino")
    else {
        return;
    };
    trino.ensure_bucket("trino-target");
    let db = trino.schema("readers");
    let live = TableDef::builder(db.as_str(), "events")
        .column(Column::new("id", IcebergType::Long))
        .column(Column::new("payload", IcebergType::String))
        .column(Column::new("latency_ms", IcebergType::Long))
        .location(format!("s3://trino-target/iceberg/{db}/events/").as_str())
        .build()
        .unwrap();
    let desired = TableDef::builder(db.as_str(), "events")
        .column(Column::new("id", IcebergType::Long))
        .column(Column::new("tool_payload", IcebergType::String).renamed_from("payload"))
        .location(format!("s3://trino-target/iceberg/{db}/events/").as_str())
        .build()
        .unwrap();
    trino.run(live.create_table().build_for(Dialect::Trino).unwrap());
    trino.run(format!(
        "INSERT INTO {db}.events VALUES (1, 'a', 10), (2, '', 20), (3, 'c', 3000)"
    ));
    trino.run(format!(
        "CREATE VIEW {db}.payloads AS SELECT id, payload FROM {db}.events WHERE payload <> ''"
    ));
    trino.run(format!(
        "CREATE VIEW {db}.slow AS SELECT id FROM {db}.events e WHERE e.latency_ms > 1000"
    ));
    trino.run(format!(
        "CREATE VIEW {db}.everything AS SELECT * FROM {db}.events"
    ));
    let everything_before = trino.run(format!("SELECT * FROM {db}.everything ORDER BY id"));
    assert_eq!(everything_before.columns, ["id", "payload", "latency_ms"]);
    let before = trino.run(format!("SELECT * FROM {db}.payloads ORDER BY id"));
    assert_eq!(before.columns, ["id", "payload"]);
    assert_eq!(
        before.rows_str(),
        [[Some("1"), Some("a")], [Some("3"), Some("c")]]
    );

    // The views as the catalog lists them, read by the crate's statement.
    let listed = trino.run(
        DatabaseName::new(db.as_str())
            .list_views()
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    let readers: Vec<Reader> = listed
        .rows_str()
        .iter()
        .map(|r| Reader::view(TableName::new(db.as_str(), r[0].unwrap()), r[1].unwrap()).unwrap())
        .collect();
    assert_eq!(readers.len(), 3);

    let plan = evolve_for(
        &live,
        &desired,
        EvolveOptions::new().allow_drops(),
        Dialect::Trino,
    )
    .unwrap()
    .check_readers(&live, &readers)
    .unwrap();
    let report: Vec<(String, Vec<String>)> = plan
        .steps
        .iter()
        .map(|s| {
            (
                s.statement.sql().to_string(),
                s.readers.iter().map(|b| b.to_string()).collect(),
            )
        })
        .collect();
    let payloads = format!("{db}.payloads");
    let slow = format!("{db}.slow");
    let everything = format!("{db}.everything");
    assert_eq!(
        report,
        [
            (
                format!("ALTER TABLE {db}.events RENAME COLUMN payload TO tool_payload"),
                vec![
                    format!(
                        "{everything} reads through SELECT * into a fixed column list \
                         (column payload)"
                    ),
                    format!("{payloads} selects payload"),
                    format!("{payloads} filters on payload"),
                ]
            ),
            (
                format!(
                    "CREATE OR REPLACE VIEW {everything} AS\nSELECT id, tool_payload AS payload, latency_ms\n\
                     FROM\n  {db}.events"
                ),
                vec![]
            ),
            (
                // Trino keeps a view's query as its formatter writes it.
                format!(
                    "CREATE OR REPLACE VIEW {payloads} AS\nSELECT\n  id\n, tool_payload AS payload\n\
                     FROM\n  {db}.events\nWHERE (tool_payload <> '')"
                ),
                vec![]
            ),
            (
                format!("ALTER TABLE {db}.events DROP COLUMN latency_ms"),
                vec![
                    format!("{everything} selects latency_ms"),
                    format!("{slow} filters on latency_ms"),
                ]
            ),
        ]
    );
    assert!(matches!(plan.steps[1].change, Change::ReplaceView { .. }));
    assert!(matches!(plan.steps[2].change, Change::ReplaceView { .. }));

    // The rewrite cannot run before the rename: Trino checks a view's query when it is
    // created, and the new name does not exist yet.
    let early = trino.expect_err(&plan.steps[2].statement);
    assert_eq!(early.name(), Some("COLUMN_NOT_FOUND"), "{early}");

    // The rename breaks both flagged views; the rewrites after it keep their rows.
    trino.run(&plan.steps[0].statement);
    let broken = trino.expect_err(format!("SELECT * FROM {payloads}"));
    assert!(broken.message().contains("payload"), "{broken}");
    let stale = trino.expect_err(format!("SELECT * FROM {everything}"));
    assert!(stale.message().contains("stale"), "{stale}");
    trino.run(&plan.steps[1].statement);
    trino.run(&plan.steps[2].statement);
    let after = trino.run(format!("SELECT * FROM {payloads} ORDER BY id"));
    assert_eq!(after.columns, before.columns);
    assert_eq!(after.rows_str(), before.rows_str());
    let everything_after = trino.run(format!("SELECT * FROM {everything} ORDER BY id"));
    assert_eq!(everything_after.columns, everything_before.columns);
    assert_eq!(everything_after.rows_str(), everything_before.rows_str());

    // The drop breaks the view that filters on the dropped column.
    assert_eq!(
        trino.run(format!("SELECT * FROM {slow}")).rows_str(),
        [[Some("3")]]
    );
    trino.run(&plan.steps[3].statement);
    let dropped = trino.expect_err(format!("SELECT * FROM {slow}"));
    assert!(dropped.message().contains("latency_ms"), "{dropped}");
}

/// A table whose column types widen.
#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "trino_target",
    name = "evolve",
    location = "s3://trino-target/iceberg/evolve/"
)]
pub struct Evolve {
    pub id: i64,
    pub n: i32,
    pub f: f32,
    #[iceberg(type = "decimal(10, 2)")]
    pub amount: iceberg_sql::Decimal,
}

fn column_type(trino: &Trino, table: &str, column: &str) -> String {
    trino
        .run(format!(
            "SELECT data_type FROM information_schema.columns WHERE table_schema = \
             'trino_target' AND table_name = '{table}' AND column_name = '{column}'"
        ))
        .scalar()
        .unwrap_or_default()
        .to_string()
}

fn snapshot_count(trino: &Trino) -> i64 {
    trino
        .run("SELECT count(*) FROM trino_target.\"evolve$snapshots\"")
        .scalar_i64()
}

/// The Trino target's column widening (`ALTER TABLE … ALTER COLUMN … SET DATA TYPE`),
/// views (`CREATE VIEW`, `CREATE OR REPLACE VIEW`, `DROP VIEW`) and upkeep (`ALTER TABLE
/// … EXECUTE optimize`, `… EXECUTE expire_snapshots(retention_threshold => …)`) on
/// Trino, each effect read back: the column types from `information_schema.columns`,
/// the rows, the view's rows, the snapshots from `"evolve$snapshots"`.
#[test]
fn trino_target_widening_views_and_upkeep_on_trino() {
    let Some(trino) = Trino::get_or_skip("trino_target_widening_views_and_upkeep_on_trino") else {
        return;
    };
    use iceberg_sql::maintenance::VacuumRetention;
    use iceberg_sql::Decimal;
    trino.ensure_bucket("trino-target");
    trino.ensure_schema("trino_target");
    let def = Evolve::table_def();
    trino.run("DROP VIEW IF EXISTS trino_target.evolve_big");
    trino.run(format!("DROP TABLE IF EXISTS {}", def.name()));
    trino.run(def.create_table().build_for(Dialect::Trino).unwrap());
    let rows: Vec<Evolve> = (1..=3)
        .map(|i| Evolve {
            id: i,
            n: i32::MAX - i as i32,
            f: 1.5 * i as f32,
            amount: Decimal::parse(&format!("{i}1234567.89")).unwrap(),
        })
        .collect();
    // Three commits: three snapshots for the upkeep below.
    for r in &rows {
        trino.run(
            Evolve::insert(std::slice::from_ref(r))
                .build_for(Dialect::Trino)
                .unwrap(),
        );
    }

    // Widening: int to bigint, real to double, decimal(10,2) to decimal(12,2).
    for (column, to, shown) in [
        ("n", IcebergType::Long, "bigint"),
        ("f", IcebergType::Double, "double"),
        ("amount", IcebergType::decimal(12, 2), "decimal(12,2)"),
    ] {
        let st = def
            .alter()
            .widen_column(column, to)
            .build_for(Dialect::Trino)
            .unwrap();
        assert!(
            st.sql()
                .contains(&format!("ALTER COLUMN {column} SET DATA TYPE")),
            "{st}"
        );
        trino.run(&st);
        assert_eq!(column_type(trino, "evolve", column), shown, "{st}");
    }
    let read = trino.run(
        "SELECT id, n, CAST(f * 10 AS bigint), CAST(amount AS varchar) \
         FROM trino_target.evolve ORDER BY id",
    );
    let want: Vec<Vec<Option<String>>> = rows
        .iter()
        .map(|r| {
            vec![
                Some(r.id.to_string()),
                Some(r.n.to_string()),
                Some(((r.f * 10.0) as i64).to_string()),
                Some(r.amount.to_string()),
            ]
        })
        .collect();
    assert_eq!(read.rows, want);

    // Views: CREATE, read, CREATE OR REPLACE with another query, DROP.
    let view = TableName::new("trino_target", "evolve_big");
    let big = Evolve::select().column(Evolve::ID).filter(Evolve::ID.ge(2));
    trino.run(view.create_view(&big).build_for(Dialect::Trino).unwrap());
    let ids = |sql: &str| -> Vec<String> {
        trino
            .run(sql)
            .rows
            .iter()
            .map(|r| r[0].clone().unwrap_or_default())
            .collect()
    };
    assert_eq!(
        ids("SELECT id FROM trino_target.evolve_big ORDER BY id"),
        ["2", "3"]
    );
    let small = Evolve::select().column(Evolve::ID).filter(Evolve::ID.lt(2));
    trino.run(
        view.create_view(&small)
            .or_replace()
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    assert_eq!(
        ids("SELECT id FROM trino_target.evolve_big ORDER BY id"),
        ["1"]
    );
    trino.run(view.drop_view().build_for(Dialect::Trino).unwrap());
    trino.run(
        view.drop_view()
            .if_exists()
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    let left = trino.run(
        "SELECT count(*) FROM information_schema.views \
         WHERE table_schema = 'trino_target' AND table_name = 'evolve_big'",
    );
    assert_eq!(left.scalar_i64(), 0);

    // Upkeep: optimize keeps the rows (and commits a snapshot when it rewrites files);
    // expire_snapshots with a zero retention leaves the current snapshot only.
    let before = snapshot_count(trino);
    assert!(before >= 4, "{before} snapshots");
    trino.run(def.optimize().build_for(Dialect::Trino).unwrap());
    assert_eq!(
        ids("SELECT id FROM trino_target.evolve ORDER BY id"),
        ["1", "2", "3"]
    );
    // The default retention (Trino's 7 days) expires none of today's snapshots.
    let after_optimize = snapshot_count(trino);
    trino.run(def.vacuum().build_for(Dialect::Trino).unwrap());
    assert_eq!(snapshot_count(trino), after_optimize);
    let expire = def
        .vacuum()
        .retention(VacuumRetention::seconds(0))
        .build_for(Dialect::Trino)
        .unwrap();
    assert!(
        expire
            .sql()
            .ends_with("EXECUTE expire_snapshots(retention_threshold => '0s')"),
        "{expire}"
    );
    trino.run(&expire);
    assert_eq!(snapshot_count(trino), 1);
    assert_eq!(
        ids("SELECT id FROM trino_target.evolve ORDER BY id"),
        ["1", "2", "3"]
    );
    trino.run(def.name().drop_table().build_for(Dialect::Trino).unwrap());
}

/// A table from data: an Arrow schema (no Rust record type) becomes a `TableDef`, its
/// Trino-target `CREATE TABLE` runs, record batches built by hand (a `LargeUtf8` key,
/// NULLs, a list and a struct) are written with the Trino target's `INSERT`s, and the
/// table read back as a record batch holds the same rows, value for value.
#[test]
fn a_table_built_from_an_arrow_schema_on_trino() {
    use std::sync::Arc;

    use arrow_array::builder::{Int32Builder, ListBuilder, StringBuilder};
    use arrow_array::{
        ArrayRef, Date32Array, Decimal128Array, Int64Array, LargeStringArray, RecordBatch,
        StructArray, TimestampMicrosecondArray,
    };
    use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};
    use iceberg_sql::dml::ValuesInsert;

    let Some(trino) = Trino::get_or_skip("a_table_built_from_an_arrow_schema_on_trino") else {
        return;
    };
    trino.ensure_bucket("trino-target");
    trino.ensure_schema("trino_target");
    let attrs = Fields::from(vec![
        Field::new("key", DataType::Utf8, true),
        Field::new("weight", DataType::Int32, true),
    ]);
    let schema = Arc::new(Schema::new(vec![
        Field::new("event_id", DataType::LargeUtf8, false),
        Field::new("n", DataType::Int64, true),
        Field::new("amount", DataType::Decimal128(12, 2), true),
        Field::new(
            "ts",
            DataType::Timestamp(TimeUnit::Microsecond, None),
            false,
        ),
        Field::new("day", DataType::Date32, true),
        Field::new(
            "tags",
            DataType::List(Arc::new(Field::new("element", DataType::Utf8, true))),
            true,
        ),
        Field::new("attrs", DataType::Struct(attrs.clone()), true),
    ]));
    let table = iceberg_sql::arrow::table_builder("trino_target", "from_arrow", &schema)
        .unwrap()
        .partition(PartitionField::new("ts", PartitionTransform::Day))
        .location("s3://trino-target/iceberg/from_arrow/")
        .build()
        .unwrap();
    trino.run(format!("DROP TABLE IF EXISTS {}", table.name()));
    trino.run(table.create_table().build_for(Dialect::Trino).unwrap());

    // Two batches: ids e-0..e-2 and e-3..e-4; every third row's nullable fields NULL.
    let batch = |ids: std::ops::Range<i64>| {
        let null = |i: i64| i % 3 == 2;
        let mut tags = ListBuilder::new(StringBuilder::new()).with_field(Arc::new(Field::new(
            "element",
            DataType::Utf8,
            true,
        )));
        let (mut keys, mut weights) = (StringBuilder::new(), Int32Builder::new());
        for i in ids.clone() {
            if null(i) {
                tags.append_null();
            } else {
                for t in 0..i {
                    tags.values().append_value(format!("t{t}"));
                }
                tags.append(true);
            }
            keys.append_value(format!("k{i}"));
            weights.append_option((!null(i)).then_some(i as i32 * 10));
        }
        let structs = StructArray::new(
            attrs.clone(),
            vec![
                Arc::new(keys.finish()) as ArrayRef,
                Arc::new(weights.finish()),
            ],
            None,
        );
        RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(LargeStringArray::from_iter_values(
                    ids.clone().map(|i| format!("e-{i}")),
                )) as ArrayRef,
                Arc::new(Int64Array::from_iter(
                    ids.clone().map(|i| (!null(i)).then_some(i * 1_000_000_007)),
                )),
                Arc::new(
                    Decimal128Array::from_iter(
                        ids.clone()
                            .map(|i| (!null(i)).then_some(i128::from(i) * 12_345 - 99)),
                    )
                    .with_precision_and_scale(12, 2)
                    .unwrap(),
                ),
                Arc::new(TimestampMicrosecondArray::from_iter_values(
                    // 2026-10-31 23:59:59.123456 UTC plus i hours: the rows span two days.
                    ids.clone()
                        .map(|i| 1_793_491_199_123_456 + i * 3_600_000_000),
                )),
                Arc::new(Date32Array::from_iter(
                    ids.clone().map(|i| (!null(i)).then_some(20_000 + i as i32)),
                )),
                Arc::new(tags.finish()),
                Arc::new(structs),
            ],
        )
        .unwrap()
    };
    let batches = [batch(0..3), batch(3..5)];
    let rows: Vec<Vec<Value>> = batches
        .iter()
        .flat_map(|b| iceberg_sql::arrow::table_rows(b, &table).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[2][1], Value::Null, "a NULL in the data");
    for (_, insert) in ValuesInsert::new(&table, &rows)
        .batches_with_rows_for(Dialect::Trino)
        .unwrap()
    {
        trino.run(insert.sql());
    }

    let read = trino.run(format!("SELECT * FROM {} ORDER BY event_id", table.name()));
    let back = iceberg_sql::arrow::rows_to_batch_as(&read.result_rows(), table.columns()).unwrap();
    assert_eq!(
        back.schema(),
        iceberg_sql::arrow::table_schema(&table).into()
    );
    assert_eq!(iceberg_sql::arrow::batch_to_values(&back).unwrap(), rows);
    // The partitions the rows fell into: day(ts) in UTC, two days.
    let days = trino.run("SELECT count(*) FROM trino_target.\"from_arrow$partitions\"");
    assert_eq!(days.column("_col0"), [Some("2")]);
}

/// A table for the vacuum's steps.
#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(
    database = "trino_target",
    name = "vacuumed",
    location = "s3://trino-target/iceberg/vacuumed/"
)]
pub struct Vacuumed {
    pub id: i64,
}

/// `Vacuum::build_steps_for(Dialect::Trino)` run step by step on Trino, against a table
/// with six snapshots (the create, four inserts, an optimize) and an orphan file written beside its
/// data files: a number of metadata files to keep refused (Trino 476 has no
/// `max_previous_versions`, and refuses it too), `expire_snapshots` leaving one snapshot in `"t$snapshots"`, `remove_orphan_files`
/// removing the orphan from moto's bucket, after which the bucket's data files are
/// exactly the current snapshot's `"t$files"`. A count of snapshots to keep: Trino 476
/// rejects `retain_last` (as the crate does, above 1), and runs the crate's text for 1.
#[test]
fn trino_target_vacuum_steps_on_trino() {
    let Some(trino) = Trino::get_or_skip("trino_target_vacuum_steps_on_trino") else {
        return;
    };
    use iceberg_sql::maintenance::VacuumRetention;
    trino.ensure_bucket("trino-target");
    trino.ensure_schema("trino_target");
    let def = Vacuumed::table_def();
    trino.run(format!("DROP TABLE IF EXISTS {}", def.name()));
    trino.run(def.create_table().build_for(Dialect::Trino).unwrap());
    for id in 1..=4 {
        trino.run(
            Vacuumed::insert(&[Vacuumed { id }])
                .build_for(Dialect::Trino)
                .unwrap(),
        );
    }
    trino.run(def.optimize().build_for(Dialect::Trino).unwrap());
    let snapshots = || {
        trino
            .run("SELECT count(*) FROM trino_target.\"vacuumed$snapshots\"")
            .scalar_i64()
    };
    // Trino's CREATE TABLE commits an empty snapshot.
    assert_eq!(snapshots(), 6);
    let data = "iceberg/vacuumed/data/";
    let orphan = format!("{data}orphan-00000-not-in-any-snapshot.parquet");
    trino.put_object(
        "trino-target",
        &orphan,
        b"PAR1 no snapshot references this file",
    );
    let before = trino.list_objects("trino-target", data);
    assert_eq!(
        before.len(),
        6,
        "four inserted files, the optimized one, the orphan: {before:?}"
    );
    assert!(before.contains(&orphan), "{before:?}");
    // Trino compares the files' times with now minus the threshold, in milliseconds;
    // moto keeps whole seconds.
    std::thread::sleep(std::time::Duration::from_millis(1100));

    // The number of metadata files to keep is the table property max_previous_versions,
    // which Trino added after 476 (https://github.com/trinodb/trino/pull/27717): the
    // crate refuses it for the Trino target, as Trino 476 refuses the text (and its
    // extra_properties refuses write.metadata.previous-versions-max).
    let refused = def
        .vacuum()
        .retention(VacuumRetention::seconds(0).max_metadata_files_to_keep(2))
        .build_steps_for(Dialect::Trino)
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("Trino 476 has no setting for the number of metadata files"),
        "{refused}"
    );
    let e = trino
        .expect_err("ALTER TABLE trino_target.vacuumed SET PROPERTIES max_previous_versions = 2");
    assert_eq!(e.name(), Some("INVALID_TABLE_PROPERTY"), "{e}");
    let steps = def
        .vacuum()
        .retention(VacuumRetention::seconds(0))
        .build_steps_for(Dialect::Trino)
        .unwrap();
    let sql: Vec<&str> = steps.iter().map(|s| s.sql()).collect();
    assert_eq!(
        sql,
        [
            "ALTER TABLE trino_target.vacuumed EXECUTE expire_snapshots(retention_threshold => '0s')",
            "ALTER TABLE trino_target.vacuumed EXECUTE remove_orphan_files(retention_threshold => '0s')",
        ]
    );
    let live = || {
        let mut files: Vec<String> = trino
            .run("SELECT file_path FROM trino_target.\"vacuumed$files\"")
            .column("file_path")
            .into_iter()
            .map(|p| {
                p.and_then(|p| p.strip_prefix("s3://trino-target/"))
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        files.sort();
        files
    };
    let live = live();
    assert_eq!(live.len(), 1, "optimize wrote one file: {live:?}");
    trino.run(&steps[0]);
    assert_eq!(snapshots(), 1);
    // The orphan is no snapshot's file: expiry leaves it.
    let expired = trino.list_objects("trino-target", data);
    assert!(expired.contains(&orphan), "{expired:?}");
    // remove_orphan_files leaves exactly the current snapshot's files (the orphan and
    // the four files the optimize replaced are gone).
    trino.run(&steps[1]);
    assert_eq!(trino.list_objects("trino-target", data), live);
    let ids = trino.run("SELECT id FROM trino_target.vacuumed ORDER BY id");
    assert_eq!(
        ids.column("id"),
        [Some("1"), Some("2"), Some("3"), Some("4")]
    );

    // Keeping a count of snapshots: Trino 476 has no retain_last; the crate leaves out 1.
    let raw = trino.expect_err(
        "ALTER TABLE trino_target.vacuumed EXECUTE expire_snapshots(retention_threshold => '0s', retain_last => 3)",
    );
    assert!(raw.message().contains("retain_last"), "{raw}");
    let e = def
        .vacuum()
        .retention(VacuumRetention::seconds(0).min_snapshots_to_keep(3))
        .build_steps_for(Dialect::Trino)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported, "{e}");
    let one = def
        .vacuum()
        .retention(VacuumRetention::seconds(0).min_snapshots_to_keep(1))
        .build_for(Dialect::Trino)
        .unwrap();
    assert_eq!(
        one.sql(),
        "ALTER TABLE trino_target.vacuumed EXECUTE expire_snapshots(retention_threshold => '0s')"
    );
    trino.run(
        Vacuumed::insert(&[Vacuumed { id: 5 }])
            .build_for(Dialect::Trino)
            .unwrap(),
    );
    assert_eq!(snapshots(), 2);
    trino.run(&one);
    assert_eq!(snapshots(), 1);
    trino.run(def.name().drop_table().build_for(Dialect::Trino).unwrap());
}

/// A table from data whose schema changes: version 1 of an Arrow schema creates the
/// table and loads a batch; version 2 adds a nullable field and widens an `Int32` to an
/// `Int64` and a `Float32` to a `Float64`. The plan for the Trino target
/// (`evolve_from_schema`: one `ALTER COLUMN … SET DATA TYPE` per widening, an `ADD
/// COLUMN` for the new field) runs on Trino, a version 2 batch loads, and every row reads
/// back: the old ones with NULL in the new field and their values widened intact. A
/// version 3 that turns a `bigint` into a string and drops a required field is refused,
/// each refusal with its way out.
#[test]
fn a_table_from_data_evolves_with_its_arrow_schema_on_trino() {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, Float32Array, Float64Array, Int32Array, Int64Array};
    use arrow_array::{RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    use iceberg_sql::dml::ValuesInsert;
    use iceberg_sql::evolve::{evolve_from_schema, schema_target};

    let Some(trino) =
        Trino::get_or_skip("a_table_from_data_evolves_with_its_arrow_schema_on_trino")
    else {
        return;
    };
    trino.ensure_bucket("trino-target");
    trino.ensure_schema("trino_target");
    let v1 = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("n", DataType::Int32, true),
        Field::new("f", DataType::Float32, true),
        Field::new("name", DataType::Utf8, true),
    ]));
    let v1_def = iceberg_sql::arrow::table_builder("trino_target", "from_data", &v1)
        .unwrap()
        .location("s3://trino-target/iceberg/from_data/")
        .build()
        .unwrap();
    trino.run(format!("DROP TABLE IF EXISTS {}", v1_def.name()));
    trino.run(v1_def.create_table().build_for(Dialect::Trino).unwrap());
    let load = |batch: &RecordBatch, def: &TableDef| {
        let rows = iceberg_sql::arrow::table_rows(batch, def).unwrap();
        for (_, insert) in ValuesInsert::new(def, &rows)
            .batches_with_rows_for(Dialect::Trino)
            .unwrap()
        {
            trino.run(insert.sql());
        }
    };
    // Values at the edges of the old types (and floats a float32 holds exactly).
    let first = RecordBatch::try_new(
        v1.clone(),
        vec![
            Arc::new(Int64Array::from(vec![1, 2, 3])) as ArrayRef,
            Arc::new(Int32Array::from(vec![Some(i32::MAX), Some(i32::MIN), None])),
            Arc::new(Float32Array::from(vec![Some(1.5), None, Some(-0.125)])),
            Arc::new(StringArray::from(vec![Some("a"), Some("b"), None])),
        ],
    )
    .unwrap();
    load(&first, &v1_def);

    let v2 = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("n", DataType::Int64, true),
        Field::new("f", DataType::Float64, true),
        Field::new("name", DataType::Utf8, true),
        Field::new("source", DataType::Utf8, true),
    ]));
    let plan = evolve_from_schema(&v1_def, &v2, Dialect::Trino).unwrap();
    let sql: Vec<&str> = plan.statements().map(|s| s.sql()).collect();
    assert_eq!(
        sql,
        [
            "ALTER TABLE trino_target.from_data ALTER COLUMN n SET DATA TYPE bigint",
            "ALTER TABLE trino_target.from_data ALTER COLUMN f SET DATA TYPE double",
            "ALTER TABLE trino_target.from_data ADD COLUMN source varchar",
        ],
        "{plan}"
    );
    for st in plan.statements() {
        trino.run(st);
    }
    for (column, shown) in [("n", "bigint"), ("f", "double"), ("source", "varchar")] {
        assert_eq!(column_type(trino, "from_data", column), shown);
    }
    // The definition the rows are now written with: the live one with the types of v2.
    let v2_def = schema_target(&v1_def, &v2).unwrap();
    assert!(
        evolve_for(&v2_def, &v2_def, EvolveOptions::new(), Dialect::Trino)
            .unwrap()
            .is_empty()
    );
    let second = RecordBatch::try_new(
        v2.clone(),
        vec![
            Arc::new(Int64Array::from(vec![4, 5])) as ArrayRef,
            Arc::new(Int64Array::from(vec![Some(i64::MAX), None])),
            Arc::new(Float64Array::from(vec![Some(0.1), Some(-2.5e300)])),
            Arc::new(StringArray::from(vec![Some("d"), Some("e")])),
            Arc::new(StringArray::from(vec![Some("feed"), None])),
        ],
    )
    .unwrap();
    load(&second, &v2_def);

    let read = trino.run(format!("SELECT * FROM {} ORDER BY id", v2_def.name()));
    let back = iceberg_sql::arrow::rows_to_batch_as(&read.result_rows(), v2_def.columns()).unwrap();
    let text = |s: Option<&str>| s.map_or(Value::Null, |s| Value::String(s.into()));
    let want: Vec<Vec<Value>> = [
        (1, Some(i64::from(i32::MAX)), Some(1.5), Some("a"), None),
        (2, Some(i64::from(i32::MIN)), None, Some("b"), None),
        (3, None, Some(-0.125), None, None),
        (4, Some(i64::MAX), Some(0.1), Some("d"), Some("feed")),
        (5, None, Some(-2.5e300), Some("e"), None),
    ]
    .into_iter()
    .map(|(id, n, f, name, source)| {
        vec![
            Value::Long(id),
            n.map_or(Value::Null, Value::Long),
            f.map_or(Value::Null, Value::Double),
            text(name),
            text(source),
        ]
    })
    .collect();
    assert_eq!(iceberg_sql::arrow::batch_to_values(&back).unwrap(), want);

    // Version 3: `n` becomes a string and the required `id` is gone. Both are refused,
    // each with its way out, and nothing runs.
    let v3 = Schema::new(vec![
        Field::new("n", DataType::Utf8, true),
        Field::new("f", DataType::Float64, true),
    ]);
    let e = evolve_from_schema(&v2_def, &v3, Dialect::Trino).unwrap_err();
    assert_eq!(
        e.message(),
        "column `id` of `trino_target.from_data` is required, and the incoming records have \
         no field `id`"
    );
    assert_eq!(
        e.hint(),
        Some("add the field `id` to the records, or make the column nullable")
    );
    let v3 = Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("n", DataType::Utf8, true),
    ]);
    let e = evolve_from_schema(&v2_def, &v3, Dialect::Trino).unwrap_err();
    assert_eq!(e.all().count(), 1, "{e}");
    assert!(
        e.message().starts_with(
            "column `n` of `trino_target.from_data` cannot change from long to string in \
             place: it is not one of Iceberg's promotions"
        ),
        "{e}"
    );
    let hint = e.hint().unwrap_or_default();
    assert!(
        hint.starts_with(
            "add a new column of type string, UPDATE it from CAST(n AS ...), drop `n` and \
             rename the new column (not atomic); or rebuild by CTAS"
        ),
        "{hint}"
    );
    assert_eq!(read.rows.len(), 5);
    assert_eq!(
        trino
            .run(format!("SELECT count(*) FROM {}", v2_def.name()))
            .scalar_i64(),
        5
    );
    trino.run(
        v2_def
            .name()
            .drop_table()
            .build_for(Dialect::Trino)
            .unwrap(),
    );
}
