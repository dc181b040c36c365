//! Every future the executor returns can be spawned on a multi-threaded runtime
//! (`tokio::spawn` needs `Send`), whatever the caller passes in. Type-checked only: the
//! closures are never called. (The staged load's futures are checked in `staged.rs`.)
mod common;

use common::ev::Ev;
use iceberg_sql::evolve::EvolutionPlan;
use iceberg_sql::prelude::*;
use iceberg_sql::query::SnapshotRow;
use iceberg_sql::DatabaseName;
use iceberg_sql_athena::{
    AppendOptions, AthenaExecutor, EnsureOptions, ExecuteOptions, MaintenanceOptions, Row,
    UncheckedSql,
};

fn send<F: std::future::Future + Send>(_: F) {}

#[test]
fn every_executor_future_is_send() {
    let _ = |e: AthenaExecutor,
             s: Statement,
             rows: Vec<Ev>,
             t: TableName,
             db: DatabaseName,
             raw: UncheckedSql,
             plan: EvolutionPlan| {
        send(e.execute(&s));
        send(e.execute_with(&s, ExecuteOptions::new()));
        send(e.execute_unchecked(&raw));
        send(e.execute_unchecked_with(&raw, ExecuteOptions::new()));
        send(e.fetch_all::<Row>(&s));
        send(e.fetch_all::<(String, i64)>(&s));
        send(e.metadata::<SnapshotRow>(&t));
        send(e.snapshots(&t));
        send(e.show_tables(&db));
        send(e.describe(&t));
        send(e.live_definition(&t));
        send(e.ensure_table(Ev::table_def(), EnsureOptions::new()));
        send(e.ensure_table_for::<Ev>(EnsureOptions::new()));
        send(e.create_if_missing(&s));
        send(e.apply_evolution(&plan, false));
        send(e.maintain(&s, &s));
        send(e.maintain_steps(&s, std::slice::from_ref(&s)));
        send(e.maintain_table::<Ev>(MaintenanceOptions::new()));
        send(e.stop("query-id"));
        send(e.append(std::slice::from_ref(&s), AppendOptions::new("a"), |_| {}));
        send(e.append_rows(&rows, AppendOptions::new("a"), |_| {}));
    };
}
