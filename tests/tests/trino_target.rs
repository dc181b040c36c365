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
//! `SELECT *`, written out).

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
