//! Turning the SDK's errors into [`ApiError`]s: the call, the service's code and
//! message on one line, the request id, and a class for retry decisions.

use aws_sdk_athena::config::http::HttpResponse;
use aws_sdk_athena::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_athena::operation::RequestId;
use iceberg_sql::Statement;

use crate::error::{ApiError, ApiErrorClass, CommitState};

/// What an API error is about.
#[derive(Clone, Copy, Default)]
pub(crate) struct Ctx<'a> {
    pub(crate) statement: Option<&'a Statement>,
    pub(crate) query_id: Option<&'a str>,
    pub(crate) token: Option<&'a str>,
    pub(crate) commit_state: Option<CommitState>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn query(id: &'a str, commit_state: CommitState) -> Self {
        Ctx {
            query_id: Some(id),
            commit_state: Some(commit_state),
            ..Ctx::default()
        }
    }
}

/// Error codes the AWS SDKs treat as throttling (aws-smithy-runtime's
/// `THROTTLING_ERRORS`), plus Athena's `TooManyRequestsException`.
const THROTTLING_CODES: [&str; 10] = [
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "SlowDown",
];

/// The first line of `text`, at most 300 bytes.
fn one_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let mut end = line.len().min(300);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    if end < line.len() {
        format!("{}...", &line[..end])
    } else {
        line.to_string()
    }
}

pub(crate) fn api_error<E>(
    operation: &'static str,
    err: SdkError<E, HttpResponse>,
    ctx: Ctx<'_>,
) -> ApiError
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    let code = err.code().map(str::to_string);
    let request_id = err.request_id().map(str::to_string);
    let http_status = err.raw_response().map(|r| r.status().as_u16());
    let (class, message) = match &err {
        SdkError::ServiceError(_) => {
            let class = if code
                .as_deref()
                .is_some_and(|c| THROTTLING_CODES.contains(&c))
            {
                ApiErrorClass::Throttling
            } else if http_status.is_some_and(|s| s >= 500) {
                ApiErrorClass::Transient
            } else {
                ApiErrorClass::Rejected
            };
            let message = err
                .message()
                .map(one_line)
                .unwrap_or_else(|| "no message".to_string());
            (class, message)
        }
        SdkError::TimeoutError(_) => (ApiErrorClass::Transient, "the call timed out".to_string()),
        SdkError::DispatchFailure(d) => {
            let what = if d.is_timeout() {
                "connection timed out"
            } else if d.is_io() {
                "connection failed (I/O error)"
            } else if d.is_user() {
                "the request could not be sent"
            } else {
                "the request could not be dispatched"
            };
            (ApiErrorClass::Transient, what.to_string())
        }
        SdkError::ResponseError(_) => (
            ApiErrorClass::Transient,
            "the answer could not be read".to_string(),
        ),
        SdkError::ConstructionFailure(_) => (
            ApiErrorClass::NotSent,
            "the request could not be built".to_string(),
        ),
        _ => (ApiErrorClass::Transient, one_line(&err.to_string())),
    };
    ApiError {
        operation,
        statement_kind: ctx.statement.map(Statement::kind),
        code,
        message,
        http_status,
        request_id,
        class,
        query_id: ctx.query_id.map(str::to_string),
        client_request_token: ctx.token.map(str::to_string),
        sql: ctx.statement.map(|s| s.sql().to_string()),
        commit_state: ctx.commit_state.unwrap_or(CommitState::Unknown),
        source: Box::new(err),
    }
}
