//! The fault layer: what goes wrong on the wire ([`Fault`], per API call) and in a
//! query ([`QueryFault`], per new execution), scripted in order or drawn from a seed.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Duration;

use crate::engine::Failure;
use crate::rng::SeededRng;

/// An Athena API operation (`X-Amz-Target: AmazonAthena.<Op>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// `StartQueryExecution`.
    StartQueryExecution,
    /// `GetQueryExecution`.
    GetQueryExecution,
    /// `GetQueryResults`.
    GetQueryResults,
    /// `StopQueryExecution`.
    StopQueryExecution,
}

impl Op {
    /// Every operation the server answers.
    pub const ALL: [Op; 4] = [
        Op::StartQueryExecution,
        Op::GetQueryExecution,
        Op::GetQueryResults,
        Op::StopQueryExecution,
    ];

    /// The operation named by an `X-Amz-Target` value's last segment.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.name() == name)
    }

    /// The API name.
    pub fn name(self) -> &'static str {
        match self {
            Op::StartQueryExecution => "StartQueryExecution",
            Op::GetQueryExecution => "GetQueryExecution",
            Op::GetQueryResults => "GetQueryResults",
            Op::StopQueryExecution => "StopQueryExecution",
        }
    }
}

/// Something that goes wrong with one API call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// No fault: this call is answered normally (to script "the third call fails").
    Pass,
    /// HTTP 400 `ThrottlingException` ("Rate exceeded"); the call has no effect.
    Throttle,
    /// HTTP 400 `TooManyRequestsException` (`CONCURRENT_QUERY_LIMIT_EXCEEDED`); no effect.
    TooManyRequests,
    /// HTTP 500 `InternalServerException`; no effect.
    ServerError,
    /// HTTP 503 without an error code; no effect.
    Unavailable,
    /// The connection is reset before any answer; no effect.
    Reset,
    /// The call takes effect; the answer comes after this delay (the client's attempt
    /// timeout may have fired by then).
    Slow(Duration),
    /// The call takes effect (`StartQueryExecution` creates the query), then the
    /// answer is an HTTP 500.
    LostResponse,
    /// The call takes effect, then the connection is reset without an answer.
    LostConnection,
    /// HTTP 200, and the call has no effect: a `StopQueryExecution` that Athena
    /// accepts while the query goes on (it reached its commit, or the stop was lost
    /// inside the service).
    Ignored,
    /// HTTP 400 with this error code (`ExpiredTokenException`,
    /// `AccessDeniedException`, …): refused, no effect, and calling again does not help.
    Rejected(&'static str),
}

impl Fault {
    /// A short name for counting (`throttle`, `5xx`, `reset`, `slow`, ...).
    pub fn kind(self) -> &'static str {
        match self {
            Fault::Pass => "none",
            Fault::Throttle => "throttle",
            Fault::TooManyRequests => "too-many-requests",
            Fault::ServerError | Fault::Unavailable => "5xx",
            Fault::Reset => "reset",
            Fault::Slow(_) => "slow",
            Fault::LostResponse => "effect+5xx",
            Fault::LostConnection => "effect+reset",
            Fault::Ignored => "ignored",
            Fault::Rejected(_) => "rejected-4xx",
        }
    }

    /// Whether the call takes effect before the fault strikes.
    pub fn takes_effect(self) -> bool {
        !matches!(self, Fault::Ignored | Fault::Rejected(_))
            && matches!(
                self,
                Fault::Slow(_) | Fault::LostResponse | Fault::LostConnection
            )
    }
}

/// Something that goes wrong with one query (decided when it is created; only a
/// query that would have succeeded is affected).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryFault {
    /// Ends `FAILED` with this error; commits nothing.
    Fail(Failure),
    /// Commits, then ends `FAILED` with this error (e.g. result files not written).
    FailAfterCommit(Failure),
    /// Ends `CANCELLED` by someone else; commits nothing.
    Cancel,
}

impl QueryFault {
    /// A short name for counting (`failed-233`, `failed-after-commit-401`, `cancelled`).
    pub fn kind(&self) -> String {
        match self {
            QueryFault::Fail(f) => format!("failed-{}", f.error_type),
            QueryFault::FailAfterCommit(f) => format!("failed-after-commit-{}", f.error_type),
            QueryFault::Cancel => "cancelled".into(),
        }
    }
}

/// Random API faults: each call of an operation in `ops` fails with probability
/// `rate`, the fault picked by weight.
#[derive(Debug, Clone)]
pub struct RandomFaults {
    /// Probability per call.
    pub rate: f64,
    /// Faults and their weights.
    pub kinds: Vec<(Fault, u32)>,
    /// The operations affected.
    pub ops: Vec<Op>,
}

/// Random query faults: each new execution whose SQL starts with `prefix` gets a fault
/// with probability `rate`, picked by weight.
#[derive(Debug, Clone)]
pub struct RandomQueryFaults {
    /// Probability per execution.
    pub rate: f64,
    /// Faults and their weights.
    pub kinds: Vec<(QueryFault, u32)>,
    /// E.g. `INSERT`.
    pub prefix: String,
}

/// All faults the server injects. Scripted faults come first, in order; random ones
/// are drawn from one seeded generator, so a sequential client sees the same faults
/// on every run with the same seed.
#[derive(Debug, Clone)]
pub struct FaultPlan {
    scripted: HashMap<Op, VecDeque<Fault>>,
    scripted_queries: Vec<(String, VecDeque<QueryFault>)>,
    random: Vec<RandomFaults>,
    random_queries: Option<RandomQueryFaults>,
    rng: SeededRng,
}

impl Default for FaultPlan {
    fn default() -> Self {
        FaultPlan::seeded(0)
    }
}

fn pick<T: Clone>(rng: &mut SeededRng, kinds: &[(T, u32)]) -> Option<T> {
    let total: u64 = kinds.iter().map(|(_, w)| u64::from(*w)).sum();
    if total == 0 {
        return None;
    }
    let mut n = rng.next_u64() % total;
    for (k, w) in kinds {
        if n < u64::from(*w) {
            return Some(k.clone());
        }
        n -= u64::from(*w);
    }
    None
}

impl FaultPlan {
    /// No faults; random draws (once added) come from `seed`.
    pub fn seeded(seed: u64) -> Self {
        FaultPlan {
            scripted: HashMap::new(),
            scripted_queries: Vec::new(),
            random: Vec::new(),
            random_queries: None,
            rng: SeededRng::new(seed),
        }
    }

    /// The next calls of `op` get `faults`, one each, in order.
    pub fn script(mut self, op: Op, faults: impl IntoIterator<Item = Fault>) -> Self {
        self.scripted.entry(op).or_default().extend(faults);
        self
    }

    /// The next new executions whose SQL contains `needle` get `faults`, one each.
    pub fn script_queries(
        mut self,
        needle: &str,
        faults: impl IntoIterator<Item = QueryFault>,
    ) -> Self {
        self.scripted_queries
            .push((needle.to_string(), faults.into_iter().collect()));
        self
    }

    /// Random API faults. Called again, adds faults for other operations: a call is
    /// drawn against the first set whose `ops` name its operation.
    pub fn random(mut self, random: RandomFaults) -> Self {
        self.random.push(random);
        self
    }

    /// Random query faults.
    pub fn random_queries(mut self, random: RandomQueryFaults) -> Self {
        self.random_queries = Some(random);
        self
    }

    pub(crate) fn next_fault(&mut self, op: Op) -> Option<Fault> {
        if let Some(f) = self.scripted.get_mut(&op).and_then(VecDeque::pop_front) {
            return (f != Fault::Pass).then_some(f);
        }
        let random = self.random.iter().find(|r| r.ops.contains(&op))?;
        if !self.rng.chance(random.rate) {
            return None;
        }
        pick(&mut self.rng, &random.kinds)
    }

    pub(crate) fn next_query_fault(&mut self, sql: &str) -> Option<QueryFault> {
        for (needle, faults) in &mut self.scripted_queries {
            if sql.contains(needle.as_str()) {
                if let Some(f) = faults.pop_front() {
                    return Some(f);
                }
            }
        }
        let random = self.random_queries.as_ref()?;
        if !sql.trim_start().starts_with(random.prefix.as_str()) || !self.rng.chance(random.rate) {
            return None;
        }
        pick(&mut self.rng, &random.kinds)
    }
}

/// What the server counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls per operation (faulted ones included).
    pub requests: BTreeMap<&'static str, u64>,
    /// API faults injected, by [`Fault::kind`].
    pub faults: BTreeMap<&'static str, u64>,
    /// Query faults injected, by [`QueryFault::kind`].
    pub query_faults: BTreeMap<String, u64>,
    /// `StartQueryExecution` calls whose token was already known (answered with the
    /// existing execution).
    pub token_replays: u64,
}

impl Stats {
    /// All API faults.
    pub fn api_faults(&self) -> u64 {
        self.faults.values().sum()
    }

    /// All query faults.
    pub fn total_query_faults(&self) -> u64 {
        self.query_faults.values().sum()
    }

    /// All calls.
    pub fn total_requests(&self) -> u64 {
        self.requests.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_faults_come_first_then_random_by_seed() {
        let random = RandomFaults {
            rate: 0.5,
            kinds: vec![(Fault::Throttle, 1), (Fault::Reset, 1)],
            ops: vec![Op::GetQueryExecution],
        };
        let draw = |seed| {
            let mut p = FaultPlan::seeded(seed)
                .script(Op::GetQueryExecution, [Fault::ServerError])
                .random(random.clone());
            (0..20)
                .map(|_| p.next_fault(Op::GetQueryExecution))
                .collect::<Vec<_>>()
        };
        let a = draw(3);
        assert_eq!(a[0], Some(Fault::ServerError));
        assert_eq!(a, draw(3), "same seed, same faults");
        assert_ne!(a, draw(4));
        assert!(a.iter().skip(1).any(Option::is_none));
        let mut p = FaultPlan::seeded(1).random(random);
        assert!((0..50).all(|_| p.next_fault(Op::StartQueryExecution).is_none()));
    }

    #[test]
    fn query_faults_by_needle_then_random_by_prefix() {
        let mut p = FaultPlan::seeded(9)
            .script_queries("mcp_events", [QueryFault::Cancel])
            .random_queries(RandomQueryFaults {
                rate: 1.0,
                kinds: vec![(QueryFault::Fail(Failure::iceberg_commit_error()), 1)],
                prefix: "INSERT".into(),
            });
        assert_eq!(
            p.next_query_fault("INSERT INTO a.mcp_events VALUES (1)"),
            Some(QueryFault::Cancel)
        );
        assert_eq!(
            p.next_query_fault("INSERT INTO a.mcp_events VALUES (1)")
                .map(|f| f.kind()),
            Some("failed-233".to_string())
        );
        assert_eq!(p.next_query_fault("SELECT 1"), None);
    }
}
