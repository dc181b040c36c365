//! In-process Athena fakes for the executor tests (no network at all).
#![allow(dead_code)]

pub mod ev;
pub mod moto;
#[cfg(feature = "staged-load")]
pub mod staged;

use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

use aws_sdk_athena::config::retry::RetryConfig;
use aws_sdk_athena::config::{BehaviorVersion, Credentials, Region, SharedHttpClient};
use aws_sdk_athena::Client;
use aws_smithy_http_client::test_util::infallible_client_fn;
use iceberg_sql::prelude::*;
use serde_json::{json, Value};

static ENV: Once = Once::new();

/// Static credentials only; never the instance metadata service.
pub fn safe_env() {
    ENV.call_once(|| {
        std::env::set_var("AWS_EC2_METADATA_DISABLED", "true");
        std::env::set_var("AWS_ACCESS_KEY_ID", "testing");
        std::env::set_var("AWS_SECRET_ACCESS_KEY", "testing");
        std::env::set_var("AWS_REGION", "us-east-1");
    });
}

/// A client over `http`, with static credentials and the SDK's standard retries
/// (3 attempts, short backoff).
pub fn client_with(http: SharedHttpClient) -> Client {
    safe_env();
    let conf = aws_sdk_athena::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("testing", "testing", None, None, "static"))
        .retry_config(
            RetryConfig::standard()
                .with_max_attempts(3)
                .with_initial_backoff(Duration::from_millis(10)),
        )
        .http_client(http)
        .build();
    Client::from_conf(conf)
}

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct Call {
    /// Operation name from `X-Amz-Target` (`StartQueryExecution`, ...).
    pub op: String,
    /// The JSON body.
    pub body: Value,
    /// How many earlier calls of the same operation there were.
    pub n: usize,
}

/// A reply: HTTP status and JSON body.
pub struct Reply(pub u16, pub Value);

pub fn ok(v: Value) -> Reply {
    Reply(200, v)
}

pub fn aws_error(status: u16, code: &str, message: &str) -> Reply {
    Reply(status, json!({"__type": code, "Message": message}))
}

type Handler = Box<dyn FnMut(&Call) -> Reply + Send>;

/// A scripted, stateful Athena endpoint that records every request.
#[derive(Clone)]
pub struct FakeAthena {
    calls: Arc<Mutex<Vec<Call>>>,
    handler: Arc<Mutex<Handler>>,
}

impl FakeAthena {
    pub fn new(handler: impl FnMut(&Call) -> Reply + Send + 'static) -> Self {
        FakeAthena {
            calls: Arc::default(),
            handler: Arc::new(Mutex::new(Box::new(handler))),
        }
    }

    pub fn client(&self) -> Client {
        let this = self.clone();
        client_with(infallible_client_fn(move |req: http::Request<_>| {
            let op = req
                .headers()
                .get("x-amz-target")
                .and_then(|v| v.to_str().ok())
                .and_then(|t| t.rsplit('.').next())
                .unwrap_or("")
                .to_string();
            let bytes = req.body().bytes().unwrap_or(b"{}");
            let body: Value = serde_json::from_slice(bytes).unwrap_or(Value::Null);
            let reply = {
                let mut calls = this.calls.lock().unwrap();
                let n = calls.iter().filter(|c| c.op == op).count();
                let call = Call { op, body, n };
                calls.push(call.clone());
                drop(calls);
                (this.handler.lock().unwrap())(&call)
            };
            http::Response::builder()
                .status(reply.0)
                .header("content-type", "application/x-amz-json-1.1")
                .body(reply.1.to_string())
                .unwrap()
        }))
    }

    pub fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap().clone()
    }

    pub fn bodies(&self, op: &str) -> Vec<Value> {
        self.calls()
            .into_iter()
            .filter(|c| c.op == op)
            .map(|c| c.body)
            .collect()
    }

    pub fn count(&self, op: &str) -> usize {
        self.bodies(op).len()
    }
}

/// A `GetQueryExecution` answer.
pub fn execution(id: &str, state: &str) -> Value {
    json!({"QueryExecution": {
        "QueryExecutionId": id,
        "StatementType": "DML",
        "SubstatementType": "SELECT",
        "Status": {"State": state},
        "Statistics": {
            "DataScannedInBytes": 2_500_000_000_i64,
            "EngineExecutionTimeInMillis": 1234,
            "QueryQueueTimeInMillis": 56,
            "QueryPlanningTimeInMillis": 78,
            "TotalExecutionTimeInMillis": 1400
        }
    }})
}

/// A `FAILED` answer with a reason and an `AthenaError`.
pub fn failed(id: &str, reason: &str, category: i32, error_type: i32, retryable: bool) -> Value {
    json!({"QueryExecution": {
        "QueryExecutionId": id,
        "StatementType": "DML",
        "Status": {
            "State": "FAILED",
            "StateChangeReason": reason,
            "AthenaError": {
                "ErrorCategory": category,
                "ErrorType": error_type,
                "Retryable": retryable,
                "ErrorMessage": reason
            }
        }
    }})
}

/// The table the tests build statements for.
pub fn table() -> TableDef {
    TableDef::builder("analytics", "mcp_events")
        .column(Column::new("event_id", IcebergType::String).required())
        .column(Column::new("payload", IcebergType::String))
        .location("s3://my-datalake/iceberg/mcp_events/")
        .build()
        .unwrap()
}

pub fn create_stmt() -> Statement {
    table().create_table().if_not_exists().build().unwrap()
}

pub fn drop_stmt() -> Statement {
    table().name().drop_table().if_exists().build().unwrap()
}
