//! The executor with statements from the core crate's typed builders (SELECT with
//! parameters, INSERT batches, OPTIMIZE/VACUUM, evolution plans), against in-process fakes.
mod common;

use std::sync::OnceLock;

use common::*;
use futures::TryStreamExt;
use iceberg_sql::dsl::param;
use iceberg_sql::evolve::{evolve, EvolveOptions};
use iceberg_sql::prelude::*;
use iceberg_sql_athena::{
    AppendOptions, AthenaExecutor, EnsureOptions, Error, ExecutorConfig, FromRow,
    MaintenanceOptions, PollConfig, Row, RunEnd,
};
use serde_json::json;

/// A record type with a hand-written `IcebergTable` impl (what the derive generates).
#[derive(Debug, Clone, PartialEq)]
struct Ev {
    event_id: String,
    status: Option<String>,
}

impl Ev {
    const STATUS: Col<Ev, String> = Col::new("status");
}

fn ev_def() -> TableDef {
    TableDef::builder("analytics", "mcp_events")
        .column(Column::new("event_id", IcebergType::String).required())
        .column(Column::new("status", IcebergType::String))
        .location("s3://my-datalake/iceberg/mcp_events/")
        .build()
        .unwrap()
}

impl IcebergTable for Ev {
    fn table_def() -> &'static TableDef {
        static DEF: OnceLock<TableDef> = OnceLock::new();
        DEF.get_or_init(ev_def)
    }
    fn to_values(&self) -> Vec<Value> {
        vec![
            Value::String(self.event_id.clone()),
            self.status.clone().map_or(Value::Null, Value::String),
        ]
    }
}

/// Decoding by hand, through the one row trait (what `#[derive(FromRow)]` generates).
impl FromRow for Ev {
    fn from_row(row: &Row) -> iceberg_sql::Result<Self> {
        Ok(Ev {
            event_id: row.try_get("event_id")?,
            status: row.try_get("status")?,
        })
    }
}

fn config() -> ExecutorConfig {
    ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(100)))
}

/// Every query succeeds, except the scripted failures keyed by a QueryString prefix.
fn fake(fail_first: Option<(&'static str, &'static str)>) -> FakeAthena {
    let mut n = 0;
    let mut failed_once = false;
    let mut last_sql = String::new();
    FakeAthena::new(move |call| match call.op.as_str() {
        "StartQueryExecution" => {
            n += 1;
            last_sql = call.body["QueryString"].as_str().unwrap_or("").to_string();
            ok(json!({"QueryExecutionId": format!("q-{n}")}))
        }
        "GetQueryExecution" => {
            let id = format!("q-{n}");
            match fail_first {
                _ if last_sql.starts_with("SHOW CREATE TABLE") => ok(failed(
                    &id,
                    "FAILED: SemanticException [Error 10001]: Table not found analytics.mcp_events",
                    2,
                    1110,
                    false,
                )),
                Some((prefix, reason)) if !failed_once && last_sql.starts_with(prefix) => {
                    failed_once = true;
                    ok(failed(&id, reason, 2, 233, false))
                }
                _ => ok(json!({"QueryExecution": {"QueryExecutionId": id,
                    "StatementType": "DML", "Status": {"State": "SUCCEEDED"}}})),
            }
        }
        "GetQueryResults" => ok(json!({"ResultSet": {
            "Rows": [
                {"Data": [{"VarCharValue": "event_id"}, {"VarCharValue": "status"}]},
                {"Data": [{"VarCharValue": "e1"}, {}]},
                {"Data": [{"VarCharValue": "e2"}, {"VarCharValue": ""}]}
            ],
            "ResultSetMetadata": {"ColumnInfo": [
                {"Name": "event_id", "Type": "varchar"},
                {"Name": "status", "Type": "varchar"}
            ]}
        }})),
        _ => aws_error(400, "InvalidRequestException", "unexpected"),
    })
}

fn sent_sql(fake: &FakeAthena) -> Vec<String> {
    fake.bodies("StartQueryExecution")
        .iter()
        .map(|b| b["QueryString"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(start_paused = true)]
async fn parameterized_select_sends_exact_text_and_execution_parameters() {
    let fake = fake(None);
    let ex = AthenaExecutor::new(fake.client(), config().work_group("wg").result_reuse(15));
    let stmt = Ev::select()
        .filter(Ev::STATUS.eq(param("it's ok")))
        .build()
        .unwrap();
    assert_eq!(stmt.params(), ["'it''s ok'"]);

    let outcome = ex.execute(&stmt).await.unwrap();
    let mut body = fake.bodies("StartQueryExecution").remove(0);
    assert!(body["ClientRequestToken"].as_str().unwrap().len() >= 32);
    body.as_object_mut().unwrap().remove("ClientRequestToken");
    assert_eq!(
        body,
        json!({
            "QueryString": stmt.sql(),
            "WorkGroup": "wg",
            "ExecutionParameters": ["'it''s ok'"],
            "ResultReuseConfiguration": {
                "ResultReuseByAgeConfiguration": {"Enabled": true, "MaxAgeInMinutes": 15}
            }
        })
    );

    // The fake reports no SubstatementType: the header row is skipped because the
    // statement is a SELECT. Rows decode through the FromRow impl.
    assert!(outcome.has_header);
    let rows: Vec<Ev> = ex.decode(&outcome).try_collect().await.unwrap();
    assert_eq!(
        rows,
        vec![
            Ev {
                event_id: "e1".into(),
                status: None
            },
            Ev {
                event_id: "e2".into(),
                status: Some(String::new())
            },
        ]
    );
    let again: Vec<Ev> = ex.fetch_all(&stmt).await.unwrap();
    assert_eq!(again, rows);
}

#[tokio::test(start_paused = true)]
async fn typed_lifecycle_create_append_maintain() {
    let fake = fake(Some((
        "OPTIMIZE",
        "ICEBERG_OPTIMIZE_MORE_RUNS_NEEDED: Processed 100 partitions in this round of optimization",
    )));
    let ex = AthenaExecutor::new(fake.client(), config());

    let ensured = ex
        .ensure_table_for::<Ev>(EnsureOptions::new())
        .await
        .unwrap();
    assert!(ensured.is_created(), "{ensured}");
    let rows = vec![
        Ev {
            event_id: "e1".into(),
            status: Some("ok".into()),
        },
        Ev {
            event_id: "e2".into(),
            status: None,
        },
        Ev {
            event_id: "e3".into(),
            status: Some("O'Reilly".into()),
        },
    ];
    let mut progress = Vec::new();
    let appended = ex
        .append_rows(&rows, AppendOptions::new("typed-lifecycle"), |p| {
            progress.push((p.done, p.total))
        })
        .await
        .unwrap();
    let expected_batches = Ev::insert(&rows).max_partitions(100).batches().unwrap();
    assert_eq!(appended.batches.len(), expected_batches.len());
    assert!(appended.is_complete());
    assert_eq!(
        appended.committed_rows(),
        vec![(0..rows.len()).collect::<Vec<_>>()]
    );
    assert_eq!(
        progress.last(),
        Some(&(expected_batches.len(), expected_batches.len()))
    );

    let report = ex
        .maintain_table::<Ev>(MaintenanceOptions::new())
        .await
        .unwrap();
    assert_eq!(report.retention, None);
    assert_eq!(report.optimize.runs.len(), 2);
    assert!(matches!(
        report.optimize.runs[0].end,
        RunEnd::MoreRunsNeeded(_)
    ));
    assert_eq!(report.vacuum.runs.len(), 1);

    let mut expected = vec!["SHOW CREATE TABLE analytics.mcp_events".to_string()];
    expected.push(
        Ev::table_def()
            .create_table()
            .if_not_exists()
            .build()
            .unwrap()
            .into_sql(),
    );
    expected.extend(expected_batches.into_iter().map(Statement::into_sql));
    let optimize = Ev::table_def().optimize().build().unwrap().into_sql();
    expected.push(optimize.clone());
    expected.push(optimize);
    expected.push(Ev::table_def().vacuum().build().unwrap().into_sql());
    assert_eq!(sent_sql(&fake), expected);
    assert!(expected[2].starts_with("INSERT INTO"));
    assert!(expected[2].contains("'O''Reilly'"));
    assert_eq!(
        expected.last().map(String::as_str),
        Some("VACUUM analytics.mcp_events")
    );
}

#[tokio::test(start_paused = true)]
async fn breaking_evolution_needs_permission() {
    let fake = fake(None);
    let ex = AthenaExecutor::new(fake.client(), config());
    let live = ev_def();
    let desired = TableDef::builder("analytics", "mcp_events")
        .column(Column::new("event_id", IcebergType::String).required())
        .column(Column::new("state", IcebergType::String).renamed_from("status"))
        .column(Column::new("retry_count", IcebergType::Long))
        .location("s3://my-datalake/iceberg/mcp_events/")
        .build()
        .unwrap();
    let plan = evolve(&live, &desired, EvolveOptions::new()).unwrap();
    assert!(plan.is_breaking());
    let refused = ex.apply_evolution(&plan, false).await.unwrap_err();
    assert!(
        matches!(refused, Error::BreakingChange { ref refused, .. } if refused.len() == 1),
        "{refused}"
    );
    assert_eq!(
        fake.count("StartQueryExecution"),
        0,
        "nothing runs when refused"
    );

    let done = ex.apply_evolution(&plan, true).await.unwrap();
    assert_eq!(done.len(), plan.steps.len());
    let expected: Vec<String> = plan.statements().map(|s| s.sql().to_string()).collect();
    assert_eq!(sent_sql(&fake), expected);
}
