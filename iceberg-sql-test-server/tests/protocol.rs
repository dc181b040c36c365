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
