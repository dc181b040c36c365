//! The S3 side of a staged load against moto's S3 on 127.0.0.1, through the real
//! object_store S3 client: the staged objects exist when the write runs, and are all
//! deleted afterwards, on success and after an injected failure of the write.
mod common;

use common::ev::{rows, Ev};

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use futures::StreamExt;
use iceberg_sql::prelude::*;
use iceberg_sql_athena::staged::{
    run_load, LoadOptions, LoadRunner, LoadStep, RunFailure, Staging, WriterOptions,
};
use iceberg_sql_athena::{CommitState, QueryOutcome};
use object_store::aws::AmazonS3Builder;
use object_store::ObjectStore;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Creates `bucket` in moto with a hand-written `PUT /bucket`.
async fn create_bucket(endpoint: &str, bucket: &str) {
    let hostport = endpoint.trim_start_matches("http://").trim_end_matches('/');
    assert!(
        hostport.starts_with("127.0.0.1:"),
        "tests only talk to 127.0.0.1"
    );
    let req = format!(
        "PUT /{bucket} HTTP/1.1\r\nHost: {hostport}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    let mut s = TcpStream::connect(hostport).await.expect("connect to moto");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).await.unwrap();
    let text = String::from_utf8_lossy(&resp);
    assert!(text.starts_with("HTTP/1.1 200"), "create bucket: {text}");
}

fn store(endpoint: &str, bucket: &str) -> Arc<dyn ObjectStore> {
    Arc::new(
        AmazonS3Builder::new()
            .with_endpoint(endpoint)
            .with_allow_http(true)
            .with_region("us-east-1")
            .with_bucket_name(bucket)
            .with_access_key_id("testing")
            .with_secret_access_key("testing")
            .build()
            .unwrap(),
    )
}

async fn keys(store: &Arc<dyn ObjectStore>) -> Vec<String> {
    let mut out: Vec<String> = store
        .list(None)
        .map(|m| m.unwrap().location.to_string())
        .collect()
        .await;
    out.sort();
    out
}

/// Succeeds every statement; at the write, records the objects in the bucket (or fails
/// the write when `fail_write`).
struct Runner {
    store: Arc<dyn ObjectStore>,
    fail_write: bool,
    seen_at_write: Mutex<Vec<String>>,
}

impl LoadRunner for Runner {
    fn run<'a>(
        &'a self,
        _statement: &'a Statement,
        token: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Option<QueryOutcome>, RunFailure>> {
        Box::pin(async move {
            if token.is_some() {
                *self.seen_at_write.lock().unwrap() = keys(&self.store).await;
                if self.fail_write {
                    return Err(RunFailure {
                        commit_state: CommitState::NotCommitted,
                        error: "injected: the write failed".into(),
                    });
                }
            }
            Ok(None)
        })
    }
}

async fn run(endpoint: &str, bucket: &str, fail_write: bool) {
    create_bucket(endpoint, bucket).await;
    let store = store(endpoint, bucket);
    let root = Location::parse(&format!("s3://{bucket}/staging/")).unwrap();
    let staging = Staging::new(store.clone(), root);
    let rows = rows(20_000);
    let batches: Vec<_> = rows
        .chunks(2_000)
        .map(|c| iceberg_sql::arrow::records_to_batch(c).unwrap())
        .collect();
    let options = LoadOptions::new(format!("moto-{fail_write}"), staging.clone())
        .writer(WriterOptions::default().lanes(2).max_file_bytes(64 * 1024));
    let plan = options.plan(Ev::table_def(), Dialect::Athena).unwrap();
    let runner = Runner {
        store: store.clone(),
        fail_write,
        seen_at_write: Mutex::default(),
    };
    let result = run_load(
        &runner,
        Ev::table_def(),
        &options,
        Dialect::Athena,
        iceberg_sql_athena::staged::infallible(batches),
        &mut |_| {},
    )
    .await;
    // The objects the write could read: the staged Parquet files (beside them, each
    // run's marker).
    let seen: Vec<String> = runner
        .seen_at_write
        .lock()
        .unwrap()
        .iter()
        .filter(|k| k.ends_with(".parquet"))
        .cloned()
        .collect();
    let report = match result {
        Ok(r) => {
            assert!(!fail_write);
            r
        }
        Err(e) => {
            assert!(fail_write, "{e}");
            assert_eq!(e.step, LoadStep::Writing);
            e.report
        }
    };
    assert_eq!(report.rows, 20_000);
    assert!(report.files.len() >= 2, "{} files", report.files.len());
    let written: Vec<String> = report.files.iter().map(|f| f.path.clone()).collect();
    assert_eq!(seen, written, "the write saw exactly the staged files");
    let prefix = staging.path_of(plan.location()).unwrap();
    assert!(written.iter().all(|p| p.starts_with(prefix.as_ref())));
    assert_eq!(report.objects_deleted, written.len());
    assert!(keys(&store).await.is_empty(), "every staged object deleted");
}

#[tokio::test]
async fn staged_objects_are_written_then_deleted_on_success() {
    let Some(endpoint) =
        common::moto::endpoint("staged_objects_are_written_then_deleted_on_success")
    else {
        return;
    };
    let bucket = format!("staged-ok-{}", common::moto::fresh_account());
    run(&endpoint, &bucket, false).await;
}

#[tokio::test]
async fn staged_objects_are_deleted_after_a_failed_write() {
    let Some(endpoint) = common::moto::endpoint("staged_objects_are_deleted_after_a_failed_write")
    else {
        return;
    };
    let bucket = format!("staged-fail-{}", common::moto::fresh_account());
    run(&endpoint, &bucket, true).await;
}
