//! `ensure_table` (SHOW CREATE TABLE -> create, or parse + evolve + apply) and
//! `maintain_def` with vacuum retention, against an in-process fake that answers by
//! QueryString. Every test asserts the exact statements sent, in order.
mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::*;
use iceberg_sql::prelude::*;
use iceberg_sql_athena::{
    AthenaExecutor, EnsureOptions, EnsureReport, Error, ExecutorConfig, LiveDefinition,
    MaintenanceOptions, PollConfig, RunEnd,
};
use serde_json::{json, Value};

const NAME: &str = "analytics.mcp_events";
const LOC: &str = "s3://my-datalake/iceberg/mcp_events/";

/// How the fake answers `SHOW CREATE TABLE`.
#[derive(Clone)]
enum Show {
    /// FAILED with this GetQueryExecution answer (built by `failed`/`failed_no_type`).
    Fails(fn(&str) -> Value),
    /// SUCCEEDED; the text comes back one line per row, over two result pages.
    Text(String),
}

/// Hive's answer for a missing table, as Athena's DDL path reports it (no error type).
fn hive_not_found(id: &str) -> Value {
    json!({"QueryExecution": {
        "QueryExecutionId": id,
        "StatementType": "DDL",
        "Status": {
            "State": "FAILED",
            "StateChangeReason": "FAILED: SemanticException [Error 10001]: Table not found analytics.mcp_events",
            "AthenaError": {"ErrorCategory": 2, "Retryable": false}
        }
    }})
}

/// Trino's answer for a missing table, with Athena's error type 1110.
fn trino_not_found(id: &str) -> Value {
    failed(
        id,
        "TABLE_NOT_FOUND: line 1:1: Table 'awsdatacatalog.analytics.mcp_events' does not exist",
        2,
        1110,
        false,
    )
}

/// A table Athena cannot print (custom properties): not "missing".
fn unsupported(id: &str) -> Value {
    failed(
        id,
        "NOT_SUPPORTED: SHOW CREATE TABLE is not supported for this table",
        2,
        1200,
        false,
    )
}

/// A scripted Athena: queries succeed, except SHOW CREATE TABLE (per `show`) and the
/// statements whose QueryString starts with a `more_runs` prefix, which answer
/// MORE_RUNS_NEEDED that many times first.
fn fake(show: Show, more_runs: &[(&'static str, usize, &'static str)]) -> FakeAthena {
    let mut sql_of: HashMap<String, String> = HashMap::new();
    let mut remaining: Vec<(&'static str, usize, &'static str)> = more_runs.to_vec();
    let mut n = 0;
    FakeAthena::new(move |call| match call.op.as_str() {
        "StartQueryExecution" => {
            n += 1;
            let id = format!("q-{n}");
            let sql = call.body["QueryString"].as_str().unwrap().to_string();
            sql_of.insert(id.clone(), sql);
            ok(json!({"QueryExecutionId": id}))
        }
        "GetQueryExecution" => {
            let id = call.body["QueryExecutionId"].as_str().unwrap().to_string();
            let sql = sql_of[&id].clone();
            if sql.starts_with("SHOW CREATE TABLE") {
                return match &show {
                    Show::Fails(answer) => ok(answer(&id)),
                    Show::Text(_) => ok(json!({"QueryExecution": {
                        "QueryExecutionId": id, "StatementType": "DDL",
                        "SubstatementType": "SHOW_CREATE_TABLE",
                        "Status": {"State": "SUCCEEDED"}}})),
                };
            }
            for (prefix, left, reason) in remaining.iter_mut() {
                if sql.starts_with(*prefix) && *left > 0 {
                    *left -= 1;
                    return ok(failed(&id, reason, 2, 233, false));
                }
            }
            ok(json!({"QueryExecution": {"QueryExecutionId": id,
                "StatementType": "DDL", "Status": {"State": "SUCCEEDED"}}}))
        }
        "GetQueryResults" => {
            let Show::Text(text) = &show else {
                return aws_error(400, "InvalidRequestException", "no results");
            };
            // No header row for DDL; the text split over two pages.
            let lines: Vec<&str> = text.lines().collect();
            let half = lines.len() / 2;
            let row = |l: &&str| json!({"Data": [{"VarCharValue": l}]});
            let meta = json!({"ColumnInfo": [{"Name": "createtab_stmt", "Type": "string"}]});
            if call.body.get("NextToken").is_none() {
                ok(json!({"NextToken": "page-2", "ResultSet": {
                    "Rows": lines[..half].iter().map(row).collect::<Vec<_>>(),
                    "ResultSetMetadata": meta}}))
            } else {
                ok(json!({"ResultSet": {
                    "Rows": lines[half..].iter().map(row).collect::<Vec<_>>(),
                    "ResultSetMetadata": meta}}))
            }
        }
        other => aws_error(
            400,
            "InvalidRequestException",
            &format!("unexpected {other}"),
        ),
    })
}

fn config() -> ExecutorConfig {
    ExecutorConfig::default()
        .work_group("wg")
        .result_reuse(15)
        .poll(PollConfig::fixed(Duration::from_millis(100)))
}

fn sent_sql(fake: &FakeAthena) -> Vec<String> {
    fake.bodies("StartQueryExecution")
        .iter()
        .map(|b| b["QueryString"].as_str().unwrap().to_string())
        .collect()
}

fn def(columns: Vec<Column>) -> TableDef {
    TableDef::builder("analytics", "mcp_events")
        .columns(columns)
        .location(LOC)
        .build()
        .unwrap()
}

/// The desired table of most tests.
fn desired() -> TableDef {
    def(vec![
        Column::new("event_id", IcebergType::String).required(),
        Column::new("status", IcebergType::String),
        Column::new("retry_count", IcebergType::Int),
    ])
}

/// What Athena prints for a table with these `(name, type)` columns: backticks, a
/// location without the trailing slash, properties Athena adds on its own.
fn athena_ddl(columns: &[(&str, &str)]) -> String {
    let cols: Vec<String> = columns
        .iter()
        .map(|(n, t)| format!("  `{n}` {t}"))
        .collect();
    format!(
        "CREATE TABLE `analytics`.`mcp_events`(\n{})\n\
         LOCATION 's3://my-datalake/iceberg/mcp_events'\n\
         TBLPROPERTIES (\n  'table_type'='iceberg', \n  'format'='parquet', \n  \
         'write_compression'='zstd', \n  'optimize_rewrite_delete_file_threshold'='2'\n)",
        cols.join(", \n")
    )
}

#[tokio::test(start_paused = true)]
async fn missing_table_is_created() {
    for not_found in [hive_not_found as fn(&str) -> Value, trino_not_found] {
        let fake = fake(Show::Fails(not_found), &[]);
        let ex = AthenaExecutor::new(fake.client(), config());
        let report = ex
            .ensure_table(&desired(), EnsureOptions::new())
            .await
            .unwrap();
        let create = desired().create_table().if_not_exists().build().unwrap();
        assert_eq!(
            sent_sql(&fake),
            [
                format!("SHOW CREATE TABLE {NAME}"),
                create.sql().to_string()
            ]
        );
        assert!(create.sql().starts_with("CREATE TABLE IF NOT EXISTS"));
        let EnsureReport::Created { not_found, create } = &report else {
            panic!("expected Created, got {report:?}")
        };
        assert!(not_found.is_table_not_found());
        assert_eq!(not_found.query_id, "q-1");
        assert_eq!(create.query_id, "q-2");
        assert_eq!(report.changes(), 1);
        assert_eq!(report.to_string(), "created (query q-2)");
        // The SHOW body: exact text, work group, no parameters and no result reuse
        // (the live definition is always read fresh).
        let mut show = fake.bodies("StartQueryExecution").remove(0);
        show.as_object_mut().unwrap().remove("ClientRequestToken");
        assert_eq!(
            show,
            json!({"QueryString": format!("SHOW CREATE TABLE {NAME}"), "WorkGroup": "wg"})
        );
    }
}

#[tokio::test(start_paused = true)]
async fn other_show_failures_are_errors_and_nothing_is_created() {
    let fake = fake(Show::Fails(unsupported), &[]);
    let ex = AthenaExecutor::new(fake.client(), config());
    let err = ex
        .ensure_table(&desired(), EnsureOptions::new())
        .await
        .unwrap_err();
    let q = err.query_error().expect("a query error");
    assert!(!q.is_table_not_found());
    assert_eq!(q.error_type, Some(1200));
    assert_eq!(sent_sql(&fake), [format!("SHOW CREATE TABLE {NAME}")]);
}

#[tokio::test(start_paused = true)]
async fn equal_table_runs_nothing_after_show() {
    let text = athena_ddl(&[
        ("event_id", "string"),
        ("status", "string"),
        ("retry_count", "int"),
    ]);
    let fake = fake(Show::Text(text.clone()), &[]);
    let ex = AthenaExecutor::new(fake.client(), config());
    let report = ex
        .ensure_table(&desired(), EnsureOptions::new())
        .await
        .unwrap();
    assert!(report.is_unchanged(), "{report}");
    assert_eq!(report.changes(), 0);
    assert_eq!(report.to_string(), "unchanged");
    assert_eq!(sent_sql(&fake), [format!("SHOW CREATE TABLE {NAME}")]);
    // Both result pages read; the first row (`CREATE TABLE ...`) is not a header.
    assert_eq!(fake.count("GetQueryResults"), 2);
    let EnsureReport::Unchanged { live, .. } = &report else {
        unreachable!()
    };
    assert_eq!(live.columns().len(), 3);
    assert_eq!(live.location().unwrap().as_str(), LOC);

    // live_definition hands back the joined text as well.
    let LiveDefinition::Present { text: read, .. } =
        ex.live_definition(desired().name()).await.unwrap()
    else {
        panic!("expected Present")
    };
    assert_eq!(read, text);
}

#[tokio::test(start_paused = true)]
async fn missing_column_is_added_with_exactly_one_alter() {
    let fake = fake(
        Show::Text(athena_ddl(&[("event_id", "string"), ("status", "string")])),
        &[],
    );
    let ex = AthenaExecutor::new(fake.client(), config());
    let report = ex
        .ensure_table(&desired(), EnsureOptions::new())
        .await
        .unwrap();
    assert_eq!(
        sent_sql(&fake),
        [
            format!("SHOW CREATE TABLE {NAME}"),
            format!("ALTER TABLE {NAME} ADD COLUMNS (retry_count int)"),
        ]
    );
    let mut alter = fake.bodies("StartQueryExecution").remove(1);
    alter.as_object_mut().unwrap().remove("ClientRequestToken");
    assert_eq!(
        alter,
        json!({"QueryString": format!("ALTER TABLE {NAME} ADD COLUMNS (retry_count int)"),
               "WorkGroup": "wg"})
    );
    let EnsureReport::Evolved { plan, steps, .. } = &report else {
        panic!("expected Evolved, got {report:?}")
    };
    assert_eq!(plan.steps.len(), 1);
    assert!(!plan.is_breaking());
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].query_id, "q-2");
    assert_eq!(report.changes(), 1);
    assert!(
        report.to_string().starts_with("evolved with 1 step:"),
        "{report}"
    );
    assert_eq!(report.outcomes().len(), 2);
}

#[tokio::test(start_paused = true)]
async fn breaking_change_is_refused_without_permission_and_applied_with_it() {
    let live = athena_ddl(&[
        ("event_id", "string"),
        ("status", "string"),
        ("retry_count", "int"),
    ]);
    let wanted = def(vec![
        Column::new("event_id", IcebergType::String).required(),
        Column::new("state", IcebergType::String).renamed_from("status"),
        Column::new("retry_count", IcebergType::Long),
        Column::new("error_code", IcebergType::String),
    ]);

    // Refused: only SHOW ran; not even the non-breaking ADD COLUMNS.
    let refused = fake(Show::Text(live.clone()), &[]);
    let ex = AthenaExecutor::new(refused.client(), config());
    let err = ex
        .ensure_table(&wanted, EnsureOptions::new())
        .await
        .unwrap_err();
    let Error::BreakingChange {
        plan,
        refused: what,
    } = &err
    else {
        panic!("expected BreakingChange, got {err:?}")
    };
    assert_eq!(plan.steps.len(), 3);
    assert_eq!(
        what,
        &[
            "rename column status to state",
            "widen column retry_count from int to long"
        ]
    );
    assert!(err.to_string().contains("nothing was run"), "{err}");
    assert_eq!(sent_sql(&refused), [format!("SHOW CREATE TABLE {NAME}")]);

    // allow_drops is not permission for renames or type changes.
    let still = fake(Show::Text(live.clone()), &[]);
    let ex = AthenaExecutor::new(still.client(), config());
    assert!(matches!(
        ex.ensure_table(&wanted, EnsureOptions::new().allow_drops())
            .await,
        Err(Error::BreakingChange { .. })
    ));
    assert_eq!(still.count("StartQueryExecution"), 1);

    // Allowed: the plan's statements, in order, once each.
    let allowed = fake(Show::Text(live), &[]);
    let ex = AthenaExecutor::new(allowed.client(), config());
    let report = ex
        .ensure_table(&wanted, EnsureOptions::new().allow_breaking())
        .await
        .unwrap();
    assert_eq!(
        sent_sql(&allowed),
        [
            format!("SHOW CREATE TABLE {NAME}"),
            format!("ALTER TABLE {NAME} CHANGE COLUMN status state string"),
            format!("ALTER TABLE {NAME} CHANGE COLUMN retry_count retry_count bigint"),
            format!("ALTER TABLE {NAME} ADD COLUMNS (error_code string)"),
        ]
    );
    assert_eq!(report.changes(), 3);
    assert!(
        report.to_string().starts_with("evolved with 3 steps:"),
        "{report}"
    );
}

#[tokio::test(start_paused = true)]
async fn drops_need_allow_drops_and_illegal_changes_are_refused_before_running() {
    let live = athena_ddl(&[
        ("event_id", "string"),
        ("status", "string"),
        ("retry_count", "int"),
        ("legacy", "string"),
    ]);

    // A live column the definition no longer has: the planner refuses.
    let f = fake(Show::Text(live.clone()), &[]);
    let ex = AthenaExecutor::new(f.client(), config());
    let err = ex
        .ensure_table(&desired(), EnsureOptions::new())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Statement(_)), "{err:?}");
    assert!(err.to_string().contains("`legacy`"), "{err}");
    assert_eq!(f.count("StartQueryExecution"), 1);

    // allow_drops: the DROP runs (it is its own permission).
    let f = fake(Show::Text(live), &[]);
    let ex = AthenaExecutor::new(f.client(), config());
    let report = ex
        .ensure_table(&desired(), EnsureOptions::new().allow_drops())
        .await
        .unwrap();
    assert_eq!(
        sent_sql(&f),
        [
            format!("SHOW CREATE TABLE {NAME}"),
            format!("ALTER TABLE {NAME} DROP COLUMN legacy"),
        ]
    );
    assert_eq!(report.changes(), 1);

    // string -> int cannot be done in place: refused even with every permission.
    let f = fake(
        Show::Text(athena_ddl(&[
            ("event_id", "string"),
            ("status", "string"),
            ("retry_count", "string"),
        ])),
        &[],
    );
    let ex = AthenaExecutor::new(f.client(), config());
    let err = ex
        .ensure_table(
            &desired(),
            EnsureOptions::new().allow_breaking().allow_drops(),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Statement(_)), "{err:?}");
    assert!(err.to_string().contains("retry_count"), "{err}");
    assert_eq!(f.count("StartQueryExecution"), 1);
}

#[tokio::test(start_paused = true)]
async fn unreadable_live_definition_is_a_typed_error() {
    let f = fake(
        Show::Text("CREATE TABLE `analytics`.`mcp_events`(\n  `id` uuid)".into()),
        &[],
    );
    let ex = AthenaExecutor::new(f.client(), config());
    let err = ex
        .ensure_table(&desired(), EnsureOptions::new())
        .await
        .unwrap_err();
    let Error::LiveDefinition {
        table,
        query_id,
        text,
        ..
    } = &err
    else {
        panic!("expected LiveDefinition, got {err:?}")
    };
    assert_eq!(table, NAME);
    assert_eq!(query_id, "q-1");
    assert!(text.contains("uuid"));
    assert_eq!(err.query_id(), Some("q-1"));
    assert_eq!(f.count("StartQueryExecution"), 1);
}

#[tokio::test(start_paused = true)]
async fn maintenance_with_retention_runs_optimize_alter_vacuum_in_order() {
    let f = fake(
        Show::Fails(trino_not_found),
        &[
            (
                "OPTIMIZE",
                2,
                "ICEBERG_OPTIMIZE_MORE_RUNS_NEEDED: Processed 100 partitions in this round",
            ),
            (
                "VACUUM",
                1,
                "ICEBERG_VACUUM_MORE_RUNS_NEEDED: run VACUUM again",
            ),
        ],
    );
    let ex = AthenaExecutor::new(f.client(), config());
    let table = desired();
    let report = ex
        .maintain_def(&table, MaintenanceOptions::new().retain_days(7))
        .await
        .unwrap();
    let optimize = table.optimize().build().unwrap().into_sql();
    let alter = format!(
        "ALTER TABLE {NAME} SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='604800')"
    );
    let vacuum = format!("VACUUM {NAME}");
    assert_eq!(
        sent_sql(&f),
        [
            optimize.clone(),
            optimize.clone(),
            optimize,
            alter.clone(),
            vacuum.clone(),
            vacuum
        ]
    );
    // The same statements the core's builder gives for that retention.
    let steps = table.vacuum().retain_days(7).build_steps().unwrap();
    assert_eq!(steps[0].sql(), alter);
    assert_eq!(report.optimize.runs.len(), 3);
    assert!(matches!(
        report.optimize.runs[1].end,
        RunEnd::MoreRunsNeeded(_)
    ));
    assert_eq!(report.retention.as_ref().unwrap().runs.len(), 1);
    assert_eq!(report.retention.as_ref().unwrap().query_id, "q-4");
    assert_eq!(report.vacuum.runs.len(), 2);

    // Retention with more than the age: every property in one ALTER.
    let f = fake(Show::Fails(trino_not_found), &[]);
    let ex = AthenaExecutor::new(f.client(), config());
    let r = VacuumRetention::days(3).min_snapshots_to_keep(5);
    ex.maintain_def(&table, MaintenanceOptions::new().retention(r))
        .await
        .unwrap();
    let sent = sent_sql(&f);
    assert_eq!(sent.len(), 3);
    assert_eq!(
        sent[1],
        table
            .alter()
            .set_properties(r.properties())
            .build()
            .unwrap()
            .sql()
    );
    assert!(
        sent[1].contains("'vacuum_min_snapshots_to_keep'='5'"),
        "{}",
        sent[1]
    );

    // Without a retention: OPTIMIZE then VACUUM, nothing in between.
    let f = fake(Show::Fails(trino_not_found), &[]);
    let ex = AthenaExecutor::new(f.client(), config());
    let report = ex
        .maintain_def(&table, MaintenanceOptions::new())
        .await
        .unwrap();
    assert_eq!(report.retention, None);
    assert_eq!(
        sent_sql(&f),
        [
            table.optimize().build().unwrap().into_sql(),
            format!("VACUUM {NAME}")
        ]
    );
}
