//! Schema evolution: a table of (live, desired) pairs -> expected plan or refusal,
//! every legal promotion and every illegal one; reading live definitions from
//! SHOW CREATE TABLE and DESCRIBE output.

#[path = "query_common/mod.rs"]
mod common;

use iceberg_sql::evolve::{
    evolve, evolve_for, parse_describe, parse_show_create_table, Change, EvolveOptions, ReadAs,
    Reader, ReaderBreak,
};
use iceberg_sql::prelude::*;
use iceberg_sql::IcebergType as T;

const LOC: &str = "s3://my-datalake/iceberg/t/";

fn def(cols: Vec<Column>, spec: &[PartitionField]) -> TableDef {
    let mut b = TableDef::builder("analytics", "t")
        .columns(cols)
        .location(LOC);
    for p in spec {
        b = b.partition(p.clone());
    }
    b.build().unwrap()
}

fn c(name: &str, ty: T) -> Column {
    Column::new(name, ty)
}

fn base() -> Vec<Column> {
    vec![
        c("id", T::Long),
        c("ts", T::Timestamp),
        c("n", T::Int),
        c("f", T::Float),
        c("amount", T::decimal(10, 2)),
        c("s", T::String),
    ]
}

fn with(mut cols: Vec<Column>, name: &str, col: Column) -> Vec<Column> {
    let i = cols.iter().position(|c| c.name == name).unwrap();
    cols[i] = col;
    cols
}

/// (what, desired, options, expected statements with their breaking flag)
type Case = (
    &'static str,
    TableDef,
    (EvolveOptions, Dialect),
    Vec<(String, bool)>,
);

fn plan_sql(
    live: &TableDef,
    desired: &TableDef,
    o: EvolveOptions,
    dialect: Dialect,
) -> Vec<(String, bool)> {
    evolve_for(live, desired, o, dialect)
        .unwrap_or_else(|e| panic!("expected a plan, got: {e}"))
        .steps
        .into_iter()
        .map(|s| (s.statement.sql().to_string(), s.breaking))
        .collect()
}

#[test]
fn legal_changes_become_ordered_plans() {
    let live = def(base(), &[]);
    let a = "ALTER TABLE analytics.t ";
    let cases: Vec<Case> = vec![
        (
            "identical",
            def(base(), &[]),
            (EvolveOptions::new(), Dialect::Athena),
            vec![],
        ),
        (
            "add columns",
            def(
                [
                    base(),
                    vec![c("error_code", T::String), c("tags", T::list(T::String))],
                ]
                .concat(),
                &[],
            ),
            (EvolveOptions::new(), Dialect::Athena),
            vec![(
                format!("{a}ADD COLUMNS (error_code string, tags array<string>)"),
                false,
            )],
        ),
        (
            "int -> bigint",
            def(with(base(), "n", c("n", T::Long)), &[]),
            (EvolveOptions::new(), Dialect::Athena),
            vec![(format!("{a}CHANGE COLUMN n n bigint"), true)],
        ),
        (
            "float -> double",
            def(with(base(), "f", c("f", T::Double)), &[]),
            (EvolveOptions::new(), Dialect::Athena),
            vec![(format!("{a}CHANGE COLUMN f f double"), true)],
        ),
        (
            "decimal precision up, same scale",
            def(with(base(), "amount", c("amount", T::decimal(18, 2))), &[]),
            (EvolveOptions::new(), Dialect::Athena),
            vec![(
                format!("{a}CHANGE COLUMN amount amount decimal(18,2)"),
                true,
            )],
        ),
        (
            "rename from renamed_from",
            def(
                with(base(), "s", c("label", T::String).renamed_from("s")),
                &[],
            ),
            (EvolveOptions::new(), Dialect::Athena),
            vec![(format!("{a}CHANGE COLUMN s label string"), true)],
        ),
        (
            "rename then widen",
            def(
                with(base(), "n", c("retries", T::Long).renamed_from("n")),
                &[],
            ),
            (EvolveOptions::new(), Dialect::Athena),
            vec![
                (format!("{a}CHANGE COLUMN n retries int"), true),
                (format!("{a}CHANGE COLUMN retries retries bigint"), true),
            ],
        ),
        (
            "drop when allowed",
            def(base().into_iter().filter(|c| c.name != "s").collect(), &[]),
            (EvolveOptions::new().allow_drops(), Dialect::Athena),
            vec![(format!("{a}DROP COLUMN s"), true)],
        ),
        (
            "new required column on Athena is added (nullable: Athena cannot declare NOT NULL)",
            def([base(), vec![c("k", T::String).required()]].concat(), &[]),
            (EvolveOptions::new(), Dialect::Athena),
            vec![(format!("{a}ADD COLUMNS (k string)"), false)],
        ),
        (
            "required in the record, nullable live: not compared on Athena",
            def(with(base(), "id", c("id", T::Long).required()), &[]),
            (EvolveOptions::new(), Dialect::Athena),
            vec![],
        ),
        (
            "Spark spellings",
            def(
                [
                    with(
                        with(base(), "n", c("n", T::Long)),
                        "s",
                        c("label", T::String).renamed_from("s"),
                    ),
                    vec![c("extra", T::Date)],
                ]
                .concat(),
                &[],
            ),
            (EvolveOptions::new(), Dialect::Spark),
            vec![
                (format!("{a}RENAME COLUMN s TO label"), true),
                (format!("{a}ALTER COLUMN n TYPE bigint"), true),
                (format!("{a}ADD COLUMNS (extra date)"), false),
            ],
        ),
    ];
    for (what, desired, opts, want) in cases {
        let (opts, dialect) = opts;
        assert_eq!(plan_sql(&live, &desired, opts, dialect), want, "{what}");
    }
}

#[test]
fn properties_and_partitioned_renames() {
    let spec = [PartitionField::new("ts", PartitionTransform::Day)];
    let live = def(base(), &spec);
    let desired = TableDef::builder("analytics", "t")
        .columns(with(
            base(),
            "ts",
            c("event_ts", T::Timestamp).renamed_from("ts"),
        ))
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .location(LOC)
        .property(TableProperty::VacuumMaxSnapshotAgeSeconds(604_800))
        .build()
        .unwrap();
    let plan = evolve(&live, &desired, EvolveOptions::new()).unwrap();
    assert_eq!(
        plan.steps
            .iter()
            .map(|s| s.change.clone())
            .collect::<Vec<_>>(),
        vec![
            Change::RenameColumn {
                from: "ts".into(),
                to: "event_ts".into()
            },
            Change::SetProperties(
                TableProperties::new().with(TableProperty::VacuumMaxSnapshotAgeSeconds(604_800))
            ),
        ]
    );
    assert!(plan.is_breaking());
    // Properties can be left alone.
    let plan = evolve(&live, &desired, EvolveOptions::new().sync_properties(false)).unwrap();
    assert_eq!(plan.steps.len(), 1);
}

#[test]
fn every_illegal_type_change_is_refused() {
    let live = def(
        [
            base(),
            vec![
                c("d", T::Double),
                c("dt", T::Date),
                c("xs", T::list(T::Int)),
            ],
        ]
        .concat(),
        &[],
    );
    let cases = [
        ("id", T::Int, "narrowing"),
        ("d", T::Float, "narrowing"),
        ("amount", T::decimal(12, 3), "scale can never change"),
        ("amount", T::decimal(8, 2), "precision can only grow"),
        ("n", T::String, "not one of Iceberg's promotions"),
        ("n", T::Double, "not one of Iceberg's promotions"),
        ("s", T::Long, "not one of Iceberg's promotions"),
        ("f", T::Long, "not one of Iceberg's promotions"),
        ("dt", T::Timestamp, "not one of Iceberg's promotions"),
        ("ts", T::Date, "not one of Iceberg's promotions"),
        ("xs", T::list(T::Long), "not one of Iceberg's promotions"),
    ];
    for (col, to, why) in cases {
        let cols = with(live.columns().to_vec(), col, c(col, to.clone()));
        let desired = def(cols, &[]);
        let e = evolve(&live, &desired, EvolveOptions::new()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidType, "{col} -> {to:?}");
        assert_eq!(e.all().count(), 1, "{e}");
        assert!(e.message().contains(why), "{e}");
        let hint = e.hint().unwrap();
        assert!(hint.contains("CTAS") && hint.contains("UPDATE"), "{hint}");
    }
}

#[test]
fn other_refusals_name_the_way_out() {
    let spec = [PartitionField::new("ts", PartitionTransform::Day)];
    let live = def(base(), &spec);
    // Partition changes: added, removed, changed.
    for desired_spec in [
        vec![
            PartitionField::new("ts", PartitionTransform::Day),
            PartitionField::new("id", PartitionTransform::Bucket(16)),
        ],
        vec![],
        vec![PartitionField::new("ts", PartitionTransform::Hour)],
    ] {
        for dialect in [Dialect::Athena, Dialect::Spark] {
            let e = evolve_for(
                &live,
                &def(base(), &desired_spec),
                EvolveOptions::new(),
                dialect,
            )
            .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Unsupported);
            assert!(e.message().contains("partition spec"), "{e}");
            assert!(e.hint().unwrap().contains("CTAS"), "{e}");
        }
    }
    // Location.
    let moved = def(base(), &spec).with_location(Location::parse("s3://other-bucket/t/").unwrap());
    let e = evolve(&live, &moved, EvolveOptions::new()).unwrap_err();
    assert!(e.message().contains("no ALTER TABLE SET LOCATION"), "{e}");
    // A drop that was not allowed.
    let fewer = def(
        base().into_iter().filter(|c| c.name != "s").collect(),
        &spec,
    );
    let e = evolve(&live, &fewer, EvolveOptions::new()).unwrap_err();
    assert!(e.message().contains("drops are not allowed"), "{e}");
    assert!(e.hint().unwrap().contains("allow_drops"), "{e}");
    // Dropping a partition source, even when drops are allowed.
    let live2 = def(base(), &[PartitionField::identity("s")]);
    let no_s = def(
        base().into_iter().filter(|c| c.name != "s").collect(),
        &[PartitionField::identity("s")][..0],
    );
    let e = evolve(&live2, &no_s, EvolveOptions::new().allow_drops()).unwrap_err();
    assert!(
        e.all()
            .any(|e| e.message().contains("source of partition field `s`")),
        "{e}"
    );
}

#[test]
fn nullability_is_compared_where_it_is_declared() {
    let live = def(base(), &[]);
    let tight = def(with(base(), "s", c("s", T::String).required()), &[]);
    let e = evolve_for(&live, &tight, EvolveOptions::new(), Dialect::Spark).unwrap_err();
    assert!(e.message().contains("would become required"), "{e}");
    let e = evolve(&live, &tight, EvolveOptions::new().check_nullability(true)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    let add_required = def([base(), vec![c("k", T::Long).required()]].concat(), &[]);
    let e = evolve_for(&live, &add_required, EvolveOptions::new(), Dialect::Spark).unwrap_err();
    assert!(e.message().contains("cannot add a required column"), "{e}");
    // Loosening is fine (nothing to do: Athena cannot declare NOT NULL).
    let live_req = def(with(base(), "s", c("s", T::String).required()), &[]);
    assert!(
        evolve_for(&live_req, &live, EvolveOptions::new(), Dialect::Spark)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn every_refusal_is_listed_at_once() {
    let live = def(
        base(),
        &[PartitionField::new("ts", PartitionTransform::Day)],
    );
    let desired = def(
        with(
            with(base(), "id", c("id", T::Int)),
            "amount",
            c("amount", T::decimal(10, 4)),
        )
        .into_iter()
        .filter(|c| c.name != "f")
        .collect(),
        &[PartitionField::new("ts", PartitionTransform::Month)],
    )
    .with_location(Location::parse("s3://my-datalake/iceberg/t_v2/").unwrap());
    let e = evolve(&live, &desired, EvolveOptions::new()).unwrap_err();
    let messages: Vec<&str> = e.all().map(|e| e.message()).collect();
    assert_eq!(messages.len(), 5, "{e}");
    insta::assert_snapshot!("refusals", e.to_string());
}

#[test]
fn schema_evolution_plan() {
    // The example evolution: add error_code + retry_count, rename payload, drop
    // latency_ms, widen retry_count.
    let live = common::mcp_events_builder()
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .build()
        .unwrap();
    let cols: Vec<Column> = live
        .columns()
        .iter()
        .filter(|c| c.name != "latency_ms")
        .map(|col| match col.name.as_str() {
            "payload" => c("tool_payload", T::String).renamed_from("payload"),
            "retry_count" => c("retry_count", T::Long),
            _ => col.clone(),
        })
        .chain([c("error_code", T::String)])
        .collect();
    let desired = common::mcp_events_builder()
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .build()
        .unwrap();
    let desired = TableDef::builder("analytics", "mcp_events")
        .columns(cols)
        .partition(desired.partition_spec()[0].clone())
        .location(desired.location().unwrap().as_str())
        .property(TableProperty::Format(FileFormat::Parquet))
        .property(TableProperty::WriteCompression(Compression::Snappy))
        .property(TableProperty::OptimizeRewriteDeleteFileThreshold(10))
        .build()
        .unwrap();
    let mut out = String::new();
    for d in [Dialect::Athena, Dialect::Spark] {
        let plan = evolve_for(&live, &desired, EvolveOptions::new().allow_drops(), d).unwrap();
        out.push_str(&format!("-- {d:?}\n{plan}\n\n"));
    }
    insta::assert_snapshot!("evolution_plan", out);
}

// ---- readers ------------------------------------------------------------------------

/// The example evolution (rename payload, widen retry_count, add error_code, drop
/// latency_ms) of the example table, unpartitioned.
fn example_evolution() -> (TableDef, TableDef) {
    let live = common::mcp_events_builder().build().unwrap();
    let cols: Vec<Column> = live
        .columns()
        .iter()
        .filter(|c| c.name != "latency_ms")
        .map(|col| match col.name.as_str() {
            "payload" => c("tool_payload", T::String).renamed_from("payload"),
            "retry_count" => c("retry_count", T::Long),
            _ => col.clone(),
        })
        .chain([c("error_code", T::String)])
        .collect();
    let desired = TableDef::builder("analytics", "mcp_events")
        .columns(cols)
        .location(live.location().unwrap().as_str())
        .build()
        .unwrap();
    (live, desired)
}

#[test]
fn readers_each_step_breaks() {
    use common::McpEvent;
    let (live, desired) = example_evolution();
    let per_tool = McpEvent::select()
        .column(McpEvent::TOOL_NAME)
        .column(McpEvent::PAYLOAD)
        .filter(McpEvent::STATUS.eq("ok".to_string()));
    let built = TableName::new("analytics", "ok_payloads")
        .create_view(&per_tool)
        .build()
        .unwrap();
    let readers = [
        // A view this crate built, read from its statement.
        Reader::sql("ok_payloads", built.sql()).unwrap(),
        // Views as the catalog lists them.
        Reader::view(
            TableName::new("analytics", "slow_calls"),
            "SELECT e.session_id, e.latency_ms, s.user_name FROM analytics.mcp_events e \
             JOIN analytics.sessions s ON s.session_id = e.session_id WHERE e.latency_ms > 1000",
        )
        .unwrap(),
        Reader::view(TableName::new("analytics", "all_events"), "SELECT * FROM mcp_events").unwrap(),
        Reader::view(
            TableName::new("analytics", "retries"),
            "SELECT tool_name, max(retry_count) AS most FROM analytics.mcp_events GROUP BY tool_name",
        )
        .unwrap(),
        // Registered texts.
        Reader::sql(
            "archive job",
            "INSERT INTO analytics.archive (a, b) SELECT * FROM analytics.mcp_events",
        )
        .unwrap(),
        Reader::sql(
            "daily report",
            "SELECT payload, count(*) FROM analytics.mcp_events \
             WHERE event_id IN (SELECT event_id FROM analytics.mcp_events WHERE payload <> '') \
             GROUP BY payload ORDER BY payload",
        )
        .unwrap(),
        // Reads other tables only: never broken.
        Reader::sql("other", "SELECT payload, latency_ms FROM analytics.other").unwrap(),
    ];
    let plan = evolve(&live, &desired, EvolveOptions::new().allow_drops())
        .unwrap()
        .check_readers(&live, &readers)
        .unwrap();
    insta::assert_snapshot!("evolution_plan_readers", plan.to_string());
    // The structured report of the rename.
    assert_eq!(
        plan.steps[0].readers[0],
        ReaderBreak {
            reader: "ok_payloads".into(),
            read_as: ReadAs::Select,
            column: "payload".into(),
        }
    );
    assert!(
        matches!(&plan.steps[1].change, Change::ReplaceView { view, .. }
        if view == &TableName::new("analytics", "ok_payloads"))
    );
}

#[test]
fn rename_rewrites_keep_the_view_columns() {
    let live = def(base(), &[]);
    let desired = def(
        with(base(), "s", c("label", T::String).renamed_from("s")),
        &[],
    );
    let rewrite = |query: &str| {
        let readers = [Reader::view(TableName::new("analytics", "v"), query).unwrap()];
        let plan = evolve(&live, &desired, EvolveOptions::new())
            .unwrap()
            .check_readers(&live, &readers)
            .unwrap();
        plan.steps
            .iter()
            .skip(1)
            .map(|s| s.statement.sql().to_string())
            .collect::<Vec<_>>()
    };
    let head = "CREATE OR REPLACE VIEW analytics.v AS\n";
    // A bare output column keeps its name; an aliased one and other uses take the new
    // name; a qualified one keeps its qualifier; a quoted one is written as the name
    // needs.
    assert_eq!(
        rewrite("SELECT s, upper(s) AS u, t.s AS s2, \"S\" FROM analytics.t AS t WHERE s <> '' ORDER BY t.s"),
        [format!("{head}SELECT label AS s, upper(label) AS u, t.label AS s2, label AS s FROM analytics.t AS t WHERE label <> '' ORDER BY t.label")]
    );
    // A nested query and a CTE read the table too; only the view's own output columns
    // keep the old name.
    assert_eq!(
        rewrite("WITH x AS (SELECT id, s FROM t) SELECT s FROM x WHERE id IN (SELECT id FROM t WHERE s = 'a')"),
        [format!("{head}WITH x AS (SELECT id, label FROM t) SELECT label AS s FROM x WHERE id IN (SELECT id FROM t WHERE label = 'a')")]
    );
    // A `SELECT *` over the table alone is written out; over a join, or as `t.*`, it
    // is reported, not rewritten; a view that does not read the column is neither.
    assert_eq!(
        rewrite("SELECT * FROM analytics.t WHERE s > 'a'"),
        [format!(
            "{head}SELECT id, ts, n, f, amount, label AS s FROM analytics.t WHERE label > 'a'"
        )]
    );
    assert_eq!(
        rewrite("SELECT * FROM analytics.t JOIN analytics.u ON u.id = t.id"),
        Vec::<String>::new()
    );
    assert_eq!(rewrite("SELECT t.* FROM analytics.t"), Vec::<String>::new());
    assert_eq!(rewrite("SELECT id FROM analytics.t"), Vec::<String>::new());
    // Another table's column of the same name, qualified, is left alone.
    assert_eq!(
        rewrite("SELECT u.s, t.s FROM analytics.t t JOIN analytics.u u ON u.id = t.id"),
        [format!(
            "{head}SELECT u.s, t.label AS s FROM analytics.t t JOIN analytics.u u ON u.id = t.id"
        )]
    );
}

#[test]
fn readers_report_how_they_read_the_column() {
    let live = def(base(), &[]);
    let desired = def(
        with(base(), "s", c("label", T::String).renamed_from("s")),
        &[],
    );
    let report = |sql: &str| {
        let readers = [Reader::sql("r", sql).unwrap()];
        let plan = evolve(&live, &desired, EvolveOptions::new())
            .unwrap()
            .check_readers(&live, &readers)
            .unwrap();
        plan.steps[0]
            .readers
            .iter()
            .map(|b| b.read_as)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        report("SELECT a.id FROM analytics.t a JOIN analytics.u b ON b.s = a.s"),
        [ReadAs::Join]
    );
    assert_eq!(report("SELECT id FROM t JOIN u USING (s)"), [ReadAs::Join]);
    assert_eq!(
        report("SELECT max(id) OVER (PARTITION BY s) FROM t"),
        [ReadAs::Select]
    );
    assert_eq!(
        report("SELECT id FROM t GROUP BY id HAVING count(DISTINCT s) > 1 ORDER BY 1"),
        [ReadAs::Filter]
    );
    // An INSERT that names the column in its column list writes it.
    assert_eq!(
        report("INSERT INTO analytics.t (id, s) SELECT id, name FROM analytics.u"),
        [ReadAs::Write]
    );
    assert_eq!(
        report("INSERT INTO analytics.u (id, s) SELECT id, s FROM analytics.t"),
        [ReadAs::Select]
    );
    // Without a column list, an INSERT into the table writes every column: an added
    // or a dropped one breaks it, a rename does not.
    let load = Reader::sql(
        "load",
        "INSERT INTO analytics.t SELECT * FROM analytics.staging",
    )
    .unwrap();
    let grown = def(
        base().into_iter().chain([c("extra", T::Int)]).collect(),
        &[],
    );
    let plan = evolve(&live, &grown, EvolveOptions::new())
        .unwrap()
        .check_readers(&live, std::slice::from_ref(&load))
        .unwrap();
    assert_eq!(plan.steps[0].readers[0].to_string(), "load writes extra");
    assert_eq!(
        report("INSERT INTO analytics.t SELECT * FROM analytics.staging"),
        []
    );
}

#[test]
fn a_rewritten_view_is_checked_as_rewritten_under_its_label() {
    let live = def(base(), &[]);
    let cols: Vec<Column> = with(base(), "s", c("label", T::String).renamed_from("s"))
        .into_iter()
        .filter(|c| c.name != "n")
        .collect();
    let desired = def(cols, &[]);
    let readers = [Reader::sql(
        "mine",
        "CREATE VIEW analytics.v AS SELECT s, n FROM analytics.t",
    )
    .unwrap()];
    let plan = evolve(&live, &desired, EvolveOptions::new().allow_drops())
        .unwrap()
        .check_readers(&live, &readers)
        .unwrap();
    let report: Vec<String> = plan
        .steps
        .iter()
        .flat_map(|s| &s.readers)
        .map(|b| b.to_string())
        .collect();
    assert_eq!(report, ["mine selects s", "mine selects n"]);
    assert_eq!(
        plan.statements().map(|s| s.sql()).collect::<Vec<_>>(),
        [
            "ALTER TABLE analytics.t CHANGE COLUMN s label string",
            "CREATE OR REPLACE VIEW analytics.v AS\nSELECT label AS s, n FROM analytics.t",
            "ALTER TABLE analytics.t DROP COLUMN n",
        ]
    );
}

#[test]
fn unreadable_readers_are_errors() {
    let e = Reader::sql("job", "SELECT FROM WHERE").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("reader job: our parser cannot read its SQL"),
        "{e}"
    );
    let e = Reader::view(TableName::new("analytics", "v"), "DROP TABLE analytics.t").unwrap_err();
    assert!(
        e.to_string()
            .contains("the definition of view analytics.v is not a query"),
        "{e}"
    );
    let e = Reader::sql("job", "DELETE FROM analytics.t WHERE s = 'a'").unwrap_err();
    assert!(
        e.to_string()
            .contains("reader job is not a query, an INSERT or a CREATE VIEW"),
        "{e}"
    );
    let e = Reader::sql("job", "CREATE VIEW v AS SELECT 1 AS one").unwrap_err();
    assert!(e.to_string().contains("the view v has no database"), "{e}");
}

// ---- reading live definitions -----------------------------------------------------

const ATHENA_SHOW_CREATE: &str = "CREATE TABLE `analytics`.`mcp_events`(
  `event_id` string COMMENT 'ULID', 
  `session_id` string, 
  `event_ts` timestamp, 
  `user_id` string, 
  `latency_ms` bigint, 
  `price` decimal(10,2), 
  `tags` array<string>, 
  `attrs` map<string,string>, 
  `loc` struct<lat:double,lon:double>, 
  `retry_count` int)
PARTITIONED BY (`day`(`event_ts`), bucket(16, `user_id`), truncate(1000, `session_id`))
LOCATION 's3://my-datalake/iceberg/mcp_events'
TBLPROPERTIES (
  'table_type'='iceberg',
  'format'='parquet',
  'write_compression'='zstd',
  'optimize_rewrite_delete_file_threshold'='10',
  'vacuum_max_snapshot_age_seconds'='604800',
  'write_target_data_file_size_bytes'='536870912'
)";

const SPARK_SHOW_CREATE: &str = "CREATE TABLE local.analytics.mcp_events (
  event_id STRING NOT NULL COMMENT 'ULID',
  event_ts TIMESTAMP_NTZ,
  created TIMESTAMP,
  user_id STRING,
  loc STRUCT<lat: DOUBLE, lon: DOUBLE NOT NULL>,
  retry_count INT)
USING iceberg
PARTITIONED BY (days(event_ts), bucket(16, user_id))
LOCATION 's3://my-datalake/iceberg/mcp_events'
TBLPROPERTIES (
  'current-snapshot-id' = 'none',
  'format' = 'iceberg/parquet',
  'format-version' = '2',
  'history.expire.max-snapshot-age-ms' = '604800000',
  'write.parquet.compression-codec' = 'zstd')
";

#[test]
fn parses_athena_show_create_table() {
    let t = parse_show_create_table(ATHENA_SHOW_CREATE, Dialect::Athena).unwrap();
    assert_eq!(t.name(), &TableName::new("analytics", "mcp_events"));
    assert_eq!(t.columns().len(), 10);
    assert_eq!(
        t.column("event_id").unwrap().comment.as_deref(),
        Some("ULID")
    );
    assert_eq!(t.column("event_ts").unwrap().ty, T::Timestamp);
    assert_eq!(t.column("price").unwrap().ty, T::decimal(10, 2));
    assert_eq!(
        t.column("loc").unwrap().ty,
        T::structure([("lat", T::Double), ("lon", T::Double)])
    );
    assert!(t.columns().iter().all(|c| c.nullable));
    assert_eq!(
        t.partition_spec(),
        &[
            PartitionField::new("event_ts", PartitionTransform::Day),
            PartitionField::new("user_id", PartitionTransform::Bucket(16)),
            PartitionField::new("session_id", PartitionTransform::Truncate(1000)),
        ]
    );
    assert_eq!(
        t.location().unwrap().as_str(),
        "s3://my-datalake/iceberg/mcp_events/"
    );
    let props: Vec<TableProperty> = t.properties().iter().copied().collect();
    assert_eq!(
        props,
        [
            TableProperty::Format(FileFormat::Parquet),
            TableProperty::WriteCompression(Compression::Zstd),
            TableProperty::OptimizeRewriteDeleteFileThreshold(10),
            TableProperty::VacuumMaxSnapshotAgeSeconds(604_800),
        ]
    );
}

#[test]
fn parses_spark_show_create_table() {
    let t = parse_show_create_table(SPARK_SHOW_CREATE, Dialect::Spark).unwrap();
    assert_eq!(t.name(), &TableName::new("analytics", "mcp_events"));
    let id = t.column("event_id").unwrap();
    assert!(!id.nullable);
    assert_eq!(t.column("event_ts").unwrap().ty, T::Timestamp);
    assert_eq!(t.column("created").unwrap().ty, T::TimestampTz);
    assert_eq!(
        t.partition_spec()[0],
        PartitionField::new("event_ts", PartitionTransform::Day)
    );
    let props: Vec<TableProperty> = t.properties().iter().copied().collect();
    assert_eq!(
        props,
        [
            TableProperty::Format(FileFormat::Parquet),
            TableProperty::WriteCompression(Compression::Zstd),
            TableProperty::VacuumMaxSnapshotAgeSeconds(604_800),
        ]
    );
}

#[test]
fn parses_describe_output() {
    let plain = [
        "event_id            \tstring              \tULID                ",
        "event_ts            \ttimestamp           \t                    ",
        "user_id             \tstring              \t                    ",
        "event_date          \tdate                \t                    ",
        "                    \t                    \t                    ",
        "# Partition Information\t \t ",
        "# col_name            \tdata_type           \tcomment             ",
        "event_date          \tdate                \t                    ",
    ]
    .join("\n");
    let t = parse_describe(&plain, &TableName::new("analytics", "e")).unwrap();
    assert_eq!(t.columns().len(), 4);
    assert_eq!(
        t.partition_spec(),
        &[PartitionField::identity("event_date")]
    );
    assert!(t.location().is_none());

    let formatted = [
        "# col_name\tdata_type\tcomment",
        "id\tbigint\t",
        "ts\ttimestamp\t",
        "\t \t ",
        "# Partition Transforms\t \t ",
        "# field_name\tfield_transform\tcolumn_name",
        "ts_hour\thour\tts",
        "id_bucket\tbucket[8]\tid",
        "\t \t ",
        "# Detailed Table Information\t \t ",
        "Database:\tanalytics\t ",
        "Location:\ts3://my-datalake/iceberg/e\t ",
        "Table Parameters:\t \t ",
        "\ttable_type\tICEBERG",
        "\twrite_compression\tsnappy",
        "\tvacuum_min_snapshots_to_keep\t3",
        "\tsome_engine_property\tx",
    ]
    .join("\n");
    let t = parse_describe(&formatted, &TableName::new("analytics", "e")).unwrap();
    assert_eq!(
        t.partition_spec(),
        &[
            PartitionField::new("ts", PartitionTransform::Hour),
            PartitionField::new("id", PartitionTransform::Bucket(8)),
        ]
    );
    assert_eq!(
        t.location().unwrap().as_str(),
        "s3://my-datalake/iceberg/e/"
    );
    assert_eq!(t.properties().iter().count(), 2);
}

#[test]
fn our_create_table_reads_back_as_the_same_definition() {
    let desired = common::mcp_events_builder()
        .column(Column::new(
            "loc",
            T::structure([("lat", T::Double), ("lon", T::Double)]),
        ))
        .column(Column::new("price", T::decimal(10, 2)).comment("in EUR"))
        .partition(PartitionField::new("event_ts", PartitionTransform::Day))
        .partition(PartitionField::new(
            "user_id",
            PartitionTransform::Bucket(16),
        ))
        .property(TableProperty::VacuumMinSnapshotsToKeep(3))
        .build()
        .unwrap();
    for d in [Dialect::Athena, Dialect::Spark] {
        let sql = desired.create_table().build_for(d).unwrap();
        let live = parse_show_create_table(sql.sql(), d).unwrap();
        assert_eq!(live, desired, "{d:?}");
        assert!(evolve_for(&live, &desired, EvolveOptions::new(), d)
            .unwrap()
            .is_empty());
    }
}

#[test]
fn plan_against_a_parsed_live_table() {
    let live = parse_show_create_table(ATHENA_SHOW_CREATE, Dialect::Athena).unwrap();
    let mut cols = live.columns().to_vec();
    let i = cols.iter().position(|c| c.name == "retry_count").unwrap();
    cols[i] = c("retry_count", T::Long);
    cols.push(c("error_code", T::String));
    let mut b = TableDef::builder("analytics", "mcp_events")
        .columns(cols)
        .location(live.location().unwrap().as_str());
    for p in live.partition_spec() {
        b = b.partition(p.clone());
    }
    let desired = b.build().unwrap();
    let plan = evolve(&live, &desired, EvolveOptions::new()).unwrap();
    let sql: Vec<&str> = plan.statements().map(|s| s.sql()).collect();
    assert_eq!(
        sql,
        [
            "ALTER TABLE analytics.mcp_events CHANGE COLUMN retry_count retry_count bigint",
            "ALTER TABLE analytics.mcp_events ADD COLUMNS (error_code string)",
        ]
    );
}

#[test]
fn unreadable_definitions_are_errors() {
    let e =
        parse_show_create_table("CREATE TABLE analytics.t (a uuid)", Dialect::Athena).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidType);
    assert!(e.message().contains("`uuid`"), "{e}");
    let e = parse_show_create_table("SELECT 1", Dialect::Athena).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    let e = parse_show_create_table("CREATE TABLE t (a int)", Dialect::Athena).unwrap_err();
    assert!(e.message().contains("no database"), "{e}");
    let e = parse_show_create_table(
        "CREATE TABLE a.t (a int) PARTITIONED BY (zorder(a))",
        Dialect::Athena,
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidPartition);
}

/// Spark 3.5 prints an Iceberg bucket field as `CLUSTERED BY (c) INTO n BUCKETS`, apart
/// from the other partition fields (seen on the real engine).
#[test]
fn parses_spark_clustered_by_as_a_bucket_field_and_plans_nothing() {
    let text = "CREATE TABLE local.evo.bucketed (
  id BIGINT NOT NULL,
  ts TIMESTAMP_NTZ,
  user_id STRING)
USING iceberg
PARTITIONED BY (days(ts))
CLUSTERED BY (user_id)
INTO 16 BUCKETS
LOCATION 's3://lake-bucket/bucketed'
TBLPROPERTIES (
  'format' = 'iceberg/parquet',
  'format-version' = '2')
";
    let live = parse_show_create_table(text, Dialect::Spark).unwrap();
    assert_eq!(
        live.partition_spec(),
        [
            PartitionField::new("ts", PartitionTransform::Day),
            PartitionField::new("user_id", PartitionTransform::Bucket(16)),
        ]
    );
    // Declared bucket-first: the same fields in another order are not a change.
    let desired = TableDef::builder("evo", "bucketed")
        .column(Column::new("id", T::Long).required())
        .column(Column::new("ts", T::Timestamp))
        .column(Column::new("user_id", T::String))
        .partition(PartitionField::new(
            "user_id",
            PartitionTransform::Bucket(16),
        ))
        .partition(PartitionField::new("ts", PartitionTransform::Day))
        .location("s3://lake-bucket/bucketed/")
        .build()
        .unwrap();
    let plan = evolve_for(&live, &desired, EvolveOptions::new(), Dialect::Spark).unwrap();
    assert!(plan.is_empty(), "{plan}");
    // A different bucket count is still a partition change.
    let other = TableDef::builder("evo", "bucketed")
        .columns(desired.columns().iter().cloned())
        .partition(PartitionField::new("ts", PartitionTransform::Day))
        .partition(PartitionField::new(
            "user_id",
            PartitionTransform::Bucket(8),
        ))
        .build()
        .unwrap();
    let e = evolve_for(&live, &other, EvolveOptions::new(), Dialect::Spark).unwrap_err();
    assert!(e.message().contains("partition spec"), "{e}");
}
