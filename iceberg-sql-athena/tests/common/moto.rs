//! moto over real HTTP on 127.0.0.1: client, per-test account, control plane.

use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

use aws_sdk_athena::config::interceptors::BeforeTransmitInterceptorContextMut;
use aws_sdk_athena::config::retry::RetryConfig;
use aws_sdk_athena::config::{
    BehaviorVersion, ConfigBag, Credentials, Intercept, Region, RuntimeComponents,
};
use aws_sdk_athena::error::BoxError;
use aws_sdk_athena::Client;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `MOTO_ENDPOINT`, or `None` after printing SKIP. With `CI` set, a missing moto fails.
pub fn endpoint(test: &str) -> Option<String> {
    super::safe_env();
    match std::env::var("MOTO_ENDPOINT") {
        Ok(ep) if !ep.is_empty() => Some(ep),
        _ => {
            let ci = std::env::var("CI").map(|v| !v.is_empty() && v != "0" && v != "false");
            if ci.unwrap_or(false) {
                panic!("{test}: MOTO_ENDPOINT is not set but CI is: start moto (scripts/moto.sh)");
            }
            // Written to the real stdout (not captured by the test harness) so the
            // SKIP is visible in the run's output.
            let _ = writeln!(
                std::io::stdout(),
                "SKIP {test}: MOTO_ENDPOINT not set (source scripts/moto.sh && start_moto)"
            );
            None
        }
    }
}

/// A fresh 12-digit account id, so each test has its own moto backend.
pub fn fresh_account() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mixed = (nanos as u64) ^ (u64::from(std::process::id()) << 20);
    format!("{:012}", 100_000_000_000 + mixed % 800_000_000_000)
}

#[derive(Debug)]
struct MotoAccount(String);

impl Intercept for MotoAccount {
    fn name(&self) -> &'static str {
        "MotoAccount"
    }
    fn modify_before_signing(
        &self,
        ctx: &mut BeforeTransmitInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        ctx.request_mut()
            .headers_mut()
            .insert("x-moto-account-id", self.0.clone());
        Ok(())
    }
}

/// An Athena client for moto, scoped to `account`, without retries (moto's 500s fail fast).
pub fn client(endpoint: &str, account: &str) -> Client {
    let conf = aws_sdk_athena::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .endpoint_url(endpoint)
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("testing", "testing", None, None, "static"))
        .retry_config(RetryConfig::standard().with_max_attempts(1))
        .interceptor(MotoAccount(account.to_string()))
        .build();
    Client::from_conf(conf)
}

/// POSTs JSON to moto's control plane (`/moto-api/...`) with a hand-written HTTP/1.1
/// request; returns the status code.
pub async fn control(endpoint: &str, path: &str, body: &Value) -> u16 {
    let hostport = endpoint.trim_start_matches("http://").trim_end_matches('/');
    assert!(
        hostport.starts_with("127.0.0.1:"),
        "tests only talk to 127.0.0.1"
    );
    let body = body.to_string();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut s = TcpStream::connect(hostport).await.expect("connect to moto");
    s.write_all(req.as_bytes()).await.expect("send");
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).await.expect("read");
    let text = String::from_utf8_lossy(&resp);
    text.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}
