//! The executor against in-process fakes: every path moto cannot produce.
mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_smithy_http_client::test_util::{ReplayEvent, StaticReplayClient};
use aws_smithy_types::body::SdkBody;
use common::*;
use futures::TryStreamExt;
use iceberg_sql_athena::{
    ApiErrorClass, AppendOptions, AthenaExecutor, BatchState, CommitState, Encryption, Error,
    ErrorCategory, ExecutorConfig, FailureKind, FromRow, PollConfig, QueryState, RetryPolicy, Row,
    RunEnd,
};
use serde_json::{json, Value};

fn config() -> ExecutorConfig {
    ExecutorConfig::default()
        .work_group("wg-test")
        .poll(PollConfig::adaptive(
            Duration::from_millis(100),
            2.0,
            Duration::from_secs(1),
        ))
        .retry(RetryPolicy {
            max_resubmits: 2,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(2),
        })
}

/// Start answers q-<n>, GetQueryExecution answers from `states` per query run.
fn scripted(mut answer: impl FnMut(usize, usize) -> Value + Send + 'static) -> FakeAthena {
    let starts = Arc::new(Mutex::new(0usize));
    let polls = Arc::new(Mutex::new(0usize));
    FakeAthena::new(move |call| match call.op.as_str() {
        "StartQueryExecution" => {
            let mut s = starts.lock().unwrap();
            *s += 1;
            *polls.lock().unwrap() = 0;
            ok(json!({"QueryExecutionId": format!("q-{}", *s)}))
        }
        "GetQueryExecution" => {
            let run = *starts.lock().unwrap();
            let mut p = polls.lock().unwrap();
            *p += 1;
            ok(answer(run, *p))
        }
        "StopQueryExecution" => ok(json!({})),
        other => aws_error(
            400,
            "InvalidRequestException",
            &format!("unexpected {other}"),
        ),
    })
}

#[tokio::test(start_paused = true)]
async fn failed_query_carries_reason_category_sql_and_id() {
    let reason = "SYNTAX_ERROR: line 1:8: Column 'nope' cannot be resolved";
    let fake = scripted(move |_, poll| match poll {
        1 => execution("q-1", "QUEUED"),
        2 | 3 => execution("q-1", "RUNNING"),
        _ => failed("q-1", reason, 2, 1006, false),
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let stmt = create_stmt();
    let err = ex.execute(&stmt).await.unwrap_err();
    let Error::Failed(q) = &err else {
        panic!("expected Failed, got {err:?}")
    };
    assert_eq!(q.query_id, "q-1");
    assert_eq!(q.state, QueryState::Failed);
    assert_eq!(q.reason.as_deref(), Some(reason));
    assert_eq!(q.category, Some(ErrorCategory::User));
    assert_eq!(q.error_type, Some(1006));
    assert!(!q.retryable);
    assert_eq!(q.kind(), FailureKind::Syntax);
    assert_eq!(q.sql, stmt.sql());
    assert_eq!(err.query_id(), Some("q-1"));
    let shown = err.to_string();
    assert!(shown.contains(reason) && shown.contains("q-1") && shown.contains("error type 1006"));
    assert!(shown.contains("CREATE TABLE IF NOT EXISTS"), "{shown}");
    // A USER error is never resubmitted.
    assert_eq!(fake.count("StartQueryExecution"), 1);
    assert_eq!(fake.count("GetQueryExecution"), 4);
    assert_eq!(fake.count("StopQueryExecution"), 0);
}

#[tokio::test(start_paused = true)]
async fn cancelled_query_is_an_error_with_its_reason() {
    let fake = scripted(|_, poll| {
        if poll < 2 {
            execution("q-1", "RUNNING")
        } else {
            json!({"QueryExecution": {"QueryExecutionId": "q-1",
                "Status": {"State": "CANCELLED", "StateChangeReason": "Query cancelled by user"}}})
        }
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let err = ex.execute(&drop_stmt()).await.unwrap_err();
    let Error::Cancelled(q) = &err else {
        panic!("expected Cancelled, got {err:?}")
    };
    assert_eq!(q.state, QueryState::Cancelled);
    assert_eq!(q.reason.as_deref(), Some("Query cancelled by user"));
    assert!(!q.is_retryable());
    assert_eq!(fake.count("StartQueryExecution"), 1);
}

#[tokio::test(start_paused = true)]
async fn timeout_stops_the_query_once_and_reports_it() {
    // The fake never finishes the query, not even after the stop: the final state is
    // awaited for `stop_grace`, then the timeout says the outcome is unknown.
    let fake = scripted(|_, _| execution("q-1", "RUNNING"));
    let ex = AthenaExecutor::new(
        fake.client(),
        config()
            .timeout(Duration::from_secs(5))
            .stop_grace(Duration::from_secs(3)),
    );
    let started = tokio::time::Instant::now();
    let err = ex.execute(&create_stmt()).await.unwrap_err();
    let waited = started.elapsed();
    match &err {
        Error::Timeout {
            query_id,
            stop_sent,
            elapsed,
            sql,
            commit_state,
            client_request_token,
        } => {
            assert_eq!(query_id.as_deref(), Some("q-1"));
            assert!(stop_sent);
            assert_eq!(*elapsed, Duration::from_secs(5));
            assert!(sql.starts_with("CREATE TABLE IF NOT EXISTS"));
            assert_eq!(*commit_state, CommitState::Unknown);
            let sent = fake.bodies("StartQueryExecution");
            assert_eq!(
                client_request_token.as_deref(),
                sent[0]["ClientRequestToken"].as_str()
            );
        }
        other => panic!("expected Timeout, got {other:?}"),
    }
    assert!(err.is_timeout());
    assert!(err.outcome_unknown());
    assert!(
        waited >= Duration::from_secs(8) && waited < Duration::from_secs(9),
        "{waited:?}"
    );
    // Give a (wrongly) spawned second stop a chance to show up.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stops = fake.bodies("StopQueryExecution");
    assert_eq!(stops, vec![json!({"QueryExecutionId": "q-1"})]);
    // Polls at 0.1, 0.3, 0.7, 1.5 s (doubling), then every 1 s (cap): 2.5, 3.5, 4.5;
    // the stop at 5 s, then polls for the final state until 8 s.
    let calls = fake.calls();
    let stop_at = calls
        .iter()
        .position(|c| c.op == "StopQueryExecution")
        .unwrap();
    let polls_before = calls[..stop_at]
        .iter()
        .filter(|c| c.op == "GetQueryExecution")
        .count();
    assert_eq!(polls_before, 7);
    assert!(fake.count("GetQueryExecution") > polls_before);
}

#[tokio::test(start_paused = true)]
async fn a_timed_out_query_seen_cancelled_did_not_commit() {
    let stopped = Arc::new(Mutex::new(false));
    let s2 = stopped.clone();
    let fake = FakeAthena::new(move |call| match call.op.as_str() {
        "StartQueryExecution" => ok(json!({"QueryExecutionId": "q-1"})),
        "StopQueryExecution" => {
            *s2.lock().unwrap() = true;
            ok(json!({}))
        }
        _ if *s2.lock().unwrap() => ok(execution("q-1", "CANCELLED")),
        _ => ok(execution("q-1", "RUNNING")),
    });
    let ex = AthenaExecutor::new(fake.client(), config().timeout(Duration::from_secs(2)));
    let err = ex.execute(&create_stmt()).await.unwrap_err();
    assert!(*stopped.lock().unwrap());
    assert!(matches!(
        err,
        Error::Timeout {
            commit_state: CommitState::NotCommitted,
            ..
        }
    ));
    assert!(!err.outcome_unknown());
}

#[tokio::test(start_paused = true)]
async fn dropping_the_future_stops_the_query() {
    let fake = scripted(|_, _| execution("q-1", "RUNNING"));
    let ex = AthenaExecutor::new(fake.client(), config().no_timeout());
    let stmt = create_stmt();
    tokio::select! {
        _ = ex.execute(&stmt) => panic!("the query never finishes"),
        _ = tokio::time::sleep(Duration::from_secs(3)) => {}
    }
    // The guard spawned StopQueryExecution; let it run.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(
        fake.bodies("StopQueryExecution"),
        vec![json!({"QueryExecutionId": "q-1"})]
    );
}

#[tokio::test(start_paused = true)]
async fn throttling_is_retried_by_the_sdk_with_the_same_token() {
    let polls = Arc::new(Mutex::new(0));
    let fake = FakeAthena::new(move |call| match (call.op.as_str(), call.n) {
        ("StartQueryExecution", 0) => aws_error(400, "ThrottlingException", "Rate exceeded"),
        ("StartQueryExecution", 1) => aws_error(
            400,
            "TooManyRequestsException",
            "CONCURRENT_QUERY_LIMIT_EXCEEDED",
        ),
        ("StartQueryExecution", _) => ok(json!({"QueryExecutionId": "q-1"})),
        ("GetQueryExecution", 0) => aws_error(400, "ThrottlingException", "Rate exceeded"),
        ("GetQueryExecution", _) => {
            *polls.lock().unwrap() += 1;
            ok(execution("q-1", "SUCCEEDED"))
        }
        _ => aws_error(400, "InvalidRequestException", "unexpected"),
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let out = ex.execute(&create_stmt()).await.unwrap();
    assert_eq!(out.query_id, "q-1");
    assert_eq!(out.state, QueryState::Succeeded);
    assert_eq!(out.attempts(), 1, "throttling is not a query-level retry");
    let starts = fake.bodies("StartQueryExecution");
    assert_eq!(starts.len(), 3);
    let token = starts[0]["ClientRequestToken"].as_str().unwrap();
    assert!(token.len() >= 32);
    assert!(starts.iter().all(|b| b["ClientRequestToken"] == token));
    assert_eq!(out.runs[0].client_request_token, token);
    assert_eq!(fake.count("GetQueryExecution"), 2);
}

fn http_json(status: u16, body: Value) -> http::Response<SdkBody> {
    http::Response::builder()
        .status(status)
        .header("content-type", "application/x-amz-json-1.1")
        .body(SdkBody::from(body.to_string()))
        .unwrap()
}

fn any_request() -> http::Request<SdkBody> {
    http::Request::builder()
        .uri("https://athena.us-east-1.amazonaws.com/")
        .body(SdkBody::empty())
        .unwrap()
}

#[tokio::test(start_paused = true)]
async fn server_errors_are_retried_with_the_same_token_on_the_wire() {
    let replay = StaticReplayClient::new(vec![
        ReplayEvent::new(
            any_request(),
            http_json(
                500,
                json!({"__type": "InternalServerException", "Message": "boom"}),
            ),
        ),
        ReplayEvent::new(
            any_request(),
            http_json(503, json!({"Message": "slow down"})),
        ),
        ReplayEvent::new(
            any_request(),
            http_json(200, json!({"QueryExecutionId": "q-9"})),
        ),
        ReplayEvent::new(any_request(), http_json(200, execution("q-9", "SUCCEEDED"))),
    ]);
    let ex = AthenaExecutor::new(client_with(replay.clone().into_shared()), config());
    let out = ex.execute(&create_stmt()).await.unwrap();
    assert_eq!(out.query_id, "q-9");

    let wire: Vec<(String, Value)> = replay
        .actual_requests()
        .map(|r| {
            let target = r.headers().get("x-amz-target").unwrap_or("").to_string();
            let body = serde_json::from_slice(r.body().bytes().unwrap()).unwrap();
            (target, body)
        })
        .collect();
    assert_eq!(wire.len(), 4);
    let starts: Vec<&Value> = wire
        .iter()
        .filter(|(t, _)| t == "AmazonAthena.StartQueryExecution")
        .map(|(_, b)| b)
        .collect();
    assert_eq!(starts.len(), 3, "two 5xx then success");
    let token = starts[0]["ClientRequestToken"].as_str().unwrap();
    assert_eq!(token.len(), 36);
    for body in &starts {
        assert_eq!(
            body["ClientRequestToken"], token,
            "a transport retry must resend the same token"
        );
        assert_eq!(*body, starts[0], "and the same request");
    }
    assert_eq!(wire[3].0, "AmazonAthena.GetQueryExecution");
}

use aws_sdk_athena::config::IntoShared;

#[tokio::test(start_paused = true)]
async fn iceberg_commit_error_is_resubmitted_with_a_fresh_token() {
    let fake = scripted(|run, poll| match (run, poll) {
        (1, 1) => execution("q-1", "RUNNING"),
        (1, _) => failed(
            "q-1",
            "ICEBERG_COMMIT_ERROR: Failed to commit Iceberg update to table: analytics.mcp_events",
            1,
            233,
            false,
        ),
        (_, _) => execution("q-2", "SUCCEEDED"),
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let started = tokio::time::Instant::now();
    let out = ex.execute(&create_stmt()).await.unwrap();
    assert_eq!(out.query_id, "q-2");
    assert_eq!(out.attempts(), 2);
    match &out.runs[0].end {
        RunEnd::Resubmitted(q) => {
            assert_eq!(q.query_id, "q-1");
            assert_eq!(q.kind(), FailureKind::IcebergCommitConflict);
        }
        other => panic!("expected Resubmitted, got {other:?}"),
    }
    assert_eq!(out.runs[1].end, RunEnd::Final);
    let starts = fake.bodies("StartQueryExecution");
    assert_eq!(starts.len(), 2);
    assert_ne!(
        starts[0]["ClientRequestToken"],
        starts[1]["ClientRequestToken"]
    );
    assert_eq!(starts[0]["QueryString"], starts[1]["QueryString"]);
    // Jittered backoff between 100 ms and 200 ms (base 200 ms, equal jitter).
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(100 + 100 + 100),
        "{waited:?}"
    );
    // Stats are summed over both runs.
    assert_eq!(
        out.total_stats.data_scanned_bytes,
        out.stats.data_scanned_bytes
    );
}

#[tokio::test(start_paused = true)]
async fn retryable_failures_stop_after_the_bound() {
    let fake = scripted(|run, _| {
        failed(
            &format!("q-{run}"),
            "GENERIC_INTERNAL_ERROR: worker lost",
            1,
            100,
            true,
        )
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let err = ex.execute(&create_stmt()).await.unwrap_err();
    let q = err.query_error().unwrap();
    assert!(q.retryable && q.is_retryable());
    assert_eq!(q.query_id, "q-3", "1 run + 2 resubmissions");
    assert_eq!(fake.count("StartQueryExecution"), 3);
}

#[tokio::test(start_paused = true)]
async fn more_runs_needed_is_run_again_until_done() {
    let fake = scripted(|run, _| {
        if run < 3 {
            failed(
                &format!("q-{run}"),
                "ICEBERG_OPTIMIZE_MORE_RUNS_NEEDED: Processed 100 partitions in this round of optimization, but there are more partitions remaining.",
                2,
                233,
                false,
            )
        } else {
            execution("q-3", "SUCCEEDED")
        }
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let out = ex.execute(&create_stmt()).await.unwrap();
    assert_eq!(out.query_id, "q-3");
    assert_eq!(out.runs.len(), 3);
    assert!(
        matches!(&out.runs[0].end, RunEnd::MoreRunsNeeded(q) if q.kind() == FailureKind::OptimizeMoreRunsNeeded)
    );
    assert!(matches!(&out.runs[1].end, RunEnd::MoreRunsNeeded(_)));
    let tokens: Vec<Value> = fake
        .bodies("StartQueryExecution")
        .into_iter()
        .map(|b| b["ClientRequestToken"].clone())
        .collect();
    assert_eq!(tokens.len(), 3);
    assert!(tokens[0] != tokens[1] && tokens[1] != tokens[2]);
}

#[tokio::test(start_paused = true)]
async fn more_runs_needed_is_bounded() {
    let fake = scripted(|run, _| {
        failed(
            &format!("q-{run}"),
            "ICEBERG_VACUUM_MORE_RUNS_NEEDED: more to do",
            2,
            233,
            false,
        )
    });
    let ex = AthenaExecutor::new(fake.client(), config().max_maintenance_runs(4));
    let err = ex.execute(&drop_stmt()).await.unwrap_err();
    match err {
        Error::MoreRunsExhausted {
            kind,
            runs,
            query_id,
            ..
        } => {
            assert_eq!(kind, FailureKind::VacuumMoreRunsNeeded);
            assert_eq!(runs, 4);
            assert_eq!(query_id, "q-4");
        }
        other => panic!("expected MoreRunsExhausted, got {other:?}"),
    }
    assert_eq!(fake.count("StartQueryExecution"), 4);
}

#[derive(Debug, PartialEq)]
struct Event {
    event_id: String,
    payload: Option<String>,
    n: i64,
}

impl FromRow for Event {
    fn from_row(row: &Row) -> iceberg_sql::Result<Self> {
        Ok(Event {
            event_id: row.try_get("event_id")?,
            payload: row.try_get("payload")?,
            n: row.try_get("n")?,
        })
    }
}

fn datum(v: Option<&str>) -> Value {
    match v {
        Some(s) => json!({"VarCharValue": s}),
        None => json!({}),
    }
}

fn page(rows: &[[Option<&str>; 3]], next: Option<&str>) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|r| json!({"Data": r.iter().map(|c| datum(*c)).collect::<Vec<_>>()}))
        .collect();
    let mut v = json!({"ResultSet": {
        "Rows": rows,
        "ResultSetMetadata": {"ColumnInfo": [
            {"Name": "event_id", "Type": "varchar", "Nullable": "NOT_NULL"},
            {"Name": "payload", "Type": "varchar", "Nullable": "NULLABLE"},
            {"Name": "n", "Type": "bigint"}
        ]}
    }});
    if let Some(t) = next {
        v["NextToken"] = json!(t);
    }
    v
}

fn paged_fake(substatement: &'static str) -> FakeAthena {
    FakeAthena::new(move |call| match call.op.as_str() {
        "StartQueryExecution" => ok(json!({"QueryExecutionId": "q-1"})),
        "GetQueryExecution" => {
            let mut e = execution("q-1", "SUCCEEDED");
            e["QueryExecution"]["SubstatementType"] = json!(substatement);
            ok(e)
        }
        "GetQueryResults" => match call.body.get("NextToken").and_then(Value::as_str) {
            None => ok(page(
                &[
                    [Some("event_id"), Some("payload"), Some("n")],
                    [Some("e1"), None, Some("1")],
                    [Some("e2"), Some(""), Some("2")],
                ],
                Some("t2"),
            )),
            // A later page whose first row looks like a header is data, not a header.
            Some("t2") => ok(page(
                &[
                    [Some("event_id"), Some("payload"), Some("3")],
                    [Some("e4"), Some("x"), Some("4")],
                ],
                Some("t3"),
            )),
            Some("t3") => ok(page(&[[Some(""), None, Some("5")]], None)),
            Some(_) => aws_error(400, "InvalidRequestException", "bad token"),
        },
        _ => aws_error(400, "InvalidRequestException", "unexpected"),
    })
}

#[tokio::test(start_paused = true)]
async fn three_pages_decode_with_nulls_and_empty_strings_kept_apart() {
    let fake = paged_fake("SELECT");
    let ex = AthenaExecutor::new(fake.client(), config().page_size(2));
    // Athena reports SubstatementType SELECT, so the first row of page 1 is a header.
    let outcome = ex.execute(&create_stmt()).await.unwrap();
    let rows: Vec<Row> = ex
        .rows_by_id(&outcome.query_id, true)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0].get("payload"), Some(None));
    assert_eq!(rows[1].get("payload"), Some(Some("")));
    assert_eq!(rows[4].get("event_id"), Some(Some("")));
    assert_eq!(rows[0].columns().as_slice()[1].nullable, Some(true));
    assert_eq!(rows[0].columns().as_slice()[2].type_name, "bigint");
    assert_eq!(
        rows[0].columns().iceberg_type(2),
        Some(&iceberg_sql::IcebergType::Long)
    );

    let decoded: Vec<Event> = ex.decode::<Event>(&outcome).try_collect().await.unwrap();
    let ev = |id: &str, p: Option<&str>, n| Event {
        event_id: id.into(),
        payload: p.map(str::to_string),
        n,
    };
    assert_eq!(
        decoded,
        vec![
            ev("e1", None, 1),
            ev("e2", Some(""), 2),
            ev("event_id", Some("payload"), 3),
            ev("e4", Some("x"), 4),
            ev("", None, 5),
        ]
    );
    let pages = fake.bodies("GetQueryResults");
    assert_eq!(pages.len(), 6, "3 pages per read, 2 reads");
    assert_eq!(pages[0].get("NextToken"), None);
    assert_eq!(pages[1]["NextToken"], "t2");
    assert_eq!(pages[2]["NextToken"], "t3");
    assert!(pages
        .iter()
        .all(|p| p["MaxResults"] == 2 && p["QueryExecutionId"] == "q-1"));
}

#[tokio::test(start_paused = true)]
async fn decode_errors_name_the_row_and_column() {
    let fake = paged_fake("CREATE_TABLE");
    let ex = AthenaExecutor::new(fake.client(), config());
    let outcome = ex.execute(&create_stmt()).await.unwrap();
    // Not a SELECT: no header skipping, so the header row is data and "n" does not parse.
    let err = ex
        .decode::<Event>(&outcome)
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    match err {
        Error::Decode {
            query_id,
            row,
            source,
        } => {
            assert_eq!(query_id, "q-1");
            assert_eq!(row, 0);
            assert_eq!(source.message(), "column `n`: `n` is not a long value");
        }
        other => panic!("expected Decode, got {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn exact_request_for_a_built_statement() {
    let fake = scripted(|_, _| execution("q-1", "SUCCEEDED"));
    let cfg = config()
        .database("analytics")
        .catalog("AwsDataCatalog")
        .output_location("s3://results/iceberg-sql/")
        .encryption(Encryption::SseKms {
            kms_key: "arn:aws:kms:us-east-1:111122223333:key/k".into(),
        })
        .result_reuse(60);
    let ex = AthenaExecutor::new(fake.client(), cfg);
    let stmt = create_stmt();
    let out = ex.execute(&stmt).await.unwrap();
    let starts = fake.bodies("StartQueryExecution");
    assert_eq!(starts.len(), 1);
    let mut body = starts[0].clone();
    let token = body["ClientRequestToken"].as_str().unwrap().to_string();
    assert_eq!(out.runs[0].client_request_token, token);
    body.as_object_mut().unwrap().remove("ClientRequestToken");
    assert_eq!(
        body,
        json!({
            "QueryString": stmt.sql(),
            "WorkGroup": "wg-test",
            "QueryExecutionContext": {"Database": "analytics", "Catalog": "AwsDataCatalog"},
            "ResultConfiguration": {
                "OutputLocation": "s3://results/iceberg-sql/",
                "EncryptionConfiguration": {
                    "EncryptionOption": "SSE_KMS",
                    "KmsKey": "arn:aws:kms:us-east-1:111122223333:key/k"
                }
            }
        }),
        "no ExecutionParameters for a statement without parameters; no result reuse for DDL"
    );
    assert_eq!(
        starts[0]["QueryString"].as_str().unwrap(),
        stmt.sql(),
        "the builder's text is sent byte for byte"
    );
    // Statistics and the cost estimate.
    assert_eq!(out.statement_type.as_deref(), Some("DML"));
    assert_eq!(out.stats.data_scanned_bytes, 2_500_000_000);
    assert_eq!(out.stats.engine_time, Duration::from_millis(1234));
    assert_eq!(out.stats.queue_time, Duration::from_millis(56));
    assert_eq!(out.stats.planning_time, Duration::from_millis(78));
    let expected = (2_500_000_000f64 / 1048576.0).ceil() * 1048576.0 / 1_099_511_627_776.0 * 5.0;
    assert!(
        (out.stats.cost_usd - expected).abs() < 1e-6,
        "{}",
        out.stats.cost_usd
    );
}

#[tokio::test(start_paused = true)]
async fn api_errors_are_typed_and_not_resubmitted() {
    let fake = FakeAthena::new(|call| match call.op.as_str() {
        "StartQueryExecution" => {
            aws_error(400, "InvalidRequestException", "WorkGroup does not exist")
        }
        _ => aws_error(400, "InvalidRequestException", "unexpected"),
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let err = ex.execute(&create_stmt()).await.unwrap_err();
    match &err {
        Error::Api(a) => {
            assert_eq!(a.operation, "StartQueryExecution");
            assert_eq!(a.code.as_deref(), Some("InvalidRequestException"));
            assert_eq!(a.message, "WorkGroup does not exist");
            assert!(a.sql.as_deref().unwrap().starts_with("CREATE TABLE"));
            assert_eq!(a.class, ApiErrorClass::Rejected);
        }
        other => panic!("expected Api, got {other:?}"),
    }
    // Rejected: nothing was created, nothing is retried.
    assert_eq!(err.commit_state(), CommitState::NotCommitted);
    assert_eq!(fake.count("StartQueryExecution"), 1);
}

#[tokio::test(start_paused = true)]
async fn lifecycle_helpers() {
    let fake = scripted(|run, _| execution(&format!("q-{run}"), "SUCCEEDED"));
    let ex = AthenaExecutor::new(fake.client(), config());
    // create_if_missing wants CREATE TABLE IF NOT EXISTS.
    let created = ex.create_if_missing(&create_stmt()).await.unwrap();
    assert_eq!(created.query_id, "q-1");
    let plain = table().create_table().build().unwrap();
    assert!(matches!(
        ex.create_if_missing(&plain).await,
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(fake.count("StartQueryExecution"), 1);

    // append: each batch once, in order, progress after each.
    let batches = vec![create_stmt(), drop_stmt(), create_stmt()];
    let mut seen = Vec::new();
    let report = ex
        .append(&batches, AppendOptions::new("helpers"), |p| {
            seen.push((p.done, p.total, p.query_id.clone()))
        })
        .await
        .unwrap();
    assert_eq!(report.outcomes().len(), 3);
    assert!(report.batches.iter().all(|b| b.rows.is_none()));
    assert_eq!(
        seen,
        vec![
            (1, 3, "q-2".into()),
            (2, 3, "q-3".into()),
            (3, 3, "q-4".into())
        ]
    );
    let sent: Vec<String> = fake.bodies("StartQueryExecution")[1..]
        .iter()
        .map(|b| b["QueryString"].as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = batches.iter().map(|s| s.sql().to_string()).collect();
    assert_eq!(sent, expected);

    // maintain refuses statements that are not OPTIMIZE + [ALTER TABLE,] VACUUM.
    assert!(matches!(
        ex.maintain(&create_stmt(), &drop_stmt()).await,
        Err(Error::InvalidArgument(_))
    ));
    let optimize = table().optimize().build().unwrap();
    let vacuum = table().vacuum().build().unwrap();
    assert!(matches!(
        ex.maintain_steps(&optimize, &[drop_stmt(), vacuum.clone()])
            .await,
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        ex.maintain_steps(&optimize, &[]).await,
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        ex.maintain_steps(&optimize, &[vacuum.clone(), vacuum])
            .await,
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(
        fake.count("StartQueryExecution"),
        4,
        "nothing sent when refused"
    );
}

#[tokio::test(start_paused = true)]
async fn append_stops_at_the_first_failure_and_says_what_committed() {
    let fake = scripted(|run, _| {
        if run == 2 {
            failed(
                "q-2",
                "TABLE_NOT_FOUND: line 1:13: Table 'analytics.x' does not exist",
                2,
                1110,
                false,
            )
        } else {
            execution(&format!("q-{run}"), "SUCCEEDED")
        }
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let batches = vec![create_stmt(), drop_stmt(), create_stmt()];
    let mut progress = 0;
    let err = ex
        .append(&batches, AppendOptions::new("stops"), |_| progress += 1)
        .await
        .unwrap_err();
    assert_eq!(progress, 1);
    let states: Vec<BatchState> = err.report.batches.iter().map(|b| b.state).collect();
    assert_eq!(
        states,
        [
            BatchState::Committed,
            BatchState::NotCommitted,
            BatchState::NotSent
        ]
    );
    assert_eq!(err.report.batches[1].query_id.as_deref(), Some("q-2"));
    assert_eq!(err.failed_batch, 1);
    assert_eq!(
        err.error.query_error().unwrap().kind(),
        FailureKind::TableNotFound
    );
    assert_eq!(
        fake.count("StartQueryExecution"),
        2,
        "batch 3 is never sent"
    );
}

#[tokio::test(start_paused = true)]
async fn a_query_that_can_no_longer_be_observed_is_not_stopped_and_its_outcome_is_unknown() {
    let fake = FakeAthena::new(|call| match call.op.as_str() {
        "StartQueryExecution" => ok(json!({"QueryExecutionId": "q-1"})),
        "GetQueryExecution" => aws_error(400, "AccessDeniedException", "not allowed"),
        "StopQueryExecution" => ok(json!({})),
        _ => aws_error(400, "InvalidRequestException", "unexpected"),
    });
    let ex = AthenaExecutor::new(fake.client(), config());
    let err = ex.execute(&create_stmt()).await.unwrap_err();
    match &err {
        Error::Api(a) => {
            assert_eq!(a.operation, "GetQueryExecution");
            assert_eq!(a.query_id.as_deref(), Some("q-1"));
            assert_eq!(a.code.as_deref(), Some("AccessDeniedException"));
        }
        other => panic!("expected Api, got {other:?}"),
    }
    assert!(err.outcome_unknown());
    assert!(err.client_request_token().is_some());
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(
        fake.count("StopQueryExecution"),
        0,
        "a query we cannot observe may be healthy: it is not stopped"
    );
}
