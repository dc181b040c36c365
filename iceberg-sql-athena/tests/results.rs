//! Reading what a statement did, against the Athena-protocol test server over HTTP (the
//! real SDK client): rows changed (`UpdateCount`), result and manifest locations, typed
//! reads in one call (metadata rows, `SHOW TABLES`, `DESCRIBE`, serde, Arrow), SQL the
//! builders do not cover, and `ensure_table` on an account without the database. Every
//! test asserts the exact requests the executor sent.
use std::time::Duration;

use futures::TryStreamExt;
use iceberg_sql::prelude::*;
use iceberg_sql::query::SnapshotRow;
use iceberg_sql_athena::{
    AthenaExecutor, Backoff, EnsureOptions, EnsureReport, Error, ExecutorConfig, PollConfig,
    RetryPolicy, UncheckedSql,
};
use iceberg_sql_test_server::{
    Failure, Op, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer,
};
use serde_json::{json, Value};

#[derive(IcebergTable, Debug, Clone, PartialEq)]
#[iceberg(database = "analytics", name = "ev", location = "s3://lake/ev/")]
struct Ev {
    event_id: String,
    n: i64,
}

const RESULTS: &str = "s3://athena-results/iceberg-sql/";

fn config() -> ExecutorConfig {
    ExecutorConfig::default()
        .poll(PollConfig::fixed(Duration::from_millis(2)))
        .output_location(RESULTS)
        .retry(RetryPolicy {
            max_resubmits: 2,
            base_delay: Duration::from_millis(2),
            max_delay: Duration::from_millis(5),
        })
        .api_backoff(Backoff {
            initial: Duration::from_millis(2),
            max: Duration::from_millis(10),
        })
        .timeout(Duration::from_secs(20))
}

async fn start(engine: ScriptedEngine) -> (TestServer, AthenaExecutor) {
    let server = TestServer::start(ServerConfig::new().engine(engine).row_key("event_id"))
        .await
        .expect("test server starts");
    let executor = AthenaExecutor::new(server.client(), config());
    (server, executor)
}

/// The `QueryString`s the executor sent, in order.
fn sent_sql(server: &TestServer) -> Vec<String> {
    server
        .bodies(Op::StartQueryExecution)
        .iter()
        .map(|b| b["QueryString"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// The `GetQueryResults` bodies, in order.
fn result_reads(server: &TestServer) -> Vec<Value> {
    server.bodies(Op::GetQueryResults)
}

#[tokio::test]
async fn a_delete_reports_the_rows_it_changed_and_where_its_result_is() {
    let (server, executor) = start(ScriptedEngine::new().on_contains("DELETE FROM", |_| {
        Plan::succeed().substatement("DELETE").update_count(3)
    }))
    .await;
    let delete = Ev::delete().filter(Ev::N.lt(10)).build().unwrap();
    let outcome = executor.execute(&delete).await.unwrap();

    assert_eq!(
        sent_sql(&server),
        ["DELETE FROM analytics.ev\nWHERE n < 10"]
    );
    assert_eq!(outcome.rows_affected, Some(3));
    assert_eq!(
        outcome.output_location.as_deref(),
        Some(format!("{RESULTS}{}.csv", outcome.query_id).as_str())
    );
    // The count is read once, with the smallest page: no result rows are needed.
    assert_eq!(
        result_reads(&server),
        [json!({"QueryExecutionId": outcome.query_id, "MaxResults": 1})]
    );
}

#[tokio::test]
async fn an_insert_counts_its_rows_and_names_the_manifest_of_its_files() {
    let (server, executor) = start(ScriptedEngine::new()).await;
    let rows = [
        Ev {
            event_id: "e1".into(),
            n: 1,
        },
        Ev {
            event_id: "e2".into(),
            n: 2,
        },
    ];
    let insert = Ev::insert(&rows).build().unwrap();
    let outcome = executor.execute(&insert).await.unwrap();

    assert_eq!(
        sent_sql(&server),
        ["INSERT INTO analytics.ev (event_id, n)\nVALUES\n  ('e1', 1),\n  ('e2', 2)"]
    );
    assert_eq!(outcome.rows_affected, Some(2));
    assert_eq!(server.ledger().rows_committed(), 2);
    assert_eq!(
        outcome.data_manifest_location.as_deref(),
        Some(format!("{RESULTS}{}-manifest.csv", outcome.query_id).as_str())
    );
    assert_eq!(result_reads(&server).len(), 1);
}

#[tokio::test]
async fn reads_and_ddl_read_no_update_count() {
    let (server, executor) = start(ScriptedEngine::new()).await;
    let select = Ev::select().build().unwrap();
    let outcome = executor.execute(&select).await.unwrap();
    assert_eq!(outcome.rows_affected, None);
    assert_eq!(outcome.data_manifest_location, None);
    let create = Ev::table_def()
        .create_table()
        .if_not_exists()
        .build()
        .unwrap();
    let outcome = executor.execute(&create).await.unwrap();
    assert_eq!(outcome.rows_affected, None);
    assert!(
        result_reads(&server).is_empty(),
        "no GetQueryResults without a read: {:?}",
        result_reads(&server)
    );
}

#[tokio::test]
async fn unchecked_sql_is_sent_as_written_with_its_parameters() {
    let (server, executor) = start(ScriptedEngine::new().on_contains("UPDATE", |_| {
        Plan::succeed()
            .statement_type("DML")
            .substatement("UPDATE")
            .update_count(5)
    }))
    .await;
    let text = "UPDATE analytics.ev SET n = n + 1 WHERE event_id = ?";
    let sql = UncheckedSql::new(text).unwrap().params(["'e1'"]);
    let outcome = executor.execute_unchecked(&sql).await.unwrap();

    let starts = server.bodies(Op::StartQueryExecution);
    assert_eq!(starts.len(), 1);
    assert_eq!(starts[0]["QueryString"], text);
    assert_eq!(starts[0]["ExecutionParameters"], json!(["'e1'"]));
    assert_eq!(
        starts[0]["ResultConfiguration"]["OutputLocation"],
        json!(RESULTS)
    );
    let token = starts[0]["ClientRequestToken"].as_str().unwrap();
    assert!((32..=128).contains(&token.len()), "{token}");
    // Athena said it was an UPDATE (StatementType DML): its count is read.
    assert_eq!(outcome.rows_affected, Some(5));
    assert_eq!(
        result_reads(&server),
        [json!({"QueryExecutionId": outcome.query_id, "MaxResults": 1})]
    );
}

#[tokio::test]
async fn unchecked_sql_that_failed_is_never_resubmitted_where_a_built_select_is() {
    let (server, executor) = start(ScriptedEngine::new().on_contains("FROM analytics.ev", |_| {
        Plan::fail(Failure::internal_retryable())
    }))
    .await;
    let text = "SELECT * FROM analytics.ev";
    let err = executor
        .execute_unchecked(&UncheckedSql::new(text).unwrap())
        .await
        .unwrap_err();
    let Error::Failed(qe) = &err else {
        panic!("expected Failed, got {err:?}")
    };
    assert!(qe.is_retryable(), "Athena marked it retryable: {qe}");
    assert_eq!(qe.statement_kind, None, "unchecked SQL has no kind");
    assert_eq!(sent_sql(&server), [text], "one run, no resubmission");

    // The same failure on a built SELECT is resubmitted (new token each time).
    let select = Ev::select().build().unwrap();
    assert_eq!(select.sql(), text);
    let err = executor.execute(&select).await.unwrap_err();
    assert!(matches!(err, Error::Failed(_)), "{err:?}");
    let starts = server.bodies(Op::StartQueryExecution);
    assert_eq!(starts.len(), 1 + 3, "a first run and two resubmissions");
    let tokens: std::collections::BTreeSet<_> = starts
        .iter()
        .map(|b| b["ClientRequestToken"].to_string())
        .collect();
    assert_eq!(tokens.len(), 4);
}

#[test]
fn unchecked_sql_is_refused_when_blank_or_over_athenas_limit() {
    for blank in ["", "  \n\t"] {
        let err = UncheckedSql::new(blank).unwrap_err();
        assert!(err.to_string().contains("empty"), "{err}");
    }
    let at_limit = format!("SELECT '{}'", "x".repeat(262_144 - 9));
    assert_eq!(at_limit.len(), 262_144);
    assert!(UncheckedSql::new(at_limit.clone()).is_ok());
    let err = UncheckedSql::new(format!("{at_limit} ")).unwrap_err();
    assert!(err.to_string().contains("262145 bytes"), "{err}");
}

fn database_missing() -> Plan {
    Plan::fail(Failure::new(
        2,
        1000,
        false,
        "FAILED: SemanticException [Error 10072]: Database does not exist: analytics",
    ))
}

#[tokio::test]
async fn ensure_table_creates_the_database_of_a_new_account_when_asked() {
    let (server, executor) =
        start(ScriptedEngine::new().on_contains("SHOW CREATE TABLE", |_| database_missing())).await;
    let report = executor
        .ensure_table(Ev::table_def(), EnsureOptions::new().create_database())
        .await
        .unwrap();
    let create_table = Ev::table_def()
        .create_table()
        .if_not_exists()
        .build()
        .unwrap();
    assert_eq!(
        sent_sql(&server),
        [
            "SHOW CREATE TABLE analytics.ev",
            "CREATE DATABASE IF NOT EXISTS analytics",
            create_table.sql(),
        ]
    );
    let EnsureReport::Created {
        not_found,
        database,
        create,
        ..
    } = &report
    else {
        panic!("expected Created, got {report:?}")
    };
    assert!(not_found.is_database_not_found());
    assert_eq!(
        database.as_ref().unwrap().sql,
        "CREATE DATABASE IF NOT EXISTS analytics"
    );
    assert_eq!(create.sql, create_table.sql());
    assert_eq!(report.changes(), 2);
    assert_eq!(report.outcomes().len(), 2);
}

#[tokio::test]
async fn ensure_table_without_the_database_stops_at_athenas_answer() {
    let (server, executor) =
        start(ScriptedEngine::new().on_contains("SHOW CREATE TABLE", |_| database_missing())).await;
    let err = executor
        .ensure_table(Ev::table_def(), EnsureOptions::new())
        .await
        .unwrap_err();
    let Error::Failed(qe) = &err else {
        panic!("expected Failed, got {err:?}")
    };
    assert!(qe.is_database_not_found(), "{qe}");
    assert_eq!(sent_sql(&server), ["SHOW CREATE TABLE analytics.ev"]);
}

#[tokio::test]
async fn snapshots_are_read_typed_in_one_call() {
    let (server, executor) = start(ScriptedEngine::new().on_contains("$snapshots", |_| {
        Plan::rows(ResultSet::select(
            &[
                ("committed_at", "timestamp(3) with time zone"),
                ("snapshot_id", "bigint"),
                ("parent_id", "bigint"),
                ("operation", "varchar"),
                ("manifest_list", "varchar"),
                ("summary", "json"),
            ],
            vec![
                vec![
                    Some("2026-01-01 12:00:00.000 UTC".into()),
                    Some("1".into()),
                    None,
                    Some("append".into()),
                    Some("s3://lake/ev/metadata/snap-1.avro".into()),
                    Some(r#"{"added-records":"2"}"#.into()),
                ],
                vec![
                    Some("2026-01-02 08:30:00.250 UTC".into()),
                    Some("2".into()),
                    Some("1".into()),
                    Some("delete".into()),
                    None,
                    None,
                ],
            ],
        ))
    }))
    .await;
    let snaps = executor.snapshots(Ev::table_def().name()).await.unwrap();

    assert_eq!(
        sent_sql(&server),
        [
            "SELECT committed_at, snapshot_id, parent_id, operation, manifest_list, \
             CAST(summary AS JSON) AS summary FROM \"analytics\".\"ev$snapshots\""
        ]
    );
    assert_eq!(snaps.len(), 2);
    assert_eq!(snaps[0].snapshot_id, 1);
    assert_eq!(snaps[0].parent_id, None);
    assert_eq!(
        snaps[0].summary.as_ref().unwrap()["added-records"],
        "2".to_string()
    );
    assert_eq!(snaps[1].parent_id, Some(1));
    assert_eq!(
        snaps[1].committed_at.to_rfc3339(),
        "2026-01-02T08:30:00.250+00:00"
    );
    assert_eq!(snaps[1].summary, None);
    let id = server.ledger().executions[0].id.clone();
    assert_eq!(
        result_reads(&server),
        [json!({"QueryExecutionId": id, "MaxResults": 1000})]
    );
    let _: &SnapshotRow = &snaps[0];
}

#[tokio::test]
async fn views_are_listed_with_their_definitions_and_checked_against_a_plan() {
    let (server, executor) = start(ScriptedEngine::new().on_contains(
        "information_schema.views",
        |_| {
            Plan::rows(ResultSet::select(
                &[("table_name", "varchar"), ("view_definition", "varchar")],
                vec![
                    vec![
                        Some("big_n".into()),
                        Some("SELECT event_id, n FROM analytics.ev WHERE n > 10".into()),
                    ],
                    vec![
                        Some("ids".into()),
                        Some("SELECT \"event_id\" FROM \"analytics\".\"ev\"".into()),
                    ],
                ],
            ))
        },
    ))
    .await;
    let views = executor
        .views(&DatabaseName::new("analytics"))
        .await
        .unwrap();
    assert_eq!(
        sent_sql(&server),
        [
            "SELECT table_name, view_definition FROM information_schema.views \
          WHERE table_schema = 'analytics' ORDER BY table_name"
        ]
    );
    let names: Vec<_> = views.iter().map(|v| v.view_name().cloned()).collect();
    assert_eq!(
        names,
        [
            Some(TableName::new("analytics", "big_n")),
            Some(TableName::new("analytics", "ids"))
        ]
    );
    // Renaming n breaks big_n (selects and filters on it), not ids.
    let live = Ev::table_def();
    let desired = TableDef::builder("analytics", "ev")
        .column(Column::new("event_id", IcebergType::String))
        .column(Column::new("count", IcebergType::Long).renamed_from("n"))
        .location("s3://lake/ev/")
        .build()
        .unwrap();
    let plan =
        iceberg_sql::evolve::evolve(live, &desired, iceberg_sql::evolve::EvolveOptions::new())
            .unwrap()
            .check_readers(live, &views)
            .unwrap();
    let report: Vec<String> = plan.steps[0]
        .readers
        .iter()
        .map(|b| b.to_string())
        .collect();
    assert_eq!(
        report,
        ["analytics.big_n selects n", "analytics.big_n filters on n"]
    );
    assert_eq!(
        plan.statements().map(|s| s.sql()).collect::<Vec<_>>(),
        [
            "ALTER TABLE analytics.ev CHANGE COLUMN n count bigint",
            "CREATE OR REPLACE VIEW analytics.big_n AS\n\
             SELECT event_id, count AS n FROM analytics.ev WHERE count > 10"
        ]
    );
}

#[tokio::test]
async fn a_view_definition_our_parser_cannot_read_is_an_error_naming_it() {
    let (_server, executor) = start(ScriptedEngine::new().on_contains(
        "information_schema.views",
        |_| {
            Plan::rows(ResultSet::select(
                &[("table_name", "varchar"), ("view_definition", "varchar")],
                vec![vec![Some("odd".into()), Some("SELECT FROM WHERE".into())]],
            ))
        },
    ))
    .await;
    let err = executor
        .views(&DatabaseName::new("analytics"))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("reader analytics.odd: our parser cannot read its SQL"),
        "{err}"
    );
}

#[tokio::test]
async fn show_tables_and_describe_send_the_built_statements() {
    let describe_lines = [
        "event_id\tstring\t",
        "n\tbigint\t",
        "\t \t ",
        "# Partition Transforms\t \t ",
        "# field_name\tfield_transform\tcolumn_name",
    ];
    let (server, executor) = start(
        ScriptedEngine::new()
            .on_contains("SHOW TABLES", |_| {
                Plan::rows(ResultSet {
                    columns: vec![("tab_name".into(), "varchar".into())],
                    rows: vec![vec![Some("ev".into())], vec![Some("ev_daily".into())]],
                    header: false,
                })
                .statement_type("DDL")
                .substatement("SHOW_TABLES")
            })
            .on_contains("DESCRIBE", move |_| {
                Plan::rows(ResultSet {
                    columns: vec![("col_name".into(), "varchar".into())],
                    rows: describe_lines
                        .iter()
                        .map(|l| vec![Some(l.to_string())])
                        .collect(),
                    header: false,
                })
                .statement_type("DDL")
                .substatement("DESCRIBE_TABLE")
            }),
    )
    .await;
    let tables = executor
        .show_tables(&DatabaseName::new("analytics"))
        .await
        .unwrap();
    assert_eq!(tables, ["ev", "ev_daily"]);
    let live = executor.describe(Ev::table_def().name()).await.unwrap();
    assert_eq!(
        sent_sql(&server),
        ["SHOW TABLES IN analytics", "DESCRIBE analytics.ev"]
    );
    let columns: Vec<(String, IcebergType)> = live
        .columns()
        .iter()
        .map(|c| (c.name.clone(), c.ty.clone()))
        .collect();
    assert_eq!(
        columns,
        [
            ("event_id".to_string(), IcebergType::String),
            ("n".to_string(), IcebergType::Long)
        ]
    );
    assert!(live.partition_spec().is_empty());
}

fn three_rows() -> Plan {
    Plan::rows(ResultSet::select(
        &[("event_id", "varchar"), ("n", "bigint")],
        vec![
            vec![Some("e1".into()), Some("1".into())],
            vec![Some("e2".into()), None],
            vec![Some("".into()), Some("3".into())],
        ],
    ))
}

#[tokio::test]
async fn fetch_streams_typed_rows_page_by_page() {
    let (server, _) =
        start(ScriptedEngine::new().on_contains("FROM analytics.ev", |_| three_rows())).await;
    let executor = AthenaExecutor::new(server.client(), config().page_size(2));
    let select = Ev::select().build().unwrap();
    let rows: Vec<(String, Option<i64>)> = executor.fetch(&select).try_collect().await.unwrap();
    assert_eq!(
        rows,
        [
            ("e1".to_string(), Some(1)),
            ("e2".to_string(), None),
            (String::new(), Some(3))
        ]
    );
    let id = server.ledger().executions[0].id.clone();
    // Header + e1, then e2 + the third row.
    assert_eq!(
        result_reads(&server),
        [
            json!({"QueryExecutionId": id, "MaxResults": 2}),
            json!({"QueryExecutionId": id, "MaxResults": 2, "NextToken": "page-2"}),
        ]
    );
}

#[cfg(feature = "serde")]
#[tokio::test]
async fn fetch_serde_decodes_into_any_deserialize_type() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Plain {
        event_id: String,
        n: Option<i64>,
    }
    let (server, executor) =
        start(ScriptedEngine::new().on_contains("FROM analytics.ev", |_| three_rows())).await;
    let select = Ev::select().build().unwrap();
    let rows: Vec<Plain> = executor.fetch_serde(&select).try_collect().await.unwrap();
    assert_eq!(
        rows[1],
        Plain {
            event_id: "e2".into(),
            n: None
        }
    );
    assert_eq!(rows[2].event_id, "", "an empty string is not NULL");
    assert_eq!(sent_sql(&server), ["SELECT * FROM analytics.ev"]);
}

#[cfg(feature = "arrow")]
#[tokio::test]
async fn fetch_arrow_gives_one_batch_per_page_with_the_schema_even_when_empty() {
    use iceberg_sql_athena::arrow_array::{Array, Int64Array, StringArray};

    let (server, _) = start(
        ScriptedEngine::new()
            .on_contains("WHERE n > 100", |_| {
                Plan::rows(ResultSet::select(
                    &[("event_id", "varchar"), ("n", "bigint")],
                    vec![],
                ))
            })
            .on_contains("FROM analytics.ev", |_| three_rows()),
    )
    .await;
    let executor = AthenaExecutor::new(server.client(), config().page_size(2));
    let select = Ev::select().build().unwrap();
    let batches: Vec<_> = executor.fetch_arrow(&select).try_collect().await.unwrap();
    assert_eq!(
        batches.iter().map(|b| b.num_rows()).collect::<Vec<_>>(),
        [1, 2]
    );
    assert_eq!(
        batches[0].schema().field(1).data_type(),
        &arrow_schema::DataType::Int64
    );
    let ids = batches[1]
        .column(0)
        .as_any()
        .downcast_ref::<StringArray>()
        .unwrap();
    assert_eq!(
        (ids.value(0), ids.is_null(1), ids.value(1)),
        ("e2", false, "")
    );
    let ns = batches[1]
        .column(1)
        .as_any()
        .downcast_ref::<Int64Array>()
        .unwrap();
    assert!(ns.is_null(0));
    assert_eq!(ns.value(1), 3);
    assert_eq!(result_reads(&server).len(), 2);

    let none = Ev::select().filter(Ev::N.gt(100)).build().unwrap();
    let batches: Vec<_> = executor.fetch_arrow(&none).try_collect().await.unwrap();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].num_rows(), 0);
    assert_eq!(batches[0].schema(), {
        let first: Vec<_> = executor.fetch_arrow(&select).try_collect().await.unwrap();
        first[0].schema()
    });
}
