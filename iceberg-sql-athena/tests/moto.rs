//! moto over real HTTP (127.0.0.1 only): stop, work group errors, request round trip.
//! Each test has its own moto account (`x-moto-account-id`), so they run in parallel.
mod common;

use std::time::Duration;

use aws_sdk_athena::types::{QueryExecutionState, ResultConfiguration, WorkGroupConfiguration};
use common::moto;
use iceberg_sql_athena::{AthenaExecutor, Error, ExecutorConfig, PollConfig};

fn config() -> ExecutorConfig {
    ExecutorConfig::default()
        .output_location("s3://iceberg-sql-results/q/")
        .poll(PollConfig::adaptive(
            Duration::from_millis(5),
            1.5,
            Duration::from_millis(50),
        ))
        .timeout(Duration::from_secs(30))
}

#[tokio::test]
async fn timeout_stops_the_query_on_the_server() {
    let Some(ep) = moto::endpoint("timeout_stops_the_query_on_the_server") else {
        return;
    };
    let client = moto::client(&ep, &moto::fresh_account());
    // The first poll would come after 10 s; the 300 ms timeout fires first.
    let ex = AthenaExecutor::new(
        client.clone(),
        config()
            .poll(PollConfig::fixed(Duration::from_secs(10)))
            .timeout(Duration::from_millis(300)),
    );
    let err = ex.execute(&common::create_stmt()).await.unwrap_err();
    let Error::Timeout {
        query_id: Some(id),
        stop_sent,
        ..
    } = &err
    else {
        panic!("expected Timeout with an id, got {err:?}")
    };
    assert!(stop_sent);
    let state = client
        .get_query_execution()
        .query_execution_id(id)
        .send()
        .await
        .unwrap()
        .query_execution()
        .and_then(|q| q.status())
        .and_then(|s| s.state())
        .cloned();
    assert_eq!(state, Some(QueryExecutionState::Cancelled));
}

#[tokio::test]
async fn explicit_stop_cancels() {
    let Some(ep) = moto::endpoint("explicit_stop_cancels") else {
        return;
    };
    let client = moto::client(&ep, &moto::fresh_account());
    let id = client
        .start_query_execution()
        .query_string("SELECT 1")
        .send()
        .await
        .unwrap()
        .query_execution_id()
        .unwrap()
        .to_string();
    let ex = AthenaExecutor::new(client.clone(), config());
    ex.stop(&id).await.unwrap();
    let out = client
        .get_query_execution()
        .query_execution_id(&id)
        .send()
        .await
        .unwrap();
    assert_eq!(
        out.query_execution()
            .and_then(|q| q.status())
            .and_then(|s| s.state()),
        Some(&QueryExecutionState::Cancelled)
    );
}

#[tokio::test]
async fn unknown_work_group_is_a_typed_api_error() {
    let Some(ep) = moto::endpoint("unknown_work_group_is_a_typed_api_error") else {
        return;
    };
    let ex = AthenaExecutor::new(
        moto::client(&ep, &moto::fresh_account()),
        config().work_group("no-such-wg"),
    );
    let stmt = common::create_stmt();
    let err = ex.execute(&stmt).await.unwrap_err();
    match &err {
        Error::Api(a) => {
            assert_eq!(a.operation, "StartQueryExecution");
            assert_eq!(a.code.as_deref(), Some("InvalidRequestException"));
            assert!(
                a.message.contains("WorkGroup does not exist"),
                "{}",
                a.message
            );
            assert_eq!(a.sql.as_deref(), Some(stmt.sql()));
            assert_eq!(a.query_id, None);
            assert!(a.request_id.is_some(), "moto sends x-amzn-RequestId");
        }
        other => panic!("expected Api, got {other:?}"),
    }
}

#[tokio::test]
async fn statements_run_in_a_created_work_group_and_duplicates_are_refused() {
    let Some(ep) = moto::endpoint("statements_run_in_a_created_work_group") else {
        return;
    };
    let client = moto::client(&ep, &moto::fresh_account());
    let wg_config = WorkGroupConfiguration::builder()
        .result_configuration(
            ResultConfiguration::builder()
                .output_location("s3://iceberg-sql-results/wg/")
                .build(),
        )
        .build();
    client
        .create_work_group()
        .name("iceberg-sql-wg")
        .configuration(wg_config.clone())
        .send()
        .await
        .unwrap();
    let dup = client
        .create_work_group()
        .name("iceberg-sql-wg")
        .configuration(wg_config)
        .send()
        .await;
    let dup = dup.unwrap_err();
    let shown = format!("{}", aws_sdk_athena::error::DisplayErrorContext(&dup));
    assert!(shown.contains("already exists"), "{shown}");

    let ex = AthenaExecutor::new(client.clone(), config().work_group("iceberg-sql-wg"));
    let create = ex.execute(&common::create_stmt()).await.unwrap();
    let dropped = ex.execute(&common::drop_stmt()).await.unwrap();
    assert_ne!(create.query_id, dropped.query_id);

    let listed = client
        .list_query_executions()
        .work_group("iceberg-sql-wg")
        .send()
        .await
        .unwrap();
    let mut ids: Vec<String> = listed.query_execution_ids().to_vec();
    ids.sort();
    let mut expected = vec![create.query_id.clone(), dropped.query_id.clone()];
    expected.sort();
    assert_eq!(ids, expected);
    let exec = client
        .get_query_execution()
        .query_execution_id(&dropped.query_id)
        .send()
        .await
        .unwrap();
    let qe = exec.query_execution().unwrap();
    assert_eq!(qe.work_group(), Some("iceberg-sql-wg"));
    assert_eq!(qe.query(), Some(common::drop_stmt().sql()));
}
