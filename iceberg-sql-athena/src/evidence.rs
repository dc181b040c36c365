//! Settling a write Athena reported failed or cancelled when it may have committed
//! all the same: the table's own snapshots decide.
//!
//! Why snapshots. An Iceberg write commits by swapping the table's metadata for one
//! that adds exactly one snapshot (Iceberg table spec, "Snapshots" and "Commit
//! Conflict Resolution and Retry", <https://iceberg.apache.org/spec/>), and Athena
//! lists a table's snapshots, with `committed_at`, `operation` and the `summary`
//! counters, in `"db"."t$snapshots"`
//! (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-table-metadata.html>).
//! A commit can go through while the query still fails: Trino's Glue table operations
//! raise `CommitStateUnknownException` when they "cannot determine whether the update
//! was successful" (`plugin/trino-iceberg/.../catalog/glue/GlueIcebergTableOperations.java`,
//! <https://github.com/trinodb/trino>), and Athena's result-writing errors come after
//! the write (error types 238, 401, 402:
//! <https://docs.aws.amazon.com/athena/latest/ug/error-reference.html>). Athena's query
//! id is not in the snapshot (its summary names the engine's own query id), so the
//! executor reads which snapshots the table gained while the query ran, on Athena's
//! clocks only: the execution's `SubmissionDateTime` and `CompletionDateTime`
//! (<https://docs.aws.amazon.com/athena/latest/APIReference/API_QueryExecutionStatus.html>)
//! against the snapshots' `committed_at`, which Athena's engine stamps.
//!
//! The verdict ([`judge`]):
//! - no snapshot of the write's shape (operation `append` with `added-records` equal
//!   to the batch's rows for `INSERT … VALUES`, `append` for other INSERTs;
//!   `append`, `overwrite` or `delete` for UPDATE, DELETE and MERGE) committed between
//!   submission and completion: **not committed**;
//! - exactly one snapshot committed between submission and completion, of the write's
//!   shape: **committed** (the clock tolerance past the completion may already hold the
//!   next writer's commit, so only the window's core counts here),
//!   except after a commit error of an UPDATE, DELETE or MERGE, where that one snapshot
//!   may be the concurrent writer's that made it fail;
//! - anything else (several writers in the window): **unknown**, reported with the
//!   snapshots seen, never resubmitted.
//!
//! What it cannot settle: a table with other writers committing while the write ran;
//! and it trusts that no other writer's commit in the window has the write's shape
//! while the write itself failed before committing (for INSERT … VALUES: the same
//! operation and the same record count). Snapshots expired before the check
//! (`VACUUM`) are not seen.

use std::fmt;
use std::time::Duration;

use aws_sdk_athena::types::QueryExecution;
use chrono::{DateTime, DurationRound, Utc};
use iceberg_sql::expr::ExpressionMethods;
use iceberg_sql::query::SnapshotRow;
use iceberg_sql::{Filter, Statement, StatementKind, TableName};

use crate::error::{CommitState, FailureKind, QueryError};
use crate::executor::AthenaExecutor;

/// What the written table's snapshots said about a write whose outcome Athena did not
/// report.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Evidence {
    /// The table written.
    pub table: TableName,
    /// The failed execution's `SubmissionDateTime` (Athena's clock).
    pub from: DateTime<Utc>,
    /// Its `CompletionDateTime` plus the clock tolerance (`None`: not reported, the
    /// window stays open).
    pub to: Option<DateTime<Utc>>,
    /// The snapshots committed in that window (compaction's `replace` left out).
    pub snapshots: Vec<SnapshotRow>,
    /// The verdict.
    pub verdict: CommitState,
    /// Why, in words.
    pub reason: String,
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} snapshot", self.reason, self.snapshots.len())?;
        if self.snapshots.len() != 1 {
            f.write_str("s")?;
        }
        write!(f, " of {} since {}", self.table, self.from)?;
        if let Some(to) = self.to {
            write!(f, " until {to}")?;
        }
        f.write_str(")")
    }
}

fn chrono_of(t: &aws_sdk_athena::primitives::DateTime) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(t.secs(), t.subsec_nanos())
}

/// Whether `snapshot` could be the commit of `statement`.
fn has_shape(statement: &Statement, snapshot: &SnapshotRow) -> bool {
    let op = snapshot.operation.as_deref().unwrap_or("");
    match statement.kind() {
        StatementKind::Insert => {
            op == "append"
                && statement.inserted_rows().is_none_or(|n| {
                    snapshot
                        .summary
                        .as_ref()
                        .and_then(|s| s.get("added-records"))
                        .and_then(|v| v.trim().parse::<u64>().ok())
                        == Some(n)
                })
        }
        _ => matches!(op, "append" | "overwrite" | "delete"),
    }
}

/// The verdict on `failure` of `statement` from the snapshots committed since `from`:
/// `completion` is the execution's `CompletionDateTime` (`None` while it runs), and
/// `tolerance` widens it for the engine's clock.
pub(crate) fn judge(
    statement: &Statement,
    failure: &QueryError,
    table: &TableName,
    (from, completion, tolerance): (DateTime<Utc>, Option<DateTime<Utc>>, chrono::Duration),
    all: Vec<SnapshotRow>,
) -> Evidence {
    let to = completion.map(|c| c + tolerance);
    let snapshots: Vec<SnapshotRow> = all
        .into_iter()
        .filter(|s| s.committed_at >= from && to.is_none_or(|t| s.committed_at <= t))
        .filter(|s| s.operation.as_deref() != Some("replace"))
        .collect();
    let shaped = snapshots.iter().filter(|s| has_shape(statement, s)).count();
    // Committed while it ran by both clocks; the rest of the window is the tolerance,
    // where the next writer's commits may already be.
    let during: Vec<&SnapshotRow> = snapshots
        .iter()
        .filter(|s| completion.is_none_or(|c| s.committed_at <= c))
        .collect();
    let conflict = failure.kind() == FailureKind::IcebergCommitConflict;
    let (verdict, reason) = if shaped == 0 {
        (
            CommitState::NotCommitted,
            format!(
                "no snapshot of this {}'s shape was committed while it ran",
                statement.kind().name()
            ),
        )
    } else if during.len() == 1
        && has_shape(statement, during[0])
        && (!conflict || statement.kind() == StatementKind::Insert)
    {
        (
            CommitState::Committed,
            format!(
                "the table's one snapshot committed while it ran ({}) is this {}'s",
                during[0].snapshot_id,
                statement.kind().name()
            ),
        )
    } else {
        (
            CommitState::Unknown,
            "other writers committed to the table while it ran, so its snapshots cannot tell whether it committed".to_string(),
        )
    };
    Evidence {
        table: table.clone(),
        from,
        to,
        snapshots,
        verdict,
        reason,
    }
}

impl AthenaExecutor {
    /// Reads `statement`'s table's snapshots committed while `exec` ran and judges
    /// whether it committed. `None` when there is nothing to read them with (not a
    /// table write, no submission time) or reading them failed (logged).
    pub(crate) async fn settle(
        &self,
        statement: &Statement,
        exec: &QueryExecution,
        failure: &QueryError,
    ) -> Option<Evidence> {
        let table = statement.writes()?;
        let status = exec.status.as_ref()?;
        // `committed_at` has milliseconds: the bound, rounded down to them, loses nothing.
        let from = chrono_of(status.submission_date_time.as_ref()?)?
            .duration_trunc(chrono::TimeDelta::milliseconds(1))
            .ok()?;
        let tolerance = chrono::Duration::from_std(self.config().snapshot_clock_tolerance)
            .unwrap_or(chrono::Duration::seconds(1));
        let completion = status.completion_date_time.as_ref().and_then(chrono_of);
        let select = table
            .metadata::<SnapshotRow>()
            .filter(SnapshotRow::COMMITTED_AT.ge(from))
            .build();
        let select = match select {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "cannot build the snapshot query that would settle the write");
                return None;
            }
        };
        // The query runs like any other (its own retries); boxed, since it runs
        // inside the statement's own future.
        let read: crate::Result<Vec<SnapshotRow>> = Box::pin(self.fetch_all(&select)).await;
        match read {
            Ok(all) => {
                let evidence = judge(
                    statement,
                    failure,
                    table,
                    (from, completion, tolerance),
                    all,
                );
                tracing::info!(query_id = %failure.query_id, verdict = ?evidence.verdict, %evidence, "settled by the table's snapshots");
                Some(evidence)
            }
            Err(e) => {
                tracing::warn!(query_id = %failure.query_id, error = %e, "reading the table's snapshots failed; the write's outcome stays unknown");
                None
            }
        }
    }
}

/// The default tolerance between Athena's clocks (API and engine). The commit comes
/// before the completion, and AWS hosts keep time with the Amazon Time Sync Service
/// (<https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/set-time.html>), so the margin
/// is small; a larger one lets the next writer's commit into the window and turns
/// more verdicts into unknown.
pub(crate) const DEFAULT_CLOCK_TOLERANCE: Duration = Duration::from_millis(100);
