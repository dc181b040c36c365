//! The server through the real SDK client over loopback HTTP.

use std::time::Duration;

use aws_sdk_athena::types::QueryExecutionState;
use aws_sdk_athena::Client;
use iceberg_sql_test_server::{
    Failure, Fault, FaultPlan, Op, Plan, QueryFault, ResultSet, ScriptedEngine, ServerConfig,
    State, TestServer,
};

const TOKEN: &str = "token-0123456789abcdef0123456789ab";

async fn start(client: &Client, sql: &str, token: &str) -> String {
    client
        .start_query_execution()
        .query_string(sql)
        .client_request_token(token)
        .send()
        .await
        .unwrap()
        .query_execution_id
        .unwrap()
}

async fn state(client: &Client, id: &str) -> QueryExecutionState {
    client
        .get_query_execution()
        .query_execution_id(id)
        .send()
        .await
        .unwrap()
        .query_execution
        .unwrap()
        .status
        .unwrap()
        .state
        .unwrap()
}

#[tokio::test]
async fn states_advance_per_poll_and_failures_carry_athena_error() {
    let engine = ScriptedEngine::new().on_contains("broken", |_| {
        Plan::fail(Failure::new(2, 1006, false, "SYNTAX_ERROR: line 1:8")).running_polls(2)
    });
    let server = TestServer::start(ServerConfig::new().engine(engine))
        .await
        .unwrap();
    let client = server.client();
    let id = start(&client, "SELECT 1", TOKEN).await;
    let seen = [
        state(&client, &id).await,
        state(&client, &id).await,
        state(&client, &id).await,
        state(&client, &id).await,
    ];
    assert_eq!(
        seen,
        [
            QueryExecutionState::Queued,
            QueryExecutionState::Running,
            QueryExecutionState::Succeeded,
            QueryExecutionState::Succeeded
        ]
    );
    let id = start(&client, "SELECT broken", &TOKEN.replace('0', "1")).await;
    let mut last = None;
    for _ in 0..3 {
        let out = client
            .get_query_execution()
            .query_execution_id(&id)
            .send()
            .await
            .unwrap();
        last = out.query_execution;
    }
    let status = last.unwrap().status.unwrap();
    assert_eq!(status.state, Some(QueryExecutionState::Failed));
    let e = status.athena_error.unwrap();
    assert_eq!(
        (e.error_category, e.error_type, e.retryable),
        (Some(2), Some(1006), false)
    );
    assert_eq!(
        status.state_change_reason.as_deref(),
        Some("SYNTAX_ERROR: line 1:8")
    );
    assert!(status.submission_date_time.is_some());
}

#[tokio::test]
async fn same_token_same_execution_and_changed_sql_is_refused() {
    let server = TestServer::start(ServerConfig::new()).await.unwrap();
    let client = server.client();
    let a = start(&client, "SELECT 1", TOKEN).await;
    let b = start(&client, "SELECT 1", TOKEN).await;
    assert_eq!(a, b);
    let err = client
        .start_query_execution()
        .query_string("SELECT 2")
        .client_request_token(TOKEN)
        .send()
        .await
        .unwrap_err();
    let svc = err.into_service_error();
    assert!(svc.is_invalid_request_exception(), "{svc:?}");
    assert_eq!(server.ledger().executions.len(), 1);
    assert_eq!(server.stats().token_replays, 1);
}

#[tokio::test]
async fn results_page_with_header_nulls_and_update_count() {
    let rows = vec![
        vec![Some("a".to_string()), None],
        vec![Some(String::new()), Some("2".to_string())],
        vec![Some("c".to_string()), Some("3".to_string())],
    ];
    let engine = ScriptedEngine::new().on_contains("FROM t", move |_| {
        Plan::rows(ResultSet::select(
            &[("k", "varchar"), ("n", "bigint")],
            rows.clone(),
        ))
        .running_polls(0)
    });
    let server = TestServer::start(ServerConfig::new().engine(engine).row_key("k"))
        .await
        .unwrap();
    let client = server.client();
    let id = start(&client, "SELECT * FROM t", TOKEN).await;
    assert_eq!(state(&client, &id).await, QueryExecutionState::Succeeded);
    let p1 = client
        .get_query_results()
        .query_execution_id(&id)
        .max_results(2)
        .send()
        .await
        .unwrap();
    let cells = |p: &aws_sdk_athena::operation::get_query_results::GetQueryResultsOutput| {
        p.result_set()
            .unwrap()
            .rows()
            .iter()
            .map(|r| {
                r.data()
                    .iter()
                    .map(|d| d.var_char_value().map(str::to_string))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        cells(&p1),
        vec![
            vec![Some("k".into()), Some("n".into())],
            vec![Some("a".into()), None]
        ]
    );
    let p2 = client
        .get_query_results()
        .query_execution_id(&id)
        .max_results(2)
        .set_next_token(p1.next_token.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(cells(&p2).len(), 2);
    assert_eq!(cells(&p2)[0], vec![Some(String::new()), Some("2".into())]);
    assert!(p2.next_token.is_none());

    let ins = start(
        &client,
        "INSERT INTO db.t (k, n) VALUES ('x', 1), ('y', 2)",
        &TOKEN.replace('a', "b"),
    )
    .await;
    server.settle();
    let r = client
        .get_query_results()
        .query_execution_id(&ins)
        .send()
        .await
        .unwrap();
    assert_eq!(r.update_count, Some(2));
    assert_eq!(server.ledger().rows_committed(), 2);
}

#[tokio::test]
async fn a_stop_of_a_running_query_is_recorded_as_healthy() {
    let engine = ScriptedEngine::new().on_contains("slow", |_| Plan::succeed().running_forever());
    let server = TestServer::start(ServerConfig::new().engine(engine))
        .await
        .unwrap();
    let client = server.client();
    let id = start(&client, "INSERT INTO db.slow VALUES (1)", TOKEN).await;
    assert_eq!(state(&client, &id).await, QueryExecutionState::Running);
    client
        .stop_query_execution()
        .query_execution_id(&id)
        .send()
        .await
        .unwrap();
    assert_eq!(state(&client, &id).await, QueryExecutionState::Cancelled);
    let ledger = server.ledger();
    assert_eq!(ledger.healthy_stops(), 1);
    assert_eq!(ledger.rows_committed(), 0);
    assert_eq!(ledger.executions[0].state, State::Cancelled);
}

#[tokio::test]
async fn wire_faults_are_retried_by_the_sdk() {
    let faults = FaultPlan::seeded(1)
        .script(
            Op::StartQueryExecution,
            [Fault::Reset, Fault::LostConnection],
        )
        .script(
            Op::GetQueryExecution,
            [Fault::Slow(Duration::from_millis(400)), Fault::Throttle],
        )
        .script_queries(
            "db.t",
            [QueryFault::FailAfterCommit(Failure::result_write_failed())],
        );
    let server = TestServer::start(ServerConfig::new().faults(faults))
        .await
        .unwrap();
    let client = aws_sdk_athena::Client::from_conf(
        server
            .client_config()
            .timeout_config(
                aws_sdk_athena::config::timeout::TimeoutConfig::builder()
                    .operation_attempt_timeout(Duration::from_millis(150))
                    .build(),
            )
            .build(),
    );
    // Reset (no effect), then the query is created but the connection drops, then the
    // third attempt gets the existing execution for the token.
    let id = start(&client, "INSERT INTO db.t VALUES (1)", TOKEN).await;
    assert_eq!(server.ledger().executions.len(), 1);
    assert_eq!(server.stats().token_replays, 1);
    // Slow (it takes effect: the query is seen QUEUED, but the answer comes after the
    // attempt timeout), throttled (no effect), then answered: the second poll.
    let s = state(&client, &id).await;
    assert_eq!(s, QueryExecutionState::Running);
    assert_eq!(server.count(Op::GetQueryExecution), 3);
    server.settle();
    let ledger = server.ledger();
    assert_eq!(ledger.executions[0].state, State::Failed);
    assert_eq!(ledger.rows_committed(), 1, "committed, then failed");
    let stats = server.stats();
    assert_eq!(stats.faults.get("reset"), Some(&1));
    assert_eq!(stats.faults.get("effect+reset"), Some(&1));
    assert_eq!(stats.faults.get("slow"), Some(&1));
    assert_eq!(stats.faults.get("throttle"), Some(&1));
    assert_eq!(stats.query_faults.get("failed-after-commit-401"), Some(&1));
}

/// One call as raw HTTP/1.1 (what the SDK sends, unsigned): the answer's head and body.
async fn raw_call(endpoint: &str, op: &str, body: &str) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = endpoint.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Amz-Target: AmazonAthena.{op}\r\nContent-Type: application/x-amz-json-1.1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    // The server keeps the connection open: read the head, then Content-Length bytes.
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
            .await
            .expect("an answer within 5 s")
            .unwrap();
        answer.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&answer).to_string();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if body.len() >= length || n == 0 {
                return (head.to_string(), body.to_string());
            }
        }
        assert!(
            n > 0,
            "the connection closed before the answer's head: {text}"
        );
    }
}

/// Seconds from this machine's clock to `t` (negative: `t` is earlier).
fn offset_from_now(t: std::time::SystemTime) -> f64 {
    match t.duration_since(std::time::SystemTime::now()) {
        Ok(ahead) => ahead.as_secs_f64(),
        Err(behind) => -behind.duration().as_secs_f64(),
    }
}

/// Athena's clock is not the client's: with the server 3 s behind, the `Date` header of
/// every answer and an execution's `SubmissionDateTime` read 3 s before this machine's
/// time.
#[tokio::test]
async fn the_date_header_and_submission_times_read_the_servers_own_clock() {
    use aws_sdk_athena::primitives::{DateTime, DateTimeFormat};
    let server = TestServer::start(ServerConfig::new().clock_skew_ms(-3_000))
        .await
        .unwrap();
    let (head, body) = raw_call(
        server.endpoint(),
        "StartQueryExecution",
        &format!(r#"{{"QueryString":"SELECT 1","ClientRequestToken":"{TOKEN}"}}"#),
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(body.contains("QueryExecutionId"), "{body}");
    let date = head
        .lines()
        .find_map(|l| l.strip_prefix("Date: "))
        .expect("a Date header");
    let date = DateTime::from_str(date, DateTimeFormat::HttpDate).unwrap();
    // HTTP dates have whole seconds: -3 s, give or take one.
    let header_offset = offset_from_now(std::time::SystemTime::try_from(date).unwrap());
    assert!(
        (-4.1..=-1.9).contains(&header_offset),
        "Date header {header_offset:.2} s from now"
    );
    let client = server.client();
    let id = server.ledger().executions[0].id.clone();
    let submitted = client
        .get_query_execution()
        .query_execution_id(&id)
        .send()
        .await
        .unwrap()
        .query_execution
        .unwrap()
        .status
        .unwrap()
        .submission_date_time
        .unwrap();
    let submitted_offset = offset_from_now(std::time::SystemTime::try_from(submitted).unwrap());
    assert!(
        (-3.5..=-2.5).contains(&submitted_offset),
        "SubmissionDateTime {submitted_offset:.2} s from now"
    );
}

/// With a token lifetime set, a token is forgotten after it: the same token then
/// creates a new execution (before it, the same one).
#[tokio::test]
async fn a_token_is_forgotten_after_its_lifetime() {
    let server = TestServer::start(ServerConfig::new().token_ttl(Duration::from_millis(100)))
        .await
        .unwrap();
    let client = server.client();
    let first = start(&client, "SELECT 1", TOKEN).await;
    assert_eq!(start(&client, "SELECT 1", TOKEN).await, first, "remembered");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let later = start(&client, "SELECT 1", TOKEN).await;
    assert_ne!(later, first, "forgotten: a new execution");
    assert_eq!(server.ledger().executions.len(), 2);
}

/// A token is bound to the workgroup it was used in, as to the text: the same token in
/// another workgroup is refused as Athena refuses changed idempotent parameters.
#[tokio::test]
async fn a_token_used_in_another_workgroup_is_refused() {
    let server = TestServer::start(ServerConfig::new()).await.unwrap();
    let client = server.client();
    client
        .start_query_execution()
        .query_string("SELECT 1")
        .client_request_token(TOKEN)
        .work_group("primary")
        .send()
        .await
        .unwrap();
    let err = client
        .start_query_execution()
        .query_string("SELECT 1")
        .client_request_token(TOKEN)
        .work_group("etl")
        .send()
        .await
        .unwrap_err();
    let err = err.into_service_error();
    assert!(err.is_invalid_request_exception(), "{err:?}");
    assert!(
        format!("{err:?}").contains("Idempotent parameters do not match"),
        "{err:?}"
    );
    assert_eq!(server.ledger().executions.len(), 1);
}

/// A refused call (HTTP 400 with an error code) has no effect and the SDK does not
/// retry it; an ignored stop is accepted and the query runs on to its end.
#[tokio::test]
async fn a_rejected_call_is_not_retried_and_an_ignored_stop_leaves_the_query_running() {
    let engine = ScriptedEngine::new().on_contains("slow", |_| Plan::succeed().running_polls(3));
    let faults = FaultPlan::seeded(1)
        .script(
            Op::StartQueryExecution,
            [Fault::Rejected("AccessDeniedException")],
        )
        .script(Op::StopQueryExecution, [Fault::Ignored]);
    let server = TestServer::start(ServerConfig::new().engine(engine).faults(faults))
        .await
        .unwrap();
    let client = server.client();
    let err = client
        .start_query_execution()
        .query_string("INSERT INTO db.slow VALUES (1)")
        .client_request_token(TOKEN)
        .send()
        .await
        .unwrap_err();
    assert!(
        format!("{err:?}").contains("AccessDeniedException"),
        "{err:?}"
    );
    assert_eq!(server.count(Op::StartQueryExecution), 1, "not retried");
    assert!(server.ledger().executions.is_empty(), "no effect");

    let id = start(&client, "INSERT INTO db.slow VALUES (1)", TOKEN).await;
    client
        .stop_query_execution()
        .query_execution_id(&id)
        .send()
        .await
        .expect("the stop is accepted");
    let mut seen = Vec::new();
    for _ in 0..5 {
        seen.push(state(&client, &id).await);
    }
    assert_eq!(
        seen.last(),
        Some(&QueryExecutionState::Succeeded),
        "{seen:?}"
    );
    assert!(!seen.contains(&QueryExecutionState::Cancelled), "{seen:?}");
}

/// The catalog answers a table's `$snapshots` as Athena's metadata table does: one row
/// per commit of a write into the table, none for a write that failed before its commit.
#[tokio::test]
async fn a_snapshots_query_reads_the_commits_of_the_table() {
    let faults = FaultPlan::seeded(1).script_queries(
        "VALUES (2)",
        [QueryFault::Fail(Failure::iceberg_commit_error())],
    );
    let server = TestServer::start(ServerConfig::new().faults(faults))
        .await
        .unwrap();
    let client = server.client();
    let mut ids = Vec::new();
    for (i, sql) in [
        "INSERT INTO analytics.ev VALUES (1)",
        "INSERT INTO analytics.ev VALUES (2)",
        "INSERT INTO analytics.other VALUES (3)",
    ]
    .iter()
    .enumerate()
    {
        let token = format!("{}{i}", &TOKEN[..TOKEN.len() - 1]);
        ids.push(start(&client, sql, &token).await);
    }
    server.settle();
    let q = start(
        &client,
        r#"SELECT * FROM "analytics"."ev$snapshots""#,
        "token-snapshots-0123456789abcdef0123",
    )
    .await;
    let mut final_state = state(&client, &q).await;
    for _ in 0..5 {
        if final_state == QueryExecutionState::Succeeded {
            break;
        }
        final_state = state(&client, &q).await;
    }
    assert_eq!(final_state, QueryExecutionState::Succeeded);
    let results = client
        .get_query_results()
        .query_execution_id(&q)
        .send()
        .await
        .unwrap();
    let rows = results.result_set.unwrap().rows.unwrap();
    // The header row, then one commit: the first INSERT's (the second failed before its
    // commit, the third wrote another table).
    assert_eq!(rows.len(), 2, "{rows:?}");
    let cells = |row: usize| -> Vec<Option<String>> {
        rows[row]
            .data
            .as_deref()
            .unwrap()
            .iter()
            .map(|d| d.var_char_value.clone())
            .collect()
    };
    // The catalog answers with the metadata table's columns, in Athena's order.
    let header = cells(0);
    let operation = header
        .iter()
        .position(|h| h.as_deref() == Some("operation"))
        .expect("an operation column");
    assert_eq!(
        cells(1)[operation].as_deref(),
        Some("append"),
        "{:?}",
        cells(1)
    );
    assert_eq!(server.snapshots().of("analytics.ev").len(), 1);
}
