//! The Athena JSON 1.1 front: requests in, faults and the engine's plans applied,
//! answers out, everything recorded in the ledger.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_sdk_athena::primitives::{DateTime, DateTimeFormat};

use serde_json::{json, Map, Value};
use tokio::time::Instant;

use crate::engine::{
    default_plan, End, Engine, Failure, Finished, Lasts, NewQuery, Plan, ResultSet, State,
};
use crate::faults::{Fault, FaultPlan, Op, QueryFault, Stats};
use crate::http::Reply;
use crate::ledger::{inserted_rows, ExecutionRecord, Ledger, Stop};
use crate::snapshots::{snapshots_query_table, written_table, Snapshots};

/// One request the server received.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The operation.
    pub op: Op,
    /// The JSON body.
    pub body: Value,
    /// The API fault injected into it, if any.
    pub fault: Option<Fault>,
}

/// An execution's progress through its plan.
struct Progress {
    plan: Plan,
    phase: usize,
    phase_polls: u32,
    phase_started: Instant,
    submitted: SystemTime,
    completed: Option<SystemTime>,
    /// When its token was first used, for the token's time to live.
    token_born: Instant,
    params: Vec<String>,
    database: Option<String>,
    work_group: Option<String>,
    output_location: Option<String>,
}

/// How the server's clock and memory differ from an ideal Athena's.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Realism {
    /// Milliseconds the server's (Athena's) clock is ahead of this machine's
    /// (negative: behind).
    pub(crate) clock_skew_ms: i64,
    /// How long a `ClientRequestToken` is remembered (`None`: for ever).
    pub(crate) token_ttl: Option<Duration>,
}

pub(crate) struct ServerState {
    engine: Box<dyn Engine>,
    faults: FaultPlan,
    key_column: Option<String>,
    realism: Realism,
    snapshots: Snapshots,
    ledger: Ledger,
    progress: Vec<Progress>,
    by_id: HashMap<String, usize>,
    by_token: HashMap<String, usize>,
    requests: Vec<Request>,
    stats: Stats,
    next_request: u64,
}

pub(crate) struct Inner {
    pub(crate) state: Mutex<ServerState>,
}

fn epoch_seconds(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

fn error(status: u16, code: &str, message: &str) -> (u16, Value) {
    (status, json!({"__type": code, "Message": message}))
}

impl Inner {
    pub(crate) fn new(
        engine: Box<dyn Engine>,
        faults: FaultPlan,
        key_column: Option<String>,
        realism: Realism,
    ) -> Self {
        Inner {
            state: Mutex::new(ServerState {
                engine,
                faults,
                key_column,
                realism,
                snapshots: Snapshots::default(),
                ledger: Ledger::default(),
                progress: Vec::new(),
                by_id: HashMap::new(),
                by_token: HashMap::new(),
                requests: Vec::new(),
                stats: Stats::default(),
                next_request: 0,
            }),
        }
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, ServerState> {
        // A panicking test thread must not hide the ledger from the others.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) async fn handle(&self, target: &str, body: &[u8]) -> Reply {
        let name = target.rsplit('.').next().unwrap_or("");
        let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let (fault, request_id, date, answer) = {
            let mut s = self.lock();
            s.next_request += 1;
            let request_id = format!("req-{:08}", s.next_request);
            let date = DateTime::from(s.now())
                .fmt(DateTimeFormat::HttpDate)
                .unwrap_or_default();
            let Some(op) = Op::from_name(name) else {
                let (status, v) = error(
                    400,
                    "UnknownOperationException",
                    &format!("this test server does not answer {name:?}"),
                );
                return Reply::Answer {
                    status,
                    body: v.to_string(),
                    request_id,
                    date,
                };
            };
            *s.stats.requests.entry(op.name()).or_insert(0) += 1;
            let fault = s.faults.next_fault(op);
            s.requests.push(Request {
                op,
                body: body.clone(),
                fault,
            });
            if let Some(f) = fault {
                *s.stats.faults.entry(f.kind()).or_insert(0) += 1;
            }
            let answer = match fault {
                Some(f) if !f.takes_effect() => None,
                _ => Some(s.answer(op, &body)),
            };
            (fault, request_id, date, answer)
        };
        let reply = |(status, v): (u16, Value)| Reply::Answer {
            status,
            body: v.to_string(),
            request_id: request_id.clone(),
            date: date.clone(),
        };
        match (fault, answer) {
            (None, Some(a)) => reply(a),
            (Some(Fault::Throttle), _) => reply(error(400, "ThrottlingException", "Rate exceeded")),
            (Some(Fault::TooManyRequests), _) => reply((
                400,
                json!({"__type": "TooManyRequestsException",
                       "Message": "You have exceeded the limit for the number of queries you can run concurrently.",
                       "Reason": "CONCURRENT_QUERY_LIMIT_EXCEEDED"}),
            )),
            (Some(Fault::ServerError), _) | (Some(Fault::LostResponse), _) => reply(error(
                500,
                "InternalServerException",
                "We encountered an internal error. Please try again.",
            )),
            (Some(Fault::Unavailable), _) => {
                reply((503, json!({"Message": "Service Unavailable"})))
            }
            (Some(Fault::Reset), _) | (Some(Fault::LostConnection), _) => Reply::Reset,
            (Some(Fault::Slow(d)), Some(a)) => {
                tokio::time::sleep(d).await;
                reply(a)
            }
            (Some(Fault::Pass), Some(a)) => reply(a),
            (Some(Fault::Ignored), _) => reply((200, json!({}))),
            (Some(Fault::Rejected(code)), _) => reply(error(
                400,
                code,
                "The request was refused (a fault the test server injected)",
            )),
            (_, None) => reply(error(500, "InternalServerException", "no answer")),
        }
    }
}

impl ServerState {
    /// The server's clock: this machine's, shifted by the configured skew.
    pub(crate) fn now(&self) -> SystemTime {
        let skew = Duration::from_millis(self.realism.clock_skew_ms.unsigned_abs());
        let now = SystemTime::now();
        if self.realism.clock_skew_ms >= 0 {
            now + skew
        } else {
            now.checked_sub(skew).unwrap_or(UNIX_EPOCH)
        }
    }

    /// The execution a token answers, while the server still remembers the token.
    fn execution_of_token(&self, token: &str) -> Option<usize> {
        let &i = self.by_token.get(token)?;
        let remembered = self
            .realism
            .token_ttl
            .is_none_or(|ttl| self.progress[i].token_born.elapsed() < ttl);
        remembered.then_some(i)
    }

    fn answer(&mut self, op: Op, body: &Value) -> (u16, Value) {
        match op {
            Op::StartQueryExecution => self.start(body),
            Op::GetQueryExecution => self.get_execution(body),
            Op::GetQueryResults => self.get_results(body),
            Op::StopQueryExecution => self.stop(body),
        }
    }

    fn start(&mut self, body: &Value) -> (u16, Value) {
        let Some(sql) = body["QueryString"].as_str().filter(|s| !s.is_empty()) else {
            return error(400, "InvalidRequestException", "QueryString is required");
        };
        let params: Vec<String> = body["ExecutionParameters"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let token = body["ClientRequestToken"].as_str().map(str::to_string);
        if let Some(t) = &token {
            if !(32..=128).contains(&t.len()) {
                return error(
                    400,
                    "InvalidRequestException",
                    "ClientRequestToken must be 32 to 128 characters long",
                );
            }
            if let Some(i) = self.execution_of_token(t) {
                // Athena's idempotency: the same token answers the same execution; a
                // changed parameter (the text, its parameters, the workgroup) is an
                // error.
                let e = &self.ledger.executions[i];
                let work_group = body["WorkGroup"].as_str();
                if e.sql != sql
                    || self.progress[i].params != params
                    || self.progress[i].work_group.as_deref() != work_group
                {
                    return error(
                        400,
                        "InvalidRequestException",
                        "Idempotent parameters do not match: this ClientRequestToken was used with another QueryString or other parameters",
                    );
                }
                self.stats.token_replays += 1;
                return (200, json!({"QueryExecutionId": e.id}));
            }
        }
        let n = self.ledger.executions.len() + 1;
        let id = format!("{n:08x}-0000-4000-8000-{n:012x}");
        let token = token.unwrap_or_else(|| format!("server-generated-token-{n:016x}-0000"));
        let earlier_runs = self
            .ledger
            .executions
            .iter()
            .filter(|e| e.sql == sql)
            .count();
        let mut plan = self.engine.plan(&NewQuery {
            id: &id,
            sql,
            params: &params,
            earlier_runs,
        });
        // Nobody scripted this read of a table's `$snapshots`: the catalog answers it.
        if plan == default_plan(sql) {
            if let Some(table) = snapshots_query_table(sql) {
                plan = Plan::rows(self.snapshots.result(&table));
            }
        }
        if matches!(plan.end, End::Succeed { .. }) {
            if let Some(f) = self.faults.next_query_fault(sql) {
                *self.stats.query_faults.entry(f.kind()).or_insert(0) += 1;
                plan.end = match f {
                    QueryFault::Fail(failure) => End::Fail {
                        failure,
                        after_commit: false,
                    },
                    QueryFault::FailAfterCommit(failure) => End::Fail {
                        failure,
                        after_commit: true,
                    },
                    QueryFault::Cancel => End::Cancel("Query cancelled by another user".into()),
                };
            }
        }
        let i = self.ledger.executions.len();
        self.ledger.executions.push(ExecutionRecord {
            id: id.clone(),
            token: token.clone(),
            sql: sql.to_string(),
            state: State::Queued,
            committed: Vec::new(),
            stopped: None,
            polls: 0,
        });
        self.progress.push(Progress {
            plan,
            phase: 0,
            phase_polls: 0,
            phase_started: Instant::now(),
            submitted: self.now(),
            completed: None,
            token_born: Instant::now(),
            params,
            database: body["QueryExecutionContext"]["Database"]
                .as_str()
                .map(str::to_string),
            work_group: body["WorkGroup"].as_str().map(str::to_string),
            output_location: body["ResultConfiguration"]["OutputLocation"]
                .as_str()
                .map(str::to_string),
        });
        self.by_id.insert(id.clone(), i);
        self.by_token.insert(token, i);
        self.refresh(i);
        (200, json!({"QueryExecutionId": id}))
    }

    fn find(&self, body: &Value) -> Result<usize, (u16, Value)> {
        let id = body["QueryExecutionId"].as_str().unwrap_or("");
        self.by_id.get(id).copied().ok_or_else(|| {
            error(
                400,
                "InvalidRequestException",
                &format!("QueryExecution {id} was not found"),
            )
        })
    }

    /// Moves execution `i` through its phases as far as time and polls allow.
    fn refresh(&mut self, i: usize) -> State {
        loop {
            let state = self.ledger.executions[i].state;
            if state.is_terminal() {
                return state;
            }
            let p = &mut self.progress[i];
            let Some(phase) = p.plan.phases.get(p.phase).copied() else {
                self.finish(i);
                continue;
            };
            let done = match phase.lasts {
                Lasts::Polls(n) => p.phase_polls >= n,
                Lasts::For(d) => p.phase_started.elapsed() >= d,
                Lasts::Forever => false,
            };
            if done {
                p.phase += 1;
                p.phase_polls = 0;
                p.phase_started = Instant::now();
                continue;
            }
            self.ledger.executions[i].state = phase.state;
            return phase.state;
        }
    }

    /// Applies the plan's end: state, and the rows a committing statement writes.
    pub(crate) fn finish(&mut self, i: usize) {
        let sql = self.ledger.executions[i].sql.clone();
        let written = written_table(&sql);
        let (state, commits) = match &self.progress[i].plan.end {
            // A write that succeeded committed; an INSERT's plan may say it did not.
            End::Succeed { commits, .. } => (
                State::Succeeded,
                *commits || written.as_ref().is_some_and(|(_, op)| *op != "append"),
            ),
            End::Fail { after_commit, .. } => (State::Failed, *after_commit),
            End::Cancel(_) => (State::Cancelled, false),
        };
        let now = self.now();
        let e = &mut self.ledger.executions[i];
        e.state = state;
        if commits {
            e.committed = inserted_rows(&sql, self.key_column.as_deref());
            if let Some((table, operation)) = written {
                // The engine commits a moment before the query completes, never
                // before it was submitted.
                let at = now
                    .checked_sub(Duration::from_millis(1))
                    .unwrap_or(now)
                    .max(self.progress[i].submitted);
                let added = e.committed.len() as u64;
                self.snapshots.commit(table, operation, added, &e.id, at);
            }
        }
        self.progress[i].completed = Some(now);
        let e = &self.ledger.executions[i];
        self.engine.finished(&Finished {
            id: &e.id,
            sql: &e.sql,
            state,
            committed: commits,
        });
    }

    pub(crate) fn snapshots(&self) -> Snapshots {
        self.snapshots.clone()
    }

    /// Runs every unfinished execution to its end, as Athena would with nobody polling.
    pub(crate) fn settle(&mut self) {
        for i in 0..self.progress.len() {
            if !self.ledger.executions[i].state.is_terminal() {
                self.finish(i);
            }
        }
    }

    fn get_execution(&mut self, body: &Value) -> (u16, Value) {
        let i = match self.find(body) {
            Ok(i) => i,
            Err(e) => return e,
        };
        let state = self.refresh(i);
        self.ledger.executions[i].polls += 1;
        if !state.is_terminal() {
            self.progress[i].phase_polls += 1;
        }
        (200, json!({"QueryExecution": self.execution_json(i)}))
    }

    fn execution_json(&self, i: usize) -> Value {
        let e = &self.ledger.executions[i];
        let p = &self.progress[i];
        let mut status = Map::new();
        status.insert("State".into(), json!(e.state.as_str()));
        status.insert(
            "SubmissionDateTime".into(),
            json!(epoch_seconds(p.submitted)),
        );
        if let Some(c) = p.completed {
            status.insert("CompletionDateTime".into(), json!(epoch_seconds(c)));
        }
        let failure: Option<&Failure> = match (&p.plan.end, e.state) {
            (End::Fail { failure, .. }, State::Failed) => Some(failure),
            _ => None,
        };
        if let Some(f) = failure {
            status.insert("StateChangeReason".into(), json!(f.message));
            status.insert(
                "AthenaError".into(),
                json!({"ErrorCategory": f.category, "ErrorType": f.error_type,
                       "Retryable": f.retryable, "ErrorMessage": f.message}),
            );
        }
        if e.state == State::Cancelled {
            let reason = match &p.plan.end {
                End::Cancel(r) => r.clone(),
                _ => "Query cancelled by user".to_string(),
            };
            status.insert("StateChangeReason".into(), json!(reason));
        }
        let mut q = Map::new();
        q.insert("QueryExecutionId".into(), json!(e.id));
        q.insert("Query".into(), json!(e.sql));
        q.insert("StatementType".into(), json!(p.plan.statement_type));
        if let Some(t) = &p.plan.substatement_type {
            q.insert("SubstatementType".into(), json!(t));
        }
        q.insert("Status".into(), Value::Object(status));
        let mut statistics = json!({"DataScannedInBytes": p.plan.data_scanned_bytes,
               "EngineExecutionTimeInMillis": 10, "TotalExecutionTimeInMillis": 12,
               "QueryQueueTimeInMillis": 1, "QueryPlanningTimeInMillis": 1});
        // A statement that wrote data files lists them in a manifest next to its result
        // file: `<output location>/<query id>-manifest.csv`.
        let wrote_files =
            matches!(p.plan.end, End::Succeed { commits: true, .. }) && e.state == State::Succeeded;
        if let (true, Some(out)) = (wrote_files, &p.output_location) {
            let sep = if out.ends_with('/') { "" } else { "/" };
            statistics["DataManifestLocation"] = json!(format!("{out}{sep}{}-manifest.csv", e.id));
        }
        q.insert("Statistics".into(), statistics);
        q.insert(
            "WorkGroup".into(),
            json!(p.work_group.as_deref().unwrap_or("primary")),
        );
        if let Some(db) = &p.database {
            q.insert("QueryExecutionContext".into(), json!({"Database": db}));
        }
        if let Some(out) = &p.output_location {
            let sep = if out.ends_with('/') { "" } else { "/" };
            q.insert(
                "ResultConfiguration".into(),
                json!({"OutputLocation": format!("{out}{sep}{}.csv", e.id)}),
            );
        }
        if !p.params.is_empty() {
            q.insert("ExecutionParameters".into(), json!(p.params));
        }
        Value::Object(q)
    }

    fn get_results(&mut self, body: &Value) -> (u16, Value) {
        let i = match self.find(body) {
            Ok(i) => i,
            Err(e) => return e,
        };
        let state = self.refresh(i);
        if state != State::Succeeded {
            return error(
                400,
                "InvalidRequestException",
                &format!("Query has not succeeded (state {})", state.as_str()),
            );
        }
        let e = &self.ledger.executions[i];
        let (result, update_count) = match &self.progress[i].plan.end {
            End::Succeed {
                result,
                update_count,
                commits,
            } => {
                let n = update_count.or(commits.then_some(e.committed.len() as i64));
                (result.clone().unwrap_or_default(), n)
            }
            _ => (ResultSet::default(), None),
        };
        let mut all: Vec<Vec<Option<String>>> = Vec::new();
        if result.header {
            all.push(
                result
                    .columns
                    .iter()
                    .map(|(n, _)| Some(n.clone()))
                    .collect(),
            );
        }
        all.extend(result.rows.iter().cloned());
        let max = body["MaxResults"].as_u64().unwrap_or(1000).clamp(1, 1000) as usize;
        let start: usize = body["NextToken"]
            .as_str()
            .and_then(|t| t.strip_prefix("page-"))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let end = (start + max).min(all.len());
        let rows: Vec<Value> = all[start.min(end)..end]
            .iter()
            .map(|r| {
                let data: Vec<Value> = r
                    .iter()
                    .map(|c| match c {
                        Some(v) => json!({"VarCharValue": v}),
                        None => json!({}),
                    })
                    .collect();
                json!({"Data": data})
            })
            .collect();
        let columns: Vec<Value> = result
            .columns
            .iter()
            .map(|(n, t)| json!({"Name": n, "Label": n, "Type": t, "Nullable": "UNKNOWN"}))
            .collect();
        let mut out =
            json!({"ResultSet": {"Rows": rows, "ResultSetMetadata": {"ColumnInfo": columns}}});
        if end < all.len() {
            out["NextToken"] = json!(format!("page-{end}"));
        }
        if let Some(n) = update_count {
            out["UpdateCount"] = json!(n);
        }
        (200, out)
    }

    fn stop(&mut self, body: &Value) -> (u16, Value) {
        let i = match self.find(body) {
            Ok(i) => i,
            Err(e) => return e,
        };
        if !self.refresh(i).is_terminal() {
            let healthy = matches!(self.progress[i].plan.end, End::Succeed { .. });
            self.progress[i].plan.end = End::Cancel("Query cancelled by user".into());
            self.finish(i);
            self.ledger.executions[i].stopped = Some(Stop { healthy });
        }
        (200, json!({}))
    }

    pub(crate) fn ledger(&self) -> Ledger {
        self.ledger.clone()
    }

    pub(crate) fn requests(&self) -> Vec<Request> {
        self.requests.clone()
    }

    pub(crate) fn stats(&self) -> Stats {
        self.stats.clone()
    }

    pub(crate) fn faults_mut(&mut self) -> &mut FaultPlan {
        &mut self.faults
    }
}
