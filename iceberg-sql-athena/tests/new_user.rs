//! Runs the new-user example (`examples/new_user.rs`) and checks what it did: the
//! database and table created, every row loaded once, metadata rows, typed rows and
//! Arrow batches read back.
#![cfg(feature = "arrow")]

#[path = "../examples/new_user.rs"]
#[allow(dead_code)] // its `main` is for `cargo run --example`
mod new_user;

#[tokio::test]
async fn the_new_user_example_runs_every_story() {
    let summary = new_user::run().await.expect("the example runs");
    assert_eq!(summary.created, 2, "CREATE DATABASE and CREATE TABLE");
    assert_eq!(summary.rows_committed, 3);
    assert_eq!(summary.snapshots, 1);
    assert_eq!(summary.typed_rows.len(), 3);
    assert_eq!(summary.typed_rows[1].error.as_deref(), Some("timeout"));
    assert_eq!(summary.typed_rows[0].error, None);
    assert_eq!(summary.arrow_rows, 3);
    assert_eq!(
        summary.arrow_columns,
        ["event_id", "tool_name", "event_ts", "latency_ms", "error"]
    );
}
